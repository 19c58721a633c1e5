"""Adversarial review (session 41) of the reports' texts made while grading on two processes: a report's students
changed in place after grading (a teacher's override of a part's credit, a question's grade replaced in its list, a
row's message) are written as changed, exactly as the same report graded in one process and changed the same way."""

from __future__ import annotations

import dataclasses

from irlab.homework import ahead
from irlab.homework.drawing import clear_drawing_caches
from irlab.homework.grading import QuestionGrade, clear_caches
from irlab.homework.identity import read_roster
from irlab.lms.responses import grade
from test_ahead import CLASS, SET, _answers, fresh, needs_fork  # noqa: F401 (fresh: the fixture)

FORMATS = ("csv", "json", "text", "markdown", "canvas", "moodle")


def _answered(student, skip: int = 0):
    """The ``skip``-th of ``student``'s questions a row answered (its own object, not a shared unanswered one)."""
    return [q for q in student.question_grades if q.lines][skip]


def _override_by_hand(report) -> None:
    """What a library user may do to a graded report before writing it: change its students' objects in place."""
    first, second, third = report.students[:3]
    parts = _answered(first).parts  # a part's feedback is frozen: replaced in its question's list
    parts[0] = dataclasses.replace(parts[0], credit=parts[0].weight, status="correct", message="regraded by hand")
    replaced = _answered(second)
    position = second.question_grades.index(replaced)
    second.question_grades[position] = QuestionGrade(second.student, replaced.exercise, replaced.question,
                                                      list(replaced.parts), replaced.lines, "wrong-part-count")
    _answered(third).lines = ()  # a question's rows dropped: no answer now
    with_rows = next(s for s in report.students[3:] if s.rows)  # rows not graded (an answer given again)
    with_rows.rows[0].message = "looked at by hand"
    if report.kept_out:
        out = report.kept_out[0]
        parts = _answered(out).parts
        parts[0] = dataclasses.replace(parts[0], message="kept out, read by hand")


def _written(answers, enabled: bool, monkeypatch, **options) -> dict:
    monkeypatch.setattr(ahead, "_ENABLED", enabled)
    clear_caches()
    clear_drawing_caches()
    report = grade(SET, answers, "2026", **options)
    _override_by_hand(report)
    return {fmt: report.render(fmt) for fmt in FORMATS}


@needs_fork
def test_students_changed_in_place_after_grading_are_written_as_changed(fresh, tmp_path, monkeypatch):
    answers = _answers(tmp_path / "answers.csv", CLASS, seed=21)
    alone = _written(answers, False, monkeypatch)
    assert "regraded by hand" in alone["csv"] and "regraded by hand" in alone["json"]
    assert "looked at by hand" in alone["csv"]
    with_worker = _written(answers, True, monkeypatch)
    for fmt in FORMATS:
        assert with_worker[fmt] == alone[fmt], fmt


@needs_fork
def test_kept_out_students_changed_in_place_are_written_as_changed(fresh, tmp_path, monkeypatch):
    answers = _answers(tmp_path / "answers.csv", CLASS, seed=22)
    roster = tmp_path / "roster.csv"  # Student004 is not on it: graded, kept out
    roster.write_text("student,name,email\n" + "".join(f"Student{n:03d},Łukasz Straße {n},s{n}@example.org\n"
                                                       for n in range(CLASS) if n != 4), encoding="utf-8")
    alone = _written(answers, False, monkeypatch, roster=read_roster(roster))
    assert "kept out, read by hand" in alone["csv"]
    with_worker = _written(answers, True, monkeypatch, roster=read_roster(roster))
    for fmt in FORMATS:
        assert with_worker[fmt] == alone[fmt], fmt


HOSTILE_NAMES = ['=HYPERLINK("http://x","y")', "+1+2", "-3", "@SUM(A1)", "Łukasz Straße", "Zoë \u202eevil", "a,b;c",
                 'quote " inside', "tab\there", "Ωμέγα", "\u00a0padded\u00a0"]


@needs_fork
def test_a_roster_of_hostile_and_non_ascii_names_is_reported_as_one_process_reports_it(fresh, tmp_path, monkeypatch):
    import csv

    answers = _answers(tmp_path / "answers.csv", CLASS, seed=23)
    roster = tmp_path / "roster.csv"
    with open(roster, "w", encoding="utf-8", newline="") as out:
        writer = csv.writer(out)
        writer.writerow(["student", "name", "email"])
        for n in range(CLASS):
            if n != 6:  # Student006 kept out
                writer.writerow([f"Student{n:03d}", HOSTILE_NAMES[n % len(HOSTILE_NAMES)], f"ü{n}@exämple.org"])
    reports = {}
    for enabled in (False, True):
        monkeypatch.setattr(ahead, "_ENABLED", enabled)
        clear_caches()
        clear_drawing_caches()
        report = grade(SET, answers, "2026", roster=read_roster(roster))
        reports[enabled] = [report.render(fmt) for fmt in FORMATS] + [report.render(fmt) for fmt in FORMATS]
    assert reports[True] == reports[False]
    assert "Łukasz Straße" in reports[False][1] and "HYPERLINK" in reports[False][FORMATS.index("canvas")]
