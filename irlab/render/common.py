"""Pieces shared by the renderers: walking blocks and writing cells."""

from __future__ import annotations

import re
from fractions import Fraction
from functools import lru_cache

from .. import exact
from ..trace import Traced, symbol_latex, written

NOTE_TITLES = {"convention": "Convention", "assumption": "Assumption", "warning": "Warning", "reading": "Reading"}


def numeric_columns(table) -> list[bool]:
    """Which columns hold numbers (every non-empty cell starts with a digit or a minus sign and a digit): those are
    right-aligned, text columns left-aligned, in every renderer that aligns."""
    body = [[cell_text(cell) for cell in row] for row in table.rows]
    return [all(_looks_numeric(row[i]) for row in body if row[i]) for i in range(len(table.columns))]


def _looks_numeric(text: str) -> bool:
    return text[:1].isdigit() or (text[:1] == "-" and text[1:2].isdigit())


CELL_DIGITS = 12  # a table cell shows a fraction with a longer numerator or denominator by its decimal alone


def _too_long_for_a_cell(value) -> bool:
    """A fraction no reader takes in at a glance in a table (INST over 1,000 ranks: 867-digit terms); the steps and
    the JSON keep it exact."""
    if isinstance(value, bool) or exact.is_symbolic(value):
        return False
    value = exact.rational(value)
    if not isinstance(value, Fraction):
        return False
    return max(abs(value.numerator), value.denominator) >= 10**CELL_DIGITS


def _decimal_only(value, approx: str) -> str:
    return f"{approx} {_scientific(exact.decimal_text(value, strip=False), approx.startswith(chr(92)))}"


def cell_text(cell) -> str:
    """A table cell as plain text: strings as they are, numbers exact with their decimal (a fraction of more than
    CELL_DIGITS digits by its decimal alone)."""
    if cell is None:
        return ""
    if isinstance(cell, str):
        return cell
    if isinstance(cell, bool):
        return "yes" if cell else "no"
    if _too_long_for_a_cell(cell_value(cell)):
        return _decimal_only(cell_value(cell), "≈")
    if isinstance(cell, Traced):
        return value_text(cell.value, written(cell, "text"))
    return value_text(cell)


def cell_latex(cell, text_to_latex, inline: bool = False) -> str:
    """A table cell in LaTeX; ``inline`` writes rational fractions as a/b (compact printed tables)."""
    if cell is None:
        return ""
    if isinstance(cell, str):
        return rf"\text{{{text_to_latex(cell)}}}" if cell else ""
    if isinstance(cell, bool):
        return r"\text{yes}" if cell else r"\text{no}"
    if _too_long_for_a_cell(cell_value(cell)):
        return _decimal_only(cell_value(cell), r"\approx")
    if isinstance(cell, Traced):
        return value_latex(cell.value, written(cell, "latex"))
    return value_latex(cell, inline=inline)


def cell_value(cell):
    """The exact number behind a cell (a traced cell gives its value)."""
    return cell.value if isinstance(cell, Traced) else cell


def value_text(value, written_form: str | None = None) -> str:
    """'21/50 = 0.42', '1/3 ≈ 0.3333', '3/log2(6) ≈ 1.1606': the exact value as written, then its decimal."""
    try:  # a rank table writes the same few values again and again (a class's sheets: thousands of cells)
        return _value_text_of(value, written_form)
    except TypeError:  # a value that cannot be a key (unhashable): written without the memo
        return _with_decimal(value, written_form or exact.display_text(value), "≈")


@lru_cache(maxsize=4096, typed=True)  # typed: an int, a Fraction and a float that are equal stay apart
def _value_text_of(value, written_form: str | None) -> str:
    return _with_decimal(value, written_form or exact.display_text(value), "≈")


def value_latex(value, written_form: str | None = None, inline: bool = False) -> str:
    return _with_decimal(value, written_form or exact.exact_latex(value, inline), r"\approx")


def _with_decimal(value, written_form: str, approx: str) -> str:
    latex = approx.startswith("\\")
    if exact.is_terminating(value):
        decimal = exact.decimal_text(value)
        return written_form if _same(written_form, decimal) else f"{written_form} = {_scientific(decimal, latex)}"
    return f"{written_form} {approx} {_scientific(exact.decimal_text(value, strip=False), latex)}"


_E_NOTATION = re.compile(r"(\d(?:\.\d+)?)e([+-])0*(\d+)")


def _scientific(decimal: str, latex: bool) -> str:
    """A tiny or huge decimal written 1.000e-05 in text is typeset 1.000 × 10^{-5} in LaTeX."""
    if not latex:
        return decimal
    return _E_NOTATION.sub(lambda m: rf"{m.group(1)} \times 10^{{{'-' if m.group(2) == '-' else ''}{m.group(3)}}}", decimal)


def _same(a: str, b: str) -> bool:
    """Equal but for spacing, LaTeX's sizing of brackets and upright names: '3 / 5' and '3/5', or
    '\\mathrm{RBP + resid}' and '\\mathrm{RBP} + \\mathrm{resid}', are the same text to a reader."""
    def normal(s):
        s = re.sub(r"\\mathrm\{([^{}]*)\}", r"\1", s)
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
            parts.append(_scientific(decimal, latex))
    else:
        approx = r"\approx" if latex else "≈"
        parts[-1] += f" {approx} {_scientific(exact.decimal_text(step.value, strip=False), latex)}"
    return parts


def visible_width(latex: str) -> float:
    """A rough width of typeset LaTeX in characters: commands count as one, a fraction as its wider part."""
    width = 0.0
    text = re.sub(r"\\(left|right)\b", "", latex)
    text = re.sub(r"\\t?frac\{([^{}]*)\}\{([^{}]*)\}", lambda m: "x" * max(len(m.group(1)), len(m.group(2))), text)
    text = re.sub(r"\\[A-Za-z]+", "x", text)
    for char in text:
        width += 0 if char in "{}^_" else 1
    return width


def break_latex(latex: str, width: int = 60, measure=None) -> list[str]:
    """Split a long LaTeX expression at its top-level '+', '-', '=' and ',' into lines of about ``width`` characters.

    Never breaks inside braces; \\left/\\right brackets of a long expression become \\bigl/\\bigr so that a line
    may end inside them. A piece after the first starts with its operator ('+ \\frac{1}{\\log_2 5}'), as a textbook
    continues a long sum. ``measure`` gives a piece's width (by default ``visible_width``).
    """
    measure = measure or visible_width
    if measure(latex) <= width:
        return [latex]
    latex = re.sub(r"\\left(?=[(\[.]|\\lceil|\\\{)", r"\\bigl", latex)
    latex = re.sub(r"\\right(?=[)\].]|\\rceil|\\\})", r"\\bigr", latex)
    pieces, depth, start = [], 0, 0
    for i, char in enumerate(latex):
        if char == "{":
            depth += 1
        elif char == "}":
            depth -= 1
        elif depth == 0 and i > start and latex.startswith((" + ", " - ", " = ", r" \approx "), i):
            pieces.append(latex[start:i])
            start = i + 1
        elif depth == 0 and latex.startswith(", ", i):
            pieces.append(latex[start:i + 1])
            start = i + 2
    pieces.append(latex[start:])
    lines = []
    for piece in pieces:
        if lines and measure(lines[-1] + " " + piece) <= width:
            lines[-1] += " " + piece
        else:
            lines.append(piece)
    return lines


_PROSE_SCRIPT = re.compile(r"(?<=log)(?P<base>[0-9]{1,2})(?=\()|(?<=[\w)*])\^(\{[^}]*\}|[\w.]+)|(?<=[\w*])_(\{[^}]*\}|[0-9A-Za-z]{1,2}|interp|max|avg)(?![\w])")


_NESTED_SUBSCRIPT = re.compile(r"^(\w+?)_(\w{1,2})$")


def nested_subscript(piece: str) -> tuple[str, str] | None:
    """A superscript with its own short subscript, '(1-α)^c_s': ('c', 's'), so that it is set c with a lowered s."""
    match = _NESTED_SUBSCRIPT.match(piece)
    return (match.group(1), match.group(2)) if match else None


def prose_parts(text: str) -> list[tuple[str, str]]:
    """Prose split into ('text' | 'sub' | 'sup', piece): 'log2(i + 1)' has a subscript 2, '2^g - 1' a superscript g.

    Names such as 'ap_denominator' stay as they are: only short subscripts (rel_1, g_i, p_interp) are lowered.
    """
    text = text.replace(" >= ", " ≥ ").replace(" <= ", " ≤ ")  # typeset prose uses the real relations
    parts, position = [], 0
    for match in _PROSE_SCRIPT.finditer(text):
        if match.start() > position:
            parts.append(("text", text[position:match.start()]))
        if match.group("base"):  # log2(…), log10(…): the base as a subscript
            parts.append(("sub", match.group("base")))
        else:
            kind = "sup" if match.group(0).startswith("^") else "sub"
            parts.append((kind, (match.group(2) or match.group(3)).strip("{}")))
        position = match.end()
    if position < len(text):
        parts.append(("text", text[position:]))
    return parts


def ratio_chain(answer, fmt: str = "text") -> str | None:
    """A quotient's answer read through its parts' values, 'nDCG@3 = DCG@3 / IDCG@3 ≈ 8.8928 / 10.3928 ≈ 0.8557',
    so that the reader sees both values before the exact form (a fraction of sums); None for other answers."""
    if len(answer.ratio) != 2:
        return None
    latex = fmt == "latex"
    (top, top_value, *_), (bottom, bottom_value, *_) = answer.ratio
    name = symbol_latex if latex else (lambda symbol: symbol)
    approx = r"\approx" if latex else "≈"
    exact_parts = exact.is_terminating(top_value) and exact.is_terminating(bottom_value)
    decimals = [_scientific(exact.decimal_text(v, strip=exact.is_terminating(v)), latex) for v in (top_value, bottom_value)]
    value = _scientific(exact.decimal_text(answer.value, strip=False), latex)
    return (f"{name(answer.symbol)} = {name(top)} / {name(bottom)} {'=' if exact_parts else approx} "
            f"{decimals[0]} / {decimals[1]} {approx} {value}")


def ratio_exact_latex(answer, display: str = r"\dfrac") -> str:
    """The exact form of a quotient's answer in LaTeX, every fraction at full size (``\\dfrac``), for a line of its own."""
    (_, _, _, top), (_, _, _, bottom) = answer.ratio
    full = lambda latex: re.sub(r"\\[td]?frac\{", lambda _m: display + "{", latex)  # noqa: E731
    return f"{symbol_latex(answer.symbol)} = {display}{{{full(top)}}}{{{full(bottom)}}}"
