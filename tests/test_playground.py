"""The ranking playground (irlab/playground.py), driven through its widgets as a student would.

Every value is computed by hand in the comments; the widgets' values are set and their buttons clicked.
"""

import math
from fractions import Fraction

import pytest

from irlab.errors import ParameterError
from irlab.playground import PlaygroundState

widgets = pytest.importorskip("ipywidgets", reason="the playground's widgets need ipywidgets (the [test] extra)")
from irlab.playground import RankingPlayground  # noqa: E402


def value(playground):
    return playground.state.result().value


def test_buttons_and_cutoff_change_precision():
    play = RankingPlayground([1, 0, 1, 0, 0, 1, 0, 0], measure="P@k")  # RNRNNRNN
    assert value(play) == Fraction(3, 8)
    assert [b.description for b in play.judgment_buttons] == list("RNRNNRNN")
    play.k.value = 3  # R N R: 2 of 3
    assert value(play) == Fraction(2, 3) and "P@3 = 2/3" in play.status.value
    play.judgment_buttons[1].click()  # rank 2 becomes relevant: R R R
    assert play.state.grades[:3] == [1, 1, 1] and value(play) == 1
    assert play.judgment_buttons[1].description == "R"
    play.down_buttons[0].click()  # R R R stays R R R (two relevant swap)
    play.up_buttons[5].click()  # the relevant document at rank 6 moves to rank 5
    assert play.state.grades == [1, 1, 1, 0, 1, 0, 0, 0]
    play.up_buttons[0].click()  # nothing above rank 1
    play.down_buttons[7].click()  # nothing below rank 8
    assert play.state.grades == [1, 1, 1, 0, 1, 0, 0, 0]
    play.k.value = 8  # the whole list: 4 of 8
    assert value(play) == Fraction(1, 2) and play.state.k is None


def test_missed_documents_make_r_and_recall():
    play = RankingPlayground([1, 0, 1, 0], measure="R@k")
    assert value(play) == 1  # R assumed to be the 2 relevant retrieved
    play.missed.value = "1, 1"  # two more relevant documents never retrieved: R = 4
    assert value(play) == Fraction(1, 2)
    play.measure.value = "AP"  # (1/1 + 2/3) / 4 = 5/12
    assert value(play) == Fraction(5, 12)
    assert play.gain.disabled and play.discount.disabled
    play.measure.value = "RR"
    assert value(play) == 1


def test_gain_and_discount_change_ndcg():
    play = RankingPlayground([0, 1], measure="nDCG", gain="linear", discount="log2-rank")
    # Järvelin & Kekäläinen: DCG = 0 + 1/log2(2) = 1, the ideal [1, 0] has DCG 1: nDCG = 1
    assert value(play) == 1
    assert not play.gain.disabled
    play.discount.value = "log2-rank-plus-1"  # DCG = 1/log2(3), IDCG = 1/log2(2) = 1
    assert float(play.state.result()) == pytest.approx(1 / math.log2(3))
    play2 = RankingPlayground([2, 0, 1], measure="nDCG", gain="exp", discount="log2-rank-plus-1")
    # DCG = 3/1 + 0 + 1/2 = 7/2; ideal [2, 1, 0]: 3 + 1/log2(3)
    assert float(play2.state.result()) == pytest.approx(3.5 / (3 + 1 / math.log2(3)))
    play2.gain.value = "linear"  # DCG = 2 + 1/2; IDCG = 2 + 1/log2(3)
    assert float(play2.state.result()) == pytest.approx(2.5 / (2 + 1 / math.log2(3)))
    play2.judgment_buttons[1].click()  # grade 0 -> 1 (grades go 0, 1, 2, 0): [2, 1, 1] is ideal
    assert play2.state.grades == [2, 1, 1] and value(play2) == 1
    play2.judgment_buttons[0].click()  # 2 -> 0
    assert play2.state.grades == [0, 1, 1] and play2.judgment_buttons[0].description == "0"


def test_bad_input_is_a_message_not_a_traceback():
    play = RankingPlayground([1, 0, 1], measure="AP")
    play.missed.value = "x"
    assert "missed relevant documents are grades separated by commas" in play.status.value
    assert "class='error'" in play.view.value
    play.missed.value = "0"
    assert "at least 1" in play.status.value
    play.missed.value = ""
    assert value(play) == Fraction(5, 6) and "AP = 5/6" in play.status.value  # (1/1 + 2/3) / 2
    play.measure.value = "nDCG"
    play.missed.value = "2"  # the missed document's grade enters the ideal ranking: IDCG of [2, 1, 1]
    assert float(play.state.result()) < 1


def test_text_output_is_the_summary_so_stored_notebooks_stay_stable():
    play = RankingPlayground([1, 0], measure="P@k")
    bundle = play._repr_mimebundle_()
    assert bundle["text/plain"] == "<RankingPlayground ranking 1,0: <Result P = 1/2 = 0.5>>"
    assert "application/vnd.jupyter.widget-view+json" in bundle


def test_state_refuses_bad_arguments():
    with pytest.raises(ParameterError, match="measure must be one of P@k, R@k, AP, RR, DCG, nDCG, got 'MAP'"):
        PlaygroundState([1], measure="MAP")
    with pytest.raises(ParameterError, match="at least one document"):
        PlaygroundState([])
    with pytest.raises(ParameterError, match="rank must be between 1 and 2, got 3"):
        PlaygroundState([1, 0]).toggle(3)
