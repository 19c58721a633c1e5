"""Agreement among more than two judges: Fleiss' kappa and IIR's average pairwise kappa.

Judges give each document a category (0/1 relevance, or grades). With N documents, n judges per document and
n_ij the number of judges who put document i in category j (Fleiss 1971):

    p_j = Σ_i n_ij / (N · n)                      share of all judgments in category j
    P_i = (Σ_j n_ij² - n) / (n · (n - 1))         agreeing pairs of judges on document i, of all pairs
    κ = (P_avg - P_e) / (1 - P_e),  P_avg = mean of P_i,  P_e = Σ_j p_j²

IIR 8.5 instead averages Cohen's kappa over every pair of judges ("average pairwise kappa").

>>> fleiss_kappa("1,1,0,0; 1,1,0,1; 1,0,0,0").value
Fraction(1, 3)
"""

from __future__ import annotations

import itertools
from fractions import Fraction

from .. import conventions as conv
from ..document import Note, Table
from ..errors import ParameterError, RankingError
from ..metric import Result
from ..trace import Traced, mean, total
from .agreement import cohen_kappa, kappa_reading, parse_judgments


def parse_judges(judges, what: str = "judges") -> list[tuple[int, ...]]:
    """Several judges' columns: '1,1,0; 1,0,0; 1,1,1' (';' between judges), or a list of columns; each column
    holds categories, 0/1 relevance or integer grades ('0,2,1,3')."""
    if isinstance(judges, str):
        columns = [c for c in judges.split(";") if c.strip()]
    else:
        columns = list(judges)
    if len(columns) < 2:
        raise RankingError(f"{what}: agreement needs at least two judges, got {len(columns)}")
    parsed = [_categories(column, f"judge {i}") for i, column in enumerate(columns, 1)]
    lengths = {len(c) for c in parsed}
    if len(lengths) != 1:
        raise RankingError(f"{what}: the judges' columns differ in length ({', '.join(str(len(c)) for c in parsed)} judgments)")
    return parsed


def _categories(column, what):
    """A judge's column of categories: 0/1 (as for kappa) or integer grades."""
    try:
        return parse_judgments(column, what)
    except RankingError:
        pass
    items = column.replace(" ", ",").split(",") if isinstance(column, str) else list(column)
    values = []
    for position, item in enumerate((i for i in items if str(i).strip()), 1):
        try:
            value = int(str(item).strip())
        except ValueError:
            raise RankingError(f"{what}: judgment {position} is {item!r}, expected a category such as 0, 1 or 2") from None
        if value < 0:
            raise RankingError(f"{what}: judgment {position} is {value}, expected a non-negative category")
        values.append(value)
    if not values:
        raise RankingError(f"{what} is empty")
    return tuple(values)


def fleiss_kappa(judges) -> Result:
    """Fleiss' kappa for n >= 2 judges who each judged every document: κ = (P_avg - P_e) / (1 - P_e).

    Each judge's column holds categories: 0/1 relevance or integer grades, one column n_j per category given. With
    two judges it is Scott's pi (pooled marginals) over those categories; Cohen's own, with each judge's marginals,
    is ``cohen-kappa``.

    Reference: Fleiss 1971; Manning, Raghavan & Schütze 2008 (IIR) 8.5 for kappa's reading.

    >>> fleiss_kappa(["1,1,0,0", "1,0,0,0"]).value
    Fraction(7, 15)
    """
    columns = parse_judges(judges)
    n_judges, n_docs = len(columns), len(columns[0])
    categories = sorted({c for column in columns for c in column})
    counts = [[sum(1 for column in columns if column[i] == category) for category in categories] for i in range(n_docs)]
    n = Traced(n_judges, "n", "Judges per document")
    size = Traced(n_docs, "N", "Documents")
    shares = []
    for j, category in enumerate(categories):
        in_category = Traced(sum(row[j] for row in counts), f"Σn_{category}", f"Judgments in category {category}")
        shares.append((in_category / (size * n)).named(f"p_{category}", f"Share of the judgments in category {category}"))
    per_document = []
    for i, row in enumerate(counts):
        value = Fraction(sum(c * c for c in row) - n_judges, n_judges * (n_judges - 1))
        per_document.append(Traced(value, f"P_{i + 1}"))
    p_bar = mean(per_document, "P_avg", "Mean agreement per document: P_i = (Σ_j n_ij² - n) / (n(n - 1)), averaged")
    p_chance = total([p ** 2 for p in shares], "P_e", "Agreement expected by chance Σ_j p_j²")
    if p_chance.value == 1:
        raise ParameterError("Fleiss' kappa is undefined: every judgment falls in one category, so P_e = 1")
    value = ((p_bar - p_chance) / (1 - p_chance)).named("κ", "Fleiss' kappa")
    rows = tuple((f"d{i + 1}", *row, per_document[i].value) for i, row in enumerate(counts))
    table = Table(("document", *(f"n_{c}" for c in categories), "P_i"), rows,
                  f"Judges per category and document ({n_judges} judges)")
    notes = [Note("reading", f"κ = {float(value):.4f} is {kappa_reading(value.value)}")]
    return Result("fleiss", "Fleiss' kappa", value, context=f"{n_judges} judges, {n_docs} documents, categories "
                  f"{', '.join(map(str, categories))}", tables=[table], notes=notes, support=[n, size])


def pairwise_kappa(judges, kappa_marginals=None) -> Result:
    """IIR's average pairwise kappa: Cohen's kappa (P(E) as ``kappa_marginals`` says) for every pair, averaged.

    κ_avg = (1 / C(n, 2)) · Σ_{pairs a < b} κ(a, b)   (IIR 8.5: "an average pairwise kappa value")

    >>> pairwise_kappa("1,1,0,0; 1,0,0,0; 1,1,0,0").value
    Fraction(29, 45)
    """
    columns = parse_judges(judges)
    if any(set(c) - {0, 1} for c in columns):
        raise RankingError("pairwise kappa compares binary (0/1) judgments")
    choice = conv.KAPPA_MARGINALS.choice(kappa_marginals)
    pairs = list(itertools.combinations(range(len(columns)), 2))
    kappas, rows = [], []
    for a, b in pairs:
        result = cohen_kappa(columns[a], columns[b], kappa_marginals=choice.key)
        kappas.append(Traced(result.value, f"κ_{a + 1}{b + 1}"))
        steps = {s.symbol: s.value for s in result.steps}
        rows.append((f"judges {a + 1} and {b + 1}", steps["P(A)"], steps["P(E)"], result.value))
    value = mean(kappas, "κ_avg", f"Average of the {len(pairs)} pairwise kappas")
    table = Table(("pair", "P(A)", "P(E)", "κ"), tuple(rows), "Cohen's kappa of every pair of judges")
    notes = [Note("reading", f"κ_avg = {float(value):.4f} is {kappa_reading(value.value)}")]
    return Result("pairwise-kappa", "Average pairwise kappa", value,
                  context=f"{len(columns)} judges, {len(columns[0])} documents, {len(pairs)} pairs",
                  conventions={"kappa_marginals": choice}, tables=[table], notes=notes)
