"""infAP: average precision estimated from a random sample of the pool (Yilmaz & Aslam 2006).

When only a random sample of the depth-k pool is judged, each retrieved document is one of four kinds: judged
relevant (``R``), judged non-relevant (``N``), in the pool but sampled out, i.e. not judged (``S``; qrels grade
-1), or not in the pool at all (``U``; absent from the qrels). infAP replaces the precision at each relevant
rank k by its expectation: the document at k itself is relevant, a document above k outside the pool counts as
non-relevant, and a pooled document above k is relevant in the proportion seen among the judged ones above k:

    E[P@k] = 1/k + ((k - 1)/k) · (d_k / (k - 1)) · ((r_k + ε) / (r_k + n_k + 2ε)),   E[P@1] = 1
    infAP  = (1 / R) · Σ_{judged relevant rank k} E[P@k]

with d_k the pooled documents above k (judged or not), r_k and n_k the judged relevant and non-relevant
documents above k, R the judged relevant documents of the query and ε = 0.00001 (smoothing when nothing above k
is judged). This is trec_eval 10.0's infAP (m_infap.c), computed exactly; with every pooled document judged and
nothing outside the pool it is AP up to ε.

Reference: E. Yilmaz and J. A. Aslam, "Estimating average precision with incomplete and imperfect judgments",
CIKM 2006; trec_eval 10.0 infAP.

>>> from irlab import Ranking
>>> infap(Ranking.parse("RSNUR", relevant=3)).value
Fraction(1, 2)
"""

from __future__ import annotations

from fractions import Fraction

from ..document import Note, Table
from ..metric import Result
from ..trace import Traced, total
from .common import ranking_notes, relevant_leaf

EPSILON = Fraction(1, 100000)  # trec_eval 10.0's INFAP_EPSILON
SHOWN_TERMS = 8  # up to this many relevant ranks each get their own worked step; beyond, the table has them all

KINDS = {"R": "judged relevant", "N": "judged non-relevant", "S": "in the pool, sampled out (not judged)",
         "U": "not in the pool"}


def _kind(ranking, rank: int, unjudged: set, sampled_out: set) -> str:
    if rank in sampled_out:
        return "S"
    if rank in unjudged:
        return "U"
    return "R" if ranking.relevance[rank - 1] else "N"


def _expected_precision(rank, pooled, rel, nonrel, epsilon, worked: bool) -> Traced:
    """E[P@rank] as a traced expression (its own step when ``worked``), or as its value alone."""
    symbol = f"E[P@{rank}]"
    if rank == 1:
        return Traced(1, symbol, "Expected precision at rank 1: the relevant document itself" if worked else None)
    if not worked:
        value = (Fraction(1, rank) + Fraction(rank - 1, rank) * Fraction(pooled, rank - 1)
                 * (rel + epsilon.value) / (rel + nonrel + 2 * epsilon.value))
        return Traced(value, symbol)
    k = Traced(rank, "k")
    d = Traced(pooled, "d_k")
    r = Traced(rel, "r_k")
    n = Traced(nonrel, "n_k")
    term = 1 / k + ((k - 1) / k) * (d / (k - 1)) * ((r + epsilon) / (r + n + 2 * epsilon))
    return term.named(symbol, f"Expected precision at rank {rank}")


def infap(ranking) -> Result:
    """infAP (Yilmaz & Aslam 2006; trec_eval infAP): AP estimated from a judged random sample of the pool.

    ``S`` in an R/N string (a qrels grade -1 from TREC files) marks a pooled document that was not judged, ``U``
    one outside the pool. The per-rank table sorts every retrieved document into these kinds.
    """
    relevant = relevant_leaf(ranking)
    notes = ranking_notes(ranking)
    unjudged, sampled_out = set(ranking.unjudged), set(ranking.sampled_out)
    epsilon = Traced(EPSILON, "eps", "Smoothing constant eps (trec_eval's INFAP_EPSILON; with nothing judged above k, "
                                     "S documents count as relevant in the share eps / 2 eps = 1/2)")
    worked = ranking.relevant_retrieved <= SHOWN_TERMS
    rows, terms = [], []
    rel = nonrel = pooled_out = 0  # judged relevant, judged non-relevant, pooled unjudged above the current rank
    for rank in range(1, ranking.retrieved + 1):
        kind = _kind(ranking, rank, unjudged, sampled_out)
        pooled = rel + nonrel + pooled_out
        term = ""
        if kind == "R":
            traced = _expected_precision(rank, pooled, rel, nonrel, epsilon, worked)
            terms.append(traced)
            term = traced.value
        rows.append((rank, kind, KINDS[kind], rank - 1, pooled, rel, nonrel, term))
        rel += kind == "R"
        nonrel += kind == "N"
        pooled_out += kind == "S"
    if relevant.value == 0:
        notes.append(Note("warning", "there are no judged relevant documents: infAP is reported as 0, as trec_eval "
                                     "does"))
        return Result("infap", "Inferred average precision (infAP)", Traced(0, "infAP", "infAP"), ranking=ranking,
                      notes=notes, tables=[_table(rows)])
    notes.append(Note("reading", "above rank k, d_k counts the pooled documents (R, N and S), r_k and n_k the judged "
                                 "relevant (R) and non-relevant (N) ones; a document not in the pool (U) counts as "
                                 "non-relevant, and a pooled one that was not judged (S) as relevant in the proportion "
                                 "(r_k + eps) / (r_k + n_k + 2 eps) of the judged ones above k. Only judged relevant "
                                 "ranks add a term; E[P@1] = 1 (Yilmaz & Aslam 2006; trec_eval infAP)"))
    if not sampled_out and not unjudged:
        notes.append(Note("reading", "every retrieved document is judged: infAP equals AP up to the smoothing eps"))
    summed = total(terms, "Σ", "Sum of E[P@k] over the judged relevant ranks")  # not S: S marks a sampled-out rank
    value = (summed / relevant).named("infAP", "Inferred average precision")
    return Result("infap", "Inferred average precision (infAP)", value, ranking=ranking, notes=notes,
                  tables=[_table(rows)], support=[epsilon])


def _table(rows) -> Table:
    # symbols as headers, explained in the caption: the table then fits a printed page
    return Table(("rank k", "judgment", "kind", "k - 1", "d_k", "r_k", "n_k", "E[P@k]"), tuple(rows),
                 "The ranking: each document judged relevant (R), judged non-relevant (N), sampled out (S) or not in "
                 "the pool (U); above rank k: d_k pooled documents (R, N or S), r_k judged relevant, n_k judged "
                 "non-relevant")
