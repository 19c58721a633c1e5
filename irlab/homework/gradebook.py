"""A graded class in the shapes gradebooks import, and the class summary report with its score histogram.

* ``canvas``: Canvas's gradebook CSV — ``Student, ID, SIS User ID, SIS Login ID, Section``, then one column
  per question (a new column becomes a new assignment on import), the total and the percentage, with the
  ``Points Possible`` row that Canvas's own export writes under the header (Canvas Community, "How do I
  import grades in the Gradebook?"). ``ID`` is the student's Canvas id when a Canvas list gave it, ``SIS User
  ID`` only ever a SIS id (blank for a student without one: a Canvas id there could match another student),
  ``SIS Login ID`` the e-mail.
* ``moodle``: Moodle's "Import grades from CSV file" — ``ID number, Email address, Full name`` (map one of
  them to the user field at import), then one column per question, ``Total`` and ``Percentage`` (Moodle docs,
  "Import grades"). ``ID number`` is only ever the institution's id, never an e-mail.

Who is who comes from the roster when there is one (irlab's ``id,name,email``, whose id is the institution's id
unless it is an e-mail; a Canvas gradebook or Moodle participants export, with their own columns), else from the
LMS export graded (a Moodle Responses report's names, e-mail and ID number; a Canvas Student Analysis's name,
SIS id and Canvas id), else from the id alone.

Every question of the set graded is a column, answered by anyone or not (``--exercise`` names the exercises to
grade), so the points possible never shrink. The rows are the class: the roster's students in its order (ids not
on the roster are problems of the report, never rows here); without a roster, every id with an answer to the set.
No cell reads as a spreadsheet formula (:mod:`irlab.spreadsheet`: a student's name ``=HYPERLINK(…)`` is written
``'=HYPERLINK(…)``).

Points are decimals rounded half away from zero to 4 places (irlab keeps them exact: ``--format json``).
"""

from __future__ import annotations

import io
from fractions import Fraction
from functools import lru_cache

from .. import exact, spreadsheet
from ..document import Document
from ..plots import score_histogram  # matplotlib itself is imported when a histogram is drawn
from ..printable import figure


@lru_cache(maxsize=1024)  # a class's scores are a few hundred values (0, 1/3, 1/2, …): each written once
def _points(value) -> str:
    return exact.decimal_text(value)


def question_columns(report) -> list[str]:
    """One gradebook column per question, e.g. 'homework-variants 1a' (set id, exercise id, question id)."""
    return [f"{report.set_id or 'homework'} {exercise}{question}" for exercise, question in report.questions]


def percentage(score: Fraction, max_score: int) -> Fraction:
    return Fraction(score) * 100 / max_score if max_score else Fraction(0)


def gradebook_csv(report, layout: str) -> str:
    """One row per student (roster students without answers included, with 0) in Canvas's or Moodle's layout."""
    out = io.StringIO()
    writer = spreadsheet.writer(out)
    columns = question_columns(report)
    set_name = report.set_id or "homework"
    total, percent = f"{set_name} total", f"{set_name} percentage"
    max_score = len(report.questions)
    if layout == "canvas":
        writer.writerow(["Student", "ID", "SIS User ID", "SIS Login ID", "Section", *columns, total, percent])
        writer.writerow(["Points Possible", "", "", "", "", *(["1"] * len(columns)), max_score, 100])
    elif layout == "moodle":
        writer.writerow(["ID number", "Email address", "Full name", *columns, "Total", "Percentage"])
    else:
        raise ValueError(f"unknown gradebook layout {layout!r}")
    for student in report.students:
        by_question = {(q.exercise, q.question): q.score for q in student.question_grades}  # each summed once
        points = [_points(by_question.get(key, 0)) for key in report.questions]
        score = sum(by_question.values(), Fraction(0)) if len(by_question) == len(student.question_grades) \
            else student.score
        share = _points(percentage(score, max_score))
        if layout == "canvas":  # SIS User ID only ever a SIS id: a Canvas id there can match another student
            writer.writerow([student.name or student.student, student.canvas_id, student.sis_id, student.email, "",
                             *points, _points(score), share])
        else:
            writer.writerow([student.sis_id, student.email, student.name, *points, _points(score), share])
    return out.getvalue()


def class_report(report) -> Document:
    """The grade report (per question: answered, fully correct, mean, median; the most common mistakes) with a
    histogram of the students' scores."""
    max_score = len(report.questions)
    figures = ()
    if max_score and report.students:
        fig = score_histogram([s.score for s in report.students], max_score)
        figures = (figure(fig, f"Score distribution of the {len(report.students)} students (points of {max_score})"),)
    return report.document(figures=figures)
