"""Plain values of a question's answers: what the explained solver's primary answers are, as bare numbers.

:func:`plain_parts` reads a question as :func:`irlab.exercise_set.solve_question` does (its options resolved, the
metric's own options kept) and computes its parts with :mod:`irlab.metrics.plain`: exact fractions where the metric
is rational, doubles where logarithms appear. Anything it does not read exactly as the solver does raises
:class:`~irlab.metrics.plain.Unsupported`, and the caller uses the explained solver; a question that solver is known
to refuse (an undefined value) raises :class:`~irlab.metrics.plain.Undefined`, and its error says why. The drawing
judges draws with these values (:mod:`irlab.homework.screening`), and the diagnosis re-solves with explanations
only the named mistakes whose plain values may lie near a student's answer
(:func:`irlab.homework.mistakes.mistaken_results`).
"""

from __future__ import annotations

from fractions import Fraction

from ..exercise_set import Where, exercise_rankings, judge_columns, solver_options
from ..metrics import REGISTRY
from ..metrics.plain import PLAIN, Undefined, Unsupported
from ..solvers.aggregation import RULES, judgments_columns, relevant_by_rule

__all__ = ["plain_parts", "Undefined", "Unsupported"]


def _aggregate(params: dict, rule) -> list[tuple[str, object]]:
    """P, R and F of the retrieved set under the aggregation rule, as
    :func:`irlab.solvers.aggregation.aggregate_relevance` gives them."""
    if rule not in RULES or "retrieved" not in params or "judgments" not in params:
        raise Unsupported("not an aggregation this path covers")
    docs, columns = judgments_columns(params["judgments"])
    retrieved = [str(d) for d in params["retrieved"]]
    if not retrieved or any(d not in docs for d in retrieved) or len(set(retrieved)) != len(retrieved):
        raise Undefined("a retrieved set the solver refuses")
    relevant = {d for d, *votes in zip(docs, *columns) if relevant_by_rule(votes, rule)}
    if not relevant:
        raise Undefined("no relevant document: recall is undefined")
    hits = len(relevant & set(retrieved))
    p, r = Fraction(hits, len(retrieved)), Fraction(hits, len(relevant))
    return [("precision", p), ("recall", r), ("f", 0 if p + r == 0 else 2 * p * r / (p + r))]


_OTHER_INPUTS = ("rankings", "counts", "systems", "judges_table", "intents")  # inputs the solvers read otherwise


def plain_parts(params: dict, question, where: Where, rankings: dict | None = None) -> list[tuple[str, object]]:
    """(part name, plain value) of each answer part of ``question`` on ``params``, as the explained solver gives its
    primary answers; raises :class:`Unsupported` for anything not covered. ``rankings`` remembers the parameters'
    ranking across the questions and named mistakes of one draw (by the parameters' repr)."""
    if any(name in params for name in _OTHER_INPUTS):
        raise Unsupported("inputs the plain path does not read")
    options = solver_options(question, params, where)
    if question.solver == "aggregate":
        return _aggregate(params, options.get("rule", "all"))
    metric, compute, accepted = _plain_metric(question.solver)
    metric_options = {k: v for k, v in options.items() if k in metric.option_names}
    if not accepted.issuperset(metric_options):
        raise Unsupported("an option the plain path does not cover")
    if metric.inputs == "judges":
        first, second = judge_columns(params, where)
        return [(metric.name, compute(first, second, **metric_options))]
    if metric.inputs != "ranking":
        raise Unsupported("not a single ranking")
    if rankings is None:
        (ranking,) = exercise_rankings(params, where)
    else:
        text = repr(params)
        if text not in rankings:
            rankings[text] = exercise_rankings(params, where)[0]
        ranking = rankings[text]
    return [(metric.name, compute(ranking, **metric_options))]


def _plain_metric(solver: str):
    """(the registry's metric, its plain value, the options that covers)."""
    metric = REGISTRY.get(solver)
    if metric is None or metric.name not in PLAIN:
        raise Unsupported(f"solver {solver!r}")
    return (metric, *PLAIN[metric.name])
