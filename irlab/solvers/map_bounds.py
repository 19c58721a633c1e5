"""MAP bounds: where can the relevant documents missing from the top of a full ranking be?

When a system ranks the whole collection of N documents and only its top n are known, the m relevant
documents not in the top are somewhere in ranks n+1..N. AP is highest when they come right after the top
(ranks n+1..n+m) and lowest when they come last (ranks N-m+1..N). IIR Exercise 8.9 f-h.
"""

from __future__ import annotations

from ..document import Formula, Note
from ..errors import ParameterError
from ..exact import display_text
from ..metric import Result
from ..trace import Traced, maximum, total
from ..metrics.common import precision_at, relevant_leaf
from .solution import Answer, Solution


def _top_precisions(ranking) -> list[Traced]:
    return [precision_at(ranking, rank) for rank in range(1, ranking.retrieved + 1) if ranking.relevance[rank - 1]]


def _placed(hits_before: int, first_rank: int, missing: int) -> list[Traced]:
    """P@rank of the missing relevant documents placed at consecutive ranks from ``first_rank``."""
    return [(Traced(hits_before + j) / Traced(first_rank + j - 1)).named(f"P@{first_rank + j - 1}") for j in range(1, missing + 1)]


def _ap(ranking, placed, symbol, label, where):
    relevant = relevant_leaf(ranking)
    summed = total(_top_precisions(ranking) + placed, f"S_{symbol[3:]}", f"Sum of the precisions at the relevant ranks, {where}")
    return (summed / relevant).named(symbol, label)


def lowest_ap_in_n(ranking):
    """The lowest AP as a sympy expression in the collection size N (the missing documents ranked last)."""
    import sympy  # deferred: sympy is heavy; only the lowest AP as a function of N needs it

    N = sympy.Symbol("N", positive=True, integer=True)
    hits = ranking.relevant_retrieved
    missing = ranking.total_relevant - hits
    top = sum(sympy.Rational(ranking.hits(rank), rank) for rank in range(1, ranking.retrieved + 1) if ranking.relevance[rank - 1])
    # one n-ary sum: adding the terms one by one re-sorts the growing sum each time (minutes for R = 1,500)
    tail = sympy.Add(*(sympy.Integer(hits + j) / (N - missing + j) for j in range(1, missing + 1)))
    return (top + tail) / ranking.total_relevant, N


def _lowest_formula(ranking):
    """AP_min(N) written out, or as a sum over the missing documents when they are many (the exact value stays)."""
    import sympy  # deferred: sympy is heavy; only the lowest AP as a function of N needs it

    hits = ranking.relevant_retrieved
    missing = ranking.total_relevant - hits
    if missing <= 20:
        expression, _ = lowest_ap_in_n(ranking)
        return display_text(expression), sympy.latex(expression)  # '7/(8 · (N - 1))', never Python's '*'
    top = sum(sympy.Rational(ranking.hits(rank), rank) for rank in range(1, ranking.retrieved + 1) if ranking.relevance[rank - 1])
    R = ranking.total_relevant
    return (f"({sympy.sstr(top)} + Σ_{{j=1..{missing}}} ({hits} + j) / (N - {missing} + j)) / {R}",
            rf"\frac{{1}}{{{R}}} \left({sympy.latex(top)} + \sum_{{j=1}}^{{{missing}}} \frac{{{hits} + j}}{{N - {missing} + j}}\right)")


def map_bounds(ranking) -> Solution:
    """Highest and lowest AP a full ranking of the collection can have, given its top, R and N.

    >>> from irlab import Ranking
    >>> s = map_bounds(Ranking.parse("RNNRR", relevant=5, collection=100))
    >>> [str(a.value) for a in s.answers]
    ['731/1050', '4337/9900', '29/105']
    """
    if ranking.collection is None:
        raise ParameterError("MAP bounds need the collection size N (the system ranks the whole collection)")
    if ranking.relevant is None and not ranking.unretrieved:
        raise ParameterError("MAP bounds need R, the number of relevant documents in the collection")
    n, N = ranking.retrieved, ranking.collection
    hits = ranking.relevant_retrieved
    missing = ranking.total_relevant - hits
    notes = [Note("assumption", f"the system ranked all N = {N} documents; the list is its top {n}, holding {hits} of the "
                                f"R = {ranking.total_relevant} relevant documents, so {missing} relevant documents are "
                                f"somewhere in ranks {n + 1}..{N}")]
    if ranking.total_relevant == 0:
        raise ParameterError("MAP bounds need at least one relevant document (R > 0)")
    high_placed = _placed(hits, n + 1, missing)
    low_placed = _placed(hits, N - missing + 1, missing)
    highest = _ap(ranking, high_placed, "AP_max", "Highest possible AP", "missing documents right after the top")
    lowest = _ap(ranking, low_placed, "AP_min", "Lowest possible AP", "missing documents ranked last")
    estimate = _ap(ranking, [], "AP_top", f"AP of the top {n} alone (÷ R)", f"top {n} only")
    gap_high = (highest - estimate).named("e_max", "Error against the highest")
    gap_low = (lowest - estimate).named("e_min", "Error against the lowest")
    error = maximum([gap_high, gap_low], "error", "Largest error of the top-list estimate")

    # where the relevant documents sit, in one line: the ranks already appear term by term in the sum S
    top_ranks = ", ".join(str(rank) for rank in range(1, n + 1) if ranking.relevance[rank - 1])

    def placement(case, placed, where):
        missing_ranks = ", ".join(p.symbol[2:] for p in placed)
        return Note("assumption", f"{case}: relevant documents at ranks {top_ranks or 'none'} (top list)"
                                  + (f" and {missing_ranks} ({where})" if placed else ""))

    context = ranking.describe()
    high = Result("map_bounds", "Highest possible AP", highest, context=context,
                  notes=[placement("best case", high_placed, "the missing ones placed right after the top")])
    low_text, low_latex = _lowest_formula(ranking)
    low_formula = Formula(f"AP_min(N) = {low_text}", f"\\mathrm{{AP}}_{{\\min}}(N) = {low_latex}",
                          "Lowest AP as a function of the collection size N")
    low = Result("map_bounds", "Lowest possible AP", lowest, context=context, formula=low_formula,
                 notes=[placement("worst case", low_placed, "the missing ones placed last")])
    err = Result("map_bounds", "Largest error of the top-list estimate", error, context=context,
                 notes=[Note("reading", "the top-list estimate divides the precisions found in the top list by R; the "
                                         "true AP lies between the lowest and the highest value")])
    low.parameters["lowest_in_N"] = low_text.replace(" · ", "*")  # machine-readable (sympify), as JSON carries it
    return Solution([Answer("Highest possible AP", high), Answer("Lowest possible AP", low),
                     Answer("Largest error of the top-list estimate", err)], notes)
