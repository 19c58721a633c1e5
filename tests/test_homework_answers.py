"""Answers in every accepted form, tolerances per question, and answers that never crash the checker."""

from fractions import Fraction as F
from pathlib import Path

import pytest

from irlab.homework import assert_answer, check, parse_answer
from irlab.homework.answers import close

EXERCISES = Path(__file__).resolve().parents[1] / "exercises"
SEED = EXERCISES / "chapter8-seed.toml"


@pytest.mark.parametrize("text, value, form", [
    ("21/50", F(21, 50), "fraction"), (" 21 / 50 ", F(21, 50), "fraction"), ("0.42", F(21, 50), "decimal"),
    (".42", F(21, 50), "decimal"), ("0,42", F(21, 50), "decimal"), ("42%", F(21, 50), "percent"),
    ("42 %", F(21, 50), "percent"), ("3", 3, "integer"), ("-1/3", F(-1, 3), "fraction"), ("\u22121/3", F(-1, 3), "fraction"),
    ("+0.5", F(1, 2), "decimal"), ("12.5%", F(1, 8), "percent"),
])
def test_parse_forms(text, value, form):
    parsed = parse_answer(text)
    assert (parsed.value, parsed.form, parsed.problem) == (value, form, None)


@pytest.mark.parametrize("raw, problem", [
    ("", "no answer given"), ("   ", "no answer given"), (None, "no answer given"),
    ("abc", "'abc' is not a number (write e.g. 21/50, 0.42 or 42%)"), ("1/0", "'1/0' divides by zero"),
    ("0.4.2", "'0.4.2' is not a number (write e.g. 21/50, 0.42 or 42%)"), ("1e-3", "'1e-3' is not a number (write e.g. 21/50, 0.42 or 42%)"),
    (float("nan"), "nan is not a finite number"), (True, "True is not a number"),
])
def test_unreadable_answers_are_reported_not_raised(raw, problem):
    parsed = parse_answer(raw)
    assert parsed.value is None and parsed.problem == problem


def test_python_numbers_are_accepted():
    assert parse_answer(F(3, 7)).value == F(3, 7)
    assert parse_answer(0.42).value == F(21, 50)
    assert parse_answer(2).value == 2


# seed 8/2: F1 = 3/5, AP = 21/50; 8/4 a: kappa = -1/3 (as written, no student: the set's own numbers)
@pytest.mark.parametrize("question, answer", [
    ("a", "3/5"), ("a", "0.6"), ("a", ".6"), ("a", "0,6"), ("a", "60%"), ("a", "6/10"), ("a", "0.601"),
    ("b", "21/50"), ("b", "0.42"), ("b", ".42"), ("b", "0,42"), ("b", "42%"), ("b", F(21, 50)), ("b", 0.42),
])
def test_correct_answers_in_every_form(question, answer):
    assert check(SEED, "8/2", question, answer).correct


def test_integer_and_negative_answers():
    assert check(SEED, "8/1", "h", "1").correct  # MRR@20 = 1
    assert check(SEED, "8/1", "h", 1).correct
    assert check(SEED, "8/4", "a", "-1/3").correct
    assert check(SEED, "8/4", "a", "-0.333").correct


def test_default_relative_tolerance_is_one_percent():
    assert close(F(99, 100), 1) and close(F(101, 100), 1)
    assert not close(F(989, 1000), 1)
    assert close(0, 0) and not close(F(1, 1000), 0)
    assert check(SEED, "8/2", "b", "0.4158").correct  # 1% of 0.42 is 0.0042
    assert not check(SEED, "8/2", "b", "0.415").correct


def test_tolerance_decimals_and_fraction_form(tmp_path):
    path = tmp_path / "forms.toml"
    path.write_text('''
title = "Forms"
[[exercise]]
id = "1"
statement = "{ranking}"
[exercise.parameters]
ranking = "RNNRRNN"
relevant = 7
[[exercise.question]]
id = "exact"
solver = "f"
form = "fraction"
[[exercise.question]]
id = "two"
solver = "f"
decimals = 2
[[exercise.question]]
id = "tight"
solver = "f"
tolerance = 0.0001
[[exercise.question]]
id = "log"
solver = "dcg"
form = "fraction"
''', encoding="utf-8")
    # F1 = 2 · (3/7)(3/7) / (6/7) = 3/7
    assert check(path, "1", "exact", "3/7").correct
    assert check(path, "1", "exact", "6/14").correct
    refused = check(path, "1", "exact", "0.4286")
    assert not refused.correct
    assert refused.text() == "Not quite: 0.4286 is close, but this question asks for the exact fraction."
    assert check(path, "1", "two", "0.43").correct and check(path, "1", "two", "0.425").correct
    assert not check(path, "1", "two", "0.44").correct
    assert check(path, "1", "tight", "0.42857").correct and not check(path, "1", "tight", "0.428").correct
    # a symbolic value (log2) cannot be written as a fraction: the default tolerance applies
    # DCG of RNNRRNN = 1 + 1/log2(5) + 1/log2(6) ≈ 1.8175: a symbolic value has no exact fraction, so the
    # default tolerance applies
    assert check(path, "1", "log", "1.8175").correct and check(path, "1", "log", "1.81").correct
    assert not check(path, "1", "log", "1.79").correct


def test_assert_answer_for_notebook_test_cells():
    assert assert_answer(SEED, "8/2", "b", "0.42").correct
    with pytest.raises(AssertionError) as raised:
        assert_answer(SEED, "8/2", "b", "0.7")
    assert str(raised.value) == ("Not quite: 0.7 is what you get if you divide by the 3 relevant documents retrieved; "
                                 "this exercise divides by all 5 relevant documents (step 2 of the worked solution).")
    with pytest.raises(AssertionError, match="No answer recognised: no answer given"):
        assert_answer(SEED, "8/2", "b", "")


def test_feedback_displays_deterministically():
    feedback = check(SEED, "8/2", "b", "0.7")
    assert repr(feedback) == "<Feedback exercise 8/2 question b: not correct>"
    assert "0x" not in feedback._repr_html_() and "0x" not in repr(feedback)
    assert feedback._repr_markdown_() == f"**Exercise 8/2, question b**: {feedback.text()}\n"
    assert feedback._repr_html_() == check(SEED, "8/2", "b", "0.7")._repr_html_()
    assert "divide by the 3 relevant documents retrieved" in feedback._repr_html_()
    right = check(SEED, "8/2", "b", "42%")
    assert str(right) == "Correct: 42% (AP = 21/50 = 0.42)." and bool(right)


def test_several_part_questions_in_a_notebook():
    # 8/4 b: P = 1/5, Rec = 1/2, F1 = 2/7
    whole = check(SEED, "8/4", "b", "0.2; 0.5; 2/7")
    assert whole.correct and whole.score == 1
    partly = check(SEED, "8/4", "b", ["0.2", "0.4", "0.2857"])
    assert partly.score == F(2, 3) and partly.max_score == 1  # recall wrong
    assert partly.text().splitlines()[0] == "Exercise 8/4, question b: 2/3 of 1"
    assert check(SEED, "8/4", "b.2", "1/2").correct
    assert check(SEED, "8/4", "b:recall", "1/2").correct
    assert check(SEED, "8/4", "b:F", "2/7").correct
    assert check(SEED, "8/2", "c:lowest", "0.4381").correct and check(SEED, "8/2", "c:highest", "0.6962").correct
    assert check(SEED, "8/3", "a:macro", "0.3075").correct and check(SEED, "8/3", "a.2", "12/41").correct


def test_bad_references_raise_irlab_errors():
    from irlab import IrlabError

    with pytest.raises(IrlabError, match="no exercise '9/9'"):
        check(SEED, "9/9", "a", "1")
    with pytest.raises(IrlabError, match="has no question 'z'"):
        check(SEED, "8/2", "z", "1")
    with pytest.raises(IrlabError, match="has no part 'x'"):
        check(SEED, "8/4", "b:x", "1")
    feedback = check(SEED, "8/4", "b", "0.2")  # a student's answer: feedback, never an exception (see test_homework_trust)
    assert not feedback.correct and "asks for 3 values" in feedback.text()


def test_bad_tolerance_keys_name_the_question(tmp_path):
    from irlab import InputFileError

    path = tmp_path / "bad.toml"
    path.write_text('''
title = "Bad"
[[exercise]]
id = "1"
statement = "{ranking}"
[exercise.parameters]
ranking = "RN"
[[exercise.question]]
id = "a"
solver = "precision"
form = "roman"
''', encoding="utf-8")
    with pytest.raises(InputFileError, match=r"exercise 1, question a, key 'form': must be one of any, fraction, decimal"):
        check(path, "1", "a", "1/2")


def test_module_doctests():
    import doctest

    from irlab.homework import answers, feedback

    for module in (answers, feedback):
        failures, _ = doctest.testmod(module)
        assert failures == 0
