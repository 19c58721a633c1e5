"""exercises/library-examples.toml: each exercise is a library's documented example, solved with the value the
library states (Spark's RankingMetricsSuite, R's ?wilcox.test, TF-Ranking's ARPMetric, OPAMetric and
AlphaDCGMetric), in every format."""

from __future__ import annotations

import json
import math
from fractions import Fraction
from pathlib import Path

import pytest

from irlab.errors import IrlabError
from irlab.exercise_set import load, solve

SET = Path(__file__).resolve().parents[1] / "exercises" / "library-examples.toml"


def answers() -> dict:
    """{(exercise, question): (exact value as text, decimal)} from the JSON output."""
    data = json.loads(solve(SET).render("json"))
    found = {}
    for exercise in data["sections"]:
        for question in exercise["sections"]:
            first = question["answers"][0]
            found[(question["exercise"], question["question"])] = (first["value"], first["decimal"])
    return found


def test_every_answer_is_the_value_its_source_states():
    got = answers()
    # Spark RankingMetricsSuite: map 0.355026 = (0.622222 + 0.442857) / 3, precisionAt(1) 1/3, ndcgAt(3) 1/3
    assert Fraction(got[("spark", "a")][0]) == (Fraction(28, 45) + Fraction(31, 70)) / 3
    assert round(got[("spark", "a")][1], 6) == 0.355026
    assert Fraction(got[("spark", "b")][0]) == Fraction(1, 3)
    assert got[("spark", "c")][1] == pytest.approx(1 / 3, abs=1e-12)
    # R: wilcox.test(x, y, paired = TRUE, alternative = "greater"): V = 40; wilcox.test(x, y, paired = TRUE):
    # p-value = 0.03906; wilcox.test(x, y, paired = TRUE, exact = FALSE): p-value = 0.04401 (continuity correction on)
    assert got[("r-wilcox", "a")][0] == "40"
    assert Fraction(got[("r-wilcox", "b")][0]) == Fraction(5, 128) and round(got[("r-wilcox", "b")][1], 5) == 0.03906
    assert round(got[("r-wilcox", "c")][1], 5) == 0.04401
    # R: wilcox.test(x, y, paired = TRUE, alternative = "greater"): V = 40, p-value = 0.01953 (10 of 2^9 patterns)
    assert Fraction(got[("r-wilcox", "d")][0]) == Fraction(5, 256) and round(got[("r-wilcox", "d")][1], 5) == 0.01953
    # TF-Ranking's ragged examples: ARPMetric 1.75, OPAMetric 0.5 (pooled); the per-list mean (2 + 5/3) / 2
    assert Fraction(got[("tf-ranking-pairs", "a")][0]) == Fraction(7, 4)
    assert Fraction(got[("tf-ranking-pairs", "b")][0]) == Fraction(1, 2)
    assert Fraction(got[("tf-ranking-pairs", "c")][0]) == Fraction(11, 6)
    # AlphaDCGMetric(ragged=True): 1.8184297 = (1/log2(3) + 2 + 1/log2(3) + 3/8) / 2
    value, decimal = got[("tf-ranking-alpha-dcg", "a")]
    assert decimal == pytest.approx((2 / math.log2(3) + 2 + 3 / 8) / 2, abs=1e-12)
    assert round(decimal, 7) == 1.8184298 and abs(decimal - 1.8184297) < 1e-7  # TF-Ranking prints float32


def test_the_set_shows_each_new_shape():
    exercises = {exercise.id: exercise for exercise in load(SET).exercises}
    assert "-" in exercises["spark"].parameters["rankings"]
    assert {q.options.get("empty_ranking") for q in exercises["spark"].questions} == {"zero"}
    assert exercises["r-wilcox"].questions[0].options["quantity"] == "V"
    assert {q.options["list_mean"] for q in exercises["tf-ranking-pairs"].questions} == {"pooled", "per-list"}
    assert isinstance(exercises["tf-ranking-alpha-dcg"].parameters["intents"], list)
    for fmt in ("text", "markdown", "latex", "html"):
        assert "1.8184" in solve(SET).render(fmt)
    # Wilcoxon's normal approximation writes Φ and Σ (t³ - t): LaTeX commands, so that pdflatex compiles the source
    latex = solve(SET).render("latex")
    assert latex.isascii() and r"\Phi\left(" in latex and "t$^3$" in latex


def test_the_empty_query_is_refused_without_the_convention(tmp_path):
    path = tmp_path / "no-convention.toml"
    path.write_text(SET.read_text(encoding="utf-8").replace('empty_ranking = "zero"\n', ""), encoding="utf-8")
    with pytest.raises(IrlabError, match="ranking is empty"):
        solve(path, "spark")
