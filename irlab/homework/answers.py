"""Students' answers: read what they wrote, exactly, and compare it with the exact solution.

Accepted forms: integers (``3``), fractions (``21/50``, ``-1/3``), decimals (``0.42``, ``.42``, ``0,42``),
percentages (``42%``, ``42 %``, ``0,5%``). Blank or unreadable answers never raise: :func:`parse_answer`
returns a :class:`ParsedAnswer` whose ``problem`` says what is wrong, and such an answer is graded wrong.

Comparison (:func:`compare`) follows PrairieLearn: a relative tolerance (default ``1e-2``, with a tiny
absolute tolerance so that 0 can be matched), or ``decimals = d`` (the answer must lie within half a unit of
the d-th decimal), or ``form = "fraction"`` (the exact value is required: ``3/7``, not ``0.4286``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction

from .. import exact

DEFAULT_RTOL = Fraction(1, 100)
DEFAULT_ATOL = Fraction(1, 10**8)
FORMS = ("any", "fraction", "decimal")  # "decimal" (like "any"): a decimal within the tolerance is right

_FRACTION = re.compile(r"^[+-]?\d+\s*/\s*\d+$")
_DECIMAL = re.compile(r"^[+-]?(\d+([.,]\d*)?|[.,]\d+)$")


@dataclass(frozen=True)
class ParsedAnswer:
    """What a student wrote, read exactly. ``value`` is None when the answer is blank or unreadable."""

    raw: str
    value: Fraction | int | None
    form: str | None  # "integer" | "fraction" | "decimal" | "percent"
    problem: str | None = None

    @property
    def ok(self) -> bool:
        return self.value is not None

    @property
    def shown(self) -> str:
        """The answer as the student wrote it, for messages."""
        return self.raw.strip()


def parse_answer(raw) -> ParsedAnswer:
    """Read ``raw`` (text, int, float or Fraction) exactly; never raises.

    >>> parse_answer("21/50").value, parse_answer("0,42").value, parse_answer("42%").value
    (Fraction(21, 50), Fraction(21, 50), Fraction(21, 50))
    >>> parse_answer("").problem
    'no answer given'
    """
    if raw is None:
        return ParsedAnswer("", None, None, "no answer given")
    if isinstance(raw, bool):
        return ParsedAnswer(str(raw), None, None, f"{raw!r} is not a number")
    if isinstance(raw, int):
        return ParsedAnswer(str(raw), raw, "integer")
    if isinstance(raw, Fraction):
        return ParsedAnswer(str(raw), exact.rational(raw), "fraction")
    if isinstance(raw, float):
        if raw != raw or raw in (float("inf"), float("-inf")):
            return ParsedAnswer(repr(raw), None, None, f"{raw!r} is not a finite number")
        return ParsedAnswer(repr(raw), exact.rational(Fraction(repr(raw))), "decimal")
    text = str(raw)
    cleaned = text.strip().replace("\u2212", "-")
    if not cleaned:
        return ParsedAnswer(text, None, None, "no answer given")
    percent = cleaned.endswith("%")
    body = cleaned[:-1].strip() if percent else cleaned
    body = body.replace(" ", "") if _FRACTION.match(body) else body
    try:
        if _FRACTION.match(body):
            numerator, denominator = (int(part) for part in body.split("/"))
            if denominator == 0:
                return ParsedAnswer(text, None, None, f"{cleaned!r} divides by zero")
            value, form = Fraction(numerator, denominator), "fraction"
        elif _DECIMAL.match(body):
            value = Fraction(body.replace(",", "."))
            form = "decimal" if any(sep in body for sep in ".,") else "integer"
        else:
            return ParsedAnswer(text, None, None, f"{cleaned!r} is not a number (write e.g. 21/50, 0.42 or 42%)")
    except (ValueError, ZeroDivisionError):
        return ParsedAnswer(text, None, None, f"{cleaned!r} is not a number (write e.g. 21/50, 0.42 or 42%)")
    if percent:
        value, form = value / 100, "percent"
    return ParsedAnswer(text, exact.rational(value), form)


@dataclass(frozen=True)
class Tolerance:
    """How close an answer must be: relative tolerance, a number of decimals, or the exact value."""

    rtol: Fraction = DEFAULT_RTOL
    decimals: int | None = None
    form: str = "any"

    @classmethod
    def of(cls, options: dict) -> "Tolerance":
        """From a question's options (``tolerance``, ``decimals``, ``form`` keys of the exercise TOML)."""
        rtol = options.get("tolerance", DEFAULT_RTOL)
        rtol = exact.rational(Fraction(str(rtol))) if isinstance(rtol, float) else exact.parse_number(str(rtol))
        decimals = options.get("decimals")
        if decimals is not None:
            decimals = int(decimals)
        form = str(options.get("form", "any"))
        return cls(Fraction(rtol), decimals, form)

    def describe(self) -> str:
        if self.form == "fraction":
            return "the exact value is required"
        if self.decimals is not None:
            return f"correct to {self.decimals} decimal places"
        return f"within a relative tolerance of {exact.decimal_text(self.rtol, 6)}"


def rational_value(value) -> Fraction:
    """The value as a Fraction: exact for rationals, the decimal of a symbolic value."""
    if exact.is_symbolic(value):
        return Fraction(exact.to_float(value))
    return Fraction(value)


def close(given, expected, tolerance: Tolerance = Tolerance()) -> bool:
    """True when ``given`` (exact rational) is within the tolerance of ``expected`` (exact or symbolic)."""
    if given is None:
        return False
    if tolerance.form == "fraction" and not exact.is_symbolic(expected):
        return Fraction(given) == Fraction(expected)
    target = rational_value(expected)
    difference = abs(Fraction(given) - target)
    if tolerance.decimals is not None:
        return difference <= Fraction(1, 2 * 10**tolerance.decimals)
    return difference <= max(tolerance.rtol * abs(target), DEFAULT_ATOL)


@dataclass(frozen=True)
class Comparison:
    correct: bool
    message: str | None = None  # why an answer that is numerically right is still refused


def compare(parsed: ParsedAnswer, expected, tolerance: Tolerance = Tolerance()) -> Comparison:
    """Grade one parsed answer against the exact expected value."""
    if not parsed.ok:
        return Comparison(False, parsed.problem)
    if tolerance.form == "fraction" and not exact.is_symbolic(expected):
        if Fraction(parsed.value) == Fraction(expected):
            return Comparison(True)
        if close(parsed.value, expected, Tolerance()):
            return Comparison(False, f"{parsed.shown} is close, but this question asks for the exact fraction")
        return Comparison(False)
    return Comparison(close(parsed.value, expected, tolerance))
