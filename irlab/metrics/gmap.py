"""Geometric mean average precision (Robertson 2006; TREC Robust track; trec_eval gm_map).

    GMAP = (Π_q max(AP_q, ε))^(1/n)

The geometric mean rewards improving the worst queries: doubling a tiny AP counts as much as doubling a large
one. A query with AP = 0 would make the product 0, so trec_eval floors every AP at ε = 0.00001 (the convention
``gmap_floor``); without the floor GMAP is 0 as soon as one query fails.

>>> from irlab import Ranking
>>> gmap([Ranking.parse("RN", relevant=1), Ranking.parse("NR", relevant=1)]).value
sqrt(2)/2
"""

from __future__ import annotations

from fractions import Fraction
from functools import reduce

from .. import conventions as conv
from .. import exact
from ..document import Note, Table
from ..errors import ParameterError
from ..limits import check_exact_digits, digits
from ..metric import Result
from ..trace import Traced, call
from .average_precision import average_precision

FLOOR = Fraction(1, 100000)  # trec_eval's MIN_GEO_MEAN


def _check_product(values) -> None:
    """A LimitError naming MAX_EXACT_DIGITS before the product of the APs is taken when it would be too long: its
    numerator and denominator have at most the digits of the factors' together (50 queries of 1,000 ranks: some
    20,000), and its n-th root is then beyond sympy's and a float's reach."""
    values = [Fraction(value) for value in values]
    size = max(sum(digits(value.numerator) for value in values), sum(digits(value.denominator) for value in values))
    check_exact_digits(size, f"the product of {len(values):,} average precisions",
                       "explain fewer queries at once, or compute GMAP over a TREC run with irlab eval (trec_eval's "
                       "gm_map, in floating point)")


def gmap(rankings, gmap_floor=None, ap_denominator=None) -> Result:
    """GMAP over several queries: the geometric mean of their average precisions (exact: an n-th root)."""
    rankings = list(rankings)
    if not rankings:
        raise ParameterError("GMAP needs at least one query")
    choice = conv.GMAP_FLOOR.choice(gmap_floor)
    results = [average_precision(r, ap_denominator=ap_denominator) for r in rankings]
    leaves, rows, floored = [], [], 0
    for i, result in enumerate(results, 1):
        value = result.value
        if choice.key == "epsilon" and value < FLOOR:
            value, floored = FLOOR, floored + 1
        leaves.append(Traced(value, f"AP(q{i})"))
        rows.append((f"q{i}", result.value, value))
    _check_product(leaf.value for leaf in leaves)
    # one n-ary product, not a chain of n - 1 binary ones: a chain of 1,000 queries (MAX_QUERIES) was deeper than
    # Python's recursion limit when the explanation walked it
    product = leaves[0] if len(leaves) == 1 else Traced(reduce(exact.mul, (leaf.value for leaf in leaves)), op="mul",
                                                        operands=tuple(leaves))
    product.named("AP_prod", "Product of the average precisions")
    n = len(leaves)
    root = call("root", [product, Traced(n, "n")], exact.power(product.value, Fraction(1, n)), "GMAP",
                f"Geometric mean: the {n}-th root of the product")
    notes = [Note("assumption", f"{floored} AP value(s) below 0.00001 raised to 0.00001, as trec_eval's gm_map does")] if floored else []
    mean_ap = sum((r.value for r in results), Fraction(0)) / n
    notes.append(Note("reading", f"the arithmetic mean (MAP) of the same queries is {exact.value_text(mean_ap)}; GMAP is "
                                 "lower when the queries differ a lot, because it weighs the hard queries more"))
    table = Table(("query", "AP", "AP used"), tuple(rows), "Average precision per query")
    sections = [r.section(f"Query q{i}") for i, r in enumerate(results, 1)]
    return Result("gmap", "Geometric mean average precision", root, context=f"{n} queries",
                  conventions={"gmap_floor": choice}, notes=notes, tables=[table], sections=sections)
