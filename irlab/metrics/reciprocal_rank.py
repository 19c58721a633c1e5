"""Reciprocal rank: how soon the first relevant document appears."""

from __future__ import annotations

from ..document import Note
from ..metric import Cut, Result
from ..trace import Traced
from .common import rank_table


def reciprocal_rank(ranking, k=None) -> Result:
    """RR@k = 1 / rank of the first relevant document, 0 if none is in the top k.

    Averaged over queries it is MRR (Voorhees 1999; trec_eval recip_rank).

    >>> from irlab import Ranking
    >>> reciprocal_rank(Ranking.parse("NNRNR")).value
    Fraction(1, 3)
    """
    cut = Cut.of(ranking, k)
    first = next((rank for rank in range(1, cut.depth + 1) if ranking.relevance[rank - 1]), None)
    symbol = f"RR{cut.suffix}"
    marks = ["first relevant" if rank == first else "" for rank in range(1, cut.depth + 1)]
    notes = []
    if first is None:
        notes.append(Note("warning", f"no relevant document in the top {cut.depth}: RR is 0"))
        value = Traced(0, symbol, "Reciprocal rank")
    else:
        value = (1 / Traced(first, "rank_1", "Rank of the first relevant document")).named(symbol, "Reciprocal rank")
    return Result("rr", "Reciprocal rank", value, ranking=ranking, parameters={"k": cut.k}, notes=notes,
                  tables=[rank_table(ranking, cut.depth, {"note": marks})])
