"""Adversarial review (session 41) of an evaluation's per-topic dicts made when first read (d8224ca): a result
pickled under every protocol before its per_topic is read, copied, or rebuilt with dataclasses.replace, equals the
result whose per_topic was read at once, and shows the same per-topic values."""

from __future__ import annotations

import copy
import dataclasses
import pickle

import pytest

from irlab.trec.evaluate import evaluate

QRELS = "1 0 d1 1\n1 0 d2 0\n1 0 d3 2\n2 0 d1 1\n2 0 d9 1\n"
RUN = "1 Q0 d1 1 3.0 r\n1 Q0 d2 2 2.0 r\n1 Q0 d4 3 1.0 r\n2 Q0 d9 1 5.0 r\n2 Q0 d7 2 4.0 r\n"
MEASURES = ["map", "P.2", "num_ret", "relstring"]


@pytest.fixture
def files(tmp_path):
    (tmp_path / "qrels").write_text(QRELS, encoding="utf-8")
    (tmp_path / "run").write_text(RUN, encoding="utf-8")
    return tmp_path / "qrels", tmp_path / "run"


def _read_at_once(files):
    result = evaluate(*files, measures=MEASURES)
    assert result.per_topic["1"]["num_ret"] == 3 and result.per_topic["2"]["P_2"] == 0.5  # by hand
    assert result.per_topic["1"]["map"] == pytest.approx((1 + 0) / 2)  # d1 at rank 1 of R = 2 (d1, d3)
    return result


@pytest.mark.parametrize("protocol", range(pickle.HIGHEST_PROTOCOL + 1))
def test_a_result_pickled_before_its_per_topic_is_read_equals_the_one_read_at_once(files, protocol):
    expected = _read_at_once(files)
    unread = evaluate(*files, measures=MEASURES)
    again = pickle.loads(pickle.dumps(unread, protocol=protocol))
    assert again == expected and again.per_topic == expected.per_topic and type(again.per_topic) is dict


def test_a_result_copied_or_replaced_before_its_per_topic_is_read_equals_the_one_read_at_once(files):
    expected = _read_at_once(files)
    for made in (lambda r: copy.copy(r), lambda r: copy.deepcopy(r), lambda r: dataclasses.replace(r, runid="x"),
                 lambda r: r):
        result = made(evaluate(*files, measures=MEASURES))
        assert result.per_topic == expected.per_topic
        assert dataclasses.asdict(result)["per_topic"] == expected.per_topic
    assert [field.name for field in dataclasses.fields(expected)][0] == "per_topic"
