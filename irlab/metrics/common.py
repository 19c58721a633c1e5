"""Helpers the ranking metrics share: the R leaf, the per-rank table, the standard context lines."""

from __future__ import annotations

from ..document import Note, Table
from ..errors import ParameterError
from .. import exact
from ..trace import Traced, made, made_leaf


def relevant_leaf(ranking) -> Traced:
    """R, the number of relevant documents, as a step that says where it came from."""
    # a TREC topic's qrels judge the documents not retrieved as well: R counted from them, never "given"
    from_judgments = (ranking.nonrelevant_unretrieved is not None
                      and ranking.total_relevant == ranking.relevant_retrieved + ranking.relevant_unretrieved)
    if ranking.relevant is not None and not from_judgments:
        note = "given"
    elif ranking.unretrieved or from_judgments:
        note = f"{ranking.relevant_retrieved} retrieved + {ranking.relevant_unretrieved} judged relevant but not retrieved"
    else:
        note = "assumed: only the relevant documents retrieved"
    return Traced(ranking.total_relevant, "R", "Relevant documents for the query", note=note)


def ranking_notes(ranking) -> list[Note]:
    assumption = ranking.assumption()
    return [Note("assumption", assumption)] if assumption else []


def rank_table(ranking, depth: int, columns: dict | None = None) -> Table:
    """Rank, judgment and running count of relevant documents, then the metric's own columns (name -> cells)."""
    columns = columns or {}
    document = ["document"] if ranking.ids is not None else []
    names = ["rank", *document, "judgment", "relevant so far", *columns]
    ranks = range(1, depth + 1)
    # one column at a time, then zipped into rows: a rank table is made for most answers a key holds
    leading = [ranks, ranking.ids] if document else [ranks]
    judgments = map(ranking.symbol, ranks)
    so_far = map(ranking.hits, ranks)
    return Table(tuple(names), tuple(zip(*leading, judgments, so_far, *columns.values())))


def precision_at(ranking, rank: int) -> Traced:
    """P@rank = hits@rank / rank, as a traced value (AP and interpolated precision make one per rank)."""
    hits = ranking.hits(rank)
    return made(exact.div(hits, rank), "div", (made_leaf(hits), made_leaf(rank))).named(f"P@{rank}")


def ideal_grades(ranking) -> tuple[list[int], list[Note]]:
    """Every positive judged grade, best first: the ideal ranking used by IDCG and ERR*.

    It includes the judged documents that were not retrieved. When only R is known and the ranking is
    binary, the relevant documents not retrieved have grade 1; for graded rankings their grades must be given.
    """
    grades = [g for g in ranking.grades + ranking.unretrieved if g > 0]
    notes = []
    missing = ranking.total_relevant - ranking.relevant_retrieved - ranking.relevant_unretrieved
    if missing > 0:
        if not ranking.binary:
            raise ParameterError(
                f"R = {ranking.total_relevant} but only {ranking.relevant_retrieved + ranking.relevant_unretrieved} "
                f"relevant grades are known: give the grades of the {missing} relevant documents not retrieved "
                "(--unretrieved) so the ideal ranking can be built"
            )
        grades += [1] * missing
        notes.append(Note("assumption", f"the {missing} relevant documents not retrieved have grade 1 in the ideal ranking"))
    return sorted(grades, reverse=True), notes
