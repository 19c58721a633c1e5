"""irlab's own metrics as ir_measures measures, for ``pt.Experiment`` and ``ir_measures.calc_aggregate``.

``irlab.ir_measure("q-measure", beta=1)`` returns a measure of ir_measures' runtime provider (``ir_measures.define``,
the all-queries form of ``define_byquery``): PyTerrier names its column by it and averages it over the topics like
any other. Each topic is ranked as ``irlab explain --qrels --run --topic`` ranks it (score descending, ties by docno
descending, unless ``ties='tie-averaged'``), judged by the topic's qrels (R and the ideal ranking from every judged
document), and its exact value is passed on as a double.

>>> measure = ir_measure("q-measure", beta=1)
>>> str(measure)
'irlab.q-measure(beta=1)'

A topic the run answers but the qrels do not judge is left out (as ir_measures' own measures leave it out), which
``define_byquery`` cannot do -- it calls the function for every topic of the run; a qrels topic the run does not
answer counts 0, as ir_measures counts it (missing_topics=zero).
"""

from __future__ import annotations

from .errors import InputTypeError, ParameterError
from .frames import to_qrels, to_run
from .metrics import get_metric
from .metrics.diversity import IntentRanking
from .topic_ranking import topic_ranking

__all__ = ["ir_measure"]


def _name(metric, options) -> str:
    given = ",".join(f"{k}={v}" for k, v in options.items())
    return f"irlab.{metric}" + (f"({given})" if given else "")


def _ranking_values(metric, options, threshold, qrels_frame, run_frame):
    """(qid, value) for every topic of the run that the qrels judge."""

    qrels, run = to_qrels(qrels_frame), to_run(run_frame)
    judged = {t.decode("utf-8", "surrogateescape") for t in qrels.topics.tolist()}
    with_scores = options.get("ties") not in (None, "docno-descending")
    for topic in (t.decode("utf-8", "surrogateescape") for t in run.topics.tolist()):
        if topic not in judged:
            continue
        ranking, _ = topic_ranking(qrels, run, topic, threshold=threshold, with_scores=with_scores)
        yield topic, float(metric.compute(ranking, **options))


def _intent_values(metric, options, threshold, qrels_frame, run_frame):
    """(qid, value) for the diversity metrics: qrels with an ``iteration`` column naming the subtopic."""

    if "iteration" not in list(qrels_frame.columns):
        raise InputTypeError(f"{metric.name} needs diversity qrels: an iteration column naming each judgment's subtopic")
    judgments = {}
    for topic, subtopic, docno, grade in zip(*(qrels_frame[c].tolist()
                                               for c in ("query_id", "iteration", "doc_id", "relevance"))):
        judgments.setdefault(str(topic), {}).setdefault(str(docno), {})[str(subtopic)] = int(grade)
    run = to_run(run_frame)
    import numpy as np

    for index, name in enumerate(run.topics.tolist()):
        topic = name.decode("utf-8", "surrogateescape")
        if topic not in judgments:
            continue
        rows = np.flatnonzero(run.topic_idx == index)
        order = sorted(rows, key=lambda i: run.docno[i], reverse=True)            # docno descending, then
        order = sorted(order, key=lambda i: -run.score[i])                        # score descending (stable)
        docnos = [run.docno[i].decode("utf-8", "surrogateescape") for i in order]
        ranking = IntentRanking.from_qrels(docnos, judgments[topic], relevance_level=threshold)
        yield topic, float(metric.compute(ranking, **options))


def ir_measure(metric: str, *, name: str | None = None, threshold: int = 1, **options):
    """irlab's ``metric`` (a name of ``irlab metrics``: q-measure, ap, ndcg, alpha-ndcg, err-ia, rbp …) with its
    ``options`` (k=10, beta=1, ties='tie-averaged', gain='linear' …) as an ir_measures measure; ``threshold``:
    the lowest relevant grade; ``name``: the measure's (and PyTerrier's column's) name."""
    try:
        import ir_measures  # deferred: ir_measures is PyTerrier's evaluator, not irlab's dependency
    except ImportError:  # pragma: no cover - depends on the environment
        raise ImportError("irlab.ir_measure needs ir_measures: pip install ir_measures (PyTerrier installs it)") from None

    found = get_metric(metric)
    if found.inputs not in ("ranking", "intents"):
        raise ParameterError(f"{found.name} is not computed from one ranked list per topic, so it is no ir_measures "
                             "measure")
    known = {p.name for p in found.parameters} | {c.name for c in found.conventions}
    unknown = sorted(set(options) - known)
    if unknown:
        raise ParameterError(f"{found.name} has no option {unknown[0]!r}; it takes {', '.join(sorted(known)) or 'none'}")
    if isinstance(threshold, bool) or not isinstance(threshold, int) or threshold < 1:
        raise ParameterError(f"threshold is the lowest relevant grade, a whole number >= 1, got {threshold!r}")
    values = _intent_values if found.inputs == "intents" else _ranking_values

    def impl(qrels, run):
        return list(values(found, options, threshold, qrels, run))

    qrel_inputs = ["query_id", "doc_id", "relevance"] + (["iteration"] if found.inputs == "intents" else [])
    named = dict(options, **({"threshold": threshold} if threshold != 1 else {}))   # two measures, two names
    return ir_measures.define(impl, name or _name(found.name, named), support_cutoff=False, qrel_inputs=qrel_inputs)
