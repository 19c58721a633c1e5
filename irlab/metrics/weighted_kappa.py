"""Cohen's kappa over k categories, and weighted kappa for ordered categories (grades).

Two judges each put the same n documents in one of k categories (relevance grades 0..3, or labels such as
'high,low'). O_ij counts the documents judge 1 put in category i and judge 2 in category j (the agreement table),
n_1(i) and n_2(j) are its row and column totals, and chance agreement comes from each judge's own marginals
(Cohen 1960), as in scikit-learn's cohen_kappa_score:

    P(A) = Σ_i O_ii / n                P(E) = Σ_i n_1(i) · n_2(i) / n²          κ = (P(A) - P(E)) / (1 - P(E))

Weighted kappa (Cohen 1968) counts a disagreement by how far apart the two categories are: with disagreement
weights w_ij and the counts expected by chance E_ij = n_1(i) · n_2(j) / n,

    κ_w = 1 - Σ w_ij · O_ij / Σ w_ij · E_ij,  w_ij = |i - j| / (k - 1) (linear) or ((i - j) / (k - 1))² (quadratic)

With w_ij = 1 off the diagonal, κ_w is κ. These are new metrics (``cohen-kappa``, ``weighted-kappa``) rather than
more labels for ``kappa``: ``kappa`` is IIR 8.5's kappa for 0/1 relevance, with chance agreement from the judges'
pooled marginals by default (Scott 1955), whereas Cohen's and scikit-learn's k-category kappa use each judge's own;
letting a third label switch ``kappa`` to other marginals would change its answer on the same kind of input.
Pooled marginals over k categories (Scott's π) are ``fleiss`` with two judges.

>>> cohen_kappa_categories("0,1,2,2", "0,2,2,1").value
Fraction(1, 5)
>>> weighted_kappa("0,1,2,2", "0,2,2,1", weights="linear").value
Fraction(3, 7)
"""

from __future__ import annotations

from fractions import Fraction

from ..document import Note, Table
from ..errors import ParameterError, RankingError
from ..limits import MAX_GRADE, MAX_NAME, check_at_most
from ..metric import Result
from ..trace import Traced, total
from .agreement import column_items, kappa_reading

WEIGHTS = {  # name -> (w_ij as text, reference)
    "linear": ("|i - j| / (k - 1)", "Cohen 1968; Cicchetti & Allison 1971"),
    "quadratic": ("((i - j) / (k - 1))²", "Cohen 1968; Fleiss & Cohen 1973"),
}
DEFAULT_WEIGHTS = "quadratic"  # the usual choice: Fleiss & Cohen 1973 show it equals an intraclass correlation
MAX_CATEGORIES = MAX_GRADE + 1  # k: a grade scale 0 … MAX_GRADE, or as many labels


def parse_categories(column, what: str) -> tuple:
    """A judge's column of categories: '0,2,1,1', '0211', 'high,low,low', or a list of integers or labels.

    Every category is a non-negative integer (a grade: the categories are ordered) or every one is a label (text
    that is not an integer: unordered)."""
    items = column_items(column, what, "a list of categories or text such as '0,2,1'",
                         lambda token: len(token) > 1 and token.isdigit())  # '0211', not a label such as 'rel'
    values = []
    for position, item in enumerate(items, 1):
        if isinstance(item, bool):
            item = int(item)
        if isinstance(item, int):
            values.append(item)
        elif isinstance(item, str) and item.strip():
            text = item.strip()
            values.append(int(text) if text.lstrip("-").isdigit() and text.isascii() else text)
        else:
            raise RankingError(f"{what}: judgment {position} is {item!r:.40}, expected a category such as 0, 2 or 'high'")
        value = values[-1]
        if isinstance(value, int):
            if value < 0:
                raise RankingError(f"{what}: judgment {position} is {value}, expected a non-negative category")
            check_at_most(value, MAX_GRADE, f"a category (grade) in {what}")
        else:
            check_at_most(len(value), MAX_NAME, f"the length of a category label in {what}")
    kinds = {isinstance(v, int) for v in values}
    if len(kinds) > 1:
        position = next(i for i, v in enumerate(values, 1) if isinstance(v, str))
        raise RankingError(f"{what}: judgment {position} is the label {values[position - 1]!r:.40} but others are "
                           "integers; give every category as an integer grade or every one as a label")
    return tuple(values)


def _columns(judge1, judge2):
    first = parse_categories(judge1, "judge 1")
    second = parse_categories(judge2, "judge 2")
    if len(first) != len(second):
        raise RankingError(f"the judges' columns differ in length: judge 1 has {len(first)} judgments, judge 2 has {len(second)}")
    if isinstance(first[0], int) != isinstance(second[0], int):
        raise RankingError("one judge gives integer grades and the other labels; give both the same kind of categories")
    return first, second


def _agreement_table(first, second, categories):
    """O_ij, the row totals n_1(i), the column totals n_2(j), and the table showing them."""
    index = {c: i for i, c in enumerate(categories)}
    counts = [[0] * len(categories) for _ in categories]
    for x, y in zip(first, second):
        counts[index[x]][index[y]] += 1
    rows_total = [sum(row) for row in counts]
    columns_total = [sum(row[j] for row in counts) for j in range(len(categories))]
    rows = tuple((f"judge 1: {c}", *counts[i], rows_total[i]) for i, c in enumerate(categories))
    rows += (("total", *columns_total, len(first)),)
    table = Table(("", *(f"judge 2: {c}" for c in categories), "total"), rows,
                  "Agreement table O_ij (judge 1 in rows, judge 2 in columns; the diagonal is agreement)")
    return counts, rows_total, columns_total, table


def _context(first, second):
    size = len(first)
    if size <= 40 and all(isinstance(v, int) and v < 10 for v in first + second):
        return f"Judge 1: {''.join(map(str, first))}; judge 2: {''.join(map(str, second))} ({size} documents)"
    if size <= 20:
        return f"Judge 1: {', '.join(map(str, first))}; judge 2: {', '.join(map(str, second))} ({size} documents)"
    return f"Two judges, {size} documents"


def _categories(first, second):
    """The k categories in order: for grades every integer from the lowest to the highest given (a grade nobody
    gave still lies between its neighbours), for labels the labels given, sorted (their order does not matter)."""
    given = set(first) | set(second)
    categories = list(range(min(given), max(given) + 1)) if isinstance(first[0], int) else sorted(given)
    check_at_most(len(categories), MAX_CATEGORIES, "the number of categories k")
    return categories


def cohen_kappa_categories(judge1, judge2) -> Result:
    """Cohen's kappa of two judges over k categories: κ = (P(A) - P(E)) / (1 - P(E)), P(E) from each judge's marginals.

    Reference: Cohen 1960; scikit-learn cohen_kappa_score. For 0/1 columns it is ``kappa`` with
    ``kappa_marginals='per-judge'`` (IIR 8.5 pools the marginals instead).

    >>> cohen_kappa_categories("high,low,low,mid", "high,low,mid,mid").value
    Fraction(7, 11)
    """
    first, second = _columns(judge1, judge2)
    categories = _categories(first, second)
    counts, rows_total, columns_total, table = _agreement_table(first, second, categories)
    n = Traced(len(first), "n", "Documents judged")
    agree = Traced(sum(counts[i][i] for i in range(len(categories))), "agree",
                   "Documents on which the judges agree (the diagonal Σ_i O_ii)")
    p_agree = (agree / n).named("P(A)", "Observed agreement")
    products = [Traced(rows_total[i], f"n_1({c})") * Traced(columns_total[i], f"n_2({c})")
                for i, c in enumerate(categories) if rows_total[i] and columns_total[i]]
    p_chance = (total(products) / n**2 if products else Traced(0)).named(
        "P(E)", "Agreement expected by chance: Σ_i n_1(i) · n_2(i) / n², from each judge's own totals")
    if p_chance.value == 1:
        raise ParameterError("kappa is undefined: both judges put every document in the same category, so P(E) = 1")
    value = ((p_agree - p_chance) / (1 - p_chance)).named("κ", "Cohen's kappa")
    notes = [Note("reading", f"κ = {float(value):.4f} is {kappa_reading(value.value)}")]
    return Result("cohen-kappa", f"Cohen's kappa over {len(categories)} categories", value, context=_context(first, second),
                  notes=notes, tables=[table], support=[n])


def weighted_kappa(judge1, judge2, weights=None) -> Result:
    """Weighted kappa (Cohen 1968) of two judges' grades: κ_w = 1 - Σ w_ij · O_ij / Σ w_ij · E_ij.

    ``weights`` is 'linear' (w_ij = |i - j| / (k - 1)) or 'quadratic' (w_ij = ((i - j) / (k - 1))², the default),
    with i, j the grades and k - 1 the span from the lowest grade given to the highest: scikit-learn's
    cohen_kappa_score(weights=…, labels=range(lowest, highest + 1)) with ``labels`` spanning every grade. Without
    ``labels`` scikit-learn weighs by the rank among the grades given, so a grade in the middle that neither judge
    gave changes its value (0,1,3 read as 0,1,2). Unweighted kappa is ``cohen-kappa``.

    >>> weighted_kappa("0,1,2,3", "0,1,3,3").value
    Fraction(11, 12)
    """
    key = DEFAULT_WEIGHTS if weights is None else weights
    if not isinstance(key, str) or key.strip().lower() not in WEIGHTS:
        raise ParameterError(f"weights is one of {', '.join(map(repr, WEIGHTS))} (unweighted: cohen-kappa), got {weights!r:.40}")
    key = key.strip().lower()
    first, second = _columns(judge1, judge2)
    if not isinstance(first[0], int):
        raise RankingError("weighted kappa needs ordered categories: give the judges' grades as integers (0,1,2), "
                           "not labels; unordered labels: cohen-kappa")
    categories = _categories(first, second)
    counts, rows_total, columns_total, table = _agreement_table(first, second, categories)
    size, span = len(first), categories[-1] - categories[0]
    if span == 0:
        raise ParameterError("weighted kappa is undefined: both judges put every document in the same category")

    def weight(i, j):
        distance = Fraction(abs(categories[i] - categories[j]), span)
        return distance if key == "linear" else distance**2

    cells, observed, expected = [], [], []
    for i, a in enumerate(categories):
        for j, b in enumerate(categories):
            chance = Fraction(rows_total[i] * columns_total[j], size)
            if i == j or not (counts[i][j] or chance):
                continue
            w = weight(i, j)
            observed.append(w * counts[i][j])
            expected.append(w * chance)
            cells.append((a, b, w, counts[i][j], w * counts[i][j], chance, w * chance))
    cell_table = Table(("judge 1", "judge 2", "w_ij", "O_ij", "w_ij · O_ij", "E_ij", "w_ij · E_ij"), tuple(cells),
                       f"The disagreements, weighted: w_ij = {WEIGHTS[key][0]} with k - 1 = {span}, "
                       "E_ij = n_1(i) · n_2(j) / n (the diagonal weighs 0)")
    n = Traced(size, "n", "Documents judged")
    d_observed = Traced(sum(observed), "Σw·O", "Weighted disagreement observed: Σ w_ij · O_ij (column w_ij · O_ij)")
    d_expected = Traced(sum(expected), "Σw·E", "Weighted disagreement expected by chance: Σ w_ij · E_ij (column w_ij · E_ij)")
    if d_expected.value == 0:
        raise ParameterError("weighted kappa is undefined: both judges put every document in the same category")
    value = (1 - d_observed / d_expected).named("κ_w", f"Weighted kappa ({key} weights)")
    never = [c for i, c in enumerate(categories) if not rows_total[i] and not columns_total[i]]
    sklearn = (f"scikit-learn's cohen_kappa_score(weights='{key}', labels=range({categories[0]}, {categories[-1] + 1})) "
               "gives the same, with labels spanning every grade"
               + (f"; without labels it leaves out grade{'s' * (len(never) > 1)} {', '.join(map(str, never))}, "
                  "never given, and weighs by the rank among the grades given: another value" if never else ""))
    notes = [Note("convention", f"weights = {key}: a disagreement between grades i and j weighs "
                  f"w_ij = {WEIGHTS[key][0]} ({WEIGHTS[key][1]}); {sklearn}"),
             Note("reading", f"κ_w = {float(value):.4f} is {kappa_reading(value.value)}")]
    return Result("weighted-kappa", f"Weighted kappa ({key} weights, {len(categories)} grades)", value,
                  context=_context(first, second), parameters={"weights": key}, notes=notes,
                  tables=[table, cell_table], support=[n])
