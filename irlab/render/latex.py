"""LaTeX: a body that pdflatex compiles (``standalone=True`` adds the preamble); tables are math arrays."""

from __future__ import annotations

from .. import exact
from ..document import Answer, Figure, Formula, Note, Paragraph, Section, Steps, Table
from ..trace import symbol_latex
from .common import NOTE_TITLES, cell_latex, step_chain, value_latex

_SPECIAL = {
    "\\": r"\textbackslash{}", "{": r"\{", "}": r"\}", "#": r"\#", "$": r"\$", "%": r"\%", "&": r"\&",
    "_": r"\_", "^": r"\^{}", "~": r"\~{}", "<": r"$<$", ">": r"$>$", "|": r"$|$",
}
# characters irlab's prose uses outside ASCII, written so that plain pdflatex needs no extra package
_UNICODE = {
    "≥": r"$\geq$", "≤": r"$\leq$", "≠": r"$\neq$", "·": r"$\cdot$", "×": r"$\times$", "≈": r"$\approx$",
    "Σ": r"$\Sigma$", "κ": r"$\kappa$", "ρ": r"$\rho$", "τ": r"$\tau$", "β": r"$\beta$", "Δ": r"$\Delta$",
    "∩": r"$\cap$", "∪": r"$\cup$", "∈": r"$\in$", "→": r"$\rightarrow$", "⌈": r"$\lceil$", "⌉": r"$\rceil$",
    "…": r"\dots{}", "−": "-", "–": "--", "—": "---", "‘": "`", "’": "'", "“": "``", "”": "''", "é": r"\'e",
    "ä": r"\"a", "ö": r"\"o", "ü": r"\"u", "²": r"$^2$", "√": r"$\surd$", "∞": r"$\infty$", "±": r"$\pm$",
}

PREAMBLE = r"""\documentclass[11pt]{article}
\usepackage{amsmath,amssymb,graphicx}
\usepackage[margin=2cm]{geometry}
\setlength{\parindent}{0pt}
\setlength{\parskip}{0.5em}
\begin{document}
"""


def latex_text(text: str) -> str:
    """Escape prose for LaTeX text mode."""
    out = []
    for char in text:
        if char in _SPECIAL:
            out.append(_SPECIAL[char])
        elif char in _UNICODE:
            out.append(_UNICODE[char])
        elif ord(char) < 128:
            out.append(char)
        else:
            out.append("?")  # never reached by irlab's own prose: tests compile every metric's output
    return "".join(out)


def render_latex(document, standalone: bool = False, **_options) -> str:
    lines = [rf"\section*{{{latex_text(document.title)}}}", ""] + _blocks(document.blocks, 1)
    body = "\n".join(lines).rstrip() + "\n"
    if standalone:
        return PREAMBLE + body + "\\end{document}\n"
    return body


_SECTIONS = {1: "subsection*", 2: "subsubsection*"}


def _blocks(blocks, level):
    lines = []
    for block in blocks:
        if isinstance(block, Section):
            command = _SECTIONS.get(level, "paragraph*")
            lines += [rf"\{command}{{{latex_text(block.title)}}}", ""] + _blocks(block.blocks, level + 1)
        elif isinstance(block, Paragraph):
            lines += [latex_text(block.text), ""]
        elif isinstance(block, Note):
            title = NOTE_TITLES.get(block.kind, block.kind.title())
            lines += [rf"\textbf{{{title}:}} {latex_text(block.text)}", ""]
        elif isinstance(block, Formula):
            if block.caption:
                lines += [rf"\textit{{{latex_text(block.caption)}:}}", ""]
            lines += [rf"\[ {block.latex} \]", ""]
        elif isinstance(block, Table):
            lines += _table(block) + [""]
        elif isinstance(block, Steps):
            lines.append(r"\begin{enumerate}")
            for step in block.steps:
                note = f" ({latex_text(step.note)})" if step.note else ""
                lines.append(rf"\item {latex_text(step.label)}: \( {step_chain(step, 'latex')} \){note}")
            lines += [r"\end{enumerate}", ""]
        elif isinstance(block, Answer):
            value = value_latex(block.value, block.written_latex if exact.is_symbolic(block.value) else None, inline=True)
            lines += [rf"\textbf{{{latex_text(block.label)}:}} \( {symbol_latex(block.symbol)} = {value} \)", ""]
        elif isinstance(block, Figure):
            lines += [r"\begin{center}", rf"\includegraphics[width=0.75\linewidth]{{{block.name}}}\\",
                      rf"\small {latex_text(block.caption)}", r"\end{center}", ""]
        else:
            raise TypeError(f"cannot render block {type(block).__name__}")
    return lines


def _table(table):
    columns = "|".join("c" for _ in table.columns)
    lines = [rf"\textit{{{latex_text(table.caption)}:}}", ""] if table.caption else []
    lines += [r"\[", rf"\begin{{array}}{{{columns}}}"]
    lines.append(" & ".join(rf"\text{{{latex_text(c)}}}" for c in table.columns) + r" \\ \hline")
    for row in table.rows:
        lines.append(" & ".join(cell_latex(c, latex_text) for c in row) + r" \\")
    lines += [r"\end{array}", r"\]"]
    return lines
