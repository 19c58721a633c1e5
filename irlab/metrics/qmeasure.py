"""Sakai's Q-measure: average precision with graded relevance, through the blended ratio.

At every rank r the blended ratio mixes precision and normalised cumulative gain (Sakai 2004; Sakai 2007):

    BR(r) = (C(r) + β · cg(r)) / (r + β · cg*(r))

C(r) is the number of relevant documents in the top r, cg(r) the cumulative gain of the ranking at r and cg*(r)
that of the ideal ranking (every relevant document, highest gain first; cg* stays at its total beyond R). Q-measure
averages BR over the ranks of the relevant documents, dividing by R as AP does:

    Q = (1/R) · Σ_{relevant r} BR(r)

At a cut-off l only the top l ranks count and the sum is divided by min(R, l), as NTCIREVAL's Q@l does (its
uniform stopping probability 1/min(R, l) over the relevant ranks):

    Q@l = (1/min(R, l)) · Σ_{relevant r <= l} BR(r)

β = 0 leaves BR(r) = C(r) / r = P@r, so Q with β = 0 is AP exactly; a larger β weighs the grades more (β = 1 by
default, as NTCIREVAL). A grade's gain defaults to the grade itself (NTCIREVAL's default gain values 1, 2, 3 for
L1, L2, L3); a gain table ('1=1,2=3,3=7') sets others. Relevant means grade >= the threshold (default 1); documents
below it have gain 0, as NTCIREVAL's judged non-relevant L0.

>>> from irlab import Ranking
>>> q_measure(Ranking.parse("2,0,1", unretrieved=[3])).value
Fraction(47, 108)
>>> q_measure(Ranking.parse("RNNRR", relevant=5), beta=0).value  # AP
Fraction(21, 50)
"""

from __future__ import annotations

from .. import exact
from ..document import Formula, Note, Table
from ..errors import ParameterError
from ..limits import MAX_BETA
from ..metric import Cut, Result, check_fraction
from ..trace import Traced, minimum, total
from .common import ideal_grades, ranking_notes, relevant_leaf
from .dcg import parse_gains

SHOWN_RATIOS = 10  # up to this many relevant ranks, each blended ratio is a step of its own

CUT_FORMULA = Formula(
    "Q@l = (1/min(R, l)) · Σ_{relevant r <= l} (C(r) + β · cg(r)) / (r + β · cg*(r))",
    r"Q@l = \frac{1}{\min(R, l)} \sum_{r \le l\ \text{relevant}} \frac{C(r) + \beta\, cg(r)}{r + \beta\, cg^*(r)}",
)

REFERENCE = ("Sakai 2004 (NTCIR-4, 'New performance metrics based on multigrade relevance'); "
             "Sakai 2007 (Information Processing & Management 43(2), 'On the reliability of information retrieval "
             "metrics based on graded relevance')")


def _gain(grade: int, table: dict, relevant: bool):
    if not relevant:
        return 0
    return table.get(grade, grade)


def q_measure(ranking, beta=None, gains=None, k=None) -> Result:
    """Q = (1/R) · Σ_{relevant r} (C(r) + β · cg(r)) / (r + β · cg*(r)) (Sakai 2004; Sakai 2007).

    ``beta`` (default 1) is the weight of the gain in the blended ratio, 0 <= β <= 1000; ``gains`` a gain per
    grade ('1=1,2=2,3=3'; grades not listed have their own value as gain); ``k`` a cut-off l: Q@l sums the blended
    ratios of the top l ranks and divides by min(R, l) (NTCIREVAL's Q@l).

    >>> from irlab import Ranking
    >>> q_measure(Ranking.parse("1,0,2", unretrieved=[3]), beta=1, gains="1=1,2=2,3=3").value
    Fraction(19, 54)
    >>> q_measure(Ranking.parse("3,0,2,1"), k=3).value  # (BR(1) + BR(3)) / min(R, 3) = (1 + 7/9) / 3
    Fraction(16, 27)
    """
    cut = Cut.of(ranking, k)
    beta_value = 1 if beta is None else check_fraction(beta, "beta β (Q-measure)", 0, MAX_BETA)
    table = parse_gains(gains)
    for grade, value in table.items():
        if grade >= ranking.threshold and exact.to_float(value) <= 0:
            raise ParameterError(f"gain table: the gain of relevant grade {grade} is {exact.exact_text(value)}; "
                                 "Q-measure needs a positive gain for every relevant grade (Sakai 2004)")
    notes = []
    ideal, ideal_notes = ideal_grades(ranking)
    notes += ideal_notes
    ideal = [g for g in ideal if ranking.is_relevant(g)]
    ideal_gains = sorted((_gain(g, table, True) for g in ideal), reverse=True)
    R = ranking.total_relevant
    notes[:0] = ranking_notes(ranking)
    if ranking.threshold != 1:
        notes.append(Note("convention", f"relevant means grade >= {ranking.threshold}; lower grades have gain 0"))
    if table:
        listed = ", ".join(f"grade {g} → {exact.exact_text(v)}" for g, v in sorted(table.items()))
        notes.append(Note("convention", f"gain table: {listed}; other relevant grades: gain = grade"))
    else:
        notes.append(Note("convention", "gain of a relevant grade = the grade (NTCIREVAL's default gain values "
                                        "1, 2, 3 for L1, L2, L3)"))

    b = Traced(beta_value, "β", "Weight of the gain in the blended ratio (β = 0 gives AP)")
    ideal_cum = []
    running = 0
    for gain in ideal_gains:
        running += gain
        ideal_cum.append(running)
    ideal_total = running

    shown = ranking.relevant_retrieved <= SHOWN_RATIOS  # each blended ratio a step; a long ranking: the table

    def label(rank):
        return f"Blended ratio at relevant rank {rank}" if shown else None

    rows, ratios = [], []
    cg, count = 0, 0
    document = ["document"] if ranking.ids is not None else []
    for rank, grade in enumerate(ranking.grades[:cut.depth], 1):
        relevant = ranking.relevance[rank - 1]
        gain = _gain(grade, table, relevant)
        cg += gain
        count += relevant
        cg_star = ideal_cum[rank - 1] if rank <= len(ideal_cum) else ideal_total
        ratio_cell = ""
        if relevant:
            c_node = Traced(count, f"C({rank})")
            cg_node = Traced(cg, f"cg({rank})")
            star_node = Traced(cg_star, f"cg*({rank})")
            if beta_value == 0:
                ratio = (c_node / Traced(rank)).named(f"BR({rank})", label(rank))
            else:
                ratio = ((c_node + b * cg_node) / (Traced(rank) + b * star_node)).named(f"BR({rank})", label(rank))
            ratios.append(ratio)
            ratio_cell = ratio.value
        doc = [ranking.ids[rank - 1]] if document else []
        rows.append((rank, *doc, ranking.symbol(rank), gain, cg, cg_star, count, ratio_cell))
    rank_rows = Table(("rank r", *document, "grade", "gain", "cg(r)", "cg*(r)", "C(r)", "BR(r) at relevant r"),
                      tuple(rows), f"Blended ratio BR(r) = (C(r) + β · cg(r)) / (r + β · cg*(r)), β = "
                                   f"{exact.exact_text(beta_value)}")
    ideal_rows = Table(("rank", "gain", "cg*"), tuple((i, g, c) for i, (g, c) in enumerate(zip(ideal_gains, ideal_cum), 1)),
                       "Ideal ranking: every relevant document, highest gain first (cg* stays at its total beyond R)")
    summed = total(ratios, "S", "Sum of the blended ratios at the relevant ranks")
    r_node = relevant_leaf(ranking)
    if cut.k is not None:  # NTCIREVAL's Q@l: the relevant documents the top l ranks can hold
        r_node = minimum([r_node, Traced(cut.k, "l")], "D", f"Denominator min(R, l), l = {cut.k}")
        notes.append(Note("convention", f"cut-off l = {cut.k}: only the top {cut.k} ranks count and the sum is divided "
                                        "by min(R, l), the relevant documents l ranks can hold (NTCIREVAL's Q@l)"))
    symbol = f"Q{cut.suffix}"
    if R == 0:
        notes.append(Note("warning", "no relevant document (R = 0): Q-measure is reported as 0, as AP is"))
        value = Traced(0, symbol, "Q-measure")
    else:
        value = (summed / r_node).named(symbol, "Q-measure")
    if beta_value == 0:
        notes.append(Note("convention", "β = 0: BR(r) = C(r) / r = P@r, so Q-measure is AP (Sakai 2004)"))
    return Result("q-measure", "Q-measure", value, ranking=ranking, notes=notes,
                  formula=CUT_FORMULA if cut.k is not None else None, tables=[rank_rows, ideal_rows],
                  parameters={"beta": beta_value, "gains": _table_text(table), "k": cut.k})


def _table_text(table: dict) -> str | None:
    if not table:
        return None
    return ",".join(f"{grade}={exact.exact_text(value)}" for grade, value in sorted(table.items()))


__all__ = ["q_measure", "REFERENCE"]
