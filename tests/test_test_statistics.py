"""The paired tests answer their statistics (W+, W-, t, df, the sign test's counts) and Wilcoxon's p by the normal
approximation (continuity correction on or off, zero differences dropped or ranked), equal to R's documented
examples and to scipy.stats."""

import itertools
import random
from fractions import Fraction
from pathlib import Path

import pytest

from irlab import exact
from irlab.cli import main
from irlab.errors import IrlabError, ParameterError
from irlab.exercise_set import solve
from irlab.metrics.significance import sign_test, t_test, wilcoxon_test

stats = pytest.importorskip("scipy.stats")

# R's ?wilcox.test example (Hollander & Wolfe 1973, p. 29): depression scale before (x) and after (y) therapy
R_X = [1.83, 0.50, 1.62, 2.48, 1.68, 1.88, 1.55, 3.06, 1.30]
R_Y = [0.878, 0.647, 0.598, 2.05, 1.06, 1.29, 1.06, 3.14, 1.29]
# R's sleep data (?sleep, ?t.test): extra sleep of ten patients under drug 1 and drug 2
SLEEP_1 = [0.7, -1.6, -0.2, -1.2, -0.1, 3.4, 3.7, 0.8, 0.0, 2.0]
SLEEP_2 = [1.9, 0.8, 1.1, 0.1, -0.1, 4.4, 5.5, 1.6, 4.6, 3.4]


def test_r_wilcox_example_v_and_exact_p():
    # R: wilcox.test(x, y, paired = TRUE, alternative = "greater"): V = 40, p-value = 0.01953
    assert wilcoxon_test(R_X, R_Y, "greater", quantity="V").value == 40
    assert wilcoxon_test(R_X, R_Y, "greater").value == Fraction(10, 512)
    assert round(float(wilcoxon_test(R_X, R_Y, "greater")), 5) == 0.01953
    # two-sided: 0.03906; W- = 5 (ranks 2 and 3 of |d| = 0.08, 0.147)
    assert wilcoxon_test(R_X, R_Y).value == Fraction(5, 128) and round(float(Fraction(5, 128)), 5) == 0.03906
    assert wilcoxon_test(R_X, R_Y, quantity="w-minus").value == 5
    assert wilcoxon_test(R_X, R_Y, quantity="statistic").value == 5  # scipy's two-sided statistic min(W+, W-)
    assert wilcoxon_test(R_X, R_Y, "greater", quantity="statistic").value == 40


def test_r_wilcox_example_normal_approximation():
    # R: wilcox.test(y - x, alternative = "less", exact = FALSE, correct = FALSE): V = 5, p-value = 0.01908
    result = wilcoxon_test(R_Y, R_X, "less", wilcoxon_method="normal")
    assert round(float(result), 5) == 0.01908
    z = wilcoxon_test(R_Y, R_X, "less", wilcoxon_method="normal", quantity="z").value
    assert z ** 2 == Fraction(35 ** 2, 4) / Fraction(285, 4)  # (5 - 45/2)² / (9·10·19/24)
    assert "continuity_correction = off" in result.render() and "wilcoxon_method = normal" in result.render()
    assert "continuity_correction" not in wilcoxon_test(R_Y, R_X, "less").render()  # exact: no correction to name


@pytest.mark.parametrize("alternative", ["two-sided", "greater", "less"])
@pytest.mark.parametrize("correction", ["on", "off"])
@pytest.mark.parametrize("zeros", ["drop", "pratt", "zsplit"])
def test_normal_approximation_equals_scipy_with_ties_and_zeros(alternative, correction, zeros):
    rng = random.Random(f"{alternative}{correction}{zeros}")
    for _ in range(15):
        n = rng.randint(3, 30)
        a = [rng.randint(0, 8) / 4 for _ in range(n)]
        b = [rng.randint(0, 8) / 4 for _ in range(n)]
        if all(x == y for x, y in zip(a, b)):
            continue
        d = [(Fraction(str(x)) - Fraction(str(y))) for x, y in zip(a, b)]
        scipy_zero = {"drop": "wilcox"}.get(zeros, zeros)
        found = stats.wilcoxon([float(x) for x in d], zero_method=scipy_zero, correction=correction == "on",
                               alternative=alternative, method="asymptotic")
        ours = wilcoxon_test(a, b, alternative, wilcoxon_method="normal", continuity_correction=correction,
                             zero_method=zeros)
        assert float(ours) == pytest.approx(found.pvalue, rel=1e-9, abs=1e-15)
        statistic = wilcoxon_test(a, b, alternative, wilcoxon_method="normal", continuity_correction=correction,
                                  zero_method=zeros, quantity="statistic").value
        assert float(statistic) == pytest.approx(found.statistic, rel=1e-12)
        z = wilcoxon_test(a, b, alternative, wilcoxon_method="normal", continuity_correction=correction,
                          zero_method=zeros, quantity="z").value
        expected_z = -abs(found.zstatistic) if alternative == "two-sided" else found.zstatistic
        assert (-abs(exact.to_float(z)) if alternative == "two-sided" else exact.to_float(z)) == \
            pytest.approx(expected_z, rel=1e-9, abs=1e-12)


def _brute_pratt(d, alternative):
    """Pratt's exact test by enumeration: ranks of every |d| (zeros included), signs of the non-zero ones flipped."""
    magnitudes = sorted(abs(x) for x in d)
    rank = {m: Fraction(sum(i + 1 for i, v in enumerate(magnitudes) if v == m), magnitudes.count(m)) for m in magnitudes}
    nonzero = [x for x in d if x != 0]
    observed = sum(rank[abs(x)] for x in nonzero if x > 0)
    total = sum(rank[abs(x)] for x in nonzero)
    hits = {"greater": 0, "less": 0, "two-sided": 0}
    for signs in itertools.product((0, 1), repeat=len(nonzero)):
        w = sum(rank[abs(x)] for x, s in zip(nonzero, signs) if s)
        hits["greater"] += w >= observed
        hits["less"] += w <= observed
        hits["two-sided"] += w <= min(observed, total - observed)
    p = {key: Fraction(count, 2 ** len(nonzero)) for key, count in hits.items()}
    p["two-sided"] = min(1, 2 * p["two-sided"])
    return p[alternative]


@pytest.mark.parametrize("alternative", ["two-sided", "greater", "less"])
def test_exact_p_with_ranked_zeros_is_the_conditional_enumeration(alternative):
    a = [0.5, 0.4, 0.7, 0.3, 0.6, 0.2, 0.9, 0.1]
    b = [0.3, 0.4, 0.5, 0.2, 0.1, 0.2, 0.4, 0.3]
    d = [Fraction(str(x)) - Fraction(str(y)) for x, y in zip(a, b)]
    for zeros in ("pratt", "zsplit"):
        assert wilcoxon_test(a, b, alternative, zero_method=zeros).value == _brute_pratt(d, alternative)
    # zsplit gives half of the zeros' ranks (1.5 each: two zeros share ranks 1 and 2) to each side
    assert wilcoxon_test(a, b, zero_method="zsplit", quantity="w-plus").value == \
        wilcoxon_test(a, b, zero_method="pratt", quantity="w-plus").value + Fraction(3, 2)


def test_sleep_paired_t_statistic_df_and_p():
    # R: with(sleep, t.test(extra[group == 1], extra[group == 2], paired = TRUE)): t = -4.0621, df = 9, p = 0.002833
    t = t_test(SLEEP_1, SLEEP_2, quantity="t").value
    assert round(exact.to_float(t), 4) == -4.0621
    assert t ** 2 == Fraction(-79, 50) ** 2 / (Fraction(1702, 1125) / 10)  # d_mean² / (s²/n), by hand
    assert t_test(SLEEP_1, SLEEP_2, quantity="df").value == 9
    assert t_test(SLEEP_1, SLEEP_2, quantity="mean-difference").value == Fraction(-158, 100)
    assert round(float(t_test(SLEEP_1, SLEEP_2)), 6) == 0.002833
    found = stats.ttest_rel(SLEEP_1, SLEEP_2)
    assert exact.to_float(t) == pytest.approx(found.statistic, rel=1e-12) and found.df == 9


def test_sign_test_counts_equal_scipy_binomtest():
    a, b = [0.5, 0.4, 0.7, 0.3, 0.6, 0.2], [0.3, 0.4, 0.5, 0.2, 0.1, 0.3]
    wins = sign_test(a, b, quantity="n-plus").value
    losses = sign_test(a, b, quantity="n-minus").value
    n = sign_test(a, b, quantity="n").value
    assert (wins, losses, n) == (4, 1, 5)
    assert float(sign_test(a, b)) == pytest.approx(stats.binomtest(wins, n, 0.5).pvalue, rel=1e-12)
    assert sign_test(a, b, quantity="statistic").value == stats.binomtest(wins, n, 0.5).k


def test_statistic_answer_explained_in_every_format():
    result = wilcoxon_test(R_X, R_Y, quantity="w-plus")
    for fmt in ("text", "markdown", "latex", "html", "json"):
        assert "40" in result.render(fmt)
    assert "Result: W+ = 40" in result.render("text")
    assert result.meta()["parameters"]["quantity"] == "w-plus"


def test_bad_quantity_is_one_clear_error(capsys):
    with pytest.raises(ParameterError, match="t-test answers quantity p, statistic, t, df"):
        t_test(SLEEP_1, SLEEP_2, quantity="V")
    with pytest.raises(ParameterError, match="wilcoxon_method = normal"):
        wilcoxon_test(R_X, R_Y, quantity="z")
    assert main(["explain", "sign-test", "--a", "1,2,3", "--b", "0,1,1", "--quantity", "df"]) == 2
    assert "irlab: error: sign-test answers quantity" in capsys.readouterr().err
    assert main(["explain", "kendall-tau", "--a", "1,2,3", "--b", "0,1,1", "--quantity", "p"]) == 2
    assert "--quantity does not apply to kendall-tau" in capsys.readouterr().err


def test_explain_cli_quantity_and_conventions(capsys):
    args = ["explain", "wilcoxon", "--a", ",".join(map(str, R_Y)), "--b", ",".join(map(str, R_X)),
            "--alternative", "less", "--wilcoxon-method", "normal", "--continuity-correction", "on", "--quantity", "z"]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "continuity_correction = on" in out and "c = -1/2" in out
    assert "z = (W+ - μ - c) / σ = (5 - 45/2 - (-1/2)) / (sqrt(285)/2)" in out
    assert "Result: z = (-17) / (sqrt(285)/2) ≈ -2.0140" in out


def test_exercise_set_asks_for_statistics(tmp_path):
    path = tmp_path / "stats.toml"
    path.write_text(f'''title = "Test statistics"
[[exercise]]
id = "r"
statement = "R's wilcox.test example."
[exercise.parameters.systems]
x = {R_X}
y = {R_Y}
[[exercise.question]]
id = "a"
solver = "wilcoxon"
quantity = "V"
[[exercise.question]]
id = "b"
solver = "wilcoxon"
wilcoxon_method = "normal"
continuity_correction = "on"
[[exercise.question]]
id = "c"
solver = "t-test"
quantity = "df"
''', encoding="utf-8")
    answers = [section.meta["answers"][0] for section in solve(path).blocks[0].blocks
               if "question" in getattr(section, "meta", {})]
    assert [a["value"] for a in answers[:1] + answers[2:]] == ["40", "8"]
    # R: wilcox.test(x, y, paired = TRUE, exact = FALSE): V = 40, p = 0.04401 (continuity correction on)
    assert round(answers[1]["decimal"], 5) == 0.04401
    path.write_text(path.read_text().replace('quantity = "df"', 'quantity = "w-plus"'))
    with pytest.raises(IrlabError, match="quantity"):
        solve(path)
