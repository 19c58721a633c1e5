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
per draw). Everything else — other solvers, DCG and nDCG (their values are sympy expressions, the plain ones
doubles), a choice — is solved with its explanation as before. tests/test_plain_key.py checks on random draws of
every variant exercise that both keys agree and grade answers alike.
"""

from __future__ import annotations

from fractions import Fraction

from .. import exact
from ..exercise_set import Where
from ..metric import Result
from ..metrics import REGISTRY
from ..solvers.solution import Answer, Solution
from .drawing import solve_once
from .plain_answers import names_parameters, plain_parts

# solvers whose results' metric, title and symbol depend on the question's options only (for a nonzero value)
_SAME_WORDING = frozenset({"precision", "recall", "f", "ap", "iprec", "prec-at-recall", "rr", "kappa", "aggregate"})


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

# The parts (metric, label, symbol, exact value) of each question on each draw solved with its explanation (DCG,
# nDCG, any solver or draw the plain values above do not cover): a draw some student had before is the same
# question on the same parameters, so its key is made from them. By the question object's id and the parameters'
# repr, the question kept alive beside them. A large class repeats a third of its short rankings' draws (12,500 students: 3,558 of 12,500).
_DRAWN: dict = {}
_DRAWN_SIZE = 32768  # about 1 KiB each (a sympy value, a repr): 12,500 students' draws of two such questions


def _shortcut_allowed(question) -> bool:
    if question.solver == "aggregate":
        name = "aggregate"
    else:
        metric = REGISTRY.get(question.solver)
        name = metric.name if metric is not None else None
    return name in _SAME_WORDING and not names_parameters(question)


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
    if _shortcut_allowed(question):
        found = _LEARNED.get(id(question))
        if (found is None or found[0] is not question) and _all_nonzero(a.result.value for a in answers):
            if len(_LEARNED) >= _LEARNED_SIZE:
                _LEARNED.clear()
            _LEARNED[id(question)] = (question, tuple((a.result.metric, a.label, a.result.symbol) for a in answers))
    if len(_DRAWN) >= _DRAWN_SIZE:
        del _DRAWN[next(iter(_DRAWN))]  # the oldest
    _DRAWN[id(question), params_text] = (question, tuple((a.result.metric, a.label, a.result.symbol, a.value)
                                                         for a in answers))


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
    try:
        values = [value for _, value in plain_parts(params, question, where, memo)]
    except Exception:  # not covered, or refused: the explained solver decides, in its own words
        return None
    wording = learned[1]
    if len(values) != len(wording) or not _all_nonzero(values):
        return None
    return _solution([(*worded, exact.rational(value)) for worded, value in zip(wording, values)], params, question,
                     where)


def _solution(parts, params: dict, question, where: Where) -> Solution:
    """A Solution of ``parts`` (metric, label, symbol, exact value), explained when first read."""
    solving = _Solving(params, question, where)
    return Solution([Answer(label, PlainResult(metric, value, symbol, solving, index))
                     for index, (metric, label, symbol, value) in enumerate(parts)])


def clear_plain_keys() -> None:
    """Forget every question's learned wording and every draw's parts."""
    _LEARNED.clear()
    _DRAWN.clear()
