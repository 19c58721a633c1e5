"""Metrics as user models in the C/W/L framework (Moffat, Bailey, Scholer & Thomas 2017): INST, INSQ, SDCG, and the
C/W/L view of P@k, RR and RBP.

A user reads the ranking top down; after rank i she reads on with probability C(i) (the continuation). She reaches
rank i with probability P(i) = Π_{j<i} C(j); the weight of rank i is the share of her attention it gets,
W(i) = P(i) / Σ_k P(k), and the metric is the expected rate of gain per document read, ERG = Σ_i W(i) · r_i.
Rank i is the last one she reads with probability L(i) = P(i) · (1 - C(i)); the expected total gain is
ETG = Σ_i L(i) · Σ_{j<=i} r_j and the expected depth (documents read) ED = Σ_i P(i) = 1 / W(1) (Moffat, Bailey,
Scholer & Thomas 2017, TOIS 35(3); Azzopardi, Thomas & Moffat 2019, SIGIR demo).

* INSQ (Moffat, Scholer & Thomas 2012): C(i) = ((i + 2T - 1) / (i + 2T))², T the gain the user wants.
* INST (Moffat, Bailey, Scholer & Thomas 2015): C(i) = ((i + T + T_i - 1) / (i + T + T_i))² with
  T_i = T - Σ_{j<=i} r_j the gain still wanted after rank i: the user stops sooner once she has found gain.
* P@k: C(i) = 1 for i < k, 0 at k (W(i) = 1/k on ranks 1..k); RR: C(i) = 1 until the first rank with gain, 0
  there; RBP: C(i) = p; SDCG@k (scaled DCG): C(i) = log2(i+1) / log2(i+2) for i < k, 0 at k, so that
  W(i) ∝ 1/log2(i+1) on ranks 1..k (Moffat et al. 2017; cwl-eval's PrecisionCWLMetric, RRCWLMetric,
  RBPCWLMetric and NDCGCWLMetric, which its README calls SDCG-k@k).

The list is read as cwl-eval 1.0.12 reads it (ruler/ranking.py, ruler/measures/cwl_metrics.py): the gains are
padded with 0 (or cut) to ``max_depth`` ranks (cwl-eval's --max_depth, default 1000), the ranks beyond the list
and the unjudged documents have gain 0 (its lower bound, "worse case"), W is normalised over those n ranks only
(Σ_{k=1..n} W(k) = 1) and L is not normalised (Σ L(i) = 1 - P(n+1)). Gains lie in [0, 1]: r_i = 1 or 0 for R/N,
and g_i / g_max for grades (as irlab's rbp; cwl-eval takes the qrels' values as the gains and accepts at most 1 by
default). Every C(i) but SDCG's is rational, so the computation is exact in Fractions; SDCG's are quotients of
logarithms, kept exact in sympy as irlab's DCG keeps them.

>>> from irlab import Ranking
>>> insq(Ranking.parse("RN"), target=1, max_depth=2).value
Fraction(9, 13)
>>> model = user_model(Ranking.parse("RNR"), "precision", k=3)
>>> model.value, [step.value for step in model.steps if step.symbol in ("ED", "ETG")]
(Fraction(2, 3), [3, 2])
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Callable

from .. import exact
from ..document import Formula, Note, Section, Table
from ..errors import InputTypeError, LimitError, ParameterError
from ..limits import (MAX_LOG_TERMS, MAX_RANKS, check_at_most, check_exact_digits, check_exact_work, digits)
from ..metric import Result, check_cutoff, check_fraction
from ..ranking import Ranking, as_ranking
from ..trace import Traced, log2, total
from .rbp import check_persistence_digits, rank_biased_precision
from .reciprocal_rank import reciprocal_rank
from .set_based import precision

DEFAULT_TARGET = 1  # cwl-eval's INSTCWLMetric(T=1.0) and INSQCWLMetric(T=1.0)
DEFAULT_DEPTH = 1000  # cwl-eval's max_n (--max_depth): the ranks every C/W/L metric is computed over
DEFAULT_PERSISTENCE = Fraction(9, 10)  # irlab's rbp default (trec_eval 10.0's); cwl-eval's RBPCWLMetric(theta=0.9)
SECTION_TITLE = "As a user model (C/W/L)"


def _depth(max_depth) -> int:
    if max_depth is None:
        return DEFAULT_DEPTH
    if isinstance(max_depth, Fraction) and max_depth.denominator == 1:
        max_depth = int(max_depth)
    if isinstance(max_depth, str) and max_depth.strip().isdigit():
        max_depth = int(max_depth.strip())
    if isinstance(max_depth, bool) or not isinstance(max_depth, int):
        raise (ParameterError if isinstance(max_depth, (str, float, Fraction)) else InputTypeError)(
            f"max depth n must be a positive integer (cwl-eval --max_depth, default {DEFAULT_DEPTH}), got {max_depth!r:.40}")
    if max_depth < 1:
        raise ParameterError(f"max depth n must be a positive integer (cwl-eval --max_depth), got {max_depth}")
    return check_at_most(max_depth, MAX_RANKS, "max depth n")


def _scale(ranking) -> tuple[bool, int]:
    """(graded, g_max): graded when the judgments have grades above 1; the gains are then g_i / g_max."""
    pool = ranking.grades + tuple(ranking.unretrieved)
    graded = not ranking.binary and max(pool) > 1
    return graded, (max(pool) if graded else 1)


def _gains(ranking, depth):
    """r_1..r_n in [0, 1]: the list's gains, cut or padded with 0 to n ranks, and the notes saying how."""
    graded, top = _scale(ranking)
    notes = []
    if graded:
        notes.append(Note("convention", f"graded judgments: r_i = g_i / g_max with g_max = {top}, the highest judged "
                                        "grade (gains in [0, 1], as cwl-eval expects them)"))
    gains = [Fraction(grade, top) if graded else (1 if ranking.is_relevant(grade) else 0)
             for grade in ranking.grades[:depth]]
    if ranking.unjudged:
        notes.append(Note("convention", "unjudged documents have gain 0 (cwl-eval's lower bound, its \"worse case\")"))
    return gains + [0] * (depth - len(gains)), notes


def _depth_notes(ranking, depth, reached):
    """How the list was cut or padded to n ranks, and which ranks the user never reaches."""
    notes = []
    if ranking.retrieved > depth:
        notes.append(Note("convention", f"only the first n = {depth} of the {ranking.retrieved} ranks count "
                                        "(cwl-eval cuts the list at --max_depth)"))
    elif ranking.retrieved < reached:
        notes.append(Note("convention", f"the list is read to depth n = {depth} as cwl-eval reads it (--max_depth, "
                                        f"default {DEFAULT_DEPTH}): ranks {ranking.retrieved + 1}..{depth} have gain 0 "
                                        "and share in W's normalisation Σ_{k<=n} Π_{j<k} C(j)"))
    return notes


# one user model: its continuation and what it says about the metric ---------------------------------------------

@dataclass
class _Model:
    metric: str  # the metric this is the user model of ("precision", "inst", …)
    title: str
    symbol: str  # the name of the expected rate of gain in this explanation (INST, SDCG@5, ERG)
    label: str
    formula: Formula
    continuation: Callable  # (rank, r_i, Σ_{j<=i} r_j) -> (C(i), extra cells of the row)
    parameters: dict
    support: list = field(default_factory=list)  # the parameters as steps (k, p, T)
    extra_columns: tuple = ()
    reach: Callable | None = None  # P(i) = Π_{j<i} C(j) in closed form (SDCG's telescoping product of logarithms)
    notes: list = field(default_factory=list)
    residual: bool = False  # show cwl-eval's ResEU: the gain the unknown ranks could add (C does not depend on gains)
    quotient: Callable | None = None  # (rows, ED) -> the ERG written as a quotient (SDCG@k = DCG@k / ED)
    # (ERG, gains) -> (ERG's label, notes): the label names the textbook metric only when ERG equals it here
    relate: Callable | None = None
    closed_depth: Callable | None = None  # n -> ED in closed form (RBP: (1 - p^n) / (1 - p))
    closed_past: Callable | None = None  # n -> Π_{j<=n} C(j) in closed form (RBP: p^n)
    costly: str = ""  # what else makes its exact values shorter, for a LimitError (", or a smaller target T")


@dataclass
class _Walk:
    """The exact per-rank values of a user model over ranks 1..n (P has n + 1 entries: P(n+1) = Π_{j<=n} C(j))."""

    gains: list
    continuation: list
    extras: list
    reach: list

    def reached(self) -> int:
        """The last rank the user can reach (P(i) > 0): rows past it are all zero."""
        last = len(self.gains)
        while last > 1 and exact.is_zero(self.reach[last - 1]):
            last -= 1
        return last


def _walk(model, gains) -> _Walk:
    found, continuation, extras, reach = Fraction(0), [], [], [1]
    cost = _Cost(model, len(gains))
    for rank, gain in enumerate(gains, 1):
        found += gain
        c, shown = model.continuation(rank, gain, found)
        continuation.append(c)
        extras.append(shown)
        reach.append(model.reach(rank + 1) if model.reach else exact.mul(reach[-1], c))
        cost.check(rank, reach[-1])
    return _Walk(gains, continuation, extras, reach)


class _Cost:
    """The size of the exact values a walk builds, checked rank by rank so that a walk too costly stops as soon as
    it is known to be: ED = Σ Π_{j<i} C(j) has a denominator dividing the lcm of every Π_{j<i} C(j)'s, and each
    W(i) and L(i) of the table is about that size (INSQ at T = 99,999 over 1,000 ranks: about 10,000 digits)."""

    def __init__(self, model, depth):
        self.model, self.depth, self.common = model, depth, 1

    def check(self, rank, reach) -> None:
        if exact.is_symbolic(reach):  # SDCG: bounded by its logarithms (MAX_LOG_TERMS)
            return
        denominator = exact.rational(reach).denominator if isinstance(reach, Fraction) else 1
        if self.common % denominator:
            self.common = denominator if denominator % self.common == 0 else math.lcm(self.common, denominator)
        size = digits(self.common)
        what = f"{self.model.title} over n = {self.depth:,} ranks"
        advice = "read fewer ranks (--max-depth, max_depth)" + self.model.costly
        check_exact_digits(size, what, advice)
        check_exact_work(rank, size, what, advice)


def _explain(model, ranking, depth) -> Result:
    gains, gain_notes = _gains(ranking, depth)
    walk = _walk(model, gains)
    reached = walk.reached()
    n = Traced(depth, "n", "Depth: ranks read (cwl-eval --max_depth)")
    expected = exact.total(walk.reach[:depth])
    column = f"the Σ of the column Π_{{j<i}} C(j) over the n = {depth} ranks"
    ed = (model.closed_depth(n) if model.closed_depth else Traced(expected)).named(
        "ED", "Expected depth: the expected number of documents read, Σ_{i=1..n} Π_{j<i} C(j) (cwl-eval ED = 1 / W(1))",
        note=f"equal to {column}" if model.closed_depth else column)
    # ED too long to read (INST over 1,000 ranks: 867-digit fractions): ERG is shown as the quotient G / ED
    long = _abbreviated(expected)
    w1 = (1 / ed).named("W(1)", "Weight of rank 1")
    rows, terms, last_terms, cumulative = [], [], [], Fraction(0)
    for rank in range(1, reached + 1):
        gain, p = gains[rank - 1], walk.reach[rank - 1]
        w, last = exact.div(p, expected), exact.sub(p, walk.reach[rank])
        cumulative += gain
        last_terms.append(_times(last, cumulative))
        judgment = ranking.symbol(rank) if rank <= ranking.retrieved else "—"
        rows.append([rank, judgment, gain, *walk.extras[rank - 1], walk.continuation[rank - 1], p, w, last,
                     _times(w, gain), cumulative, last_terms[-1]])
        if gain:
            weight = w1 if rank == 1 else Traced(w, f"W({rank})")
            terms.append(weight if gain == 1 else weight * Traced(gain))
    if model.quotient:
        erg, product, ratio = model.quotient(gains[:reached], ed, n)
    elif long:
        product = _weighted_gain(walk, gains, reached)
        erg, ratio = product / ed, (product, ed)
    else:
        erg, product, ratio = total(terms), None, ()
    label, related = model.relate(erg.value, gains) if model.relate else (model.label, [])
    erg.named(model.symbol, label)
    notes = model.notes + gain_notes + related + _depth_notes(ranking, depth, reached)
    etg_value = exact.total(last_terms)
    leftover, gained = walk.reach[depth], sum(gains, Fraction(0))
    past = model.closed_past(n) if model.closed_past else Traced(leftover)
    etg = _total_gain(erg, ed, past, gained, product if long else None)
    blank = ("",) * len(model.extra_columns)
    rows.append(["Σ", "", "", *blank, "", expected, 1, exact.sub(1, leftover), erg.value, "", etg_value])
    columns = ("rank i", "judgment", "r_i", *model.extra_columns, "C(i)", "Π_{j<i} C(j)", "W(i)", "L(i)",
               "W(i) · r_i", "Σ_{j<=i} r_j", "L(i) · Σ_{j<=i} r_j")
    shown = f"ranks 1..{depth}" if reached == depth else (f"ranks 1..{reached} (ranks {reached + 1}..{depth} are never "
                                                          "reached: Π_{j<i} C(j), W(i) and L(i) are 0 there)")
    table = Table(columns, tuple(tuple(row) for row in rows),
                  f"C(i), W(i) = Π_{{j<i}} C(j) / ED and L(i) = Π_{{j<i}} C(j) · (1 - C(i)) over {shown}")
    notes += [Note("convention", "W(i) = Π_{j<i} C(j) / Σ_{k=1..n} Π_{j<k} C(j): the weights are normalised over the "
                                 "n ranks read, so they sum to 1 (cwl-eval 1.0.12 CWLMetric.w_vector)"),
              Note("convention", "L(i) = Π_{j<i} C(j) · (1 - C(i)), the probability that rank i is the last one read, "
                                 "as cwl-eval's CWLMetric.l_vector, not normalised: Σ_i L(i) = 1 - Π_{j<=n} C(j), "
                                 "short of 1 by the chance of reading past rank n")]
    support = [*model.support, n, ed, *([] if long else [w1]), erg]  # a long W(1) is in the table as a decimal
    support += model_steps(model, ranking, walk, expected)
    support.append(etg)
    return Result(model.metric, model.title, erg, ranking=ranking, notes=notes, tables=[table], formula=model.formula,
                  parameters={**model.parameters, "max_depth": depth}, support=support,
                  ratio=ratio if _abbreviated(erg.value) else ())


def _abbreviated(value) -> bool:
    """True when the exact value is written shortened: a fraction with more than exact.SHOWN_DIGITS digits above or
    below (INST over 1,000 ranks), or a sum of too many logarithms (SDCG@300)."""
    if exact.is_symbolic(value):
        return "not written out" in exact.exact_text(value)
    value = exact.rational(value)
    return isinstance(value, Fraction) and max(abs(value.numerator), value.denominator) >= 10**exact.SHOWN_DIGITS


def _weighted_gain(walk, gains, reached) -> Traced:
    """G = Σ_i Π_{j<i} C(j) · r_i, so that ERG = G / ED: the gains weighted by the chance of reaching them, a sum
    over the ranks with gain only, short where ED (a sum over all n ranks) is not."""
    terms = [Traced(walk.reach[rank - 1]) if gain == 1 else Traced(walk.reach[rank - 1]) * Traced(gain)
             for rank, gain in enumerate(gains[:reached], 1) if gain]
    return total(terms, "G", "Gain weighted by the chance of reaching it: Σ_i Π_{j<i} C(j) · r_i over the ranks with "
                             "gain (= ERG · ED)")


def _times(value, gain):
    """value · gain for a gain in [0, 1]; a gain of 0 or 1 asks sympy nothing (W(i) of SDCG over a thousand ranks
    holds a sum of a thousand logarithms, whose sign sympy would check again at every product)."""
    if gain == 0:
        return 0
    return value if gain == 1 else exact.mul(value, gain)


def _total_gain(erg, ed, past, gained, product=None) -> Traced:
    """ETG from the rate and the depth: ERG · ED, less the gain of a user who reads past rank n (whom cwl-eval's L
    leaves out), ETG = ERG · ED - P(n+1) · Σ_i r_i with P(n+1) = Π_{j<=n} C(j); the table's last column sums to the
    same value.
    ``product`` is ERG · ED computed directly (G, DCG@k), used where ERG and ED are too long to write."""
    label = "Expected total gain Σ_i L(i) · Σ_{j<=i} r_j (cwl-eval ETU)"
    note = "equal to the Σ of the column L(i) · Σ_{j<=i} r_j"
    rate_times_depth = product if product is not None else erg * ed
    if exact.is_zero(past.value) or not gained:
        whole = erg * ed if product is None else total([product])  # ETG = G: a step of its own, not G renamed
        return whole.named("ETG", label, note=f"{note}; cwl-eval's README: ETU = EU · ED")
    # P(n+1), not Π_{j<=n} C(j), as the symbol: LaTeX sets it as a name (Markdown, HTML and PDF showed its braces)
    past.named("P(n+1)", "Probability of reading past rank n, P(n+1) = Π_{j<=n} C(j) (no last rank within n)")
    found = Traced(gained, "Σ r_i", "Gain in the n ranks")
    return (rate_times_depth - past * found).named("ETG", label, note=f"{note}, which leaves out the user who reads "
                                                                      "past rank n: short of EU · ED")


def model_steps(model, ranking, walk, expected) -> list:
    """The residual of the models whose C does not depend on the gains (RBP)."""
    steps = []
    if model.residual:
        unknown = [rank for rank in range(1, len(walk.gains) + 1) if rank > ranking.retrieved or rank in ranking.unjudged]
        value = exact.div(exact.total(walk.reach[rank - 1] for rank in unknown), expected) if unknown else 0
        steps.append(Traced(value, "ResERG", "Residual: what ERG would gain if every unjudged document and every rank "
                            "beyond the list had gain 1, Σ W(i) over those ranks (cwl-eval -r ResEU)",
                            note=f"{len(unknown)} such rank{'' if len(unknown) == 1 else 's'} within n"))
    return steps


# the continuations ---------------------------------------------------------------------------------------------

def _insq_continuation(target):
    def continuation(rank, gain, found):
        c = Fraction(rank + 2 * target - 1) / (rank + 2 * target)
        return c * c, ()
    return continuation


def _inst_continuation(target):
    def continuation(rank, gain, found):
        wanted = target - found  # T_i, the gain still wanted after rank i (negative once more than T was found)
        c = Fraction(rank + target + wanted - 1) / (rank + target + wanted)
        return c * c, (wanted,)
    return continuation


def _target(target):
    return check_fraction(DEFAULT_TARGET if target is None else target, "target T", 0, None, low_open=True)


def _target_model(metric, title, target, continuation, extra=()) -> _Model:
    t_value = _target(target)
    T = Traced(t_value, "T", "Target: the amount of gain the user wants")
    return _Model(metric, title, metric.upper(), f"{title}: the expected rate of gain Σ_i W(i) · r_i", None,
                  continuation(t_value), {"target": t_value}, [T], extra,
                  costly=", or a smaller target T (C(i)'s denominators grow with i + 2T)")


def _cut(k, ranking, depth, metric) -> int:
    """P@k's and SDCG@k's k: --k, or the list's length (at most n for P@k)."""
    k = check_cutoff(k)
    if k is None:
        k = min(ranking.retrieved, depth) if metric == "precision" else ranking.retrieved
    return k


def _precision_model(ranking, depth, k=None, precision_denominator=None) -> _Model:
    k = _cut(k, ranking, depth, "precision")
    graded, _ = _scale(ranking)
    read = min(k, depth)  # the ranks whose gain counts: the user stops at k, the list is read to n
    notes = [Note("reading", f"P@k's user reads exactly k = {k} ranks: W(i) = 1/{k} on ranks 1..{k}, "
                             + _precision_reading(k, graded) + " (Moffat et al. 2017; cwl-eval PrecisionCWLMetric)")]
    if k > depth:
        notes = [Note("convention", f"k = {k} is beyond the depth n = {depth} read: C(i) = 1 on every rank 1..n, so "
                                    "the user reads on past rank n (no rank within n is her last: L(i) = 0 and "
                                    f"ETG = 0) and W is normalised over the n ranks: W(i) = 1/{depth} on ranks "
                                    f"1..{depth}, so ERG = Σ_{{i<={depth}}} r_i / {depth}, "
                                    + (f"P@{depth}" if not graded else f"the mean gain of the top {depth}")
                                    + f" rather than P@{k}, and ED = {depth}. cwl-eval "
                                    "1.0.12 computes the same when k = n + 1; for k > n + 1 its PrecisionCWLMetric "
                                    "stops with numpy's 'shapes (k-1,) and (n,) not aligned' (its C vector has k - 1 "
                                    "entries, its gain vector n)")]
    if ranking.retrieved < read:  # ranks read past the list's end (a list longer than n never is, whatever k)
        divisor = f"k = {k} (precision_denominator = k)" if read == k else f"the n = {read} ranks read"
        notes.append(Note("convention", f"the list has {ranking.retrieved} documents: the ranks after it count as "
                                        f"gain 0, so ERG divides by {divisor}"
                                        + ("; irlab's P@k here divides by the documents retrieved"
                                           if precision_denominator == "retrieved" else "")))
    K = Traced(k, "k", "Cut-off: the user reads exactly k ranks" + (" (here only the n read)" if k > depth else ""))
    formula = _formula("C(i) = 1 for i < k, C(k) = 0", r"C(i) = 1\ (i < k),\ C(k) = 0")

    def relate(erg, gains):
        textbook = precision(ranking, k=read, precision_denominator=precision_denominator)
        if not graded:
            same = f"(= {textbook.symbol})" if erg == textbook.value else f"(= hits@{read} / {read})"
            if read < k:
                same = f"{same[:-1]}, not P@{k}: only n = {depth} ranks are read)"
            return f"Expected rate of gain {same}", []
        label = f"Expected rate of gain (graded P@{read}: the gains g_i / g_max of the top {read}, averaged)"
        return label, [_graded_reading(f"P@{read} of the graded gains r_i = g_i / g_max, as cwl-eval reads graded qrels "
                                       "(their values are its gains)", erg, textbook, f"precision counts each document "
                                       f"graded at or above the relevance threshold {ranking.threshold} as one hit, "
                                       "whatever its grade")]

    return _Model("precision", f"P@{k} as a user model (C/W/L)", "ERG", f"Expected rate of gain (= P@{k})", formula,
                  lambda rank, gain, found: (1 if rank < k else 0, ()), {"k": k}, [K], notes=notes, relate=relate)


def _precision_reading(k, graded) -> str:
    """What ERG, ED and ETG of a user who reads k ranks with W(i) = 1/k are."""
    if not graded:
        return f"so ERG = Σ_{{i<={k}}} r_i / {k} is P@{k}, ED = {k} and ETG = Σ_{{i<={k}}} r_i is hits@{k}"
    return (f"so ERG = Σ_{{i<={k}}} r_i / {k}, the mean gain of the top {k}, ED = {k} and ETG = Σ_{{i<={k}}} r_i, "
            f"the gain found in the top {k}")


def _graded_reading(what, erg, textbook, counts) -> Note:
    """How ERG on graded judgments relates to irlab's textbook metric: equal here or not, and why they can differ."""
    values = f"ERG = {exact.value_text(erg)} is {what}"
    metric = f"irlab's {textbook.symbol} = {exact.value_text(textbook.value)}"
    if erg == textbook.value:
        return Note("reading", f"{values}; it equals {metric} here, though irlab's {counts}")
    return Note("reading", f"{values}; it differs from {metric} because of the grades: irlab's {counts}")


def _rr_model(ranking, depth, k=None) -> _Model:
    k = check_cutoff(k)
    notes = [Note("reading", "RR's user stops at the first document with gain: W(i) = 1/f on ranks 1..f for the "
                             "first rank f with r_f > 0, so ERG = r_f / f, which is RR = 1/f for binary judgments; "
                             "without any gain in the n ranks she reads all n and ERG = 0 (cwl-eval RRCWLMetric)")]
    if not ranking.binary:
        notes.append(Note("convention", "graded judgments: the user stops at the first document with any gain "
                                        "(g > 0, as cwl-eval), whatever irlab's relevance threshold, and ERG = g_f / g_max / f"))
    support = []
    if k is not None:
        notes.append(Note("convention", f"cut-off k = {k}: the user also stops at rank {k} (C({k}) = 0), as RR@{k} "
                                        "ignores the ranks after k; cwl-eval's RR has no cut-off (its k is n)"))
        support.append(Traced(k, "k", "Cut-off: the user stops at rank k at the latest"))

    def continuation(rank, gain, found):
        return (1 if found == 0 and (k is None or rank < k) else 0), ()

    formula = _formula("C(i) = 1 while Σ_{j<=i} r_j = 0, else 0" + (", and C(k) = 0" if k is not None else ""),
                       r"C(i) = [\sum_{j \le i} r_j = 0]" + (r",\ C(k) = 0" if k is not None else ""))
    graded, _ = _scale(ranking)

    def relate(erg, gains):
        textbook = reciprocal_rank(ranking, k=k)
        if erg == textbook.value and not graded:
            return f"Expected rate of gain (= {textbook.symbol})", []
        last = len(gains) if k is None else min(k, len(gains))
        first = next((rank for rank in range(1, last + 1) if gains[rank - 1]), None)
        if first is None:  # the first relevant document lies beyond the depth n read
            return "Expected rate of gain", [Note("reading", f"no gain in the {last} ranks read, so ERG = 0; irlab's "
                                                             f"{textbook.symbol} = {exact.value_text(textbook.value)} "
                                                             f"reads the whole list, past the depth n = {len(gains)}")]
        if not graded:
            return "Expected rate of gain", []
        gain = exact.display_text(gains[first - 1])
        return ("Expected rate of gain (r_f / f: the gain of the first document with any gain, over its rank)",
                [_graded_reading(f"r_f / f = ({gain}) / {first}, the gain g_f / g_max of the first document with any "
                                 f"gain (rank f = {first}) over its rank", erg, textbook,
                                 f"RR is 1 / the rank of the first document graded at or above the relevance "
                                 f"threshold {ranking.threshold}, whatever its grade")])

    return _Model("rr", "RR as a user model (C/W/L)", "ERG", "Expected rate of gain (= RR for binary judgments)",
                  formula, continuation, {"k": k}, support, notes=notes, relate=relate)


def _persistence(persistence):
    p = check_fraction(DEFAULT_PERSISTENCE if persistence is None else persistence, "persistence p", 0, 1, low_open=True)
    if p == 1:
        raise ParameterError("persistence p must be below 1 (p = 1 would be a user who never stops reading)")
    return p


def _rbp_model(ranking, depth, persistence=None) -> _Model:
    p_value = _persistence(persistence)
    check_persistence_digits(p_value, depth, "RBP as a user model", table=True)
    p = Traced(p_value, "p", "Persistence: probability of reading on to the next rank")
    notes = [Note("convention", f"cwl-eval normalises RBP's weights over the n = {depth} ranks read: W(i) = "
                                "p^(i-1) · (1 - p) / (1 - p^n), so ERG = RBP / (1 - p^n), a little above Moffat & "
                                "Zobel's RBP = (1 - p) · Σ r_i · p^(i-1) (both are steps below); the residual ResERG "
                                "covers the n ranks, irlab's rbp residual the whole infinite list: "
                                "ResERG = (resid - p^n) / (1 - p^n)")]
    formula = _formula("C(i) = p", "C(i) = p")

    def quotient(gains, ed, n):
        # Moffat & Zobel's RBP = (1 - p) · S over the n ranks, S = Σ r_i · p^(i-1); W's normalisation makes
        # ERG = RBP / (1 - p^n) (and ERG · ED = S, since ED = (1 - p^n) / (1 - p))
        terms = [p ** (rank - 1) if gain == 1 else Traced(gain) * p ** (rank - 1)
                 for rank, gain in enumerate(gains, 1) if gain]
        s = total(terms, "S", "Σ r_i · p^(i-1) over the n ranks read")
        rbp = ((1 - p) * s).named("RBP", "Rank-biased precision of the n ranks (Moffat & Zobel's weights (1 - p) · "
                                         "p^(i-1), not normalised to the n ranks)")
        normaliser = 1 - p ** n
        return rbp / normaliser, s, (rbp, Traced(normaliser.value, "(1 - p^n)"))

    def relate(erg, gains):  # the step RBP = ERG · (1 - p^n) is irlab's rbp unless the list was cut at n
        of_n, textbook = exact.mul(erg, 1 - p_value ** depth), rank_biased_precision(ranking, persistence=p_value)
        if of_n == textbook.value:
            return "Expected rate of gain (RBP normalised over the n ranks)", []
        return "Expected rate of gain (RBP of the n ranks, normalised over them)", [Note(
            "reading", f"the RBP of the n = {depth} ranks read, {exact.value_text(of_n)}, is short of irlab's "
                       f"RBP = {exact.value_text(textbook.value)}, which reads all {ranking.retrieved} ranks of the list")]

    return _Model("rbp", f"RBP (p = {exact.value_text(p_value)}) as a user model (C/W/L)", "ERG",
                  "Expected rate of gain (RBP normalised over the n ranks)", formula,
                  lambda rank, gain, found: (p_value, ()), {"persistence": p_value}, [p], notes=notes, residual=True,
                  relate=relate, quotient=quotient, closed_depth=lambda n: (1 - p ** n) / (1 - p),
                  closed_past=lambda n: p ** n, costly=", or give p fewer digits (0.9, 0.95, 0.99)")


def _sdcg_model(ranking, depth, k=None) -> _Model:
    k = _cut(k, ranking, depth, "sdcg")
    m = min(k, depth)  # the sums run over the ranks read: cwl-eval's C vector has n entries, none 0 when n < k
    if m > MAX_LOG_TERMS:  # ED and every W(i) hold m logarithms, kept exact in sympy
        raise LimitError(f"SDCG@{k} over n = {depth:,} ranks sums 1/log2(i+1) over {m:,} ranks, kept exact as "
                         f"logarithms; irlab sums at most {MAX_LOG_TERMS:,} of them exactly (its limit MAX_LOG_TERMS, "
                         "cwl-eval's default depth): give a smaller k (--k) or read fewer ranks (--max-depth)")
    K = Traced(k, "k", "Cut-off: ranks the discount 1/log2(i+1) is spread over")
    notes = [Note("reading", "SDCG@k is DCG@k with gains r_i in [0, 1] and the discount 1/log2(i+1), scaled by its "
                             f"largest value Σ_{{i<={'k' if m == k else 'min(k, n)'}}} 1/log2(i+1) = ED: not nDCG, "
                             "which divides by the ideal ranking's "
                             "DCG (Moffat et al. 2017; cwl-eval NDCGCWLMetric, printed as NDCG-k@k by cwl-eval "
                             "1.0.12 and as SDCG-k@k in its README)")]
    if k > depth:
        notes.append(Note("convention", f"k = {k} is beyond the depth n = {depth}: cwl-eval computes C(i) = log2(i+1) "
                                        f"/ log2(i+2) on ranks 1..n only, none of them 0, and normalises W over those "
                                        f"n ranks, so both sums run to min(k, n) = {m}: SDCG@{k} = DCG@{m} / Σ_{{i<={m}}} "
                                        f"1/log2(i+1), the value of SDCG@{m}; the user reads past rank n with "
                                        "probability Π_{j<=n} C(j) = 1/log2(n+2), which ETG leaves out"))

    def continuation(rank, gain, found):
        return (exact.div(exact.log2(rank + 1), exact.log2(rank + 2)) if rank < k else 0), ()

    def reach(rank):  # Π_{j<i} log2(j+1) / log2(j+2) telescopes to 1 / log2(i+1)
        return exact.div(1, exact.log2(rank + 1)) if rank <= k else 0

    def quotient(gains, ed, n):
        terms = [Traced(gain) if rank == 1 else Traced(gain) / log2(rank + 1)
                 for rank, gain in enumerate(gains, 1) if gain]
        cut = "" if m == k else f" of the n = {depth} ranks read (the sums stop at rank n < k = {k})"
        dcg = total(terms, f"DCG@{m}", f"Σ_{{i<={m}}} r_i / log2(i+1): the discounted gain{cut}")
        return dcg / ed, dcg, (dcg, ed)  # ERG, ERG · ED, and the parts a long answer is read through

    formula = Formula("SDCG@k = DCG@k / Σ_{i<=k} 1/log2(i+1) = Σ_i W(i) · r_i, W(i) = (1/log2(i+1)) / Σ_{j<=k} "
                      "1/log2(j+1) for i <= k; C(i) = log2(i+1) / log2(i+2) for i < k, C(k) = 0",
                      r"\mathrm{SDCG}@k = \frac{\sum_{i=1}^{k} r_i / \log_2(i+1)}{\sum_{i=1}^{k} 1 / \log_2(i+1)} "
                      r"= \sum_i W(i)\, r_i,\ C(i) = \frac{\log_2(i+1)}{\log_2(i+2)}\ (i < k),\ C(k) = 0")
    if m < k:  # the formula computed: both sums to m = min(k, n)
        formula = Formula("SDCG@k = DCG@m / Σ_{i<=m} 1/log2(i+1) = Σ_i W(i) · r_i, m = min(k, n), W(i) = "
                          "(1/log2(i+1)) / Σ_{j<=m} 1/log2(j+1); C(i) = log2(i+1) / log2(i+2) for i < k",
                          r"\mathrm{SDCG}@k = \frac{\sum_{i=1}^{m} r_i / \log_2(i+1)}{\sum_{i=1}^{m} 1 / \log_2(i+1)} "
                          r"= \sum_i W(i)\, r_i,\ m = \min(k, n),\ C(i) = \frac{\log_2(i+1)}{\log_2(i+2)}\ (i < k)")
    return _Model("sdcg", f"Scaled DCG@{k} (C/W/L)", f"SDCG@{k}", f"Scaled DCG@{k}: the expected rate of gain",
                  formula, continuation, {"k": k}, [K], reach=reach, notes=notes, quotient=quotient)


def _formula(c_text, c_latex) -> Formula:
    return Formula("ERG = Σ_i W(i) · r_i, W(i) = Π_{j<i} C(j) / Σ_{k<=n} Π_{j<k} C(j), " + c_text,
                   r"\mathrm{ERG} = \sum_{i=1}^{n} W(i)\, r_i,\ W(i) = \frac{\prod_{j<i} C(j)}{\sum_{k=1}^{n} "
                   r"\prod_{j<k} C(j)},\ " + c_latex)


# the metrics and the user-model view -----------------------------------------------------------------------------

def insq(ranking, target=None, max_depth=None) -> Result:
    """INSQ: C(i) = ((i + 2T - 1) / (i + 2T))², ERG = Σ_i W(i) · r_i (Moffat, Scholer & Thomas 2012; cwl-eval INSQ).

    >>> from irlab import Ranking
    >>> round(float(insq(Ranking.parse("RNR"), target=2)), 4)
    0.3192
    """
    model = _target_model("insq", "INSQ", target, _insq_continuation)
    return _explain(model, ranking, _depth(max_depth))


def inst(ranking, target=None, max_depth=None) -> Result:
    """INST: C(i) = ((i + T + T_i - 1) / (i + T + T_i))², T_i = T - Σ_{j<=i} r_j (Moffat et al. 2015; cwl-eval INST).

    >>> from irlab import Ranking
    >>> inst(Ranking.parse("R"), target=1, max_depth=1).value
    1
    """
    model = _target_model("inst", "INST", target, _inst_continuation, ("T_i",))
    return _explain(model, ranking, _depth(max_depth))


def sdcg(ranking, k=None, max_depth=None) -> Result:
    """Scaled DCG@k: SDCG@k = Σ_{i<=k} r_i / log2(i+1) / Σ_{i<=k} 1 / log2(i+1), exact, as a C/W/L user model.

    The user spreads her attention over ranks 1..k in proportion to DCG's discount, W(i) ∝ 1/log2(i+1), so SDCG@k
    is the expected rate of gain of C(i) = log2(i+1) / log2(i+2) for i < k (Moffat, Bailey, Scholer & Thomas 2017,
    TOIS 35(3); Järvelin & Kekäläinen 2002 for DCG; cwl-eval NDCGCWLMetric). Gains r_i = g_i / g_max.

    >>> from irlab import Ranking
    >>> result = sdcg(Ranking.parse("RNR"), k=3)  # (1 + 1/log2(4)) / (1 + 1/log2(3) + 1/log2(4))
    >>> round(float(result), 4)
    0.7039
    """
    ranking = as_ranking(ranking)
    depth = _depth(max_depth)
    return _explain(_sdcg_model(ranking, depth, k), ranking, depth)


USER_MODELS = ("precision", "rr", "rbp", "sdcg", "inst", "insq")
ARE_USER_MODELS = ("sdcg", "inst", "insq")  # their own explanation is the C/W/L one


def user_model(ranking, metric, *, k=None, persistence=None, target=None, max_depth=None,
               precision_denominator=None) -> Result:
    """The metric as a C/W/L user model: per rank C(i), W(i), L(i); the expected rate of gain ERG = Σ W(i) · r_i,
    the expected depth ED and the expected total gain ETG = Σ L(i) · Σ_{j<=i} r_j, exact, read as cwl-eval 1.0.12
    reads a list (Moffat, Bailey, Scholer & Thomas 2017; Azzopardi, Thomas & Moffat 2019).

    ``metric`` is one of precision (with k), rr (k optional), rbp (persistence), sdcg (k), inst and insq (target).

    >>> from irlab import Ranking
    >>> model = user_model(Ranking.parse("NRN"), "rr")
    >>> model.value, float([s for s in model.steps if s.symbol == "ED"][0].value)
    (Fraction(1, 2), 2.0)
    """
    ranking = as_ranking(ranking)
    if not isinstance(metric, str) or metric.strip().lower() not in USER_MODELS:
        raise ParameterError(f"{str(metric)[:40]!r} has no C/W/L user model in irlab; these do: {', '.join(USER_MODELS)}")
    metric = metric.strip().lower()
    given = {"k": k, "persistence": persistence, "target": target}
    accepted = {"precision": ("k",), "rr": ("k",), "rbp": ("persistence",), "sdcg": ("k",),
                "inst": ("target",), "insq": ("target",)}[metric]
    for name, value in given.items():
        if value is not None and name not in accepted:
            raise ParameterError(f"the user model of {metric} takes no {name} (it takes {', '.join(accepted)} and "
                                 "max_depth)")
    if metric == "inst":
        return inst(ranking, target, max_depth)
    if metric == "insq":
        return insq(ranking, target, max_depth)
    depth = _depth(max_depth)
    if metric == "precision":
        model = _precision_model(ranking, depth, k, precision_denominator)
    elif metric == "rr":
        model = _rr_model(ranking, depth, k)
    elif metric == "rbp":
        model = _rbp_model(ranking, depth, persistence)
    else:
        model = _sdcg_model(ranking, depth, k)
    return _explain(model, ranking, depth)


class WithUserModels(Result):
    """A metric's explanation followed by one section per ranking: the metric as a C/W/L user model."""

    def __init__(self, result: Result, models):
        self.__dict__.update(result.__dict__)
        self.user_models = list(models)

    def blocks(self) -> list:
        many = len(self.user_models) > 1
        return super().blocks() + [
            Section(f"{SECTION_TITLE}: query {number}" if many else SECTION_TITLE, tuple(model.blocks()), model.meta())
            for number, model in enumerate(self.user_models, 1)]


def check_user_model(metric: str) -> None:
    """A ParameterError unless ``metric`` has a C/W/L user model (--user-model)."""
    if metric not in USER_MODELS:
        raise ParameterError(f"{metric} has no C/W/L user model in irlab; --user-model applies to "
                             f"{', '.join(USER_MODELS)}")


def with_user_model(result, metric, rankings, options, max_depth=None) -> Result:
    """``result`` (the metric on ``rankings``) with the user model of each ranking appended; the metrics that are
    user models (sdcg, inst, insq) already explain themselves that way and come back as they are."""
    check_user_model(metric)
    if metric in ARE_USER_MODELS:
        return result
    if not all(isinstance(ranking, Ranking) for ranking in rankings):
        raise ParameterError("--user-model reads a ranking rank by rank; counts (--counts) have no ranks")
    known = {name: options.get(name) for name in ("k", "persistence", "precision_denominator") if name in options}
    return WithUserModels(result, [user_model(ranking, metric, max_depth=max_depth, **known) for ranking in rankings])
