"""Vectorised batch evaluation with trec_eval 10.0 semantics.

All documents of all evaluated topics live in flat numpy arrays, sorted by
topic (string order), then score descending, then docno descending (byte
order) -- trec_eval's ranking.  Measures are computed with segment-wise
cumulative sums; there is no Python loop per document (loops run per measure,
per cutoff or per relevance level).

Relevance value of a ranked document (``ctx.rel``), as in trec_eval:

* ``g >= 0``  the judged grade,
* ``-1``      not in the qrels ("not in pool"),
* ``-2``      in the qrels with a negative grade ("in pool, unjudged").
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numpy as np

from irlab.errors import IrlabError, ParameterError
from irlab.trec.readers import Qrels, Run, docno_keys, mix_topic, read_qrels, read_run

__all__ = ["EvalContext", "prepare", "evaluate", "EvalResult", "topic_judgments", "TopicJudgments"]

NONPOOL = -1
UNJUDGED = -2


class EvalContext:
    """Ranked, joined data for a set of topics, plus cached helpers."""

    def __init__(self, *, names, topics_b, start, nret, rel, seg, level, rel_levels,
                 maxgrade, missing, runid, ideal_grades=None, docno=None):
        self.names = names            # list[str] topic ids (string order)
        self.topics_b = topics_b      # np S array of the same
        self.T = len(names)
        self.start = start            # int64 (T,) offset of each topic in flat arrays
        self.nret = nret              # int64 (T,) number of ranked docs
        self.rel = rel                # int64 (N,)
        self.seg = seg                # int64 (N,) topic index of each doc
        self.N = len(rel)
        self.pos = np.arange(self.N, dtype=np.int64) - start[seg] if self.N else np.zeros(0, np.int64)
        self.level = level
        self.rel_levels = rel_levels  # int64 (T, G) counts of judged docs per grade >= 0
        self.maxgrade = maxgrade      # int64 (T,) max grade in the topic's qrels (any sign)
        self.missing = missing        # bool (T,) topic absent from run (-c)
        self.runid = runid
        self.ideal_grades = ideal_grades  # (seg, grade) of positive judged docs, grade desc
        self.docno = docno
        self._cache = {}

    # ---- generic segment helpers ------------------------------------------------
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

    def at_cut(self, cum, k):
        """Value of an inclusive within-topic cumulative array at prefix length
        min(k, nret) (0 for an empty prefix).  ``k`` scalar or (T,) array."""
        k = np.minimum(np.asarray(k, dtype=np.int64), self.nret)
        k = np.broadcast_to(k, (self.T,))
        out = np.zeros(self.T, dtype=np.float64)
        ok = k > 0
        if ok.any():
            out[ok] = cum[self.start[ok] + k[ok] - 1]
        return out

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
        return self.cached("crel", lambda: self.segcumsum(self.isrel.astype(np.int64)))

    @property
    def R(self):
        def f():
            lo = max(self.level, 0)
            return self.rel_levels[:, lo:].sum(axis=1).astype(np.int64)
        return self.cached("R", f)

    @property
    def num_rel_ret(self):
        return self.cached("nrr", lambda: self.segcount((self.rel >= 0) & (self.rel >= self.level)))

    @property
    def prec(self):
        """Precision at each ranked doc."""
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


# ---------------------------------------------------------------------------
# preparation: select topics, rank, cut at depth, join with qrels


def _index_in(sorted_vals, vals):
    """Position of each of ``vals`` in the sorted unique array, -1 if absent."""
    if len(sorted_vals) == 0:
        return np.full(len(vals), -1, dtype=np.int64)
    p = np.searchsorted(sorted_vals, vals)
    pc = np.minimum(p, len(sorted_vals) - 1)
    found = sorted_vals[pc] == vals
    return np.where(found, pc, -1).astype(np.int64)


def rank_order(seg, score, docno):
    """Indices sorting rows by (seg asc, score desc, docno desc) -- trec_eval's
    ranking.

    Fast path (the usual shape of run files): every topic's lines are
    contiguous and already in non-increasing score order; then only the
    topic blocks are permuted and tied scores re-ordered, without a full
    sort.  Otherwise: stable argsort by score, then stable (radix) sort by
    topic."""
    n = len(seg)
    if n == 0:
        return np.zeros(0, dtype=np.int64)
    order = _presorted_order(seg, score)
    if order is None:
        o1 = np.argsort(-score, kind="stable")
        segs = seg[o1]
        if segs.max(initial=0) < 65536:
            segs = segs.astype(np.uint16)  # radix sort
        order = o1[np.argsort(segs, kind="stable")]
    _resolve_ties(order, seg, score, docno)
    return order


def _presorted_order(seg, score):
    n = len(seg)
    brk = seg[1:] != seg[:-1]
    starts = np.concatenate(([0], np.flatnonzero(brk) + 1))
    codes = seg[starts]
    if len(np.unique(codes)) != len(codes):
        return None  # some topic is split over several blocks
    inc = score[1:] > score[:-1]
    if (inc & ~brk).any():
        return None  # scores not in descending order within a topic
    lens = np.diff(np.append(starts, n))
    perm = np.argsort(codes, kind="stable")
    new_starts = np.concatenate(([0], np.cumsum(lens[perm])[:-1]))
    shift = np.repeat(starts[perm] - new_starts, lens[perm])
    return np.arange(n, dtype=np.int64) + shift


def _resolve_ties(order, seg, score, docno):
    """Within runs of equal (topic, score), order rows by docno descending."""
    n = len(order)
    s = score[order]
    g = seg[order]
    tie = (s[1:] == s[:-1]) & (g[1:] == g[:-1])
    if not tie.any():
        return
    in_tie = np.zeros(n, dtype=bool)
    in_tie[1:] |= tie
    in_tie[:-1] |= tie
    tpos = np.flatnonzero(in_tie)
    first = in_tie.copy()
    first[1:] &= ~tie
    gid = np.cumsum(first)[tpos] - 1
    rows = order[tpos]
    words = docno_words(docno[rows])
    m = len(rows)
    if words.shape[1] == 1 and m < (1 << 31):
        # rank of each docno (descending) among the tied rows, then one packed
        # (group, rank) sort -- both keys unique within a group
        r = np.empty(m, dtype=np.uint64)
        r[np.argsort(~words[:, 0])] = np.arange(m, dtype=np.uint64)
        bits = max(int(m - 1).bit_length(), 1)
        packed = (gid.astype(np.uint64) << np.uint64(bits)) | r
        packed.sort()
        rank_sorted = packed & np.uint64((1 << bits) - 1)
        inv = np.empty(m, dtype=np.int64)
        inv[r.astype(np.int64)] = np.arange(m)
        order[tpos] = rows[inv[rank_sorted.astype(np.int64)]]
    else:
        # lexsort: last key is primary -> group asc, then docno desc (~word)
        keys = [~words[:, j] for j in range(words.shape[1] - 1, -1, -1)]
        order[tpos] = rows[np.lexsort(keys + [gid])]


def docno_words(docno):
    """Docnos as big-endian uint64 words: comparing rows of words compares
    the byte strings (NUL padded), i.e. strcmp order.  A prefix common to
    all the given docnos is dropped first (it does not change their order)."""
    n = len(docno)
    w = docno.dtype.itemsize
    if n == 0:
        return np.zeros((0, 1), dtype=np.uint64)
    u = np.ascontiguousarray(docno).view(np.uint8).reshape(n, w)
    used = np.flatnonzero(u.any(axis=0))
    width = int(used[-1]) + 1 if len(used) else 1
    same = (u[:, :width] == u[0, :width]).all(axis=0)
    p = int(np.argmin(same)) if not same.all() else width
    p = min(p, width - 1)
    rest = u[:, p:width]
    w8 = (rest.shape[1] + 7) // 8 * 8
    buf = np.zeros((n, w8), dtype=np.uint8)
    buf[:, : rest.shape[1]] = rest
    return buf.view(">u8").astype(np.uint64)


def prepare(qrels, run, *, relevance_level=1, depth=None, complete=False) -> EvalContext:
    qrels = read_qrels(qrels)
    run = read_run(run)
    level = int(relevance_level)
    if depth is not None:
        depth = int(depth)
        if depth < 0:
            raise ParameterError(f"depth (-M) must be >= 0, got {depth}")

    if complete:
        topics_b = qrels.topics
    else:
        topics_b = np.intersect1d(qrels.topics, run.topics)
    T = len(topics_b)
    if T == 0:
        raise IrlabError(
            f"no topic has both judgments ({qrels.path}) and results ({run.path})"
        )
    names = [t.decode("utf-8", errors="surrogateescape") for t in topics_b.tolist()]

    # ---- run rows of evaluated topics, ranked
    rmap = _index_in(topics_b, run.topics)
    rseg = rmap[run.topic_idx]
    keep = rseg >= 0
    rhash = run.dochash if run.dochash is not None else docno_keys(run.docno)
    if keep.all():
        seg0, score, docno = rseg, run.score, run.docno
    else:
        idx = np.flatnonzero(keep)
        seg0, score, docno, rhash = rseg[idx], run.score[idx], run.docno[idx], rhash[idx]
    order = rank_order(seg0, score, docno)
    seg = seg0[order]
    docno = docno[order]
    rhash = rhash[order]
    del score
    counts = np.bincount(seg, minlength=T).astype(np.int64)
    start = np.concatenate(([0], np.cumsum(counts)[:-1])).astype(np.int64)
    if depth is not None and len(seg):
        pos = np.arange(len(seg), dtype=np.int64) - start[seg]
        cut = pos < depth
        if not cut.all():
            seg, docno, rhash = seg[cut], docno[cut], rhash[cut]
            counts = np.minimum(counts, depth)
            start = np.concatenate(([0], np.cumsum(counts)[:-1])).astype(np.int64)
    missing = ~np.isin(topics_b, run.topics)

    # ---- qrels rows of evaluated topics
    qmap = _index_in(topics_b, qrels.topics)
    qseg_all = qmap[qrels.topic_idx]
    qkeep = qseg_all >= 0
    qseg = qseg_all[qkeep]
    qdoc = qrels.docno[qkeep]
    qgrade = qrels.grade[qkeep]
    qhash = (qrels.dochash if qrels.dochash is not None else docno_keys(qrels.docno))[qkeep]

    # ---- join
    rel = np.full(len(seg), NONPOOL, dtype=np.int64)
    if len(seg) and len(qseg):
        qk = mix_topic(qhash, qseg)
        rk = mix_topic(rhash, seg)
        qo = np.argsort(qk)
        qks = qk[qo]
        # prefilter with a bitmap of the qrels keys' low bits, then binary search
        bits = max(16, min(26, int(len(qks) * 16).bit_length()))
        mask = np.uint64((1 << bits) - 1)
        table = np.zeros(1 << bits, dtype=bool)
        table[(qks & mask).astype(np.int64)] = True
        cand = np.flatnonzero(table[(rk & mask).astype(np.int64)])
        p = np.searchsorted(qks, rk[cand])
        pc = np.minimum(p, len(qks) - 1)
        hit = qks[pc] == rk[cand]
        hi = cand[hit]
        qi = qo[pc[hit]]
        real = (qseg[qi] == seg[hi]) & (qdoc[qi] == docno[hi])
        hi, qi = hi[real], qi[real]
        g = qgrade[qi]
        rel[hi] = np.where(g >= 0, g, UNJUDGED)

    # ---- per-topic judgment statistics
    nonneg = qgrade >= 0
    G = int(qgrade.max()) + 1 if len(qgrade) and qgrade.max() >= 0 else 1
    rel_levels = np.bincount(qseg[nonneg].astype(np.int64) * G + qgrade[nonneg], minlength=T * G)
    rel_levels = rel_levels[: T * G].reshape(T, G).astype(np.int64)
    maxgrade = np.full(T, np.iinfo(np.int64).min, dtype=np.int64)
    if len(qseg):
        np.maximum.at(maxgrade, qseg, qgrade)
    pos_mask = qgrade > 0
    io = np.lexsort((-qgrade[pos_mask], qseg[pos_mask]))
    ideal = (qseg[pos_mask][io].astype(np.int64), qgrade[pos_mask][io].astype(np.int64))

    return EvalContext(
        names=names, topics_b=topics_b, start=start, nret=counts, rel=rel,
        seg=seg.astype(np.int64), level=level, rel_levels=rel_levels, maxgrade=maxgrade,
        missing=missing, runid=run.runid, ideal_grades=ideal, docno=docno,
    )


# ---------------------------------------------------------------------------
# public API


@dataclass
class EvalResult:
    """Result of :func:`evaluate`.

    ``per_topic``: topic -> measure name -> value (float; int for counts,
    str for relstring); ``summary``: measure name -> value (the ``all`` line).
    ``columns`` lists output measure names in trec_eval order.
    """

    per_topic: dict
    summary: dict
    columns: list
    runid: str
    integer_columns: frozenset = frozenset()
    topic_columns: tuple = ()

    def to_dataframe(self):
        """Per-topic values as a pandas DataFrame (index: topic; plus row 'all')."""
        try:
            import pandas as pd  # noqa: WPS433 (lazy import by design)
        except ImportError as exc:  # pragma: no cover - depends on environment
            raise ImportError("EvalResult.to_dataframe() needs pandas: pip install irlab[pandas]") from exc
        rows = {t: dict(v) for t, v in self.per_topic.items()}
        rows["all"] = dict(self.summary)
        return pd.DataFrame.from_dict(rows, orient="index", columns=self.columns)

    def __getitem__(self, topic):
        if topic == "all":
            return self.summary
        return self.per_topic[topic]


def evaluate(qrels, run, measures: Sequence[str] | str | None = None, *,
             relevance_level: int = 1, depth: int | None = None, complete: bool = False,
             ) -> EvalResult:
    """Evaluate ``run`` against ``qrels`` like trec_eval 10.0.

    ``qrels``/``run``: paths (plain or gzip) or already-read
    :class:`Qrels`/:class:`Run`.  ``measures``: trec_eval measure
    specifications (``"map"``, ``"P.5,10"``, ``"ndcg_cut.10"``, ``"official"``,
    ``"all_trec"``, ...); default ``official``.  ``relevance_level`` is
    trec_eval's ``-l``, ``depth`` its ``-M``, ``complete`` its ``-c``.
    """
    from irlab.trec.measures import compute_all, parse_measures

    if isinstance(measures, str):
        measures = [measures]
    plan = parse_measures(measures or ["official"])
    ctx = prepare(qrels, run, relevance_level=relevance_level, depth=depth, complete=complete)
    return compute_all(ctx, plan)


# ---------------------------------------------------------------------------
# explain-one-topic bridge


@dataclass
class TopicJudgments:
    """One topic as trec_eval sees it.

    ``ranked``: docnos in trec_eval order (score desc, docno desc), cut at
    ``depth``; ``grades``: for each ranked doc its qrels grade, or ``None``
    when the doc is not in the qrels (negative grades are kept as they are:
    trec_eval treats them as judged-but-unjudged, non-relevant);
    ``unretrieved``: grades of judged docs (any grade) that were not retrieved,
    highest first; ``relevance_level``: the ``-l`` threshold.
    """

    topic: str
    ranked: list
    grades: list
    unretrieved: list
    relevance_level: int
    scores: list

    @property
    def binary(self):
        """0/1 relevance of each ranked doc at ``relevance_level`` (unjudged -> 0)."""
        return [1 if (g is not None and g >= self.relevance_level) else 0 for g in self.grades]


def topic_judgments(qrels, run, topic, *, relevance_level=1, depth=None) -> TopicJudgments:
    """Ranked docnos, grades and unretrieved judged grades for one topic."""
    qrels = read_qrels(qrels)
    run = read_run(run)
    tb = topic.encode("utf-8", errors="surrogateescape") if isinstance(topic, str) else bytes(topic)
    ti = _index_in(run.topics, np.array([tb]))[0]
    qi = _index_in(qrels.topics, np.array([tb]))[0]
    if ti < 0 and qi < 0:
        raise IrlabError(f"topic {topic!r} is neither in {qrels.path} nor in {run.path}")
    if ti >= 0:
        rows = np.flatnonzero(run.topic_idx == ti)
        sc, dn = run.score[rows], run.docno[rows]
        order = rank_order(np.zeros(len(rows), dtype=np.int64), sc, dn)
        if depth is not None:
            order = order[: int(depth)]
        ranked_b = dn[order].tolist()
        scores = sc[order].tolist()
    else:
        ranked_b, scores = [], []
    judged = {}
    if qi >= 0:
        qrows = np.flatnonzero(qrels.topic_idx == qi)
        judged = dict(zip(qrels.docno[qrows].tolist(), qrels.grade[qrows].tolist()))
    grades = [judged.get(d) for d in ranked_b]
    seen = set(ranked_b)
    unret = sorted((g for d, g in judged.items() if d not in seen), reverse=True)
    dec = lambda b: b.decode("utf-8", errors="surrogateescape")  # noqa: E731
    return TopicJudgments(
        topic=dec(tb), ranked=[dec(d) for d in ranked_b], grades=grades,
        unretrieved=unret, relevance_level=int(relevance_level), scores=scores,
    )
