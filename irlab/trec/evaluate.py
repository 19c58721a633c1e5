"""Vectorised batch evaluation with trec_eval 10.0 semantics.

trec_eval ranks each topic's documents by score descending, ties broken by
docno descending (byte order).  Every trec_eval measure depends only on

* the number of documents retrieved for the topic, and
* the rank and grade of each retrieved document that appears in the qrels
  ("judged", any grade) -- a document absent from the qrels is "not in the
  pool", and all such documents look alike to every measure.

So the evaluator keeps a *sparse* view: for every topic, its ``num_ret`` and
the (rank, grade) of its judged retrieved documents, in flat numpy arrays
sorted by (topic, rank).  Ranks come from trec_eval's ordering without
sorting the whole run when it is already grouped by topic and sorted by score
(the usual shape of run files): only tie groups that contain a judged document
are re-ordered by docno.  Measures are segment-wise sums, cumulative sums and
counts over these arrays; there is no Python loop per document.

Relevance value of a judged ranked document (``ctx.rel``), as in trec_eval:
``g >= 0`` the grade; ``-2`` a negative grade ("in pool, unjudged").
(``-1``, "not in pool", is implicit: every retrieved doc not in the arrays.)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import os

import numpy as np

from irlab.errors import InputTypeError, IrlabError, ParameterError
from irlab.trec.context import EvalContext, EvalResult
from irlab.trec.measures import compute_all, parse_measures
from irlab.trec.stream import RankedRun, read_ranked
from irlab.trec import ranks
from irlab.trec.ranks import UNJUDGED, KeySlots, index_in, rank_order, topic_ranks
from irlab.trec.readers import (Qrels, Run, duplicate_check, in_parallel, listed, pair_keys, raise_duplicate, read_both,
                                read_qrels, read_run, release_free_memory, threads)

__all__ = ["EvalContext", "prepare", "evaluate_trec_eval_names", "evaluate", "EvalResult", "topic_judgments", "TopicJudgments",
           "topic_coverage_notes"]

_WHOLE_LIMIT = (1 << 63) - 1   # LONG_MAX, where trec_eval's atol saturates


def _whole_number(what, value):
    """A non-negative integer option, saturated at LONG_MAX like trec_eval's atol."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        if isinstance(value, (float, np.floating)) and float(value).is_integer():
            value = int(value)
        else:
            raise InputTypeError(f"{what} must be a whole number, got {value!r}")
    if value < 0:
        raise ParameterError(f"{what} must be >= 0, got {value}")
    return int(min(int(value), _WHOLE_LIMIT))


def _check_and_join(qrels, run):
    """The run's duplicate check (deferred by ``read_run(...,
    check_duplicates=False)``) and the hashing of the join in one pass: each
    slice's (topic, docno) keys serve both.  Raises the reader's error for a
    repeated docno; returns the candidate (run row, qrels row) pairs with equal
    keys, numbered in the whole files (the bytes are compared by the caller)."""
    q_rtid = index_in(run.topics, qrels.topics)[qrels.topic_idx]
    inrun = np.flatnonzero(q_rtid >= 0)
    slots = qrow = None
    if len(inrun):
        qk = pair_keys(q_rtid[inrun], qrels.docno[inrun])
        qo = np.argsort(qk)
        slots, qrow = KeySlots(qk[qo]), inrun[qo]

    def judged_in(first, keys):
        rows, pos = [np.zeros(0, dtype=np.int64)], [np.zeros(0, dtype=np.int64)]
        for a in range(0, len(keys) if slots is not None else 0, ranks.JOIN_ROWS):   # bounded temporaries
            i, p = slots.find(keys[a: a + ranks.JOIN_ROWS])
            rows.append(i + (first + a))
            pos.append(qrow[p])
        return np.concatenate(rows), np.concatenate(pos)

    dup, found = duplicate_check(run.topic_idx, run.docno, judged_in)
    if dup is not None:
        raise_duplicate(run.path, "run", run.topics, run.topic_idx, run.docno, dup)
    return np.concatenate([f[0] for f in found]), np.concatenate([f[1] for f in found])


def read_inputs(qrels, run, progress=None, stream=True):
    """Read the qrels and the run (paths, or already read) for :func:`prepare`: ``(Qrels, Run, joined)``.

    A run file grouped by topic is streamed (``stream``): the run comes back as a
    :class:`~irlab.trec.stream.RankedRun`, its judged retrieved documents only, and ``joined`` is None.

    A run read here is checked for repeated docnos while its keys are hashed for the join (one pass);
    ``joined`` holds the candidate pairs that pass found, or None when the run came already read (and checked).
    ``progress(fraction)`` is called while the files are read (the qrels and the run then one after the other)."""
    deferred = not isinstance(run, Run)
    if isinstance(run, RankedRun):
        return read_qrels(qrels), run, None
    if progress is not None:
        sizes = [file_size(path) for path in (qrels, run)]
        share = sizes[0] / max(sum(sizes), 1)
    if stream and deferred:
        # a run grouped by topic, reduced while it is read (irlab.trec.stream); a run that is not starts again
        if progress is None and not isinstance(qrels, Qrels) and threads() > 1:
            qrels, ranked = _read_ranked_beside_qrels(qrels, run)
        else:
            qrels = read_qrels(qrels, progress=None if progress is None else lambda f: progress(share * f))
            ranked = read_ranked(qrels, run, None if progress is None else lambda f: progress(share + (1 - share) * f))
        if ranked is not None:
            return qrels, ranked, None
    if progress is None:
        qrels, run = read_both(qrels, run, check_run_duplicates=not deferred)
    else:
        if not isinstance(qrels, Qrels):
            qrels = read_qrels(qrels, progress=lambda f: progress(share * f))
        run = run if not deferred else read_run(run, check_duplicates=False,
                                                progress=lambda f: progress(share + (1 - share) * f))
    return qrels, run, (_check_and_join(qrels, run) if deferred else None)


def _read_ranked_beside_qrels(qrels_path, run_path):
    """(read_qrels(qrels_path), read_ranked of the run), the qrels read on a second thread while the run's first
    chunks are read and parsed; a bad qrels file is reported before a bad run file, as when read one after the other."""
    from concurrent.futures import ThreadPoolExecutor   # deferred: a single-threaded run never loads it

    with ThreadPoolExecutor(1) as pool:
        judged = pool.submit(read_qrels, qrels_path)
        try:
            ranked = read_ranked(judged, run_path)
        except Exception:
            judged.result()   # the qrels' own error first
            raise
        return judged.result(), ranked


def file_size(path) -> int:
    """Bytes on disk, or 0 for what is not a readable file (already read, missing: the reader reports that)."""
    try:
        return os.path.getsize(path)
    except (OSError, TypeError, ValueError):
        return 0


def prepare(qrels, run, *, relevance_level=1, depth=None, complete=False,
            judged_only=False, num_docs_in_coll=0, joined=None) -> EvalContext:
    """Read (if paths), select topics, rank, cut and join: the evaluator's input.

    ``relevance_level`` is trec_eval's ``-l``, ``depth`` ``-M``, ``complete``
    ``-c``, ``judged_only`` ``-J`` (drop retrieved documents with no
    judgment, or a negative one, before evaluating) and ``num_docs_in_coll``
    ``-N`` (collection size, used by ``utility``). ``joined`` is what
    :func:`read_inputs` returned for these files (they are then not read again)."""
    if joined is None:
        qrels, run, judged_rows = read_inputs(qrels, run)
    else:
        judged_rows = joined
    level = _whole_number("relevance level (-l)", relevance_level)
    if depth is not None:
        depth = _whole_number("depth (-M)", depth)
    num_docs_in_coll = _whole_number("collection size (-N)", num_docs_in_coll)

    if complete:
        topics_b = qrels.topics
    else:
        topics_b = np.intersect1d(qrels.topics, run.topics, assume_unique=True)   # the readers' distinct topics
    T = len(topics_b)
    if T == 0:
        raise IrlabError(
            f"no topic has both judgments ({qrels.path}) and results ({run.path})"
        )
    names = [t.decode("utf-8", errors="surrogateescape") for t in topics_b.tolist()]
    missing = ~np.isin(topics_b, run.topics, assume_unique=True)

    # ---- qrels rows of evaluated topics
    qmap = index_in(topics_b, qrels.topics)
    qseg_all = qmap[qrels.topic_idx]
    qkeep = qseg_all >= 0
    qseg = qseg_all[qkeep]
    qgrade = qrels.grade[qkeep]
    if isinstance(run, RankedRun):   # streamed: its judged documents are joined and ranked already
        jseg, pos, qi, nret = _streamed_rows(run, topics_b, qkeep)
    else:   # the kept docnos, copied only here (10^8 lines: 3 M judgments, 48 MiB)
        jseg, pos, qi, nret = _joined_rows(qrels, run, judged_rows, topics_b, qkeep, qrels.docno[qkeep])
    g = qgrade[qi]
    jrel = np.where(g >= 0, g, UNJUDGED).astype(np.int64)
    if depth is not None:
        inside = pos < depth
        jseg, pos, jrel = jseg[inside], pos[inside], jrel[inside]
    o = np.lexsort((pos, jseg))
    jseg, pos, jrel = jseg[o], pos[o].astype(np.int64), jrel[o]
    # trec_eval -c ranks a topic missing from the run on a stand-in: one
    # unjudged document ("ceci_nest_pas_un_docno", trec_eval.c); -J drops it
    # and -M 0 cuts it, leaving an empty ranking
    nret = np.where(missing, 1, nret)
    if depth is not None:
        nret = np.minimum(nret, depth)
    if judged_only:
        # trec_eval -J: keep judged docs (grade >= 0) only, ranks closed up
        keep_j = jrel >= 0
        jseg, jrel = jseg[keep_j], jrel[keep_j]
        nret = np.bincount(jseg, minlength=T)[:T].astype(np.int64)
        jstart = np.concatenate(([0], np.cumsum(nret)[:-1]))
        pos = np.arange(len(jseg), dtype=np.int64) - jstart[jseg]

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
        names=names, topics_b=topics_b, nret=nret, rel=jrel, seg=jseg, pos=pos,
        level=level, rel_levels=rel_levels, maxgrade=maxgrade, missing=missing,
        runid=run.runid, ideal_grades=ideal, num_docs_in_coll=int(num_docs_in_coll),
        complete=bool(complete), qrels_positive_lines=int((qrels.grade > 0).sum()),
    )


def _streamed_rows(run, topics_b, qkeep):
    """(topic, rank, kept qrels row) of the judged retrieved documents of ``topics_b`` in a streamed run, and each
    topic's num_ret."""
    T = len(topics_b)
    place = index_in(topics_b, run.topics)   # run topic -> evaluated topic, or -1
    nret = np.zeros(T, dtype=np.int64)
    has = place >= 0
    nret[place[has]] = run.nret[has]
    jseg = place[run.seg]
    kept = (jseg >= 0) & qkeep[run.qrow]
    return jseg[kept], run.pos[kept], (np.cumsum(qkeep) - 1)[run.qrow[kept]], nret


def _joined_rows(qrels, run, judged_rows, topics_b, qkeep, qdoc):
    """(topic, rank, kept qrels row) of the judged retrieved documents of ``topics_b``, joining and ranking the run's
    rows, and each topic's num_ret."""
    T = len(topics_b)
    # ---- run rows of evaluated topics (file order)
    if np.array_equal(topics_b, run.topics):
        rseg, keep = run.topic_idx, None          # every run topic is evaluated
    else:
        rseg = index_in(topics_b, run.topics)[run.topic_idx]
        keep = rseg >= 0
    if keep is None or keep.all():
        seg0, score, docno, rtid = rseg, run.score, run.docno, run.topic_idx
    else:
        idx = np.flatnonzero(keep)
        seg0, score, docno, rtid = rseg[idx], run.score[idx], run.docno[idx], run.topic_idx[idx]
    nret = np.zeros(T, dtype=np.int64)
    for a in range(0, len(seg0), ranks.SLICE_ROWS):   # bincount copies its input to int64: a slice at a time
        nret += np.bincount(seg0[a: a + ranks.SLICE_ROWS], minlength=T)[:T]

    # the same qrels rows, with topics numbered as in the run (-1: not in run)
    q_rtid = index_in(run.topics, qrels.topics)[qrels.topic_idx][qkeep]

    # ---- join: which run rows are judged (hash join, every candidate verified byte-exactly)
    hi = np.zeros(0, dtype=np.int64)
    qi = np.zeros(0, dtype=np.int64)
    inrun = np.flatnonzero(q_rtid >= 0)
    if judged_rows is not None and len(seg0) and len(inrun):
        # found while the run was checked for duplicates, numbered in the whole
        # files: renumbered to the rows kept here
        hi, qi = judged_rows
        if keep is not None and not keep.all():
            inside = keep[hi]
            hi, qi = np.searchsorted(idx, hi[inside]), qi[inside]
        inside = qkeep[qi]
        hi, qi = hi[inside], (np.cumsum(qkeep) - 1)[qi[inside]]
        real = (q_rtid[qi] == rtid[hi]) & (qdoc[qi] == docno[hi])
        hi, qi = hi[real], qi[real]
    elif len(seg0) and len(inrun):
        qk = pair_keys(q_rtid[inrun], qdoc[inrun])
        qo = np.argsort(qk)
        qks = qk[qo]
        qo = inrun[qo]
        slots = KeySlots(qks)

        def judged_in(a):   # run keys a block at a time (bounded memory on 7M-line runs)
            rows, pos = slots.find(pair_keys(rtid[a: a + ranks.JOIN_ROWS], docno[a: a + ranks.JOIN_ROWS]))
            return rows + a, qo[pos]

        found = in_parallel(judged_in, range(0, len(rtid), ranks.JOIN_ROWS))
        hi, qi = np.concatenate([f[0] for f in found]), np.concatenate([f[1] for f in found])
        # equal keys are candidates only: structured docnos may share a key,
        # and only the bytes decide
        real = (q_rtid[qi] == rtid[hi]) & (qdoc[qi] == docno[hi])
        hi, qi = hi[real], qi[real]

    release_free_memory()   # the join threads' temporaries, before ranking allocates its own

    # ---- ranks of the judged retrieved docs
    pos = topic_ranks(seg0, score, docno, hi, T)
    return seg0[hi].astype(np.int64), pos, qi, nret


def _topics(count: int, noun: str) -> str:
    return f"{count} {noun}{'s' * (count != 1)}"


def topic_coverage_notes(qrels, run, *, complete=False, shown=5):
    """Sentences for stderr about topics the two files do not share.

    Without -c, trec_eval 10.0 stops with "result qid '...' not found in
    qrels" (exit 4) when a qrels topic has no results; 9.x and its
    maintainers' stated intent evaluate the topics both files share, which
    irlab does, saying which topics were left out and that -c counts them.
    Run topics without judgments are ignored by both, silently by trec_eval."""
    def names(arr):
        return listed((t.decode("utf-8", errors="surrogateescape") for t in arr.tolist()), shown)

    notes = []
    unrun = np.setdiff1d(qrels.topics, run.topics, assume_unique=True)   # (distinct topics: np.unique not needed)
    if len(unrun) and not complete:
        shared = len(np.intersect1d(qrels.topics, run.topics, assume_unique=True))
        notes.append(f"{_topics(len(unrun), 'qrels topic')} {'has' if len(unrun) == 1 else 'have'} no results in "
                     f"{run.path}: {names(unrun)}; evaluated the {_topics(shared, 'topic')} both files share "
                     "(trec_eval 10.0 stops here with exit 4); -c counts each missing topic with no relevant document retrieved")
    unjudged = np.setdiff1d(run.topics, qrels.topics, assume_unique=True)
    if len(unjudged):
        notes.append(f"{_topics(len(unjudged), 'run topic')} {'has' if len(unjudged) == 1 else 'have'} no judgments "
                     f"in {qrels.path} and {'is' if len(unjudged) == 1 else 'are'} not evaluated: "
                     f"{names(unjudged)}")
    return notes


# ---------------------------------------------------------------------------
# public API


def evaluate_trec_eval_names(qrels, run, measures: Sequence[str] | str | None = None, *,
             relevance_level: int = 1, depth: int | None = None, complete: bool = False,
             judged_only: bool = False, num_docs_in_coll: int = 0,
             ) -> EvalResult:
    """Evaluate ``run`` against ``qrels`` like trec_eval 10.0.

    ``qrels``/``run``: paths (plain or gzip) or already-read
    :class:`Qrels`/:class:`Run`.  ``measures``: trec_eval measure
    specifications (``"map"``, ``"P.5,10"``, ``"ndcg_cut.10"``, ``"official"``,
    ``"all_trec"``, ...); default ``official`` (:func:`irlab.trec.named.evaluate` also takes ir_measures names).  ``relevance_level`` is
    trec_eval's ``-l``, ``depth`` its ``-M``, ``complete`` its ``-c``,
    ``judged_only`` its ``-J`` and ``num_docs_in_coll`` its ``-N``.
    """
    if isinstance(measures, str):
        measures = [measures]
    plan = parse_measures(measures or ["official"])
    ctx = prepare(qrels, run, relevance_level=relevance_level, depth=depth, complete=complete,
                  judged_only=judged_only, num_docs_in_coll=num_docs_in_coll)
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
    ti = index_in(run.topics, np.array([tb]))[0]
    qi = index_in(qrels.topics, np.array([tb]))[0]
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


evaluate = evaluate_trec_eval_names  # trec_eval's names; irlab.trec.evaluate (the package's) takes ir_measures names too
