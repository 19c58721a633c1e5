"""trec_eval's ranking: score descending, ties by docno descending (byte order)."""

import functools
import importlib

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

ev = importlib.import_module("irlab.trec.evaluate")
rk = importlib.import_module("irlab.trec.ranks")

docno_st = st.binary(min_size=1, max_size=12).filter(lambda b: b"\0" not in b)
rows_st = st.lists(
    st.tuples(st.integers(0, 3),
              st.sampled_from([0.0, -0.0, 1.0, 1.0000001, 1.0000002, 2.5, -3.0, -3.0000001, 1e-300]),
              docno_st),
    min_size=1, max_size=40,
).map(lambda rows: list({(t, d): (t, s, d) for t, s, d in rows}.values()))  # unique docno per topic


def reference_ranks(rows):
    def cmp(i, j):
        (ti, si, di), (tj, sj, dj) = rows[i], rows[j]
        if ti != tj:
            return -1 if ti < tj else 1
        if si != sj:
            return -1 if si > sj else 1
        return -1 if di > dj else (1 if di < dj else 0)
    order = sorted(range(len(rows)), key=functools.cmp_to_key(cmp))
    ranks = [0] * len(rows)
    seen = {}
    for i in order:
        t = rows[i][0]
        ranks[i] = seen.get(t, 0)
        seen[t] = ranks[i] + 1
    return order, ranks


@settings(max_examples=400, deadline=None)
@given(rows=rows_st, layout=st.sampled_from(["as-is", "grouped"]), packed=st.booleans(),
       coarse_bits=st.sampled_from([63, 8]))
def test_ranks_match_reference(rows, layout, packed, coarse_bits):
    if layout == "grouped":  # presorted fast path: grouped by topic, score descending
        rows = sorted(rows, key=lambda r: (r[0], -r[1]))
    seg = np.array([r[0] for r in rows], dtype=np.int64)
    score = np.array([r[1] for r in rows], dtype=np.float64)
    docno = np.array([r[2] for r in rows], dtype=f"S{max(len(r[2]) for r in rows)}")
    order, ranks = reference_ranks(rows)
    assert ev.rank_order(seg, score, docno).tolist() == order
    all_rows = np.arange(len(rows))
    if packed:
        # with 8 bits of score, distinct scores share groups and need the exact sort
        saved_bits = rk._COARSE_BITS_MAX
        rk._COARSE_BITS_MAX = coarse_bits
        try:
            got = rk.topic_ranks(seg, score, docno, all_rows, 4)
        finally:
            rk._COARSE_BITS_MAX = saved_bits
    else:
        saved = rk._coarse_order
        rk._coarse_order = lambda *a: None  # force the full-sort fallback
        try:
            got = rk.topic_ranks(seg, score, docno, all_rows, 4)
        finally:
            rk._coarse_order = saved
    assert got.tolist() == ranks
