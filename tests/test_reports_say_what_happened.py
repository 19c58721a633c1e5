"""Reports that say what happened (issue 29, item 4): R from the qrels when explaining a TREC topic, gradebook
columns right from every input layout, "answered" counting answers, Canvas's SIS column holding only SIS ids, and
the too-close warning agreeing with the grader on the decimals an answer must show."""

import csv
import io
from collections import defaultdict
from fractions import Fraction
from pathlib import Path

import pytest

from irlab.homework import read_roster
from irlab.lms.responses import grade
from irlab.topic_ranking import topic_ranking

ROOT = Path(__file__).resolve().parents[1]
COMPARE = ROOT / "exercises" / "compare"


# explanations of a TREC topic take R from the qrels ---------------------------------------------------------------

def _relevant_per_topic(qrels: Path) -> dict:
    """R per topic, counted from the qrels text itself (grade >= 1), not through irlab's readers."""
    counts = defaultdict(int)
    for line in qrels.read_text().splitlines():
        topic, _, _, grade = line.split()
        counts[topic] += int(grade) >= 1
    return counts


def test_topic_401_of_the_compare_runs_has_r_from_the_qrels(cli):
    # every one of topic 401's 11 relevant documents is retrieved: R was reported "not given" and assumed
    assert _relevant_per_topic(COMPARE / "qrels.txt")["401"] == 11
    out = cli("explain", "ap", "--qrels", str(COMPARE / "qrels.txt"), "--run", str(COMPARE / "baseline.txt"),
              "--topic", "401")
    assert out.returncode == 0, out.stderr
    assert "R was not given" not in out.stdout
    assert "R = 11 relevant in total" in out.stdout
    assert "R = 11 (11 retrieved + 0 judged relevant but not retrieved)" in out.stdout
    # relevant at ranks 1 2 3 5 6 7 8 10 16 19 20 (by hand from the run and the qrels): AP = S / 11
    s = (1 + 1 + 1 + Fraction(4, 5) + Fraction(5, 6) + Fraction(6, 7) + Fraction(7, 8) + Fraction(8, 10)
         + Fraction(9, 16) + Fraction(10, 19) + Fraction(11, 20))
    assert f"AP = {s / 11}" in out.stdout


@pytest.mark.parametrize("run", ["baseline.txt", "expansion.txt", "weak.txt"])
def test_every_topic_takes_r_from_the_qrels(run):
    relevant = _relevant_per_topic(COMPARE / "qrels.txt")
    for topic, r in relevant.items():
        ranking, notes = topic_ranking(str(COMPARE / "qrels.txt"), str(COMPARE / run), topic)
        assert not ranking.relevant_is_assumed and ranking.assumption() is None
        assert ranking.total_relevant == r, topic
        assert not any("R was not given" in note.text for note in notes)


# gradebook columns from every input layout ------------------------------------------------------------------------

LMS = ROOT / "tests" / "data" / "lms"
VARIANTS = ROOT / "exercises" / "homework-variants.toml"
SEED = "2026"


def _gradebook(report, layout: str) -> list[list[str]]:
    rows = list(csv.reader(io.StringIO(report.render(layout))))
    return rows[2:] if layout == "canvas" else rows[1:]  # Canvas's second row is "Points Possible"


def _identity_columns(report, layout: str) -> list[list[str]]:
    return [row[:5] if layout == "canvas" else row[:3] for row in _gradebook(report, layout)]


def _points_columns_match_the_report(report, layout: str):
    for row, student in zip(_gradebook(report, layout), report.students):
        points = row[5:-2] if layout == "canvas" else row[3:-2]
        assert [Fraction(p) for p in points] == [q.score for q in student.questions]


def test_a_moodle_responses_export_fills_email_and_full_name_never_the_id_number():
    # the fixture's identity columns: Surname, First name, Email address (no ID number column)
    report = grade(VARIANTS, LMS / "moodle-responses.csv", SEED)
    assert _identity_columns(report, "moodle") == [["", "ada@example.org", "Ada Lovelace"],
                                                   ["", "grace@example.org", "Grace Hopper"]]
    assert _identity_columns(report, "canvas") == [["Ada Lovelace", "", "", "ada@example.org", ""],
                                                   ["Grace Hopper", "", "", "grace@example.org", ""]]
    _points_columns_match_the_report(report, "moodle")
    _points_columns_match_the_report(report, "canvas")


def test_a_moodle_responses_export_with_an_id_number_column(tmp_path):
    text = (LMS / "moodle-responses.csv").read_text(encoding="utf-8").splitlines()
    text[0] = text[0].replace('"Email address"', '"Email address","ID number"')
    text[1] = text[1].replace("ada@example.org,", "ada@example.org,1001,")
    text[2] = text[2].replace("grace@example.org,", "grace@example.org,,")  # Grace has none: a blank, not her e-mail
    text[3] = text[3].replace("alan@example.org,", "alan@example.org,1003,")
    path = tmp_path / "responses.csv"
    path.write_text("\n".join(text) + "\n", encoding="utf-8")
    report = grade(VARIANTS, path, SEED)
    assert [s.student for s in report.students] == ["ada@example.org", "grace@example.org"]
    assert _identity_columns(report, "moodle") == [["1001", "ada@example.org", "Ada Lovelace"],
                                                   ["", "grace@example.org", "Grace Hopper"]]
    assert _identity_columns(report, "canvas")[0] == ["Ada Lovelace", "", "1001", "ada@example.org", ""]


def test_a_moodle_participants_roster_gives_the_id_number():
    report = grade(VARIANTS, LMS / "moodle-responses.csv", SEED, roster=read_roster(LMS / "moodle-participants.csv"))
    assert _identity_columns(report, "moodle") == [["1001", "ada@example.org", "Ada Lovelace"],
                                                   ["1002", "grace@example.org", "Grace Hopper"],
                                                   ["1003", "katherine@example.org", "Katherine Johnson"]]


def test_canvas_sis_user_id_only_ever_holds_a_sis_id():
    # Test Student has Canvas id 13 and no SIS id: 13 in "SIS User ID" could match another student's SIS id
    analysis = grade(VARIANTS, LMS / "canvas-student-analysis.csv", SEED)
    assert [s.student for s in analysis.students] == ["S-001", "S-002", "13"]
    assert _identity_columns(analysis, "canvas") == [["Ada Lovelace", "11", "S-001", "", ""],
                                                     ["Grace Hopper", "12", "S-002", "", ""],
                                                     ["Test Student", "13", "", "", ""]]
    assert _identity_columns(analysis, "moodle") == [["S-001", "", "Ada Lovelace"], ["S-002", "", "Grace Hopper"],
                                                     ["", "", "Test Student"]]
    roster = read_roster(LMS / "canvas-gradebook.csv")
    assert [(e.id, e.institution_id, e.canvas_id) for e in roster] == [("S-001", "S-001", "11"),
                                                                       ("S-002", "S-002", "12"), ("13", "", "13")]
    graded = grade(VARIANTS, LMS / "canvas-student-analysis.csv", SEED, roster=roster)
    assert _identity_columns(graded, "canvas") == [["Lovelace, Ada", "11", "S-001", "ada@example.org", ""],
                                                   ["Hopper, Grace", "12", "S-002", "grace@example.org", ""],
                                                   ["Student, Test", "13", "", "", ""]]
    _points_columns_match_the_report(graded, "canvas")


def test_irlab_answers_whose_ids_are_emails_fill_the_email_column(tmp_path):
    path = tmp_path / "answers.csv"
    path.write_text("student,exercise,question,answer\nann@example.org,1,a,0.5\ns2,1,a,0.5\n", encoding="utf-8")
    report = grade(VARIANTS, path, SEED)
    assert _identity_columns(report, "moodle") == [["", "ann@example.org", ""], ["s2", "", ""]]
    assert _identity_columns(report, "canvas") == [["ann@example.org", "", "", "ann@example.org", ""],
                                                   ["s2", "", "s2", "", ""]]


# "answered" counts answers ----------------------------------------------------------------------------------------

def _answered(report) -> dict:
    return {(r["exercise"], r["question"]): r["answered"] for r in report.question_summary()}


def test_answered_counts_answers_not_moodles_blank_responses():
    # 1a: Ada wrote 0.6, Grace's response is Moodle's "-" (none); 1d: both wrote something (Grace a formula)
    report = grade(VARIANTS, LMS / "moodle-responses.csv", SEED)
    answered = _answered(report)
    assert answered["1", "a"] == 1 and answered["1", "d"] == 2
    assert sum(answered.values()) == 3


def test_answered_counts_answers_not_blank_cells(tmp_path):
    path = tmp_path / "answers.csv"
    path.write_text("student,exercise,question,answer\ns1,1,a,0.5\ns2,1,a,\ns3,1,a,  \ns3,1,b,0.25\n",
                    encoding="utf-8")
    answered = _answered(grade(VARIANTS, path, SEED))
    assert answered["1", "a"] == 1 and answered["1", "b"] == 1 and answered["1", "c"] == 0


# the too-close warning and the grader agree on the decimals an answer must show ------------------------------------

def _finding(right, mistaken, tolerance):
    from irlab.homework.diagnosis import too_close
    from irlab.homework.mistakes import MISTAKES

    found = too_close(right, tolerance, [(MISTAKES[0], mistaken)])
    assert len(found) == 1
    return found[0]


def test_the_warning_never_asks_for_fewer_decimals_than_the_grader_takes():
    from irlab.answer_options import Tolerance
    from irlab.homework.answers import compare, near_miss, parse_answer

    right, mistaken = Fraction(549, 1000), Fraction(555, 1000)  # they round apart from 1 decimal on (0.5 vs 0.6)
    default = Tolerance()  # min_decimals = 2
    finding = _finding(right, mistaken, default)
    # the warning said "written to 1 or more decimals ... graded as the one it is nearer (... min_decimals = 1)",
    # while the grader calls 0.5 "rounded too coarsely ... give at least 2"
    assert finding.decimals == 2 == default.rounded_decimals
    assert "An answer written to 2 or more decimals tells them apart (0.55 vs 0.56)" in finding.text()
    assert "min_decimals = 1" not in finding.text()
    coarse = near_miss(parse_answer("0.5"), right, default)
    assert coarse.kind == "rounded-too-coarsely" and "give at least 2" in coarse.message
    assert compare(parse_answer("0.55"), right, default).correct
    # a question that takes 1 decimal as a rounding: then 1 decimal is what the warning says, and 0.5 is right
    one = Tolerance(min_decimals=1)
    assert _finding(right, mistaken, one).decimals == 1
    assert compare(parse_answer("0.5"), right, one).correct


def test_every_warning_names_a_precision_the_grader_takes():
    import random

    from irlab import exact
    from irlab.answer_options import Tolerance
    from irlab.homework.answers import compare, parse_answer
    from irlab.homework.diagnosis import too_close
    from irlab.homework.mistakes import MISTAKES

    rng = random.Random(29)
    checked = 0
    for _ in range(400):
        right = Fraction(rng.randint(100, 999), 1000)
        mistaken = right + Fraction(rng.randint(-15, 15), 1000)
        for tolerance in (Tolerance(), Tolerance(min_decimals=3), Tolerance(min_decimals=1)):
            for finding in too_close(right, tolerance, [(MISTAKES[0], mistaken)]):
                assert finding.decimals >= tolerance.rounded_decimals
                # the right value written as the warning says is graded right, never "rounded too coarsely"
                written = parse_answer(exact.decimal_text(right, finding.decimals, strip=False))
                assert compare(written, right, tolerance).correct, (right, mistaken, finding.text())
                checked += 1
    assert checked > 100


def test_a_manifest_keeps_the_canvas_ids_of_its_roster(tmp_path):
    from irlab.homework.identity import read_manifest, write_manifest

    roster = read_roster(LMS / "canvas-gradebook.csv")
    path = write_manifest(tmp_path / "manifest.json", "homework-variants", VARIANTS, SEED, roster, {})
    assert [(e.id, e.institution_id, e.canvas_id) for e in read_manifest(path).roster] == [
        ("S-001", "S-001", "11"), ("S-002", "S-002", "12"), ("13", "", "13")]
    report = grade(VARIANTS, LMS / "canvas-student-analysis.csv", manifest=path)
    assert _identity_columns(report, "canvas") == [["Lovelace, Ada", "11", "S-001", "ada@example.org", ""],
                                                   ["Hopper, Grace", "12", "S-002", "grace@example.org", ""],
                                                   ["Student, Test", "13", "", "", ""]]
    # irlab's own roster keeps no LMS ids: its id is the institution's id, as before
    own = tmp_path / "roster.csv"
    own.write_text("id,name,email\ns1,Ann Lee,ann@example.org\n", encoding="utf-8")
    plain = write_manifest(tmp_path / "plain.json", "homework-variants", VARIANTS, SEED, read_roster(own), {})
    assert "sis_id" not in plain.read_text() and read_manifest(plain).roster[0].institution_id == "s1"
