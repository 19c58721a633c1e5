"""Kendall's tau-a/b/c and Spearman's rho of two score lists with ties (issue 15: scipy's tau-b/tau-c and mid-ranks).

Exact values worked out by hand below; generated lists (heavy ties) checked against scipy.stats.kendalltau (variants
b and c) and scipy.stats.spearmanr to 1e-12, and tau-a (no scipy variant) against a count over every pair.
"""

import json
import math
from fractions import Fraction as F
from itertools import combinations

import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

from irlab.errors import InputTypeError, ParameterError, RankingError
from irlab.metrics import get_metric, kendall_tau, kendall_tau_distance, spearman_rho, spearman_rho_scores
from irlab.metrics.rank_correlation import mid_ranks, pair_counts

scipy_stats = pytest.importorskip("scipy.stats")


# worked by hand ------------------------------------------------------------------------------------------------

def test_tau_by_hand_four_items_with_a_tie_in_each_list():
    # x = 1, 2, 2, 3 and y = 1, 3, 2, 2; the 6 pairs of items:
    #   (1,2) x 1<2, y 1<3 concordant   (1,3) 1<2, 1<2 concordant   (1,4) 1<3, 1<2 concordant
    #   (2,3) x 2=2          tied in x  (2,4) 2<3, 3>2 discordant   (3,4) 2<3, y 2=2 tied in y
    # C = 3, D = 1, n_0 = 6, n_1 = 1, n_2 = 1; distinct values 3 and 3, so m = 3
    x, y = "1,2,2,3", "1,3,2,2"
    assert pair_counts([1, 2, 2, 3], [1, 3, 2, 2]) == {
        "pairs": 6, "concordant": 3, "discordant": 1, "tied in x only": 1, "tied in y only": 1, "tied in both": 0}
    assert kendall_tau(x, y, "a").value == F(2, 6)  # (C - D) / n_0
    assert kendall_tau(x, y, "b").value == F(2, 5)  # 2 / √((6 - 1)(6 - 1))
    assert kendall_tau(x, y).value == F(2, 5)  # b is the default, as in scipy
    assert kendall_tau(x, y, "c").value == F(3, 8)  # 2 · 3 · 2 / (4² · (3 - 1)) = 12/32


def test_tau_by_hand_five_items_irrational_tau_b():
    # x = 1, 2, 2, 3, 4 and y = 1, 3, 2, 2, 2 (three items tie in y: 3 pairs); the 10 pairs:
    #   concordant (1,2) (1,3) (1,4) (1,5); discordant (2,4) (2,5); tied in x (2,3); tied in y (3,4) (3,5) (4,5)
    # C = 4, D = 2, n_0 = 10, n_1 = 1, n_2 = 3; distinct values 4 and 3, m = 3
    x, y = [1, 2, 2, 3, 4], [1, 3, 2, 2, 2]
    counts = pair_counts(x, y)
    assert (counts["concordant"], counts["discordant"], counts["tied in x only"], counts["tied in y only"]) == (4, 2, 1, 3)
    assert kendall_tau(x, y, "a").value == F(1, 5)  # 2 / 10
    assert kendall_tau(x, y, "b").value == 2 / sympy.sqrt(63)  # 2 / √(9 · 7) = 2√7/21
    assert str(kendall_tau(x, y, "b").value) == "2*sqrt(7)/21"
    assert kendall_tau(x, y, "c").value == F(6, 25)  # 2 · 3 · 2 / (25 · 2)


def test_tau_ties_in_both_lists_count_in_n1_and_n2():
    # x = 1, 1, 2 and y = 5, 5, 6: pair (1,2) ties in both, (1,3) and (2,3) concordant
    # C = 2, D = 0, n_0 = 3, n_1 = n_2 = 1: tau-b = 2 / √(2 · 2) = 1 (same order, same ties); tau-a = 2/3
    assert pair_counts([1, 1, 2], [5, 5, 6])["tied in both"] == 1
    assert kendall_tau("1,1,2", "5,5,6").value == 1
    assert kendall_tau("1,1,2", "5,5,6", "a").value == F(2, 3)


def test_spearman_by_hand_with_ties_and_the_no_ties_shortcut():
    # x = 1, 2, 2, 3 -> mid-ranks 1, 5/2, 5/2, 4; y = 1, 3, 2, 2 -> 1, 4, 5/2, 5/2; mean rank 5/2
    # deviations x: -3/2, 0, 0, 3/2; y: -3/2, 3/2, 0, 0
    # S_xy = 9/4, S_xx = 9/2, S_yy = 9/2: rho = (9/4) / (9/2) = 1/2
    # d = 0, -3/2, 0, 3/2: Σd² = 9/2, shortcut 1 - 6 · (9/2) / (4 · 15) = 11/20, off by 1/20
    assert mid_ranks([1, 2, 2, 3]) == [1, F(5, 2), F(5, 2), 4]
    result = spearman_rho_scores("1,2,2,3", "1,3,2,2")
    assert result.value == F(1, 2)
    steps = {step.symbol: step.value for step in result.steps}
    assert steps["S_xy"] == F(9, 4) and steps["S_xx"] == steps["S_yy"] == F(9, 2)
    assert steps["Σd²"] == F(9, 2) and steps["ρ_no-ties"] == F(11, 20) and steps["Δ"] == F(1, 20)
    assert "instead of ρ = 1/2 = 0.5, off by 1/20 = 0.05" in result.render("text")
    rho, shortcut, gap = result.support  # what irlab conventions spearman shows side by side
    assert (rho.value, shortcut.value, gap.value) == (F(1, 2), F(11, 20), F(1, 20))


def test_spearman_by_hand_irrational():
    # x = 1, 2, 3, 4 (ranks as they are); y = 1, 3, 2, 2 -> 1, 4, 5/2, 5/2
    # S_xy = (-3/2)(-3/2) + (-1/2)(3/2) = 3/2, S_xx = 5, S_yy = 9/2: rho = (3/2) / √(45/2) = √10/10; shortcut 7/20
    result = spearman_rho_scores([1, 2, 3, 4], [1, 3, 2, 2])
    assert result.value == sympy.sqrt(10) / 10
    assert {s.symbol: s.value for s in result.steps}["ρ_no-ties"] == F(7, 20)
    assert "Result: ρ = sqrt(10)/10 ≈ 0.3162" in result.render("text")


def test_without_ties_the_variants_agree_and_the_shortcut_is_exact():
    x, y = "0.9,0.7,0.4,0.2,0.1", "0.8,0.9,0.3,0.1,0.2"  # C = 8, D = 2 (pairs (1,2) and (4,5))
    assert kendall_tau(x, y, "a").value == kendall_tau(x, y, "b").value == kendall_tau(x, y, "c").value == F(3, 5)
    result = spearman_rho_scores(x, y)
    assert result.value == F(4, 5)  # Σd² = 1 + 1 + 0 + 1 + 1 = 4: 1 - 24/120
    assert {s.symbol: s.value for s in result.steps}["Δ"] == 0
    assert "the shortcut 1 - 6 Σd² / (n(n² - 1)) is exact" in result.render("text")


def test_scores_are_read_exactly_and_items_can_be_named():
    # 0.1 + 0.2 is not 0.3 in binary floating point; read as written, 0.3 and '3/10' tie exactly
    assert kendall_tau([0.3, "3/10", 0.1], [1, 1, 0]).value == 1
    voorhees = kendall_tau({"sys1": 0.31, "sys2": 0.25, "sys3": 0.25}, {"sys3": 0.2, "sys1": 0.29, "sys2": 0.29},
                           names=("MAP, qrels A", "MAP, qrels B"))
    # sys1-sys2 tied in B, sys1-sys3 concordant, sys2-sys3 tied in A: C = 1, n_1 = n_2 = 1: 1 / √(2 · 2)
    assert voorhees.value == F(1, 2)
    text = voorhees.render("text")
    assert "sys1, sys2" in text and "tied in MAP, qrels B" in text and "tau_variant = b" in text


# checked against scipy and against every pair ------------------------------------------------------------------

heavy_ties = st.lists(st.tuples(st.integers(0, 3), st.integers(0, 3)), min_size=2, max_size=40)
decimals = st.lists(st.tuples(st.sampled_from([0.1, 0.2, 0.25, 0.3, 0.7]), st.integers(-2, 2)), min_size=2, max_size=25)


def _spread(pairs):
    xs, ys = [p[0] for p in pairs], [p[1] for p in pairs]
    return xs, ys, len(set(xs)) > 1 and len(set(ys)) > 1


def _tau_a_by_pairs(xs, ys):
    signs = [(xs[i] > xs[j]) - (xs[i] < xs[j]) for i, j in combinations(range(len(xs)), 2)]
    signs_y = [(ys[i] > ys[j]) - (ys[i] < ys[j]) for i, j in combinations(range(len(xs)), 2)]
    return F(sum(a * b for a, b in zip(signs, signs_y)), len(signs))


@settings(max_examples=150, deadline=None)
@given(st.one_of(heavy_ties, decimals))
def test_tau_and_rho_equal_scipy(pairs):
    xs, ys, spread = _spread(pairs)
    assert kendall_tau(xs, ys, "a").value == _tau_a_by_pairs(xs, ys)
    if not spread:
        for variant in "bc":
            with pytest.raises(RankingError, match="undefined"):
                kendall_tau(xs, ys, variant)
        with pytest.raises(RankingError, match="undefined"):
            spearman_rho_scores(xs, ys)
        return
    for variant in "bc":
        expected = scipy_stats.kendalltau(xs, ys, variant=variant).statistic
        assert math.isclose(float(kendall_tau(xs, ys, variant)), expected, rel_tol=0, abs_tol=1e-12), variant
    assert math.isclose(float(spearman_rho_scores(xs, ys)), scipy_stats.spearmanr(xs, ys).statistic, rel_tol=0,
                        abs_tol=1e-12)


@settings(max_examples=60, deadline=None)
@given(heavy_ties)
def test_pair_counts_equal_the_per_pair_table(pairs):
    xs, ys, _ = _spread(pairs)
    kinds = {"concordant": 0, "discordant": 0, "tied in x only": 0, "tied in y only": 0, "tied in both": 0}
    for i, j in combinations(range(len(xs)), 2):
        dx, dy = (xs[i] > xs[j]) - (xs[i] < xs[j]), (ys[i] > ys[j]) - (ys[i] < ys[j])
        kind = ("tied in both" if dx == dy == 0 else "tied in x only" if dx == 0 else "tied in y only" if dy == 0
                else "concordant" if dx == dy else "discordant")
        kinds[kind] += 1
    assert pair_counts(xs, ys) == {"pairs": len(xs) * (len(xs) - 1) // 2, **kinds}


def test_long_lists_equal_scipy():
    import numpy as np

    rng = np.random.default_rng(15)
    xs, ys = rng.integers(0, 12, 3000), rng.integers(0, 12, 3000)  # numpy arrays are accepted as they are
    for variant in "bc":
        assert math.isclose(float(kendall_tau(xs, ys, variant)), scipy_stats.kendalltau(xs, ys, variant=variant).statistic,
                            abs_tol=1e-12)
    assert math.isclose(float(spearman_rho_scores(xs, ys)), scipy_stats.spearmanr(xs, ys).statistic, abs_tol=1e-12)
    assert len(kendall_tau(xs, ys).tables) == 2  # counts and scores; 4,498,500 pairs are not listed


# bad and degenerate input -----------------------------------------------------------------------------------

@pytest.mark.parametrize("call, error, message", [
    (lambda: kendall_tau("0.5,0.5,0.5", "1,2,3"), RankingError, "tau-b is undefined: every value of x is the same"),
    (lambda: kendall_tau("1,2,3", "4,4,4", "c"), RankingError, "tau-c is undefined: every value of y is the same"),
    (lambda: spearman_rho_scores("1,2,3", "7,7,7"), RankingError, "Spearman's rho is undefined: every value of y"),
    (lambda: kendall_tau("1,2,3", "1,2"), RankingError, "x has 3 values, y has 2"),
    (lambda: spearman_rho_scores("1,2,3", "1,2,3,4"), RankingError, "x has 3 values, y has 4"),
    (lambda: kendall_tau("1", "2"), RankingError, "at least two items, got 1"),
    (lambda: spearman_rho_scores([], []), RankingError, "x has no values"),
    (lambda: kendall_tau("1,abc,3", "1,2,3"), RankingError, "x: value 2 is 'abc', expected a number"),
    (lambda: kendall_tau([1, float("nan")], [1, 2]), RankingError, "expected a finite number"),
    (lambda: kendall_tau(None, "1,2"), InputTypeError, "x must be numbers such as"),
    (lambda: kendall_tau("1,2", "1,2", "d"), ParameterError, "unknown tau_variant 'd'; choose one of b, a, c"),
    (lambda: kendall_tau({"a": 1, "b": 2}, {"a": 1, "c": 2}), RankingError, "only in x: b; only in y: c"),
    (lambda: spearman_rho_scores({"a": 1}, [1]), RankingError, "as item -> score mappings, or both as lists"),
    (lambda: kendall_tau("1,2", "1,2", names="xy"), InputTypeError, "names must be two labels"),
])
def test_bad_input_is_one_clear_error(call, error, message):
    with pytest.raises(error, match=message.replace("(", r"\(").replace(")", r"\)")):
        call()


def test_tau_a_of_a_constant_list_is_zero_and_says_why():
    result = kendall_tau("2,2,2", "1,2,3", "a")
    assert result.value == 0
    assert "every value of x is the same: no pair is concordant or discordant" in result.render("text")


def test_scores_given_as_ids_point_to_the_metric_for_scores():
    with pytest.raises(RankingError, match=r"id '0.2' appears twice .*use spearman-scores"):
        spearman_rho("0.3,0.2,0.2", "1,2,2")
    with pytest.raises(RankingError, match=r"only in the second: 1, 2, 3\); to correlate two lists of scores use spearman"):
        spearman_rho("0.3,0.2,0.1", "1,2,3")
    with pytest.raises(RankingError, match=r"appears twice .*use kendall-tau"):
        kendall_tau_distance([0.3, 0.2, 0.2], [1, 2, 3])
    with pytest.raises(RankingError, match=r"^first ranking: id 'd1' appears twice \(positions 1 and 2\)$"):
        spearman_rho("d1,d1", "d1,d2")  # ids: no pointer


def test_the_rankings_of_ids_keep_their_api():
    assert spearman_rho("a,b,c,d", "b,a,d,c").value == F(3, 5)
    assert kendall_tau_distance("a,b,c", "b,a,c").value == F(1, 3)
    assert get_metric("tau").name == "kendall-tau" and get_metric("spearman").compute is spearman_rho


# the command line, every format --------------------------------------------------------------------------------

@pytest.mark.parametrize("fmt", ["text", "markdown", "latex", "html", "json"])
@pytest.mark.parametrize("args", [
    ["kendall-tau", "--a", "1,2,2,3,4", "--b", "1,3,2,2,2"],
    ["tau", "--a", "1,2,2,3,4", "--b", "1,3,2,2,2", "--tau-variant", "c"],
    ["kendall-tau", "--a", "1,2,2,3,4", "--b", "1,3,2,2,2", "--tau-variant", "a"],
    ["spearman-scores", "--a", "1,2,3,4", "--b", "1,3,2,2"],
])
def test_cli_renders_every_format(cli, args, fmt):
    out = cli("explain", *args, "--format", fmt)
    assert out.returncode == 0, out.stderr
    if fmt == "json":
        data = json.loads(out.stdout)
        expected = {"b": "2*sqrt(7)/21", "c": "6/25", "a": "1/5"}
        if data["metric"] == "kendall-tau":
            assert data["value"] == expected[data["convention"]["tau_variant"]]
        else:
            assert data["value"] == "sqrt(10)/10"
    elif fmt == "html":
        assert "<math" in out.stdout
    elif fmt == "latex":
        assert r"\tau_{" in out.stdout or r"\rho = " in out.stdout


def test_cli_errors_are_one_line(cli):
    out = cli("explain", "tau", "--a", "3,3,3", "--b", "1,2,3")
    assert out.returncode == 2 and out.stderr.count("\n") == 1
    assert out.stderr.startswith("irlab: error: Kendall's tau-b is undefined") and "scipy.stats.kendalltau returns nan" in out.stderr
    out = cli("explain", "ap", "RNR", "--tau-variant", "a")
    assert out.returncode == 2 and "option --tau-variant does not apply to ap" in out.stderr
