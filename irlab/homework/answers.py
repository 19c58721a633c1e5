"""Students' answers: read what they wrote, exactly, and compare it with the exact solution.

Accepted forms: integers (``3``), fractions (``21/50``, ``-1/3``), decimals (``0.42``, ``.42``, ``0,42``),
percentages (``42%``, ``42 %``, ``0,5%``). Blank or unreadable answers never raise: :func:`parse_answer`
returns a :class:`ParsedAnswer` whose ``problem`` says what is wrong, and such an answer is graded wrong — so is
an answer longer than :data:`irlab.limits.MAX_ANSWER_CHARS` characters (or a Python number with more digits), named as such.

Comparison (:func:`compare`) follows PrairieLearn's numeric questions, with both tolerances at once: an answer
is right when it lies within the relative tolerance (``tolerance``, default ``1e-2``) *or* within the absolute
tolerance (``abs_tolerance``, default ``1e-8``, so that 0 can be matched) of the exact value — or when it is the
exact value correctly rounded (half away from zero) to the decimals it shows, with at least ``min_decimals``
of them (default 2; ``accept_rounded = false`` turns this off). So ``0.07`` is right for 1/15 and ``0.09`` for
23/264 = 0.0871, which a relative tolerance alone would refuse. ``decimals = d`` requires the answer to lie
within half a unit of the d-th decimal; ``form = "fraction"`` requires the exact value (``3/7``, not ``0.4286``).

An answer that is *almost* right — the correct rounding but to fewer than ``min_decimals`` decimals ("rounded
too coarsely"), or within ``near_tolerance`` (relative, default 5e-2) of the exact value ("rounded too early")
— is a near miss (:func:`near_miss`): named as such and given ``rounding_credit`` (default 0) of the part.

Every option is read by :meth:`Tolerance.of`, which raises :class:`AnswerOptionError` naming the key; both live in
:mod:`irlab.answer_options` (with :data:`OPTION_KEYS`, what each key must be) and are importable from here too.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property, lru_cache

from .. import exact
# the answer-checking options live below irlab.schema, which checks them when a set is loaded; re-exported here, so
# ``from irlab.homework.answers import Tolerance, AnswerOptionError, OPTION_KEYS`` keeps working
from ..answer_options import (DEFAULT_ATOL, DEFAULT_MIN_DECIMALS, DEFAULT_NEAR_RTOL, DEFAULT_RTOL, FORMS, OPTION_KEYS,
                              AnswerOptionError, Tolerance, option_number)
from ..limits import MAX_ANSWER_CHARS

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

    # decimals, resolution and the double are read several times per answer graded: worked out once (a frozen
    # dataclass keeps a cached_property in its __dict__; equality and hashing still read the four fields only)
    @cached_property
    def decimals(self) -> int | None:
        """Decimal places of the value as written (``7%`` shows 2, ``0.070`` shows 3); None for an exact form.

        >>> parse_answer("0.070").decimals, parse_answer("6.7%").decimals, parse_answer("1/15").decimals
        (3, 3, None)
        """
        if self.form not in ("decimal", "percent"):
            return None
        body = self.shown.rstrip("%").strip().replace(",", ".")
        shown = len(body.split(".", 1)[1]) if "." in body else 0
        return shown + (2 if self.form == "percent" else 0)

    @cached_property
    def resolution(self) -> Fraction:
        """Half a unit of the last decimal written: the values this answer cannot tell apart lie this close.

        0 for an exact form (an integer or a fraction means exactly that value).
        """
        decimals = self.decimals
        return Fraction(0) if decimals is None else Fraction(1, 2 * 10**decimals)

    @cached_property
    def double(self) -> float | None:
        """The value as a finite double (:func:`as_float`), or None: the operand of the float-first checks."""
        return as_float(self.value)


def _digits(number: int) -> int:
    """About how many digits ``number`` has, without writing it out (Python refuses to print more than 4,300)."""
    return int(abs(number).bit_length() * 0.30103) + 1


def _too_long(number) -> bool:
    """A number the student gave as a Python int or Fraction whose digits exceed :data:`MAX_ANSWER_CHARS`."""
    if isinstance(number, Fraction):
        return _digits(number.numerator) + _digits(number.denominator) > MAX_ANSWER_CHARS
    return _digits(number) > MAX_ANSWER_CHARS


def answer_text(raw) -> str:
    """What a student gave, as text for feedback and reports; never raises (a number too long to write out is
    described by its size, an object whose ``str`` fails by its type).

    >>> answer_text(0.5), answer_text(10**5000)
    ('0.5', 'a number of about 5,001 digits')
    """
    if raw is None:
        return ""
    if isinstance(raw, (int, Fraction)) and not isinstance(raw, bool) and _too_long(raw):
        whole = raw if isinstance(raw, int) else raw.numerator
        kind = "number" if isinstance(raw, int) else "fraction"
        digits = _digits(whole) if isinstance(raw, int) else _digits(raw.numerator) + _digits(raw.denominator)
        return f"a {kind} of about {digits:,} digits"
    try:
        return raw if isinstance(raw, str) else str(raw)
    except Exception:  # whatever a notebook passes in: feedback says it cannot be read, check() never raises
        return f"an unprintable {type(raw).__name__}"


def parse_answer(raw) -> ParsedAnswer:
    """Read ``raw`` (text, int, float or Fraction) exactly; never raises.

    A text is read once: a class writes the same few thousand answers again and again (``0.5``, ``1/3``, blanks),
    and the diagnosis reads the answer it is given again; the :class:`ParsedAnswer` is immutable, so one object
    serves every time (:func:`parse_afresh` is the reading itself).

    >>> parse_answer("21/50").value, parse_answer("0,42").value, parse_answer("42%").value
    (Fraction(21, 50), Fraction(21, 50), Fraction(21, 50))
    >>> parse_answer("").problem, parse_answer(...).problem   # ... is a notebook's blank answer
    ('no answer given', 'no answer given')
    >>> parse_answer(10**5000).problem
    'the answer is a number of about 5,001 digits; irlab reads answers of at most 1,000 characters'
    """
    if type(raw) is str and len(raw) <= _REMEMBERED_CHARS:
        return _read_text(raw)
    return parse_afresh(raw)


def parse_afresh(raw) -> ParsedAnswer:
    """:func:`parse_answer` without remembering: every call reads ``raw`` afresh."""
    if raw is None or raw is ...:  # ... (Ellipsis): the blank a student version of a lesson hands out
        return ParsedAnswer("", None, None, "no answer given")
    if isinstance(raw, bool):
        return ParsedAnswer(str(raw), None, None, f"{raw!r} is not a number")
    if isinstance(raw, (int, Fraction)) and _too_long(raw):
        text = answer_text(raw)
        return ParsedAnswer(text, None, None, f"the answer is {text}; irlab reads answers of at most "
                                              f"{MAX_ANSWER_CHARS:,} characters")
    if isinstance(raw, int):
        return ParsedAnswer(str(raw), raw, "integer")
    if isinstance(raw, Fraction):
        return ParsedAnswer(str(raw), exact.rational(raw), "fraction")
    if isinstance(raw, float):
        if raw != raw or raw in (float("inf"), float("-inf")):
            return ParsedAnswer(repr(raw), None, None, f"{raw!r} is not a finite number")
        return ParsedAnswer(repr(raw), exact.rational(Fraction(repr(raw))), "decimal")
    text = answer_text(raw)
    cleaned = text.strip().replace("\u2212", "-")
    if not cleaned:
        return ParsedAnswer(text, None, None, "no answer given")
    if len(cleaned) > MAX_ANSWER_CHARS:
        return ParsedAnswer(text, None, None, f"the answer is {len(cleaned):,} characters long; irlab reads answers "
                                              f"of at most {MAX_ANSWER_CHARS:,} characters")
    percent = cleaned.endswith("%")
    body = cleaned[:-1].strip() if percent else cleaned
    fraction = _FRACTION.match(body) is not None
    try:
        if fraction:
            numerator, denominator = (int(part) for part in body.replace(" ", "").split("/"))
            if denominator == 0:
                return ParsedAnswer(text, None, None, f"{cleaned!r} divides by zero")
            value, form = Fraction(numerator, denominator), "fraction"
        elif _DECIMAL.match(body):
            value = _decimal_value(body)
            form = "decimal" if any(sep in body for sep in ".,") else "integer"
        else:
            return ParsedAnswer(text, None, None, f"{cleaned!r} is not a number (write e.g. 21/50, 0.42 or 42%)")
    except (ValueError, ZeroDivisionError):
        return ParsedAnswer(text, None, None, f"{cleaned!r} is not a number (write e.g. 21/50, 0.42 or 42%)")
    if percent:
        value, form = value / 100, "percent"
    return ParsedAnswer(text, exact.rational(value), form)


def _decimal_value(body: str) -> Fraction:
    """The exact value of a decimal that _DECIMAL matched ('-0,42', '.5', '3.'), in integers: what
    ``Fraction(body.replace(",", "."))`` gives, without reading the text again through Fraction's own pattern."""
    negative = body[0] == "-"
    whole, _, places = body.lstrip("+-").replace(",", ".").partition(".")
    numerator = int(whole + places)  # (the pattern leaves at least one digit, and one separator at most)
    return Fraction(-numerator if negative else numerator, 10 ** len(places))


# the texts remembered: a class's distinct answers (a 2,000-student class writes under 4,000 distinct ones); a longer
# text (beyond the longest answer read) is refused afresh each time rather than kept
_read_text = lru_cache(maxsize=8192)(parse_afresh)
_REMEMBERED_CHARS = MAX_ANSWER_CHARS + 16


def rational_value(value) -> Fraction:
    """The value as a Fraction: exact for rationals, the decimal of a symbolic value."""
    kind = type(value)
    if kind is Fraction:  # itself: Fraction(value) would copy it through the numbers ABCs
        return value
    if kind is int:
        return Fraction(value)
    if exact.is_symbolic(value):
        return Fraction(exact.to_float(value))
    return Fraction(value)


def as_fraction(value) -> Fraction:
    """An exact rational (int or Fraction) as a Fraction: a Fraction is returned as it is (immutable, and
    Fraction(value) would make a copy through the numbers ABCs, as often as an answer is compared)."""
    return value if type(value) is Fraction else Fraction(value)


def rounded(value: Fraction, decimals: int) -> Fraction:
    """``value`` rounded half away from zero to ``decimals`` places (as :func:`irlab.exact.decimal_text` shows it).

    >>> rounded(Fraction(1, 15), 2), rounded(Fraction(-1030, 10000), 2)
    (Fraction(7, 100), Fraction(-1, 10))
    """
    numerator, denominator = value.numerator, value.denominator  # floor(|value| 10^d + 1/2), in integers
    whole = (2 * abs(numerator) * 10**decimals + denominator) // (2 * denominator)
    return Fraction(whole if numerator >= 0 else -whole, 10**decimals)


def correctly_rounded(parsed: ParsedAnswer, expected, decimals: int | None = None) -> bool:
    """True when the answer is the exact value rounded to the decimals it shows (or to ``decimals``), and not 0
    for a non-zero value."""
    shown = parsed.decimals if decimals is None else decimals
    if shown is None or parsed.value is None:
        return False
    target = rational_value(expected)  # a logarithm's float: never on a rounding boundary in practice
    nearest = rounded(target, shown)
    return as_fraction(parsed.value) == nearest and (nearest != 0 or target == 0)


def close(given, expected, tolerance: Tolerance = Tolerance()) -> bool:
    """True when ``given`` (exact rational) is within the tolerance of ``expected`` (exact or symbolic).

    Relative and absolute tolerance together: ``|given - x| <= max(rtol * |x|, atol)``.
    """
    if given is None:
        return False
    if tolerance.form == "fraction" and not exact.is_symbolic(expected):
        return as_fraction(given) == as_fraction(expected)
    target = rational_value(expected)
    difference = abs(as_fraction(given) - target)
    if tolerance.decimals is not None:
        return difference <= Fraction(1, 2 * 10**tolerance.decimals)
    return difference <= max(tolerance.rtol * abs(target), tolerance.atol)


# Float-first: most answers are clearly right or clearly wrong, and deciding so in double precision spares the
# exact comparison; only an answer near a boundary is compared exactly (the exact value stays the source of
# truth). An answer matches a value when |given - value| <= reach, the tolerance's bound (max(rtol |value|, atol),
# or half a unit of the required decimals) or half a unit of the decimals written (a correct rounding). Rounding
# the operands and their difference to doubles moves the difference by at most 3 * 2^-53 (|given| + |value|), and
# the bound by 4 * 2^-53 of itself, far inside the margins below (1e-9 relative, 1e-300 absolute for underflow):
# a value judged certainly far never matches exactly, one judged certainly close always does (hypothesis-tested
# against the exact comparison in tests/test_homework_float_first.py). Overflow or a non-finite float: no shortcut.
_RELATIVE_MARGIN = 1e-9
_ABSOLUTE_MARGIN = 1e-300


def as_float(value) -> float | None:
    """The value as a finite double, or None (too large, or not a number)."""
    kind = type(value)
    if kind is Fraction:  # float(value) divides the same two integers (correctly rounded), through the numbers ABCs
        try:
            return value.numerator / value.denominator
        except OverflowError:
            return None
    if kind is int:
        try:
            return float(value)
        except OverflowError:
            return None
    if isinstance(value, float):  # a plain value already (irlab.metrics.plain's logarithmic values)
        return value if math.isfinite(value) else None
    try:
        result = exact.to_float(value)
    except (OverflowError, TypeError, ValueError):
        return None
    return result if math.isfinite(result) else None


def match_reach(written, tolerance: Tolerance) -> tuple[float, float, float]:
    """(relative bound, absolute bound, rounding bound) as floats: a match lies within
    max(relative * |value|, absolute, rounding) of the answer (rounding: 0 unless ``written`` shows decimals)."""
    relative, absolute = tolerance.float_bounds
    shown = written.decimals if written is not None and written.ok else None
    rounding = 1 / (2 * 10**shown) if shown is not None and tolerance.accept_rounded else 0.0  # float(Fraction(…))
    return relative, absolute, rounding


def certainly_far(given_float: float | None, value_float: float | None, reach: tuple[float, float, float]) -> bool:
    """True only when a value is too far from the answer to match it (see the margin argument above)."""
    if given_float is None or value_float is None:
        return False
    relative, absolute, rounding = reach
    scale = abs(given_float) + abs(value_float)
    bound = max(relative * abs(value_float), absolute, rounding)
    return abs(given_float - value_float) > bound * (1 + _RELATIVE_MARGIN) + _RELATIVE_MARGIN * scale + _ABSOLUTE_MARGIN


def certainly_close(given_float: float | None, value_float: float | None, tolerance: Tolerance) -> bool:
    """True only when :func:`close` is certainly true (see the margin argument above)."""
    if given_float is None or value_float is None:
        return False
    relative, absolute = tolerance.float_bounds
    scale = abs(given_float) + abs(value_float)
    bound = max(relative * abs(value_float), absolute)
    return abs(given_float - value_float) < bound * (1 - _RELATIVE_MARGIN) - _RELATIVE_MARGIN * scale - _ABSOLUTE_MARGIN


@dataclass(frozen=True)
class Comparison:
    correct: bool
    message: str | None = None  # why an answer that is numerically right is still refused


_RIGHT, _WRONG = Comparison(True), Comparison(False)  # immutable: one object for every answer compared


def compare(parsed: ParsedAnswer, expected, tolerance: Tolerance = Tolerance()) -> Comparison:
    """Grade one parsed answer against the exact expected value."""
    if not parsed.ok:
        return Comparison(False, parsed.problem)
    if tolerance.form == "fraction" and not exact.is_symbolic(expected):
        if as_fraction(parsed.value) == as_fraction(expected):
            return Comparison(True)
        if close(parsed.value, expected, Tolerance()):
            return Comparison(False, f"{parsed.shown} is close, but this question asks for the exact fraction")
        return Comparison(False)
    given_float, expected_float = parsed.double, as_float(expected)
    if certainly_close(given_float, expected_float, tolerance):
        return _RIGHT
    rounding = tolerance.decimals is None and tolerance.accept_rounded and (parsed.decimals or 0) >= tolerance.min_decimals
    if certainly_far(given_float, expected_float, match_reach(parsed if rounding else None, tolerance)):
        return _WRONG
    if close(parsed.value, expected, tolerance):
        return _RIGHT
    if (tolerance.decimals is None and tolerance.accept_rounded and parsed.decimals is not None
            and parsed.decimals >= tolerance.min_decimals and correctly_rounded(parsed, expected)):
        return _RIGHT
    return _WRONG


def _near_reach(tolerance: Tolerance) -> tuple[float, float, float]:
    """The reach of "rounded too early" (within ``near_rtol`` of the value, relative) as :func:`certainly_far`
    reads it."""
    return float(tolerance.near_rtol), 0.0, 0.0


@dataclass(frozen=True)
class NearMiss:
    kind: str  # "rounded-too-coarsely" | "rounded-too-early"
    message: str


def near_miss(parsed: ParsedAnswer, expected, tolerance: Tolerance = Tolerance()) -> NearMiss | None:
    """Name a wrong answer that is the right value rounded too coarsely or too early, else None.

    >>> near_miss(parse_answer("0.1"), Fraction(1, 15)).kind
    'rounded-too-coarsely'
    >>> near_miss(parse_answer("0.088"), Fraction(23, 264)).kind
    'rounded-too-early'
    """
    if not parsed.ok or tolerance.form == "fraction":
        return None
    shown = parsed.decimals
    required = tolerance.rounded_decimals
    if shown is not None and shown < required and correctly_rounded(parsed, expected):
        target = rational_value(expected)
        return NearMiss("rounded-too-coarsely",
                        f"{parsed.shown} is the right value rounded to {shown} decimal{'s' if shown != 1 else ''}; "
                        f"give at least {required} (the value is {exact.decimal_text(target, max(required, 4))})")
    if "/" in parsed.shown:  # an exact fraction was not rounded: a wrong one is a wrong value, not a near miss
        return None
    if certainly_far(parsed.double, as_float(expected), _near_reach(tolerance)):  # most wrong answers
        return None
    target = rational_value(expected)
    if target != 0 and abs(as_fraction(parsed.value) - target) <= tolerance.near_rtol * abs(target):
        return NearMiss("rounded-too-early",
                        f"{parsed.shown} is close to the value ({exact.decimal_text(target, max(required, 4))}) but "
                        "not a correct rounding of it: probably rounded too early; keep every digit (or the exact "
                        "fractions) until the last step")
    return None
