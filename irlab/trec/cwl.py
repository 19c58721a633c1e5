"""C/W/L user models over a whole run: ir_measures' ``INST``, ``INSQ`` and ``SDCG@k`` (cwl-eval 1.0.12's
INSTCWLMetric, INSQCWLMetric and NDCGCWLMetric), in floats, topic by topic as cwl-eval computes them.

The exact, step-by-step computation of one topic is :mod:`irlab.metrics.cwl` (``irlab explain inst``); this is
the same model in numpy for ``irlab eval -m 'INST(T=3)'``: the gains r_i in [0, 1] of ranks 1..n (n = 1000,
cwl-eval's max_n, the ranks beyond the list and the unjudged documents 0), the continuation C(i), the reach
P(i) = Π_{j<i} C(j), the weights W(i) = P(i) / Σ_{k<=n} P(k) and the value Σ_i W(i) r_i.

Gains, as ir_measures hands them to cwl-eval: a grade g (negative ones as 0) clipped to [min_rel, max_rel] and
scaled, r = (g - min_rel) / (max_rel - min_rel). Without ``max_rel`` (ir_measures requires it), the top grade of
the topic's qrels, as ``irlab explain inst`` takes it.
"""

from __future__ import annotations

import numpy as np

from irlab.trec.context import safe_div

__all__ = ["CWL_DEPTH", "cwl_gains", "insq", "inst", "sdcg"]

CWL_DEPTH = 1000   # cwl-eval's max_n (--max_depth): every C/W/L measure reads ranks 1..1000
_TOPICS_AT_ONCE = 2048   # INST's (topics x 1000) matrices are built this many topics at a time (16 MB each)


def cwl_gains(ctx, min_rel, max_rel):
    """r in [0, 1] of each judged retrieved document of ``ctx`` (ir_measures' scaling, see the module)."""
    grade = np.maximum(ctx.rel, 0).astype(np.float64)
    if max_rel is None:
        top = np.maximum(ctx.maxgrade, 0).astype(np.float64)[ctx.seg]
    else:
        top = np.full(ctx.N, float(max_rel))
    low = float(min_rel)
    return safe_div(np.clip(grade, low, np.maximum(top, low)) - low, top - low)


def _weights(continuation):
    """W(1..n) of a C(1..n) vector (cwl-eval's CWLMetric.w_vector)."""
    reach = np.concatenate(([1.0], np.cumprod(continuation[:-1])))
    return reach / reach.sum()


def insq(ctx, p):
    """INSQ: C(i) = ((i + 2T - 1) / (i + 2T))², the same at every rank of every topic."""
    target, min_rel, max_rel = p
    i = np.arange(1, CWL_DEPTH + 1, dtype=np.float64)
    weight = _weights(((i + 2 * target - 1) / (i + 2 * target)) ** 2)
    shown = ctx.pos < CWL_DEPTH
    return ctx.segsum(np.where(shown, cwl_gains(ctx, min_rel, max_rel) * weight[np.minimum(ctx.pos, CWL_DEPTH - 1)], 0))


def sdcg(ctx, p):
    """SDCG@k: C(i) = log2(i+1) / log2(i+2) below k, 0 at k, so W(i) = (1/log2(i+1)) / Σ_{j<=k} 1/log2(j+1)."""
    k, min_rel, max_rel = p
    k = min(k, CWL_DEPTH)
    dcg = ctx.sum_before(cwl_gains(ctx, min_rel, max_rel) / np.log2(ctx.pos + 2.0), k)
    return dcg / ctx.disc_prefix(k)[k]


def inst(ctx, p):
    """INST: C(i) = ((i + T + T_i - 1) / (i + T + T_i))² with T_i = T - Σ_{j<=i} r_j; C depends on the gains, so
    each topic's n ranks are walked (as rows of a matrix, a block of topics at a time)."""
    target, min_rel, max_rel = p
    gains = cwl_gains(ctx, min_rel, max_rel)
    shown = ctx.pos < CWL_DEPTH
    seg, pos, gains = ctx.seg[shown], ctx.pos[shown], gains[shown]
    i = np.arange(1, CWL_DEPTH + 1, dtype=np.float64)
    out = np.zeros(ctx.T)
    for first in range(0, ctx.T, _TOPICS_AT_ONCE):
        last = min(first + _TOPICS_AT_ONCE, ctx.T)
        rows = (seg >= first) & (seg < last)
        matrix = np.zeros((last - first, CWL_DEPTH))
        matrix[seg[rows] - first, pos[rows]] = gains[rows]
        wanted = target - np.cumsum(matrix, axis=1)
        continuation = ((i + target + wanted - 1) / (i + target + wanted)) ** 2
        reach = np.ones_like(matrix)
        np.cumprod(continuation[:, :-1], axis=1, out=reach[:, 1:])
        out[first:last] = (reach * matrix).sum(axis=1) / reach.sum(axis=1)
    return out
