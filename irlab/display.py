"""Rich displays for the library's objects: each becomes a small Document, so Jupyter shows it typeset (HTML with
MathML, Markdown, LaTeX) through the same renderers as every explanation, never as dataclass text."""

from __future__ import annotations

from .document import Document, Paragraph, Section, Table


def ranking_document(ranking) -> Document:
    """A ranking as its one-line description and its rank table (document ids when known)."""
    ids = ["document"] if ranking.ids is not None else []
    rows, so_far = [], 0
    for rank in range(1, len(ranking.grades) + 1):
        so_far += ranking.relevance[rank - 1]
        rows.append((rank, *([ranking.ids[rank - 1]] if ids else []), ranking.symbol(rank), so_far))
    blocks = [Paragraph(ranking.describe()), Table(("rank", *ids, "judgment", "relevant so far"), tuple(rows))]
    return Document("Ranking", blocks)


def exercise_set_document(exercise_set) -> Document:
    """An exercise set as its exercises: statement and the questions with the metric or solver that answers each."""
    sections = []
    for exercise in exercise_set.exercises:
        questions = tuple((q.id, q.text, q.solver) for q in exercise.questions)
        sections.append(Section(f"Exercise {exercise.id}: {exercise.title}",
                                (Paragraph(exercise.statement.strip()), Table(("question", "asks", "solved by"), questions))))
    source = [Paragraph(f"Source: {exercise_set.source}")] if exercise_set.source else []
    return Document(exercise_set.title, [*source, *sections])


def solution_document(solution, title: str = "Solution") -> Document:
    """A solver's solution: its notes, then every answer with the explanation behind it."""
    sections = [answer.result.section(answer.label) for answer in solution.answers]
    return Document(title, [*solution.notes, *sections])


def eval_result_document(result, decimals: int = 4) -> Document:
    """A batch evaluation as trec_eval's table: one row per topic and the 'all' row, measures as columns."""
    topics = sorted(result.per_topic)
    columns = [c for c in result.columns if c in result.summary]

    def cell(value):
        return f"{value:.{decimals}f}" if isinstance(value, float) else str(value)

    rows = [(topic, *(cell(result.per_topic[topic].get(c, "")) for c in columns)) for topic in topics]
    rows.append(("all", *(cell(result.summary[c]) for c in columns)))
    return Document(f"Evaluation of run {result.runid}", [Table(("topic", *columns), tuple(rows), names=True)])
