"""What every metric shares: its declaration (name, formula, typed parameters) and its traced result."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from fractions import Fraction
from typing import Any, Callable

from . import exact, trace
from .conventions import Choice, Convention
from .document import Answer, Displayable, Document, Formula, Note, Paragraph, Section, Steps, Table
from .errors import InputTypeError, ParameterError
from .limits import MAX_CUTOFF, MAX_DIGITS, check_at_most, check_digits


@dataclass(frozen=True)
class Parameter:
    """A typed, described parameter of a metric (also a CLI option: --name)."""

    name: str
    kind: str  # "int" | "number" | "grade-list" | "ids" | "judgments"
    description: str
    default: Any = None


@dataclass(frozen=True)
class Metric:
    """A metric declaration: enough to list it, document it and call it from the CLI."""

    name: str
    title: str
    formula_text: str
    formula_latex: str
    compute: Callable[..., "Result"]
    reference: str
    inputs: str = "ranking"  # "ranking" | "judges" | "rankings-of-ids"
    parameters: tuple[Parameter, ...] = ()
    conventions: tuple[Convention, ...] = ()
    aliases: tuple[str, ...] = ()
    averaged_as: str | None = None  # name of the mean over queries, e.g. "MAP"

    @property
    def formula(self) -> Formula:
        return Formula(self.formula_text, self.formula_latex)

    @cached_property
    def option_names(self) -> frozenset[str]:
        """Every option the metric reads: its parameters' and its conventions' names."""
        return frozenset(p.name for p in self.parameters) | frozenset(c.name for c in self.conventions)


class Result(Displayable):
    """An exact metric value that remembers how it was computed and explains itself in every format.

    ``result.value`` is exact (int, Fraction or sympy expression), ``float(result)`` its decimal,
    ``result.steps`` the named intermediate values, and ``result.render(fmt)`` the explanation.
    """

    def __init__(
        self,
        metric: str,
        title: str,
        traced: trace.Traced,
        *,
        formula: Formula | None = None,
        conventions: dict[str, Choice] | None = None,
        parameters: dict[str, Any] | None = None,
        context: str | None = None,
        notes: list[Note] | tuple = (),
        tables: list[Table] | tuple = (),
        sections: list[Section] | tuple = (),
        support: list[trace.Traced] | tuple = (),
        ranking=None,
        ratio: tuple = (),
    ):
        self.metric = metric
        self.title = title
        self.traced = traced
        self.formula = formula
        self.conventions = dict(conventions or {})
        self.parameters = {k: v for k, v in (parameters or {}).items() if v is not None}
        if ranking is not None:  # the ranking explained: its one-line description and how it was obtained
            context = context or ranking.describe()
            notes = [Note("assumption", remark) for remark in ranking.remarks] + list(notes)
        self.context = context
        self.notes = list(notes)
        self.tables = list(tables)
        self.sections = list(sections)
        self.support = list(support)  # values explained before the result although it is not built from them
        self.ratio = tuple(ratio)  # (numerator, denominator) when the answer reads best as their quotient (nDCG)

    @property
    def value(self):
        return self.traced.value

    @property
    def decimal(self) -> float:
        return exact.to_float(self.value)

    @property
    def symbol(self) -> str:
        return self.traced.symbol or self.metric

    @property
    def steps(self):
        return Steps.of(*self.support, self.traced).steps

    def __float__(self) -> float:
        return self.decimal

    def __eq__(self, other):
        if isinstance(other, Result):
            return self.metric == other.metric and self.value == other.value
        if isinstance(other, (int, Fraction)):
            return self.value == other
        return NotImplemented

    def __hash__(self):
        return hash((self.metric, str(self.value)))

    def __repr__(self) -> str:
        return f"<Result {self.symbol} = {exact.value_text(self.value)}>"

    def convention_notes(self) -> list[Note]:
        return [
            Note("convention", f"{name} = {choice.key}: {choice.summary} ({choice.formula}; {choice.reference})")
            for name, choice in self.conventions.items()
        ]

    def blocks(self) -> list:
        blocks = [Paragraph(self.context)] if self.context else []
        blocks += self.convention_notes() + self.notes
        formula = self.formula or _declared_formula(self.metric)
        if formula:
            blocks.append(formula)
        blocks += [shortened(table) for table in self.tables] + self.sections
        blocks.append(Steps.of(*self.support, self.traced))
        blocks.append(Answer.of("Result", self.traced, self.symbol, self.ratio))
        return blocks

    def meta(self) -> dict:
        return {
            "metric": self.metric,
            "value": exact.exact_text(self.value),
            "decimal": self.decimal,
            "convention": {name: choice.key for name, choice in self.conventions.items()},
            "parameters": {k: _jsonable(v) for k, v in self.parameters.items()},
        }

    def document(self) -> Document:
        return Document(self.title, self.blocks(), self.meta())

    def section(self, title: str | None = None) -> Section:
        """This explanation as a section of a larger document (a solution, a mean over queries)."""
        return Section(title or self.title, tuple(self.blocks()), self.meta())

    def render(self, fmt: str = "text", **options) -> str:
        return self.document().render(fmt, **options)


SHOWN_ROWS = 25  # a longer table shows its first and last 25 rows (a TREC topic has 1,000 ranks; exercises fewer)


def shortened(table: Table) -> Table:
    """The table, or for a long one its first and last rows with a row saying how many are left out (the values
    are all in the result; the explanation stays readable and quick to write)."""
    if len(table.rows) <= 2 * SHOWN_ROWS + 1:
        return table
    hidden = len(table.rows) - 2 * SHOWN_ROWS
    gap = ("…",) * len(table.columns)
    caption = (f"{table.caption + ' ' if table.caption else ''}(the first and last {SHOWN_ROWS} of {len(table.rows):,} "
               f"rows; {hidden:,} rows in between not shown)")
    return Table(table.columns, table.rows[:SHOWN_ROWS] + (gap,) + table.rows[-SHOWN_ROWS:], caption)


# metric name -> the formula of its declaration, shown by a result that has none of its own; irlab.metrics
# fills it when it declares the metrics (the declarations import this module, so it cannot import them)
DECLARED_FORMULAS: dict[str, Formula] = {}


def declare_formulas(metrics) -> None:
    """Record the formula of each declared metric, for the results that do not give one."""
    DECLARED_FORMULAS.update((metric.name, metric.formula) for metric in metrics)


def _declared_formula(metric: str) -> Formula | None:
    return DECLARED_FORMULAS.get(metric)


def _jsonable(value):
    if isinstance(value, (int, str, bool, float)) or value is None:
        return value
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    return exact.exact_text(value)


# parameter checks shared by the metrics --------------------------------------------------------

def check_cutoff(k) -> int | None:
    if k is None:
        return None
    if isinstance(k, bool) or not isinstance(k, int):
        if isinstance(k, Fraction) and k.denominator == 1:
            k = int(k)
        elif isinstance(k, (str, float, Fraction)):
            raise ParameterError(f"cut-off k must be a positive integer, got {k!r}")
        else:
            raise InputTypeError(f"cut-off k must be a positive integer, got {type(k).__name__} {k!r}")
    if k <= 0:
        raise ParameterError(f"cut-off k must be a positive integer, got {k}")
    return check_at_most(k, MAX_CUTOFF, "cut-off k")


def check_fraction(value, name: str, low=0, high=1, *, low_open=False) -> Fraction | int:
    """A number parameter read exactly ('0.25', '1/4', '25%', 0.25 as written, Fraction(1, 4)) and range-checked."""
    if isinstance(value, bool) or not isinstance(value, (int, float, str, Fraction)):
        raise InputTypeError(f"{name} must be a number such as 0.25, '1/4' or '25%', got {type(value).__name__} {value!r}")
    try:
        if isinstance(value, str):
            number = exact.parse_number(value)
        else:  # a float means what it prints as: 0.33 is 33/100, not the binary number nearest to it
            number = exact.rational(Fraction(repr(value)) if isinstance(value, float) else value)
    except (ValueError, OverflowError):
        raise ParameterError(f"{name} must be a finite number such as 0.25, 1/4 or 25% (at most {MAX_DIGITS} digits), "
                             f"got {_shown(value)}") from None
    too_low = number <= low if low_open else number < low
    if too_low or (high is not None and number > high):
        interval = f"{'(' if low_open else '['}{low}, {high if high is not None else '∞'}{']' if high is not None else ')'}"
        raise ParameterError(f"{name} must lie in {interval}, got {_shown(value) if isinstance(value, str) else exact.exact_text(number)}")
    check_digits(number, name)
    return number


def _shown(value) -> str:
    """A number parameter as the user gave it, for a message (written only when there is one to give)."""
    return exact._clip(value) if isinstance(value, str) else repr(value)


@dataclass
class Cut:
    """A cut-off applied to a ranking: the ranks considered and how to say it."""

    k: int | None
    depth: int  # number of ranks actually looked at
    suffix: str = field(default="")  # '@5' or ''

    @classmethod
    def of(cls, ranking, k) -> "Cut":
        k = check_cutoff(k)
        depth = ranking.retrieved if k is None else min(k, ranking.retrieved)
        return cls(k, depth, f"@{k}" if k is not None else "")
