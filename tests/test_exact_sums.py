"""exact.total's sum of a DCG's terms (rationals and c / log) built directly, compared with sympy's own Add: the same
tree, argument for argument, so every explanation writes it as before."""

from fractions import Fraction

import sympy
from hypothesis import given, settings, strategies as st

from irlab import exact
from irlab.exact import _sum_over_logs, div, log, to_sympy

gains = st.one_of(st.integers(-40, 40), st.fractions(min_value=-20, max_value=20, max_denominator=12))
terms = st.one_of(
    st.tuples(gains, st.integers(1, 300), st.sampled_from([2, 2, 2, 3, 10])).map(lambda t: div(t[0], log(t[1] + 1, t[2]))),
    gains.map(exact.rational),
)


def _sympy_sum(values):
    return exact.simplify(sympy.Add(*(to_sympy(v) for v in values)))


def _over_log(value) -> bool:
    """c / X or 1 / X for a rational c and a logarithm X: the shape _sum_over_logs takes."""
    if value.is_Mul and len(value.args) == 2 and value.args[0].is_Rational:
        value = value.args[1]
    return value.is_Pow and value.exp == -1 and not value.base.is_Number


@settings(max_examples=400, deadline=None)
@given(st.lists(terms, min_size=1, max_size=25))
def test_the_sum_is_the_tree_sympy_builds(values):
    built = _sum_over_logs(tuple(values))
    if built is None:  # a term of another shape (k · log2(3), from a base other than 2): sympy's Add does it
        assert not all(_over_log(v) for v in values if exact.is_symbolic(v))
        return
    expected = _sympy_sum(values)
    assert type(built) is type(expected)
    assert built == expected
    if exact.is_symbolic(expected):
        assert built.args == expected.args and sympy.srepr(built) == sympy.srepr(expected)
        assert exact.exact_text(built) == exact.exact_text(expected)


def test_like_terms_are_collected_and_cancelled_as_sympy_does():
    three, six = exact.log2(3), exact.log2(6)  # log2(3), 1 + log2(3)
    values = (div(3, three), div(1, exact.log2(9)), 1, Fraction(1, 2), div(2, six), div(-2, six))
    built = _sum_over_logs(values)
    assert built == _sympy_sum(values)
    assert exact.exact_text(built) == "3/2 + 7/(2*log2(3))"  # 3/log2(3) + 1/(2 log2(3)), the 2/log2(6) cancelled
    assert _sum_over_logs((div(1, three), div(-1, three))) == 0
    assert _sum_over_logs((div(1, three),)) == div(1, three)


sums = st.lists(terms, min_size=1, max_size=12).map(exact.total)


@settings(max_examples=300, deadline=None)
@given(sums, sums)
def test_a_sum_over_a_sum_is_the_tree_sympy_builds(numerator, denominator):
    if exact.is_zero(denominator):
        return
    quotient = div(numerator, denominator)
    expected = exact.simplify(to_sympy(numerator) / to_sympy(denominator))
    assert type(quotient) is type(expected) and quotient == expected
    if exact.is_symbolic(expected):
        assert sympy.srepr(quotient) == sympy.srepr(expected)
        assert exact.exact_latex(quotient) == exact.exact_latex(expected)


def test_a_sum_over_itself_is_one():
    dcg = exact.total([div(3, exact.log2(3)), 1])
    assert div(dcg, dcg) == 1
