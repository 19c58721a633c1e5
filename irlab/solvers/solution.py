"""What every solver returns: a :class:`Solution` of :class:`Answer` s, each a traced, renderable result.

The solver modules (aggregation, map_bounds, multi_query, extended, pooling) import these from here, and the
package ``irlab.solvers`` re-exports them with its solvers, so no solver module imports its own package back.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..display import solution_document
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
        return solution_document(self).render("html")

    @property
    def primary(self) -> list[Answer]:
        return [a for a in self.answers if a.primary]
