"""Issue 28, item 7: every --scores is read by one reader (irlab.ranking.parse_scores), which refuses a score that is
not a finite number of at most MAX_DIGITS digits before anything is computed. ``irlab conventions`` read its
--scores with a reader of its own, which built 10^9999 (a traceback when printed) and 10^999999999 (a hang)."""

import subprocess
import sys
from fractions import Fraction

import pytest

from irlab.errors import IrlabError
from irlab.explorer import Case
from irlab.ranking import Ranking, parse_scores

HOSTILE = ["1e9999", "1e999999999", "-1e999999999", "inf", "-inf", "nan", "1e999", "x"]


@pytest.mark.parametrize("score", HOSTILE)
def test_conventions_refuses_a_score_that_is_not_a_finite_number(cli, score):
    done = cli("conventions", "ndcg", f"--scores={score},1,1,1", "--grades", "1,0,2,1")
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith("irlab: error: score 1 ") and "Traceback" not in done.stderr
    shown = "more than 15 digits" if score == "1e999" else f"must be a finite number such as 0.8, got '{score}'"
    assert shown in done.stderr


@pytest.mark.parametrize("score", HOSTILE)
def test_explain_gives_the_same_refusal_at_its_rank(cli, score):
    done = cli("explain", "ndcg", "RNRR", f"--scores=1,1,{score},1")
    assert done.returncode == 2 and done.stderr.startswith("irlab: error: the score at rank 3 ")


def test_the_huge_exponent_is_refused_in_a_fresh_process_without_building_the_number():
    # the old reader computed 10**999999999 and never returned; a generous timeout makes a regression fail, not hang
    done = subprocess.run([sys.executable, "-m", "irlab", "conventions", "ndcg", "--scores=1e999999999,1,1,1",
                           "--grades", "1,0,2,1"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    assert done.stderr == "irlab: error: score 1 must be a finite number such as 0.8, got '1e999999999'\n"


def test_float_infinity_and_nan_in_a_python_list_are_refused():
    for bad in (float("inf"), float("-inf"), float("nan")):
        with pytest.raises(IrlabError, match="score 2 must be a finite number"):
            Case.from_scores([0.5, bad, 0.1], "1,0,1")


def test_one_reader_gives_explain_and_the_explorer_the_same_exact_scores():
    # 0.1 is 1/10 whether written or a float; 1/3 and 25% as parse_number reads them; '|' ';' and spaces separate
    text = "0.9, 0.5;0.5|1/3 25% 0.1"
    expected = (Fraction(9, 10), Fraction(1, 2), Fraction(1, 2), Fraction(1, 3), Fraction(1, 4), Fraction(1, 10))
    assert parse_scores(text) == expected
    assert Case.from_scores(text, "2,0,1,1,0,1").scores == expected
    assert Case.from_scores([0.9, 0.5, 0.5, Fraction(1, 3), 0.25, 0.1], "2,0,1,1,0,1").scores == expected
    assert Ranking.parse("RNRRNR", scores=text).scores == expected


def test_the_explorer_keeps_the_order_given_and_explain_still_wants_rank_order():
    assert Case.from_scores("0.1,0.9", "1,0").scores == (Fraction(1, 10), Fraction(9, 10))
    with pytest.raises(IrlabError, match="the score at rank 2 .* is higher than at rank 1"):
        Ranking.parse("RN", scores="0.1,0.9")


def test_an_empty_list_of_scores_is_still_named():
    with pytest.raises(IrlabError, match="no scores given"):
        Case.from_scores(" , ", "")
