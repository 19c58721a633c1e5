"""irlab.lms.build.build_bank and ``irlab quiz``: the variants, exact values, margins and named-mistake feedback."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from irlab.cli import main
from irlab.homework.answers import rational_value
from irlab.exact import decimal_text
from irlab.homework.feedback import grade_part
from irlab.homework.key import answer_key
from irlab.lms.bank import parse_question_name
from irlab.lms.build import build_bank

SET = Path(__file__).resolve().parent.parent / "exercises" / "homework-variants.toml"


@pytest.fixture(scope="module")
def bank():
    return build_bank(SET, 3, seed="2026")


def test_three_variants_of_every_numeric_question(bank):
    numeric = {}
    for question in bank.questions:
        if question.kind == "numerical":
            numeric.setdefault(question.category, set()).add(question.code)
    assert len(numeric) == 12  # 1a-1f, 2a, 2b, 3a and the three parts of 3b
    assert all(len(codes) == 3 for codes in numeric.values())
    for question in bank.questions:
        assert parse_question_name(question.name)[2] == question.code


def test_right_values_are_the_answer_keys_exact_values(bank):
    for question in bank.questions:
        key = answer_key(SET, question.exercise, question.question, question.student, "2026")
        part = key.parts[int(question.part) - 1] if question.part else key.parts[0]
        right = question.answers[0]
        assert right.mistake is None and right.credit == 1
        assert right.value == rational_value(part.value)
        tolerance = key.tolerance
        if tolerance.form == "fraction":  # an LMS cannot ask for the fraction: its decimal to 4 places
            assert right.margin == Fraction(1, 20000)
        elif tolerance.decimals is not None:  # half a unit of the required decimals
            assert right.margin == Fraction(1, 2 * 10**tolerance.decimals)
        else:  # the tolerance's interval
            assert right.margin == max(tolerance.rtol * abs(right.value), tolerance.atol)
        assert right.feedback.startswith("Correct:")
        rights = [a for a in question.answers if a.mistake is None]
        for rounding in rights[1:]:  # a correct rounding outside the interval: a right answer of its own, graded right
            assert rounding.margin == 0 and abs(rounding.value - right.value) > right.margin
            assert grade_part(key, part, decimal_text(rounding.value, 12)).correct
        for wrong in question.answers[len(rights):]:  # never both right and a mistake
            assert wrong.mistake is not None and wrong.credit == key.mistake_credit
            assert all(abs(wrong.value - r.value) > r.margin + wrong.margin for r in rights)


def test_the_bank_accepts_what_irlab_grade_accepts_and_no_more(tmp_path):
    # mean fall-out 29/624 ≈ 0.046474: irlab accepts 0.0460-0.0469 (1 %) and the roundings 0.05 and 0.046 (2 and 3
    # decimals, outside 1 %), not 0.043; before, one widened interval [0.043, 0.05] took 0.043 as right
    path = tmp_path / "fallout.toml"
    path.write_text('title = "F"\n[[exercise]]\nid = "fo"\nstatement = "{rankings}"\n[exercise.parameters]\n'
                    'rankings = ["RNNR", "NRN"]\ncollection = [50, 40]\n[[exercise.question]]\nid = "a"\n'
                    'text = "Mean fall-out at 3?"\nsolver = "fallout"\nk = 3\n')
    (question,) = build_bank(path, 1, seed="s").questions
    rights = [a for a in question.answers if a.mistake is None]
    assert [(a.value, a.margin) for a in rights] == [(Fraction(29, 624), Fraction(29, 62400)),
                                                      (Fraction(5, 100), 0), (Fraction(46, 1000), 0)]

    def accepted(value):
        return any(abs(value - a.value) <= a.margin for a in rights)

    for answer, right in (("0.043", False), ("0.05", True), ("0.046", True), ("0.0465", True), ("0.048", False)):
        assert accepted(Fraction(answer)) is right, answer
        key = answer_key(path, "fo", "a")
        assert grade_part(key, key.parts[0], answer).correct is right, answer


def test_a_rounding_equal_to_a_coarser_one_is_one_answer(tmp_path):
    # Wilcoxon's exact one-sided p for R's ?wilcox.test data: 10/512 = 5/256 = 0.01953125 rounds to 0.02 at 2
    # decimals and to 0.020 at 3: one number, so one right answer (and one "%" answer), not two meeting ones
    path = tmp_path / "wilcox.toml"
    path.write_text('title = "W"\n[[exercise]]\nid = "w"\nstatement = "p?"\n[exercise.parameters.systems]\n'
                    'x = [1.83, 0.50, 1.62, 2.48, 1.68, 1.88, 1.55, 3.06, 1.30]\n'
                    'y = [0.878, 0.647, 0.598, 2.05, 1.06, 1.29, 1.06, 3.14, 1.29]\n[[exercise.question]]\nid = "b"\n'
                    'solver = "wilcoxon"\nalternative = "greater"\n')
    (question,) = build_bank(path, 1, seed="s").questions
    rights = [(a.value, a.margin) for a in question.answers if a.mistake is None]
    assert rights == [(Fraction(5, 256), Fraction(5, 25600)), (Fraction(2, 100), 0)]
    values = [a.value for a in question.answers]
    assert len(values) == len(set(values)), values


def test_a_mistake_answer_carries_irlabs_feedback(bank):
    found = [a for q in bank.questions for a in q.answers if a.mistake == "ap-divided-by-relevant-retrieved"]
    assert found
    assert all("relevant documents retrieved" in a.feedback and a.feedback.startswith("Not quite:") for a in found)


def test_statement_and_solution_are_the_variants(bank):
    first = [q for q in bank.questions if q.category.endswith("/1a")]
    rankings = {q.text.split("\n\n")[1] for q in first}
    assert len(rankings) > 1  # each variant shows its own ranking
    assert all(set(r) <= set("RN") for r in rankings)
    for question in first:
        assert "\\(" in question.solution_html and "<math" not in question.solution_html
        assert "1b)" not in question.solution_html  # just that question's section


def test_same_seed_same_bank():
    assert build_bank(SET, 3, seed="2026") == build_bank(SET, 3, seed="2026")
    assert build_bank(SET, 3, seed="2026").questions != build_bank(SET, 3, seed="2027").questions


def test_a_too_close_mistake_is_left_out_with_a_note(tmp_path):
    # variants are drawn so that no named mistake lies within the tolerance (tests/test_variant_draws.py); a
    # question that keeps such draws (allow_degenerate) has them: 2a's discount-log2-rank in a variant of seed 2026
    kept = tmp_path / "kept.toml"
    kept.write_text(SET.read_text().replace('solver = "ndcg"\nk = 5\n', 'solver = "ndcg"\nk = 5\nallow_degenerate = true\n'))
    bank = build_bank(kept, 3, seed="2026")
    notes = [n for n in bank.notes if "discount-log2-rank" in n and "lies within the margin of the right value" in n]
    assert notes and "left out" in notes[0]
    named = parse_question_name(notes[0].split(":")[0])
    question = next(q for q in bank.questions if q.name == notes[0].split(": ")[0])
    assert named and all(a.mistake != "discount-log2-rank" for a in question.answers)


def test_a_set_without_variants_has_one_variant(tmp_path):
    text = SET.read_text().split("[[exercise]]")
    plain = "[[exercise]]".join(text[:2])  # exercise 1 only
    plain = plain.replace("[exercise.variants]\nranking = { length = [8, 12], relevant = [3, 6] }\n"
                          "relevant = [5, 9]\ncollection = { choose = [200, 500, 1000] }\n", "")
    path = tmp_path / "plain.toml"
    path.write_text(plain)
    bank = build_bank(path, 5, seed="x")
    assert bank.variants == 1 and len({q.code for q in bank.questions}) == 1
    assert any("one variant" in note for note in bank.notes)


def test_hostile_text_does_not_break_the_bank(tmp_path):
    hostile = 'Evil </question>]]><script>alert(1)</script> $$x$$ \\\\( {=~#} \x1b[31m'
    in_toml = hostile.replace("\\", "\\\\").replace("\x1b", "\\u001b")
    text = SET.read_text().replace('title = "Homework: evaluating', f'title = "{in_toml} evaluating', 1)
    text = text.replace('text = "What is the precision of the list?"', 'text = "What is <b>P</b> &amp; {{x}} ~ = # of the list?"')
    path = tmp_path / "hostile.toml"
    path.write_text(text)
    bank = build_bank(path, 2, seed="s")
    assert bank.title.startswith(hostile)
    first = bank.questions[0]
    assert "<b>P</b>" in first.text and "&lt;b&gt;P&lt;/b&gt;" in first.text_html
    for fmt, extension in (("moodle", "xml"), ("gift", "gift"), ("qti", "zip")):
        out = tmp_path / f"bank.{extension}"
        assert main(["quiz", str(path), "--format", fmt, "--variants", "2", "-o", str(out)]) == 0


def test_variants_are_bounded():
    from irlab.errors import IrlabError

    with pytest.raises(IrlabError):
        build_bank(SET, 101)
    with pytest.raises(IrlabError):
        build_bank(SET, 0)


def test_quiz_command_writes_each_format(tmp_path, capsys):
    for fmt, extension in (("moodle", "xml"), ("gift", "gift"), ("qti", "zip")):
        out = tmp_path / f"bank.{extension}"
        assert main(["quiz", str(SET), "--format", fmt, "--variants", "3", "--seed", "2026", "-o", str(out)]) == 0
        assert out.stat().st_size > 0
    err = capsys.readouterr().err
    assert "wrote 36 questions" in err and "irlab: note:" in err
    assert main(["quiz", str(SET), "--format", "gift", "--variants", "101", "-o", str(tmp_path / "x")]) == 2


def test_only_the_close_value_of_a_two_valued_mistake_is_left_out(tmp_path):
    # ERR-IA@4 of '1+2 - 2 3' (with '3 1+4' not retrieved) is 58/131 ≈ 0.4427; the off-by-one-rank mistake has two
    # values: ERR-IA@5 = 290/661 ≈ 0.4387 (within 1 % of it: left out) and ERR-IA@3 = 13/32 = 0.40625 (far: kept)
    path = tmp_path / "diversity.toml"
    path.write_text('title = "Diversity"\n[[exercise]]\nid = "1"\nstatement = "Subtopics {intents}."\n'
                    '[exercise.parameters]\nintents = "1+2 - 2 3"\nunretrieved_intents = "3 1+4"\n'
                    '[[exercise.question]]\nid = "b"\ntext = "ERR-IA@4?"\nsolver = "err-ia"\nk = 4\n')
    bank = build_bank(path, 1, seed="s")
    (question,) = bank.questions
    assert question.answers[0].value == Fraction(58, 131)
    off_by_one = [a.value for a in question.answers if a.mistake == "off-by-one-rank"]
    assert off_by_one == [Fraction(13, 32)]
    assert any("off-by-one-rank" in note and "0.438729198185" in note for note in bank.notes)
