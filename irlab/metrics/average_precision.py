"""Average precision: the mean of the precisions at the ranks of the relevant documents."""

from __future__ import annotations

from .. import conventions as conv
from ..document import Note
from ..metric import Cut, Result
from ..trace import Traced, minimum, total
from .common import precision_at, rank_table, ranking_notes, relevant_leaf


def average_precision(ranking, k=None, ap_denominator=None) -> Result:
    """AP@k = (1 / D) · Σ_{i<=k} rel_i · P@i, with D = R by default (all relevant documents).

    References: IIR 8.4; trec_eval map.
    The denominator D is the named convention ``ap_denominator`` (relevant | retrieved | min-relevant-k).

    >>> from irlab import Ranking
    >>> average_precision(Ranking.parse("RNNRR", relevant=5)).value
    Fraction(21, 50)
    """
    cut = Cut.of(ranking, k)
    choice = conv.AP_DENOMINATOR.choice(ap_denominator)
    notes = ranking_notes(ranking) if choice.key != "retrieved" else []
    precisions, contributions = [], []
    for rank in range(1, cut.depth + 1):
        p = precision_at(ranking, rank)
        precisions.append(p.value)
        contributions.append(p if ranking.relevance[rank - 1] else None)
    relevant_precisions = [p for p in contributions if p is not None]
    summed = total(relevant_precisions, "S", "Sum of the precisions at the relevant ranks")
    if choice.key == "relevant":
        denominator = relevant_leaf(ranking)
    elif choice.key == "retrieved":
        denominator = Traced(len(relevant_precisions), "D", f"Relevant documents retrieved in the top {cut.depth}")
    else:
        if cut.k is None:
            notes.append(Note("assumption", f"no cut-off given: k is the {ranking.retrieved} documents retrieved"))
        denominator = minimum([relevant_leaf(ranking), Traced(cut.k or ranking.retrieved, "k")], "D", "Denominator min(R, k)")
    symbol = f"AP{cut.suffix}"
    if denominator.value == 0:
        notes.append(Note("warning", "the denominator is 0 (no relevant documents): AP is reported as 0, as trec_eval does"))
        value = Traced(0, symbol, "Average precision")
    else:
        value = (summed / denominator).named(symbol, "Average precision")
    table = rank_table(ranking, cut.depth, {"P@k": precisions, "contribution": [p.value if p else None for p in contributions]})
    return Result("ap", "Average precision", value, ranking=ranking, conventions={"ap_denominator": choice},
                  parameters={"k": cut.k}, notes=notes, tables=[table])
