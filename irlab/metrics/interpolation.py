"""Precision at recall levels: the precision–recall points, interpolation and the 11-point average."""

from __future__ import annotations

from fractions import Fraction

from .. import conventions as conv
from ..exact import fraction
from ..document import Note, Table
from ..errors import ParameterError
from ..metric import Result, check_fraction
from ..trace import Traced, call, maximum, mean
from .common import precision_at, rank_table, ranking_notes, relevant_leaf

ELEVEN_POINTS = tuple(Fraction(i, 10) for i in range(11))


def precision_recall_points(ranking) -> list[tuple[int, Fraction, Fraction]]:
    """(rank, recall@rank, precision@rank) for every rank of the list, exact.

    >>> from irlab import Ranking
    >>> precision_recall_points(Ranking.parse("RN", relevant=2))
    [(1, Fraction(1, 2), Fraction(1, 1)), (2, Fraction(1, 2), Fraction(1, 2))]
    """
    R = ranking.total_relevant
    if R == 0:
        raise ParameterError("recall is undefined when there are no relevant documents (R = 0)")
    return [(k, Fraction(ranking.hits(k), R), Fraction(ranking.hits(k), k)) for k in range(1, ranking.retrieved + 1)]


def _pr_table(ranking, marks=None, marks_header="counts") -> Table:
    R, ranks = ranking.total_relevant, range(1, ranking.retrieved + 1)
    hits = list(map(ranking.hits, ranks))
    recalls = [fraction(h, R) for h in hits]
    precisions = [fraction(h, k) for h, k in zip(hits, ranks)]
    columns = {"recall": recalls, "precision": precisions}
    if marks is not None:
        columns[marks_header] = marks
    return rank_table(ranking, ranking.retrieved, columns)


def _no_relevant(metric, title, relevant, notes, ranking) -> Result:
    """With R = 0 recall is undefined; like trec_eval, report 0 and say why."""
    notes.append(Note("warning", "there are no relevant documents (R = 0): recall is undefined, the value is reported as 0"))
    return Result(metric, title, Traced(0, metric, title), ranking=ranking, notes=notes, support=[relevant])


def _check_level(recall_level):
    if recall_level is None:
        raise ParameterError("a recall level is needed (--recall-level, a number in [0, 1] such as 0.25 or 25%)")
    return check_fraction(recall_level, "recall level", 0, 1)


def _needed(level, relevant, rule: str) -> Traced:
    """How many relevant documents must be retrieved to reach recall ``level``: ⌈r·R⌉, or round(r·R) for trec_eval."""
    product = Traced(level, "r") * relevant
    exact_product = Fraction(product.value)
    if rule == "trec-eval":
        count = int(exact_product + Fraction(1, 2))  # lround: round half away from zero (r·R >= 0)
        return call("round", [product], count, "m", "Relevant documents needed (trec_eval rounds r·R half up)")
    if rule == "trec-eval-9":  # trec_eval 9.0: (long)(r·R + 0.9) in doubles, float error included (0.7·3 + 0.9 -> 2)
        count = int(float(level) * relevant.value + 0.9)
        shifted = product + Traced(Fraction(9, 10))
        return call("trunc", [shifted], count, "m", "Relevant documents needed (trec_eval 9 truncates r·R + 0.9 "
                    "computed in double precision)")
    count = -(-exact_product.numerator // exact_product.denominator)
    return call("ceil", [product], count, "m", "Relevant documents needed to reach recall r")


def precision_at_recall(ranking, recall_level=None) -> Result:
    """Non-interpolated precision at recall r: precision at the first rank whose recall reaches r.

    That rank holds the ⌈r·R⌉-th relevant document; if the list never reaches recall r the value is 0.

    >>> from irlab import Ranking
    >>> precision_at_recall(Ranking.parse("RRNNNNNNRR", relevant=8), "0.25").value
    1
    """
    level = _check_level(recall_level)
    relevant = relevant_leaf(ranking)
    notes = ranking_notes(ranking)
    if relevant.value == 0:
        return _no_relevant("prec_at_recall", "Precision at a recall level (non-interpolated)", relevant, notes, ranking)
    needed = _needed(level, relevant, "book")
    symbol = f"P(recall={_level_text(level)})"
    rank = _rank_of_relevant(ranking, max(needed.value, 1))
    if rank is None:
        notes.append(Note("warning", f"the list holds only {ranking.relevant_retrieved} relevant documents, fewer than "
                                     f"{needed.value}: recall {_level_text(level)} is never reached, precision is 0"))
        value = Traced(0, symbol, "Precision at that recall level")
    else:
        at_rank = Traced(rank, "k", f"Rank of relevant document number {max(needed.value, 1)}")
        value = (Traced(ranking.hits(rank), f"hits@{rank}") / at_rank).named(symbol, f"Precision at rank {rank}")
    support = [needed]
    marks = ["first" if rank == k else "" for k in range(1, ranking.retrieved + 1)]
    return Result("prec_at_recall", "Precision at a recall level (non-interpolated)", value, ranking=ranking,
                  parameters={"recall_level": level}, notes=notes, tables=[_pr_table(ranking, marks, "recall >= r")],
                  support=support)


def _rank_of_relevant(ranking, number: int) -> int | None:
    seen = 0
    for rank, relevant in enumerate(ranking.relevance, 1):
        seen += relevant
        if relevant and seen == number:
            return rank
    return None


def _level_text(level) -> str:
    return f"{float(level):g}"


def _interpolated(ranking, level, relevant, rule: str) -> tuple[Traced, list[int], Traced]:
    """p_interp(level) as a traced max over every rank whose recall reaches the level, those ranks, and m.

    A rank qualifies when it holds at least m relevant documents (m = ⌈r·R⌉, or round(r·R) for trec_eval): the
    definition's every rank k with Rec@k >= r. The maximum is always reached at a relevant rank, but the
    explanation shows the definition, not the shortcut.
    """
    needed = _needed(level, relevant, rule)
    hits, count = ranking.hits, needed.value
    ranks = [rank for rank in range(1, ranking.retrieved + 1) if hits(rank) >= count]
    symbol = f"p_interp({_level_text(level)})"  # lower-case p as in IIR's p_interp(r)
    label = f"Interpolated precision at recall {_level_text(level)}"
    if not ranks:
        return Traced(0, symbol, label), ranks, needed
    node = maximum([precision_at(ranking, rank) for rank in ranks], symbol, label)
    return node, ranks, needed


def interpolated_precision(ranking, recall_level=None, interpolation=None) -> Result:
    """Interpolated precision: the highest precision at any rank whose recall is at least r.

    p_interp(r) = max_{r' >= r} p(r')   (IIR 8.4, eq. 8.7): every rank whose recall reaches r is compared.

    >>> from irlab import Ranking
    >>> interpolated_precision(Ranking.parse("RNNRR", relevant=5), "0.4").value
    Fraction(3, 5)
    """
    level = _check_level(recall_level)
    choice = conv.INTERPOLATION.choice(interpolation)
    relevant = relevant_leaf(ranking)
    notes = ranking_notes(ranking)
    if relevant.value == 0:
        return _no_relevant("iprec", "Interpolated precision", relevant, notes, ranking)
    value, ranks, needed = _interpolated(ranking, level, relevant, choice.key)
    if not ranks:
        notes.append(Note("warning", f"recall {_level_text(level)} is never reached by this list: interpolated precision is 0"))
    marks = ["yes" if rank in ranks else "" for rank in range(1, ranking.retrieved + 1)]
    return Result("iprec", "Interpolated precision", value, ranking=ranking,
                  conventions={"interpolation": choice}, parameters={"recall_level": level}, notes=notes,
                  tables=[_pr_table(ranking, marks, "recall >= r")], support=[needed])


def eleven_point_average(ranking, interpolation=None) -> Result:
    """11-point interpolated average precision: the mean of p_interp at recall 0, 0.1, …, 1.0.

    11pt = (1/11) · Σ_{r in {0, 0.1, …, 1}} p_interp(r)   (IIR 8.4; trec_eval 11pt_avg)

    >>> from irlab import Ranking
    >>> eleven_point_average(Ranking.parse("R", relevant=1)).value
    1
    """
    choice = conv.INTERPOLATION.choice(interpolation)
    relevant = relevant_leaf(ranking)
    notes = ranking_notes(ranking)
    if relevant.value == 0:
        return _no_relevant("11pt", "11-point interpolated average precision", relevant, notes, ranking)
    interpolated = [_interpolated(ranking, level, relevant, choice.key) for level in ELEVEN_POINTS]
    points = [point for point, _, _ in interpolated]
    value = mean(points, "11pt", "11-point interpolated average precision")
    levels = Table(("recall level", "relevant needed", "interpolated precision"),
                   tuple((_level_text(level), needed.value, point.value)
                         for level, (point, _, needed) in zip(ELEVEN_POINTS, interpolated)))
    return Result("11pt", "11-point interpolated average precision", value, ranking=ranking,
                  conventions={"interpolation": choice}, notes=notes, tables=[_pr_table(ranking), levels])


THREE_POINTS = (Fraction(1, 5), Fraction(1, 2), Fraction(4, 5))


def k_point_average(ranking, levels=THREE_POINTS, interpolation=None) -> Result:
    """The mean interpolated precision at chosen recall levels: the 3-point average at 0.2, 0.5 and 0.8 by default.

    kpt = (1/k) · Σ_{r in levels} p_interp(r)   (Salton & McGill 1983 for the 3-point average; IIR 8.4 for 11 points)

    >>> from irlab import Ranking
    >>> k_point_average(Ranking.parse("RNRNR", relevant=5)).value
    Fraction(8, 15)
    """
    if isinstance(levels, str):
        levels = [t for t in levels.replace(";", ",").split(",") if t.strip()]
    # a float is read as the decimal it prints as (TOML's 0.2 is 1/5, not the nearest binary fraction)
    levels = sorted({check_fraction(str(level) if isinstance(level, float) else level, "recall level", 0, 1)
                     for level in levels})
    if not levels:
        raise ParameterError("give at least one recall level")
    choice = conv.INTERPOLATION.choice(interpolation)
    relevant = relevant_leaf(ranking)
    notes = ranking_notes(ranking)
    symbol = "3pt" if tuple(levels) == THREE_POINTS else f"{len(levels)}pt"
    title = f"{len(levels)}-point interpolated average precision"
    if relevant.value == 0:
        return _no_relevant(symbol, title, relevant, notes, ranking)
    interpolated = [_interpolated(ranking, level, relevant, choice.key) for level in levels]
    points = [point for point, _, _ in interpolated]
    value = mean(points, symbol, f"{title} at recall {', '.join(_level_text(level) for level in levels)}")
    table = Table(("recall level", "relevant needed", "interpolated precision"),
                  tuple((_level_text(level), needed.value, point.value)
                        for level, (point, _, needed) in zip(levels, interpolated)))
    return Result("3pt" if symbol == "3pt" else "kpt", title, value, ranking=ranking,
                  conventions={"interpolation": choice}, notes=notes, tables=[_pr_table(ranking), table],
                  parameters={"levels": [str(level) for level in levels]})


def three_point_average(ranking, interpolation=None) -> Result:
    """The 3-point average: interpolated precision at recall 0.2, 0.5 and 0.8, averaged (Salton & McGill 1983)."""
    return k_point_average(ranking, THREE_POINTS, interpolation)
