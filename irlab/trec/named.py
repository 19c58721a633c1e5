"""ir_measures names in the batch evaluator: each name becomes a trec_eval measure (or one of irlab's) evaluated at
the name's own relevance level, and its column keeps the name as written (``nDCG@10``, ``AP(rel=2)``).

What each name computes, and where irlab's convention differs from the tool ir_measures runs for it:

* pytrec_eval's measures (AP, P, R, RR, Rprec, Bpref, infAP, nDCG, NumRel, NumRet, SetP/R/F/AP, IPrec, Success)
  are trec_eval's: ``AP(rel=2)`` is ``map`` at ``-l 2``, ``nDCG@10`` is ``ndcg_cut.10``, ``IPrec@0.5`` is
  ``iprec_at_recall_0.50`` -- as trec_eval 10.0 computes it (pytrec_eval holds trec_eval 9, whose recall levels
  round differently: :data:`irlab.conventions.INTERPOLATION`, trec-eval-9).
* ``ERR@k`` and ``nDCG(dcg='exp-log2')@k`` are gdeval's (ir_measures runs gdeval.pl): Pr = (2^g - 1) / 2^4, gain
  2^g - 1; gdeval refuses grades above 4 and topic ids that are not numbers, irlab takes any id and widens ERR's
  scale to the top grade of the qrels when it is above 4.
* ``Judged@k`` is the share of the top min(k, retrieved) documents in the qrels, ``RR@k`` MS MARCO's reciprocal
  rank within the top k, ``RBP(rel=r)`` cwl-eval's binary RBP; ``RBP(p=x)`` without rel is trec_eval's graded
  ``rbp.p=x`` (ir_measures has no tool for it).
* ``INST``, ``INSQ`` and ``SDCG@k`` are cwl-eval's user models (:mod:`irlab.trec.cwl`), the grades scaled by
  ``min_rel``/``max_rel`` as ir_measures scales them, or without ``max_rel`` (which ir_measures requires) by the
  topic's top grade as ``irlab explain inst`` does; cwl-eval's BPM and NERR are not computed.
* The diversity names (``alpha_nDCG@20``, ``ERR_IA@20``, ``NRBP``, ...) are ndeval's, read from diversity qrels
  (topic subtopic docno judgment) by :mod:`irlab.trec.diversity_names`, and not mixed with other names in a call.
* Ties are ordered as trec_eval orders them (score descending, docno descending) for every measure; ir_measures'
  Judged, MS MARCO and pyndeval paths order ties by docno ascending and cwl-eval keeps the run's order, which
  changes a value only where a tie group straddles the cut-off (or, for the user models, holds other gains).
"""

from __future__ import annotations

import numpy as np

from irlab.errors import ParameterError
from irlab.limits import MAX_CWL_TARGET
from irlab.measure_names import MeasureName, is_measure_name, parse, suggestion
from irlab.trec import cwl
from irlab.trec.context import EvalResult, safe_div
from irlab.trec.diversity_names import NDEVAL_NAMES, check_diversity_names, evaluate_diversity_names, is_diversity
from irlab.trec.evaluate import evaluate_trec_eval_names, prepare, read_inputs
from irlab.trec.measures import (MEASURES, NICKNAMES, UNSUPPORTED, GainTable, Measure, MeasurePlan, RequestedMeasure,
                                 compute_all, err_sums, parse_measures, rank_discounts)

__all__ = ["split_specs", "batch_plan", "evaluate_named", "evaluate_specs", "DIVERSITY_FAMILIES"]

_WHOLE = 1 << 40   # a cut-off below every ranking: the whole ranking
GDEVAL_MAX_GRADE = 4   # gdeval.pl's $MAX_JUDGMENT: ERR's Pr(g) = (2^g - 1) / 2^4

DIVERSITY_FAMILIES = NDEVAL_NAMES   # ir_measures' diversity measures and ndeval's names for them
_CWL = ("INST", "INSQ", "SDCG", "BPM", "NERR8", "NERR9", "NERR10", "NERR11")


def split_specs(specs):
    """(trec_eval specifications, ir_measures names) of ``-m`` values: a spec whose name (before its '.') is a
    trec_eval measure or nickname stays trec_eval's, exactly as before (P, Rprec, infAP are both tools' names and
    mean the same); one that reads as an ir_measures name is parsed as such; anything else stays with trec_eval's
    parser, whose error names the nearest names of both tools."""
    trec, named = [], []
    for spec in specs:
        text = spec.strip() if isinstance(spec, str) else spec
        head = text.partition(".")[0] if isinstance(text, str) else None
        if head in MEASURES or head in NICKNAMES or head in UNSUPPORTED:
            trec.append(spec)
            continue
        if isinstance(text, str) and is_measure_name(text):
            named.append(parse(text))
            continue
        try:
            parse_measures([spec])
        except ParameterError as exc:
            hint = suggestion(text, explain=False) if isinstance(text, str) else ""
            if str(exc).startswith("unknown measure") and hint.startswith("; did you mean"):
                raise ParameterError(f"{exc} Or, as ir_measures names it: {hint[len('; did you mean '):]}") from None
            raise
        trec.append(spec)
    return trec, named


def evaluate(qrels, run, measures=None, *, relevance_level: int = 1, depth: int | None = None, complete: bool = False,
             judged_only: bool = False, num_docs_in_coll: int = 0) -> EvalResult:
    """Evaluate ``run`` against ``qrels`` like trec_eval 10.0.

    ``qrels``/``run``: paths (plain or gzip) or already-read :class:`~irlab.trec.readers.Qrels`/
    :class:`~irlab.trec.readers.Run`. ``measures``: trec_eval measure specifications (``"map"``, ``"P.5,10"``,
    ``"ndcg_cut.10"``, ``"official"``, ``"all_trec"``, ...) or ir_measures names (``"nDCG@10"``, ``"AP(rel=2)"``),
    each of these a column named as written; default ``official``. ``relevance_level`` is trec_eval's ``-l``,
    ``depth`` its ``-M``, ``complete`` its ``-c``, ``judged_only`` its ``-J`` and ``num_docs_in_coll`` its ``-N``.
    """
    if isinstance(measures, str):
        measures = [measures]
    options = dict(relevance_level=relevance_level, depth=depth, complete=complete, judged_only=judged_only,
                   num_docs_in_coll=num_docs_in_coll)
    if split_specs(measures or ["official"])[1]:
        return evaluate_specs(qrels, run, measures, **options)
    return evaluate_trec_eval_names(qrels, run, measures, **options)


def evaluate_specs(qrels, run, specs, *, relevance_level=1, depth=None, complete=False, judged_only=False,
                   num_docs_in_coll=0, joined=None, notes=None) -> EvalResult:
    """trec_eval specifications and ir_measures names evaluated together: the trec_eval ones at
    ``relevance_level`` in trec_eval's order, then each ir_measures name at its own level (``rel=``, else
    ``relevance_level``), as a column named as written. ``qrels``/``run`` as :func:`irlab.trec.evaluate.prepare`
    takes them (``joined``: what read_inputs returned for them)."""
    trec, named = split_specs(specs)
    diverse = [name for name in named if is_diversity(name)]
    if diverse:   # read from diversity qrels, by irlab's ndeval
        check_diversity_names(diverse, trec + [name.text for name in named if not is_diversity(name)])
        if judged_only or num_docs_in_coll:
            raise ParameterError(f"{diverse[0].text} is a diversity measure (ndeval's): -J and -N have no meaning "
                                 "for it")
        return evaluate_diversity_names(diverse, qrels, run, relevance_level=relevance_level, depth=depth,
                                        complete=complete, notes=notes)
    plan = parse_measures(trec, notes=notes) if trec else None
    if named:
        batch_plan(named, relevance_level)   # a name irlab does not compute is refused before any file is read
    if joined is None:
        qrels, run, joined = read_inputs(qrels, run)
    contexts = {}

    def context(level, only):
        key = (level, bool(only or judged_only))
        if key not in contexts:
            contexts[key] = prepare(qrels, run, relevance_level=level, depth=depth, complete=complete,
                                    judged_only=key[1], num_docs_in_coll=num_docs_in_coll, joined=joined)
        return contexts[key]

    result = compute_all(context(relevance_level, judged_only), plan) if plan else None
    return evaluate_named(named, context, relevance_level, result) if named else result


# ---- measures beyond trec_eval's that ir_measures names -------------------------------------------------------

def _rr_cut(ctx, p):
    """MS MARCO's RR@k: 1 / rank of the first relevant document within the top k, else 0."""
    (k,) = p
    out = np.zeros(ctx.T)
    idx = np.flatnonzero(ctx.isrel & (ctx.pos < k))
    if len(idx):
        segs, first = np.unique(ctx.seg[idx], return_index=True)
        out[segs] = 1.0 / (ctx.pos[idx[first]] + 1.0)
    return out


def _judged(ctx, p):
    """Judged@k: documents of the qrels (any grade) among the top min(k, retrieved), over min(k, retrieved)."""
    (k,) = p
    shown = np.minimum(k, ctx.nret)
    return safe_div(ctx.count_before(np.ones(ctx.N, dtype=bool), k), shown)


def _err_gdeval(ctx, p):
    """gdeval's ERR@k: Pr(g) = (2^g - 1) / 2^4 (grades above 4 widen the scale to the qrels' top grade)."""
    (k,) = p
    grade = np.where(ctx.rel > 0, ctx.rel, 0).astype(np.float64)
    top = max(GDEVAL_MAX_GRADE, int(ctx.maxgrade.max()) if ctx.T else 0)
    return err_sums(ctx.seg, ctx.pos, grade, np.full(ctx.T, float(top)), ctx.start, (k,), ctx.T)[0]


def _rbp_binary(ctx, p):
    """cwl-eval's RBP on binary gains: (1 - p) Σ_{relevant i <= k} p^(i-1)."""
    prob, k = p
    w = np.power(prob, ctx.pos.astype(np.float64))
    return (1.0 - prob) * ctx.segsum(np.where(ctx.isrel & (ctx.pos < k), w, 0.0))


def _ndcg_gains_cut(ctx, p):
    """nDCG@k with a gain per grade (ir_measures' gains={grade: gain}, trec_eval's ndcg.grade=gain at a cut-off)."""

    pairs, k = p
    gains = GainTable(ctx, pairs)
    return safe_div(ctx.sum_before(gains.of(ctx.rel) * rank_discounts(ctx), k), gains.ideal_dcg(k))


def _num_q(ctx, p):
    return np.ones(ctx.T)


def _own(name, fn, summary="mean", integer=False):
    return Measure(name, "ir_measures name", fn, summary=summary, integer=integer, trec_eval=False)


_RR_CUT = _own("RR@k", _rr_cut)
_JUDGED = _own("Judged", _judged)
_ERR = _own("ERR", _err_gdeval)
_RBP = _own("RBP", _rbp_binary)
_NDCG_GAINS = _own("nDCG(gains)", _ndcg_gains_cut)
_NUM_Q = _own("NumQ", _num_q, summary="sum", integer=True)
_CWL_MEASURES = {"INST": _own("INST", cwl.inst), "INSQ": _own("INSQ", cwl.insq), "SDCG": _own("SDCG", cwl.sdcg)}


def _cwl_params(name):
    """(T or k, min_rel, max_rel) of a C/W/L name; max_rel None: the topic's top grade (irlab explain's g_max)."""
    low, high = name.param("min_rel"), name.param("max_rel")
    if low < 0 or (high is not None and high <= low):
        raise ParameterError(f"measure {name.text!r}: the grades scale to gains in [0, 1] as (g - min_rel) / "
                             f"(max_rel - min_rel), so 0 <= min_rel < max_rel (got min_rel={low}, max_rel={high})")
    if name.measure == "SDCG":
        return name.param("cutoff"), low, high
    target = name.param("T")
    if not 0 < target <= MAX_CWL_TARGET:
        raise ParameterError(f"measure {name.text!r}: the target T is the gain the user wants, a number above 0 and "
                             f"at most {MAX_CWL_TARGET:.0e} (limits.MAX_CWL_TARGET), got {target}")
    return target, low, high


# ---- a name -> (measure, parameters, relevance level, judged only) --------------------------------------------

def _gain_pairs(name):
    gains = name.param("gains")
    for grade, gain in gains.items():
        if isinstance(grade, bool) or not isinstance(grade, int) or isinstance(gain, bool) \
                or not isinstance(gain, (int, float)):
            raise ParameterError(f"measure {name.text!r}: gains maps whole grades to numbers, e.g. {{0: 0, 1: 1, 2: 3}}")
    return tuple((str(g), float(v)) for g, v in sorted(gains.items()))


def batch_item(name: MeasureName, level: int):
    """(trec Measure, its parameters, relevance level, judged_only) computing ``name``; a ParameterError naming
    why for a name the batch evaluator does not compute."""
    m = name.measure
    rel = name.param("rel") if name.has("rel") else level
    judged_only = bool(name.param("judged_only", False))
    k = name.param("cutoff", None)
    if m == "AP":
        return (MEASURES["map_cut"], (k,)) if k else (MEASURES["map"], ()), rel, judged_only
    if m in ("P", "R", "Success"):
        return (MEASURES[{"P": "P", "R": "recall", "Success": "success"}[m]], (k,)), rel, judged_only
    if m == "RR":
        return ((_RR_CUT, (k,)) if k else (MEASURES["recip_rank"], ())), rel, judged_only
    if m in ("Rprec", "Bpref", "infAP", "SetR", "SetAP", "NumRel"):
        trec = {"Rprec": "Rprec", "Bpref": "bpref", "infAP": "infAP", "SetR": "set_recall", "SetAP": "set_map",
                "NumRel": "num_rel"}[m]
        return (MEASURES[trec], ()), rel, judged_only
    if m == "SetP":
        return (MEASURES["set_relative_P" if name.param("relative") else "set_P"], ()), rel, judged_only
    if m == "SetF":
        return (MEASURES["set_F"], (name.param("beta"),)), rel, judged_only
    if m == "IPrec":
        return (MEASURES["iprec_at_recall"], (name.param("recall"),)), rel, judged_only
    if m == "NumRet":
        return (MEASURES["num_ret" if name.param("rel") is None else "num_rel_ret"], ()), rel, False
    if m == "NumQ":
        return (_NUM_Q, ()), level, False
    if m == "Judged":
        return (_JUDGED, (k or _WHOLE,)), level, False
    if m == "ERR":
        return (_ERR, (k or _WHOLE,)), level, False
    if m == "nDCG":
        if name.param("dcg") == "exp-log2":
            if name.param("gains") is not None:
                raise ParameterError(f"measure {name.text!r}: gains and dcg='exp-log2' together are no measure of "
                                     "ir_measures' tools (gdeval takes no gains)")
            return (MEASURES["ndcg_exp_cut"], (k or _WHOLE,)), level, judged_only
        if name.param("gains") is not None:
            pairs = _gain_pairs(name)
            return ((_NDCG_GAINS, (pairs, k)) if k else (MEASURES["ndcg"], pairs)), level, judged_only
        return ((MEASURES["ndcg_cut"], (k,)) if k else (MEASURES["ndcg"], ())), level, judged_only
    if m == "RBP":
        p = name.param("p")
        if not 0 <= p < 1:
            raise ParameterError(f"measure {name.text!r}: RBP's persistence p must be in [0, 1), got {p}")
        if name.param("rel") is not None:
            return (_RBP, (p, k or _WHOLE)), rel, False
        if k:
            raise ParameterError(f"measure {name.text!r}: a cut-off on graded RBP is no tool's measure; give rel "
                                 f"(binary gains, as cwl-eval): RBP(p={p!r},rel=1)@{k}")
        return (MEASURES["rbp"], (("p", float(p)),)), level, False
    if m in DIVERSITY_FAMILIES:
        raise ParameterError(f"{name.text} is a diversity measure: it is computed on its own, from diversity qrels "
                             "(topic subtopic docno judgment)")
    if m in _CWL_MEASURES:
        return (_CWL_MEASURES[m], _cwl_params(name)), level, False
    if m in _CWL:
        raise ParameterError(f"irlab does not compute {name.text}: of cwl-eval's user models it computes INST, INSQ "
                             "and SDCG@k (and P@k, RR, AP, RBP as trec_eval's)")
    raise ParameterError(f"irlab does not compute {name.text} ({m}: it needs other input than a run and its qrels)")


def batch_plan(names, level):
    """{(relevance level, judged_only): [(name, trec Measure, parameters)]} for the names."""
    groups = {}
    for name in names:
        (measure, params), rel, judged_only = batch_item(name, level)
        groups.setdefault((rel, judged_only), []).append((name, measure, params))
    return groups


def evaluate_named(names, context, level, result=None):
    """The names evaluated on ``context(level, judged_only)`` (an EvalContext for each level the names need), as
    columns named as written, appended to ``result`` (an EvalResult of trec_eval measures, or None)."""
    per_topic = {t: dict(v) for t, v in result.per_topic.items()} if result else None
    summary = dict(result.summary) if result else {}
    columns = list(result.columns) if result else []
    integer = set(result.integer_columns) if result else set()
    topic_cols = list(result.topic_columns) if result else []
    runid = result.runid if result else None
    values = {}
    for (rel, judged_only), items in batch_plan(names, level).items():
        ctx = context(rel, judged_only)
        plan = MeasurePlan([RequestedMeasure(measure, params, None, [f"#{i}"]) for i, (_, measure, params) in enumerate(items)])
        got = compute_all(ctx, plan)
        runid = got.runid if runid is None else runid
        if per_topic is None:
            per_topic = {t: {} for t in got.per_topic}
        for i, (name, measure, _) in enumerate(items):
            column = f"#{i}"
            topic_values = {t: v[column] for t, v in got.per_topic.items()}
            total = got.summary[column]
            if measure.name == "num_ret" and ctx.missing.any():   # trec_eval -c: a missing topic retrieved nothing
                topic_values = {t: 0 if miss else v for (t, v), miss in zip(topic_values.items(), ctx.missing)}
                total = sum(topic_values.values())
            values[name.text] = (topic_values, total, measure.integer)
    for name in names:
        if name.text in columns:
            continue
        topic_values, total, is_integer = values[name.text]
        for t, v in topic_values.items():
            per_topic.setdefault(t, {})[name.text] = v
        summary[name.text] = total
        columns.append(name.text)
        topic_cols.append(name.text)
        if is_integer:
            integer.add(name.text)
    return EvalResult(per_topic=per_topic, summary=summary, columns=columns, runid=runid,
                      integer_columns=frozenset(integer), topic_columns=tuple(topic_cols))
