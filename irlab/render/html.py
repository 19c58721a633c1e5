"""HTML: a fragment for Jupyter, or with ``standalone=True`` a self-contained page that prints cleanly."""

from __future__ import annotations

from html import escape

from ..document import Answer, Figure, Formula, Note, Paragraph, Section, Steps, Table
from ..errors import ParameterError
from ..escape import CONTROL_CHARACTER, control_name
from ..trace import symbol_latex
from .common import (NOTE_TITLES, break_latex, cell_latex, cell_text, nested_subscript, numeric_columns, prose_parts,
                     ratio_chain, ratio_exact_latex, step_parts, value_latex, value_text)
from .latex import latex_text
from .mathml import to_mathml

STYLE = """
.irlab { font-family: system-ui, sans-serif; line-height: 1.4; max-width: 60em; }
.irlab table { border-collapse: collapse; margin: 0.5em 0; }
.irlab th, .irlab td { border: 1px solid #bbb; padding: 0.15em 0.6em; text-align: right; }
.irlab th { background: #f2f2f2; }
.irlab th.text, .irlab td.text { text-align: left; }
.irlab p.caption { margin: 0.6em 0 0.2em 0; font-style: italic; }
.irlab math { font-size: 1.15em; }
.irlab .formula { margin: 0.4em 0 0.4em 1.5em; }
.irlab .formula math, .irlab .chain math { display: inline-block; margin-right: 0.3em; }
.irlab td math { font-size: 1.05em; }
.irlab .note { border-left: 3px solid #888; padding-left: 0.6em; }
.irlab p, .irlab li { overflow-wrap: anywhere; }
.irlab .table { overflow-x: auto; max-width: 100%; }
.irlab .note.warning { border-color: #c60; }
.irlab .answer { font-weight: bold; }
.irlab figure img { max-width: 100%; }
@media print { .irlab { max-width: none; } .irlab table, .irlab figure { break-inside: avoid; } }
""".strip()


def render_html(document, standalone: bool = False, math: str = "mathml", bare: bool = False, **_options) -> str:
    """``math="mathjax"`` writes each formula as MathJax-ready ``\\( … \\)`` LaTeX (what Moodle and Canvas render)
    instead of MathML (the default); ``bare=True`` gives the blocks' HTML alone, without the title, the style and
    the wrapping ``<div>`` (a piece of a page that has its own, such as an LMS question's feedback)."""
    if math not in _MATH:
        raise ParameterError(f"unknown math {math!r}; choose one of {', '.join(_MATH)}")
    if bare:
        return visible_controls_html("\n".join(html_blocks(document.blocks, 3, _MATH[math])) + "\n")
    parts = ['<div class="irlab">', f"<style>{STYLE}</style>" if not standalone else "", f"<h2>{escape(document.title)}</h2>"]
    parts += html_blocks(document.blocks, 3, _MATH[math])
    parts.append("</div>")
    body = "\n".join(p for p in parts if p) + "\n"
    if not standalone:
        return visible_controls_html(body)
    return visible_controls_html(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        f"<title>{escape(document.title)}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n{body}</body>\n</html>\n"
    )


def visible_controls_html(html: str) -> str:
    """The page with each control character shown as '<U+001B>', in text and attributes alike: HTML forbids them,
    and a replacement character would hide which byte of the file to fix. irlab's own markup holds none, so this
    one pass over the page covers every piece of text copied from a file."""
    return CONTROL_CHARACTER.sub(lambda m: f"&lt;{control_name(m.group())}&gt;", html.replace("\r\n", "\n"))


def _mathjax(latex: str, display: bool = False, alttext: str | None = None) -> str:
    """A formula as MathJax's inline ``\\( … \\)``, its LaTeX escaped as HTML text (MathJax reads the text)."""
    return f"\\({escape(latex)}\\)"


_MATH = {"mathml": to_mathml, "mathjax": _mathjax}


def html_blocks(blocks, level, math=to_mathml):
    parts = []
    for block in blocks:
        if isinstance(block, Section):
            tag = f"h{min(level, 6)}"
            parts += ["<section>", f"<{tag}>{escape(block.title)}</{tag}>"] + html_blocks(block.blocks, level + 1, math) + ["</section>"]
        elif isinstance(block, Paragraph):
            parts.append(f"<p>{_prose(block.text)}</p>")
        elif isinstance(block, Note):
            title = NOTE_TITLES.get(block.kind, block.kind.title())
            parts.append(f'<p class="note {block.kind}"><strong>{title}:</strong> {_prose(block.text)}</p>')
        elif isinstance(block, Formula):
            caption = f"{escape(block.caption)}: " if block.caption else ""
            parts.append(f'<div class="formula">{caption}{_math_lines(block.latex, math)}</div>')
        elif isinstance(block, Table):
            if block.caption:  # a caption as wide as the text, not squeezed to the table's width
                parts.append(f'<p class="caption">{_prose(block.caption)}</p>')
            parts.append('<div class="table"><table>')
            aligned = ["" if numeric else ' class="text"' for numeric in numeric_columns(block)]
            parts.append("<tr>" + "".join(f"<th{a}>{escape(c) if block.names else _prose(c)}</th>"
                                         for c, a in zip(block.columns, aligned)) + "</tr>")
            plain = [_counts_only(block.rows, i) for i in range(len(block.columns))]
            for row in block.rows:
                parts.append("<tr>" + "".join(f"<td{a}>{escape(cell_text(c)) if text else _cell(c, math)}</td>"
                                              for c, a, text in zip(row, aligned, plain)) + "</tr>")
            parts.append("</table></div>")
        elif isinstance(block, Steps):
            parts.append("<ol>")
            for step in block.steps:
                note = f" ({escape(step.note)})" if step.note else ""
                chain = " ".join(_math_lines(side if i == 0 else "= " + side, math) for i, side in enumerate(step_parts(step, "latex")))
                parts.append(f'<li class="step">{escape(step.label)}: <span class="chain">{chain}</span>{note}</li>')
            parts.append("</ol>")
        elif isinstance(block, Answer) and block.ratio:  # a fraction of sums: the parts' values, then the exact form
            chain = math(ratio_chain(block, "latex"), alttext=ratio_chain(block))
            exact_form = math(ratio_exact_latex(block, r"\frac"), display=True,
                              alttext=f"{block.symbol} = {block.written_text}")
            parts += [f'<p class="answer">{escape(block.label)}: <span class="chain">{chain}</span></p>',
                      f'<div class="formula" style="{WIDE_FORMULA}">{exact_form}</div>']
        elif isinstance(block, Answer):
            value = value_latex(block.value, block.written_latex)
            reading = f"{block.symbol} = {value_text(block.value, block.written_text)}"
            pieces = break_latex(symbol_latex(block.symbol) + " = " + value)
            maths = " ".join(math(piece, alttext=reading if i == 0 else None) for i, piece in enumerate(pieces))
            parts.append(f'<p class="answer">{escape(block.label)}: <span class="chain">{maths}</span></p>')
        elif isinstance(block, Figure):
            parts.append(f'<figure><img src="{block.data_uri}" alt="{escape(block.caption)}">'
                         f"<figcaption>{escape(block.caption)}</figcaption></figure>")
        else:
            raise TypeError(f"cannot render block {type(block).__name__}")
    return parts


# a display formula too wide for the page scrolls sideways, never overflows; overflow-x alone would make overflow-y
# 'auto' too, and a fraction's few pixels below the box would show a vertical scrollbar beside the formula
WIDE_FORMULA = "overflow-x: auto; overflow-y: hidden; padding: 0.25em 0"


def _math_lines(latex: str, math=to_mathml) -> str:
    """A formula as inline <math> pieces broken at its top-level '+'/'='/'\\quad', so a long one wraps, never overflows."""
    pieces = []
    for part in latex.replace(r"\qquad", r"\quad").split(r", \quad"):
        pieces += break_latex(part.strip())
    return " ".join(math(piece) for piece in pieces if piece)


def _cell(cell, math=to_mathml) -> str:
    if cell is None or isinstance(cell, (str, bool)):
        return escape(cell if isinstance(cell, str) else ("" if cell is None else ("yes" if cell else "no")))
    return math(cell_latex(cell, latex_text), alttext=cell_text(cell))


def _counts_only(rows, column: int) -> bool:
    """A column of whole numbers (ranks, counts) reads in the table's own font; one holding a fraction or a
    logarithm anywhere is typeset throughout, so a column never mixes the two."""
    return all(isinstance(row[column], (int, str, type(None))) for row in rows)


def _prose(text: str) -> str:
    """Escaped prose with its short sub- and superscripts set as such (log<sub>2</sub>, 2<sup>g</sup>)."""
    return "".join(escape(piece) if kind == "text" else f"<{kind}>{_script(kind, piece)}</{kind}>"
                   for kind, piece in prose_parts(text))


def _script(kind: str, piece: str) -> str:
    nested = nested_subscript(piece) if kind == "sup" else None
    return f"{escape(nested[0])}<sub>{escape(nested[1])}</sub>" if nested else escape(piece)
