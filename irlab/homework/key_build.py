"""A question's key built from a solved variant: its parts, their exact values, its tolerance and mistake credit.

Below the drawing, which builds the key of each draw to judge it (:mod:`irlab.homework.degenerate`) before issuing
it; :mod:`irlab.homework.key` gives a student's key of their issued variant, built here.

A question may ask for several values (precision, recall and F; the highest and lowest MAP). Each value is a
*part*, addressed in an answer as ``b.2`` (1-based position) or ``b:recall`` (its name: the metric when the
parts' metrics differ, else the first word of its label that the other parts do not share, e.g. ``c:highest``,
``a:macro``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from pathlib import Path

from ..answer_options import OPTION_KEYS, AnswerOptionError, Tolerance, option_number
from ..errors import InputFileError, IrlabError
from ..exercise_set import Exercise, Question, Where, read_toml
from ..metric import Result
from .mistakes import mistaken_results


@dataclass(frozen=True)
class Part:
    index: int  # 0-based
    name: str  # e.g. "recall", "highest"
    label: str
    result: Result | None  # None for a choice question's part, graded by ``choice``
    choice: frozenset | None = None  # the letters of the right options (a choice question)

    @property
    def number(self) -> str:
        return str(self.index + 1)

    @property
    def value(self):
        return self.result.value


@dataclass
class Key:
    """Everything needed to grade one question of one student's variant."""

    path: Path
    exercise: Exercise
    question: Question
    params: dict  # the parameters the question was solved with
    parts: list[Part]
    tolerance: Tolerance
    candidates: dict  # part index -> mistaken results, filled on first use
    mistake_credit: Fraction = Fraction(0)  # share of a part's credit for an answer that matches a named mistake
    # part index -> the named mistakes within the tolerance (diagnosis.part_too_close), filled on first use: the
    # drawing judges every part of a draw with them, and the sheet's warning and the key's notes reuse them
    findings: dict = field(default_factory=dict)

    def part(self, ref: str) -> Part:
        ref = ref.strip().lower()
        for part in self.parts:
            if ref in (part.number, part.name.lower()):
                return part
        known = ", ".join(f"{self.question.id}.{p.number} ({self.question.id}:{p.name})" for p in self.parts)
        raise IrlabError(f"question {self.question.id} has no part {ref!r} (parts: {known})")

    def mistaken(self, part: Part):
        if part.index not in self.candidates:
            self.candidates[part.index] = mistaken_results(self.question, self.params, part.index, self.path)
        return self.candidates[part.index]


def _words(label: str) -> list[str]:
    return [w for w in re.findall(r"[a-z][a-z0-9-]*", label.lower()) if w not in {"of", "the", "a", "an"}]


def part_names(answers) -> list[str]:
    metrics = [a.result.metric for a in answers]
    if len(set(metrics)) == len(metrics):
        return metrics
    names = []
    for i, answer in enumerate(answers):
        others = {w for j, other in enumerate(answers) if j != i for w in _words(other.label)}
        unique = [w for w in _words(answer.label) if w not in others]
        names.append(unique[0] if unique else str(i + 1))
    return names


def file_stamp(path: Path):
    """What tells a changed file from the one a cache saw: its modification time and size (None if unreadable)."""
    try:
        stat = path.stat()
        return stat.st_mtime_ns, stat.st_size
    except OSError:
        return None


def build_key(path: Path, exercise: Exercise, question: Question, params: dict, solution, grading: dict) -> Key:
    """The key of ``question`` solved as ``solution`` with ``params``, graded with the set's ``grading`` defaults
    (its [grading] table) under the question's own options; the drawing builds it to judge a draw before issuing it."""
    answers = solution.primary or solution.answers
    names = part_names(answers)
    parts = [Part(i, name, answer.label, answer.result) for i, (answer, name) in enumerate(zip(answers, names))]
    if solution.choice is not None:  # a choice question: one part, the right options' letters
        parts = [Part(0, "choice", "the letter(s) of the right option(s)", None, solution.choice)]
    try:
        tolerance = question_tolerance(question, grading)
        mistake_credit = _per_question(_CREDITS, question, grading, _mistake_credit)
    except AnswerOptionError as error:
        if error.key in question.options:
            raise Where(path, exercise.id, question.id).error(error.problem, error.key) from None
        raise Where(path).error(error.problem, f"grading.{error.key}") from None
    return Key(path, exercise, question, params, parts, tolerance, {}, mistake_credit)


_TOLERANCES: dict = {}


def question_tolerance(question: Question, grading: dict) -> Tolerance:
    """The tolerance a question is graded with: the set's ``[grading]`` defaults under the question's own options
    (raises AnswerOptionError naming a bad key); once per question object and grading table (every draw of a
    variant screened, every student's key, asks again for the same question)."""
    return _per_question(_BY_QUESTION, question, grading,
                         lambda options: _tolerance_of(repr(sorted(options.items())), options))


def _mistake_credit(options: dict) -> Fraction:
    return option_number(options, "mistake_credit", 0, 0, 1)


def _per_question(table: dict, question: Question, grading: dict, make):
    """``make`` of the question's options over the set's ``grading`` defaults, once per question object and grading
    table (an error is raised again each time); ``table`` keeps both alive beside it, so their ids name no other."""
    key = (id(question), id(grading))
    found = table.get(key)
    if found is None or found[0] is not question or found[1] is not grading:
        made = make({**grading, **question.options})
        if len(table) >= 1024:
            table.clear()
        found = table[key] = (question, grading, made)
    return found[2]


_BY_QUESTION: dict = {}  # (question, grading table) ids -> (both, the tolerance)
_CREDITS: dict = {}  # the same -> (both, the mistake credit)


def _tolerance_of(text: str, options: dict) -> Tolerance:
    """Tolerance.of, once per distinct set of options (every student's key of a question has the same)."""
    if text not in _TOLERANCES:
        if len(_TOLERANCES) > 1024:
            _TOLERANCES.clear()
        _TOLERANCES[text] = Tolerance.of(options)
    return _TOLERANCES[text]


def grading_defaults(path) -> dict:
    """The set's ``[grading]`` table: defaults for every question's grading options (tolerance, min_decimals, …)."""
    path = Path(path)
    return grading_defaults_cached(str(path), file_stamp(path))


@lru_cache(maxsize=64)
def grading_defaults_cached(path: str, stamp) -> dict:
    # read as load() reads the set (read_toml): a file that changed since into one irlab cannot read is an error
    # naming it, never a builtin exception, nor grading without the set's defaults
    table = read_toml(path).get("grading", {})
    if not isinstance(table, dict):
        raise InputFileError(path, None, "[grading] must be a table of grading options")
    unknown = sorted(set(table) - set(OPTION_KEYS))
    if unknown:
        raise InputFileError(path, None, f"[grading]: unknown key {unknown[0]!r} (allowed: {', '.join(sorted(OPTION_KEYS))})")
    return table
