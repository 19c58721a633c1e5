"""Intent-aware metrics over several queries (each query's value, then the mean, as ndeval's amean and TF-Ranking's
mean over lists) and TF-Ranking's graded per-subtopic labels for α-DCG: its documented values, pyndeval (ndeval
4.5's C code) on generated multi-query cases, exercise sets and the five formats."""

from __future__ import annotations

import json
import math
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from irlab.exact import to_float
from irlab.errors import InputTypeError, IrlabError, ParameterError
from irlab.metrics.diversity import (IntentRanking, alpha_dcg, alpha_ndcg, err_ia, intent_mean, nerr_ia, precision_ia,
                                     subtopic_recall)

pyndeval = pytest.importorskip("pyndeval")
L3 = math.log2(3)


# -- TF-Ranking's AlphaDCGMetric (tfr.keras.metrics.AlphaDCGMetric, its documented standalone usage) --------------------
# y_true = [[[0, 1], [1, 0], [1, 1]]], y_pred = [[3, 1, 2]]: by score the documents are [0,1], [1,1], [1,0], i.e.
# subtopic 2; 1+2; 1. Gains 1; 1 + 1/2; 1/2 (α = 1/2): 1 + (3/2)/log2(3) + (1/2)/2 = 2.1963947.
# Ragged: list 1 [[0,0],[1,0]] by [2,1]: -, 1: 1/log2(3); list 2 [[1,1],[0,2],[1,0]] by [2,5,4]: 2:2 (grade 2 for
# subtopic 2), 1, 1+2: gains 2; 1; 1·(1/2)^1 + 1·(1/2)^2 = 3/4; the mean of the two lists is 1.8184297.

def test_tf_rankings_documented_alpha_dcg_values():
    single = alpha_dcg(IntentRanking.parse("2 1+2 1"), diversity_normalisation="raw")
    assert float(single) == pytest.approx(1 + 1.5 / L3 + 0.25, abs=1e-12)
    assert round(float(single), 7) == 2.1963946  # TF-Ranking prints float32 2.1963947
    second = alpha_dcg(IntentRanking.parse("2:2 1 1+2"))
    assert float(second) == pytest.approx(2 + 1 / L3 + Fraction(3, 4) / 2, abs=1e-12)
    ragged = intent_mean("alpha-dcg", ["- 1", "2:2 1 1+2"], diversity_normalisation="raw")
    assert float(ragged) == pytest.approx(1.8184297, abs=1e-7)
    assert float(ragged) == pytest.approx((1 / L3 + 2 + 1 / L3 + 3 / 8) / 2, abs=1e-12)


def test_a_grade_multiplies_the_gain_and_adds_to_the_count():
    # "1:3 1 1:2": c_1 = 0, 3, 4; gains 3, (1/2)^3, 2 · (1/2)^4 = 1/8, 1/8; α = 1/4: 3, (3/4)^3, 2 (3/4)^4
    ranking = IntentRanking.parse("1:3 1 1:2")
    assert float(alpha_dcg(ranking)) == pytest.approx(3 + 0.125 / L3 + 0.125 / 2, abs=1e-12)
    quarter = alpha_dcg(ranking, alpha=Fraction(1, 4))
    assert float(quarter) == pytest.approx(3 + (27 / 64) / L3 + 2 * (81 / 256) / 2, abs=1e-12)
    # grade 1 written is binary: the same value as Clarke et al.'s, with ndeval's normalisation allowed
    assert alpha_dcg(IntentRanking.parse("1:1+2 2")).value == alpha_dcg(IntentRanking.parse("1+2 2")).value


def test_graded_labels_are_explained_and_refused_where_the_source_has_none():
    result = alpha_dcg(IntentRanking.parse("2:2 1 1+2"))
    text = result.render("text")
    assert "TF-Ranking" in text and "2·1" in text and "2:2" in text and "diversity_normalisation = raw" in text
    for fmt in ("markdown", "latex", "html"):
        assert "y_{i,s}" in result.render(fmt) or "y_{i, s}" in result.render(fmt) or "y<sub>" in result.render(fmt)
    assert json.loads(result.render("json"))
    with pytest.raises(ParameterError, match="diversity_normalisation = raw"):
        alpha_dcg(IntentRanking.parse("1:2"), diversity_normalisation="ndeval")
    for metric in (alpha_ndcg, err_ia, nerr_ia, subtopic_recall, precision_ia):
        with pytest.raises(ParameterError, match="alpha-dcg alone"):
            metric(IntentRanking.parse("1:2 1"))
    for bad, named in (("1:0", "leave a subtopic out"), ("1:21", "MAX_GRADE"), ("1:x", "integer"), (":2", "subtopic id"),
                       ("1:2+1", "twice")):
        with pytest.raises(ParameterError, match=named):
            IntentRanking.parse(bad)


# -- several queries --------------------------------------------------------------------------------------------------

def test_the_mean_shows_each_query_then_the_mean():
    # q1 "1+2 - 2": P-IA@3 = 3 / (3 · 2) = 1/2; q2 "1 2 -": 2 / (3 · 2) = 1/3; mean 5/12
    result = intent_mean("p-ia", ["1+2 - 2", "1 2 -"], k=3)
    assert result.value == Fraction(5, 12)
    text = result.render("text")
    assert text.index("Per query") < text.index("Query q1") < text.index("Query q2")
    assert "ndeval's amean" in text and "1/2" in text and "1/3" in text
    for fmt in ("markdown", "latex", "html", "json"):
        assert result.render(fmt)
    assert intent_mean(alpha_ndcg, [IntentRanking.parse("1+2 2 1")], k=3).value == 1
    assert intent_mean("strec", ["1 -", "- -"], labels=["701", "702"], k=2).value == Fraction(1, 2)


def test_bad_means_are_one_clear_error():
    with pytest.raises(ParameterError, match="averages one of"):
        intent_mean("ndcg", ["1"])
    with pytest.raises(InputTypeError, match="list of rankings"):
        intent_mean("p-ia", "1+2 -")
    with pytest.raises(ParameterError, match="at least one query"):
        intent_mean("p-ia", [])


MEASURES = {"alpha-nDCG": "alpha-ndcg", "alpha-DCG": "alpha-dcg", "ERR-IA": "err-ia", "nERR-IA": "nerr-ia",
            "strec": "strec", "P-IA": "p-ia"}
DOCNOS = st.text("abcxyz019", min_size=1, max_size=3)


@st.composite
def queries(draw):
    """2..4 topics: each its judgments {docno: {subtopic: grade}} and a run of 1..12 documents (some unjudged)."""
    topics = []
    for _ in range(draw(st.integers(2, 4))):
        subtopics = [str(s) for s in range(1, draw(st.integers(1, 4)) + 1)]
        judged = draw(st.lists(DOCNOS, min_size=1, max_size=10, unique=True))
        judgments = {d: draw(st.dictionaries(st.sampled_from(subtopics), st.integers(0, 2), min_size=1)) for d in judged}
        unjudged = draw(st.lists(DOCNOS.map(lambda d: "u" + d), max_size=3, unique=True))
        run = draw(st.permutations(judged + unjudged))[: draw(st.integers(1, 12))]
        topics.append((run, judgments))
    return topics


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(topics=queries(), alpha=st.sampled_from([Fraction(1, 2), Fraction(1, 4)]), k=st.sampled_from([3, 5, 10]))
def test_the_mean_over_queries_equals_pyndeval(topics, alpha, k):
    qrels, run, rankings = [], [], []
    for number, (docnos, judgments) in enumerate(topics, 1):
        qid = f"q{number}"
        qrels += [(qid, s, d, grade) for d, grades in judgments.items() for s, grade in grades.items()]
        run += [(qid, d, float(len(docnos) - i)) for i, d in enumerate(docnos)]  # scores keep the rank order
        rankings.append(IntentRanking.from_qrels(docnos, judgments))
    oracle = pyndeval.ndeval(qrels, run, measures=[f"{m}@{k}" for m in MEASURES], alpha=float(alpha))
    for theirs, ours in MEASURES.items():
        options = {"k": k} if ours in ("strec", "p-ia") else {"k": k, "alpha": alpha}
        result = intent_mean(ours, rankings, **options)
        per_query = [oracle[f"q{n}"][f"{theirs}@{k}"] for n in range(1, len(topics) + 1)]
        assert [to_float(row[1]) for row in result.tables[0].rows] == pytest.approx(per_query, abs=1e-9), theirs
        assert float(result) == pytest.approx(sum(per_query) / len(per_query), abs=1e-9), theirs


# -- exercise sets ----------------------------------------------------------------------------------------------------

def _solve(tmp_path, text):
    from irlab.exercise_set import Where, load, solve, solve_question

    path = tmp_path / "set.toml"
    path.write_text(text)
    exercise = load(str(path)).exercises[0]
    assert solve(str(path)).render("text")
    return [solve_question(dict(exercise.parameters), q, Where(str(path), exercise.id, q.id)).answers[0].value
            for q in exercise.questions]


SET = '''title = "Diversity over queries"
[[exercise]]
id = "1"
statement = "Two queries, judged per subtopic: {intents}."
[exercise.parameters]
intents = ["1+2 - 2", "1 2 -"]
unretrieved_intents = ["3", ""]
[[exercise.question]]
id = "a"
solver = "p-ia"
k = 3
[[exercise.question]]
id = "b"
solver = "strec"
k = 3
'''


def test_an_exercise_set_averages_intent_aware_metrics_over_queries(tmp_path):
    # q1 has subtopic 3 only unretrieved: S = 3, P-IA@3 = 3 / 9 = 1/3, strec 2/3; q2: 1/3 and 1; means 1/3 and 5/6
    assert _solve(tmp_path, SET) == [Fraction(1, 3), Fraction(5, 6)]
    graded = SET.replace('["1+2 - 2", "1 2 -"]', '["- 1", "2:2 1 1+2"]').replace('["3", ""]', '["", ""]')
    graded = graded.replace('solver = "p-ia"\nk = 3', 'solver = "alpha-dcg"').replace('solver = "strec"\nk = 3',
                                                                                       'solver = "alpha-dcg"\nk = 1')
    values = _solve(tmp_path, graded)
    assert to_float(values[0]) == pytest.approx(1.8184297, abs=1e-7) and values[1] == 1  # @1: (0 + 2) / 2
    for bad, named in (('unretrieved_intents = ["3", ""]', 'unretrieved_intents = ["3"]'),
                       ('unretrieved_intents = ["3", ""]', 'unretrieved_intents = "3"'),
                       ('intents = ["1+2 - 2", "1 2 -"]', 'intents = []'),
                       ('intents = ["1+2 - 2", "1 2 -"]', 'intents = ["1+2", "x?"]')):
        with pytest.raises(IrlabError, match="intents"):
            _solve(tmp_path, SET.replace(bad, named))
