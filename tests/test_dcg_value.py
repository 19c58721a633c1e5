"""The exact DCG, IDCG and nDCG without their explanation (irlab.metrics.dcg.VALUE_ONLY) against the explained Results.

On random rankings (graded, binary with R, empty, with unretrieved grades) and every gain and discount convention,
log base and cut-off (beyond the ranking's length too), the value-only path gives the very tree the explained
function's value is: the same srepr, ==, hash, decimal bits, decimal and exact text, computed with every cache
cold and again warm. A gain table or scores give None (the caller explains instead), bad input the same error.
The wording answer keys reuse for these solvers (irlab.homework.plain_key) depends on the question's options only,
whatever the draw: checked on random pairs of draws, zero values and IDCG = 0 included.
"""

from __future__ import annotations

import importlib
import math

import pytest
from hypothesis import given, settings, strategies as st
from sympy import srepr

from irlab import conventions as conv, exact
from irlab.errors import IrlabError
from irlab.exercise_set import Question, Where, solve_question
from irlab.homework import plain_key
from irlab.metrics.dcg import VALUE_ONLY, dcg, idcg, ndcg
from irlab.ranking import Ranking

dcg_module = importlib.import_module("irlab.metrics.dcg")  # (irlab.metrics.dcg is also the function)
EXPLAINED = {"dcg": dcg, "idcg": idcg, "ndcg": ndcg}
DISCOUNTS = [choice.key for choice in conv.DISCOUNT.choices]
GAINS = [choice.key for choice in conv.GAIN.choices]


def _cold() -> None:
    """Forget every cache a DCG's value is built through, so neither path finds a tree the other built."""
    for cached in (exact._symbolic_total, exact._rational_over_log, exact.log2, exact._symbolic_float,
                   dcg_module._divided, dcg_module._divisor, dcg_module._dcg_value):
        cached.cache_clear()


@st.composite
def rankings(draw):
    if draw(st.booleans()):  # graded, with the grades of relevant documents not retrieved
        grades = draw(st.lists(st.integers(0, 4), min_size=1, max_size=12))
        unretrieved = draw(st.lists(st.integers(1, 4), max_size=3))
        return Ranking(tuple(grades), unretrieved=tuple(unretrieved))
    text = draw(st.text("RN", min_size=1, max_size=12))  # binary: the relevant ones not retrieved have grade 1
    return Ranking.parse(text, relevant=Ranking.parse(text).relevant_retrieved + draw(st.integers(0, 3)))


@st.composite
def options(draw):
    chosen = {"k": draw(st.sampled_from([None, 1, 2, 3, 5, 8, 20])), "gain": draw(st.sampled_from([None, *GAINS])),
              "discount": draw(st.sampled_from([None, *DISCOUNTS])), "log_base": draw(st.sampled_from([None, 2, 3, 10]))}
    return {name: value for name, value in chosen.items() if value is not None}


def _same_tree(mine, theirs) -> None:
    assert type(mine) is type(theirs)
    assert exact.is_symbolic(mine) == exact.is_symbolic(theirs)
    if exact.is_symbolic(theirs):
        assert srepr(mine) == srepr(theirs)
    assert mine == theirs and hash(mine) == hash(theirs)
    mine_float, their_float = exact.to_float(mine), exact.to_float(theirs)
    assert mine_float.hex() == their_float.hex() or (math.isnan(mine_float) and math.isnan(their_float))
    assert exact.decimal_text(mine, 4, strip=False) == exact.decimal_text(theirs, 4, strip=False)
    assert exact.exact_text(mine) == exact.exact_text(theirs)


@settings(max_examples=400, deadline=None)
@given(metric=st.sampled_from(sorted(VALUE_ONLY)), ranking=rankings(), chosen=options())
def test_the_value_alone_is_the_explained_value(metric, ranking, chosen):
    _cold()
    try:
        explained = EXPLAINED[metric](ranking, **chosen).value
    except IrlabError as error:  # refused (2^g - 1 of a large grade…): the value path refuses it alike
        _cold()
        with pytest.raises(type(error)):
            VALUE_ONLY[metric](ranking, **chosen)
        return
    _cold()
    cold = VALUE_ONLY[metric](ranking, **chosen)  # built with every cache empty
    _same_tree(cold, explained)
    _same_tree(VALUE_ONLY[metric](ranking, **chosen), EXPLAINED[metric](ranking, **chosen).value)  # both warm


def test_hand_computed_values():
    ranking = Ranking((3, 2, 0, 1, 2), unretrieved=(3, 1))
    # DCG@3, linear gain: 3 + 2 / log2(3) + 0; IDCG@3 of 3, 3, 2: 3 + 3 / log2(3) + 2 / 2
    assert dcg_module.dcg_value(ranking, k=3, gain="linear") == 3 + 2 / exact.log2(3)
    assert dcg_module.idcg_value(ranking, k=3, gain="linear") == 4 + 3 / exact.log2(3)
    assert exact.to_float(dcg_module.ndcg_value(ranking, k=3, gain="linear")) == pytest.approx(
        (3 + 2 / math.log2(3)) / (4 + 3 / math.log2(3)), rel=1e-15)
    assert dcg_module.ndcg_value(Ranking((0, 0, 0)), k=2) == 0  # IDCG = 0: reported as 0, as ndcg() does
    assert ndcg(Ranking((0, 0, 0)), k=2).value == 0
    assert dcg_module.dcg_value(Ranking((2, 1)), discount="reciprocal-rank") == 3 + exact.rational(1) / 2  # 3/1 + 1/2


def test_a_gain_table_or_scores_are_left_to_the_explanation():
    ranking = Ranking((3, 2, 0, 1))
    for metric in VALUE_ONLY:
        assert VALUE_ONLY[metric](ranking, k=3, gains="1=4,2=1") is None
    scored = Ranking.parse("1,2,0", scores="0.9,0.8,0.8")
    assert dcg_module.dcg_value(scored) is None and dcg_module.ndcg_value(scored, ties="tie-averaged") is None


@pytest.mark.parametrize("metric", sorted(VALUE_ONLY))
@pytest.mark.parametrize("bad", [{"gain": "cubic"}, {"discount": "sqrt"}, {"log_base": 1}, {"k": 0}, {"k": "3"}])
def test_bad_options_are_refused_alike(metric, bad):
    ranking = Ranking((3, 2, 0, 1))
    with pytest.raises(IrlabError) as explained:
        EXPLAINED[metric](ranking, **bad)
    with pytest.raises(type(explained.value)) as alone:
        VALUE_ONLY[metric](ranking, **bad)
    assert str(alone.value) == str(explained.value)


# The wording plain_key reuses for these solvers: the same metric, label and symbol on any two draws of a question
# whose options name no parameter, whatever their values (0, IDCG = 0, k beyond the ranking's length).
@st.composite
def question_and_draws(draw):
    solver = draw(st.sampled_from(sorted(VALUE_ONLY)))
    chosen = draw(options())
    if solver == "idcg":
        chosen.pop("ties", None)
    draws = []
    for _ in range(2):
        grades = draw(st.lists(st.integers(0, 3), min_size=1, max_size=8))
        draws.append({"ranking": grades, "unretrieved": draw(st.lists(st.integers(0, 3), max_size=2))})
    return Question("a", "?", solver, chosen), draws


@settings(max_examples=300, deadline=None)
@given(question_and_draws())
def test_the_wording_depends_on_the_options_only(case):
    question, draws = case
    assert plain_key._shortcut_metric(question) == question.solver
    worded = []
    for params in draws:
        try:
            solution = solve_question(params, question, Where("t.toml", "1", "a"))
        except IrlabError:
            return  # refused: never a key's, the shortcut never made
        answers = solution.primary or solution.answers
        worded.append([(answer.result.metric, answer.label, answer.result.symbol) for answer in answers])
    assert worded[0] == worded[1] and len(worded[0]) == 1


def test_a_zero_and_an_ideal_of_zero_are_worded_alike():
    question, where = Question("a", "?", "ndcg", {"k": 9}), Where("t.toml", "1", "a")
    worded = [(a.result.metric, a.label, a.result.symbol) for params in
              ({"ranking": [0, 0, 0]}, {"ranking": [0, 2, 1], "unretrieved": [3]})
              for a in solve_question(params, question, where).answers]
    assert worded[0] == worded[1] == ("ndcg", "Normalised discounted cumulative gain", "nDCG@9")
