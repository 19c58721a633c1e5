"""Plain values of the metrics a homework draw is judged on, computed without their explanations.

The explained metrics (:mod:`irlab.metrics.set_based`, :mod:`~irlab.metrics.average_precision`,
:mod:`~irlab.metrics.interpolation`, :mod:`~irlab.metrics.reciprocal_rank`, :mod:`~irlab.metrics.dcg`,
:mod:`~irlab.metrics.agreement`) are the source of truth; these are the same definitions written as bare arithmetic,
for the drawing of personal variants (:mod:`irlab.homework.screening`), which judges thousands of draws a second and
issues only one of them. A rational value is an exact ``Fraction`` (or int), the very number the explained metric
gives; a value with logarithms (DCG, nDCG) is a ``float``, which the caller must treat as approximate. Anything
these functions do not cover exactly as the explained metric does (scores and ties, gain tables, another log base,
an empty ranking, one of over 1,000 ranks) is refused with :class:`Unsupported`, and the caller falls back to the
explained metric. tests/test_screening.py checks every function against its explained metric on generated
rankings (hypothesis).
"""

from __future__ import annotations

import math
from collections import Counter
from fractions import Fraction

from .. import conventions as conv
from ..limits import MAX_BETA, MAX_CUTOFF, MAX_GRADE
from ..metric import check_cutoff, check_fraction
from ..ranking import Ranking
from .agreement import parse_judgments
from .common import ideal_grades


class Unsupported(Exception):
    """The plain path does not compute this case exactly as the explained metric does: use the explained one."""


class Undefined(Unsupported):
    """The explained metric refuses this case (its value is undefined): its own error says why, in its words."""


# Longer rankings go to the explained metric, whose work bounds (irlab.limits: exact digits, logarithms in a sum)
# then refuse what they refuse; homework rankings are a few dozen ranks.
_PLAIN_RANKS = 1000


def _plain(ranking: Ranking) -> Ranking:
    if not isinstance(ranking, Ranking) or ranking.is_empty or ranking.scores is not None:
        raise Unsupported("only a non-empty ranking without scores")
    if ranking.retrieved + len(ranking.unretrieved) > _PLAIN_RANKS:
        raise Unsupported("a long ranking: the explained metric's work bounds apply")
    return ranking


_NUMBERS: dict = {}  # check_fraction's readings of the options met (a question's "50%" read once, not per draw)


def _number(value, name: str, low=0, high=1, *, low_open=False):
    """:func:`~irlab.metric.check_fraction`, remembered for the few option values a homework set has; its refusals
    are not remembered (raised again each time, in its words)."""
    key = (type(value), value, name, low, high, low_open) if isinstance(value, (str, int, Fraction)) else None
    found = _NUMBERS.get(key) if key is not None else None
    if found is None:
        found = check_fraction(value, name, low, high, low_open=low_open)
        if key is not None:
            if len(_NUMBERS) >= 1024:
                _NUMBERS.clear()
            _NUMBERS[key] = found
    return found


def _depth(ranking: Ranking, k) -> tuple[int | None, int]:
    k = check_cutoff(k)
    return k, ranking.retrieved if k is None else min(k, ranking.retrieved)


def precision(ranking, k=None, precision_denominator=None):
    """P@k = hits@k / k (or / the documents retrieved in the top k); P = hits / n without k."""
    ranking = _plain(ranking)
    k, depth = _depth(ranking, k)
    if k is None:
        return Fraction(ranking.hits(), ranking.retrieved)
    over = k if conv.PRECISION_DENOMINATOR.choice(precision_denominator).key == "k" else depth
    return Fraction(ranking.hits(depth), over)


def recall(ranking, k=None, recall_denominator=None):
    """Rec@k = hits@k / R (or / min(R, k)); 0 when there is no relevant document."""
    ranking = _plain(ranking)
    k, depth = _depth(ranking, k)
    over = ranking.total_relevant
    if k is not None and conv.RECALL_DENOMINATOR.choice(recall_denominator).key == "min-relevant-k":
        over = min(over, k)
    return 0 if over == 0 else Fraction(ranking.hits(depth), over)


def f_measure(ranking, k=None, beta=1, precision_denominator=None, recall_denominator=None, f_weight=None):
    """F_β = (1 + β²)·P·Rec / (β²·P + Rec), or (1 + x)·P·Rec / (x·P + Rec) with f_weight = beta-squared."""
    squared = conv.F_WEIGHT.choice(f_weight).key == "beta-squared"
    beta = _number(beta, "beta", 0, MAX_BETA, low_open=True)
    p = precision(ranking, k, precision_denominator)
    r = recall(ranking, k, recall_denominator)
    if p + r == 0:
        return 0
    weight = beta if squared else beta * beta
    return (1 + weight) * p * r / (weight * p + r)


def average_precision(ranking, k=None, ap_denominator=None):
    """AP@k = (1 / D) · Σ_{i<=k} rel_i · P@i; D = R, the relevant retrieved, or min(R, k); 0 when D = 0."""
    ranking = _plain(ranking)
    k, depth = _depth(ranking, k)
    choice = conv.AP_DENOMINATOR.choice(ap_denominator).key
    relevance = ranking.relevance
    ranks = [rank for rank in range(1, depth + 1) if relevance[rank - 1]]
    common = math.lcm(*ranks) if ranks else 1  # the sum of hits@i / i over one denominator, made a Fraction once
    summed = Fraction(sum(hits * (common // rank) for hits, rank in enumerate(ranks, 1)), common)
    if choice == "relevant":
        over = ranking.total_relevant
    elif choice == "retrieved":
        over = ranking.hits(depth)
    else:
        over = min(ranking.total_relevant, k or ranking.retrieved)
    return 0 if over == 0 else summed / over


def _needed(level: Fraction, relevant: int, rule: str) -> int:
    product = Fraction(level) * relevant
    if rule == "trec-eval":
        return int(product + Fraction(1, 2))
    if rule == "trec-eval-9":
        return int(float(level) * relevant + 0.9)
    return -(-product.numerator // product.denominator)


def interpolated_precision(ranking, recall_level=None, interpolation=None):
    """The highest precision at any rank holding at least m = ⌈r·R⌉ relevant documents (0 if none does)."""
    ranking = _plain(ranking)
    if recall_level is None:
        raise Unsupported("no recall level")
    level = _number(recall_level, "recall level", 0, 1)
    rule = conv.INTERPOLATION.choice(interpolation).key
    relevant = ranking.total_relevant
    if relevant == 0:
        return 0
    needed = _needed(level, relevant, rule)
    best_hits, best_rank = 0, 0  # the best hits@rank / rank so far, compared crosswise in integers
    hits = 0
    for rank, is_relevant in enumerate(ranking.relevance, 1):
        hits += is_relevant
        if hits >= needed and (best_rank == 0 or hits * best_rank > best_hits * rank):
            best_hits, best_rank = hits, rank
    return 0 if best_rank == 0 else Fraction(best_hits, best_rank)


def precision_at_recall(ranking, recall_level=None):
    """Precision at the rank of the ⌈r·R⌉-th relevant document (the first), 0 when the list never reaches it."""
    ranking = _plain(ranking)
    if recall_level is None:
        raise Unsupported("no recall level")
    level = _number(recall_level, "recall level", 0, 1)
    relevant = ranking.total_relevant
    if relevant == 0:
        return 0
    number = max(_needed(level, relevant, "book"), 1)
    seen = 0
    for rank, is_relevant in enumerate(ranking.relevance, 1):
        seen += is_relevant
        if is_relevant and seen == number:
            return Fraction(number, rank)
    return 0


def reciprocal_rank(ranking, k=None):
    """1 / the rank of the first relevant document in the top k, 0 if none."""
    ranking = _plain(ranking)
    _, depth = _depth(ranking, k)
    first = next((rank for rank in range(1, depth + 1) if ranking.relevance[rank - 1]), None)
    return 0 if first is None else Fraction(1, first)


def _discount_key(rank: int, discount: str):
    """The discount at ``rank`` as a key that names its value: an int d for the rational 1/d, ("log2", n) for the
    irrational 1/log2(n) (n not a power of two). Different values have different keys: 1/log2(n) is rational only
    for a power of two n, and is then 1/d with d = log2(n), keyed d."""
    if rank == 1 and discount != "log2-rank-plus-1":  # nothing to discount
        return 1
    if discount == "reciprocal-rank":
        return rank
    n = rank if discount == "log2-rank" else rank + 1
    return ("log2", n) if n & (n - 1) else n.bit_length() - 1


class _Sum:
    """A DCG as an exact rational part plus a float part (the terms whose discount is an irrational logarithm); the
    rational part is kept as whole sums per divisor, made a Fraction once. ``terms`` lists its (gain, discount
    key) terms of positive gain, so two sums with the same terms are known to be equal exactly."""

    __slots__ = ("by_divisor", "approx", "inexact", "terms", "_value")

    def __init__(self):
        self.by_divisor, self.approx, self.inexact, self.terms = {}, 0.0, False, []
        self._value = None

    @property
    def exact(self) -> Fraction:
        common = math.lcm(*self.by_divisor) if self.by_divisor else 1  # one denominator: one Fraction
        return Fraction(sum(total * (common // divisor) for divisor, total in self.by_divisor.items()), common)

    def value(self):
        if self._value is None:  # (a sum is not changed once made: _summed shares it)
            if self.inexact:  # a double: its rational terms need no Fraction either
                self._value = math.fsum([*(total / divisor for divisor, total in self.by_divisor.items()),
                                         self.approx])
            else:
                self._value = self.exact
        return self._value


def _dcg_sum(grades, depth: int, gain: str, discount: str) -> _Sum:
    """The terms gain(g_i) · discount(i) of ranks 1..depth, added in rank order: a rational discount's term to its
    divisor's whole sum, an irrational one's to the float part (each rank's key and logarithm looked up once)."""
    summed = _Sum()
    keys = _discount_keys(discount, depth)
    terms, by_divisor = summed.terms, summed.by_divisor
    for rank in range(depth):
        grade = grades[rank]
        term = 2**grade - 1 if gain == "exp" else grade
        if term == 0:
            continue
        key, logarithm = keys[rank]
        terms.append((term, key))
        if logarithm is not None:  # summed as a double, in rank order
            summed.approx += term / logarithm
            summed.inexact = True
        else:
            by_divisor[key] = by_divisor.get(key, 0) + term
    return summed


# DCG sums by what they depend on: the grades of ranks 1..depth, the gain and the discount. Draws of short graded
# rankings repeat those a great deal (a top 5 of grades 0-3 has 1,024 forms; an ideal top 5, sorted, 56), within a
# draw (its nDCG and the named mistake that rebuilds the ideal share the ranking's sum) and across draws.
_SUMS: dict[tuple, _Sum] = {}
_SUMS_SIZE = 1 << 16  # a few hundred bytes each; emptied when full


def _summed(grades: tuple, gain: str, discount: str) -> _Sum:
    """_dcg_sum of every rank of ``grades`` (a tuple: the top k), made once and shared (never changed)."""
    key = (grades, gain, discount)
    found = _SUMS.get(key)
    if found is None:
        if len(_SUMS) >= _SUMS_SIZE:
            _SUMS.clear()
        found = _SUMS[key] = _dcg_sum(grades, len(grades), gain, discount)
    return found


_KEYS: dict[str, list] = {}  # discount -> (key, log2(n) or None) of ranks 1, 2, …: the same for every ranking


def _discount_keys(discount: str, depth: int) -> list:
    keys = _KEYS.setdefault(discount, [])
    while len(keys) < min(depth, _PLAIN_RANKS):
        keys.append(_keyed(len(keys) + 1, discount))
    if depth > len(keys):  # an ideal ranking longer than any retrieved list (a large R): not kept
        return keys + [_keyed(rank, discount) for rank in range(len(keys) + 1, depth + 1)]
    return keys


def _keyed(rank: int, discount: str) -> tuple:
    key = _discount_key(rank, discount)
    return key, (math.log2(key[1]) if isinstance(key, tuple) else None)


def _dcg_reading(ranking, k, gain, discount, gains, log_base) -> tuple[int | None, int, str, str]:
    """(k, the ranks summed, the gain's key, the discount's key) as _plain, _depth and the conventions read them,
    in that order, for a DCG of ``ranking``: a draw's DCG and nDCG questions and their named mistakes read one
    (frozen) ranking with the same few options again and again, so what each reading found is remembered (a
    refusal is not: it is raised again each time, in its words)."""
    found = _GRADED.get(id(ranking))
    if found is None or found[0] is not ranking:
        _plain(ranking)
        if len(_GRADED) >= 256:
            _GRADED.clear()
        found = _GRADED[id(ranking)] = (ranking, max(ranking.grades + ranking.unretrieved))  # (grades: not empty)
    if k is not None and not (type(k) is int and 0 < k <= MAX_CUTOFF):  # (check_cutoff returns such a k as it is)
        k = check_cutoff(k)
    retrieved = len(ranking.grades)
    depth = retrieved if k is None else min(k, retrieved)
    if gains is not None or log_base not in (None, 2):
        raise Unsupported("a gain table or another log base")
    gain, discount = conv.GAIN.choice(gain).key, conv.DISCOUNT.choice(discount).key  # (a table look-up: _by_key)
    if gain == "exp" and found[1] > MAX_GRADE:
        raise Unsupported("a grade above the exponential gain's bound")
    return k, depth, gain, discount


_GRADED: dict[int, tuple] = {}  # id(ranking) -> (the ranking, its largest judged grade), once it passed _plain


def dcg(ranking, k=None, gain=None, discount=None, gains=None, log_base=None):
    """DCG@k = Σ_{i<=k} gain(g_i) · discount(i): exact when every discount is rational, else a float."""
    _, depth, gain, discount = _dcg_reading(ranking, k, gain, discount, gains, log_base)
    return _summed(ranking.grades[:depth], gain, discount).value()


# nDCG values by what they depend on: the grades of the ranking's top k and of the ideal's, the gain and the
# discount (see _SUMS).
_VALUES: dict[tuple, object] = {}
_VALUES_SIZE = 1 << 16  # a few hundred bytes each; emptied when full


_IDEALS: dict[int, tuple] = {}  # a ranking's ideal grades, by the (frozen) ranking's id, the ranking kept beside


def _ideal(ranking: Ranking) -> tuple[int, ...]:
    """ideal_grades(ranking)'s list as a tuple, once per ranking: a draw's nDCG and its named mistakes share one
    ranking."""
    found = _IDEALS.get(id(ranking))
    if found is None or found[0] is not ranking:
        if len(_IDEALS) >= 64:
            _IDEALS.clear()
        found = _IDEALS[id(ranking)] = (ranking, tuple(ideal_grades(ranking)[0]))
    return found[1]


# nDCG@k is exactly 1 when, and only when, DCG's terms are IDCG's, as (gain, discount) multisets. Let g_1..g_k be
# the ranking's gains (0 past its end), h_1..h_k the ideal's (the judged positive grades' gains, best first, 0 past
# them) and d_1 >= d_2 >= ... > 0 the discounts: strictly decreasing, but for d_1 = d_2 = 1 under log2-rank
# (positions of equal discount form blocks). "If": the same terms give the same sum. "Only if": the i-th largest
# g, g*_i, is at most h_i (the ranking's positive grades are some of the judged ones), so Σ g*_i d_i <= Σ h_i d_i,
# with equality only if g* = h. Sorting g within its blocks keeps Σ g_i d_i; bubble-sorting that into g* (if it is
# not g* already) swaps some adjacent pair across a block edge (swaps within blocks keep each block's multiset, and
# two lists sorted within blocks with the same block multisets are equal), and each such swap adds
# (g_{i+1} - g_i)(d_i - d_{i+1}) > 0. So DCG = IDCG forces each block's gains to be the ideal's: the same terms.
# Hence ndcg returns an exact 1 only when the value is 1; a ranking with other terms is below 1, which its double
# shows unless within 1e-9 of 1 (then irlab.homework.screening leaves it to the exact judge).
def ndcg(ranking, k=None, gain=None, discount=None, gains=None, log_base=None):
    """nDCG@k = DCG@k / IDCG@k over every judged grade; 0 when IDCG = 0."""
    k, depth, gain, discount = _dcg_reading(ranking, k, gain, discount, gains, log_base)
    ideal_grades_ = _ideal(ranking)
    ideal_depth = len(ideal_grades_) if k is None else min(k, len(ideal_grades_))
    top, ideal_top = ranking.grades[:depth], ideal_grades_[:ideal_depth]
    key = (top, ideal_top, gain, discount)  # all the value depends on
    found = _VALUES.get(key)
    if found is None:
        if len(_VALUES) >= _VALUES_SIZE:
            _VALUES.clear()
        found = _VALUES[key] = _ndcg(_summed(top, gain, discount), _summed(ideal_top, gain, discount))
    return found


def _ndcg(gained: _Sum, ideal: _Sum):
    if not ideal.terms:  # every gain 0: IDCG = 0
        return 0
    if not gained.terms:  # no gain in the top k: DCG = 0 exactly, whatever the ideal's logarithms
        return 0
    if gained.inexact or ideal.inexact:
        ratio = gained.value() / ideal.value()
        # the same terms give 1 to within a few units of the last place: only a ratio this near may have them
        if abs(ratio - 1) < 1e-9 and Counter(gained.terms) == Counter(ideal.terms):
            return 1  # DCG = IDCG exactly (see above)
        return ratio
    return gained.exact / ideal.exact


def _judged(column, what: str) -> tuple:
    """parse_judgments(column, what): a non-empty tuple of 0/1 ints (a judgment table's column) as it is."""
    if type(column) is tuple and column and all(type(v) is int and 0 <= v <= 1 for v in column):
        return column
    return parse_judgments(column, what)


def kappa(first, second, kappa_marginals=None):
    """κ = (P(A) - P(E)) / (1 - P(E)), P(E) from pooled or per-judge marginals; refused when P(E) = 1."""
    first, second = _judged(first, "judge 1"), _judged(second, "judge 2")
    if len(first) != len(second) or not first:
        raise Unsupported("columns of different lengths")
    size = len(first)
    agree = sum(1 for x, y in zip(first, second) if bool(x) == bool(y))
    rel1, rel2 = sum(1 for x in first if x), sum(1 for y in second if y)
    # P(A) and P(E) over one denominator in integers: pooled, P(E) = (s² + (2n - s)²) / 4n² with s = rel1 + rel2;
    # per judge, P(E) = (rel1·rel2 + (n - rel1)(n - rel2)) / n²
    if conv.KAPPA_MARGINALS.choice(kappa_marginals).key == "pooled":
        pooled = rel1 + rel2
        whole, chance, agreeing = 4 * size * size, pooled**2 + (2 * size - pooled) ** 2, 4 * size * agree
    else:
        whole, chance, agreeing = size * size, rel1 * rel2 + (size - rel1) * (size - rel2), size * agree
    if chance == whole:
        raise Undefined("kappa is undefined when P(E) = 1")
    return Fraction(agreeing - chance, whole - chance)


# the explained metric's registry name -> its plain value and the options it takes (any other option is refused)
PLAIN = {
    "precision": (precision, {"k", "precision_denominator"}),
    "recall": (recall, {"k", "recall_denominator"}),
    "f": (f_measure, {"k", "beta", "precision_denominator", "recall_denominator", "f_weight"}),
    "ap": (average_precision, {"k", "ap_denominator"}),
    "iprec": (interpolated_precision, {"recall_level", "interpolation"}),
    "prec-at-recall": (precision_at_recall, {"recall_level"}),
    "rr": (reciprocal_rank, {"k"}),
    "dcg": (dcg, {"k", "gain", "discount", "gains", "log_base"}),
    "ndcg": (ndcg, {"k", "gain", "discount", "gains", "log_base"}),
    "kappa": (kappa, {"kappa_marginals"}),
}
