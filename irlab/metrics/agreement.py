"""Agreement between assessors: Cohen's kappa for two judges' binary relevance judgments."""

from __future__ import annotations

from collections import Counter

from .. import conventions as conv
from ..document import Note, Table
from ..errors import InputTypeError, ParameterError, RankingError
from ..limits import MAX_RANKS, check_at_most
from ..metric import Result
from ..trace import Traced


def column_items(column, what: str, expected: str, run_of_one=lambda token: len(token) > 1) -> list:
    """A judge's column as its items: text split at ',', ';' or spaces, a single run such as '0110' split into its
    characters (when ``run_of_one`` says the token is such a run), or a list/tuple as given. ``expected`` says what
    the column must hold, for the error; an empty column or one longer than MAX_RANKS is an error too."""
    if isinstance(column, str):
        items = [t for t in column.strip().replace(";", ",").replace(" ", ",").split(",") if t]
        if len(items) == 1 and run_of_one(items[0]):
            items = list(items[0])  # '0110'
    elif isinstance(column, (list, tuple)):
        items = list(column)
    else:
        raise InputTypeError(f"{what} must be {expected}, got {type(column).__name__} {column!r:.40}")
    check_at_most(len(items), MAX_RANKS, f"the number of judgments in {what}")
    if not items:
        raise RankingError(f"{what} is empty")
    return items


def parse_judgments(column, what: str) -> tuple[int, ...]:
    """A judge's column: '0,1,1,0', '0110', or a sequence of 0/1."""
    items = column_items(column, what, "a list of 0/1 judgments or text such as '0,1,1'")
    if all(type(item) is int and (item == 0 or item == 1) for item in items):  # a column read from a table already
        return tuple(items)
    values = []
    for position, item in enumerate(items, 1):
        value = item.strip() if isinstance(item, str) else item
        if value in ("0", 0, False):
            values.append(0)
        elif value in ("1", 1, True):
            values.append(1)
        else:
            raise RankingError(f"{what}: judgment {position} is {item!r}, expected 0 (non-relevant) or 1 (relevant)")
    return tuple(values)


def kappa_reading(kappa) -> str:
    """The usual reading of kappa's size (IIR 8.5 after Carletta 1996; Landis & Koch 1977 for the finer scale)."""
    if kappa > 0.8:
        return "above 0.8: good agreement (IIR 8.5)"
    if kappa >= 0.67:
        return "between 0.67 and 0.8: fair agreement (IIR 8.5)"
    if kappa > 0:
        return "below 0.67: dubious agreement (IIR 8.5)"
    return "at or below 0: no agreement beyond chance"


def cohen_kappa(judge1, judge2, kappa_marginals=None) -> Result:
    """κ = (P(A) - P(E)) / (1 - P(E)): agreement corrected for the agreement expected by chance.

    P(E) uses pooled marginals by default (IIR 8.5; Scott 1955); ``kappa_marginals='per-judge'`` gives Cohen's.

    >>> cohen_kappa("1,1,0,0", "1,0,0,0").value
    Fraction(7, 15)
    """
    first = parse_judgments(judge1, "judge 1")
    second = parse_judgments(judge2, "judge 2")
    if len(first) != len(second):
        raise RankingError(f"the judges' columns differ in length: judge 1 has {len(first)} judgments, judge 2 has {len(second)}")
    choice = conv.KAPPA_MARGINALS.choice(kappa_marginals)
    pairs = Counter(zip(first, second))  # (judge 1, judge 2) -> documents, the judgments being 0 or 1
    both_yes, both_no, only_first, only_second = pairs[1, 1], pairs[0, 0], pairs[1, 0], pairs[0, 1]
    size = len(first)
    table = Table(
        ("", "judge 2: relevant", "judge 2: non-relevant", "total"),
        (
            ("judge 1: relevant", both_yes, only_first, both_yes + only_first),
            ("judge 1: non-relevant", only_second, both_no, only_second + both_no),
            ("total", both_yes + only_second, only_first + both_no, size),
        ),
        "Contingency table",
    )
    n = Traced(size, "n", "Documents judged")
    agree = Traced(both_yes + both_no, "agree", "Documents on which the judges agree")
    p_agree = (agree / n).named("P(A)", "Observed agreement")
    # rel/nonrel, not R/N: R is the number of relevant documents and n the documents judged everywhere else
    rel1, rel2 = Traced(both_yes + only_first, "rel_1"), Traced(both_yes + only_second, "rel_2")
    non1, non2 = Traced(size - rel1.value, "nonrel_1"), Traced(size - rel2.value, "nonrel_2")
    if choice.key == "pooled":
        p_rel = ((rel1 + rel2) / (2 * n)).named("P(rel)", "Pooled proportion of relevant judgments")
        p_non = ((non1 + non2) / (2 * n)).named("P(nonrel)", "Pooled proportion of non-relevant judgments")
        p_chance = (p_rel**2 + p_non**2).named("P(E)", "Agreement expected by chance")
    else:
        p1 = (rel1 / n).named("P_1(rel)", "Judge 1's share of relevant")
        p2 = (rel2 / n).named("P_2(rel)", "Judge 2's share of relevant")
        q1, q2 = (non1 / n).named("P_1(nonrel)"), (non2 / n).named("P_2(nonrel)")
        p_chance = (p1 * p2 + q1 * q2).named("P(E)", "Agreement expected by chance")
    if p_chance.value == 1:
        raise ParameterError("kappa is undefined: both judges gave every document the same judgment, so P(E) = 1")
    value = ((p_agree - p_chance) / (1 - p_chance)).named("κ", "Kappa")
    notes = [Note("reading", f"κ = {float(value):.4f} is {kappa_reading(value.value)}")]
    if size <= 40:
        context = f"Judge 1: {''.join(map(str, first))}; judge 2: {''.join(map(str, second))} ({size} documents)"
    else:  # the contingency table says it all; thousands of digits would not
        context = f"Two judges, {size} documents: judge 1 says relevant {rel1.value} times, judge 2 {rel2.value} times"
    return Result("kappa", "Cohen's kappa", value, context=context, conventions={"kappa_marginals": choice},
                  notes=notes, tables=[table])
