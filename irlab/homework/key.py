"""The answer key of one question of a student's variant: its parts, their exact values, how to address them.

A question may ask for several values (precision, recall and F; the highest and lowest MAP). Each value is a
*part*, addressed in an answer as ``b.2`` (1-based position) or ``b:recall`` (its name: the metric when the
parts' metrics differ, else the first word of its label that the other parts do not share, e.g. ``c:highest``,
``a:macro``). A plain ``b`` addresses the whole question: one value for a one-part question, or every part in
order separated by ``;`` (``0.2; 0.5; 2/7``).
"""

from __future__ import annotations

from collections import OrderedDict
from functools import lru_cache
from pathlib import Path

from ..errors import InputFileError, IrlabError
from ..exercise_set import Exercise, Where, check_consistency
from .drawing import issued_key, issued_solutions, judged_worth_solving, solve_once, stamped_variant_set
from .identity import normalise_student
from .key_build import (Key, Part, build_key, file_stamp, grading_defaults,  # noqa: F401  (where callers find them)
                        grading_defaults_cached, part_names)
from .plain_key import clear_plain_keys, learn, plain_solution


@lru_cache(maxsize=1024)  # grading handles one student at a time; keys hold traced solutions (memory)
def cached_key(path: str, stamp, student, seed, exercise_id: str, question_id: str) -> Key:
    """One question's key for a student's variant, cached by the set file's ``file_stamp``: grading a class asks
    for the same keys again and again (:func:`answer_key` is the checked entry point)."""
    exercise_set = stamped_variant_set(path, stamp, student, seed)  # (student normalised by every caller)
    exercise = exercise_set.exercise(exercise_id)
    where = Where(exercise_set.path, exercise.id)
    question = next((q for q in exercise.questions if q.id == question_id), None)
    if question is None:
        known = ", ".join(q.id for q in exercise.questions)
        raise InputFileError(exercise_set.path, None, f"exercise {exercise.id} has no question {question_id!r} "
                                                      f"(it has {known})")
    drawn = issued_key(exercise, question.id)
    if drawn is not None:  # built when the draw was judged worth solving (its mistakes re-solved then)
        return drawn
    issued = issued_solutions(exercise)
    try:
        if issued is not None and question.id in issued[1]:  # a variant just drawn: checked and solved already
            params, solution = issued[0], issued[1][question.id]
            params_text = repr(params)
        else:
            params, params_text, memo = _consistent_params(exercise, exercise_set.path)
            qwhere = Where(exercise_set.path, exercise.id, question.id)
            # its values without the explanation where proven the explained solver's (run if something reads more)
            solution = (plain_solution(params, question, qwhere, params_text, memo)
                        or solve_once(params, question, qwhere))
    except InputFileError:
        raise
    except IrlabError as error:
        raise where.error(str(error)) from None
    learn(question, params_text, solution)
    key = build_key(exercise_set.path, exercise, question, params, solution, grading_defaults_cached(path, stamp))
    if judged_worth_solving(exercise, question):  # judged when drawn: no named mistake within the tolerance
        key.findings.update((part.index, ()) for part in key.parts if part.result is not None)
    return key


# The parameters the last few exercises are solved with, by exercise object: a variant's questions share them (an
# issued exercise agrees with its statement, so checking it again would give the same parameters), with their repr
# and the memo of their plain values (plain_answers.plain_parts: the ranking read once for all the questions).
_PARAMS: OrderedDict = OrderedDict()
_PARAMS_SIZE = 16


def _consistent_params(exercise: Exercise, path) -> tuple[dict, str, dict]:
    entry = _PARAMS.get(id(exercise))
    if entry is None or entry[0] is not exercise:
        params, _ = check_consistency(exercise, path)
        entry = _PARAMS[id(exercise)] = (exercise, params, repr(params), {})
        if len(_PARAMS) > _PARAMS_SIZE:
            _PARAMS.popitem(last=False)
    return entry[1:]


def answer_key(path, exercise_id: str, question_id: str, student: str | None = None, seed=None) -> Key:
    """The key of one question of ``student``'s variant (of the set as written when student is None)."""
    path = Path(path)
    return cached_key(str(path), file_stamp(path), None if student is None else normalise_student(student),
                       None if seed is None else str(seed), str(exercise_id), str(question_id))


def clear_key_caches() -> None:
    """Forget every answer key and grading table computed so far."""
    cached_key.cache_clear()
    grading_defaults_cached.cache_clear()
    _PARAMS.clear()
    clear_plain_keys()


def split_reference(question_ref: str, exercise: Exercise) -> tuple[str, str | None]:
    """'b' -> ('b', None); 'b.2' -> ('b', '2'); 'b:recall' -> ('b', 'recall'); a question id containing '.' wins."""
    ref = str(question_ref).strip()
    ids = {q.id for q in exercise.questions}
    if ref in ids:
        return ref, None
    for separator in (":", "."):
        if separator in ref:
            head, tail = ref.rsplit(separator, 1)
            if head.strip() in ids:
                return head.strip(), tail.strip()
    return ref, None
