"""INST and INSQ: metrics as user models in the C/W/L framework (Moffat, Bailey, Scholer & Thomas 2017).

A user reads the ranking top down; after rank i she reads on with probability C(i) (the continuation). The
weight of rank i is the share of her attention it gets, W(i) = Π_{j<i} C(j) / Σ_k Π_{j<k} C(j), and the metric
is the expected rate of gain per document read, ERG = Σ_i W(i) · r_i (Moffat, Bailey, Scholer & Thomas 2017,
§2; Azzopardi, Thomas & Moffat 2019, §2).

* INSQ (Moffat, Scholer & Thomas 2012, §4): C(i) = ((i + 2T - 1) / (i + 2T))², T the gain the user wants.
* INST (Moffat, Bailey, Scholer & Thomas 2015, §3): C(i) = ((i + T + T_i - 1) / (i + T + T_i))² with
  T_i = T - Σ_{j<=i} r_j the gain still wanted after rank i: the user stops sooner once she has found gain.

The list is read as cwl-eval 1.0.12 reads it (ruler/ranking.py, ruler/measures/cwl_metrics.py): the gains are
padded with 0 (or cut) to ``max_depth`` ranks (cwl-eval's --max_depth, default 1000), the ranks beyond the list
and the unjudged documents have gain 0 (its lower bound, "worse case"), and W is normalised over those ranks
only: Σ_{k=1..n} W(k) = 1. Gains lie in [0, 1]: r_i = 1 or 0 for R/N, and g_i / g_max for grades (as irlab's
rbp; cwl-eval takes the qrels' values as the gains and accepts at most 1 by default). Every C(i) is the square
of a rational, so the whole computation is exact.

>>> from irlab import Ranking
>>> insq(Ranking.parse("RN"), target=1, max_depth=2).value
Fraction(9, 13)
"""

from __future__ import annotations

from fractions import Fraction

from ..document import Note, Table
from ..errors import InputTypeError, ParameterError
from ..limits import MAX_RANKS, check_at_most
from ..metric import Result, check_fraction
from ..trace import Traced, total

DEFAULT_TARGET = 1  # cwl-eval's INSTCWLMetric(T=1.0) and INSQCWLMetric(T=1.0)
DEFAULT_DEPTH = 1000  # cwl-eval's max_n (--max_depth): the ranks every C/W/L metric is computed over


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


def _gains(ranking, depth):
    """r_1..r_n in [0, 1]: the list's gains, cut or padded with 0 to n ranks, and the notes saying how."""
    pool = ranking.grades + tuple(ranking.unretrieved)
    graded = not ranking.binary and max(pool) > 1
    top = max(pool) if graded else 1
    notes = []
    if graded:
        notes.append(Note("convention", f"graded judgments: r_i = g_i / g_max with g_max = {top}, the highest judged "
                                        "grade (gains in [0, 1], as cwl-eval expects them)"))
    gains = [Fraction(grade, top) if graded else (1 if ranking.is_relevant(grade) else 0)
             for grade in ranking.grades[:depth]]
    if ranking.unjudged:
        notes.append(Note("convention", "unjudged documents have gain 0 (cwl-eval's lower bound, its \"worse case\")"))
    if ranking.retrieved > depth:
        notes.append(Note("convention", f"only the first n = {depth} of the {ranking.retrieved} ranks count "
                                        "(cwl-eval cuts the list at --max_depth)"))
    elif ranking.retrieved < depth:
        notes.append(Note("convention", f"the list is read to depth n = {depth} as cwl-eval reads it (--max_depth, "
                                        f"default {DEFAULT_DEPTH}): ranks {ranking.retrieved + 1}..{depth} have gain 0 "
                                        "and share in W's normalisation Σ_{k<=n} Π_{j<k} C(j)"))
    return gains + [0] * (depth - len(gains)), notes


def _cwl(name, title, ranking, target, max_depth, continuation, extra_column=None) -> Result:
    t_value = check_fraction(DEFAULT_TARGET if target is None else target, "target T", 0, None, low_open=True)
    depth = _depth(max_depth)
    gains, notes = _gains(ranking, depth)
    T = Traced(t_value, "T", "Target: the amount of gain the user wants")
    n = Traced(depth, "n", "Depth: ranks read (cwl-eval --max_depth)")
    # C(i) for i = 1..n, and P(i) = Π_{j<i} C(j), the probability that the user reaches rank i
    found, reach, rows, reached = Fraction(0), Fraction(1), [], []
    for rank, gain in enumerate(gains, 1):
        found += gain
        c, shown = continuation(rank, t_value, found)
        reached.append(reach)
        rows.append([rank, ranking.symbol(rank) if rank <= ranking.retrieved else "—", gain, *shown, c, reach])
        reach *= c
    expected = sum(reached, Fraction(0))
    S = Traced(expected, "S", "Σ_{k=1..n} Π_{j<k} C(j): the expected number of documents read (1 / W(1))",
               note=f"the sum of the column Π_{{j<i}} C(j) over the n = {depth} ranks")
    w1 = (1 / S).named("W(1)", "Weight of rank 1")
    terms = []
    for row, gain, p in zip(rows, gains, reached):
        w = p / expected
        row += [w, gain * w]
        if gain:
            weight = w1 if row[0] == 1 else Traced(w, f"W({row[0]})")
            terms.append(weight if gain == 1 else weight * Traced(gain))
    value = total(terms, name.upper(), f"{title}: the expected rate of gain Σ_i W(i) · r_i")
    columns = ("rank i", "judgment", "r_i", *(extra_column or ()), "C(i)", "Π_{j<i} C(j)", "W(i)", "W(i) · r_i")
    blank = ("",) * len(extra_column or ())
    rows.append(["Σ", "", "", *blank, "", expected, 1, value.value])  # S, the weights' sum, the metric
    table = Table(columns, tuple(tuple(row) for row in rows),
                  f"C(i), and W(i) = Π_{{j<i}} C(j) / S over ranks 1..{depth}, with T = {t_value}")
    notes.append(Note("convention", "W(i) = Π_{j<i} C(j) / Σ_{k=1..n} Π_{j<k} C(j): the weights are normalised over "
                                    "the n ranks read, so they sum to 1 (cwl-eval 1.0.12 CWLMetric.w_vector)"))
    return Result(name, title, value, ranking=ranking, notes=notes, tables=[table],
                  parameters={"target": t_value, "max_depth": depth}, support=[T, n, w1])


def _insq_continuation(rank, target, found):
    c = Fraction(rank + 2 * target - 1) / (rank + 2 * target)
    return c * c, ()


def _inst_continuation(rank, target, found):
    wanted = target - found  # T_i, the gain still wanted after rank i (negative once more than T was found)
    c = Fraction(rank + target + wanted - 1) / (rank + target + wanted)
    return c * c, (wanted,)


def insq(ranking, target=None, max_depth=None) -> Result:
    """INSQ: C(i) = ((i + 2T - 1) / (i + 2T))², ERG = Σ_i W(i) · r_i (Moffat, Scholer & Thomas 2012; cwl-eval INSQ).

    >>> from irlab import Ranking
    >>> round(float(insq(Ranking.parse("RNR"), target=2)), 4)
    0.3192
    """
    return _cwl("insq", "INSQ", ranking, target, max_depth, _insq_continuation)


def inst(ranking, target=None, max_depth=None) -> Result:
    """INST: C(i) = ((i + T + T_i - 1) / (i + T + T_i))², T_i = T - Σ_{j<=i} r_j (Moffat et al. 2015; cwl-eval INST).

    >>> from irlab import Ranking
    >>> inst(Ranking.parse("R"), target=1, max_depth=1).value
    1
    """
    return _cwl("inst", "INST", ranking, target, max_depth, _inst_continuation, ("T_i",))
