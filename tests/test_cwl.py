"""INST and INSQ (C/W/L): hand-worked values and cwl-eval 1.0.12's measure classes as the oracle."""

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from irlab import Ranking
from irlab.errors import IrlabError
from irlab.metrics import get_metric, insq, inst

cwl_ranking = pytest.importorskip("cwl.ruler.ranking")
from cwl.ruler.measures.cwl_insq import INSQCWLMetric  # noqa: E402
from cwl.ruler.measures.cwl_inst import INSTCWLMetric  # noqa: E402


def test_insq_by_hand_two_ranks():
    # C(1) = ((1 + 2 - 1) / (1 + 2))² = 4/9; S = 1 + 4/9 = 13/9; W(1) = 9/13, W(2) = 4/13
    result = insq(Ranking.parse("RN"), target=1, max_depth=2)
    assert result.value == Fraction(9, 13)
    assert insq(Ranking.parse("NR"), target=1, max_depth=2).value == Fraction(4, 13)


def test_inst_by_hand_three_ranks():
    # T = 1, r = (1, 0, 1): T_1 = 0, C(1) = ((1+1+0-1)/(1+1+0))² = 1/4; T_2 = 0, C(2) = (2/3)² = 4/9
    # P = (1, 1/4, 1/9), S = 49/36, W = (36/49, 9/49, 4/49), INST = 36/49 + 4/49 = 40/49
    assert inst(Ranking.parse("RNR"), target=1, max_depth=3).value == Fraction(40, 49)


def test_inst_last_rank_and_total_gain_by_hand():
    # RNR, T = 1, n = 3: C = (1/4, 4/9, 4/9) (T_3 = -1: ((3+1-1-1)/(3+1-1))² = 4/9), P = (1, 1/4, 1/9), P(4) = 4/81
    # L(i) = P(i) - P(i+1) = (3/4, 5/36, 5/81); Σ_{j<=i} r_j = (1, 1, 2); ETG = 3/4 + 5/36 + 10/81 = 82/81,
    # = INST · ED - P(4) · Σ r = (40/49)(49/36) - (4/81)·2 = 10/9 - 8/81; ED = 1 + 1/4 + 1/9 = 49/36
    result = inst(Ranking.parse("RNR"), target=1, max_depth=3)
    steps = {step.symbol: step.value for step in result.steps}
    assert steps["ED"] == Fraction(49, 36) and steps["ETG"] == Fraction(82, 81)
    assert [row[7] for row in result.tables[0].rows[:-1]] == [Fraction(3, 4), Fraction(5, 36), Fraction(5, 81)]


def test_table_shows_c_w_l_and_the_sums():
    result = inst(Ranking.parse("RNURN"), target=2, max_depth=8)
    table = result.tables[0]
    assert table.columns == ("rank i", "judgment", "r_i", "T_i", "C(i)", "Π_{j<i} C(j)", "W(i)", "L(i)", "W(i) · r_i",
                             "Σ_{j<=i} r_j", "L(i) · Σ_{j<=i} r_j")
    rows = table.rows
    assert rows[0][:6] == (1, "R", 1, 1, Fraction(9, 16), 1)
    assert rows[5][1] == "—"  # beyond the list: gain 0
    assert sum(row[6] for row in rows[:-1]) == 1
    past_n = rows[-2][5] * rows[-2][4]  # Π_{j<=n} C(j): the user reads past rank n
    assert sum(row[7] for row in rows[:-1]) == 1 - past_n == rows[-1][7]
    assert rows[-1][0] == "Σ" and rows[-1][6] == 1 and rows[-1][8] == result.value
    assert rows[-1][10] == sum(row[10] for row in rows[:-1]) == {s.symbol: s.value for s in result.steps}["ETG"]
    assert result.value == Fraction(31752000, 67275601)


def test_graded_gains_are_grade_over_top_grade():
    graded = insq(Ranking.parse("2,0,1"), target=Fraction(3, 2), max_depth=5)
    binary_half = [1, 0, Fraction(1, 2)]
    assert float(graded) == pytest.approx(_oracle(INSQCWLMetric, binary_half, 1.5, 5), abs=1e-12)


@pytest.mark.parametrize("bad", [{"target": 0}, {"target": "-1"}, {"target": "x"}, {"max_depth": 0},
                                 {"max_depth": "1.5"}, {"max_depth": 10**9}])
def test_bad_parameters_are_one_error(bad):
    with pytest.raises(IrlabError):
        inst(Ranking.parse("RN"), **bad)


def test_declared():
    assert {p.name for p in get_metric("inst").parameters} == {"target", "max_depth"}
    assert get_metric("insq").compute.__wrapped__ is insq  # under the empty_ranking convention's check


def _oracle(cls, gains, target, depth):
    ranking = cwl_ranking.Ranking("q", [float(g) for g in gains], [np.nan] * len(gains), max_n=depth)
    return cls(float(target)).measure(ranking)


gains = st.lists(st.sampled_from([0, 1]), min_size=1, max_size=30) | st.lists(
    st.sampled_from([0, Fraction(1, 4), Fraction(1, 3), Fraction(1, 2), 1]), min_size=1, max_size=30)
targets = st.sampled_from([Fraction(1, 2), 1, 2, 3, Fraction(5, 2), 5, 10])


def _ranking(values):
    if all(v in (0, 1) for v in values):
        return Ranking.parse("".join("R" if v else "N" for v in values))
    # grades on a 12-point scale so that g / 12 gives the gains (the top grade present is 12 by construction)
    return Ranking.from_grades([int(v * 12) for v in values] + [12]), [*values, 1]


@settings(max_examples=60, deadline=None)
@given(gains, targets, st.sampled_from([5, 20, 100, 1000]))
def test_equal_to_cwl_eval(values, target, depth):
    built = _ranking(values)
    ranking, values = (built, values) if isinstance(built, Ranking) else built
    for ours, theirs in ((inst, INSTCWLMetric), (insq, INSQCWLMetric)):
        result = ours(ranking, target=target, max_depth=depth)
        assert float(result) == pytest.approx(_oracle(theirs, values, target, depth), abs=1e-9)
        assert isinstance(result.value, (int, Fraction))
