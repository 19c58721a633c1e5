"""Adversarial review of exact.py's fast +, -, · and / (denominators below 2^64 reduced with one gcd, Fractions made
with object.__new__): each must equal Fraction's own result exactly and be of the type irlab normalises to (an int
when whole, else a plain Fraction), for negative values, zero, bools, Fraction subclasses, denominators at and
around 2^64, huge numerators and division by negative values.

Reference: Python's Fraction arithmetic on Fraction(a) and Fraction(b)."""

import operator
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from irlab import exact


class Tagged(Fraction):
    """A Fraction subclass: it goes through Fraction() as before, never the fast path."""


EDGES = [1, 2, 3, 2**63 - 1, 2**63, 2**64 - 1, 2**64, 2**64 + 1, 3**41, 2**100]
denominators = st.one_of(st.integers(1, 50), st.sampled_from(EDGES), st.integers(1, 2**70))
numerators = st.one_of(st.integers(-50, 50), st.sampled_from([0, *EDGES, *(-e for e in EDGES)]),
                       st.integers(-2**140, 2**140))
fractions = st.builds(Fraction, numerators, denominators)
values = st.one_of(numerators, fractions, st.booleans(), st.builds(Tagged, numerators, denominators),
                   fractions.map(lambda f: Fraction(f.numerator * 7, 7)))  # whole Fractions (denominator 1)

OPERATIONS = {"add": operator.add, "sub": operator.sub, "mul": operator.mul, "div": operator.truediv}


def expected(op, a, b):
    value = OPERATIONS[op](Fraction(a), Fraction(b))
    return value.numerator if value.denominator == 1 else value


@settings(max_examples=1500, deadline=None)
@given(a=values, b=values, op=st.sampled_from(sorted(OPERATIONS)))
def test_fast_arithmetic_is_fractions_exactly_and_normalised(a, b, op):
    if op == "div" and b == 0:
        with pytest.raises(ZeroDivisionError):
            exact.div(a, b)
        return
    result, wanted = getattr(exact, op)(a, b), expected(op, a, b)
    assert result == wanted
    assert type(result) is type(wanted)  # int when whole, else exactly Fraction (never a subclass, never a bool)
    if type(result) is Fraction:  # made without Fraction's checks: still in lowest terms, the sign on the numerator
        assert result.denominator > 1 and result._denominator == wanted.denominator
        assert result._numerator == wanted.numerator and hash(result) == hash(wanted)
        assert Fraction(str(result)) == result


@settings(max_examples=300, deadline=None)
@given(items=st.lists(values, max_size=12))
def test_total_and_maximum_are_fractions_sum_and_max(items):
    wanted = sum(map(Fraction, items), Fraction(0))
    result = exact.total(items)
    assert result == wanted and type(result) is (int if wanted.denominator == 1 else Fraction)
    if items:
        biggest = max(map(Fraction, items))
        result = exact.maximum(items)
        assert result == biggest and type(result) is (int if biggest.denominator == 1 else Fraction)


@pytest.mark.parametrize("a, b", [
    (Fraction(1, 2**64 - 1), Fraction(-1, 2**64 - 1)),  # both just below the bound: a zero sum
    (Fraction(3, 2**64 - 1), -3),  # division by a negative int
    (Fraction(-5, 7), Fraction(-5, 7)),  # a negative divisor: quotient 1 (an int)
    (Fraction(2**200 + 1, 2**63), Fraction(1, 2**63)),  # a huge numerator
    (True, Fraction(1, 2)), (Fraction(1, 2), False),
])
def test_edges(a, b):
    for op in OPERATIONS:
        if op == "div" and b == 0:
            continue
        result = getattr(exact, op)(a, b)
        assert result == expected(op, a, b) and type(result) is type(expected(op, a, b))
