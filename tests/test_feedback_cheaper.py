"""The cheaper tests of a wrong answer decide as the exact ones: a mistake's value told apart from the right one, an
answer matching a mistake, a near miss, each decided in doubles where they are clear, equal the exact decisions on
rational and logarithmic values, on and around every boundary; an exact value is read as a Fraction without a
copy; and equal feedback hashes alike with the hash that reads only its texts."""

from __future__ import annotations

from fractions import Fraction as F

from hypothesis import given, settings
from hypothesis import strategies as st
from test_homework_float_first import answers_near, tolerances, values

from irlab import exact
from irlab.homework import answers
from irlab.homework.answers import Tolerance, as_float, near_miss, parse_afresh, parse_answer, rational_value, rounded
from irlab.homework.diagnosis import _distinct, _distinct_from, _named_by, matches
from irlab.homework.feedback import PartFeedback, kept


def _target(value) -> F:
    return F(exact.to_float(value)) if exact.is_symbolic(value) else F(value)


@st.composite
def near_the_line(draw, value, relative: F):
    """A value on, just inside or just outside ``relative`` of ``value`` (either side), or far from it: as an
    exact rational, and now and then ``value`` itself."""
    target = _target(value)
    kind = draw(st.sampled_from(["edge", "edge", "same", "far"]))
    if kind == "same":
        return value
    if kind == "far":
        return target * draw(st.sampled_from([F(1, 2), F(3, 2), F(-1), F(10)]))
    hair = draw(st.integers(-3, 3)) * F(1, 10**draw(st.sampled_from([6, 12, 18, 30])))
    return target + draw(st.sampled_from([-1, 1])) * relative * abs(target) + hair * max(1, abs(target))


@settings(max_examples=800, deadline=None)
@given(st.data(), values)
def test_a_mistake_is_told_apart_from_the_right_value_as_exactly(data, right):
    """_distinct_from (doubles first) is _distinct (exact: more than 0.1 % apart) on and around the 0.1 % line."""
    mistaken = data.draw(near_the_line(right, F(1, 1000)))
    assert _distinct_from(mistaken, as_float(mistaken), right, as_float(right)) == _distinct(mistaken, right)


@settings(max_examples=800, deadline=None)
@given(st.data(), values, values, tolerances)
def test_a_mistake_named_in_doubles_is_named_exactly(data, mistaken, right, tolerance):
    """_named_by (doubles first) is matches(...) and _distinct(...), for answers on the tolerance's edges and the
    mistake's value rounded, with the right value now and then within 0.1 % of the mistake's."""
    if data.draw(st.booleans()):
        right = data.draw(near_the_line(mistaken, F(1, 1000)))
    answer, written = data.draw(answers_near(mistaken, tolerance))
    fast = _named_by(answer, as_float(answer), written, mistaken, as_float(mistaken), right, as_float(right),
                     tolerance)
    assert fast == (matches(answer, written, mistaken, tolerance) and _distinct(mistaken, right))


def _near_miss_by_definition(parsed, expected, tolerance) -> str | None:
    """The kind of near miss, from the definition in irlab.homework.answers's docstring, in Fractions."""
    if not parsed.ok or tolerance.form == "fraction":
        return None
    target, given_value = _target(expected), F(parsed.value)
    shown = parsed.decimals
    required = tolerance.decimals if tolerance.decimals is not None else tolerance.min_decimals
    if shown is not None and shown < required:
        nearest = rounded(target, shown)
        if given_value == nearest and (nearest != 0 or target == 0):
            return "rounded-too-coarsely"
    if "/" in parsed.shown:
        return None
    if target != 0 and abs(given_value - target) <= tolerance.near_rtol * abs(target):
        return "rounded-too-early"
    return None


near_tolerances = st.builds(Tolerance, rtol=st.sampled_from([F(1, 100), F(1, 1000)]),
                            decimals=st.none() | st.integers(0, 4), min_decimals=st.integers(0, 4),
                            near_rtol=st.sampled_from([F(0), F(1, 100), F(5, 100), F(1, 3)]))


@settings(max_examples=800, deadline=None)
@given(st.data(), values, near_tolerances)
def test_a_near_miss_is_found_as_by_its_definition(data, value, tolerance):
    """near_miss with its double-precision shortcut names what the definition names, word for word what it names
    without the shortcut, for answers on and around the near tolerance's line and the value rounded coarsely."""
    if data.draw(st.booleans()):
        places = data.draw(st.integers(0, 5))
        text = exact.decimal_text(rounded(_target(value), places) + data.draw(st.integers(-1, 1)) * F(1, 10**places),
                                  places, strip=False, scientific=False)
    else:
        answer = data.draw(near_the_line(value, tolerance.near_rtol))
        text = exact.decimal_text(_target(answer), data.draw(st.sampled_from([3, 6, 30])), scientific=False)
    parsed = parse_answer(text)
    fast = near_miss(parsed, value, tolerance)
    assert (fast.kind if fast else None) == _near_miss_by_definition(parsed, value, tolerance)
    saved = answers.certainly_far
    answers.certainly_far = lambda *args: False
    try:
        assert near_miss(parsed, value, tolerance) == fast
    finally:
        answers.certainly_far = saved


@settings(max_examples=300, deadline=None)
@given(st.builds(F, st.integers(-10**30, 10**30), st.integers(1, 10**30)) | st.integers(-10**30, 10**30))
def test_an_exact_value_is_its_own_fraction(value):
    found, exact_value = rational_value(value), answers.as_fraction(value)
    assert type(found) is F and type(exact_value) is F and found == exact_value == F(value)
    if type(value) is F:
        assert found is value and exact_value is value


def test_the_shortcuts_decide_clear_cases_and_leave_the_line_to_exact_arithmetic():
    """Not vacuous: doubles decide values clearly apart or together; the exact test decides on the line."""
    right = F(93, 133)
    assert _distinct_from(F(7, 10), 0.7, right, float(right))  # 0.11 % apart: told apart
    assert not _distinct_from(right * F(10005, 10000), float(right * F(10005, 10000)), right, float(right))
    on_line = right * F(1001, 1000)  # exactly 0.1 % apart: not told apart, decided exactly
    assert not _distinct_from(on_line, float(on_line), right, float(right)) and not _distinct(on_line, right)
    assert near_miss(parse_answer("0.088"), F(23, 264)).kind == "rounded-too-early"
    assert near_miss(parse_answer("0.5"), F(23, 264)) is None


def test_equal_feedback_hashes_alike_and_is_kept_once():
    made = [PartFeedback("1", "a", None, None, "0.35", "wrong", "Not quite: …", F(1, 4) * F(2), F(1), "mistake-x")
            for _ in range(2)]
    assert made[0] is not made[1] and made[0] == made[1] and hash(made[0]) == hash(made[1])
    assert kept(made[0]) is kept(made[1])
    other = PartFeedback("1", "a", None, None, "0.35", "wrong", "Not quite: …", F(0), F(1), "mistake-x")
    assert other != made[0] and kept(other) is other  # equal texts, another credit: feedback of its own


_DIGITS = "0123456789\u0660\u0661\u0669\uff10\uff13\uff19"  # ASCII, Arabic-Indic and fullwidth: all match \d
decimals = st.builds(lambda sign, whole, separator, places: sign + whole + separator + places,
                     st.sampled_from(["", "+", "-"]), st.text(_DIGITS, max_size=12), st.sampled_from(["", ".", ","]),
                     st.text(_DIGITS, max_size=12))


@settings(max_examples=800, deadline=None)
@given(decimals)
def test_a_decimal_is_read_as_fraction_reads_it(body):
    """_decimal_value, in integers, is Fraction's reading of the decimal (',' read as '.') for every text the
    decimal pattern takes, and parse_afresh gives it (a percentage: a hundredth of it)."""
    if not answers._DECIMAL.match(body):
        return
    value = F(body.replace(",", "."))
    assert answers._decimal_value(body) == value
    assert parse_afresh(body).value == value and parse_afresh(f" {body} %").value == value / 100
