"""Sakai's Q-measure: hand-worked values, β = 0 is AP exactly, pyNTCIREVAL's QMeasure on generated graded rankings."""

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from irlab import Ranking
from irlab.errors import IrlabError
from irlab.metrics import get_metric
from irlab.metrics.average_precision import average_precision
from irlab.metrics.qmeasure import q_measure

QMeasure = pytest.importorskip("pyNTCIREVAL.metrics").QMeasure


def test_hand_worked_value():
    # ranking 3,0,1,2 with a grade-3 document not retrieved; ideal gains 3,3,2,1 -> cg* 3,6,8,9
    # BR(1) = (1 + 3)/(1 + 3) = 1; BR(3) = (2 + 4)/(3 + 8) = 6/11; BR(4) = (3 + 6)/(4 + 9) = 9/13
    result = q_measure(Ranking.parse("3,0,1,2", unretrieved=[3]))
    assert result.value == (1 + Fraction(6, 11) + Fraction(9, 13)) / 4
    assert result.value == Fraction(80, 143)  # (143 + 78 + 99) / 143 / 4
    steps = {step.symbol: step.value for step in result.steps}
    assert steps["BR(3)"] == Fraction(6, 11) and steps["R"] == 4


def test_beta_and_gain_table():
    # β = 1/2: BR(1) = (1 + 3/2)/(1 + 3/2) = 1; BR(3) = (2 + 2)/(3 + 4) = 4/7; BR(4) = (3 + 3)/(4 + 9/2) = 12/17
    assert q_measure(Ranking.parse("3,0,1,2", unretrieved=[3]), beta="0.5").value == \
        (1 + Fraction(4, 7) + Fraction(12, 17)) / 4
    # gains 1=1,2=3,3=7: ideal 7,7,3,1 -> cg* 7,14,17,18; cg 7,7,8,11
    # BR(1) = (1 + 7)/(1 + 7) = 1; BR(3) = (2 + 8)/(3 + 17) = 1/2; BR(4) = (3 + 11)/(4 + 18) = 7/11
    assert q_measure(Ranking.parse("3,0,1,2", unretrieved=[3]), gains="1=1,2=3,3=7").value == \
        (1 + Fraction(1, 2) + Fraction(7, 11)) / 4


def test_perfect_ranking_is_one_and_no_relevant_is_zero():
    assert q_measure(Ranking.parse("3,2,1,0")).value == 1
    result = q_measure(Ranking.parse("0,0", relevant=0))
    assert result.value == 0 and any("R = 0" in note.text for note in result.notes)


@pytest.mark.parametrize("text,relevant", [("RNNRR", 5), ("NRNRRN", 10), ("R", None), ("NNNR", 2)])
def test_beta_zero_is_ap_exactly(text, relevant):
    ranking = Ranking.parse(text, relevant=relevant)
    assert q_measure(ranking, beta=0).value == average_precision(ranking).value


@given(st.lists(st.integers(0, 3), min_size=1, max_size=12), st.lists(st.integers(0, 3), max_size=6))
@settings(max_examples=60, deadline=None)
def test_beta_zero_is_ap_on_graded_rankings(grades, unretrieved):
    ranking = Ranking.from_grades(grades, unretrieved=unretrieved)
    assert q_measure(ranking, beta=0).value == average_precision(ranking).value


def _ntcireval_q(grades, unretrieved, beta, gain_values=(1, 2, 3)):
    """pyNTCIREVAL's Q-measure: xrelnum counts the judged documents per level L0..L3, gains per level L1..L3."""
    judged = list(grades) + list(unretrieved)
    xrelnum = [sum(1 for g in judged if g == level) for level in range(4)]
    ranked = [(f"d{i}", g) for i, g in enumerate(grades)]
    return QMeasure(xrelnum, list(gain_values), beta).compute(ranked)


@given(st.lists(st.integers(0, 3), min_size=1, max_size=15), st.lists(st.integers(0, 3), max_size=8),
       st.sampled_from([0, Fraction(1, 2), 1, 2, 10]))
@settings(max_examples=150, deadline=None)
def test_pyntcireval_q_measure(grades, unretrieved, beta):
    ranking = Ranking.from_grades(grades, unretrieved=unretrieved)
    if ranking.total_relevant == 0:
        return  # pyNTCIREVAL divides by R = 0
    ours = float(q_measure(ranking, beta=beta).value)
    assert ours == pytest.approx(_ntcireval_q(grades, unretrieved, float(beta)), abs=1e-12)


@given(st.lists(st.integers(0, 3), min_size=1, max_size=12), st.lists(st.integers(0, 3), max_size=6),
       st.tuples(st.integers(1, 20), st.integers(1, 20), st.integers(1, 20)))
@settings(max_examples=80, deadline=None)
def test_pyntcireval_with_a_gain_table(grades, unretrieved, gain_values):
    ranking = Ranking.from_grades(grades, unretrieved=unretrieved)
    if ranking.total_relevant == 0:
        return
    table = ",".join(f"{level}={gain}" for level, gain in zip((1, 2, 3), gain_values))
    ours = float(q_measure(ranking, gains=table).value)
    assert ours == pytest.approx(_ntcireval_q(grades, unretrieved, 1.0, gain_values), abs=1e-12)


def test_explanation_table_and_references():
    result = q_measure(Ranking.parse("2,0,1", unretrieved=[3]))
    assert result.value == Fraction(47, 108)
    text = result.render("text")
    assert "cg*(r)" in text and "BR(r) at relevant r" in text
    assert "BR(1) = (C(1) + β · cg(1)) / (1 + β · cg*(1)) = (1 + 1 · 2) / (1 + 1 · 3) = 3/4" in text
    assert "Result: Q = 47/108" in text
    metric = get_metric("q-measure")
    assert "Sakai 2004" in metric.reference and "Sakai 2007" in metric.reference
    assert get_metric("q") is metric


def test_bad_inputs_are_one_irlab_error():
    ranking = Ranking.parse("3,0,1")
    with pytest.raises(IrlabError, match="beta"):
        q_measure(ranking, beta=-1)
    with pytest.raises(IrlabError, match="beta"):
        q_measure(ranking, beta="many")
    with pytest.raises(IrlabError, match="positive gain"):
        q_measure(ranking, gains="1=0")
    with pytest.raises(IrlabError, match="grade=gain"):
        q_measure(ranking, gains="1")
    with pytest.raises(IrlabError, match="unretrieved"):  # graded, R larger than the known grades: no ideal ranking
        q_measure(Ranking.parse("3,0,1", relevant=4))


def test_cli(cli):
    # β = 0 is AP: (1/1 + 2/3 + 3/4) / 4 = 29/48
    out = cli("explain", "q-measure", "3,0,1,2", "--unretrieved", "3", "--beta", "0")
    assert out.returncode == 0, out.stderr
    assert "β = 0: BR(r) = C(r) / r = P@r" in out.stdout
    assert out.stdout.rstrip().endswith("Result: Q = 29/48 ≈ 0.6042")
    ap = cli("explain", "ap", "3,0,1,2", "--unretrieved", "3")
    assert ap.stdout.rstrip().endswith("Result: AP = 29/48 ≈ 0.6042")
    bad = cli("explain", "q-measure", "3,0,1", "--k", "0")
    assert bad.returncode == 2 and "cut-off k" in bad.stderr


def test_cut_off_by_hand(cli):
    # 3,0,2,1 at l = 3 (R = 3): cg* 3,5,6; BR(1) = (1 + 3)/(1 + 3) = 1, BR(3) = (2 + 5)/(3 + 6) = 7/9; rank 4 not read
    # Q@3 = (1 + 7/9) / min(3, 3) = 16/27
    assert q_measure(Ranking.parse("3,0,2,1"), k=3).value == Fraction(16, 27)
    # l = 2 < R = 3: only BR(1) = 1 counts, divided by min(3, 2) = 2
    assert q_measure(Ranking.parse("3,0,2,1"), k=2).value == Fraction(1, 2)
    # a cut-off beyond the list changes only the denominator: min(R, 10) = R, so Q@10 = Q
    ranking = Ranking.parse("3,0,2,1", unretrieved=[3])
    assert q_measure(ranking, k=10).value == q_measure(ranking).value
    out = cli("explain", "q-measure", "3,0,2,1", "--k", "3")
    assert out.returncode == 0, out.stderr
    assert "Denominator min(R, l), l = 3: D = min(R, l) = min(3, 3) = 3" in out.stdout
    assert "Q@l = (1/min(R, l))" in out.stdout
    assert out.stdout.rstrip().endswith("Result: Q@3 = 16/27 ≈ 0.5926")


@given(st.lists(st.integers(0, 3), min_size=1, max_size=15), st.lists(st.integers(0, 3), max_size=8),
       st.sampled_from([0, Fraction(1, 2), 1, 2]), st.integers(1, 18))
@settings(max_examples=200, deadline=None)
def test_pyntcireval_q_measure_at_a_cut_off(grades, unretrieved, beta, k):
    ranking = Ranking.from_grades(grades, unretrieved=unretrieved)
    if ranking.total_relevant == 0:
        return  # pyNTCIREVAL divides by min(R, l) = 0
    judged = list(grades) + list(unretrieved)
    xrelnum = [sum(1 for g in judged if g == level) for level in range(4)]
    theirs = QMeasure(xrelnum, [1, 2, 3], float(beta), k).compute([(f"d{i}", g) for i, g in enumerate(grades)])
    assert float(q_measure(ranking, beta=beta, k=k).value) == pytest.approx(theirs, abs=1e-12)
