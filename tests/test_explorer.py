"""irlab conventions: each tool's row, by hand and against the real library where it is light enough to install."""

import math
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from irlab import Ranking
from irlab import exact
from irlab.cli import main
from irlab.errors import IrlabError
from irlab.explorer import ROWS, Case, explore, row_value, threshold_average_precision, tie_averaged_dcg

L3, L5 = math.log2(3), math.log2(5)


def values(comparison):
    return {row.tool.name: value for row, value in comparison.values}


def one_row(measure, tool, case, **options):
    """One tool's value alone (the property tests need no other row)."""
    row = next(row for row in ROWS[measure] if row.tool.name == tool)
    return row_value(measure, row, case, **options)


def close(value, expected):
    return abs(exact.to_float(value) - expected) < 1e-12


# by hand -----------------------------------------------------------------------------------------

def test_ndcg_of_the_issue_example_by_hand():
    got = values(explore("ndcg", Case.from_scores("0.9,0.5,0.5,0.1", "2,0,1,1")))
    # trec_eval: d1 (0.9), then the tie d2/d3 by docno descending: d3 (grade 1) before d2 (grade 0), then d4
    ideal = 2 + 1 / L3 + 1 / 2
    assert close(got["trec_eval 10.0"], (2 + 1 / L3 + 1 / L5) / ideal)
    assert got["trec_eval 9 (pytrec_eval)"] == got["ir_measures"] == got["trec_eval 10.0"]
    # ranx keeps the input order d2 before d3: grades 2, 0, 1, 1
    assert close(got["ranx"], (2 + 1 / 2 + 1 / L5) / ideal)
    # scikit-learn: the tie's ranks 2 and 3 each get the mean gain 1/2
    assert close(got["scikit-learn"], (2 + (1 / L3 + 1 / 2) / 2 + 1 / L5) / ideal)
    assert got["torchmetrics"] == got["scikit-learn"]
    # exponential gain 2^g - 1 (IIR, TF-Ranking, ranx's ndcg_burges): gains 3, 1, 0, 1 against 3, 1, 1, 0
    assert close(got["textbook (IIR)"], (3 + 1 / L3 + 1 / L5) / (3 + 1 / L3 + 1 / 2))
    assert close(got["TF-Ranking"], (3 + 0 + 1 / 2 + 1 / L5) / (3 + 1 / L3 + 1 / 2))
    # RecBole: binary gains 1, 0, 1, 1 (input order) over an ideal of three 1s
    assert close(got["RecBole"], (1 + 1 / 2 + 1 / L5) / (1 + 1 / L3 + 1 / 2))
    # Järvelin & Kekäläinen: no discount at rank 1, then 1/log2(i): 2 + 1/1 + 0 + 1/2 over 2 + 1 + 1/log2(3)
    assert close(got["Järvelin & Kekäläinen 2002"], (2 + 1 + 1 / 2) / (2 + 1 + 1 / L3))


def test_ndcg_cut_by_hand():
    got = values(explore("ndcg", Case.from_scores("0.9,0.5,0.5,0.1", "2,0,1,1"), k=3))
    assert close(got["trec_eval 10.0"], (2 + 1 / L3) / (2 + 1 / L3 + 1 / 2))
    assert close(got["scikit-learn"], (2 + (1 / L3 + 1 / 2) / 2) / (2 + 1 / L3 + 1 / 2))


def test_tie_averaged_dcg_is_the_mean_over_every_order_of_the_ties():
    from itertools import permutations

    grades, scores = [3, 0, 2, 1, 0], [5, 4, 4, 4, 1]
    orders = list(permutations([1, 2, 3]))
    mean = sum(3 + sum(grades[d] / math.log2(r + 2) for r, d in enumerate(order, 1)) for order in orders) / len(orders)
    assert close(tie_averaged_dcg(scores, grades, k=4), mean)  # rank 5 (score 1, grade 0) adds nothing


def test_map_of_the_issue_example_by_hand():
    got = values(explore("map", Case.from_ranking(Ranking.parse("RNNRR", relevant=5))))
    textbook = (1 + Fraction(2, 4) + Fraction(3, 5)) / 5
    assert got["trec_eval 10.0"] == got["ranx"] == got["textbook (IIR)"] == textbook == Fraction(21, 50)
    # the list-based libraries only see three relevant labels
    assert got["scikit-learn"] == got["torchmetrics"] == got["TF-Ranking"] == textbook * 5 / 3
    assert got["RecBole"] == textbook  # min(R, k) with k the whole list of 5: min(5, 5) = 5


def test_recbole_always_cuts_at_k():
    # R = 5 but only 3 ranks: without --k RecBole's k is the list's length, its ideal DCG holds min(5, 3) = 3 ones
    got = values(explore("ndcg", Case.from_ranking(Ranking.parse("RNR", relevant=5))))
    assert close(got["RecBole"], (1 + 1 / 2) / (1 + 1 / L3 + 1 / 2))
    assert close(got["trec_eval 10.0"], (1 + 1 / 2) / (1 + 1 / L3 + 1 / 2 + 1 / L5 + 1 / math.log2(6)))
    assert values(explore("ap", Case.from_ranking(Ranking.parse("RNR", relevant=5))))["RecBole"] == Fraction(5, 9)


def test_recbole_ap_divides_by_min_r_k():
    got = values(explore("ap", Case.from_ranking(Ranking.parse("RNNRR", relevant=5)), k=2))
    assert got["RecBole"] == Fraction(1, 2)  # one relevant in the top 2, precision 1, over min(5, 2) = 2
    assert got["trec_eval 10.0"] == Fraction(1, 5)
    assert got["torchmetrics"] == 1  # divided by the one relevant document retrieved in the top 2


def test_sklearn_average_precision_with_a_tie_is_one_threshold():
    assert threshold_average_precision([3, 2, 2], [1, 0, 1]) == Fraction(1, 2) * 1 + Fraction(1, 2) * Fraction(2, 3)
    got = values(explore("ap", Case.from_scores("3,2,2", "1,0,1")))
    assert got["trec_eval 10.0"] == 1  # docno descending puts d3 (relevant) before d2
    assert got["ranx"] == Fraction(5, 6) == got["scikit-learn"]


def test_precision_past_the_end_of_the_list():
    got = values(explore("precision", Case.from_ranking(Ranking.parse("RNR")), k=5))
    assert got["trec_eval 10.0"] == got["torchmetrics"] == got["RecBole"] == Fraction(2, 5)
    assert got["torchmetrics (adaptive_k=True)"] == got["TF-Ranking"] == Fraction(2, 3)


def test_documented_examples_of_the_libraries_not_installed():
    # TF-Ranking, PrecisionMetric's docstring: y_true [[0, 1, 1]], y_pred [[3, 1, 2]], topn=2 -> 0.5
    assert values(explore("precision", Case.from_scores("3,1,2", "0,1,1"), k=2))["TF-Ranking"] == Fraction(1, 2)
    # torchmetrics, retrieval_precision's docstring: preds [0.2, 0.3, 0.5], target [True, False, True], k=2 -> 0.5
    assert values(explore("precision", Case.from_scores("0.2,0.3,0.5", "1,0,1"), k=2))["torchmetrics"] == Fraction(1, 2)
    # torchmetrics, retrieval_average_precision's docstring: preds [0.2, 0.3, 0.5], target [True, False, True] -> 0.8333
    assert values(explore("ap", Case.from_scores("0.2,0.3,0.5", "1,0,1")))["torchmetrics"] == Fraction(5, 6)
    # torchmetrics, retrieval_normalized_dcg's docstring: preds [.1, .2, .3, 4, 70], target [10, 0, 0, 1, 5] -> 0.6957
    ndcg = values(explore("ndcg", Case.from_scores(".1,.2,.3,4,70", "10,0,0,1,5")))["torchmetrics"]
    assert exact.decimal_text(ndcg) == "0.6957"


def test_recall_list_based_tools_do_not_know_the_missed_documents():
    got = values(explore("recall", Case.from_ranking(Ranking.parse("RNNRR", relevant=5)), k=3))
    assert got["trec_eval 10.0"] == Fraction(1, 5) and got["RecBole"] == Fraction(1, 5)
    assert got["torchmetrics"] == got["TF-Ranking"] == Fraction(1, 3)
    assert got["BEIR (R_cap@k)"] == Fraction(1, 3)  # one hit over min(R = 5, k = 3)


def test_err_gdeval_fixes_the_top_grade_at_4():
    got = values(explore("err", Case.from_ranking(Ranking.parse("3,2,0,1"))))
    r = [Fraction(2**g - 1, 16) for g in (3, 2, 0, 1)]
    gdeval = r[0] + (1 - r[0]) * r[1] / 2 + (1 - r[0]) * (1 - r[1]) * (1 - r[2]) * r[3] / 4
    assert got["gdeval (TREC Web track)"] == gdeval == Fraction(8149, 16384)
    r = [Fraction(2**g - 1, 8) for g in (3, 2, 0, 1)]
    assert got["Chapelle et al. 2009"] == r[0] + (1 - r[0]) * r[1] / 2 + (1 - r[0]) * (1 - r[1]) * r[3] / 4


def test_interpolation_three_rules_by_hand():
    # R = 3, relevant at ranks 1, 3, 6; at r = 0.7: ceil(2.1) = 3, round(2.1) = 2, (long)(0.7*3 + 0.9) = (long)2.99… = 2
    got = values(explore("iprec", Case.from_ranking(Ranking.parse("RNRNNR", relevant=3)), recall_level="0.7"))
    assert got["textbook (IIR)"] == Fraction(1, 2)
    assert got["trec_eval 10.0"] == got["trec_eval 9 (pytrec_eval)"] == Fraction(2, 3)
    # R = 3 at r = 0.1: round(0.3) = 0 relevant needed, (long)(1.2) = 1: both give 1 here
    got = values(explore("11pt", Case.from_ranking(Ranking.parse("RNRNNR", relevant=3))))
    assert got["trec_eval 10.0"] != got["trec_eval 9 (pytrec_eval)"]


def test_kappa_pooled_and_per_judge():
    got = values(explore("kappa", judges=("1,1,0,0", "1,0,0,0")))
    # P(A) = 3/4; pooled P(rel) = 3/8: P(E) = 9/64 + 25/64; per judge P(E) = 1/2·1/4 + 1/2·3/4 = 1/2
    assert got["textbook (IIR)"] == (Fraction(3, 4) - Fraction(34, 64)) / (1 - Fraction(34, 64)) == Fraction(7, 15)
    assert got["scikit-learn"] == got["Cohen 1960"] == Fraction(1, 2)


def test_every_format_renders_and_cli(capsys):
    comparison = explore("ndcg", Case.from_scores("0.9,0.5,0.5,0.1", "2,0,1,1"), k=3)
    for fmt in ("text", "markdown", "latex", "html", "json"):
        assert "scikit-learn" in comparison.render(fmt)
    assert main(["conventions", "ndcg", "--scores", "0.9,0.5,0.5,0.1", "--grades", "2,0,1,1", "--k", "3"]) == 0
    out = capsys.readouterr().out
    assert "tie-averaged" in out and "trec_eval 10.0" in out
    assert main(["conventions", "map", "--ranking", "RNNRR", "--relevant", "5", "--format", "markdown"]) == 0
    assert "| scikit-learn | 7/10 = 0.7 |" in capsys.readouterr().out
    assert main(["conventions", "all", "--scores", "3,2,2", "--grades", "1,0,1"]) == 0
    assert capsys.readouterr().out.count("why the libraries disagree") == 8  # the page title and 7 measures


@pytest.mark.parametrize("argv, message", [
    (["conventions", "ndcg"], "give the documents"),
    (["conventions", "ndcg", "--scores", "1,nan", "--grades", "1,0"], "score 2"),
    (["conventions", "ndcg", "--scores", "1", "--grades", "1,0"], "1 scores for 2 grades"),
    (["conventions", "bogus", "--ranking", "R"], "compares precision"),
    (["conventions", "ndcg", "--scores", "1,2", "--grades", "1,0", "--docnos", "a,a"], "appears twice"),
    (["conventions", "iprec", "--ranking", "RN"], "recall level"),
    (["conventions", "all", "--qrels", "missing-qrels", "--run", "missing-run"], "missing"),
    (["conventions", "kappa", "--judge1", "1,0", "--judge2", "1,1", "--k", "3"], "does not use --k"),
    (["conventions", "ndcg", "--ranking", "RN", "--recall-level", "0.5"], "does not use --recall-level"),
    (["conventions", "ndcg", "--ranking", "RN", "--topic", "401"], "does not use --topic"),
    (["conventions", "ndcg", "--qrels", "q", "--run", "r", "--relevant", "3"], "does not use --relevant"),
    (["conventions", "ndcg", "--scores", "1,2", "--grades", "1,0", "--ranking", "RN"], "either --ranking"),
])
def test_bad_input_is_one_message(argv, message, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("irlab: error:") and message in err and "Traceback" not in err


def test_every_row_names_real_conventions():
    for measure, rows in ROWS.items():
        assert rows[0].why.startswith("reference row")
        assert len({row.tool.name for row in rows}) == len(rows), measure


# against the real libraries ------------------------------------------------------------------------

cases = st.integers(1, 8).flatmap(lambda n: st.tuples(
    st.lists(st.integers(0, 3), min_size=n, max_size=n),  # scores from a small set: ties are common
    st.lists(st.integers(0, 3), min_size=n, max_size=n),  # grades
    st.lists(st.integers(0, 3), max_size=3),  # grades of judged documents not retrieved
))
SETTINGS = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(cases, st.one_of(st.none(), st.integers(1, 6)))
def test_sklearn_ndcg_score_equals_the_scikit_learn_row(case, k):
    sklearn = pytest.importorskip("sklearn.metrics")
    scores, grades, _ = case
    if len(grades) < 2:  # scikit-learn needs two documents
        return
    got = one_row("ndcg", "scikit-learn", Case.from_scores([Fraction(s) for s in scores], grades), k=k)
    assert close(got, sklearn.ndcg_score([grades], [scores], k=k))


@SETTINGS
@given(cases)
def test_sklearn_average_precision_equals_the_scikit_learn_row(case):
    sklearn = pytest.importorskip("sklearn.metrics")
    scores, grades, _ = case
    labels = [int(g >= 1) for g in grades]
    if not any(labels):  # undefined: scikit-learn warns
        return
    got = one_row("ap", "scikit-learn", Case.from_scores([Fraction(s) for s in scores], grades))
    assert close(got, sklearn.average_precision_score(labels, scores))


@SETTINGS
@given(st.lists(st.tuples(st.integers(0, 1), st.integers(0, 1)), min_size=2, max_size=12))
def test_sklearn_cohen_kappa_equals_the_per_judge_row(pairs):
    sklearn = pytest.importorskip("sklearn.metrics")
    a, b = [x for x, _ in pairs], [y for _, y in pairs]
    if len(set(a + b)) < 2:  # one label only: kappa is undefined
        return
    try:
        got = values(explore("kappa", judges=(",".join(map(str, a)), ",".join(map(str, b)))))["scikit-learn"]
    except IrlabError:  # P(E) = 1: irlab refuses, scikit-learn returns nan
        return
    assert close(got, sklearn.cohen_kappa_score(a, b))


def _trec_files(scores, grades, unretrieved):
    width = len(str(len(grades)))
    run = {f"d{i:0{width}d}": float(s) for i, s in enumerate(scores, 1)}
    qrels = {f"d{i:0{width}d}": g for i, g in enumerate(grades, 1)}
    qrels.update({f"u{i}": g for i, g in enumerate(unretrieved, 1)})
    return run, qrels


@SETTINGS
@given(cases, st.integers(1, 6))
def test_pytrec_eval_equals_the_trec_eval_9_row(case, k):
    pytrec_eval = pytest.importorskip("pytrec_eval")
    scores, grades, unretrieved = case
    if not any(g >= 1 for g in grades + unretrieved):
        return
    run, qrels = _trec_files(scores, grades, unretrieved)
    measures = {"P_5", "recall_5", "map", "recip_rank", "ndcg", "ndcg_cut_5", "iprec_at_recall"}
    got = pytrec_eval.RelevanceEvaluator({"q": qrels}, measures).evaluate({"q": run})["q"]
    ours = Case.from_scores([Fraction(s) for s in scores], grades, unretrieved=unretrieved)
    row = "trec_eval 9 (pytrec_eval)"
    assert close(values(explore("precision", ours, k=5))[row], got["P_5"])
    assert close(values(explore("recall", ours, k=5))[row], got["recall_5"])
    assert close(values(explore("ap", ours))[row], got["map"])
    assert close(values(explore("rr", ours))[row], got["recip_rank"])
    assert close(values(explore("ndcg", ours))[row], got["ndcg"])
    assert close(values(explore("ndcg", ours, k=5))[row], got["ndcg_cut_5"])
    for level in range(11):
        value = values(explore("iprec", ours, recall_level=Fraction(level, 10)))[row]
        assert close(value, got[f"iprec_at_recall_{level / 10:.2f}"]), level


@SETTINGS
@given(cases, st.integers(1, 6))
def test_ir_measures_equals_its_row(case, k):
    ir_measures = pytest.importorskip("ir_measures")
    from ir_measures import AP, RR, IPrec, P, R, nDCG

    scores, grades, unretrieved = case
    if not any(g >= 1 for g in grades + unretrieved):
        return
    run, qrels = _trec_files(scores, grades, unretrieved)
    levels = [IPrec @ (level / 10) for level in range(11)]
    got = ir_measures.calc_aggregate([P @ k, R @ k, AP, RR, nDCG, nDCG @ k] + levels, {"q": qrels}, {"q": run})
    ours = Case.from_scores([Fraction(s) for s in scores], grades, unretrieved=unretrieved)
    assert close(values(explore("precision", ours, k=k))["ir_measures"], got[P @ k])
    assert close(values(explore("recall", ours, k=k))["ir_measures"], got[R @ k])
    assert close(values(explore("ap", ours))["ir_measures"], got[AP])
    assert close(values(explore("rr", ours))["ir_measures"], got[RR])
    assert close(values(explore("ndcg", ours))["ir_measures"], got[nDCG])
    assert close(values(explore("ndcg", ours, k=k))["ir_measures"], got[nDCG @ k])
    for level, measure in enumerate(levels):
        assert close(values(explore("iprec", ours, recall_level=Fraction(level, 10)))["ir_measures"], got[measure])


def test_trec_eval_10_row_equals_irlab_batch_evaluator(tmp_path):
    from irlab.trec import evaluate

    scores, grades, unretrieved = [3, 2, 2, 2, 1, 0], [0, 1, 0, 2, 1, 0], [2, 1]
    run, qrels = _trec_files(scores, grades, unretrieved)
    (tmp_path / "run").write_text("".join(f"q Q0 {d} 0 {s} r\n" for d, s in run.items()))
    (tmp_path / "qrels").write_text("".join(f"q 0 {d} {g}\n" for d, g in qrels.items()))
    batch = evaluate(str(tmp_path / "qrels"), str(tmp_path / "run"), ["map", "ndcg", "11pt_avg", "P.5"])
    table = batch.summary
    ours = Case.from_scores(scores, grades, unretrieved=unretrieved)
    row = "trec_eval 10.0"
    assert close(values(explore("ap", ours))[row], table["map"])
    assert close(values(explore("ndcg", ours))[row], table["ndcg"])
    assert close(values(explore("11pt", ours))[row], table["11pt_avg"])
    assert close(values(explore("precision", ours, k=5))[row], table["P_5"])



def test_all_on_a_topic_of_trec_files(tmp_path, capsys):
    scores, grades, unretrieved = [3, 2, 2, 2, 1, 0], [0, 1, 0, 2, 1, 0], [2, 1]
    run, qrels = _trec_files(scores, grades, unretrieved)
    (tmp_path / "run").write_text("".join(f"q Q0 {d} 0 {s} r\n" for d, s in run.items()))
    (tmp_path / "qrels").write_text("".join(f"q 0 {d} {g}\n" for d, g in qrels.items()))
    argv = ["conventions", "all", "--qrels", str(tmp_path / "qrels"), "--run", str(tmp_path / "run")]
    assert main(argv + ["--topic", "q", "--format", "json"]) == 0
    import json

    page = json.loads(capsys.readouterr().out)
    assert "Topic q" in json.dumps(page)
    assert main(argv + ["--topic", "other"]) == 2
    assert "topic 'other' is not in" in capsys.readouterr().err
    # the run's file order is the input order: d2, d3, d4 tied at 2 stay in that order for ranx
    from irlab.explorer import topic_case

    case, topic = topic_case(str(tmp_path / "qrels"), str(tmp_path / "run"))
    assert topic == "q" and case.docnos == ("d1", "d2", "d3", "d4", "d5", "d6") and case.unretrieved == (2, 1)
    ndcg = values(explore("ndcg", case))  # trec_eval: grades 0, 2, 0, 1, 1, 0; ranx: 0, 1, 0, 2, 1, 0
    ideal = 2 + 2 / L3 + 1 / 2 + 1 / L5 + 1 / math.log2(6)  # grades 2, 2, 1, 1, 1 (two judged, not retrieved)
    assert close(ndcg["trec_eval 10.0"], (2 / L3 + 1 / L5 + 1 / math.log2(6)) / ideal)
    assert close(ndcg["ranx"], (1 / L3 + 2 / L5 + 1 / math.log2(6)) / ideal)


def test_a_grade_above_the_exponential_bound_stops_only_the_rows_that_use_2_to_the_g():
    from irlab.explorer import NotComputed

    case = Case.from_scores("4,3,2,1", "30,2,0,1")
    comparison = explore("ndcg", case)
    shown = {row.tool.name: value for row, value in comparison.values}
    assert isinstance(shown["ranx (ndcg_burges)"], NotComputed) and isinstance(shown["textbook (IIR)"], NotComputed)
    # linear gain, by hand: DCG = 30 + 2/log2(3) + 1/log2(5); IDCG = 30 + 2/log2(3) + 1/2 (grades 30, 2, 1)
    assert abs(exact.to_float(shown["trec_eval 10.0"]) - 0.99782) < 1e-5
    assert [row["value"] for row in comparison.meta()["rows"] if row["tool"] == "textbook (IIR)"] == [None]
    assert "not computed" in comparison.render("text")
    err = {row.tool.name: value for row, value in explore("err", case).values}
    assert all(isinstance(value, NotComputed) for value in err.values())  # gdeval's scale ends at 4, below 30
