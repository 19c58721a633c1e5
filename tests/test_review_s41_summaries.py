"""Adversarial review (session 41) of the class summaries' shortcuts (e3047fc): score counts keyed by
(numerator, denominator), a one-part question's credit taken as its score, parts without a mistake skipped. A
report built by hand -- one-part and several-part questions, credits summing to 1 in parts, int and bool credits,
parts lists shared by students, a question without parts, mistakes named as the closest one and as 'also' -- has the
summaries worked out by hand here and those of the plain path (grading._REUSE = False)."""

from __future__ import annotations

from fractions import Fraction as F

from irlab.homework import grading
from irlab.homework.feedback import PartFeedback
from irlab.homework.grading import GradeReport, QuestionGrade, StudentGrade
from irlab.homework.mistakes import BY_NAME

FIRST, SECOND = sorted(BY_NAME)[:2]


def _part(credit, part=None, weight=F(1), answer="x", mistake=None, also=()):
    return PartFeedback("1", "a", part, None, answer, "correct" if credit == weight else "wrong", "m", credit, weight,
                        mistake=mistake, also=also)


def _report() -> GradeReport:
    shared = [_part(F(1, 3), "1", F(1, 2), mistake=FIRST), _part(F(2, 3) - F(1, 6), "2", F(1, 2))]  # 1/3 + 1/2
    students = []
    a_parts = [[_part(F(1))], [_part(1)], [_part(True)], [_part(F(2, 4), mistake=SECOND, also=(FIRST,))],
               shared, shared, [_part(F(1, 2), "1", F(1, 2)), _part(F(1, 2), "2", F(1, 2))], [], [_part(F(0), answer=" ")],
               [_part(F(-1, 4), mistake=FIRST)]]
    for n, parts in enumerate(a_parts):
        b = [_part(F(n % 3, 2) if n % 3 < 3 else F(0))]
        b = [PartFeedback("1", "b", None, None, "y", "wrong", "m", min(b[0].credit, F(1)), F(1), also=(SECOND,) * (n % 2))]
        students.append(StudentGrade(f"S{n}", [QuestionGrade(f"S{n}", "1", "a", parts, (n + 1,)),
                                               QuestionGrade(f"S{n}", "1", "b", b, ())]))
    return GradeReport("set.toml", "answers.csv", None, students, [("1", "a"), ("1", "b")])


def test_question_summary_by_hand_and_as_the_plain_path(monkeypatch):
    report = _report()
    summary = report.question_summary()
    # question a: scores 1, 1, 1, 1/2, 5/6, 5/6, 1, 0, 0, -1/4 (ten students)
    a = summary[0]
    assert (a["students"], a["fully_correct"], a["share_correct"]) == (10, 4, F(4, 10))
    assert a["mean"] == (4 + F(1, 2) + F(5, 3) - F(1, 4)) / 10 and a["median"] == F(5, 6)  # -1/4 0 0 1/2 [5/6 5/6] 1 1 1 1
    assert a["answered"] == 8  # no parts, and a blank answer, are not answered
    monkeypatch.setattr(grading, "_REUSE", False)
    assert report.question_summary() == summary
    assert [type(v) for v in summary[0].values()] == [type(v) for v in report.question_summary()[0].values()]


def test_mistake_summary_by_hand_and_as_every_part_read(monkeypatch):
    report = _report()
    counted = {}
    for s in report.students:  # every part's mistakes, none skipped
        for q in s.question_grades:
            for p in q.parts:
                for name in ((p.mistake,) if p.mistake else ()) + p.also:
                    counted.setdefault(name, set()).add((s.student, q.question, p.address, id(p)))
    summary = {row["mistake"]: row for row in report.mistake_summary()}
    assert set(summary) == {FIRST, SECOND}
    # FIRST: S3's also, the shared part (S4, S5), S9; SECOND: S3's closest, and question b of S1, S3, S5, S7, S9
    assert (summary[FIRST]["answers"], summary[FIRST]["students"]) == (4, 4)
    assert (summary[SECOND]["answers"], summary[SECOND]["students"]) == (6, 5)
    assert {name: row["answers"] for name, row in summary.items()} == {name: len(c) for name, c in counted.items()}
