"""trec_eval measures as short declarations (in the style of ir_measures).

Each :class:`Measure` has trec_eval's name, a description, a parameter kind
with its default, a vectorised function ``fn(ctx, params)`` over an
:class:`irlab.trec.context.EvalContext`, and how the ``all`` line
summarises it.  Measures are computed and printed in trec_eval 10.0's order
(``TREC_ORDER``); irlab's own measures (not in trec_eval) follow.

Parameter kinds (trec_eval syntax ``-m name.params``):

* ``cut_long``   comma-separated cutoffs, truncated to integers, sorted
                 (``P.5,7,3`` -> P_3, P_5, P_7); names ``name_%d``
* ``cut_float``  comma-separated fractions, sorted; names ``name_%3.2f``
* ``floats``     an ordered list of numbers; name ``name_<params as given>``
                 when given
* ``pairs``      ``level=gain,...`` (``ndcg.1=3,2=9``); name
                 ``name_<params as given>`` when given
* ``none``       no parameters
"""

from __future__ import annotations

import difflib
import math
import re
from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from irlab.errors import ParameterError
from irlab.trec.context import EvalContext, EvalResult, TopicRows, safe_div

__all__ = [
    "Measure", "MEASURES", "TREC_ORDER", "NICKNAMES", "UNSUPPORTED", "parse_measures",
    "compute_all", "MeasurePlan",
]

INFAP_EPSILON = 0.00001
MIN_GEO_MEAN = 0.00001


@dataclass(frozen=True)
class Measure:
    name: str
    description: str
    fn: Callable
    kind: str = "none"              # none | cut_long | cut_float | floats | pairs
    default: tuple = ()
    summary: str = "mean"           # mean | sum | gm | none | count | runid
    per_topic: bool = True          # printed on per-topic (-q) lines
    integer: bool = False           # printed as an integer
    trec_eval: bool = True          # exists in trec_eval 10.0


# ---------------------------------------------------------------------------
# measure functions: fn(ctx, params) -> (T,) array | list of (T,) arrays


def _num_ret(ctx, p):
    return ctx.nret.astype(np.float64)


def _num_rel(ctx, p):
    return ctx.R.astype(np.float64)


def _num_rel_ret(ctx, p):
    return ctx.num_rel_ret.astype(np.float64)


def _zeros(ctx, p):
    return np.zeros(ctx.T)


def _rel_prec_sum(ctx):
    return ctx.cached("relprec", lambda: np.where(ctx.isrel, ctx.prec, 0.0))


def _ap_values(ctx):
    return ctx.cached("ap", lambda: safe_div(ctx.segsum(_rel_prec_sum(ctx)), ctx.R))


def _map(ctx, p):
    return _ap_values(ctx)


def _rprec(ctx, p):
    return safe_div(ctx.count_before(ctx.isrel, ctx.R), ctx.R)


def _judged_split(ctx):
    """(relevant mask, judged-nonrelevant mask) over the judged docs; docs with
    negative grades (-2) are in neither."""
    def f():
        judged = ctx.rel >= 0
        nonrel = judged & (ctx.rel < ctx.level)
        return judged & ~nonrel, nonrel
    return ctx.cached("judged_split", f)


def _bpref_values(ctx):
    def f():
        rel, nonrel = _judged_split(ctx)
        cnon = ctx.segcumsum(nonrel.astype(np.int64))  # inclusive == exclusive at rel docs
        lo = max(ctx.level, 0)
        num_nonrel = ctx.rel_levels[:, :lo].sum(axis=1) if lo > 0 else np.zeros(ctx.T, np.int64)
        R = ctx.R
        denom = np.minimum(num_nonrel, R)[ctx.seg]
        with np.errstate(divide="ignore", invalid="ignore"):
            frac = np.minimum(cnon, R[ctx.seg]) / denom
        contrib = np.where(cnon > 0, 1.0 - frac, 1.0)
        contrib = np.where(rel, contrib, 0.0)
        return safe_div(ctx.segsum(contrib), R)
    return ctx.cached("bpref", f)


def _bpref(ctx, p):
    return _bpref_values(ctx)


def _recip_rank(ctx, p):
    out = np.zeros(ctx.T)
    idx = np.flatnonzero(ctx.isrel)
    if len(idx):
        segs, first = np.unique(ctx.seg[idx], return_index=True)
        out[segs] = 1.0 / (ctx.pos[idx[first]] + 1.0)
    return out


def _lround(x):
    """C's lround: nearest integer, halves away from zero (exact: x - trunc(x) is exact)."""
    x = np.asarray(x, dtype=np.float64)
    t = np.trunc(x)
    return (t + np.where(np.abs(x - t) >= 0.5, np.sign(x), 0.0)).astype(np.int64)


def _suffix_max(seg, v):
    """Within each segment (contiguous, in rank order): max of v over this and later positions.
    Exact (max only compares): log2(longest segment) passes of pairwise maxima."""
    v = v.copy()
    step = 1
    while step < len(v):
        same = seg[:-step] == seg[step:]
        if not same.any():
            break
        v[:-step] = np.maximum(v[:-step], np.where(same, v[step:], -np.inf))
        step *= 2
    return v


def _iprec_values(ctx, fracs):
    """Interpolated precision at recall levels, as trec_eval 10.0 computes it
    (m_iprec_at_recall.c, m_11pt_avg.c).

    A level x becomes a count of relevant documents c = lround(x * R); the
    value is the highest precision at or after the c-th relevant document
    retrieved (precision only rises at relevant documents, so the max is taken
    over them, on the same doubles rel_so_far / rank).  trec_eval walks the
    levels from the last to the first: levels with c > relevant retrieved are
    never reached (0, and left out of 11pt_avg's sum); a level it cannot match
    (c = 0, or out of order) takes the highest precision of the whole ranking,
    and so do the levels below it.  With nothing retrieved that precision is
    0 / 0 (printed -nan).  Returns (values per level, levels reached)."""
    idx = np.flatnonzero(ctx.isrel)
    seg = ctx.seg[idx]
    ip = _suffix_max(seg, ctx.prec[idx])
    T = ctx.T
    nrr = np.bincount(seg, minlength=T)[:T]
    relstart = np.concatenate(([0], np.cumsum(nrr)[:-1]))
    has = nrr > 0
    with np.errstate(invalid="ignore", divide="ignore"):
        top = np.where(ctx.nret > 0, 0.0, np.nan)   # 0 / num_ret
    top[has] = ip[relstart[has]]
    cuts = [_lround(np.float64(x) * ctx.R) for x in fracs]
    # trec_eval first skips, from the last level down, the levels beyond the relevant retrieved
    current = np.full(T, -1, dtype=np.int64)
    for i in range(len(fracs) - 1, -1, -1):
        current = np.where((current < 0) & (cuts[i] <= nrr), i, current)
        if (current >= 0).all():
            break
    values = [np.zeros(T) for _ in fracs]
    reached = [np.zeros(T, dtype=bool) for _ in fracs]
    available = nrr.copy()          # the largest rel_so_far still to come
    stuck = np.zeros(T, dtype=bool)
    for i in range(len(fracs) - 1, -1, -1):
        active = current >= i
        c = cuts[i]
        ok = active & ~stuck & (c >= 1) & (c <= available)
        if ok.any():
            values[i][ok] = ip[relstart[ok] + c[ok] - 1]
        available = np.where(ok, c, available)
        stuck |= active & ~ok
        late = active & stuck
        values[i][late] = top[late]
        reached[i] = active
    return values, reached


def _iprec_at_recall(ctx, p):
    return _iprec_values(ctx, p)[0]


def _11pt_avg(ctx, p):
    if not p:
        raise ParameterError("11pt_avg needs at least one recall point")
    values, reached = _iprec_values(ctx, p)
    total = np.zeros(ctx.T)
    for v, r in zip(values[::-1], reached[::-1]):   # trec_eval adds from the last level down
        total = np.where(r, total + v, total)
    return total / len(p)


def _precision_at(ctx, p):
    return [ctx.count_before(ctx.isrel, k) / k for k in p]


def _relstring(ctx, p):
    n = int(p[0]) if p else 10
    n = max(n, 0)
    mat = np.full((ctx.T, max(n, 1)), ord("-"), dtype=np.uint8)
    m = ctx.pos < n
    rel, seg, pos = ctx.rel[m], ctx.seg[m], ctx.pos[m]
    codes = np.full(len(rel), ord("<"), dtype=np.uint8)
    codes[rel > 9] = ord(">")
    small = (rel >= 0) & (rel <= 9)
    codes[small] = (ord("0") + rel[small]).astype(np.uint8)
    codes[rel == -2] = ord(".")
    mat[seg, pos] = codes
    lens = np.minimum(ctx.nret, n)
    return [mat[t, : lens[t]].tobytes().decode("ascii") for t in range(ctx.T)]


def _recall_at(ctx, p):
    return [safe_div(ctx.count_before(ctx.isrel, k), ctx.R) for k in p]


def _infap(ctx, p):
    rel, nonrel = _judged_split(ctx)
    rs = ctx.segcumsum(rel.astype(np.int64)).astype(np.float64)
    ns = ctx.segcumsum(nonrel.astype(np.int64)).astype(np.float64)
    us = ctx.segcumsum((ctx.rel == -2).astype(np.int64)).astype(np.float64)
    j = ctx.pos.astype(np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        term = (1.0 / (j + 1.0) + (j / (j + 1.0)) * ((rs - 1 + ns + us) / j)
                * ((rs - 1 + INFAP_EPSILON) / (rs - 1 + ns + 2 * INFAP_EPSILON)))
    term = np.where(ctx.pos == 0, 1.0, term)
    term = np.where(rel, term, 0.0)
    return safe_div(ctx.segsum(term), ctx.R)


def _rprec_mult(ctx, p):
    out = []
    R = ctx.R
    for x in p:
        c = np.floor(x * R + 0.9).astype(np.int64)  # (long)(x*R + 0.9)
        out.append(safe_div(ctx.count_before(ctx.isrel, c), c))
    return out


def _utility(ctx, p):
    if len(p) != 4:
        raise ParameterError("utility needs exactly 4 coefficients (e.g. utility.1,-1,0,0)")
    a, b, c, d = p
    nrr = ctx.num_rel_ret.astype(np.float64)
    ret = ctx.nret.astype(np.float64)
    R = ctx.R.astype(np.float64)
    # trec_eval's -N (0 unless given): m_utility.c adds the counts in long integers, then converts
    rest = (np.int64(ctx.num_docs_in_coll) + (ctx.num_rel_ret - ctx.nret - ctx.R).astype(np.int64)).astype(np.float64)
    return a * nrr + b * (ret - nrr) + c * (R - nrr) + d * rest


def _bin_g(ctx, p):
    m = ctx.isrel
    nonrel_before = ctx.pos - (ctx.crel - 1)
    with np.errstate(divide="ignore"):
        contrib = np.where(m, 1.0 / np.log2(2.0 + nonrel_before), 0.0)
    return safe_div(ctx.segsum(contrib), ctx.R)


# ---- gain-based measures (trec_eval setup_gains semantics) ---------------------

class GainTable:
    """Gain of each relevance level: level itself unless overridden by
    ``level=gain`` parameters (levels given as non-integers are ignored)."""

    def __init__(self, ctx, pairs):
        self.map = {}
        for name, val in pairs or ():
            s = name.strip()
            body = s[1:] if s[:1] in "+-" else s
            if body.isdigit():
                self.map.setdefault(int(s), float(val))
        if -1 in self.map:
            raise ParameterError("a gain for level -1 (documents not in the qrels) is not supported")
        G = ctx.rel_levels.shape[1]
        self.level_gain = np.array([self.map.get(level, float(level)) for level in range(G)])
        self.ctx = ctx

    def of(self, rel):
        g = np.where(rel >= 0, self.level_gain[np.clip(rel, 0, len(self.level_gain) - 1)], 0.0)
        for lev, val in self.map.items():
            if lev < 0:
                g = np.where(rel == lev, val, g)
        return g

    def ideal_blocks(self):
        """[(gain, (T,) start, (T,) end)] ideal ranking blocks, positive gains, desc."""
        ctx = self.ctx
        vals = sorted({v for v in self.level_gain.tolist() if v > 0}, reverse=True)
        cum = np.zeros(ctx.T, dtype=np.int64)
        blocks = []
        for v in vals:
            cols = np.flatnonzero(self.level_gain == v)
            cnt = ctx.rel_levels[:, cols].sum(axis=1)
            blocks.append((v, cum.copy(), cum + cnt))
            cum = cum + cnt
        return blocks, cum

    def ideal_dcg(self, k=None):
        """Ideal DCG per topic, over all positive-gain judged docs (cut at k)."""
        ctx = self.ctx
        blocks, total = self.ideal_blocks()
        n = int(total.max()) if len(total) else 0
        H = ctx.disc_prefix(n)
        out = np.zeros(ctx.T)
        for v, a, b in blocks:
            if k is not None:
                a, b = np.minimum(a, k), np.minimum(b, k)
            out += v * (H[b] - H[a])
        return out

    def ideal_dcg_at(self, c):
        """Ideal DCG at per-topic prefix lengths c."""
        ctx = self.ctx
        blocks, total = self.ideal_blocks()
        H = ctx.disc_prefix(int(max(total.max() if len(total) else 0, np.max(c) if np.size(c) else 0)))
        out = np.zeros(np.shape(c))
        for v, a, b in blocks:
            out += v * (H[np.minimum(b, c)] - H[np.minimum(a, c)])
        return out


def rank_discounts(ctx):
    return ctx.cached("disc", lambda: 1.0 / np.log2(ctx.pos + 2.0))


def _dcg_parts(ctx, p):
    gains = GainTable(ctx, p)
    g = gains.of(ctx.rel)
    dcg = ctx.segsum(g * rank_discounts(ctx))
    idcg = gains.ideal_dcg()
    return dcg, idcg


def _ndcg(ctx, p):
    dcg, idcg = _dcg_parts(ctx, p)
    return safe_div(dcg, np.where(idcg > 0, idcg, 0.0))


def _dcg(ctx, p):
    return _dcg_parts(ctx, p)[0]


def _ideal_dcg(ctx, p):
    return _dcg_parts(ctx, p)[1]


def _ndcg_rel(ctx, p):
    gains = GainTable(ctx, p)
    g = gains.of(ctx.rel)
    cdcg = ctx.segcumsum(g * rank_discounts(ctx))
    blocks, P = gains.ideal_blocks()
    idcg_doc = np.zeros(ctx.N)
    if ctx.N:
        # ideal dcg at each doc's prefix length, per its own topic's blocks
        m = ctx.pos + 1
        H = ctx.disc_prefix(int(max(P.max() if len(P) else 0, m.max())))
        idcg_doc = np.zeros(ctx.N)
        for v, a, b in blocks:
            aa, bb = a[ctx.seg], b[ctx.seg]
            idcg_doc += v * (H[np.minimum(bb, m)] - H[np.minimum(aa, m)])
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = np.where(g > 0, cdcg / idcg_doc, 0.0)
    s = ctx.segsum(terms)
    nrr = ctx.segcount(g > 0)
    total_dcg = ctx.segsum(g * rank_discounts(ctx))
    total_idcg = gains.ideal_dcg()
    s = s + (P - nrr) * safe_div(total_dcg, total_idcg)
    return np.where(s > 0, safe_div(s, P), 0.0)


def _rndcg(ctx, p):
    gains = GainTable(ctx, p)
    gd = gains.of(ctx.rel) * rank_discounts(ctx)
    blocks, P = gains.ideal_blocks()
    total = np.zeros(ctx.T)
    count = np.zeros(ctx.T)
    for v, a, b in blocks:
        ok = (b > a) & (b > 0)
        val = safe_div(ctx.sum_before(gd, b), gains.ideal_dcg_at(b))
        total += np.where(ok, val, 0.0)
        count += ok
    # trec_eval adds a last point at num_ret only when its first loop stopped
    # (ideal gain exhausted) at least two documents before the end
    idc = gains.ideal_dcg_at(ctx.nret)
    ok = (ctx.nret > P + 1) & (idc > 0)
    total += np.where(ok, safe_div(ctx.segsum(gd), idc), 0.0)
    count += ok
    with np.errstate(invalid="ignore", divide="ignore"):
        res = total / count        # trec_eval divides 0 by 0 when every ideal gain is 0: -nan
    return np.where(ctx.R > 0, res, 0.0)


def _g_measure(ctx, p):
    gains = GainTable(ctx, p)
    g = gains.of(ctx.rel)
    blocks, _ = gains.ideal_blocks()
    # cost up to rank i (inclusive): sum over ranks of max(ideal gain, 1)
    m = ctx.pos + 1
    C = m.astype(np.float64)
    for v, a, b in blocks:
        if v > 1:
            C += (v - 1.0) * np.clip(m - a[ctx.seg], 0, (b - a)[ctx.seg])
    S = ctx.segcumsum(g)
    with np.errstate(divide="ignore", invalid="ignore"):
        contrib = np.where(g != 0, g / np.log2(2.0 + C - S), 0.0)
    sum_ideal = np.zeros(ctx.T)
    for v, a, b in blocks:
        sum_ideal += v * (b - a)
    return safe_div(ctx.segsum(contrib), sum_ideal)


def _ndcg_cut(ctx, p):
    gains = GainTable(ctx, ())
    gd = np.where(ctx.rel > 0, ctx.rel, 0).astype(np.float64) * rank_discounts(ctx)
    return [safe_div(ctx.sum_before(gd, k), gains.ideal_dcg(k)) for k in p]


def _map_cut(ctx, p):
    rp = _rel_prec_sum(ctx)
    return [safe_div(ctx.sum_before(rp, k), ctx.R) for k in p]


def _relative_p(ctx, p):
    return [safe_div(ctx.count_before(ctx.isrel, k), np.minimum(k, ctx.R)) for k in p]


def _success(ctx, p):
    return [(ctx.count_before(ctx.isrel, k) > 0).astype(np.float64) for k in p]


def _set_p(ctx, p):
    return safe_div(ctx.num_rel_ret, ctx.nret)


def _set_relative_p(ctx, p):
    return safe_div(ctx.num_rel_ret, np.minimum(ctx.nret, ctx.R))


def _set_recall(ctx, p):
    return safe_div(ctx.num_rel_ret, ctx.R)


def _set_map(ctx, p):
    nrr = ctx.num_rel_ret.astype(np.float64)
    return safe_div(nrr * nrr, ctx.nret.astype(np.float64) * ctx.R)


def _set_f(ctx, p):
    x = p[0] if p else 1.0
    P = safe_div(ctx.num_rel_ret, ctx.nret)
    R = safe_div(ctx.num_rel_ret, ctx.R)
    v = safe_div((x + 1.0) * P * R, x * P + R)
    return np.where((ctx.nret > 0) & (ctx.R > 0), v, 0.0)


def _num_nonrel_judged_ret(ctx, p):
    judged = ctx.segcount(ctx.rel >= 0)
    return (judged - ctx.num_rel_ret).astype(np.float64)


def _rbp(ctx, p):
    prob = 0.9
    for name, val in p or ():
        if name.strip() == "p":
            prob = float(val)
    gains = GainTable(ctx, p)
    G = ctx.rel_levels.shape[1]
    # per-topic gain list: levels 0..highest level present in the topic + params
    has = ctx.rel_levels > 0
    top_level = np.where(has.any(axis=1), G - 1 - np.argmax(has[:, ::-1], axis=1), -1)
    lg = gains.level_gain
    run_max = np.maximum.accumulate(lg)
    run_min = np.minimum.accumulate(lg)
    mx = np.where(top_level >= 0, run_max[np.maximum(top_level, 0)], -np.inf)
    mn = np.where(top_level >= 0, run_min[np.maximum(top_level, 0)], np.inf)
    for val in gains.map.values():
        mx = np.maximum(mx, val)
        mn = np.minimum(mn, val)
    # trec_eval starts min/max from uninitialised variables (0 in practice)
    mx = np.maximum(mx, 0.0)
    mn = np.minimum(mn, 0.0)
    g = gains.of(ctx.rel)
    known = ctx.rel >= 0
    for lev in gains.map:
        known |= ctx.rel == lev
    norm = (mn < 0) | (mx > 1)
    mns, mxs = mn[ctx.seg], mx[ctx.seg]
    with np.errstate(divide="ignore", invalid="ignore"):
        gn = np.where(norm[ctx.seg] & known, (g - mns) / (mxs - mns), g)
    w = np.power(prob, ctx.pos.astype(np.float64))
    return (1.0 - prob) * ctx.segsum(np.where(gn != 0, gn * w, 0.0))


_DENSE_LIMIT = 50_000_000   # topics x deepest ranking for trec_eval's rank-by-rank walks


def _rbp_resid(ctx, p):
    """m_rbp_resid.c: walking the ranking, cur_p = p^i by repeated
    multiplication, each unjudged document adds cur_p to a running sum, and
    the value is p^num_ret + (1 - p) * sum (0 when every document is judged).
    The same products and additions in the same order give the same doubles;
    for very large inputs a closed form (equal to within rounding) is used."""
    prob = 0.9
    for name, val in p or ():
        if name.strip() == "p":
            prob = float(val)
    judged = ctx.rel >= 0
    unj = ctx.nret - ctx.segcount(judged)
    depth = int(ctx.nret.max()) if ctx.T else 0
    if ctx.T * depth <= _DENSE_LIMIT:
        powers = np.cumprod(np.concatenate(([1.0], np.full(depth, prob))))   # cur_p before each rank
        is_judged = np.zeros((ctx.T, depth + 1), dtype=bool)
        is_judged[ctx.seg[judged], ctx.pos[judged]] = True
        total = np.zeros(ctx.T)
        for i in range(depth):
            add = (ctx.nret > i) & ~is_judged[:, i]
            total = np.where(add, total + powers[i], total)
        v = powers[ctx.nret] + (1 - prob) * total
    else:
        w = np.power(prob, ctx.pos.astype(np.float64))
        n = ctx.nret.astype(np.float64)
        all_w = (1.0 - np.power(prob, n)) / (1.0 - prob)   # sum of p^i, i < num_ret
        v = np.power(prob, n) + (1 - prob) * (all_w - ctx.segsum(np.where(judged, w, 0.0)))
    return np.where(unj > 0, v, 0.0)


def _unj(ctx, p):
    judged = ctx.rel >= 0
    return [(np.minimum(k, ctx.nret) - ctx.count_before(judged, k)) / k for k in p]


def _yaap(ctx, p):
    s = ctx.segsum(_rel_prec_sum(ctx))
    return np.log((1.0 + s) / (1.0 + ctx.R - s))


# ---- irlab measures beyond trec_eval ----------------------------------------------

def _ideal_ctx_arrays(ctx):
    """(seg, pos, grade, start, count) of the ideal rankings: positive grades, desc."""
    def f():
        seg, grade = ctx.ideal_grades
        counts = np.bincount(seg, minlength=ctx.T)[: ctx.T]
        start = np.concatenate(([0], np.cumsum(counts)[:-1]))
        pos = np.arange(len(seg)) - start[seg]
        return seg, pos, grade.astype(np.float64), start, counts
    return ctx.cached("ideal_arrays", f)


def _cum_within(seg, start, x):
    c = np.cumsum(x)
    if len(c) == 0:
        return c
    before = np.zeros(len(start))
    nz = start > 0
    before[nz] = c[start[nz] - 1]
    return c - before[seg]


def _sum_before(seg, pos, x, k, T):
    return np.bincount(seg, weights=np.where(pos < k, x, 0.0), minlength=T)[:T]


def _err_terms(seg, grade, gmax):
    """Per-document ERR terms Pr_i/(i+1) * prod_{j<i}(1 - Pr_j), over the given
    (sorted) docs; unlisted docs have Pr = 0 and change nothing."""
    gm = gmax[seg]
    with np.errstate(over="ignore", invalid="ignore"):
        pr = np.where(gm > 0, (np.exp2(np.clip(grade, 0, None)) - 1.0) / np.exp2(np.maximum(gm, 0)), 0.0)
    return np.clip(pr, 0.0, 1.0 - 1e-16)


def err_sums(seg, pos, grade, gmax, start, ks, T):
    pr = _err_terms(seg, grade, gmax)
    lg = np.log1p(-pr)
    before = _cum_within(seg, start, lg) - lg
    term = pr / (pos + 1.0) * np.exp(before)
    return [_sum_before(seg, pos, term, k, T) for k in ks]


def _err_cut(ctx, p):
    grade = np.where(ctx.rel > 0, ctx.rel, 0).astype(np.float64)
    return err_sums(ctx.seg, ctx.pos, grade, ctx.maxgrade.astype(np.float64), ctx.start, p, ctx.T)


def _nerr_cut(ctx, p):
    vals = _err_cut(ctx, p)
    iseg, ipos, igrade, istart, _ = _ideal_ctx_arrays(ctx)
    ideal = err_sums(iseg, ipos, igrade, ctx.maxgrade.astype(np.float64), istart, p, ctx.T)
    return [safe_div(v, i) for v, i in zip(vals, ideal)]


def _ndcg_exp_cut(ctx, p):
    gd = np.where(ctx.rel > 0, np.exp2(np.clip(ctx.rel, 0, 60).astype(np.float64)) - 1.0, 0.0) * rank_discounts(ctx)
    iseg, ipos, igrade, _, _ = _ideal_ctx_arrays(ctx)
    igd = (np.exp2(np.clip(igrade, 0, 60)) - 1.0) / np.log2(ipos + 2.0)
    return [safe_div(ctx.sum_before(gd, k), _sum_before(iseg, ipos, igd, k, ctx.T)) for k in p]


# ---------------------------------------------------------------------------
# declarations, in trec_eval 10.0's order (te_trec_measures in measures.c)

_CUTS = (5, 10, 15, 20, 30, 100, 200, 500, 1000)
_RECALL_PTS = (0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0)

_DECLS = [
    Measure("runid", "Run id (from the run file)", _zeros, summary="runid", per_topic=False),
    Measure("num_q", "Number of topics evaluated", _zeros, summary="count", per_topic=False, integer=True),
    Measure("num_ret", "Number of documents retrieved", _num_ret, summary="sum", integer=True),
    Measure("num_rel", "Number of relevant documents (grade >= -l)", _num_rel, summary="sum", integer=True),
    Measure("num_rel_ret", "Number of relevant documents retrieved", _num_rel_ret, summary="sum", integer=True),
    Measure("map", "Mean average precision", _map),
    Measure("gm_map", "Geometric mean of average precision (1e-5 floor)", _map, summary="gm", per_topic=False),
    Measure("Rprec", "Precision after R documents (R = num_rel)", _rprec),
    Measure("bpref", "Binary preference (Buckley & Voorhees 2004)", _bpref),
    Measure("recip_rank", "Reciprocal rank of the first relevant document", _recip_rank),
    Measure("iprec_at_recall", "Interpolated precision at recall levels (level -> lround(x*R) docs)",
            _iprec_at_recall, "cut_float", _RECALL_PTS),
    Measure("P", "Precision at cutoffs", _precision_at, "cut_long", _CUTS),
    Measure("relstring", "Relevance values of the first N docs as a string (per topic only)",
            _relstring, "floats", (10.0,), summary="none"),
    Measure("recall", "Recall at cutoffs", _recall_at, "cut_long", _CUTS),
    Measure("infAP", "Inferred AP (Yilmaz & Aslam)", _infap),
    Measure("gm_bpref", "Geometric mean of bpref (1e-5 floor)", _bpref, summary="gm", per_topic=False),
    Measure("Rprec_mult", "Precision at multiples of R", _rprec_mult, "cut_float",
            (0.2, 0.4, 0.6, 0.8, 1.0, 1.2, 1.4, 1.6, 1.8, 2.0)),
    Measure("utility", "Set utility p1*relret + p2*nonrelret + p3*relnotret + p4*nonrelnotret",
            _utility, "floats", (1.0, -1.0, 0.0, 0.0)),
    Measure("11pt_avg", "Interpolated precision averaged over recall points", _11pt_avg, "floats", _RECALL_PTS),
    Measure("binG", "Binary G (experimental)", _bin_g),
    Measure("G", "Normalized gain G (experimental)", _g_measure, "pairs"),
    Measure("dcg", "Discounted cumulative gain", _dcg, "pairs"),
    Measure("ideal_dcg", "Ideal discounted cumulative gain", _ideal_dcg, "pairs"),
    Measure("ndcg", "Normalized DCG (gain = grade, or level=gain params)", _ndcg, "pairs"),
    Measure("ndcg_rel", "nDCG averaged over relevant documents (experimental)", _ndcg_rel, "pairs"),
    Measure("Rndcg", "nDCG averaged at R-level boundaries (experimental)", _rndcg, "pairs"),
    Measure("ndcg_cut", "nDCG at cutoffs (gain = grade)", _ndcg_cut, "cut_long", _CUTS),
    Measure("map_cut", "Average precision at cutoffs", _map_cut, "cut_long", _CUTS),
    Measure("relative_P", "Precision at cutoff relative to the best possible (min(k, R))",
            _relative_p, "cut_long", _CUTS),
    Measure("success", "1 if a relevant document is in the top k", _success, "cut_long", (1, 5, 10)),
    Measure("set_P", "Set precision num_rel_ret / num_ret", _set_p),
    Measure("set_relative_P", "num_rel_ret / min(num_ret, R)", _set_relative_p),
    Measure("set_recall", "Set recall num_rel_ret / R", _set_recall),
    Measure("set_map", "num_rel_ret^2 / (num_ret * R)", _set_map),
    Measure("set_F", "Set F measure (param: beta, default 1)", _set_f, "floats", (1.0,)),
    Measure("num_nonrel_judged_ret", "Number of judged non-relevant docs retrieved",
            _num_nonrel_judged_ret, summary="sum", integer=True),
    Measure("yaap", "Yet another AP (Robertson 2012)", _yaap),
    Measure("rbp", "Rank-biased precision (param p=0.9; gains normalised to [0,1])", _rbp, "pairs"),
    Measure("rbp_resid", "RBP residual from unjudged documents (param p=0.9)", _rbp_resid, "pairs"),
    Measure("unj", "Fraction of unjudged documents at cutoffs", _unj, "cut_long", (5, 10, 20)),
    # ---- irlab additions (not in trec_eval; computed only when named) ----
    Measure("err_cut", "ERR at cutoffs, Pr = (2^g-1)/2^gmax (gmax = max grade of the topic)",
            _err_cut, "cut_long", (5, 10, 20), trec_eval=False),
    Measure("nerr_cut", "ERR at cutoffs normalised by the ideal ranking's ERR",
            _nerr_cut, "cut_long", (5, 10, 20), trec_eval=False),
    Measure("ndcg_exp_cut", "nDCG at cutoffs with exponential gain 2^g-1", _ndcg_exp_cut,
            "cut_long", _CUTS, trec_eval=False),
]

MEASURES: dict[str, Measure] = {m.name: m for m in _DECLS}
TREC_ORDER = [m.name for m in _DECLS]

NICKNAMES = {
    "official": ["runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "map", "gm_map",
                 "Rprec", "bpref", "recip_rank", "iprec_at_recall", "P"],
    "all_trec": ["runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "map", "gm_map",
                 "Rprec", "bpref", "recip_rank", "iprec_at_recall", "P", "relstring",
                 "recall", "unj", "rbp", "rbp_resid", "infAP", "gm_bpref",
                 "utility", "11pt_avg", "ndcg", "relative_P", "Rprec_mult", "success",
                 "map_cut", "ndcg_cut", "ndcg_rel", "Rndcg", "binG", "G",
                 "set_P", "set_recall", "set_relative_P", "set_map", "set_F",
                 "num_nonrel_judged_ret"],
    "set": ["runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "utility", "set_P",
            "set_recall", "set_relative_P", "set_map", "set_F"],
}

#: trec_eval 10.0 measures irlab does not implement (they need other input
#: formats: preference qrels, or qrels_jg with several judgment groups).
UNSUPPORTED = frozenset({
    "prefs_num_prefs_poss", "prefs_num_prefs_ful", "prefs_num_prefs_ful_ret",
    "prefs_simp", "prefs_pair", "prefs_avgjg", "prefs_avgjg_Rnonrel",
    "prefs_simp_ret", "prefs_pair_ret", "prefs_avgjg_ret", "prefs_avgjg_Rnonrel_ret",
    "prefs_simp_imp", "prefs_pair_imp", "prefs_avgjg_imp",
    "map_avgjg", "P_avgjg", "Rprec_mult_avgjg",
})


# ---------------------------------------------------------------------------
# measure specification parsing


@dataclass
class RequestedMeasure:
    measure: Measure
    params: tuple
    printable: str | None          # params string as given (None: defaults)
    names: list                    # output names


@dataclass
class MeasurePlan:
    items: list = field(default_factory=list)

    @property
    def columns(self):
        return [n for it in self.items for n in it.names]


_ATOL = re.compile(r"\s*([+-]?[0-9]+)")
_ATOF = re.compile(r"\s*([+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?)")


def _c_number(name, part, pattern, convert, notes, what):
    """A parameter read as trec_eval reads it (atol / atof: the longest leading
    number, the rest ignored); a note says so when something was ignored, and a
    parameter with no leading number at all is refused (trec_eval would read 0)."""
    m = pattern.match(part) if part.isascii() else None
    if m is None:
        raise ParameterError(f"measure {name!r}: {what} {part!r} is not a number")
    value = convert(m.group(1))
    if m.end() != len(part.rstrip()) and notes is not None:
        notes.append(f"measure {name!r}: {what} {part!r} read as {m.group(1)}, as trec_eval reads it "
                     f"(C's {'atol' if convert is int else 'atof'} stops at the first character it cannot use)")
    return value


def _long_cutoffs(name, s, notes=None):
    vals = [_c_number(name, part, _ATOL, int, notes, "cutoff") for part in s.split(",")]
    vals.sort()
    if vals[0] <= 0:
        raise ParameterError(f"measure {name!r}: cutoffs must be positive")
    if len(set(vals)) != len(vals):
        raise ParameterError(f"measure {name!r}: duplicate cutoffs")
    if vals[-1] > 1 << 40:
        raise ParameterError(f"measure {name!r}: cutoff {vals[-1]} is larger than any ranking (limit 2^40)")
    return tuple(vals)


def _float_list(name, s, *, sort, notes=None, unit_interval=False):
    vals = []
    for part in s.split(","):
        v = _c_number(name, part, _ATOF, float, notes, "parameter")
        if not math.isfinite(v):
            raise ParameterError(f"measure {name!r}: parameter {part!r} is not a finite number")
        if unit_interval and not 0.0 <= v <= 1.0:
            raise ParameterError(f"measure {name!r}: recall level {part.strip()!r} is outside [0, 1]")
        vals.append(v)
    if sort:
        vals.sort()
        if len(set(vals)) != len(vals):
            raise ParameterError(f"measure {name!r}: duplicate cutoffs")
    return tuple(vals)


def _pairs(name, s):
    out = []
    for part in s.split(","):
        if part.count("=") != 1:
            raise ParameterError(f"measure {name!r}: malformed pair parameter {part!r} (want level=gain)")
        k, v = part.split("=")
        try:
            out.append((k, float(v)))
        except ValueError:
            raise ParameterError(f"measure {name!r}: gain {v!r} is not a number") from None
    return tuple(out)


_RECALL_LEVEL_MEASURES = ("iprec_at_recall", "11pt_avg")
_ALIASES = {"mrr": "recip_rank", "rr": "recip_rank", "ap": "map", "r-prec": "Rprec", "rprec": "Rprec",
            "ndcg@k": "ndcg_cut.K", "p@k": "P.K", "recall@k": "recall.K"}
_AT_K = re.compile(r"(?P<base>[A-Za-z_]+?)(?:@|_)(?P<k>[0-9]+)\Z")


def _suggestion(spec):
    """'; did you mean ...' for a name written the way papers and other tools write it."""
    m = _AT_K.match(spec)
    if m:
        base, k = m.group("base"), m.group("k")
        for cand in (base, f"{base}_cut", base.lower(), f"{base.lower()}_cut", base.upper()):
            if cand in MEASURES and MEASURES[cand].kind == "cut_long":
                return f"; did you mean {cand}.{k}?"
    alias = _ALIASES.get(spec.lower())
    if alias:
        return f"; did you mean {alias}?"
    close = difflib.get_close_matches(spec.partition(".")[0], list(MEASURES) + list(NICKNAMES), n=3, cutoff=0.6)
    return f"; did you mean {' or '.join(close)}?" if close else " (irlab eval -m all_trec lists every measure)"


def parse_measures(specs, *, notes=None) -> MeasurePlan:
    """Turn trec_eval ``-m`` specifications into an ordered plan.

    Parameters are read as trec_eval reads them (``P.1e2`` is P_1, as C's
    ``atol`` reads "1e2"); ``notes``, a list, receives a sentence for each
    parameter read that way.  Parameters given to a measure that takes none
    (``map.5``) and recall levels outside [0, 1] are refused."""
    marked = set()
    params = {}
    for spec in specs:
        spec = spec.strip()
        if not spec:
            raise ParameterError("empty measure name")
        name, dot, par = spec.partition(".")
        if dot and not par:
            raise ParameterError(f"improper measure {spec!r}: empty parameter list")
        if name in NICKNAMES:
            marked.update(NICKNAMES[name])
            continue
        if name not in MEASURES:
            if name in UNSUPPORTED:
                raise ParameterError(f"measure {name!r} is not supported by irlab (needs another qrels format)")
            raise ParameterError(f"unknown measure {name!r}{_suggestion(spec)}")
        if dot and MEASURES[name].kind == "none":
            raise ParameterError(f"measure {name!r} takes no parameters (got {spec!r}); use -m {name}")
        marked.add(name)
        if dot and name not in params:
            params[name] = par
    plan = MeasurePlan()
    for name in TREC_ORDER:
        if name not in marked:
            continue
        m = MEASURES[name]
        given = params.get(name)
        if m.kind == "none":
            p, names = (), [name]
        elif m.kind == "cut_long":
            p = _long_cutoffs(name, given, notes) if given else m.default
            names = [f"{name}_{k}" for k in p]
        elif m.kind == "cut_float":
            p = (_float_list(name, given, sort=True, notes=notes, unit_interval=name in _RECALL_LEVEL_MEASURES)
                 if given else m.default)
            names = [f"{name}_{x:3.2f}" for x in p]
        elif m.kind == "floats":
            p = (_float_list(name, given, sort=False, notes=notes, unit_interval=name in _RECALL_LEVEL_MEASURES)
                 if given else m.default)
            names = [f"{name}_{given}" if given else name]
        elif m.kind == "pairs":
            p = _pairs(name, given) if given else ()
            names = [f"{name}_{given}" if given else name]
        else:  # pragma: no cover
            raise AssertionError(m.kind)
        plan.items.append(RequestedMeasure(m, p, given, names))
    return plan


# ---------------------------------------------------------------------------
# computing a plan


def _sequential_sum(vals):
    """Sum in topic order, one addition at a time, in double (trec_eval's
    meas_acc.c); numpy's sum adds pairwise and can differ in the last bit."""
    vals = np.asarray(vals, dtype=np.float64)
    return float(np.cumsum(vals)[-1]) if len(vals) else 0.0


def _summary(kind, vals, T):
    if kind == "mean":
        return _sequential_sum(vals) / T if T else 0.0
    if kind == "sum":
        return _sequential_sum(vals)
    if kind == "gm":
        logs = np.log(np.maximum(vals, MIN_GEO_MEAN))
        return float(np.exp(_sequential_sum(logs) / T)) if T else 0.0
    raise AssertionError(kind)


def _cleared_for_stand_in(col):
    """Values trec_eval -c resets after evaluating a missing topic on its
    stand-in ranking (trec_eval.c compares the printed names: ``utility_1,...``
    or ``relstring_5`` with parameters keep the stand-in's value)."""
    return col in ("num_ret", "utility", "relstring", "rbp_resid") or col.startswith("unj")


def _topic_values(arr, integer):
    """A measure's per-topic values as Python numbers (what the per-topic dicts hold)."""
    values = arr.tolist()
    return [int(round(v)) for v in values] if integer else values


def compute_all(ctx: EvalContext, plan: MeasurePlan) -> EvalResult:
    columns = {}   # per-topic column -> its values in ctx.names' order; the dicts below list them in this order
    summary = {}
    integer_cols = set()
    topic_cols = []
    for item in plan.items:
        m = item.measure
        if m.summary == "runid":
            summary["runid"] = ctx.runid
            continue
        if m.summary == "count":
            summary["num_q"] = ctx.T
            integer_cols.add("num_q")
            continue
        vals = m.fn(ctx, item.params)
        if m.name == "relstring":
            col = item.names[0]
            columns[col] = ["" if missing and _cleared_for_stand_in(col) else vals[t]
                            for t, missing in enumerate(ctx.missing.tolist())]
            topic_cols.append(col)
            continue
        arrays = vals if isinstance(vals, list) else [vals]
        for col, arr in zip(item.names, arrays):
            arr = np.asarray(arr, dtype=np.float64)
            if ctx.missing.any() and _cleared_for_stand_in(col):
                arr = np.where(ctx.missing, 0.0, arr)
            if m.integer:
                integer_cols.add(col)
            if m.per_topic:
                topic_cols.append(col)
                columns[col] = _topic_values(arr, m.integer)
            s = _summary(m.summary, arr, ctx.T)
            if col == "num_rel" and ctx.complete:
                # m_num_rel.c: under -c the summary counts the qrels lines with a
                # grade > 0 in every topic, whatever -l says
                s = float(ctx.qrels_positive_lines)
            summary[col] = int(round(s)) if m.integer else s
    per_topic = TopicRows(ctx.names, columns)   # made into dicts when first read
    return EvalResult(per_topic=per_topic, summary=summary, columns=plan.columns,
                      runid=ctx.runid, integer_columns=frozenset(integer_cols),
                      topic_columns=tuple(topic_cols))
