"""The whole LMS loop: irlab quiz's bank → a Moodle Responses export of a class that answered it → irlab grade.

The export is built from the bank's own question texts (what Moodle's Responses report shows in its "Question N"
columns with "Show question text"), so the variant each response answers is found exactly as it would be in a real
export; each student answers one variant, right values for some questions and a named mistake's value for others.
"""

import csv
import io

from irlab import exact
from irlab.lms.build import build_bank
from irlab.lms.responses import grade

SET = "exercises/homework-variants.toml"
SEED = "2026"


def _export(bank):
    """(Moodle Responses CSV, {student: [(question name, kind of answer, mistake)]})."""
    numerical = [q for q in bank.questions if q.kind == "numerical" and len(q.answers) > 1]
    by_variant = {}
    for question in numerical:
        by_variant.setdefault(question.student, []).append(question)
    header = ["Surname", "First name", "Email address", "State", "Started on", "Completed", "Time taken", "Grade/10.00"]
    slots = max(len(questions) for questions in by_variant.values())
    for n in range(1, slots + 1):
        header += [f"Question {n}", f"Response {n}", f"Right answer {n}"]
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(header)
    given = {}
    for number, (variant, questions) in enumerate(sorted(by_variant.items()), 1):
        email = f"student{number}@example.org"
        cells = [f"Student{number}", "A.", email, "Finished", "", "", "", ""]
        for position, question in enumerate(questions):
            wrong = position % 2 == 1  # every other question answered with a named mistake's value
            mistakes = [a for a in question.answers if a.mistake is not None]
            answer = mistakes[0] if wrong else question.answers[0]
            cells += [question.text, exact.decimal_text(answer.value, 6), ""]
            given.setdefault(email, []).append((question, wrong, answer.mistake))
        writer.writerow(cells)
    return out.getvalue(), given


def test_a_class_that_answered_the_bank_in_moodle_is_graded_by_irlab(tmp_path):
    bank = build_bank(SET, 3, seed=SEED)
    assert all(f"Variant: {q.name}" in q.text for q in bank.questions)  # what the LMS export shows
    text, given = _export(bank)
    path = tmp_path / "responses.csv"
    path.write_text(text, encoding="utf-8")
    report = grade(SET, path, SEED)
    assert {row.status for row in report.rows} == {"graded"}
    assert len(report.rows) == sum(len(answers) for answers in given.values())
    students = {s.student: s for s in report.students}
    for email, answers in given.items():
        parts = {(q.exercise, q.question, part.part): part for q in students[email].questions for part in q.parts}
        for question, wrong, mistake in answers:
            graded = parts[(question.exercise, question.question, question.part)]
            if wrong:
                assert not graded.correct and mistake in graded.mistakes, (question.name, graded)
            else:
                assert graded.correct and graded.credit == graded.weight, (question.name, graded)
