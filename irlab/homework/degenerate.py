"""Draws not worth solving: a variant whose answer to a question is 0 or 1, or lies within the tolerance of a
named mistake's value, is refused by the drawing (:mod:`irlab.homework.drawing`), which then draws again.

A computed answer of 0 or 1 is a corner the student learns nothing from (no relevant document in the top 5, a
recall level the list never reaches, a first document that is relevant); an answer the tolerance cannot tell from
a named mistake's value (:func:`irlab.homework.diagnosis.too_close`, the case ``irlab sheet`` warns the
instructor about) grades the mistake as right. An undefined value either stops the solver (the draw is refused as
inconsistent) or is reported as 0, which is refused here. A named mistake that gives the very same value as the
right one is no other answer (it does not apply to this variant: P@k over the documents retrieved when k is the
list's length) and is not a reason to refuse.

A question keeps such draws with ``allow_degenerate = true`` (its 0 is the point of the question); choice and
free-text questions are never judged here.
"""

from __future__ import annotations

from fractions import Fraction

from .. import exact
from ..exercise_set import Exercise
from .answers import rational_value
from .diagnosis import part_too_close
from .key_build import Key, build_key, grading_defaults

OPT_OUT = "allow_degenerate"  # the question key that keeps degenerate draws (irlab/schema.py)
_SYMBOLIC_EQUAL = Fraction(1, 10**12)  # a logarithmic value this near 0 or 1 is that number (float noise)


def _equals(value, target: int) -> bool:
    if exact.is_symbolic(value):
        return value == target or abs(rational_value(value) - target) <= _SYMBOLIC_EQUAL
    return value == target


def draw_keys(path, exercise: Exercise, params: dict, solutions: dict) -> dict[str, Key]:
    """The answer key of every computed question of a drawn variant (question id -> Key), as the grader builds it."""
    grading = grading_defaults(path)
    return {question.id: build_key(path, exercise, question, params, solutions[question.id], grading)
            for question in exercise.questions if question.solver != "free-text"}


def part_where(question_id: str, number: str, name: str, several: bool) -> str:
    """How a refusal names a part: "question b", or "question b.2 (recall)" when the question has several."""
    return f"question {question_id}" + (f".{number} ({name})" if several else "")


def answer_is(where: str, target: int) -> str:
    """Why a draw whose answer at ``where`` is 0 or 1 is refused."""
    return f"{where}: the answer is {target}"


def mistake_too_close(where: str, mistake_name: str, mistaken, right) -> str:
    """Why a draw with a named mistake within the tolerance of the right value at ``where`` is refused."""
    return (f"{where}: the named mistake {mistake_name} ({exact.decimal_text(rational_value(mistaken), 4)}) lies "
            f"within the tolerance of the right value {exact.decimal_text(rational_value(right), 4)}")


def _judged(keys: dict[str, Key]):
    """(where, key, part) of every computed part whose question does not opt out."""
    for qid, key in keys.items():
        if key.question.options.get(OPT_OUT):
            continue
        for part in key.parts:
            if part.result is not None:
                yield part_where(qid, part.number, part.name, len(key.parts) > 1), key, part


def degenerate_reason(keys: dict[str, Key]) -> str | None:
    """Why a drawn variant is not worth solving, or None. The answers 0 and 1 are looked at first (cheap); a
    named mistake within the tolerance needs every mistake re-solved, done only for a draw that passes them."""
    for where, _, part in _judged(keys):
        for target in (0, 1):
            if _equals(part.value, target):
                return answer_is(where, target)
    for where, key, part in _judged(keys):
        for finding in part_too_close(key, part):
            return mistake_too_close(where, finding.mistake.name, finding.mistaken, finding.right)
    return None
