"""Adversarial review of dcg.py's shared divisor nodes (one unnamed log2(i + 1) or rank node serves every DCG and
IDCG term with that divisor, across explanations): nothing built later may name, label or change a shared node, so
an explanation reads the same after any number of others were built, and its value is the textbook one.

Reference: the same result rendered before and after other explanations are built, and DCG summed in floats with
math.log (an independent implementation)."""

import math

import pytest

from irlab import Ranking
from irlab.metrics.dcg import _divided, _divisor, dcg, ndcg
from irlab.trace import steps

FORMATS = ("text", "markdown", "latex", "html", "json")
RANKINGS = [([3, 3, 2, 2, 0, 1], None), ([1, 1, 1, 1], [1, 1, 1, 1]), ([2, 0, 2, 0, 2], [3, 2, 2, 2, 1]),
            ([0, 0, 1], None), ([2] * 12, [5] * 6 + [4] * 6)]
CONVENTIONS = [{}, {"gain": "linear"}, {"discount": "log2-rank"}, {"discount": "reciprocal-rank"}, {"log_base": 3},
               {"gains": "1=3.5,2=-1"}, {"ties": "tie-averaged"}]


def _results():
    for grades, scores in RANKINGS:
        ranking = Ranking.from_grades(grades, scores=scores, unretrieved=(2, 1))
        for options in CONVENTIONS:
            if "ties" in options and scores is None:
                continue
            for metric in (dcg, ndcg):
                yield metric(ranking, k=5, **options)


def test_an_explanation_reads_the_same_after_others_share_its_divisors():
    _divided.cache_clear(), _divisor.cache_clear()
    first = [(result, [result.render(fmt) for fmt in FORMATS]) for result in _results()]
    for _ in range(2):  # every divisor node now serves several explanations
        for result in _results():
            [result.render(fmt) for fmt in FORMATS]
            steps(result.traced)
    for result, rendered in first:
        assert [result.render(fmt) for fmt in FORMATS] == rendered
    shared = [_divisor(n, base, logarithm) for n in range(1, 14) for base in (2, 3) for logarithm in (True, False)]
    assert all(node.symbol is None and node.label is None and node.note is None for node in shared)


@pytest.mark.parametrize("grades", [[3, 3, 2, 2, 0, 1], [1, 1, 1, 1], [2, 0, 2, 0, 2]])
def test_repeated_grades_give_the_textbook_dcg(grades):
    expected = sum((2**g - 1) / math.log2(i + 1) for i, g in enumerate(grades[:5], 1))
    ideal = sorted(grades + [2, 1], reverse=True)[:5]
    ideal_dcg = sum((2**g - 1) / math.log2(i + 1) for i, g in enumerate(ideal, 1))
    ranking = Ranking.from_grades(grades, unretrieved=(2, 1))
    assert float(dcg(ranking, k=5)) == pytest.approx(expected, rel=1e-12)
    assert float(ndcg(ranking, k=5)) == pytest.approx(expected / ideal_dcg, rel=1e-12)
