"""The float-first shortcuts never change a decision: an answer called right or wrong in double precision is
right or wrong exactly, a mistaken value called far never matches exactly, and grading with and without the
shortcuts gives the same feedback, word for word."""

from fractions import Fraction as F
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from irlab import exact
from irlab.homework import answers, diagnosis
from irlab.homework.answers import Tolerance, certainly_close, certainly_far, compare, match_reach, parse_answer, rounded
from irlab.homework.diagnosis import matches
from irlab.homework.feedback import grade_part
from irlab.homework.key import answer_key

VARIANTS = Path(__file__).resolve().parents[1] / "exercises" / "homework-variants.toml"

tolerances = st.builds(Tolerance, rtol=st.sampled_from([F(0), F(1, 100), F(1, 1000), F(5, 100)]),
                       decimals=st.none() | st.integers(0, 6), atol=st.sampled_from([F(0), F(1, 10**8), F(1, 200)]),
                       accept_rounded=st.booleans(), min_decimals=st.integers(0, 4))
rationals = st.builds(F, st.integers(-10**7, 10**7), st.integers(1, 10**6))
logarithmic = st.builds(lambda n, k: exact.div(n, exact.log2(k)), st.integers(-20, 20), st.integers(3, 60))
values = rationals | logarithmic


def _bound(value, written, tolerance) -> F:
    """The largest |answer - value| a match can have, exactly (the float reach is its double-precision twin)."""
    target = F(exact.to_float(value)) if exact.is_symbolic(value) else F(value)
    bound = (F(1, 2 * 10**tolerance.decimals) if tolerance.decimals is not None
             else max(tolerance.rtol * abs(target), tolerance.atol))
    if written.decimals is not None and tolerance.accept_rounded:
        bound = max(bound, F(1, 2 * 10**written.decimals))
    return target, bound


@st.composite
def answers_near(draw, value, tolerance):
    """Answers on and around the edges of what could match: the value rounded, and the value +- the bound."""
    places = draw(st.integers(0, 9))
    target = F(exact.to_float(value)) if exact.is_symbolic(value) else F(value)
    unit = F(1, 10**places)
    base = rounded(target, places) + draw(st.integers(-2, 2)) * unit
    text = exact.decimal_text(base, places) if places else str(int(base))
    written = parse_answer(text)
    _, bound = _bound(value, written, tolerance)
    edge = target + draw(st.sampled_from([-1, 1])) * bound + draw(st.integers(-3, 3)) * F(1, 10**20)
    if draw(st.booleans()):
        return F(written.value), written
    return edge, parse_answer(exact.exact_text(edge))


@settings(max_examples=600, deadline=None)
@given(st.data(), values, tolerances)
def test_far_in_floats_means_no_exact_match(data, value, tolerance):
    answer, written = data.draw(answers_near(value, tolerance))
    if certainly_far(float(answer), exact.to_float(value), match_reach(written, tolerance)):
        assert not matches(answer, written, value, tolerance)


@settings(max_examples=600, deadline=None)
@given(st.data(), values, tolerances)
def test_close_in_floats_means_close_exactly(data, value, tolerance):
    answer, _ = data.draw(answers_near(value, tolerance))
    if certainly_close(float(answer), exact.to_float(value), tolerance):
        assert answers.close(answer, value, tolerance)


@settings(max_examples=600, deadline=None)
@given(st.data(), values, tolerances)
def test_compare_decides_as_the_exact_comparison(data, value, tolerance):
    _, written = data.draw(answers_near(value, tolerance))
    fast = compare(written, value, tolerance)
    saved = answers.certainly_close, answers.certainly_far
    answers.certainly_close = answers.certainly_far = lambda *args: False
    try:
        assert compare(written, value, tolerance) == fast
    finally:
        answers.certainly_close, answers.certainly_far = saved


def test_the_margins_are_not_vacuous():
    """The shortcuts do decide clear cases (else they would not save anything), and only those."""
    written = parse_answer("0.5")
    assert certainly_far(0.5, 0.25, match_reach(written, Tolerance()))
    assert not certainly_far(0.5, 0.5004, match_reach(written, Tolerance()))  # rounds to 0.5: may match
    assert certainly_close(0.4286, 3 / 7, Tolerance())
    assert not certainly_close(0.99, 1.0, Tolerance())  # exactly on the 1 % boundary: decided exactly


def test_diagnoses_are_the_same_without_the_shortcut(monkeypatch):
    """Many wrong answers to every question of three students' variants: identical feedback either way."""
    keys = [answer_key(VARIANTS, exercise, question, student, "float-first")
            for student in ("ana", "bo", "cy") for exercise, question in
            (("1", "a"), ("1", "b"), ("1", "d"), ("1", "e"), ("2", "a"), ("2", "b"), ("3", "a"), ("3", "b"))]
    given = []
    for key in keys:
        for part in key.parts:
            for mistake, result, _ in key.mistaken(part):
                value = result.value
                given += [(key, part, exact.decimal_text(value, places)) for places in (1, 2, 3, 4)]
            given += [(key, part, exact.decimal_text(part.value, places)) for places in (0, 1, 2, 3, 4, 6)]
            given += [(key, part, text) for text in ("0.5", "1", "0", "12%", "0,33", "7/9", "-0.2")]
    with_shortcut = [grade_part(key, part, text, exact_values=False) for key, part, text in given]
    for module, name in ((diagnosis, "certainly_far"), (diagnosis, "certainly_close"), (answers, "certainly_far"),
                         (answers, "certainly_close")):
        monkeypatch.setattr(module, name, lambda *args: False)
    without = [grade_part(key, part, text, exact_values=False) for key, part, text in given]
    assert with_shortcut == without
    assert sum(1 for f in without if f.mistake) > 50  # the comparison covers many diagnosed answers
