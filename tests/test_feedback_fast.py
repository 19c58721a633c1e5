"""The grading shortcuts change no decision and no word: an answer text read once and remembered, doubles read
before exact values, a key's known findings read before any distance, rounding in integers, texts and shares made
once. Each is compared with the exact path on generated answers: the right value rounded (with '.' or ','), as a
percentage, as a fraction, on the edges of the tolerance, the named mistakes' values, other numbers and text,
for rational and logarithmic right values and for a mistake inside the tolerance."""

from __future__ import annotations

import math
import pickle
from contextlib import contextmanager
from dataclasses import replace
from fractions import Fraction as F
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from irlab import exact
from irlab.homework import answers, diagnosis, feedback
from irlab.homework.answers import Tolerance, as_float, parse_afresh, parse_answer, rounded
from irlab.homework.feedback import grade_part, grade_reference, kept
from irlab.homework.key import answer_key
from test_safety_grading import KAPPA_SET  # the per-judge kappa 7/10 lies 0.11 % from the pooled 93/133

ROOT = Path(__file__).resolve().parents[1]
VARIANTS = ROOT / "exercises" / "homework-variants.toml"
QUESTIONS = (("1", "a"), ("1", "b"), ("1", "d"), ("1", "e"), ("1", "f"), ("2", "a"), ("2", "b"), ("3", "a"),
             ("3", "b"))


def _exact_float(value) -> float | None:
    """as_float as it was: through irlab.exact.to_float."""
    try:
        result = exact.to_float(value)
    except (OverflowError, TypeError, ValueError):
        return None
    return result if math.isfinite(result) else None


@contextmanager
def exact_path():
    """Every shortcut off: each answer read afresh, no double decides anything, no known finding is trusted, and
    each share and revealed value is made anew."""
    saved = [(answers, "_read_text", answers.parse_afresh), (answers, "certainly_close", lambda *a: False),
             (answers, "certainly_far", lambda *a: False), (diagnosis, "certainly_far", lambda *a: False),
             (diagnosis, "certainly_close", lambda *a: False),
             (answers, "as_float", _exact_float), (diagnosis, "as_float", _exact_float),
             (feedback, "_known_clear", lambda *a: False), (feedback, "_share", lambda n: F(1, n)),
             (feedback, "_revealed", feedback._revealed.__wrapped__), (feedback, "_answered_as", lambda *a: None)]
    saved = [(module, name, getattr(module, name), new) for module, name, new in saved]
    for module, name, _, new in saved:
        setattr(module, name, new)
    try:
        yield
    finally:
        for module, name, old, _ in saved:
            setattr(module, name, old)


@pytest.fixture(scope="module")
def keys(tmp_path_factory):
    """(key, part, the right value as a Fraction, the mistakes' values) for nine questions of two students'
    variants, and the kappa question whose mistake lies inside the tolerance."""
    kappa = tmp_path_factory.mktemp("kappa") / "kappa.toml"
    kappa.write_text(KAPPA_SET.format(options=""), encoding="utf-8")
    chosen = [answer_key(VARIANTS, e, q, student, "fast") for student in ("ana", "bo") for e, q in QUESTIONS]
    chosen.append(answer_key(kappa, "k", "a"))
    found = []
    for key in chosen:
        for part in key.parts:
            right = answers.rational_value(part.value)
            mistaken = [answers.rational_value(result.value) for _, result, _ in key.mistaken(part)]
            found.append((key, part, right, mistaken + [right * 100, right / 100]))
    return found


def _decimal(value: F, places: int, comma: bool) -> str:
    text = exact.decimal_text(value, places, strip=False, scientific=False)
    return text.replace(".", ",") if comma else text


@st.composite
def written(draw, key, right: F, mistaken: list):
    """An answer to a part whose right value is ``right``: near it, on its tolerance's edges, or elsewhere."""
    form = draw(st.sampled_from(["rounded", "percent", "fraction", "edge", "mistake", "other", "text"]))
    places, comma = draw(st.integers(0, 6)), draw(st.booleans())
    unit = F(1, 10**places)
    if form == "rounded":
        return _decimal(rounded(right, places) + draw(st.integers(-2, 2)) * unit, places, comma)
    if form == "percent":
        text = _decimal(rounded(right * 100, places) + draw(st.integers(-1, 1)) * unit, places, comma)
        return text + draw(st.sampled_from(["%", " %"]))
    if form == "fraction":
        near = right + F(draw(st.integers(-3, 3)), draw(st.integers(1, 10**4)))
        return draw(st.sampled_from([exact.exact_text(near), f" {near.numerator} / {near.denominator} "]))
    if form == "edge":  # the value +- the tolerance's bound, +- a hair, exactly or to 25 decimals
        tolerance = key.tolerance
        bound = (F(1, 2 * 10**tolerance.decimals) if tolerance.decimals is not None
                 else max(tolerance.rtol * abs(right), tolerance.atol))
        edge = right + draw(st.sampled_from([-1, 1])) * bound + draw(st.integers(-2, 2)) * F(1, 10**20)
        return draw(st.sampled_from([exact.exact_text(edge), exact.decimal_text(edge, 25, strip=False)]))
    if form == "mistake":
        return _decimal(draw(st.sampled_from(mistaken)), places, comma)
    if form == "other":
        return draw(st.sampled_from(["-", "\u2212"])) + _decimal(F(draw(st.integers(0, 10**5)), 10**4), places, comma)
    return draw(st.sampled_from(["", "n/a", "?", "1/0", "0.5.5", "  ", "abc", "3 / 4", "12", "-0", "1e-3"]))


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.data())
def test_grading_with_the_shortcuts_is_grading_without_them(keys, data):
    key, part, right, mistaken = data.draw(st.sampled_from(keys))
    text = data.draw(written(key, right, mistaken))
    fast = grade_part(key, part, text, exact_values=False)
    with exact_path():
        slow = grade_part(key, part, text, exact_values=False)
    assert fast == slow


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.data())
def test_feedback_found_again_is_the_feedback_graded_afresh(keys, data):
    """grade_reference finds a blank, unreadable or right answer to a part it graded already instead of grading it
    again: what it finds is what the exact path gives, the first time and every time after."""
    key, part, right, mistaken = data.draw(st.sampled_from(keys))
    text = data.draw(written(key, right, mistaken))
    ref = None if len(key.parts) == 1 else part.number
    found = [grade_reference(key, ref, text, exact_values=False)[0] for _ in range(2)]
    with exact_path():
        slow = grade_part(key, part, text, exact_values=False)
    assert found[0] == found[1] == slow and found[0] is found[1]


def test_feedback_is_found_again_only_where_nothing_but_the_value_decides(keys):
    """A right answer is found again for parts with the same value whose keys know no mistake within the tolerance;
    a key with such a mistake grades it afresh (0.70 also fits the per-judge kappa 7/10), and so does a wrong one."""
    key, part, _, _ = keys[-1]  # the kappa key: 7/10 inside the tolerance of 93/133
    clear = replace(key, findings={part.index: ()}, candidates={})
    feedback._forget_answered()
    assert grade_reference(clear, None, "0.70")[0].reading is None and len(feedback._ANSWERED) == 1
    assert grade_reference(key, None, "0.70")[0].reading == "also-mistake"
    assert grade_reference(clear, None, "0.5")[0].status == "wrong" and len(feedback._ANSWERED) == 1
    assert grade_reference(clear, None, "")[0].status == "invalid" and len(feedback._ANSWERED) == 2
    text = exact.decimal_text(keys[0][2], 4)  # a right answer to another value, and to the same one: found
    first = grade_reference(keys[0][0], None, text)[0]
    assert len(feedback._ANSWERED) == 3 and grade_reference(keys[0][0], None, text)[0] is first


def test_the_comparison_is_not_vacuous(keys):
    """The generated answers reach every outcome, the shortcut on known findings applies to most keys, and the
    kappa key keeps the mistake inside its tolerance, which an answer nearer it shows."""
    statuses = set()
    for key, part, right, mistaken in keys:
        for text in (exact.decimal_text(right, 4), "0.0001", "", exact.decimal_text(right, 1),
                     *(exact.decimal_text(value, 4) for value in mistaken[:3])):
            graded = grade_part(key, part, text, exact_values=False)
            statuses.add((graded.status, bool(graded.mistake)))
    assert {("correct", False), ("wrong", True), ("wrong", False), ("invalid", False)} <= statuses
    assert sum(feedback._known_clear(key, part) for key, part, _, _ in keys) >= len(keys) - 1
    key, part, _, _ = keys[-1]
    assert not feedback._known_clear(key, part)
    assert grade_part(key, part, "0.7000").reading == "nearer-mistake"


numbers = st.builds(lambda sign, whole, digits: f"{sign}{whole}{digits}", st.sampled_from(["", "-", "+", "\u2212"]),
                    st.integers(0, 10**6).map(str) | st.just(""),
                    st.sampled_from(["", ".", ","]).flatmap(
                        lambda sep: st.text("0123456789", max_size=8).map(lambda d: sep + d if sep else "")))
texts = (numbers | numbers.map(lambda t: t + "%") | numbers.map(lambda t: f" {t} %")
         | st.builds(lambda a, b, c: f"{a}{b}/{c}", st.sampled_from(["", "-", " "]), st.integers(0, 10**4),
                     st.integers(0, 10**4)) | st.text(max_size=12))


@settings(max_examples=600, deadline=None)
@given(texts)
def test_an_answer_remembered_is_the_answer_read_afresh(text):
    fresh = parse_afresh(text)
    assert parse_answer(text) == fresh and parse_answer(text) is parse_answer(text)
    remembered = parse_answer(text)
    assert (remembered.decimals, remembered.resolution) == (fresh.decimals, fresh.resolution)
    if fresh.ok:
        assert remembered.double == float(F(fresh.value))
        assert remembered.resolution == (0 if fresh.form in ("integer", "fraction") else
                                         F(1, 2 * 10**fresh.decimals))


def test_a_long_answer_is_read_and_not_kept():
    text = "1" * (answers.MAX_ANSWER_CHARS + 100)
    assert parse_answer(text) == parse_afresh(text) and parse_answer(text) is not parse_answer(text)
    assert "characters long" in parse_answer(text).problem


rationals = st.builds(F, st.integers(-10**12, 10**12), st.integers(1, 10**9))


@settings(max_examples=600, deadline=None)
@given(rationals, st.integers(0, 12))
def test_rounding_in_integers_is_rounding_half_away_from_zero(value, places):
    scaled = abs(value) * 10**places  # the definition, in Fractions
    whole = int(scaled + F(1, 2))
    assert rounded(value, places) == F(whole if value >= 0 else -whole, 10**places)
    assert exact.decimal_text(rounded(value, places), places, strip=False, scientific=False) == \
        exact.decimal_text(value, places, strip=False, scientific=False)


@settings(max_examples=300, deadline=None)
@given(rationals | st.integers(-10**400, 10**400) | st.builds(F, st.integers(1, 10**400), st.integers(1, 10**3)))
def test_a_double_of_an_exact_value_is_its_correctly_rounded_double(value):
    assert as_float(value) == _exact_float(value)


@settings(max_examples=200, deadline=None)
@given(st.builds(Tolerance, rtol=st.sampled_from([F(0), F(1, 100), F(1, 3), F(5, 100)]),
                 decimals=st.none() | st.integers(0, 400), atol=st.sampled_from([F(0), F(1, 10**8), F(1, 200)])))
def test_a_tolerance_keeps_its_bounds_as_doubles(tolerance):
    if tolerance.decimals is not None:
        assert tolerance.float_bounds == (0.0, float(F(1, 2 * 10**tolerance.decimals)))
    else:
        assert tolerance.float_bounds == (float(tolerance.rtol), float(tolerance.atol))
    assert tolerance.describe() == Tolerance(tolerance.rtol, tolerance.decimals, tolerance.form, tolerance.atol,
                                             tolerance.accept_rounded).describe()


def test_equal_feedback_is_one_object_here_and_after_a_worker_sends_it(keys):
    """Two students who write the same right answer to variants with the same value get one feedback object (the
    report writers make its cells once), and feedback pickled by a grading worker arrives as that object."""
    key, part, right, _ = keys[0]
    text = exact.decimal_text(right, 4)
    first = grade_reference(key, None, text)[0]
    again = grade_reference(key, None, text)[0]
    assert first is again and first == grade_part(key, part, text) and first is not grade_part(key, part, text)
    sent = pickle.loads(pickle.dumps(grade_part(key, part, text), protocol=pickle.HIGHEST_PROTOCOL))
    assert sent is first
    other = pickle.loads(pickle.dumps(replace(first, answer="x")))
    assert other == replace(first, answer="x") and other is kept(other)
