"""Solvers for textbook exercise shapes; each returns a :class:`Solution` of traced, renderable answers.

A solver is a function of the exercise's parameters and the question's options. Metrics from
``irlab.metrics`` act as solvers too (see :func:`irlab.exercise_set.solve_question`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..metric import Result


@dataclass
class Answer:
    """One value a question asks for, with the computation that explains it."""

    label: str
    result: Result
    primary: bool = True  # False for an alternative reading shown beside the answer

    @property
    def value(self):
        return self.result.value


@dataclass
class Solution:
    answers: list[Answer]
    notes: list = field(default_factory=list)  # blocks shown before the answers: notes, shared tables
    choice: frozenset | None = None  # a choice question: the letters of the right options (graded as letters)

    def _repr_html_(self) -> str:  # Jupyter: every answer with its explanation, typeset (irlab.display)
        from ..display import solution_document

        return solution_document(self).render("html")

    @property
    def primary(self) -> list[Answer]:
        return [a for a in self.answers if a.primary]


from .aggregation import aggregate_relevance, judgments_columns  # noqa: E402
from .map_bounds import map_bounds  # noqa: E402
from .multi_query import f_macro_micro  # noqa: E402

__all__ = ["Answer", "Solution", "aggregate_relevance", "judgments_columns", "map_bounds", "f_macro_micro"]
