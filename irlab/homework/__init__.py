"""Homework auto-checking: personal variants, answer checking with diagnosed mistakes, class grading.

>>> from irlab.homework import check
>>> print(check("exercises/chapter8-book.toml", "8.9", "e", "0.555"))   # doctest: +SKIP
Not quite: 0.555 is what you get if you divide by the 6 relevant documents retrieved; this exercise divides by all 8 relevant documents (step 2 of the worked solution).

Modules: :mod:`.answers` (reading and comparing answers), :mod:`.drawing` (per-student parameters),
:mod:`.variants` (a variant's sheet and answer key), :mod:`.key` (a question's parts), :mod:`.mistakes` (the
catalogue of mistakes), :mod:`.diagnosis` (naming the mistake an answer matches),
:mod:`.feedback` (check, assert_answer; a named mistake within the tolerance: :func:`.diagnosis.too_close`), :mod:`.grading` (a class's CSV, every row accounted for),
:mod:`.identity` (student ids, roster, variant codes, class manifest), :mod:`.gradebook` (Canvas/Moodle exports,
class report), :mod:`.sheets` (sheets and keys written to files, a class's directory). The commands ``irlab sheet``
and ``irlab grade`` are :mod:`irlab.cli.sheet` and :mod:`irlab.cli.grade`.
"""

from .answers import ParsedAnswer, Tolerance, parse_answer
from .diagnosis import Diagnosis, TooClose, diagnose, too_close
from .drawing import variant_set
from .feedback import Feedback, PartFeedback, assert_answer, check
from .grading import ROW_STATUSES, GradeReport, grade, grade_rows, read_answers
from .identity import normalise_student, read_manifest, read_roster, variant_code
from .findings import set_too_close, too_close_notes
from .key import answer_key
from .mistakes import MISTAKES, Mistake
from .variants import answer_key_document, sheet_document

__all__ = [
    "check", "assert_answer", "Feedback", "PartFeedback", "grade", "grade_rows", "read_answers", "GradeReport",
    "sheet_document", "answer_key_document", "variant_set", "answer_key", "parse_answer", "ParsedAnswer", "Tolerance",
    "MISTAKES", "Mistake", "Diagnosis", "diagnose", "TooClose", "too_close", "set_too_close", "too_close_notes",
    "ROW_STATUSES", "normalise_student", "read_roster", "read_manifest", "variant_code",
]
