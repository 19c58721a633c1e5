"""Grade a class: a CSV of answers against each student's own variant, with feedback and a mistakes summary.

The answers file is CSV with a header naming (at least) the columns ``student``, ``exercise``, ``question`` and
``answer`` (any order, any case; other columns are ignored), separated by commas — or by semicolons or tabs,
as spreadsheets in decimal-comma locales write them (then ``0,42`` needs no quotes). ``question`` is ``b`` for
a whole question (a several-part question takes its values separated by ``;``, quoted in a semicolon-separated
file), ``b.2`` or ``b:recall`` for one part.

Scoring: every question of every exercise that appears in the file is worth 1 point, split equally between its
parts; a part earns its share when the answer is correct (see :mod:`irlab.homework.answers` for tolerances). A
question a student did not answer scores 0 ("No answer submitted."). A row that cannot be graded (unknown
exercise, question or part, no student) is listed as a problem naming ``file:line`` and ignored — or, with
``strict=True``, raises :class:`~irlab.errors.InputFileError`. A missing column or header is always an error.
When a student answers the same part twice, the last row counts (and a problem says so).
"""

from __future__ import annotations

import csv
import io
import json
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path

from .. import exact
from ..document import Document, Paragraph, Section, Table
from ..errors import InputFileError, IrlabError
from .diagnosis import BY_NAME
from .feedback import Feedback, PartFeedback, grade_reference, missing_part
from .key import answer_key, split_reference
from .variants import variant_set

COLUMNS = ("student", "exercise", "question", "answer")


@dataclass(frozen=True)
class AnswerRow:
    line: int
    student: str
    exercise: str
    question: str
    answer: str


def read_answers(path) -> list[AnswerRow]:
    """Read the answers CSV; a missing file, header or column raises InputFileError naming file:line."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        raise InputFileError(path, None, "no such file") from None
    except UnicodeDecodeError as error:
        raise InputFileError(path, None, f"not UTF-8 text ({error.reason})") from None
    return parse_answers(text, path)


def _delimiter(text: str) -> str:
    """',' unless the header line has none and uses ';' or a tab (spreadsheets in decimal-comma locales)."""
    first = text.split("\n", 1)[0]
    if "," not in first:
        for candidate in (";", "\t"):
            if candidate in first:
                return candidate
    return ","


def parse_answers(text: str, path="answers.csv") -> list[AnswerRow]:
    reader = csv.reader(io.StringIO(text), delimiter=_delimiter(text))
    try:
        header = next(reader)
    except StopIteration:
        raise InputFileError(path, 1, f"empty file: the first line must be a header with the columns {', '.join(COLUMNS)}") from None
    except csv.Error as error:
        raise InputFileError(path, 1, f"not valid CSV: {error}") from None
    names = [name.strip().lower() for name in header]
    missing = [c for c in COLUMNS if c not in names]
    if missing:
        raise InputFileError(path, 1, f"missing column{'s' if len(missing) > 1 else ''} {', '.join(repr(c) for c in missing)}: "
                                      f"the header must name {', '.join(COLUMNS)} (found: {', '.join(h.strip() for h in header) or 'nothing'})")
    index = {c: names.index(c) for c in COLUMNS}
    rows = []
    try:
        for cells in reader:
            line = reader.line_num
            if not any(cell.strip() for cell in cells):
                continue
            values = {c: (cells[i].strip() if i < len(cells) else "") for c, i in index.items()}
            if c_missing := [c for c, i in index.items() if i >= len(cells) and c != "answer"]:
                raise InputFileError(path, line, f"the row has {len(cells)} fields, no {', '.join(c_missing)}")
            rows.append(AnswerRow(line, values["student"], values["exercise"], values["question"],
                                  cells[index["answer"]] if index["answer"] < len(cells) else ""))
    except csv.Error as error:
        raise InputFileError(path, reader.line_num, f"not valid CSV: {error}") from None
    return rows


@dataclass
class QuestionGrade:
    student: str
    exercise: str
    question: str
    parts: list[PartFeedback]

    @property
    def score(self) -> Fraction:
        return sum((p.credit for p in self.parts), Fraction(0))

    @property
    def feedback(self) -> str:
        return Feedback(self.exercise, self.question, self.parts).text()


@dataclass
class StudentGrade:
    student: str
    questions: list[QuestionGrade]

    @property
    def score(self) -> Fraction:
        return sum((q.score for q in self.questions), Fraction(0))

    @property
    def max_score(self) -> int:
        return len(self.questions)


@dataclass
class GradeReport:
    file: str
    answers_file: str
    seed: str | None
    students: list[StudentGrade]
    questions: list[tuple[str, str]]  # (exercise, question) graded, in set order
    problems: list[str] = field(default_factory=list)
    variants: bool = True

    # summaries ---------------------------------------------------------------------------------
    def question_summary(self) -> list[dict]:
        rows = []
        for exercise, question in self.questions:
            grades = [q for s in self.students for q in s.questions if (q.exercise, q.question) == (exercise, question)]
            total = sum((g.score for g in grades), Fraction(0))
            mean = total / len(grades) if grades else Fraction(0)
            full = sum(1 for g in grades if g.score == 1)
            answered = sum(1 for g in grades if any(p.status != "missing" for p in g.parts))
            rows.append({"exercise": exercise, "question": question, "students": len(grades), "answered": answered,
                         "fully_correct": full, "mean": mean})
        return rows

    def mistake_summary(self) -> list[dict]:
        counts: Counter = Counter()
        students: dict = defaultdict(set)
        where: dict = defaultdict(Counter)
        for s in self.students:
            for q in s.questions:
                for p in q.parts:
                    if p.mistake:
                        counts[p.mistake] += 1
                        students[p.mistake].add(s.student)
                        where[p.mistake][f"{q.exercise} {p.address}"] += 1
        return [{"mistake": name, "title": BY_NAME[name].title, "answers": count, "students": len(students[name]),
                 "questions": [w for w, _ in sorted(where[name].items(), key=lambda item: (-item[1], item[0]))]}
                for name, count in sorted(counts.items(), key=lambda item: (-item[1], item[0]))]

    # outputs -----------------------------------------------------------------------------------
    def to_csv(self) -> str:
        """One row per student and question (its parts' feedback joined), then one 'total' row per student."""
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(["student", "exercise", "question", "score", "max", "answer", "mistakes", "feedback"])
        for s in self.students:
            for q in s.questions:
                answers = "; ".join(p.answer for p in q.parts)
                mistakes = "; ".join(p.mistake for p in q.parts if p.mistake)
                writer.writerow([s.student, q.exercise, q.question, _decimal(q.score), 1, answers, mistakes,
                                 " | ".join(f"{p.address}: {p.message}" if p.part else p.message for p in q.parts)])
            writer.writerow([s.student, "", "total", _decimal(s.score), s.max_score, "", "", ""])
        return out.getvalue()

    def as_dict(self) -> dict:
        return {
            "file": self.file, "answers": self.answers_file, "seed": self.seed, "variants": self.variants,
            "students": [{"student": s.student, "score": exact.exact_text(s.score), "decimal": float(s.score),
                          "max": s.max_score,
                          "questions": [{"exercise": q.exercise, "question": q.question, "score": exact.exact_text(q.score),
                                         "decimal": float(q.score), "max": 1, "parts": [p.as_dict() for p in q.parts]}
                                        for q in s.questions]}
                         for s in self.students],
            "questions": [{**row, "mean": exact.exact_text(row["mean"]), "mean_decimal": float(row["mean"])}
                          for row in self.question_summary()],
            "mistakes": self.mistake_summary(),
            "problems": self.problems,
        }

    def to_json(self) -> str:
        return json.dumps(self.as_dict(), indent=2, ensure_ascii=False) + "\n"

    def document(self) -> Document:
        students = Table(("student", "score", "max"),
                         tuple((s.student, s.score, s.max_score) for s in self.students), "Scores per student")
        questions = Table(("exercise", "question", "answered", "fully correct", "mean score"),
                          tuple((r["exercise"], r["question"], r["answered"], r["fully_correct"], r["mean"])
                                for r in self.question_summary()), "Scores per question")
        mistakes = self.mistake_summary()
        against = f"each student's variant of {self.file}" if self.variants else f"{self.file} as written (no variants)"
        blocks = [Paragraph(f"Answers {self.answers_file} graded against {against}"
                            + (f" (seed {self.seed})." if self.seed is not None and self.variants else ".")),
                  students, questions]
        if mistakes:
            blocks.append(Table(("mistake", "answers", "students", "where"),
                                tuple((f"{m['mistake']}: {m['title']}", m["answers"], m["students"], ", ".join(m["questions"]))
                                      for m in mistakes), "Most common mistakes"))
        else:
            blocks.append(Paragraph("No known mistake was recognised in the wrong answers."))
        if self.problems:
            blocks.append(Section("Rows not graded", tuple(Paragraph(p) for p in self.problems)))
        feedback = []
        for s in self.students:
            lines = [Paragraph(f"{q.exercise} {p.address}: {p.message}") for q in s.questions for p in q.parts
                     if p.status != "correct"]
            feedback.append(Section(f"{s.student}: {exact.exact_text(s.score)} of {s.max_score}",
                                    tuple(lines) or (Paragraph("Every answer is correct."),)))
        blocks.append(Section("Feedback per student", tuple(feedback)))
        return Document("Grades", blocks, {"file": self.file, "answers": self.answers_file})

    def render(self, fmt: str = "csv") -> str:
        if fmt == "csv":
            return self.to_csv()
        if fmt == "json":
            return self.to_json()
        return self.document().render(fmt)


def _decimal(value: Fraction) -> str:
    return exact.decimal_text(value)


def grade_rows(exercise_file, rows: list[AnswerRow], seed=None, answers_file="answers.csv", strict: bool = False,
               variants: bool = True) -> GradeReport:
    """Grade parsed answer rows (see the module docstring); ``variants=False`` grades against the set as written."""
    exercise_file = Path(exercise_file)
    base = variant_set(exercise_file)  # validates the set and gives the question order
    problems: list[str] = []

    def problem(row: AnswerRow, message: str):
        text = f"{answers_file}:{row.line}: {message}"
        if strict:
            raise InputFileError(answers_file, row.line, message)
        problems.append(text)

    exercise_ids = [e.id for e in base.exercises]
    graded: dict = {}  # (student, exercise, question) -> {part index: PartFeedback}
    seen_exercises = set()
    students: list[str] = []
    for row in rows:
        if not row.student:
            problem(row, "no student id")
            continue
        if row.student not in students:
            students.append(row.student)  # listed (and scored) even when none of their rows can be graded
        if row.exercise not in exercise_ids:
            problem(row, f"unknown exercise {row.exercise!r} (the set has {', '.join(exercise_ids)})")
            continue
        try:
            who = row.student if variants else None
            exercise = variant_set(exercise_file, who, seed).exercise(row.exercise)
            question, part_ref = split_reference(row.question, exercise)
            key = answer_key(exercise_file, exercise.id, question, who, seed)
            feedback = grade_reference(key, part_ref, row.answer)
        except InputFileError as error:
            problem(row, error.problem)
            continue
        except IrlabError as error:
            problem(row, str(error))
            continue
        seen_exercises.add(row.exercise)
        slot = graded.setdefault((row.student, exercise.id, key.question.id), {})
        for part_feedback in feedback:
            index = int(part_feedback.part or 1) - 1
            if index in slot:
                problems.append(f"{answers_file}:{row.line}: student {row.student} answered {row.exercise} "
                                f"{part_feedback.address} again; this later answer counts")
            slot[index] = part_feedback
    questions = [(e.id, q.id) for e in base.exercises if e.id in seen_exercises for q in e.questions]
    report = []
    for student in students:
        grades = []
        for exercise_id, question_id in questions:
            key = answer_key(exercise_file, exercise_id, question_id, student if variants else None, seed)
            slot = graded.get((student, exercise_id, question_id), {})
            parts = [slot.get(part.index) or missing_part(key, part) for part in key.parts]
            grades.append(QuestionGrade(student, exercise_id, question_id, parts))
        report.append(StudentGrade(student, grades))
    return GradeReport(str(exercise_file), str(answers_file), None if seed is None else str(seed), report, questions,
                       problems, variants)


def clear_caches() -> None:
    """Forget every variant and answer key computed so far (they are cached per file, student and seed)."""
    from .key import _key_cached
    from .variants import _variant_set_cached

    for cache in (_key_cached, _variant_set_cached):
        cache.cache_clear()


def grade(exercise_file, answers_file, seed=None, strict: bool = False, variants: bool = True) -> GradeReport:
    """Grade the answers CSV ``answers_file`` against every student's variant of ``exercise_file``."""
    rows = read_answers(answers_file)
    return grade_rows(exercise_file, rows, seed, str(answers_file), strict, variants)
