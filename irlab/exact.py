"""Exact numbers: fractions by default, sympy only where a logarithm makes a value irrational.

Every value irlab computes is either an ``int``, a :class:`fractions.Fraction` or a sympy expression.
sympy is imported on first use only, so ``import irlab`` stays light.
"""

from __future__ import annotations

import math
import re
from fractions import Fraction
from functools import lru_cache
from numbers import Rational

DECIMALS = 4  # fixed rounding for every decimal irlab prints (trec_eval prints four as well)


def _sympy():
    import sympy  # deferred: sympy is heavy; only log-based values need it

    return sympy


def is_symbolic(value) -> bool:
    """True when ``value`` is a sympy expression rather than an int or Fraction."""
    kind = type(value)
    if kind is int or kind is Fraction:  # most values; isinstance(…, Fraction) goes through the numbers ABCs
        return False
    return not isinstance(value, (int, Fraction))


def is_zero(value) -> bool:
    """value == 0, without sympy comparing a long expression with 0 (only a sympy number can be zero: a value
    with a logarithm in it never is, and a rational one is kept as a Fraction or an int)."""
    if isinstance(value, (int, Fraction)):
        return value == 0
    return getattr(value, "is_Number", True) and value == 0


def rational(value) -> Fraction | int:
    """Normalise an int/Fraction; a Fraction with denominator 1 becomes an int."""
    if type(value) is int:  # the common case, before the slower checks against the numbers ABCs
        return value
    if isinstance(value, Fraction):
        return value.numerator if value.denominator == 1 else value
    if isinstance(value, (int, Rational)):
        return int(value)
    raise TypeError(f"not an exact rational: {value!r}")


def to_sympy(value):
    sympy = _sympy()
    if isinstance(value, Fraction):
        return sympy.Rational(value.numerator, value.denominator)
    if isinstance(value, int):
        return sympy.Integer(value)
    return value


def simplify(value):
    """Bring a sympy value back to Fraction when it is rational; keep it symbolic otherwise."""
    if not is_symbolic(value):
        return rational(value)
    if value.is_Rational:
        return rational(Fraction(int(value.p), int(value.q)))
    return value


def add(a, b):
    if type(a) in _EXACT and type(b) in _EXACT:
        parts = _small_parts(a, b)
        if parts is None:  # ints, or a long denominator: Python's own exact '+' (the same value)
            return rational(a + b)
        na, da, nb, db = parts
        return _reduced(na * db + nb * da, da * db)
    if is_symbolic(a) or is_symbolic(b):
        return simplify(to_sympy(a) + to_sympy(b))
    return rational(Fraction(a) + Fraction(b))


# the two exact rational types irlab's values have (a bool or another Rational goes through Fraction() first)
_EXACT = frozenset((int, Fraction))

SMALL_DENOMINATOR = 1 << 64  # below it, +, -, · and / of two Fractions reduce the result with one gcd of small
#                              numbers, quicker than Fraction's own operators (their argument checks cost more than
#                              the arithmetic); above it (ERR's 30,000-bit denominators) Fraction's own, which takes
#                              its gcds of the smaller parts


def _small_parts(a, b):
    """(numerator, denominator) of ``a`` then of ``b`` (ints or Fractions, one at least a Fraction) when both
    denominators are below SMALL_DENOMINATOR; None for two ints or a long denominator."""
    if type(a) is int:
        if type(b) is int:
            return None
        na, da = a, 1
    else:
        na, da = a._numerator, a._denominator
    if type(b) is int:
        nb, db = b, 1
    else:
        nb, db = b._numerator, b._denominator
    if da >= SMALL_DENOMINATOR or db >= SMALL_DENOMINATOR:
        return None
    return na, da, nb, db


def _reduced(numerator: int, denominator: int) -> Fraction | int:
    """numerator / denominator (denominator > 0) in lowest terms: an int when whole, else a Fraction."""
    common = math.gcd(numerator, denominator)
    if common != 1:
        numerator, denominator = numerator // common, denominator // common
    return _lowest(numerator, denominator)


def total(values):
    """The sum of many values at once: one n-ary sympy sum, not a fold (folding sorts the growing sum at every step)."""
    values = list(values)
    if all(type(v) in _EXACT for v in values) or not any(is_symbolic(v) for v in values):
        return _rational_total(values)
    if len(values) > LONG_SUM:  # too long to be written out: kept as the terms' sum, without sympy's sorting
        # Add(*terms, evaluate=False) without re-checking ten thousand terms that are sympy expressions already
        return _sympy().Add._from_args([to_sympy(v) for v in values if not is_zero(v)], is_commutative=True)
    return _symbolic_total(tuple(values))


@lru_cache(maxsize=4096)  # grading solves one student's ranking several times (the key, the check, each mistake)
def _symbolic_total(values):
    built = _sum_over_logs(values)
    if built is not None:
        return built
    return simplify(_sympy().Add(*(to_sympy(v) for v in values)))


def _sum_over_logs(values):
    """Σ values when every term is a rational or c / X for a rational c and a logarithm X (a DCG's terms, which
    div builds), as the tree sympy's Add builds (like terms collected, sorted, the rational first) without its general
    rules; None for any other term. tests/test_exact_sums.py compares it with sympy's Add."""
    sympy = _sympy()
    constant, collected = 0, {}  # the rational part; each reciprocal -> its coefficient
    for value in values:
        kind = type(value)
        if kind is int or kind is Fraction:
            constant += value
            continue
        if value.is_Pow:
            coefficient, reciprocal = 1, value
        elif value.is_Mul and len(value.args) == 2 and value.args[0].is_Rational:
            number, reciprocal = value.args
            coefficient = Fraction(int(number.p), int(number.q))
        else:
            return None
        if not (reciprocal.is_Pow and reciprocal.exp is sympy.S.NegativeOne and not reciprocal.base.is_Number):
            return None
        collected[reciprocal] = collected.get(reciprocal, 0) + coefficient
    terms = [reciprocal if coefficient == 1 else
             sympy.Mul._from_args((to_sympy(coefficient), reciprocal), is_commutative=True)
             for reciprocal, coefficient in collected.items() if coefficient != 0]
    _canonical_order(terms)
    if constant != 0:
        terms.insert(0, to_sympy(constant))
    if len(terms) < 2:
        return simplify(terms[0]) if terms else 0
    return sympy.Add._from_args(terms, is_commutative=True)


LONG_SUM = 200  # terms; a longer symbolic sum is only ever shown as its decimal (see _too_long)


def _rational_total(values):
    """Σ values over common denominators 2^e · lcm(odd parts), summed pairwise (a tree): one gcd at the end instead of
    one per term, and the big products only near the root (the terms of ERR over 10,000 ranks have denominators of
    30,000 bits; bringing each to the one common denominator took a second)."""
    parts = []
    for value in values:
        kind = type(value)
        if kind is int:  # counts and whole values: no Fraction to make
            parts.append((value, 0, 1))
            continue
        if kind is not Fraction:
            value = Fraction(value)
        denominator = value._denominator
        twos = (denominator & -denominator).bit_length() - 1
        parts.append((value._numerator, twos, denominator >> twos))
    if not parts:
        return 0
    if len(parts) == 1:  # one term: as it is (normalised)
        numerator, exponent, odd = parts[0]
        return _lowest(numerator, odd << exponent)
    while len(parts) > 1:
        paired = [_dyadic_sum(parts[i], parts[i + 1]) for i in range(0, len(parts) - 1, 2)]
        if len(parts) % 2:
            paired.append(parts[-1])
        parts = paired
    numerator, exponent, odd = parts[0]
    return _reduced(numerator, odd << exponent)


def _dyadic_sum(left, right):
    """n1 / (o1 · 2^e1) + n2 / (o2 · 2^e2) over (lcm(o1, o2) · 2^max(e1, e2)), not reduced."""
    (n1, e1, o1), (n2, e2, o2) = left, right
    odd, exponent = (o1, e1) if o1 == o2 and e1 == e2 else (math.lcm(o1, o2), max(e1, e2))
    return ((n1 * (odd // o1)) << (exponent - e1)) + ((n2 * (odd // o2)) << (exponent - e2)), exponent, odd


def dyadic(numerator: int, exponent: int, odd: int = 1) -> Fraction | int:
    """numerator / (odd · 2^exponent) in lowest terms, for a small ``odd``: the factors of two are cancelled by
    counting bits, so no gcd of two huge numbers is needed (ERR's products of (1 - Pr) have such denominators)."""
    if numerator == 0:
        return 0
    twos = min((numerator & -numerator).bit_length() - 1, exponent)
    numerator, exponent = numerator >> twos, exponent - twos
    common = math.gcd(numerator, odd) if odd > 1 else 1
    value = _new_fraction(Fraction)  # already in lowest terms: skip Fraction's own gcd of the huge operands
    value._numerator, value._denominator = numerator // common, (odd // common) << exponent
    return rational(value)


def _lowest(numerator: int, denominator: int) -> Fraction | int:
    """numerator / denominator, given in lowest terms with a positive denominator: an int when whole."""
    if denominator == 1:
        return numerator
    value = _new_fraction(Fraction)
    value._numerator, value._denominator = numerator, denominator
    return value


_new_fraction = object.__new__  # a bare Fraction (its two slots set by the caller), without Fraction.__new__'s checks


def fraction(numerator: int, denominator: int) -> Fraction:
    """``Fraction(numerator, denominator)`` of two ints (denominator > 0), always a Fraction (a table shows 2/2 as
    Fraction's 1), without Fraction's type checks: the precision and recall columns of a rank table."""
    if denominator <= 0:
        raise ZeroDivisionError(f"fraction() takes a positive denominator, got {denominator}")
    common = math.gcd(numerator, denominator)
    value = _new_fraction(Fraction)
    value._numerator, value._denominator = numerator // common, denominator // common
    return value


def sub(a, b):
    if type(a) in _EXACT and type(b) in _EXACT:
        parts = _small_parts(a, b)
        if parts is None:
            return rational(a - b)
        na, da, nb, db = parts
        return _reduced(na * db - nb * da, da * db)
    if is_symbolic(a) or is_symbolic(b):
        return simplify(to_sympy(a) - to_sympy(b))
    return rational(Fraction(a) - Fraction(b))


def mul(a, b):
    if type(a) in _EXACT and type(b) in _EXACT:
        parts = _small_parts(a, b)
        if parts is None:
            return rational(a * b)
        na, da, nb, db = parts
        return _reduced(na * nb, da * db)
    if is_symbolic(a) or is_symbolic(b):
        return simplify(to_sympy(a) * to_sympy(b))
    return rational(Fraction(a) * Fraction(b))


def div(a, b):
    if type(a) is int and type(b) is int and b:  # hits / k: no other check, and Fraction's own checks skipped
        common = math.gcd(a, b) if b > 0 else -math.gcd(a, b)
        return _lowest(a // common, b // common)
    if is_zero(b):
        raise ZeroDivisionError("division by zero in an exact computation")
    if type(a) in _EXACT and type(b) in _EXACT:
        parts = _small_parts(a, b)
        if parts is not None:  # (na / da) / (nb / db) = (na · db) / (da · nb), the sign on the numerator
            na, da, nb, db = parts
            return _reduced(na * db, da * nb) if nb > 0 else _reduced(-na * db, -da * nb)
    if not is_symbolic(a) and a == 0:
        return 0  # a zero gain over a logarithm: no sympy needed (most ranks of a TREC topic)
    if not is_symbolic(a) and is_symbolic(b):
        over = _rational_over_log(a, b)
        if over is not None:
            return over
    if is_symbolic(a) and is_symbolic(b) and a.is_Add and b.is_Add and a != b:  # nDCG: DCG / IDCG
        return _sum_over_sum(a, b)
    if is_symbolic(a) or is_symbolic(b):
        # no cancel(): over a common denominator a DCG sum would grow combinatorially
        return simplify(to_sympy(a) / to_sympy(b))
    if type(a) is int and type(b) is int:  # hits / k: one Fraction instead of three
        return rational(Fraction(a, b))
    return rational(Fraction(a) / Fraction(b))


@lru_cache(maxsize=4096)  # a gain over a discount: the same few (gain, log2(rank + 1)) pairs in every DCG and IDCG
def _rational_over_log(a, b):
    """a / b for a rational a and a logarithm b (log2(p), e·log2(p) or k + Σ log2(p)), built as the tree sympy's
    '/' builds (a · b^-1, the rational first) without its general simplification; None for any other b."""
    sympy = _sympy()
    if b.is_Add:
        base, coefficient = b, Fraction(a)  # sympy does not distribute a rational over a reciprocal sum
    elif b.is_Symbol:
        base, coefficient = b, Fraction(a)
    elif b.is_Mul and len(b.args) == 2 and b.args[0].is_Integer and b.args[1].is_Symbol:
        base, coefficient = b.args[1], Fraction(a) / int(b.args[0])
    else:
        return None
    reciprocal = _reciprocal(base)
    if coefficient == 1:
        return reciprocal
    return sympy.Mul._from_args((to_sympy(coefficient), reciprocal), is_commutative=True)


def _sum_over_sum(a, b):
    """a / b for two different sums, as the tree sympy's '/' builds (a · b^-1, in its canonical order) without its
    general rules: neither sum is a number, so nothing combines. tests/test_exact_sums.py compares the two."""
    factors = [_reciprocal(b), a] if _reciprocal_first() else [a, _reciprocal(b)]
    return _sympy().Mul._from_args(factors, is_commutative=True)


@lru_cache(maxsize=None)
def _reciprocal_first() -> bool:
    """Whether sympy's Mul puts a sum's reciprocal (a Pow) before a sum (an Add): its factors are sorted by their
    classes first, so one sort of two such factors answers it for every nDCG (sorting each cost a tenth of one)."""
    from sympy.core.mul import _mulsort  # deferred: sympy is heavy; the order sympy's Mul keeps its factors in

    sympy = _sympy()
    x, y = _log2_symbol(3), _log2_symbol(5)
    total, reciprocal = sympy.Add(1, x), _reciprocal(sympy.Add(1, y))
    factors = [total, reciprocal]
    _mulsort(factors)
    return factors[0] is reciprocal


def _reciprocal(base):
    """base^-1 for a logarithm ``base``: the node sympy's Pow(base, -1) makes (sympy leaves a positive symbol or a sum
    of them to the power -1 as it is), made without its general rules and cache, which cost more than the rest of a
    DCG term."""
    sympy = _sympy()
    node = sympy.Expr.__new__(sympy.Pow, base, sympy.S.NegativeOne)
    node.is_commutative = True
    return node


def power(a, b):
    if type(a) is Fraction and type(b) is int:  # P(rel)² of kappa: Fraction's own exact power
        return rational(a**b)
    if is_symbolic(a) or is_symbolic(b) or not isinstance(b, int):
        return simplify(to_sympy(a) ** to_sympy(b))
    return rational(Fraction(a) ** b)


def _prime_factors(n: int) -> dict[int, int]:
    factors, p = {}, 2
    while p * p <= n:
        while n % p == 0:
            factors[p] = factors.get(p, 0) + 1
            n //= p
        p += 1
    if n > 1:
        factors[n] = factors.get(n, 0) + 1
    return factors


@lru_cache(maxsize=None)
def _log2_symbol(prime: int):
    # log2 of an odd prime is kept as a named positive symbol, so exact values print as
    # '3/log2(3)' rather than '3*log(2)/log(3)'; it is replaced by its value only for decimals.
    return _sympy().Symbol(f"log2({prime})", positive=True)


@lru_cache(maxsize=65536)  # DCG and IDCG ask for the same discounts, rank by rank
def log2(n: int):
    """Exact base-2 logarithm of a positive integer.

    Powers of two give an int; otherwise a sympy expression in the symbols log2(p) of the odd primes p
    dividing n (log2(12) = 2 + log2(3)), so equal logarithms are always written the same way.
    """
    if not isinstance(n, int) or n <= 0:
        raise ValueError(f"log2 needs a positive integer, got {n!r}")
    if n & (n - 1) == 0:
        return n.bit_length() - 1
    twos = (n & -n).bit_length() - 1
    odd = sorted(_prime_factors(n >> twos).items())
    if len(odd) == 1 and not twos:
        return _log2_prime_power(*odd[0])
    # k + e·log2(p) + …: built as the canonical sum sympy's '+' would build (its sorted terms, the integer first)
    # without re-flattening it term by term (a third of `explain ndcg` on 10,000 grades went there)
    sympy = _sympy()
    terms = [_log2_prime_power(prime, exponent) for prime, exponent in odd]
    _canonical_order(terms)
    if twos:
        terms.insert(0, sympy.Integer(twos))
    return sympy.Add._from_args(terms, is_commutative=True)


def log(n: int, base: int):
    """Exact logarithm of a positive integer in an integer base >= 2: an int when n is a power of the base,
    otherwise log2(n) / log2(base) (so log10(4) = 2/(1 + log2(5)) in the log2 symbols of the primes)."""
    if not isinstance(base, int) or base < 2:
        raise ValueError(f"a logarithm's base is an integer >= 2, got {base!r}")
    power, exponent = 1, 0
    while power < n:
        power, exponent = power * base, exponent + 1
    if power == n:
        return exponent
    return div(log2(n), log2(base))


@lru_cache(maxsize=None)
def _log2_prime_power(prime: int, exponent: int):
    """e · log2(p), as sympy writes the product (the coefficient first)."""
    symbol = _log2_symbol(prime)
    return symbol if exponent == 1 else _sympy().Mul._from_args((_sympy().Integer(exponent), symbol), is_commutative=True)


def _canonical_order(terms) -> None:
    from sympy.core.add import _addsort  # deferred: sympy is heavy; the order sympy's Add keeps its terms in

    _addsort(terms)


def _numeric(value):
    """Replace every log2(p) symbol by sympy's log(p)/log(2) so the value can be evaluated."""
    sympy = _sympy()
    replacements = {
        symbol: sympy.log(int(symbol.name[5:-1])) / sympy.log(2) for symbol in value.free_symbols
    }
    return value.xreplace(replacements)


def maximum(values):
    values = list(values)
    if all(type(v) in _EXACT for v in values):  # ints and Fractions compare exactly as they are
        return rational(max(values))
    if all(not is_symbolic(v) for v in values):
        return rational(max(Fraction(v) for v in values))
    return simplify(max(values, key=to_float))


def to_float(value) -> float:
    if not is_symbolic(value):
        return float(value)
    return _symbolic_float(value)


@lru_cache(maxsize=1024)  # an explanation asks for the decimal of the same long expression several times
def _symbolic_float(value) -> float:
    try:
        return _float_of(value)
    except _NotPlain:
        return float(_numeric(value).evalf(30))


class _NotPlain(Exception):
    """An expression with more than sums, products, powers, rationals and log2 symbols."""


def _float_of(expression) -> float:
    # irlab's symbolic values are rational functions of log2(p) symbols: a walk over the tree in double
    # precision is a thousand times faster than sympy's evalf and as accurate as a float can be here
    if expression.is_Symbol and expression.name.startswith("log2("):
        return math.log2(int(expression.name[5:-1]))
    if expression.is_Rational:
        return expression.p / expression.q
    if expression.is_Add:
        if len(expression.args) > SHOWN_TERMS:  # DCG inside nDCG: walked once, not once per value it is part of
            return _long_sum_float(expression)
        return math.fsum(map(_float_of, expression.args))
    if expression.is_Mul:
        return math.prod(map(_float_of, expression.args))
    if expression.is_Pow:
        base = expression.base
        if base.is_Rational and base.p > 0 and max(base.p, base.q).bit_length() > 1000:
            # beyond a double (GMAP's 1,000th root of a 2,900-digit product): through logarithms, which take any int
            return math.exp(_float_of(expression.exp) * (math.log(base.p) - math.log(base.q)))
        return _float_of(base) ** _float_of(expression.exp)
    raise _NotPlain


@lru_cache(maxsize=64)
def _long_sum_float(expression) -> float:
    return math.fsum(map(_float_of, expression.args))


def is_terminating(value, decimals: int = DECIMALS) -> bool:
    """True when the value is written exactly with at most ``decimals`` decimal places."""
    if is_symbolic(value):
        return False
    # value · 10^decimals is an integer exactly when the reduced denominator divides 10^decimals
    return 10**decimals % _exact_rational(value).denominator == 0


def _exact_rational(value) -> Fraction | int:
    return value if type(value) is int or type(value) is Fraction else Fraction(value)


def decimal_text(value, decimals: int = DECIMALS, strip: bool = True, scientific: bool = True) -> str:
    """Round half away from zero to ``decimals`` places; drop trailing zeros unless ``strip`` is False; a non-zero
    value too small for the places in e-notation (never shown as 0), unless ``scientific`` is False (a file format
    that takes plain decimals only: the LMS banks).

    21/50 -> '0.42', 1/3 -> '0.3333'.
    """
    if is_symbolic(value):
        text = f"{to_float(value):.{decimals}f}"
    else:
        exact = _exact_rational(value)
        numerator, denominator = exact.numerator, exact.denominator
        # floor(|value| · 10^decimals + 1/2) in integers
        rounded = (2 * abs(numerator) * 10**decimals + denominator) // (2 * denominator)
        sign = "-" if numerator < 0 and rounded else ""
        whole, frac = divmod(rounded, 10**decimals)
        text = f"{sign}{whole}.{frac:0{decimals}d}" if decimals else f"{sign}{whole}"
    if strip and "." in text:
        text = text.rstrip("0").rstrip(".")
    if scientific and text.lstrip("-").strip("0.") == "" and value != 0:
        return f"{to_float(value):.3e}"  # too small for fixed decimals: never show a non-zero value as 0
    return "0" if text in ("-0", "") else text


SHOWN_DIGITS = 60  # longer integers are written by their first and last digits and their length


def _integer_text(n: int) -> str:
    """An integer's digits; one too long to read (an AP over 16,000 ranks has a 7,000-digit denominator) is
    written '12345…67890 (7,012 digits)'."""
    if abs(n).bit_length() <= SHOWN_DIGITS * 3:
        return str(n)
    magnitude = abs(n)
    digits = int((magnitude.bit_length() - 1) * 0.30102999566398) + 1
    if magnitude < 10 ** (digits - 1):
        digits -= 1
    elif magnitude >= 10**digits:
        digits += 1
    if digits <= SHOWN_DIGITS:
        return str(n)
    head = magnitude // 10 ** (digits - 6)
    tail = magnitude % 10**5
    return f"{'-' if n < 0 else ''}{head}…{tail:05d} ({digits:,} digits)"


def _all_digits(n: int) -> str:
    """Every digit of ``n``, past Python's 4,300-digit limit on str(int) too (halves by a power of ten)."""
    if abs(n).bit_length() <= 12_000:  # about 3,600 digits: within the limit
        return str(n)
    if n < 0:
        return "-" + _all_digits(-n)
    half = (int(n.bit_length() * 0.30102999566398) + 1) // 2
    high, low = divmod(n, 10**half)
    return _all_digits(high) + _all_digits(low).rjust(half, "0")


def _rational_or_symbolic_text(value, integer_text) -> str:
    if not is_symbolic(value):
        value = rational(value)
        if isinstance(value, Fraction):
            return f"{integer_text(value.numerator)}/{integer_text(value.denominator)}"
        return integer_text(value)
    return _symbolic_text(value)


def full_text(value) -> str:
    """The exact value with every digit ('21/50', a 7,000-digit fraction whole): for machines (JSON), where
    :func:`exact_text` abbreviates a long integer for a reader."""
    return _rational_or_symbolic_text(value, _all_digits)


def exact_text(value) -> str:
    """The exact value as plain text: '21/50', '3', or sympy's expression written with log2."""
    return _rational_or_symbolic_text(value, _integer_text)


def exact_latex(value, inline: bool = False) -> str:
    """LaTeX for an exact value; ``inline`` writes fractions as a/b (answers stay searchable in a PDF)."""
    if not is_symbolic(value):
        value = rational(value)
        if isinstance(value, Fraction) and inline:
            return f"{_integer_latex(value.numerator)}/{_integer_latex(value.denominator)}"
        if isinstance(value, Fraction):
            sign = "-" if value < 0 else ""
            return f"{sign}\\frac{{{_integer_latex(abs(value.numerator))}}}{{{_integer_latex(value.denominator)}}}"
        return _integer_latex(value)
    parts = _too_long(value)
    if parts is not None:
        return rf"\text{{(an exact expression of {parts:,} parts in $\log_2$ of {_long_size(value)[1]:,} primes, not written out)}}"
    names = {symbol: f"\\log_2 {symbol.name[5:-1]}" for symbol in value.free_symbols}
    try:
        return _sympy().latex(value, symbol_names=names)
    except ValueError:  # an integer in it beyond Python's 4,300-digit conversion limit
        return r"\text{(an expression too long to write out)}"


def _integer_latex(n: int) -> str:
    text = _integer_text(n)
    return text if " " not in text else text.replace("…", r"\ldots{}").replace(" (", r"\ (\text{").replace(" digits)", " digits})")


SHOWN_TERMS = 200  # a symbolic value with more parts than this is written by its size (its decimal is shown beside it)


def _too_long(value) -> int | None:
    """The number of parts of a symbolic value too long to write out usefully (nDCG over 10,000 ranks), else None."""
    size = _long_size(value)
    return None if size is None else size[0]


@lru_cache(maxsize=256)  # an explanation writes the same long value in several steps
def _long_size(value) -> tuple[int, int] | None:
    """(parts, log2 symbols) of a value with more than SHOWN_TERMS parts, else None. The parts are the nodes
    sympy's preorder_traversal visits; counted on a stack, which is ten times faster than that generator."""
    count, symbols, stack = 0, set(), [value]
    while stack:
        node = stack.pop()
        count += 1
        if node.is_Symbol:
            symbols.add(node)
        stack.extend(node.args)
    return (count, len(symbols)) if count > SHOWN_TERMS else None


@lru_cache(maxsize=1024)  # an answer key writes each logarithmic value several times (its steps, answer, JSON)
def _symbolic_text(value) -> str:
    parts = _too_long(value)
    if parts is not None:
        return f"(an exact expression of {parts:,} parts in log2 of {_long_size(value)[1]:,} primes, not written out)"
    try:
        return _sympy().sstr(value)
    except ValueError:  # an integer in it beyond Python's 4,300-digit conversion limit
        return "(an expression too long to write out)"


def display_text(value) -> str:
    """The exact value for a reader: like :func:`exact_text` but written with '·' and '^', never Python's '*'/'**'."""
    text = exact_text(value)
    return text.replace("**", "^").replace("*", " · ") if is_symbolic(value) else text


def value_text(value) -> str:
    """'21/50 = 0.42', '1/3 ≈ 0.3333', '2', or '1/log2(3) ≈ 0.6309' — exact and decimal side by side."""
    exact = display_text(value)
    if is_terminating(value):
        decimal = decimal_text(value)
        return exact if exact == decimal else f"{exact} = {decimal}"
    return f"{exact} ≈ {decimal_text(value, strip=False)}"  # an approximation keeps all its digits


def value_latex(value, inline: bool = False) -> str:
    exact = exact_latex(value, inline)
    if is_terminating(value):
        decimal = decimal_text(value)
        return exact if exact == decimal else f"{exact} = {decimal}"
    return f"{exact} \\approx {decimal_text(value, strip=False)}"


# ASCII digits only ('３' and '1_0' are not numbers here), an exponent of at most three digits (1e-1000000000
# would make Fraction compute 10^1000000000)
_NUMBER = re.compile(r"[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d{1,3})?|[+-]?\d+ */ *\d+", re.ASCII)


@lru_cache(maxsize=1024)
def parse_number(text: str) -> Fraction | int:
    """Parse '3', '0.25', '1/3' or '25%' into an exact rational (used for CLI options and data files)."""
    cleaned = text.strip()
    scale = 1
    if cleaned.endswith("%"):
        cleaned, scale = cleaned[:-1].strip(), 100
    if len(cleaned) > 40 or not _NUMBER.fullmatch(cleaned):
        raise ValueError(f"not a number: {_clip(text)}")
    try:
        value = Fraction(cleaned.replace(" ", ""))
    except (ValueError, ZeroDivisionError):
        raise ValueError(f"not a number: {_clip(text)}") from None
    return rational(value / scale)


def _clip(text: str, width: int = 40) -> str:
    """A user's text for a message, cut when long (a message is one line)."""
    shown = repr(text)
    return shown if len(shown) <= width else f"{shown[:width]}… ({len(text):,} characters)"
