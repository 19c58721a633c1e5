import math
from fractions import Fraction as F

import pytest

from irlab import exact


@pytest.mark.parametrize(
    "value, text",
    [(F(21, 50), "21/50 = 0.42"), (F(1, 3), "1/3 ≈ 0.3333"), (3, "3"), (F(2, 3), "2/3 ≈ 0.6667"),
     (F(-1, 3), "-1/3 ≈ -0.3333"), (F(1, 8), "1/8 = 0.125"), (F(1, 20000), "1/20000 ≈ 0.0001")],
)
def test_value_text_shows_exact_and_decimal(value, text):
    assert exact.value_text(value) == text


def test_decimal_rounds_half_away_from_zero():
    assert exact.decimal_text(F(5, 100000)) == "0.0001"
    assert exact.decimal_text(F(-5, 100000)) == "-0.0001"
    assert exact.decimal_text(F(4, 100000)) == "4.000e-05"  # a non-zero value is never shown as 0


def test_tiny_values_use_scientific_notation():
    assert exact.value_text(F(1, 99999999999)) == "1/99999999999 ≈ 1.000e-11"
    assert exact.value_text(0) == "0"


def test_log2_is_exact_for_powers_of_two_and_symbolic_otherwise():
    assert exact.log2(8) == 3
    three = exact.log2(3)
    assert exact.is_symbolic(three)
    assert exact.exact_text(three) == "log2(3)"
    assert exact.to_float(exact.log2(12)) == pytest.approx(3.5849625007211565, abs=1e-15)
    # log2(12) is written through its prime factors, so it equals 2 + log2(3) exactly
    assert exact.sub(exact.log2(12), exact.add(2, three)) == 0


def test_symbolic_values_print_with_log2():
    value = exact.add(7, exact.div(3, exact.log2(3)))
    assert exact.exact_text(value) == "7 + 3/log2(3)"
    assert exact.value_text(value) == "7 + 3/log2(3) ≈ 8.8928"
    assert exact.exact_latex(value) == r"7 + \frac{3}{\log_2 3}"


def test_parse_number_accepts_fractions_decimals_percent():
    assert exact.parse_number("0.25") == F(1, 4)
    assert exact.parse_number("25%") == F(1, 4)
    assert exact.parse_number("1/3") == F(1, 3)
    with pytest.raises(ValueError):
        exact.parse_number("a quarter")


def _sympy_log2(n):
    """log2(n) summed term by term with sympy's own '+' and '*' (what exact.log2 builds directly)."""
    sympy = pytest.importorskip("sympy")
    value, rest, prime = sympy.Integer(0), n, 2
    while rest > 1:
        while rest % prime == 0:
            rest //= prime
            value += 1 if prime == 2 else sympy.Symbol(f"log2({prime})", positive=True)
        prime += 1
    return value


@pytest.mark.parametrize("n", [3, 6, 9, 12, 45, 360, 1001, 2 * 3**4 * 5**2 * 7, 9998, 30030, 2**20 * 999983])
def test_log2_is_the_tree_sympy_builds(n):
    import sympy

    built, expected = exact.log2(n), _sympy_log2(n)
    assert built == expected and sympy.srepr(built) == sympy.srepr(expected)
    assert exact.to_float(built) == pytest.approx(math.log2(n), rel=1e-15)


@pytest.mark.parametrize("n", [3, 6, 9, 25, 12, 360, 9998])
@pytest.mark.parametrize("gain", [1, 2, 7, -3, F(1, 2), F(-5, 3), 6])
def test_a_rational_over_a_logarithm_is_the_tree_sympy_builds(n, gain):
    import sympy

    built = exact.div(gain, exact.log2(n))
    expected = sympy.Rational(gain.numerator, gain.denominator) / _sympy_log2(n)
    assert built == expected and sympy.srepr(built) == sympy.srepr(expected)
    assert exact.to_float(built) == pytest.approx(float(gain) / math.log2(n), rel=1e-14)


def _rational_cases(seed: int, count: int):
    """Pairs of ints and Fractions, small and with denominators past exact.SMALL_DENOMINATOR, signs mixed."""
    import random

    rng = random.Random(seed)

    def value():
        kind = rng.randrange(4)
        if kind == 0:
            return rng.randint(-50, 50)
        if kind == 1:
            return F(rng.randint(-300, 300), rng.randint(1, 300))
        if kind == 2:
            return F(rng.randint(-10**30, 10**30), rng.randint(1, 10**18))
        return F(rng.randint(-10**40, 10**40), exact.SMALL_DENOMINATOR + rng.randint(1, 10**6))

    return [(value(), value()) for _ in range(count)]


@pytest.mark.parametrize("a, b", _rational_cases(34, 400))
def test_rational_arithmetic_is_fractions_own(a, b):
    # exact's +, -, · and / of ints and Fractions reduce by their own gcd: the value and type Fraction gives
    def normal(value):
        return value.numerator if value.denominator == 1 else value

    cases = [(exact.add, F(a) + F(b)), (exact.sub, F(a) - F(b)), (exact.mul, F(a) * F(b))]
    if b != 0:
        cases.append((exact.div, F(a) / F(b)))
    for operation, fraction in cases:
        got, expected = operation(a, b), normal(fraction)
        assert type(got) is type(expected) and got == expected
        if type(got) is F:
            assert (got.numerator, got.denominator) == (fraction.numerator, fraction.denominator)
            assert got.denominator > 0


def test_fraction_of_two_ints_is_always_a_fraction():
    assert type(exact.fraction(4, 2)) is F and exact.fraction(4, 2) == 2 and exact.fraction(6, 4) == F(3, 2)
    with pytest.raises(ZeroDivisionError):
        exact.fraction(1, 0)


@pytest.mark.parametrize("size", [0, 1, 2, 3, 8, 13])
def test_a_rational_total_is_the_sum_of_fractions(size):
    for a, b in _rational_cases(size, 40):
        values = ([a, b] * 7)[:size]
        expected = sum((F(v) for v in values), F(0))
        got = exact.total(values)
        assert got == expected and type(got) is (int if expected.denominator == 1 else F)
