"""A named mistake inside the tolerance, ambiguous feedback, and check() on answers it cannot read (issue 20,
items 8, 12 and part of 13).

The kappa example: two judges, 20 documents; both say relevant for 8, both non-relevant for 9, judge 1 alone for 1,
judge 2 alone for 2. P(A) = 17/20. Pooled (IIR): P(rel) = (9 + 10)/40 = 19/40, P(E) = (19/40)^2 + (21/40)^2 =
802/1600 = 401/800, kappa = (17/20 - 401/800)/(1 - 401/800) = (279/800)/(399/800) = 93/133 ≈ 0.69925. Cohen's
per-judge marginals: P(E) = (9/20)(10/20) + (11/20)(10/20) = 1/2, kappa = (17/20 - 1/2)/(1/2) = 7/10. The two are
0.11 % apart, inside the default 1 % tolerance.
"""

from __future__ import annotations

import json
from pathlib import Path
import math
import tomllib
from fractions import Fraction as F

import pytest

from irlab.homework import assert_answer, check
from irlab.homework import variants
from irlab.homework.answers import MAX_ANSWER_CHARS, Tolerance, compare, parse_answer
from irlab.homework.diagnosis import matches
from irlab.homework.findings import set_too_close, too_close_notes
from irlab.homework.feedback import grade_part
from irlab.homework.grading import grade
from irlab.homework.key import answer_key

RIGHT, PER_JUDGE = F(93, 133), F(7, 10)
KAPPA_SET = """title = "Kappa"

[[exercise]]
id = "k"
title = "kappa"
statement = "Two judges."

[exercise.parameters]
judges_table = [8, 1, 2, 9]

[[exercise.question]]
id = "a"
text = "What is the kappa measure of agreement?"
solver = "kappa"
{options}
"""


def kappa_set(tmp_path, options: str = "", name: str = "kappa.toml"):
    path = tmp_path / name
    path.write_text(KAPPA_SET.format(options=options), encoding="utf-8")
    return path


@pytest.fixture
def kappa(tmp_path):
    return kappa_set(tmp_path)


@pytest.fixture(autouse=True)
def fresh_warnings(monkeypatch):
    """irlab sheet warns once per question and mistake in a process: each test starts with none warned."""
    monkeypatch.setattr(variants, "_WARNED", set())


def only(feedback):
    assert len(feedback.parts) == 1
    return feedback.parts[0]


# the finding -----------------------------------------------------------------------------------

def test_the_per_judge_kappa_is_found_within_the_tolerance_with_what_separates_it(kappa):
    assert check(kappa, "k", "a", "93/133").correct  # the hand computation above
    [finding] = set_too_close(kappa)
    assert (finding.right, finding.mistaken, finding.mistake.name) == (RIGHT, PER_JUDGE, "kappa-per-judge-marginals")
    # 0.699 vs 0.700 differ at 3 decimals (and at every finer precision); at 2 both are 0.70
    assert finding.decimals == 3
    # half-unit intervals of 4 decimals (±0.00005) are disjoint since |0.7 - 0.69925| = 0.00075 > 0.0001
    assert finding.grading_decimals == 4
    # relative intervals r(1 ± t), m(1 ± t) are disjoint when t < 0.00075 / (0.69925 + 0.7) = 0.000537
    assert finding.tolerance == F(5, 10000)
    text = finding.text()
    for said in ("exercise k, question a", "κ = 93/133 ≈ 0.6992", "7/10 = 0.7", "kappa-per-judge-marginals",
                 "3 or more decimals", "(0.699 vs 0.700)", "(0.70) is graded right", "decimals = 4",
                 "tolerance = 0.0005 with min_decimals = 3"):
        assert said in text, said


@pytest.mark.parametrize("options", ["decimals = 4", "tolerance = 0.0005\nmin_decimals = 3"])
def test_the_options_the_note_suggests_do_separate_them(tmp_path, options):
    path = kappa_set(tmp_path, options)
    assert set_too_close(path) == []
    assert not check(path, "k", "a", "0.7000").correct and check(path, "k", "a", "0.6992").correct
    tolerance = Tolerance.of(tomllib.loads(options))
    assert not any_answer_fits_both(tolerance)


def any_answer_fits_both(tolerance: Tolerance) -> bool:
    """Every answer with 1 to 5 decimals between 0.68 and 0.72: is one graded right and matched to the mistake?"""
    for decimals in range(1, 6):
        step = 10**decimals
        for n in range(int(0.68 * step), int(0.72 * step) + 1):
            written = parse_answer(_decimal(n, decimals))
            if compare(written, RIGHT, tolerance).correct and matches(written.value, written, PER_JUDGE, tolerance):
                return True
    return False


def _decimal(n: int, decimals: int) -> str:
    whole, fraction = divmod(n, 10**decimals)
    return f"{whole}.{fraction:0{decimals}d}"


def test_under_the_default_tolerance_some_answers_do_fit_both():
    assert any_answer_fits_both(Tolerance())  # what the finding claims, checked answer by answer


def test_an_exact_fraction_question_and_far_mistakes_give_no_finding(tmp_path):
    assert set_too_close(kappa_set(tmp_path, 'form = "fraction"')) == []
    assert set_too_close("exercises/chapter8-book.toml") == []  # the book's exercises: every mistake is far


# grading by the closer reading -------------------------------------------------------------------

@pytest.mark.parametrize("answer", ["0.7000", "0.700", "7/10", "0.6997"])
def test_an_answer_written_precisely_enough_to_show_the_mistake_is_graded_as_it(kappa, answer):
    part = only(check(kappa, "k", "a", answer))
    assert part.status == "wrong" and part.credit == 0
    assert part.mistake == "kappa-per-judge-marginals" and part.reading == "nearer-mistake"
    assert "each judge's own proportions" in part.message
    assert f"{answer} is within the tolerance of the right value" in part.message
    assert "nearer this mistake's value (0.7000) than the right one" in part.message


@pytest.mark.parametrize("answer", ["0.6992", "0.699", "93/133", "0.6996", "0.69925"])
def test_an_answer_that_is_the_right_value_or_nearer_to_it_is_right(kappa, answer):
    part = only(check(kappa, "k", "a", answer))
    assert part.status == "correct" and part.credit == 1 and part.reading is None
    assert part.message == f"Correct: {answer} (κ = 93/133 ≈ 0.6992)."


@pytest.mark.parametrize("answer", ["0.70", "0.7", 0.7])
def test_a_right_answer_too_coarse_to_tell_keeps_its_credit_and_names_the_mistake(kappa, answer):
    part = only(check(kappa, "k", "a", answer))
    assert part.status == "correct" and part.credit == 1
    assert part.reading == "also-mistake" and part.close_to == ("kappa-per-judge-marginals",)
    assert part.mistake is None and part.also == ()  # not counted among the class's mistakes
    assert part.message.startswith(f"Correct: {answer} (κ = 93/133 ≈ 0.6992). At the precision written it also fits "
                                   "a common mistake (")
    assert part.message.endswith("write at least 3 decimals to show which one you computed.")


def test_the_mistake_shown_earns_the_questions_mistake_credit(tmp_path):
    path = kappa_set(tmp_path, "mistake_credit = 0.5")
    assert check(path, "k", "a", "0.7000").score == F(1, 2)
    assert check(path, "k", "a", "0.6992").score == 1


def test_a_precisely_right_answer_is_decided_without_re_solving_the_mistakes(tmp_path):
    path = kappa_set(tmp_path, name="fresh.toml")
    key = answer_key(path, "k", "a")
    for answer in ("0.6992", "93/133", "69.92%", "0.69925"):
        assert grade_part(key, key.parts[0], answer).correct
    assert key.candidates == {}  # the catalogue of mistakes was never solved
    grade_part(key, key.parts[0], "0.70")
    assert key.candidates != {}


# solve, sheet, grade -------------------------------------------------------------------------------

def test_irlab_solve_notes_it_on_stderr_and_leaves_the_solution_alone(cli, kappa):
    from irlab.exercise_set import solve

    out = cli("solve", str(kappa))
    assert out.returncode == 0
    assert out.stdout == solve(str(kappa)).render("text")
    [note] = out.stderr.splitlines()
    assert note == f"irlab: note: {set_too_close(kappa)[0].text()}"
    quiet = cli("solve", "exercises/chapter8-book.toml")
    assert quiet.returncode == 0 and quiet.stderr == ""


def test_irlab_sheet_warns_the_instructor_not_the_student_and_the_key_says_it(cli, kappa):
    sheet = cli("sheet", str(kappa), "--student", "s1")
    assert sheet.returncode == 0
    assert "mistake" not in sheet.stdout and "0.7" not in sheet.stdout
    assert sheet.stderr == f"irlab: warning: {set_too_close(kappa)[0].text()}\n"
    key = cli("sheet", str(kappa), "--student", "s1", "--key")
    assert key.returncode == 0
    assert key.stdout.rstrip().endswith(f"Grading notes\n-------------\n\n{set_too_close(kappa)[0].text()}")


def test_irlab_grade_reports_the_finding_and_what_it_decided(cli, kappa, tmp_path):
    answers = tmp_path / "answers.csv"
    answers.write_text("student,exercise,question,answer\ns1,k,a,0.7000\ns2,k,a,0.70\ns3,k,a,93/133\ns4,k,a,0.6992\n",
                       encoding="utf-8")
    report = grade(kappa, answers)
    assert [str(s.score) for s in report.students] == ["0", "1", "1", "1"]
    counted = (" In this class, 2 answers within the tolerance fit such a mistake: 1 written precisely enough was "
               "graded as the mistake it is nearer, 1 too coarse to tell was graded right.")
    assert report.notes == [set_too_close(kappa)[0].text() + counted]
    out = cli("grade", str(kappa), str(answers), "--format", "json")
    assert json.loads(out.stdout)["notes"] == report.notes
    assert f"irlab: note: {report.notes[0]}" in out.stderr.splitlines()
    assert counted.strip() in cli("grade", str(kappa), str(answers), "--format", "markdown").stdout


def test_a_question_drawn_per_student_is_noted_when_it_decided_an_answer(tmp_path):
    # s001's variant (seed 2026) of exercise 2: grades 3, 0, 3, 3, 3 retrieved and a 3 not retrieved; every gain 7.
    # nDCG@5 = (1 + 1/2 + 1/log2 5 + 1/log2 6) / (1 + 1/log2 3 + 1/2 + 1/log2 5 + 1/log2 6) ≈ 0.7860; with the
    # discount 1/i instead: (1 + 1/3 + 1/4 + 1/5) / (1 + 1/2 + 1/3 + 1/4 + 1/5) = 107/137 ≈ 0.7810, 0.6 % away.
    right = (1 + 1 / 2 + 1 / math.log2(5) + 1 / math.log2(6)) / (1 + 1 / math.log2(3) + 1 / 2 + 1 / math.log2(5)
                                                                 + 1 / math.log2(6))
    assert f"{right:.4f}" == "0.7860" and f"{107 / 137:.4f}" == "0.7810"
    answers = tmp_path / "answers.csv"
    answers.write_text("student,exercise,question,answer\ns001,2,a,0.7810\ns002,2,a,0.5\n", encoding="utf-8")
    # the shipped set refuses such draws (degenerate.py); a set that keeps them (allow_degenerate) issues this one
    keeping = tmp_path / "homework-variants.toml"
    keeping.write_text(Path("exercises/homework-variants.toml").read_text(encoding="utf-8").replace(
        "[[exercise.question]]\n", "[[exercise.question]]\nallow_degenerate = true\n"), encoding="utf-8")
    report = grade(keeping, answers, "2026")
    [part] = [q.parts[0] for q in report.students[0].questions if (q.exercise, q.question) == ("2", "a")]
    assert (part.status, part.mistake, part.reading) == ("wrong", "discount-reciprocal-rank", "nearer-mistake")
    [note] = [n for n in report.notes if n.startswith("exercise 2, question a:")]
    assert note.startswith("exercise 2, question a: in some students' variants a common mistake's value lies within "
                           "the tolerance of the right value. In this class, 1 answer within the tolerance fits such "
                           "a mistake: 1 written precisely enough was graded as the mistake it is nearer. For "
                           "example, in s001's variant: the right value nDCG@5 ≈ 0.7860 and the value of a common "
                           "mistake (discount 1/i instead of a logarithm: discount-reciprocal-rank) = 107/137 ≈ 0.7810")


# ambiguous feedback names every reading ---------------------------------------------------------------

NDCG_SET = """title = "nDCG"

[[exercise]]
id = "n"
title = "nDCG"
statement = "Grades {{ranking}}."

[exercise.parameters]
ranking = [1, 3, 1, 0, 3]

[[exercise.question]]
id = "a"
text = "nDCG@4?"
solver = "ndcg"
k = 4
{options}
"""


def ndcg_set(tmp_path, options=""):
    path = tmp_path / "ndcg.toml"
    path.write_text(NDCG_SET.format(options=options), encoding="utf-8")
    return path


def test_an_answer_that_is_the_value_at_rank_3_and_the_right_value_rounded_names_both(tmp_path):
    # gains 2^g - 1 = 1, 7, 1, 0, 7; ideal order 7, 7, 1, 1, 0. DCG@4 = DCG@3 = 1 + 7/log2 3 + 1/2;
    # IDCG@4 = 7 + 7/log2 3 + 1/2 + 1/log2 5, IDCG@3 = 7 + 7/log2 3 + 1/2
    dcg = 1 + 7 / math.log2(3) + 1 / 2
    at_4, at_3 = dcg / (7 + 7 / math.log2(3) + 1 / 2 + 1 / math.log2(5)), dcg / (7 + 7 / math.log2(3) + 1 / 2)
    assert (f"{at_4:.4f}", f"{at_3:.4f}") == ("0.4792", "0.4965")  # 0.5 is both at_3 (1 %) and at_4 to 1 decimal
    path = ndcg_set(tmp_path, "rounding_credit = 0.5")
    part = only(check(path, "n", "a", "0.5"))
    assert part.status == "wrong" and (part.mistake, part.also) == ("off-by-one-rank", ("rounded-too-coarsely",))
    assert part.message == ("Not quite: 0.5 fits 2 readings, which cannot be told apart at the precision you wrote "
                            "(give more decimals to tell them apart): (1) 0.5 is the value at rank 3; this question "
                            "cuts the list at k = 4 (step 2 of the worked solution); or (2) 0.5 is the right value "
                            "rounded to 1 decimal; give at least 2 (the value is 0.4792). Partial credit: 1/2 of this "
                            "part.")
    assert part.credit == F(1, 2)  # the better of the two readings' credits: the answer cannot tell which
    two = only(check(path, "n", "a", "0.50"))  # 2 decimals: the right value would be 0.48, only rank 3 fits
    assert (two.mistake, two.also) == ("off-by-one-rank", ()) and "fits" not in two.message


# check() never raises for a student's answer -------------------------------------------------------------

class Unprintable:
    def __str__(self):
        raise RuntimeError("no text")


@pytest.mark.parametrize("answer, problem", [
    (10**5000, "the answer is a number of about 5,001 digits; irlab reads answers of at most 1,000 characters"),
    (-10**5000, "the answer is a number of about 5,001 digits; irlab reads answers of at most 1,000 characters"),
    (F(10**3000, 7), "the answer is a fraction of about 3,002 digits; irlab reads answers of at most 1,000 characters"),
    ("1" * 5000, "the answer is 5,000 characters long; irlab reads answers of at most 1,000 characters"),
    (Unprintable(), "'an unprintable Unprintable' is not a number (write e.g. 21/50, 0.42 or 42%)"),
    (float("nan"), "nan is not a finite number"),
], ids=["int-5001-digits", "negative-int", "fraction-3002-digits", "text-5000-chars", "str-raises", "nan"])
def test_an_answer_that_cannot_be_read_is_graded_unreadable_never_raised(kappa, answer, problem):
    part = only(check(kappa, "k", "a", answer))
    assert part.status == "invalid" and part.credit == 0
    assert part.message == f"No answer recognised: {problem}."
    with pytest.raises(AssertionError):
        assert_answer(kappa, "k", "a", answer)


def test_the_limit_is_on_the_answer_not_on_its_value(kappa):
    assert MAX_ANSWER_CHARS == 1000
    assert parse_answer("0." + "6" * 998).ok and parse_answer(10**999).ok  # 1,000 characters: read
    assert not parse_answer("0." + "6" * 999).ok


def test_a_huge_number_among_several_parts_is_still_feedback():
    whole = check("exercises/homework-variants.toml", "3", "b", 10**5000)  # 3 parts, one value
    assert not whole.correct and "'a number of about 5,001 digits' gives 1" in whole.text()
    each = check("exercises/homework-variants.toml", "3", "b", [10**5000, "1/2", "1/2"])
    assert each.parts[0].status == "invalid" and "5,001 digits" in each.parts[0].message


def test_a_class_file_with_an_overlong_answer_grades_it_unreadable(kappa, tmp_path):
    answers = tmp_path / "answers.csv"
    answers.write_text(f"student,exercise,question,answer\ns1,k,a,{'7' * 2000}\ns2,k,a,93/133\n", encoding="utf-8")
    report = grade(kappa, answers)
    first = report.students[0].questions[0].parts[0]
    assert first.status == "invalid" and "2,000 characters long" in first.message
    assert report.students[1].score == 1
