"""irlab compare: per-topic values as trec_eval prints them, the tests recomputed independently (scipy, enumeration)."""

import itertools
import json
from fractions import Fraction
from pathlib import Path

import pytest

from irlab.compare import comparison_document, topic_scores
from irlab.trec import evaluate

stats = pytest.importorskip("scipy.stats")

DATA = Path(__file__).resolve().parents[1] / "exercises" / "compare"
QRELS, BASE, EXP, WEAK = (str(DATA / name) for name in ("qrels.txt", "baseline.txt", "expansion.txt", "weak.txt"))


def printed(run):
    """The per-topic AP as `irlab eval -q` prints it (4 decimals), read back as exact fractions."""
    result = evaluate(QRELS, run, ["map"])
    return {t: Fraction(f"{v['map']:.4f}") for t, v in result.per_topic.items()}


def test_topic_scores_are_the_printed_values():
    assert topic_scores(QRELS, BASE, "map") == printed(BASE)
    assert len(printed(BASE)) == 12


def test_two_runs_every_test_checked_independently(cli):
    out = cli("compare", QRELS, BASE, EXP, "--format", "json")
    assert out.returncode == 0, out.stderr
    meta = json.loads(out.stdout)
    tests = meta["tests"]
    a, b = printed(BASE), printed(EXP)
    topics = sorted(a)
    d = [a[t] - b[t] for t in topics]
    fa, fb = [float(a[t]) for t in topics], [float(b[t]) for t in topics]
    assert tests["t"]["decimal"] == pytest.approx(stats.ttest_rel(fa, fb).pvalue, rel=1e-9)
    assert Fraction(tests["wilcoxon"]["p"]) == pytest.approx(stats.wilcoxon(fa, fb, method="exact").pvalue, rel=1e-12)
    wins = sum(x > 0 for x in d)
    assert float(Fraction(tests["sign"]["p"])) == pytest.approx(stats.binomtest(wins, 12, 0.5).pvalue, rel=1e-12)
    observed = abs(sum(d))
    extreme = sum(abs(sum(s * x for s, x in zip(signs, d))) >= observed
                  for signs in itertools.product((1, -1), repeat=len(d)))
    assert Fraction(tests["permutation"]["p"]) == Fraction(extreme, 2 ** 12)
    low, high = Fraction(tests["bootstrap"]["low"]), Fraction(tests["bootstrap"]["high"])
    assert low < sum(d) / 12 < high


def test_text_report_shows_table_summary_and_steps(cli):
    out = cli("compare", QRELS, BASE, EXP, "--test", "sign", "--test", "permutation")
    assert out.returncode == 0, out.stderr
    text = out.stdout
    assert "Per-topic differences:" in text and "d = baseline - expansion" in text
    assert "sign test" in text and "randomisation (permutation)" in text and "Wilcoxon" not in text
    assert "all 2^12 = 4096 sign assignments enumerated" in text
    assert text.count("Per-topic differences:") == 1  # shown once, not again in every test


def test_three_runs_holm_and_bonferroni_by_hand(cli):
    names = [BASE, EXP, WEAK]
    raw = {}
    for (i, x), (j, y) in itertools.combinations(enumerate(names), 2):
        fa, fb = printed(x), printed(y)
        topics = sorted(fa)
        raw[(i, j)] = stats.ttest_rel([float(fa[t]) for t in topics], [float(fb[t]) for t in topics]).pvalue
    ordered = sorted(raw.values())
    holm = [min(1, max((3 - k) * ordered[k] for k in range(r + 1))) for r in range(3)]
    for correction, expected in (("holm", sorted(holm)), ("bonferroni", sorted(min(1, 3 * p) for p in raw.values()))):
        out = cli("compare", QRELS, *names, "--test", "t", "--correction", correction, "--format", "json")
        assert out.returncode == 0, out.stderr
        data = json.loads(out.stdout)
        rows = data["tests"]["t"]
        import sympy

        adjusted = sorted(float(sympy.sympify(r["adjusted"])) for r in rows)
        assert adjusted == pytest.approx(expected, rel=1e-9)


def test_python_api_exact_sign_test():
    doc = comparison_document({"A": {"1": Fraction(1, 2), "2": Fraction(1, 4), "3": Fraction(3, 4)},
                               "B": {"1": Fraction(1, 4), "2": Fraction(1, 4), "3": Fraction(1, 2)}},
                              "AP", tests=["sign", "permutation"])
    assert doc.meta["tests"]["sign"]["p"] == "1/2"  # 2 wins, 0 losses, 1 tie: min(1, 2 · 1/4)
    assert doc.meta["tests"]["permutation"]["p"] == "1/2"  # |±1/4 ± 1/4| >= 1/2 in 2 of 4 sign pairs (x2 for the tie)


def test_html_report_has_the_difference_plot(cli, tmp_path):
    target = tmp_path / "compare.html"
    out = cli("compare", QRELS, BASE, EXP, "--test", "sign", "--html", str(target))
    assert out.returncode == 0, out.stderr
    html = target.read_text(encoding="utf-8")
    assert "data:image/png;base64," in html and "Per-topic differences map(baseline) - map(expansion)" in html


def test_bad_input_is_one_line_exit_2(cli, tmp_path):
    short = tmp_path / "short.txt"
    short.write_text("".join(line + "\n" for line in Path(EXP).read_text().splitlines() if not line.startswith("412 ")))
    out = cli("compare", QRELS, BASE, str(short))
    assert out.returncode == 2 and "topics 412" in out.stderr and "-c" in out.stderr
    out = cli("compare", QRELS, BASE, EXP, "-m", "P.5,10")
    assert out.returncode == 2 and "one measure" in out.stderr
    out = cli("compare", QRELS, BASE)
    assert out.returncode == 2 and "at least two runs" in out.stderr
    out = cli("compare", QRELS, BASE, EXP, "--alpha", "2")
    assert out.returncode == 2 and "α" in out.stderr
    out = cli("compare", QRELS, BASE, EXP, "--decimals", "x")
    assert out.returncode == 2 and "decimals" in out.stderr
