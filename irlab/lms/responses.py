"""An LMS's own response export read as irlab answer rows, each addressed to the variant its question was drawn from.

Two layouts are recognised by their header (anything else is irlab's answers CSV):

* Moodle's quiz **Responses** report (Quiz > Results > Responses, downloaded as CSV): the identity columns
  (``Surname``, ``First name``, ``Email address``, optionally ``ID number``, ``Username``), ``State``,
  ``Started on``, ``Completed``, ``Time taken``, ``Grade/10.00``, then per slot ``Response N`` — and, when the
  report shows the question text, ``Question N`` before it (``Right answer N`` too, ignored). With random questions
  each row's ``Question N`` is the question *that* student was drawn, so it is what names the variant. A
  response Moodle shows as ``-`` is no response.
* Canvas's quiz **Student Analysis** report (Quiz statistics > Student Analysis): ``name``, ``id``, ``sis_id``,
  ``section``, ``section_id``, ``section_sis_id``, ``submitted``, ``attempt``, then per question a column
  ``<question id>: <question text>`` followed by its score column, then ``n correct``, ``n incorrect``, ``score``.
  A question drawn from a group that a student was not given has an empty answer *and* an empty score: no row.

Neither export carries the bank's question *name*, only its text, so the bank (:mod:`irlab.lms.bank`) puts the
name (:func:`~irlab.lms.bank.question_name`, ``SET EXERCISE+QUESTION[.PART] [CODE]``) in the question text: this
reader finds it anywhere in the text. The code identifies variant ``i`` (1 … MAX_QUIZ_VARIANTS) of the set with
the seed, i.e. the sheet of :func:`~irlab.lms.bank.variant_student`; the row is graded against that sheet
(``AnswerRow.sheet``) exactly as irlab's CSV row ``student,exercise,question,answer,variant`` would be. A response
whose question names no variant of this set and seed is kept with the status ``no-variant`` saying why.

Students are known by their e-mail in Moodle (else ID number, username, name) and by their SIS user id in Canvas
(else the Canvas user id), the ids :func:`irlab.homework.identity.read_roster` reads from the same LMS's
participants or gradebook export. Each row also carries who answered as the export says it (``AnswerRow.identity``:
name, e-mail, ID number or SIS id, Canvas id), so the gradebooks fill their columns from it without a roster.
"""

from __future__ import annotations

import csv
import re
from functools import lru_cache
from pathlib import Path

from ..homework.drawing import variant_set
from ..homework.grading import AnswerRow, GradeReport, grade_rows, parse_answers
from ..homework.identity import (Manifest, RosterEntry, csv_reader, data_rows, read_csv_text, read_manifest,
                                 read_roster, variant_code)
from .bank import variant_student

try:  # engineer 1's bound on the variants a bank holds; 100 until it is defined
    from ..limits import MAX_QUIZ_VARIANTS
except ImportError:  # pragma: no cover - depends on the order the lms pieces land
    MAX_QUIZ_VARIANTS = 100

_CODE = r"\[(?P<code>[0-9A-Z]{3}-[0-9A-Z]{3})\]"
_ANY_NAME = re.compile(r"(?P<set>\S+)\s+(?P<rest>\S+)\s+" + _CODE)
_CANVAS_QUESTION = re.compile(r"\s*(?P<id>\d+):\s?(?P<text>.*)\Z", re.S)
_MOODLE_SLOT = re.compile(r"(?P<kind>response|question|right answer)\s*(?P<slot>\d+)\Z")
_CANVAS_IDENTITY = ("name", "id", "sis_id")
_MOODLE_IDENTITY = ("email address", "surname", "last name", "first name")
NO_RESPONSE = "-"  # what Moodle's report shows for a question left unanswered


def lms_answer_rows(text: str, exercise_file, seed, path="answers.csv") -> list[AnswerRow] | None:
    """The answer rows of a Moodle Responses or Canvas Student Analysis export, or None for any other CSV."""
    reader = csv_reader(text)
    try:
        header = next(reader)
    except (StopIteration, csv.Error):
        return None
    names = [cell.strip().lower() for cell in header]
    if all(c in names for c in _CANVAS_IDENTITY) and any(_CANVAS_QUESTION.match(h) for h in header):
        read = _canvas_rows
    elif any(c in names for c in _MOODLE_IDENTITY) and any(_MOODLE_SLOT.match(n) for n in names):
        read = _moodle_rows
    else:
        return None
    return read(data_rows(reader, path), header, names, _Resolver(variant_set(exercise_file), seed))


def grade(exercise_file, answers_file, seed=None, strict: bool = False, variants: bool = True, roster=None,
          manifest=None, exercises=None) -> GradeReport:
    """:func:`irlab.homework.grading.grade`, for irlab's answers CSV or an LMS's response export (``irlab grade``)."""
    if roster is not None and not isinstance(roster, list):
        roster = read_roster(roster)
    if manifest is not None and not isinstance(manifest, Manifest):
        manifest = read_manifest(manifest)
    path = Path(answers_file)
    text = read_csv_text(path)
    rows = lms_answer_rows(text, exercise_file, seed if seed is not None or manifest is None else manifest.seed, path)
    if rows is None:  # irlab's own answers CSV
        rows = parse_answers(text, path)
    return grade_rows(exercise_file, rows, seed, str(answers_file), strict, variants, roster, manifest, exercises)


_RESOLVED_KEPT = 4096  # distinct question texts a reader remembers (then it starts again): memory bounded


class _Resolver:
    """A question's text -> (exercise, question[.part], code, variant student), or the reason it names none."""

    def __init__(self, exercise_set, seed):
        self.set_id = exercise_set.id
        self.seed = seed
        self.exercises = {e.id: [q.id for q in e.questions] for e in exercise_set.exercises}
        self.by_code = _variant_codes(self.set_id, None if seed is None else str(seed))
        self.pattern = re.compile(re.escape(self.set_id) + r"\s+(?P<rest>\S+)\s+" + _CODE)
        self.resolved: dict = {}  # question text -> what it resolves to: an export repeats a few texts on every row

    def __call__(self, text: str):
        resolved = self.resolved.get(text)
        if resolved is None:
            if len(self.resolved) >= _RESOLVED_KEPT:
                self.resolved.clear()
            resolved = self.resolved[text] = self._resolve(text)
        return resolved

    def _resolve(self, text: str):
        found = self.pattern.search(text)
        if not found:
            other = _ANY_NAME.search(text)
            if other:
                return f"its question names set {other['set']!r} ({other[0]}), not {self.set_id!r}; not graded"
            return (f"its question text names no variant (irlab's question name, e.g. '{self.set_id} 1a [K3F-9QX]', "
                    f"is not in it: {_clip(text)!r}); not graded")
        rest, code = found["rest"], found["code"]
        address = self._address(rest)
        if address is None:
            return f"set {self.set_id!r} has no question {rest!r} (question name {found[0]!r}); not graded"
        number = self.by_code.get(code)
        if number is None:
            seeded = f"with seed {self.seed}" if self.seed is not None else "without a seed"
            return (f"variant code {code} is none of the {MAX_QUIZ_VARIANTS} variants of set {self.set_id!r} {seeded} "
                    f"(grade with the --seed the quiz was written with); not graded")
        return (*address, code, variant_student(number))

    def _address(self, rest: str):
        """'1a' / '3b.2' / '8/2c' -> (exercise, 'a' / 'b.2' / 'c'), the longest exercise id that fits."""
        for exercise in sorted(self.exercises, key=len, reverse=True):
            if rest.startswith(exercise):
                question = rest[len(exercise):]
                if question.split(".", 1)[0] in self.exercises[exercise]:
                    return exercise, question
        return None


@lru_cache(maxsize=8)
def _variant_codes(set_id: str, seed) -> dict:
    return {variant_code(set_id, variant_student(i), seed): i for i in range(1, MAX_QUIZ_VARIANTS + 1)}


def _clip(text: str, width: int = 60) -> str:
    text = " ".join(text.split())
    return text if len(text) <= width else text[:width - 1] + "…"


def _row(line: int, student: str, question_text: str, answer: str, resolve, where: str) -> AnswerRow:
    resolved = resolve(question_text)
    if isinstance(resolved, str):
        row = AnswerRow(line, student, "", "", answer)
        row.status, row.message = "no-variant", f"{where}: {resolved}"
        return row
    exercise, question, code, sheet = resolved
    return AnswerRow(line, student, exercise, question, answer, code, sheet=sheet)


def _columns(index: dict, *names: str) -> tuple[int, ...]:
    """The columns of the header ``index`` named ``names``, in that order (the ones the header has)."""
    return tuple(index[name] for name in names if name in index)


def _cells(cells: list[str], columns: tuple[int, ...]) -> str:
    """The first of the ``columns`` (see _columns) with a value in the row ``cells``, stripped; else ''."""
    for i in columns:
        if i < len(cells) and cells[i].strip():
            return cells[i].strip()
    return ""


def _moodle_rows(data, header, names, resolve) -> list[AnswerRow]:
    index = {name: i for i, name in reversed(list(enumerate(names)))}
    slots: dict = {}  # slot number -> {"response": column, "question": column}
    for i, name in enumerate(names):
        found = _MOODLE_SLOT.match(name)
        if found:
            slots.setdefault(int(found["slot"]), {})[found["kind"]] = i
    first_name, last_name = _columns(index, "first name"), _columns(index, "surname", "last name")
    ids, email, number = (_columns(index, "email address", "id number", "username"), _columns(index, "email address"),
                          _columns(index, "id number"))
    slots = sorted(slots.items())
    rows = []
    for line, cells in data:
        first, last = _cells(cells, first_name), _cells(cells, last_name)
        name = " ".join(part for part in (first, last) if part)
        student = _cells(cells, ids) or name
        who = RosterEntry(student, name, _cells(cells, email), line, sis_id=_cells(cells, number))
        start = len(rows)
        for slot, columns in slots:
            if "response" not in columns:
                continue
            column = columns["response"]
            answer = cells[column] if column < len(cells) else ""
            answer = "" if answer.strip() == NO_RESPONSE else answer
            where = f"{header[column].strip()}"
            if "question" not in columns:
                row = AnswerRow(line, student, "", "", answer)
                row.status, row.message = "no-variant", (f"{where}: the export has no 'Question {slot}' column, so "
                                                         "nothing names the variant answered: download the Responses "
                                                         "report with the question text shown; not graded")
                rows.append(row)
                continue
            question = cells[columns["question"]] if columns["question"] < len(cells) else ""
            if not question.strip() and not answer.strip():  # a slot this attempt does not have: nothing was asked
                continue
            rows.append(_row(line, student, question, answer, resolve, where))
        for row in rows[start:]:
            row.identity = who
    return rows


def _canvas_rows(data, header, names, resolve) -> list[AnswerRow]:
    index = {name: i for i, name in reversed(list(enumerate(names)))}
    questions = [(i, _CANVAS_QUESTION.match(h)["text"]) for i, h in enumerate(header) if _CANVAS_QUESTION.match(h)]
    score_column = {i: i + 1 for i, _ in questions if i + 1 < len(header) and not _CANVAS_QUESTION.match(header[i + 1])}
    ids, name, sis_id, canvas_id = (_columns(index, "sis_id", "id", "name"), _columns(index, "name"),
                                    _columns(index, "sis_id"), _columns(index, "id"))
    rows = []
    for line, cells in data:
        student = _cells(cells, ids)
        who = RosterEntry(student, _cells(cells, name), "", line, sis_id=_cells(cells, sis_id),
                          canvas_id=_cells(cells, canvas_id))
        for column, text in questions:
            answer = cells[column] if column < len(cells) else ""
            score = score_column.get(column)
            scored = score is not None and score < len(cells) and cells[score].strip()
            if not answer.strip() and not scored:  # a question of the group this student was not given
                continue
            rows.append(_row(line, student, text, answer, resolve, f"column {header[column].split(':', 1)[0].strip()}"))
            rows[-1].identity = who
    return rows
