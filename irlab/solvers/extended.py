"""Exercise inputs beyond one ranking: counts, a judges' table, many judges, and several systems.

Exercise-set parameters this module reads (see exercises/README.md):

- ``counts = { tp = 20, fp = 40, fn = 60, tn = 880 }`` (or a list of such tables, one per query): the set
  metrics (precision, recall, f, set-accuracy, fallout, e-measure) and the ``pr-averages`` solver;
- ``judges_table = [300, 20, 10, 70]`` (yes-yes, yes-no, no-yes, no-no): ``kappa`` without 400 rows;
- ``judges = ["1,1,0,0", "1,0,0,0", "1,1,0,1"]`` (one column per judge): ``fleiss``, ``pairwise-kappa``;
- ``runs = { A = "d1,d2,d3", B = "d2,d4,d1" }``: ranked document ids per run, for the ``pool`` solver (option
  ``depth``);
- ``systems = { A = [...], B = [...] }``: per system, its rankings (one per query, with ``relevant`` per query)
  or its per-topic scores. A ranking metric then answers per system; ``compare-systems`` adds the difference
  of the first two; the significance tests compare the first two systems (scores, or the ``metric`` of each
  system's rankings per query).

Solvers added here: ``pr-averages`` (micro and macro P, R and F, with macro F both as F(macro P, macro R)
and as the mean of the per-query F) and ``compare-systems``.
"""

from __future__ import annotations

from ..document import KeyParagraph, Note, Paragraph, Table
from ..errors import IrlabError
from ..exercise_inputs import exercise_rankings
from ..metric import Result
from ..metrics import COUNTS_METRICS, Counts, get_metric, kappa_from_table, mean_over_queries
from ..metrics.counts import f_of_counts, precision_of_counts, recall_of_counts
from ..metrics.scores import read_scores
from ..trace import Traced, mean, total
from .choices import correct_letters, instruction, options_text, written
from .pooling import pool
from .solution import Answer, Solution

PARAMETER_KEYS = {"counts", "judges_table", "judges", "systems", "runs"}
SOLVERS = {
    "pr-averages": "precision, recall and F over several queries: micro (pooled counts) and macro (mean per query), "
                   "macro F both as F(macro P, macro R) and as the mean of the per-query F",
    "compare-systems": "the metric (option metric, default ap) of every system, averaged over its queries, and the "
                       "difference of the first two",
}
SOLVER_OPTIONS = {"compare-systems": {"metric", "k", "beta"}, "pr-averages": set(), "pool": {"depth"}}


# inputs ------------------------------------------------------------------------------------------------

def _counts_list(params, where):
    data = params["counts"]
    items = data if isinstance(data, list) else [data]
    if not items:
        raise where.error("give at least one table of counts", "counts")
    try:
        return [Counts.parse(item) for item in items]
    except IrlabError as error:
        raise where.error(str(error), "counts") from None


def _systems(params, where) -> dict:
    """name -> list of Rankings (one per query) or list of exact scores (one per topic)."""
    systems = params["systems"]
    if not isinstance(systems, dict) or len(systems) < 2:
        raise where.error("systems is a table of at least two systems, e.g. { A = [\"RNR\", \"NRR\"], B = [...] }",
                          "systems")
    out = {}
    for name, data in systems.items():
        if isinstance(data, str) or not isinstance(data, list) or not data:
            raise where.error(f"system {name!r} needs a list: its rankings (one per query) or its per-topic scores",
                              "systems")
        try:
            if all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in data):
                out[str(name)] = read_scores(data, f"system {name}")
            else:
                query_params = {k: v for k, v in params.items() if k not in ("systems", "ranking")}
                out[str(name)] = exercise_rankings({**query_params, "rankings": data}, where)
        except IrlabError as error:
            raise where.error(f"system {name!r}: {error}", "systems") from None
    kinds = {isinstance(v[0], (int, float)) or hasattr(v[0], "denominator") for v in out.values()}
    if len(kinds) != 1:
        raise where.error("give every system the same kind of data: all rankings or all scores", "systems")
    return out


def _per_query_results(metric, options, rankings):
    return [metric.compute(r, **options) for r in rankings]


def _system_mean(metric, options, name, rankings) -> Result:
    results = _per_query_results(metric, options, rankings)
    symbol = f"{metric.averaged_as or 'mean ' + results[0].symbol}({name})"
    result = results[0] if len(results) == 1 else mean_over_queries(results, symbol)
    if len(results) == 1:
        result.traced.named(f"{result.symbol}({name})", result.traced.label or result.title)
    result.title = f"{result.title}: system {name}"
    return result


# solvers ----------------------------------------------------------------------------------------------

def pr_averages(items) -> Solution:
    """Micro and macro averages of precision, recall and F over queries (IIR 13.6 for the two averagings).

    Micro: P and R of the counts summed over the queries. Macro: the mean of the per-query P and R; macro F is
    written two ways in the literature: F(macro P, macro R) and the mean of the per-query F.

    >>> from irlab.metrics import Counts
    >>> sol = pr_averages([Counts(2, 2, 2), Counts(1, 3, 0)])
    >>> [str(a.value) for a in sol.answers]
    ['3/8', '3/5', '6/13', '3/8', '3/4', '1/2', '9/20']
    """
    counts = [c if isinstance(c, Counts) else Counts.of_ranking(c) for c in items]
    labels = [f"q{i}" for i in range(1, len(counts) + 1)]
    tp = total([Traced(c.tp, f"tp({q})") for c, q in zip(counts, labels)], "Σtp", "True positives, all queries")
    fp = total([Traced(c.fp, f"fp({q})") for c, q in zip(counts, labels)], "Σfp", "False positives, all queries")
    fn = total([Traced(c.fn, f"fn({q})") for c, q in zip(counts, labels)], "Σfn", "False negatives, all queries")
    p_micro = (tp / (tp + fp)).named("P_micro", "Micro-averaged precision (pooled counts)")
    r_micro = (tp / (tp + fn)).named("R_micro", "Micro-averaged recall (pooled counts)")
    f_micro = ((2 * p_micro * r_micro) / (p_micro + r_micro)).named("F_micro", "F of the pooled counts") \
        if p_micro.value + r_micro.value else Traced(0, "F_micro", "F of the pooled counts")
    ps = [Traced(precision_of_counts(c).value, f"P({q})") for c, q in zip(counts, labels)]
    rs = [Traced(recall_of_counts(c).value, f"R({q})") for c, q in zip(counts, labels)]
    fs = [Traced(f_of_counts(c).value, f"F({q})") for c, q in zip(counts, labels)]
    p_macro = mean(ps, "P_macro", "Macro-averaged precision (mean over queries)")
    r_macro = mean(rs, "R_macro", "Macro-averaged recall (mean over queries)")
    f_of_macro = ((2 * p_macro * r_macro) / (p_macro + r_macro)).named("F(P_macro, R_macro)", "F of the macro P and R") \
        if p_macro.value + r_macro.value else Traced(0, "F(P_macro, R_macro)", "F of the macro P and R")
    f_mean = mean(fs, "mean F", "Mean of the per-query F")
    rows = tuple((q, c.tp, c.fp, c.fn, p.value, r.value, f.value) for q, c, p, r, f in zip(labels, counts, ps, rs, fs))
    table = Table(("query", "tp", "fp", "fn", "P", "R", "F1"), rows, "Counts and values per query")

    def answer(label, node, title):
        return Answer(label, Result("pr-averages", title, node, tables=[table]))

    notes = [table, Note("convention", "micro averaging pools the counts, so queries with more documents weigh more; "
                                       "macro averaging gives every query the same weight (IIR 13.6). Macro F is "
                                       "F(macro P, macro R) in some texts and the mean of the per-query F in others: "
                                       "both are given")]
    return Solution([answer("Precision, micro average", p_micro, "Micro-averaged precision"),
                     answer("Recall, micro average", r_micro, "Micro-averaged recall"),
                     answer("F, micro average (F of the pooled counts)", f_micro, "Micro-averaged F"),
                     answer("Precision, macro average", p_macro, "Macro-averaged precision"),
                     answer("Recall, macro average", r_macro, "Macro-averaged recall"),
                     answer("F of the macro-averaged P and R", f_of_macro, "F(macro P, macro R)"),
                     answer("F, mean of the per-query F", f_mean, "Macro-averaged F (mean of per-query F)")], notes)


def compare_systems(systems: dict, metric_name="ap", options=None) -> Solution:
    """Every system's mean of ``metric`` over its queries, and the difference of the first two (IIR 8.8-style).

    >>> from irlab import Ranking
    >>> sol = compare_systems({"1": [Ranking.parse("RNRNN", relevant=3)], "2": [Ranking.parse("NRRNR", relevant=3)]})
    >>> [str(a.value) for a in sol.answers]
    ['5/9', '53/90', '-1/30']
    """
    metric = get_metric(metric_name)
    if metric.inputs != "ranking":
        raise IrlabError(f"compare-systems needs a metric of rankings, not {metric.name}")
    options = dict(options or {})
    results = {name: _system_mean(metric, options, name, rankings) for name, rankings in systems.items()}
    answers = [Answer(f"{metric.averaged_as or metric.title} of system {name}", result) for name, result in results.items()]
    (first, a), (second, b) = list(results.items())[:2]
    difference = (Traced(a.value, a.symbol) - Traced(b.value, b.symbol)).named("Δ", f"Difference {first} - {second}")
    higher = first if a.value > b.value else second if b.value > a.value else None
    verdict = (f"system {higher} has the higher {metric.averaged_as or metric.name}" if higher
               else f"the two systems have the same {metric.averaged_as or metric.name}")
    answers.append(Answer(f"Difference, system {first} - system {second}",
                          Result("compare-systems", f"{first} against {second}", difference,
                                 notes=[Note("reading", verdict)])))
    return Solution(answers, [Note("reading", verdict)])


def _scores_of(systems, metric_name, options):
    """The first two systems' per-topic scores: given, or ``metric`` computed exactly on each query's ranking."""
    names = list(systems)[:2]
    first = systems[names[0]]
    if first and hasattr(first[0], "grades"):
        metric = get_metric(metric_name or "ap")
        scores = {name: [metric.compute(r, **options).value for r in systems[name]] for name in names}
        return names, scores, metric
    return names, {name: systems[name] for name in names}, None


def free_text(options, where) -> Solution:
    """A question answered in words: its model answer (and options) for the key; nothing is computed.

    With ``choices`` and ``correct`` (the right options' letters) it is a choice question that the homework
    checker grades by the letters the student names (irlab.solvers.choices).
    """
    model = options.get("model_answer")
    choices = options.get("choices") or []
    right = None
    if options.get("correct") is not None:
        if not choices:
            raise where.error("correct names the right option(s) by letter: give the options in choices", "correct")
        try:
            right = correct_letters(options["correct"], len(choices))
        except IrlabError as error:
            raise where.error(str(error), "correct") from None
    elif not isinstance(model, str) or not model.strip():
        raise where.error("a free-text question needs model_answer, the answer the key shows (or choices with "
                          "correct, the right options' letters)", "model_answer")
    if model is not None and (not isinstance(model, str) or not model.strip()):
        raise where.error("model_answer must be a non-empty text", "model_answer")
    blocks = []
    if choices:
        blocks.append(Paragraph("Options: " + options_text(choices)))
    if right is not None:  # KeyParagraph: an answers-only key keeps them
        blocks.append(KeyParagraph(f"Right option{'s' if len(right) > 1 else ''}: {written(right, choices)}"))
    if model is not None:
        blocks.append(KeyParagraph(f"Model answer: {model.strip()}"))
    if right is not None:
        blocks.append(Note("assumption", f"a choice question (the sheet says '{instruction(right)}'), graded "
                                         "automatically: the answer names the letter(s) of the right option(s); case, "
                                         "spaces and order do not matter"
                                         + ("; every right option must be named, and no other" if len(right) > 1
                                            else "")))
    else:
        blocks.append(Note("assumption", "a free-text question: not graded automatically"))
    return Solution([], blocks, choice=right)


# the dispatch the exercise-set solver calls first -----------------------------------------------------------

def solve_extended(solver: str, params: dict, options: dict, where):
    """A Solution when the question needs the inputs or solvers of this module; None to let the caller solve it."""
    if solver == "pr-averages":
        if "counts" in params:
            return pr_averages(_counts_list(params, where))
        return pr_averages(exercise_rankings(params, where))
    if solver == "compare-systems":
        if "systems" not in params:
            raise where.error("compare-systems needs parameters.systems", "parameters")
        systems = _systems(params, where)
        if not hasattr(next(iter(systems.values()))[0], "grades"):
            raise where.error("compare-systems computes a metric of each system's rankings; give rankings", "systems")
        metric_options = {k: v for k, v in options.items() if k in ("k", "beta")}
        return compare_systems(systems, options.get("metric", "ap"), metric_options)
    if solver == "free-text":
        return free_text(options, where)
    if solver == "pool":
        if "runs" not in params:
            raise where.error("pool needs parameters.runs (run name -> ranked document ids)", "parameters")
        if "depth" not in options:
            raise where.error("pool needs the question option depth", "depth")
        return pool(params["runs"], options["depth"])
    try:
        metric = get_metric(solver)
    except IrlabError:  # a solver of the exercise-set module (map-bounds, aggregate…)
        return None
    metric_options = {k: options[k] for k in options if k in metric.option_names}
    if metric.inputs == "paired-values":
        if "systems" not in params:
            raise where.error(f"{metric.name} compares two systems: give parameters.systems", "parameters")
        systems = _systems(params, where)
        names, scores, scored_by = _scores_of(systems, options.get("metric"), {})
        result = metric.compute(scores[names[0]], scores[names[1]], names=tuple(names), **metric_options)
        notes = [Note("assumption", f"per-query {scored_by.title} of each system's rankings, computed exactly")] if scored_by else []
        return Solution([Answer(result.title, result)], notes)
    if metric.inputs == "queries":  # one answer from every query's ranking (gmap)
        return Solution([Answer(metric.title, metric.compute(*exercise_rankings(params, where), **metric_options))])
    if metric.inputs == "many-judges":
        if "judges" not in params:
            raise where.error(f"{metric.name} needs parameters.judges (one column per judge)", "parameters")
        result = metric.compute(params["judges"], **metric_options)
        return Solution([Answer(metric.title, result)])
    if metric.name == "kappa" and "judges_table" in params:
        return Solution([Answer(metric.title, kappa_from_table(params["judges_table"], **metric_options))])
    if "counts" in params and not ("ranking" in params or "rankings" in params):
        if metric.name not in COUNTS_METRICS:
            raise where.error(f"{metric.name} needs a ranking; counts give only {', '.join(COUNTS_METRICS)}", "counts")
        results = [metric.compute(c, **metric_options) for c in _counts_list(params, where)]
        result = results[0] if len(results) == 1 else mean_over_queries(results, metric.averaged_as)
        return Solution([Answer(result.title, result)])
    if "systems" in params and metric.inputs == "ranking":
        systems = _systems(params, where)
        if not hasattr(next(iter(systems.values()))[0], "grades"):
            raise where.error(f"{metric.name} needs rankings; these systems give scores", "systems")
        return Solution([Answer(f"{metric.averaged_as or metric.title} of system {name}",
                                _system_mean(metric, metric_options, name, rankings))
                         for name, rankings in systems.items()])
    return None
