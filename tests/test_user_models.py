"""Metrics as C/W/L user models (P@k, RR, RBP, SDCG, INST, INSQ): hand-worked cases, the textbook metrics they
equal, and cwl-eval 1.0.12's measure classes as the oracle for ERG (its EU), ED and ETG (its ETU)."""

import json
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from irlab import Ranking, exact
from irlab.errors import IrlabError, ParameterError
from irlab.metrics import precision, rank_biased_precision, reciprocal_rank, sdcg, user_model

cwl_ranking = pytest.importorskip("cwl.ruler.ranking")
from cwl.ruler.measures.cwl_dcg import NDCGCWLMetric  # noqa: E402  (printed NDCG-k@k, SDCG-k@k in cwl-eval's README)
from cwl.ruler.measures.cwl_insq import INSQCWLMetric  # noqa: E402
from cwl.ruler.measures.cwl_inst import INSTCWLMetric  # noqa: E402
from cwl.ruler.measures.cwl_precision import PrecisionCWLMetric  # noqa: E402
from cwl.ruler.measures.cwl_rbp import RBPCWLMetric  # noqa: E402
from cwl.ruler.measures.cwl_rr import RRCWLMetric  # noqa: E402


def _steps(result):
    return {step.symbol: step.value for step in result.steps}


def _erg_ed_etg(result):
    steps = _steps(result)
    return result.value, steps["ED"], steps["ETG"]


# hand-worked cases -----------------------------------------------------------------------------------------------

def test_precision_at_3_on_rnr_by_hand():
    # C = (1, 1, 0): the user reads ranks 1..3 and stops, P = (1, 1, 1), ED = 3, W = 1/3 each, ERG = 2/3;
    # L = (0, 0, 1): rank 3 is surely the last, ETG = L(3) · (1 + 0 + 1) = 2
    result = user_model(Ranking.parse("RNR"), "precision", k=3)
    assert _erg_ed_etg(result) == (Fraction(2, 3), 3, 2)
    rows = result.tables[0].rows
    assert [row[5] for row in rows[:-1]] == [Fraction(1, 3)] * 3  # W(i)
    assert [row[6] for row in rows[:-1]] == [0, 0, 1]  # L(i)
    assert len(rows) == 4  # ranks 4..1000 are never reached: not shown, only the Σ row follows


def test_rr_on_nnrnr_by_hand():
    # C = (1, 1, 0, …): the user stops at the first relevant, rank 3; W = 1/3 on ranks 1..3, ERG = 1/3 = RR,
    # ED = 3, L(3) = 1 and ETG = 1
    assert _erg_ed_etg(user_model(Ranking.parse("NNRNR"), "rr")) == (Fraction(1, 3), 3, 1)
    # no relevant document: C = 1 on all n = 4 ranks, W = 1/4, ERG = 0, ED = 4, no last rank within n: ETG = 0
    assert _erg_ed_etg(user_model(Ranking.parse("NN"), "rr", max_depth=4)) == (0, 4, 0)


def test_rbp_by_hand_with_its_normalisation_and_residual():
    # p = 1/2, n = 6, RNUR: P(i) = (1/2)^(i-1), ED = 63/32, W(i) = 2^(6-i) / 63; ERG = (32 + 4) / 63 = 4/7
    # Moffat & Zobel's RBP = (1/2)(1 + 1/8) = 9/16 = ERG · (1 - 1/64); L(i) = (1/2)^i, ETG = 1/2 + 1/4 + 1/8 + 2/8 +
    # 2/32 + 2/64 = 35/32 = ERG · ED - (1/64) · 2; ResERG = W(3) + W(5) + W(6) = (8 + 2 + 1) / 63 = 11/63
    result = user_model(Ranking.parse("RNUR"), "rbp", persistence="1/2", max_depth=6)
    steps = _steps(result)
    assert _erg_ed_etg(result) == (Fraction(4, 7), Fraction(63, 32), Fraction(35, 32))
    assert steps["RBP"] == Fraction(9, 16) == rank_biased_precision(Ranking.parse("RNUR"), persistence="1/2").value
    assert steps["ResERG"] == Fraction(11, 63)


def test_sdcg_at_3_on_rnr_by_hand():
    # P(i) = 1/log2(i+1) = (1, 1/log2(3), 1/2): ED = 1 + 1/log2(3) + 1/2 ≈ 2.1309; DCG@3 = 1 + 1/2 = 3/2;
    # SDCG@3 = (3/2) / ED ≈ 0.70392; C(3) = 0 so ETG = ERG · ED = 3/2
    result = sdcg(Ranking.parse("RNR"), k=3)
    erg, ed, etg = _erg_ed_etg(result)
    assert etg == Fraction(3, 2)
    assert exact.to_float(ed) == pytest.approx(1 + 1 / np.log2(3) + 0.5, abs=1e-15)
    assert float(result) == pytest.approx(1.5 / (1 + 1 / np.log2(3) + 0.5), abs=1e-15)
    assert exact.is_symbolic(erg)  # exact: a quotient of logarithms, not a float


def test_sdcg_with_k_beyond_the_depth_names_the_sums_it_computes():
    # RNRRR, k = 4, n = 2: cwl-eval's C = (log2(2)/log2(3), log2(3)/log2(4)), none 0, W normalised over ranks 1..2:
    # DCG@2 = 1 + 0/log2(3) = 1, ED = 1 + 1/log2(3) ≈ 1.6309, SDCG@4 = 1 / ED ≈ 0.6131 = SDCG@2 of RN;
    # P(3) = 1/log2(4) = 1/2: L = (1 - 1/log2(3), 1/log2(3) - 1/2), ETG = L(1) + L(2) = 1/2
    result = sdcg(Ranking.parse("RNRRR"), k=4, max_depth=2)
    steps = _steps(result)
    assert "DCG@2" in steps and "DCG@4" not in steps and steps["DCG@2"] == 1
    assert exact.to_float(steps["ED"]) == pytest.approx(1 + 1 / np.log2(3), abs=1e-15)
    assert float(result) == pytest.approx(1 / (1 + 1 / np.log2(3)), abs=1e-15) == float(sdcg(Ranking.parse("RN"), k=2))
    assert steps["ETG"] == Fraction(1, 2)
    oracle = NDCGCWLMetric(4)
    oracle.measure(cwl_ranking.Ranking("q", [1.0, 0.0, 1.0, 1.0, 1.0], [np.nan] * 5, max_n=2))
    assert (round(oracle.expected_utility, 4), round(oracle.expected_items, 4)) == (0.6131, 1.6309)
    readings = " ".join(note.text for note in result.notes)
    assert "Σ_{i<=min(k, n)} 1/log2(i+1) = ED" in readings and "Σ_{i<=k} 1/log2(i+1) = ED" not in readings
    assert "SDCG@4 = DCG@2 / Σ_{i<=2} 1/log2(i+1), the value of SDCG@2" in readings
    assert "m = min(k, n)" in result.formula.text
    # k within n: unchanged, the sums run to k
    assert "DCG@3" in _steps(sdcg(Ranking.parse("RNRRR"), k=3, max_depth=5))


def test_insq_by_hand():
    # T = 1, n = 2, RN: C(1) = (2/3)² = 4/9, C(2) = (3/4)² = 9/16; P = (1, 4/9), P(3) = 1/4; ED = 13/9, ERG = 9/13;
    # L = (5/9, 4/9 - 1/4 = 7/36), ETG = 5/9 + 7/36 = 3/4 = ERG · ED - P(3) · 1
    assert _erg_ed_etg(user_model(Ranking.parse("RN"), "insq", max_depth=2)) == (Fraction(9, 13), Fraction(13, 9),
                                                                               Fraction(3, 4))


def test_inst_by_hand():
    # T = 1, n = 3, RNR: P = (1, 1/4, 1/9), P(4) = 4/81, ED = 49/36, ERG = 40/49, ETG = 82/81 (tests/test_cwl.py)
    assert _erg_ed_etg(user_model(Ranking.parse("RNR"), "inst", max_depth=3)) == (Fraction(40, 49), Fraction(49, 36),
                                                                                Fraction(82, 81))


def _label(result):
    return next(step.label for step in result.steps if step.symbol == result.symbol)


def _readings(result):
    return [note.text for note in result.notes if note.kind == "reading"]


def test_graded_precision_is_named_graded_not_p_at_k():
    # 3,0,2,1 with g_max = 3: r = (1, 0, 2/3), ERG = (1 + 0 + 2/3) / 3 = 5/9; irlab's P@3 counts grades >= 1 as
    # hits: 2/3. ERG is P@3 of the graded gains, not P@3
    graded = user_model(Ranking.parse("3,0,2,1"), "precision", k=3)
    assert graded.value == Fraction(5, 9) and precision(Ranking.parse("3,0,2,1"), k=3).value == Fraction(2, 3)
    assert "= P@3" not in _label(graded) and "graded P@3" in _label(graded)
    assert any("differs from irlab's P@3 = 2/3" in text and "because of the grades" in text for text in _readings(graded))
    assert not any("r_i / 3 is P@3" in text or "hits@3" in text for text in _readings(graded))
    binary = user_model(Ranking.parse("RNRR"), "precision", k=3)  # (1 + 0 + 1) / 3 = 2/3 = P@3
    assert binary.value == Fraction(2, 3) and _label(binary) == "Expected rate of gain (= P@3)"


def test_graded_rr_is_the_first_gain_over_its_rank():
    # 0,2,3 with g_max = 3: the user stops at rank 2 (gain 2/3): ERG = (2/3) / 2 = 1/3; irlab's RR = 1/2
    graded = user_model(Ranking.parse("0,2,3"), "rr")
    assert graded.value == Fraction(1, 3) and reciprocal_rank(Ranking.parse("0,2,3")).value == Fraction(1, 2)
    assert "= RR" not in _label(graded)
    assert any("differs from irlab's RR = 1/2" in text for text in _readings(graded))
    assert _label(user_model(Ranking.parse("NNR"), "rr")) == "Expected rate of gain (= RR)"  # 1/3 both


def test_rr_beyond_the_depth_is_not_called_rr():
    # NNNR read to n = 2: no gain in the ranks read, ERG = 0, while RR = 1/4
    result = user_model(Ranking.parse("NNNR"), "rr", max_depth=2)
    assert result.value == 0 and "= RR" not in _label(result)
    assert any("irlab's RR = 1/4 = 0.25 reads the whole list" in text for text in _readings(result))


def test_rbp_of_a_list_cut_at_n_is_not_irlab_rbp():
    # 3,0,2,1, p = 9/10, n = 2: RBP of the 2 ranks = (1/10) · 1 = 1/10; irlab's rbp over 4 ranks = 1783/10000
    result = user_model(Ranking.parse("3,0,2,1"), "rbp", max_depth=2)
    assert _steps(result)["RBP"] == Fraction(1, 10)
    assert any("short of irlab's RBP = 1783/10000" in text for text in _readings(result))
    assert "RBP normalised" not in _label(result)


graded_or_binary = st.lists(st.sampled_from([0, Fraction(1, 4), Fraction(1, 3), Fraction(1, 2), 1]), min_size=1,
                            max_size=20) | st.lists(st.sampled_from([0, 1]), min_size=1, max_size=20)


@settings(max_examples=60, deadline=None)
@given(graded_or_binary, st.integers(1, 25), st.sampled_from([3, 10, 1000]))
def test_erg_is_named_after_a_textbook_metric_only_when_equal_to_it(values, k, depth):
    # "(= P@k)" and "(= RR)" only where ERG equals irlab's P@k / RR and the judgments are binary; RBP's step equals
    # irlab's rbp (graded too: both take r_i = g_i / g_max) unless the list was cut at n
    ranking, gains = _ranking(values)
    graded = not ranking.binary
    k = min(k, depth)
    model = user_model(ranking, "precision", k=k, max_depth=depth)
    assert ("(= P@" in _label(model)) == (not graded and model.value == precision(ranking, k=k).value)
    model = user_model(ranking, "rr", max_depth=depth)
    assert ("(= RR" in _label(model)) == (not graded and model.value == reciprocal_rank(ranking).value)
    model = user_model(ranking, "rbp", max_depth=depth)
    equal = _steps(model)["RBP"] == rank_biased_precision(ranking).value
    assert equal == (ranking.retrieved <= depth or not any(gains[depth:]))
    assert ("RBP normalised over the n ranks" in _label(model)) == equal


def test_rbp_steps_show_the_closed_forms():
    # ED = Σ_{i<=n} p^(i-1) = (1 - p^n) / (1 - p); S = Σ r_i p^(i-1); RBP = (1 - p) · S; ERG = RBP / (1 - p^n);
    # P(n+1) = p^n. RNUR, p = 1/2, n = 6: ED = (63/64) / (1/2) = 63/32, S = 1 + 1/8 = 9/8, RBP = 9/16, ERG = 4/7
    result = user_model(Ranking.parse("RNUR"), "rbp", persistence="1/2", max_depth=6)
    steps = {step.symbol: step for step in result.steps}
    assert steps["ED"].formula_text == "(1 - p^n) / (1 - p)" and steps["ED"].value == Fraction(63, 32)
    assert steps["ED"].value == result.tables[0].rows[-1][4]  # the Σ of the column Π_{j<i} C(j)
    assert steps["S"].value == Fraction(9, 8) and steps["RBP"].formula_text == "(1 - p) · S"
    assert steps["ERG"].formula_text == "RBP / (1 - p^n)" and result.value == Fraction(4, 7)
    assert steps["P(n+1)"].formula_text == "p^n" and steps["P(n+1)"].value == Fraction(1, 64)


def test_long_exact_values_are_read_through_short_parts(cli):
    # INST, T = 1, RNR read to n = 1000: ED is a fraction of 867 digits. P(1) = 1, P(3) = C(1) · C(2) = (1/4)(4/9) =
    # 1/9, so G = Σ P(i) r_i = 1 + 1/9 = 10/9 and INST = G / ED; after rank 3, T_i = -1 and C(i) = ((i-1)/i)², so
    # P(1001) = (1/9) · (2/1000)² = 1/2250000 and ETG = G - P(1001) · 2 = 1249999/1125000
    out = cli("explain", "inst", "RNR").stdout
    steps = out[out.index("Step 1."):]
    assert "G = 1 + 1/9 = 10/9 ≈ 1.1111" in steps and "INST = G / ED = (10/9) / (" in steps
    assert "ETG = G - P(n+1) · Σ r_i = 10/9 - (1/2250000) · 2 = 1249999/1125000 ≈ 1.1111" in steps
    assert "W(1) = 1 / ED" not in steps  # 867 digits over 867 digits: the table shows W(1) as a decimal
    result_line = next(line for line in out.splitlines() if line.startswith("Result:"))
    assert result_line == "Result: INST = G / ED ≈ 1.1111 / 1.5362 ≈ 0.7233"
    data = json.loads(cli("explain", "inst", "RNR", "--format", "json").stdout)
    assert data["answer"]["decimal"] == pytest.approx(0.72328889, abs=1e-8)
    # RBP over 1,000 ranks: ERG = RBP / (1 - p^n) with RBP = (1/10)(1 + 81/100) = 181/1000, 1 - p^n ≈ 1
    out = cli("explain", "rbp", "RNR", "--user-model").stdout
    assert "Result: ERG = RBP / (1 - p^n) ≈ 0.181 / 1.0000 ≈ 0.1810" in out
    assert "ED = (1 - p^n) / (1 - p) = (1 - (9/10)^1000) / (1 - 9/10) = " in out
    # short values keep the sum of weights: W(1) + W(3) (test_user_model_text_reads_as_worked)
    assert "Result: INST = 40/49 ≈ 0.8163" in cli("explain", "inst", "RNR", "--max-depth", "3").stdout


# the textbook metrics they equal ----------------------------------------------------------------------------------

binary = st.text("RNU", min_size=1, max_size=25).map(Ranking.parse)


@settings(max_examples=60, deadline=None)
@given(binary, st.integers(1, 30))
def test_erg_of_p_at_k_is_precision_exactly(ranking, k):
    # cwl-eval pads with gain 0: P@k divides by k (irlab's default precision_denominator = k)
    assert user_model(ranking, "precision", k=k).value == precision(ranking, k=k).value


@settings(max_examples=60, deadline=None)
@given(binary, st.sampled_from([Fraction(1, 2), Fraction(4, 5), Fraction(9, 10), Fraction(19, 20)]),
       st.sampled_from([25, 40, 1000]))
def test_rbp_is_erg_times_one_minus_p_to_the_n(ranking, p, depth):
    # cwl-eval normalises W over the n ranks: ERG = RBP / (1 - p^n); the residuals: ResERG = (resid - p^n) / (1 - p^n)
    model = user_model(ranking, "rbp", persistence=p, max_depth=depth)
    rbp = rank_biased_precision(ranking, persistence=p)
    assert model.value * (1 - p**depth) == rbp.value == _steps(model)["RBP"]
    resid = _steps(rbp)["resid"]
    assert _steps(model)["ResERG"] == (resid - p**depth) / (1 - p**depth)


@settings(max_examples=60, deadline=None)
@given(binary)
def test_erg_of_rr_is_rr_exactly(ranking):
    assert user_model(ranking, "rr").value == reciprocal_rank(ranking).value


# cwl-eval as the oracle -------------------------------------------------------------------------------------------

gains = st.lists(st.sampled_from([0, 1]), min_size=1, max_size=30) | st.lists(
    st.sampled_from([0, Fraction(1, 4), Fraction(1, 3), Fraction(1, 2), 1]), min_size=1, max_size=30)
depths = st.sampled_from([5, 20, 100, 1000])


def _ranking(values):
    """An irlab ranking with gains ``values`` and the gains cwl-eval is given (grade / 12 when graded)."""
    if all(v in (0, 1) for v in values):
        return Ranking.parse("".join("R" if v else "N" for v in values)), values
    # grades on a 12-point scale so that g / 12 gives the gains (the top grade present is 12 by construction)
    return Ranking.from_grades([int(v * 12) for v in values] + [12]), [*values, 1]


def _agree(result, metric, values, depth):
    metric.residuals = True
    metric.measure(cwl_ranking.Ranking("q", [float(g) for g in values], [np.nan] * len(values), max_n=depth))
    erg, ed, etg = (exact.to_float(value) for value in _erg_ed_etg(result))
    assert erg == pytest.approx(metric.expected_utility, abs=1e-9)
    assert ed == pytest.approx(metric.expected_items, abs=1e-9)
    assert etg == pytest.approx(metric.expected_total_utility, abs=1e-9)
    return metric


@settings(max_examples=60, deadline=None)
@given(gains, depths, st.integers(1, 30))
def test_precision_equals_cwl_eval(values, depth, k):
    ranking, values = _ranking(values)
    k = min(k, depth)  # k > n: test_precision_beyond_the_depth_equals_cwl_eval_where_it_computes
    _agree(user_model(ranking, "precision", k=k, max_depth=depth), PrecisionCWLMetric(k), values, depth)


def test_precision_with_k_beyond_the_depth_by_hand_and_as_cwl_eval():
    # RNRRR, k = 3, n = 2: C = (1, 1) (C(k) = 0 lies past n), W = (1/2, 1/2), ERG = 1/2 = P@2, ED = 2; L = (0, 0):
    # no rank within n is the last one read, ETG = 0. cwl-eval prints P@3 0.5000, ETU 0, ED 2 for it
    result = user_model(Ranking.parse("RNRRR"), "precision", k=3, max_depth=2)
    assert _erg_ed_etg(result) == (Fraction(1, 2), 2, 0) and result.value == precision(Ranking.parse("RN"), k=2).value
    assert _label(result) == "Expected rate of gain (= P@2, not P@3: only n = 2 ranks are read)"
    _agree(result, PrecisionCWLMetric(3), [1, 0, 1, 1, 1], 2)


@settings(max_examples=60, deadline=None)
@given(gains, st.sampled_from([1, 2, 5, 20]), st.integers(1, 8))
def test_precision_beyond_the_depth_equals_cwl_eval_where_it_computes(values, depth, beyond):
    # k = n + 1: cwl-eval's C vector is (1, …, 1), n entries, and it computes; k > n + 1: its k - 1 entries do not fit
    # the n gains and numpy stops it; irlab gives every k > n the value of k = n + 1 (C(i) = 1 on ranks 1..n)
    ranking, values = _ranking(values)
    k = depth + beyond
    result = user_model(ranking, "precision", k=k, max_depth=depth)
    assert _erg_ed_etg(result) == _erg_ed_etg(user_model(ranking, "precision", k=depth + 1, max_depth=depth))
    if beyond == 1:
        _agree(result, PrecisionCWLMetric(k), values, depth)
    else:
        with pytest.raises(ValueError, match=rf"shapes \({k - 1},\) and \({depth},\) not aligned"):
            PrecisionCWLMetric(k).measure(cwl_ranking.Ranking("q", [float(g) for g in values], [np.nan] * len(values),
                                                              max_n=depth))


@settings(max_examples=60, deadline=None)
@given(gains, depths)
def test_rr_equals_cwl_eval(values, depth):
    ranking, values = _ranking(values)
    _agree(user_model(ranking, "rr", max_depth=depth), RRCWLMetric(), values, depth)


@settings(max_examples=60, deadline=None)
@given(gains, st.integers(1, 30))
def test_rr_at_k_equals_cwl_eval_read_to_depth_k(values, k):
    # irlab's RR@k stops at rank k too (C(k) = 0); cwl-eval's RR has no k, but read to depth k it gives the same
    ranking, values = _ranking(values)
    _agree(user_model(ranking, "rr", k=k), RRCWLMetric(), values, k)


@settings(max_examples=60, deadline=None)
@given(gains, depths, st.sampled_from([Fraction(1, 5), Fraction(1, 2), Fraction(4, 5), Fraction(9, 10)]))
def test_rbp_equals_cwl_eval_with_its_residual(values, depth, p):
    ranking, values = _ranking(values)
    result = user_model(ranking, "rbp", persistence=p, max_depth=depth)
    oracle = _agree(result, RBPCWLMetric(float(p)), values, depth)
    assert float(_steps(result)["ResERG"]) == pytest.approx(oracle.residual_expected_utility, abs=1e-9)


@settings(max_examples=60, deadline=None)
@given(gains, st.sampled_from([5, 20, 100]), st.integers(1, 40))
def test_sdcg_equals_cwl_eval(values, depth, k):
    # k may exceed n (depth 5): the user may then read past rank n, and ETG falls short of ERG · ED
    ranking, values = _ranking(values)
    _agree(sdcg(ranking, k=k, max_depth=depth), NDCGCWLMetric(k), values, depth)


@settings(max_examples=60, deadline=None)
@given(gains, depths, st.sampled_from([Fraction(1, 2), 1, 2, Fraction(5, 2), 10]))
def test_inst_and_insq_equal_cwl_eval(values, depth, target):
    ranking, values = _ranking(values)
    _agree(user_model(ranking, "inst", target=target, max_depth=depth), INSTCWLMetric(float(target)), values, depth)
    _agree(user_model(ranking, "insq", target=target, max_depth=depth), INSQCWLMetric(float(target)), values, depth)


@settings(max_examples=30, deadline=None)
@given(gains, st.sampled_from(["precision", "rr", "rbp", "sdcg", "inst", "insq"]), st.sampled_from([5, 40]))
def test_table_sums_are_the_steps(values, metric, depth):
    # Σ W(i) = 1, Σ L(i) = 1 - Π_{j<=n} C(j), the W(i)·r_i column sums to ERG and the L(i)·Σ r_j column to ETG
    ranking, _ = _ranking(values)
    result = user_model(ranking, metric, max_depth=depth, **({"k": 3} if metric in ("precision", "sdcg") else {}))
    table = result.tables[0]
    column = {name: index for index, name in enumerate(table.columns)}
    rows, sums = table.rows[:-1], table.rows[-1]
    weights = [row[column["W(i)"]] for row in rows]
    assert exact.to_float(exact.total(weights)) == pytest.approx(1, abs=1e-12) and sums[column["W(i)"]] == 1
    erg, _, etg = _erg_ed_etg(result)
    assert exact.to_float(exact.total(row[column["W(i) · r_i"]] for row in rows)) == pytest.approx(exact.to_float(erg))
    assert exact.to_float(sums[column["L(i) · Σ_{j<=i} r_j"]]) == pytest.approx(exact.to_float(etg), abs=1e-12)


# the command line -------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("fmt", ["text", "markdown", "latex", "html"])
@pytest.mark.parametrize("args", [["precision", "RNRR", "--k", "3"], ["rr", "NNRNR"], ["rbp", "RNUR", "--persistence",
                                                                                           "0.5"]])
def test_user_model_is_appended_and_the_rest_unchanged(cli, args, fmt):
    plain = cli("explain", *args, "--format", fmt)
    modelled = cli("explain", *args, "--format", fmt, "--user-model", "--max-depth", "10")
    assert plain.returncode == modelled.returncode == 0, modelled.stderr
    assert "As a user model (C/" in modelled.stdout and "As a user model" not in plain.stdout
    if fmt in ("text", "markdown"):  # the explanation without --user-model comes first, as it was
        assert modelled.stdout.startswith(plain.stdout.rstrip("\n"))


def test_user_model_text_reads_as_worked(cli):
    out = cli("explain", "precision", "RNRR", "--k", "3", "--user-model").stdout
    section = out[out.index("As a user model (C/W/L)"):]
    assert "rank i | judgment | r_i | C(i) | Π_{j<i} C(j) |         W(i) | L(i) |   W(i) · r_i" in section
    assert "ERG = W(1) + W(3) = 1/3 + 1/3 = 2/3 ≈ 0.6667" in section
    assert "ED = 3" in section and "ETG = ERG · ED = (2/3) · 3 = 2" in section


def test_user_model_json_and_several_rankings(cli):
    data = json.loads(cli("explain", "rbp", "RNR", "--user-model", "--max-depth", "4", "--persistence", "1/2",
                          "--format", "json").stdout)
    model = data["sections"][0]
    assert model["title"] == "As a user model (C/W/L)" and model["value"] == "2/3"  # W = (8, 4, 2, 1) / 15: 8/15 + 2/15
    assert {step["symbol"] for step in model["steps"]} >= {"ED", "ERG", "ETG", "RBP", "ResERG"}
    out = cli("explain", "precision", "RNR", "NRR", "--k", "2", "--user-model").stdout
    assert "As a user model (C/W/L): query 1" in out and "As a user model (C/W/L): query 2" in out


def test_sdcg_inst_insq_take_the_flag_and_are_unchanged(cli):
    for args in (["sdcg", "RNR", "--k", "3"], ["inst", "RNR", "--max-depth", "5"], ["insq", "RN"]):
        assert cli("explain", *args, "--user-model").stdout == cli("explain", *args).stdout


@pytest.mark.parametrize("args, message", [
    (["ap", "RNR", "--user-model"], "ap has no C/W/L user model"),
    (["precision", "--counts", "tp=1,fp=2,fn=3,tn=4", "--user-model"], "counts (--counts) have no ranks"),
    (["precision", "RNR", "--max-depth", "5"], "option --max-depth does not apply to precision"),
    (["rbp", "RNR", "--persistence", "1", "--user-model"], "persistence p must be below 1"),
    (["sdcg", "RNR", "--k", "0"], "cut-off k must be an integer >= 1"),
])
def test_errors_are_one_line(cli, args, message):
    out = cli("explain", *args)
    assert out.returncode == 2 and message in out.stderr and "Traceback" not in out.stderr


@pytest.mark.parametrize("call", [
    lambda: user_model("RNR", "ap"),
    lambda: user_model("RNR", "rbp", k=3),
    lambda: user_model("RNR", "precision", k=10**13),
    lambda: user_model("RNR", "inst", target=0),
    lambda: user_model("RNR", "rr", max_depth=0),
    lambda: user_model("RNR", 3),
])
def test_api_errors(call):
    with pytest.raises(IrlabError):
        call()


def test_api_accepts_text_and_rejects_unknown_metric_by_name():
    assert user_model("RNR", "Precision", k=3).value == Fraction(2, 3)
    with pytest.raises(ParameterError, match="precision, rr, rbp, sdcg, inst, insq"):
        user_model("RNR", "ndcg")
