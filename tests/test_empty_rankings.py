"""An empty ranking (a system that returned nothing) is scored by the empty_ranking convention: refused by default,
0 as trec_eval -c, Spark and ir_measures score it, in explain, exercise sets and the API."""

from fractions import Fraction

import pytest

from irlab import Ranking, average_precision, exact, precision
from irlab.cli import main
from irlab.errors import IrlabError, RankingError
from irlab.exercise_set import solve
from irlab.metrics import get_metric, mean_over_queries

# Apache Spark's RankingMetricsSuite: three queries, the third with no prediction (and no label)
SPARK = [Ranking.parse("RNRNNRNNRR", relevant=5), Ranking.parse("NRNNRNRNNN", relevant=3), Ranking.parse("-", relevant=0)]


def mean_of(metric, rankings, **options):
    compute = get_metric(metric).compute
    return mean_over_queries([compute(r, empty_ranking="zero", **options) for r in rankings], "mean").value


def test_spark_ranking_metrics_suite_values_with_the_empty_query():
    # Spark: meanAveragePrecision ≈ 0.355026; by hand (28/45 + 31/70 + 0) / 3
    assert mean_of("ap", SPARK) == (Fraction(28, 45) + Fraction(31, 70)) / 3
    assert round(float(mean_of("ap", SPARK)), 6) == 0.355026
    # Spark: precisionAt(1, 2, 3, 4, 5, 10, 15) = 1/3, 1/3, 1/3, 0.75/3, 0.8/3, 0.8/3, 8/45
    expected = {1: Fraction(1, 3), 2: Fraction(1, 3), 3: Fraction(1, 3), 4: Fraction(1, 4), 5: Fraction(4, 15),
                10: Fraction(4, 15), 15: Fraction(8, 45)}
    assert {k: mean_of("precision", SPARK, k=k) for k in expected} == expected
    # Spark: ndcgAt(3) ≈ 1/3, ndcgAt(5) ≈ 0.328788 (binary gains, the ideal from the labels)
    graded = [Ranking.from_grades([1, 0, 1, 0, 0, 1, 0, 0, 1, 1]), Ranking.from_grades([0, 1, 0, 0, 1, 0, 1, 0, 0, 0]),
              Ranking.parse("-")]
    assert exact.to_float(mean_of("ndcg", graded, k=3)) == pytest.approx(1 / 3, abs=1e-12)
    assert round(exact.to_float(mean_of("ndcg", graded, k=5)), 6) == 0.328788


def test_refused_by_default_everywhere(capsys):
    with pytest.raises(RankingError, match="empty_ranking = zero"):
        average_precision("-")
    assert main(["explain", "ap", ""]) == 2
    assert "irlab: error: the ranking is empty: the system returned no document" in capsys.readouterr().err


def test_zero_is_named_in_the_explanation_in_every_format():
    result = precision("-", empty_ranking="zero")
    assert result.value == 0
    assert "empty_ranking = zero" in result.render("text")
    for fmt in ("markdown", "latex", "html"):
        assert "empty" in result.render(fmt)
    assert result.meta()["convention"]["empty_ranking"] == "zero"
    # a non-empty ranking does not mention the convention at all
    assert "empty_ranking" not in precision("RNR", empty_ranking="zero").render()
    # P@5 of no documents is its own 0/5; F has no value on no documents: 0 by the convention
    assert "P@5 = hits@5 / k = 0 / 5 = 0" in precision("-", k=5, empty_ranking="zero").render()
    assert get_metric("f").compute(Ranking.parse("-", relevant=2), empty_ranking="zero").value == 0


def test_explain_cli_takes_an_empty_ranking_in_a_mean(capsys):
    assert main(["explain", "ap", "RNR", "-", "--relevant", "2,3", "--empty-ranking", "zero"]) == 0
    out = capsys.readouterr().out
    assert "MAP = (AP(q1) + AP(q2)) / 2 = (5/6 + 0) / 2 = 5/12" in out


def test_exercise_set_with_an_empty_ranking(tmp_path):
    path = tmp_path / "empty.toml"
    path.write_text('''title = "A system that returned nothing"
[[exercise]]
id = "1"
statement = "System A returned {rankings} for two queries with R = {relevant}."
[exercise.parameters]
rankings = ["RNR", "-"]
relevant = [2, 3]
[[exercise.question]]
id = "a"
solver = "ap"
empty_ranking = "zero"
''', encoding="utf-8")
    answers = [block.meta["answers"][0] for block in solve(path).blocks[0].blocks if "question" in getattr(block, "meta", {})]
    assert answers[0]["value"] == "5/12"
    path.write_text(path.read_text().replace('empty_ranking = "zero"\n', ""))
    with pytest.raises(IrlabError, match="question a: the ranking is empty"):
        solve(path)
    path.write_text(path.read_text().replace('solver = "ap"', 'solver = "f-macro-micro"'))
    with pytest.raises(IrlabError, match="query 2's ranking is empty"):
        solve(path)


def test_an_empty_rankings_description_names_it_instead_of_a_blank():
    assert Ranking.parse("-").describe() == "Empty ranking: no document retrieved"
    assert Ranking.parse("", relevant=3).describe() == "Empty ranking: no document retrieved (R = 3 relevant in total)"
    text = get_metric("ap").compute(Ranking.parse("-", relevant=2), empty_ranking="zero").render("text")
    assert "Empty ranking: no document retrieved (R = 2 relevant in total)" in text and "Ranking  (" not in text
