"""Relevance aggregated over several judges, then precision, recall and F of a retrieved set."""

from __future__ import annotations

from ..document import Note, Paragraph, Table
from ..errors import ParameterError, RankingError
from ..metric import Result
from ..trace import Traced
from .solution import Answer, Solution

RULES = {
    "all": "relevant when every judge says so (the judges agree it is relevant)",
    "any": "relevant when at least one judge says so",
    "majority": "relevant when more than half of the judges say so",
}


def judgments_columns(table) -> tuple[list[str], list[tuple[int, ...]]]:
    """Split rows [doc, judge1, judge2, …] into document ids and one 0/1 column per judge."""
    if not table:
        raise RankingError("the judgment table is empty")
    width = len(table[0])
    if width < 3:
        raise RankingError("each judgment row needs a document id and at least two judges' 0/1 judgments")
    if all(len(row) == width for row in table):  # the common case, read column by column
        columns = list(zip(*table))
        if all(type(value) is int and (value == 0 or value == 1) for column in columns[1:] for value in column):
            docs = [str(doc) for doc in columns[0]]
            if len(set(docs)) != len(docs):
                raise RankingError("a document id appears twice in the judgment table")
            return docs, columns[1:]
    docs, columns = [], [[] for _ in range(width - 1)]  # row by row: the first problem named
    for number, row in enumerate(table, 1):
        if len(row) != width:
            raise RankingError(f"judgment row {number} has {len(row)} entries, expected {width}")
        docs.append(str(row[0]))
        for judge, value in enumerate(row[1:]):
            if value not in (0, 1) or isinstance(value, bool):
                raise RankingError(f"judgment row {number}, judge {judge + 1}: {value!r} is not 0 or 1")
            columns[judge].append(value)
    if len(set(docs)) != len(docs):
        raise RankingError("a document id appears twice in the judgment table")
    return docs, [tuple(c) for c in columns]


def relevant_by_rule(votes, rule) -> bool:
    """Whether the judges' 0/1 ``votes`` make a document relevant under ``rule`` (one of RULES)."""
    if rule == "all":
        return all(votes)
    if rule == "any":
        return any(votes)
    return sum(votes) * 2 > len(votes)


def aggregate_relevance(table, retrieved, rule: str = "all", beta=1) -> Solution:
    """Aggregate judgments by ``rule`` ('all', 'any', 'majority'), then P, R and F of the retrieved set.

    >>> table = [[1, 1, 1], [2, 1, 0], [3, 0, 0]]
    >>> [str(a.value) for a in aggregate_relevance(table, [1, 2], "any").answers]
    ['1', '1', '1']
    """
    if rule not in RULES:
        raise ParameterError(f"unknown aggregation rule {rule!r}; choose one of {', '.join(RULES)}")
    docs, columns = judgments_columns(table)
    retrieved = [str(d) for d in retrieved]
    known = set(docs)
    unknown = [d for d in retrieved if d not in known]
    if unknown:
        raise RankingError(f"retrieved documents not in the judgment table: {', '.join(unknown)}")
    if len(set(retrieved)) != len(retrieved):
        raise RankingError("a document appears twice in the retrieved set")
    relevant = [d for d, *votes in zip(docs, *columns) if relevant_by_rule(votes, rule)]
    # coded 1/0 like the judges' own columns, so the table reads across as the judgments do
    relevant_set, retrieved_set = set(relevant), set(retrieved)
    rows = tuple((d, *votes, int(d in relevant_set), int(d in retrieved_set)) for d, *votes in zip(docs, *columns))
    judges = [f"judge {i}" for i in range(1, len(columns) + 1)]
    table_block = Table(("document", *judges, f"rule '{rule}'", "retrieved"), rows,
                        "Aggregated judgments (1 = relevant, or retrieved by the system)")
    hits = Traced(len(relevant_set & retrieved_set), "hits", "Relevant documents retrieved")
    n_ret = Traced(len(retrieved), "n", "Documents retrieved")
    n_rel = Traced(len(relevant), "R", "Relevant documents (after aggregation)")
    notes = [Note("convention", f"aggregation rule '{rule}': a document is {RULES[rule]}")]
    context = f"Retrieved: {', '.join(retrieved)}; relevant under rule '{rule}': {', '.join(relevant) or 'none'}"
    p = (hits / n_ret).named("P", "Precision")
    if n_rel.value == 0:
        raise ParameterError(f"no document is relevant under rule '{rule}': recall is undefined")
    r = (hits / n_rel).named("Rec", "Recall")
    if p.value + r.value == 0:
        f = Traced(0, "F1", "F-measure")
    else:
        f = ((2 * p * r) / (p + r)).named("F1", "F-measure")
    answers = [Answer(node.label, Result(name, node.label, node)) for name, node in (("precision", p), ("recall", r), ("f", f))]
    return Solution(answers, [Paragraph(context), *notes, table_block])
