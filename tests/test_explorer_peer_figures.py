"""irlab conventions: the rows of the tools not installed here, against figures from those projects' own tests.

ranx needs a long numba compile, torchmetrics and TF-Ranking large frameworks, RecBole and BEIR a training stack, so
none is installed (issue 15). Their figures carry over, their code does not: each test builds the input of one of
the project's own tests or documented examples as an irlab ``Case`` and asserts that the row of that tool in
``explore(measure, case, k)`` reproduces the value the project expects — exactly where the figure is rational, to
1e-12 where it is a formula with logarithms, to the printed digits where only a printed value exists. Every test
names the repository, the file and the test (or docstring) the figure comes from.
"""

import math
from fractions import Fraction as F

import pytest

from irlab import Ranking, exact
from irlab.explorer import Case, explore


def row_value(measure, tool, case, k=None):
    """The value of ``tool``'s row in the comparison (the tool's name as the explorer writes it)."""
    for row, value in explore(measure, case, k).values:
        if row.tool.name == tool:
            return value
    raise AssertionError(f"no row {tool!r} for {measure}")


def close(value, expected):
    return abs(exact.to_float(value) - expected) < 1e-12


def printed(value):
    """The value as a tensor prints it: four decimals, rounded half away from zero (exact.decimal_text)."""
    return exact.decimal_text(value, 4, strip=False)


def mean(values):
    values = list(values)
    return exact.div(exact.total(values), len(values))


def log2p1(x):  # TF-Ranking's tests write the discount 1/log2(1 + rank) with this helper
    return math.log2(1 + x)


# RecBole ------------------------------------------------------------------------------------------
# RUCAIBox/RecBole tests/metrics/test_topk_metrics.py: ``pos_idx`` marks, row by row, whether the item at each of the
# top 3 positions is a positive test item; ``pos_len`` is the number of positive items of the user (R). metric_info
# returns the metric at k = 1, 2, 3 for every row (TestTopKMetrics.test_precision / test_recall / test_map / test_mrr /
# test_ndcg). RecBole only sees relevant / not relevant, so a row is a ranking of R and N with R = pos_len.
POS_IDX = ("NNN", "RRR", "RNR", "NNR")
POS_LEN = (1, 3, 4, 2)
L2, L3, L4 = math.log2(2), math.log2(3), math.log2(4)
RECBOLE = {
    "precision": ((0, 0, 0), (1, 1, 1), (1, F(1, 2), F(2, 3)), (0, 0, F(1, 3))),
    "recall": ((0, 0, 0), (F(1, 3), F(2, 3), 1), (F(1, 4), F(1, 4), F(2, 4)), (0, 0, F(1, 2))),
    # MAP@k divides by min(pos_len, k): row 3 at k = 2 is 1/2, not 1/4; row 4 at k = 3 is (1/3)/2
    "ap": ((0, 0, 0), (1, 1, 1), (1, F(1, 2), F(1, 3) * (1 + F(2, 3))), (0, 0, F(1, 3) * F(1, 2))),
    "rr": ((0, 0, 0), (1, 1, 1), (1, 1, 1), (0, 0, F(1, 3))),
    "ndcg": ((0, 0, 0), (1, 1, 1),
             (1, (1 / L2) / (1 / L2 + 1 / L3), (1 / L2 + 1 / L4) / (1 / L2 + 1 / L3 + 1 / L4)),
             (0, 0, (1 / L4) / (1 / L2 + 1 / L3))),
}


@pytest.mark.parametrize("measure", sorted(RECBOLE))
@pytest.mark.parametrize("user", range(len(POS_IDX)))
def test_recbole_topk_metrics(measure, user):
    case = Case.from_ranking(Ranking.parse(POS_IDX[user], relevant=POS_LEN[user]))
    for k, expected in enumerate(RECBOLE[measure][user], 1):
        got = row_value(measure, "RecBole", case, k)
        if isinstance(expected, float):
            assert close(got, expected), (k, got)
        else:
            assert got == expected, (k, got)


def test_recbole_map_at_k_differs_from_trec_eval():
    # the figure of test_map, user 3 (RNR, 4 positive items) at k = 2: RecBole divides by min(4, 2) = 2, the
    # trec_eval row by R = 4; and RecBole's nDCG@2 ideal holds min(R, 2) ones, as trec_eval's ndcg_cut_2
    case = Case.from_ranking(Ranking.parse("RNR", relevant=4))
    assert row_value("ap", "RecBole", case, 2) == F(1, 2)
    assert row_value("ap", "trec_eval 10.0", case, 2) == F(1, 4)
    assert row_value("ndcg", "RecBole", case, 2) == row_value("ndcg", "trec_eval 10.0", case, 2)


# TF-Ranking ---------------------------------------------------------------------------------------
# tensorflow/ranking tensorflow_ranking/python/metrics_impl_test.py (test classes named in each row). A list is
# (scores, labels); labels >= 1 are relevant; topn None is the whole list. TF-Ranking's sort shuffles tied scores
# (utils.sort_by_scores, shuffle_ties=True), so its tests use untied scores and the tie convention does not matter.
TF_RATIONAL = [
    ("PrecisionMetricTest.test_precision_should_be_single_value", "precision", "1,3,2", "0,0,1", None, F(1, 3)),
    ("PrecisionMetricTest.test_precision_should_be_single_value_per_list", "precision", "1,3,2,4", "0,0,1,1", None,
     F(2, 4)),
    ("PrecisionMetricTest.test_precision_should_be_single_value_per_list", "precision", "4,1,3,2", "0,0,1,0", None,
     F(1, 4)),
    # topn = 6 on three items: divided by the 3 valid items, not by 6 (trec_eval's P_6 would be 2/6, 1/6, 1/6)
    *[("PrecisionMetricTest.test_precision_should_handle_topn", "precision", "3,2,1", labels, topn, expected)
      for labels, figures in (("1,0,1", (1, F(1, 2), F(2, 3))), ("0,1,0", (0, F(1, 2), F(1, 3))),
                              ("0,0,1", (0, 0, F(1, 3))))
      for topn, expected in zip((1, 2, 6), figures)],
    ("RecallMetricTest.test_recall_should_be_single_value", "recall", "1,3,2", "0,0,1", None, 1),
    *[("RecallMetricTest.test_recall_should_handle_topn", "recall", "1,3,2", "0,0,1", topn, expected)
      for topn, expected in ((1, 0), (2, 1), (6, 1))],
    ("RecallMetricTest.test_recall_should_be_single_value_per_list", "recall", "1,3,2", "1,0,1", 2, F(1, 2)),
    ("RecallMetricTest.test_recall_should_be_single_value_per_list", "recall", "1,3,4", "0,1,1", 2, 1),
    ("MeanAveragePrecisionMetricTest.test_map_should_be_single_value", "ap", "3,2,1", "0,1,0", None, F(1, 2)),
    ("MeanAveragePrecisionMetricTest.test_map_should_treat_graded_relevance_as_binary_relevance", "ap", "3,4,1,2",
     "0,2,1,3", None, (1 + F(2, 3) + F(3, 4)) / 3),
    ("MeanAveragePrecisionMetricTest.test_map_should_be_single_value_per_list", "ap", "1,3,2", "0,0,1", None, F(1, 2)),
    ("MeanAveragePrecisionMetricTest.test_map_should_be_single_value_per_list", "ap", "1,3,2", "0,1,1", None, 1),
    # topn cuts the sum but not the denominator: the relevant labels of the whole list (top 1 of 1,0,2: 1/2)
    *[("MeanAveragePrecisionMetricTest.test_map_should_handle_topn", "ap", "3,2,1", labels, topn, expected)
      for labels, figures in (("1,0,2", (F(1, 2), F(1, 2), (1 + F(2, 3)) / 2)), ("0,1,0", (0, F(1, 2), F(1, 2))),
                              ("0,0,1", (0, 0, F(1, 3))))
      for topn, expected in zip((1, 2, 6), figures)],
    ("MRRMetricTest.test_mrr_should_be_single_value", "rr", "1,3,2", "0,0,1", None, F(1, 2)),
    ("MRRMetricTest.test_mrr_should_be_0_when_no_rel_item_in_topn", "rr", "1,3,2", "0,0,1", 1, 0),
    *[("MRRMetricTest.test_mrr_should_handle_topn", "rr", "3,2,1", labels, topn, expected)
      for labels, figures in (("1,0,0", (1, 1, 1)), ("0,1,0", (0, F(1, 2), F(1, 2))), ("0,0,1", (0, 0, F(1, 3))))
      for topn, expected in zip((1, 2, 6), figures)],
    ("MRRMetricTest.test_mrr_should_give_a_value_for_each_list_in_batch_inputs", "rr", "1,2,3", "0,1,1", None, 1),
    # test_mrr_should_ignore_padded_labels: scores 1,2,3 with labels 0,1,-1; a label < 0 is padding
    # (utils.is_label_valid), so the third item is not in the list at all
    ("MRRMetricTest.test_mrr_should_ignore_padded_labels", "rr", "1,2", "0,1", None, 1),
]


@pytest.mark.parametrize("source, measure, scores, labels, topn, expected", TF_RATIONAL,
                         ids=[f"{s.split('.')[1]}-{labels}-{topn}" for s, _, _, labels, topn, _ in TF_RATIONAL])
def test_tf_ranking_metrics_impl(source, measure, scores, labels, topn, expected):
    assert row_value(measure, "TF-Ranking", Case.from_scores(scores, labels), topn) == expected


TF_NDCG = [
    ("test_ndcg_should_be_single_value", "3,2,1", "0,1,0", None, (1 / log2p1(2)) / (1 / log2p1(1))),
    ("test_ndcg_should_operate_on_graded_relevance", "4,3,2,1", "0,3,1,0", None,
     ((2**3 - 1) / log2p1(2) + 1 / log2p1(3)) / ((2**3 - 1) / log2p1(1) + 1 / log2p1(2))),
    # scores 1,4,3,2 with labels 2,-1,1,0: the padded second item is dropped
    ("test_ndcg_should_ignore_padded_items", "1,3,2", "2,1,0", None,
     ((2**2 - 1) / log2p1(3) + 1 / log2p1(1)) / ((2**2 - 1) / log2p1(1) + 1 / log2p1(2))),
    ("test_ndcg_should_be_single_value_per_list", "3,1,2", "1,1,0", None,
     (1 / log2p1(1) + 1 / log2p1(3)) / (1 / log2p1(1) + 1 / log2p1(2))),
    ("test_ndcg_should_handle_topn", "3,2,1", "1,0,2", 1, (1 / log2p1(1)) / ((2**2 - 1) / log2p1(1))),
    ("test_ndcg_should_handle_topn", "3,2,1", "1,0,2", 2, (1 / log2p1(1)) / ((2**2 - 1) / log2p1(1) + 1 / log2p1(2))),
    ("test_ndcg_should_handle_topn", "3,2,1", "1,0,2", 6,
     (1 / log2p1(1) + (2**2 - 1) / log2p1(3)) / ((2**2 - 1) / log2p1(1) + 1 / log2p1(2))),
    ("test_ndcg_should_handle_topn", "3,2,1", "0,1,0", 1, 0),
    ("test_ndcg_should_handle_topn", "3,2,1", "0,1,0", 2, (1 / log2p1(2)) / (1 / log2p1(1))),
    ("test_ndcg_should_handle_topn", "3,2,1", "0,0,1", 2, 0),
    ("test_ndcg_should_handle_topn", "3,2,1", "0,0,1", 6, (1 / log2p1(3)) / (1 / log2p1(1))),
    ("test_ndcg_should_be_0_when_no_rel_items", "3,2,1", "0,0,0", None, 0),
]


@pytest.mark.parametrize("source, scores, labels, topn, expected", TF_NDCG,
                         ids=[f"{s}-{labels}-{topn}" for s, _, labels, topn, _ in TF_NDCG])
def test_tf_ranking_ndcg_metric(source, scores, labels, topn, expected):
    # NDCGMetricTest in tensorflow_ranking/python/metrics_impl_test.py: default gain 2^label - 1, discount
    # 1/log2(1 + rank), the ideal ranking sorted from the list's own labels and cut at topn
    assert close(row_value("ndcg", "TF-Ranking", Case.from_scores(scores, labels), topn), expected)


# tensorflow/ranking tensorflow_ranking/python/keras/metrics.py, the "Standalone usage" examples of each Keras metric:
# y_true [[0, 1, 1]], y_pred [[3, 1, 2]], and the ragged batch y_true [[0, 1], [1, 2, 0]], y_pred [[2, 1], [2, 5, 4]]
# whose value is the mean over its two lists (per-list weights are 1 with unit example weights).
KERAS_ONE = ("3,1,2", "0,1,1")
KERAS_RAGGED = (("2,1", "0,1"), ("2,5,4", "1,2,0"))
TF_KERAS = [
    ("MRRMetric()", "rr", None, F(1, 2), F(3, 4)),
    ("RecallMetric(topn=2)", "recall", 2, F(1, 2), F(3, 4)),
    ("PrecisionMetric(topn=2)", "precision", 2, F(1, 2), F(1, 2)),
    # MAP@2 of the single list: precision 1/2 at rank 2 over the 2 relevant labels of the whole list
    ("MeanAveragePrecisionMetric(topn=2)", "ap", 2, F(1, 4), F(1, 2)),
    ("NDCGMetric()", "ndcg", None, 0.6934264, 0.7974351),  # printed as float32
]


@pytest.mark.parametrize("source, measure, topn, single, ragged", TF_KERAS, ids=[t[0] for t in TF_KERAS])
def test_tf_ranking_keras_docstring_examples(source, measure, topn, single, ragged):
    one = row_value(measure, "TF-Ranking", Case.from_scores(*KERAS_ONE), topn)
    batch = mean(row_value(measure, "TF-Ranking", Case.from_scores(*lst), topn) for lst in KERAS_RAGGED)
    if isinstance(single, float):
        assert abs(exact.to_float(one) - single) < 1e-6 and abs(exact.to_float(batch) - ragged) < 1e-6
    else:
        assert (one, batch) == (single, ragged)


def test_tf_ranking_differs_from_trec_eval_past_the_end_and_in_the_gain():
    # PrecisionMetricTest.test_precision_should_handle_topn, labels 1,0,1 at topn 6: 2/3, where trec_eval's P_6 is 2/6
    case = Case.from_scores("3,2,1", "1,0,1")
    assert row_value("precision", "TF-Ranking", case, 6) == F(2, 3)
    assert row_value("precision", "trec_eval 10.0", case, 6) == F(1, 3)
    # NDCGMetricTest.test_ndcg_should_operate_on_graded_relevance: the exponential gain, where trec_eval's is linear
    case = Case.from_scores("4,3,2,1", "0,3,1,0")
    assert close(row_value("ndcg", "trec_eval 10.0", case), (3 / log2p1(2) + 1 / log2p1(3)) / (3 + 1 / log2p1(2)))
    assert row_value("ndcg", "TF-Ranking", case) != row_value("ndcg", "trec_eval 10.0", case)


# ranx ---------------------------------------------------------------------------------------------
# AmenRa/ranx tests/unit/ranx/metrics_test.py: qrels are (doc id, grade) pairs, a run is (doc id, score) pairs in rank
# order; in test_ndcg_jarvelin / test_ndcg_burges every retrieved document has the score 1, so the order they are
# given in (input order) is the ranking. The same input under trec_eval's tie rule (docno descending) ranks
# differently, which is the difference the explorer's ranx row names.
RANX_QRELS = {"2": 5, "4": 4, "5": 3, "10": 2}
RANX_RUNS = (("1", "2", "3", "4", "5"),   # y_pred_1: rel = 0, 5, 0, 4, 3
             ("10", "5", "2", "4", "3"),  # y_pred_2: rel = 2, 3, 5, 4, 0
             ("1", "3", "6", "7", "8"))   # y_pred_3: rel = 0, 0, 0, 0, 0


def ranx_case(docs, qrels=RANX_QRELS):
    grades = [qrels.get(d, 0) for d in docs]
    unretrieved = tuple(g for d, g in qrels.items() if d not in docs)
    return Case.from_scores(",".join("1" for _ in docs), grades, docnos=",".join(docs), unretrieved=unretrieved)


def _dcg(gains, discount_ranks):
    return sum(g / math.log2(r) for g, r in zip(gains, discount_ranks))


RANX_NDCG = {  # the expected values of test_ndcg_jarvelin and test_ndcg_burges, k = 10
    "ranx": ((5 / math.log2(3) + 4 / math.log2(5) + 3 / math.log2(6)) / _dcg((5, 4, 3, 2), (2, 3, 4, 5)),
             (2 / math.log2(2) + 3 / math.log2(3) + 5 / math.log2(4) + 4 / math.log2(5)) / _dcg((5, 4, 3, 2),
                                                                                              (2, 3, 4, 5)),
             0.0),
    "ranx (ndcg_burges)": (
        ((2**5 - 1) / math.log2(3) + (2**4 - 1) / math.log2(5) + (2**3 - 1) / math.log2(6))
        / _dcg((2**5 - 1, 2**4 - 1, 2**3 - 1, 2**2 - 1), (2, 3, 4, 5)),
        ((2**2 - 1) / math.log2(2) + (2**3 - 1) / math.log2(3) + (2**5 - 1) / math.log2(4) + (2**4 - 1) / math.log2(5))
        / _dcg((2**5 - 1, 2**4 - 1, 2**3 - 1, 2**2 - 1), (2, 3, 4, 5)),
        0.0),
}


@pytest.mark.parametrize("tool", sorted(RANX_NDCG))
@pytest.mark.parametrize("run", range(3))
def test_ranx_ndcg_jarvelin_and_burges(tool, run):
    assert close(row_value("ndcg", tool, ranx_case(RANX_RUNS[run]), 10), RANX_NDCG[tool][run])


def test_ranx_ties_keep_the_input_order_where_trec_eval_sorts_by_docno():
    # y_pred_1 of test_ndcg_jarvelin: trec_eval orders the five tied documents 5, 4, 3, 2, 1 (grades 3, 4, 0, 5, 0)
    case = ranx_case(RANX_RUNS[0])
    ideal = _dcg((5, 4, 3, 2), (2, 3, 4, 5))
    assert close(row_value("ndcg", "trec_eval 10.0", case, 10), (3 + 4 / math.log2(3) + 5 / math.log2(5)) / ideal)
    assert close(row_value("ndcg", "ranx", case, 10), RANX_NDCG["ranx"][0])
    # test_recall_single: qrels 1, 2, 3; run 2, 4, 3, 1, 5, 6, 7 (scores all 1); recall@2 = 1/3.
    # trec_eval's docno order puts 7, 6 first: recall@2 = 0
    case = ranx_case(("2", "4", "3", "1", "5", "6", "7"), {"1": 1, "2": 1, "3": 1})
    assert row_value("recall", "ranx", case, 2) == F(1, 3)
    assert row_value("recall", "trec_eval 10.0", case, 2) == 0
    # test_reciprocal_rank_single: qrels 3; run 2, 3, 1, 4, 5; RR@5 = 0.5 (trec_eval's docno order: 1/3)
    case = ranx_case(("2", "3", "1", "4", "5"), {"3": 1})
    assert row_value("rr", "ranx", case, 5) == F(1, 2)
    assert row_value("rr", "trec_eval 10.0", case, 5) == F(1, 3)
    # test_reciprocal_rank_single_no_match: qrels 3; run 2, 1, 4, 5; RR@5 = 0
    assert row_value("rr", "ranx", ranx_case(("2", "1", "4", "5"), {"3": 1}), 5) == 0


# BEIR ---------------------------------------------------------------------------------------------
def test_beir_capped_recall_maintainers_example():
    # BEIR has no unit test of recall_cap (beir/retrieval/custom_metrics.py); its figure is the maintainer's
    # example in beir-cellar/beir issue #4 (TREC-COVID, Thakur et al. 2021, Table 8): a run whose top 100 are all
    # relevant, for a topic with about 500 relevant documents, has recall@100 = 100/500 = 0.2 in pytrec_eval and
    # capped recall 100/min(500, 100) = 1
    case = Case.from_ranking(Ranking.parse("R" * 100, relevant=500))
    assert row_value("recall", "BEIR (R_cap@k)", case, 100) == 1
    assert row_value("recall", "trec_eval 9 (pytrec_eval)", case, 100) == F(1, 5)


# torchmetrics -------------------------------------------------------------------------------------
def test_torchmetrics_functional_docstring_examples():
    # Lightning-AI/torchmetrics src/torchmetrics/functional/retrieval/recall.py, retrieval_recall's example:
    # preds [0.2, 0.3, 0.5], target [True, False, True], top_k=2 -> tensor(0.5000)
    assert row_value("recall", "torchmetrics", Case.from_scores("0.2,0.3,0.5", "1,0,1"), 2) == F(1, 2)
    # .../functional/retrieval/reciprocal_rank.py, retrieval_reciprocal_rank's example:
    # preds [0.2, 0.3, 0.5], target [False, True, False] -> tensor(0.5000)
    assert row_value("rr", "torchmetrics", Case.from_scores("0.2,0.3,0.5", "0,1,0")) == F(1, 2)
    # .../functional/retrieval/precision_recall_curve.py, retrieval_precision_recall_curve's example, max_k=2:
    # precisions tensor([1.0000, 0.5000]), recalls tensor([0.5000, 0.5000]) at top_k tensor([1, 2])
    case = Case.from_scores("0.2,0.3,0.5", "1,0,1")
    assert [row_value("precision", "torchmetrics", case, k) for k in (1, 2)] == [1, F(1, 2)]
    assert [row_value("recall", "torchmetrics", case, k) for k in (1, 2)] == [F(1, 2), F(1, 2)]
    # (retrieval_precision, retrieval_average_precision and retrieval_normalized_dcg: tests/test_explorer.py)


# The module metrics' docstring examples (src/torchmetrics/retrieval/*.py) average two queries given by ``indexes``:
# indexes [0, 0, 0, 1, 1, 1, 1], preds [0.2, 0.3, 0.5, 0.1, 0.3, 0.5, 0.2], target [F, F, T, F, T, F, T].
QUERIES = (("0.2,0.3,0.5", "0,0,1"), ("0.1,0.3,0.5,0.2", "0,1,0,1"))
TORCHMETRICS_MODULES = [
    ("average_precision.py RetrievalMAP()", "ap", None, "0.7917"),
    ("reciprocal_rank.py RetrievalMRR()", "rr", None, "0.7500"),
    ("precision.py RetrievalPrecision(k=2)", "precision", 2, "0.5000"),
    ("recall.py RetrievalRecall(top_k=2)", "recall", 2, "0.7500"),
    ("ndcg.py RetrievalNormalizedDCG()", "ndcg", None, "0.8467"),
]


@pytest.mark.parametrize("source, measure, k, expected", TORCHMETRICS_MODULES,
                         ids=[source.split()[1] for source, *_ in TORCHMETRICS_MODULES])
def test_torchmetrics_module_docstring_examples(source, measure, k, expected):
    values = [row_value(measure, "torchmetrics", Case.from_scores(*query), k) for query in QUERIES]
    assert printed(mean(values)) == expected


def test_torchmetrics_module_examples_exactly():
    # the same docstring inputs, exactly: MAP (1 + (1/2 + 2/3)/2)/2 = 19/24 ≈ 0.7917; MRR (1 + 1/2)/2; R@2 (1 + 1/2)/2
    assert mean(row_value("ap", "torchmetrics", Case.from_scores(*q)) for q in QUERIES) == F(19, 24)
    assert mean(row_value("rr", "torchmetrics", Case.from_scores(*q)) for q in QUERIES) == F(3, 4)
    assert mean(row_value("recall", "torchmetrics", Case.from_scores(*q), 2) for q in QUERIES) == F(3, 4)
    ndcg = mean(row_value("ndcg", "torchmetrics", Case.from_scores(*q)) for q in QUERIES)
    assert close(ndcg, (1 + (1 / L3 + 1 / 2) / (1 + 1 / L3)) / 2)


def test_torchmetrics_top_k_maintainers_figures():
    # Lightning-AI/torchmetrics issue #1952: with v1.0.1 the maintainer gets tensor(0.5000) for RetrievalNormalizedDCG
    # and RetrievalRecall at top_k = 1 and 2 on indexes [0,0,0,1,1,1,1,1], preds [.2,.3,.5,.1,.3,.5,.2,.7],
    # target [F,F,T,F,T,F,T,F] (query 1 puts its two relevant documents at ranks 3 and 4)
    queries = (("0.2,0.3,0.5", "0,0,1"), ("0.1,0.3,0.5,0.2,0.7", "0,1,0,1,0"))
    for measure in ("ndcg", "recall"):
        for k in (1, 2):
            assert mean(row_value(measure, "torchmetrics", Case.from_scores(*q), k) for q in queries) == F(1, 2)


@pytest.mark.parametrize("shift", ["0.0", "-0.3", "-0.4", "-0.9", "-1.0"])
def test_torchmetrics_score_shift_invariance(shift):
    # Lightning-AI/torchmetrics tests/unittests/retrieval/test_score_shift.py,
    # test_retrieval_metrics_are_invariant_to_score_shifts: preds [0.9, 0.5, 0.3, 0.1] + shift, target [1, 0, 1, 0]:
    # AP 5/6, RR 1, P@2 0.5, R@2 0.5 whatever the shift — a document scored <= 0 is still ranked (unlike the
    # preds > 0 masks of torchmetrics PR #3160; see the report on issue 15)
    scores = [F(s) + F(shift) for s in ("0.9", "0.5", "0.3", "0.1")]
    case = Case.from_scores(scores, "1,0,1,0")
    assert row_value("ap", "torchmetrics", case) == F(5, 6)
    assert row_value("rr", "torchmetrics", case) == 1
    assert row_value("precision", "torchmetrics", case, 2) == F(1, 2)
    assert row_value("recall", "torchmetrics", case, 2) == F(1, 2)


def test_torchmetrics_empty_target_action_default():
    # src/torchmetrics/retrieval/base.py, RetrievalMetric: a query without a positive target counts as 0.0 under the
    # default empty_target_action='neg' (the functional metrics return tensor(0.0) too)
    case = Case.from_scores("0.2,0.3,0.5", "0,0,0")
    for measure, k in (("precision", 2), ("recall", 2), ("ap", None), ("rr", None), ("ndcg", None)):
        assert row_value(measure, "torchmetrics", case, k) == 0, measure


@pytest.mark.parametrize("scores, expected", [("1,1,1,1,1", 0.690979), ("1,1,1,0.5,0.5", 0.699812)])
def test_torchmetrics_tie_averaged_ndcg(scores, expected):
    # torchmetrics' own ndcg test (tests/unittests/retrieval/test_ndcg.py, _ndcg_at_k) takes sklearn.metrics.ndcg_score
    # as the reference, and functional/retrieval/ndcg.py ports its _tie_average_dcg. The figures are ndcg_score's for
    # target [10, 0, 0, 1, 5] with every score tied and with two tied groups, printed to 6 decimals in
    # elixir-nx/scholar issue #360; scikit-learn's row must give them too
    case = Case.from_scores(scores, "10,0,0,1,5")
    for tool in ("torchmetrics", "scikit-learn"):
        assert abs(exact.to_float(row_value("ndcg", tool, case)) - expected) < 5e-7, tool
    # the untied reference of the same issue: ndcg_score 0.695694 for preds [0.1, 0.2, 0.3, 4, 70]
    untied = row_value("ndcg", "torchmetrics", Case.from_scores("0.1,0.2,0.3,4,70", "10,0,0,1,5"))
    assert abs(exact.to_float(untied) - 0.695694) < 5e-7
