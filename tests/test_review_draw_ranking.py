"""Adversarial review of ranking.remembered, the one cache of rankings read with what is known: two different
inputs must never be given the same Ranking, and a Ranking read once must not change for later readers."""

from fractions import Fraction

import pytest

from irlab.errors import IrlabError
from irlab.exercise_inputs import parse_ranking
from irlab.ranking import Ranking


@pytest.mark.parametrize("field, first, changed", [
    ("ids", ["d1", "d2"], ["zz", "d2"]),
    ("unjudged", [2], [1]),
    ("sampled_out", [2], [1]),
    ("remarks", ["judged twice"], ["changed"]),
])
def test_a_list_changed_after_reading_is_not_served_to_a_later_reader(field, first, changed):
    # a Ranking keeps these fields as given; a list its caller changes afterwards must not reach the next reader
    given = list(first)
    known = {field: given, **({"unjudged": [2]} if field == "sampled_out" else {})}
    Ranking.parse("RN", **known)
    given[:] = changed
    again = Ranking.parse("RN", **{**known, field: list(first)})
    assert list(getattr(again, field)) == first


@pytest.mark.parametrize("first, second", [
    ("RN", ["R", "N"]),
    ("1 0", [1, 0]),
    ([1, 0], (1, 0)),
    ("RN", "RN "),
    ("RN", "R N"),
])
def test_different_writings_are_read_each_as_written(first, second):
    def read(written):
        try:
            ranking = parse_ranking(written, {})
        except IrlabError as error:
            return type(error).__name__, str(error)
        return ranking.grades, ranking.text, ranking.binary

    expected = [read(first), read(second)]
    from irlab import ranking as module
    module._REMEMBERED.clear()
    assert [read(second), read(first)] == expected[::-1]


@pytest.mark.parametrize("value", [True, 1.0, Fraction(1), "1"])
def test_a_known_value_of_another_type_than_int_is_not_served_the_int_one(value):
    parse_ranking("RNR", {"relevant": 2})
    try:
        ranking = parse_ranking("RNR", {"relevant": value})
    except IrlabError as error:
        assert "number of relevant documents R" in str(error)
    else:  # only an int R is accepted: anything read must carry the value given
        assert ranking.relevant is value
