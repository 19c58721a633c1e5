"""Pieces shared by the renderers: walking blocks and writing cells."""

from __future__ import annotations

from .. import exact
from ..document import Section

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


def step_chain_text(step) -> str:
    """'AP = S / R = (21/10) / 5 = 21/50 = 0.42': symbol, formula, substitution and value."""
    parts = [step.symbol]
    if step.formula_text:
        parts.append(step.formula_text)
    if step.substitution_text:
        parts.append(step.substitution_text)
    value = exact.value_text(step.value)
    if value != parts[-1]:
        parts.append(value)
    return " = ".join(parts)


def step_chain_latex(step, symbol_latex) -> str:
    parts = [symbol_latex(step.symbol)]
    if step.formula_latex:
        parts.append(step.formula_latex)
    if step.substitution_latex:
        parts.append(step.substitution_latex)
    value = exact.value_latex(step.value)
    if value != parts[-1]:
        parts.append(value)
    return " = ".join(parts)


def sections_of(blocks):
    return [b for b in blocks if isinstance(b, Section)]
