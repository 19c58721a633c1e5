"""Plain text for terminals: underlined titles, aligned tables, numbered steps."""

from __future__ import annotations

from ..document import Answer, Figure, Formula, Note, Paragraph, Section, Steps, Table
from ..escape import visible_controls
from .common import NOTE_TITLES, cell_text, numeric_columns, ratio_chain, step_chain, value_text

_UNDERLINE = {1: "=", 2: "-", 3: "~", 4: "."}


def render_text(document, **_options) -> str:
    lines = _heading(document.title, 1)
    lines += _blocks(document.blocks, 2)
    # a terminal would obey an escape sequence in a student id or a title: every control character is shown instead
    return visible_controls("\n".join(lines).rstrip() + "\n")


def _heading(title, level):
    title = visible_controls(title)
    return [title, _UNDERLINE.get(level, ".") * len(title), ""]


def _blocks(blocks, level):
    lines = []
    for block in blocks:
        if isinstance(block, Section):
            lines += _heading(block.title, level)
            lines += _blocks(block.blocks, level + 1)
        elif isinstance(block, Paragraph):
            lines += [block.text, ""]
        elif isinstance(block, Note):
            lines += [f"{NOTE_TITLES.get(block.kind, block.kind.title())}: {block.text}", ""]
        elif isinstance(block, Formula):
            prefix = f"{block.caption}: " if block.caption else "Formula: "
            lines += [f"{prefix}{block.text}", ""]
        elif isinstance(block, Table):
            lines += _table(block) + [""]
        elif isinstance(block, Steps):
            for number, step in enumerate(block.steps, 1):
                note = f" ({step.note})" if step.note else ""
                lines.append(f"Step {number}. {step.label}: {step_chain(step)}{note}")
            lines.append("")
        elif isinstance(block, Answer) and block.ratio:  # a fraction of sums: the parts' values, then the exact form
            lines += [f"{block.label}: {ratio_chain(block)}", f"Exact: {block.symbol} = {block.written_text}", ""]
        elif isinstance(block, Answer):
            lines += [f"{block.label}: {block.symbol} = {value_text(block.value, block.written_text)}", ""]
        elif isinstance(block, Figure):
            lines += [f"[Figure: {block.caption}]", ""]
        else:
            raise TypeError(f"cannot render block {type(block).__name__}")
    return lines


def _table(table):
    header = [visible_controls(column) for column in table.columns]
    body = [[visible_controls(cell_text(cell)) for cell in row] for row in table.rows]
    widths = [max(len(row[i]) for row in [header, *body]) for i in range(len(header))]
    numeric = numeric_columns(table)

    def line(cells):
        padded = [c.rjust(w) if num else c.ljust(w) for c, w, num in zip(cells, widths, numeric)]
        return " | ".join(padded).rstrip()

    lines = [f"{table.caption}:"] if table.caption else []
    lines.append(line(header))
    lines.append("-+-".join("-" * w for w in widths))
    lines += [line(row) for row in body]
    return lines
