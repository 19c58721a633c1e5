"""Markdown with $…$ math (GitHub, Jupyter): headings, pipe tables, numbered steps."""

from __future__ import annotations

import re

from ..document import Answer, Figure, Formula, Note, Paragraph, Section, Steps, Table
from ..escape import CONTROL_CHARACTER, control_name
from ..trace import symbol_latex
from .common import NOTE_TITLES, cell_text, ratio_chain, ratio_exact_latex, step_chain, value_latex


def render_markdown(document, **_options) -> str:
    lines = [f"## {markdown_line(document.title)}", ""] + _blocks(document.blocks, 3)
    return "\n".join(lines).rstrip() + "\n"


# what a Markdown viewer would act on in text irlab copies from a file: '<' where a tag, comment or autolink could
# begin, '&' where a character reference could, ']' where a link or an image closes, '$' and '`' that open math and
# code; '|' and '*' for tables and emphasis. A '<' or '&' that cannot open markup ('d < 0', 'Croft & Strohman')
# stays as it is, so the output of irlab's own prose keeps its bytes.
_ACTIVE = re.compile(r"<(?=[A-Za-z/!?])|&(?=[#A-Za-z0-9])|\](?=[(\[:])|[$`|*\\]")
_ACTIVE_IN_BRACKETS = re.compile(_ACTIVE.pattern + r"|[\[\]]")  # an image's description ends at its first ']'
_ESCAPED = {"<": "&lt;", "&": "&amp;"}


def escape_markdown(text: str, active=_ACTIVE) -> str:
    """Text from a file or from irlab shown as written, never acted on: no tag, link, math or code span comes out of
    it, and a control character reads '<U+001B>'."""
    text = text.replace("\r\n", "\n")
    text = CONTROL_CHARACTER.sub(lambda m: f"<{control_name(m.group())}>", text)
    return active.sub(lambda m: _ESCAPED.get(m.group(), "\\" + m.group()), text)


def markdown_line(text: str, active=_ACTIVE) -> str:
    """Escaped text that must stay on one line (a heading, a table cell, a caption): its line breaks become spaces."""
    return escape_markdown(re.sub(r"\s*\n\s*", " ", text), active)


def _math(latex: str) -> str:
    """LaTeX between $ signs with each control character written \\text{U+001B}."""
    return CONTROL_CHARACTER.sub(lambda m: rf"\text{{{control_name(m.group())}}}", latex)


def _blocks(blocks, level):
    lines = []
    for block in blocks:
        if isinstance(block, Section):
            lines += [f"{'#' * min(level, 6)} {markdown_line(block.title)}", ""] + _blocks(block.blocks, level + 1)
        elif isinstance(block, Paragraph):
            lines += [escape_markdown(block.text), ""]
        elif isinstance(block, Note):
            lines += [f"> **{NOTE_TITLES.get(block.kind, block.kind.title())}:** {escape_markdown(block.text)}", ""]
        elif isinstance(block, Formula):
            if block.caption:
                lines += [f"*{markdown_line(block.caption)}:*", ""]
            lines += [f"$${_math(block.latex)}$$", ""]
        elif isinstance(block, Table):
            if block.caption:
                lines += [f"*{markdown_line(block.caption)}*", ""]
            lines.append("| " + " | ".join(markdown_line(c) for c in block.columns) + " |")
            lines.append("|" + "|".join("---" for _ in block.columns) + "|")
            for row in block.rows:
                lines.append("| " + " | ".join(markdown_line(cell_text(c)) for c in row) + " |")
            lines.append("")
        elif isinstance(block, Steps):
            for number, step in enumerate(block.steps, 1):
                note = f" ({markdown_line(step.note)})" if step.note else ""
                lines.append(f"{number}. {markdown_line(step.label)}: ${_math(step_chain(step, 'latex'))}${note}")
            lines.append("")
        elif isinstance(block, Answer) and block.ratio:  # a fraction of sums: the parts' values, then the exact form
            lines += [f"**{markdown_line(block.label)}:** ${_math(ratio_chain(block, 'latex'))}$", "",
                      f"$${_math(ratio_exact_latex(block))}$$", ""]
        elif isinstance(block, Answer):
            value = value_latex(block.value, block.written_latex)
            lines += [f"**{markdown_line(block.label)}:** ${_math(symbol_latex(block.symbol) + ' = ' + value)}$", ""]
        elif isinstance(block, Figure):
            lines += [f"![{markdown_line(block.caption, _ACTIVE_IN_BRACKETS)}]({block.data_uri})", ""]
        else:
            raise TypeError(f"cannot render block {type(block).__name__}")
    return lines
