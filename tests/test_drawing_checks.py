"""What drawing a variant checks, done cheaply and with the same outcome: the statement filled once per exercise
(later draws only where a drawn value could make it fail), integers drawn as randint draws them, and one cache of
rankings read with what is known about them."""

import random
from dataclasses import replace

import pytest

from irlab.errors import InputFileError, IrlabError
from irlab.exercise_inputs import parse_ranking
from irlab.exercise_set import _shown_parameter, load, statement_text
from irlab.homework import drawing
from irlab.limits import MAX_FILLED_TEXT
from irlab.ranking import REMEMBERED_TEXT, Ranking

MANY_PLACEHOLDERS = 60  # times the statement names {ranking}: a 20,000-document list fills more than MAX_FILLED_TEXT

SET = f'''
id = "checks"
title = "Checks"

[[exercise]]
id = "1"
statement = """{"{ranking} " * MANY_PLACEHOLDERS}"""

[exercise.parameters]
ranking = "RNRNN"
relevant = 3

[exercise.variants]
ranking = {{ length = [5, 8], relevant = [1, 3] }}

[[exercise.question]]
id = "a"
solver = "precision"
'''


@pytest.fixture
def exercise(tmp_path):
    path = tmp_path / "checks.toml"
    path.write_text(SET)
    drawing.clear_drawing_caches()
    return path, load(path).exercises[0]


def drawn(exercise, **params):
    candidate = replace(exercise, parameters={**exercise.parameters, **params})
    return candidate, repr(candidate.parameters)


def message(call):
    """The error ``call`` raises: an input file's, naming the file and the exercise."""
    with pytest.raises(InputFileError) as raised:
        call()
    return str(raised.value)


def test_the_statement_is_filled_for_the_first_draw_and_where_a_later_draw_could_fail(exercise, monkeypatch):
    path, written = exercise
    filled = []
    monkeypatch.setattr(drawing, "statement_text", lambda *args: filled.append(args) or statement_text(*args))
    for ranking in ("RNRNNR", "NNRRNRNR", "RRNNN"):
        drawing._check_statement(written, *drawn(written, ranking=ranking), path)
    assert len(filled) == 1  # later draws of short lists cannot reach the limit: not filled again
    long, text = drawn(written, ranking="RN" * 10_000)  # 20,000 characters, named 60 times: more than the limit
    assert len("RN" * 10_000) * MANY_PLACEHOLDERS > MAX_FILLED_TEXT
    refused = message(lambda: drawing._check_statement(written, long, text, path))
    assert refused == message(lambda: statement_text(long, long.parameters, path))
    assert "MAX_FILLED_TEXT" in refused and len(filled) == 2


def test_a_later_draw_whose_ranking_or_threshold_cannot_be_read_is_refused_as_when_filled(exercise):
    path, written = exercise
    drawing._check_statement(written, *drawn(written, ranking="RNRNN"), path)
    for bad in ({"ranking": "RNXN"}, {"threshold": [1, 2]}, {"threshold": 0}):
        candidate, text = drawn(written, **bad)
        refused = message(lambda: drawing._check_statement(written, candidate, text, path))
        assert refused == message(lambda: statement_text(candidate, candidate.parameters, path))
    drawing._check_statement(written, *drawn(written, ranking="RNR", threshold=1), path)  # a good threshold passes


@pytest.mark.parametrize("key, value", [
    ("rankings", ["R"] * 50), ("rankings", [[1, 0]] * 7), ("ranking", "R"), ("ranking", [3, 0, 12]),
    ("judgments", [[d, 1, 0] for d in range(1, 15)]), ("relevant", [1, 2, 3]), ("collection", 10**12),
    ("counts", [{"tp": 1, "fp": 2}, {"tp": 3, "fp": 0}]), ("systems", {"A": ["RN", "NR"], "B": [[0.9, 0.1]]}),
    ("runs", {"A": ["d1", "d2"], "B": {"x": "R"}}), ("title", "é\n\t"),
])
def test_a_value_is_shown_in_at_most_twice_the_characters_of_its_repr(key, value):
    # the bound drawing._check_statement relies on: "R and R and ..." is the closest to it
    assert len(str(_shown_parameter(key, value))) <= 2 * len(repr(value))


def test_integers_are_drawn_as_randint_draws_them():
    for low, high in ((0, 1), (0, 3), (5, 9), (7, 7), (200, 10_000)):
        ours, theirs = random.Random(low * 31 + high), random.Random(low * 31 + high)
        assert [low + ours._randbelow(high - low + 1) for _ in range(500)] == \
               [theirs.randint(low, high) for _ in range(500)]


def test_one_cache_serves_rankings_read_bare_and_with_what_is_known():
    known = {"relevant": 5, "unretrieved": (), "collection": 200}
    assert Ranking.parse("RNRNN", **known) is parse_ranking("RNRNN", dict(known))
    assert Ranking.parse("RNRNNR") is parse_ranking("RNRNNR", {}) == Ranking._parse("RNRNNR")
    assert parse_ranking([3, 0, 1], {}) is parse_ranking([3, 0, 1], {}) == Ranking.from_grades([3, 0, 1])
    assert parse_ranking("3,0,1", {}) is not parse_ranking([3, 0, 1], {})  # written differently, shown differently
    assert parse_ranking("3,0,1", {}).text == "3,0,1" and parse_ranking([3, 0, 1], {}).text is None
    long = "RN" * REMEMBERED_TEXT  # a TREC-sized text read bare is read afresh
    assert Ranking.parse(long) is not Ranking.parse(long) and Ranking.parse(long) == Ranking._parse(long)
    assert Ranking.parse("RN", relevant=1).relevant == 1
    with pytest.raises(IrlabError, match="R must be an integer"):
        Ranking.parse("RN", relevant=True)  # True equals 1 as a key goes, and is refused as before
    with pytest.raises(IrlabError, match="R must be an integer"):
        Ranking.parse("RN", relevant=1.0)
