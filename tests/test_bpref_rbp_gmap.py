"""bpref, RBP, GMAP and k-point averages in the explained path; the U (unjudged) marker; agreement with irlab eval."""

import math
from fractions import Fraction
from pathlib import Path

import pytest

from irlab import Ranking, exact
from irlab.errors import ParameterError, RankingError
from irlab.metrics import average_precision, bpref, gmap, k_point_average, rank_biased_precision, three_point_average
from irlab.topic_ranking import topic_ranking
from irlab.trec import evaluate

DATA = Path(__file__).resolve().parents[1] / "exercises" / "compare"
SHARED = Path(__file__).resolve().parents[2] / "shared" / "trec_eval"
PAIRS = [(DATA / "qrels.txt", DATA / run) for run in ("baseline.txt", "expansion.txt", "weak.txt")]
# trec_eval's own test run, when ../shared/trec_eval is beside the repository; otherwise a skip that says so
PAIRS.append(pytest.param(SHARED / "qrels.test", SHARED / "results.test", marks=pytest.mark.skipif(
    not SHARED.exists(), reason="skips trec_eval's test run (qrels.test, results.test): ../shared/trec_eval "
    "(trec_eval 10.0's test collection, kept beside the repository, not in it) is not present")))


def test_u_marker_is_unjudged_and_non_relevant_elsewhere():
    ranking = Ranking.parse("RNURN", relevant=3)
    assert ranking.written() == "RNURN" and ranking.unjudged == (3,)
    assert average_precision(ranking).value == average_precision(Ranking.parse("RNNRN", relevant=3)).value
    with pytest.raises(RankingError, match="U for unjudged"):
        Ranking.parse("RNX")


def test_bpref_by_hand():
    # RNURN, R = 3, N = 2 judged non-relevant: rank 1 -> 1; rank 4 has 1 judged N above -> 1 - 1/min(3, 2)
    assert bpref(Ranking.parse("RNURN", relevant=3)).value == Fraction(1, 2)
    # NRNR with two judged non-relevant documents outside the list: N = 4, min(R, N) = 2
    assert bpref(Ranking.parse("NRNR", relevant=2, unretrieved=(0, 0))).value == (1 - Fraction(1, 2) + 1 - 1) / 2
    # unjudged documents change nothing, unlike non-relevant ones
    assert bpref(Ranking.parse("RUUUR", relevant=2)).value == 1
    assert bpref(Ranking.parse("NN", relevant=0)).value == 0


def test_rbp_by_hand():
    assert rank_biased_precision(Ranking.parse("RNR"), persistence="1/2").value == Fraction(1, 2) * (1 + Fraction(1, 4))
    # graded: r_i = g_i / g_max = 1, 0, 1/2
    assert rank_biased_precision(Ranking.parse("2,0,1"), persistence="1/2").value == Fraction(1, 2) * (1 + Fraction(1, 8))
    steps = {s.symbol: s.value for s in rank_biased_precision(Ranking.parse("RNURN")).steps}
    assert steps["resid"] == Fraction(9, 10) ** 5 + Fraction(1, 10) * Fraction(9, 10) ** 2
    with pytest.raises(ParameterError, match="below 1"):
        rank_biased_precision(Ranking.parse("RN"), persistence=1)


@pytest.mark.parametrize("qrels, run", PAIRS, ids=lambda p: Path(p).name)
def test_bpref_and_rbp_explain_the_batch_numbers(qrels, run):
    result = evaluate(str(qrels), str(run), ["bpref", "rbp"])
    for topic, values in result.per_topic.items():
        ranking, _ = topic_ranking(str(qrels), str(run), topic)
        assert float(bpref(ranking)) == pytest.approx(values["bpref"], abs=1e-12)
        assert float(rank_biased_precision(ranking)) == pytest.approx(values["rbp"], abs=1e-12)


def test_gmap_by_hand_and_against_gm_map():
    both = [Ranking.parse("RNRNNNNNRR", relevant=4), Ranking.parse("NRNNRRRNNN", relevant=4)]
    value = gmap(both).value
    assert exact.to_float(value) == pytest.approx(math.sqrt(3 / 5 * 69 / 140))
    assert exact.to_float(value ** 2) == pytest.approx(float(Fraction(3, 5) * Fraction(69, 140)))
    failed = [Ranking.parse("RN", relevant=1), Ranking.parse("NN", relevant=1)]
    assert exact.to_float(gmap(failed).value) == pytest.approx(math.sqrt(1e-5))
    assert gmap(failed, gmap_floor="none").value == 0
    qrels, run = PAIRS[0]
    batch = evaluate(str(qrels), str(run), ["gm_map"]).summary["gm_map"]
    rankings = [topic_ranking(str(qrels), str(run), t)[0] for t in sorted(evaluate(str(qrels), str(run), ["map"]).per_topic)]
    assert exact.to_float(gmap(rankings).value) == pytest.approx(batch, rel=1e-12)


def test_k_point_averages_by_hand():
    ranking = Ranking.parse("RNRNR", relevant=5)
    # p_interp(0.2) = 1, p_interp(0.5) = P@5 = 3/5, p_interp(0.8) = 0 (recall never reaches 0.8)
    assert three_point_average(ranking).value == Fraction(8, 15)
    # p_interp(0.25) = max(P@3, P@4, P@5) = 2/3, p_interp(0.75) = 0
    assert k_point_average(ranking, "0.25, 0.75").value == Fraction(1, 3)
    assert k_point_average(ranking, [Fraction(1, 5)]).value == 1


def test_cli(cli):
    assert cli("explain", "bpref", "RNURN", "--relevant", "3").stdout.rstrip().endswith("bpref = 1/2 = 0.5")
    assert cli("explain", "rbp", "RNR", "--persistence", "0.5").stdout.rstrip().endswith("RBP = 5/8 = 0.625")
    out = cli("explain", "gmap", "RN", "NN", "--relevant", "1,1", "--gmap-floor", "none")
    assert out.returncode == 0 and out.stdout.rstrip().endswith("GMAP = 0")
    out = cli("explain", "rbp", "RNR", "--persistence", "2")
    assert out.returncode == 2 and "persistence" in out.stderr


def test_k_point_levels_in_an_exercise_set(tmp_path):
    from irlab.exercise_set import Where, load, solve_question

    path = tmp_path / "set.toml"
    path.write_text('title = "t"\n[[exercise]]\nid = "1"\nstatement = "s"\n[exercise.parameters]\nranking = "RNRNR"\n'
                    'relevant = 5\n[[exercise.question]]\nid = "a"\nsolver = "kpt"\nlevels = [0.25, 0.75]\n'
                    '[[exercise.question]]\nid = "b"\nsolver = "3pt"\n')
    exercise = load(path).exercise("1")
    values = [solve_question(dict(exercise.parameters), q, Where(path, "1", q.id)).answers[0].value
              for q in exercise.questions]
    assert values == [Fraction(1, 3), Fraction(8, 15)]
