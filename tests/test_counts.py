"""Counts as inputs: the contingency table (IIR 8.3), accuracy, fall-out, E, break-even, kappa from a 2x2 table."""

from fractions import Fraction

import pytest

from irlab import Ranking
from irlab.errors import ParameterError, RankingError
from irlab.metrics import (Counts, accuracy, break_even, cohen_kappa, e_measure, f_measure, fallout, kappa_from_table,
                           precision, r_precision, recall)

COUNTS = "tp=20, fp=40, fn=60, tn=880"


def test_contingency_metrics_by_hand():
    assert precision(Counts.parse(COUNTS)).value == Fraction(20, 60)
    assert recall(Counts.parse(COUNTS)).value == Fraction(20, 80)
    # F1 = 2PR / (P + R) = 2 · 1/3 · 1/4 / (7/12) = 2/7
    assert f_measure(Counts.parse(COUNTS)).value == Fraction(2, 7)
    assert f_measure(Counts.parse(COUNTS), beta=2).value == Fraction(5 * Fraction(1, 12), 4 * Fraction(1, 3) + Fraction(1, 4))
    assert accuracy(COUNTS).value == Fraction(900, 1000)
    assert fallout(COUNTS).value == Fraction(40, 920)
    assert e_measure(COUNTS).value == 1 - Fraction(2, 7)


def test_counts_from_n_and_from_a_ranking_agree():
    assert Counts.parse("tp=20, fp=40, fn=60, n=1000").tn == 880
    ranking = Ranking.parse("RNNRRNN", relevant=5, collection=20)
    counts = Counts.of_ranking(ranking)
    assert (counts.tp, counts.fp, counts.fn, counts.tn) == (3, 4, 2, 11)
    for metric in (precision, recall, f_measure):
        assert metric(ranking).value == metric(counts).value
    assert fallout(ranking).value == Fraction(4, 15) and accuracy(ranking).value == Fraction(14, 20)
    assert fallout(ranking, k=3).value == Fraction(2, 15)  # top 3: RNN -> fp = 2, tn = 13


def test_accuracy_reading_says_why_it_misleads():
    text = accuracy("tp=0, fp=0, fn=10, tn=9990").render()
    assert "retrieving nothing would score 999/1000" in text


def test_break_even_is_r_precision_and_p_equals_r_there():
    ranking = Ranking.parse("RNRRNNRN", relevant=4)
    bep = break_even(ranking).value
    assert bep == r_precision(ranking).value == Fraction(3, 4)
    assert precision(ranking, k=4).value == recall(ranking, k=4).value == bep


def test_kappa_from_iir_table_8_2():
    # IIR Table 8.2: P(A) = 370/400, P(nonrel) = (80 + 90)/800, P(rel) = (320 + 310)/800, kappa ≈ 0.776
    p_a = Fraction(370, 400)
    p_e = Fraction(170, 800) ** 2 + Fraction(630, 800) ** 2
    result = kappa_from_table("300,20,10,70")
    assert result.value == (p_a - p_e) / (1 - p_e) == Fraction(277, 357)
    assert round(float(result), 3) == 0.776
    assert kappa_from_table([[300, 20], [10, 70]], kappa_marginals="per-judge").value == cohen_kappa(
        [1] * 320 + [0] * 80, [1] * 300 + [0] * 20 + [1] * 10 + [0] * 70, kappa_marginals="per-judge").value


def test_cli_counts(cli):
    out = cli("explain", "kappa", "--counts", "300,20,10,70")
    assert out.returncode == 0 and out.stdout.rstrip().endswith("κ = 277/357 ≈ 0.7759")
    out = cli("explain", "fallout", "--counts", COUNTS)
    assert out.returncode == 0 and "fallout = fp / nonrel = 40 / 920 = 1/23" in out.stdout
    out = cli("explain", "ap", "--counts", COUNTS)
    assert out.returncode == 2 and "--counts does not apply to ap" in out.stderr
    out = cli("explain", "precision", "RNR", "--counts", COUNTS)
    assert out.returncode == 2 and "not both" in out.stderr


def test_bad_counts_are_one_clear_error():
    with pytest.raises(RankingError, match="missing fn"):
        Counts.parse("tp=1, fp=2")
    with pytest.raises(RankingError, match="unknown count"):
        Counts.parse("tp=1, fp=2, fn=3, tq=4")
    with pytest.raises(RankingError, match="non-negative integer"):
        Counts.parse("tp=1, fp=-2, fn=3")
    with pytest.raises(RankingError, match="smaller than tp"):
        Counts.parse("tp=10, fp=2, fn=3, n=5")
    with pytest.raises(ParameterError, match="tn is unknown"):
        accuracy("tp=1, fp=2, fn=3")
    with pytest.raises(RankingError, match="4 cells"):
        kappa_from_table("1,2,3")
