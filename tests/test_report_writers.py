"""The CSV and JSON grade reports as GradeReport.write makes them (each shared question's text made once, joined
around each student's own cells) are the reports' definitions, byte for byte:

* CSV: one row per student and question, their rows not graded, their total row, students kept out after the
  class, then the rows of no student, each written by SafeWriter.writerow on its own (the plain, row-by-row path);
* JSON: ``json.dumps(report.as_dict(), indent=2, ensure_ascii=False)`` (the standard library's encoder over the
  report's plain dicts).

On classes with a roster (absent students, ids kept out), rows not graded (unknown exercise or question, no student,
a wrong variant code, duplicates, a wrong number of values), free-text and choice questions, hostile cells in ids,
names and answers; written several times, and with the writers' memos forgetting after a few entries.
"""

import csv
import io
import json
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from irlab import exact, spreadsheet
from irlab.homework import grading, variant_code
from irlab.homework.jsonstream import Shape, fragment, list_marks, value_text
from irlab.homework.key import answer_key

ROOT = Path(__file__).resolve().parents[1]
SET = ROOT / "exercises" / "homework-variants.toml"
SYSTEMS = ROOT / "exercises" / "chapter8-systems.toml"  # free-text questions, one with choices (8.8 d)
SEED = "2026"
HOSTILE = ['=HYPERLINK("http://example.org","0.5")', "@SUM(A1)", "-1+2", "0.2; -0.5", "a\tb", "x\r\ny", '"q",1',
           "\x07 0.5", "+1e400", "é 1/3", "=1;=2"]


def _csv_by_rows(report) -> str:
    """The CSV report written row by row, each row's cells computed from the grades as to_csv documents them."""
    out = io.StringIO()
    writer = spreadsheet.writer(out)
    writer.writerow(["student", "exercise", "question", "score", "max", "answer", "mistakes", "feedback", "status",
                     "lines"])
    for s in report.students + report.kept_out:
        for q in s.question_grades:  # not .questions, which gives each student their own copies
            score = sum((p.credit for p in q.parts), 0)
            writer.writerow([s.student, q.exercise, q.question, exact.decimal_text(score), 1,
                             "; ".join(p.answer for p in q.parts), "; ".join(m for p in q.parts for m in p.mistakes),
                             " | ".join(f"{p.address}: {p.message}" if p.part else p.message for p in q.parts),
                             q.lines and q.row_status or "no-answer", " ".join(str(line) for line in q.lines)])
        for row in s.rows:
            writer.writerow([s.student, row.exercise, row.question, "", "", row.answer, "", row.message, row.status,
                             row.line])
        total = sum((p.credit for q in s.question_grades for p in q.parts), 0)
        writer.writerow([s.student, "", "total", exact.decimal_text(total), len(s.question_grades), "", "", s.kept_out,
                         "kept-out" if s.kept_out else "total", ""])
    for row in report.orphan_rows():
        writer.writerow([row.student, row.exercise, row.question, "", "", row.answer, "", row.message, row.status,
                         row.line])
    return out.getvalue()


def _json_by_dumps(report) -> str:
    return json.dumps(report.as_dict(), indent=2, ensure_ascii=False) + "\n"


def _written(report, fmt: str) -> str:
    out = io.StringIO()
    report.write(fmt, out)
    return out.getvalue()


def _assert_reports_are_their_definitions(report, times: int = 2) -> None:
    expected = {"csv": _csv_by_rows(report), "json": _json_by_dumps(report)}
    for _ in range(times):
        for fmt in ("csv", "json"):
            assert _written(report, fmt) == expected[fmt], fmt
            assert report.render(fmt) == expected[fmt], fmt
    assert "kept_out" in json.loads(expected["json"])


def _class_file(path: Path, rng: random.Random, students: list[str]) -> None:
    """Answers to homework-variants from ``students`` (each their own variant, seed 2026): right, mistaken, other,
    blank and hostile answers, some rows twice, some of another set's exercise or question, a wrong variant code,
    a row without a student."""
    rows = []
    questions = [(e, q) for e in ("1", "2", "3") for q in "abcdef"]
    for student in students:
        code = variant_code("homework-variants", student, SEED)
        for exercise, question in rng.sample(questions, 7):
            try:
                key = answer_key(SET, exercise, question, student, SEED)
            except Exception:  # not a question of the set: an 'unknown-question' row
                rows.append([student, exercise, question, "0.5", code])
                continue
            values = [part.result.value for part in key.parts]
            roll = rng.random()
            if roll < 0.45:
                answer = "; ".join(exact.decimal_text(v) for v in values)
            elif roll < 0.6:
                answer = "; ".join(rng.choice(["0.5", "1/3", "0", "50%"]) for _ in values)
            elif roll < 0.7 and len(values) > 1:
                answer = exact.decimal_text(values[0])  # a wrong number of values
            else:
                answer = rng.choice(["", "-", *HOSTILE])
            rows.append([student, exercise, question, answer, code])
            if rng.random() < 0.15:  # answered twice: the later row counts
                rows.append([student, exercise, question, rng.choice(["0.25", *HOSTILE]), code])
        if rng.random() < 0.3:
            rows.append([student, "9", "a", "1", code])  # unknown exercise
    rows.append(["", "1", "a", "0.5", ""])  # no student
    rows.append([students[0], "1", "a", "0.5", "ZZZ-000"])  # a code that is not theirs
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["student", "exercise", "question", "answer", "variant"])
    writer.writerows(rows)
    path.write_text(out.getvalue(), encoding="utf-8")


STUDENTS = ["s01", "s02", "=cmd|' /C calc'!A0", "-0", "@alice", "bob", "Bob2", "s08", "s09", "s10", "é-11", "s12"]


def _roster(path: Path) -> Path:
    """The class but s12 and '-0' (kept out, answers graded), with two students who answered nothing."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["id", "name", "email"])
    for n, student in enumerate(STUDENTS[:-1]):
        if student != "-0":
            writer.writerow([student, f'Name "{n}", =2+{n}' if n % 2 else f"N{n}", f"{n}@example.org"])
    writer.writerows([["absent1", "@Absent", "a@example.org"], ["absent2", "", ""]])
    path.write_text(out.getvalue(), encoding="utf-8")
    return path


@pytest.mark.parametrize("seed", [1, 2])
def test_a_class_with_a_roster_and_every_kind_of_row_is_written_as_its_definition(tmp_path, seed):
    _class_file(tmp_path / "answers.csv", random.Random(seed), STUDENTS)
    grading.clear_caches()
    report = grading.grade(SET, tmp_path / "answers.csv", SEED, roster=_roster(tmp_path / "roster.csv"))
    statuses = {row.status for row in report.rows}
    assert {"graded", "duplicate", "unknown-exercise", "no-student", "variant-mismatch",
            "unknown-question", "wrong-part-count"} <= statuses, statuses
    assert [s.student for s in report.kept_out] == ["-0", "s12"] and report.orphan_rows()
    assert any(not q.lines for s in report.students for q in s.question_grades)  # an unanswered question
    _assert_reports_are_their_definitions(report)
    text = _written(report, "csv")
    assert "'=cmd|' /C calc'!A0,1,a," in text and "\n'-0,1," in text  # formula starts neutralised, a signed id too


def test_the_writers_forgetting_their_memos_write_the_same(tmp_path, monkeypatch):
    _class_file(tmp_path / "answers.csv", random.Random(3), STUDENTS)
    grading.clear_caches()
    report = grading.grade(SET, tmp_path / "answers.csv", SEED)
    full = {fmt: _written(report, fmt) for fmt in ("csv", "json")}
    monkeypatch.setattr(grading, "_MEMO_SIZE", 2)  # every memo emptied after two entries
    monkeypatch.setattr(spreadsheet, "_MEMO_SIZE", 2)
    monkeypatch.setattr(grading, "_JOINED", 3)  # students and rows joined three at a time
    assert {fmt: _written(report, fmt) for fmt in ("csv", "json")} == full
    _assert_reports_are_their_definitions(report, times=1)


def test_free_text_and_choice_questions_as_written_are_written_as_their_definition(tmp_path):
    answers = tmp_path / "answers.csv"
    answers.write_text("student,exercise,question,answer\n"
                       "alice,8.8,a,0.6;0.4929;0.1071\nalice,8.8,b,It makes sense\nalice,8.8,d,a\n"
                       "bob,8.8,a,0.6\nbob,8.8,d,\"b, c\"\nbob,8.8,b,=1+1\n"
                       "=carol,8.8,d,@a\n=carol,counts,a,1\n", encoding="utf-8")
    grading.clear_caches()
    report = grading.grade(SYSTEMS, answers, variants=False)
    assert report.read_by_teacher and {row.status for row in report.rows} >= {"graded", "free-text"}
    _assert_reports_are_their_definitions(report)


def test_a_class_without_students_or_questions_is_written_as_its_definition():
    empty = grading.GradeReport("set.toml", "answers.csv", None, [], [])
    _assert_reports_are_their_definitions(empty)
    assert _written(empty, "json").count("[]") >= 2  # students and rows: empty lists
    only_totals = grading.GradeReport("set.toml", "answers.csv", None,
                                      [grading.StudentGrade("-a", [], "N", "n@x"), grading.StudentGrade("b", [])], [])
    _assert_reports_are_their_definitions(only_totals)


_KEYS = st.lists(st.text(max_size=4), min_size=1, max_size=5, unique=True)
_SCALARS = st.none() | st.booleans() | st.integers(-10**20, 10**20) | st.floats() | st.text(max_size=6)


@settings(max_examples=200, deadline=None)
@given(_KEYS, st.data(), st.integers(0, 5))
def test_a_shape_writes_an_object_as_write_json_writes_it_at_its_level(keys, data, level):
    values = data.draw(st.lists(_SCALARS | st.lists(_SCALARS, max_size=3), min_size=len(keys), max_size=len(keys)))
    text = Shape(tuple(keys), level).text([value_text(v, level + 1) for v in values])
    assert text == fragment(dict(zip(keys, values)), level).text
    if level == 0:
        assert text == json.dumps(dict(zip(keys, values)), indent=2, ensure_ascii=False)
    first, between, last = list_marks(level)
    assert first + between.join(["1", "2"]) + last == fragment([1, 2], level).text
