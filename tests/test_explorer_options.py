"""irlab conventions dcg / ndcg with a gain table and a log base, and f with β: each row against the real library."""

from fractions import Fraction

import pytest
from hypothesis import assume, HealthCheck, given, settings, strategies as st

from irlab import Ranking, exact
from irlab.errors import IrlabError
from irlab.explorer import Case, explore

SETTINGS = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
cases = st.integers(2, 8).flatmap(lambda n: st.tuples(
    st.lists(st.integers(0, 3), min_size=n, max_size=n),  # scores from a small set: ties are common
    st.lists(st.integers(0, 3), min_size=n, max_size=n),  # grades
    st.lists(st.integers(0, 3), max_size=3),  # grades of judged documents not retrieved
))
gain_tables = st.dictionaries(st.integers(1, 3), st.integers(-2, 9), min_size=1, max_size=3)


def values(comparison):
    return {row.tool.name: value for row, value in comparison.values}


def close(value, expected):
    return abs(exact.to_float(value) - expected) < 1e-12


def test_f_by_hand_the_parameter_two_ways():
    got = values(explore("f", Case.from_ranking(Ranking.parse("RRRN", relevant=5)), beta=2))
    # P = 3/4, Rec = 3/5: F_2 = 5PR/(4P + R) = 5/8; set_F.2 = 3PR/(2P + R) = 9/14
    assert got["textbook (IIR)"] == got["scikit-learn"] == Fraction(5, 8)
    assert got["trec_eval 10.0"] == got["trec_eval 9 (pytrec_eval)"] == got["ir_measures"] == Fraction(9, 14)


def test_dcg_by_hand_with_the_reciprocal_discount_and_a_log_base():
    got = values(explore("dcg", Case.from_ranking(Ranking.parse("3,2,0,1")), log_base=4))
    assert got["TF-Ranking (1/rank discount)"] == 7 + Fraction(3, 2) + Fraction(1, 4)
    # scikit-learn in base 4: every term times log2(4) = 2
    assert close(got["scikit-learn"], 2 * exact.to_float(got["trec_eval 10.0"]))
    assert got["ranx"] == got["trec_eval 10.0"]  # no tie: the same linear gain and discount


def test_gain_table_by_hand_only_where_a_tool_takes_one():
    got = values(explore("ndcg", Case.from_ranking(Ranking.parse("1,2")), gains="1=4"))
    assert got["trec_eval 10.0"] == 1  # grade 1 gains 4 > grade 2's 2: the ranking is ideal
    assert got["ranx"] != 1  # ranx takes no gain table


@SETTINGS
@given(cases, st.one_of(st.none(), st.integers(1, 6)), st.sampled_from([2, 3, 10]))
def test_sklearn_dcg_score_with_log_base_equals_its_row(case, k, base):
    sklearn = pytest.importorskip("sklearn.metrics")
    scores, grades, _ = case
    got = values(explore("dcg", Case.from_scores([Fraction(s) for s in scores], grades), k=k, log_base=base))
    assert close(got["scikit-learn"], sklearn.dcg_score([grades], [scores], k=k, log_base=base))


@SETTINGS
@given(cases, gain_tables, st.one_of(st.none(), st.integers(1, 6)))
def test_ir_measures_ndcg_with_gains_equals_its_row(case, gains, k):
    ir_measures = pytest.importorskip("ir_measures")
    scores, grades, unretrieved = case
    table = {0: 0, 1: 1, 2: 2, 3: 3, **gains}
    # pytrec_eval (trec_eval 9's ndcg_p) hung a full test run once on a topic whose judged documents all have a
    # negative gain (grades 3,3,3 with gain 3 = -1; not reproducible alone, so state from earlier calls is involved):
    # the oracle is not asked about topics without a positive gain
    assume(any(table[g] > 0 for g in grades + unretrieved))
    run = {f"d{i}": float(s) for i, s in enumerate(scores, 1)}
    qrels = {f"d{i}": g for i, g in enumerate(grades, 1)}
    qrels.update({f"u{i}": g for i, g in enumerate(unretrieved, 1)})
    measure = ir_measures.nDCG(gains={0: 0, 1: 1, 2: 2, 3: 3, **gains}) @ k if k else ir_measures.nDCG(
        gains={0: 0, 1: 1, 2: 2, 3: 3, **gains})
    result = ir_measures.calc_aggregate([measure], {"q": qrels}, {"q": run})
    expected = result.get(measure, 0.0)
    ours = Case.from_scores([Fraction(s) for s in scores], grades, docnos=list(run), unretrieved=unretrieved)
    got = values(explore("ndcg", ours, k=k, gains=gains))
    assert close(got["ir_measures"], expected)
    if min(gains.values()) >= 0:  # ir_measures writes the gains as grades: a negative one becomes 0 (see its row)
        assert got["trec_eval 10.0"] == got["ir_measures"]


def test_ir_measures_gain_table_differs_from_trec_eval_on_negative_gains():
    got = values(explore("ndcg", Case.from_scores("2,1", "1,2"), gains="1=-1"))
    # trec_eval: gain -1 at rank 1, 2 at rank 2; ideal 2. ir_measures: the -1 becomes 0
    assert close(got["trec_eval 10.0"], (-1 + 2 / 1.584962500721156) / 2)
    assert close(got["ir_measures"], 1 / 1.584962500721156)


@SETTINGS
@given(st.sets(st.integers(0, 29), min_size=1, max_size=12), st.lists(st.integers(0, 29), min_size=1, max_size=15,
       unique=True), st.sampled_from([Fraction(1, 4), Fraction(1, 2), 2, 3]))
def test_f_rows_equal_pytrec_eval_ir_measures_and_scikit_learn(relevant, retrieved, beta):
    pytrec_eval = pytest.importorskip("pytrec_eval")
    ir_measures = pytest.importorskip("ir_measures")
    sklearn = pytest.importorskip("sklearn.metrics")
    if not relevant & set(retrieved):
        return  # F = 0 in every tool (scikit-learn warns)
    case = Case.from_ranking(Ranking.from_grades([int(d in relevant) for d in retrieved], relevant=len(relevant)))
    got = values(explore("f", case, beta=beta))
    qrels = {f"d{d}": int(d in relevant) for d in range(30)}
    run = {f"d{d}": float(30 - i) for i, d in enumerate(retrieved)}
    set_f = pytrec_eval.RelevanceEvaluator({"q": qrels}, {f"set_F.{float(beta)!r}"}).evaluate({"q": run})["q"]["set_F"]
    assert close(got["trec_eval 9 (pytrec_eval)"], set_f)
    library = ir_measures.calc_aggregate([ir_measures.SetF(beta=float(beta))], {"q": qrels}, {"q": run})
    assert close(got["ir_measures"], list(library.values())[0])
    truth = [int(d in relevant) for d in range(30)]
    predicted = [int(d in retrieved) for d in range(30)]
    assert close(got["scikit-learn"], sklearn.fbeta_score(truth, predicted, beta=float(beta)))


@pytest.mark.parametrize("argv, message", [
    (["conventions", "ap", "--ranking", "RRN", "--gains", "1=2"], "does not use --gains"),
    (["conventions", "ndcg", "--ranking", "1,2", "--log-base", "1"], "log base"),
    (["conventions", "f", "--ranking", "RRN", "--beta", "0"], "beta"),
    (["conventions", "f", "--ranking", "RRN", "--k", "2"], "set_F has no cut-off"),
    (["conventions", "ndcg", "--ranking", "1,2", "--gains", "1"], "grade=gain"),
])
def test_bad_options_are_one_message(argv, message, cli):
    done = cli(*argv)
    assert done.returncode == 2 and message in done.stderr and "Traceback" not in done.stderr


def test_every_format_renders(cli):
    for fmt in ("text", "markdown", "latex", "html", "json"):
        done = cli("conventions", "f", "--ranking", "RRRN", "--relevant", "5", "--beta", "2", "--format", fmt)
        assert done.returncode == 0 and "9/14" in done.stdout, fmt
        done = cli("conventions", "dcg", "--scores", "0.9,0.5,0.5", "--grades", "2,0,1", "--log-base", "10",
                   "--format", fmt)
        assert done.returncode == 0 and "scikit-learn" in done.stdout, fmt


def test_api_refuses_options_of_other_measures():
    with pytest.raises(IrlabError, match="gain table"):
        explore("ap", Case.from_ranking(Ranking.parse("RN")), gains="1=2")


def test_torchmetrics_masking_scores_not_above_zero_by_hand():
    """torchmetrics PR #3160: a document scored <= 0 is not retrieved (precision, RR, AP mask its label; nDCG sends
    its score to -inf, a tie at the bottom)."""
    masked = "torchmetrics (scores <= 0 masked)"
    case = Case.from_scores("0.5,0,-0.1", "0,1,1")
    assert values(explore("precision", case, k=2))[masked] == 0
    assert values(explore("precision", case, k=2))["torchmetrics"] == Fraction(1, 2)
    assert values(explore("rr", case))[masked] == 0
    assert values(explore("rr", case))["torchmetrics"] == Fraction(1, 2)
    assert values(explore("ap", case))[masked] == 0
    assert values(explore("ap", case))["torchmetrics"] == (Fraction(1, 2) + Fraction(2, 3)) / 2
    case = Case.from_scores("0.5,0,-0.1", "0,1,0")
    got = values(explore("ndcg", case))
    assert close(got["torchmetrics"], 1 / 1.584962500721156)  # d2 at rank 2
    assert close(got[masked], (1 / 1.584962500721156 + 1 / 2) / 2)  # d2, d3 tie at ranks 2-3: mean gain 1/2
    positive = Case.from_scores("0.5,0.2,0.1", "0,1,0")  # nothing at or below 0: the two rows agree
    assert values(explore("ndcg", positive))[masked] == values(explore("ndcg", positive))["torchmetrics"]


# tau and spearman: two score lists ------------------------------------------------------------------

score_pairs = st.integers(2, 12).flatmap(lambda n: st.tuples(
    st.lists(st.integers(0, 4), min_size=n, max_size=n), st.lists(st.integers(0, 4), min_size=n, max_size=n)))


def test_tau_and_spearman_by_hand():
    # x 4,3,3,2 and y 4,3,2,2: C = 4, D = 0, pairs tied in x 1, in y 1; n0 = 6
    got = values(explore("tau", judges=("4,3,3,2", "4,3,2,2")))
    assert got["scipy"] == Fraction(4, 5)  # 4 / √(5 · 5)
    assert got["Kendall 1938 (tau-a)"] == Fraction(4, 6)
    assert got["scipy (variant='c')"] == Fraction(2 * 3 * 4, 16 * 2)  # m = 3 distinct values in each: 3/4
    got = values(explore("spearman", judges=("4,3,3,2", "4,3,2,2")))
    # mid-ranks x: 4, 2.5, 2.5, 1; y: 4, 3, 1.5, 1.5; d = 0, -1/2, 1, -1/2: Σd² = 3/2
    assert got["no-ties formula"] == 1 - Fraction(6 * 3, 2 * 4 * 15)
    # deviations from the mean rank 5/2: x 3/2, 0, 0, -3/2; y 3/2, 1/2, -1, -1: S_xy = 15/4, S_xx = S_yy = 9/2
    assert got["scipy"] == Fraction(15, 4) / Fraction(9, 2)  # 5/6, while the shortcut says 9/10


@SETTINGS
@given(score_pairs)
def test_tau_and_spearman_rows_equal_scipy(pair):
    stats = pytest.importorskip("scipy.stats")
    x, y = pair
    if len(set(x)) < 2 or len(set(y)) < 2:
        return  # undefined: scipy returns nan, irlab refuses with a message
    text = (",".join(map(str, x)), ",".join(map(str, y)))
    got = values(explore("tau", judges=text))
    assert close(got["scipy"], stats.kendalltau(x, y).statistic)
    assert close(got["scipy (variant='c')"], stats.kendalltau(x, y, variant="c").statistic)
    assert close(values(explore("spearman", judges=text))["scipy"], stats.spearmanr(x, y).statistic)


def test_tau_cli_every_format(cli):
    for fmt in ("text", "markdown", "latex", "html", "json"):
        done = cli("conventions", "tau", "--x", "4,3,3,2", "--y", "4,3,2,2", "--format", fmt)
        assert done.returncode == 0 and "Kendall 1938" in done.stdout, fmt
    done = cli("conventions", "tau", "--x", "1,1,1", "--y", "1,2,3")
    assert done.returncode == 2 and "undefined" in done.stderr
    done = cli("conventions", "spearman", "--x", "1,2", "--y", "1,2,3")
    assert done.returncode == 2 and "one pair per item" in done.stderr


def test_empty_query_note_matches_scikit_learn():
    """The note on a query without relevant documents states scikit-learn's values; check them on the real library."""
    import warnings

    sklearn = pytest.importorskip("sklearn.metrics")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert sklearn.ndcg_score([[0, 0, 0]], [[0.9, 0.5, 0.1]]) == 0
        assert sklearn.average_precision_score([0, 0, 0], [0.9, 0.5, 0.1]) == 0
        assert sklearn.recall_score([0, 0, 0], [1, 1, 0]) == 0
        assert sklearn.label_ranking_average_precision_score([[0, 0, 0]], [[0.9, 0.5, 0.1]]) == 1
    text = explore("ap", Case.from_scores("0.9,0.5,0.1", "0,0,0")).render()
    assert "empty_target_action" in text and "label_ranking_average_precision_score gives 1" in text
    assert all(value == 0 for value in values(explore("ap", Case.from_scores("0.9,0.5,0.1", "0,0,0"))).values())
