"""Reciprocal rank: how soon the first relevant document appears."""

from __future__ import annotations

from ..document import Formula, Note
from ..metric import Cut, Result
from ..trace import Traced
from .common import rank_table
from .ties import (AVERAGED, AVERAGED_RR_NOTE, expected_reciprocal_rank, first_relevant_group, first_relevant_table,
                   tie_choice, tie_notes, with_tie_columns)


def reciprocal_rank(ranking, k=None, ties=None) -> Result:
    """RR@k = 1 / rank of the first relevant document, 0 if none is in the top k.

    Averaged over queries it is MRR (Voorhees 1999; trec_eval recip_rank).
    A ranking given with its scores may have ties: ``ties`` reads it in the order written (the default) or, with
    tie-averaged, takes the mean over every order of each tied group (McSherry & Najork 2008): when the first relevant
    documents, r of them, are tied at ranks s+1 … s+n, the first is at s+j with probability C(n-j, r-1) / C(n, r), and
    E(RR@k) = Σ_{s+j<=k} C(n-j, r-1) / (C(n, r) · (s+j)).

    >>> from irlab import Ranking
    >>> reciprocal_rank(Ranking.parse("NNRNR")).value
    Fraction(1, 3)
    >>> reciprocal_rank(Ranking.parse("NRNR", scores="0.9,0.5,0.5,0.1"), ties="tie-averaged").value  # (1/2)(1/2 + 1/3)
    Fraction(5, 12)
    """
    cut = Cut.of(ranking, k)
    tie = tie_choice(ranking, ties, "rr")
    symbol = f"RR{cut.suffix}"
    group = first_relevant_group(ranking, cut.depth) if tie is not None and tie.key == AVERAGED else None
    if group is not None and group[1] > group[0]:  # the first relevant documents are tied: their order matters
        return _tie_averaged(ranking, cut, tie, group, symbol)
    first = next((rank for rank in range(1, cut.depth + 1) if ranking.relevance[rank - 1]), None)
    marks = ["first relevant" if rank == first else "" for rank in range(1, cut.depth + 1)]
    notes = []
    if first is None:
        notes.append(Note("warning", f"no relevant document in the top {cut.depth}: RR is 0"))
        value = Traced(0, symbol, "Reciprocal rank")
    else:
        value = (1 / Traced(first, "rank_1", "Rank of the first relevant document")).named(symbol, "Reciprocal rank")
    table = rank_table(ranking, cut.depth, {"note": marks})
    conventions = {}
    if tie is not None:
        conventions["ties"] = tie
        notes += tie_notes(ranking, tie, cut.depth)
        table = with_tie_columns(table, ranking, cut.depth)
    return Result("rr", "Reciprocal rank", value, ranking=ranking, parameters={"k": cut.k}, notes=notes,
                  conventions=conventions, tables=[table])


def _tie_averaged(ranking, cut, tie, group, symbol) -> Result:
    """E(RR@k) over every order of the tied group holding the first relevant documents."""
    value = expected_reciprocal_rank(ranking, cut.depth, group, symbol)
    notes = tie_notes(ranking, tie, cut.depth) + [Note("reading", AVERAGED_RR_NOTE)]
    if group[1] > cut.depth:
        notes.append(Note("reading", f"the cut-off k = {cut.depth} splits the tied ranks {group[0]}-{group[1]}: the "
                                     "orders whose first relevant document lies below rank k add 0"))
    formula = Formula("E(RR@k) = Σ_{i<=k} P(first relevant at i) / i",
                      r"E(\mathrm{RR}@k) = \sum_{i=1}^{k} \frac{P(\text{first relevant at } i)}{i}")
    return Result("rr", "Reciprocal rank", value, formula=formula, ranking=ranking, parameters={"k": cut.k},
                  notes=notes, conventions={"ties": tie}, tables=[first_relevant_table(ranking, cut.depth, group)])
