"""Two or more TREC runs on the same topics, with paired significance tests that explain themselves
(the library of ``irlab compare``, :mod:`irlab.cli.compare`).

Per-topic values come from :func:`irlab.trec.evaluate` (trec_eval 10.0's semantics), rounded to the decimals
trec_eval prints (4 by default, ``--decimals``), so the tests see exactly the numbers ``irlab eval -q`` shows
and are exact fractions from there on. Two runs: the per-topic table, a summary of the tests and each test
step by step. More runs: every pair, with p-values corrected for the number of comparisons (Holm by default).

>>> a = {"401": 0.5, "402": 0.25, "403": 0.75}
>>> b = {"401": 0.25, "402": 0.25, "403": 0.5}
>>> doc = comparison_document({"A": a, "B": b}, "map", tests=["sign"])
>>> doc.meta["tests"]["sign"]["p"]
'1/2'
"""

from __future__ import annotations

import itertools
import string
from fractions import Fraction

from . import conventions as conv
from . import exact
from .document import Document, Note, Paragraph, Section, Table
from .errors import IrlabError, ParameterError
from .measure_names import is_diversity_name
from .metrics.significance import adjust, alpha_value, bootstrap_interval, paired, run_test, statistic_text
from .plots import difference_bars
from .printable import figure

__all__ = ["compare_files", "comparison_document", "topic_scores", "TEST_NAMES"]

TEST_NAMES = ("t", "wilcoxon", "sign", "permutation", "bootstrap")
_TITLES = {"t": "paired t-test", "wilcoxon": "Wilcoxon signed-rank", "sign": "sign test",
           "permutation": "randomisation (permutation)", "bootstrap": "bootstrap CI of the mean difference"}


def topic_scores(qrels, run, measure: str, *, decimals: int | None = 4, complete: bool = False) -> dict:
    """topic -> the run's value of ``measure`` (one trec_eval measure), as trec_eval prints it with ``decimals``."""
    from .trec import evaluate  # deferred: irlab.trec loads numpy

    result = evaluate(qrels, run, [measure], complete=complete)
    columns = [c for c in result.columns if c not in ("runid",)]
    if len(columns) != 1:
        raise ParameterError(f"irlab compare needs one measure with one value per topic; {measure!r} gives "
                             f"{len(columns)}: {', '.join(columns) or 'none'}")
    (column,) = columns
    scores = {}
    for topic, values in result.per_topic.items():
        value = values.get(column)
        if isinstance(value, str) or value is None:
            raise ParameterError(f"measure {column} is not a number per topic; compare needs a numeric measure such as map")
        if isinstance(value, int):
            scores[topic] = value
        else:
            scores[topic] = exact.rational(Fraction(f"{value:.{decimals}f}") if decimals is not None else Fraction(repr(value)))
    if not scores:
        raise ParameterError(f"run {run} has no topic in common with the qrels {qrels}")
    return scores


def _names(runids):
    """The systems' names: their run ids when these are distinct and short, else A, B, C…"""
    if len(set(runids)) == len(runids) and all(0 < len(r) <= 16 for r in runids):
        return list(runids)
    count = len(runids)
    return list(string.ascii_uppercase[:count]) if count <= 26 else [f"S{i}" for i in range(1, count + 1)]


def _without_pairs_table(section: Section, keep_ranks: bool) -> Section:
    """A test's section without its copy of the per-topic table (the comparison shows it once)."""
    blocks = tuple(b for b in section.blocks
                   if not (isinstance(b, Table) and b.caption == "Per-topic differences" and not keep_ranks))
    return Section(section.title, blocks, section.meta)


def _p_cell(p):
    """A p-value for a summary table: exact when it is short to write, else its decimal (the explanation has it all)."""
    return p if len(exact.exact_text(p)) <= 24 else f"≈ {exact.decimal_text(p, strip=False)}"


def _decision(p, alpha) -> str:
    return "reject H0" if exact.to_float(p) <= exact.to_float(alpha) else "H0 not rejected"


def comparison_document(scores: dict, measure: str, *, tests=("t", "wilcoxon", "sign", "permutation", "bootstrap"),
                        alternative=None, alpha=None, correction=None, samples=None, seed=0, sources=None,
                        figures=False) -> Document:
    """A comparison of systems: ``scores`` maps system name -> {topic: value of ``measure``}.

    Two systems: per-topic table, tests summary and every test explained. More: every pair, p-values corrected.
    """
    names = list(scores)
    if len(names) < 2:
        raise ParameterError("a comparison needs at least two systems")
    tests = list(dict.fromkeys(tests))
    for test in tests:
        if test not in TEST_NAMES:
            raise ParameterError(f"unknown test {test!r}; choose from {', '.join(TEST_NAMES)} or all")
    alpha = alpha_value(alpha)
    choice = conv.ALTERNATIVE.choice(alternative)
    blocks = []
    if sources:
        blocks.append(Table(("system", "run file", "run id"), tuple(sources), "Systems"))
    means = []
    for name in names:
        values = list(scores[name].values())
        total = 0
        for v in values:
            total = exact.add(total, v)
        means.append((name, len(values), exact.div(total, len(values))))
    blocks.append(Table(("system", "topics", f"mean {measure}"), tuple(means), f"Mean {measure} per system"))
    if len(names) == 2:
        return _two_systems(scores, names, measure, tests, choice, alpha, samples, seed, blocks, figures)
    return _several_systems(scores, names, measure, tests, choice, alpha, correction, samples, seed, blocks)


def _run_one(test, pairs, choice, alpha, samples, seed):
    if test == "bootstrap":
        return bootstrap_interval(pairs, None, alpha=alpha, samples=samples, seed=seed, names=pairs.names)
    return run_test(test, pairs, choice.key, alpha=alpha, samples=samples if test == "permutation" else None, seed=seed)


def _two_systems(scores, names, measure, tests, choice, alpha, samples, seed, blocks, figures) -> Document:
    first, second = names
    pairs = paired(scores[first], scores[second], (first, second))
    blocks.insert(0, Paragraph(
        f"{measure} of systems {first} and {second} on the same {pairs.n} topics; d = {first} - {second}. "
        f"Significance level alpha = {exact.decimal_text(alpha)}; alternative: {choice.summary} "
        f"(--alternative {choice.key}; {choice.reference})."))
    blocks.append(pairs.table())
    results = {test: _run_one(test, pairs, choice, alpha, samples, seed) for test in tests}
    rows, meta = [], {}
    for test, result in results.items():
        if test == "bootstrap":
            low, high = (s.value for s in result.steps if s.symbol in ("CI_low", "CI_high"))
            level = exact.decimal_text((1 - alpha) * 100)
            covers = low <= 0 <= high
            rows.append((_TITLES[test], f"{level}% CI [{exact.decimal_text(low)}, {exact.decimal_text(high)}]", "",
                         "contains 0" if covers else "excludes 0"))
            meta[test] = {"low": exact.exact_text(low), "high": exact.exact_text(high)}
            continue
        rows.append((_TITLES[test], statistic_text(result), _p_cell(result.value), _decision(result.value, alpha)))
        meta[test] = {"p": exact.exact_text(result.value), "decimal": exact.to_float(result.value)}
    blocks.append(Table(("test", "statistic", "p", f"at alpha = {exact.decimal_text(alpha)}"), tuple(rows), "Tests"))
    blocks.append(Note("reading", "A p-value says how surprising the differences would be if the systems were "
                                  "equally good; it is not the size of the difference (see the mean difference and "
                                  "the effect size d_z), and running several tests and reporting the smallest "
                                  "p-value inflates the error rate (Smucker, Allan & Carterette 2007)."))
    if figures:
        fig = difference_bars(dict(zip(pairs.topics, pairs.differences)), measure, (first, second))
        blocks.append(figure(fig, f"Per-topic differences {measure}({first}) - {measure}({second}), largest first"))
    for test, result in results.items():
        blocks.append(_without_pairs_table(result.section(), keep_ranks=test == "wilcoxon"))
    return Document(f"Comparing {first} and {second} on {measure}", blocks,
                    {"measure": measure, "systems": names, "alternative": choice.key,
                     "alpha": exact.exact_text(alpha), "tests": meta})


def _several_systems(scores, names, measure, tests, choice, alpha, correction, samples, seed, blocks) -> Document:
    correction_choice = conv.MULTIPLE_COMPARISONS.choice(correction)
    pairs_list = list(itertools.combinations(names, 2))
    blocks.insert(0, Paragraph(
        f"{measure} of {len(names)} systems compared pairwise ({len(pairs_list)} comparisons), d = first - second. "
        f"Significance level alpha = {exact.decimal_text(alpha)}; alternative: {choice.summary}; p-values corrected "
        f"for {len(pairs_list)} comparisons: {correction_choice.key} ({correction_choice.formula}; "
        f"{correction_choice.reference})."))
    meta = {}
    for test in tests:
        if test == "bootstrap":
            continue
        results = []
        for first, second in pairs_list:
            pairs = paired(scores[first], scores[second], (first, second))
            results.append((first, second, pairs, _run_one(test, pairs, choice, alpha, samples, seed)))
        adjusted = adjust([r.value for *_, r in results], correction_choice.key)
        rows = []
        for (first, second, pairs, result), p_adjusted in zip(results, adjusted):
            d = pairs.differences
            total = 0
            for x in d:
                total = exact.add(total, x)
            rows.append((f"{first} vs {second}", exact.div(total, len(d)), statistic_text(result), _p_cell(result.value),
                         _p_cell(p_adjusted), _decision(p_adjusted, alpha)))
            meta.setdefault(test, []).append({"pair": [first, second], "p": exact.exact_text(result.value),
                                              "adjusted": exact.exact_text(p_adjusted)})
        blocks.append(Table(("pair", "mean d", "statistic", "p", f"p ({correction_choice.key})",
                             f"at alpha = {exact.decimal_text(alpha)}"), tuple(rows), f"{_TITLES[test]}"))
    blocks.append(Note("reading", f"With {len(pairs_list)} comparisons at alpha = {exact.decimal_text(alpha)} each, "
                                  "the chance of at least one false rejection grows with the number of pairs; the "
                                  "corrected p-values keep that family-wise error rate at alpha."))
    if "bootstrap" in tests:
        blocks.append(Note("assumption", "the bootstrap interval is shown for two systems only"))
    return Document(f"Comparing {len(names)} systems on {measure}", blocks,
                    {"measure": measure, "systems": names, "alternative": choice.key,
                     "correction": correction_choice.key, "tests": meta})


def compare_files(qrels, runs, measure: str = "map", *, tests=TEST_NAMES, alternative=None, alpha="0.05",
                  correction=None, samples=None, seed=0, decimals: int | None = 4, complete: bool = False,
                  figures: bool = False) -> Document:
    """The comparison of the run files ``runs`` (at least two) on the qrels file ``qrels``: per-topic values of
    ``measure`` (trec_eval 10.0's, rounded to ``decimals`` as trec_eval prints them; None keeps the floats) and the
    paired ``tests``. Runs that do not cover the same topics are an IrlabError (``complete`` scores a missing
    topic as an empty ranking, trec_eval -c)."""
    from .trec import read_qrels, read_run  # deferred: irlab.trec loads numpy

    if len(runs) < 2:
        raise ParameterError("irlab compare needs at least two runs")
    tests = list(TEST_NAMES) if "all" in tests else list(tests)
    # a diversity measure (alpha_nDCG@20) reads its own qrels, topic subtopic docno judgment, from the path
    judged = qrels if is_diversity_name(measure) else read_qrels(qrels)
    read = [read_run(path) for path in runs]
    labels = _names([run.runid for run in read])
    scores, sources = {}, []
    for label, path, run in zip(labels, runs, read):
        scores[label] = topic_scores(judged, path if judged is qrels else run, measure, decimals=decimals,
                                     complete=complete)
        sources.append((label, str(path), run.runid))
    missing = {label: set(scores[labels[0]]) ^ set(s) for label, s in scores.items()}
    if any(missing.values()):
        detail = "; ".join(f"{label} differs from {labels[0]} on topics {', '.join(sorted(m))}"
                           for label, m in missing.items() if m)
        raise IrlabError(f"the runs do not cover the same topics ({detail}); a paired test needs every topic in "
                         "every run: pass -c to score a missing topic as an empty ranking")
    document = comparison_document(scores, measure, tests=tests, alternative=alternative, alpha=alpha,
                                   correction=correction, samples=samples, seed=seed, sources=sources,
                                   figures=figures)
    if decimals is not None:
        document.blocks = (Note("assumption", f"per-topic values rounded to {decimals} decimals, as trec_eval "
                                              "prints them (irlab eval -q); --decimals full keeps the floats"),
                           ) + document.blocks
    return document
