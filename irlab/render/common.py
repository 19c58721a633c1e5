"""Pieces shared by the renderers: walking blocks and writing cells."""

from __future__ import annotations

from .. import exact
from ..trace import Traced, symbol_latex, written

NOTE_TITLES = {"convention": "Convention", "assumption": "Assumption", "warning": "Warning", "reading": "Reading"}


def cell_text(cell) -> str:
    """A table cell as plain text: strings as they are, numbers exact with their decimal."""
    if cell is None:
        return ""
    if isinstance(cell, str):
        return cell
    if isinstance(cell, bool):
        return "yes" if cell else "no"
    if isinstance(cell, Traced):
        return value_text(cell.value, written(cell, "text"))
    return value_text(cell)


def cell_latex(cell, text_to_latex) -> str:
    if cell is None:
        return ""
    if isinstance(cell, str):
        return rf"\text{{{text_to_latex(cell)}}}" if cell else ""
    if isinstance(cell, bool):
        return r"\text{yes}" if cell else r"\text{no}"
    if isinstance(cell, Traced):
        return value_latex(cell.value, written(cell, "latex"))
    return value_latex(cell)


def cell_value(cell):
    """The exact number behind a cell (a traced cell gives its value)."""
    return cell.value if isinstance(cell, Traced) else cell


def value_text(value, written_form: str | None = None) -> str:
    """'21/50 = 0.42', '1/3 ≈ 0.3333', '3/log2(6) ≈ 1.1606': the exact value as written, then its decimal."""
    return _with_decimal(value, written_form or exact.display_text(value), "≈")


def value_latex(value, written_form: str | None = None, inline: bool = False) -> str:
    return _with_decimal(value, written_form or exact.exact_latex(value, inline), r"\approx")


def _with_decimal(value, written_form: str, approx: str) -> str:
    if exact.is_terminating(value):
        decimal = exact.decimal_text(value)
        return written_form if _same(written_form, decimal) else f"{written_form} = {decimal}"
    return f"{written_form} {approx} {exact.decimal_text(value, strip=False)}"


def _same(a: str, b: str) -> bool:
    """Equal but for spacing and LaTeX's sizing of brackets: '3 / 5' and '3/5' are the same text to a reader."""
    def normal(s):
        return s.replace(r"\left", "").replace(r"\right", "").replace(" ", "")

    return normal(a) == normal(b)


def step_chain(step, fmt: str = "text") -> str:
    """'AP = S / R = (21/10) / 5 = 21/50 = 0.42': symbol, formula, substitution and value, in text or LaTeX."""
    return " = ".join(step_parts(step, fmt))


def step_parts(step, fmt: str = "text") -> list[str]:
    """The sides of a step's chain of equalities, each once: symbol, formula, substitution, exact value, decimal.

    A side that reads the same as the one before it is dropped; the decimal side starts with '≈' when it rounds.
    """
    latex = fmt == "latex"
    parts = [symbol_latex(step.symbol) if latex else step.symbol]
    exact_form = (step.written_latex if latex else step.written_text) or (
        exact.exact_latex(step.value) if latex else exact.display_text(step.value))
    sides = (step.formula_latex, step.substitution_latex) if latex else (step.formula_text, step.substitution_text)
    for part in (*sides, exact_form):
        if part and not _same(part, parts[-1]):
            parts.append(part)
    if exact.is_terminating(step.value):
        decimal = exact.decimal_text(step.value)
        if not _same(decimal, parts[-1]):
            parts.append(decimal)
    else:
        approx = r"\approx" if latex else "≈"
        parts[-1] += f" {approx} {exact.decimal_text(step.value, strip=False)}"
    return parts
