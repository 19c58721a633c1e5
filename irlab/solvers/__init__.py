"""Solvers for textbook exercise shapes; each returns a :class:`Solution` of traced, renderable answers.

A solver is a function of the exercise's parameters and the question's options. Metrics from
``irlab.metrics`` act as solvers too (see :func:`irlab.exercise_set.solve_question`).
"""

from __future__ import annotations

from .aggregation import aggregate_relevance, judgments_columns
from .map_bounds import map_bounds
from .multi_query import f_macro_micro
from .solution import Answer, Solution

__all__ = ["Answer", "Solution", "aggregate_relevance", "judgments_columns", "map_bounds", "f_macro_micro"]
