"""TF-Ranking's list metrics over graded labels: average relevance position (ARP) and ordered-pair accuracy (OPA).

Both read the list a ranker scored (the labels y_i of the documents in rank order, and their scores when given): a
document's rank is its position, and documents with equal scores are tied. TF-Ranking breaks ties at random, so ARP
takes each tied document at the mean of the tied ranks (its expected rank), and OPA counts a pair whose scores are
equal as not ordered (I[s_i > s_j] = 0), as TF-Ranking's formula does.

>>> from irlab import Ranking
>>> arp(Ranking.from_grades([0, 1, 1])).value  # TF-Ranking's ARPMetric example: labels [0, 1, 1], scores [3, 1, 2]
Fraction(5, 2)
>>> opa(Ranking.from_grades([0, 2, 1])).value  # OPAMetric's: labels [0, 1, 2], scores [3, 1, 2]
Fraction(1, 3)
"""

from __future__ import annotations

from fractions import Fraction

from ..document import Note, Table
from ..metric import Result
from ..trace import Traced, total

TF_RANKING = "TF-Ranking (tfr.keras.metrics.{}; Pasumarthi et al. 2019, KDD)"
READS_SCORES = ("arp", "opa")  # metrics that read a ranking's scores for their ties without the ties convention


def _ranks(ranking) -> list:
    """Each document's rank: its position, or the mean of the positions of its tied group (its expected rank)."""
    ranks = [Fraction(0)] * ranking.retrieved
    for first, last in ranking.tied_groups():
        for rank in range(first, last + 1):
            ranks[rank - 1] = Fraction(first + last, 2)
    return ranks


def _tie_note(ranking) -> list:
    if not ranking.has_ties:
        return []
    return [Note("assumption", "documents with equal scores are tied: TF-Ranking breaks ties at random, so each "
                               "tied document is taken at the mean of the tied ranks (its expected rank)")]


def arp(ranking) -> Result:
    """ARP = Σ_i rank_i · y_i / Σ_i y_i: the mean rank of the relevance mass (lower is better); 0 without relevance,
    as TF-Ranking reports it."""
    ranks = _ranks(ranking)
    rows = tuple((i, ranking.grades[i - 1], ranks[i - 1], ranks[i - 1] * ranking.grades[i - 1])
                 for i in range(1, ranking.retrieved + 1))
    weighted = total([Traced(r) * Traced(g) for _, g, r, _ in rows if g], "Σ rank·y",
                     "Rank times label, summed over the list")
    mass = total([Traced(g) for _, g, _, _ in rows if g], "Σ y", "Labels summed over the list")
    notes = _tie_note(ranking)
    if mass.value == 0:
        notes.append(Note("warning", "no document of the list has a label above 0: ARP is undefined, and TF-Ranking "
                                     "reports 0"))
        value = Traced(0, "ARP", "Average relevance position")
        support = [weighted, mass]
    else:
        value = (weighted / mass).named("ARP", "Average relevance position")
        support = []
    table = Table(("position", "label y", "rank", "rank · y"), rows, "The list, labels and ranks")
    return Result("arp", "Average relevance position (ARP)", value, ranking=ranking, tables=[table], notes=notes,
                  support=support)


def opa(ranking) -> Result:
    """OPA = Σ_{i,j} I[s_i > s_j] · I[y_i > y_j] / Σ_{i,j} I[y_i > y_j]: the share of the pairs with different labels
    that the scores put in the right order (tied scores: not ordered); 0 without such a pair, as TF-Ranking."""
    ranks = _ranks(ranking)
    grades = ranking.grades
    labelled, ordered, rows = 0, 0, []
    for i in range(len(grades)):
        for j in range(len(grades)):
            if grades[i] > grades[j]:
                labelled += 1
                right = ranks[i] < ranks[j]  # a lower rank is a higher score; equal ranks are tied scores
                ordered += right
                if len(rows) < 200:
                    rows.append((f"{i + 1} over {j + 1}", f"{grades[i]} > {grades[j]}",
                                 "yes" if right else ("tied" if ranks[i] == ranks[j] else "no")))
    pairs = Traced(labelled, "P", "Pairs (i, j) with y_i > y_j")
    right = Traced(ordered, "C", "Of those, pairs with s_i > s_j (ranked above, not tied)")
    notes = _tie_note(ranking)
    if labelled == 0:
        notes.append(Note("warning", "every document of the list has the same label: no pair to order, OPA is "
                                     "undefined, and TF-Ranking reports 0"))
        value, support = Traced(0, "OPA", "Ordered-pair accuracy"), [right, pairs]
    else:
        value, support = (right / pairs).named("OPA", "Ordered-pair accuracy"), []
    table = Table(("pair (positions)", "labels", "scored in that order"), tuple(rows),
                  "Pairs with different labels" + (" (the first 200)" if labelled > 200 else ""))
    return Result("opa", "Ordered-pair accuracy (OPA)", value, ranking=ranking, tables=[table], notes=notes,
                  support=support)
