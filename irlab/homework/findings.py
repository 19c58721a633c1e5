"""The instructor's findings on a set: for each question of a student's variant (or of the set as written), the named
mistakes whose values lie within the tolerance of the right value (:func:`irlab.homework.diagnosis.too_close`), computed
once per variant; ``irlab solve`` and ``irlab sheet`` print them as notes and warnings.

It sits above the drawing and the keys, which build each variant and its key; :mod:`irlab.homework.diagnosis`, below
the drawing, says what is too close for one key (the drawing refuses such draws with it).
"""

from __future__ import annotations

from collections import OrderedDict
from pathlib import Path

from ..errors import IrlabError
from .diagnosis import TooClose, key_too_close
from .drawing import variant_set
from .key import answer_key
from .key_build import file_stamp


def set_too_close(path, student=None, seed=None, exercise_id=None) -> list[TooClose]:
    """:func:`too_close` for every question of a set (``student``'s variant with ``seed``; the set as written when
    student is None), in the set's order; ``exercise_id`` restricts it to one exercise. A question whose grading
    options are broken raises their error."""
    findings = []
    for _, _, found in question_findings(path, student, seed, exercise_id):
        if isinstance(found, IrlabError):
            raise found
        findings += found
    return findings


# A class's sheets ask for each variant's findings twice (the sheet warns the teacher, the key lists them): the
# findings of the last variants asked for, by the set file as it is now (its date and size), are kept.
_FINDINGS: OrderedDict = OrderedDict()
_FINDINGS_SIZE = 16


def question_findings(path, student=None, seed=None, exercise_id=None) -> list:
    """(exercise, question, its :func:`key_too_close` findings or the IrlabError its key raised) for every question
    of the set graded by value (free-text ones are not), in the set's order; computed once per variant."""
    path = Path(path)
    asked = (str(path.resolve()), file_stamp(path), student, None if seed is None else str(seed), exercise_id)
    found = _FINDINGS.get(asked)
    if found is None:
        found = _FINDINGS[asked] = list(_question_findings(path, student, seed, exercise_id))
        if len(_FINDINGS) > _FINDINGS_SIZE:
            _FINDINGS.popitem(last=False)
    return found


def _question_findings(path, student, seed, exercise_id):
    exercise_set = variant_set(path, student, seed)
    for exercise in [exercise_set.exercise(exercise_id)] if exercise_id else exercise_set.exercises:
        for question in exercise.questions:
            if question.solver == "free-text":  # read by the teacher, or graded by its letters
                continue
            try:
                found = key_too_close(answer_key(path, exercise.id, question.id, student, seed))
            except IrlabError as error:
                found = error
            yield exercise, question, found


def too_close_notes(path, student=None, seed=None, exercise_id=None) -> list[str]:
    """The instructor's notes on a set (``irlab solve``, ``irlab sheet``): one per named mistake within the
    tolerance of a question's right value (:meth:`TooClose.text`), in the set's order. A question whose grading
    options are broken gets a note saying so instead (``irlab sheet``/``irlab grade`` refuse it with the error)."""
    notes = []
    for exercise, question, found in question_findings(path, student, seed, exercise_id):
        if isinstance(found, IrlabError):
            notes.append(f"exercise {exercise.id}, question {question.id}: not checked for named mistakes within the "
                         f"tolerance: {found}")
        else:
            notes += [finding.text() for finding in found]
    return notes
