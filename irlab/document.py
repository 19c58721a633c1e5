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

    @classmethod
    def of(cls, label: str, node: trace.Traced, symbol: str | None = None) -> "Answer":
        return cls(label, symbol or node.symbol, node.value, trace.written(node, "text"), trace.written(node, "latex"))


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
        from .render import render

        return render(self, fmt, **options)

    def __repr__(self) -> str:
        return f"<Document {self.title!r}>"
