"""Answer keys made from plain values, their explanation solved only when something reads it.

A key's part holds the question's explained Result, but grading most answers reads only its exact value and symbol:
a right, blank or unreadable answer, and a wrong one no named mistake explains. The diagnosis of a named mistake
reads its trace (the step where the mistake departs), the key document its explanation. For the rational metrics
below, :mod:`irlab.homework.plain_answers` gives the very value the explained solver gives, for a fraction of the
cost; so a key is made from those values, with each part's metric, label and symbol as the explained solver gave
them for an earlier draw of the same question, and a :class:`PlainResult` that solves the question with its
explanation the first time anything else is read (and is that Result from then on).

Why the metric, label and symbol carry over from one draw to another, for the solvers in ``_SAME_WORDING``: their
code (irlab.metrics.set_based, average_precision, interpolation, reciprocal_rank, agreement;
irlab.solvers.aggregation) builds them from the question's options alone (the cut-off's "@k", the recall level,
β), except where the value is 0 (no relevant document, a recall level never reached: iprec's symbol is then
"iprec"). So a question's wording is learned only from a solution whose values are all nonzero, used only for
values that are all nonzero, and never for a question whose options name a parameter (k = "{length}" changes "@k"
per draw).

DCG, IDCG and nDCG (``_VALUE_WORDING``) have sympy values, which the plain doubles are not: their exact value comes
from :data:`irlab.metrics.dcg.VALUE_ONLY`, the very tree the explained solver builds, without its explanation.
Their wording depends on the options alone whatever the value (irlab.metrics.dcg: the symbol is "DCG", "IDCG" or
"nDCG" with Cut.of's "@k", which names k even beyond the ranking's length, and an nDCG whose IDCG is 0 keeps it),
so it is learned from any value; a draw of several rankings (a mean over queries, worded otherwise), systems or
counts, a gain table or scores (ties) are solved with their explanation. Everything else — other solvers, a
choice — is solved with its explanation as before. tests/test_plain_key.py checks on random draws of every variant
exercise that both keys agree and grade answers alike, tests/test_dcg_value.py the DCG values and their wording.
"""

from __future__ import annotations

from fractions import Fraction

from .. import exact
from ..exercise_inputs import exercise_rankings
from ..exercise_set import Where, solver_options
from ..metric import Result
from ..metrics import REGISTRY
from ..metrics.dcg import VALUE_ONLY
from ..solvers.solution import Answer, Solution
from .drawing import solve_once
from .plain_answers import names_parameters, plain_parts

# solvers whose results' metric, title and symbol depend on the question's options only (for a nonzero value)
_SAME_WORDING = frozenset({"precision", "recall", "f", "ap", "iprec", "prec-at-recall", "rr", "kappa", "aggregate"})
# solvers whose results' metric, title and symbol depend on the question's options only, whatever the value, and
# whose exact value irlab.metrics.dcg gives without the explanation
_VALUE_WORDING = frozenset(VALUE_ONLY)


class _Solving:
    """One question's explained solution for one draw, solved on first need and shared by the key's parts."""

    __slots__ = ("params", "question", "where", "solution")

    def __init__(self, params: dict, question, where: Where):
        self.params, self.question, self.where, self.solution = params, question, where, None

    def result(self, index: int) -> Result:
        if self.solution is None:
            self.solution = solve_once(self.params, self.question, self.where)
        return (self.solution.primary or self.solution.answers)[index].result


class PlainResult(Result):
    """A part's Result whose metric, exact value and symbol are known without its explanation; reading anything
    else (its trace, notes, tables, a rendering) solves the question and reads the explained Result's."""

    def __init__(self, metric: str, value, symbol: str, solving: _Solving, index: int):  # (no Result.__init__)
        self.metric, self._value, self._symbol, self._solving, self._index = metric, value, symbol, solving, index

    @property
    def value(self):
        return self._value

    @property
    def symbol(self) -> str:
        return self._symbol

    def __getattr__(self, name: str):  # only for what this object does not hold itself
        if name.startswith("_"):  # (copy and pickle probe for these before any attribute is set)
            raise AttributeError(name)
        return getattr(self._solving.result(self._index), name)


# The wording (metric, label, symbol) of each part of a question, learned from one explained solution of it: by
# the question object's id, the question kept alive beside it (a variant shares its questions with the set as read).
_LEARNED: dict = {}
_LEARNED_SIZE = 1024  # questions of the sets graded lately; emptied when full

# The parts (metric, label, symbol, exact value) of each question on each draw solved with its explanation (any
# solver or draw the plain values above do not cover) or made from a DCG's exact value: a draw some student had
# before is the same question on the same parameters, so its key is made from them. By the question object's id and
# the parameters' repr, the question kept alive beside them. A large class repeats a third of its short rankings'
# draws (12,500 students: 3,558 of 12,500).
_DRAWN: dict = {}
_DRAWN_SIZE = 32768  # about 1 KiB each (a sympy value, a repr): 12,500 students' draws of two such questions


def _shortcut_metric(question) -> str | None:
    """The name of the question's metric when the shortcut may be taken for it (its wording carries over), else None."""
    if question.solver == "aggregate":
        name = "aggregate"
    else:
        metric = REGISTRY.get(question.solver)
        name = metric.name if metric is not None else None
    if (name in _SAME_WORDING or name in _VALUE_WORDING) and not names_parameters(question):
        return name
    return None


def _all_nonzero(values) -> bool:
    return all(type(value) in (int, Fraction) and value != 0 for value in values)


def learn(question, params_text: str, solution) -> None:
    """Remember what ``solution``, ``question`` solved on the parameters whose repr is ``params_text``, tells other
    keys: the wording of its parts when it carries over to other draws (see the module's docstring; once per
    question), and, for an explained solution, its parts for the same draw."""
    if solution.choice is not None or question.solver == "free-text":
        return
    answers = solution.primary or solution.answers
    if not answers or isinstance(answers[0].result, PlainResult):
        return
    name = _shortcut_metric(question)
    if name is not None:
        found = _LEARNED.get(id(question))
        if (found is None or found[0] is not question) and (name in _VALUE_WORDING
                                                            or _all_nonzero(a.result.value for a in answers)):
            if len(_LEARNED) >= _LEARNED_SIZE:
                _LEARNED.clear()
            _LEARNED[id(question)] = (question, tuple((a.result.metric, a.label, a.result.symbol) for a in answers),
                                      name)
    _remember(question, params_text, tuple((a.result.metric, a.label, a.result.symbol, a.value) for a in answers))


def _remember(question, params_text: str, parts: tuple) -> None:
    if len(_DRAWN) >= _DRAWN_SIZE:
        del _DRAWN[next(iter(_DRAWN))]  # the oldest
    _DRAWN[id(question), params_text] = (question, parts)


def plain_solution(params: dict, question, where: Where, params_text: str, memo: dict | None = None) \
        -> Solution | None:
    """The primary answers of ``question`` solved on ``params`` (``params_text``: their repr), as the explained
    solver gives them, made from plain values or a repeated draw's with the explanation solved on first need; None
    when that is not proven the same (then solve it). ``memo``: plain_answers' memo of this draw."""
    drawn = _DRAWN.get((id(question), params_text))
    if drawn is not None and drawn[0] is question:
        return _solution(drawn[1], params, question, where)
    learned = _LEARNED.get(id(question))
    if learned is None or learned[0] is not question:
        return None
    wording, name = learned[1], learned[2]
    if name in _VALUE_WORDING:
        value = _exact_value(name, params, question, where)
        if value is None or len(wording) != 1:
            return None
        parts = ((*wording[0], value),)
        _remember(question, params_text, parts)  # a repeated draw: found above, without computing it again
        return _solution(parts, params, question, where)
    try:
        values = [value for _, value in plain_parts(params, question, where, memo)]
    except Exception:  # not covered, or refused: the explained solver decides, in its own words
        return None
    if len(values) != len(wording) or not _all_nonzero(values):
        return None
    return _solution([(*worded, exact.rational(value)) for worded, value in zip(wording, values)], params, question,
                     where)


def _exact_value(name: str, params: dict, question, where: Where):
    """The exact value the explained solver gives ``question`` (a metric of VALUE_ONLY) on ``params``: the metric of
    the draw's one ranking (parameters.ranking), as solve_question computes it; None for anything else (systems,
    counts, rankings: a list of one or a mean over several, worded otherwise), for an empty ranking or the
    empty_ranking convention (irlab.metrics.empty scores it around the metric), for what VALUE_ONLY does not cover,
    and for a refusal (the solver words it)."""
    if "systems" in params or "counts" in params or "rankings" in params:
        return None
    try:
        (ranking,) = exercise_rankings(params, where)
        options = solver_options(question, params, where)
        if ranking.is_empty or "empty_ranking" in options:
            return None
        metric = REGISTRY[name]
        return VALUE_ONLY[name](ranking, **{k: options[k] for k in options if k in metric.option_names})
    except Exception:
        return None


def _solution(parts, params: dict, question, where: Where) -> Solution:
    """A Solution of ``parts`` (metric, label, symbol, exact value), explained when first read."""
    solving = _Solving(params, question, where)
    return Solution([Answer(label, PlainResult(metric, value, symbol, solving, index))
                     for index, (metric, label, symbol, value) in enumerate(parts)])


def clear_plain_keys() -> None:
    """Forget every question's learned wording and every draw's parts."""
    _LEARNED.clear()
    _DRAWN.clear()
