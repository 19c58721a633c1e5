"""Markdown with $…$ math (GitHub, Jupyter): headings, pipe tables, numbered steps."""

from __future__ import annotations

from ..document import Answer, Figure, Formula, Note, Paragraph, Section, Steps, Table
from ..trace import symbol_latex
from .common import NOTE_TITLES, cell_text, step_chain, value_latex


def render_markdown(document, **_options) -> str:
    lines = [f"## {document.title}", ""] + _blocks(document.blocks, 3)
    return "\n".join(lines).rstrip() + "\n"


def _escape(text: str) -> str:
    return text.replace("|", r"\|").replace("*", r"\*")


def _blocks(blocks, level):
    lines = []
    for block in blocks:
        if isinstance(block, Section):
            lines += [f"{'#' * min(level, 6)} {block.title}", ""] + _blocks(block.blocks, level + 1)
        elif isinstance(block, Paragraph):
            lines += [_escape(block.text), ""]
        elif isinstance(block, Note):
            lines += [f"> **{NOTE_TITLES.get(block.kind, block.kind.title())}:** {_escape(block.text)}", ""]
        elif isinstance(block, Formula):
            if block.caption:
                lines += [f"*{block.caption}:*", ""]
            lines += [f"$${block.latex}$$", ""]
        elif isinstance(block, Table):
            if block.caption:
                lines += [f"*{_escape(block.caption)}*", ""]
            lines.append("| " + " | ".join(_escape(c) for c in block.columns) + " |")
            lines.append("|" + "|".join("---" for _ in block.columns) + "|")
            for row in block.rows:
                lines.append("| " + " | ".join(_escape(cell_text(c)) for c in row) + " |")
            lines.append("")
        elif isinstance(block, Steps):
            for number, step in enumerate(block.steps, 1):
                note = f" ({_escape(step.note)})" if step.note else ""
                lines.append(f"{number}. {_escape(step.label)}: ${step_chain(step, 'latex')}${note}")
            lines.append("")
        elif isinstance(block, Answer):
            lines += [f"**{_escape(block.label)}:** ${symbol_latex(block.symbol)} = {value_latex(block.value, block.written_latex)}$", ""]
        elif isinstance(block, Figure):
            lines += [f"![{_escape(block.caption)}]({block.data_uri})", ""]
        else:
            raise TypeError(f"cannot render block {type(block).__name__}")
    return lines
