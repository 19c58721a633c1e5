"""Review of this session's answer keys made from plain values (irlab.homework.plain_key), on inputs the variant
files never draw.

tests/test_plain_key.py learns a question's wording from one R/N ranking and makes keys for draws of the same
shapes. Here the wording is learned from one draw and a key made for a draw of another shape: a graded ranking with
a threshold and unretrieved grades, a ranking without R, one relevant document, k past the list's end, judges'
columns given as text, TOML floats and Fractions as options, a [grading] table. The key made must be the explained
one in everything a reader sees: its parts' wording and exact value (and its type), every rendering of the result
(text, Markdown, LaTeX, HTML, JSON), its meta, repr, hash, equality and float, after pickling and copying too, and
the grades and feedback of answers at and around the tolerance's edges and of the named mistakes.
"""

from __future__ import annotations

import copy
import pickle
from types import SimpleNamespace
from fractions import Fraction

from hypothesis import HealthCheck, given, settings, strategies as st

from irlab import exact
from irlab.exercise_set import Question, Where, solve_question
from irlab.homework import plain_key
from irlab.homework.feedback import grade_part
from irlab.homework.key_build import build_key
from irlab.homework.plain_key import PlainResult, learn, plain_solution

FORMATS = ("text", "markdown", "latex", "html", "json")

# options as a set file may write them (TOML floats, "50%", "1/3", a parameter's name) for every solver the shortcut is allowed for
OPTIONS = {
    "precision": {"k": [None, 1, 2, 4, 30, "{length}"], "precision_denominator": [None, "k", "retrieved"]},
    "recall": {"k": [None, 1, 3, 30, "{length}"], "recall_denominator": [None, "relevant", "min-relevant-k"]},
    "f": {"k": [None, 2, 30], "beta": [1, 2, 0.5, "1/3", "2"], "f_weight": [None, "beta", "beta-squared"],
          "precision_denominator": [None, "retrieved"], "recall_denominator": [None, "min-relevant-k"]},
    "ap": {"k": [None, 1, 3, 30, "{length}"], "ap_denominator": [None, "relevant", "retrieved", "min-relevant-k"],
           "both_denominators": [None, True]},
    "iprec": {"recall_level": [0, 0.25, "1/3", "50%", 1, "100%"],
              "interpolation": [None, "book", "trec-eval", "trec-eval-9"]},
    "prec-at-recall": {"recall_level": [0, 0.5, "1/3", "2/3", "100%"]},
    "rr": {"k": [None, 1, 2, 30, "{length}"]},
    "kappa": {"kappa_marginals": [None, "pooled", "per-judge"]},
    "aggregate": {"rule": ["all", "any", "majority"]},
}
assert set(OPTIONS) == plain_key._SAME_WORDING  # a solver added to the shortcut is added here too

GRADING = [{}, {"tolerance": "0"}, {"tolerance": "5%", "min_decimals": 1}, {"abs_tolerance": "0.01", "tolerance": 0},
           {"decimals": 2, "mistake_credit": "1/2"}, {"form": "fraction", "mistake_credit": 1}]


@st.composite
def ranking_draw(draw) -> dict:
    shape = draw(st.sampled_from(["text", "text-no-R", "graded", "graded-threshold", "one-relevant"]))
    if shape == "one-relevant":
        length = draw(st.integers(1, 6))
        at = draw(st.integers(0, length - 1))
        return {"ranking": "".join("R" if i == at else "N" for i in range(length)),
                "relevant": draw(st.integers(1, 3))}
    if shape.startswith("text"):
        text = draw(st.text("RN", min_size=1, max_size=10))
        params = {"ranking": text}
        if shape == "text":
            params["relevant"] = text.count("R") + draw(st.integers(0, 3))
        return params
    grades = draw(st.lists(st.integers(0, 3), min_size=1, max_size=7))
    params = {"ranking": grades, "unretrieved": draw(st.lists(st.integers(1, 3), max_size=3))}
    if shape == "graded-threshold":
        params["threshold"] = draw(st.integers(1, 3))
    return params


@st.composite
def judges_draw(draw, aggregate: bool) -> dict:
    size = draw(st.integers(2, 9))
    first = [draw(st.integers(0, 1)) for _ in range(size)]
    second = [draw(st.integers(0, 1)) for _ in range(size)]
    if not aggregate and draw(st.booleans()):
        return {"judge1": ",".join(map(str, first)), "judge2": "".join(map(str, second))}
    third = [draw(st.integers(0, 1)) for _ in range(size)] if aggregate and draw(st.booleans()) else None
    rows = [[f"d{doc}", a, b] + ([third[doc]] if third else []) for doc, (a, b) in enumerate(zip(first, second))]
    params = {"judgments": rows}
    if aggregate:
        params["retrieved"] = sorted(draw(st.sets(st.sampled_from([row[0] for row in rows]), min_size=1)))
    return params


@st.composite
def question_and_draws(draw):
    solver = draw(st.sampled_from(sorted(OPTIONS)))
    options = {name: value for name, values in OPTIONS[solver].items()
               if (value := draw(st.sampled_from(values))) is not None}
    options.update(draw(st.sampled_from(GRADING)))
    if solver in ("kappa", "aggregate"):
        draws = [draw(judges_draw(solver == "aggregate")) for _ in range(2)]
    else:
        draws = [draw(ranking_draw()) for _ in range(2)]
    return Question("a", "?", solver, options), draws


def _answers(key, part) -> list[str]:
    """The right value in several forms, values at and just past the tolerance's edges, named mistakes' values."""
    value = Fraction(part.value)
    tolerance = key.tolerance
    written = [exact.exact_text(value), exact.decimal_text(value, 4, strip=False), exact.decimal_text(value, 1),
               exact.decimal_text(value * 100, 2) + "%", exact.decimal_text(value * 100, 2), "0", "1", "", "x"]
    for delta in (tolerance.rtol * abs(value), tolerance.atol, tolerance.rtol * abs(value) + tolerance.atol):
        for nudge in (0, Fraction(1, 10**9)):
            for sign in (1, -1):
                written.append(exact.exact_text(value + sign * (delta + nudge)))
    for _, result, _ in key.mistaken(part)[:5]:
        if not exact.is_symbolic(result.value):
            written += [exact.exact_text(result.value), exact.decimal_text(result.value, 3, strip=False)]
    return written


def _same_result(mine, theirs) -> None:
    assert isinstance(mine, PlainResult) and not isinstance(theirs, PlainResult)
    assert (mine.metric, mine.symbol, mine.value, type(mine.value)) == (theirs.metric, theirs.symbol, theirs.value,
                                                                        type(theirs.value))
    assert mine == theirs and hash(mine) == hash(theirs) and repr(mine) == repr(theirs)
    assert float(mine) == float(theirs) and mine.decimal == theirs.decimal
    for fmt in FORMATS:
        assert mine.render(fmt) == theirs.render(fmt), fmt
    assert mine.meta() == theirs.meta() and mine.title == theirs.title
    for other in (pickle.loads(pickle.dumps(mine)), copy.copy(mine), copy.deepcopy(mine)):
        assert (other.metric, other.symbol, other.value) == (theirs.metric, theirs.symbol, theirs.value)
        assert other.render("text") == theirs.render("text")


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                    HealthCheck.too_slow])
@given(case=question_and_draws())
def test_a_key_made_from_another_draws_wording_is_the_explained_key(case, tmp_path):
    question, (first, second) = case
    where = Where(tmp_path / "set.toml", "1", "a")
    plain_key.clear_plain_keys()
    try:
        learn(question, repr(first), solve_question(first, question, where))
    except Exception:
        pass  # the first draw refused: nothing learned, and nothing may be made from it
    try:
        explained = solve_question(second, question, where)
    except Exception:
        assert plain_solution(second, question, where, repr(second)) is None  # refused by the explained solver
        return
    made = plain_solution(second, question, where, repr(second))
    if made is None:
        return
    mine_answers, their_answers = made.primary, explained.primary or explained.answers
    assert [a.label for a in mine_answers] == [a.label for a in their_answers]
    grading, exercise = {}, SimpleNamespace(id="1")  # (what a key's feedback reads of its exercise)
    lazy = build_key(where.path, exercise, question, second, made, grading)
    eager = build_key(where.path, exercise, question, second, explained, grading)
    assert [(p.index, p.name, p.label) for p in lazy.parts] == [(p.index, p.name, p.label) for p in eager.parts]
    assert (lazy.tolerance, lazy.mistake_credit) == (eager.tolerance, eager.mistake_credit)
    for mine, theirs in zip(lazy.parts, eager.parts):
        for answer in _answers(eager, theirs):
            assert grade_part(lazy, mine, answer) == grade_part(eager, theirs, answer), answer
    # read last: reading anything but the metric, value and symbol solves the explanation
    for mine, theirs in zip(lazy.parts, eager.parts):
        _same_result(mine.result, theirs.result)
    plain_key.clear_plain_keys()
