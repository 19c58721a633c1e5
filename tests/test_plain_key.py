"""Answer keys made from plain values (irlab.homework.plain_key) against keys built from the explained solution.

For random draws of every variant exercise in exercises/*.toml, the key made from plain values (a DCG's or nDCG's
exact value, or the parts of the same draw solved before) is the key built from the explained solution — every
part's index, name, label, metric, symbol, value and its type (a DCG's tree to its srepr and decimal bits), the
tolerance, the mistake credit, the findings — and grading the same answers (right, as a named mistake, otherwise
wrong, blank, unreadable) gives equal feedback with either key. The wording a shortcut reuses is checked to carry
over between draws for every solver it is allowed for, over random options and rankings (DCG's in
tests/test_dcg_value.py).
"""

from __future__ import annotations

import string
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import HealthCheck, Phase, given, settings, strategies as st
from sympy import srepr

from irlab import exact
from irlab.exercise_set import Question, Where, check_consistency, load, solve_question
from irlab.homework import plain_key
from irlab.homework.diagnosis import _step_nodes, key_too_close
from irlab.homework.drawing import judged_worth_solving, variant_set
from irlab.homework.feedback import grade_part
from irlab.homework.key import answer_key, clear_key_caches
from irlab.homework.key_build import build_key, grading_defaults
from irlab.homework.plain_key import PlainResult, learn, plain_solution
from irlab.ranking import Ranking

ROOT = Path(__file__).resolve().parents[1]
VARIANT_FILES = sorted(path for path in (ROOT / "exercises").glob("*.toml")
                       if any(exercise.variants for exercise in load(path).exercises))
STUDENTS = st.text(string.ascii_letters + string.digits + "-_. ", min_size=1, max_size=12)
SEEDS = st.sampled_from([None, "s1", "bench", "2026"])


def test_the_variant_files_are_found():
    assert {path.name for path in VARIANT_FILES} >= {"homework-variants.toml", "chapter8-book.toml",
                                                     "chapter8-seed.toml"}


def _solved(path, exercise, question):
    params, _ = check_consistency(exercise, path)
    where = Where(path, exercise.id, question.id)
    return params, where, solve_question(params, question, where)


def _judged(key, exercise, question):
    """The findings cached_key fills for a draw judged when drawn."""
    if judged_worth_solving(exercise, question):
        key.findings.update((part.index, ()) for part in key.parts if part.result is not None)
    return key


def _answers(key, part) -> list:
    """Answers of every kind: right (exact and rounded), a named mistake's value, a percentage without its sign,
    another wrong value, blank, unreadable."""
    value = None if exact.is_symbolic(part.value) else part.value
    written = [exact.exact_text(part.value), exact.decimal_text(part.value, 4, strip=False),
               exact.decimal_text(part.value, 2, strip=False), "", "n/a", "0.5"]
    if value is not None:
        written += [exact.decimal_text(value * 100, 2), exact.exact_text(Fraction(value) * 3 / 2 + Fraction(1, 13))]
    else:  # a DCG: another wrong decimal
        written.append(f"{exact.to_float(part.value) * 3 / 2 + 1 / 13:.4f}")
    for _, result, _ in key.mistaken(part)[:4]:
        written += [exact.decimal_text(result.value, 3, strip=False), exact.decimal_text(result.value, 4)]
        if not exact.is_symbolic(result.value):
            written.append(exact.exact_text(result.value))
    return written


def _learn_from_another_draw(path, seed) -> None:
    """The wording of every question, learned from a draw none of the tests' students gets (an id they never
    draw: it holds a character STUDENTS never makes)."""
    exercise_set = variant_set(path, "wording~learned", seed)
    for exercise in exercise_set.exercises:
        for question in exercise.questions:
            try:
                params, _, solution = _solved(path, exercise, question)
                learn(question, repr(params), solution)
            except Exception:  # a question of the set as written that does not solve: nothing to learn
                pass


@pytest.mark.parametrize("path", VARIANT_FILES, ids=lambda path: path.name)
# (no shrinking: a failing draw is shown as found, where shrinking one takes minutes)
@settings(max_examples=12, deadline=None, phases=[Phase.explicit, Phase.reuse, Phase.generate],
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(student=STUDENTS, seed=SEEDS)
def test_a_key_from_plain_values_is_the_explained_key(path, student, seed):
    plain_key.clear_plain_keys()
    _learn_from_another_draw(path, seed)
    grading = grading_defaults(path)
    exercise_set = variant_set(path, student, seed)
    shortcuts = repeated = 0
    for exercise in exercise_set.exercises:
        for question in exercise.questions:
            try:
                params, where, solution = _solved(path, exercise, question)
            except Exception:
                continue  # (refused the same way by the key: plain_solution leaves it to the explained solver)
            plain = plain_solution(params, question, where, repr(params))
            if plain is not None:
                shortcuts += 1
            else:  # what the first key of this draw leaves for a student who draws it again
                learn(question, repr(params), solution)
                plain = plain_solution(params, question, where, repr(params))
                if plain is None:
                    continue
                repeated += 1
            eager = _judged(build_key(path, exercise, question, params, solution, grading), exercise, question)
            lazy = _judged(build_key(path, exercise, question, params, plain, grading), exercise, question)
            assert all(isinstance(part.result, PlainResult) for part in lazy.parts)
            assert len(lazy.parts) == len(eager.parts)
            for mine, theirs in zip(lazy.parts, eager.parts):
                assert (mine.index, mine.name, mine.label, mine.choice) == (theirs.index, theirs.name, theirs.label,
                                                                           theirs.choice)
                assert (mine.result.metric, mine.result.symbol) == (theirs.result.metric, theirs.result.symbol)
                assert mine.value == theirs.value and type(mine.value) is type(theirs.value)
                if exact.is_symbolic(theirs.value):  # a DCG's tree: the same, to its last node and decimal bit
                    assert srepr(mine.value) == srepr(theirs.value) and hash(mine.value) == hash(theirs.value)
                    assert exact.to_float(mine.value).hex() == exact.to_float(theirs.value).hex()
            assert (lazy.tolerance, lazy.mistake_credit, lazy.findings) == (eager.tolerance, eager.mistake_credit,
                                                                          eager.findings)
            asked = build_key(path, exercise, question, params, solution, grading)  # (its mistakes solved here)
            for mine, theirs in zip(lazy.parts, eager.parts):
                for answer in _answers(asked, asked.parts[theirs.index]):
                    assert grade_part(lazy, mine, answer) == grade_part(eager, theirs, answer), answer
                    assert (grade_part(lazy, mine, answer, exact_values=False, percent_sign=False, fractions=False)
                            == grade_part(eager, theirs, answer, exact_values=False, percent_sign=False,
                                          fractions=False)), answer
            assert key_too_close(lazy) == key_too_close(eager)
            # what only the explanation knows: read through to the explained Result, solved now
            first, reference = lazy.parts[0].result, eager.parts[0].result
            assert [node.value for node in _step_nodes(first)] == [node.value for node in _step_nodes(reference)]
            assert first.render("text") == reference.render("text")
            assert first == reference and hash(first) == hash(reference) and repr(first) == repr(reference)
    assert (shortcuts, repeated) == SHORTCUTS[path.name]


# The questions keyed from plain values in each file (no draw issued has a value 0: it would be degenerate), and
# from a repeated draw's parts (every other question): homework-variants 1a-1f, 3a, 3b, 2a, 2b (nDCG, DCG: exact
# values from irlab.metrics.dcg.VALUE_ONLY), and none;
# chapter8-book 8.9 c-e, and a, b (they name "{length}"), f-h (map-bounds); chapter8-seed 8/1 c, d, 8/2 b, 8/4 a-c,
# and the other 10 (8/3: two rankings, not on the plain path).
SHORTCUTS = {"homework-variants.toml": (10, 0), "chapter8-book.toml": (3, 5), "chapter8-seed.toml": (6, 10)}


HOMEWORK = ROOT / "exercises" / "homework-variants.toml"


def test_grading_keys_take_the_shortcut_after_one_explained_solve():
    clear_key_caches()
    first = answer_key(HOMEWORK, "1", "a", "alice", "bench")
    assert not isinstance(first.parts[0].result, PlainResult)  # nothing learned yet: solved with its explanation
    later = answer_key(HOMEWORK, "1", "a", "bob", "bench")
    assert isinstance(later.parts[0].result, PlainResult)
    assert later.parts[0].result._solving.solution is None  # not solved: nothing read its explanation
    assert later.findings == {0: ()}  # judged when drawn, as an explained key is
    ndcg = answer_key(HOMEWORK, "2", "a", "bob", "bench")
    assert not isinstance(ndcg.parts[0].result, PlainResult)  # nothing learned of 2a yet
    later = answer_key(HOMEWORK, "2", "a", "carol", "bench")  # its exact value without the explanation
    assert isinstance(later.parts[0].result, PlainResult) and later.parts[0].result._solving.solution is None
    assert exact.is_symbolic(later.parts[0].value) and later.parts[0].result.symbol == "nDCG@5"
    clear_key_caches()


# The wording carries over: for every solver the shortcut is allowed for, a question's parts have the same metric,
# label and symbol on any two rankings (or judgments) whose values are all nonzero, whatever the options.
OPTIONS = {
    "precision": {"k": [None, 1, 3, 5], "precision_denominator": [None, "k", "retrieved"]},
    "recall": {"k": [None, 2, 5], "recall_denominator": [None, "relevant", "min-relevant-k"]},
    "f": {"k": [None, 3], "beta": [1, 2, "1/2"], "f_weight": [None, "beta", "beta-squared"]},
    "ap": {"k": [None, 4], "ap_denominator": [None, "relevant", "retrieved", "min-relevant-k"],
           "both_denominators": [None, True]},
    "iprec": {"recall_level": ["0", "0.25", "33%", "1"], "interpolation": [None, "book", "trec-eval", "trec-eval-9"]},
    "prec-at-recall": {"recall_level": ["0", "0.25", "1/2", "1"]},
    "rr": {"k": [None, 2, 6]},
    "kappa": {"kappa_marginals": [None, "pooled", "per-judge"]},
    "aggregate": {"rule": ["all", "any", "majority"]},
}
assert set(OPTIONS) == plain_key._SAME_WORDING


@st.composite
def question_and_draws(draw):
    solver = draw(st.sampled_from(sorted(OPTIONS)))
    options = {name: value for name, values in OPTIONS[solver].items()
               if (value := draw(st.sampled_from(values))) is not None}
    draws = []
    for _ in range(2):
        if solver in ("kappa", "aggregate"):
            size = draw(st.integers(3, 12))
            judgments = [[doc, draw(st.integers(0, 1)), draw(st.integers(0, 1))] for doc in range(1, size + 1)]
            retrieved = sorted(draw(st.sets(st.integers(1, size), min_size=1)))
            draws.append({"judgments": judgments, "retrieved": retrieved})
        else:
            text = draw(st.text("RN", min_size=1, max_size=12))
            relevant = Ranking.parse(text).relevant_retrieved + draw(st.integers(0, 4))
            draws.append({"ranking": text, "relevant": relevant})
    return Question("a", "?", solver, options), draws


@settings(max_examples=300, deadline=None)
@given(question_and_draws())
def test_the_wording_depends_on_the_options_only(case):
    question, draws = case
    worded = []
    for params in draws:
        try:
            solution = solve_question(params, question, Where("t.toml", "1", "a"))
        except Exception:
            return  # refused (undefined): never a key's, the shortcut never made
        answers = solution.primary or solution.answers
        if any(answer.result.value == 0 for answer in answers):
            return  # a value 0 may be worded otherwise: neither learned from nor made
        worded.append([(answer.result.metric, answer.label, answer.result.symbol) for answer in answers])
    assert worded[0] == worded[1]


def _learn(question, params, where):
    learn(question, repr(params), solve_question(params, question, where))


def _made(question, params, where):
    return plain_solution(params, question, where, repr(params))


def test_nothing_is_learned_from_or_made_for_a_zero(tmp_path):
    question = Question("a", "?", "iprec", {"recall_level": "50%"})
    where = Where(tmp_path / "t.toml", "1", "a")
    plain_key.clear_plain_keys()
    _learn(question, {"ranking": "NNN", "relevant": 0}, where)  # symbol "iprec", not "p_interp(0.5)"
    assert _made(question, {"ranking": "RNR", "relevant": 2}, where) is None
    _learn(question, {"ranking": "RNR", "relevant": 2}, where)
    made = _made(question, {"ranking": "NRR", "relevant": 3}, where)
    assert made.answers[0].result.symbol == "p_interp(0.5)" and made.answers[0].value == Fraction(2, 3)
    assert _made(question, {"ranking": "NNN", "relevant": 2}, where) is None  # never reached: 0
    named = Question("b", "?", "precision", {"k": "{length}"})  # "@k" changes with the draw
    _learn(named, {"ranking": "RNR", "relevant": 2}, where)
    assert _made(named, {"ranking": "RNRR", "relevant": 2}, where) is None
    assert _made(named, {"ranking": "RNR", "relevant": 2}, where).answers[0].result.symbol == "P@3"  # a repeat
    plain_key.clear_plain_keys()


def test_a_dcg_is_made_from_its_exact_value_for_any_draw_once_worded(tmp_path):
    question = Question("a", "?", "ndcg", {"k": 4})
    where = Where(tmp_path / "t.toml", "1", "a")
    plain_key.clear_plain_keys()
    first = {"ranking": [0, 0, 0], "unretrieved": []}  # IDCG = 0: nDCG 0, worded as any other draw
    assert _made(question, first, where) is None  # nothing learned yet
    _learn(question, first, where)
    for params in ({"ranking": [3, 0, 1], "unretrieved": [2]}, {"ranking": [0, 1], "unretrieved": []},
                   {"ranking": [0], "unretrieved": []}):
        made = _made(question, params, where).answers[0]
        explained = solve_question(params, question, where).answers[0]
        assert (made.label, made.result.metric, made.result.symbol) == (explained.label, explained.result.metric,
                                                                         "nDCG@4")
        assert made.value == explained.value and type(made.value) is type(explained.value)
        assert made.result._solving.solution is None
    assert _made(question, {"ranking": [3, 1], "scores": [0.5, 0.5]}, where) is None  # ties: explained
    assert _made(question, {"rankings": [[3, 1], [1]]}, where) is None  # a mean over queries: worded otherwise
    assert _made(question, {"ranking": [2, 4, 1]}, where) is not None
    assert _made(Question("b", "?", "ndcg", {"k": "{length}"}), {"ranking": [2, 1], "length": 2}, where) is None
    plain_key.clear_plain_keys()


def test_a_repeated_draw_is_made_from_the_parts_solved_before(tmp_path):
    question = Question("a", "?", "ndcg", {"k": 3, "gains": "1=2,2=5,3=9"})  # a gain table: no value-only path
    where = Where(tmp_path / "t.toml", "1", "a")
    plain_key.clear_plain_keys()
    drawn = {"ranking": [3, 0, 2], "unretrieved": [1]}
    assert _made(question, drawn, where) is None
    _learn(question, drawn, where)
    assert _made(question, {"ranking": [3, 0, 1], "unretrieved": [1]}, where) is None  # another draw
    made = _made(question, dict(drawn), where).answers[0].result
    explained = solve_question(drawn, question, where).answers[0].result
    assert (made.metric, made.symbol, made.value) == (explained.metric, explained.symbol, explained.value)
    assert made._solving.solution is None and made.render("text") == explained.render("text")
    plain_key.clear_plain_keys()
