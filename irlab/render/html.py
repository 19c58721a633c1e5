"""HTML: a fragment for Jupyter, or with ``standalone=True`` a self-contained page that prints cleanly."""

from __future__ import annotations

from html import escape

from .. import exact
from ..document import Answer, Figure, Formula, Note, Paragraph, Section, Steps, Table
from .common import NOTE_TITLES, cell_text, step_chain, value_text

STYLE = """
.irlab { font-family: system-ui, sans-serif; line-height: 1.4; max-width: 60em; }
.irlab table { border-collapse: collapse; margin: 0.5em 0; }
.irlab th, .irlab td { border: 1px solid #bbb; padding: 0.15em 0.6em; text-align: right; }
.irlab th { background: #f2f2f2; }
.irlab .formula, .irlab .step code { font-family: ui-monospace, monospace; }
.irlab .formula { margin: 0.4em 0 0.4em 1.5em; font-size: 1.1em; }
.irlab .note { border-left: 3px solid #888; padding-left: 0.6em; }
.irlab .note.warning { border-color: #c60; }
.irlab .answer { font-weight: bold; }
.irlab figure img { max-width: 100%; }
@media print { .irlab { max-width: none; } .irlab table, .irlab figure { break-inside: avoid; } }
""".strip()


def render_html(document, standalone: bool = False, **_options) -> str:
    parts = ['<div class="irlab">', f"<style>{STYLE}</style>" if not standalone else "", f"<h2>{escape(document.title)}</h2>"]
    parts += _blocks(document.blocks, 3)
    parts.append("</div>")
    body = "\n".join(p for p in parts if p) + "\n"
    if not standalone:
        return body
    return (
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        f"<title>{escape(document.title)}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n{body}</body>\n</html>\n"
    )


def _blocks(blocks, level):
    parts = []
    for block in blocks:
        if isinstance(block, Section):
            tag = f"h{min(level, 6)}"
            parts += ["<section>", f"<{tag}>{escape(block.title)}</{tag}>"] + _blocks(block.blocks, level + 1) + ["</section>"]
        elif isinstance(block, Paragraph):
            parts.append(f"<p>{escape(block.text)}</p>")
        elif isinstance(block, Note):
            title = NOTE_TITLES.get(block.kind, block.kind.title())
            parts.append(f'<p class="note {block.kind}"><strong>{title}:</strong> {escape(block.text)}</p>')
        elif isinstance(block, Formula):
            caption = f"{escape(block.caption)}: " if block.caption else ""
            parts.append(f'<p class="formula">{caption}<code>{escape(block.text)}</code></p>')
        elif isinstance(block, Table):
            parts.append("<table>")
            if block.caption:
                parts.append(f"<caption>{escape(block.caption)}</caption>")
            parts.append("<tr>" + "".join(f"<th>{escape(c)}</th>" for c in block.columns) + "</tr>")
            for row in block.rows:
                parts.append("<tr>" + "".join(f"<td>{escape(cell_text(c))}</td>" for c in row) + "</tr>")
            parts.append("</table>")
        elif isinstance(block, Steps):
            parts.append("<ol>")
            for step in block.steps:
                note = f" ({escape(step.note)})" if step.note else ""
                parts.append(f'<li class="step">{escape(step.label)}: <code>{escape(step_chain(step))}</code>{note}</li>')
            parts.append("</ol>")
        elif isinstance(block, Answer):
            value = escape(value_text(block.value, block.written_text))
            parts.append(f'<p class="answer">{escape(block.label)}: {escape(block.symbol)} = {value}</p>')
        elif isinstance(block, Figure):
            parts.append(f'<figure><img src="{block.data_uri}" alt="{escape(block.caption)}">'
                         f"<figcaption>{escape(block.caption)}</figcaption></figure>")
        else:
            raise TypeError(f"cannot render block {type(block).__name__}")
    return parts
