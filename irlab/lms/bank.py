"""A question bank, whatever the LMS: what every writer (Moodle XML, GIFT, Canvas QTI) and the response reader share.

One exercise-set question becomes one bank question per part (a question asking for P, R and F is three
numerical questions) and per variant: variant ``i`` (1 … N) of a set is the sheet that ``irlab sheet`` draws for
the student id ``variant_student(i)`` with the same seed, so its numbers, its answer key and its variant code are
that sheet's. A question's name carries the set, the exercise, the question (and part) and the variant code
(:func:`question_name`), so every response an LMS exports can be traced back to its variant
(:func:`parse_question_name`). Each question sits in one category (Moodle) or question group (Canvas) of its own
(:func:`category_name`), from which a quiz draws one variant per student.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from fractions import Fraction

KINDS = ("numerical", "multichoice", "essay")


def variant_student(number: int) -> str:
    """The student id whose sheet is variant ``number`` of the bank: ``variant-1``, ``variant-2``, …"""
    return f"variant-{number}"


def question_name(set_id: str, exercise: str, question: str, part: str | None, code: str) -> str:
    """``chapter8-book 8.9a [Z88-521]``, with ``.2`` after the question for the second part of a multi-part question."""
    return f"{set_id} {exercise}{question}{'' if part is None else '.' + part} [{code}]"


_NAME = re.compile(r"(?P<set>\S+) (?P<rest>\S+) \[(?P<code>[0-9A-Z]{3}-[0-9A-Z]{3})\]\Z")


def parse_question_name(name: str) -> tuple[str, str, str] | None:
    """(set id, 'exercise+question[.part]' as written, variant code) of a name made by :func:`question_name`, or
    None. The exercise and question are split by the reader, which knows the set's ids."""
    found = _NAME.match(name.strip())
    return (found["set"], found["rest"], found["code"]) if found else None


def category_name(set_id: str, exercise: str, question: str, part: str | None) -> str:
    """One category per question (and part): ``irlab/chapter8-book/8.9a``; its questions are the variants."""
    return f"irlab/{set_id}/{exercise}{question}{'' if part is None else '.' + part}"


@dataclass(frozen=True)
class NumericAnswer:
    """One accepted value of a numerical question: the right value (credit 1) or a named mistake's value (credit
    the set's ``mistake_credit``, usually 0), each with the feedback irlab gives for it."""

    value: Fraction  # exact
    margin: Fraction  # the absolute margin an LMS accepts around ``value`` (its "error"/"tolerance")
    credit: Fraction  # share of the question's points, 0 … 1
    feedback: str  # plain text, as irlab.check says it of ``response`` in an answer box that takes decimals and %
    mistake: str | None = None  # the named mistake's id, None for the right value
    response: str = ""  # what a student types to meet this answer: '0.4286', '42.8571' (no % sign), '0.4286%'
    unitless_feedback: str | None = None  # the feedback where a number takes no % sign (GIFT, Canvas), if other

    @property
    def needs_percent_sign(self) -> bool:
        """Met only by a response with a % sign ('0.4286%' for 0.004286): an LMS whose numbers take no unit leaves
        the answer out (a student there could type only 0.004286, which irlab does not call that mistake)."""
        return self.response.endswith("%")

    def feedback_for(self, percent_sign: bool) -> str:
        """The feedback for an LMS whose numerical answers take a % sign (Moodle XML) or not (GIFT, Canvas)."""
        return self.feedback if percent_sign or self.unitless_feedback is None else self.unitless_feedback


@dataclass(frozen=True)
class Choice:
    text: str  # plain text of the option
    correct: bool
    feedback: str = ""


@dataclass(frozen=True)
class BankQuestion:
    name: str  # question_name(...)
    category: str  # category_name(...)
    kind: str  # one of KINDS
    text: str  # the statement, plain text (Markdown-safe), data included
    text_html: str  # the statement as HTML, math as MathJax \( … \)
    solution_html: str  # the worked solution as HTML (math as \( … \)): general feedback, shown after the attempt
    set_id: str
    exercise: str
    question: str
    part: str | None  # the part's number ("1", "2", …) when the question has several, else None
    code: str  # the variant code
    student: str  # variant_student(i): the sheet the variant is
    answers: tuple[NumericAnswer, ...] = ()  # numerical: the right value first, then the named mistakes
    choices: tuple[Choice, ...] = ()  # multichoice
    single: bool = True  # multichoice: one right option (else choose all that apply)
    model_answer: str = ""  # essay: the model answer, for the teacher
    decimals: int = 4  # decimals an LMS shows the values with


@dataclass
class Bank:
    set_id: str
    title: str
    seed: str | None
    variants: int
    questions: list[BankQuestion] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # for the instructor (on stderr): e.g. a mistake left out
