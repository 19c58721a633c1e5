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
from ..schema import names_a_parameter
from ..solvers.aggregation import RULES, judgments_columns, relevant_by_rule

__all__ = ["plain_parts", "Undefined", "Unsupported"]


def _aggregate(params: dict, rule, memo: dict | None) -> list[tuple[str, object]]:
    """P, R and F of the retrieved set under the aggregation rule, as
    :func:`irlab.solvers.aggregation.aggregate_relevance` gives them."""
    if rule not in RULES or "retrieved" not in params or "judgments" not in params:
        raise Unsupported("not an aggregation this path covers")
    docs, columns = _judgments(params, memo)
    retrieved = [str(d) for d in params["retrieved"]]
    if not retrieved or any(d not in docs for d in retrieved) or len(set(retrieved)) != len(retrieved):
        raise Undefined("a retrieved set the solver refuses")
    relevant = {d for d, *votes in zip(docs, *columns) if relevant_by_rule(votes, rule)}
    if not relevant:
        raise Undefined("no relevant document: recall is undefined")
    hits = len(relevant & set(retrieved))
    p, r = Fraction(hits, len(retrieved)), Fraction(hits, len(relevant))
    return [("precision", p), ("recall", r), ("f", 0 if p + r == 0 else 2 * p * r / (p + r))]


_OTHER_INPUTS = frozenset({"rankings", "counts", "systems", "judges_table", "intents"})  # read otherwise


def plain_parts(params: dict, question, where: Where, memo: dict | None = None) -> list[tuple[str, object]]:
    """(part name, plain value) of each answer part of ``question`` on ``params``, as the explained solver gives its
    primary answers; raises :class:`Unsupported` for anything not covered. ``memo`` remembers, across the questions
    and named mistakes of one draw, each parameters dict's ranking and each (metric and options, parameters) pair's
    values: a dict kept only while those parameters dicts live and stay unchanged (one screen)."""
    if not _OTHER_INPUTS.isdisjoint(params):
        raise Unsupported("inputs the plain path does not read")
    return solved_parts(_prepared(question, params, where), params, where, memo)


def solved_parts(solver: "_Solver", params: dict, where: Where, memo: dict | None) -> list[tuple[str, object]]:
    """:func:`plain_parts` of the question ``solver`` reads (:func:`prepared`), on ``params`` that a plain_parts
    of this draw took (its check of the inputs passed)."""
    return _per_draw(memo, solver, params, lambda: solver.parts(params, where, memo))


def prepared(question, where: Where) -> "_Solver":
    """How :func:`plain_parts` reads ``question``, whose options name no parameter (the same on every draw); raises
    as plain_parts would on any parameters."""
    return _prepared(question, {}, where)


def _per_draw(memo: dict | None, kind, params: dict, make):
    """``make()``, once per ``kind`` (a name, or a _Solver) and parameters dict while ``memo`` lives; without a memo,
    each time. The entry keeps both alive, so the parameters' id names no other dict while the memo lives."""
    if memo is None:
        return make()
    key = (kind, id(params))
    found = memo.get(key)
    if found is None or found[0] is not params:
        found = memo[key] = (params, make())
    return found[1]


class _Solver:
    """How the plain path computes one question's parts: what its options make of it, independent of the draw
    (the parameters are read by :meth:`parts`). ``shared``: the solver of every question that reads the same way
    (see _prepared), whose values on a ranking are remembered (_VALUES)."""

    __slots__ = ("inputs", "name", "compute", "options", "shared")

    def __init__(self, inputs: str, name: str | None, compute, options):
        self.inputs, self.name, self.compute, self.options = inputs, name, compute, options
        self.shared = False

    def parts(self, params: dict, where: Where, memo: dict | None) -> list[tuple[str, object]]:
        if self.inputs == "aggregate":
            return _aggregate(params, self.options, memo)
        if self.inputs == "judges":
            columns = _judgments(params, memo)[1] if "judgments" in params else ()
            first, second = columns if len(columns) == 2 else judge_columns(params, where)  # (its error if any)
            return [(self.name, self.compute(first, second, **self.options))]
        ranking = _ranking(params, where, memo)
        if not self.shared:
            return [(self.name, self.compute(ranking, **self.options))]
        key = (id(self), id(ranking))
        found = _VALUES.get(key)
        if found is None or found[0] is not self or found[1] is not ranking:
            if len(_VALUES) >= _VALUES_SIZE:
                _VALUES.clear()
            found = _VALUES[key] = (self, ranking, [(self.name, self.compute(ranking, **self.options))])
        return found[2]


# A shared solver's parts on a ranking, by their ids (both kept alive in the entry, so neither id names another
# object while it lives): a ranking is read once per content (irlab.ranking.remembered) and frozen, and the parts
# depend on nothing else, so the diagnosis of a draw's answers finds the values its screen computed, and a draw
# that repeats another's ranking (a third of a large class's short rankings) finds them too. Only values are kept:
# a refusal (Unsupported, Undefined, an error) is raised again each time, in its words. The lists are shared:
# callers read them, never change them.
_VALUES: dict[tuple[int, int], tuple] = {}
_VALUES_SIZE = 1 << 12  # (solver, ranking) pairs, each keeping its ranking (a few KiB) alive: about as many as
# irlab.ranking remembers (REMEMBERED_SIZE), past which a ranking's content comes back as a new object anyway; a
# table of 32,768 held 19 MiB more at the peak of a 12,500-student class, its CPU the same within the noise.
# Emptied when full.


def _judgments(params: dict, memo: dict | None):
    """:func:`~irlab.solvers.aggregation.judgments_columns` of the parameters' judgments, once per draw."""
    return _per_draw(memo, "judgments", params, lambda: judgments_columns(params["judgments"]))


def _ranking(params: dict, where: Where, memo: dict | None):
    return _per_draw(memo, "ranking", params, lambda: exercise_rankings(params, where)[0])


# Solvers by question: a question whose options name no parameter ("{name}") is read the same way on every draw,
# so the questions of an exercise and of its named mistakes (irlab.homework.mistakes.rewrites keeps those) are read
# once. By the question object's id, the question kept alive beside it; equal readings share one _Solver, so the
# memo of plain_parts computes them once per draw.
_SOLVERS: dict[int, tuple[object, _Solver]] = {}
_SOLVERS_BY_READING: dict[tuple, _Solver] = {}
_SOLVERS_SIZE = 4096  # questions (a few per exercise, a dozen mistakes each); emptied when full


def _prepared(question, params: dict, where: Where) -> _Solver:
    found = _SOLVERS.get(id(question))
    if found is not None and found[0] is question:
        return found[1]
    solver = _read(question, solver_options(question, params, where))
    if not names_parameters(question):
        if len(_SOLVERS) >= _SOLVERS_SIZE:
            _SOLVERS.clear()
            _SOLVERS_BY_READING.clear()
        reading = (solver.inputs, solver.name, repr(sorted(solver.options.items()) if isinstance(solver.options, dict)
                                                      else solver.options))
        solver = _SOLVERS_BY_READING.setdefault(reading, solver)
        solver.shared = True
        _SOLVERS[id(question)] = (question, solver)
    return solver


def names_parameters(question) -> bool:
    """Whether an option of ``question`` is written "{name}" (k = "{length}"): read anew on each draw's parameters."""
    return any(map(names_a_parameter, question.options.values()))


def _read(question, options: dict) -> _Solver:
    if question.solver == "aggregate":
        return _Solver("aggregate", None, None, options.get("rule", "all"))
    metric, compute, accepted = _plain_metric(question.solver)
    metric_options = {k: v for k, v in options.items() if k in metric.option_names}
    if not accepted.issuperset(metric_options):
        raise Unsupported("an option the plain path does not cover")
    if metric.inputs not in ("judges", "ranking"):
        raise Unsupported("not a single ranking")
    return _Solver(metric.inputs, metric.name, compute, metric_options)


def _plain_metric(solver: str):
    """(the registry's metric, its plain value, the options that covers)."""
    metric = REGISTRY.get(solver)
    if metric is None or metric.name not in PLAIN:
        raise Unsupported(f"solver {solver!r}")
    return (metric, *PLAIN[metric.name])
