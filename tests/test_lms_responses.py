"""`irlab grade` reads an LMS's own response exports and class lists, and grades them as irlab's CSV.

Layouts, from the LMS documentation (the fixtures under tests/data/lms/ are hand-made, no real student):
* Moodle quiz Responses report: https://docs.moodle.org/311/en/Quiz_reports (Responses report; identity columns,
  State, Started on, Completed, Time taken, Grade/10.00, then per slot "Question N" (with "Show question text"),
  "Response N", "Right answer N"); the report's source is mod/quiz/report/responses in Moodle.
* Canvas quiz Student Analysis report: https://canvas.instructure.com/doc/api/quiz_statistics.html (the "Student
  and Item Analysis"; the CSV has name, id, sis_id, section, section_id, section_sis_id, submitted, attempt, then
  "<question id>: <question text>" and its score per question, then n correct, n incorrect, score).
* Canvas gradebook export ("Student", "ID", "SIS User ID", "SIS Login ID", "Section", …, a "Points Possible" row):
  https://nemogb-dev.github.io/nemogb-r/articles/detailed-canvas-export-info.html; Moodle participants export
  ("First name", "Last name", "ID number", "Email address", …).

The round trip: one class's responses written in each LMS layout grade exactly as the equivalent irlab CSV
(student,exercise,question,answer,variant), where the student ids are the variants' sheets variant-1 … variant-3.
"""

import csv
import io
from pathlib import Path

import pytest

from irlab import InputFileError, exact
from irlab.homework import read_roster, variant_code, variant_set
from irlab.homework.key import answer_key
from irlab.lms.bank import question_name, variant_student
from irlab.lms.responses import grade

ROOT = Path(__file__).resolve().parents[1]
SET = ROOT / "exercises" / "homework-variants.toml"
DATA = ROOT / "tests" / "data" / "lms"
SEED = "2026"
SET_ID = "homework-variants"
HOSTILE = ['=HYPERLINK("http://example.org","0.5")', "@SUM(A1)", "<b>0.5</b>", "0,25", "1/0", "\x07 0.5", "+1e400"]


def _addresses():
    """(exercise, question or question.part, key) of every numeric part of the set, in set order."""
    out = []
    for exercise in variant_set(SET).exercises:
        for question in exercise.questions:
            if question.solver == "free-text":
                continue
            key = answer_key(SET, exercise.id, question.id, variant_student(1), SEED)
            parts = [None] if len(key.parts) == 1 else [str(p.index + 1) for p in key.parts]
            out += [(exercise.id, question.id, part) for part in parts]
    return out


def _decimal(value):
    return f"{exact.to_float(value):.4f}"


def _answer(exercise, question, part, number, how, n=0):
    key = answer_key(SET, exercise, question, variant_student(number), SEED)
    target = key.parts[0 if part is None else int(part) - 1]
    if how == "right":
        return _decimal(target.result.value)
    if how == "mistake":
        # a mistake that changes the value (one that gives the right value is no mistake in this variant)
        wrong = [result.value for _, result, _ in key.mistaken(target) if result.value != target.result.value]
        return _decimal(wrong[0]) if wrong else "0.123"
    if how == "blank":
        return ""
    return HOSTILE[n % len(HOSTILE)]


def _responses():
    """(LMS student, variant number, exercise, question[.part], answer): three students, one variant each, and one
    who was drawn a different variant per question and answered each as that variant's student did."""
    kinds = ("right", "mistake", "blank", "hostile")
    addresses = _addresses()
    rows = []
    for number, student in enumerate(("ada", "grace", "alan"), 1):
        for n, (exercise, question, part) in enumerate(addresses):
            how = kinds[(n + number) % len(kinds)]
            rows.append((student, number, exercise, question, part, _answer(exercise, question, part, number, how, n)))
    by = {(r[1], r[2], r[3], r[4]): r[5] for r in rows}
    for n, (exercise, question, part) in enumerate(addresses):
        number = n % 3 + 1
        rows.append(("mix", number, exercise, question, part, by[number, exercise, question, part]))
    return rows


def _name(number, exercise, question, part):
    return question_name(SET_ID, exercise, question, part, variant_code(SET_ID, variant_student(number), SEED))


def _irlab_csv(rows):
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["student", "exercise", "question", "answer", "variant"])
    for student, number, exercise, question, part, answer in rows:
        if student != "mix":
            writer.writerow([variant_student(number), exercise, question + ("" if part is None else f".{part}"), answer,
                             variant_code(SET_ID, variant_student(number), SEED)])
    return out.getvalue()


def _moodle(rows):
    """One row per attempt; slot n holds the n-th part, the question that student was drawn for it."""
    students = list(dict.fromkeys(r[0] for r in rows))
    slots = len(_addresses())
    header = ["Surname", "First name", "Email address", "State", "Started on", "Completed", "Time taken", "Grade/10.00"]
    for n in range(1, slots + 1):
        header += [f"Question {n}", f"Response {n}", f"Right answer {n}"]
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(header)
    for student in students:
        cells = [student.title(), "=1+1" if student == "alan" else "A.", f"{student}@example.org", "Finished",
                 "20 January 2026  10:00 AM", "20 January 2026  10:20 AM", "20 mins", "5.00"]
        for _, number, exercise, question, part, answer in (r for r in rows if r[0] == student):
            cells += [f"{_name(number, exercise, question, part)} What is it?", answer or "-", "0.5"]
        writer.writerow(cells)
    return out.getvalue()


def _canvas(rows):
    """A column per question drawn by anyone (and its score); a question a student was not given is empty."""
    columns = list(dict.fromkeys((r[1], r[2], r[3], r[4]) for r in rows))
    header = ["name", "id", "sis_id", "section", "section_id", "section_sis_id", "submitted", "attempt"]
    for n, address in enumerate(columns, 100):
        header += [f"{n}: {_name(*address)} What is it?", "1.0"]
    header += ["n correct", "n incorrect", "score"]
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(header)
    for uid, student in enumerate(dict.fromkeys(r[0] for r in rows), 11):
        answers = {(r[1], r[2], r[3], r[4]): r[5] for r in rows if r[0] == student}
        cells = [student.title(), str(uid), f"{student}@example.org", "IR 101", "5", "IR101-A", "2026-01-20", "1"]
        for address in columns:
            cells += [answers[address], "0.0"] if address in answers else ["", ""]
        writer.writerow(cells + ["0", "0", "0.0"])
    return out.getvalue()


def _questions(student_grade):
    return {(q.exercise, q.question): (q.score, [p.as_dict() for p in q.parts]) for q in student_grade.questions}


@pytest.mark.parametrize("layout,student_id", [(_moodle, "{}@example.org"), (_canvas, "{}@example.org")],
                         ids=["moodle", "canvas"])
def test_an_lms_export_grades_as_the_equivalent_irlab_csv(tmp_path, layout, student_id):
    rows = _responses()
    (tmp_path / "answers.csv").write_text(_irlab_csv(rows), encoding="utf-8")
    (tmp_path / "export.csv").write_text(layout(rows), encoding="utf-8")
    expected = grade(SET, tmp_path / "answers.csv", SEED)
    report = grade(SET, tmp_path / "export.csv", SEED)
    assert report.problems == [] and expected.problems == []
    assert {row.status for row in report.rows} == {"graded"}
    assert len(report.rows) == len(rows)  # every response is a row, blanks and hostile cells included
    sheets = {s.student: s for s in expected.students}
    graded = {s.student: s for s in report.students}
    for number, student in enumerate(("ada", "grace", "alan"), 1):
        mine, theirs = graded[student_id.format(student)], sheets[variant_student(number)]
        assert mine.score == theirs.score and _questions(mine) == _questions(theirs)
    mix = _questions(graded[student_id.format("mix")])
    for n, (exercise, question, part) in enumerate(_addresses()):
        own = _questions(sheets[variant_student(n % 3 + 1)])[exercise, question]
        index = 0 if part is None else int(part) - 1
        assert mix[exercise, question][1][index] == own[1][index]
    assert any(p["mistake"] for q in mix.values() for p in q[1])  # named mistakes are diagnosed
    assert all(0 < s.score < s.max_score for s in report.students)


def test_the_moodle_fixture(tmp_path):
    report = grade(SET, DATA / "moodle-responses.csv", SEED)
    statuses = [(row.student, row.exercise, row.question, row.sheet, row.status) for row in report.rows]
    assert statuses == [("ada@example.org", "1", "a", "variant-1", "graded"),
                        ("ada@example.org", "1", "d", "variant-2", "graded"),
                        ("grace@example.org", "1", "a", "variant-2", "graded"),
                        ("grace@example.org", "1", "d", "variant-1", "graded"),
                        ("alan@example.org", "", "", "", "no-variant"),
                        ("alan@example.org", "", "", "", "no-variant")]
    assert "names no variant" in report.rows[4].message and "ZZZ-ZZZ" in report.rows[5].message
    ada, grace = report.students
    questions = {(q.exercise, q.question): q for q in ada.questions}
    assert questions["1", "a"].score == 1 and questions["1", "d"].parts[0].mistake == "ap-divided-by-relevant-retrieved"
    assert grace.score == 0
    text = report.render("csv")
    assert "\n=" not in text and ",=" not in text  # the hostile cell is no formula in the report
    assert len(report.problems) == 2


def test_the_canvas_fixture_with_its_gradebook_as_roster():
    roster = read_roster(DATA / "canvas-gradebook.csv")
    assert [(e.id, e.name, e.email) for e in roster] == [("S-001", "Lovelace, Ada", "ada@example.org"),
                                                         ("S-002", "Hopper, Grace", "grace@example.org"),
                                                         ("13", "Student, Test", "")]
    report = grade(SET, DATA / "canvas-student-analysis.csv", SEED, roster=roster)
    assert [(s.student, s.score) for s in report.students] == [("S-001", 2), ("S-002", 0), ("13", 0)]
    assert report.problems == [] and len(report.rows) == 5  # the questions not drawn give no row


def test_a_moodle_participants_export_is_a_roster():
    roster = read_roster(DATA / "moodle-participants.csv")
    assert [(e.id, e.name) for e in roster] == [("ada@example.org", "Ada Lovelace"), ("grace@example.org", "Grace Hopper"),
                                                ("katherine@example.org", "Katherine Johnson")]
    report = grade(SET, DATA / "moodle-responses.csv", SEED, roster=roster)
    assert [s.student for s in report.students] == [e.id for e in roster]
    assert report.students[2].score == 0 and any("no answers" in note for note in report.notes)


def test_another_seed_names_no_variant(tmp_path):
    with pytest.raises(InputFileError, match="none of the 6 rows can be graded: 6 no-variant"):
        grade(SET, DATA / "moodle-responses.csv", "7")


def test_a_moodle_export_without_question_text_says_how_to_download_it(tmp_path):
    path = tmp_path / "responses.csv"
    path.write_text("Surname,First name,Email address,State,Grade/10.00,Response 1\nL,Ada,ada@example.org,Finished,1,0.6\n"
                    "H,Grace,grace@example.org,Finished,0,0.1\n", encoding="utf-8")
    with pytest.raises(InputFileError, match="no-variant"):
        grade(SET, path, SEED)


def test_the_cli_grades_an_export(tmp_path, capsys):
    from irlab.cli import main

    code = main(["grade", str(SET), str(DATA / "canvas-student-analysis.csv"), "--seed", SEED, "--format", "json"])
    assert code == 0 and '"S-001"' in capsys.readouterr().out
