"""Feedback on one answer, for a student in a notebook and for the grading report.

>>> print(check("exercises/chapter8-book.toml", "8.9", "e", "0.555"))          # doctest: +SKIP
Not quite: 0.555 is what you get if you divide by the 6 relevant documents retrieved; this exercise divides by all 8 relevant documents (step 2 of the worked solution).

``check`` returns a :class:`Feedback` that prints as text and displays as Markdown/HTML in Jupyter;
``assert_answer`` raises AssertionError with the same text (for nbgrader/otter-grader test cells).
"""

from __future__ import annotations

import html
from dataclasses import dataclass, field
from fractions import Fraction

from .. import exact
from .answers import ParsedAnswer, compare, near_miss, parse_answer, rational_value
from .diagnosis import diagnose
from .key import Key, Part, answer_key, split_reference


@dataclass(frozen=True)
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


def grade_part(key: Key, part: Part, raw, *, reveal: bool = True, exact_values: bool = True) -> PartFeedback:
    """Grade one answer to one part of a question; never raises on what the student wrote.

    ``exact_values=False`` reveals a logarithmic value by its decimal only (printing sympy expressions is the
    slowest part of grading a large class; the answer key shows them).
    """
    if part.choice is not None:  # a choice question: the letters named, compared as a set
        from ..solvers.choices import judge

        shown = raw.shown if isinstance(raw, ParsedAnswer) else "" if raw is None else str(raw).strip()
        choices = key.question.options.get("choices") or ()
        verdict, message = judge(shown, part.choice, len(choices), choices)
        return PartFeedback(key.exercise.id, key.question.id, None, None, shown,
                            {True: "correct", False: "wrong", None: "invalid"}[verdict],
                            message if verdict is not None else f"No answer recognised: {message}.",
                            Fraction(1) if verdict else Fraction(0), Fraction(1))
    parsed = raw if isinstance(raw, ParsedAnswer) else parse_answer(raw)
    weight = Fraction(1, len(key.parts))
    several = len(key.parts) > 1
    common = dict(exercise=key.exercise.id, question=key.question.id, part=part.number if several else None,
                  part_name=part.name if several else None, answer=parsed.shown, weight=weight)
    symbol = part.result.symbol
    if not parsed.ok:
        return PartFeedback(**common, status="invalid", credit=Fraction(0),
                            message=f"No answer recognised: {parsed.problem}.")
    verdict = compare(parsed, part.value, key.tolerance)
    if verdict.correct:
        if not reveal:
            shown = ""
        elif exact_values or not exact.is_symbolic(part.value):
            shown = f" ({symbol} = {exact.value_text(part.value)})"
        else:
            shown = f" ({symbol} ≈ {exact.decimal_text(part.value)})"
        return PartFeedback(**common, status="correct", credit=weight, message=f"Correct: {parsed.shown}{shown}.")
    if verdict.message:
        return PartFeedback(**common, status="wrong", credit=Fraction(0), message=f"Not quite: {verdict.message}.")
    diagnosis = diagnose(parsed.value, key.question, key.params, part.result, part.index, key.tolerance,
                         parsed.shown, key.mistaken(part), key.path, parsed.resolution)
    slip = near_miss(parsed, part.value, key.tolerance)
    if slip is not None and diagnosis is not None:  # keep whichever explains the answer better
        target = rational_value(part.value)
        if abs(Fraction(parsed.value) - rational_value(diagnosis.mistaken_value)) < abs(Fraction(parsed.value) - target):
            slip = None
    if slip is not None:
        partial = weight * key.tolerance.rounding_credit
        credit_note = f" Partial credit: {exact.exact_text(key.tolerance.rounding_credit)} of this part." if partial else ""
        return PartFeedback(**common, status="wrong", credit=partial, mistake=slip.kind,
                            message=f"Not quite: {slip.message}.{credit_note}")
    if diagnosis is not None:
        where = f" (step {diagnosis.step} of the worked solution)" if diagnosis.step else ""
        partial = weight * key.mistake_credit  # the question may give credit for a recognised, explainable slip
        credit_note = f" Partial credit: {exact.exact_text(key.mistake_credit)} of this part." if partial else ""
        return PartFeedback(**common, status="wrong", credit=partial, mistake=diagnosis.name, also=diagnosis.names[1:],
                            step=diagnosis.step, message=f"Not quite: {diagnosis.message}{where}.{credit_note}")
    return PartFeedback(**common, status="wrong", credit=Fraction(0),
                        message=f"Not quite: {parsed.shown} is not {symbol} for this exercise ({key.tolerance.describe()}), "
                                "and it matches none of the common mistakes irlab knows; compare your computation "
                                "with the worked solution step by step.")


def missing_part(key: Key, part: Part) -> PartFeedback:
    several = len(key.parts) > 1
    return PartFeedback(key.exercise.id, key.question.id, part.number if several else None,
                        part.name if several else None, "", "missing", "No answer submitted.", Fraction(0),
                        Fraction(1, len(key.parts)))


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
        return [grade_part(key, key.part(part_ref), raw, exact_values=exact_values)]
    pieces = split_answers(raw, len(key.parts))
    if pieces is None:
        return part_count_feedback(key, raw)
    return [grade_part(key, part, piece, exact_values=exact_values) for part, piece in zip(key.parts, pieces)]


def count_values(raw) -> int:
    """How many values a whole-question answer holds (';' separates them)."""
    if isinstance(raw, (list, tuple)):
        return len(raw)
    return 0 if raw is None or not str(raw).strip() else str(raw).count(";") + 1


def part_count_feedback(key: Key, raw) -> list[PartFeedback]:
    """An answer with the wrong number of values: every part unanswered, and a message that says what is missing."""
    given = count_values(raw)
    qid, count = key.question.id, len(key.parts)
    names = "; ".join(p.label for p in key.parts)
    shown = "; ".join(str(v) for v in raw) if isinstance(raw, (list, tuple)) else str(raw).strip()
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
        return f"<Feedback exercise {self.exercise} question {self.question}: {state}>"

    def _repr_markdown_(self) -> str:
        head = f"**Exercise {self.exercise}, question {self.question}**"
        if len(self.parts) == 1:
            return f"{head}: {self.parts[0].message}\n"
        return head + "\n\n" + "\n".join(f"- `{p.address}` ({p.part_name}): {p.message}" for p in self.parts) + "\n"

    def _repr_html_(self) -> str:
        colour = "#1a7f37" if self.correct else "#9a6700"
        head = f"<strong>Exercise {html.escape(self.exercise)}, question {html.escape(self.question)}</strong>"
        if len(self.parts) == 1:
            body = f"{head}: {html.escape(self.parts[0].message)}"
        else:
            items = "".join(f"<li><code>{html.escape(p.address)}</code> ({html.escape(p.part_name or '')}): "
                            f"{html.escape(p.message)}</li>" for p in self.parts)
            body = f"{head}<ul>{items}</ul>"
        return f'<div class="irlab-feedback" style="border-left: 4px solid {colour}; padding-left: 0.5em">{body}</div>'

    def as_dict(self) -> dict:
        return {"exercise": self.exercise, "question": self.question, "correct": self.correct,
                "score": exact.exact_text(self.score), "max": exact.exact_text(self.max_score),
                "parts": [p.as_dict() for p in self.parts]}


def check(exercise_file, exercise_id, question_id, answer, student=None, seed=None) -> Feedback:
    """Check one answer (a number or text such as '21/50', '0.42', '42%'); returns printable :class:`Feedback`.

    ``question_id`` is 'b' for a whole question (several parts: a list or '0.2; 0.5; 2/7'), 'b.2' or
    'b:recall' for one part. With ``student`` (and ``seed``), the answer is checked against that student's
    variant. Bad references (unknown exercise, question or part) raise an IrlabError; a bad *answer* never does
(a wrong number of values for a several-part question gives feedback saying what is missing).
    """
    from .variants import variant_set

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
