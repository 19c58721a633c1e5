"""Comparing two orderings: Kendall's tau and Spearman's rho.

Two kinds of input. Two rankings of the same document ids, without ties (:func:`kendall_tau_distance`,
:func:`spearman_rho`); or two lists of scores of the same items, paired by position, where values may tie — the
MAP of the same systems under two sets of judgments (Voorhees 2000) — with Kendall's tau-a, tau-b and tau-c
(:func:`kendall_tau`) and Spearman's rho on mid-ranks (:func:`spearman_rho_scores`), as scipy.stats computes them.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from itertools import combinations

from .. import conventions as conv
from .. import exact
from ..document import Formula, Note, Paragraph, Table
from ..errors import InputTypeError, RankingError
from ..limits import MAX_RANKS, MAX_TEXT, check_at_most
from ..metric import Result, check_cutoff
from ..ranking import parse_ids
from ..trace import Traced, minimum, total
from .scores import average_ranks, read_scores, traced_sqrt  # as the paired tests read them: '0.1' and 0.1 are 1/10


def _same_items(a, b, hint=""):
    in_a, in_b = set(a), set(b)
    only_a = [d for d in a if d not in in_b]
    only_b = [d for d in b if d not in in_a]
    if only_a or only_b:
        parts = []
        if only_a:
            parts.append(f"only in the first: {', '.join(only_a)}")
        if only_b:
            parts.append(f"only in the second: {', '.join(only_b)}")
        raise RankingError("the two rankings must order the same documents (" + "; ".join(parts) + ")" + hint)


def _two_rankings(a, b, other: str):
    """Two rankings of ids; numbers given by mistake (scores with ties) get a pointer to the metric for scores."""
    try:
        a, b = parse_ids(a, "first ranking"), parse_ids(b, "second ranking")
        return a, b
    except RankingError as error:
        if _all_numbers(a) and _all_numbers(b):
            raise RankingError(f"{error}; to correlate two lists of scores (ties allowed) use {other}") from None
        raise


def _all_numbers(values) -> bool:
    items = values.replace(";", ",").replace(" ", ",").split(",") if isinstance(values, str) else values
    try:
        return all(exact.parse_number(str(item)) is not None for item in items if str(item).strip())
    except (ValueError, TypeError):
        return False


def _order(x, y, x_first: bool) -> str:
    return f"{x} before {y}" if x_first else f"{y} before {x}"


def kendall_tau_distance(a, b, k=None) -> Result:
    """Normalised Kendall tau distance: the share of document pairs the two rankings order differently.

    K_n = K_d / (n(n-1)/2), K_d the number of discordant pairs (Kendall 1938). 0 = same order, 1 = reversed.
    With k, only the documents in the top k of both rankings are compared (their intersection).

    >>> kendall_tau_distance("a,b,c", "b,a,c").value
    Fraction(1, 3)
    """
    a, b = _two_rankings(a, b, "kendall-tau (kendall_tau)")
    k = check_cutoff(k)
    notes = []
    if k is None:
        _same_items(a, b, "; use --k to compare only the documents both top-k lists share")
        items = list(a)
    else:
        top_b = set(b[:k])
        items = [d for d in a[:k] if d in top_b]
        dropped = sorted(set(a[:k]) ^ top_b)
        notes.append(Note("convention", f"at k = {k} the pairs are taken among the documents in the top {k} of both "
                                        "rankings" + (f"; not in both: {', '.join(dropped)}" if dropped else "")))
    if len(items) < 2:
        raise RankingError(f"Kendall tau needs at least two documents in common, found {len(items)}")
    pos_a = {d: i for i, d in enumerate(a, 1)}
    pos_b = {d: i for i, d in enumerate(b, 1)}
    rows, discordant = [], 0
    for x, y in combinations(items, 2):
        before_a, before_b = pos_a[x] < pos_a[y], pos_b[x] < pos_b[y]
        discordant += before_a != before_b
        rows.append((f"{x}, {y}", _order(x, y, before_a), _order(x, y, before_b), "" if before_a == before_b else "discordant"))
    n = Traced(len(items), "n", "Documents compared")
    kd = Traced(discordant, "K_d", "Discordant pairs")
    pairs = (n * (n - 1) / 2).named("pairs", "Pairs of documents n(n-1)/2")
    value = (kd / pairs).named("K_n" if k is None else f"K_n@{k}", "Normalised Kendall tau distance")
    table = Table(("pair", "first ranking", "second ranking", ""), tuple(rows))
    context = f"First ranking: {', '.join(a)}; second ranking: {', '.join(b)}"
    return Result("kendall", "Normalised Kendall tau distance", value, context=context, parameters={"k": k},
                  notes=notes, tables=[table])


def spearman_rho(a, b) -> Result:
    """Spearman's rank correlation between two orderings of the same documents.

    ρ = cov(rank_a, rank_b) / (σ_a σ_b), which for rankings without ties equals 1 - 6 Σ d_i² / (n(n² - 1)).

    >>> spearman_rho("a,b,c", "c,b,a").value
    -1
    """
    a, b = _two_rankings(a, b, "spearman-scores (spearman_rho_scores)")
    _same_items(a, b, "; to correlate two lists of scores use spearman-scores (spearman_rho_scores)"
                if _all_numbers(a) and _all_numbers(b) else "")
    if len(a) < 2:
        raise RankingError("Spearman's rho needs at least two documents")
    pos_b = {d: i for i, d in enumerate(b, 1)}
    rows, squares = [], []
    for rank_a, doc in enumerate(a, 1):
        d = rank_a - pos_b[doc]
        rows.append((doc, rank_a, pos_b[doc], d, d * d))
        squares.append(Traced(d * d, f"d²_{rank_a}"))
    summed = total(squares, "Σd²", "Sum of squared rank differences")
    n = Traced(len(a), "n", "Documents")
    value = (1 - 6 * summed / (n * (n**2 - 1))).named("ρ", "Spearman's rho")
    context = f"First ranking: {', '.join(a)}; second ranking: {', '.join(b)}"
    notes = [Paragraph("A ranking has no ties, so the covariance formula of Spearman's rho reduces to "
                       "ρ = 1 - 6 Σ d² / (n(n² - 1)), d being the difference of a document's two ranks.")]
    return Result("spearman", "Spearman's rank correlation", value, context=context, notes=notes,
                  tables=[Table(("document", "rank in first", "rank in second", "d", "d²"), tuple(rows))])


# two lists of scores of the same items, ties allowed ---------------------------------------------------------

SHOWN_PAIRS = 10  # up to this many items every pair is listed (45 pairs); beyond, the pairs are only counted
SHOWN_VALUES = 12  # values of each list written out in the one-line context


def _score_list(values, name: str) -> list:
    """One list of exact scores: '0.3,0.2,0.2' or a list/tuple (or 1-d numpy array) of int, Fraction, float, str."""
    if hasattr(values, "tolist") and not isinstance(values, (str, list, tuple)):
        values = values.tolist()  # a numpy array
    if not isinstance(values, (str, list, tuple)):
        raise InputTypeError(f"{name} must be numbers such as '0.3,0.2,0.2' or a list of numbers, "
                             f"got {type(values).__name__} {values!r:.40}")
    if isinstance(values, str):
        check_at_most(len(values), MAX_TEXT, f"the length of {name} as written (characters)")
    check_at_most(len(values), MAX_RANKS, f"the number of values in {name}")
    scores = read_scores(values, name)
    return check_at_most(len(scores), MAX_RANKS, f"the number of values in {name}") and scores


def _paired_scores(x, y, names, what: str):
    """(item labels, x scores, y scores): two lists paired by position, or two mappings item -> score."""
    if isinstance(x, dict) or isinstance(y, dict):
        if not (isinstance(x, dict) and isinstance(y, dict)):
            raise RankingError(f"{what}: give both {names[0]} and {names[1]} as item -> score mappings, or both as lists")
        only_x, only_y = [str(k) for k in x if k not in y], [str(k) for k in y if k not in x]
        if only_x or only_y:
            parts = [f"only in {names[0]}: {', '.join(only_x)}" if only_x else "",
                     f"only in {names[1]}: {', '.join(only_y)}" if only_y else ""]
            raise RankingError(f"{what} pairs the scores by item; " + "; ".join(p for p in parts if p))
        items = list(x)
        xs, ys = _score_list([x[k] for k in items], names[0]), _score_list([y[k] for k in items], names[1])
        labels = tuple(str(k) for k in items)
    else:
        xs, ys = _score_list(x, names[0]), _score_list(y, names[1])
        if len(xs) != len(ys):
            raise RankingError(f"{what} pairs the scores by position: {names[0]} has {len(xs)} values, "
                               f"{names[1]} has {len(ys)}")
        labels = tuple(str(i) for i in range(1, len(xs) + 1))
    if len(xs) < 2:
        raise RankingError(f"{what} needs at least two items, got {len(xs)}")
    return labels, xs, ys


def _names(names) -> tuple[str, str]:
    if (not isinstance(names, (list, tuple)) or len(names) != 2
            or not all(isinstance(name, str) and name.strip() for name in names)):
        raise InputTypeError(f"names must be two labels such as ('x', 'y'), got {names!r:.60}")
    return names[0].strip(), names[1].strip()


def _shown(value) -> str:
    """A score as a reader wants it: its decimal when that is exact (0.25), else the exact value (1/3)."""
    return exact.decimal_text(value) if exact.is_terminating(value) else exact.exact_text(value)


def _listed(values) -> str:
    shown = ", ".join(_shown(v) for v in values[:SHOWN_VALUES])
    return shown + (f", … ({len(values):,} values)" if len(values) > SHOWN_VALUES else "")


def _context(labels, xs, ys, names) -> str:
    return f"{len(xs)} items scored twice, paired by item; {names[0]}: {_listed(xs)}; {names[1]}: {_listed(ys)}"


def _tied_pairs(values) -> int:
    """Pairs of equal values: Σ t(t - 1)/2 over the groups of t equal values."""
    return sum(t * (t - 1) // 2 for t in Counter(values).values())


def _strict_inversions(values) -> tuple[list, int]:
    """(values sorted, pairs i < j with values[i] > values[j]); equal values are no inversion. Merge sort: O(n log n)."""
    if len(values) < 2:
        return list(values), 0
    middle = len(values) // 2
    left, count_left = _strict_inversions(values[:middle])
    right, count_right = _strict_inversions(values[middle:])
    merged, count, i, j = [], count_left + count_right, 0, 0
    while i < len(left) and j < len(right):
        if right[j] < left[i]:  # smaller than every value left in `left`: one inversion with each
            merged.append(right[j])
            count += len(left) - i
            j += 1
        else:
            merged.append(left[i])
            i += 1
    return merged + left[i:] + right[j:], count


def pair_counts(x, y) -> dict[str, int]:
    """How the n(n-1)/2 pairs of items fall: concordant, discordant, tied in x only, in y only, in both.

    Sorted by (x, y), the discordant pairs are the strict inversions of y (pairs tied in x are in increasing y
    order), counted by merge sort in O(n log n) rather than pair by pair (Knight 1966, as scipy.stats.kendalltau).

    >>> pair_counts([1, 2, 2, 3], [1, 3, 2, 2])
    {'pairs': 6, 'concordant': 3, 'discordant': 1, 'tied in x only': 1, 'tied in y only': 1, 'tied in both': 0}
    """
    xs, ys = list(x), list(y)
    pairs = len(xs) * (len(xs) - 1) // 2
    tied_x, tied_y, tied_both = _tied_pairs(xs), _tied_pairs(ys), _tied_pairs(zip(xs, ys))
    order = sorted(range(len(xs)), key=lambda i: (xs[i], ys[i]))
    discordant = _strict_inversions([ys[i] for i in order])[1]
    concordant = pairs - tied_x - tied_y + tied_both - discordant
    return {"pairs": pairs, "concordant": concordant, "discordant": discordant, "tied in x only": tied_x - tied_both,
            "tied in y only": tied_y - tied_both, "tied in both": tied_both}


def _sign(value) -> int:
    return (value > 0) - (value < 0)


def _pair_kind(dx: int, dy: int, names) -> str:
    if dx == 0 and dy == 0:
        return "tied in both"
    if dx == 0:
        return f"tied in {names[0]}"
    if dy == 0:
        return f"tied in {names[1]}"
    return "concordant" if dx == dy else "discordant"


def _pair_table(labels, xs, ys, names) -> Table:
    rows = []
    for i, j in combinations(range(len(xs)), 2):
        dx, dy = _sign(xs[i] - xs[j]), _sign(ys[i] - ys[j])
        rows.append((f"{labels[i]}, {labels[j]}", f"{_shown(xs[i])} {'<=>'[dx + 1]} {_shown(xs[j])}",
                     f"{_shown(ys[i])} {'<=>'[dy + 1]} {_shown(ys[j])}", _pair_kind(dx, dy, names)))
    return Table(("pair", names[0], names[1], "pair is"), tuple(rows), "Every pair of items")


_TAU_FORMULAS = {
    "a": Formula("τ_a = (C - D) / n_0, n_0 = n(n - 1)/2", r"\tau_a = \frac{C - D}{n_0},\ n_0 = \frac{n(n-1)}{2}"),
    "b": Formula("τ_b = (C - D) / √((n_0 - n_1)(n_0 - n_2)), n_0 = n(n - 1)/2",
                 r"\tau_b = \frac{C - D}{\sqrt{(n_0 - n_1)(n_0 - n_2)}},\ n_0 = \frac{n(n-1)}{2}"),
    "c": Formula("τ_c = 2m(C - D) / (n²(m - 1)), m = min(distinct x values, distinct y values)",
                 r"\tau_c = \frac{2m(C - D)}{n^2 (m - 1)},\ m = \min(k_x, k_y)"),
}

_TAU_READINGS = {
    "a": "tau-a divides by every pair, tied or not: with ties it cannot reach ±1, however alike the two orderings are.",
    "b": "tau-b leaves the pairs tied in x out of one factor of the denominator and the pairs tied in y out of the "
         "other, so it is ±1 exactly when the two lists order every pair alike and tie the same pairs.",
    "c": "tau-c (Stuart's) divides C - D by the most a table of m ordered categories allows, m the fewer distinct "
         "values: unlike tau-b it can come close to ±1 when the two lists have different numbers of distinct values.",
}


def kendall_tau(x, y, tau_variant=None, *, names=("x", "y")) -> Result:
    """Kendall's rank correlation of two score lists of the same items, ties allowed: tau-a, tau-b or tau-c.

    Each of the n0 = n(n-1)/2 pairs of items is concordant (x and y order it alike: C), discordant (oppositely: D)
    or tied in x, in y, or both (n_1 pairs tied in x, n_2 in y, whether or not also tied in the other):

    - τ_a = (C - D) / n_0 (Kendall 1938);
    - τ_b = (C - D) / √((n_0 - n_1)(n_0 - n_2)) (Kendall 1945; scipy.stats.kendalltau's default);
    - τ_c = 2m(C - D) / (n²(m - 1)), m = min(distinct x values, distinct y values) (Stuart 1953; scipy.stats.kendalltau
      with ``variant='c'``).

    Without ties the three agree. Scores are read exactly ('0.1' and the float 0.1 are 1/10); τ_a and τ_c are
    fractions, τ_b a fraction or a square root (sympy). A list whose values are all equal orders no pair: τ_b and τ_c
    are then undefined (scipy returns nan) and this raises a RankingError; τ_a is 0.

    ``x`` and ``y``: '0.3,0.2,0.2', lists or tuples of numbers (paired by position), or two mappings item -> score
    (paired by item). ``tau_variant``: 'b' (default), 'a' or 'c' (:data:`irlab.conventions.TAU_VARIANT`).

    References: Kendall 1938, Biometrika 30(1/2); Kendall 1945, Biometrika 33(3); Stuart 1953, Biometrika 40(1/2);
    scipy.stats.kendalltau documentation; Voorhees 2000 (tau between system orderings under two sets of judgments).

    >>> kendall_tau("1,2,2,3", "1,3,2,2").value  # C = 3, D = 1, n_1 = n_2 = 1: 2 / √(5 · 5)
    Fraction(2, 5)
    >>> kendall_tau("1,2,2,3", "1,3,2,2", "a").value, kendall_tau("1,2,2,3", "1,3,2,2", "c").value
    (Fraction(1, 3), Fraction(3, 8))
    """
    choice = conv.TAU_VARIANT.choice(tau_variant)
    names = _names(names)
    labels, xs, ys = _paired_scores(x, y, names, "Kendall's tau")
    counts = pair_counts(xs, ys)
    tied_x = counts["tied in x only"] + counts["tied in both"]
    tied_y = counts["tied in y only"] + counts["tied in both"]
    constant = [name for name, tied in zip(names, (tied_x, tied_y)) if tied == counts["pairs"]]
    notes = []
    if constant and choice.key != "a":
        raise RankingError(f"Kendall's tau-{choice.key} is undefined: every value of {' and of '.join(constant)} is the "
                           f"same, so no pair is ordered and the denominator is 0 (scipy.stats.kendalltau returns nan); "
                           f"tau-a is 0 here")
    if constant:
        notes.append(Note("warning", f"every value of {' and of '.join(constant)} is the same: no pair is concordant or "
                                     "discordant, so τ_a = 0 (τ_b and τ_c are undefined)"))
    n = Traced(len(xs), "n", "Items")
    pairs = (n * (n - 1) / 2).named("n_0", "Pairs of items n(n - 1)/2")
    concordant = Traced(counts["concordant"], "C", f"Concordant pairs ({names[0]} and {names[1]} order them alike)")
    discordant = Traced(counts["discordant"], "D", "Discordant pairs (ordered oppositely)")
    difference = (concordant - discordant).named("S", "Concordant minus discordant pairs")
    if choice.key == "a":
        tau = (difference / pairs).named("τ_a", "Kendall's tau-a")
    elif choice.key == "b":
        n1 = Traced(tied_x, "n_1", f"Pairs tied in {names[0]} (Σ t(t - 1)/2 over groups of t equal values)")
        n2 = Traced(tied_y, "n_2", f"Pairs tied in {names[1]}")
        root = traced_sqrt((pairs - n1) * (pairs - n2), None, None)
        tau = (difference / root).named("τ_b", "Kendall's tau-b")
    else:
        distinct_x = Traced(len(set(xs)), "k_x", f"Distinct values of {names[0]}")
        distinct_y = Traced(len(set(ys)), "k_y", f"Distinct values of {names[1]}")
        m = minimum([distinct_x, distinct_y], "m", "The fewer distinct values")
        tau = (2 * m * difference / (n ** 2 * (m - 1))).named("τ_c", "Kendall's tau-c (Stuart)")
    _written_as_value(tau)
    if not (tied_x or tied_y):
        notes.append(Note("reading", "no ties in either list: τ_a, τ_b and τ_c are equal here"))
    else:
        notes.append(Note("reading", _TAU_READINGS[choice.key]))
    shown_kinds = {"pairs": "all pairs n_0", "tied in x only": f"tied in {names[0]} only",
                   "tied in y only": f"tied in {names[1]} only"}
    table = Table(("pairs", "count"), tuple((shown_kinds.get(kind, kind), count) for kind, count in counts.items()),
                  f"How the pairs fall (n_1 = tied in {names[0]} = {tied_x}, n_2 = tied in {names[1]} = {tied_y})")
    tables = [table, Table(("item", names[0], names[1]), tuple(zip(labels, map(_shown, xs), map(_shown, ys))), "Scores")]
    if len(xs) <= SHOWN_PAIRS:
        tables.append(_pair_table(labels, xs, ys, names))
    return Result("kendall-tau", f"Kendall's tau-{choice.key}", tau, formula=_TAU_FORMULAS[choice.key],
                  conventions={conv.TAU_VARIANT.name: choice}, context=_context(labels, xs, ys, names), notes=notes,
                  tables=tables)


def _written_as_value(node: Traced) -> None:
    """Write a square-root quotient by its simplified value (sqrt(10)/10), not the shape of its computation."""
    if exact.is_symbolic(node.value):
        node.origin = Traced(node.value)


def mid_ranks(values) -> list:
    """Rank 1 for the smallest value; tied values share the mean of the ranks they occupy (scipy's 'average').

    >>> mid_ranks([10, 20, 20, 30])
    [1, Fraction(5, 2), Fraction(5, 2), 4]
    """
    return [exact.rational(rank) for rank in average_ranks(list(values))]


def spearman_rho_scores(x, y, *, names=("x", "y")) -> Result:
    """Spearman's rho of two score lists of the same items, ties allowed: Pearson's correlation of the mid-ranks.

    Each list is ranked (1 = smallest), tied values sharing the mean of their ranks (mid-ranks); then
    ρ = Σ (r_i - r̄)(s_i - r̄) / √(Σ (r_i - r̄)² · Σ (s_i - r̄)²), r̄ = (n + 1)/2 — what scipy.stats.spearmanr computes.
    The textbook shortcut ρ = 1 - 6 Σ d_i² / (n(n² - 1)), d_i = r_i - s_i, holds only without ties: the explanation
    computes it too and shows how far it is off. Exact: a fraction, or a square root (sympy) when there are ties.
    A list whose values are all equal has no spread: ρ is then undefined (scipy returns nan) and this raises a
    RankingError.

    ``x`` and ``y``: '0.3,0.2,0.2', lists or tuples of numbers (paired by position), or two mappings item -> score.
    For two rankings of document ids use :func:`spearman_rho`.

    References: Spearman 1904, American Journal of Psychology 15(1); Kendall 1948, Rank Correlation Methods (ties);
    scipy.stats.spearmanr documentation.

    >>> spearman_rho_scores("1,2,2,3", "1,3,2,2").value  # mid-ranks 1, 5/2, 5/2, 4 and 1, 4, 5/2, 5/2
    Fraction(1, 2)
    >>> spearman_rho_scores("1,2,3,4", "1,3,2,2").value  # 3/2 / √(5 · 9/2); the shortcut gives 7/20
    sqrt(10)/10
    """
    names = _names(names)
    labels, xs, ys = _paired_scores(x, y, names, "Spearman's rho")
    constant = [name for name, values in zip(names, (xs, ys)) if len(set(values)) == 1]
    if constant:
        raise RankingError(f"Spearman's rho is undefined: every value of {' and of '.join(constant)} is the same, so its "
                           "ranks have no spread and the denominator is 0 (scipy.stats.spearmanr returns nan)")
    rx, ry = mid_ranks(xs), mid_ranks(ys)
    n = Traced(len(xs), "n", "Items")
    mean_rank = (n + 1) / 2  # of both lists: mid-ranks keep the sum 1 + … + n
    # the deviations are listed in the table: the sums are written with their values, not twice (symbols, then values)
    dev_x = [Traced(exact.sub(r, mean_rank.value)) for r in rx]
    dev_y = [Traced(exact.sub(s, mean_rank.value)) for s in ry]
    s_xy = total([a * b for a, b in zip(dev_x, dev_y)], "S_xy", f"Σ (rank of {names[0]} - r_mean)(rank of {names[1]} - r_mean)")
    s_xx = total([a ** 2 for a in dev_x], "S_xx", f"Σ (rank of {names[0]} - r_mean)²")
    s_yy = total([b ** 2 for b in dev_y], "S_yy", f"Σ (rank of {names[1]} - r_mean)²")
    rho = (s_xy / traced_sqrt(s_xx * s_yy, None, None)).named("ρ", "Spearman's rho: Pearson's correlation of the mid-ranks")
    _written_as_value(rho)
    differences = [exact.sub(r, s) for r, s in zip(rx, ry)]
    squares = total([Traced(exact.mul(d, d)) for d in differences], "Σd²", "Sum of squared mid-rank differences d = r - s")
    shortcut = (1 - 6 * squares / (n * (n ** 2 - 1))).named("ρ_no-ties", "The no-ties formula 1 - 6 Σd² / (n(n² - 1))")
    gap = (shortcut - rho).named("Δ", "How far the no-ties formula is from ρ")
    ties = len(set(xs)) < len(xs) or len(set(ys)) < len(ys)
    if ties:
        spread = exact.rational(Fraction(len(xs) * (len(xs) ** 2 - 1), 12))
        reading = (f"with ties the shortcut 1 - 6 Σd² / (n(n² - 1)) is not Pearson's correlation of the mid-ranks: it "
                   f"takes the spread of each list's ranks to be that of 1 … n, n(n² - 1)/12 = {exact.value_text(spread)}, "
                   f"and ties shrink it (S_xx = {exact.value_text(s_xx.value)}, S_yy = {exact.value_text(s_yy.value)}); "
                   f"here it gives {exact.value_text(shortcut.value)} instead of ρ = {exact.value_text(rho.value)}, "
                   f"off by {exact.value_text(gap.value)}")
    else:
        reading = "no ties: the ranks are a permutation of 1 … n and the shortcut 1 - 6 Σd² / (n(n² - 1)) is exact (Δ = 0)"
    rows = tuple((label, _shown(a), r, _shown(b), s, u.value, v.value, d, exact.mul(d, d))
                 for label, a, r, b, s, u, v, d in zip(labels, xs, rx, ys, ry, dev_x, dev_y, differences))
    table = Table(("item", names[0], f"rank r of {names[0]}", names[1], f"rank s of {names[1]}", "r - r_mean", "s - r_mean",
                   "d = r - s", "d²"), rows, "Mid-ranks (1 = smallest; tied values share the mean of their ranks), r_mean = (n + 1)/2 = "
                  f"{exact.value_text(mean_rank.value)}")
    formula = Formula("ρ = S_xy / √(S_xx · S_yy), S_xy = Σ (r_i - r_mean)(s_i - r_mean), r, s the mid-ranks",
                      r"\rho = \frac{\sum_i (r_i - \bar r)(s_i - \bar r)}{\sqrt{\sum_i (r_i - \bar r)^2 \sum_i (s_i - \bar r)^2}}")
    return Result("spearman-scores", "Spearman's rho of two score lists (mid-ranks)", rho, formula=formula,
                  context=_context(labels, xs, ys, names), notes=[Note("reading", reading)], tables=[table],
                  support=[rho, shortcut, gap])  # the explorer reads (ρ, ρ_no-ties, Δ) from here
