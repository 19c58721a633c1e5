"""The explanation document: a small tree of blocks that every renderer understands.

Metrics, solvers and exercise sets build documents out of these blocks; renderers (``irlab.render``)
turn any document into plain text, Markdown, LaTeX, HTML or JSON without knowing what it explains.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from . import trace


@dataclass(frozen=True)
class Paragraph:
    text: str


@dataclass(frozen=True)
class KeyParagraph(Paragraph):
    """A paragraph that is itself the answer (a choice question's right options, a model answer): rendered as any
    paragraph, and kept by ``answers_only``."""


@dataclass(frozen=True)
class StatementParagraph(Paragraph):
    """A paragraph of an exercise's statement (its text and data: the ranking, the counts): rendered as any
    paragraph, and kept by ``answers_only`` so a key can be checked against the data it answers."""


@dataclass(frozen=True)
class AnswerBox(Paragraph):
    """Room on a student's sheet to write an answer and its working: LaTeX draws a framed box ``lines`` lines high;
    the other renderers show it as the paragraph it is (its label, then ruled lines)."""

    lines: int = 4


@dataclass(frozen=True)
class Note:
    """A remark that changes how to read the result: a convention, an assumption or a warning."""

    kind: str  # "convention" | "assumption" | "warning" | "reading"
    text: str


@dataclass(frozen=True)
class Formula:
    """A displayed formula, written once for terminals and once in LaTeX."""

    text: str
    latex: str
    caption: str | None = None


@dataclass(frozen=True)
class Table:
    """Rows of cells; a cell is a string or an exact number (int, Fraction, sympy expression)."""

    columns: tuple[str, ...]
    rows: tuple[tuple[Any, ...], ...]
    caption: str | None = None
    names: bool = False  # headers and text cells are names (trec_eval's P_5, iprec_at_recall_0.80): set as written


@dataclass(frozen=True)
class StatementTable(Table):
    """A table of an exercise's statement (the judgments): rendered as any table, and kept by ``answers_only``.

    ``given`` is the table as the statement prints it when a solution added its own columns to it (each rule's
    verdict): an answers-only key shows the statement's table, not the working."""

    given: Table | None = None


@dataclass(frozen=True)
class WorkingTable(Table):
    """A table a student fills in by hand (a sheet's blank rank table): rendered as any table; LaTeX rules every row
    and leaves each empty column room to write in."""


@dataclass(frozen=True)
class Step:
    """One named intermediate value: label, formula, substitution and exact result."""

    label: str
    symbol: str
    value: Any
    formula_text: str | None = None
    formula_latex: str | None = None
    substitution_text: str | None = None
    substitution_latex: str | None = None
    note: str | None = None
    written_text: str | None = None  # the exact value as the computation wrote it (trace.written)
    written_latex: str | None = None

    @classmethod
    def from_traced(cls, node: trace.Traced) -> "Step":
        written = {"written_text": trace.written(node, "text"), "written_latex": trace.written(node, "latex")}
        if node.is_leaf:
            return cls(node.label, node.symbol, node.value, note=node.note, **written)
        formula_text = trace.formula(node, "text")
        substitution_text = trace.substitution(node, "text")
        return cls(
            node.label,
            node.symbol,
            node.value,
            formula_text,
            trace.formula(node, "latex"),
            substitution_text if substitution_text != formula_text else None,
            trace.substitution(node, "latex") if substitution_text != formula_text else None,
            node.note,
            **written,
        )


@dataclass(frozen=True)
class Steps:
    steps: tuple[Step, ...]

    @classmethod
    def of(cls, *roots: trace.Traced) -> "Steps":
        """The steps behind ``roots`` (supporting values first, the result last), each shown once."""
        return cls(tuple(Step.from_traced(node) for node in trace.steps(*roots)))


@dataclass(frozen=True)
class Answer:
    """The final value of a computation, shown exact and decimal."""

    label: str
    symbol: str
    value: Any
    written_text: str | None = None  # the exact value as the computation wrote it (trace.written)
    written_latex: str | None = None
    # a quotient's answer read as its parts (nDCG = DCG / IDCG): (symbol, value, written text, written LaTeX) of the
    # numerator and of the denominator; renderers then give the parts' values first and the exact form on its own line
    ratio: tuple = ()

    @classmethod
    def of(cls, label: str, node: trace.Traced, symbol: str | None = None, ratio=()) -> "Answer":
        parts = tuple((part.symbol, part.value, trace.written(part, "text"), trace.written(part, "latex"))
                      for part in ratio)
        return cls(label, symbol or node.symbol, node.value, trace.written(node, "text"), trace.written(node, "latex"),
                   parts)


@dataclass(frozen=True)
class Figure:
    """A plot as deterministic PNG bytes; ``name`` is the file name LaTeX includes it by."""

    caption: str
    png: bytes = field(repr=False)

    @property
    def name(self) -> str:
        import hashlib

        return f"figure-{hashlib.sha256(self.png).hexdigest()[:12]}.png"

    @property
    def data_uri(self) -> str:
        import base64

        return "data:image/png;base64," + base64.b64encode(self.png).decode("ascii")


def figures_in(blocks):
    """Every Figure in ``blocks``, sections included, in reading order."""
    for block in blocks:
        if isinstance(block, Figure):
            yield block
        elif isinstance(block, Section):
            yield from figures_in(block.blocks)


@dataclass(frozen=True)
class Section:
    title: str
    blocks: tuple = ()
    meta: dict = field(default_factory=dict)  # machine-readable facts for JSON (metric, value, conventions…)


class Displayable:
    """Anything with ``render(fmt)``: printed as text, displayed richly (and deterministically) in Jupyter."""

    def render(self, fmt: str = "text", **options) -> str:  # pragma: no cover - every subclass defines it
        raise NotImplementedError

    def __str__(self) -> str:
        return self.render("text")

    def _repr_markdown_(self) -> str:
        return self.render("markdown")

    def _repr_latex_(self) -> str:
        return self.render("latex")

    def _repr_html_(self) -> str:
        return self.render("html")


class Document(Displayable):
    """A titled list of blocks with rich displays for Jupyter; ``str(doc)`` is the plain-text rendering."""

    def __init__(self, title: str, blocks=(), meta: dict | None = None):
        self.title = title
        self.blocks = tuple(blocks)
        self.meta = dict(meta or {})

    def render(self, fmt: str = "text", **options) -> str:
        from .render import render  # deferred: the renderers import this module (the one circle allowed)

        return render(self, fmt, **options)

    def __repr__(self) -> str:
        return f"<Document {self.title!r}>"


def _rank_key(table) -> int:
    """How many leading columns describe the ranking itself (rank, document, judgment, relevant so far), or the
    judged documents (document, judge 1, judge 2, …); 0 if none."""
    columns = list(table.columns)
    if columns and columns[0] == "document" and "judge 1" in columns:
        return max(i for i, name in enumerate(columns) if name.startswith("judge ")) + 1
    if not columns or columns[0] != "rank" or "judgment" not in columns:
        return 0
    last = "relevant so far" if "relevant so far" in columns else "judgment"
    return columns.index(last) + 1


def gather_rank_tables(sections, caption: str = "Rank table (every question of this exercise refers to it)",
                       whose: str = "The"):
    """One rank table for several questions on the same ranking: their rank tables merged, each column once.

    Returns the merged table (or None when fewer than two questions show the same ranking) and the sections with
    each merged table replaced by a sentence naming the columns it contributed. Columns of the same name and the
    same cells appear once; a name that differs between questions is suffixed with the question. ``whose`` begins
    that sentence ("Query q1's" when the exercise has several rankings). Tables of judged documents (document,
    judge 1, judge 2, …) are gathered the same way.
    """
    found = []  # (section index path, table)

    def collect(blocks, owner):
        for block in blocks:
            if isinstance(block, Table) and _rank_key(block):
                found.append((owner, block))
            elif isinstance(block, Section):
                collect(block.blocks, block.meta.get("question", owner))

    for section in sections:
        collect(section.blocks, section.meta.get("question", section.title))
    if len(found) < 2:
        return None, without_repeats(sections)
    width = _rank_key(found[0][1])
    key_columns = found[0][1].columns[:width]
    key_rows: dict = {}
    columns: dict = {}  # name -> {rank: cell}
    merged = {}  # id(table) -> names of the columns it contributed
    for owner, table in found:
        if table.columns[:width] != key_columns or _rank_key(table) != width:
            continue
        rows = {row[0]: row[:width] for row in table.rows}
        if any(key_rows.get(rank, row) != row for rank, row in rows.items()):
            continue  # another ranking: the question keeps its own table
        key_rows.update(rows)
        names = []
        for i, name in enumerate(table.columns[width:], width):
            cells = {row[0]: row[i] for row in table.rows}
            same = [n for n, c in columns.items() if all(c.get(rank, cell) == cell for rank, cell in cells.items())
                    and all(cells.get(rank, cell) == cell for rank, cell in c.items())]
            if name in columns and all(columns[name].get(rank, cell) == cell for rank, cell in cells.items()):
                columns[name].update(cells)
            elif same:  # the same numbers under another name (P@k and precision): shown once
                name = same[0]
            else:
                name = name if name not in columns else f"{name} ({owner})"
                columns[name] = cells
            names.append(name)
        merged[id(table)] = names
    if len(merged) < 2:
        return None, without_repeats(sections)
    ranks = sorted(key_rows) if all(isinstance(rank, int) for rank in key_rows) else list(key_rows)  # documents as given
    rows = tuple((*key_rows[rank], *(columns[name].get(rank) for name in columns)) for rank in ranks)
    shared = Table((*key_columns, *columns), rows, caption)

    def replace(blocks):
        out = []
        for block in blocks:
            if isinstance(block, Table) and id(block) in merged:
                names = merged[id(block)]
                what = "judgments are in the table" if block.columns[0] == "document" else "ranking is in the rank table"
                if names:  # a question that only counts needs no pointer: the exercise says every question uses it
                    out.append(Paragraph(f"{whose} {what} above (columns: {', '.join(names)})."))
            elif isinstance(block, Table) and _rank_key(block) == len(block.columns):
                continue  # another query's ranking with nothing but its judgments: the statement and context show it
            elif isinstance(block, Section):
                out.append(Section(block.title, tuple(replace(block.blocks)), block.meta))
            else:
                out.append(block)
        return out

    return shared, without_repeats([Section(s.title, tuple(replace(s.blocks)), s.meta) for s in sections])


def without_repeats(sections):
    """Sections in which a description, note or formula already stated earlier (at any depth) is not repeated,
    nor a given value (R = 8, given) that an earlier step already named."""
    seen = set()

    def walk(blocks):
        out = []
        for block in blocks:
            if isinstance(block, Section):
                out.append(Section(block.title, tuple(walk(block.blocks)), block.meta))
            elif isinstance(block, Steps):
                given = [s for s in block.steps if s.note == "given" and s.formula_text is None]
                kept = tuple(s for s in block.steps if s not in given or ("given", s) not in seen)
                seen.update(("given", s) for s in given)
                if kept:
                    out.append(Steps(kept) if len(kept) != len(block.steps) else block)
            elif isinstance(block, (Paragraph, Note, Formula)) and block in seen:
                continue
            else:
                if isinstance(block, (Paragraph, Note, Formula)):
                    seen.add(block)
                out.append(block)
        return out

    return walk(sections)


def answers_only(document: Document) -> Document:
    """An answer key without the working: each exercise's title and statement (its data: the ranking, the counts,
    the judgments' table, and a warning about which data was solved), then every question's title and its answers."""

    def keep(blocks, depth):
        out = []
        for block in blocks:
            if isinstance(block, (Answer, KeyParagraph, StatementParagraph)):
                out.append(block)
            elif isinstance(block, StatementTable):
                out.append(block.given or block)
            elif isinstance(block, Note) and block.kind == "warning" and depth == 0:  # e.g. solved with the first 20
                out.append(block)
            elif isinstance(block, Section) and "question" in block.meta:
                out.append(Section(block.title, tuple(keep(block.blocks, depth + 1)), block.meta))
            elif isinstance(block, Section) and depth > 0:  # an alternative reading inside a question: its answer
                out += keep(block.blocks, depth + 1)
            elif isinstance(block, Section):
                out.append(Section(block.title, tuple(keep(block.blocks, depth)), block.meta))
            elif isinstance(block, Paragraph) and depth == 0 and not out and block is blocks[0]:
                out.append(block)  # the key's heading line (who it is for)
        return out

    return Document(document.title, keep(document.blocks, 0), document.meta)
