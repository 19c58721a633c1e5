"""Score lists as the paired significance tests and the rank correlations read them, their mid-ranks, and the exact
square roots both write: '0.1' and 0.1 are both 1/10, so every test and correlation computes on the same exact values."""

from __future__ import annotations

import math
from fractions import Fraction

from .. import exact
from ..errors import RankingError
from ..trace import Traced, call


def number(value, what):
    """One score, exact: an int or Fraction as it is, a float as the shortest decimal that prints as it, text parsed."""
    if isinstance(value, bool):
        raise RankingError(f"{what} is {value!r}, expected a number")
    if isinstance(value, (int, Fraction)):
        return exact.rational(value)
    if isinstance(value, float):
        if not math.isfinite(value):
            raise RankingError(f"{what} is {value!r}, expected a finite number")
        return exact.rational(Fraction(repr(value)))  # the shortest decimal that is this float: 0.1 -> 1/10
    if isinstance(value, str):
        try:
            return exact.parse_number(value)
        except ValueError:
            raise RankingError(f"{what} is {value!r}, expected a number such as 0.25 or 1/3") from None
    if hasattr(value, "item"):  # a numpy scalar
        return number(value.item(), what)
    raise RankingError(f"{what} is {value!r}, expected a number")


def read_scores(values, what):
    """A list of exact scores from '0.5,0.25;0.1' (commas, semicolons or spaces) or from a sequence of numbers."""
    if isinstance(values, str):
        items = [t for t in values.replace(";", ",").replace(" ", ",").split(",") if t.strip()]
    else:
        items = list(values)
    if not items:
        raise RankingError(f"{what} has no values")
    return [number(v, f"{what}: value {i}") for i, v in enumerate(items, 1)]


def average_ranks(magnitudes) -> list[Fraction]:
    """Ranks 1..n of the values, tied values sharing the mean of their ranks."""
    order = sorted(range(len(magnitudes)), key=lambda i: magnitudes[i])
    ranks = [Fraction(0)] * len(magnitudes)
    start = 0
    while start < len(order):
        end = start
        while end + 1 < len(order) and magnitudes[order[end + 1]] == magnitudes[order[start]]:
            end += 1
        shared = Fraction(start + 1 + end + 1, 2)
        for i in order[start:end + 1]:
            ranks[i] = shared
        start = end + 1
    return ranks


def traced_sqrt(node: Traced, symbol, label) -> Traced:
    """The exact square root of a traced value (a sympy expression), as a step of the explanation."""
    import sympy  # deferred: sympy is heavy, and only a square root needs it here

    value = node.value
    root = sympy.sqrt(sympy.Rational(value.numerator, value.denominator)) if isinstance(value, Fraction) else sympy.sqrt(value)
    return call("sqrt", [node], root, symbol, label)
