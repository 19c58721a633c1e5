"""ROC AUC of a ranking: the share of (relevant, non-relevant) pairs that the ranking puts in the right order.

The area under the ROC curve of a ranking equals the probability that a relevant document, drawn at random, is
ranked above a non-relevant one drawn at random (Bamber 1975; Hanley & McNeil 1982: the Mann-Whitney statistic;
Fawcett 2006 §7). A ranking has no ties, so this is a count:

    AUC = C / (n_R · n_N),  C = Σ_{relevant retrieved r} (non-relevant retrieved ranked below r)

with n_R the relevant and n_N the non-relevant documents retrieved (a grade >= the threshold is relevant;
unjudged ``U`` documents count as non-relevant, as in every metric but bpref).

Conventions. The pairs are those of the retrieved list, as scikit-learn's ``roc_auc_score(y_true, y_score)``
sees it with descending scores for the ranks: relevant documents not retrieved (R > n_R) are not in any pair. Read
as ranked below every retrieved document instead, each would lose its n_N pairs; that value, C / (R · n_N), is
given in a note. With no relevant or no non-relevant document retrieved there are no pairs and AUC is undefined:
an error naming the missing kind (scikit-learn warns that it is not defined and returns nan).

>>> from irlab import Ranking
>>> roc_auc(Ranking.parse("RNRNN")).value
Fraction(5, 6)
"""

from __future__ import annotations

from fractions import Fraction

from .. import exact
from ..document import Note, Table
from ..errors import RankingError
from ..metric import Result
from ..trace import Traced, total


def roc_auc(ranking) -> Result:
    """AUC = C / (n_R · n_N): the (relevant, non-relevant) pairs in the right order over all such pairs retrieved."""
    relevance = ranking.relevance
    n_rel = sum(relevance)
    n_non = len(relevance) - n_rel
    if n_rel == 0 or n_non == 0:
        missing = "relevant" if n_rel == 0 else "non-relevant"
        raise RankingError(
            f"ROC AUC is undefined for {ranking.written()!r}: no {missing} document is retrieved, so there is no "
            "(relevant, non-relevant) pair to order (scikit-learn's roc_auc_score: 'not defined'); give a ranking with both")
    document = ["document"] if ranking.ids is not None else []
    rows, wins = [], []
    above = 0
    for rank, relevant in enumerate(relevance, 1):
        doc = [ranking.ids[rank - 1]] if document else []
        if relevant:
            below = n_non - above
            wins.append(Traced(below, f"c_{rank}"))
            rows.append((rank, *doc, ranking.symbol(rank), above, below))
        else:
            above += 1
            rows.append((rank, *doc, ranking.symbol(rank), "", ""))
    table = Table(("rank", *document, "judgment", "non-relevant above it (pairs lost)",
                   "non-relevant below it (pairs won)"), tuple(rows),
                  "Each relevant document against every non-relevant document retrieved")
    correct = total(wins, "C", "Pairs in the right order: for each relevant document, the non-relevant ranked below it")
    relevant_node = Traced(n_rel, "n_R", "Relevant documents retrieved")
    nonrelevant_node = Traced(n_non, "n_N", "Non-relevant documents retrieved")
    pairs = (relevant_node * nonrelevant_node).named("pairs", "(relevant, non-relevant) pairs retrieved")
    value = (correct / pairs).named("AUC", "ROC AUC: the share of the pairs in the right order")
    notes = [Note("convention", "pairs of the retrieved list only, as scikit-learn's roc_auc_score sees a ranking "
                                "scored by rank; a ranking has no ties (Hanley & McNeil 1982; Fawcett 2006 §7)")]
    missed = ranking.total_relevant - n_rel
    if missed > 0:
        lower = Fraction(correct.value, ranking.total_relevant * n_non)
        notes.append(Note("convention", f"the {missed} relevant document{'s' if missed > 1 else ''} not retrieved "
                                        f"{'are' if missed > 1 else 'is'} in no pair; counted as ranked below every "
                                        f"retrieved document, each would lose its {n_non} pairs: "
                                        f"C / (R · n_N) = {correct.value} / ({ranking.total_relevant} · {n_non}) = "
                                        f"{exact.value_text(lower)}"))
    return Result("auc", "ROC AUC of a ranking", value, ranking=ranking, notes=notes, tables=[table])
