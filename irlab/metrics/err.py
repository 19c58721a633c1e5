"""Expected reciprocal rank: a cascade user who stops at the first satisfying document."""

from __future__ import annotations

from fractions import Fraction

from .. import exact
from ..document import Formula, Note, Table
from ..errors import ParameterError
from ..limits import MAX_GRADE, check_at_most
from ..metric import Cut, Result, check_cutoff
from ..trace import Traced, total
from .common import ideal_grades

ERR_FORMULA = Formula(
    "ERR@k = Σ_{j=1..k} Disp(1, j-1) · Pr(j) / j,  Pr(j) = (2^g_j - 1) / 2^gmax,  Disp(1, j) = Π_{i<=j} (1 - Pr(i))",
    r"\mathrm{ERR}@k = \sum_{j=1}^{k} \frac{\mathrm{Disp}(1,j-1)\cdot \Pr(j)}{j}, \quad "
    r"\Pr(j) = \frac{2^{g_j}-1}{2^{g_{\max}}}, \quad \mathrm{Disp}(1,j) = \prod_{i=1}^{j} (1 - \Pr(i))",
)


def _max_grade(ranking, max_grade):
    grades, _ = ideal_grades(ranking)
    observed = max([*ranking.grades, *grades, 0])
    if max_grade is None:
        return observed, f"gmax = {observed}, the highest judged grade"
    if isinstance(max_grade, bool) or not isinstance(max_grade, int) or max_grade < observed:
        raise ParameterError(f"max grade must be an integer >= the highest judged grade {observed}, got {max_grade!r}")
    check_at_most(max_grade, MAX_GRADE, "max grade gmax")
    return max_grade, f"gmax = {max_grade}, the top of the grade scale (given)"


def _err(grades, depth, gmax, symbol, label, mark=""):
    # c_j = Disp_{j-1} · Pr(j) / j and Disp_j = Disp_{j-1} · (1 - Pr(j)), traced as written; the values are computed
    # on integers (Disp_j = d_j / 2^(gmax·j)) because Fraction arithmetic on them is quadratic over 10,000 ranks
    disp = Traced(1, f"Disp{mark}_0")
    disp_numerator, scale = 1, 2**gmax
    contributions, rows = [], []
    for rank in range(1, depth + 1):
        grade = grades[rank - 1]
        gain = 2**grade - 1
        pr = Traced(Fraction(gain, scale), f"Pr{mark}_{rank}")
        weighted = Traced(exact.dyadic(disp_numerator * gain, gmax * rank), op="mul", operands=(disp, pr))
        twos = (rank & -rank).bit_length() - 1
        contribution = Traced(exact.dyadic(disp_numerator * gain, gmax * rank + twos, rank >> twos), op="div",
                              operands=(weighted, Traced(rank))).named(f"c{mark}_{rank}")
        rows.append((rank, grade, pr.value, disp.value, contribution.value))
        contributions.append(contribution)
        disp_numerator *= scale - gain
        stay = Traced(Fraction(scale - gain, scale), op="sub", operands=(Traced(1), pr))
        disp = Traced(exact.dyadic(disp_numerator, gmax * rank), op="mul", operands=(disp, stay)).named(f"Disp{mark}_{rank}")
    table = Table(("rank", "grade", "Pr(j)", "Disp(1,j-1)", "contribution"), tuple(rows))
    return total(contributions, symbol, label), table


def expected_reciprocal_rank(ranking, k=None, max_grade=None) -> Result:
    """ERR@k (Chapelle et al. 2009), with Pr(j) = (2^g_j - 1) / 2^gmax as in Chapelle et al. 2009.

    >>> from irlab import Ranking
    >>> expected_reciprocal_rank(Ranking.parse("2,1"), k=2).value
    Fraction(25, 32)
    """
    cut = Cut.of(ranking, k)
    gmax, gmax_text = _max_grade(ranking, max_grade)
    value, table = _err(ranking.grades, cut.depth, gmax, f"ERR{cut.suffix}", "Expected reciprocal rank")
    return Result("err", "Expected reciprocal rank", value, formula=ERR_FORMULA, ranking=ranking,
                  parameters={"k": cut.k, "max_grade": max_grade}, notes=[Note("assumption", gmax_text)], tables=[table])


def normalized_err(ranking, k=None, max_grade=None) -> Result:
    """nERR@k = ERR@k / ERR*@k, ERR* being the ERR of the ideal ranking.

    >>> from irlab import Ranking
    >>> normalized_err(Ranking.parse("2,1"), k=2).value
    1
    """
    cut = Cut.of(ranking, k)
    gmax, gmax_text = _max_grade(ranking, max_grade)
    grades, notes = ideal_grades(ranking)
    ideal_depth = len(grades) if k is None else min(check_cutoff(k), len(grades))
    err_value, table = _err(ranking.grades, cut.depth, gmax, f"ERR{cut.suffix}", "Expected reciprocal rank")
    ideal, ideal_table = _err(grades, ideal_depth, gmax, f"ERR*{cut.suffix}", "ERR of the ideal ranking", mark="*")
    ideal_table = Table(ideal_table.columns, ideal_table.rows, "Ideal ranking (all judged grades, best first)")
    notes = [Note("assumption", gmax_text), *notes]
    symbol = f"nERR{cut.suffix}"
    if ideal.value == 0:
        notes.append(Note("warning", "no judged document is relevant, so ERR* = 0: nERR is reported as 0"))
        value, support = Traced(0, symbol, "Normalised ERR"), [err_value]
    else:
        value, support = (err_value / ideal).named(symbol, "Normalised ERR"), []
    return Result("nerr", "Normalised expected reciprocal rank", value, formula=ERR_FORMULA, ranking=ranking,
                  parameters={"k": cut.k, "max_grade": max_grade}, notes=notes, tables=[table, ideal_table], support=support)
