"""Pieces shared by the renderers: walking blocks and writing cells."""

from __future__ import annotations

from .. import exact

NOTE_TITLES = {"convention": "Convention", "assumption": "Assumption", "warning": "Warning", "reading": "Reading"}


def cell_text(cell) -> str:
    """A table cell as plain text: strings as they are, numbers exact with their decimal."""
    if cell is None:
        return ""
    if isinstance(cell, str):
        return cell
    if isinstance(cell, bool):
        return "yes" if cell else "no"
    return exact.value_text(cell)


def cell_latex(cell, text_to_latex) -> str:
    if cell is None:
        return ""
    if isinstance(cell, str):
        return rf"\text{{{text_to_latex(cell)}}}" if cell else ""
    if isinstance(cell, bool):
        return r"\text{yes}" if cell else r"\text{no}"
    return exact.value_latex(cell)


def step_chain(step, fmt: str = "text") -> str:
    """'AP = S / R = (21/10) / 5 = 21/50 = 0.42': symbol, formula, substitution and value, in text or LaTeX."""
    from ..trace import symbol_latex

    latex = fmt == "latex"
    parts = [symbol_latex(step.symbol) if latex else step.symbol]
    for part in ((step.formula_latex, step.substitution_latex) if latex else (step.formula_text, step.substitution_text)):
        if part:
            parts.append(part)
    value = exact.value_latex(step.value) if latex else exact.value_text(step.value)
    if value != parts[-1]:
        parts.append(value)
    return " = ".join(parts)
