"""Paired significance tests: exact p-values checked by brute-force enumeration and against scipy.stats."""

import itertools
from fractions import Fraction

import pytest

from irlab import exact
from irlab.errors import ParameterError, RankingError
from irlab.metrics.significance import (adjust, bootstrap_interval, paired, permutation_test, sign_test, t_test,
                                        wilcoxon_test)

stats = pytest.importorskip("scipy.stats")

# Croft, Metzler & Strohman 2010 §8.6.1, Table 8.8: AP of systems A and B on ten queries
CROFT_A = [0.25, 0.43, 0.39, 0.75, 0.43, 0.15, 0.20, 0.52, 0.49, 0.50]
CROFT_B = [0.35, 0.84, 0.15, 0.75, 0.68, 0.85, 0.80, 0.50, 0.58, 0.75]
SMALL_A, SMALL_B = "0.5,0.4,0.7,0.3,0.6", "0.3,0.4,0.5,0.2,0.1"


def brute_force_permutation_p(d, alternative):
    """Count, over all 2^n sign assignments, the mean differences at least as extreme as the observed one."""
    d = [Fraction(x) for x in d]
    observed = sum(d)
    hits = 0
    for signs in itertools.product((1, -1), repeat=len(d)):
        s = sum(sign * x for sign, x in zip(signs, d))
        hits += {"two-sided": abs(s) >= abs(observed), "greater": s >= observed, "less": s <= observed}[alternative]
    return Fraction(hits, 2 ** len(d))


def differences(a, b):
    return [Fraction(str(x)) - Fraction(str(y)) for x, y in zip(a, b)]


@pytest.mark.parametrize("alternative", ["two-sided", "greater", "less"])
def test_permutation_p_equals_brute_force_enumeration(alternative):
    result = permutation_test(CROFT_B, CROFT_A, alternative)
    assert result.value == brute_force_permutation_p(differences(CROFT_B, CROFT_A), alternative)


def test_permutation_croft_example_by_hand():
    # B - A: 0.1, 0.41, -0.24, 0, 0.25, 0.7, 0.6, -0.02, 0.09, 0.25; mean 0.214
    result = permutation_test(CROFT_B, CROFT_A, "greater")
    assert [s.value for s in result.steps if s.symbol == "d_mean"] == [Fraction(214, 1000)]
    assert result.value == brute_force_permutation_p(differences(CROFT_B, CROFT_A), "greater")
    assert result.value < Fraction(1, 20)  # Croft et al.: the randomisation test rejects at 0.05 (one-sided)


def test_permutation_matches_scipy_exact():
    d = [float(x) for x in differences(CROFT_B, CROFT_A)]
    expected = stats.permutation_test((d,), lambda x: sum(x) / len(x), permutation_type="samples",
                                      n_resamples=float("inf"), alternative="two-sided").pvalue
    assert float(permutation_test(CROFT_B, CROFT_A)) == pytest.approx(expected, rel=1e-12)


def test_permutation_small_example_and_null_table():
    result = permutation_test(SMALL_A, SMALL_B)
    assert result.value == Fraction(4, 32)  # ±0.2 reached by 2 assignments each (the zero difference doubles them)
    null = result.tables[1]
    assert sum(row[1] for row in null.rows) == 32
    assert [row[0] for row in null.rows if row[2] == "yes"] == [Fraction(-1, 5), Fraction(1, 5)]


def test_permutation_sampling_is_seeded_and_close_to_exact():
    a = [Fraction(i % 7, 7) for i in range(24)]
    b = [Fraction((3 * i) % 5, 5) for i in range(24)]
    first = permutation_test(a, b, samples=2000, seed=3)
    again = permutation_test(a, b, samples=2000, seed=3)
    assert first.value == again.value and (first.value * 2001).denominator == 1
    assert "seed 3" in first.render()
    # above 20 topics sampling is the default; the estimate is near the exact value counted by the same enumeration
    exact_p = brute_force_permutation_p([x - y for x, y in zip(a[:12], b[:12])], "two-sided")
    assert permutation_test(a[:12], b[:12]).value == exact_p
    estimate = permutation_test(a[:12], b[:12], samples=4000, seed=1).value
    assert abs(float(estimate) - float(exact_p)) < 0.03


@pytest.mark.parametrize("alternative", ["two-sided", "greater", "less"])
def test_sign_test_matches_binomial(alternative):
    result = sign_test(CROFT_B, CROFT_A, alternative)
    # B wins 7 queries, loses 2, ties 1
    expected = stats.binomtest(7, 9, 0.5, alternative=alternative).pvalue
    assert float(result) == pytest.approx(expected, rel=1e-12)
    by_hand = {"greater": Fraction(1 + 9 + 36, 512), "less": Fraction(512 - 1 - 9, 512),
               "two-sided": Fraction(2 * (1 + 9 + 36), 512)}[alternative]
    assert result.value == by_hand


def test_sign_test_steps_and_ties():
    result = sign_test(SMALL_A, SMALL_B)
    assert result.value == Fraction(1, 8)
    text = result.render()
    assert "1 tied topic dropped" in text and "p = min(1, 2 · P_tail)" in text
    with pytest.raises(ParameterError, match="every topic is a tie"):
        sign_test("0.5,0.5", "0.5,0.5")


def brute_force_signed_rank(d, alternative):
    d = [x for x in d if x != 0]
    order = sorted(abs(x) for x in d)
    rank = {v: Fraction(sum(i + 1 for i, w in enumerate(order) if w == v), order.count(v)) for v in order}
    ranks = [rank[abs(x)] for x in d]
    observed = sum(r for r, x in zip(ranks, d) if x > 0)
    w_minus = sum(ranks) - observed
    sums = [sum(r for r, keep in zip(ranks, signs) if keep) for signs in itertools.product((0, 1), repeat=len(d))]
    if alternative == "greater":
        return Fraction(sum(s >= observed for s in sums), len(sums))
    if alternative == "less":
        return Fraction(sum(s <= observed for s in sums), len(sums))
    return min(Fraction(1), 2 * Fraction(sum(s <= min(observed, w_minus) for s in sums), len(sums)))


@pytest.mark.parametrize("alternative", ["two-sided", "greater", "less"])
def test_wilcoxon_exact_with_ties_equals_enumeration(alternative):
    result = wilcoxon_test(CROFT_B, CROFT_A, alternative)  # |d| = 0.25 twice: tied ranks, one zero dropped
    assert result.value == brute_force_signed_rank(differences(CROFT_B, CROFT_A), alternative)


@pytest.mark.parametrize("alternative", ["two-sided", "greater", "less"])
def test_wilcoxon_without_ties_matches_scipy_exact(alternative):
    d = ["0.11", "-0.03", "0.23", "-0.01", "0.26", "-0.02", "0.25", "-0.04", "0.27", "-0.12", "0.3", "0.05"]
    a, b = [Fraction(x) + Fraction(1, 2) for x in d], [Fraction(1, 2)] * len(d)
    found = stats.wilcoxon([float(x) for x in d], alternative=alternative, method="exact")
    assert float(wilcoxon_test(a, b, alternative)) == pytest.approx(found.pvalue, rel=1e-12)
    statistic = found.statistic
    steps = {s.symbol: s.value for s in wilcoxon_test(a, b, alternative).steps}
    assert steps["T" if alternative == "two-sided" else "W+"] == statistic


@pytest.mark.parametrize("alternative", ["two-sided", "greater", "less"])
def test_t_test_matches_scipy(alternative):
    result = t_test(CROFT_B, CROFT_A, alternative)
    expected = stats.ttest_rel(CROFT_B, CROFT_A, alternative=alternative)
    steps = {s.symbol: s.value for s in result.steps}
    assert exact.to_float(steps["t"]) == pytest.approx(expected.statistic, rel=1e-12)
    assert float(result) == pytest.approx(expected.pvalue, rel=1e-9)


def test_t_statistic_exact_by_hand():
    steps = {s.symbol: s.value for s in t_test(SMALL_A, SMALL_B).steps}
    # d = 1/5, 0, 1/5, 1/10, 1/2: mean 1/5, SS = 0 + 1/25 + 0 + 1/100 + 9/100 = 7/50, s² = 7/200
    assert steps["d_mean"] == Fraction(1, 5) and steps["s²"] == Fraction(7, 200)
    assert exact.to_float(steps["t"] ** 2) == pytest.approx(float(Fraction(1, 25) / (Fraction(7, 200) / 5)))
    assert exact.to_float(steps["d_z"]) == pytest.approx((1 / 5) / (7 / 200) ** 0.5)
    with pytest.raises(ParameterError, match="s = 0"):
        t_test("0.5,0.6", "0.4,0.5")


def test_bootstrap_interval_is_seeded_exact_and_brackets_the_mean():
    result = bootstrap_interval(CROFT_B, CROFT_A, samples=2000, seed=7)
    low, high = (s.value for s in result.steps if s.symbol in ("CI_low", "CI_high"))
    assert isinstance(low, Fraction) and low < Fraction(214, 1000) < high
    # every bound is a mean of 10 differences of two-decimal values
    assert (low * 1000).denominator == 1 and (high * 1000).denominator == 1
    assert bootstrap_interval(CROFT_B, CROFT_A, samples=2000, seed=7).steps[0].value == low
    import numpy as np

    rng = np.random.default_rng(7)
    d = np.array([float(x) for x in differences(CROFT_B, CROFT_A)])
    means = np.sort(d[rng.integers(0, 10, size=(2000, 10))].mean(axis=1))
    assert float(low) == pytest.approx(means[49]) and float(high) == pytest.approx(means[1949])


def test_holm_and_bonferroni_by_hand():
    p = [Fraction(1, 100), Fraction(4, 100), Fraction(3, 100)]
    assert adjust(p, "bonferroni") == [Fraction(3, 100), Fraction(12, 100), Fraction(9, 100)]
    # Holm: sorted 0.01, 0.03, 0.04 -> 3·0.01, max(0.03, 2·0.03), max(0.06, 1·0.04)
    assert adjust(p, "holm") == [Fraction(3, 100), Fraction(6, 100), Fraction(6, 100)]
    assert adjust([Fraction(1, 2), Fraction(1, 3)], "bonferroni") == [1, Fraction(2, 3)]
    assert adjust(p, "none") == p


def test_bad_input_is_one_clear_error():
    with pytest.raises(RankingError, match="A has 2 scores, B has 3"):
        sign_test("0.1,0.2", "0.1,0.2,0.3")
    with pytest.raises(RankingError, match="only A has topics 3"):
        paired({"1": 0.1, "3": 0.2}, {"1": 0.2})
    with pytest.raises(RankingError, match="value 2 is 'x'"):
        t_test("0.1,x", "0.2,0.3")
    with pytest.raises(ParameterError, match="alternative"):
        sign_test(SMALL_A, SMALL_B, "bigger")
    with pytest.raises(ParameterError, match="α"):
        sign_test(SMALL_A, SMALL_B, alpha=2)


def test_conclusion_states_alpha_and_reading():
    text = permutation_test(CROFT_B, CROFT_A, "greater").render()
    assert "<= alpha = 0.05: reject H0" in text
    text = sign_test(SMALL_A, SMALL_B, alpha=Fraction(1, 100)).render()
    assert "> alpha = 0.01: H0" in text and "not rejected" in text


def test_sign_test_with_many_topics_is_one_sum_and_still_exact():
    a = [Fraction(i % 11, 10) for i in range(60)]
    b = [Fraction((i * 7) % 13, 12) for i in range(60)]
    wins = sum(x > y for x, y in zip(a, b))
    n = sum(x != y for x, y in zip(a, b))
    result = sign_test(a, b)
    assert float(result) == pytest.approx(stats.binomtest(wins, n, 0.5).pvalue, rel=1e-12)
    assert result.value == min(1, 2 * Fraction(sum(__import__("math").comb(n, i) for i in range(min(wins, n - wins) + 1)), 2 ** n))
    assert "Σ C(" in result.render() and len(result.tables) == 1  # the differences only, no 30-row binomial table


@pytest.mark.parametrize("alternative", ["two-sided", "greater", "less"])
def test_wilcoxon_croft_signed_rank_sum_w_by_hand(alternative):
    # Croft, Metzler & Strohman 2010 §8.6.1 on Table 8.8, d = B - A: the nine non-zero |d| ranked 1..9 with the
    # tied 0.25s sharing 5.5; signed ranks -1 (0.02), +2, +3, -4 (0.24), +5.5, +5.5, +7, +8, +9: w = 35
    steps = {s.symbol: s.value for s in wilcoxon_test(CROFT_B, CROFT_A, alternative).steps}
    assert (steps["W+"], steps["W-"], steps["w"]) == (40, 5, 35)
    assert steps["w"] == steps["W+"] - steps["W-"] == 2 * steps["W+"] - 9 * 10 // 2
    reversed_steps = {s.symbol: s.value for s in wilcoxon_test(CROFT_A, CROFT_B, alternative).steps}
    assert (reversed_steps["W+"], reversed_steps["W-"], reversed_steps["w"]) == (5, 40, -35)


def test_wilcoxon_w_is_a_step_before_the_statistic_and_nothing_else_moves():
    text = wilcoxon_test(CROFT_B, CROFT_A).render("text")
    assert ("Step 3. Signed-rank sum w = Σ sign(d_i) · rank_i = W+ - W- (Croft, Metzler & Strohman 2010 §8.6.1): "
            "w = W+ - W- = 40 - 5 = 35") in text
    assert "Step 4. Test statistic: the smaller rank sum: T = min(W+, W-) = min(40, 5) = 5" in text
    assert "Result: p = 9/256 ≈ 0.0352" in text
    one_sided = [s.symbol for s in wilcoxon_test(CROFT_B, CROFT_A, "greater").steps]
    assert one_sided == ["W+", "W-", "w", "m", "2^n", "p"]
