"""Grade a class: a CSV of answers against each student's own variant, with feedback and a mistakes summary.

The answers file is CSV with a header naming (at least) the columns ``student``, ``exercise``, ``question`` and
``answer`` (any order, any case), optionally ``variant`` (the code printed on the student's sheet, see
:mod:`irlab.homework.identity`); other columns are ignored. Fields are separated by commas — or by semicolons or
tabs, as spreadsheets in decimal-comma locales write them (then ``0,42`` needs no quotes). ``question`` is ``b``
for a whole question (a several-part question takes its values separated by ``;``, quoted in a
semicolon-separated file), ``b.2`` or ``b:recall`` for one part.

Scoring: every question of the set is worth 1 point — or every question of the exercises named with
``exercises`` (``irlab grade --exercise``), whose other exercises' rows are ``not-selected`` —, split equally
between its parts; a part earns its share when the answer is correct (see :mod:`irlab.homework.answers` for
tolerances). A question nobody answered still counts: a question a student did not answer scores 0 ("No answer
submitted."). Free-text questions are read by the teacher and not scored; the report names them and the
exercises graded (:meth:`GradeReport.graded_sentence`).

Nothing is dropped silently: every input row gets a status (:data:`ROW_STATUSES`) that every output format shows
— ``graded``, or why it was not (unknown exercise, question or part; no student; a duplicate; more fields than
the header, as an unquoted decimal comma gives; a variant code that is not the student's; a wrong number of
values, graded 0). :attr:`GradeReport.problems` lists the rows not graded as ``file:line: message``; with
``strict=True`` the first one raises :class:`~irlab.errors.InputFileError`. A file none of whose rows can be
graded (another exercise set; every variant code wrong, i.e. the wrong seed) is an error that says what to do.
When a student answers the same part twice, the later row counts and the earlier one is a ``duplicate``.

Student ids are normalised as sheets are (:func:`~irlab.homework.identity.normalise_student`); with a roster,
roster students without answers and ids written differently (``Alice``/``alice``) are reported in
:attr:`GradeReport.notes`. :attr:`GradeReport.students` is the class the gradebook exports and the class
statistics count: with a roster, the roster's students in its order; without one, every id with an answer to the
set, as they first appear. An id not on the roster is a problem (:attr:`GradeReport.problems`), graded against its
own variant in :attr:`GradeReport.kept_out` when it has answers, and an id none of whose rows could be read as an
answer to the set (every one rejected) is no student at all: its rows stay in the report and the problems.
"""

from __future__ import annotations

import csv
import gc
import io
import math
from collections import Counter, defaultdict
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path

from .. import exact, spreadsheet
from ..document import Document, Paragraph, Section, Table
from ..errors import InputFileError, IrlabError, ParameterError
from .drawing import clear_drawing_caches, variant_set
from .feedback import CloseCalls, Feedback, PartFeedback, grade_reference, missing_part, split_answers
from .ahead import worked_ahead
from .gradebook import gradebook_csv
from .identity import (Manifest, RosterEntry, csv_reader, data_rows, normalise_student, read_code, read_csv_text,
                       read_manifest, read_roster, variant_code)
from .jsonstream import Lazy, Raw, Shape, fragment, list_marks, string_text, value_text, write_json
from .key import cached_key, answer_key, clear_key_caches, split_reference
from .key_build import file_stamp
from .mistakes import BY_NAME

COLUMNS = ("student", "exercise", "question", "answer")
CODE_COLUMN = "variant"
# every input row ends with one of these statuses (what it means, for the report's legend)
ROW_STATUSES = {
    "graded": "graded",
    "wrong-part-count": "graded 0: the answer holds another number of values than the question has parts",
    "duplicate": "not counted: the student answered the same part again in a later row, which counts",
    "no-student": "not graded: no student id",
    "unknown-exercise": "not graded: the exercise set has no such exercise",
    "unknown-question": "not graded: the exercise has no such question",
    "unknown-part": "not graded: the question has no such part",
    "extra-fields": "not graded: more fields than the header (an unquoted decimal comma?)",
    "short-row": "not graded: fewer fields than the header",
    "variant-mismatch": "not graded: the variant code is not the one on this student's sheet",
    "free-text": "not graded: a free-text question, read by the teacher (the key has the model answer)",
    "not-selected": "not graded: an exercise left out of the grading (--exercise names the exercises graded)",
    "no-variant": "not graded: an LMS response whose question names no variant of this set and seed",
}
# the statuses of rows that are a student's answers to the set (every other status rejects the row)
ANSWER_STATUSES = ("graded", "wrong-part-count", "duplicate", "free-text", "not-selected")


@dataclass(slots=True)  # one a row of a class file (200,000 and more): no instance dict
class AnswerRow:
    line: int
    student: str
    exercise: str
    question: str
    answer: str
    variant: str = ""  # the sheet's code, when the CSV has a variant column
    status: str = ""  # set when the row is read (extra-fields, short-row) or graded
    message: str = ""
    sheet: str = ""  # whose sheet the row answers, when not the student's own (an LMS quiz's variant-i)
    identity: RosterEntry | None = None  # who answered as an LMS's export names them (name, e-mail, LMS ids)

    @property
    def graded(self) -> bool:
        return self.status == "graded"


def read_answers(path) -> list[AnswerRow]:
    """Read the answers CSV; a missing file, header or column raises InputFileError naming file:line."""
    path = Path(path)
    return parse_answers(read_csv_text(path), path)


def parse_answers(text: str, path="answers.csv") -> list[AnswerRow]:
    """Every non-blank row, in file order; a row that cannot be read has its status set (never dropped)."""
    reader = csv_reader(text)
    delimiter = reader.dialect.delimiter
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
    index = {c: names.index(c) for c in (*COLUMNS, CODE_COLUMN) if c in names}
    rows = []
    width, (student, exercise, question, answer), code = len(header), (index[c] for c in COLUMNS), index.get(CODE_COLUMN)
    # one string for each distinct cell text: a class file repeats its ids and answers row after row (12,500
    # students: 125,000 rows, 12,500 ids), and the rows are held while the class is graded and reported
    one = {}.setdefault
    for line, cells in data_rows(reader, path):
        if len(cells) == width:  # nearly every row: each column there, nothing to say about its fields
            who, exercise_id, question_id, text = (cells[student].strip(), cells[exercise].strip(),
                                                   cells[question].strip(), cells[answer])
            rows.append(AnswerRow(line, one(who, who), one(exercise_id, exercise_id), one(question_id, question_id),
                                  one(text, text), "" if code is None else cells[code].strip()))
            continue
        values = {c: (cells[i].strip() if i < len(cells) else "") for c, i in index.items()}
        row = AnswerRow(line, values["student"], values["exercise"], values["question"],
                        cells[index["answer"]] if index["answer"] < len(cells) else "", values.get(CODE_COLUMN, ""))
        if len(cells) > len(header) and any(cell.strip() for cell in cells[len(header):]):  # trailing blanks: fine
            hint = (" — an unquoted decimal comma? Quote the answer (\"0,25\") or write 0.25"
                    if delimiter == "," else "")
            row.status, row.message = "extra-fields", (f"the row has {len(cells)} fields but the header has "
                                                       f"{len(header)}{hint}; not graded")
        elif short := [c for c in COLUMNS[:3] if index[c] >= len(cells)]:
            row.status, row.message = "short-row", f"the row has {len(cells)} fields, no {', '.join(short)}; not graded"
        rows.append(row)
    return rows


@dataclass(slots=True)  # ten a student
class QuestionGrade:
    student: str
    exercise: str
    question: str
    parts: list[PartFeedback]
    lines: tuple[int, ...] = ()  # the input rows graded into this question
    row_status: str = "graded"  # "wrong-part-count" when the answer held another number of values

    @property
    def score(self) -> Fraction:
        return _exact_sum([p.credit for p in self.parts])  # sum(…, Fraction(0)) with one reduction

    @property
    def feedback(self) -> str:
        return Feedback(self.exercise, self.question, self.parts).text()

    @property
    def status(self) -> str:
        return self.row_status if self.lines else "no-answer"

    def __reduce__(self):  # a worker's grades (irlab.homework.ahead) pickled as their fields, without slot names
        return type(self), (self.student, self.exercise, self.question, self.parts, self.lines, self.row_status)


@dataclass(slots=True)
class _Unanswered(QuestionGrade):
    """A question left unanswered, one object for every student of the class who left it so (its ``student`` is
    ""): the report's summaries and writers read it as it is, :attr:`StudentGrade.questions` gives each student
    their own copy. A 200,000-student class holds ten of them instead of two million grades."""


@dataclass(slots=True)
class StudentGrade:
    student: str  # as the roster writes it, else as first written in the answers
    question_grades: list[QuestionGrade]  # as graded: a question left unanswered may be shared (read ``questions``)
    name: str = ""
    email: str = ""
    rows: list[AnswerRow] = field(default_factory=list)  # this student's input rows that were not graded
    kept_out: str = ""  # why this id is not in the class (not on the roster); "" for the class's students
    sis_id: str = ""  # the institution's id (Canvas's SIS User ID, Moodle's ID number), "" when not known
    canvas_id: str = ""  # Canvas's own user id, when the roster or the export came from Canvas

    @property
    def questions(self) -> list[QuestionGrade]:
        """Every question's grade, in the set's order, each this student's own object (made on first use from the
        grade of a question the class left unanswered, which the report shares; see _Unanswered)."""
        if any(type(q) is _Unanswered for q in self.question_grades):
            self.question_grades = [QuestionGrade(self.student, q.exercise, q.question, list(q.parts))
                                    if type(q) is _Unanswered else q for q in self.question_grades]
        return self.question_grades

    @property
    def score(self) -> Fraction:
        return _exact_sum([q.score for q in self.question_grades])

    @property
    def max_score(self) -> int:
        return len(self.question_grades)

    @property
    def key(self) -> str:
        return normalise_student(self.student)


def _answered(part: PartFeedback) -> bool:
    """A part answered: a row gave it something (a blank cell, or Moodle's '-' for no response, is no answer)."""
    return part.status != "missing" and bool(part.answer.strip())


def _median(values: list[Fraction]) -> Fraction:
    ordered = sorted(values)
    if not ordered:
        return Fraction(0)
    middle = len(ordered) // 2
    return ordered[middle] if len(ordered) % 2 else (ordered[middle - 1] + ordered[middle]) / 2


def _score_counts(grades: list[QuestionGrade]) -> tuple[dict, int]:
    """({score: how many of ``grades`` have it}, how many were answered), each list of parts that several grades
    share (an unanswered question's, an answer to a shared sheet) scored and read once."""
    # the parts' ids -> how many grades have those parts, and the parts (the report holds every part, so the ids
    # stay theirs), counted in C
    keys = [tuple(map(id, g.parts)) for g in grades]
    parts_of = dict(zip(keys, [g.parts for g in grades]))
    counts: dict = {}  # (numerator, denominator) in lowest terms -> how many: a Fraction hashes in Python, a pair in C
    answered = 0
    for key, count in Counter(keys).items():
        parts = parts_of[key]
        if len(parts) == 1:  # most questions: the score is the part's credit
            credit = parts[0].credit
            score = (credit.numerator, credit.denominator)
        else:
            total = _exact_sum([p.credit for p in parts])
            score = (total.numerator, total.denominator)
        counts[score] = counts.get(score, 0) + count
        if any(_answered(p) for p in parts):
            answered += count
    return {Fraction(*score): count for score, count in counts.items()}, answered


def _median_of_counts(counts: dict) -> Fraction:
    """``_median`` of the list holding each value of ``counts`` as many times as it counts."""
    size = sum(counts.values())
    if not size:
        return Fraction(0)
    wanted = {size // 2} if size % 2 else {size // 2 - 1, size // 2}  # the middle positions in sorted order
    middle, seen = [], 0
    for value, count in sorted(counts.items()):
        middle += [value] * len([i for i in wanted if seen <= i < seen + count])
        seen += count
    return middle[0] if len(middle) == 1 else (middle[0] + middle[1]) / 2


@dataclass
class GradeReport:
    file: str
    answers_file: str
    seed: str | None
    students: list[StudentGrade]
    questions: list[tuple[str, str]]  # (exercise, question) graded, in set order
    rows: list[AnswerRow] = field(default_factory=list)  # every input row, with its status
    variants: bool = True
    notes: list[str] = field(default_factory=list)  # roster and set warnings (not rows)
    set_id: str = ""
    exercises: list[str] = field(default_factory=list)  # the exercises graded, in set order
    left_out: list[str] = field(default_factory=list)  # the set's other exercises (not named with --exercise)
    read_by_teacher: list[tuple[str, str]] = field(default_factory=list)  # free-text questions graded: not scored
    kept_out: list[StudentGrade] = field(default_factory=list)  # ids not on the roster, graded but not in the class
    id_problems: list[str] = field(default_factory=list)  # ``file:line: message`` for ids not on the roster

    @property
    def problems(self) -> list[str]:
        """``file:line: message`` for every input row that was not graded (or graded 0 for its form), except rows
        of exercises left out on purpose (``not-selected``), then for every id not on the roster."""
        return [f"{self.answers_file}:{row.line}: {row.message}" for row in self.rows
                if not row.graded and row.status != "not-selected"] + self.id_problems

    def graded_sentence(self) -> str:
        """Which exercises were graded and what the points are out of, e.g. 'Graded: every question of the set,
        exercise 8.9 (8 questions, 1 point each).'"""
        count, named = len(self.questions), len(self.exercises)
        scope = "the exercises chosen" if self.left_out else "every question of the set"
        sentence = (f"Graded: {scope}, exercise{'s' * (named != 1)} {', '.join(self.exercises) or 'none'} "
                    f"({count} question{'s' * (count != 1)}, 1 point each)")
        if self.left_out:
            sentence += f"; left out: {', '.join(self.left_out)}"
        if self.read_by_teacher:
            sentence += (f". Free-text, read by the teacher and not scored: "
                         f"{', '.join(f'{exercise} {question}' for exercise, question in self.read_by_teacher)}")
        return sentence + "."

    def row_counts(self) -> Counter:
        return Counter(row.status for row in self.rows)

    def accounting(self) -> str:
        """One sentence: how many rows were read and what became of them."""
        counts = self.row_counts()
        parts = [f"{counts['graded']} graded"] + [f"{n} {status}" for status, n in sorted(counts.items())
                                                  if status != "graded"]
        return f"{len(self.rows)} answer row{'s' if len(self.rows) != 1 else ''} read: {', '.join(parts)}."

    # summaries ---------------------------------------------------------------------------------
    def question_summary(self) -> list[dict]:
        graded: dict = {question: [] for question in self.questions}  # one pass over the class
        for s in self.students:
            for q in s.question_grades:
                if (q.exercise, q.question) in graded:
                    graded[q.exercise, q.question].append(q)
        rows = []
        for (exercise, question), grades in graded.items():
            if _REUSE:  # each distinct parts' list (shared by everyone who wrote the same) scored once
                scores, answered = _score_counts(grades)
                total = _exact_sum(list(scores), list(scores.values()))
                full = scores.get(1, 0)
                median = _median_of_counts(scores)
            else:
                listed = [g.score for g in grades]
                total, median = sum(listed, Fraction(0)), _median(listed)
                full = sum(1 for score in listed if score == 1)
                answered = sum(1 for g in grades if any(_answered(p) for p in g.parts))
            mean = total / len(grades) if grades else Fraction(0)
            rows.append({"exercise": exercise, "question": question, "students": len(grades), "answered": answered,
                         "fully_correct": full, "mean": mean, "median": median,
                         "share_correct": Fraction(full, len(grades)) if grades else Fraction(0)})
        return rows

    def mistake_summary(self) -> list[dict]:
        counts: Counter = Counter()
        students: dict = defaultdict(set)
        where: dict = defaultdict(Counter)
        for s in self.students:
            for q in s.question_grades:
                for p in q.parts:
                    if p.mistake is None and not p.also:  # most parts: no mistake to count
                        continue
                    for name in p.mistakes:
                        counts[name] += 1
                        students[name].add(s.student)
                        where[name][f"{q.exercise} {p.address}"] += 1
        return [{"mistake": name, "title": BY_NAME[name].title, "answers": count, "students": len(students[name]),
                 "questions": [w for w, _ in sorted(where[name].items(), key=lambda item: (-item[1], item[0]))]}
                for name, count in sorted(counts.items(), key=lambda item: (-item[1], item[0]))]

    # outputs -----------------------------------------------------------------------------------
    def to_csv(self) -> str:
        """One row per student and question (its parts' feedback joined), one per input row not graded, then one
        'total' row per student; ids kept out of the class follow, their last row's status ``kept-out`` (the reason
        in ``feedback``); ``lines`` names the input rows behind each output row, so every input row appears. No
        cell reads as a spreadsheet formula (:mod:`irlab.spreadsheet`)."""
        out = io.StringIO()
        self._write_csv(out.write)
        return out.getvalue()

    def _write_csv(self, write) -> None:
        """:meth:`to_csv`'s text given to ``write`` a few hundred students at a time (a 200,000-student report is
        never held whole); a large class's students' rows are made in two processes (:func:`_written_ahead`)."""
        pieces = _Pieces()
        writer = spreadsheet.writer(pieces)
        writer.writerow(["student", "exercise", "question", "score", "max", "answer", "mistakes", "feedback", "status",
                         "lines"])
        with _written_ahead(self.students + self.kept_out, _StudentCsv()) as texts:
            for text in texts:
                pieces.append(text)
                if len(pieces) >= _CHUNK:
                    write("".join(pieces))
                    pieces.clear()
        for row in self.orphan_rows():
            writer.writerow([row.student, row.exercise, row.question, "", "", row.answer, "", row.message, row.status,
                             row.line])
        write("".join(pieces))

    def orphan_rows(self) -> list[AnswerRow]:
        """Rows not graded that belong to no student of the report: no student id, or an id none of whose rows is
        an answer to the set (or, with a roster, not on it and without a graded answer)."""
        listed = {s.key for s in self.students + self.kept_out}
        return [row for row in self.rows if not row.graded and normalise_student(row.student) not in listed]

    def as_dict(self) -> dict:
        return self._json_value()

    def _json_value(self, students=None) -> dict:
        """The JSON report as a dict; given ``students`` (Raw JSON text of the students' objects, in order, as the
        "students" list's items), students and rows are made a few at a time as they are written."""
        return {
            "file": self.file, "set": self.set_id, "answers": self.answers_file, "seed": self.seed,
            "variants": self.variants,
            "graded": {"exercises": self.exercises, "left_out": self.left_out,
                       "read_by_teacher": [{"exercise": e, "question": q} for e, q in self.read_by_teacher]},
            "students": list(map(_student_json, self.students)) if students is None else Lazy(students),
            "kept_out": [{**_student_json(s), "reason": s.kept_out} for s in self.kept_out],
            "questions": [{**row, "mean": exact.exact_text(row["mean"]), "mean_decimal": float(row["mean"]),
                           "median": exact.exact_text(row["median"]),
                           "share_correct": exact.exact_text(row["share_correct"])}
                          for row in self.question_summary()],
            "mistakes": self.mistake_summary(),
            "rows": list(map(_row_json, self.rows)) if students is None else Lazy(_items_joined(_row_texts(self.rows))),
            "row_counts": dict(sorted(self.row_counts().items())),
            "problems": self.problems,
            "notes": self.notes,
        }

    def to_json(self) -> str:
        out = io.StringIO()
        self.write("json", out)
        return out.getvalue()

    def document(self, figures: tuple = ()) -> Document:
        scores = [s.score for s in self.students]  # each summed once, for the table and the feedback
        students = Table(("student", "score", "max"),
                         tuple((s.student, score, s.max_score) for s, score in zip(self.students, scores)),
                         "Scores per student")
        questions = Table(("exercise", "question", "answered", "fully correct", "mean score", "median"),
                          tuple((r["exercise"], r["question"], r["answered"], r["fully_correct"], r["mean"], r["median"])
                                for r in self.question_summary()), "Scores per question")
        mistakes = self.mistake_summary()
        against = f"each student's variant of {self.file}" if self.variants else f"{self.file} as written (no variants)"
        blocks = [Paragraph(f"Answers {self.answers_file} graded against {against}"
                            + (f" (seed {self.seed})." if self.seed is not None and self.variants else ".")),
                  Paragraph(self.graded_sentence()), Paragraph(self.accounting()), students, questions, *figures]
        if mistakes:
            blocks.append(Table(("mistake", "answers", "students", "where"),
                                tuple((f"{m['mistake']}: {m['title']}", m["answers"], m["students"], ", ".join(m["questions"]))
                                      for m in mistakes), "Most common mistakes"))
        else:
            blocks.append(Paragraph("No known mistake was recognised in the wrong answers."))
        if any(not row.graded for row in self.rows):
            blocks.append(Section("Rows not graded", tuple(
                Paragraph(f"line {row.line} ({row.status}): {row.message}") for row in self.rows if not row.graded)))
        if self.id_problems:
            blocks.append(Section("Not in the class", tuple(Paragraph(problem) for problem in self.id_problems) + tuple(
                Paragraph(f"{s.student}: {exact.exact_text(s.score)} of {s.max_score} against this id's own variant "
                          "(not in the gradebook exports or class statistics)") for s in self.kept_out)))
        if self.notes:
            blocks.append(Section("Roster and set", tuple(Paragraph(note) for note in self.notes)))
        feedback = []
        for s, score in zip(self.students, scores):
            graded = s.question_grades
            lines = [Paragraph(f"{q.exercise} {p.address}: {p.message}") for q in graded for p in q.parts
                     if p.status != "correct"]
            if graded and all(p.status == "missing" for q in graded for p in q.parts):
                lines = [Paragraph("No answer submitted.")]
            lines += [Paragraph(f"line {row.line} ({row.status}): {row.message}") for row in s.rows]
            if not lines:
                lines = [Paragraph("Every answer is correct." if graded else "No answer could be graded.")]
            feedback.append(Section(f"{s.student}: {exact.exact_text(score)} of {s.max_score}", tuple(lines)))
        blocks.append(Section("Feedback per student", tuple(feedback)))
        return Document("Grades", blocks, {"file": self.file, "answers": self.answers_file})

    def write(self, fmt: str, stream) -> None:
        """Write the report in ``fmt`` to a text stream; JSON is written piece by piece (a large class's report
        is never held twice in memory), the same text as :meth:`render`."""
        with _collecting_per_batch():  # writing makes only short-lived objects, freed by reference counting
            if fmt == "json":  # a large class's students' objects made in two processes (_written_ahead)
                with _written_ahead(self.students, _StudentJson()) as students:
                    write_json(self._json_value(_items_joined(students)), stream.write)
                stream.write("\n")
            elif fmt == "csv":
                self._write_csv(stream.write)
            else:
                stream.write(self.render(fmt))

    def render(self, fmt: str = "csv") -> str:
        if fmt == "csv":
            return self.to_csv()
        if fmt == "json":
            return self.to_json()
        if fmt in GRADEBOOKS:
            return gradebook_csv(self, fmt)
        return self.document().render(fmt)


GRADEBOOKS = ("canvas", "moodle")


# The JSON report's fixed-shape objects, their keys in the order written (the dicts of as_dict and the text of
# write are made from the same tuples)
_STUDENT_KEYS = ("student", "name", "email", "score", "decimal", "max", "questions")
_QUESTION_KEYS = ("exercise", "question", "score", "decimal", "max", "lines", "parts")
_ROW_KEYS = ("line", "student", "exercise", "question", "answer", "status", "message")
_STUDENT_LEVEL = 2  # a student's object in the report (an input row's too): top object, "students" list
_QUESTION_LEVEL = 4  # a question's object in the report: top object, "students" list, student, "questions" list


def _student_json(s: StudentGrade) -> dict:
    """A student's part of the JSON report as a dict (:meth:`GradeReport.as_dict`, whose dicts the caller may
    change); the report is written from the same values by :class:`_StudentJson`."""
    shown = [_question_json(q) for q in s.question_grades]
    score = _exact_sum([q_shown[0] for q_shown in shown])
    questions = [_question_object(q, text, decimal, parts)
                 for q, (_, text, decimal, parts) in zip(s.question_grades, shown)]
    return dict(zip(_STUDENT_KEYS, (s.student, s.name, s.email, exact.exact_text(score), float(score), s.max_score,
                                    questions)))


def _question_object(q: QuestionGrade, text: str, decimal: float, parts) -> dict:
    return dict(zip(_QUESTION_KEYS, (q.exercise, q.question, text, decimal, 1, list(q.lines), parts)))


def _question_json(question: QuestionGrade) -> tuple:
    """(score, as exact text, as a float, the parts' dicts) of a question."""
    score = _exact_sum([part.credit for part in question.parts])
    return score, exact.exact_text(score), float(score), [p.as_dict() for p in question.parts]


def _row_json(r: AnswerRow) -> dict:
    return dict(zip(_ROW_KEYS, (r.line, r.student, r.exercise, r.question, r.answer, r.status, r.message)))


def _decimal(value: Fraction) -> str:
    return exact.decimal_text(value)


def _exact_sum(values: list[Fraction], times: list[int] | None = None) -> Fraction:
    """``sum(values, Fraction(0))`` (each value taken ``times`` times, when given), over the values' common
    denominator at once: one reduction, not one a term."""
    common = math.lcm(*(value.denominator for value in values))
    if times is None:
        return Fraction(sum(value.numerator * (common // value.denominator) for value in values), common)
    return Fraction(sum(value.numerator * (common // value.denominator) * n for value, n in zip(values, times)), common)


# distinct questions' cells (and JSON) kept while a report is written: every one of a shared-sheet class, and of a
# 12,500-student class with its own variants (29,061; equal feedback is one object): the bench's main peak RSS
# 248 -> 261 MiB, after grading (16,384 forgets and makes a third of them again: 0.3-0.8 s more CPU writing)
_MEMO_SIZE = 1 << 15
_CHUNK = 2048  # a CSV report's pieces (a student's question rows, their total row) written to the stream at once


class _Pieces(list):
    """A list that a SafeWriter writes into (``write`` appends), to be joined and written in chunks."""

    write = list.append


def _remembered(memo: dict, key, value):
    """``value``, kept in ``memo`` under ``key`` (emptied first when full: a writer's memory stays bounded)."""
    if len(memo) >= _MEMO_SIZE:
        memo.clear()
    memo[key] = value
    return value


def _question_score(parts: list[PartFeedback]) -> Fraction:
    """A question's score: its parts' credits summed (a one-part question's is its credit)."""
    if len(parts) == 1 and type(parts[0].credit) is Fraction:
        return parts[0].credit
    return _exact_sum([part.credit for part in parts])


def _question_key(question: QuestionGrade):
    """What a question's text in the reports is kept by: the parts' objects, which students who wrote the same
    answer to a shared sheet share (grade_rows makes them once; equal feedback is one object, see feedback.kept).
    The memo entry holds the parts, so their ids stay theirs while it lives."""
    return (question.exercise, question.question, *map(id, question.parts))


class _StudentCsv:
    """A student's rows of the CSV report (their questions', their rows not graded, their total) as text, as
    ``writerow([s.student, q.exercise, q.question, score, 1, answers, mistakes, feedback, q.status, lines])`` for
    each question writes them: the cells from exercise to feedback are made once for everyone who shares the
    question's parts (a question the class left unanswered is one object for everyone, _Unanswered, kept by its
    own id: the report being written holds it), then joined with the student's id and lines."""

    def __init__(self):
        self.pieces = _Pieces()
        self.writer = spreadsheet.writer(self.pieces)
        self.memo: dict = {}  # a question's key -> [score, its cells from exercise to feedback and a comma,
        #                       its row after the id when no row answered it (None until needed), its parts]
        self.decimals: dict = {}  # (numerator, denominator) -> a score's cell
        self.names: dict = {}  # (exercise, question) -> their cells and a comma
        self.statuses: dict = {}  # a question's status -> its cell between two commas
        self.total_cells: dict = {}  # (total, max, kept out) -> a total row's cells after the id

    def __call__(self, s: StudentGrade) -> str:
        pieces, writer, memo, statuses = self.pieces, self.writer, self.memo, self.statuses
        head = writer.first_cell(s.student) + ","
        scores = []
        for q in s.question_grades:
            key = id(q) if type(q) is _Unanswered else _question_key(q)
            found = memo.get(key) if _REUSE else None
            if found is None:
                found = self._question(q, key)
            scores.append(found[0])
            if q.lines:
                lines = " ".join(map(str, q.lines))  # line numbers: digits, written as they are
                status = statuses.get(q.row_status)
                if status is None:
                    status = statuses[q.row_status] = writer.joined((q.row_status,)) + ","
                pieces += (head, found[1], status, lines if lines.isdigit() else writer.joined((lines,)), "\n")
            else:
                if found[2] is None:
                    found[2] = found[1] + writer.joined(("no-answer", "")) + "\n"
                pieces += (head, found[2])
        for row in s.rows:
            writer.writerow([s.student, row.exercise, row.question, "", "", row.answer, "", row.message, row.status,
                             row.line])
        total = self._decimal(_exact_sum(scores))
        ending = self.total_cells.get((total, s.max_score, s.kept_out))
        if ending is None:  # writerow([s.student, "", "total", total, max, "", "", kept out, status, ""])
            ending = _remembered(self.total_cells, (total, s.max_score, s.kept_out), writer.joined((
                "", "total", total, s.max_score, "", "", s.kept_out, "kept-out" if s.kept_out else "total", "")) + "\n")
        pieces += (head, ending)
        text = "".join(pieces)
        pieces.clear()
        return text

    def _question(self, q: QuestionGrade, key) -> list:
        parts, writer = q.parts, self.writer
        score = _question_score(parts)
        if len(parts) == 1:  # most questions: the cells are the part's own
            part = parts[0]
            shown = (part.answer, "; ".join(part.mistakes),
                     f"{part.address}: {part.message}" if part.part else part.message)
        else:
            shown = ("; ".join(p.answer for p in parts), "; ".join(name for p in parts for name in p.mistakes),
                     " | ".join(f"{p.address}: {p.message}" if p.part else p.message for p in parts))
        named = self.names.get((q.exercise, q.question))
        if named is None:
            named = _remembered(self.names, (q.exercise, q.question), writer.joined((q.exercise, q.question)) + ",")
        # the max cell written "1" as writerow writes the int 1
        cells = named + writer.joined((self._decimal(score), "1", *shown)) + ","
        return _remembered(self.memo, key, [score, cells, None, tuple(parts)])

    def _decimal(self, score: Fraction) -> str:
        key = (score.numerator, score.denominator)
        found = self.decimals.get(key)
        return found if found is not None else _remembered(self.decimals, key, _decimal(score))


_ITEMS = list_marks(_STUDENT_LEVEL - 1)  # a list of the report's top object: its students, its rows
_QUESTIONS = list_marks(_STUDENT_LEVEL + 1)  # a student's questions
_INNER = list_marks(_QUESTION_LEVEL + 1)  # a question's lines, its parts
_PART_LEVEL = _QUESTION_LEVEL + 2
_STUDENT_SHAPE = Shape(_STUDENT_KEYS, _STUDENT_LEVEL)
_QUESTION_SHAPE = Shape(_QUESTION_KEYS, _QUESTION_LEVEL)
_ROW_SHAPE = Shape(_ROW_KEYS, _STUDENT_LEVEL)


def _member(value, level: int) -> str:
    """A member's value at nesting ``level`` as the report writes it (most are text)."""
    return string_text(value) if type(value) is str else value_text(value, level)


class _StudentJson:
    """A student's object in the JSON report as written there (``write_json`` of :func:`_student_json` at
    _STUDENT_LEVEL): the text of each question but its lines made once for everyone who shares its parts, each
    part's once, each score's once, then joined around the student's own values."""

    def __init__(self):
        self.memo: dict = {}  # a question's key -> [score, text up to its lines' first item, text after the last,
        #                       its text without lines (None until needed), its parts]
        self.parts: dict = {}  # a part's id -> (its object's text, the part), for questions of several parts
        self.scores: dict = {}  # (numerator, denominator) -> (a score's exact text, its decimal), as JSON
        self.befores: dict = {}  # (exercise, question, numerator, denominator) -> a question's text up to its lines

    def __call__(self, s: StudentGrade) -> str:
        memo = self.memo
        scores = []
        pieces = [_QUESTIONS[0]]
        for q in s.question_grades:
            key = _question_key(q)
            found = memo.get(key) if _REUSE else None
            if found is None:
                found = self._question(q, key)
            scores.append(found[0])
            if q.lines:
                pieces += (found[1], _INNER[1].join(map(int.__repr__, q.lines)), found[2], _QUESTIONS[1])
            else:
                if found[3] is None:
                    found[3] = found[1][:-len(_INNER[0])] + "[]" + found[2][len(_INNER[2]):]
                pieces += (found[3], _QUESTIONS[1])
        if scores:
            pieces[-1] = _QUESTIONS[2]
        else:
            pieces = ["[]"]
        score, decimal = self._score(_exact_sum(scores))
        level, heads = _STUDENT_LEVEL + 1, _STUDENT_SHAPE.heads
        return "".join([heads[0], _member(s.student, level), heads[1], _member(s.name, level), heads[2],
                        _member(s.email, level), heads[3], score, heads[4], decimal, heads[5],
                        value_text(s.max_score, level), heads[6], *pieces, _STUDENT_SHAPE.end])

    def _question(self, q: QuestionGrade, key) -> list:
        parts = q.parts
        score = _question_score(parts)
        heads = _QUESTION_SHAPE.heads
        named = (q.exercise, q.question, score.numerator, score.denominator)
        before = self.befores.get(named)  # the same for every student whose answer scores the same
        if before is None:
            text, decimal, level = *self._score(score), _QUESTION_LEVEL + 1
            before = _remembered(self.befores, named, "".join((
                heads[0], _member(q.exercise, level), heads[1], _member(q.question, level), heads[2], text, heads[3],
                decimal, heads[4], "1", heads[5], _INNER[0])))
        if len(parts) == 1:  # its key is its part's: the part's text is kept here only
            written = _INNER[0] + fragment(parts[0].as_dict(), _PART_LEVEL).text + _INNER[2]
        else:
            written = _INNER[0] + _INNER[1].join(map(self._part, parts)) + _INNER[2] if parts else "[]"
        return _remembered(self.memo, key, [score, before, _INNER[2] + heads[6] + written + _QUESTION_SHAPE.end, None,
                                            tuple(parts)])

    def _part(self, part: PartFeedback) -> str:
        found = self.parts.get(id(part))
        if found is None:
            found = _remembered(self.parts, id(part), (fragment(part.as_dict(), _PART_LEVEL).text, part))
        return found[0]

    def _score(self, score: Fraction) -> tuple[str, str]:
        key = (score.numerator, score.denominator)
        found = self.scores.get(key)
        if found is None:
            found = _remembered(self.scores, key, (string_text(exact.exact_text(score)), value_text(float(score), 0)))
        return found


_JOINED = 64  # a JSON report's students (input rows) joined into one piece of text before it is written


def _items_joined(texts) -> Iterator[Raw]:
    """The items of a list of the report's top object (students, rows), given as their JSON text, a few at a time
    as one Raw that write_json writes where they go (the same text: the items with the list's separators between)."""
    batch: list = []
    for text in texts:
        batch.append(text)
        if len(batch) >= _JOINED:
            yield Raw(_ITEMS[1].join(batch))
            batch.clear()
    if batch:
        yield Raw(_ITEMS[1].join(batch))


def _row_texts(rows: list[AnswerRow]) -> Iterator[str]:
    """Each input row's object in the JSON report (write_json of :func:`_row_json` at _STUDENT_LEVEL)."""
    (line, student, exercise, question, answer, status, message), end = _ROW_SHAPE.heads, _ROW_SHAPE.end
    for r in rows:
        s, e, q, a, st, m = r.student, r.exercise, r.question, r.answer, r.status, r.message
        if type(r.line) is int and str is type(s) is type(e) is type(q) is type(a) is type(st) is type(m):
            yield "".join((line, int.__repr__(r.line), student, string_text(s), exercise, string_text(e), question,
                           string_text(q), answer, string_text(a), status, string_text(st), message, string_text(m),
                           end))
        else:  # not a row read from a file
            yield fragment(_row_json(r), _STUDENT_LEVEL).text


# A report of this many students or more has them written in two processes (irlab.homework.ahead), each taking the
# next chunk of students nobody has taken, as grading does: below it, starting a process costs more than the writing
# it takes over (a student's CSV rows and JSON object take 0.1-0.5 ms). Not beyond _WRITE_AHEAD_MAX: the worker is
# forked from a process holding the whole graded class, and every page either process touches while writing is then
# copied (12,500 students: 359 -> 400 MiB PSS between the processes at the peak, for 2-3 s less of writing).
_WRITE_AHEAD = 512
_WRITE_AHEAD_MAX = 4096


@contextmanager
def _written_ahead(students: list, text):
    """An iterator over ``text(student)`` for each of ``students`` in order, made in a worker process ahead of its
    turn for a large class (the same text either way: ``text`` keeps only what it has made already)."""
    fewest = _WRITE_AHEAD if len(students) <= _WRITE_AHEAD_MAX else len(students) + 1  # else no worker
    with worked_ahead(range(len(students)), lambda i: text(students[i]), fewest) as ahead:
        yield (ahead.take(i) or text(s) for i, s in enumerate(students))


def _validate_set(exercise_file: Path):
    """Every question's key as written: a set whose grading options are broken refuses to grade at all."""
    base = variant_set(exercise_file)
    for exercise in base.exercises:
        for question in exercise.questions:
            answer_key(exercise_file, exercise.id, question.id)
    return base


def _code_hint(rows: list[AnswerRow], set_id: str, seed) -> str:
    """What to do when the variant codes do not match: another seed, no seed, or another set."""
    if seed is not None and all(read_code(r.variant) == variant_code(set_id, r.student, None) for r in rows):
        return f"the sheets were made without --seed: grade without --seed {seed}"
    if seed is None:
        return "the sheets were made with a --seed (or from another set): grade with the same --seed, or with --manifest"
    return (f"the sheets were made with another --seed than {seed} or from another set: grade with the seed and set "
            "they were made with, or with --manifest")


# Grading makes what many rows share once (unanswered questions' parts, the feedback on an answer to a shared sheet)
# and the CSV report writes what many questions share once; False does every row afresh, as before (the tests compare
# the two on generated exports).
_REUSE = True

# Python's cyclic garbage collector rescans surviving objects, and a class's report grows by thousands of objects
# per student: with automatic collection, a fifth of the time of grading 2,000 students went to the collector.
# Grading (and writing the report) pauses automatic collection. Grading makes no reference cycles worth a scan (a
# nested recursive function is one: see trace.steps; 2,000 students leave about a hundred cyclic objects), so what
# it frees is freed by reference counting, and what it made and keeps (the report, the caches) is moved to the
# oldest generation unscanned at the end (_promoted), where a collection of the young generations would have moved
# it after scanning it all (12,500 students: 3.5 s of the grading loop's CPU in the main process, as 12 scans).


@contextmanager
def _collecting_per_batch():
    """Automatic garbage collection paused, restored on the way out (see _promoted for what grading keeps)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _promoted() -> None:
    """Every object the garbage collector tracks moved to its oldest generation without being scanned (gc.freeze
    then gc.unfreeze, as Python documents them); when something else has frozen objects, which unfreezing would
    thaw, a collection of the young generations instead."""
    if gc.get_freeze_count():
        gc.collect(1)
    else:
        gc.freeze()
        gc.unfreeze()


def _identity(rows, shown: str) -> RosterEntry:
    """Who a student without a roster entry is: as the LMS export they answered in names them, else the id alone
    (an e-mail when it is one, else the institution's id)."""
    return next((row.identity for row in rows if row.identity is not None), None) or RosterEntry(shown)


def grade_rows(exercise_file, rows: list[AnswerRow], seed=None, answers_file="answers.csv", strict: bool = False,
               variants: bool = True, roster: list[RosterEntry] | None = None,
               manifest: Manifest | None = None, exercises=None) -> GradeReport:
    """Grade parsed answer rows (see the module docstring); ``variants=False`` grades against the set as written;
    ``exercises`` (ids) grades only those exercises of the set, every one of their questions."""
    with _collecting_per_batch():
        try:
            return _grade_rows(exercise_file, rows, seed, answers_file, strict, variants, roster, manifest, exercises)
        finally:
            _promoted()


def _chosen_exercises(base, named) -> list[str]:
    """The ids of the exercises to grade, in set order: every exercise of the set, or the ones ``named`` (ids, or
    comma-separated lists of ids: ``["8/2,8/4"]``); a ParameterError names an id the set does not have."""
    every = [e.id for e in base.exercises]
    if named is None:
        return every
    wanted = []
    for item in [named] if isinstance(named, str) else named:
        item = str(item).strip()
        wanted += [item] if item in every else [part.strip() for part in item.split(",") if part.strip()]
    unknown = [name for name in wanted if name not in every]
    if unknown:
        raise ParameterError(f"set {base.id!r} has no exercise {', '.join(repr(n) for n in unknown)} to grade "
                             f"(it has {', '.join(every)})")
    if not wanted:
        raise ParameterError(f"no exercise named to grade (set {base.id!r} has {', '.join(every)})")
    return [e for e in every if e in wanted]


def _grade_rows(exercise_file, rows, seed, answers_file, strict, variants, roster, manifest, chosen=None) -> GradeReport:
    exercise_file = Path(exercise_file)
    base = _validate_set(exercise_file)
    notes: list[str] = []
    if manifest is not None:
        note = manifest.check_set(base.id, exercise_file)
        if note:
            notes.append(note)
        if seed is not None and str(seed) != (manifest.seed or ""):
            raise InputFileError(manifest.path, None, f"the sheets were made with seed {manifest.seed!r}, not {str(seed)!r}: "
                                                      "grade without --seed (the manifest gives it) or with the same one")
        seed = manifest.seed
        roster = roster if roster is not None else manifest.roster
    on_roster = {entry.key: entry for entry in roster or []}
    exercise_ids = [e.id for e in base.exercises]
    exercises = {e.id: e for e in base.exercises}
    chosen = _chosen_exercises(base, chosen)

    def refuse(row: AnswerRow, status: str, message: str):
        row.status, row.message = status, message
        if strict:
            raise InputFileError(answers_file, row.line, message)

    if not variants and any(row.variant for row in rows):
        raise InputFileError(answers_file, None, "the answers carry personal variant codes: grade them against each "
                                                 "student's variant (without --as-written)")
    # pass 1, no solving: what each row addresses, and whether it can be graded at all
    spellings: dict = defaultdict(dict)  # student key -> {spelling: [lines]}
    by_student: dict = {}  # student key -> [(row, question id, part ref)], in order of first appearance
    student_rows: dict = {}  # student key -> every row of theirs
    sheet_codes: dict = {}  # an LMS variant's sheet -> its code
    codes_read: dict = {}  # a code as written -> as read_code reads it
    addresses: dict = {}  # (exercise, question as written) -> what _address makes of it: read once, not once a row
    keys: dict = {}  # a student id as written -> normalised, once a spelling (a student has a row a question)
    for row in rows:
        who = keys.get(row.student)
        if who is None:
            who = keys[row.student] = normalise_student(row.student)
        if who:
            spellings[who].setdefault(row.student, []).append(row.line)
            by_student.setdefault(who, [])
            student_rows.setdefault(who, []).append(row)
        if row.status:  # unreadable row (extra or missing fields)
            refuse(row, row.status, row.message)
            continue
        if not who:
            refuse(row, "no-student", "no student id; not graded")
            continue
        if row.exercise not in exercises:
            refuse(row, "unknown-exercise", f"unknown exercise {row.exercise!r} (the set has {', '.join(exercise_ids)}); "
                                            "not graded")
            continue
        if row.exercise not in chosen:  # the teacher's choice, not a problem with the row: never refused as one
            row.status, row.message = "not-selected", (f"exercise {row.exercise} is not among the exercises graded "
                                                       f"({', '.join(chosen)}); not graded")
            continue
        if row.variant and row.sheet:  # an LMS quiz's variant: the code names the sheet, whoever answered it
            if row.sheet not in sheet_codes:  # one SHA-256 a variant, not one a row
                sheet_codes[row.sheet] = variant_code(base.id, row.sheet, seed)
            expected = sheet_codes[row.sheet]
        elif row.variant:
            expected = manifest.codes.get(who) if manifest is not None and who in manifest.codes else None
            expected = expected or variant_code(base.id, who, seed)
        if row.variant:
            if row.variant not in codes_read:
                codes_read[row.variant] = read_code(row.variant)
            if codes_read[row.variant] != expected:
                refuse(row, "variant-mismatch", f"variant code {row.variant!r} is not the code of {row.student}'s sheet "
                                                f"of set {base.id!r}" + (f" with seed {seed}" if seed is not None else
                                                                         " without a seed")
                                                + f" ({expected}); not graded")
                continue
        address = addresses.get((row.exercise, row.question))
        if address is None:
            address = addresses[row.exercise, row.question] = _address(exercise_file, exercises[row.exercise],
                                                                        row.question)
        if address[0] is None:
            refuse(row, *address[1:])
            continue
        row.status, row.message = "graded", ""
        by_student[who].append((row, *address))
    _refuse_unusable_file(rows, base, seed, answers_file, chosen)
    # every question of the exercises graded counts, answered by anyone or not (the points possible never shrink)
    graded_set = [e for e in base.exercises if e.id in chosen]
    questions = [(e.id, q.id) for e in graded_set for q in e.questions if not _read_by_teacher(q)]
    read_by_teacher = [(e.id, q.id) for e in graded_set for q in e.questions if _read_by_teacher(q)]
    have_roster = roster is not None
    the_class, outsiders = _class_and_outsiders(student_rows, by_student, on_roster, have_roster)
    # pass 2, one student at a time (their variant's keys stay in the small caches while they are needed)
    report = []
    # answer_key(exercise_file, ...) without looking at the file's date and size again for every answer
    file_text, stamp, seed_text = str(exercise_file), file_stamp(exercise_file), None if seed is None else str(seed)
    close_calls = CloseCalls()  # answers graded by the closer reading of a mistake within the tolerance
    # A question nobody answered has the same missing parts for everyone (the parts' structure is the same in every
    # variant), and an answer to a sheet many students share (an LMS quiz's variant, or the set as written) the same
    # feedback for every student who wrote it: both are made once (feedback is immutable) instead of once a row
    # (a 200,000-attempt Moodle export of 2 variants: 9 in 10 of its questions unanswered, a few hundred answers).
    unanswered = {(e, q): [missing_part(k, part) for part in k.parts]
                  for e, q in questions for k in (answer_key(exercise_file, e, q),)} if _REUSE else {}
    shared_feedback: dict = {}  # (sheet, exercise, question, part, answer) -> feedback, for shared sheets
    # each question's grade for a student who left it unanswered, shared by them all
    blanks = [_Unanswered("", e, q, unanswered[e, q]) for e, q in questions] if _REUSE else None
    position = {question: i for i, question in enumerate(questions)}
    sheet_ids: dict = {}  # an LMS row's sheet -> its id, normalised once a sheet
    off_roster = set(outsiders)

    def shown_as(who: str) -> tuple:
        """(roster entry or None, the id as shown) of student ``who``."""
        entry = on_roster.get(who)
        return entry, entry.id if entry else next(iter(spellings[who]))

    def grade_student(who: str, close_calls: CloseCalls) -> list:
        """The grade of each question for student ``who`` (blanks shared); refuses their rows that cannot count."""
        _, shown = shown_as(who)
        student = normalise_student(who) if variants else None
        keys: dict = {}  # (exercise, question, sheet) -> the key of this student's (or the row's) sheet
        sheets: dict = {}  # (exercise, question) -> the sheet of its last answer, when not the student's own

        def key_of(exercise_id: str, question_id: str, sheet=None):
            sheet = sheets.get((exercise_id, question_id), "") if sheet is None else sheet
            if (exercise_id, question_id, sheet) not in keys:
                keys[exercise_id, question_id, sheet] = cached_key(file_text, stamp, sheet or student, seed_text,
                                                                    exercise_id, question_id)
            return keys[exercise_id, question_id, sheet]

        slots: dict = {}  # (exercise, question) -> {part index: (PartFeedback, row)}
        superseded: dict = {}  # id(row) -> (row, part address, line of the later answer)
        for row, question_id, part_ref in by_student.get(who, ()):
            if row.sheet and variants:
                sheet = sheet_ids.get(row.sheet)
                if sheet is None:
                    sheet = sheet_ids[row.sheet] = normalise_student(row.sheet)
            else:
                sheet = ""
            sheets[row.exercise, question_id] = sheet
            key = key_of(row.exercise, question_id)
            shared = (sheets[row.exercise, question_id] or student is None) and _REUSE
            reuse = (sheets[row.exercise, question_id], row.exercise, question_id, part_ref, row.answer)
            feedback = shared_feedback.get(reuse) if shared else None
            if feedback is None:
                feedback = grade_reference(key, part_ref, row.answer, exact_values=False)
                if shared:
                    shared_feedback[reuse] = feedback
            if part_ref is None and len(key.parts) > 1 and split_answers(row.answer, len(key.parts)) is None:
                refuse(row, "wrong-part-count", f"{feedback[0].message.removeprefix('No answer recognised: ')} Graded 0.")
            slot = slots.setdefault((row.exercise, question_id), {})
            for part_feedback in feedback:
                index = int(part_feedback.part or 1) - 1
                if index in slot:
                    superseded[id(slot[index][1])] = (slot[index][1], part_feedback.address, row.line)
                slot[index] = (part_feedback, row)
        still_used = {id(row) for slot in slots.values() for _, row in slot.values()} if superseded else set()
        for earlier, address, line in superseded.values():
            if id(earlier) in still_used:  # only some of its parts were answered again: it still counts for the rest
                earlier.message = f"{address} answered again at line {line}, which counts for that part"
            else:
                refuse(earlier, "duplicate", f"{earlier.student} answered {earlier.exercise} {address} again at line "
                                             f"{line}; this earlier answer is not counted")
        if blanks is not None:  # a question nothing answered: the class's grade of it (no reading to note)
            grades = blanks.copy()
            todo = sorted(position[address] for address in slots if address in position)
        else:
            grades, todo = [None] * len(questions), range(len(questions))
        for i in todo:
            exercise_id, question_id = questions[i]
            slot = slots.get((exercise_id, question_id)) or {}
            if slot:
                key = key_of(exercise_id, question_id)
            else:  # nothing answered: the parts' structure is the same in every variant, nothing to solve
                key = answer_key(exercise_file, exercise_id, question_id)
            parts = [slot[part.index][0] if part.index in slot else missing_part(key, part) for part in key.parts]
            if who not in off_roster:
                close_calls.add(shown, key, parts)
            lines = tuple(sorted({slot[i][1].line for i in slot}))
            statuses = {slot[i][1].status for i in slot}
            grades[i] = QuestionGrade(shown, exercise_id, question_id, parts, lines,
                                      "wrong-part-count" if "wrong-part-count" in statuses else "graded")
        return grades

    def graded_elsewhere(who: str) -> tuple:
        """What grading ``who`` makes, as a worker process sends it: the grades of the questions they answered,
        the status and message of each of their rows, and the close calls met (None: none, as for most)."""
        met = CloseCalls()
        grades = grade_student(who, met)
        answered = {i: grade for i, grade in enumerate(grades) if grade is not blanks[i]}
        return answered, [(row.status, row.message) for row in student_rows.get(who, ())], met if met.counts else None

    # students graded against their own variant, every answer theirs alone: a worker process may grade them ahead
    # (irlab.homework.ahead); what it sends is merged here in the class's order, as if graded here
    alone = [who for who in the_class + outsiders
             if variants and blanks is not None and not strict and by_student.get(who)
             and not any(row.sheet for row, _, _ in by_student[who])]
    with worked_ahead(alone, graded_elsewhere, once=PartFeedback) as ahead:
        for who in the_class + outsiders:
            done = ahead.take(who)
            if done is None:
                grades = grade_student(who, close_calls)
            else:
                answered, statuses, met = done
                grades = blanks.copy()
                for i, grade in answered.items():
                    grades[i] = grade
                for row, (status, message) in zip(student_rows.get(who, ()), statuses):
                    row.status, row.message = status, message
                if met is not None:
                    close_calls.merge(met)
            entry, shown = shown_as(who)
            own = [row for row in student_rows.get(who, ()) if row.status not in ("graded", "wrong-part-count")]
            known = entry or _identity(student_rows.get(who, ()), shown)
            report.append(StudentGrade(shown, grades, known.name, known.email_address, own,
                                       OFF_ROSTER if who in off_roster else "", known.institution_id, known.canvas_id))
    notes += _roster_notes(spellings, on_roster, have_roster)
    notes += close_calls.notes(exercise_file, questions, {e.id for e in graded_set if e.variants} if variants else set())
    id_problems = _off_roster_problems(spellings, on_roster, answers_file, outsiders) if have_roster else []
    if roster is None and manifest is None and seed is None and variants and any(e.variants for e in base.exercises) \
            and not any(row.variant for row in rows):
        notes.append("graded against variants drawn without a seed: if the sheets were made with --seed, grade with "
                     "the same --seed (or --manifest)")
    kept_out = report[len(the_class):]
    return GradeReport(str(exercise_file), str(answers_file), None if seed is None else str(seed),
                       report[:len(the_class)], questions, rows, variants, notes, base.id, exercises=chosen,
                       left_out=[e for e in exercise_ids if e not in chosen], read_by_teacher=read_by_teacher,
                       kept_out=kept_out, id_problems=id_problems)


def _address(exercise_file, exercise, question: str) -> tuple:
    """(question id, part reference) of a row answering ``question`` of ``exercise`` (variants change parameters,
    never question ids or parts), or (None, status, message) saying why such a row is not graded."""
    question_id, part_ref = split_reference(question, exercise)
    if question_id not in {q.id for q in exercise.questions}:
        known = ", ".join(q.id for q in exercise.questions)
        return None, "unknown-question", f"exercise {exercise.id} has no question {question!r} (it has {known}); not graded"
    if _read_by_teacher(next(q for q in exercise.questions if q.id == question_id)):
        return None, "free-text", f"{exercise.id} {question_id} is a free-text question: read it; not graded"
    if part_ref is not None:
        try:
            answer_key(exercise_file, exercise.id, question_id).part(part_ref)
        except IrlabError as error:
            return None, "unknown-part", f"{error}; not graded"
    return question_id, part_ref


OFF_ROSTER = ("not on the roster (a typo?): graded against this id's own variant, kept out of the gradebook exports "
              "and the class statistics")


def _class_and_outsiders(student_rows: dict, by_student: dict, on_roster: dict, have_roster: bool):
    """The class (with a roster, the roster in its order; else every id with a row answering the set, in order of
    appearance) and the ids not on the roster that have an answer to grade. An id all of whose rows were rejected
    is in neither: it is no student, its rows are problems."""
    if have_roster:
        return list(on_roster), [who for who in by_student if who not in on_roster and by_student[who]]
    return [who for who in by_student if any(row.status in ANSWER_STATUSES for row in student_rows[who])], []


def _off_roster_problems(spellings: dict, on_roster: dict, answers_file, outsiders: list) -> list[str]:
    """``file:line: message`` for every id not on the roster: never in a gradebook import or the class means."""
    problems = []
    for who, written in spellings.items():
        if who in on_roster:
            continue
        lines = sorted(n for lines in written.values() for n in lines)
        what = ("graded against its own variant in this report" if who in outsiders else "no answer of it graded")
        problems.append(f"{answers_file}:{lines[0]}: student {next(iter(written))!r} (line{'s' if len(lines) > 1 else ''} "
                        f"{', '.join(map(str, lines[:5]))}{', …' if len(lines) > 5 else ''}) is not on the roster: no "
                        f"sheet was issued to this id (a typo?); {what}, kept out of the gradebook exports and the class "
                        "statistics")
    return problems


def _read_by_teacher(question) -> bool:
    """A free-text question is read by the teacher, unless it names its right options (correct): a choice."""
    return question.solver == "free-text" and "correct" not in question.options


def _refuse_unusable_file(rows: list[AnswerRow], base, seed, answers_file, chosen=()) -> None:
    """A file none of whose rows can be graded is an error that says why, never a class of zeros."""
    if not rows:
        raise InputFileError(answers_file, None, "no answer rows to grade (only a header)")
    if any(row.graded for row in rows):
        return
    counts = Counter(row.status for row in rows)
    status, _ = counts.most_common(1)[0]
    if status == "unknown-exercise":
        named = sorted({row.exercise for row in rows if row.status == "unknown-exercise"})
        raise InputFileError(answers_file, None, f"none of the {len(rows)} rows can be graded against set {base.id!r}: "
                                                 f"the answers name exercise{'s' if len(named) > 1 else ''} "
                                                 f"{', '.join(named)}, the set has {', '.join(e.id for e in base.exercises)}. "
                                                 "Is this the exercise set the sheets were made from?")
    if status == "variant-mismatch":
        coded = [row for row in rows if row.status == "variant-mismatch"]
        raise InputFileError(answers_file, None, f"none of the {len(rows)} rows' variant codes matches the students' "
                                                 f"sheets of set {base.id!r}: {_code_hint(coded, base.id, seed)}")
    if status == "not-selected":
        named = sorted({row.exercise for row in rows if row.status == "not-selected"})
        raise InputFileError(answers_file, None, f"none of the {len(rows)} rows answers the exercise"
                                                 f"{'s' if len(chosen) > 1 else ''} chosen to grade ({', '.join(chosen)}): "
                                                 f"the answers name {', '.join(named)}")
    raise InputFileError(answers_file, None, f"none of the {len(rows)} rows can be graded: "
                                             + "; ".join(f"{n} {s}" for s, n in counts.most_common()))


def _roster_notes(spellings: dict, on_roster: dict, have_roster: bool) -> list[str]:
    notes = []
    for who, written in spellings.items():
        if len(written) > 1 or (who in on_roster and set(written) != {on_roster[who].id}):
            forms = ", ".join(f"{spelling!r} (line{'s' if len(lines) > 1 else ''} {', '.join(map(str, lines))})"
                              for spelling, lines in written.items())
            target = f", as on the roster: {on_roster[who].id!r}" if who in on_roster else ""
            notes.append(f"student ids {forms} differ only in case or spaces: graded as one student{target}")
    if have_roster:
        absent = [entry.id for who, entry in on_roster.items() if who not in spellings]
        if absent:
            notes.append(f"{len(absent)} roster student{'s have' if len(absent) > 1 else ' has'} no answers (scored 0): "
                         + ", ".join(absent))
    return notes


def clear_caches() -> None:
    """Forget every variant and answer key computed so far (they are cached per file, student and seed)."""
    clear_key_caches()
    clear_drawing_caches()


def grade(exercise_file, answers_file, seed=None, strict: bool = False, variants: bool = True, roster=None,
          manifest=None, exercises=None) -> GradeReport:
    """Grade the answers CSV ``answers_file`` against every student's variant of ``exercise_file``.

    ``roster`` is a roster file or a list of :class:`~irlab.homework.identity.RosterEntry`; ``manifest`` the
    ``manifest.json`` that ``irlab sheet --roster --out`` wrote (or its directory): it gives the seed and roster.
    ``exercises`` (a list of exercise ids) grades only those exercises; by default every question of the set counts.
    """
    if roster is not None and not isinstance(roster, list):
        roster = read_roster(roster)
    if manifest is not None and not isinstance(manifest, Manifest):
        manifest = read_manifest(manifest)
    rows = read_answers(answers_file)
    return grade_rows(exercise_file, rows, seed, str(answers_file), strict, variants, roster, manifest, exercises)
