"""Every mistake of the catalogue is recognised on a worked example, by re-solving with irlab's own solvers."""

from pathlib import Path

import pytest

from irlab.homework import MISTAKES, check
from irlab.homework.diagnosis import divergence_step
from irlab.homework.key import answer_key

EXERCISES = Path(__file__).resolve().parents[1] / "exercises"
BOOK = EXERCISES / "chapter8-book.toml"
SEED = EXERCISES / "chapter8-seed.toml"

CUSTOM = """
title = "Mistakes"

[[exercise]]
id = "r"
statement = "List {ranking}, R = {relevant}."
[exercise.parameters]
ranking = "RNRRNNRN"
relevant = 8
[[exercise.question]]
id = "ap-retrieved"
solver = "ap"
ap_denominator = "retrieved"
[[exercise.question]]
id = "ap-k"
solver = "ap"
k = 4
[[exercise.question]]
id = "recall"
solver = "recall"
k = 4
[[exercise.question]]
id = "recall-min"
solver = "recall"
k = 4
recall_denominator = "min-relevant-k"
[[exercise.question]]
id = "prec"
solver = "precision"
k = 10
[[exercise.question]]
id = "prec-ret"
solver = "precision"
k = 10
precision_denominator = "retrieved"
[[exercise.question]]
id = "p5"
solver = "precision"
k = 5
[[exercise.question]]
id = "par"
solver = "prec-at-recall"
recall_level = "0.25"
[[exercise.question]]
id = "ip"
solver = "iprec"
recall_level = "0.25"

[[exercise]]
id = "t"
statement = "List {ranking}, R = {relevant}."
[exercise.parameters]
ranking = "RRNNRR"
relevant = 8
[[exercise.question]]
id = "ip"
solver = "iprec"
recall_level = "0.3"

[[exercise]]
id = "g"
statement = "Grades {ranking}; not retrieved {unretrieved}."
[exercise.parameters]
ranking = [1, 3, 0, 2, 1]
unretrieved = [3]
[[exercise.question]]
id = "exp"
solver = "ndcg"
[[exercise.question]]
id = "lin"
solver = "ndcg"
gain = "linear"
[[exercise.question]]
id = "jk"
solver = "dcg"
discount = "log2-rank"

[[exercise]]
id = "f"
statement = "List {ranking}, R = {relevant}."
[exercise.parameters]
ranking = "RRRN"
relevant = 5
[[exercise.question]]
id = "f2"
solver = "f"
beta = 2
[[exercise.question]]
id = "setf2"
solver = "f"
beta = 2
f_weight = "beta-squared"

[[exercise]]
id = "c"
statement = "Counts."
[exercise.parameters]
counts = { tp = 20, fp = 40, fn = 60, tn = 880 }
[[exercise.question]]
id = "f2"
solver = "f"
beta = 2

[[exercise]]
id = "tau"
statement = "MAP of five systems under two sets of judgments."
[exercise.parameters]
systems = { old = [0.31, 0.28, 0.28, 0.25, 0.2], new = [0.40, 0.35, 0.30, 0.30, 0.1] }
[[exercise.question]]
id = "b"
solver = "kendall-tau"
[[exercise.question]]
id = "a"
solver = "kendall-tau"
tau_variant = "a"

[[exercise]]
id = "k"
statement = "Judges."
[exercise.parameters]
judgments = [[1, 1, 1], [2, 1, 0], [3, 1, 0], [4, 1, 1], [5, 0, 0], [6, 1, 0], [7, 0, 0], [8, 1, 1]]
[[exercise.question]]
id = "pooled"
solver = "kappa"
[[exercise.question]]
id = "cohen"
solver = "kappa"
kappa_marginals = "per-judge"
"""


@pytest.fixture(scope="module")
def custom(tmp_path_factory):
    path = tmp_path_factory.mktemp("hw") / "custom.toml"
    path.write_text(CUSTOM, encoding="utf-8")
    return path


def test_the_spec_example_book_8_9_e():
    feedback = check(BOOK, "8.9", "e", "0.555")
    assert not feedback.correct
    assert feedback.parts[0].mistake == "ap-divided-by-relevant-retrieved"
    # the paths part at step 2: R = 8 against D = 6 (step 1, the sum of precisions, is shared)
    assert str(feedback) == ("Not quite: 0.555 is what you get if you divide by the 6 relevant documents retrieved; "
                             "this exercise divides by all 8 relevant documents (step 2 of the worked solution).")


# (exercise, question, wrong answer, mistake, step of divergence); values hand-checked below each line
CASES = [
    ("r", "ap-retrieved", "0.3735", "ap-divided-by-all-relevant", 2),  # (1 + 2/3 + 3/4 + 4/7) / 8 = 251/672
    ("r", "ap-k", "0.6042", "ap-divided-by-min-r-k", 3),  # (1 + 2/3 + 3/4) / min(8, 4) = 29/48; step 3 is D
    ("r", "ap-k", "0.8056", "ap-divided-by-relevant-retrieved", 2),  # (29/12) / 3 = 29/36
    ("r", "recall", "0.75", "recall-divided-by-min-r-k", None),  # 3 / min(8, 4)
    ("r", "recall-min", "3/8", "recall-divided-by-r", None),
    ("r", "prec", "0.5", "precision-over-retrieved", None),  # 4 / 8 retrieved instead of 4 / 10
    ("r", "prec-ret", "0.4", "precision-over-k", None),
    ("r", "p5", "0.5", "off-by-one-rank", None),  # P@5 = 3/5; P@6 = 3/6 (P@4 = 3/4)
    ("r", "par", "0.75", "interpolated-precision", None),  # max(P@3, P@4, P@7) = 3/4 instead of P@3 = 2/3
    ("r", "ip", "2/3", "non-interpolated-precision", None),
    ("t", "ip", "1", "interpolation-trec-eval", None),  # round(0.3 * 8) = 2 -> P@2 = 1; ceil gives 3 -> 3/5
    ("g", "exp", "0.6171", "linear-gain", None),
    ("g", "lin", "0.5166", "exponential-gain", None),
    ("g", "exp", "0.5903", "discount-log2-rank", None),
    ("g", "jk", "7.0954", "discount-log2-rank-plus-1", 1),
    ("g", "exp", "0.7223", "idcg-from-retrieved-list", None),
    # gains 1, 7, 0, 3, 1 over ranks 1-5: DCG = 1 + 7/2 + 3/4 + 1/5 = 109/20; ideal 7, 7, 3, 1, 1: 7 + 7/2 + 1 + 1/4 +
    # 1/5 = 239/20, so nDCG with the discount 1/i is 109/239 = 0.4561
    ("g", "exp", "0.4561", "discount-reciprocal-rank", None),
    # P = 3/4, Rec = 3/5: F_2 = 5PR/(4P + R) = 5/8; set_F.2 = 3PR/(2P + R) = 9/14 = 0.6429
    ("f", "f2", "0.6429", "f-weight-beta-squared", None),
    ("f", "setf2", "0.625", "f-weight-beta", None),
    # from counts: P = 1/3, Rec = 1/4; F_2 = 5/19, set_F.2 = 3PR/(2P + R) = 3/11
    ("c", "f2", "3/11", "f-weight-beta-squared", None),
    # C = 8, D = 0 of 10 pairs, one tie in each list: tau-b = 8/sqrt(9 · 9) = 8/9, tau-a = 8/10
    ("tau", "b", "0.8", "tau-a-instead-of-b", None),
    ("tau", "a", "0.8889", "tau-b-instead-of-a", None),
    ("k", "pooled", "1/3", "kappa-per-judge-marginals", 4),
    ("k", "cohen", "0.2381", "kappa-pooled-marginals", 4),
    ("r", "recall", "37.5", "percent-without-sign", None),  # 3/8 written as a percentage without %
    ("r", "recall", "0.375%", "fraction-with-percent-sign", None),
]


@pytest.mark.parametrize("exercise, question, answer, mistake, step", CASES)
def test_each_mistake_is_recognised(custom, exercise, question, answer, mistake, step):
    feedback = check(custom, exercise, question, answer)
    part = feedback.parts[0]
    assert part.status == "wrong"
    assert part.mistake == mistake, part.message
    assert part.message.startswith(f"Not quite: {answer} ")
    if step is not None:
        assert part.step == step
        assert part.message.endswith(f"(step {step} of the worked solution).")


def test_every_catalogued_mistake_has_a_worked_example():
    assert {m.name for m in MISTAKES} == {case[3] for case in CASES} | {"ap-divided-by-relevant-retrieved"} | {
        "rounded-too-coarsely", "rounded-too-early"}  # near misses: tests/test_homework_trust.py


def test_messages_use_the_exercise_numbers(custom):
    assert "min(R, k) = 4; this exercise divides recall by all R = 8" in check(custom, "r", "recall", "0.75").text()
    assert "this question cuts the list at k = 5" in check(custom, "r", "p5", "0.5").text()
    assert "write 37.5% or 0.375" in check(custom, "r", "recall", "37.5").text()


def test_the_right_answer_is_never_called_a_mistake(custom):
    for exercise, question, *_ in CASES:
        key = answer_key(custom, exercise, question)
        value = key.parts[0].value
        from irlab import exact

        assert check(custom, exercise, question, exact.decimal_text(value)).correct


def test_unknown_wrong_answers_get_the_generic_message(custom):
    text = check(custom, "r", "recall", "0.9").text()
    assert "matches none of the common mistakes" in text


def test_divergence_step_is_the_first_differing_value():
    key = answer_key(BOOK, "8.9", "e")
    right = key.parts[0].result
    wrong = next(r for m, r, _ in key.mistaken(key.parts[0]) if m.name == "ap-divided-by-relevant-retrieved")
    assert [s.value for s in right.steps][:1] == [s.value for s in wrong.steps][:1]
    assert divergence_step(right.steps, wrong.steps) == 2


def test_chapter8_seed_off_by_one_and_interpolation():
    # seed 8/1 (cut to 20 letters): P@20 = 6/20; P@21 would be 6/21
    assert check(SEED, "8/1", "a", "6/21").parts[0].mistake == "off-by-one-rank"
    # book 8.9 d: interpolated precision at 33% is 4/11; the non-interpolated value is P@9 = 1/3
    assert check(BOOK, "8.9", "d", "0.3333").parts[0].mistake == "non-interpolated-precision"


def test_a_wrong_exact_fraction_is_not_called_rounded(custom):
    """A fraction was not rounded: 51/200 near F_2 = 5/19 ≈ 0.2632 is a wrong value, not 'rounded too early'."""
    part = check(custom, "c", "f2", "51/200").parts[0]
    assert part.status == "wrong" and part.mistake != "rounded-too-early", part.message
    assert check(custom, "c", "f2", "0.255").parts[0].mistake == "rounded-too-early"  # the same value as a decimal is
