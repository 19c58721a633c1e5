"""Scores with ties: tie-aware P@k, RR, AP and DCG (the ``ties`` convention), hand-worked values and their oracles.

Oracles: scikit-learn's dcg_score / ndcg_score (ignore_ties=False) for tie-averaged DCG and nDCG, and its
average_precision_score for one-threshold AP; the mean over every order of the tied groups, enumerated here with
irlab's untied P@k, RR, AP and DCG, for tie-averaged P@k, RR and AP (McSherry & Najork 2008's definition; no library
computes it).
"""

import itertools
import json
import math
import subprocess
import sys
import warnings
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from irlab import Ranking, exact
from irlab.errors import IrlabError, ParameterError
from irlab.exercise_set import load, solve
from irlab.explorer import tie_averaged_dcg
from irlab.metrics import average_precision, dcg, ndcg, precision, reciprocal_rank

sklearn_metrics = pytest.importorskip("sklearn.metrics")

RNRNR = Ranking.parse("RNRNR", scores="0.9,0.8,0.8,0.8,0.1")


# hand-worked values ------------------------------------------------------------------------------

def test_tie_averaged_ap_by_hand():
    # ranks 2-4 tie (0.8) and hold one relevant document, one relevant above them: it is at rank 2, 3 or 4 with
    # probability 1/3 each, where P = 2/2, 2/3, 2/4, so E = (1/3)(1 + 2/3 + 1/2) = 13/18;
    # S = P@1 + E + P@5 = 1 + 13/18 + 3/5 = 209/90, AP = S / 3 = 209/270
    result = average_precision(RNRNR, ties="tie-averaged")
    assert result.value == Fraction(209, 270)
    steps = {step.symbol: step.value for step in result.steps}
    assert steps["E_2-4"] == Fraction(13, 18) and steps["S"] == Fraction(209, 90)
    assert [row[5] for row in result.tables[0].rows] == [1, Fraction(1, 3), Fraction(2, 9), Fraction(1, 6), Fraction(3, 5)]


def test_one_threshold_ap_by_hand():
    # thresholds 0.9, 0.8, 0.1: recall steps 1/3 each at precisions 1/1, 2/4, 3/5: AP = (1 + 1/2 + 3/5) / 3 = 7/10
    result = average_precision(RNRNR, ties="one-threshold")
    assert result.value == Fraction(7, 10)
    assert sklearn_metrics.average_precision_score([1, 0, 1, 0, 1], [0.9, 0.8, 0.8, 0.8, 0.1]) == pytest.approx(0.7)


def test_tie_averaged_ap_with_two_relevant_in_the_group_by_hand():
    # RRN N scored 2,1,1,1 … here R | R N R tied at ranks 2-4 with one relevant above: r = 2, n = 3, c = 1, s = 1.
    # A relevant document at the group's j-th rank has c + 1 + (j-1)(r-1)/(n-1) = 2, 5/2, 3 relevant at or above it:
    # E = (2/3)(2/2 + (5/2)/3 + 3/4) = (2/3)(31/12) = 31/18. Enumerated: orders RNR, RRN, NRR of ranks 2-4 give
    # P-sums 2/2 + 3/4, 2/2 + 3/3, 2/3 + 3/4 = 7/4, 2, 17/12, mean 31/18. AP = (1 + 31/18) / 3 = 49/54.
    ranking = Ranking.parse("RRNR", scores=[2, 1, 1, 1])
    assert average_precision(ranking, ties="average").value == Fraction(49, 54)


def test_tie_averaged_dcg_by_hand():
    # grades R,N,R,N scored 3,2,2,1, linear gain: ranks 2-3 share the mean gain (0 + 1)/2 = 1/2, so
    # DCG = 1/log2(2) + (1/2)(1/log2 3 + 1/log2 4) + 0 = 1 + (1/2)(1/log2 3 + 1/2) = 5/4 + 1/(2 log2 3)
    ranking = Ranking.parse("RNRN", scores="3,2,2,1")
    result = dcg(ranking, gain="linear", ties="tie-averaged")
    expected = exact.add(Fraction(5, 4), exact.div(Fraction(1, 2), exact.log2(3)))
    assert exact.is_zero(exact.sub(result.value, expected))
    steps = {step.symbol: step.value for step in result.steps}
    assert steps["Ḡ_2-3"] == Fraction(1, 2)
    assert exact.is_zero(exact.sub(steps["D_2-3"], exact.add(exact.div(1, exact.log2(3)), Fraction(1, 2))))
    assert sklearn_metrics.dcg_score([[1, 0, 1, 0]], [[3, 2, 2, 1]]) == pytest.approx(float(result), abs=1e-12)


def test_a_cut_off_inside_a_tied_group_averages_over_the_whole_group():
    # k = 2 cuts ranks 2-3: rank 2 still holds the group's mean gain 1/2: DCG@2 = 1 + (1/2) / log2 3
    ranking = Ranking.parse("RNRN", scores="3,2,2,1")
    value = dcg(ranking, k=2, gain="linear", ties="average").value
    assert exact.is_zero(exact.sub(value, exact.add(1, exact.div(Fraction(1, 2), exact.log2(3)))))


def test_without_ties_every_convention_agrees():
    ranking = Ranking.parse("RNNRR", scores="5,4,3,2,1", relevant=4)
    plain = Ranking.parse("RNNRR", relevant=4)
    for ties in ("docno-descending", "input-order", "tie-averaged", "one-threshold"):
        assert average_precision(ranking, ties=ties).value == average_precision(plain).value
    for ties in ("docno-descending", "input-order", "tie-averaged"):
        assert dcg(ranking, ties=ties).value == dcg(plain).value


def test_order_conventions_evaluate_the_ranking_as_written():
    plain = Ranking.parse("RNRNR")
    for ties in (None, "docno-descending", "input-order", "order"):
        assert average_precision(RNRNR, ties=ties).value == average_precision(plain).value == Fraction(34, 45)
        assert dcg(Ranking.parse("2,0,1,1", scores="9,5,5,1"), ties=ties).value == dcg(Ranking.parse("2,0,1,1")).value


def test_the_explanation_shows_the_tied_groups_and_names_the_convention():
    text = average_precision(RNRNR, ties="average").render("text")
    assert "ties = tie-averaged" in text and "McSherry & Najork 2008" in text
    assert "tied scores: ranks 2-4 (score 0.8)" in text
    assert "E_2-4 = r_2-4 / n_2-4 · (2 / 2 + 2 / 3 + 2 / 4) = 1 / 3 · (2 / 2 + 2 / 3 + 2 / 4) = 13/18" in text
    table = average_precision(RNRNR, ties="average").tables[0]
    assert table.columns[:4] == ("rank", "judgment", "score", "tied ranks")
    assert [row[3] for row in table.rows] == ["", "2-4", "2-4", "2-4", ""]
    dcg_text = dcg(Ranking.parse("RNRN", scores="3,2,2,1"), gain="linear", ties="average").render("markdown")
    assert "Ḡ_2-3" in dcg_text or "\\={G}" in dcg_text
    assert "Summed discounts of the tied ranks 2-3" in dcg_text


def test_a_ranking_without_scores_explains_as_before():
    text = average_precision(Ranking.parse("RNRNR")).render("text")
    assert "ties" not in text and "score" not in text
    assert "ties" not in average_precision(Ranking.parse("RNRNR")).meta()["convention"]


# oracles ---------------------------------------------------------------------------------------------

@st.composite
def scored_rankings(draw, min_size=2, max_size=12, top_grade=3):
    """Grades and never-increasing scores drawn from a few values, so that ties are common."""
    n = draw(st.integers(min_size, max_size))
    grades = draw(st.lists(st.integers(0, top_grade), min_size=n, max_size=n))
    scores = sorted(draw(st.lists(st.integers(0, 4), min_size=n, max_size=n)), reverse=True)
    return grades, scores


def _sklearn(function, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # no relevant document: scikit-learn warns and returns 0
        return function(*args, **kwargs)


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(scored_rankings(), st.one_of(st.none(), st.integers(1, 12)), st.sampled_from(["linear", "exp"]))
def test_tie_averaged_dcg_and_ndcg_equal_scikit_learn(case, k, gain):
    grades, scores = case
    ranking = Ranking.from_grades(grades, scores=scores)
    gains = [g if gain == "linear" else 2**g - 1 for g in grades]
    expected_dcg = sklearn_metrics.dcg_score([gains], [scores], k=k, ignore_ties=False)
    expected_ndcg = _sklearn(sklearn_metrics.ndcg_score, [gains], [scores], k=k, ignore_ties=False)
    assert abs(float(dcg(ranking, k, gain=gain, ties="tie-averaged")) - expected_dcg) < 1e-9
    assert abs(float(ndcg(ranking, k, gain=gain, ties="tie-averaged")) - expected_ndcg) < 1e-9
    # and the explorer's own tie-averaged DCG (a second implementation, without the explanation) agrees exactly
    explorer_value = tie_averaged_dcg(scores, grades, k, gain)
    assert exact.is_zero(exact.sub(dcg(ranking, k, gain=gain, ties="tie-averaged").value, explorer_value))


@settings(max_examples=250, deadline=None)
@given(scored_rankings(min_size=1, top_grade=2), st.integers(1, 2))
def test_one_threshold_ap_equals_scikit_learn(case, threshold):
    grades, scores = case
    relevant = [int(g >= threshold) for g in grades]
    assume(any(relevant))  # scikit-learn's AP of a list without a positive is undefined (it warns)
    ranking = Ranking.from_grades(grades, scores=scores, threshold=threshold)
    expected = sklearn_metrics.average_precision_score(relevant, scores)
    assert abs(float(average_precision(ranking, ties="one-threshold")) - expected) < 1e-9


def _orders(ranking, depth=None):
    """Every ranking obtained by permuting the grades inside each tied group (the orders tie-averaging means)."""
    groups = ranking.tied_groups()
    choices = [itertools.permutations(ranking.grades[first - 1:last]) for first, last in groups]
    for pick in itertools.product(*choices):
        yield Ranking.from_grades([g for group in pick for g in group], threshold=ranking.threshold,
                                  relevant=ranking.relevant)


def _order_count(scores):
    count = 1
    for _, group in itertools.groupby(scores):
        count *= math.factorial(len(list(group)))
    return count


@settings(max_examples=250, deadline=None)
@given(scored_rankings(min_size=1, max_size=8, top_grade=2), st.one_of(st.none(), st.integers(1, 8)))
def test_tie_averaged_ap_is_the_mean_over_every_order(case, k):
    grades, scores = case
    assume(_order_count(scores) <= 720)
    ranking = Ranking.from_grades(grades, scores=scores, relevant=sum(g >= 1 for g in grades) + 1)
    orders = list(_orders(ranking))
    mean = sum((average_precision(order, k).value for order in orders), Fraction(0)) / len(orders)
    assert average_precision(ranking, k, ties="tie-averaged").value == mean  # exactly


@settings(max_examples=100, deadline=None)
@given(scored_rankings(min_size=1, max_size=7), st.one_of(st.none(), st.integers(1, 7)))
def test_tie_averaged_dcg_is_the_mean_over_every_order(case, k):
    grades, scores = case
    assume(_order_count(scores) <= 120)
    ranking = Ranking.from_grades(grades, scores=scores)
    orders = list(_orders(ranking))
    mean = sum(float(dcg(order, k)) for order in orders) / len(orders)
    assert abs(float(dcg(ranking, k, ties="tie-averaged")) - mean) < 1e-9


@settings(max_examples=200, deadline=None)
@given(scored_rankings(min_size=1), st.one_of(st.none(), st.integers(1, 12)))
def test_order_conventions_equal_irlabs_untied_metrics(case, k):
    grades, scores = case
    scored, plain = Ranking.from_grades(grades, scores=scores), Ranking.from_grades(grades)
    for ties in ("docno-descending", "input-order"):
        assert average_precision(scored, k, ties=ties).value == average_precision(plain, k).value
        assert dcg(scored, k, ties=ties).value == dcg(plain, k).value
        assert ndcg(scored, k, ties=ties).value == ndcg(plain, k).value


# bad input -----------------------------------------------------------------------------------------

@pytest.mark.parametrize("scores, message", [
    ("0.9,x,0.1", "the score at rank 2 must be a finite number"),
    ("0.9,0.8", "2 scores for 3 ranks"),
    ("0.9,0.8,0.7,0.1", "4 scores for 3 ranks"),
    ("0.9,nan,0.1", "the score at rank 2"),
    ([0.9, float("nan"), 0.1], "the score at rank 2 must be a finite number"),
    ([0.9, 0.5, float("inf")], "the score at rank 3 must be a finite number"),
    ([1, True, 0], "the score at rank 2 must be a number"),
    ("0.5,0.6,0.1", "the score at rank 2 (0.6) is higher than at rank 1 (0.5)"),
    ("1,1,1e400", "the score at rank 3"),
])
def test_bad_scores_name_the_rank(scores, message):
    with pytest.raises(ParameterError, match=message.replace("(", r"\(").replace(")", r"\)")):
        Ranking.parse("RNR", scores=scores)


def test_conventions_that_do_not_apply_are_refused():
    with pytest.raises(ParameterError, match="needs the documents' scores"):
        average_precision(Ranking.parse("RNR"), ties="tie-averaged")
    with pytest.raises(ParameterError, match="dcg does not take ties = one-threshold"):
        dcg(RNRNR, ties="one-threshold")
    with pytest.raises(ParameterError, match="splits the tied ranks 2-4"):
        average_precision(RNRNR, k=3, ties="one-threshold")
    with pytest.raises(ParameterError, match="splits the tied ranks 2-4"):
        average_precision(RNRNR, k=3, ties="tie-averaged", ap_denominator="retrieved")
    with pytest.raises(ParameterError, match="unknown ties 'avg'"):
        average_precision(RNRNR, ties="avg")


def _irlab(*args):
    return subprocess.run([sys.executable, "-m", "irlab", *args], capture_output=True, text=True)


def test_explain_takes_scores_and_ties():
    done = _irlab("explain", "ap", "RNRNR", "--scores", "0.9,0.8,0.8,0.8,0.1", "--ties", "average")
    assert done.returncode == 0 and "Result: AP = 209/270 ≈ 0.7741" in done.stdout
    done = _irlab("explain", "ndcg", "RNRN", "--scores", "3,2,2,1", "--ties", "tie-averaged", "--gain", "linear",
                  "--format", "markdown")
    assert done.returncode == 0 and "Mean gain of the tied ranks 2-3" in done.stdout
    done = _irlab("explain", "ap", "RNR", "--scores", "1,x,0")
    assert done.returncode == 2 and done.stderr == "irlab: error: the score at rank 2 must be a finite number such as 0.8, got 'x'\n"
    done = _irlab("explain", "rprec", "RNR", "--scores", "3,2,1")
    assert done.returncode == 2 and "--scores does not apply to rprec" in done.stderr


SET = '''title = "Ties"

[[exercise]]
id = "t"
statement = "Scores {scores}, judgments {ranking}."
[exercise.parameters]
ranking = "RNRNR"
scores = [0.9, 0.8, 0.8, 0.8, 0.1]
[[exercise.question]]
id = "a"
text = "AP, ties averaged"
solver = "ap"
ties = "average"
[[exercise.question]]
id = "b"
text = "AP as scikit-learn computes it"
solver = "ap"
ties = "one-threshold"
[[exercise.question]]
id = "c"
text = "DCG, ties averaged"
solver = "dcg"
ties = "tie-averaged"
gain = "linear"
'''


def test_solve_an_exercise_set_with_scores(tmp_path):
    path = tmp_path / "ties.toml"
    path.write_text(SET, encoding="utf-8")
    text = solve(path).render("text")
    assert "Answer: AP = 209/270 ≈ 0.7741" in text and "Answer: AP = 7/10 = 0.7" in text
    # linear gains 1,0,1,0,1: ranks 2-4 share (0 + 1 + 0)/3 = 1/3
    assert "DCG = 1 + (1/3) · (1/log2(3) + 1/2 + 1/log2(5)) + 1/log2(6)" in text
    done = _irlab("solve", str(path))
    assert done.returncode == 0 and "Scores 0.9, 0.8, 0.8, 0.8, 0.1, judgments RNRNR." in done.stdout
    assert "209/270" in done.stdout and "7/10" in done.stdout


@pytest.mark.parametrize("change, message", [
    ("scores = [0.9, 0.8, 0.8, 0.1]", "4 scores for 5 ranks"),
    ("scores = [0.9, 0.8, \"x\", 0.8, 0.1]", "key 'parameters.scores': the score at rank 3 must be a finite number"),
    ("scores = [0.1, 0.8, 0.8, 0.8, 0.1]", "key 'parameters.scores': the score at rank 2 (0.8) is higher"),
])
def test_bad_scores_in_a_set_are_located(tmp_path, change, message):
    path = tmp_path / "ties.toml"
    path.write_text(SET.replace("scores = [0.9, 0.8, 0.8, 0.8, 0.1]", change), encoding="utf-8")
    with pytest.raises(IrlabError) as error:
        load(path)
        solve(path)
    assert message in str(error.value) and "exercise t" in str(error.value)


def test_a_trec_topic_takes_the_tie_conventions_with_the_runs_scores(tmp_path, capsys):
    from sklearn.metrics import ndcg_score

    from irlab.cli import main

    qrels, run = tmp_path / "q.txt", tmp_path / "r.txt"
    qrels.write_text("1 0 a 1\n1 0 b 0\n1 0 c 1\n1 0 d 1\n")
    run.write_text("1 Q0 a 1 0.9 r\n1 Q0 b 2 0.5 r\n1 Q0 c 3 0.5 r\n1 Q0 d 4 0.1 r\n")
    files = ["--qrels", str(qrels), "--run", str(run), "--topic", "1"]
    assert main(["explain", "ap", *files]) == 0  # trec_eval's order: c before b (docno descending)
    assert capsys.readouterr().out.rstrip().endswith("AP = 11/12 ≈ 0.9167")
    # averaged over the orders of b and c, by hand: ((1 + 2/3 + 3/4) + (1 + 1 + 3/4)) / 2 / 3 = 31/36
    assert main(["explain", "ap", *files, "--ties", "average"]) == 0
    assert "AP = 31/36" in capsys.readouterr().out
    assert main(["explain", "ndcg", *files, "--ties", "average", "--format", "json"]) == 0
    decimal = json.loads(capsys.readouterr().out)["answer"]["decimal"]
    assert abs(decimal - ndcg_score([[1, 0, 1, 1]], [[0.9, 0.5, 0.5, 0.1]])) < 1e-12


# P@k and RR --------------------------------------------------------------------------------------

def test_tie_averaged_precision_by_hand():
    # RNRN scored 0.9, 0.5, 0.5, 0.1, k = 2: ranks 2-3 tie (s = 1, n = 2, r = 1) and k cuts them after rank 2, so the
    # group adds r·(k - s)/n = 1·1/2 expected hits to the 1 above it: P@2 = (1 + 1/2) / 2 = 3/4 (orders RN, NR of
    # ranks 2-3 give P@2 = 1/2 and 1, mean 3/4)
    result = precision(Ranking.parse("RNRN", scores="0.9,0.5,0.5,0.1"), k=2, ties="average")
    assert result.value == Fraction(3, 4)
    steps = {step.symbol: step.value for step in result.steps}
    assert steps["E_2-3"] == Fraction(1, 2) and steps["E(hits@2)"] == Fraction(3, 2)
    assert [row[4:] for row in result.tables[0].rows] == [(1, 1), (Fraction(1, 2), Fraction(3, 2))]


def test_tie_averaged_precision_with_two_relevant_in_the_group_by_hand():
    # NRRNR scored 5,4,4,4,1, k = 3: ranks 2-4 hold r = 2 of n = 3 and k - s = 2 of them are in the top 3:
    # E[hits@3] = 0 + 2·2/3 = 4/3, P@3 = 4/9 (orders RRN, RNR, NRR of ranks 2-4 put 2, 1, 1 relevant at ranks 2-3)
    ranking = Ranking.parse("NRRNR", scores=[5, 4, 4, 4, 1])
    assert precision(ranking, k=3, ties="tie-averaged").value == Fraction(4, 9)
    # a cut-off at the end of a group, or none, is not affected by the order: P@4 = 2/4, P = 3/5
    assert precision(ranking, k=4, ties="tie-averaged").value == Fraction(1, 2)
    assert precision(ranking, ties="tie-averaged").value == Fraction(3, 5)
    # precision_denominator = retrieved divides by n@k = min(k, n) = 3 here, the same
    assert precision(ranking, k=3, ties="average", precision_denominator="retrieved").value == Fraction(4, 9)


def test_tie_averaged_precision_when_the_group_starts_the_ranking():
    # RNNR scored 1,1,1,0, k = 1: ranks 1-3 hold r = 1 of n = 3, s = 0: E[hits@1] = 1·1/3, P@1 = 1/3
    result = precision(Ranking.parse("RNNR", scores="1,1,1,0"), k=1, ties="average")
    assert result.value == Fraction(1, 3)
    assert "E(hits@1) = E_1-3" in result.render("text")


def test_tie_averaged_rr_by_hand():
    # NRNR scored 0.9, 0.5, 0.5, 0.1: the relevant document of ranks 2-3 is at rank 2 or 3 with probability 1/2 each,
    # E[RR] = (1/2)(1/2 + 1/3) = 5/12
    result = reciprocal_rank(Ranking.parse("NRNR", scores="0.9,0.5,0.5,0.1"), ties="average")
    assert result.value == Fraction(5, 12)
    assert {step.symbol: step.value for step in result.steps}["C_2-3"] == 2


def test_tie_averaged_rr_with_two_relevant_in_the_group_by_hand():
    # NRRN scored 9,5,5,5: ranks 2-4 hold r = 2 of n = 3, C(3, 2) = 3 placements; the first relevant document is at
    # rank 2 in C(2, 1) = 2 of them (RRN, RNR) and at rank 3 in C(1, 1) = 1 (NRR): E[RR] = (2/2 + 1/3) / 3 = 4/9.
    # With k = 2 the placement NRR adds 0: E[RR@2] = (2/2) / 3 = 1/3
    ranking = Ranking.parse("NRRN", scores=[9, 5, 5, 5])
    assert reciprocal_rank(ranking, ties="tie-averaged").value == Fraction(4, 9)
    result = reciprocal_rank(ranking, k=2, ties="tie-averaged")
    assert result.value == Fraction(1, 3)
    assert "the cut-off k = 2 splits the tied ranks 2-4" in result.render("text")
    rows = result.tables[0].rows
    assert [row[4:] for row in rows] == [("", "", ""), (2, Fraction(2, 3), Fraction(1, 3))]


def test_rr_is_unchanged_when_the_first_relevant_document_is_not_tied():
    # RNNR scored 3,2,2,1: the first relevant document is alone at rank 1, whatever the order of ranks 2-3: RR = 1
    ranking = Ranking.parse("RNNR", scores="3,2,2,1")
    result = reciprocal_rank(ranking, ties="average")
    assert result.value == 1 and result.tables[0].columns[:4] == ("rank", "judgment", "score", "tied ranks")
    assert reciprocal_rank(Ranking.parse("NNNR", scores="3,2,2,1"), k=3, ties="average").value == 0


@pytest.mark.parametrize("metric", [precision, reciprocal_rank])
def test_precision_and_rr_order_conventions_and_unscored_rankings(metric):
    scored, plain = Ranking.parse("NRNR", scores="0.9,0.5,0.5,0.1"), Ranking.parse("NRNR")
    for ties in (None, "docno-descending", "input-order", "order"):
        assert metric(scored, 2, ties=ties).value == metric(plain, 2).value
    text = metric(plain, 2).render("text")
    assert "ties" not in text and "score" not in text and "ties" not in metric(plain, 2).meta()["convention"]
    with pytest.raises(ParameterError, match="does not take ties = one-threshold: it is scikit-learn's rule"):
        metric(scored, 2, ties="threshold")
    with pytest.raises(ParameterError, match="needs the documents' scores"):
        metric(plain, 2, ties="average")


def test_precision_of_counts_refuses_ties():
    from irlab.metrics import Counts

    counts = Counts(2, 3, 1, 10)
    assert precision(counts).value == Fraction(2, 5)
    with pytest.raises(ParameterError, match="counts .tp, fp, fn, tn. have no ranks to tie"):
        precision(counts, ties="average")
    done = _irlab("explain", "precision", "--counts", "tp=2,fp=3,fn=1,tn=10", "--ties", "average")
    assert done.returncode == 2 and done.stderr.startswith("irlab: error: ties applies to a ranking given with its scores")


@settings(max_examples=250, deadline=None)
@given(scored_rankings(min_size=1, max_size=8, top_grade=2), st.one_of(st.none(), st.integers(1, 9)),
       st.sampled_from(["k", "retrieved"]))
def test_tie_averaged_precision_is_the_mean_over_every_order(case, k, denominator):
    grades, scores = case
    assume(_order_count(scores) <= 720)
    ranking = Ranking.from_grades(grades, scores=scores)
    orders = list(_orders(ranking))
    mean = sum((precision(order, k, denominator).value for order in orders), Fraction(0)) / len(orders)
    assert precision(ranking, k, denominator, ties="tie-averaged").value == mean  # exactly


@settings(max_examples=250, deadline=None)
@given(st.data())
def test_tie_averaged_precision_with_the_cut_off_among_few_scores(data):
    # the test above rarely cuts a tied group holding relevant and non-relevant documents (about 1 case in 12):
    # two or three distinct scores and k inside the ranking make it about 1 in 4, where the order matters
    n = data.draw(st.integers(1, 6))
    grades = data.draw(st.lists(st.integers(0, 1), min_size=n, max_size=n))
    scores = sorted(data.draw(st.lists(st.integers(0, 2), min_size=n, max_size=n)), reverse=True)
    k = data.draw(st.integers(1, n))
    ranking = Ranking.from_grades(grades, scores=scores)
    orders = list(_orders(ranking))
    mean = sum((precision(order, k).value for order in orders), Fraction(0)) / len(orders)
    assert precision(ranking, k, ties="tie-averaged").value == mean  # exactly


@settings(max_examples=250, deadline=None)
@given(scored_rankings(min_size=1, max_size=8, top_grade=2), st.one_of(st.none(), st.integers(1, 9)))
def test_tie_averaged_rr_is_the_mean_over_every_order(case, k):
    grades, scores = case
    assume(_order_count(scores) <= 720)
    ranking = Ranking.from_grades(grades, scores=scores)
    orders = list(_orders(ranking))
    mean = sum((reciprocal_rank(order, k).value for order in orders), Fraction(0)) / len(orders)
    assert reciprocal_rank(ranking, k, ties="tie-averaged").value == mean  # exactly


def test_explain_precision_and_rr_with_ties():
    done = _irlab("explain", "precision", "RNRN", "--scores", "0.9,0.5,0.5,0.1", "--k", "2", "--ties", "average")
    assert done.returncode == 0 and done.stdout.rstrip().endswith("Result: P@2 = 3/4 = 0.75")
    assert "E(hits@2) = hits@1 + E_2-3 = 1 + 1/2 = 3/2 = 1.5" in done.stdout
    done = _irlab("explain", "rr", "NRNR", "--scores", "0.9,0.5,0.5,0.1", "--ties", "average", "--format", "markdown")
    assert done.returncode == 0 and r"\frac{5}{12}" in done.stdout and "P(first relevant at i)" in done.stdout
    done = _irlab("explain", "mrr", "NRNR", "RN", "--scores", "0.9,0.5,0.5,0.1;2,2", "--ties", "average")
    # RN scored 2,2: the relevant document is at rank 1 or 2, E(RR) = (1/1 + 1/2) / 2 = 3/4; MRR = (5/12 + 3/4) / 2
    assert done.returncode == 0 and done.stdout.rstrip().endswith("MRR = 7/12 ≈ 0.5833")
    done = _irlab("explain", "rr", "NRNR", "--scores", "0.9,0.5,0.5,0.1", "--ties", "threshold")
    assert done.returncode == 2 and done.stderr.startswith("irlab: error: rr does not take ties = one-threshold")


def test_solve_precision_and_rr_questions_with_scores(tmp_path):
    path = tmp_path / "ties.toml"
    path.write_text(SET.replace('ranking = "RNRNR"', 'ranking = "NRNRR"') + '''
[[exercise.question]]
id = "d"
text = "P@2, ties averaged"
solver = "precision"
k = 2
ties = "average"
[[exercise.question]]
id = "e"
text = "RR, ties averaged"
solver = "rr"
ties = "tie-averaged"
''', encoding="utf-8")
    # NRNRR scored 0.9, 0.8, 0.8, 0.8, 0.1: ranks 2-4 hold r = 2 of n = 3; P@2 = (0 + 2·1/3) / 2 = 1/3;
    # the first relevant document is at rank 2 in C(2, 1) = 2 of C(3, 2) = 3 placements, at 3 in 1: RR = (1 + 1/3)/3
    text = solve(path).render("text")
    assert "Answer: P@2 = 1/3" in text and "Answer: RR = 4/9" in text


def test_a_trec_topic_takes_ties_for_precision_and_rr(tmp_path, capsys):
    from irlab.cli import main

    qrels, run = tmp_path / "q.txt", tmp_path / "r.txt"
    qrels.write_text("1 0 a 0\n1 0 b 1\n1 0 c 0\n1 0 d 1\n")
    run.write_text("1 Q0 a 1 0.9 r\n1 Q0 b 2 0.5 r\n1 Q0 c 3 0.5 r\n1 Q0 d 4 0.1 r\n")
    files = ["--qrels", str(qrels), "--run", str(run), "--topic", "1"]
    # trec_eval's order a, c, b, d (docno descending in the tie): RR = 1/3, P@2 = 0
    assert main(["explain", "rr", *files]) == 0 and capsys.readouterr().out.rstrip().endswith("RR = 1/3 ≈ 0.3333")
    assert main(["explain", "precision", *files, "--k", "2"]) == 0
    assert capsys.readouterr().out.rstrip().endswith("P@2 = 0")
    # averaged over the orders of b and c: RR = (1/2 + 1/3) / 2 = 5/12, P@2 = (0 + 1·1/2) / 2 = 1/4
    assert main(["explain", "rr", *files, "--ties", "average"]) == 0
    assert capsys.readouterr().out.rstrip().endswith("RR = 5/12 ≈ 0.4167")
    assert main(["explain", "precision", *files, "--k", "2", "--ties", "average"]) == 0
    assert capsys.readouterr().out.rstrip().endswith("P@2 = 1/4 = 0.25")
