"""A drawn variant judged on plain values: the drawing's fast verdict, or "unsure" (then the exact judge decides).

:mod:`irlab.homework.drawing` issues a draw only when every question solves and the draw is worth solving
(:mod:`irlab.homework.degenerate`): no answer 0 or 1, no named mistake within the tolerance of the right value.
Judging that with the explained solvers means solving every question and every named mistake with its full
explanation, for each draw, most of which are never issued. This module reaches the same verdict on plain values
(:mod:`irlab.metrics.plain`): exact fractions where the metric is rational, so the checks are the very ones the
exact judge makes on the very same numbers; floats where logarithms appear, trusted only far from every boundary
(an answer 0 or 1, a tolerance's reach). Whenever it cannot be sure — a solver or option it does not cover, an
error, a float near a boundary — it says so (None) and the drawing judges the draw exactly, as before; a refused
draw's reason is then the exact judge's own words. tests/test_screening.py checks the verdicts against the exact
judge on generated draws.
"""

from __future__ import annotations

import math
from fractions import Fraction

from ..errors import IrlabError
from ..exercise_set import Exercise, Where, check_consistency, solve_question
from .degenerate import OPT_OUT, answer_is, mistake_too_close, part_where
from .answers import as_float
from .diagnosis import clearly_fit_both, fit_both_exactly, fitting_both, mistaken_float
from .key_build import grading_defaults, question_tolerance
from .mistakes import rewrite_plan, rewrites, scaled_mistakes
from .plain_answers import Undefined, Unsupported, plain_parts, prepared, solved_parts

UNSURE = None
_NEAR = 1e-9  # a float this near 0, 1 or a tolerance's edge is left to the exact judge (floats err by ~1e-16)


def _is(value, target: int):
    """True/False when plain ``value`` surely is / is not ``target``; None when a float is too near to tell."""
    if isinstance(value, float):
        return None if abs(value - target) <= _NEAR else False
    return value == target


def screen(candidate: Exercise, path, grading=None) -> tuple[str | None, bool] | None:
    """The verdict on a draw — (why it is refused or None, whether for being degenerate) — reached on plain values,
    or None when unsure. ``candidate`` is the exercise with the drawn parameters and the counts its statement states,
    whose drawn counts (R, N) the drawing has already checked. ``grading``: a function giving the set's [grading]
    table (called when a draw needs it; without it, the table of the file as it is now)."""
    try:
        solved_params, notes = check_consistency(candidate, path)
    except Exception:
        return UNSURE
    if notes:
        return "; ".join(note.text for note in notes), False
    judged = []  # (question, [(part name, plain value)])
    memo: dict = {}  # this draw's rankings and plain values (plain_answers.plain_parts)
    try:
        for question in candidate.questions:
            qwhere = Where(path, candidate.id, question.id)
            if question.solver == "free-text":
                return UNSURE
            try:
                judged.append((question, plain_parts(solved_params, question, qwhere, memo)))
            except Undefined:
                return _refusal(solved_params, question, qwhere)
    except Exception:  # an error the explained solver may word otherwise, or a case not covered
        return UNSURE
    parts = [(question, index, value, values) for question, values in judged if not question.options.get(OPT_OUT)
             for index, (_, value) in enumerate(values)]
    for question, index, value, values in parts:
        for target in (0, 1):
            verdict = _is(value, target)
            if verdict is None:
                return UNSURE
            if verdict:
                return answer_is(_where(question, index, values), target), True
    grading = grading() if grading is not None else grading_defaults(path)
    for question, index, value, values in parts:
        finding = _closest_mistake(path, question, solved_params, index, value, grading, memo)
        if finding is UNSURE:
            return UNSURE
        if finding:
            return mistake_too_close(_where(question, index, values), *finding), True
    return None, False


def _where(question, index: int, values: list) -> str:
    """How a refusal names part ``index`` of ``question`` (only a refused draw needs it)."""
    return part_where(question.id, str(index + 1), values[index][0], len(values) > 1)


def _refusal(params: dict, question, where: Where) -> tuple[str, bool] | None:
    """The verdict on a draw whose ``question`` the explained solver refuses (an undefined value): its error, word
    for word, as the exact judge gives it. That judge solves the questions in order and stops at the first error;
    the questions before this one have plain values, so they solve. UNSURE if the solver does not refuse after all."""
    try:
        solve_question(params, question, where)
    except (IrlabError, ZeroDivisionError) as error:  # what drawing._inconsistency catches
        return str(error), False
    return UNSURE


def _closest_mistake(path, question, params: dict, index: int, value, grading: dict, memo: dict):
    """The first named mistake within the tolerance of part ``index`` as (its name, its value, the right value), ()
    when none is, or UNSURE."""
    judge = _judge(question, grading)
    if judge is UNSURE:  # the tolerance is refused
        return UNSURE
    tolerance = judge.tolerance
    mistaken = []
    where = Where(path, None, question.id)
    if judge.steps is None:  # options that name parameters: the rewrites read each draw's
        for mistake, rewrite in rewrites(question, params, path):
            try:
                values = plain_parts(rewrite.params, rewrite.question, where, memo)
            except Exception:
                return UNSURE  # the explained solver may refuse it (the mistake then does not apply) or not
            if index < len(values):
                mistaken.append((mistake, values[index][1]))
    else:
        for mistake, solver, resolved in judge.steps:
            if solver is not None:  # a question-only rewrite, its plain solver read once: on these parameters
                try:
                    if solver is _REFUSED:
                        raise Unsupported("the plain path refuses this rewrite")
                    values = solved_parts(solver, params, where, memo)
                except Exception:
                    return UNSURE
                if index < len(values):
                    mistaken.append((mistake, values[index][1]))
                continue
            for rewrite in mistake.rewrite(resolved, params):  # a rewrite that reads the parameters
                try:
                    values = plain_parts(rewrite.params, rewrite.question, where, memo)
                except Exception:
                    return UNSURE
                if index < len(values):
                    mistaken.append((mistake, values[index][1]))
    mistaken += _SCALED
    passed = _passed_over(value, mistaken, tolerance, judge.reach)
    if passed is not None and all(passed):
        return ()
    if passed is None:  # no double of the right value: fitting_both reads every mistake
        passed = [False] * len(mistaken)
    if not isinstance(value, float) and not any(isinstance(v, float) for _, v in mistaken):
        near = [pair for pair, far in zip(mistaken, passed) if not far]  # (fitting_both passes over the others)
        return _first(fitting_both(value, tolerance, near), value)  # the exact judge's very inputs: its verdict
    # A value with logarithms is judged on its double (irlab.exact.to_float) by the exact judge too; this double may
    # differ from that one in the last bits, so a decision counts only if it holds with the values nudged either
    # way by far more than that.
    kept = []
    for (mistake, mistaken_value), far in zip(mistaken, passed):
        if isinstance(mistaken_value, float) or isinstance(value, float) and not isinstance(mistaken_value, tuple):
            # the exact judge tells a value with logarithms from another by their doubles (diagnosis._same)
            same = _same_float(float(mistaken_value), value)
            if same is None:
                return UNSURE
            if same:
                continue  # the same value (the exact judge's own 1e-12 rule): this mistake does not apply here
        if not far:  # (fitting_both passes over a far one: its nudged value is not needed)
            kept.append((mistake, _nudged(mistaken_value, 0)))
    right = _nudged(value, 0)
    try:
        found = _first(fitting_both(right, tolerance, kept, decide=_firmly_fit_both), right)
    except _Unsure:
        return UNSURE
    if found and not (_rounds_firmly(found[1]) and _rounds_firmly(found[2])):
        return UNSURE  # the refusal shows both to 4 decimals: a last bit must not change what it shows
    return found


_SCALED = scaled_mistakes()  # the answer-scale mistakes (a fixed list: the catalogue's)


class _Judge:
    """What screening one question needs that no draw changes: its tolerance, the reach of _all_far, and its named
    mistakes in catalogue order as (mistake, the plain solver of its rewritten question or _REFUSED, None), or
    (mistake, None, the question resolved) for a rewrite that reads the parameters; ``steps`` is None when the
    question's options name parameters (rewritten on each draw)."""

    __slots__ = ("tolerance", "reach", "steps")

    def __init__(self, tolerance, steps):
        self.tolerance, self.reach, self.steps = tolerance, _reach(tolerance), steps


_REFUSED = object()  # a rewritten question the plain path refuses to read: UNSURE when its value is needed

# Judges by question object and grading table (both kept alive beside it, so their ids name no other): every draw
# of a variant exercise screens the same questions.
_JUDGES: dict[int, tuple] = {}
_JUDGES_SIZE = 1024  # questions; emptied when full


def _judge(question, grading: dict):
    """The question's _Judge under ``grading``, or UNSURE when its tolerance is refused (raised again each time)."""
    found = _JUDGES.get(id(question))
    if found is not None and found[0] is question and found[1] is grading:
        return found[2]
    try:
        tolerance = question_tolerance(question, grading)
    except Exception:
        return UNSURE
    plan = rewrite_plan(question)
    steps = None
    if plan is not None:
        resolved, planned = plan
        steps = []
        for mistake, fixed in planned:
            if fixed is None:
                steps.append((mistake, None, resolved))
            for rewritten, _ in fixed or ():
                try:
                    solver = prepared(rewritten, Where("exercise", None, question.id))
                except Exception:
                    solver = _REFUSED
                steps.append((mistake, solver, None))
    if len(_JUDGES) >= _JUDGES_SIZE:
        _JUDGES.clear()
    judge = _Judge(tolerance, steps)
    _JUDGES[id(question)] = (question, grading, judge)
    return judge


def _reach(tolerance) -> tuple[float, float, float, float]:
    """_all_far's terms that depend on the tolerance alone: (relative, absolute) bounds (diagnosis._bound, as
    doubles), twice rtol, and a unit of min_decimals."""
    relative, absolute = tolerance.float_bounds
    return relative, absolute, 2 * float(tolerance.rtol), 10.0**-min(tolerance.min_decimals, 300)


def _all_far(right, mistaken, tolerance, terms=None) -> bool:
    """Whether fitting_both passes over every named mistake (see _passed_over)."""
    passed = _passed_over(right, mistaken, tolerance, terms)
    return passed is not None and all(passed)


def _passed_over(right, mistaken, tolerance, terms=None) -> list[bool] | None:
    """For each named mistake, whether fitting_both surely passes over it: one far from the right value (its own
    first test, more than twice diagnosis.answer_margin apart), decided in doubles with a margin far above their
    rounding and above the last bits in which a double with logarithms may differ from the exact judge's; or, for a
    rational right value, one whose rational value is the right value itself (diagnosis._same: no mistake there).
    None when the right value has no double. ``terms``: _reach(tolerance), when known."""
    right_float = as_float(right)
    if right_float is None:
        return None
    rational = not isinstance(right, float)
    relative, absolute, twice_rtol, unit = terms or _reach(tolerance)
    size = abs(right_float)
    margin = 2 * max(relative * size, absolute) + twice_rtol * size + unit
    reach = 2 * margin * (1 + 1e-6) + 1e-9
    passed = []
    for _, value in mistaken:
        if rational and not isinstance(value, (float, tuple)) and value == right:
            passed.append(True)
            continue
        value_float = mistaken_float(right_float, value)
        passed.append(value_float is not None and abs(value_float - right_float) > reach)
    return passed


class _Unsure(Exception):
    pass


def _firmly_fit_both(right: Fraction, mistaken: Fraction, tolerance) -> bool:
    """:func:`~irlab.homework.diagnosis.answers_fit_both` for values read from doubles, which may differ from the
    exact judge's doubles in their last bits: decided in doubles when clear by far more than that (the same test
    answers_fit_both starts with), else exactly with both values nudged either way; raises _Unsure if that changes
    the answer."""
    clear = clearly_fit_both(right, mistaken, tolerance)
    if clear is None:
        clear = _fit_by_rounding(float(right), float(mistaken), tolerance)
    if clear is not None:
        return clear
    answers = {fit_both_exactly(_nudged(float(right), a), _nudged(float(mistaken), b), tolerance)
               for a, b in ((0, 0), (1, 1), (1, -1), (-1, 1), (-1, -1))}
    if len(answers) != 1:
        raise _Unsure
    return answers.pop()


_EDGE = 1e-9  # relative: a double test this far from its edge holds for every value within 1e-12 of the doubles


def _fit_by_rounding(x: float, y: float, tolerance) -> bool | None:
    """:func:`~irlab.homework.diagnosis.fit_both_exactly` for the doubles of a right value ``x`` and a mistaken
    one ``y``, each step of it taken in doubles; None when a step is within _EDGE of its edge, so that values within
    1e-12 of ``x`` and ``y`` (the exact judge's doubles, or the nudged ones) take every step the same way. Where
    the tolerances' reach does not decide, it is the rounding: some correct rounding of one value, to at least
    ``min_decimals`` decimals, that is the other's rounding or within the tolerance of the other value."""
    if tolerance.form == "fraction" or tolerance.decimals is not None or not tolerance.accept_rounded \
            or tolerance.min_decimals > 300:
        return None  # (clearly_fit_both decides these, but at the very edge)
    rtol, atol = float(tolerance.rtol), float(tolerance.atol)
    difference = abs(x - y)
    reach = max(rtol * abs(x), atol) + max(rtol * abs(y), atol)
    scale = abs(x) + abs(y) + reach + 1e-300
    if abs(difference - reach) <= _EDGE * scale:
        return None
    if difference <= reach:
        return True
    gap = reach + 10.0**-tolerance.min_decimals
    if abs(difference - gap) <= _EDGE * (scale + gap):
        return None
    if difference > gap:
        return False
    guaranteed = 0  # telling_decimals: the fewest decimals d with 10^-d < |right - mistaken|
    while True:
        unit = 10.0**-guaranteed
        if abs(unit - difference) <= _EDGE * (unit + scale) or guaranteed > 300:
            return None
        if unit < difference:
            break
        guaranteed += 1
    for shown in range(tolerance.min_decimals, max(guaranteed, tolerance.min_decimals) + 1):
        near_x, near_y = _rounded_units(x, shown), _rounded_units(y, shown)
        if near_x is None or near_y is None:
            return None
        if near_x == near_y:
            return True
        for near, other in ((near_x, y), (near_y, x)):  # answers.close(rounding, the other value, tolerance)
            apart, bound = abs(near / 10.0**shown - other), max(rtol * abs(other), atol)
            if abs(apart - bound) <= _EDGE * (abs(near / 10.0**shown) + abs(other) + bound + 1e-300):
                return None
            if apart <= bound:
                return True
    return False


def _rounded_units(value: float, decimals: int) -> int | None:
    """answers.rounded(value, decimals) × 10^decimals (half away from zero), or None when ``value`` lies within _EDGE
    of a half unit."""
    shifted = abs(value) * 10.0**decimals
    if abs(shifted - math.floor(shifted) - 0.5) <= _EDGE * (shifted + 1):
        return None
    whole = math.floor(shifted + 0.5)
    return whole if value >= 0 else -whole


def _rounds_firmly(value) -> bool:
    """Whether ``value`` to 4 decimals stays the same when its last bits change (it is not next to a half unit)."""
    shifted = abs(float(value)) * 10**4
    return abs(shifted - math.floor(shifted) - 0.5) > 1e-6


_NUDGE = 1e-12  # relative: far above a double's rounding error in these sums, far below any tolerance's edge


def _nudged(value, direction: int):
    """A float as the Fraction the exact judge reads (nudged by ``direction`` × _NUDGE); other values as they are."""
    if not isinstance(value, float):
        return value
    return Fraction(value * (1 + direction * _NUDGE))


def _same_float(mistaken: float, right) -> bool | None:
    """The exact judge's rule for a value with logarithms (diagnosis._same): within 1e-12 relative is the same value;
    None when too near that edge to tell."""
    gap = abs(mistaken - float(right)) / max(1.0, abs(float(right)))
    if gap <= 1e-13:
        return True
    return False if gap >= 1e-11 else None


def _first(fitting, right) -> tuple | tuple[()]:
    """(name, value, the right value) of the first named mistake too close to the right value, or ()."""
    for mistake, value, _ in fitting:
        return mistake.name, value, right
    return ()
