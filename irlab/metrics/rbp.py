"""Rank-biased precision (Moffat & Zobel 2008): a user reads on from rank i to i + 1 with probability p.

    RBP = (1 - p) · Σ_i r_i · p^(i-1)

r_i is 1 for a relevant document and 0 otherwise; for graded judgments r_i = g_i / g_max (trec_eval's rbp
normalises gains to [0, 1] this way). RBP is a lower bound: documents that are unjudged (``U``) or beyond the
list could still be relevant, and the residual p^d + (1 - p) · Σ_{unjudged i} p^(i-1) says how much RBP could
still grow (Moffat & Zobel 2008).

>>> from irlab import Ranking
>>> rank_biased_precision(Ranking.parse("RNR"), persistence="1/2").value
Fraction(5, 8)
"""

from __future__ import annotations

import math
from fractions import Fraction

from .. import exact
from ..document import Note, Table
from ..errors import ParameterError
from ..limits import MAX_DIGITS, MAX_EXACT_DIGITS, MAX_EXACT_WORK, check_exact_digits, check_exact_work, power_digits
from ..metric import Result, check_fraction
from ..trace import Traced, total

DEFAULT_PERSISTENCE = Fraction(9, 10)  # trec_eval 10.0's rbp default


def check_persistence_digits(p, ranks: int, what: str, table: bool = False) -> None:
    """A LimitError naming MAX_EXACT_DIGITS when p^ranks, the weight past the last rank, has too many digits to
    compute exactly (p = 0.99999999999999 over 20,000 ranks: 280,000 digits), before any power is taken; with
    ``table`` (a user model's W(i) and L(i), every one of them as long) also MAX_EXACT_WORK, ranks x digits."""
    p = Fraction(p)
    written = exact.decimal_text(p, MAX_DIGITS) if exact.is_terminating(p, MAX_DIGITS) else exact.exact_text(p)
    base = max(p.numerator, p.denominator)
    per_rank = math.log10(base)
    fits = int(MAX_EXACT_DIGITS / per_rank)  # the ranks whose p^(i-1) fit the bounds: estimated, then checked
    if table:
        fits = min(fits, int(math.sqrt(MAX_EXACT_WORK / per_rank)))
    while fits > 1 and (power_digits(base, fits) > MAX_EXACT_DIGITS
                        or table and fits * power_digits(base, fits) > MAX_EXACT_WORK):
        fits -= 1
    advice = f"at p = {written}, read at most {fits:,} ranks" + (", or give p fewer digits (0.9, 0.95, 0.99)"
                                                               if base > 100 else "")
    what = f"{what} at p = {written} over {ranks:,} ranks (p^(i-1) for every rank i)"
    size = power_digits(base, ranks)
    check_exact_digits(size, what, advice)
    if table:
        check_exact_work(ranks, size, what, advice)


def rank_biased_precision(ranking, persistence=None) -> Result:
    """RBP = (1 - p) · Σ_i r_i · p^(i-1), with its residual (Moffat & Zobel 2008; trec_eval rbp, rbp_resid)."""
    p_value = check_fraction(DEFAULT_PERSISTENCE if persistence is None else persistence, "persistence p", 0, 1,
                             low_open=True)
    if p_value == 1:
        raise ParameterError("persistence p must be below 1 (p = 1 would be a user who never stops reading)")
    check_persistence_digits(p_value, ranking.retrieved, "RBP")
    p = Traced(p_value, "p", "Persistence: probability of reading on to the next rank")
    graded = not ranking.binary and max(ranking.grades + tuple(ranking.unretrieved)) > 1
    top = max(ranking.grades + tuple(ranking.unretrieved)) if graded else 1
    notes = []
    if graded:
        notes.append(Note("convention", f"graded judgments: r_i = g_i / g_max with g_max = {top}, the highest judged "
                                        "grade (trec_eval rbp)"))
    unjudged = set(ranking.unjudged)
    terms, rows = [], []
    for rank, grade in enumerate(ranking.grades, 1):
        r_i = Fraction(grade, top) if graded else (1 if ranking.is_relevant(grade) else 0)
        weight = Fraction(p_value) ** (rank - 1)
        if r_i:
            terms.append(r_i * p ** (rank - 1) if r_i != 1 else p ** (rank - 1))
        rows.append((rank, ranking.symbol(rank), r_i, weight, r_i * weight))
    summed = total(terms, "S", "Σ r_i · p^(i-1) over the ranks")
    value = ((1 - p) * summed).named("RBP", "Rank-biased precision")
    depth = ranking.retrieved
    unseen = sum((Fraction(p_value) ** (rank - 1) for rank in unjudged), Fraction(0))
    residual = Traced(Fraction(p_value) ** depth + (1 - Fraction(p_value)) * unseen, "resid",
                      "Residual: p^d for the ranks beyond the list, plus (1 - p) · p^(i-1) for each unjudged rank")
    upper = (value + residual).named("RBP + resid", "Upper bound if every unseen document were relevant")
    table = Table(("rank i", "judgment", "r_i", "p^(i-1)", "r_i · p^(i-1)"), tuple(rows), f"Weights with p = {p_value}")
    return Result("rbp", "Rank-biased precision", value, ranking=ranking, notes=notes, tables=[table],
                  parameters={"persistence": p_value}, support=[residual, upper])
