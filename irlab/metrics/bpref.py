"""bpref: a measure that uses only judged documents, for incomplete judgments (Buckley & Voorhees 2004).

Unjudged documents (``U`` in an R/N string, or absent from the qrels) are skipped; each relevant document
retrieved is penalised by the judged non-relevant documents ranked above it:

    bpref = (1 / R) · Σ_{relevant retrieved r} (1 - min(n_r, R) / min(R, N))

with R the relevant documents, N the judged non-relevant documents of the query (retrieved or not) and n_r the
judged non-relevant documents ranked above r (a term is 1 when n_r = 0). This is trec_eval 10.0's bpref.

>>> from irlab import Ranking
>>> bpref(Ranking.parse("RNURN", relevant=3)).value
Fraction(1, 2)
"""

from __future__ import annotations

from fractions import Fraction

from ..document import Note, Table
from ..metric import Result
from ..trace import Traced, minimum, total
from .common import ranking_notes, relevant_leaf


def bpref(ranking) -> Result:
    """bpref (Buckley & Voorhees 2004; trec_eval bpref): unjudged documents are skipped, not counted non-relevant."""
    relevant = relevant_leaf(ranking)
    notes = ranking_notes(ranking)
    unjudged = set(ranking.unjudged)
    judged_nonrel_retrieved = sum(1 for rank, g in enumerate(ranking.grades, 1)
                                  if rank not in unjudged and not ranking.is_relevant(g))
    judged_nonrel_missed = ranking.nonrelevant_unretrieved
    if judged_nonrel_missed is None:
        judged_nonrel_missed = sum(1 for g in ranking.unretrieved if not ranking.is_relevant(g))
    nonrel = Traced(judged_nonrel_retrieved + judged_nonrel_missed, "N",
                    "Judged non-relevant documents (retrieved or not)")
    if ranking.nonrelevant_unretrieved is None and not ranking.unretrieved:
        notes.append(Note("assumption", "no judged documents outside the list were given: N counts the judged "
                                        "non-relevant documents of the list only"))
    if relevant.value == 0:
        notes.append(Note("warning", "there are no relevant documents: bpref is reported as 0, as trec_eval does"))
        return Result("bpref", "bpref", Traced(0, "bpref", "bpref"), ranking=ranking, notes=notes)
    bound = minimum([relevant, nonrel], "min(R, N)", "The largest penalty count")
    rows, terms, seen_nonrel = [], [], 0
    for rank, grade in enumerate(ranking.grades, 1):
        if rank in unjudged:
            rows.append((rank, "U", seen_nonrel, "skipped"))
            continue
        if ranking.is_relevant(grade):
            if seen_nonrel == 0:
                term = Traced(1, f"b_{rank}")
            else:
                penalty = min(seen_nonrel, relevant.value)
                term = Traced(1 - Fraction(penalty, bound.value), f"b_{rank}")
            terms.append(term)
            rows.append((rank, ranking.symbol(rank), seen_nonrel, term.value))
        else:
            seen_nonrel += 1
            rows.append((rank, ranking.symbol(rank), seen_nonrel, ""))
    summed = total(terms, "S", "Sum over the relevant retrieved of 1 - min(n_r, R) / min(R, N)")
    value = (summed / relevant).named("bpref", "bpref")
    table = Table(("rank", "judgment", "judged non-relevant so far (n_r)", "term 1 - min(n_r, R) / min(R, N)"),
                  tuple(rows), "The ranking, judged documents only")
    return Result("bpref", "bpref", value, ranking=ranking, notes=notes, tables=[table], support=[nonrel, bound])

