"""A run streamed topic by topic: what trec_eval's measures read, without the run's columns in memory.

Every trec_eval measure reads only a topic's ``num_ret`` and the ranks and grades of its judged retrieved documents
(:mod:`irlab.trec.evaluate`).  A run grouped by topic, as TREC runs are written, can therefore be reduced while it is
read: each chunk of whole topics is parsed, checked for a repeated docno, joined with the qrels and ranked, and only
its judged rows are kept (about 2 % of a TREC run).  A topic cut by a chunk's end is carried to the next chunk, so a
topic, not the file, is the unit of memory.

This is a faster path, never a different answer: :func:`read_ranked` returns None, and the caller reads the whole
run as before (:func:`irlab.trec.readers.read_run`, which names the line at fault), whenever a chunk is anything but
plain (comments, blank lines, odd numbers -- what the array parse declines), a docno repeats, or a topic's lines are
not contiguous.  ``tests/test_trec_stream.py`` checks that both give the same values.
"""

from __future__ import annotations

import os
import zlib
from dataclasses import dataclass, field

import numpy as np

from irlab.trec import readers
from irlab.trec.ranks import KeySlots, block_ranks
from irlab.trec.readers import (ColumnSpec, decode_ids, last_runid, mapped_or_read, parsed_chunks, duplicate_check,
                                 open_maybe_gzip, threads)

__all__ = ["RankedRun", "read_ranked"]


@dataclass
class RankedRun:
    """A run reduced to what the measures read: per run topic (``topics``, sorted bytes) its ``nret``; per judged
    retrieved document its topic (``seg``, index into ``topics``), its 0-based rank in trec_eval's order (``pos``)
    and its row in the qrels it was joined with (``qrow``, rows of :class:`~irlab.trec.readers.Qrels`)."""

    path: str
    runid: str
    topics: np.ndarray
    nret: np.ndarray
    seg: np.ndarray
    pos: np.ndarray
    qrow: np.ndarray
    notes: list = field(default_factory=list)   # none: a file with lines trec_eval reads otherwise is not streamed

    @property
    def topic_names(self) -> list[str]:
        return [decode_ids(t) for t in self.topics.tolist()]

    def __len__(self) -> int:
        return int(self.nret.sum())


class _NotStreamable(Exception):
    """The run cannot be streamed: the whole-file reader decides (and reports any error)."""


_BACKLOG_CHUNKS = 16   # parsed chunks kept while the qrels are still being read (about 2 MB each)


def read_ranked(qrels, path, progress=None) -> RankedRun | None:
    """``path`` (a run file, plain or gzip) reduced against ``qrels`` (a read :class:`Qrels`, or a future of one:
    the run's first chunks are then read and parsed while the qrels are read on another thread), or None when it is
    not a plain run grouped by topic (the caller then reads it whole).  ``progress(fraction)`` is called after each
    chunk with the share of the file's bytes (on disk) read so far."""

    path = os.fspath(path)
    if hasattr(readers.compiled(), "topic_stream"):   # (an extension built before it was added has not)
        ranked = _read_in_c(qrels, path, progress)
        if ranked is not _DECLINED:
            return ranked
    reducer, backlog = None, []
    try:
        with open_maybe_gzip(path) as f:
            raw = getattr(f, "fileobj", f)   # a gzip file's compressed bytes: the share of the file on disk
            disk_size = os.fstat(raw.fileno()).st_size if progress is not None else 0
            chunks, share = mapped_or_read(f)
            carry, last = None, None
            for data, parsed in parsed_chunks(ColumnSpec("run"), chunks):
                if parsed is None:
                    return None
                last = data
                if reducer is None and hasattr(qrels, "done") and not qrels.done() and len(backlog) < _BACKLOG_CHUNKS:
                    backlog.append(parsed)   # the qrels are still being read
                else:
                    reducer = reducer or _Reducer(_qrels_of(qrels))
                    for chunk in backlog + [parsed]:
                        carry = reducer.take(chunk, carry)
                    backlog = []
                if disk_size:
                    progress(min(share() if share else raw.tell() / disk_size, 1.0))
            if last is None:
                return None
            reducer = reducer or _Reducer(_qrels_of(qrels))
            for chunk in backlog:
                carry = reducer.take(chunk, carry)
            reducer.add(*carry, np.zeros(1, dtype=np.int64))
    except _NotStreamable:
        return None
    except (OSError, EOFError, zlib.error):
        return None   # the whole-file reader reports it, naming the file
    runid = last_runid(bytes(last)) or b""
    return reducer.result(path, decode_ids(runid))


_DECLINED = object()   # what _read_in_c returns for a run it does not take (read_ranked's chunks then decide)


def _read_in_c(qrels, path, progress):
    """What read_ranked returns, from one C pass per chunk that splits, checks, joins and ranks each topic as its lines
    go by (``_tokenize.topic_stream``: no column per line), or _DECLINED for what that pass does not take (a chunk
    its split declines, crafted docnos): the chunks are then read again by :class:`_Reducer`, which decides.
    With a second core idle, a mapped run's two halves (cut where a topic starts) are reduced at once, one per core."""
    try:
        with open_maybe_gzip(path) as f:
            raw = getattr(f, "fileobj", f)
            disk_size = os.fstat(raw.fileno()).st_size if progress is not None else 0
            chunks, share = mapped_or_read(f)
            qrels = _topics_of(_qrels_of(qrels))
            halves = chunks.halves() if progress is None and hasattr(chunks, "halves") and threads() > 1 else None
            if halves is not None:
                parts = _reduced_beside(qrels, *halves)
                if parts is not _DECLINED:
                    return parts if parts is None else _ranked_run(path, parts)
                chunks = mapped_or_read(f)[0]   # the cut was not where a topic starts: one pass after all
            tick = None if not disk_size else \
                lambda: progress(min(share() if share else raw.tell() / disk_size, 1.0))
            parts = _reduced(qrels, chunks, tick)
    except (OSError, EOFError, zlib.error):
        return None   # the whole-file reader reports it, naming the file
    return parts if parts is None or parts is _DECLINED else _ranked_run(path, [parts])


def _reduced(qrels, chunks, tick=None):
    """_tokenize.topic_result of the chunks, with the last chunk; None when the run cannot be streamed (a topic's
    lines apart, a docno twice in a topic) or has no chunk, _DECLINED when the C pass does not take a chunk."""
    compiled = readers.compiled()
    stream, last = compiled.topic_stream(*qrels, readers.MAX_LINE_BYTES), None
    for data in chunks:
        taken = compiled.topic_feed(stream, data)
        if not taken:
            return None if taken is False else _DECLINED
        last = data
        if tick is not None:
            tick()
    return None if last is None else (*compiled.topic_result(stream), last)


def _reduced_beside(qrels, first, second):
    """[_reduced of each half], the second half reduced on another thread (the C pass lets go of the GIL); None or
    _DECLINED as for one pass, and _DECLINED when the halves share a topic at the cut (it was not where one starts)."""
    from concurrent.futures import ThreadPoolExecutor   # deferred: a single-threaded run never loads it

    with ThreadPoolExecutor(1) as pool:   # as readers.read_both reads the qrels beside the run
        beside = pool.submit(_reduced, qrels, second)
        halves = [_reduced(qrels, first), beside.result()]   # (the first half's error first, then the second's)
    if any(half is None for half in halves):
        return None
    if any(half is _DECLINED for half in halves):
        return _DECLINED
    slot = readers.compiled().ID_SLOT
    return halves if halves[0][0][-slot:] != halves[1][0][:slot] else _DECLINED


def _ranked_run(path, parts):
    """The RankedRun of _reduced's results for consecutive pieces of the run (file order), or None when a topic
    appears in two of them (its lines are apart)."""
    compiled = readers.compiled()
    names = np.frombuffer(b"".join(part[0] for part in parts), dtype=f"S{compiled.ID_SLOT}")
    width = max(8, -(-max(part[1] for part in parts) // 8) * 8)
    names = names.astype(f"S{width}")
    order = np.argsort(names, kind="stable")
    if len(parts) > 1 and (names[order][1:] == names[order][:-1]).any():
        return None
    renumber = np.empty(len(names), dtype=np.int64)
    renumber[order] = np.arange(len(names), dtype=np.int64)
    columns = [[], [], [], []]   # nret, seg, pos, qrow
    topics = 0
    for part in parts:
        nret, seg, pos, qrow = (np.frombuffer(column, dtype=np.int64) for column in part[2:6])
        for column, values in zip(columns, (nret, seg + topics, pos, qrow)):
            column.append(values)
        topics += len(nret)
    nret, seg, pos, qrow = (np.concatenate(column) for column in columns)
    runid = last_runid(bytes(parts[-1][6])) or b""
    return RankedRun(path, decode_ids(runid), names[order], nret[order], renumber[seg], pos, qrow)


def _topics_of(qrels):
    """The qrels as _tokenize.topic_stream reads them: sorted topic names and their width, docnos and their width,
    the rows by topic (row order when read_qrels sorted them) and where each topic's rows start."""
    tidx = qrels.topic_idx
    by_topic = np.arange(len(tidx), dtype=np.int64) if (tidx[1:] >= tidx[:-1]).all() else \
        np.argsort(tidx, kind="stable").astype(np.int64)
    first = np.searchsorted(tidx[by_topic], np.arange(len(qrels.topics) + 1)).astype(np.int64)
    topics, docnos = np.ascontiguousarray(qrels.topics), np.ascontiguousarray(qrels.docno)
    return (topics, max(topics.dtype.itemsize, 1), docnos, max(docnos.dtype.itemsize, 1), by_topic, first)


def _qrels_of(qrels):
    """The read qrels, waiting for them when ``qrels`` is a future."""
    return qrels.result() if hasattr(qrels, "done") else qrels


def _block_starts(q):
    """Rows where a new topic id starts (row 0 included)."""
    same = q.view(np.uint64) if q.dtype.itemsize == 8 and q.flags.c_contiguous else q
    return np.concatenate(([0], np.flatnonzero(same[1:] != same[:-1]) + 1))


class _Reducer:
    """Chunks of whole topics in, the judged retrieved documents' (topic, rank, qrels row) kept."""

    def __init__(self, qrels):
        self.qrels, self.qrels_topic = qrels, {name: i for i, name in enumerate(qrels.topics.tolist())}
        self.qkeys = readers.pair_keys(qrels.topic_idx, qrels.docno)   # as duplicate_check hashes the run's rows
        # the qrels rows of topic code c: by_topic[qfirst[c]:qfirst[c + 1]] (read_qrels sorts them by topic already)
        tidx = qrels.topic_idx
        self.by_topic = None if (tidx[1:] >= tidx[:-1]).all() else np.argsort(tidx, kind="stable")
        self.qfirst = np.searchsorted(tidx if self.by_topic is None else tidx[self.by_topic],
                                      np.arange(len(qrels.topics) + 1))
        self.names, self.nret, self.seg, self.pos, self.qrow = [], [], [], [], []
        self.seen = set()
        self.unjudged = 0   # topics not in the qrels, numbered after the qrels' own for the duplicate check's keys

    def take(self, parsed, carry):
        """A parsed chunk's (qid, docno, value) columns in, after ``carry`` (the rows of the last chunk's last topic,
        or None): its whole topics added, the rows of its last topic (which may go on in the next chunk) returned."""
        q, d, v = parsed
        starts = _block_starts(q)
        if carry is not None:   # the topic carried from the last chunk, and its lines that start this one
            head = (int(starts[1]) if len(starts) > 1 else len(q)) if carry[0][0] == q[0] else 0
            if head:
                carry = tuple(np.concatenate((c, x[:head])) for c, x in zip(carry, parsed))
            if head == len(q):   # it goes on through this whole chunk
                return carry
            self.add(*carry, np.zeros(1, dtype=np.int64))
            if head:
                q, d, v, starts = q[head:], d[head:], v[head:], starts[1:] - head
        cut = int(starts[-1])   # the last topic may go on in the next chunk
        if cut:
            self.add(q[:cut], d[:cut], v[:cut], starts[:-1])
        return q[cut:], d[cut:], v[cut:]

    def add(self, q, d, v, starts):

        n, blocks = len(q), len(starts)
        names = q[starts].tolist()
        if len(set(names)) != blocks or not self.seen.isdisjoint(names):
            raise _NotStreamable   # a topic's lines are not contiguous
        self.seen.update(names)
        codes = []
        for name in names:
            code = self.qrels_topic.get(name)
            if code is None:
                code = len(self.qrels_topic) + self.unjudged
                self.unjudged += 1
            codes.append(code)
        starts = np.ascontiguousarray(starts, dtype=np.int64)
        lens = np.diff(np.append(starts, n))
        codes = np.array(codes, dtype=np.int64)
        judged = self._judged_rows(d, codes, starts, lens)
        if judged is None:
            raise _NotStreamable   # a docno repeated in a topic: the whole-file reader names both lines
        rows, qrow = judged
        first = len(self.names)
        self.names += names
        self.nret.append(lens)
        self.seg.append(np.searchsorted(starts, rows, side="right") - 1 + first)   # each row's topic block
        self.pos.append(block_ranks(starts, v, d, rows))
        self.qrow.append(qrow)

    def _judged_rows(self, d, codes, starts, lens):
        """(run rows, qrels rows) of the judged documents of topics ``codes`` (block b of rows from ``starts[b]``,
        ``lens[b]`` long, is topic ``codes[b]``), or None when a (topic, docno) repeats; one hashing of the rows
        serves the duplicate check and the join, whose table holds the keys of these topics' judgments only (small
        enough to stay in the processor's cache)."""
        qrels, qfirst = self.qrels, self.qfirst
        judged = codes[codes < len(qfirst) - 1]
        counts = qfirst[judged + 1] - qfirst[judged]
        rows = np.repeat(qfirst[judged] - np.cumsum(counts) + counts, counts) + np.arange(int(counts.sum()))
        rows = rows if self.by_topic is None else self.by_topic[rows]
        topic = np.repeat(codes, lens)
        compiled = readers.compiled()
        if compiled is not None:   # the same pairs from C: a hash set per topic, a table of these judgments
            found = self._compiled_join(compiled, topic, d, starts, rows)
            if found is not False:
                return found
        order = np.argsort(self.qkeys[rows])
        slots, slot_rows = KeySlots(self.qkeys[rows[order]]), rows[order]

        def join(first, keys):
            i, p = slots.find(keys)
            return i + first, slot_rows[p]

        dup, found = duplicate_check(topic, d, join)
        if dup is not None:
            return None
        rows = np.concatenate([f[0] for f in found])
        qrow = np.concatenate([f[1] for f in found])
        real = (qrels.topic_idx[qrow] == topic[rows]) & (qrels.docno[qrow] == d[rows])   # equal keys are candidates
        return rows[real], qrow[real]

    def _compiled_join(self, compiled, topic, d, starts, rows):
        """What the numpy passes of :meth:`_judged_rows` give, from C: None when a docno repeats in a topic (the
        bytes compared), else the (run rows, qrels rows) of equal bytes; False when C declines (pairs beyond
        its buffer, which only colliding keys make), and numpy decides."""
        keys, words = readers.pair_keys(topic, d), readers.key_words(d)
        i, p = np.empty(len(d), dtype=np.int64), np.empty(len(d), dtype=np.int64)
        count = compiled.join_blocks(keys, starts, words, words.shape[1], np.ascontiguousarray(self.qkeys[rows]), i, p)
        if count == -1:
            return None
        if count < 0:
            return False
        i, qrow = i[:count], rows[p[:count]]
        real = (self.qrels.topic_idx[qrow] == topic[i]) & (self.qrels.docno[qrow] == d[i])   # equal keys: candidates
        return i[real], qrow[real]

    def result(self, path, runid):
        width = max(8, -(-max(map(len, self.names)) // 8) * 8)
        names = np.array(self.names, dtype=f"S{width}")
        order = np.argsort(names, kind="stable")
        renumber = np.empty(len(names), dtype=np.int64)
        renumber[order] = np.arange(len(names), dtype=np.int64)
        seg = renumber[np.concatenate(self.seg)]
        return RankedRun(path, runid, names[order], np.concatenate(self.nret)[order], seg,
                         np.concatenate(self.pos).astype(np.int64), np.concatenate(self.qrow).astype(np.int64))
