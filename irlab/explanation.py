"""One metric explained from its options: the library side of ``irlab explain`` and of :func:`irlab.explain`.

The options are the command's, by their Python names (``k``, ``threshold``, ``persistence``, ``qrels`` …), on any
object that has them as attributes (argparse's namespace, or a ``types.SimpleNamespace``); each is text as typed, read
here with the limits of :mod:`irlab.option_values`. Nothing here knows of argv or exit codes.
"""

from __future__ import annotations

from . import conventions as conv
from .document import Document
from .errors import ParameterError
from .measure_names import ALIASES, REGISTRY, explain_target, is_measure_name, suggestion
from .metrics import COUNTS_METRICS, Counts, get_metric, mean_over_queries
from .metrics.counts import mean_notes, table_columns
from .metrics.cwl import check_user_model, with_user_model
from .metrics.diversity import IntentRanking
from .metrics.pairs import READS_SCORES, mean_over_lists
from .metrics.ties import ORDERED
from .option_values import integer, per_query
from .printable import illustrate, with_figures
from .ranking import Ranking, parse_grade_list

_RANKING_OPTIONS = ("relevant", "unretrieved", "collection", "threshold", "qrels", "run", "topic", "depth")
_INTENT_OPTIONS = ("unretrieved", "threshold", "qrels", "run", "topic", "depth")  # an intent ranking, or TREC files
ALL_OPTIONS = _RANKING_OPTIONS + ("alpha",) + ("scores", "k", "recall_level", "beta", "max_grade", "gains", "log_base", "judge1", "judge2", "a", "b", "counts", "judges", "persistence", "levels", "weights", "target", "max_depth", "quantity")


def _check_options(args, metric):
    allowed = set(metric.option_names)
    if args.user_model:
        check_user_model(metric.name)
        allowed.add("max_depth")
    if metric.name in COUNTS_METRICS or metric.inputs == "judges":
        allowed.add("counts")
    if metric.inputs in ("ranking", "queries"):  # queries: several rankings, one answer (gmap)
        allowed |= set(_RANKING_OPTIONS)
        if conv.TIES in metric.conventions or metric.name in READS_SCORES:  # metrics that read a ranking's scores
            allowed.add("scores")
    elif metric.inputs == "intents":
        allowed |= set(_INTENT_OPTIONS)
    elif metric.inputs == "judges":
        allowed |= {"judge1", "judge2"}
    elif metric.inputs == "many-judges":
        allowed |= {"judges"}
    else:
        allowed |= {"a", "b"}
    given = [name for name in ALL_OPTIONS + tuple(c.name for c in conv.ALL) if getattr(args, name) is not None]
    for name in given:
        if name not in allowed:
            raise ParameterError(f"option --{name.replace('_', '-')} does not apply to {metric.name}")


def _metric(args):
    """The metric ``args.metric`` names: irlab's (ap, ndcg), or an ir_measures name (nDCG@5, AP(rel=2)), whose
    parameters become explain's options (--k 5, --threshold 2) unless the same option is given otherwise."""
    text = args.metric.strip() if isinstance(args.metric, str) else args.metric
    head = text.split("(")[0].split("@")[0].strip() if isinstance(text, str) else None
    # irlab's own names first (ap, ndcg, rbp); an ir_measures name as ir_measures spells it (nDCG, RBP) means its own
    if not (head in REGISTRY or head in ALIASES) or head.lower() == text.lower() and head.lower() in ("ap", "rr", "map", "mrr"):
        try:
            return get_metric(text)
        except ParameterError as exc:
            if not (isinstance(text, str) and is_measure_name(text)):
                hint = suggestion(text) if isinstance(text, str) else ""
                raise ParameterError(str(exc) if not hint.startswith("; did you mean") else
                                     f"unknown metric {text!r}{hint}") from None
    name, preset = explain_target(text)
    for option, value in preset.items():
        given = getattr(args, option, None)
        if given is not None and str(given).strip() != value:
            raise ParameterError(f"{text} sets --{option.replace('_', '-')} {value}; the option gives {given}")
        setattr(args, option, value)
    return get_metric(name)


def _explain_inputs(args):
    """The metric, its options, its inputs (rankings, judge columns or rankings of ids) and notes on them."""
    metric = _metric(args)
    _check_options(args, metric)
    options = {c.name: getattr(args, c.name) for c in metric.conventions}
    for parameter in metric.parameters:
        raw = getattr(args, parameter.name)
        if raw is None:
            continue
        if parameter.name == "k":
            options["k"] = integer(raw, "cut-off k", 1)
        elif parameter.name == "max_grade":
            options["max_grade"] = integer(raw, "max grade", 0)
        else:
            options[parameter.name] = raw
    if args.counts is not None:
        return metric, options, *_counts_inputs(args, metric)
    if metric.inputs == "judges":
        if args.rankings or args.judge1 is None or args.judge2 is None:
            raise ParameterError(f"{metric.name} takes two judge columns: irlab explain {metric.name} --judge1 0,1,1 --judge2 1,1,0")
        return metric, options, (args.judge1, args.judge2), []
    if metric.inputs == "rankings-of-ids":
        if args.rankings or args.a is None or args.b is None:
            raise ParameterError(f"{metric.name} takes two rankings of ids: irlab explain {metric.name} --a d1,d2,d3 --b d3,d1,d2")
        return metric, options, (args.a, args.b), []
    if metric.inputs == "many-judges":
        if args.rankings or args.judges is None:
            raise ParameterError(f"{metric.name} takes every judge's column: irlab explain {metric.name} "
                                 "--judges '1,1,0; 1,0,0; 1,1,1'")
        return metric, options, (args.judges,), []
    if metric.inputs == "paired-values":
        if args.rankings or args.a is None or args.b is None:
            raise ParameterError(f"{metric.name} compares two systems' per-topic scores: "
                                 f"irlab explain {metric.name} --a 0.5,0.4,0.7 --b 0.3,0.4,0.5")
        return metric, options, (args.a, args.b), []
    if metric.inputs == "intents":
        return metric, options, *_intent_inputs(args, metric)
    if args.qrels or args.run or args.topic:
        if args.scores is not None:
            raise ParameterError("--scores is for a RANKING written out; a TREC topic's documents are ordered by the "
                                 "run's scores as trec_eval orders them")
        return (metric, options, *_topic_inputs(args, options))
    if args.depth is not None:
        raise ParameterError("--depth applies to a TREC run (--qrels, --run, --topic)")
    if not args.rankings:
        raise ParameterError(f"{metric.name} needs a ranking, e.g. irlab explain {metric.name} RNNRR")
    count = len(args.rankings)
    relevant = per_query(args.relevant, count, "--relevant", ",", lambda t: integer(t, "R (--relevant)", 0))
    unretrieved = per_query(args.unretrieved, count, "--unretrieved", ";", lambda t: parse_grade_list(t, "--unretrieved"))
    scores = per_query(args.scores, count, "--scores", ";", lambda t: t)
    collections = _one_or_per_query(args.collection, count, "--collection",
                                    lambda t: integer(t, "collection size N (--collection)", 1))
    threshold = integer(args.threshold, "relevance threshold (--threshold)", 1)
    rankings = []
    for text, rel, unret, score, collection in zip(args.rankings, relevant, unretrieved, scores, collections):
        known = {"relevant": rel, "unretrieved": unret or (), "collection": collection}
        if score is not None:
            known["scores"] = score
        if threshold is not None:
            known["threshold"] = threshold
        rankings.append(Ranking.parse(text, **known))
    return metric, options, rankings, []


def _intent_inputs(args, metric):
    """A ranking judged per subtopic ('1+2 - 2 ?', --unretrieved '3 1+4') or one topic of diversity qrels and a run."""
    threshold = integer(args.threshold, "relevance level (--threshold)", 1)
    if args.qrels or args.run or args.topic:
        from .trec.diversity import read_diversity_topic  # deferred: it loads irlab.trec and numpy

        if not (args.qrels and args.run and args.topic):
            raise ParameterError(f"explaining a TREC topic with {metric.name} needs --qrels DIVERSITY_QRELS (topic "
                                 "subtopic docno judgment) --run FILE --topic QID")
        if args.rankings or args.unretrieved is not None:
            raise ParameterError("give either an intent RANKING (with --unretrieved) or --qrels/--run/--topic")
        depth = integer(args.depth, "depth (--depth)", 1)
        return [read_diversity_topic(args.qrels, args.run, args.topic, depth=depth, relevance_level=threshold or 1)], []
    if args.depth is not None or threshold is not None:
        raise ParameterError("--depth and --threshold apply to TREC files (--qrels, --run, --topic)")
    if len(args.rankings) != 1:
        raise ParameterError(f"{metric.name} explains one ranking judged per subtopic, e.g. irlab explain {metric.name} "
                             "'1+2 - 2 3 ?' --unretrieved '3 1+4' (each document: its subtopics joined by '+', '-' "
                             "relevant to none, '?' unjudged)")
    return [IntentRanking.parse(args.rankings[0], unretrieved=args.unretrieved)], []


def _one_or_per_query(text, count, option, parse):
    """One value for every ranking ('50'), or one per ranking ('50,40')."""
    if text is not None and "," not in text:
        return [parse(text)] * count
    return per_query(text, count, option, ",", parse)


def _counts_inputs(args, metric):
    """Counts instead of a ranking (tp, fp, fn, tn), or the judges' 2x2 table for kappa."""
    if args.rankings or any(getattr(args, name) is not None for name in _RANKING_OPTIONS + ("judge1", "judge2")):
        raise ParameterError("give either --counts or a ranking (or judge columns), not both")
    if metric.inputs == "judges":
        return table_columns(args.counts), []
    return [Counts.parse(args.counts)], []


def _topic_inputs(args, options):
    """One topic of a TREC run as a ranking; conventions default to trec_eval's choices (topic_ranking), and say so."""
    from .topic_ranking import topic_ranking, trec_eval_options  # deferred: it loads irlab.trec and numpy

    if not (args.qrels and args.run and args.topic):
        raise ParameterError("explaining a TREC topic needs --qrels FILE --run FILE --topic QID")
    if args.rankings or args.relevant is not None or args.unretrieved is not None or args.collection is not None:
        raise ParameterError("give either a RANKING (with --relevant/--unretrieved/--collection) or --qrels/--run/--topic")
    threshold = integer(args.threshold, "relevance threshold (--threshold)", 1) or 1
    depth = integer(args.depth, "depth (--depth)", 1)
    ties = options.get("ties")
    with_scores = ties is not None and conv.TIES.choice(ties).key not in ORDERED
    ranking, _ = topic_ranking(args.qrels, args.run, args.topic, threshold=threshold, depth=depth,
                               with_scores=with_scores)
    # the ranking's own remarks travel with it; these notes are about the conventions switched to trec_eval's
    return [ranking], trec_eval_options(options)


def _compute(metric, options, inputs, notes):
    """The metric on its inputs; several rankings give the mean over queries."""
    if metric.inputs == "intents":
        result = metric.compute(*inputs, **options)
        result.notes[:0] = notes
        return result
    if metric.inputs != "ranking":
        return metric.compute(*inputs, **options)
    results = [metric.compute(ranking, **options) for ranking in inputs]
    for result in results:
        result.notes[:0] = notes
    if len(results) == 1:
        return results[0]
    if metric.name in READS_SCORES:  # arp, opa: per list or pooled, as TF-Ranking (--list-mean)
        return mean_over_lists(results, options.get("list_mean"))
    mean = mean_over_queries(results, metric.averaged_as)
    mean.notes += mean_notes(metric.name)
    return mean


def explain_result(args):
    """Compute the metric the arguments name, with its explanation."""
    metric, options, inputs, notes = _explain_inputs(args)
    return _with_user_model(args, metric, options, inputs, _compute(metric, options, inputs, notes))


def _with_user_model(args, metric, options, inputs, result):
    """With --user-model, the result followed by the metric as a C/W/L user model of each ranking."""
    return with_user_model(result, metric.name, inputs, options, args.max_depth) if args.user_model else result


def explain_document(args):
    """The explanation with its figure, for printable output, and the result it explains."""
    metric, options, inputs, notes = _explain_inputs(args)
    result = _with_user_model(args, metric, options, inputs, _compute(metric, options, inputs, notes))
    if metric.inputs == "ranking":
        figures = illustrate(metric.name, rankings=inputs, options=options)
    else:
        figures = illustrate(metric.name, judges=inputs, options=options) if metric.inputs == "judges" else []
    section = with_figures(result.section(), figures)
    return Document(result.title, section.blocks, result.meta()), result
