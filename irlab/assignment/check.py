"""Checking one submission cell by cell: right, wrong with the bug that reproduces it, or wrong with no known cause.

Reproduce, don't guess: a bug is named on a cell only when recomputing that cell under the bug (irlab's metrics, the
bug's settings) gives the student's number; every bug that does is named. A wrong cell no single bug explains is
tried under pairs of bugs that change different settings (``Bug.compatible``), at most MAX_BUG_PAIRS pairs per cell.
A bug (or pair) is reported once with every cell it explains.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from itertools import combinations

from ..limits import MAX_BUG_PAIRS
from .catalogue import Bug
from .compute import ABSENT, Calculator, matches
from .spec import Assignment, Measure
from .submission import Given, Submission, read_submission


@dataclass(frozen=True)
class Cell:
    system: str
    topic: str | None  # None: the mean row
    measure: Measure

    @property
    def label(self) -> str:
        where = "the mean" if self.topic is None else f"topic {self.topic}"
        return f"system {self.system}, {where}, {self.measure.column}"


@dataclass(frozen=True)
class Verdict:
    cell: Cell
    given: Given | None
    reference: object  # exact value, or ABSENT
    right: bool
    explanations: tuple = ()  # tuples of Bugs (one, or a pair) reproducing the student's number


@dataclass(frozen=True)
class Finding:
    """Wrong cells and what reproduces them: one or more explanations (each a bug, or a pair of bugs) that all give
    the student's numbers on exactly these cells; none for the cells no explanation reproduces."""

    explanations: tuple  # of tuples of Bugs; () for no known cause
    verdicts: tuple

    @property
    def name(self) -> str:
        if not self.explanations:
            return "no-known-cause"
        return " or ".join(" + ".join(b.name for b in bugs) for bugs in self.explanations)


@dataclass
class Outcome:
    assignment: Assignment
    submission: Submission
    verdicts: list
    findings: list = field(default_factory=list)
    checker: "Checker | None" = None  # the checker whose cached values made it (the report recomputes bug values)

    def measure_score(self, measure: Measure) -> tuple[int, int, Fraction]:
        """(right cells, cells, points) of one measure: its points in proportion to the right cells."""
        mine = [v for v in self.verdicts if v.cell.measure is measure]
        right = sum(v.right for v in mine)
        return right, len(mine), measure.points * right / len(mine) if mine else Fraction(0)

    @property
    def score(self) -> Fraction:
        return sum((self.measure_score(m)[2] for m in self.assignment.measures), Fraction(0))


class Checker:
    """Checks submissions against one assignment; the collection's values are computed once for all of them."""

    def __init__(self, assignment: Assignment):
        self.assignment = assignment
        self.calculator = Calculator(assignment.collection, assignment.decimals)

    def cells(self) -> list[Cell]:
        collection = self.assignment.collection
        return [Cell(system, topic, measure) for system in collection.systems
                for topic in (*collection.topics, None) for measure in self.assignment.measures]

    def value(self, cell: Cell, settings: dict):
        return self.calculator.cell(cell.system, cell.topic, cell.measure.metric, cell.measure.k, settings)

    def _matches(self, given: Given | None, value, settings: dict) -> bool:
        a = self.assignment
        return matches(None if given is None else given.value, value, settings["rounding"], a.decimals, a.tolerance)

    def applicable(self, cell: Cell) -> list[Bug]:
        """The bugs that touch this cell's measure and change at least one of its settings."""
        settings = cell.measure.settings
        return [bug for bug in self.assignment.bugs if bug.touches(cell.measure.metric, cell.topic is None)
                and any(settings[name] != choice for name, choice in bug.overrides)]

    def _reproduces(self, cell: Cell, given, bugs: tuple) -> bool:
        settings = dict(cell.measure.settings)
        for bug in bugs:
            settings.update(bug.overrides)
        return self._matches(given, self.value(cell, settings), settings)

    def explain(self, cell: Cell, given) -> tuple:
        """Every bug whose recomputation of this wrong cell gives the student's number; else every compatible pair
        that does (the first MAX_BUG_PAIRS pairs in catalogue order)."""
        bugs = self.applicable(cell)
        single = tuple((bug,) for bug in bugs if self._reproduces(cell, given, (bug,)))
        if single:
            return single
        pairs = [(a, b) for a, b in combinations(bugs, 2) if a.compatible(b)][:MAX_BUG_PAIRS]
        return tuple(pair for pair in pairs if self._reproduces(cell, given, pair))

    def check(self, root) -> Outcome:
        submission = read_submission(self.assignment, root)
        return self.check_submission(submission)

    def check_submission(self, submission: Submission) -> Outcome:
        verdicts = []
        for cell in self.cells():
            given = submission.cells.get((cell.system, cell.topic, cell.measure.column))
            reference = self.value(cell, cell.measure.settings)
            right = self._matches(given, reference, cell.measure.settings)
            # a file with no readable number reproduces nothing: every cell is simply missing
            explanations = () if right or not submission.cells else self.explain(cell, given)
            verdicts.append(Verdict(cell, given, reference, right, explanations))
        outcome = Outcome(self.assignment, submission, verdicts, checker=self)
        outcome.findings = _findings(verdicts)
        return outcome


def _findings(verdicts) -> list[Finding]:
    """One finding per bug (or pair) with the cells it explains, the most cells first, then the unexplained cells.

    A cell several explanations reproduce is listed under those that explain the most cells of this submission (a
    student with the cut-off one rank early reads one finding, not also a tie-order finding for the two cells where
    the tie order happens to give the same numbers); the others stay on the verdict as alternatives."""
    count: dict = {}
    for verdict in verdicts:
        for bugs in verdict.explanations:
            count[bugs] = count.get(bugs, 0) + 1
    grouped: dict = {}
    for verdict in verdicts:
        if verdict.right:
            continue
        best = max((count[bugs] for bugs in verdict.explanations), default=0)
        for bugs in [bugs for bugs in verdict.explanations if count[bugs] == best] or [()]:
            grouped.setdefault(bugs, []).append(verdict)
    merged: dict = {}  # explanations that reproduce exactly the same cells are one finding naming them all
    for bugs, cells in grouped.items():
        if bugs:
            merged.setdefault(tuple(id(v) for v in cells), (cells, []))[1].append(bugs)
    explained = [Finding(tuple(explanations), tuple(cells)) for cells, explanations in merged.values()]
    explained.sort(key=lambda f: -len(f.verdicts))
    unknown = grouped.get((), [])
    wrong = tuple(v for v in unknown if v.given is not None)
    missing = tuple(v for v in unknown if v.given is None)
    return explained + [Finding((), cells) for cells in (wrong, missing) if cells]
