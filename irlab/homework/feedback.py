"""Feedback on one answer, for a student in a notebook and for the grading report.

>>> print(check("exercises/chapter8-book.toml", "8.9", "e", "0.555"))          # doctest: +SKIP
Not quite: 0.555 is what you get if you divide by the 6 relevant documents retrieved; this exercise divides by all 8 relevant documents (step 2 of the worked solution).

``check`` returns a :class:`Feedback` that prints as text and displays as Markdown/HTML in Jupyter;
``assert_answer`` raises AssertionError with the same text (for nbgrader/otter-grader test cells).

When a named mistake's value lies within the tolerance of the right value, an answer written precisely enough to
be nearer the mistake is graded as that mistake, and a right answer too coarse to tell them apart keeps its credit
with the mistake named (:func:`_closer_reading`). A wrong answer that fits several readings at the precision it
was written — the right value rounded too coarsely and a mistake's value, or several mistakes — names every one.
"""

from __future__ import annotations

import html
import re
from collections import Counter
from dataclasses import dataclass, field, replace
from fractions import Fraction
from functools import lru_cache

from .. import exact
from ..escape import visible_controls
from ..render.markdown import escape_markdown, markdown_line
from ..solvers.choices import judge
from .answers import NearMiss, ParsedAnswer, answer_text, compare, near_miss, parse_answer, rational_value
from .diagnosis import (Diagnosis, diagnose, key_too_close, mistaken_near_answer, naming_gap, part_too_close,
                        telling_decimals)
from .drawing import variant_set
from .key import Key, Part, answer_key, split_reference


@dataclass(frozen=True, slots=True)  # a class holds tens of thousands: no instance dict
class PartFeedback:
    exercise: str
    question: str
    part: str | None  # part number when the question has several parts
    part_name: str | None
    answer: str  # as written
    status: str  # "correct" | "wrong" | "invalid" | "missing"
    message: str
    credit: Fraction  # share of the question's point earned by this part
    weight: Fraction  # share of the question's point this part is worth
    mistake: str | None = None  # the named mistake (the closest one)
    step: int | None = None
    also: tuple[str, ...] = ()  # further mistakes the answer matches as well at the precision it was written
    # a named mistake's value within the tolerance of the right one (not in as_dict: the report's notes say it):
    # "nearer-mistake" (graded as the mistake it shows) or "also-mistake" (graded right; close_to names the mistakes)
    reading: str | None = None
    close_to: tuple[str, ...] = ()

    @property
    def mistakes(self) -> tuple[str, ...]:
        return ((self.mistake,) if self.mistake else ()) + self.also

    @property
    def correct(self) -> bool:
        return self.status == "correct"

    @property
    def address(self) -> str:
        return self.question if self.part is None else f"{self.question}.{self.part}"

    def as_dict(self) -> dict:
        return {"exercise": self.exercise, "question": self.question, "part": self.part, "part_name": self.part_name,
                "answer": self.answer, "status": self.status, "correct": self.correct,
                "credit": exact.exact_text(self.credit), "weight": exact.exact_text(self.weight),
                "mistake": self.mistake, "also": list(self.also), "step": self.step, "feedback": self.message}

    def __reduce__(self):  # sent from a grading worker (irlab.homework.ahead): received as the object kept here
        return _revived, tuple(getattr(self, name) for name in _FIELDS)

    def __hash__(self) -> int:
        # kept() hashes every feedback graded: the dataclass's hash would read every field, the Fractions through
        # their slow __hash__; these texts tell feedback apart as well (equal feedback has equal texts)
        return hash((self.exercise, self.question, self.part, self.answer, self.status, self.message, self.mistake))


_FIELDS = tuple(PartFeedback.__dataclass_fields__)
# Feedback is immutable and a class writes the same answers again and again ('0.5' to a question whose value is 1/2
# in many variants): equal feedback is one object (:func:`kept`), so the report writers, which make each question's
# cells and JSON once per distinct list of part objects, make them once per distinct feedback (2,000 students:
# 24,000 parts, 7,100 distinct). Kept while grading; the table is emptied when full (later ones are kept anew).
_KEPT: dict = {}
_KEPT_SIZE = 1 << 15


def kept(feedback: PartFeedback) -> PartFeedback:
    """The one object kept for feedback equal to ``feedback`` (``feedback`` itself the first time)."""
    found = _KEPT.get(feedback)
    if found is None:
        if len(_KEPT) >= _KEPT_SIZE:
            _KEPT.clear()
            _forget_answered()  # it holds kept objects: emptied with them, so equal feedback stays one object
        found = _KEPT[feedback] = feedback
    return found


# The kept feedback of answers whose grading reads nothing of a student's variant but the part's value: a blank or
# unreadable answer, and a right one to a part whose key knows no named mistake within the tolerance (_known_clear).
# A class writes the same right answers to the same values again and again (2,000 students: 14,300 of 24,000 parts),
# and each is then found here instead of compared, read and worded anew. Keyed by everything that feedback reads;
# hashing a Tolerance's Fractions costs more than grading a right answer, so the key names the tolerance by its id,
# and _HELD keeps each tolerance named alive (its id is never another's) until both are emptied together.
_ANSWERED: dict = {}
_HELD: dict = {}


def _answered_as(key: Key, part: Part, raw, options: tuple):
    """The lookup key of the answer text ``raw``'s feedback in _ANSWERED, or None when it is not text or the part
    is a choice."""
    result = part.result
    if type(raw) is not str or result is None:
        return None
    value = result.value
    named = (value.numerator, value.denominator) if type(value) is Fraction else value  # a Fraction's hash is slow
    return (key.exercise.id, key.question.id, len(key.parts), part.index, part.name, result.symbol,
            type(value), named, id(key.tolerance), _known_clear(key, part), raw, options)


def _graded_kept(key: Key, part: Part, raw, exact_values: bool) -> PartFeedback:
    """kept(grade_part(...)), found in _ANSWERED when an equal answer to an equal part was graded already."""
    answered = _answered_as(key, part, raw, (exact_values,))
    found = _ANSWERED.get(answered) if answered is not None else None
    if found is not None:
        return found
    feedback = kept(grade_part(key, part, raw, exact_values=exact_values))
    if answered is not None and (feedback.status == "invalid" or (feedback.status == "correct" and answered[9])):
        if len(_ANSWERED) >= _KEPT_SIZE:
            _forget_answered()
        _HELD[id(key.tolerance)] = key.tolerance
        _ANSWERED[answered] = feedback
    return feedback


def _forget_answered() -> None:
    _ANSWERED.clear()
    _HELD.clear()


def _revived(*fields) -> PartFeedback:
    return kept(PartFeedback(*fields))


def grade_part(key: Key, part: Part, raw, *, reveal: bool = True, exact_values: bool = True,
               percent_sign: bool = True, fractions: bool = True) -> PartFeedback:
    """Grade one answer to one part of a question; never raises on what the student wrote.

    ``percent_sign`` and ``fractions`` word the advice for an LMS's answer box, which takes fewer forms than irlab
    reads: a percentage written without its sign is told to "write 45.45% or 5/11" here, "write 45.45% or 0.4545"
    with ``fractions=False`` (Moodle with its % unit), "write 0.4545" with both False (GIFT, Canvas).

    ``exact_values=False`` reveals a logarithmic value by its decimal only (printing sympy expressions is the
    slowest part of grading a large class; the answer key shows them).
    """
    if part.choice is not None:  # a choice question: the letters named, compared as a set
        shown = raw.shown if isinstance(raw, ParsedAnswer) else answer_text(raw).strip()
        choices = key.question.options.get("choices") or ()
        verdict, message = judge(shown, part.choice, len(choices), choices)
        return PartFeedback(key.exercise.id, key.question.id, None, None, shown,
                            {True: "correct", False: "wrong", None: "invalid"}[verdict],
                            message if verdict is not None else f"No answer recognised: {message}.",
                            Fraction(1) if verdict else Fraction(0), Fraction(1))
    parsed = raw if isinstance(raw, ParsedAnswer) else parse_answer(raw)
    weight = _share(len(key.parts))
    several = len(key.parts) > 1
    common = dict(exercise=key.exercise.id, question=key.question.id, part=part.number if several else None,
                  part_name=part.name if several else None, answer=parsed.shown, weight=weight)
    symbol = part.result.symbol
    if not parsed.ok:
        return PartFeedback(**common, status="invalid", credit=_NONE,
                            message=f"No answer recognised: {parsed.problem}.")
    verdict = compare(parsed, part.value, key.tolerance)
    if verdict.correct:
        return _within_tolerance(common, key, part, parsed, reveal, exact_values)
    if verdict.message:
        return PartFeedback(**common, status="wrong", credit=_NONE, message=f"Not quite: {verdict.message}.")
    diagnosis = diagnose(parsed.value, key.question, key.params, part.result, part.index, key.tolerance,
                         parsed.shown, mistaken_near_answer(key, part, parsed.value, parsed.shown), key.path,
                         parsed.resolution, percent_sign, fractions)
    slip = near_miss(parsed, part.value, key.tolerance)
    if slip is not None and diagnosis is not None:
        given, target = Fraction(parsed.value), rational_value(part.value)
        mistaken_distance = abs(given - rational_value(diagnosis.mistaken_value))
        if slip.kind == "rounded-too-coarsely" and mistaken_distance <= parsed.resolution:
            return _both_readings(common, key, weight, parsed, slip, diagnosis, mistaken_distance < abs(given - target))
        if mistaken_distance < abs(given - target):  # keep whichever explains the answer better
            slip = None
    if slip is not None:
        partial = weight * key.tolerance.rounding_credit
        credit_note = f" Partial credit: {exact.exact_text(key.tolerance.rounding_credit)} of this part." if partial else ""
        return PartFeedback(**common, status="wrong", credit=partial, mistake=slip.kind,
                            message=f"Not quite: {slip.message}.{credit_note}")
    if diagnosis is not None:
        return _mistake_feedback(common, key, weight, diagnosis)
    return PartFeedback(**common, status="wrong", credit=_NONE,
                        message=f"Not quite: {parsed.shown} is not {symbol} for this exercise ({key.tolerance.describe()}), "
                                "and it matches none of the common mistakes irlab knows; compare your computation "
                                "with the worked solution step by step.")


_NONE = Fraction(0)  # Fractions are immutable: the no-credit value and each part's share are made once


@lru_cache(maxsize=64)
def _share(parts: int) -> Fraction:
    """A part's share of its question's point."""
    return Fraction(1, parts)


def _within_tolerance(common: dict, key: Key, part: Part, parsed: ParsedAnswer, reveal: bool,
                      exact_values: bool) -> PartFeedback:
    """An answer within the tolerance: right, unless it shows a named mistake (:func:`_closer_reading`)."""
    weight, symbol = common["weight"], part.result.symbol
    nearer, fitting = _closer_reading(key, part, parsed)
    if nearer is not None:  # within the tolerance, but written precisely enough to show a named mistake
        precision = "exactly" if parsed.resolution == 0 else f"to {parsed.decimals} decimals"
        mistaken = exact.decimal_text(nearer.mistaken_value, max(4, parsed.decimals or 0), strip=False)
        told = (f" {parsed.shown} is within the tolerance of the right value, but written {precision} it is nearer "
                f"this mistake's value ({mistaken}) than the right one.")
        return _mistake_feedback(common, key, weight, nearer, told, reading="nearer-mistake")
    if not reveal:
        shown = ""
    elif exact_values or not exact.is_symbolic(part.value):
        shown = _revealed(symbol, part.value)
    else:
        shown = f" ({symbol} ≈ {exact.decimal_text(part.value)})"
    if fitting is None:
        return PartFeedback(**common, status="correct", credit=weight, message=f"Correct: {parsed.shown}{shown}.")
    # right at the precision written, and so is a named mistake: the credit, and the mistake named
    readings = _listed([message for message, _ in fitting.readings()])
    note = (f" At the precision written it also fits {readings}; write at least "
            f"{_decimals_to_tell(part, fitting, key.tolerance)} decimals to show which one you computed.")
    return PartFeedback(**common, status="correct", credit=weight, message=f"Correct: {parsed.shown}{shown}.{note}",
                        reading="also-mistake", close_to=fitting.names)


@lru_cache(maxsize=4096)  # a class's right values repeat (1/2, 3/7, …): each written out once
def _revealed(symbol: str, value) -> str:
    """' (P = 3/7 ≈ 0.4286)': a right value, exactly, as the feedback on a right answer shows it."""
    return f" ({symbol} = {exact.value_text(value)})"


def _mistake_feedback(common: dict, key: Key, weight: Fraction, diagnosis: Diagnosis, told: str = "",
                      reading: str | None = None) -> PartFeedback:
    """A wrong answer that a named mistake explains (``told``: why a value within the tolerance counts as it)."""
    where = f" (step {diagnosis.step} of the worked solution)" if diagnosis.step else ""
    partial = weight * key.mistake_credit  # the question may give credit for a recognised, explainable slip
    credit_note = f" Partial credit: {exact.exact_text(key.mistake_credit)} of this part." if partial else ""
    return PartFeedback(**common, status="wrong", credit=partial, mistake=diagnosis.name, also=diagnosis.names[1:],
                        step=diagnosis.step, message=f"Not quite: {diagnosis.message}{where}.{told}{credit_note}",
                        reading=reading)


def _both_readings(common: dict, key: Key, weight: Fraction, parsed: ParsedAnswer, slip: NearMiss,
                   diagnosis: Diagnosis, mistake_first: bool) -> PartFeedback:
    """An answer that is the right value rounded too coarsely and, at the same precision, a named mistake's value:
    both readings named (nearer first) and the better of their two credits given, since the answer cannot tell."""
    mistakes = [f"{message} (step {step} of the worked solution)" if step else message
                for message, step in diagnosis.readings()]
    names = list(diagnosis.names)
    listed = mistakes + [slip.message] if mistake_first else [slip.message] + mistakes
    named = names + [slip.kind] if mistake_first else [slip.kind] + names
    share = max(key.mistake_credit, key.tolerance.rounding_credit)
    credit_note = f" Partial credit: {exact.exact_text(share)} of this part." if share else ""
    readings = "; or ".join(f"({number}) {text}" for number, text in enumerate(listed, 1))
    message = (f"Not quite: {parsed.shown} fits {len(listed)} readings, which cannot be told apart at the precision "
               f"you wrote (give more decimals to tell them apart): {readings}.{credit_note}")
    return PartFeedback(**common, status="wrong", credit=weight * share, mistake=named[0], also=tuple(named[1:]),
                        message=message)


def _closer_reading(key: Key, part: Part, parsed: ParsedAnswer) -> tuple[Diagnosis | None, Diagnosis | None]:
    """How an answer within the tolerance reads when a named mistake's value lies within it too.

    Returns (the mistake it is graded as, None), (None, the mistake it also fits) or (None, None). The rule, as a
    careful grader would apply it, with κ = 93/133 ≈ 0.69925 and Cohen's per-judge kappa 0.7 as the example:

    - the answer is the right value at the precision written — the exact value, or the right value rounded to
      the decimals written (``93/133``, ``0.6992``, ``0.699``, ``0.70``, ``0.7``): right. It earns full credit even
      when it is the mistake's value at that precision as well (``0.70``): nothing shows the mistake, and the
      question accepts that precision. The feedback then names the mistake it also fits and the decimals that
      would tell them apart (the second item);
    - otherwise, written precisely enough to be nearer the mistake's value than the right one (``0.700``,
      ``0.7000``, ``7/10``, and also ``0.6997``): graded as that mistake, named, with the question's
      ``mistake_credit`` (the first item) — the answer shows what was computed;
    - otherwise (nearer the right value, e.g. ``0.6996``): right.

    Mistakes less than 0.1 % from the right value are never told apart (see diagnose). An answer whose key knows
    no such mistake (:func:`_known_clear`), that is the exact value, or is so precisely right that no such mistake
    can fit it, is decided without re-solving anything.
    """
    if _known_clear(key, part):
        return None, None
    given, right = Fraction(parsed.value), rational_value(part.value)
    right_distance = abs(given - right)
    if right_distance == 0 or (right_distance <= parsed.resolution and 2 * parsed.resolution <= naming_gap(part.value)):
        return None, None  # the exact value, or so precisely right that no mistake far enough to be named fits it too
    findings = [finding for finding in part_too_close(key, part) if finding.separable]
    if not findings:
        return None, None
    distances = [abs(given - rational_value(finding.mistaken)) for finding in findings]
    if right_distance <= parsed.resolution:  # the right value at the precision written: credit
        if not any(distance <= parsed.resolution for distance in distances):
            return None, None
        return None, _diagnosis(key, part, parsed)
    if not any(distance < right_distance for distance in distances):
        return None, None
    diagnosis = _diagnosis(key, part, parsed)  # the nearest mistake, and those the answer cannot tell from it
    if diagnosis is None or abs(given - rational_value(diagnosis.mistaken_value)) >= right_distance:
        return None, None
    return diagnosis, None


def _known_clear(key: Key, part: Part) -> bool:
    """True when the key knows already that no named mistake it could tell from the right value lies within the
    tolerance (the drawing judged most keys so): every answer within the tolerance is then right, at any distance."""
    known = key.findings.get(part.index)
    if not known:  # unknown (None), or none at all (most keys)
        return known is not None
    return not any(finding.separable for finding in known)


def _diagnosis(key: Key, part: Part, parsed: ParsedAnswer) -> Diagnosis | None:
    return diagnose(parsed.value, key.question, key.params, part.result, part.index, key.tolerance, parsed.shown,
                    mistaken_near_answer(key, part, parsed.value, parsed.shown), key.path, parsed.resolution)


def _decimals_to_tell(part: Part, diagnosis: Diagnosis, tolerance) -> int:
    """The decimals from which on the right value and every mistake named round differently, and never fewer than
    the question takes as a rounding (Tolerance.rounded_decimals)."""
    right = rational_value(part.value)
    return max(tolerance.rounded_decimals, *(telling_decimals(right, rational_value(d.mistaken_value))[0]
                                             for d in (diagnosis, *diagnosis.alternatives)))


def _listed(readings: list[str]) -> str:
    """'a common mistake (…)' or 'N common mistakes: (1) …; or (2) …'."""
    if len(readings) == 1:
        return f"a common mistake ({readings[0]})"
    return f"{len(readings)} common mistakes: " + "; or ".join(f"({n}) {text}" for n, text in enumerate(readings, 1))


class CloseCalls:
    """What grading a class met of named mistakes within the tolerance of a right value, as notes for the report.

    :meth:`add` each student's graded parts; :meth:`notes` gives, in the set's order, one note per question part:
    for a question every student had as written, whenever one of its mistakes lies within the tolerance (the
    values, the decimals that tell them apart, the option that would); for a question drawn per student, when
    answers were affected, with one student's variant as the example (checking every variant would re-solve every
    question under every mistake: ``irlab sheet`` warns per variant when the sheets are made). Either way it counts
    the answers graded as the mistake they are nearer and the right ones too coarse to tell.
    """

    def __init__(self) -> None:
        self.counts: dict = {}  # (exercise, question, part number or None) -> Counter of readings
        self.examples: dict = {}  # same -> (student, [TooClose] of that student's key)

    def add(self, student: str, key: Key, parts: list[PartFeedback]) -> None:
        for feedback in parts:
            if feedback.reading is None:
                continue
            address = (feedback.exercise, feedback.question, feedback.part)
            self.counts.setdefault(address, Counter())[feedback.reading] += 1
            if address not in self.examples:
                part = key.parts[int(feedback.part or 1) - 1]
                self.examples[address] = (student, part_too_close(key, part))

    def merge(self, later: CloseCalls) -> None:
        """Take in what ``later`` met (its students graded after this one's, e.g. by a worker process), as if
        :meth:`add` had been called here for them."""
        for address, counted in later.counts.items():
            self.counts.setdefault(address, Counter()).update(counted)
        for address, example in later.examples.items():
            self.examples.setdefault(address, example)

    def notes(self, path, questions: list[tuple[str, str]], per_student: set) -> list[str]:
        """``questions``: (exercise, question) graded, in order; ``per_student``: the exercises graded against each
        student's own variant (the others' findings come from the set as written)."""
        notes = []
        for exercise_id, question_id in questions:
            as_written = [] if exercise_id in per_student else key_too_close(answer_key(path, exercise_id, question_id))
            addresses = sorted((address for address in self.counts if address[:2] == (exercise_id, question_id)),
                               key=lambda address: int(address[2] or 1))
            told: set = set()
            for finding in as_written:  # the class's counts after the part's first note
                address = (exercise_id, question_id, finding.part)
                notes.append(finding.text() + ("" if address in told else self._counted(address)))
                told.add(address)
            for address in addresses:
                if address in told:
                    continue
                student, findings = self.examples[address]
                example = " ".join(replace(finding, where="").text() for finding in findings)
                notes.append(f"{_where(address)}: in some students' variants a common mistake's value lies within the "
                             f"tolerance of the right value.{self._counted(address)} For example, in {student}'s "
                             f"variant: {example}")
        return notes

    def _counted(self, address) -> str:
        counts = self.counts.get(address)
        if not counts:
            return ""
        nearer, also = counts["nearer-mistake"], counts["also-mistake"]
        total = nearer + also
        told = []
        if nearer:
            told.append(f"{nearer} written precisely enough {'was' if nearer == 1 else 'were'} graded as the mistake "
                        f"{'it is' if nearer == 1 else 'they are'} nearer")
        if also:
            told.append(f"{also} too coarse to tell {'was' if also == 1 else 'were'} graded right")
        return (f" In this class, {total} answer{'s' if total != 1 else ''} within the tolerance "
                f"{'fits' if total == 1 else 'fit'} such a mistake: {', '.join(told)}.")


def _where(address) -> str:
    exercise_id, question_id, part = address
    return f"exercise {exercise_id}, question {question_id}" + (f".{part}" if part else "")


def missing_part(key: Key, part: Part) -> PartFeedback:
    several = len(key.parts) > 1
    return kept(PartFeedback(key.exercise.id, key.question.id, part.number if several else None,
                             part.name if several else None, "", "missing", "No answer submitted.", _NONE,
                             _share(len(key.parts))))


def split_answers(raw, count: int) -> list | None:
    """A whole-question answer for a question with ``count`` parts: a list, or text with ';' between parts."""
    if isinstance(raw, (list, tuple)):
        return list(raw) if len(raw) == count else None
    if count == 1:
        return [raw]
    if isinstance(raw, str) and raw.count(";") == count - 1:
        return [piece.strip() for piece in raw.split(";")]
    return None


def grade_reference(key: Key, part_ref: str | None, raw, exact_values: bool = True) -> list[PartFeedback]:
    """Grade an answer addressed to a whole question (part_ref None) or to one part of it."""
    if part_ref is not None:
        return [_graded_kept(key, key.part(part_ref), raw, exact_values)]
    pieces = split_answers(raw, len(key.parts))
    if pieces is None:
        return part_count_feedback(key, raw)
    return [_graded_kept(key, part, piece, exact_values) for part, piece in zip(key.parts, pieces)]


def count_values(raw) -> int:
    """How many values a whole-question answer holds (';' separates them)."""
    if isinstance(raw, (list, tuple)):
        return len(raw)
    text = answer_text(raw)
    return 0 if not text.strip() else text.count(";") + 1


def part_count_feedback(key: Key, raw) -> list[PartFeedback]:
    """An answer with the wrong number of values: every part unanswered, and a message that says what is missing."""
    given = count_values(raw)
    qid, count = key.question.id, len(key.parts)
    names = "; ".join(p.label for p in key.parts)
    shown = "; ".join(answer_text(v) for v in raw) if isinstance(raw, (list, tuple)) else answer_text(raw).strip()
    message = (f"No answer recognised: question {qid} asks for {count} values ({names}), in this order, separated "
               f"by ';'; the answer {shown!r} gives {given}. Answer every part, or each one on its own as "
               f"{qid}.1 … {qid}.{count}.")
    several = count > 1
    return [PartFeedback(key.exercise.id, qid, part.number if several else None, part.name if several else None,
                         shown if part.index == 0 else "", "invalid", message, Fraction(0), Fraction(1, count))
            for part in key.parts]


@dataclass
class Feedback:
    """Feedback on an answer to one question (or one part): prints as text, displays in Jupyter."""

    exercise: str
    question: str
    parts: list[PartFeedback] = field(default_factory=list)

    @property
    def score(self) -> Fraction:
        return sum((p.credit for p in self.parts), Fraction(0))

    @property
    def max_score(self) -> Fraction:
        return sum((p.weight for p in self.parts), Fraction(0))

    @property
    def correct(self) -> bool:
        return bool(self.parts) and all(p.correct for p in self.parts)

    def __bool__(self) -> bool:
        return self.correct

    @property
    def message(self) -> str:
        return self.text()

    def text(self) -> str:
        """The feedback as plain text; a control character from the set or the answer reads '<U+001B>' (a terminal
        or an AssertionError shows it, never obeys it)."""
        return visible_controls(self._plain())

    def _plain(self) -> str:
        if len(self.parts) == 1:
            return self.parts[0].message
        lines = [f"Exercise {self.exercise}, question {self.question}: {exact.exact_text(self.score)} of "
                 f"{exact.exact_text(self.max_score)}"]
        if len({p.message for p in self.parts}) == 1:  # one message about the whole answer (e.g. too few values)
            return "\n".join(lines + [f"  {self.parts[0].message}"])
        lines += [f"  {p.address} ({p.part_name}): {p.message}" for p in self.parts]
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.text()

    def __repr__(self) -> str:
        state = "correct" if self.correct else "not correct"
        return visible_controls(f"<Feedback exercise {self.exercise} question {self.question}: {state}>")

    def _repr_markdown_(self) -> str:
        """Markdown for a notebook: text from the set or the answer (an id, a quoted answer) is escaped as the Markdown
        renderer escapes it, so '<img onerror=…>' in an answer reads as written and a control character as '<U+001B>'."""
        head = f"**Exercise {markdown_line(self.exercise)}, question {markdown_line(self.question)}**"
        if len(self.parts) == 1:
            return f"{head}: {escape_markdown(self.parts[0].message)}\n"
        return head + "\n\n" + "\n".join(f"- {_code(p.address)} ({markdown_line(p.part_name or '')}): {markdown_line(p.message)}"
                                          for p in self.parts) + "\n"

    def _repr_html_(self) -> str:
        colour = "#1a7f37" if self.correct else "#9a6700"
        head = f"<strong>Exercise {_html(self.exercise)}, question {_html(self.question)}</strong>"
        if len(self.parts) == 1:
            body = f"{head}: {_html(self.parts[0].message)}"
        else:
            items = "".join(f"<li><code>{_html(p.address)}</code> ({_html(p.part_name or '')}): "
                            f"{_html(p.message)}</li>" for p in self.parts)
            body = f"{head}<ul>{items}</ul>"
        return f'<div class="irlab-feedback" style="border-left: 4px solid {colour}; padding-left: 0.5em">{body}</div>'

    def as_dict(self) -> dict:
        return {"exercise": self.exercise, "question": self.question, "correct": self.correct,
                "score": exact.exact_text(self.score), "max": exact.exact_text(self.max_score),
                "parts": [p.as_dict() for p in self.parts]}


def _html(text: str) -> str:
    """Text for the feedback's HTML: escaped, and each control character shown as '<U+001B>', the renderers' rule."""
    return html.escape(visible_controls(text))


def _code(text: str) -> str:
    """A Markdown code span holding ``text`` as it is: fenced by more backticks than any run of them inside."""
    text = visible_controls(text).replace("\n", " ")
    fence = "`" * (max((len(run) for run in re.findall("`+", text)), default=0) + 1)
    padding = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{padding}{text}{padding}{fence}"


def check(exercise_file, exercise_id, question_id, answer, student=None, seed=None) -> Feedback:
    """Check one answer (a number or text such as '21/50', '0.42', '42%'); returns printable :class:`Feedback`.

    ``question_id`` is 'b' for a whole question (several parts: a list or '0.2; 0.5; 2/7'), 'b.2' or
    'b:recall' for one part. With ``student`` (and ``seed``), the answer is checked against that student's
    variant. Bad references (unknown exercise, question or part) raise an IrlabError; a bad *answer* never does
(a wrong number of values for a several-part question gives feedback saying what is missing).
    """
    exercise = variant_set(exercise_file, student, seed).exercise(str(exercise_id))
    question, part_ref = split_reference(str(question_id), exercise)
    key = answer_key(exercise_file, exercise.id, question, student, seed)
    return Feedback(exercise.id, key.question.id, grade_reference(key, part_ref, answer))


def assert_answer(exercise_file, exercise_id, question_id, answer, student=None, seed=None) -> Feedback:
    """Like :func:`check`, but raise AssertionError (message: the feedback) unless the answer is correct."""
    feedback = check(exercise_file, exercise_id, question_id, answer, student, seed)
    if not feedback.correct:
        raise AssertionError(feedback.text())
    return feedback
