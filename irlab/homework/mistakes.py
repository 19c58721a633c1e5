"""The catalogue of named mistakes: each a rewrite of the question (another convention, another solver, another
cut-off, the ideal ranking built from the retrieved list only) or an answer ``scale`` (a percentage written without
its sign), re-solved with irlab's own solvers.

:func:`mistaken_results` gives every applicable mistake's result for one part of a question; the answer key
(:meth:`irlab.homework.key.Key.mistaken`) keeps them, and :mod:`irlab.homework.diagnosis` names the mistake a wrong
answer matches.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Callable

from .. import conventions as conv
from ..errors import IrlabError
from ..exercise_set import Question, Where, resolve_question, solve_question
from ..metrics import REGISTRY
from .plain_answers import names_parameters, plain_parts


@dataclass(frozen=True)
class Rewrite:
    """The question and parameters a mistake solves instead of the real ones."""

    question: Question
    params: dict
    context: dict  # extra template fields (e.g. the other cut-off)


@dataclass(frozen=True)
class Mistake:
    name: str
    title: str
    explanation: str  # str.format template; fields from irlab.homework.diagnosis's _context and the rewrite's context
    rewrite: Callable[[Question, dict], list[Rewrite]] | None = None
    scale: Fraction | None = None  # answer-scale mistakes: the mistaken value is the correct one times scale


# rewrites --------------------------------------------------------------------------------------

def _metric(solver: str):
    return REGISTRY.get(solver)


def _with_options(question: Question, **changes) -> Question:
    options = {**question.options, **changes}
    options = {k: v for k, v in options.items() if v is not None}
    return replace(question, options=options)


def _question_only(rewrite: Callable[[Question, dict], list[Rewrite]]):
    """Marks a rewrite that reads only the question (the parameters pass through as they are): :func:`rewrites`
    builds its rewritten questions once per question."""
    rewrite.question_only = True
    return rewrite


def convention_choice(convention: conv.Convention, choice: str) -> Callable[[Question, dict], list[Rewrite]]:
    """Solve with ``convention = choice``, when the question's metric has that convention and uses another."""

    @_question_only
    def rewrite(question: Question, params: dict) -> list[Rewrite]:
        metric = _metric(question.solver)
        if metric is None or convention not in metric.conventions:
            return []
        current = convention.choice(question.options.get(convention.name)).key
        if current == choice:
            return []
        return [Rewrite(_with_options(question, **{convention.name: choice}), params, {})]

    return rewrite


def other_solver(source: str, target: str, drop: tuple[str, ...] = ()) -> Callable[[Question, dict], list[Rewrite]]:
    @_question_only
    def rewrite(question: Question, params: dict) -> list[Rewrite]:
        if question.solver != source:
            return []
        options = {k: v for k, v in question.options.items() if k not in drop}
        return [Rewrite(replace(question, solver=target, options=options), params, {})]

    return rewrite


def ideal_from_retrieved(question: Question, params: dict) -> list[Rewrite]:
    """IDCG from the retrieved list only: forget the judged documents that were not retrieved (and R)."""
    if question.solver not in ("ndcg", "idcg") or "ranking" not in params:
        return []
    if not params.get("unretrieved") and params.get("relevant") is None:
        return []
    changed = {k: v for k, v in params.items() if k not in ("unretrieved", "relevant")}
    return [Rewrite(question, changed, {})]


@_question_only
def off_by_one(question: Question, params: dict) -> list[Rewrite]:
    """The cut-off one rank too early or too late."""
    k = question.options.get("k")
    if not isinstance(k, int) or isinstance(k, bool):
        return []
    return [Rewrite(_with_options(question, k=other), params, {"k_other": other}) for other in (k - 1, k + 1) if other >= 1]


# the catalogue ---------------------------------------------------------------------------------

MISTAKES: tuple[Mistake, ...] = (
    Mistake("ap-divided-by-relevant-retrieved", "AP divided by the relevant documents retrieved instead of all R",
            "{given} is what you get if you divide by the {hits} relevant documents retrieved; this exercise divides "
            "by all {R} relevant documents",
            convention_choice(conv.AP_DENOMINATOR, "retrieved")),
    Mistake("ap-divided-by-all-relevant", "AP divided by all R instead of the relevant documents retrieved",
            "{given} is what you get if you divide by all {R} relevant documents; this exercise divides by the "
            "{hits} relevant documents retrieved",
            convention_choice(conv.AP_DENOMINATOR, "relevant")),
    Mistake("ap-divided-by-min-r-k", "AP divided by min(R, k)",
            "{given} is what you get if you divide by min(R, k) = {min_rk}; this exercise divides by {ap_divisor}",
            convention_choice(conv.AP_DENOMINATOR, "min-relevant-k")),
    Mistake("recall-divided-by-min-r-k", "recall@k divided by min(R, k) instead of R",
            "{given} is what you get if you divide by min(R, k) = {min_rk}; this exercise divides recall by all "
            "R = {R} relevant documents",
            convention_choice(conv.RECALL_DENOMINATOR, "min-relevant-k")),
    Mistake("recall-divided-by-r", "recall@k divided by R instead of min(R, k)",
            "{given} is what you get if you divide by all R = {R} relevant documents; this exercise divides recall "
            "by min(R, k) = {min_rk}",
            convention_choice(conv.RECALL_DENOMINATOR, "relevant")),
    Mistake("precision-over-retrieved", "P@k divided by the documents retrieved instead of k",
            "{given} is what you get if you divide by the {length} documents retrieved; this exercise divides by "
            "the cut-off k = {k}, counting missing ranks as non-relevant",
            convention_choice(conv.PRECISION_DENOMINATOR, "retrieved")),
    Mistake("precision-over-k", "P@k divided by k instead of the documents retrieved",
            "{given} is what you get if you divide by the cut-off k = {k}; this exercise divides by the {length} "
            "documents actually retrieved",
            convention_choice(conv.PRECISION_DENOMINATOR, "k")),
    Mistake("linear-gain", "linear gain g instead of 2^g - 1",
            "{given} is what you get with the linear gain gain(g) = g; this exercise uses the exponential gain "
            "gain(g) = 2^g - 1",
            convention_choice(conv.GAIN, "linear")),
    Mistake("exponential-gain", "exponential gain 2^g - 1 instead of g",
            "{given} is what you get with the exponential gain gain(g) = 2^g - 1; this exercise uses the grade "
            "itself as the gain, gain(g) = g",
            convention_choice(conv.GAIN, "exp")),
    Mistake("discount-log2-rank", "discount log2(i) instead of log2(i + 1)",
            "{given} is what you get if you divide the gain at rank i by log2(i) (no discount at rank 1); this "
            "exercise divides by log2(i + 1) at every rank",
            convention_choice(conv.DISCOUNT, "log2-rank")),
    Mistake("discount-log2-rank-plus-1", "discount log2(i + 1) instead of log2(i)",
            "{given} is what you get if you divide the gain at rank i by log2(i + 1); this exercise leaves rank 1 "
            "undiscounted and divides by log2(i) from rank 2 on",
            convention_choice(conv.DISCOUNT, "log2-rank-plus-1")),
    Mistake("discount-reciprocal-rank", "discount 1/i instead of a logarithm",
            "{given} is what you get if you divide the gain at rank i by i itself (the reciprocal-rank discount); "
            "this exercise divides by a logarithm of the rank",
            convention_choice(conv.DISCOUNT, "reciprocal-rank")),
    Mistake("f-weight-beta-squared", "F's β used as the weight β² (trec_eval set_F)",
            "{given} is what you get with (1 + β)·P·Rec / (β·P + Rec), β taken as the weight of recall as "
            "trec_eval's set_F takes its parameter; F_β squares it: (1 + β²)·P·Rec / (β²·P + Rec)",
            convention_choice(conv.F_WEIGHT, "beta-squared")),
    Mistake("f-weight-beta", "F's weight x squared as if it were β",
            "{given} is what you get with (1 + x²)·P·Rec / (x²·P + Rec); here the parameter x is the weight itself, "
            "as trec_eval's set_F reads it: (1 + x)·P·Rec / (x·P + Rec)",
            convention_choice(conv.F_WEIGHT, "beta")),
    Mistake("tau-a-instead-of-b", "Kendall's tau-a instead of tau-b (ties kept in the denominator)",
            "{given} is Kendall's tau-a, (C - D) / (n(n - 1)/2), which keeps the tied pairs in the denominator; "
            "tau-b leaves the pairs tied in x out of one factor and those tied in y out of the other",
            convention_choice(conv.TAU_VARIANT, "a")),
    Mistake("tau-b-instead-of-a", "Kendall's tau-b instead of tau-a",
            "{given} is Kendall's tau-b, which removes tied pairs from the denominator; this exercise asks for tau-a, "
            "(C - D) over all n(n - 1)/2 pairs",
            convention_choice(conv.TAU_VARIANT, "b")),
    Mistake("idcg-from-retrieved-list", "IDCG from the retrieved list instead of all judgments",
            "{given} is what you get if the ideal ranking is built from the retrieved list only; this exercise's "
            "ideal ranking sorts every judged document, including the relevant ones that were not retrieved",
            ideal_from_retrieved),
    Mistake("non-interpolated-precision", "non-interpolated instead of interpolated precision",
            "{given} is the precision at the first rank that reaches recall {level}; interpolated precision is the "
            "highest precision at any rank whose recall is at least {level}",
            other_solver("iprec", "prec-at-recall", drop=("interpolation",))),
    Mistake("interpolated-precision", "interpolated instead of non-interpolated precision",
            "{given} is the interpolated precision (the highest precision at any rank with recall at least {level}); "
            "this question asks for the precision at the first rank that reaches recall {level}",
            other_solver("prec-at-recall", "iprec")),
    Mistake("interpolation-trec-eval", "trec_eval's rounding of r·R in interpolated precision",
            "{given} is what you get if you round r·R to the nearest integer, as trec_eval does; this exercise "
            "needs recall at least {level}, i.e. rounds r·R up",
            convention_choice(conv.INTERPOLATION, "trec-eval")),
    Mistake("kappa-per-judge-marginals", "kappa with per-judge instead of pooled marginals",
            "{given} is what you get if P(E) uses each judge's own proportions (Cohen's original kappa); this "
            "exercise pools the two judges' judgments to estimate P(E)",
            convention_choice(conv.KAPPA_MARGINALS, "per-judge")),
    Mistake("kappa-pooled-marginals", "kappa with pooled instead of per-judge marginals",
            "{given} is what you get if P(E) pools the two judges' judgments; this exercise uses each judge's own "
            "proportions (Cohen's original kappa)",
            convention_choice(conv.KAPPA_MARGINALS, "pooled")),
    Mistake("off-by-one-rank", "cut-off one rank off (k ± 1)",
            "{given} is the value at rank {k_other}; this question cuts the list at k = {k}",
            off_by_one),
    Mistake("percent-without-sign", "a percentage written without its % sign",
            "{given} is the right number as a percentage, but written without the % sign it means {given} as a "
            "fraction of 1; write {right_forms}",
            scale=Fraction(100)),
    Mistake("fraction-with-percent-sign", "a fraction of 1 followed by a % sign",
            "{given} has a % sign, which divides the number by 100; the value you computed is right as a fraction "
            "of 1: write it without the % sign{or_as_percent}",
            scale=Fraction(1, 100)),
    # near misses, recognised by irlab.homework.answers.near_miss (no recomputation: the value is right, its digits are not)
    Mistake("rounded-too-coarsely", "the right value rounded to too few decimals",
            "{given} is the right value rounded to too few decimals"),
    Mistake("rounded-too-early", "rounded too early (intermediate values rounded)",
            "{given} is close to the value but not a correct rounding of it"),
)

BY_NAME = {mistake.name: mistake for mistake in MISTAKES}


def mistaken_results(question: Question, params: dict, part: int, path="exercise",
                     near: Callable[[object], bool] | None = None) -> list[tuple[Mistake, object, Rewrite | None]]:
    """Every applicable mistake with the Result (or scaled value) it gives for answer ``part`` (0-based). With
    ``near``, only those whose plain value (:func:`irlab.homework.plain_answers.plain_parts`) ``near`` keeps, or
    that have none, are listed: the diagnosis of one answer needs no mistake far from it. Those are re-solved with
    their explanations, but for a mistake whose plain value is exact (a rational metric's, the very number its
    explained solver gives): it is listed as a :class:`Deferred`, re-solved only if the diagnosis names it."""
    found = []
    memo: dict = {}  # the rewrites share the parameters dict (so its ranking): plain_parts reads it once
    for mistake, rewrite in rewrites(question, params, path):
        where = Where(path, None, question.id)
        if near is not None:
            value = _plain_value(rewrite, part, where, memo)
            if value is not _UNKNOWN:
                if not near(value):
                    continue
                if type(value) is not float:
                    found.append((mistake, Deferred(value, rewrite, part, where), rewrite))
                    continue
        result = _solved(rewrite, part, where)
        if result is not None:
            found.append((mistake, result, rewrite))
    return found


def _solved(rewrite: Rewrite, part: int, where: Where):
    """The explained Result of the rewrite's answer ``part``, or None when the solver refuses the rewrite (the
    mistake does not apply) or gives no such part."""
    try:
        solution = solve_question(rewrite.params, rewrite.question, where)
    except (IrlabError, ZeroDivisionError):
        return None
    primary = solution.primary
    return primary[part].result if part < len(primary) else None


class Deferred:
    """A mistake's result known by its exact plain value alone (``value``: a Fraction or int, the value the
    explained solver gives); :meth:`solved` gives the explained Result, or None when that solver refuses the
    rewrite (then the mistake does not apply, as if never listed)."""

    __slots__ = ("value", "_rewrite", "_part", "_where")

    def __init__(self, value, rewrite: Rewrite, part: int, where: Where):
        self.value, self._rewrite, self._part, self._where = value, rewrite, part, where

    def solved(self):
        return _solved(self._rewrite, self._part, self._where)


def rewrites(question: Question, params: dict, path="exercise"):
    """(mistake, rewrite) of every catalogued mistake that applies to ``question`` on ``params``, in catalogue
    order (the question's "{name}" options filled first: k = "{length}" -> a number)."""
    plan = rewrite_plan(question)
    if plan is None:  # options that name parameters: read on these parameters
        question = resolve_question(question, params, Where(path, None, question.id))
        for mistake in MISTAKES:
            if mistake.rewrite is not None:
                for rewrite in mistake.rewrite(question, params):
                    yield mistake, rewrite
        return
    resolved, steps = plan
    for mistake, fixed in steps:
        if fixed is None:
            for rewrite in mistake.rewrite(resolved, params):
                yield mistake, rewrite
        else:
            for rewritten, context in fixed:
                yield mistake, Rewrite(rewritten, params, context)


# A question's rewrites by the question-only mistakes are the same questions on every draw (the drawn parameters
# pass through): built once per question object (kept alive beside its id), for questions whose options name no
# parameter; the shared rewritten questions let the plain path read each once (irlab.homework.plain_answers).
_PLANS: dict[int, tuple] = {}
_PLANS_SIZE = 1024  # questions; emptied when full
_PASSED = {}  # stands for the parameters while a plan is built: a question-only rewrite passes it through


def rewrite_plan(question: Question):
    """(the question as resolved, [(mistake, None to call its rewrite on each draw's parameters, or the
    [(question, context)] it rewrites to)]), or None when the question's options name parameters."""
    found = _PLANS.get(id(question))
    if found is not None and found[0] is question:
        return found[1]
    if names_parameters(question):
        return None
    resolved = resolve_question(question, {}, Where("exercise", None, question.id))
    steps = []
    for mistake in MISTAKES:
        if mistake.rewrite is None:
            continue
        if not getattr(mistake.rewrite, "question_only", False):
            steps.append((mistake, None))
            continue
        made = mistake.rewrite(resolved, _PASSED)
        if any(rewrite.params is not _PASSED for rewrite in made):  # (not question-only after all)
            steps.append((mistake, None))
        elif made:
            steps.append((mistake, [(rewrite.question, rewrite.context) for rewrite in made]))
    if len(_PLANS) >= _PLANS_SIZE:
        _PLANS.clear()
    _PLANS[id(question)] = (question, (resolved, steps))
    return resolved, steps


def scaled_mistakes() -> list[tuple[Mistake, tuple]]:
    """The answer-scale mistakes as (mistake, (scale,)) pairs: the right value times the scale, multiplied only when
    needed (see irlab.homework.diagnosis.mistaken_values)."""
    return [(mistake, (mistake.scale,)) for mistake in MISTAKES if mistake.scale is not None]


_UNKNOWN = object()  # no plain value (not covered, or an error the explained solver words: it skips the mistake then)


def _plain_value(rewrite: Rewrite, part: int, where: Where, memo: dict | None = None):
    """The rewrite's plain value for ``part``, or _UNKNOWN."""
    try:
        values = plain_parts(rewrite.params, rewrite.question, where, memo)
    except Exception:
        return _UNKNOWN
    return values[part][1] if part < len(values) else _UNKNOWN
