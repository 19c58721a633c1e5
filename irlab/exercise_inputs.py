"""An exercise's rankings read from its parameters: the one reading that exercise sets and solvers share.

``rankings``, or ``ranking`` for one query, with what is known about them: R (``relevant``, one per query with
``rankings``), the grades of judged documents not retrieved (``unretrieved``), N (``collection``) and the grade
threshold, and the system's scores at each rank (``scores``, one list per query with ``rankings``; equal scores are
ties). :mod:`irlab.exercise_set` solves its metric questions on them, and :mod:`irlab.solvers.extended` its
solvers over queries and systems.

``where`` is the place in the exercise file an error names (:class:`irlab.exercise_set.Where`): any object whose
``error(problem, key)`` returns the exception to raise.

>>> [(r.written(), r.total_relevant) for r in exercise_rankings({"rankings": ["RNR", "NRR"], "relevant": [3, 2]}, None)]
[('RNR', 3), ('NRR', 2)]
"""

from __future__ import annotations

from collections import OrderedDict

from .ranking import REMEMBERED_SIZE, Ranking, read_known, remembered, typed_key

UNRETRIEVED_PER_RANKING = ("with rankings, give one list of grades per ranking, such as [[2, 1], []] for two "
                           "rankings (a single list [2, 1] would not say which query's documents these are)")
SCORES_PER_RANKING = ("with rankings, give one list of scores per ranking, such as [[0.9, 0.5], [0.7, 0.7, 0.2]] for "
                      "two rankings")


def ranking_known(params: dict) -> dict:
    """What the parameters say about every ranking alike: N and the grade threshold."""
    return {key: params[key] for key in ("collection", "threshold") if key in params}


def _per_ranking(params: dict, key: str, count: int, where) -> list:
    """A value given once for every ranking, or a list of one per ranking (collection = [50, 40])."""
    value = params.get(key)
    if not isinstance(value, list):
        return [value] * count
    if len(value) != count:
        raise where.error(f"gives {len(value)} values for {count} rankings: one per ranking", f"parameters.{key}")
    return value


def parse_ranking(text, known: dict) -> Ranking:
    """One ranking as written in a set: an R/N string or a list of grades, with what is ``known`` about it (read once
    and shared: :func:`irlab.ranking.remembered`)."""
    return remembered(text, known)


def exercise_rankings(params: dict, where) -> list[Ranking]:
    """The exercise's ranking(s) with what is known about them (R per query for several rankings), read once for
    the values of the parameters they are read from: a draw's are read by its screen, its key's every question and
    each of its students' grading. A refusal is not remembered (raised afresh, naming ``where``)."""
    try:
        key = tuple([(name, typed_key(params[name])) for name in _READ_FROM if name in params])
        rankings = _READ.get(key)
    except TypeError:  # a value that cannot be a key: read afresh
        return _read_rankings(params, where)
    if rankings is None:
        rankings = _READ[key] = tuple(_read_rankings(params, where))
        if len(_READ) > REMEMBERED_SIZE:
            _READ.popitem(last=False)
    else:
        _READ.move_to_end(key)
    return list(rankings)  # the caller's own list of the shared (frozen) rankings


_READ_FROM = ("ranking", "rankings", "relevant", "unretrieved", "scores", "collection", "threshold")  # all it reads:
# the key names the ones given, so that a parameter absent and one given as None (threshold = None, refused) differ
_READ: OrderedDict = OrderedDict()  # the parameters' values (typed) -> their rankings, least recently read forgotten


def _read_rankings(params: dict, where) -> list[Ranking]:
    if "rankings" in params:
        texts = params["rankings"]
        relevant = params.get("relevant")
        relevant = relevant if isinstance(relevant, list) else [relevant] * len(texts)
        unretrieved = params.get("unretrieved") or [()] * len(texts)
        if not all(isinstance(grades, (list, tuple)) for grades in unretrieved):
            raise where.error(UNRETRIEVED_PER_RANKING, "parameters.unretrieved")
        scores = params.get("scores") or [None] * len(texts)
        if not all(s is None or isinstance(s, list) for s in scores):
            raise where.error(SCORES_PER_RANKING, "parameters.scores")
        for key, values in (("relevant", relevant), ("unretrieved", unretrieved), ("scores", scores)):
            if len(values) != len(texts):
                raise where.error(f"gives {len(values)} values for {len(texts)} rankings: one per ranking",
                                  f"parameters.{key}")
        collections = _per_ranking(params, "collection", len(texts), where)
        known = {key: value for key, value in ranking_known(params).items() if key != "collection"}
        return [read_known(t, {"relevant": r, "unretrieved": tuple(u), **_scored(s), **known,
                                  **({} if n is None else {"collection": n})})
                for t, r, u, s, n in zip(texts, relevant, unretrieved, scores, collections)]
    if "ranking" not in params:
        raise where.error("this question needs a ranking (parameters.ranking or parameters.rankings)", "parameters.ranking")
    if isinstance(params.get("collection"), list):
        raise where.error("one ranking has one collection size N: a list of them goes with rankings",
                          "parameters.collection")
    known = {"relevant": params.get("relevant"), "unretrieved": tuple(params.get("unretrieved", ())),
             **_scored(params.get("scores")), **ranking_known(params)}
    return [read_known(params["ranking"], known)]


def _scored(scores) -> dict:
    """The scores a ranking is built with, when the set gives them (a ranking without them has no ties)."""
    return {} if scores is None else {"scores": scores}
