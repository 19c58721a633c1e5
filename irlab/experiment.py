"""A PyTerrier experiment explained: the significance columns of ``pt.Experiment`` reproduced from the per-topic
values, then each test explained as ``irlab compare`` explains it.

``pt.Experiment(systems, topics, qrels, measures, baseline=b, correction=c)`` (pyterrier/_evaluation/_rendering.py,
RenderFromPerQuery.averages) adds, for every measure m and every system other than the baseline:

* ``m +`` and ``m -``: the topics where the system's value is above (below) the baseline's, compared as doubles;
* ``m p-value``: ``scipy.stats.ttest_rel(system, baseline)[1]`` (``test='t'``, two-sided; ``test='wilcoxon'``:
  ``scipy.stats.wilcoxon``), the topics taken in the baseline's order;
* with ``correction``: ``m reject`` and ``m p-value corrected`` from ``statsmodels.stats.multitest.multipletests``
  over the p-values of the non-baseline systems in that column (one family per measure, ``correction_alpha``).

The per-topic values come from ``pt.Experiment(..., perquery=True)`` (columns ``name, qid, measure, value``), the
unrounded doubles ir_measures computed (a qrels topic the run does not answer counts 0). :func:`explain_experiment`
recomputes every cell from them, says whether it equals the table's, and explains each comparison.
"""

from __future__ import annotations

import math
from fractions import Fraction

from . import conventions as conv
from .document import Document, Note, Paragraph, Section, Table
from .compare import comparison_document
from .errors import InputFileError, InputTypeError, ParameterError
from .metrics.significance import adjust
from .plots import difference_bars
from .printable import figure

__all__ = ["explain_experiment", "reproduce", "multipletests", "read_perquery", "read_perquery_csv", "read_table_csv",
           "CORRECTIONS", "DEFAULT_THRESHOLD"]

DEFAULT_THRESHOLD = 0.05   # |Δ| below which a topic's bar is left out of the chart (courses draw |ΔAP| > 0.05)
_SUFFIXES = (" +", " -", " p-value", " reject", " p-value corrected")

# statsmodels' method names (multipletests(method=...), as pt.Experiment passes ``correction`` on) -> what irlab
# reproduces: (key, formula of the adjusted p-value, reference)
CORRECTIONS = {
    "bonferroni": ("bonferroni", "p adjusted = min(1, m · p); reject when p <= α / m", "Dunn 1961"),
    "sidak": ("sidak", "p adjusted = 1 - (1 - p)^m; reject when p <= 1 - (1 - α)^(1/m)", "Šidák 1967"),
    "holm": ("holm", "p_(i) adjusted = max_{j<=i} min(1, (m - j + 1) · p_(j)); step down while p_(i) <= α / (m - i + 1)",
             "Holm 1979"),
    "holm-sidak": ("holm-sidak", "p_(i) adjusted = max_{j<=i} 1 - (1 - p_(j))^(m - j + 1); step down while "
                   "p_(i) <= 1 - (1 - α)^(1/(m - i + 1))", "Holm 1979 with Šidák's bound; statsmodels' default"),
    "fdr_bh": ("fdr_bh", "p_(i) adjusted = min_{j>=i} min(1, p_(j) · m / j); reject p_(1) … p_(k), k the largest i "
               "with p_(i) <= α · i / m", "Benjamini & Hochberg 1995 (false discovery rate)"),
}
_CORRECTION_ALIASES = {"b": "bonferroni", "bonf": "bonferroni", "s": "sidak", "h": "holm", "hs": "holm-sidak",
                       "fdr_i": "fdr_bh", "fdr_p": "fdr_bh", "fdri": "fdr_bh", "fdrp": "fdr_bh"}


def correction_key(correction) -> str | None:
    """statsmodels' name of a correction irlab reproduces (None: no correction)."""
    if correction is None:
        return None
    if not isinstance(correction, str):
        raise InputTypeError(f"correction is a statsmodels method name such as 'holm', got {type(correction).__name__}")
    key = correction.strip().lower()
    key = _CORRECTION_ALIASES.get(key, key)
    if key not in CORRECTIONS:
        raise ParameterError(f"correction {correction!r}: irlab reproduces statsmodels' {', '.join(CORRECTIONS)} "
                             "(and their short names b, s, h, hs)")
    return key


# ---- the per-topic values ---------------------------------------------------------------------------------------

def read_perquery(perquery) -> dict:
    """{system: {measure: {qid: value}}} from pt.Experiment's per-query frame (``name, qid, measure, value``), rows
    in the frame's order, or from such a dict already."""
    if isinstance(perquery, tuple) and len(perquery) == 2 and hasattr(perquery[1], "columns"):
        perquery = perquery[1]   # perquery='both' returns (averages, perquery)
    if isinstance(perquery, dict):
        return {str(name): {str(m): {str(q): float(v) for q, v in topics.items()} for m, topics in measures.items()}
                for name, measures in perquery.items()}
    columns = list(getattr(perquery, "columns", ()))
    if not all(c in columns for c in ("name", "qid", "measure", "value")):
        raise InputTypeError("the per-topic values are pt.Experiment(..., perquery=True)'s frame with the columns name, "
                             f"qid, measure, value{'; it has ' + ', '.join(map(str, columns)) if columns else ''}")
    values = {}
    for name, qid, measure, value in zip(*(perquery[c].tolist() for c in ("name", "qid", "measure", "value"))):
        topics = values.setdefault(str(name), {}).setdefault(str(measure), {})
        if str(qid) in topics:
            raise InputTypeError(f"system {name} has two values of {measure} for topic {qid} in the per-topic frame")
        topics[str(qid)] = _number(value, f"{measure} of {name} on topic {qid}")
    if not values:
        raise InputTypeError("the per-topic frame has no rows")
    return values


def read_perquery_csv(path) -> dict:
    """{system: {measure: {qid: value}}} from pt.Experiment's per-query frame saved as CSV
    (``pt.Experiment(..., perquery=True).to_csv(path)``: columns name, qid, measure, value, any others ignored).
    Read as text, so that a qid such as 051 stays as written; a value is the double pandas wrote (repr: exact)."""
    import csv

    path = str(path)
    try:
        with open(path, newline="", encoding="utf-8") as f:
            rows = csv.reader(f)
            header = next(rows, None)
            wanted = ("name", "qid", "measure", "value")
            if header is None or not all(c in header for c in wanted):
                raise InputFileError(path, 1, "the per-topic values are pt.Experiment(..., perquery=True)'s frame "
                                              "saved as CSV, with the columns name, qid, measure, value"
                                     + (f"; it has {', '.join(header)}" if header else "; the file is empty"))
            at = [header.index(c) for c in wanted]
            values = {}
            for lineno, row in enumerate(rows, 2):
                if not row:
                    continue
                if len(row) != len(header):
                    raise InputFileError(path, lineno, f"{len(row)} fields where the header has {len(header)}")
                name, qid, measure, text = (row[i] for i in at)
                try:
                    value = float(text)
                except ValueError:
                    raise InputFileError(path, lineno, f"value {text!r:.40} is not a number") from None
                topics = values.setdefault(name, {}).setdefault(measure, {})
                if qid in topics:
                    raise InputFileError(path, lineno, f"system {name} has a second value of {measure} for topic {qid}")
                topics[qid] = value
    except (OSError, UnicodeDecodeError) as exc:
        raise InputFileError(path, None, f"cannot be read: {exc}") from None
    if not values:
        raise InputFileError(path, None, "the per-topic frame has no rows")
    return values


def read_table_csv(path):
    """pt.Experiment's table (with baseline=) saved as CSV, as a pandas frame (the names read as text)."""
    try:
        import pandas as pd  # deferred: pandas is an extra
    except ImportError:  # pragma: no cover - depends on the environment
        raise ImportError("reading pt.Experiment's table needs pandas: pip install irlab[pandas]") from None
    try:
        table = pd.read_csv(path, dtype={"name": str})
    except (OSError, ValueError, UnicodeDecodeError) as exc:
        raise InputFileError(str(path), None, f"cannot be read as pt.Experiment's table (CSV): {exc}") from None
    return table.drop(columns=[c for c in table.columns if str(c).startswith("Unnamed:")])


def _number(value, what) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) and not hasattr(value, "item"):
        raise InputTypeError(f"{what} is {value!r:.40}, not a number")
    return float(value)


def _aligned(values, system, baseline, measure):
    """(topics, system's values, baseline's values) in the baseline's topic order, as pt.Experiment pairs them."""
    base = values[baseline].get(measure)
    own = values[system].get(measure)
    if base is None or own is None:
        raise InputTypeError(f"the per-topic frame has no {measure} values for {baseline if base is None else system}")
    missing = [q for q in base if q not in own]
    if missing:
        raise InputTypeError(f"{system} has no {measure} value for topic {missing[0]} (the baseline {baseline} has "
                             f"{len(base)} topics); pt.Experiment pairs every baseline topic")
    topics = list(base)
    return topics, [own[q] for q in topics], [base[q] for q in topics]


# ---- the columns, reproduced ---------------------------------------------------------------------------------------

def _test_fn(test):
    import scipy.stats  # deferred: scipy is the t distribution's source, as in pt.Experiment

    if test == "t":
        return scipy.stats.ttest_rel
    if test == "wilcoxon":
        return scipy.stats.wilcoxon
    raise ParameterError(f"test {test!r}: pt.Experiment's tests are 't' (its default) and 'wilcoxon'")


def multipletests(pvalues, alpha=0.05, method="holm"):
    """(reject, corrected) as statsmodels' ``multipletests(pvalues, alpha, method)`` computes them, the same
    floating-point operations in the same order (so the same doubles); Holm's and Bonferroni's adjusted values are
    irlab's :func:`irlab.metrics.significance.adjust` when every p is a number."""
    import numpy as np

    method = correction_key(method)
    p = np.asarray(pvalues, dtype=float)
    m = len(p)
    order = np.argsort(p)
    s = p[order]
    steps = np.arange(m, 0, -1)
    if method == "bonferroni":
        reject, corrected = s <= alpha / float(m), s * float(m)
    elif method == "sidak":
        reject, corrected = s <= 1 - np.power(1.0 - alpha, 1.0 / m), -np.expm1(m * np.log1p(-s))
    elif method in ("holm", "holm-sidak"):
        bound = alpha / steps if method == "holm" else 1 - np.power(1.0 - alpha, 1.0 / steps)
        keep = s > bound
        first = np.flatnonzero(keep)
        keep[(first[0] if first.size else m):] = True
        reject = ~keep
        raw = s * steps if method == "holm" else -np.expm1(steps * np.log1p(-s))
        corrected = np.maximum.accumulate(raw)
    else:   # fdr_bh
        factor = np.arange(1, m + 1) / float(m)
        reject = s <= factor * alpha
        if reject.any():
            reject[:np.flatnonzero(reject).max()] = True
        corrected = np.minimum.accumulate((s / factor)[::-1])[::-1]
    corrected = np.where(corrected > 1, 1.0, corrected)
    out_reject, out_corrected = np.empty(m, dtype=bool), np.empty(m)
    out_reject[order], out_corrected[order] = reject, corrected
    if method in ("holm", "bonferroni") and np.isfinite(p).all():

        out_corrected = np.array([float(v) for v in adjust([float(v) for v in p], method)])
    return out_reject.tolist(), out_corrected.tolist()


def reproduce(values, names, baseline, measures, *, test="t", correction=None, alpha=0.05) -> dict:
    """{(system, column): value} of pt.Experiment's significance columns, from the per-topic ``values``
    ({system: {measure: {qid: value}}}); ``names`` in the table's row order, ``baseline`` one of them."""
    import numpy as np

    test_fn = _test_fn(test)
    key = correction_key(correction)
    cells = {}
    others = [n for n in names if n != baseline]
    for measure in measures:
        pvalues = []
        for name in others:
            _, own, base = _aligned(values, name, baseline, measure)
            a, b = np.array(own), np.array(base)
            cells[(name, f"{measure} +")] = int((a > b).sum())
            cells[(name, f"{measure} -")] = int((a < b).sum())
            with np.errstate(all="ignore"):
                p = float(test_fn(a, b)[1])
            cells[(name, f"{measure} p-value")] = p
            pvalues.append(p)
        if key is not None and others:
            reject, corrected = multipletests(pvalues, alpha, key)
            for name, r, c in zip(others, reject, corrected):
                cells[(name, f"{measure} reject")] = bool(r)
                cells[(name, f"{measure} p-value corrected")] = float(c)
    return cells


# ---- the table pt.Experiment returned ------------------------------------------------------------------------------

def _table_rows(table):
    """(names, {name: {column: value}}, measures) of pt.Experiment's frame with baseline= columns."""
    columns = [str(c) for c in getattr(table, "columns", ())]
    if "name" not in columns:
        raise InputTypeError("the experiment table is pt.Experiment(..., baseline=...)'s frame with a name column"
                             f"{'; it has ' + ', '.join(columns) if columns else ''}")
    rows = table.to_dict("records")
    names = [str(r["name"]) for r in rows]
    if len(set(names)) != len(names):
        raise InputTypeError("the experiment table names a system twice: give pt.Experiment distinct names=")
    measures = [c for c in columns if c not in ("name", "mrt") and not c.endswith(_SUFFIXES)]
    return names, {str(r["name"]): {str(k): v for k, v in r.items()} for r in rows}, measures


def _is_missing(value) -> bool:
    return value is None or isinstance(value, float) and math.isnan(value)


def _table_baseline(names, rows, measures):
    """The row pt.Experiment left without + / - / p-value: the baseline."""
    for measure in measures:
        if f"{measure} p-value" in next(iter(rows.values())):
            blank = [n for n in names if _is_missing(rows[n][f"{measure} p-value"])
                     and _is_missing(rows[n][f"{measure} +"])]
            if len(blank) == 1:
                return blank[0]
    return None


def _same(expected, got) -> str:
    """'equal' (the same double, or both NaN), 'equal to 1e-12' (the sums' order differs) or 'differs'."""
    if isinstance(got, bool) or isinstance(expected, (bool,)) or type(expected).__name__ == "bool_":
        return "equal" if bool(expected) == bool(got) else "differs"
    e, g = float(expected), float(got)
    if math.isnan(e) and math.isnan(g) or e == g:
        return "equal"
    if math.isfinite(e) and math.isfinite(g) and abs(e - g) <= 1e-12 * max(1.0, abs(e)):
        return "equal to 1e-12"
    return "differs"


def _cell_text(value) -> str:
    if isinstance(value, bool) or type(value).__name__ == "bool_":
        return str(bool(value))
    if isinstance(value, int) or isinstance(value, float) and value.is_integer() and abs(value) < 1e6:
        return str(int(value))
    if isinstance(value, float):
        return "NaN" if math.isnan(value) else repr(value)
    return str(value)


# ---- the explanation -------------------------------------------------------------------------------------------------

def _interval(differences, alpha):
    """(mean, low, high, d_z) of the differences: the (1 - α) t-interval of the mean difference (scipy's
    ttest_rel(...).confidence_interval), and Cohen's d_z = mean / s."""
    import scipy.stats

    n = len(differences)
    mean = math.fsum(differences) / n
    if n < 2:
        return mean, float("nan"), float("nan"), float("nan")
    s = math.sqrt(math.fsum((d - mean) ** 2 for d in differences) / (n - 1))
    q = float(scipy.stats.t.ppf(1 - float(alpha) / 2, n - 1))
    half = q * s / math.sqrt(n)
    return mean, mean - half, mean + half, (mean / s if s else float("nan"))


def _carriers(topics, differences, threshold):
    """The topics in order of |Δ| (largest first) with their share of Σ|Δ|; how many carry half of it."""
    total = math.fsum(abs(d) for d in differences)
    order = sorted(range(len(topics)), key=lambda i: (-abs(differences[i]), topics[i]))
    rows, running, half = [], 0.0, None
    for count, i in enumerate(order, 1):
        running += abs(differences[i])
        if half is None and total and running >= total / 2:
            half = count
        if abs(differences[i]) > threshold:
            rows.append((topics[i], differences[i], running / total if total else 0.0))
    return rows, half, total


def _comparison(values, system, baseline, measure, cells, table_row, *, test, correction, alpha, threshold, figures):
    """One system against the baseline on one measure: the reproduced cells, then the test as irlab compare
    explains it, the effect size with its interval, the topics that carry the difference and the chart."""

    topics, own, base = _aligned(values, system, baseline, measure)
    differences = [a - b for a, b in zip(own, base)]
    blocks = []
    rows, verdicts = [], []
    for suffix in _SUFFIXES:
        column = f"{measure}{suffix}"
        if (system, column) not in cells:
            continue
        mine = cells[(system, column)]
        if table_row is None:
            rows.append((column, _cell_text(mine)))
            continue
        if column not in table_row:
            rows.append((column, "—", _cell_text(mine), "not in the table"))
            continue
        verdict = _same(table_row[column], mine)
        verdicts.append(verdict)
        rows.append((column, _cell_text(table_row[column]), _cell_text(mine), verdict))
    caption = ("pt.Experiment's columns, recomputed from the per-topic values" if table_row is not None else
               "pt.Experiment's columns, computed from the per-topic values")
    header = ("column", "pt.Experiment", "irlab", "same?") if table_row is not None else ("column", "irlab")
    blocks.append(Table(header, tuple(rows), caption))
    if "differs" in verdicts:
        blocks.append(Note("warning", "a cell differs from pt.Experiment's: were the table and the per-topic values "
                                      "made by the same call (systems, topics, qrels, measures, test, correction)?"))
    p = cells[(system, f"{measure} p-value")]
    wins, losses = cells[(system, f"{measure} +")], cells[(system, f"{measure} -")]
    n = len(topics)
    blocks.append(Paragraph(
        f"{system} is above {baseline} on {wins} of {n} topics and below on {losses} ({n - wins - losses} equal): "
        f"the + and - columns. The p-value compares {measure}({system}) - {measure}({baseline}) over the {n} topics "
        f"with a {'paired t-test' if test == 't' else 'Wilcoxon signed-rank test'} (two-sided, as pt.Experiment "
        "calls scipy)."))
    if math.isnan(p):
        blocks.append(Note("reading", "p is NaN: every topic has the same difference (or there is one topic), so the "
                                      "t statistic divides by a zero spread and the test says nothing."))
    else:
        blocks.append(Note("reading", f"p = {p:.4g}: if {system} and {baseline} were equally good, differences at least "
                                      f"this far from 0 would turn up in {p:.2%} of samples of {n} topics. It is not the "
                                      f"probability that {system} is no better, nor 1 - the probability that it is, "
                                      "and it does not say how large the difference is."))
    if (system, f"{measure} reject") in cells:
        corrected = cells[(system, f"{measure} p-value corrected")]
        decided = cells[(system, f"{measure} reject")]
        key = correction_key(correction)
        blocks.append(Note("reading", f"Corrected for the {len(values) - 1} comparisons with the baseline "
                                      f"({key}: {CORRECTIONS[key][1]}; {CORRECTIONS[key][2]}): p = {corrected:.4g}, "
                                      f"{'reject' if decided else 'do not reject'} H0 at α = {alpha} (the reject column)."))
    mean, low, high, d_z = _interval(differences, alpha)
    level = f"{(1 - float(alpha)):.0%}"
    blocks.append(Table(("effect", "value"), (
        (f"mean difference Δ = mean({measure}({system}) - {measure}({baseline}))", f"{mean:.4f}"),
        (f"{level} t-interval of Δ (Δ ± t_(1-α/2, n-1) · s / √n)", f"[{low:.4f}, {high:.4f}]"),
        ("Cohen's d_z = Δ / s (the spread of the differences)", f"{d_z:.3f}")), "Effect size"))
    carried, half, total = _carriers(topics, differences, threshold)
    if total:
        blocks.append(Paragraph(f"{half} of {n} topics carry half of Σ|Δ| = {total:.4f}; the topics with |Δ| > "
                                f"{threshold}, largest first:"))
        blocks.append(Table(("topic", "Δ", "cumulative share of Σ|Δ|"),
                            tuple((t, f"{d:+.4f}", f"{share:.0%}") for t, d, share in carried),
                            f"Topics with |Δ| > {threshold}"))
    if figures and total:

        fig = difference_bars(dict(zip(topics, differences)), measure, (system, baseline), threshold=threshold)
        blocks.append(figure(fig, f"Per-topic Δ{measure} = {measure}({system}) - {measure}({baseline}), bars for |Δ| "
                                  f"> {threshold}"))
    tests = ["t"] if test == "t" else ["wilcoxon"]
    try:
        exact_values = {name: {t: Fraction(repr(v)) for t, v in zip(topics, column)}   # the shortest decimal
                        for name, column in ((system, own), (baseline, base))}          # that is the double
        explained = comparison_document(exact_values, measure, tests=tests, alpha=alpha)
    except ParameterError as error:   # the t-test with no spread: said, not raised
        blocks.append(Note("assumption", f"irlab compare cannot explain this test: {error}"))
    else:
        blocks.append(Section("The test step by step, as irlab compare explains it", explained.blocks))
    return Section(f"{system} against the baseline {baseline}: {measure}", tuple(blocks),
                   {"system": system, "baseline": baseline, "measure": measure,
                    "cells": {column: cells[(system, column)] for column in
                              (f"{measure}{s}" for s in _SUFFIXES) if (system, column) in cells},
                    "same": verdicts, "mean_difference": mean, "interval": [low, high], "d_z": d_z})


def explain_experiment(table=None, perquery=None, *, baseline=None, correction=None, alpha=0.05, test="t",
                       measures=None, threshold=DEFAULT_THRESHOLD, figures=False) -> Document:
    """pt.Experiment's significance columns reproduced from its per-topic values, and every test explained.

    ``table``: the frame of ``pt.Experiment(..., baseline=b, correction=c)`` (None: the columns are computed, not
    checked); ``perquery``: the frame of the same call with ``perquery=True`` instead (``name, qid, measure,
    value``). ``baseline``: the baseline's name or row index (default: the table's row without p-values);
    ``correction``, ``alpha`` (pt.Experiment's ``correction_alpha``), ``test``: as given to pt.Experiment.
    ``threshold``: the |Δ| above which a topic is listed and drawn; ``figures``: add the per-topic Δ chart."""
    if perquery is None:
        raise InputTypeError("explain_experiment needs the per-topic values: pt.Experiment(..., perquery=True)")
    values = read_perquery(perquery)
    if test not in ("t", "wilcoxon"):
        raise ParameterError(f"test {test!r}: pt.Experiment's tests are 't' (its default) and 'wilcoxon'")
    if isinstance(alpha, bool) or not isinstance(alpha, (int, float)) or not 0 < alpha < 1:
        raise ParameterError(f"alpha (pt.Experiment's correction_alpha) is a number in (0, 1), got {alpha!r}")
    if isinstance(threshold, bool) or not isinstance(threshold, (int, float)) or threshold < 0:
        raise ParameterError(f"threshold is a |Δ| >= 0, got {threshold!r}")
    rows = None
    if table is not None:
        names, rows, table_measures = _table_rows(table)
        if correction is None and any(f"{m} p-value corrected" in rows[names[0]] for m in table_measures):
            raise ParameterError("the table has 'p-value corrected' columns: give the correction pt.Experiment was "
                                 "given, e.g. correction='holm'")
        found = _table_baseline(names, rows, table_measures)
        measures = measures or table_measures
    else:
        names, found = list(values), None
        if measures is None:
            measures = list(next(iter(values.values())))
    unknown = [n for n in names if n not in values]
    if unknown:
        raise InputTypeError(f"system {unknown[0]} of the table has no per-topic values (the frame names "
                             f"{', '.join(values)})")
    if baseline is None:
        if found is None:
            raise ParameterError("give baseline= (the index or name pt.Experiment was given)")
        baseline = found
    elif isinstance(baseline, int) and not isinstance(baseline, bool):
        if not 0 <= baseline < len(names):
            raise ParameterError(f"baseline {baseline} is not a row of the {len(names)} systems")
        baseline = names[baseline]
    baseline = str(baseline)
    if baseline not in names:
        raise ParameterError(f"baseline {baseline!r} is not one of the systems {', '.join(names)}")
    if found is not None and found != baseline:
        raise ParameterError(f"the table's baseline is {found} (its row has no p-values), not {baseline}")
    measures = [str(m) for m in measures]
    cells = reproduce(values, names, baseline, measures, test=test, correction=correction, alpha=alpha)
    sections = [_comparison(values, name, baseline, measure, cells, rows[name] if rows else None, test=test,
                            correction=correction, alpha=alpha, threshold=threshold, figures=figures)
                for measure in measures for name in names if name != baseline]
    verdicts = [v for s in sections for v in s.meta["same"]]
    summary = []
    for section in sections:
        meta = section.meta
        summary.append((meta["measure"], meta["system"], *(_cell_text(meta["cells"].get(f"{meta['measure']}{s}", ""))
                                                            for s in _SUFFIXES)))
    intro = (f"{len(names)} systems, baseline {baseline}, {len(measures)} measure{'s' * (len(measures) != 1)}, "
             f"{'paired t-test' if test == 't' else 'Wilcoxon signed-rank test'}"
             + (f", {correction_key(correction)} correction at α = {alpha}" if correction else "") + ".")
    if rows is not None:
        same = sum(v != "differs" for v in verdicts)
        intro += (f" {same} of {len(verdicts)} cells of pt.Experiment's table recomputed from the unrounded per-topic "
                  "values are the same" + (" (a few p-values to 1e-12: the sums run in another order)."
                                           if "equal to 1e-12" in verdicts else "."))
    zero = conv.MISSING_TOPICS.choice("zero")
    blocks = [Paragraph(intro),
              Table(("measure", "system", "+", "-", "p-value", "reject", "p-value corrected"), tuple(summary),
                    "The significance columns"),
              Note("convention", f"per-topic values as pt.Experiment computes them with ir_measures: "
                                 f"{conv.MISSING_TOPICS.name} = zero, {zero.summary} ({zero.reference})"),
              *sections]
    return Document("A PyTerrier experiment, explained", blocks,
                    {"baseline": baseline, "measures": measures, "test": test,
                     "correction": correction_key(correction), "alpha": alpha,
                     "cells": {f"{name}|{column}": value for (name, column), value in cells.items()},
                     "same": all(v != "differs" for v in verdicts) if rows is not None else None})
