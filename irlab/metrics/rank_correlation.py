"""Comparing two rankings of the same documents: Kendall tau distance and Spearman's rho."""

from __future__ import annotations

from itertools import combinations

from ..document import Note, Paragraph, Table
from ..errors import RankingError
from ..metric import Result, check_cutoff
from ..ranking import parse_ids
from ..trace import Traced, total


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


def _order(x, y, x_first: bool) -> str:
    return f"{x} before {y}" if x_first else f"{y} before {x}"


def kendall_tau_distance(a, b, k=None) -> Result:
    """Normalised Kendall tau distance: the share of document pairs the two rankings order differently.

    K_n = K_d / (n(n-1)/2), K_d the number of discordant pairs (Kendall 1938). 0 = same order, 1 = reversed.
    With k, only the documents in the top k of both rankings are compared (their intersection).

    >>> kendall_tau_distance("a,b,c", "b,a,c").value
    Fraction(1, 3)
    """
    a, b = parse_ids(a, "first ranking"), parse_ids(b, "second ranking")
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
    a, b = parse_ids(a, "first ranking"), parse_ids(b, "second ranking")
    _same_items(a, b)
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
