"""Which mistake gives this wrong answer? A catalogue of named mistakes, each re-solved with irlab's own solvers.

A :class:`Mistake` (the catalogue is :mod:`irlab.homework.mistakes`) is data: a name, a short title (for the
class summary), a student-facing explanation template and either a ``rewrite`` of the question (another
convention, another solver, another cut-off, the ideal ranking built from the retrieved list only) or an answer
``scale`` (a percentage written without its sign). :func:`diagnose` re-solves the question under every mistake
that applies, keeps those whose value differs from the correct one and lies within the tolerance of the
student's answer, and names the *closest* — or all those that cannot be told apart at the precision the student
wrote (0.69 matches two nDCG mistakes that 0.6946 tells apart). It also points to the step of the worked solution
where the correct and the mistaken computations part ways (steps are numbered from 1, as the renderers number
them).

Nothing here knows an answer: every mistaken value is computed by the same solvers as the correct one.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from fractions import Fraction

from .. import exact, trace
from ..errors import IrlabError
from ..exercise_set import Question, Where, resolve_question
from ..ranking import Ranking
from .answers import (Tolerance, as_float, as_fraction, certainly_close, certainly_far, close, correctly_rounded,
                      match_reach, parse_answer, rational_value, rounded)
from .mistakes import MISTAKES, Deferred, Mistake, mistaken_results, scaled_mistakes


@dataclass(frozen=True)
class Diagnosis:
    mistake: Mistake
    message: str  # the filled explanation, without the leading "Not quite:"
    step: int | None  # first step (1-based) of the worked solution whose value the mistake changes
    mistaken_value: object
    alternatives: tuple = ()  # further Diagnoses the answer matches as well, at the precision it was written
    own_message: str | None = None  # with alternatives: this mistake's own explanation (``message`` lists them all)
    own_step: int | None = None

    @property
    def name(self) -> str:
        return self.mistake.name

    def readings(self) -> list[tuple[str, int | None]]:
        """(explanation, step) of every mistake named, the closest first."""
        first = (self.message, self.step) if not self.alternatives else (self.own_message, self.own_step)
        return [first, *((d.message, d.step) for d in self.alternatives)]

    @property
    def names(self) -> tuple[str, ...]:
        """Every mistake named: the closest first, then those indistinguishable from it."""
        return (self.mistake.name, *(d.mistake.name for d in self.alternatives))


# context for the explanations ------------------------------------------------------------------

def _join(values) -> str:
    values = [str(v) for v in values]
    return values[0] if len(values) == 1 else " and ".join(values)


class _Context:
    """Template fields: R, hits, length, k, min_rk, level, the AP divisor, the right value's forms, and ``given``;
    missing facts read '?'. For an LMS's answer box, which takes fewer forms than irlab reads, the advice names only
    those it takes: ``percent_sign=False``, no percentage (a numerical question without units); ``fractions=False``,
    the fraction of 1 as a decimal (0.4545, not 5/11). Each group of fields is worked out when an explanation first
    names one of them: most name only the answer (``{given}``), and reading the rankings costs more than the rest of
    a diagnosis."""

    def __init__(self, question: Question, params: dict, path, correct_value, given: str, percent_sign: bool = True,
                 fractions: bool = True) -> None:
        self.question, self.params, self.path, self.correct = question, params, path, correct_value
        self.percent_sign, self.fractions = percent_sign, fractions
        self.fields: dict = {"given": given}
        self.read: set = set()  # the groups worked out

    def get(self, name: str) -> str:
        if name not in self.fields:
            if name in _QUESTION_FIELDS and "question" not in self.read:
                self.read.add("question")  # the question with its options filled, as it was solved
                question = resolve_question(self.question, self.params, Where(self.path, None, self.question.id))
                self.fields.update(_question_fields(question, self.params))
            elif name in _VALUE_FORMS and "forms" not in self.read:
                self.read.add("forms")
                self.fields.update(_value_forms(self.correct, self.percent_sign, self.fractions))
        return self.fields.get(name, "?")


_QUESTION_FIELDS = frozenset({"k", "level", "R", "hits", "length", "min_rk", "ap_divisor"})
_VALUE_FORMS = frozenset({"as_percent", "as_fraction", "right_forms", "or_as_percent"})


def _question_fields(question: Question, params: dict) -> dict:
    """The fields of :class:`_Context` read from the question and its rankings (``_QUESTION_FIELDS``)."""
    ctx: dict = {"k": question.options.get("k", "?"), "level": "?", "R": "?", "hits": "?", "length": "?",
                 "min_rk": "?", "ap_divisor": "?"}
    level = question.options.get("recall_level")
    if level is not None:
        value = exact.parse_number(str(level)) if not isinstance(level, (int, Fraction)) else level
        ctx["level"] = f"{float(value):g}"
    texts = [params["ranking"]] if "ranking" in params else list(params.get("rankings", []))
    relevant = params.get("relevant")
    relevants = relevant if isinstance(relevant, list) else [relevant] * len(texts)
    rs, hits, lengths, min_rks = [], [], [], []
    k = question.options.get("k")
    for text, r in zip(texts, relevants):
        try:
            ranking = Ranking.parse(text) if isinstance(text, str) else Ranking.from_grades(text)
        except IrlabError:
            continue
        depth = ranking.retrieved if not isinstance(k, int) else min(k, ranking.retrieved)
        total = r if r is not None else ranking.relevant_retrieved
        rs.append(total)
        hits.append(ranking.hits(depth))
        lengths.append(ranking.retrieved)
        min_rks.append(min(total, k if isinstance(k, int) else ranking.retrieved))
    if rs:
        ctx.update(R=_join(rs), hits=_join(hits), length=_join(lengths), min_rk=_join(min_rks))
        choice = question.options.get("ap_denominator")
        ctx["ap_divisor"] = {"retrieved": f"the {ctx['hits']} relevant documents retrieved",
                             "min-relevant-k": f"min(R, k) = {ctx['min_rk']}"}.get(choice, f"all {ctx['R']} relevant documents")
    return ctx


def _value_forms(correct_value, percent_sign: bool, fractions: bool) -> dict:
    """The fields of :class:`_Context` that write the right value (``_VALUE_FORMS``)."""
    ctx: dict = {}
    if not exact.is_symbolic(correct_value):
        ctx["as_percent"] = f"{exact.decimal_text(Fraction(correct_value) * 100, 2)}%"
        ctx["as_fraction"] = exact.exact_text(correct_value)
        if exact.is_terminating(correct_value):
            ctx["as_fraction"] = exact.decimal_text(rational_value(correct_value))
    else:
        ctx["as_percent"] = f"{exact.decimal_text(rational_value(correct_value) * 100, 2)}%"
        ctx["as_fraction"] = exact.decimal_text(rational_value(correct_value))
    if not fractions:
        ctx["as_fraction"] = exact.decimal_text(rational_value(correct_value))
    ctx["right_forms"] = f"{ctx['as_percent']} or {ctx['as_fraction']}" if percent_sign else ctx["as_fraction"]
    ctx["or_as_percent"] = f" (or as {ctx['as_percent']})" if percent_sign else ""
    return ctx


# comparing computations ------------------------------------------------------------------------

def _same(a, b) -> bool:
    if exact.is_symbolic(a) or exact.is_symbolic(b):
        if a == b:
            return True
        try:
            x, y = rational_value(a), rational_value(b)
        except (TypeError, ValueError):
            return str(a) == str(b)
        return abs(x - y) <= Fraction(1, 10**12) * max(1, abs(y))
    return a == b


def divergence_step(correct_steps, mistaken_steps) -> int:
    """The first step (1-based) whose value differs between the two computations."""
    for number, (right, wrong) in enumerate(zip(correct_steps, mistaken_steps), 1):
        if not _same(right.value, wrong.value):
            return number
    return min(len(correct_steps), len(mistaken_steps)) + 1 if len(correct_steps) != len(mistaken_steps) \
        else len(correct_steps)


def _step_nodes(result) -> list:
    """The labelled nodes behind a Result, numbered as its worked solution numbers its steps (values only: no
    formula text is built)."""
    return trace.steps(*result.support, result.traced)


_TELL_APART = Tolerance(Fraction(1, 1000))
_TELL_APART_REACH = (*_TELL_APART.float_bounds, 0.0)  # as certainly_far reads it (no rounding)


def _distinct(a, b) -> bool:
    """Two candidate values a student's answer could tell apart (at the default tolerance)."""
    return not close(rational_value(a), b, _TELL_APART)


def _distinct_from(a, a_float: float | None, b, b_float: float | None) -> bool:
    """:func:`_distinct`, decided in doubles (``a_float``, ``b_float``: :func:`as_float` of each) where the values
    are clearly apart or clearly together, exactly otherwise."""
    if certainly_close(a_float, b_float, _TELL_APART):
        return False
    if certainly_far(a_float, b_float, _TELL_APART_REACH):
        return True
    return _distinct(a, b)


def naming_gap(correct) -> Fraction:
    """How far a mistake's value must lie from ``correct`` to be named at all (nearer, it is taken as the same)."""
    return max(_TELL_APART.rtol * abs(rational_value(correct)), _TELL_APART.atol)


def matches(given: Fraction, written, value, tolerance: Tolerance) -> bool:
    """An answer ``given`` (as ``written``, or None) matches ``value`` as a right answer would: within the
    tolerance, or the value correctly rounded to the decimals written."""
    if close(given, value, tolerance):
        return True
    return (written is not None and written.ok and tolerance.accept_rounded and tolerance.decimals is None
            and (written.decimals or 0) >= tolerance.min_decimals and correctly_rounded(written, value))


def _named_by(given: Fraction, given_float: float | None, written, value, value_float: float | None, correct,
              correct_float: float | None, tolerance: Tolerance) -> bool:
    """The answer matches ``value`` (:func:`matches`) and ``value`` is told apart from the right one
    (:func:`_distinct`): the test of a candidate mistake, in doubles where they decide (a value certainly within the
    tolerance matches)."""
    if not ((tolerance.form != "fraction" and certainly_close(given_float, value_float, tolerance))
            or matches(given, written, value, tolerance)):
        return False
    return _distinct_from(value, value_float, correct, correct_float)


# Float-first (see irlab.homework.answers): most candidate values are nowhere near a wrong answer, and telling so
# in floating point spares the exact comparison (and, for an answer-scale mistake, the exact product).
_DEFAULT_TOLERANCE = Tolerance()
# the answer-scale mistakes: (place in the catalogue, mistake, its scale as a double), read once
_SCALED = tuple((index, mistake, float(mistake.scale)) for index, mistake in enumerate(MISTAKES)
                if mistake.scale is not None)
_LAST_BITS = Fraction(1, 10**12)  # two doubles of one logarithmic value may differ by this much, relative


def diagnose(given, question: Question, params: dict, correct_result, part: int = 0, tolerance: Tolerance | None = None,
             given_text: str | None = None, candidates=None, path="exercise", resolution=Fraction(0),
             percent_sign: bool = True, fractions: bool = True) -> Diagnosis | None:
    """Name the mistake whose value ``given`` is closest to, among those within the tolerance; or None.

    ``resolution`` is half a unit of the last decimal the student wrote (0 for an exact answer): every mistake
    whose value lies that close to ``given`` is indistinguishable from the closest at the precision written,
    and all of them are named (:attr:`Diagnosis.alternatives`), closest first. Mistakes that give exactly the
    same value are always named together. ``candidates`` (from :func:`mistaken_results`) may be passed in to
    reuse them across students' answers. ``percent_sign`` and ``fractions``: the answer forms the advice may name
    (see _Context).
    """
    if given is None:
        return None
    tolerance = tolerance or _DEFAULT_TOLERANCE
    if tolerance.form == "fraction":
        tolerance = _DEFAULT_TOLERANCE
    correct = correct_result.value
    shown_given = given_text if given_text is not None else exact.exact_text(given)
    if candidates is None:
        candidates = mistaken_results(question, params, part, path)  # (which fills the question's options itself)
    given = as_fraction(given)
    written = parse_answer(given_text) if given_text is not None else None
    given_float, float_reach = as_float(given), match_reach(written, tolerance)
    correct_float = as_float(correct)

    found = []  # (distance, catalogue order, mistake, value, rewrite, result)
    for order, (mistake, result, rewrite) in enumerate(candidates):
        value = result.value
        value_float = as_float(value)
        if certainly_far(given_float, value_float, float_reach):
            continue
        if _named_by(given, given_float, written, value, value_float, correct, correct_float, tolerance):
            if type(result) is Deferred:  # named, by its exact plain value: now its explained Result
                result = result.solved()
                if result is None:
                    continue
                value = result.value  # (the same number; decided again on it all the same)
                if not _named_by(given, given_float, written, value, as_float(value), correct, correct_float,
                                 tolerance):
                    continue
            found.append((abs(given - rational_value(value)), order, mistake, value, rewrite, result))
    for index, mistake, scale in _SCALED:
        scaled = None if correct_float is None else correct_float * scale
        if scaled is not None and not math.isfinite(scaled):
            scaled = None
        if certainly_far(given_float, scaled, float_reach):
            continue
        value = exact.mul(correct, mistake.scale)
        if _named_by(given, given_float, written, value, as_float(value), correct, correct_float, tolerance):
            found.append((abs(given - rational_value(value)), len(candidates) + index, mistake, value, None, None))
    if not found:
        return None
    ctx = _Context(question, params, path, correct, shown_given, percent_sign, fractions)
    found.sort(key=lambda match: (match[0], match[1]))
    # floats of logarithms: equal values may differ in the last bits
    reach = max(as_fraction(resolution), found[0][0]) + _LAST_BITS * max(1, abs(given))
    named, seen = [], set()
    correct_steps = None  # the right computation's steps, read once for every mistake named
    for distance, _, mistake, value, rewrite, result in found:
        if distance > reach or mistake.name in seen:
            continue
        seen.add(mistake.name)
        step = None
        if result is not None:
            if correct_steps is None:
                correct_steps = _step_nodes(correct_result)
            step = divergence_step(correct_steps, _step_nodes(result))
        fields = _Fields(rewrite.context if rewrite else ())
        fields.context = ctx
        named.append(Diagnosis(mistake, mistake.explanation.format_map(fields), step, value))
    if len(named) == 1:
        return named[0]
    first = named[0]
    shared_step = first.step if len({d.step for d in named}) == 1 else None
    listed = "; or ".join(f"({number}) {d.message}" + (f" (step {d.step} of the worked solution)"
                                                       if d.step and shared_step is None else "")
                          for number, d in enumerate(named, 1))
    message = (f"{shown_given} matches {len(named)} common mistakes, which cannot be told apart at the precision "
               f"you wrote (give more decimals to tell them apart): {listed}")
    return Diagnosis(first.mistake, message, shared_step, first.mistaken_value, tuple(named[1:]), first.message,
                     first.step)


def mistaken_near_answer(key, part, given, given_text: str | None) -> list:
    """The candidates :func:`diagnose` weighs for the answer ``given`` to one part of a key: ``key.mistaken(part)``
    when it is known already, else only the mistakes whose plain values may lie within the answer's reach (as
    diagnose's own float test reaches), re-solved with their explanations (one with an exact plain value only
    when diagnose names it: :class:`~irlab.homework.mistakes.Deferred`); the others diagnose would pass over."""
    if part.index in key.candidates:
        return key.candidates[part.index]
    tolerance = key.tolerance if key.tolerance.form != "fraction" else _DEFAULT_TOLERANCE
    written = parse_answer(given_text) if given_text is not None else None
    given_float, reach = as_float(given), match_reach(written, tolerance)

    def near(value) -> bool:
        if isinstance(value, float):  # a plain double may differ from the exact value's double in its last bits
            return not all(certainly_far(given_float, value * (1 + nudge), reach) for nudge in (1e-12, -1e-12))
        return not certainly_far(given_float, as_float(value), reach)

    return mistaken_results(key.question, key.params, part.index, key.path, near)


class _Fields(dict):
    """An explanation's fields: a rewrite's own (``{k_other}``) before the question's (:class:`_Context`)."""

    context: _Context

    def __missing__(self, key):
        return self.context.get(key)


# a named mistake inside the tolerance ----------------------------------------------------------

@dataclass(frozen=True)
class TooClose:
    """A named mistake whose value lies so near the right value that the tolerance accepts answers that fit both.

    ``decimals``: an answer written with at least this many decimals tells them apart (the two values round
    differently there and at every finer precision); ``grading_decimals``: the question option ``decimals = n``
    that grades them apart whatever the answer's precision; ``tolerance``: a relative tolerance that does it
    together with ``min_decimals = decimals``. ``separable`` is False when the values differ by less than 0.1 %:
    irlab then grades an answer near either as right, at any precision.
    """

    mistake: Mistake
    right: object
    mistaken: object
    decimals: int
    grading_decimals: int
    tolerance: Fraction
    separable: bool
    accepted: Tolerance
    symbol: str = "the value"
    where: str = ""  # e.g. "exercise 8.2, question a"
    part: str | None = None  # the part's number, when the question has several

    @property
    def coarse_example(self) -> str | None:
        """An answer that fits both and is graded right (one decimal short of telling them apart), or None."""
        shown = self.decimals - 1
        if (shown < 0 or self.accepted.decimals is not None or not self.accepted.accept_rounded
                or shown < self.accepted.rounded_decimals):
            return None
        return exact.decimal_text(self.right, shown, strip=False)

    def text(self) -> str:
        """One note for the instructor: the question, both values, and what would tell them apart."""
        head = (f"{self.where + ': ' if self.where else ''}the right value {self.symbol} {_shown(self.right)} and the "
                f"value of a common mistake ({self.mistake.title}: {self.mistake.name}) {_shown(self.mistaken)} are "
                f"within the tolerance of each other ({self.accepted.describe()}).")
        shown = (exact.decimal_text(self.right, self.grading_decimals, strip=False),
                 exact.decimal_text(self.mistaken, self.grading_decimals, strip=False))
        if not self.separable:
            return (f"{head} They differ by less than 0.1 %, so an answer near either is graded right, whatever its "
                    f"precision; decimals = {self.grading_decimals} on the question would refuse {shown[1]} (as a "
                    "wrong answer, without naming the mistake).")
        shown = (exact.decimal_text(self.right, self.decimals, strip=False),
                 exact.decimal_text(self.mistaken, self.decimals, strip=False))
        coarse = self.coarse_example
        coarse = f"; a coarser answer that fits both ({coarse}) is graded right" if coarse else ""
        return (f"{head} An answer written to {self.decimals} or more decimals tells them apart ({shown[0]} vs "
                f"{shown[1]}) and is graded as the one it is nearer{coarse}. To grade them apart at any precision, "
                f"give the question decimals = {self.grading_decimals} (or tolerance = "
                f"{exact.decimal_text(self.tolerance, 12)} with min_decimals = {self.decimals}).")


def _shown(value) -> str:
    """'= 93/133 ≈ 0.6992' for a rational value; '≈ 0.7860' for a logarithmic one (its expression is long)."""
    if exact.is_symbolic(value):
        return f"≈ {exact.decimal_text(value, strip=False)}"
    text = exact.value_text(value)
    return text if text.startswith(("≈", "=")) else f"= {text}"


def telling_decimals(right: Fraction, mistaken: Fraction) -> tuple[int, int]:
    """(fewest decimals from which on the two values always round differently, fewest decimals d with
    10^-d < |right - mistaken|); the second makes half-unit intervals around them disjoint."""
    difference = abs(right - mistaken)
    guaranteed = 0
    while Fraction(1, 10**guaranteed) >= difference:  # past this, two roundings are at least one unit apart
        guaranteed += 1
    fewest = guaranteed
    while fewest > 0 and rounded(right, fewest - 1) != rounded(mistaken, fewest - 1):
        fewest -= 1
    return fewest, guaranteed


def _bound(value: Fraction, tolerance: Tolerance) -> Fraction:
    if tolerance.decimals is not None:
        return Fraction(1, 2 * 10**tolerance.decimals)
    return max(tolerance.rtol * abs(value), tolerance.atol)


def answers_fit_both(right: Fraction, mistaken: Fraction, tolerance: Tolerance) -> bool:
    """True when some answer is graded right (within the tolerance of ``right``, or its correct rounding to at
    least ``min_decimals`` decimals) and also matches ``mistaken`` the way :func:`diagnose` matches a mistake."""
    if tolerance.form == "fraction":
        return False  # only the exact fraction is right, and it is no other value
    clear = clearly_fit_both(right, mistaken, tolerance)
    return clear if clear is not None else fit_both_exactly(right, mistaken, tolerance)


def clearly_fit_both(right: Fraction, mistaken: Fraction, tolerance: Tolerance) -> bool | None:
    """:func:`answers_fit_both` decided in doubles where the values are clearly inside or outside the reach (a
    double errs by ~1e-16 relative; the margin is 1e-9), else None."""
    x, y = float(right), float(mistaken)
    if tolerance.decimals is not None:
        reach = 10.0 ** -tolerance.decimals
    else:
        rtol, atol = float(tolerance.rtol), float(tolerance.atol)
        reach = max(rtol * abs(x), atol) + max(rtol * abs(y), atol)
    difference = abs(x - y)
    if difference < reach * (1 - 1e-9):
        return True
    if difference > reach * (1 + 1e-9) and (tolerance.decimals is not None or not tolerance.accept_rounded):
        return False
    if difference > (reach + 10.0 ** -min(tolerance.min_decimals, 300)) * (1 + 1e-9):
        return False
    return None


def fit_both_exactly(right: Fraction, mistaken: Fraction, tolerance: Tolerance) -> bool:
    """:func:`answers_fit_both` in exact arithmetic (the definition; the doubles only shortcut the clear cases)."""
    if tolerance.form == "fraction":
        return False
    difference = abs(right - mistaken)
    reach = _bound(right, tolerance) + _bound(mistaken, tolerance)
    if difference <= reach:
        return True
    if tolerance.decimals is not None or not tolerance.accept_rounded:
        return False
    if difference > reach + Fraction(1, 10**tolerance.min_decimals):  # no correct rounding can bridge the gap
        return False
    fewest, guaranteed = telling_decimals(right, mistaken)
    for shown in range(tolerance.min_decimals, max(guaranteed, tolerance.min_decimals) + 1):
        near_right, near_mistaken = rounded(right, shown), rounded(mistaken, shown)
        if (near_right == near_mistaken or close(near_right, mistaken, tolerance)
                or close(near_mistaken, right, tolerance)):
            return True
    return False


def _nice_below(limit: Fraction) -> Fraction:
    """The largest 1, 2 or 5 times a power of ten strictly below ``limit`` (> 0): a tolerance easy to write."""
    power = Fraction(1)
    while power >= limit:
        power /= 10
    while power * 10 < limit:
        power *= 10
    return next(step * power for step in (5, 2, 1) if step * power < limit)


def _separating_tolerance(right: Fraction, mistaken: Fraction, decimals: int, guaranteed: int,
                          tolerance: Tolerance) -> tuple[Fraction, int]:
    """A relative tolerance and min_decimals under which no answer fits both values (checked, not assumed)."""
    scale = abs(right) + abs(mistaken)
    rtol = _nice_below(abs(right - mistaken) / scale) if scale else Fraction(0)
    for shown in range(decimals, guaranteed + 2):
        for trial in (rtol, rtol / 10, rtol / 100):
            candidate = replace(tolerance, rtol=trial, decimals=None, min_decimals=shown, form="any")
            if not answers_fit_both(right, mistaken, candidate):
                return trial, shown
    return rtol / 100, guaranteed + 1


def mistaken_values(correct, candidates) -> list[tuple[Mistake, object]]:
    """Each mistake's value for one part: the re-solved ones (``candidates`` from :func:`mistaken_results`) and the
    answer-scale ones (a percentage without its sign, …; given as a (scale,) tuple, multiplied only when needed)."""
    values = [(mistake, result.value) for mistake, result, _ in candidates]
    return values + scaled_mistakes()


def answer_margin(right: Fraction, right_float: float | None, tolerance: Tolerance) -> float:
    """Wider than any answer that fits both values can bridge: the two tolerances and a correct rounding on either
    side (two values more than twice this apart share no answer)."""
    return 2 * float(_bound(right, tolerance)) + 2 * float(tolerance.rtol) * abs(right_float or 0.0) \
        + 10.0**-min(tolerance.min_decimals, 300)


def mistaken_float(right_float: float | None, value) -> float | None:
    """A mistake's value as a float: a (scale,) tuple scales the right value (see :func:`mistaken_values`)."""
    if isinstance(value, tuple):
        return None if right_float is None else right_float * float(value[0])
    return as_float(value)


def too_close(correct, tolerance: Tolerance, mistaken, symbol: str = "the value", where: str = "") -> list[TooClose]:
    """The named mistakes (``mistaken``: (Mistake, value) pairs, see :func:`mistaken_values`) whose value differs
    from ``correct`` but lies so near it that some answer is graded right and fits the mistake as well."""
    found = []
    right = rational_value(correct) if tolerance.form != "fraction" else None
    for mistake, value, wrong in fitting_both(correct, tolerance, mistaken):
        decimals, guaranteed = telling_decimals(right, wrong)
        # never fewer decimals than the grader takes as a rounding (fewer is "rounded too coarsely")
        decimals = max(decimals, tolerance.rounded_decimals)
        rtol, decimals_needed = _separating_tolerance(right, wrong, decimals, max(guaranteed, decimals), tolerance)
        found.append(TooClose(mistake, correct, value, decimals_needed, guaranteed, rtol, _distinct(value, correct),
                              tolerance, symbol, where))
    return found


def fitting_both(correct, tolerance: Tolerance, mistaken, decide=None):
    """(mistake, its value, that value as a Fraction) of each named mistake, in order, whose value differs from
    ``correct`` yet shares a right answer with it (:func:`answers_fit_both`, or ``decide``): what :func:`too_close`
    reports."""
    decide = decide or answers_fit_both
    if tolerance.form == "fraction":
        return
    right, right_float = rational_value(correct), as_float(correct)
    margin = answer_margin(right, right_float, tolerance)
    seen = set()
    for mistake, value in mistaken:
        scale = value[0] if isinstance(value, tuple) else None
        value_float = mistaken_float(right_float, value)
        if right_float is not None and value_float is not None and abs(right_float - value_float) > 2 * margin:
            continue  # far apart (most mistakes), decided without exact arithmetic
        if scale is not None:
            value = exact.mul(correct, scale)
        if _same(value, correct) or (mistake.name, value) in seen:
            continue
        seen.add((mistake.name, value))
        wrong = rational_value(value)
        if decide(right, wrong, tolerance):
            yield mistake, value, wrong


def part_too_close(key, part) -> list[TooClose]:
    """The :func:`too_close` findings of one part of a question's key (a :class:`~irlab.homework.key.Key`),
    computed once per key and part (the key remembers them)."""
    if part.result is None:  # a choice question: letters, not values
        return []
    if part.index not in key.findings:
        key.findings[part.index] = tuple(_part_too_close(key, part))
    return list(key.findings[part.index])


def _part_too_close(key, part) -> list[TooClose]:
    where = f"exercise {key.exercise.id}, question {key.question.id}"
    if len(key.parts) > 1:
        where += f".{part.number} ({part.name})"
    found = too_close(part.value, key.tolerance, mistaken_values(part.value, key.mistaken(part)), part.result.symbol,
                      where)
    return [replace(finding, part=part.number) for finding in found] if len(key.parts) > 1 else found


def key_too_close(key) -> list[TooClose]:
    """The :func:`too_close` findings of every part of one question's key."""
    return [finding for part in key.parts for finding in part_too_close(key, part)]
