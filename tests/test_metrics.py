"""Every metric against values computed by hand as exact fractions."""

from fractions import Fraction as F

import pytest

from irlab import (
    ParameterError, Ranking, RankingError, average_precision, cohen_kappa, cumulative_gain, dcg,
    eleven_point_average, expected_reciprocal_rank, f_measure, hits, idcg, interpolated_precision,
    kendall_tau_distance, mean_over_queries, ndcg, normalized_err, precision, precision_at_recall,
    precision_recall_points, r_precision, recall, reciprocal_rank, spearman_rho, success,
)
from irlab.exact import log2, to_float

RNNRR = Ranking.parse("RNNRR", relevant=5)


def test_precision_and_its_cutoff_convention():
    assert precision(RNNRR).value == F(3, 5)
    assert precision(RNNRR, k=4).value == F(1, 2)
    assert precision(RNNRR, k=10).value == F(3, 10)  # trec_eval/IIR: divide by k
    assert precision(RNNRR, k=10, precision_denominator="retrieved").value == F(3, 5)


def test_recall_and_its_denominator_convention():
    assert recall(RNNRR).value == F(3, 5)
    assert recall(RNNRR, k=2).value == F(1, 5)
    assert recall(RNNRR, k=2, recall_denominator="min-relevant-k").value == F(1, 2)


def test_f_measure_beta():
    r = Ranking.parse("RNNRR", relevant=10)  # P = 3/5, R = 3/10
    assert f_measure(r).value == F(2, 5)
    assert f_measure(r, beta=2).value == F(1, 3)
    assert f_measure(r, beta=F(1, 2)).value == F(1, 2)
    assert f_measure(Ranking.parse("NN", relevant=1)).value == 0


def test_hits_and_success():
    assert hits(RNNRR, k=3).value == 1
    assert hits(RNNRR).value == 3
    assert success(Ranking.parse("NNR"), k=3).value == 1
    assert success(Ranking.parse("NNR"), k=2).value == 0


def test_r_precision():
    assert r_precision(RNNRR).value == F(3, 5)
    assert r_precision(Ranking.parse("RNNRR", relevant=3)).value == F(1, 3)
    assert r_precision(Ranking.parse("RNNRR", relevant=7)).value == F(3, 7)  # ranks 6-7 missing: non-relevant


def test_reciprocal_rank():
    assert reciprocal_rank(Ranking.parse("NNRNR")).value == F(1, 3)
    assert reciprocal_rank(Ranking.parse("NNRNR"), k=2).value == 0


def test_average_precision_and_denominators():
    assert average_precision(RNNRR).value == F(21, 50)
    assert average_precision(RNNRR, ap_denominator="retrieved").value == F(7, 10)
    assert average_precision(RNNRR, k=3).value == F(1, 5)
    assert average_precision(RNNRR, k=3, ap_denominator="min-relevant-k").value == F(1, 3)
    assert average_precision(Ranking.parse("NNN")).value == 0


def test_average_precision_assumes_r_when_not_given():
    result = average_precision(Ranking.parse("RNNRR"))
    assert result.value == F(7, 10)
    assert any("R was not given" in note.text for note in result.notes)


def test_precision_recall_points():
    points = precision_recall_points(Ranking.parse("RNR", relevant=4))
    assert points == [(1, F(1, 4), F(1)), (2, F(1, 4), F(1, 2)), (3, F(1, 2), F(2, 3))]


SEED_20 = Ranking.parse("RRNNNNNNRRNRNNNRNNNN", relevant=8, collection=10000)


def test_precision_at_recall_non_interpolated():
    assert precision_at_recall(SEED_20, "0.25").value == 1
    assert precision_at_recall(SEED_20, "0.5").value == F(4, 10)  # 4th relevant document at rank 10
    assert precision_at_recall(SEED_20, "1").value == 0  # only 6 of 8 retrieved


def test_interpolated_precision_book_and_trec_eval_rules():
    assert interpolated_precision(SEED_20, "0.33").value == F(5, 12)
    short = Ranking.parse("RRNNNNNNRR", relevant=8)
    assert interpolated_precision(short, "0.3").value == F(2, 5)  # book: ceil(2.4) = 3 relevant needed
    assert interpolated_precision(short, "0.3", interpolation="trec-eval").value == 1  # round(2.4) = 2
    assert interpolated_precision(short, "0.9").value == 0


def test_eleven_point_average():
    assert eleven_point_average(RNNRR).value == F(27, 55)


def test_cumulative_gain():
    assert cumulative_gain(Ranking.parse("3,2,0,1")).value == 6
    assert cumulative_gain(Ranking.parse("3,2,0,1"), k=2).value == 5


def test_dcg_conventions():
    graded = Ranking.parse("3,2,0,1")
    expected_exp = 7 + 3 / log2(3) + 1 / log2(5)
    assert (dcg(graded).value - expected_exp).equals(0)
    assert to_float(dcg(graded).value) == pytest.approx(7 + 3 / 1.584962500721156 + 1 / 2.321928094887362)
    assert to_float(dcg(graded, gain="linear").value) == pytest.approx(3 + 2 / 1.584962500721156 + 1 / 2.321928094887362)
    # Järvelin & Kekäläinen's form rel_1 + sum_{i>=2} rel_i / log2 i is rational here: 3 + 2/1 + 0/log2 3 + 1/2
    assert dcg(graded, gain="linear", discount="log2-rank").value == F(11, 2)
    assert dcg(graded, k=1).value == 7


def test_idcg_uses_unretrieved_grades():
    r = Ranking.parse("0,1", unretrieved=[2])
    assert idcg(r, k=1).value == 3
    assert to_float(idcg(r, k=2).value) == pytest.approx(3 + 1 / 1.584962500721156)


def test_ndcg():
    assert ndcg(Ranking.parse("RRN", relevant=2)).value == 1
    value = ndcg(Ranking.parse("NR", relevant=1)).value  # (1/log2 3) / 1
    assert to_float(value) == pytest.approx(0.6309297535714575)
    assert ndcg(Ranking.parse("NN")).value == 0
    with pytest.raises(ParameterError, match="--unretrieved"):
        ndcg(Ranking.parse("2,0", relevant=3))


def test_err_and_nerr():
    # Pr = (2^g - 1) / 2^gmax with gmax = 3: 7/8, 3/8, 0
    assert expected_reciprocal_rank(Ranking.parse("3,2,0,1"), k=3).value == F(115, 128)
    assert expected_reciprocal_rank(Ranking.parse("2,1")).value == F(25, 32)
    assert expected_reciprocal_rank(Ranking.parse("1"), max_grade=2).value == F(1, 4)
    assert normalized_err(Ranking.parse("2,1")).value == 1
    # reversed: ERR = 1/4 + (3/4)(3/4)/2 = 17/32; ideal 25/32
    assert normalized_err(Ranking.parse("1,2")).value == F(17, 25)


def test_kendall_tau_distance():
    assert kendall_tau_distance("a,b,c", "b,a,c").value == F(1, 3)
    assert kendall_tau_distance("a,b,c,d", "d,c,b,a").value == 1
    assert kendall_tau_distance("a,b,c,d", "a,b,c,d").value == 0
    # at k = 3: top-3 sets {a,b,c} and {b,a,d} share a, b, ordered differently
    assert kendall_tau_distance("a,b,c,d", "b,a,d,c", k=3).value == 1


def test_spearman_rho():
    assert spearman_rho("a,b,c", "c,b,a").value == -1
    assert spearman_rho("a,b,c,d", "b,a,d,c").value == F(3, 5)


def test_rank_comparisons_reject_different_sets_and_duplicates():
    with pytest.raises(RankingError, match="only in the first: c"):
        spearman_rho("a,b,c", "a,b,d")
    with pytest.raises(RankingError, match="appears twice"):
        kendall_tau_distance("a,b,a", "a,b")


def test_kappa_iir_table_8_2():
    # IIR Table 8.2: 300 both yes, 20 judge 1 only, 10 judge 2 only, 70 both no
    judge1 = [1] * 300 + [1] * 20 + [0] * 10 + [0] * 70
    judge2 = [1] * 300 + [0] * 20 + [1] * 10 + [0] * 70
    result = cohen_kappa(judge1, judge2)
    assert result.value == F(277, 357)
    assert any(n.kind == "reading" and "fair" in n.text for n in result.notes)


def test_kappa_marginals_conventions():
    assert cohen_kappa("1,1,0,0", "1,0,0,0").value == F(7, 15)
    assert cohen_kappa("1,1,0,0", "1,0,0,0", kappa_marginals="per-judge").value == F(1, 2)
    with pytest.raises(ParameterError, match="undefined"):
        cohen_kappa("1,1", "1,1")


def test_mean_over_queries_is_a_traced_step():
    results = [average_precision(Ranking.parse("NRNRRN", relevant=10)),
               average_precision(Ranking.parse("NNRRR", relevant=20))]
    m = mean_over_queries(results)
    assert [r.value for r in results] == [F(4, 25), F(43, 600)]
    assert m.value == F(139, 1200)
    assert m.steps[-1].formula_text == "(AP(q1) + AP(q2)) / 2"
    assert m.symbol == "MAP"
