"""A cell's exact value under any settings, computed by irlab's own metrics (the reference and every bug alike).

A cell is (system, topic, measure) or (system, mean, measure). Its value under ``settings`` is the irlab metric on
the topic's ranking built as the settings say (tie order, judgments seen), with the metric's conventions from the
settings, then the settings' rounding; a mean averages the exact per-topic values (or, ``mean = of-rounded``, the
printed ones). ``ABSENT`` is the value of a row the settings leave out (``missing_topics = dropped``).
"""

from __future__ import annotations

from fractions import Fraction

from .. import exact
from ..metrics import average_precision, dcg, idcg, ndcg, precision, r_precision, recall, reciprocal_rank
from .catalogue import METRIC_SETTINGS
from .collection import Collection

ABSENT = "absent"


def rounded(value, decimals: int, rounding: str) -> Fraction:
    """The value as printed with ``decimals`` places: half up, or truncated (toward zero); ``fewer-decimals`` rounds
    half up to one place fewer (round(x, 2) where 3 are asked)."""
    if rounding == "fewer-decimals":  # as printed one decimal short (the catalogue's bug tries each d: an int)
        rounding = decimals - 1
    if isinstance(rounding, int):
        decimals, rounding = max(rounding, 0), "half-up"
    if exact.is_symbolic(value):
        value = Fraction(exact.decimal_text(value, decimals + 12, strip=False, scientific=False))
    value = Fraction(value)
    scale = 10**decimals
    if rounding == "truncate":
        whole = abs(value.numerator) * scale // value.denominator
    else:
        whole = (2 * abs(value.numerator) * scale + value.denominator) // (2 * value.denominator)
    return Fraction(-whole if value < 0 else whole, scale)


def _metric_value(metric: str, ranking, k, s: dict):
    if metric == "precision":
        return precision(ranking, k=k, precision_denominator=s["precision_denominator"]).value
    if metric == "recall":
        if s["recall_denominator"] == "retrieved":  # hits@k over the documents retrieved up to k
            return precision(ranking, k=k, precision_denominator="retrieved").value
        if s["recall_denominator"] == "k":  # hits@k over k: P@k
            return precision(ranking, k=k).value
        return recall(ranking, k=k, recall_denominator=s["recall_denominator"]).value
    if metric == "rprec":
        return r_precision(ranking).value
    if metric == "ap":
        return average_precision(ranking, ap_denominator=s["ap_denominator"]).value
    if metric == "rr":
        return reciprocal_rank(ranking).value
    if metric == "ndcg":
        options = {"gain": s["gain"], "discount": s["discount"]}
        if s["ideal_cutoff"] == "none":
            ideal = idcg(ranking, **options).value
            return 0 if exact.is_zero(ideal) else exact.div(dcg(ranking, k=k, **options).value, ideal)
        return ndcg(ranking, k=k, **options).value
    raise AssertionError(metric)


class Calculator:
    """Exact cell values for one collection, each computed once (bugs and students share them)."""

    def __init__(self, collection: Collection, decimals: int):
        self.collection = collection
        self.decimals = decimals
        self._topic_values: dict = {}
        self._by_ranking: dict = {}  # many settings (a tie order on a topic without ties) give the same ranking

    def topic_value(self, system: str, topic: str, metric: str, k, settings: dict):
        """The exact value of one topic's cell (ABSENT for a row the settings drop), before rounding."""
        used = tuple((name, settings[name]) for name in METRIC_SETTINGS[metric] + ("missing_topics",))
        key = (system, topic, metric, k, used)
        if key not in self._topic_values:
            self._topic_values[key] = self._compute(system, topic, metric, k, settings)
        return self._topic_values[key]

    def _compute(self, system, topic, metric, k, s):
        topic_run = self.collection.topic_run(system, topic)
        ranking = topic_run.ranking(s["ties"], s["judgments_seen"])
        if ranking is None:
            return ABSENT if s["missing_topics"] == "dropped" else 0
        if k is not None:
            k = max(k + s["k_shift"], 1)
        used = tuple(s[name] for name in METRIC_SETTINGS[metric] if name not in ("ties", "judgments_seen", "k_shift"))
        key = (metric, ranking.grades, ranking.unretrieved, ranking.relevant, k, used)
        if key not in self._by_ranking:
            self._by_ranking[key] = _metric_value(metric, ranking, k, s)
        return self._by_ranking[key]

    def cell(self, system: str, topic: str | None, metric: str, k, settings: dict):
        """The exact value of a cell under ``settings`` (before the printed rounding), or ABSENT; ``topic`` None is
        the system's mean row: the mean of the exact per-topic values, or (``mean = of-rounded``) of the printed
        ones."""
        if topic is not None:
            return self.topic_value(system, topic, metric, k, settings)
        used = ("mean", "rounding", "missing_topics") + METRIC_SETTINGS[metric]
        key = (system, None, metric, k, tuple(settings[name] for name in used))
        if key not in self._topic_values:
            self._topic_values[key] = self._mean(system, metric, k, settings)
        return self._topic_values[key]

    def _mean(self, system: str, metric: str, k, settings: dict):
        values = [self.topic_value(system, t, metric, k, settings) for t in self.collection.topics]
        values = [v for v in values if v is not ABSENT]
        if not values:
            return ABSENT
        if settings["mean"] == "of-rounded":
            values = [rounded(v, self.decimals, settings["rounding"]) for v in values]
        return exact.div(exact.total(values), len(values))


def matches(given: Fraction | None, value, rounding: str, decimals: int, tolerance: Fraction) -> bool:
    """Whether the student's number ``given`` (None: no such row) is ``value`` as printed: within the tolerance of
    the exact value when rounded, or exactly its truncation; ABSENT is matched by a missing row only."""
    if value is ABSENT or given is None:
        return value is ABSENT and given is None
    hair = Fraction(1, 10**(decimals + 9))  # a float's error: far below any printed digit
    if rounding == "truncate":  # a float a hair below the value truncates one unit lower (0.29 -> 0.289): both count
        below = exact.sub(value, hair)
        return given in (rounded(value, decimals, "truncate"), rounded(below, decimals, "truncate"))
    if isinstance(rounding, int):  # the value rounded to ``rounding`` places, fewer than asked (either way at a tie)
        near = Fraction(exact.to_float(value)) if exact.is_symbolic(value) else Fraction(value)
        return (given * 10**rounding).denominator == 1 and abs(given - near) <= Fraction(1, 2 * 10**rounding) + hair
    if exact.is_symbolic(value):
        return abs(float(given) - exact.to_float(value)) <= float(tolerance) * (1 + 1e-9)
    return abs(given - Fraction(value)) <= tolerance


def printed(value, decimals: int, rounding: str):
    """The number an evaluator with this rounding prints for ``value`` (ABSENT stays ABSENT): two settings change a
    cell when their printed numbers differ."""
    return value if value is ABSENT else rounded(value, decimals, rounding)
