"""``irlab eval --diversity``'s fast path: both files read into numpy arrays, joined, and every measure computed
for all topics at once, with the very floats of the per-topic path (:mod:`irlab.trec.diversity`).

The per-topic path builds Python objects for every line (tokens, per-topic dicts, a docno tuple per rank); here a
file is split into token offsets in bulk, ids become 64-bit words (8 bytes each, zero-padded: an id holds no zero
byte), a topic and docno become a 64-bit hash whose every match is checked word by word, and the measures read
per-rank arrays.  Floats are added in the per-topic path's order, one after the other (``np.cumsum`` and plain
element-wise adds, never numpy's pairwise ``sum``), and every power, log and division is the same operation, so
each value is equal bit for bit (``tests/test_eval_diversity.py`` checks it against the per-topic path, ndeval and
the exact library).

Whatever the fast path does not handle returns None and the per-topic path reads the files again: it names the
line at fault or computes the values.  That is a line that is not plain (a comment, a run's extra column, a bad
number, an id beyond MAX_ID_BYTES ...), a repeated judgment, docno or rank, an id with a zero byte, a hash collision,
a topic with more than 62 subtopics (a document's subtopics are the bits of an int64) or beyond MAX_IDEAL_WORK.
A topic whose ideal ranking the lock-step greedy would pad too much (many subtopic sets, or very many relevant
documents) is evaluated by the per-topic code, from objects built for it alone.
"""

from __future__ import annotations

import math

import numpy as np

from irlab.trec.diversity_base import (DiversityLines, DiversityQrels, DiversityRun, TopicIntents, beta_powers,
                                       dcg_discount, dcg_term, err_term, finite_scores, id_text, ideal_ideal,
                                       subtopic_order)
from irlab.trec.readers import parse_decimals

__all__ = ["evaluate_in_arrays"]

_MASK_BITS = 62          # subtopics of a topic as bits of an int64 (more: the per-topic path)
# the lock-step greedy's arrays (topics x subtopic sets x subtopics) and the relevant documents of a topic it ranks
# (a step a rank): a topic beyond either has its ideal ranked by the per-topic code
_LOCKSTEP_CELLS = 1 << 20
_LOCKSTEP_RELEVANT = 20_000
_CELLS = 1 << 22         # the largest dense block of running sums (32 MiB of floats)
_MIX = np.uint64(0x9E3779B97F4A7C15)
_KEEP = np.array([(1 << (8 * k)) - 1 for k in range(9)], dtype=np.uint64)   # a word's first k bytes (little-endian)


# --------------------------------------------------------------------------
# reading


def _plain_spans(u, fields):
    """(starts, lengths) of every token of a chunk whose every line is ``fields`` tokens separated by single
    spaces, ending in a newline (the last may lack it); None for any other chunk (tabs, CR, blank lines, double
    spaces ...), which :meth:`DiversityLines.bulk` splits."""
    delims = np.flatnonzero(u <= 32)
    newlines = np.count_nonzero(u == 10)
    if np.count_nonzero(u == 32) + newlines != len(delims):
        return None   # a tab, CR or control byte: split by DiversityLines.bulk
    if len(u) and u[-1] != 10:   # the last line's end
        delims = np.append(delims, len(u))
        newlines += 1
    ends = delims[fields - 1::fields]   # each line's last separator: the newlines, once each
    if len(delims) != fields * newlines or not (u[ends[:-1]] == 10).all():
        return None
    starts = np.empty(len(delims), np.int64)
    starts[:1] = 0
    starts[1:] = delims[:-1] + 1
    lengths = delims - starts
    if newlines == 0 or int(lengths.min()) == 0:
        return None
    return starts, lengths


def _words(view, start, length, width):
    """(n, ⌈width/8⌉) uint64: each token's bytes, 8 to a word as memory holds them (little-endian: :func:`_ordered`
    turns them into words that compare as the bytes do), zero past its end."""
    out = np.empty((len(start), max(1, -(-width // 8))), np.uint64, order="F")   # a column at a time
    short = int(length.min())
    for j in range(out.shape[1]):
        word = view[start + 8 * j if j else start].view(np.uint64)
        if short < 8 * (j + 1):   # some token ends within this word
            word &= _KEEP[np.minimum(np.maximum(length - 8 * j, 0), 8)]
        out[:, j] = word
    return out


def _ordered(words):
    """Words whose order (column by column) is the byte order of the ids they hold."""
    return words.byteswap()


def _numbers(u, start, length, integer):
    """The values of tokens ``[+-]digits[.digits]`` (with ``integer``: digits only), or None."""
    if not len(start):
        return np.zeros(0, np.int64 if integer else np.float64)
    if integer and not ((u[start] >= 48) & (u[start] <= 57)).all():
        return None
    if integer and int(length.max()) == 1:   # one digit each, as judgments usually are
        return u[start].astype(np.int64) - 48
    return parse_decimals(u, start, length, integer)


def _plain_decimals(u, start, length):
    """Whether every token is written ``[+-]digits[.digits]`` (or ``[+-].digits``) with at most 17 bytes: a finite
    number float() reads.  A run's scores only need that much when the run is ordered by rank."""
    if not len(start):
        return True
    width = int(length.max())
    if width > 17:
        return False
    padded = np.zeros(len(u) + width, np.uint8)
    padded[:len(u)] = u
    chars = np.ndarray((len(u),), dtype=f"V{width}", buffer=padded, strides=(1,))[start].view(np.uint8)
    chars = chars.reshape(len(start), width)
    inside = np.arange(width) < length[:, None]
    digit = ((chars - np.uint8(48)) < 10) & inside
    dot = (chars == 46) & inside
    sign = np.zeros_like(digit)
    sign[:, 0] = (chars[:, 0] == 45) | (chars[:, 0] == 43)
    return bool(((digit | dot | sign) == inside).all() and (dot.sum(axis=1) <= 1).all() and digit.any(axis=1).all())


def _read(path, fields, what, ids, topic_codes, scores=True):
    """{field: array} of a file whose every chunk is plain, else None: the topic's code (``topic_codes``, a dict
    shared by both files, gives each new topic the next number), id fields as words, number fields as numbers."""
    lines = DiversityLines(path, fields, what, ids)
    parts, first = [], None
    for buf in lines.chunks():
        if b"\0" in buf:
            return None
        u = np.frombuffer(buf, dtype=np.uint8)
        spans = _plain_spans(u, fields)
        if spans is not None:
            starts, lengths = spans
            if not lines.single_spaced(u, starts, lengths):
                return None
            lines.commit((), (lines.lineno + len(starts) // fields, lines.skipped, lines.data + len(starts) // fields))
        else:
            read = lines.bulk(buf, split=False)
            if read is None:
                return None
            lines.commit((), read[2])
            u, starts, lengths = lines.spans
        if not len(starts):
            continue
        if first is None:
            first = [buf[s:s + n] for s, n in zip(starts[:fields].tolist(), lengths[:fields].tolist())]
        part = _chunk_columns(buf, u, starts, lengths, fields, what, topic_codes, scores)
        if part is None:
            return None
        parts.append(part)
    if lines.data == 0:
        return None
    columns = {"first": first}
    for name in parts[0]:
        pieces = [p[name] for p in parts]
        if pieces[0].ndim == 2:   # words: pad every chunk's to the widest
            wide = max(p.shape[1] for p in pieces)
            pieces = [np.pad(p, ((0, 0), (0, wide - p.shape[1]))) for p in pieces]
        columns[name] = np.concatenate(pieces)
    return columns


def _chunk_columns(buf, u, starts, lengths, fields, what, topic_codes, scores):
    widest = max(int(lengths[i::fields].max()) for i in range(fields))
    padded = np.zeros(len(u) + 8 * -(-widest // 8), np.uint8)   # a word read past an id's end stays inside
    padded[:len(u)] = u
    view = np.ndarray((len(padded) - 7,), dtype="V8", buffer=padded, strides=(1,))   # the 8 bytes from each place

    def words(field):
        start, length = starts[field::fields], lengths[field::fields]
        return _words(view, start, length, int(length.max()))

    topic_words = words(0)
    heads = np.flatnonzero(np.r_[True, (topic_words[1:] != topic_words[:-1]).any(axis=1)])
    head_starts, head_lengths = starts[0::fields][heads].tolist(), lengths[0::fields][heads].tolist()
    codes = [topic_codes.setdefault(buf[s:s + n], len(topic_codes)) for s, n in zip(head_starts, head_lengths)]
    topic = np.repeat(np.array(codes, np.int64), np.diff(np.r_[heads, len(topic_words)]))
    if what == "qrels":
        judgment = _numbers(u, starts[3::4], lengths[3::4], True)
        if judgment is None:
            return None
        return {"topic": topic, "subtopic": words(1), "docno": words(2), "judgment": judgment}
    rank = _numbers(u, starts[3::fields], lengths[3::fields], True)
    if not scores and _plain_decimals(u, starts[4::fields], lengths[4::fields]):
        score = np.zeros(0)   # finite numbers, not needed: the run is ordered by rank
    else:
        score = _numbers(u, starts[4::fields], lengths[4::fields], False)
    if score is None:   # another way of writing a number (1e-05): read one by one, as the per-topic path does
        score = finite_scores([buf[s:s + n] for s, n in zip(starts[4::fields].tolist(), lengths[4::fields].tolist())])
        score = None if score is None else np.array(score, np.float64)
    if rank is None or score is None:
        return None
    return {"topic": topic, "docno": words(2), "rank": rank, "score": score}


def _hash(topic, words):
    """A 64-bit hash of (topic code, words) per row; equal ids hash alike, and any match is checked word by word."""
    return _mix((topic.astype(np.uint64) + np.uint64(1)) * _MIX, words)


def _mix(h, words):
    """The hash ``h`` with ``words`` mixed in, one column after the other."""
    for j in range(words.shape[1]):
        h = (h ^ words[:, j]) * _MIX
        h ^= h >> np.uint64(29)
    return h


def _equal_within_runs(sorted_hashes, order, *columns):
    """Whether rows ``order`` (sorted by their hashes) hold the same values in ``columns`` wherever their hashes
    are equal: no hash collision."""
    again = np.flatnonzero(sorted_hashes[1:] == sorted_hashes[:-1])
    this, before = order[again + 1], order[again]
    return all((c[this] == c[before]).all() for c in columns)


def _widen(a, width):
    return a if a.shape[1] == width else np.pad(a, ((0, 0), (0, width - a.shape[1])))


def _first_of_runs(sorted_values):
    """Indices where a sorted array's runs of equal values begin."""
    if not len(sorted_values):
        return np.zeros(0, np.int64)
    return np.flatnonzero(np.r_[True, sorted_values[1:] != sorted_values[:-1]])


def _id_bytes(words):
    return b"".join(int(w).to_bytes(8, "little") for w in words).rstrip(b"\0")


# --------------------------------------------------------------------------
# the judgments and the run, joined


class _Judged:
    """The qrels as arrays: topics (sorted codes) with their subtopics, relevant documents with their subtopics as
    bits, grouped for the ideal ranking.  ``ok`` False: the per-topic path must read the file."""

    def __init__(self, q, n_topics, level, max_ideal_work):
        self.ok = False
        topic, docno, subtopic = q["topic"], q["docno"], q["subtopic"]
        doc_hash = _hash(topic, docno)
        full = np.sort(_mix(doc_hash, subtopic))
        if len(full) > 1 and (full[1:] == full[:-1]).any():
            return   # a judgment repeated (or a hash collision): the per-topic path names both lines
        relevant = np.flatnonzero(q["judgment"] >= level)
        topic, docno, subtopic, doc_hash = topic[relevant], docno[relevant], subtopic[relevant], doc_hash[relevant]
        self.topics = np.flatnonzero(np.bincount(q["topic"], minlength=n_topics))
        # each topic's subtopics with a relevant document, in ndeval's order
        sub_hash = _hash(topic, subtopic)
        _, first, which, per = np.unique(sub_hash, return_index=True, return_inverse=True, return_counts=True)
        which = which.ravel()
        if not ((subtopic == subtopic[first[which]]).all() and (topic == topic[first[which]]).all()):
            return
        names = {}
        for pair, row in enumerate(first.tolist()):
            names.setdefault(int(topic[row]), []).append((_id_bytes(subtopic[row]), pair))
        self.n_subtopics = np.zeros(n_topics, np.int64)
        self.subtopic_names = {}
        index = np.zeros(len(first), np.int64)
        widest = max((len(v) for v in names.values()), default=0)
        if widest > _MASK_BITS:
            return
        self.per_subtopic = np.ones((n_topics, max(widest, 1)), np.int64)   # 1 where a topic has fewer subtopics
        for t, pairs in names.items():
            by_name = dict(pairs)
            ordered = subtopic_order(list(by_name))
            for i, name in enumerate(ordered):
                index[by_name[name]] = i
                self.per_subtopic[t, i] = per[by_name[name]]
            self.n_subtopics[t] = len(ordered)
            self.subtopic_names[t] = tuple(map(id_text, ordered))
        self.width = max(widest, 1)
        # relevant documents: their subtopics as bits
        order = np.argsort(doc_hash)
        hashes = doc_hash[order]
        starts = _first_of_runs(hashes)
        if not _equal_within_runs(hashes, order, docno, topic):
            return
        bits = np.left_shift(np.int64(1), index[which])
        self.doc_hash = hashes[starts]
        self.doc_mask = np.bitwise_or.reduceat(bits[order], starts) if len(order) else np.zeros(0, np.int64)
        self.doc_topic = topic[order[starts]]
        self.doc_words = docno[order[starts]]
        self._groups(n_topics)
        work = self.relevant * self.group_count
        self.ok = not (work > max_ideal_work).any()   # too much: the per-topic path's error

    def _groups(self, n_topics):
        """The ideal ranking's groups: a topic's relevant documents with the same subtopics, each group's docnos
        in byte order (``docrank``: a document's place among all, by topic then docno)."""
        words = _ordered(self.doc_words)
        keys = [words[:, j] for j in range(words.shape[1] - 1, -1, -1)
                if len(words) and not (words[:, j] == words[0, j]).all()]
        by_docno = np.lexsort(keys + [self.doc_topic])
        self.docrank = np.empty(len(by_docno), np.int64)
        self.docrank[by_docno] = np.arange(len(by_docno))
        grouped = by_docno[np.lexsort((self.doc_mask[by_docno], self.doc_topic[by_docno]))]
        self.grouped = grouped
        topic, mask = self.doc_topic[grouped], self.doc_mask[grouped]
        change = (topic[1:] != topic[:-1]) | (mask[1:] != mask[:-1])
        starts = np.flatnonzero(np.r_[True, change]) if len(grouped) else np.zeros(0, np.int64)
        self.group_start, self.group_size = starts, np.diff(np.r_[starts, len(grouped)])
        self.group_topic, self.group_mask = topic[starts], mask[starts]
        self.relevant = np.bincount(self.doc_topic, minlength=n_topics)
        self.group_count = np.bincount(self.group_topic, minlength=n_topics)


class _Ranked:
    """The run as arrays in ndeval's order (topic, then rank or score and docno), cut to ``depth``, each line's
    relevant subtopics as bits.  ``ok`` False: the per-topic path must read the file."""

    def __init__(self, r, judged, n_topics, traditional, depth):
        self.ok = False
        topic, docno = r["topic"], r["docno"]
        width = max(docno.shape[1], judged.doc_words.shape[1])
        docno = _widen(docno, width)
        h = _hash(topic, docno)
        by_hash = np.argsort(h)
        ordered_hashes = h[by_hash]
        if len(h) > 1 and (ordered_hashes[1:] == ordered_hashes[:-1]).any():
            return   # a docno twice in a topic (or a collision)
        # the join: a line's relevant document, found by its hash (in hash order: a quick search), checked below
        doc = np.full(len(h), -1)
        if len(judged.doc_hash):
            at = np.minimum(np.searchsorted(judged.doc_hash, ordered_hashes), len(judged.doc_hash) - 1)
            hit = judged.doc_hash[at] == ordered_hashes
            doc[by_hash[hit]] = at[hit]
        if traditional:   # ndeval's resultCompareByScore: score, then docno, both descending
            words = _ordered(docno)
            keys = [~words[:, j] for j in range(width - 1, -1, -1)]
            order = np.lexsort(keys + [-r["score"], topic])
        else:
            rank = r["rank"]
            same = topic[1:] == topic[:-1]
            if (topic[1:] >= topic[:-1]).all() and ((rank[1:] > rank[:-1]) | ~same).all():
                order = None   # already in order, as runs usually are
            else:
                order = np.lexsort((rank, topic))
                t, k = topic[order], rank[order]
                if ((t[1:] == t[:-1]) & (k[1:] == k[:-1])).any():
                    return   # a rank twice in a topic: the per-topic path's error
        if order is not None:
            topic, docno, doc = topic[order], docno[order], doc[order]
        self.topics = np.flatnonzero(np.bincount(topic, minlength=n_topics))
        self.first = np.searchsorted(topic, np.arange(n_topics))
        position = np.arange(len(topic)) - self.first[topic]
        if depth is not None:
            kept = position < depth
            topic, docno, doc, position = topic[kept], docno[kept], doc[kept], position[kept]
            self.first = np.searchsorted(topic, np.arange(n_topics))
        self.length = np.bincount(topic, minlength=n_topics)
        self.topic, self.docno, self.position = topic, docno, position
        found = np.flatnonzero(doc >= 0)
        doc = doc[found]
        doc_words = _widen(judged.doc_words, width)
        if not ((judged.doc_topic[doc] == topic[found]).all() and (doc_words[doc] == docno[found]).all()):
            return   # a hash collision
        self.mask = np.zeros(len(topic), np.int64)
        self.mask[found] = judged.doc_mask[doc]
        self.ok = True


# --------------------------------------------------------------------------
# sums in the per-topic path's order


def _running(values, seg_start, seg_length):
    """Each value's running sum within its segment (segments consecutive, in order), each added to the sum before
    it as the per-topic path adds them: ``np.cumsum`` of a dense block, which adds left to right."""
    out = np.empty(len(values))
    if not len(values):
        return out
    done = 0
    while done < len(seg_start):
        width = int(seg_length[done:].max())
        stop = min(len(seg_start), done + max(1, _CELLS // max(width, 1)))
        lengths = seg_length[done:stop]
        width = max(int(lengths.max()), 1)
        row = np.repeat(np.arange(stop - done), lengths)
        taken = np.arange(seg_start[done], seg_start[stop - 1] + lengths[-1])
        column = taken - np.repeat(seg_start[done:stop], lengths)
        grid = np.zeros((stop - done, width))
        grid[row, column] = values[taken]
        out[taken] = np.cumsum(grid, axis=1)[row, column]
        done = stop
    return out


def _segment_totals(values, segment, n_segments):
    """Each segment's sum (0.0 for none), added left to right; ``segment`` sorted."""
    starts = np.searchsorted(segment, np.arange(n_segments))
    lengths = np.diff(np.r_[starts, len(segment)])
    running = _running(values, starts, lengths)
    totals = np.zeros(n_segments)
    some = lengths > 0
    totals[some] = running[starts[some] + lengths[some] - 1]
    return totals


def _table(beta, n):
    """β^0 ... β^(n-1) as the per-topic path computes them (one factor a rank)."""
    return np.array(beta_powers(beta, 1 << max(n - 1, 0).bit_length()))


# --------------------------------------------------------------------------
# the measures


def evaluate_in_arrays(qrels_path, run_path, plan, *, alpha, beta, traditional, depth, complete, relevance_level,
                       max_ideal_work):
    """(per-topic values {topic: {column: value}}, the qrels' topics as a DiversityQrels, the run's as a DiversityRun
    with its run id, judged topics of the run without a relevant document, {topic: (TopicIntents, docnos)} of the
    topics whose values the per-topic code must compute) as the per-topic path computes them, or None when the
    per-topic path must read the files (see the module's docstring)."""
    codes = {}
    q = _read(qrels_path, 4, "qrels", (0, 1, 2), codes)
    if q is None:
        return None
    r = _read(run_path, 6, "run", (0, 2), codes, scores=traditional)
    if r is None:
        return None
    width = max(q["docno"].shape[1], r["docno"].shape[1])   # one width, so that equal docnos hash alike
    q["docno"], r["docno"] = _widen(q["docno"], width), _widen(r["docno"], width)
    names = sorted(codes)   # topics in byte order, as the per-topic path orders them
    renumber = np.empty(len(names), np.int64)
    renumber[[codes[n] for n in names]] = np.arange(len(names))
    q["topic"], r["topic"] = renumber[q["topic"]], renumber[r["topic"]]
    n_topics = len(names)
    judged = _Judged(q, n_topics, relevance_level, max_ideal_work)
    if not judged.ok:
        return None
    ranked = _Ranked(r, judged, n_topics, traditional, depth)
    if not ranked.ok:
        return None
    judged_topics, run_topics = judged.topics.tolist(), set(ranked.topics.tolist())
    evaluated = judged_topics if complete else [t for t in judged_topics if t in run_topics]
    if not evaluated:
        return None   # the per-topic path's error
    measured = [t for t in evaluated if t in run_topics and judged.n_subtopics[t] > 0]
    lockstep = _lockstep_topics(judged, measured)
    values = _Values(judged, ranked, plan, n_topics, alpha, beta, lockstep).columns
    per_topic = {}
    nan_columns = [m.column for m in plan if m.family == "nNRBP"]
    for t in evaluated:
        name = id_text(names[t])
        if t not in run_topics:
            per_topic[name] = {m.column: 0.0 for m in plan}
        elif judged.n_subtopics[t] == 0:
            per_topic[name] = {m.column: (math.nan if m.column in nan_columns else 0.0) for m in plan}
        else:
            per_topic[name] = None
    rows = [t for t in evaluated if per_topic[id_text(names[t])] is None]
    if rows:
        table = np.column_stack([values[m.column][rows] for m in plan]).tolist()
        columns = [m.column for m in plan]
        for t, row in zip(rows, table):
            per_topic[id_text(names[t])] = dict(zip(columns, row))
    left = {id_text(names[t]): _topic_objects(judged, ranked, t) for t in rows   # the lock-step ideal leaves them
            if not lockstep[t] and _needs_ideal(plan)}
    empty = [names[t] for t in judged_topics if t in run_topics and judged.n_subtopics[t] == 0]
    qrels_topics = DiversityQrels(qrels_path, dict.fromkeys(names[t] for t in judged_topics), relevance_level)
    run_view = DiversityRun(run_path, id_text(r["first"][5]), dict.fromkeys(names[t] for t in sorted(run_topics)))
    return per_topic, qrels_topics, run_view, empty, left


def _needs_ideal(plan):
    return any(m.family in ("alpha-nDCG", "nERR-IA", "nNRBP") for m in plan)


def _lockstep_topics(judged, topics):
    """Which of ``topics`` (as a mask over all) the lock-step greedy ranks: those with at most _LOCKSTEP_RELEVANT
    relevant documents, fewest subtopic sets first, while its arrays (topics x the most sets x subtopics) stay within
    _LOCKSTEP_CELLS; a topic with very many sets would pad every other's."""
    chosen = np.zeros(len(judged.n_subtopics), bool)
    topics = np.array([t for t in topics if judged.relevant[t] <= _LOCKSTEP_RELEVANT], np.int64)
    order = topics[np.argsort(judged.group_count[topics], kind="stable")]
    cells = np.arange(1, len(order) + 1) * judged.group_count[order] * judged.width
    chosen[order[cells <= _LOCKSTEP_CELLS]] = True
    return chosen


def _topic_objects(judged, ranked, t):
    """Topic ``t``'s TopicIntents and ranked docnos, as the per-topic path's readers build them."""
    n = int(judged.n_subtopics[t])
    docs = np.flatnonzero(judged.doc_topic == t)
    relevant = {_id_bytes(judged.doc_words[d]): tuple(s for s in range(n) if int(judged.doc_mask[d]) >> s & 1)
                for d in docs.tolist()}
    intents = TopicIntents(judged.subtopic_names[t], relevant, frozenset(),
                           tuple(int(c) for c in judged.per_subtopic[t, :n]))
    start = int(ranked.first[t])
    docnos = [_id_bytes(w) for w in ranked.docno[start:start + int(ranked.length[t])]]
    return intents, docnos


class _Values:
    """{column: array over topics} of every measure of ``plan``, for the topics in the run with a relevant
    document (the others' entries are meaningless)."""

    def __init__(self, judged, ranked, plan, n_topics, alpha, beta, lockstep):
        self.judged, self.ranked, self.plan, self.lockstep = judged, ranked, plan, lockstep
        self.keep, self.alpha, self.beta = 1.0 - alpha, alpha, beta
        self.cutoffs = sorted({m.k for m in plan if m.k is not None})
        self.depth = max(self.cutoffs, default=0)
        n = judged.n_subtopics
        self.n = np.maximum(n, 1)
        self.nrbp = None
        self._run_pairs()
        self.columns = {}
        run_cut = self._cutoff_sums() if self.cutoffs else {}
        best = self._ideal() if _needs_ideal(plan) else None
        for m in plan:
            self.columns[m.column] = self._value(m, run_cut, best)

    def _run_pairs(self):
        """One row a (line, subtopic) of the run's relevant lines, in rank order: its gain (1-α)^(lines above
        relevant to the subtopic) and the line's gain, their sum over its subtopics in subtopic order."""
        ranked, width = self.ranked, self.judged.width
        lines = np.flatnonzero(ranked.mask)
        self.lines, masks = lines, ranked.mask[lines]
        bits = ((masks[:, None] >> np.arange(width)) & 1).astype(bool)
        pair_line, subtopic = np.nonzero(bits)
        topic = ranked.topic[lines][pair_line]
        key = topic * width + subtopic
        order = np.argsort(key, kind="stable")
        sorted_key = key[order]
        starts = _first_of_runs(sorted_key)
        before = np.empty(len(key), np.int64)
        before[order] = np.arange(len(key)) - np.repeat(starts, np.diff(np.r_[starts, len(key)]))
        self.pair_order, self.pair_key, self.pair_line, self.before = order, sorted_key, pair_line, before
        gains = _table(self.keep, int(before.max(initial=0)) + 1)[before]
        counts = bits.sum(axis=1)
        first = np.r_[0, np.cumsum(counts)[:-1]].astype(np.int64)
        score = np.zeros(len(lines))
        for j in range(int(counts.max(initial=0))):   # added in subtopic order, as the per-topic path adds them
            some = np.flatnonzero(counts > j)
            score[some] += gains[first[some] + j]
        self.score, self.counts, self.new = score, counts, np.bincount(pair_line[before == 0], minlength=len(lines))

    def _cutoff_sums(self):
        """{k: (DCG, ERR, pairs, covered) over the top k} per topic, from the relevant lines above the deepest k."""
        ranked, depth = self.ranked, self.depth
        top = np.flatnonzero(ranked.position[self.lines] < depth)
        lines = self.lines[top]
        topic, position = ranked.topic[lines], ranked.position[lines]
        score = self.score[top]
        discount = np.array([dcg_discount(i) for i in range(depth)])
        starts = np.searchsorted(topic, np.arange(len(self.n)))
        lengths = np.diff(np.r_[starts, len(topic)])
        dcg = _running(score * discount[position], starts, lengths)
        err = _running(score / (position + 1.0), starts, lengths)
        pairs, covered = np.cumsum(self.counts[top]), np.cumsum(self.new[top])
        key = topic * (depth + 1) + position
        out = {}
        for k in self.cutoffs:
            last = np.searchsorted(key, np.arange(len(self.n)) * (depth + 1) + k) - 1
            some = last >= starts
            at = np.where(some, last, 0)
            base = np.where(starts > 0, starts - 1, 0)

            def upto(running, integer=False):
                if not len(running):
                    return np.zeros(len(self.n))
                if integer:   # exact: a difference of whole numbers
                    value = running[at] - np.where(starts > 0, running[base], 0)
                else:
                    value = running[at]
                return np.where(some, value, 0)

            out[k] = (upto(dcg), upto(err), upto(pairs, True), upto(covered, True))
        return out

    def _value(self, m, run_cut, best):
        n, family, k, alpha = self.n, m.family, m.k, self.alpha
        with np.errstate(divide="ignore", invalid="ignore"):
            if family in ("alpha-DCG", "alpha-nDCG", "ERR-IA", "nERR-IA"):
                term = dcg_term if "DCG" in family else err_term
                normaliser = np.array([ideal_ideal(s, alpha, k, term) for s in n.tolist()])
                value = run_cut[k][0 if term is dcg_term else 1] / normaliser
                if family in ("alpha-DCG", "ERR-IA"):
                    return value
                ideal = best[k][0 if term is dcg_term else 1] / normaliser
                return np.where(value == 0.0, value, value / ideal)
            if family == "P-IA":
                return run_cut[k][2] / (k * n)
            if family == "strec":
                return run_cut[k][3] / n
            if family in ("NRBP", "nNRBP"):
                if self.nrbp is None:
                    self.nrbp = self._nrbp()
                nrbp = self.nrbp
                if family == "NRBP":
                    return nrbp
                return np.where(best["nrbp"] != 0.0, nrbp / best["nrbp"], math.nan)
            if family == "MAP-IA":
                return self._map_ia()
        raise AssertionError(family)

    def _factor(self):
        return np.array([(1.0 - self.keep * self.beta) / s for s in self.n.tolist()])

    def _nrbp(self):
        ranked = self.ranked
        position = ranked.position[self.lines]
        decay = _table(self.beta, int(position.max(initial=0)) + 1)
        sums = _segment_totals(self.score * decay[position], ranked.topic[self.lines], len(self.n))
        return sums * self._factor()

    def _map_ia(self):
        width, n_topics = self.judged.width, len(self.n)
        order = self.pair_order
        position = self.ranked.position[self.lines][self.pair_line][order]
        precision = (self.before[order] + 1) / (position + 1.0)
        sums = _segment_totals(precision, self.pair_key, n_topics * width).reshape(n_topics, width)
        total = np.zeros(n_topics)
        for s in range(width):   # in subtopic order; a topic's missing subtopics add 0.0
            total += sums[:, s] / self.judged.per_subtopic[:, s]
        return total / self.n

    def _ideal(self):
        """{k: (DCG, ERR) of the greedy ideal's top k}, and "nrbp": its NRBP, per topic: ndeval's greedy, one rank
        a step for every topic at once (each topic's groups of documents with the same subtopics side by side)."""
        judged, keep, beta = self.judged, self.keep, self.beta
        n_topics, width = len(self.n), judged.width
        wanted = np.flatnonzero(self.lockstep)
        out = {k: (np.zeros(n_topics), np.zeros(n_topics)) for k in self.cutoffs}
        out["nrbp"] = np.zeros(n_topics)
        if not len(wanted):
            return out
        groups = int(judged.group_count[wanted].max())
        row_of = np.full(n_topics, -1)
        row_of[wanted] = np.arange(len(wanted))
        take = np.flatnonzero(row_of[judged.group_topic] >= 0)
        g_topic = row_of[judged.group_topic[take]]
        first_group = np.searchsorted(judged.group_topic[take], judged.group_topic[take])
        column = np.arange(len(take)) - first_group
        shape = (len(wanted), groups)
        size, start, mask = np.zeros(shape, np.int64), np.zeros(shape, np.int64), np.zeros(shape, np.int64)
        size[g_topic, column] = judged.group_size[take]
        start[g_topic, column] = judged.group_start[take]
        mask[g_topic, column] = judged.group_mask[take]
        member = ((mask[:, :, None] >> np.arange(width)) & 1).astype(np.float64)
        heads = np.zeros(shape, np.int64)
        gains = np.ones((len(wanted), width))
        docrank = judged.docrank[judged.grouped]
        dcg, err, nrbp = np.zeros(len(wanted)), np.zeros(len(wanted)), np.zeros(len(wanted))
        last = np.zeros(len(wanted))
        rows = np.arange(len(wanted))           # the topics still ranked (rows of the arrays above)
        whole = any(m.family == "nNRBP" for m in self.plan)
        decays = _table(beta, max(self.depth, 1))
        decay, i = 1.0, 0
        while len(rows):
            if i >= self.depth:
                if not whole:
                    break
                if i >= max(self.depth, 1):   # ranks whose NRBP term rounds away are not ranked (nor summed)
                    going = last[rows] * decay >= np.spacing(nrbp[rows]) / 2
                    rows = rows[going]
                    if not len(rows):
                        break
            h, s, g = heads[rows], size[rows], gains[rows]
            gain = np.zeros((len(rows), groups))
            for j in range(width):   # each group's gain, summed in subtopic order
                gain += member[rows, :, j] * g[:, j:j + 1]
            live = h < s
            gain = np.where(live, gain, -1.0)
            best = gain.max(axis=1)
            head_rank = np.where(live, docrank[np.clip(start[rows] + s - 1 - h, 0, None)], -1)
            pick = np.where(gain == best[:, None], head_rank, -1).argmax(axis=1)
            ranked = best >= 0.0
            rows, pick, best = rows[ranked], pick[ranked], best[ranked]
            if not len(rows):
                break
            gains[rows] = gains[rows] * np.where(member[rows, pick] > 0, keep, 1.0)
            heads[rows, pick] += 1
            if i < self.depth:
                dcg[rows] += best * dcg_discount(i)
                err[rows] += best / (i + 1.0)
            nrbp[rows] += best * decay
            last[rows] = best
            i += 1
            decay = decays[i] if i < len(decays) else decay * beta
            if i in out:
                out[i][0][wanted], out[i][1][wanted] = dcg, err
        for k in self.cutoffs:   # a topic with fewer relevant documents than k: its whole ideal
            if k > i:
                out[k][0][wanted], out[k][1][wanted] = dcg, err
        out["nrbp"][wanted] = nrbp * self._factor()[wanted]
        return out
