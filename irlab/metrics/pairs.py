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

Over several lists TF-Ranking pools them (list_mean = pooled: Σ numerators / Σ denominators, its batch value);
irlab's default is the mean of the per-list values (per-list), as every other mean over queries:

>>> lists = [Ranking.from_grades([0, 1]), Ranking.from_grades([2, 0, 1])]  # TF-Ranking's ragged example, by score
>>> mean_over_lists([arp(r) for r in lists], "pooled").value, mean_over_lists([arp(r) for r in lists]).value
(Fraction(7, 4), Fraction(11, 6))
"""

from __future__ import annotations

from fractions import Fraction

from .. import conventions as conv
from ..document import Formula, Note, Table
from ..errors import InputTypeError, ParameterError
from ..metric import Result
from ..trace import Traced, total
from .mean import mean_over_queries

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


def arp(ranking, list_mean=None) -> Result:
    """ARP = Σ_i rank_i · y_i / Σ_i y_i: the mean rank of the relevance mass (lower is better); 0 without relevance,
    as TF-Ranking reports it. ``list_mean`` is read by :func:`mean_over_lists` (one list has one value)."""
    conv.LIST_MEAN.choice(list_mean)
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


def opa(ranking, list_mean=None) -> Result:
    """OPA = Σ_{i,j} I[s_i > s_j] · I[y_i > y_j] / Σ_{i,j} I[y_i > y_j]: the share of the pairs with different labels
    that the scores put in the right order (tied scores: not ordered); 0 without such a pair, as TF-Ranking.
    ``list_mean`` is read by :func:`mean_over_lists`."""
    conv.LIST_MEAN.choice(list_mean)
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


# the traced sums each list's value is a quotient of: (numerator, denominator, their names in the mean)
POOLED_PARTS = {"arp": ("Σ rank·y", "Σ y", "pooled Σ rank·y", "pooled Σ y", "rank times label, summed over every list",
                        "labels summed over every list"),
                "opa": ("C", "P", "pooled C", "pooled P", "pairs scored in the right order, over every list",
                        "pairs with different labels, over every list")}


POOLED_FORMULAS = {
    "arp": Formula("pooled ARP = Σ_q Σ_i rank_i · y_i / Σ_q Σ_i y_i",
                   r"\mathrm{ARP}_{\mathrm{pooled}} = \frac{\sum_q \sum_i \mathrm{rank}_i\, y_i}{\sum_q \sum_i y_i}"),
    "opa": Formula("pooled OPA = Σ_q C_q / Σ_q P_q, C_q the pairs of list q in the right order, P_q its pairs with "
                   "different labels", r"\mathrm{OPA}_{\mathrm{pooled}} = \frac{\sum_q C_q}{\sum_q P_q}"),
}


def mean_over_lists(results, list_mean=None, labels=None) -> Result:
    """ARP or OPA over several lists, by the convention list_mean: ``per-list`` (default) the mean of the lists'
    values; ``pooled`` the lists' numerators summed over their denominators summed, TF-Ranking's batch value."""
    choice = conv.LIST_MEAN.choice(list_mean)
    if isinstance(results, (str, bytes)) or not hasattr(results, "__iter__"):
        raise InputTypeError(f"mean_over_lists takes a list of arp or opa results, got {type(results).__name__}")
    results = list(results)
    if not results or not all(isinstance(r, Result) and r.metric in POOLED_PARTS for r in results):
        raise ParameterError("mean_over_lists averages arp or opa results, at least one")
    if choice.key == "per-list":
        result = mean_over_queries(results, labels=labels)
        result.conventions = {**result.conventions, "list_mean": choice}
        return result
    metric = results[0].metric
    if any(r.metric != metric for r in results):
        raise ParameterError("cannot pool arp and opa results together")
    top, bottom, top_name, bottom_name, top_label, bottom_label = POOLED_PARTS[metric]
    labels = list(labels) if labels else [f"q{i}" for i in range(1, len(results) + 1)]
    parts = []
    for result in results:
        steps = {step.symbol: step for step in result.steps}
        parts.append((steps[top], steps[bottom]))
    numerator = total([Traced(t.value, f"{top}({label})") for (t, _), label in zip(parts, labels)], top_name, top_label)
    denominator = total([Traced(b.value, f"{bottom}({label})") for (_, b), label in zip(parts, labels)], bottom_name,
                        bottom_label)
    symbol = f"pooled {results[0].symbol}"
    notes = []
    if denominator.value == 0:
        notes.append(Note("warning", f"{bottom_name} = 0 over every list: the pooled value is undefined, and TF-Ranking "
                                     "reports 0"))
        value = Traced(0, symbol, "Pooled over the lists")
    else:
        value = (numerator / denominator).named(symbol, "Pooled over the lists (TF-Ranking's batch value)")
    table = Table(("list", results[0].symbol, top, bottom),
                  tuple((label, r.value, t.value, b.value) for label, r, (t, b) in zip(labels, results, parts)),
                  "Per list: its value and the two sums it is the quotient of")
    sections = [r.section(f"List {label}: {r.title}") for label, r in zip(labels, results)]
    return Result(metric, f"{results[0].title}, pooled over {len(results)} lists", value, tables=[table], notes=notes,
                  conventions={"list_mean": choice}, sections=sections, formula=POOLED_FORMULAS[metric])
