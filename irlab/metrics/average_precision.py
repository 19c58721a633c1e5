"""Average precision: the mean of the precisions at the ranks of the relevant documents."""

from __future__ import annotations

from .. import conventions as conv
from ..document import Note
from ..metric import Cut, Result
from ..trace import Traced, minimum, total
from .common import precision_at, rank_table, ranking_notes, relevant_leaf
from ..errors import ParameterError
from .ties import (AVERAGED, AVERAGED_AP_NOTE, THRESHOLD, averaged_precisions, group_text, precision_table, split_group,
                   threshold_precisions, tie_choice, tie_notes, with_tie_columns)


def average_precision(ranking, k=None, ap_denominator=None, ties=None) -> Result:
    """AP@k = (1 / D) · Σ_{i<=k} rel_i · P@i, with D = R by default (all relevant documents).

    References: IIR 8.4; trec_eval map.
    The denominator D is the named convention ``ap_denominator`` (relevant | retrieved | min-relevant-k).
    A ranking given with its scores may have ties: the convention ``ties`` reads it in the order written (the
    default), averages over every order of each tied group (tie-averaged, McSherry & Najork 2008) or lets a group
    enter as one threshold (one-threshold, scikit-learn average_precision_score); see :mod:`irlab.metrics.ties`.

    >>> from irlab import Ranking
    >>> average_precision(Ranking.parse("RNNRR", relevant=5)).value
    Fraction(21, 50)
    """
    cut = Cut.of(ranking, k)
    choice = conv.AP_DENOMINATOR.choice(ap_denominator)
    tie = tie_choice(ranking, ties, "ap", allowed=(AVERAGED, THRESHOLD))
    notes = ranking_notes(ranking) if choice.key != "retrieved" else []
    if tie is not None and tie.key in (AVERAGED, THRESHOLD):
        tied = averaged_precisions if tie.key == AVERAGED else threshold_precisions
        relevant_precisions, per_rank = tied(ranking, cut.depth)
        label = ("Expected sum of the precisions at the relevant ranks" if tie.key == AVERAGED
                 else "Sum of the precisions, each relevant document at its group's last rank")
        summed = total(relevant_precisions, "S", label)
        table = precision_table(ranking, cut.depth, per_rank, "E[rel_i · P@i]" if tie.key == AVERAGED else "P@last of group")
    else:
        precisions, contributions = [], []
        for rank in range(1, cut.depth + 1):
            p = precision_at(ranking, rank)
            precisions.append(p.value)
            contributions.append(p if ranking.relevance[rank - 1] else None)
        relevant_precisions = [p for p in contributions if p is not None]
        summed = total(relevant_precisions, "S", "Sum of the precisions at the relevant ranks")
        table = rank_table(ranking, cut.depth, {"P@k": precisions, "contribution": [p.value if p else None for p in contributions]})
        if tie is not None:
            table = with_tie_columns(table, ranking, cut.depth)
    if tie is not None:
        notes += tie_notes(ranking, tie, cut.depth)
        if tie.key == AVERAGED and any(last > first for first, last in ranking.tied_groups(cut.depth)):
            notes.append(Note("reading", AVERAGED_AP_NOTE))
    if choice.key == "relevant":
        denominator = relevant_leaf(ranking)
    elif choice.key == "retrieved":
        if tie is not None and tie.key == AVERAGED and split_group(ranking, cut.depth):
            raise ParameterError(f"ap_denominator = retrieved with ties = tie-averaged: the cut-off k = {cut.depth} splits "
                                 f"the tied ranks {group_text(*split_group(ranking, cut.depth))}, so the relevant documents "
                                 "retrieved, the denominator, depend on the order; choose k at the end of a group")
        denominator = Traced(ranking.hits(cut.depth), "D", f"Relevant documents retrieved in the top {cut.depth}")
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
    conventions = {"ap_denominator": choice} if tie is None else {"ap_denominator": choice, "ties": tie}
    return Result("ap", "Average precision", value, ranking=ranking, conventions=conventions,
                  parameters={"k": cut.k}, notes=notes, tables=[table])
