"""Adversarial review (session 41) of the remembered readings of an exercise's rankings (exercise_inputs.
exercise_rankings keyed by its parameters' values, ranking.read_known building a ranking with R, N, unretrieved
grades, threshold or scores on its text's remembered reading): every reading, in any order and after the
parameters' lists are changed in place, equals a Ranking built afresh from the same parameters (its fields, its
relevance and hit counts, its description and R), and every refusal has the fresh refusal's words and names the
place it is given each time."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from irlab.errors import IrlabError
from irlab.exercise_inputs import exercise_rankings, parse_ranking
from irlab.ranking import Ranking

TEXTS = ["RNRNN", "rnr|nn", "RNUSR", "RUUS", "-", "3,2,0,1", "3 2 0 1", "1,0,1", "0,0", "1 1 1", "RXN", "2,-1,0",
         "1.5,2", "R N R", "NNNN", "0", "1", "3;2;0", "RNRNNRNRNNRRRRR"]
LISTS = [[3, 2, 0, 1], [1, 0, 1], [True, False, 1], [1.0, 0], [0, 0], [], [2, -1], ["1", 0], [1, 0, 2]]
KNOWN = {  # the usual values first: the readings that pass are as many as the refusals
    "relevant": [3, 2, 5, 0, 1, True, 2.0, -1, "3"],
    "unretrieved": [[], [0], [2, 0], [1], [1, 1, 1], [3], [True], [1.0], [-1], ["2"]],
    "collection": [100, 50, 20, 5, 1, 0, True, 7.0],
    "threshold": [1, 2, 3, 0, True, 2.0, None],
    "scores": [[0.9, 0.5, 0.5, 0.1, 0.0], "0.9,0.8,0.8", [1, 2], [0.5] * 4, [0.5] * 5, [3, 2, 1]],
}


class Where:
    def __init__(self, name):
        self.name = name

    def error(self, problem, key):
        return IrlabError(f"{self.name}: {key}: {problem}")


def _fresh(params: dict) -> Ranking:
    """The ranking of a set's ``ranking`` parameter read as the session's start read it: with what is known, no
    reading remembered."""
    known = {"relevant": params.get("relevant"), "unretrieved": tuple(params.get("unretrieved", ()))}
    if params.get("scores") is not None:
        known["scores"] = params["scores"]
    known.update({key: params[key] for key in ("collection", "threshold") if key in params})
    written = params["ranking"]
    if isinstance(written, list):
        return Ranking.from_grades(written, **known)
    return Ranking._parse(str(written), **known)


def _seen(read) -> str:
    try:
        r = read()
    except IrlabError as error:
        return f"refused: {type(error).__name__}: {error}"
    return repr(([getattr(r, name) for name in ("grades", "relevant", "unretrieved", "collection", "threshold", "text",
                                                "binary", "ids", "remarks", "unjudged", "sampled_out", "scores")],
                 r.relevance, r._hits_so_far, r._description, r.total_relevant, r.written()))


def _params(draw) -> dict:
    written = draw(st.sampled_from(TEXTS + LISTS))
    params = {"ranking": list(written) if isinstance(written, list) else written}
    for name, values in KNOWN.items():
        if draw(st.booleans()):
            value = draw(st.sampled_from(values[:3]) if draw(st.booleans()) else st.sampled_from(values))
            params[name] = list(value) if isinstance(value, list) else value
    return params


@settings(max_examples=400, derandomize=True, deadline=None)
@given(st.data())
def test_remembered_readings_equal_fresh_ones_in_any_order_and_after_lists_change(data):
    drawn = [_params(data.draw) for _ in range(6)]
    for turn, params in enumerate(drawn + drawn[::-1]):  # each read twice: the second from what was remembered
        where = Where(f"exercise {turn}")
        _seen(lambda: parse_ranking(params["ranking"], {}))  # the text read alone, its relevance worked out
        ours = _seen(lambda: exercise_rankings(params, where)[0])
        fresh = _seen(lambda: _fresh(params))
        if fresh.startswith("refused"):  # a refusal of the ranking itself: the same words; the place named each time
            assert ours == fresh or ours.startswith(f"refused: IrlabError: exercise {turn}: "), (params, ours, fresh)
        else:
            assert ours == fresh, params
        for name, value in params.items():  # a list changed in place after reading: the next reading sees it
            if isinstance(value, list) and value and data.draw(st.booleans()):
                value[data.draw(st.integers(0, len(value) - 1))] = data.draw(st.sampled_from([0, 1, 2, 3, 0.5]))
                assert _seen(lambda: exercise_rankings(params, where)[0]) == _seen(lambda: _fresh(params)), params
