"""Cumulated gain: CG, DCG, the ideal DCG and nDCG, with gain and discount as named conventions."""

from __future__ import annotations

from .. import conventions as conv
from ..document import Formula, Note, Table
from ..metric import Cut, Result, check_cutoff
from ..trace import Traced, log2, total
from .common import ideal_grades, rank_table

DCG_FORMULA = Formula(
    "DCG@k = Σ_{i=1..k} gain(g_i) · discount(i)",
    r"\mathrm{DCG}@k = \sum_{i=1}^{k} \mathrm{gain}(g_i) \cdot \mathrm{discount}(i)",
)


def gain_of(grade: int, gain: str) -> int:
    return 2**grade - 1 if gain == "exp" else grade


def _term(gain_leaf: Traced, rank: int, discount: str) -> Traced:
    """gain · discount at ``rank``, written the way the convention's formula writes it."""
    if discount == "log2-rank":
        return gain_leaf if rank == 1 else gain_leaf / log2(rank)
    return gain_leaf / log2(rank + 1)


def _dcg(grades, depth, gain, discount, symbol, label, gain_symbol) -> tuple[Traced, list[Traced]]:
    terms = []
    for rank in range(1, depth + 1):
        leaf = Traced(gain_of(grades[rank - 1], gain), f"{gain_symbol}_{rank}")
        terms.append(_term(leaf, rank, discount))
    return total(terms, symbol, label), terms


def _conventions(gain, discount):
    return {"gain": conv.GAIN.choice(gain), "discount": conv.DISCOUNT.choice(discount)}


def _gain_table(ranking, grades, depth, terms, choices, ideal=False) -> Table:
    gain_header = "gain 2^g - 1" if choices["gain"].key == "exp" else "gain g"
    rows = []
    for rank in range(1, depth + 1):
        grade = grades[rank - 1]
        term = terms[rank - 1]
        discount = "none" if term.is_leaf else term.operands[1]  # log2-rank leaves rank 1 undiscounted
        judgment = str(grade) if ideal or not ranking.binary else ranking.symbol(rank)
        rows.append((rank, judgment, gain_of(grade, choices["gain"].key), discount, term))
    discount_header = "divided by log2(i)" if choices["discount"].key == "log2-rank" else "divided by log2(i+1)"
    caption = "Ideal ranking (all judged grades, best first)" if ideal else "Ranking"
    return Table(("rank", "grade", gain_header, discount_header, "term"), tuple(rows), caption)


def cumulative_gain(ranking, k=None) -> Result:
    """CG@k = Σ_{i<=k} g_i, the plain sum of grades (Järvelin & Kekäläinen 2002): no discount for rank.

    >>> from irlab import Ranking
    >>> cumulative_gain(Ranking.parse("3,2,0,1"), k=3).value
    5
    """
    cut = Cut.of(ranking, k)
    leaves = [Traced(g, f"g_{i}") for i, g in enumerate(ranking.grades[: cut.depth], 1)]
    value = total(leaves, f"CG{cut.suffix}", "Cumulative gain")
    formula = Formula("CG@k = Σ_{i=1..k} g_i", r"\mathrm{CG}@k = \sum_{i=1}^{k} g_i")
    return Result("cg", "Cumulative gain", value, formula=formula, ranking=ranking,
                  parameters={"k": cut.k}, tables=[rank_table(ranking, cut.depth, {"grade": list(ranking.grades[: cut.depth])})])


def dcg(ranking, k=None, gain=None, discount=None) -> Result:
    """DCG@k = Σ_{i<=k} gain(g_i) · discount(i); by default gain 2^g - 1 and discount 1 / log2(i + 1).

    References: Järvelin & Kekäläinen 2002; Burges et al. 2005; IIR 8.4.

    >>> from irlab import Ranking
    >>> dcg(Ranking.parse("3,2,0,1"), k=1).value
    7
    """
    cut = Cut.of(ranking, k)
    choices = _conventions(gain, discount)
    value, terms = _dcg(ranking.grades, cut.depth, choices["gain"].key, choices["discount"].key,
                        f"DCG{cut.suffix}", "Discounted cumulative gain", "G")
    return Result("dcg", "Discounted cumulative gain", value, formula=DCG_FORMULA, ranking=ranking,
                  conventions=choices, parameters={"k": cut.k},
                  tables=[_gain_table(ranking, ranking.grades, cut.depth, terms, choices)])


def _ideal(ranking, k, choices):
    grades, notes = ideal_grades(ranking)
    k = check_cutoff(k)
    depth = len(grades) if k is None else min(k, len(grades))
    suffix = f"@{k}" if k is not None else ""
    value, terms = _dcg(grades, depth, choices["gain"].key, choices["discount"].key,
                        f"IDCG{suffix}", "Ideal discounted cumulative gain", "G*")
    table = _gain_table(ranking, grades, depth, terms, choices, ideal=True)
    return value, table, notes


def idcg(ranking, k=None, gain=None, discount=None) -> Result:
    """IDCG@k: the DCG of the ideal ranking, every judged grade (retrieved or not) sorted best first.

    >>> from irlab import Ranking
    >>> idcg(Ranking.parse("0,1", unretrieved=[2]), k=1).value
    3
    """
    choices = _conventions(gain, discount)
    value, table, notes = _ideal(ranking, k, choices)
    return Result("idcg", "Ideal discounted cumulative gain", value, formula=DCG_FORMULA, ranking=ranking,
                  conventions=choices, parameters={"k": check_cutoff(k)}, notes=notes, tables=[table])


def ndcg(ranking, k=None, gain=None, discount=None) -> Result:
    """nDCG@k = DCG@k / IDCG@k (0 when no document is relevant, as trec_eval reports it).

    >>> from irlab import Ranking
    >>> ndcg(Ranking.parse("RNNRR", relevant=3)).value == 1
    False
    """
    cut = Cut.of(ranking, k)
    choices = _conventions(gain, discount)
    gained, terms = _dcg(ranking.grades, cut.depth, choices["gain"].key, choices["discount"].key,
                         f"DCG{cut.suffix}", "Discounted cumulative gain", "G")
    ideal, ideal_table, notes = _ideal(ranking, k, choices)
    symbol = f"nDCG{cut.suffix}"
    if ideal.value == 0:
        notes.append(Note("warning", "no judged document is relevant, so IDCG = 0: nDCG is reported as 0"))
        value = Traced(0, symbol, "Normalised DCG")
        support = [gained]
    else:
        value = (gained / ideal).named(symbol, "Normalised DCG")
        support = []
    formula = Formula(DCG_FORMULA.text + ";  nDCG@k = DCG@k / IDCG@k",
                      DCG_FORMULA.latex + r", \qquad \mathrm{nDCG}@k = \frac{\mathrm{DCG}@k}{\mathrm{IDCG}@k}")
    return Result("ndcg", "Normalised discounted cumulative gain", value, formula=formula, ranking=ranking,
                  conventions=choices, parameters={"k": cut.k}, notes=notes, support=support,
                  tables=[_gain_table(ranking, ranking.grades, cut.depth, terms, choices), ideal_table])
