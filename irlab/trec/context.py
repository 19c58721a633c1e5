"""What the trec_eval measures read and what an evaluation returns: the judged retrieved documents of the topics
(:class:`EvalContext`, built by :func:`irlab.trec.evaluate.prepare`) and the values per topic and in all
(:class:`EvalResult`). Both live here, below the measures and the evaluation that use them.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


__all__ = ["EvalContext", "EvalResult", "TopicRows", "safe_div"]


class EvalContext:
    """Judged retrieved documents of a set of topics, plus cached helpers."""

    def __init__(self, *, names, topics_b, nret, rel, seg, pos, level, rel_levels,
                 maxgrade, missing, runid, ideal_grades=None, num_docs_in_coll=0,
                 complete=False, qrels_positive_lines=0):
        self.names = names            # list[str] topic ids (string order)
        self.topics_b = topics_b      # np S array of the same
        self.T = len(names)
        self.nret = nret              # int64 (T,) number of ranked docs
        self.rel = rel                # int64 (N,) grade (>= 0) or -2, judged docs only
        self.seg = seg                # int64 (N,) topic index
        self.pos = pos                # int64 (N,) 0-based rank within the topic
        self.N = len(rel)
        counts = np.bincount(seg, minlength=self.T)[: self.T].astype(np.int64)
        self.start = np.concatenate(([0], np.cumsum(counts)[:-1])).astype(np.int64)
        self.count = counts
        self.level = level
        self.rel_levels = rel_levels  # int64 (T, G) counts of judged docs per grade >= 0
        self.maxgrade = maxgrade      # int64 (T,) max grade in the topic's qrels (any sign)
        self.missing = missing        # bool (T,) topic absent from run (-c): ranked on a stand-in
        self.complete = complete      # trec_eval -c
        self.qrels_positive_lines = qrels_positive_lines  # qrels lines with grade > 0, all topics
        self.runid = runid
        self.ideal_grades = ideal_grades  # (seg, grade) of positive judged docs, grade desc
        self.num_docs_in_coll = num_docs_in_coll  # trec_eval -N
        self._cache = {}

    # ---- generic segment helpers (over the judged retrieved docs) ---------------
    def segsum(self, x):
        return np.bincount(self.seg, weights=x, minlength=self.T)[: self.T]

    def segcount(self, mask):
        return np.bincount(self.seg[mask], minlength=self.T)[: self.T].astype(np.int64)

    def segcumsum(self, x):
        """Inclusive cumulative sum of x within each topic."""
        c = np.cumsum(x)
        if self.N == 0:
            return c
        before = np.zeros(self.T, dtype=c.dtype)
        nz = self.start > 0
        before[nz] = c[self.start[nz] - 1]
        return c - before[self.seg]

    def sum_before(self, x, k):
        """Per topic: sum of x over judged docs ranked in the top k (k scalar or (T,))."""
        k = np.asarray(k)
        lim = k[self.seg] if k.ndim else k
        return np.bincount(self.seg, weights=np.where(self.pos < lim, x, 0.0),
                           minlength=self.T)[: self.T]

    def count_before(self, mask, k):
        """Per topic: number of judged docs with ``mask`` ranked in the top k."""
        k = np.asarray(k)
        lim = k[self.seg] if k.ndim else k
        return self.segcount(mask & (self.pos < lim)).astype(np.float64)

    def cached(self, key, fn):
        v = self._cache.get(key)
        if v is None:
            v = fn()
            self._cache[key] = v
        return v

    # ---- common quantities ------------------------------------------------------
    @property
    def isrel(self):
        return self.cached("isrel", lambda: self.rel >= self.level)

    @property
    def crel(self):
        """At each judged doc: relevant docs ranked at or above it."""
        return self.cached("crel", lambda: self.segcumsum(self.isrel.astype(np.int64)))

    @property
    def R(self):
        def f():
            lo = max(self.level, 0)
            return self.rel_levels[:, lo:].sum(axis=1).astype(np.int64)
        return self.cached("R", f)

    @property
    def num_rel_ret(self):
        return self.cached("nrr", lambda: self.segcount(self.isrel))

    @property
    def prec(self):
        """Precision at each judged doc's rank (meaningful at relevant docs)."""
        return self.cached("prec", lambda: self.crel / (self.pos + 1.0))

    def disc_prefix(self, n):
        """H[m] = sum_{i<m} 1/log2(i+2), for m = 0..n."""
        h = self._cache.get("H")
        if h is None or len(h) < n + 1:
            m = max(n + 1, 1024, 2 * (len(h) if h is not None else 0))
            h = np.concatenate(([0.0], np.cumsum(1.0 / np.log2(np.arange(m) + 2.0))))
            self._cache["H"] = h
        return h


def safe_div(a, b):
    a = np.asarray(a, dtype=np.float64)
    b = np.asarray(b, dtype=np.float64)
    out = np.zeros(np.broadcast(a, b).shape)
    np.divide(a, b, out=out, where=b != 0)
    return out


class TopicRows:
    """Per-topic values not yet made into dicts: ``names`` (topics, in order) and ``columns`` (measure name -> one
    value per topic).  An :class:`EvalResult` given these builds its ``per_topic`` dict when first read, so that
    ``irlab eval`` without ``-q`` (which prints the means only) never makes 7,000 topics' dicts."""

    __slots__ = ("names", "columns")

    def __init__(self, names, columns):
        self.names, self.columns = names, columns

    def __repr__(self) -> str:  # what vars(result) shows before per_topic is read: no address
        return f"TopicRows({len(self.names)} topics, columns {list(self.columns)})"

    def __reduce__(self):  # pickled by its fields under every protocol (__slots__ alone need protocol 2 or more)
        return TopicRows, (self.names, self.columns)

    def dicts(self) -> dict:
        # a topic's dict made in one call from its row of the columns (a store per topic and column takes longer)
        rows = zip(*self.columns.values()) if self.columns else ((),) * len(self.names)
        return {name: dict(zip(self.columns, row)) for name, row in zip(self.names, rows)}


class _PerTopic:
    """EvalResult.per_topic: a dict, made from :class:`TopicRows` on first read when given those."""

    def __set_name__(self, owner, name):
        # the instance's dict holds the value under the field's own name (vars(), pickle and copy see per_topic):
        # a data descriptor is looked up before the instance's dict, so every read still comes here
        self.slot = name

    def __get__(self, result, owner=None):
        if result is None:
            raise AttributeError   # a field without a default (dataclasses asks the class)
        value = result.__dict__[self.slot]
        if isinstance(value, TopicRows):
            value = result.__dict__[self.slot] = value.dicts()
        return value

    def __set__(self, result, value):
        result.__dict__[self.slot] = value


@dataclass
class EvalResult:
    """Result of :func:`irlab.trec.evaluate.evaluate`.

    ``per_topic``: topic -> measure name -> value (float; int for counts,
    str for relstring); ``summary``: measure name -> value (the ``all`` line).
    ``columns`` lists output measure names in trec_eval order.
    """

    per_topic: dict = _PerTopic()   # (a TopicRows given is made a dict when first read)
    summary: dict
    columns: list
    runid: str
    integer_columns: frozenset = frozenset()
    topic_columns: tuple = ()

    def to_dataframe(self):
        """Per-topic values as a pandas DataFrame (index: topic; plus row 'all')."""
        try:
            import pandas as pd  # deferred: pandas is heavy and optional (irlab[pandas])
        except ImportError as exc:  # pragma: no cover - depends on environment
            raise ImportError("EvalResult.to_dataframe() needs pandas: pip install irlab[pandas]") from exc
        rows = {t: dict(v) for t, v in self.per_topic.items()}
        rows["all"] = dict(self.summary)
        return pd.DataFrame.from_dict(rows, orient="index", columns=self.columns)

    def _repr_html_(self) -> str:  # Jupyter: the per-topic table (irlab.display)
        # deferred: the document model and its renderers are Jupyter's, not irlab eval's
        from irlab.display import eval_result_document

        return eval_result_document(self).render("html")

    def __getitem__(self, topic):
        if topic == "all":
            return self.summary
        return self.per_topic[topic]
