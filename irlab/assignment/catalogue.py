"""The settings an evaluator's numbers depend on, and the catalogue of classic bugs as data.

A *setting* is one choice an evaluator makes (AP's denominator, the gain, the tie order, what the mean does with a
topic the run lacks, how the printed number is rounded). Where irlab already names the choice as a convention
(:mod:`irlab.conventions`), the setting has that name and those choice keys; the rest are named here. An assignment
fixes every setting (its defaults are below); a :class:`Bug` is a set of overrides — "compute as the assignment says,
except ``gain = exp``" — restricted to the measures it touches. The checker recomputes a cell under a bug with
irlab's own metrics and names the bug only when that value is the student's (:mod:`irlab.assignment.check`).

A teacher adds bugs in the assignment file (``[[bug]]`` tables with the same fields), so a course's own folklore
("divides nDCG by the ideal over the whole list") is named like the classics.
"""

from __future__ import annotations

from dataclasses import dataclass

from .. import conventions as conv
from ..errors import ParameterError

# metrics a column may compute (irlab metric names), and the settings each one reads
METRIC_SETTINGS = {
    "precision": ("ties", "precision_denominator", "k_shift"),
    "recall": ("ties", "judgments_seen", "recall_denominator", "k_shift"),
    "rprec": ("ties", "judgments_seen"),
    "ap": ("ties", "judgments_seen", "ap_denominator"),
    "ndcg": ("ties", "judgments_seen", "gain", "discount", "ideal_cutoff", "k_shift"),
    "rr": ("ties",),
}
METRICS_WITH_K = ("precision", "recall", "ndcg")
METRIC_RANGE = {metric: (0, 1) for metric in METRIC_SETTINGS}  # every value a metric can take lies in [low, high]
MEAN = "mean"  # a bug's ``measures`` entry for the mean rows only (every metric's mean)

# every setting: its choices (first = the default when an assignment does not say) and what it decides
SETTINGS = {
    "ties": (("docno-descending", "input-order", "docno-ascending"),
             "documents with equal scores: by docno descending (trec_eval), in the run file's order, or by docno "
             "ascending"),
    "judgments_seen": (tuple(c.key for c in conv.JUDGMENTS_SEEN.choices),
                       "R and the ideal ranking: from every judged document (qrels) or from the retrieved list only"),
    "ap_denominator": (tuple(c.key for c in conv.AP_DENOMINATOR.choices), conv.AP_DENOMINATOR.question),
    "precision_denominator": (tuple(c.key for c in conv.PRECISION_DENOMINATOR.choices),
                              conv.PRECISION_DENOMINATOR.question),
    "recall_denominator": (tuple(c.key for c in conv.RECALL_DENOMINATOR.choices) + ("retrieved", "k"),
                           conv.RECALL_DENOMINATOR.question + " (retrieved: the documents retrieved up to k; k: the "
                           "cut-off itself)"),
    "gain": (("linear", "exp"), conv.GAIN.question),
    "discount": (tuple(c.key for c in conv.DISCOUNT.choices), conv.DISCOUNT.question),
    "ideal_cutoff": (("k", "none"), "nDCG@k's ideal DCG: cut at k, or over the whole ideal ranking"),
    "k_shift": ((0, -1, 1), "the cut-off as declared (0), or one rank too early (-1) or too late (+1)"),
    "missing_topics": (("zero", "dropped"), "a judged topic the run lacks: scores 0 and counts in the mean (zero), or "
                       "has no row and leaves the mean (dropped)"),
    "rounding": (("half-up", "truncate", "fewer-decimals"),
                 "the printed number: rounded half up, its extra digits cut off, or rounded to fewer decimals than "
                 "declared (round(x, 2) or %.2f where 3 are asked; any 1 <= d < decimals)"),
    "mean": (("of-values", "of-rounded"), "the mean row: the mean of the exact values, or of the rounded ones"),
}
DEFAULTS = {name: choices[0] for name, (choices, _) in SETTINGS.items()}


@dataclass(frozen=True)
class Bug:
    name: str
    title: str  # one line, for the catalogue and a finding's heading
    computes: str  # what the buggy evaluator computes
    reference: str  # what the textbook or tool does instead, with its source
    measures: tuple[str, ...]  # metric names (METRIC_SETTINGS) it touches, or MEAN
    overrides: tuple[tuple[str, object], ...]  # (setting, choice) pairs

    @property
    def settings(self) -> dict:
        return dict(self.overrides)

    def touches(self, metric: str, is_mean: bool) -> bool:
        return metric in self.measures or (is_mean and MEAN in self.measures)

    def compatible(self, other: "Bug") -> bool:
        """Two bugs can be combined when they change different settings."""
        return not (set(self.settings) & set(other.settings))


ALL_METRICS = tuple(METRIC_SETTINGS)

BUGS: tuple[Bug, ...] = (
    Bug("ap-over-relevant-retrieved", "AP divided by the relevant documents retrieved",
        "the sum of precisions at the relevant ranks divided by the relevant documents retrieved",
        "AP divides by all R relevant documents of the query (IIR 8.4; trec_eval map)",
        ("ap",), (("ap_denominator", "retrieved"),)),
    Bug("exponential-gain", "exponential gain 2^g - 1",
        "nDCG with the gain 2^g - 1 of grade g", "the assignment's gain is the grade itself (Järvelin & Kekäläinen "
        "2002; trec_eval ndcg)", ("ndcg",), (("gain", "exp"),)),
    Bug("linear-gain", "linear gain g", "nDCG with the grade itself as the gain",
        "the assignment's gain is 2^g - 1 (Burges et al. 2005)", ("ndcg",), (("gain", "linear"),)),
    Bug("discount-log2-rank-plus-1", "discount log2(i + 1)", "DCG dividing the gain at every rank i by log2(i + 1)",
        "the assignment's DCG = rel_1 + Σ_{i>=2} rel_i / log2 i (Järvelin & Kekäläinen 2002)", ("ndcg",),
        (("discount", "log2-rank-plus-1"),)),
    Bug("discount-log2-rank", "discount log2(i), rank 1 undiscounted", "DCG = rel_1 + Σ_{i>=2} rel_i / log2 i",
        "the assignment divides by log2(i + 1) at every rank (Burges et al. 2005; trec_eval ndcg)", ("ndcg",),
        (("discount", "log2-rank"),)),
    Bug("ideal-from-run", "ideal DCG from the run instead of the judgments",
        "IDCG from the retrieved documents only, sorted by grade",
        "the ideal ranking sorts every judged document, retrieved or not (IIR 8.4; trec_eval ndcg)", ("ndcg",),
        (("judgments_seen", "list"),)),
    Bug("ideal-not-cut-at-k", "ideal DCG over the whole ideal ranking, not its top k",
        "nDCG@k = DCG@k / IDCG of the whole ideal ranking", "IDCG@k stops at rank k like DCG@k (trec_eval ndcg_cut)",
        ("ndcg",), (("ideal_cutoff", "none"),)),
    Bug("r-from-run", "R counted in the run, not in the judgments",
        "R = the relevant documents the run retrieved", "R counts every relevant judged document (IIR 8.3-8.4)",
        ("recall", "rprec", "ap"), (("judgments_seen", "list"),)),
    Bug("recall-over-retrieved", "recall divided by the documents retrieved",
        "Rec@k = hits@k / the documents retrieved up to k", "recall divides by R (IIR 8.3; trec_eval recall_k)",
        ("recall",), (("recall_denominator", "retrieved"),)),
    Bug("recall-over-k", "recall divided by the cut-off k", "Rec@k = hits@k / k (which is P@k)",
        "recall divides by R (IIR 8.3; trec_eval recall_k)", ("recall",), (("recall_denominator", "k"),)),
    Bug("precision-over-retrieved", "P@k divided by the documents retrieved when fewer than k",
        "P@k = hits@k / min(k, documents retrieved)",
        "P@k divides by k, missing ranks counting as non-relevant (IIR 8.4; trec_eval P_k)", ("precision",),
        (("precision_denominator", "retrieved"),)),
    Bug("cutoff-one-early", "cut-off one rank early", "the measure at rank k - 1 (a 0-based index used as a count)",
        "the assignment cuts at the declared rank k{k}", METRICS_WITH_K, (("k_shift", -1),)),
    Bug("cutoff-one-late", "cut-off one rank late", "the measure at rank k + 1 (an inclusive slice [0:k+1])",
        "the assignment cuts at the declared rank k{k}", METRICS_WITH_K, (("k_shift", 1),)),
    Bug("ties-in-file-order", "equal scores kept in the run file's order", "ties ranked in the order of the run's lines",
        "the assignment orders equal scores {ties}", ALL_METRICS, (("ties", "input-order"),)),
    Bug("ties-docno-ascending", "equal scores by docno ascending", "ties ranked by document id, smallest first",
        "the assignment orders equal scores {ties}", ALL_METRICS, (("ties", "docno-ascending"),)),
    Bug("ties-docno-descending", "equal scores by docno descending", "ties ranked by document id, largest first "
        "(trec_eval's order)", "the assignment orders equal scores {ties}", ALL_METRICS, (("ties", "docno-descending"),)),
    Bug("missing-topic-dropped", "a topic the run lacks left out of the mean",
        "no row for the topic and a mean over the topics the run has",
        "the topic scores 0 and the mean divides by every judged topic (trec_eval -c)", ALL_METRICS + (MEAN,),
        (("missing_topics", "dropped"),)),
    Bug("truncated", "digits cut off instead of rounded", "the value truncated to the printed decimals (0.4127 -> 0.412)",
        "round half up (0.4127 -> 0.413)", ALL_METRICS + (MEAN,), (("rounding", "truncate"),)),
    Bug("rounded-to-fewer-decimals", "rounded to fewer decimals than asked",
        "the value rounded to fewer decimals than the assignment's (round(x, 2), or '%.2f' where 3 are asked)",
        "print every number with the assignment's {decimals} decimals, rounded once", ALL_METRICS + (MEAN,),
        (("rounding", "fewer-decimals"),)),
    Bug("mean-of-rounded", "the mean of rounded values", "the mean row averaging the per-topic values as printed",
        "the mean of the exact per-topic values, rounded once", (MEAN,), (("mean", "of-rounded"),)),
)


# how a reference names the assignment's own choice, where the catalogue's text says {setting}
_CHOICE_TEXT = {"ties": {"docno-descending": "by docno descending (trec_eval's order)",
                         "input-order": "in the run file's order", "docno-ascending": "by docno ascending"}}


def reference_text(bug: Bug, measures=(), decimals: int | None = None) -> str:
    """The bug's reference with the assignment's actual settings in place of {ties}, {k} and {decimals} (without an
    assignment, as the catalogue lists it: "as declared")."""
    orders = dict.fromkeys(_CHOICE_TEXT["ties"].get(m.settings["ties"], m.settings["ties"]) for m in measures)
    cuts = dict.fromkeys(f"{m.column} counts the top {m.k}" for m in measures if m.k)
    return (bug.reference.replace("{ties}", " or ".join(orders) or "as declared")
            .replace("{k}", ": " + ", ".join(cuts) if cuts else "")
            .replace("{decimals}", "declared" if decimals is None else str(decimals)))


def expanded(bugs, decimals: int) -> tuple:
    """The bugs as the checker tries them: a bug that rounds to fewer decimals is one bug per number of decimals d
    (1 <= d < decimals, most first), each its own rounding = d, since a student's code rounds to one d everywhere."""
    out = []
    for bug in bugs:
        if bug.settings.get("rounding") != "fewer-decimals":
            out.append(bug)
            continue
        for d in range(decimals - 1, 0, -1):
            overrides = tuple((k, d if k == "rounding" else v) for k, v in bug.overrides)
            places = f"{d} decimal{'s' if d > 1 else ''}"
            out.append(Bug(bug.name, f"rounded to {places} instead of {decimals}",
                           bug.computes.replace("fewer decimals than the assignment's", places),
                           bug.reference, bug.measures, overrides))
    return tuple(out)


def check_setting(name: str, choice, where: str):
    """``choice`` as the setting ``name`` takes it; a ParameterError naming ``where`` otherwise."""
    if name not in SETTINGS:
        raise ParameterError(f"{where}: unknown setting {name!r}; the settings are {', '.join(SETTINGS)}")
    choices = SETTINGS[name][0]
    if isinstance(choice, str):
        choice = choice.strip().lower().replace("_", "-")
    if choice not in choices or isinstance(choice, bool):
        raise ParameterError(f"{where}: {name} is one of {', '.join(str(c) for c in choices)}, got {choice!r:.40}")
    return choice


def catalogue_text(bugs=BUGS) -> str:
    """The catalogue, one entry per bug: name, what it computes, the reference, the measures it touches."""
    lines = ["Bugs irlab check-eval recognises (a bug is named only when recomputing the cell under it gives the "
             "student's value):", ""]
    for bug in bugs:
        overrides = ", ".join(f"{k} = {v}" for k, v in bug.overrides)
        lines += [f"{bug.name}: {bug.title}", f"  computes:  {bug.computes}", f"  reference: {reference_text(bug)}",
                  f"  measures:  {', '.join(bug.measures)}   (setting {overrides})", ""]
    return "\n".join(lines)
