"""Several queries: the F-measure averaged per query (macro) and over pooled counts (micro)."""

from __future__ import annotations

from ..document import Note, Table
from ..errors import RankingError
from ..metric import Result
from ..metrics import f_measure, mean_over_queries
from ..trace import Traced
from .solution import Answer, Solution


def f_macro_micro(rankings) -> Solution:
    """Macro F (mean of the per-query F) and micro F (F of the summed counts), both labelled.

    >>> from irlab import Ranking
    >>> qs = [Ranking.parse("NRNRRN", relevant=10), Ranking.parse("NNRRR", relevant=20)]
    >>> [str(a.value) for a in f_macro_micro(qs).answers]
    ['123/400', '12/41']
    """
    empty = [i for i, r in enumerate(rankings, 1) if r.is_empty]
    if empty:  # F of a query without documents has no value; the metric f takes empty_ranking = zero instead
        raise RankingError(f"query {empty[0]}'s ranking is empty: f-macro-micro needs documents in every query; "
                           "ask for solver = \"f\" with empty_ranking = \"zero\" to score it 0")
    per_query = [f_measure(r) for r in rankings]
    macro = mean_over_queries(per_query, "F_macro")
    macro.title = "F-measure averaged over queries (macro)"
    hits = Traced(sum(r.relevant_retrieved for r in rankings), "Σhits", "Relevant retrieved, all queries")
    retrieved = Traced(sum(r.retrieved for r in rankings), "Σn", "Retrieved, all queries")
    relevant = Traced(sum(r.total_relevant for r in rankings), "ΣR", "Relevant, all queries")
    p = (hits / retrieved).named("P_micro", "Pooled precision")
    r = (hits / relevant).named("Rec_micro", "Pooled recall")
    f = ((2 * p * r) / (p + r)).named("F_micro", "F-measure of the pooled counts (micro)") if p.value + r.value else Traced(0, "F_micro", "F")
    rows = tuple((f"q{i}", q.retrieved, q.relevant_retrieved, q.total_relevant) for i, q in enumerate(rankings, 1))
    micro = Result("f", "F-measure of pooled counts (micro)", f,
                   tables=[Table(("query", "retrieved", "relevant retrieved", "R"), rows, "Counts per query")])
    notes = [Note("convention", "macro averaging gives every query the same weight; micro averaging pools the counts, "
                                "so queries with more documents weigh more")]
    return Solution([Answer("F-measure, macro average over queries", macro),
                     Answer("F-measure, micro average (pooled counts)", micro)], notes)
