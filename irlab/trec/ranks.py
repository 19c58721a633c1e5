"""trec_eval's order of a run's documents and the table that joins run and qrels keys (the batch evaluator's
ranking layer, below :mod:`irlab.trec.evaluate` and :mod:`irlab.trec.stream`, which both rank and join with it).

Order: score descending, then docno descending (trec_eval 10.0 sorts with qsort on exactly these keys); ranks are
0-based within each topic.
"""

from __future__ import annotations

import numpy as np

from irlab.trec.readers import compiled, distinct_sorted, equal_key_pairs, key_words, whole_topic_slices

NONPOOL = -1
UNJUDGED = -2


# ---------------------------------------------------------------------------
# preparation: select topics, rank, cut at depth, join with qrels


def index_in(sorted_vals, vals):
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
    if len(distinct_sorted(codes)) != len(codes):
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
    the byte strings (NUL padded), i.e. strcmp order.  The longest byte
    prefix common to all the given docnos is dropped first (it does not
    change their order), which often leaves a single word."""
    n = len(docno)
    w = docno.dtype.itemsize
    if n == 0:
        return np.zeros((0, 1), dtype=np.uint64)
    if w % 8:
        docno = docno.astype(f"S{(w + 7) // 8 * 8}")
        w = docno.dtype.itemsize
    words = np.ascontiguousarray(docno).view(">u8").reshape(n, w // 8).astype(np.uint64)
    k = words.shape[1]
    # drop all-zero trailing words and constant leading words
    while k > 1 and not words[:, k - 1].any():
        k -= 1
    lead = 0
    while lead < k - 1 and not np.bitwise_or.reduce(words[:, lead] ^ words[0, lead]):
        lead += 1
    words = words[:, lead:k]
    if words.shape[1] == 2:
        # drop the common leading bytes of the first word; fold into one word
        # when what is left fits
        diff = int(np.bitwise_or.reduce(words[:, 0] ^ words[0, 0]))
        p = (64 - diff.bit_length()) // 8  # common leading bytes
        last = words[:, 1]
        used = int(np.bitwise_or.reduce(last))
        tail_bytes = 8 - ((used & -used).bit_length() - 1) // 8 if used else 0
        if p > 0 and 8 - p + tail_bytes <= 8:
            sh = np.uint64(8 * p)
            return ((words[:, 0] << sh) | (last >> np.uint64(64 - 8 * p)))[:, None]
    return np.ascontiguousarray(words)


def _desc_keys(score):
    """uint64 keys whose ascending order is descending score (-0.0 == 0.0)."""
    u = (np.asarray(score, dtype=np.float64) + 0.0).view(np.uint64)
    neg = (u >> np.uint64(63)).astype(bool)
    return ~np.where(neg, ~u, u | np.uint64(1 << 63))


def _tie_fix(brk, score_at, docno_at, posr, rank_of):
    """Exact ranks for the rows at positions ``posr`` of an order that is
    right except inside groups (``brk[p]``: a group starts at position p).

    Inside a group the order may be wrong: only groups containing one of
    ``posr`` are sorted, by score descending then docno descending.
    ``rank_of(p)``: rank of position p in the given order; ``score_at(p)`` /
    ``docno_at(p)``: score / docno at position p."""
    n = len(brk)
    gstarts = np.flatnonzero(brk)
    gends = np.append(gstarts[1:], n)
    gi = np.searchsorted(gstarts, posr, side="right") - 1
    tied = (gends[gi] - gstarts[gi]) > 1
    ranks = rank_of(posr)
    if not tied.any():
        return ranks
    ug = distinct_sorted(gi[tied])
    ga, gb = gstarts[ug], gends[ug]
    sizes = gb - ga
    offs = np.concatenate(([0], np.cumsum(sizes)[:-1]))
    member = np.repeat(ga - offs, sizes) + np.arange(int(sizes.sum()))
    gid = np.repeat(np.arange(len(ug)), sizes)
    words = docno_words(docno_at(member))
    keys = [~words[:, j] for j in range(words.shape[1] - 1, -1, -1)]
    o = np.lexsort(keys + [_desc_keys(score_at(member)), gid])
    # position inside its group after sorting
    within = np.empty(len(member), dtype=np.int64)
    within[o] = np.arange(len(member)) - offs[gid[o]]
    new_rank = rank_of(ga)[gid] + within
    ranks[tied] = new_rank[np.searchsorted(member, posr[tied])]
    return ranks


_COARSE_BITS_MAX = 63  # (tests lower it to force groups of distinct scores)


def _coarse_order(seg, score, T):
    """Row order by (topic, score desc) up to groups of nearly equal scores,
    via one packed 64-bit sort of (topic, top bits of the score, row);
    returns (order, group-start flags) or None when fewer than 8 score bits
    would fit."""
    n = len(seg)
    bi = max((n - 1).bit_length(), 1)
    bs = max((T - 1).bit_length(), 1)
    cb = min(64 - bi - bs, _COARSE_BITS_MAX)
    if cb < 8:
        return None
    coarse = _desc_keys(score) >> np.uint64(64 - cb)
    packed = seg.astype(np.uint64) << np.uint64(cb + bi)
    packed |= coarse << np.uint64(bi)
    del coarse
    packed |= np.arange(n, dtype=np.uint64)
    packed.sort()
    order = (packed & np.uint64((1 << bi) - 1)).astype(np.int64)
    gkey = packed >> np.uint64(bi)
    brk = np.ones(n, dtype=bool)
    np.not_equal(gkey[1:], gkey[:-1], out=brk[1:])
    return order, brk


JOIN_ROWS = 1 << 17    # run rows hashed at a time in the join, by each thread
SLICE_ROWS = 1 << 20   # presorted runs are ranked a slice of whole topics at a time (bounded memory)
COMPILED_MAX_TIE = 64  # C ranks a judged row among at most this many equal scores (a longer tie: numpy's sort)


def _presorted_ranks(seg, score, docno, rows, bbrk, bstart):
    """Ranks of ``rows`` when every topic's lines are contiguous and in
    non-increasing score order: only ties need sorting.  Slices of whole
    topics keep the temporaries small on multi-million-line runs."""
    ranks = np.empty(len(rows), dtype=np.int64)
    for a, b in whole_topic_slices(bstart, len(seg), SLICE_ROWS):
        inside = np.flatnonzero((rows >= a) & (rows < b))
        if len(inside) == 0:
            continue
        sc, brk = score[a:b], np.ones(b - a, dtype=bool)
        np.not_equal(sc[1:], sc[:-1], out=brk[1:])
        brk[1:] |= bbrk[a: b - 1]
        starts = bstart[(bstart >= a) & (bstart < b)] - a

        def block_rank(i, starts=starts):
            return i - starts[np.searchsorted(starts, i, side="right") - 1]

        dn = docno[a:b]
        ranks[inside] = _tie_fix(brk, lambda p, sc=sc: sc[p], lambda p, dn=dn: dn[p], rows[inside] - a, block_rank)
    return ranks


def topic_ranks(seg, score, docno, rows, T):
    """0-based rank within its topic of each of ``rows`` (trec_eval order)."""
    n = len(seg)
    if n == 0:
        return np.zeros(0, dtype=np.int64)
    bbrk = seg[1:] != seg[:-1]
    bstart = np.concatenate(([0], np.flatnonzero(bbrk) + 1))
    contiguous = len(bstart) <= T and len(distinct_sorted(seg[bstart])) == len(bstart)
    c = compiled()
    if contiguous and c is not None:   # presorted scores: the same ranks from one pass of C, or it declines
        ranks, words = np.empty(len(rows), dtype=np.int64), key_words(docno)
        if c.presorted_ranks(np.ascontiguousarray(score, dtype=np.float64), bstart, words, words.shape[1],
                             np.ascontiguousarray(rows, dtype=np.int64), COMPILED_MAX_TIE, ranks):
            return ranks
    rising = score[1:] > score[:-1]
    np.greater(rising, bbrk, out=rising)   # rising & ~bbrk, in place: a score goes up inside a topic
    presorted = contiguous and not rising.any()
    del rising
    if presorted:
        return _presorted_ranks(seg, score, docno, rows, bbrk, bstart)
    res = _coarse_order(seg, score, T)
    if res is None:
        order = rank_order(seg, score, docno)
        s, g = score[order], seg[order]
        brk = np.ones(n, dtype=bool)
        np.not_equal(s[1:], s[:-1], out=brk[1:])
        brk[1:] |= g[1:] != g[:-1]
    else:
        order, brk = res
    inv = np.empty(n, dtype=np.int64)
    inv[order] = np.arange(n, dtype=np.int64)
    counts = np.bincount(seg, minlength=T)
    tstart = np.concatenate(([0], np.cumsum(counts)[:-1]))
    return _tie_fix(brk, lambda p: score[order[p]], lambda p: docno[order[p]], inv[rows],
                    lambda p: p - tstart[seg[order[p]]])


def block_ranks(starts, score, docno, rows):
    """:func:`topic_ranks` of ``rows`` when the topics are blocks of rows, block b from ``starts[b]`` (int64) to the
    next start, each topic one block: C ranks presorted blocks without a topic number per row."""
    c = compiled()
    if c is not None:
        ranks, words = np.empty(len(rows), dtype=np.int64), key_words(docno)
        if c.presorted_ranks(np.ascontiguousarray(score, dtype=np.float64), starts, words, words.shape[1],
                             np.ascontiguousarray(rows, dtype=np.int64), COMPILED_MAX_TIE, ranks):
            return ranks
    seg = np.repeat(np.arange(len(starts), dtype=np.int64), np.diff(np.append(starts, len(score))))
    return topic_ranks(seg, score, docno, rows, len(starts))


class KeySlots:
    """Every position p with ``sorted_keys[p] == key``, for many keys: a
    direct-mapped table indexed by the top bits of a key holds the one sorted
    key with those bits, so a key costs one table look-up and one comparison;
    the rare slots shared by several sorted keys go to
    :func:`~irlab.trec.readers.equal_key_pairs` (binary search)."""

    def __init__(self, sorted_keys):
        self.keys = sorted_keys
        self.bits = max(16, min(22, (len(sorted_keys) * 16).bit_length()))
        self.shift = np.uint64(64 - self.bits)
        slot = (sorted_keys >> self.shift).astype(np.int64)   # sorted, as the keys are
        self.table = np.zeros(1 << self.bits, dtype=np.int32)  # 0 empty, p + 1 one key, -1 shared
        self.table[slot] = np.arange(1, len(slot) + 1, dtype=np.int32)
        self.table[slot[1:][slot[1:] == slot[:-1]]] = -1

    def find(self, keys):
        """(i, p) pairs with ``keys[i] == sorted_keys[p]``, i ascending within each kind of slot."""
        entry = np.take(self.table, keys >> self.shift)
        i = np.flatnonzero(entry > 0)
        p = entry[i].astype(np.int64) - 1
        same = self.keys[p] == keys[i]
        i, p = i[same], p[same]
        shared = np.flatnonzero(entry < 0)
        if len(shared):
            si, sp = equal_key_pairs(self.keys, keys[shared])
            i, p = np.concatenate((i, shared[si])), np.concatenate((p, sp))
        return i, p
