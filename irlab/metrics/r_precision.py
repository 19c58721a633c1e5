"""R-precision: precision at rank R, where R is the number of relevant documents."""

from __future__ import annotations

from ..document import Note
from ..metric import Result
from ..trace import Traced
from .common import rank_table, ranking_notes, relevant_leaf


def r_precision(ranking) -> Result:
    """R-prec = hits@R / R (IIR 8.4; trec_eval Rprec; missing ranks below the list count as non-relevant).

    >>> from irlab import Ranking
    >>> r_precision(Ranking.parse("RNNRR", relevant=5)).value
    Fraction(3, 5)
    """
    relevant = relevant_leaf(ranking)
    notes = ranking_notes(ranking)
    R = relevant.value
    depth = min(R, ranking.retrieved)
    if R == 0:
        notes.append(Note("warning", "there are no relevant documents: R-precision is reported as 0"))
        value = Traced(0, "R-prec", "R-precision")
    else:
        if R > ranking.retrieved:
            notes.append(Note("warning", f"only {ranking.retrieved} documents were retrieved; ranks "
                                         f"{ranking.retrieved + 1}..{R} count as non-relevant"))
        hits_at_r = Traced(ranking.hits(depth), "hits@R", f"Relevant documents in the top R = {R}")
        value = (hits_at_r / relevant).named("R-prec", "R-precision")
    return Result("rprec", "R-precision", value, ranking=ranking, notes=notes,
                  tables=[rank_table(ranking, depth)] if depth else [])
