"""Grading a teacher can trust: the closest diagnosis, correctly rounded answers, near misses, answers that never
raise, and grading options that are checked (issue: homework grading a teacher can trust, items 1, 6, 7, 8).

Every expectation is computed here independently (by hand, with math.log2 or exact fractions), never by irlab.
"""

import math
from fractions import Fraction as F
from pathlib import Path

import pytest

from irlab.errors import InputFileError, IrlabError
from irlab.homework import check, parse_answer
from irlab.homework.answers import AnswerOptionError, Tolerance, compare, near_miss
from irlab.homework.variants import variant_set

EXERCISES = Path(__file__).resolve().parents[1] / "exercises"
VARIANTS = EXERCISES / "homework-variants.toml"


def _dcg(gains):
    return sum(g / math.log2(i + 2) for i, g in enumerate(gains))


# item 1 ----------------------------------------------------------------------------------------

def test_alice_variant_is_the_one_the_hand_computation_uses():
    assert variant_set(VARIANTS, "alice", "2026").exercise("2").parameters == {"ranking": [1, 2, 3, 1, 0],
                                                                                "unretrieved": [2]}


def test_the_closest_mistake_is_named_not_the_first_listed():
    # alice's variant: grades [1, 2, 3, 1, 0] retrieved, [2] judged but not retrieved; nDCG@5 with gain 2^g - 1.
    exp = [2**g - 1 for g in (1, 2, 3, 1, 0)]
    ideal_all = [2**g - 1 for g in sorted([1, 2, 3, 1, 0, 2], reverse=True)[:5]]
    ideal_retrieved = [2**g - 1 for g in sorted([1, 2, 3, 1, 0], reverse=True)]
    linear = _dcg([1, 2, 3, 1, 0]) / _dcg(sorted([1, 2, 3, 1, 0, 2], reverse=True)[:5])
    from_retrieved = _dcg(exp) / _dcg(ideal_retrieved)
    assert round(_dcg(exp) / _dcg(ideal_all), 4) == 0.6087  # the right answer
    assert round(linear, 4) == 0.6896 and round(from_retrieved, 4) == 0.6946
    part = check(VARIANTS, "2", "a", "0.6946", student="alice", seed="2026").parts[0]
    assert (part.mistake, part.also) == ("idcg-from-retrieved-list", ())
    assert "ideal ranking is built from the retrieved list only" in part.message and "linear" not in part.message
    part = check(VARIANTS, "2", "a", "0.6896", student="alice", seed="2026").parts[0]
    assert (part.mistake, part.also) == ("linear-gain", ())


def test_mistakes_that_cannot_be_told_apart_at_the_precision_written_are_both_named():
    # 0.69 covers [0.685, 0.695]: both 0.6896 and 0.6946 lie in it; 0.689 covers [0.6885, 0.6895]: neither does,
    # 0.6896 is closer (0.0006 against 0.0056).
    part = check(VARIANTS, "2", "a", "0.69", student="alice", seed="2026").parts[0]
    assert (part.mistake, part.also) == ("linear-gain", ("idcg-from-retrieved-list",))
    assert "matches 2 common mistakes" in part.message and "linear gain" in part.message \
        and "retrieved list only" in part.message
    part = check(VARIANTS, "2", "a", "0.689", student="alice", seed="2026").parts[0]
    assert (part.mistake, part.also) == ("linear-gain", ())


# item 7 ----------------------------------------------------------------------------------------

@pytest.mark.parametrize("answer, value", [
    ("0.07", F(1, 15)),  # 0.0667 rounded to 2 decimals
    ("-0.10", F(-1030, 10000)),  # -0.1030 rounded to 2 decimals
    ("0.09", F(23, 264)),  # 0.0871 rounded to 2 decimals
])
def test_a_correctly_rounded_answer_is_right(answer, value):
    assert compare(parse_answer(answer), value, Tolerance()).correct
    # and a relative tolerance of 1 % alone would refuse it (|answer - value| > value / 100)
    assert abs(parse_answer(answer).value - value) > abs(value) / 100


def test_a_percentage_shows_two_more_decimals():
    assert parse_answer("6.7%").decimals == 3 and parse_answer("7%").decimals == 2
    assert compare(parse_answer("7%"), F(1, 15), Tolerance()).correct  # 0.07, as above
    assert not compare(parse_answer("7%"), F(1, 15), Tolerance.of({"min_decimals": 3})).correct


@pytest.mark.parametrize("answer, value", [("0.08", F(1, 15)), ("-0.11", F(-1030, 10000)), ("0.00", F(1, 300)),
                                           ("0.087", F(1, 15))])
def test_a_wrongly_rounded_answer_is_not_right(answer, value):
    assert not compare(parse_answer(answer), value, Tolerance()).correct


def test_absolute_and_relative_tolerance_together():
    small = F(1, 1000)
    assert not compare(parse_answer("0.0015"), small, Tolerance(accept_rounded=False)).correct  # 50 % off
    loose = Tolerance.of({"abs_tolerance": "0.001", "accept_rounded": False})
    assert compare(parse_answer("0.0015"), small, loose).correct  # |0.0015 - 0.001| = 0.0005 <= 0.001
    assert compare(parse_answer("100.9"), 100, loose).correct  # 0.9 <= 1 % of 100
    assert not compare(parse_answer("0.0021"), small, loose).correct


def test_minimum_decimals_for_a_rounded_answer():
    assert not compare(parse_answer("0.1"), F(1, 15), Tolerance()).correct  # 1 decimal < 2
    assert compare(parse_answer("0.1"), F(1, 15), Tolerance.of({"min_decimals": 1})).correct
    assert not compare(parse_answer("0.07"), F(1, 15), Tolerance.of({"min_decimals": 3})).correct
    assert not compare(parse_answer("0.07"), F(1, 15), Tolerance.of({"accept_rounded": False})).correct


def test_near_misses_are_named():
    assert near_miss(parse_answer("0.1"), F(1, 15)).kind == "rounded-too-coarsely"
    # 0.088 is 1 % off 23/264 = 0.08712 (within 5 %) but not its rounding (0.087)
    assert near_miss(parse_answer("0.088"), F(23, 264)).kind == "rounded-too-early"
    assert near_miss(parse_answer("0.2"), F(23, 264)) is None


ROUNDING_SET = """
title = "Rounding"
[[exercise]]
id = "1"
statement = "List {ranking}."
[exercise.parameters]
ranking = "RNNNNNNNNNNNNNN"
[[exercise.question]]
id = "a"
solver = "precision"
rounding_credit = "1/2"
[[exercise.question]]
id = "b"
solver = "precision"
"""


def test_near_miss_feedback_and_its_own_credit(tmp_path):
    path = tmp_path / "rounding.toml"
    path.write_text(ROUNDING_SET)  # precision = 1/15
    assert check(path, "1", "a", "0.07").correct and check(path, "1", "a", "0.0667").correct
    coarse = check(path, "1", "a", "0.1")
    assert coarse.parts[0].mistake == "rounded-too-coarsely" and coarse.score == F(1, 2)
    assert "rounded to 1 decimal" in coarse.text() and "Partial credit: 1/2" in coarse.text()
    early = check(path, "1", "b", "0.068")  # 2 % off 1/15, not its rounding 0.067; no credit by default
    assert early.parts[0].mistake == "rounded-too-early" and early.score == 0
    assert "rounded too early" in early.text()


def test_set_level_grading_defaults(tmp_path):
    path = tmp_path / "rounding.toml"
    path.write_text(ROUNDING_SET + '[grading]\nmin_decimals = 3\n')
    assert not check(path, "1", "b", "0.07").correct and check(path, "1", "b", "0.067").correct


# item 8 ----------------------------------------------------------------------------------------

def test_check_never_raises_for_a_students_answer():
    feedback = check(VARIANTS, "3", "b", "1/3;1/2", student="alice", seed="2026")
    assert not feedback.correct and feedback.score == 0 and len(feedback.parts) == 3
    assert all(p.status == "invalid" for p in feedback.parts)
    text = feedback.text()
    assert "asks for 3 values (Precision; Recall; F-measure)" in text and "gives 2" in text
    assert check(VARIANTS, "3", "b", ["1/3", "1/2"], student="alice", seed="2026").score == 0
    assert "gives 4" in check(VARIANTS, "3", "b", "1;2;3;4", student="alice", seed="2026").text()
    assert "gives 0" in check(VARIANTS, "3", "b", "", student="alice", seed="2026").text()


def test_instructor_errors_still_raise():
    with pytest.raises(IrlabError, match="no exercise '9'"):
        check(VARIANTS, "9", "a", "1")
    with pytest.raises(IrlabError):
        check(EXERCISES / "no-such-set.toml", "1", "a", "1")


# item 6 (the part owned here: grading options never escape as a bare ValueError) -------------------

@pytest.mark.parametrize("options, key", [
    ({"tolerance": "abc"}, "tolerance"), ({"tolerance": -1}, "tolerance"), ({"decimals": -3}, "decimals"),
    ({"decimals": 1.5}, "decimals"), ({"form": "roman"}, "form"), ({"mistake_credit": 5}, None),
    ({"rounding_credit": 5}, "rounding_credit"), ({"abs_tolerance": "x"}, "abs_tolerance"),
    ({"accept_rounded": "yes"}, "accept_rounded"), ({"min_decimals": -1}, "min_decimals"),
    ({"near_tolerance": [1]}, "near_tolerance"),
])
def test_bad_grading_options_raise_a_named_error(options, key):
    if key is None:
        return  # mistake_credit is read with the key (below)
    with pytest.raises(AnswerOptionError) as caught:
        Tolerance.of(options)
    assert caught.value.key == key and f"key '{key}'" in str(caught.value)
    assert isinstance(caught.value, IrlabError)


@pytest.mark.parametrize("line, key", [('tolerance = "abc"', "tolerance"), ("decimals = -3", "decimals"),
                                       ('form = "roman"', "form"), ("mistake_credit = 5", "mistake_credit")])
def test_a_broken_set_is_refused_naming_file_exercise_question_and_key(tmp_path, line, key):
    path = tmp_path / "broken.toml"
    path.write_text(ROUNDING_SET.replace('rounding_credit = "1/2"', line))
    with pytest.raises(InputFileError) as caught:
        check(path, "1", "a", "0.07")
    assert str(caught.value).startswith(f"{path}: exercise 1, question a, key '{key}': must be ")


def test_a_mistaken_value_correctly_rounded_is_recognised_like_a_right_one():
    # discount log2(i) with rank 1 undiscounted: DCG = 1 + 3/1 + 7/log2(3) + 1/2 + 0, ideal 7 + 3 + 3/log2(3) + 1/2 + 1/log2(5)
    log2_rank = (1 + 3 + 7 / math.log2(3) + 0.5) / (7 + 3 + 3 / math.log2(3) + 0.5 + 1 / math.log2(5))
    assert round(log2_rank, 4) == 0.6953
    # 0.70 is 0.6953 rounded to 2 decimals; the other two mistakes (0.6946, 0.6896) round to 0.69
    part = check(VARIANTS, "2", "a", "0.70", student="alice", seed="2026").parts[0]
    assert (part.mistake, part.also) == ("discount-log2-rank", ())
