"""Tied scores: P@k, RR, AP, DCG and nDCG of a ranking given with its scores, under the ``ties`` convention.

A system that gives several documents the same score has not ordered them. trec_eval breaks the tie by docno
(descending) and ranx keeps the input order: either way one order is evaluated, the ranking as written (``ties =
docno-descending`` or ``input-order``). McSherry & Najork (2008, "Computing information retrieval performance measures
efficiently in the presence of tied scores", ECIR, LNCS 4956, pp. 414-421) take instead the mean over every order of
each tied group (``ties = tie-averaged``), and show it needs no enumeration:

* DCG: every rank of a tied group gets the group's mean gain, so the group adds Ḡ · Σ_{i in group} discount(i)
  (scikit-learn's ``dcg_score`` and ``ndcg_score`` with ``ignore_ties=False``);
* AP: a relevant document of a group of n ranks s+1 … s+n, with c relevant documents above the group and r in it, is
  at rank s+j with probability 1/n, and each of the r - 1 others precedes it with probability (j-1)/(n-1), so the
  group adds E = (r/n) · Σ_j (c + 1 + (j-1)(r-1)/(n-1)) / (s+j) to the sum of precisions;
* P@k: each rank of a group holds a relevant document in r of every n orders, so a group the cut-off k splits adds
  r · (k - s) / n expected relevant documents to the top k (a group wholly inside it adds its r in every order);
* RR: if the first group holding relevant documents has r of them at ranks s+1 … s+n, the first relevant one is at
  s+j with probability C(n-j, r-1) / C(n, r) (the other r - 1 lie below it), so E(RR) = Σ_j C(n-j, r-1) / (C(n, r) ·
  (s+j)), ranks beyond the cut-off adding 0.

scikit-learn's ``average_precision_score`` is not that mean: it lets a tied group enter at once, as one threshold of
the precision-recall curve, so each relevant document of the group counts the precision at the group's last rank
(``ties = one-threshold``). For RNRNR scored 0.9, 0.8, 0.8, 0.8, 0.1 the mean over orders is 209/270 and scikit-learn
gives 7/10:

>>> from irlab import Ranking
>>> from irlab.metrics import average_precision
>>> ranking = Ranking.parse("RNRNR", scores="0.9,0.8,0.8,0.8,0.1")
>>> average_precision(ranking, ties="tie-averaged").value, average_precision(ranking, ties="one-threshold").value
(Fraction(209, 270), Fraction(7, 10))
"""

from __future__ import annotations

from fractions import Fraction
from math import comb

from .. import conventions as conv
from ..document import Note, Table
from ..errors import ParameterError
from ..ranking import score_text
from ..trace import Traced, call, total
from .common import precision_at

ORDERED = ("docno-descending", "input-order")  # the ranking as written is the order evaluated
AVERAGED, THRESHOLD = "tie-averaged", "one-threshold"
REFERENCE = "McSherry & Najork 2008, ECIR, LNCS 4956, pp. 414-421"


def tie_choice(ranking, ties, metric: str, allowed=(AVERAGED,)):
    """The ``ties`` choice in force, or None for a ranking without scores (its explanation is then unchanged).

    A choice that needs scores, or that ``metric`` does not define, is refused with the reason."""
    choice = conv.TIES.choice(ties)
    if choice.key not in ORDERED + tuple(allowed):
        defined = ", ".join(ORDERED + tuple(allowed))
        reason = ("it is scikit-learn's rule for average precision (average_precision_score)" if choice.key == THRESHOLD
                  else "it is not defined for this metric")
        raise ParameterError(f"{metric} does not take ties = {choice.key}: {reason}; choose one of {defined}")
    if ranking.scores is None:
        if ties is not None and choice.key not in ORDERED:
            raise ParameterError(f"ties = {choice.key} needs the documents' scores (--scores 0.9,0.8,0.8 with explain, "
                                 "scores = [...] beside ranking in an exercise set): a ranking without scores has no ties")
        return None
    return choice


def group_text(first: int, last: int) -> str:
    return f"{first}-{last}"


def tie_columns(ranking, depth: int) -> dict:
    """The score at each rank and, for a tied rank, the ranks of its group: columns of a per-rank table."""
    tied = [""] * depth
    for first, last in ranking.tied_groups(depth):
        if last > first:
            for rank in range(first, min(last, depth) + 1):
                tied[rank - 1] = group_text(first, last)
    return {"score": [score_text(s) for s in ranking.scores[:depth]], "tied ranks": tied}


def with_tie_columns(table: Table, ranking, depth: int, after: int = 2) -> Table:
    """``table`` (one row per rank) with the score and tied-ranks columns inserted after its first ``after`` columns."""
    columns = tie_columns(ranking, depth)
    names = table.columns[:after] + tuple(columns) + table.columns[after:]
    rows = tuple(row[:after] + tuple(cells[i] for cells in columns.values()) + row[after:]
                 for i, row in enumerate(table.rows))
    return Table(names, rows, table.caption)


def tie_notes(ranking, choice, depth: int) -> list[Note]:
    """What is tied, and what the convention in force does with it."""
    groups = [(first, last) for first, last in ranking.tied_groups(depth) if last > first]
    if not groups:
        return [Note("convention", f"ties = {choice.key}: no two of the scores down to rank {depth} are equal, so every "
                                   "tie convention gives the same value")]
    listed = "; ".join(f"ranks {group_text(first, last)} (score {score_text(ranking.scores[first - 1])})"
                       for first, last in groups[:6])
    if len(groups) > 6:
        listed += f"; and {len(groups) - 6} more groups"
    doing = {
        "docno-descending": "the tied documents are evaluated in the order written, as trec_eval orders them when "
                            "their docnos descend down each group (another docno order is another ranking)",
        "input-order": "the tied documents are evaluated in the order written (ranx keeps the input order)",
        AVERAGED: "the value is the mean over every order of each tied group, computed without listing the orders",
        THRESHOLD: "each tied group enters at once, as one threshold of the precision-recall curve: every relevant "
                   "document of a group counts the precision at the group's last rank (scikit-learn "
                   "average_precision_score)",
    }[choice.key]
    return [Note("reading", f"tied scores: {listed}; {doing}")]  # the convention itself is named once, above


AVERAGED_AP_NOTE = ("a relevant document of a tied group of n ranks s+1 … s+n, with c relevant documents above the "
                    "group and r in it, is at each of its ranks s+j with probability 1/n, and each of the r - 1 others "
                    "precedes it with probability (j-1)/(n-1): the group adds E = (r/n) · Σ_j (c + 1 + (j-1)(r-1)/(n-1)) "
                    "/ (s+j) to the sum of precisions (scikit-learn's average_precision_score is ties = one-threshold, "
                    "not this mean)")
AVERAGED_DCG_NOTE = ("over every order of a tied group, each of its ranks holds each of its documents equally often, so "
                     "each rank's expected gain is the group's mean gain Ḡ: the group adds Ḡ · D, D the sum of the "
                     "discounts of its ranks (down to k)")


def split_group(ranking, depth: int):
    """A tied group that the cut-off k splits, if any (first, last)."""
    for first, last in ranking.tied_groups(depth):
        if first <= depth < last:
            return first, last
    return None


# AP -------------------------------------------------------------------------------------------

def averaged_precisions(ranking, depth: int):
    """The terms of S = Σ E[rel_i · P@i] under tie-averaging, and each rank's expected contribution (for the table).

    An untied relevant rank i adds P@i; a tied group with relevant documents adds E_{first-last} (a step)."""
    terms, per_rank = [], [None] * depth
    for first, last in ranking.tied_groups(depth):
        n, s = last - first + 1, first - 1
        above = ranking.hits(s)
        relevant = ranking.hits(last) - above
        if relevant == 0:
            continue
        if n == 1:
            term = precision_at(ranking, first)
            terms.append(term)
            per_rank[first - 1] = term.value
            continue
        counted = range(1, min(n, depth - s) + 1)
        # the expected relevant count at or above a relevant document placed at the group's j-th rank
        expected = [Fraction(above + 1) + Fraction((j - 1) * (relevant - 1), n - 1) for j in counted]
        name = group_text(first, last)
        share = Traced(relevant, f"r_{name}") / Traced(n, f"n_{name}")
        group = (share * total([Traced(e) / (s + j) for e, j in zip(expected, counted)])).named(
            f"E_{name}", f"Expected sum of the precisions at the relevant ranks among the tied ranks {name} "
                         f"(r = {relevant} relevant of n = {n}, {above} relevant above)")
        terms.append(group)
        for e, j in zip(expected, counted):
            per_rank[s + j - 1] = Fraction(relevant, n) * e / (s + j)
    return terms, per_rank


def threshold_precisions(ranking, depth: int):
    """The terms of S under scikit-learn's thresholds: each relevant document of a group counts P@(group's last rank)."""
    split = split_group(ranking, depth)
    if split:
        raise ParameterError(f"ties = one-threshold: the cut-off k = {depth} splits the tied ranks "
                             f"{group_text(*split)}, and a threshold takes a tied group whole (scikit-learn's "
                             "average_precision_score has no cut-off); choose k at the end of a group, or ties = "
                             "tie-averaged")
    terms, per_rank = [], [None] * depth
    for first, last in ranking.tied_groups(depth):
        for rank in range(first, last + 1):
            if ranking.relevance[rank - 1]:
                term = precision_at(ranking, last)
                terms.append(term)
                per_rank[rank - 1] = term.value
    return terms, per_rank


def precision_table(ranking, depth: int, per_rank, heading: str) -> Table:
    """rank, judgment, score, tied ranks, relevant above the rank's group, and each rank's share of S."""
    above = [""] * depth
    for first, last in ranking.tied_groups(depth):
        for rank in range(first, min(last, depth) + 1):
            above[rank - 1] = ranking.hits(first - 1)
    columns = tie_columns(ranking, depth)
    rows = tuple((rank, ranking.symbol(rank), columns["score"][rank - 1], columns["tied ranks"][rank - 1],
                  above[rank - 1], per_rank[rank - 1]) for rank in range(1, depth + 1))
    return Table(("rank", "judgment", "score", "tied ranks", "relevant above the group", heading), rows)


# DCG ------------------------------------------------------------------------------------------

def averaged_dcg(ranking, depth: int, gains, term_of, symbol: str, label: str, gain_symbol: str = "G"):
    """DCG with every tied group's mean gain: Σ_groups Ḡ · Σ_{i in group, i <= k} discount(i), exact.

    ``gains`` is the gain at every rank (a group the cut-off splits averages over all of its documents, as
    scikit-learn does); ``term_of(leaf, rank)`` writes leaf · discount(rank) as dcg.py writes it. Returns the traced
    DCG and one row per rank: rank, grade, score, tied ranks, gain, the group's mean gain, the divisor, the term."""
    terms, rows = [], []
    columns = tie_columns(ranking, depth)
    for first, last in ranking.tied_groups(depth):
        name = group_text(first, last)
        ranks = range(first, min(last, depth) + 1)
        if last == first:
            leaf = Traced(gains[first - 1], f"{gain_symbol}_{first}")
            terms.append(term_of(leaf, first))
            mean = leaf.value
        else:
            mean_node = (total([Traced(gains[i - 1], f"{gain_symbol}_{i}") for i in range(first, last + 1)])
                         / (last - first + 1)).named(f"Ḡ_{name}", f"Mean gain of the tied ranks {name}")
            cut = f" (down to k = {depth})" if last > depth else ""
            discounts = total([term_of(Traced(1), i) for i in ranks], f"D_{name}",
                              f"Summed discounts of the tied ranks {name}{cut}")
            terms.append(mean_node * discounts)
            mean = mean_node.value
        for rank in ranks:
            term = term_of(Traced(mean), rank)
            divisor = "none" if term.is_leaf else term.operands[1]
            rows.append((rank, ranking.symbol(rank) if ranking.binary else str(ranking.grades[rank - 1]),
                         columns["score"][rank - 1], columns["tied ranks"][rank - 1], gains[rank - 1],
                         mean if last > first else "", divisor, term.value))
    return total(terms, symbol, label), rows


def averaged_dcg_table(rows, gain_header: str, discount_header: str) -> Table:
    return Table(("rank", "grade", "score", "tied ranks", gain_header, "mean gain Ḡ of the group", discount_header,
                  "term"), tuple(rows), "Ranking (tied ranks share their group's mean gain)")


# P@k ------------------------------------------------------------------------------------------

AVERAGED_PRECISION_NOTE = ("each rank of a tied group of n ranks s+1 … s+n holding r relevant documents holds a relevant "
                           "one in r of every n orders (E(rel_i) = r/n): a group wholly inside the top k adds its r "
                           "relevant documents in every order, and a group the cut-off k splits adds r · (k - s) / n "
                           "expected ones")


def expected_relevance(ranking, depth: int) -> list:
    """E(rel_i) at each rank down to ``depth``: rel_i for an untied rank, r/n on the n ranks of a group holding r."""
    per_rank = []
    for first, last in ranking.tied_groups(depth):
        share = Fraction(ranking.hits(last) - ranking.hits(first - 1), last - first + 1)
        per_rank += [share] * (min(last, depth) - first + 1)
    return per_rank


def expected_hits(ranking, depth: int, split, suffix: str) -> Traced:
    """E(hits@k) when the cut-off k = ``depth`` splits the tied group ``split`` = (first, last): the relevant documents
    above the group, in every order, plus the group's r · (k - s) / n."""
    first, last = split
    s, n = first - 1, last - first + 1
    relevant = ranking.hits(last) - ranking.hits(s)
    name = group_text(first, last)
    group = (Traced(relevant, f"r_{name}") * (Traced(depth, "k") - Traced(s, "s")) / Traced(n, f"n_{name}")).named(
        f"E_{name}", f"Expected relevant documents among the tied ranks {name} inside the top {depth} (r = {relevant} "
                     f"relevant of n = {n}; s = {s} above the group)")
    if s == 0:
        return total([group], f"E(hits{suffix})", f"Expected relevant documents in the top {depth}")
    above = Traced(ranking.hits(s), f"hits@{s}", f"Relevant documents above the tied ranks {name}, in every order")
    return total([above, group], f"E(hits{suffix})", f"Expected relevant documents in the top {depth}")


def expected_relevance_table(ranking, depth: int) -> Table:
    """rank, judgment, score, tied ranks, E(rel_i) and its running sum E(hits@i)."""
    columns = tie_columns(ranking, depth)
    shares, so_far, rows = expected_relevance(ranking, depth), Fraction(0), []
    for rank in range(1, depth + 1):
        so_far += shares[rank - 1]
        rows.append((rank, ranking.symbol(rank), columns["score"][rank - 1], columns["tied ranks"][rank - 1],
                     shares[rank - 1], so_far))
    return Table(("rank", "judgment", "score", "tied ranks", "E(rel_i)", "E(hits@i)"), tuple(rows),
                 "Ranking (a tied rank holds a relevant document with probability r/n)")


# RR -------------------------------------------------------------------------------------------

AVERAGED_RR_NOTE = ("the first tied group holding relevant documents, r of them at ranks s+1 … s+n, has C(n, r) equally "
                    "likely placements of them; in W_(s+j) = C(n - j, r - 1) of those the first relevant document is at "
                    "rank s+j (the other r - 1 lie among the n - j ranks below it), so E(RR) = Σ_j W_(s+j) / (C(n, r) · "
                    "(s+j)), ranks beyond the cut-off adding 0")


def first_relevant_group(ranking, depth: int):
    """The first tied group (first, last) starting at or above ``depth`` that holds a relevant document, if any."""
    for first, last in ranking.tied_groups(depth):
        if ranking.hits(last) > ranking.hits(first - 1):
            return first, last
    return None


def first_relevant_ways(ranking, depth: int, group) -> dict:
    """rank -> W, the placements of the group's relevant documents with the first of them at that rank (down to depth)."""
    first, last = group
    n, relevant = last - first + 1, ranking.hits(last) - ranking.hits(first - 1)
    return {first + j - 1: comb(n - j, relevant - 1) for j in range(1, n - relevant + 2) if first + j - 1 <= depth}


def expected_reciprocal_rank(ranking, depth: int, group, symbol: str) -> Traced:
    """E(RR@k) when the first relevant documents are tied (``group`` = (first, last), two or more ranks)."""
    first, last = group
    n, relevant = last - first + 1, ranking.hits(last) - ranking.hits(first - 1)
    name = group_text(first, last)
    placements = call("C", [Traced(n, f"n_{name}"), Traced(relevant, f"r_{name}")], comb(n, relevant), f"C_{name}",
                      f"Equally likely placements of the r = {relevant} relevant among the n = {n} tied ranks {name}")
    terms = [Traced(ways, f"W_{rank}") / Traced(rank) for rank, ways in first_relevant_ways(ranking, depth, group).items()]
    return (total(terms) / placements).named(symbol, "Expected reciprocal rank")


def first_relevant_table(ranking, depth: int, group) -> Table:
    """rank, judgment, score, tied ranks, W_i, P(first relevant at i) = W_i / C(n, r) and its share P / i of E(RR)."""
    columns = tie_columns(ranking, depth)
    first, last = group
    placements = comb(last - first + 1, ranking.hits(last) - ranking.hits(first - 1))
    ways = first_relevant_ways(ranking, depth, group)
    rows = []
    for rank in range(1, depth + 1):
        w = ways.get(rank)
        rows.append((rank, ranking.symbol(rank), columns["score"][rank - 1], columns["tied ranks"][rank - 1],
                     "" if w is None else w, "" if w is None else Fraction(w, placements),
                     "" if w is None else Fraction(w, placements * rank)))
    return Table(("rank", "judgment", "score", "tied ranks", "W_i", "P(first relevant at i)", "P / i"), tuple(rows),
                 "Ranking (where the first relevant document can be, over every order of the tied ranks)")
