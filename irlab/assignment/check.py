"""Checking one submission cell by cell: right, wrong with the bug that reproduces it, or wrong with no known cause.

Reproduce, don't guess — and a student's code applies a bug to every topic. A bug is named for a measure of a system
only when recomputing every cell of that (system, measure) that the bug changes (the topics and the mean row) gives
the student's number there: one cell it changes that the student wrote otherwise (right, or wrong another way) and
the bug is not named on any of them, so a bug that lands on the student's number by coincidence on one or two cells
is not named. A missing number is no evidence either way (unless the bug leaves that row out). Every bug that passes
is named. Wrong cells no single bug explains are tried under pairs of bugs that change different settings
(``Bug.compatible``), the same rule over the same cells, at most MAX_BUG_PAIRS pairs per (system, measure). A pair
is named on a cell as the one bug of it that changes the cell when the other changes nothing there.

Each bug is reported once with all its cells: alone, or together with another bug's finding (two bugs that only ever
come together are one finding, A + B). A number outside the measure's range is called impossible; a cell with no
number has its own finding.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from itertools import combinations

from ..limits import MAX_BUG_PAIRS
from .catalogue import MEAN, METRIC_RANGE, Bug, expanded
from .compute import ABSENT, Calculator, matches, printed
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
    explanations: tuple = ()  # tuples of Bugs (one, or a pair) reproducing the student's number under the rule above

    @property
    def impossible(self) -> bool:
        """A wrong number no value of the measure can be (P@10 = 1.100)."""
        return not self.right and self.given is not None and _out_of_range(self.cell, self.given)


def unit_name(unit: tuple) -> str:
    return " or ".join(" + ".join(b.name for b in bugs) for bugs in unit)


@dataclass(frozen=True)
class Finding:
    """Wrong cells and what reproduces them. ``units`` are the bugs named (each unit a tuple of alternatives, tuples of
    Bugs, that give the same numbers here; two units when the bugs only ever come together: A + B); ``partners`` says,
    per verdict, the unit of another finding this one takes along on that cell (None: alone). ``kind`` is
    "explained", "no-known-cause", "impossible" or "no-number"."""

    kind: str
    verdicts: tuple
    units: tuple = ()
    partners: tuple = ()

    @property
    def explanations(self) -> tuple:
        """Every bug tuple the finding names: one from each unit."""
        combined = [()]
        for unit in self.units:
            combined = [done + bugs for done in combined for bugs in unit]
        return tuple(combined) if self.units else ()

    @property
    def name(self) -> str:
        if not self.units:
            return self.kind
        names = [unit_name(u) for u in self.units]
        return " + ".join(f"({n})" if len(u) > 1 and len(self.units) > 1 else n for n, u in zip(names, self.units))

    def only(self, keep) -> "Finding":
        """The finding restricted to the verdicts ``keep`` accepts."""
        pairs = [(v, p) for v, p in zip(self.verdicts, self.partners or [None] * len(self.verdicts)) if keep(v)]
        return Finding(self.kind, tuple(v for v, _ in pairs), self.units, tuple(p for _, p in pairs))


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
        self.bugs = expanded(assignment.bugs, assignment.decimals)

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
        return [bug for bug in self.bugs if bug.touches(cell.measure.metric, cell.topic is None)
                and any(settings[name] != choice for name, choice in bug.overrides)]

    def _settings(self, cell: Cell, bugs: tuple) -> dict:
        settings = dict(cell.measure.settings)
        for bug in bugs:
            if bug.touches(cell.measure.metric, cell.topic is None):
                settings.update(bug.overrides)
        return settings

    def _printed(self, cell: Cell, bugs: tuple):
        settings = self._settings(cell, bugs)
        return printed(self.value(cell, settings), self.assignment.decimals, settings["rounding"])

    def _reproduces(self, cell: Cell, given, bugs: tuple) -> bool:
        settings = self._settings(cell, bugs)
        return self._matches(given, self.value(cell, settings), settings)

    def _consistent(self, scope: list, sheet: "_Sheet", bugs: tuple) -> bool:
        """Whether ``bugs`` give the student's number on every cell of ``scope`` they change (the rule above)."""
        for cell in scope:
            given = sheet.givens[cell]
            value = self.value(cell, self._settings(cell, bugs))
            if given is None and value is not ABSENT:
                continue  # no number: no evidence
            if value is ABSENT and given is not None and sheet.right[cell]:
                continue  # a row for a topic the bug leaves out, with the assignment's value: the mean decides
            if not self._reproduces(cell, given, bugs) and self._printed(cell, bugs) != self._printed(cell, ()):
                return False
        return True

    def _attempt(self, bugs: tuple, targets: list, scope: list, sheet: "_Sheet") -> None:
        """Name ``bugs`` on the target cells they reproduce, if they obey the rule over ``scope``."""
        targeted = set(targets)  # the wrong cells first: most bugs fail the rule on the first one they change
        if not self._consistent(targets + [c for c in scope if c not in targeted], sheet, bugs):
            return
        reproduced = [cell for cell in targets if self._reproduces(cell, sheet.givens[cell], bugs)]
        # evidence is a number the student wrote; a missing row alone names nothing
        if any(sheet.givens[c] is not None for c in reproduced):
            for cell in reproduced:
                sheet.found[cell].append(bugs)

    def _explain(self, sheet: "_Sheet", wrong: list) -> None:
        """Fill ``sheet.found`` for the wrong cells: single bugs first, then pairs for the cells none explains. A bug
        of the printed number or the mean row (``table_wide``) is one function of the student's code for every
        column, so its rule runs over the whole table; any other over its measure's column, every system."""
        columns: dict = {}
        for cell in sheet.cells:
            columns.setdefault(cell.measure.column, []).append(cell)
        touching = {column: {id(bug) for cell in scope for bug in self.applicable(cell)}  # bugs by identity: cheap
                    for column, scope in columns.items()}

        def runs(bugs, targets):
            if any(_table_wide(bug) for bug in bugs):
                return [(targets, sheet.cells)] if targets else []
            mine = {}
            for cell in targets:
                mine.setdefault(cell.measure.column, []).append(cell)
            return [(cells, columns[column]) for column, cells in mine.items()
                    if all(id(bug) in touching[column] for bug in bugs)]

        for bug in self.bugs:
            for targets, scope in runs((bug,), wrong):
                self._attempt((bug,), targets, scope, sheet)
        left = [cell for cell in wrong if not sheet.found[cell]]
        if left:
            pairs = [(a, b) for a, b in combinations(self.bugs, 2) if a.compatible(b)][:MAX_BUG_PAIRS]
            for pair in pairs:
                for targets, scope in runs(pair, left):
                    self._attempt(pair, targets, scope, sheet)
        for cell in left:  # a pair's bug that changes nothing on this cell is not named on it
            sheet.found[cell] = list(dict.fromkeys(self._needed(cell, pair) for pair in sheet.found[cell]))

    def _needed(self, cell: Cell, pair: tuple) -> tuple:
        both = self._printed(cell, pair)
        for bug in pair:
            if self._printed(cell, (bug,)) == both:
                return (bug,)
        return pair

    def check(self, root) -> Outcome:
        submission = read_submission(self.assignment, root)
        return self.check_submission(submission)

    def check_submission(self, submission: Submission) -> Outcome:
        cells = self.cells()
        givens = {cell: submission.cells.get((cell.system, cell.topic, cell.measure.column)) for cell in cells}
        references = {cell: self.value(cell, cell.measure.settings) for cell in cells}
        right = {cell: self._matches(givens[cell], references[cell], cell.measure.settings) for cell in cells}
        wrong = [cell for cell in cells if not right[cell] and not (givens[cell] is not None and
                                                                    _out_of_range(cell, givens[cell]))]
        sheet = _Sheet(cells, givens, right, {cell: [] for cell in wrong})
        if wrong and submission.cells:  # a file with no readable number reproduces nothing: every cell is missing
            self._explain(sheet, wrong)
        verdicts = [Verdict(cell, givens[cell], references[cell], right[cell], tuple(sheet.found.get(cell, ())))
                    for cell in cells]
        outcome = Outcome(self.assignment, submission, verdicts, checker=self)
        outcome.findings = _findings(verdicts)
        return outcome


@dataclass
class _Sheet:
    """One submission being checked: its numbers, which are right, and the explanations found so far."""

    cells: list
    givens: dict
    right: dict
    found: dict


def _table_wide(bug: Bug) -> bool:
    return MEAN in bug.measures


def _out_of_range(cell: Cell, given: Given) -> bool:
    low, high = METRIC_RANGE[cell.measure.metric]
    return not low <= given.value <= high


def _units(explanations: tuple) -> tuple:
    """The alternatives of one cell as units: a bug every alternative shares is a unit of its own, the rest one unit
    of alternatives (ap-over-relevant-retrieved or r-from-run)."""
    common = [bug for bug in explanations[0] if all(bug in bugs for bugs in explanations)]
    rest = tuple(dict.fromkeys(tuple(b for b in bugs if b not in common) for bugs in explanations))
    return tuple(((bug,),) for bug in common) + ((rest,) if any(rest) else ())


def _findings(verdicts) -> list[Finding]:
    """One finding per bug (unit) with every cell it takes part in, the most cells first; then the unexplained,
    impossible and missing numbers.

    A cell several explanations reproduce is listed under those that explain the most cells of this submission; the
    others stay on the verdict as alternatives."""
    count: dict = {}
    for verdict in verdicts:
        for bugs in verdict.explanations:
            count[bugs] = count.get(bugs, 0) + 1
    cells: dict = {}  # unit -> [(verdict, partner unit or None)]
    rest: dict = {"no-known-cause": [], "impossible": [], "no-number": []}
    for verdict in verdicts:
        if verdict.right:
            continue
        if verdict.impossible:
            rest["impossible"].append(verdict)
            continue
        if not verdict.explanations:
            rest["no-number" if verdict.given is None else "no-known-cause"].append(verdict)
            continue
        best = max(count[bugs] for bugs in verdict.explanations)
        units = _units(tuple(bugs for bugs in verdict.explanations if count[bugs] == best))
        for unit in units:
            partner = next((u for u in units if u != unit), None)
            cells.setdefault(unit, []).append((verdict, partner))
    findings, merged = [], set()
    for unit, entries in cells.items():
        if unit in merged:
            continue
        partners = {partner for _, partner in entries}
        only = next(iter(partners)) if len(partners) == 1 else None
        # two bugs that only ever come together, on the same cells, are one finding: A + B
        if only is not None and {p for _, p in cells[only]} == {unit} and len(cells[only]) == len(entries):
            merged.add(only)
            findings.append(Finding("explained", tuple(v for v, _ in entries), (unit, only), (None,) * len(entries)))
        else:
            findings.append(Finding("explained", tuple(v for v, _ in entries), (unit,), tuple(p for _, p in entries)))
    findings.sort(key=lambda f: -len(f.verdicts))
    return findings + [Finding(kind, tuple(found)) for kind, found in rest.items() if found]
