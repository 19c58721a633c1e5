"""LaTeX: a body that pdflatex compiles (``standalone=True`` adds the preamble); tables are math arrays."""

from __future__ import annotations

import re

from .. import exact
from ..document import Answer, AnswerBox, Figure, Formula, Note, Paragraph, Section, Steps, Table, WorkingTable
from ..escape import latex_escape
from ..trace import symbol_latex
from .common import (NOTE_TITLES, visible_width, break_latex, cell_latex, nested_subscript, prose_parts, ratio_chain,
                     ratio_exact_latex, step_parts, value_latex)

PREAMBLE = r"""\documentclass[10pt]{article}
\usepackage{amsmath,amssymb,graphicx,tabularx}
\usepackage[margin=1.5cm]{geometry}
\setlength{\parindent}{0pt}
\setlength{\parskip}{0.15em}
\setlength{\abovedisplayskip}{0.3em}
\setlength{\belowdisplayskip}{0.3em}
\allowdisplaybreaks
\setlength{\emergencystretch}{3em}
\makeatletter
% a worked solution reads as a textbook sets one: headings close to their text, steps without gaps between them
\renewcommand\subsection{\@startsection{subsection}{2}{\z@}{-1.6ex \@plus -.5ex \@minus -.2ex}{0.6ex}{\normalfont\large\bfseries}}
\renewcommand\subsubsection{\@startsection{subsubsection}{3}{\z@}{-1.2ex \@plus -.3ex \@minus -.2ex}{0.3ex}{\normalfont\normalsize\bfseries}}
\renewcommand\paragraph{\@startsection{paragraph}{4}{\z@}{1.0ex \@plus .3ex \@minus .2ex}{-1em}{\normalfont\normalsize\bfseries}}
\def\@listi{\leftmargin\leftmargini \topsep 0.2em \parsep 0pt \itemsep 0.1em \partopsep 0pt}
\let\@listI\@listi
\makeatother
\begin{document}
"""


def latex_text(text: str) -> str:
    """Escape prose for LaTeX text mode; short sub- and superscripts (log2, 2^g, rel_1) are set as such.

    The result is printable ASCII that plain pdflatex compiles anywhere, as a command's argument too: a control
    character is printed by its code point ('U+001B'), a blank line is a space (``latex_paragraphs`` keeps the
    paragraphs of a statement), and a leading '[' cannot be read as an optional argument (after \\item or \\\\).
    """
    out = []
    text = _BLANK_LINES.sub("\n", text.replace("\r\n", "\n"))
    for kind, piece in prose_parts(text):
        nested = nested_subscript(piece) if kind == "sup" else None
        escaped = (latex_escape(nested[0]) + rf"\textsubscript{{{latex_escape(nested[1])}}}" if nested
                   else _unhyphenated(latex_escape(piece)))
        command = {"sub": "textsubscript", "sup": "textsuperscript"}.get(kind)
        out.append(rf"\{command}{{{escaped}}}" if command else escaped)
    latex = "".join(out)
    return "{}" + latex if latex.startswith("[") else latex


_BLANK_LINES = re.compile(r"\n[ \t]*\n\s*")  # a paragraph break, which no argument of a LaTeX command may hold

# a ranking written in R and N (RRNNNNNNRRN) is a word to TeX, which would hyphenate it at a line end: it is set in
# boxes of five letters (ranks 1-5, 6-10, ...) that the line may break between, without a hyphen
_JUDGMENT_STRING = re.compile(r"(?<![A-Za-z\\])[RN]{6,}(?![A-Za-z])")


def _unhyphenated(escaped: str) -> str:
    def boxed(match):
        letters = match.group()
        return r"\allowbreak{}".join(rf"\mbox{{{letters[i:i + 5]}}}" for i in range(0, len(letters), 5))

    return _JUDGMENT_STRING.sub(boxed, escaped)


def latex_paragraphs(text: str) -> str:
    """Prose of several paragraphs (a statement with blank lines) for LaTeX text mode, its paragraphs kept."""
    pieces = _BLANK_LINES.split(text.replace("\r\n", "\n"))
    separators = _BLANK_LINES.findall(text.replace("\r\n", "\n"))
    out = [latex_text(pieces[0])]
    for separator, piece in zip(separators, pieces[1:]):
        out += [separator, latex_text(piece)]
    return "".join(out)


def render_latex(document, standalone: bool = False, **_options) -> str:
    lines = [rf"\section*{{{latex_text(document.title)}}}", ""] + latex_blocks(document.blocks, 1)
    body = "\n".join(lines).rstrip() + "\n"
    if standalone:
        return PREAMBLE + body + "\\end{document}\n"
    return body


_SECTIONS = {1: "subsection*", 2: "subsubsection*"}


def latex_blocks(blocks, level):
    lines = []
    joinable = 0  # the width of the answer line just written, which a following short answer may share
    for block in blocks:
        if not isinstance(block, Answer):
            joinable = 0
        if isinstance(block, Section):
            command = _SECTIONS.get(level, "paragraph*")
            lines += [rf"\{command}{{{latex_text(block.title)}}}", ""] + latex_blocks(block.blocks, level + 1)
        elif isinstance(block, AnswerBox):  # a framed box as wide as the text, room for a few handwritten lines
            label = latex_text(block.text.split("\n", 1)[0])
            lines += [r"\nopagebreak[4]\par\noindent\fbox{\begin{minipage}[t][" + f"{2 * block.lines}" + r"\baselineskip][t]"
                      r"{\dimexpr\linewidth-2\fboxsep-2\fboxrule\relax}" + rf"\textit{{{label}}}\end{{minipage}}}}", ""]
        elif isinstance(block, Paragraph):
            lines += [latex_paragraphs(block.text), ""]
        elif isinstance(block, Note):
            title = NOTE_TITLES.get(block.kind, block.kind.title())
            lines += [rf"\textbf{{{title}:}} {latex_paragraphs(block.text)}", ""]
        elif isinstance(block, Formula):
            formulas = [part.strip() for part in block.latex.replace(r"\qquad", r"\quad").split(r", \quad")]
            rows = [piece for formula in formulas for piece in break_latex(formula, 70)]
            short = len(rows) == 1 and visible_width(rows[0]) <= 45
            if block.caption and not (short and len(block.caption) <= 55):
                lines += [rf"\textit{{{latex_text(block.caption)}:}}", ""]
            if short:  # a short formula reads inline after its caption, as in a textbook
                lead = latex_text(block.caption) if block.caption and len(block.caption) <= 55 else "Formula"
                lines += [rf"\textit{{{lead}:}} \( \displaystyle {rows[0]} \)", ""]
            else:
                lines += [r"\begin{gather*}", " \\\\\n".join(rows), r"\end{gather*}", ""]
        elif isinstance(block, Table):
            lines += table_lines(block) + [""]
        elif isinstance(block, Steps):
            # one step a line, in one column: two short steps set side by side read as two columns (1, 3, then 2)
            lines += [r"\begin{enumerate}", *(line for step in block.steps for line in step_lines(step)), r"\end{enumerate}", ""]
        elif isinstance(block, Answer) and block.ratio:  # a fraction of sums: the parts' values, then the exact form
            lines += _ratio_answer(block)
        elif isinstance(block, Answer):
            value = value_latex(block.value, block.written_latex if exact.is_symbolic(block.value) else None, inline=True)
            label, symbol = rf"\textbf{{{latex_text(block.label)}:}}", symbol_latex(block.symbol)
            width = visible_width(value) + len(block.label) + visible_width(symbol) + 4
            if visible_width(value) <= 60 and joinable and joinable + width <= 100:  # answers of one question: one line
                lines[-2] += rf";\quad {label} \( {symbol} = {value} \)"
                joinable += width + 3
                continue
            if visible_width(value) <= 60:
                lines += [rf"{label} \( {symbol} = {value} \)", ""]
                joinable = width
                continue
            else:  # a long exact value breaks across lines like a step
                pieces = break_latex(value, 60)
                rows = [f"{symbol} &= {pieces[0]}"] + [rf"&\quad {piece}" for piece in pieces[1:]]
                lines += [label, r"\begin{align*}", " \\\\\n".join(rows), r"\end{align*}", ""]
        elif isinstance(block, Figure):
            lines += _figure_lines(block)
        else:
            raise TypeError(f"cannot render block {type(block).__name__}")
    return lines


def _figure_lines(block) -> list[str]:
    """A plot and its caption on one page. Where the page has room (18% of its height or more) the plot is 42% of
    the text wide, its caption beside it, shrunk to the room left; otherwise it starts the next page, 80% of the
    text wide with its caption under it, rather than a half-width plot alone on a page."""
    room = r"\dimexpr\pagegoal-\pagetotal-3\baselineskip\relax"
    caption = latex_paragraphs(block.caption)
    return [r"{\dimen0=" + room + r"\def\irlabwide{0}\ifdim\dimen0<0.18\textheight\ifdim\pagegoal<\maxdimen"
            r"\newpage\def\irlabwide{1}\fi\fi",
            r"\ifdim\dimen0>0.33\textheight\dimen0=0.33\textheight\fi\edef\irlabroom{\the\dimen0}",
            r"\begin{center}\if1\irlabwide",
            rf"\includegraphics[width=0.8\linewidth,height=0.6\textheight,keepaspectratio]{{{block.name}}}\\[0.3em]",
            caption, r"\else\begin{minipage}{0.42\linewidth}\centering",
            rf"\includegraphics[width=\linewidth,height=\irlabroom,keepaspectratio]{{{block.name}}}",
            r"\end{minipage}\hfill\begin{minipage}{0.54\linewidth}\raggedright", caption,
            r"\end{minipage}\fi\end{center}}", ""]


def _ratio_answer(block) -> list[str]:
    """'Result: nDCG@3 = DCG@3 / IDCG@3 ≈ 8.8928 / 10.3928 ≈ 0.8557', then the exact quotient displayed on its own
    line with every fraction at full size; a quotient too wide for the line breaks at its top-level '+' instead."""
    lines = [rf"\textbf{{{latex_text(block.label)}:}} \( {ratio_chain(block, 'latex')} \)", ""]
    (_, _, _, top), (_, _, _, bottom) = block.ratio
    if max(visible_width(top), visible_width(bottom)) <= 80:
        return lines + [rf"\[ {ratio_exact_latex(block)} \]", ""]
    pieces = [piece.replace(r"\bigl(", r"\Bigl(").replace(r"\bigr)", r"\Bigr)")  # as tall as the fractions inside
              for piece in break_latex(rf"\left({top}\right) \Big/ \left({bottom}\right)", 80)]
    rows = [f"{symbol_latex(block.symbol)} &= {pieces[0]}"] + [rf"&\quad {piece}" for piece in pieces[1:]]
    return lines + [r"\begin{align*}", " \\\\\n".join(rows), r"\end{align*}", ""]


# a number over a number reads inline in a worked step (6/20 = 3/10), as in the tables and answers; a fraction of
# symbols or of sums stays stacked, so no line grows tall with fractions inside fractions
_NUMERIC_FRACTION = re.compile(r"\\tfrac\{(\d+)\}\{(\d+)\}")


def _inline_fractions(latex: str) -> str:
    """6/20 for a stacked number over a number; (1/2)^{2} in brackets where a power follows, so it cannot read 1/4."""
    def inline(match):
        written = f"{match.group(1)}/{match.group(2)}"
        end, start = match.end(), match.start()
        powered = latex.startswith("^", end) or (latex.startswith("}^", end) and latex[start - 1:start] == "{")
        return rf"\left({written}\right)" if powered else written

    return _NUMERIC_FRACTION.sub(inline, latex)


def step_lines(step, width: int = 85, line: int = 112, measure=visible_width) -> list[str]:
    """One step: its label, then the chain of equalities aligned at '=', one side per line group.

    A long side breaks at its top-level '+' and continues indented, so nothing runs past the margin: ``width`` and
    ``line`` are the characters of an aligned row and of a one-line step (the A4 page's; slides have fewer), as
    ``measure`` counts them.
    """
    note = f" ({latex_text(step.note)})" if step.note else ""
    parts = step_parts(step, "latex")
    # text-size fractions keep a worked solution compact, as a printed textbook sets them in running steps; a
    # fraction of fractions would be tiny in text size: that step is displayed, every fraction in it full size
    # (a number over a number is written 6/20 inline, so only a fraction of symbols is left nested)
    inline = [_inline_fractions(part.replace(r"\frac{", r"\tfrac{")) for part in parts]
    nested = any(_has_nested_fraction(part) for part in inline)
    symbol, *sides = [part.replace(r"\frac{", r"\dfrac{") for part in parts] if nested else inline
    if not nested and sum(measure(side) + 3 for side in sides) + measure(symbol) + len(step.label + note) <= line:
        return [rf"\item {latex_text(step.label)}{note}: \( {' = '.join([symbol, *sides])} \)"]
    rows, used = [], 0.0  # sides share a row while they fit, as a textbook writes "= 141/40 = 3.525" on one line
    for side in sides:
        pieces = break_latex(side, width, measure)
        if rows and len(pieces) == 1 and used + measure(pieces[0]) + 3 <= width:
            rows[-1] += f" = {pieces[0]}"
            used += measure(pieces[0]) + 3
            continue
        rows.append(f"&= {pieces[0]}")
        rows += [rf"&\quad {piece}" for piece in pieces[1:]]
        used = measure(pieces[-1]) + (3 if len(pieces) == 1 else 6)
    rows[0] = f"{symbol} {rows[0]}"
    return [rf"\item {latex_text(step.label)}{note}:", r"\begin{align*}", " \\\\\n".join(rows), r"\end{align*}"]


def _has_nested_fraction(latex: str) -> bool:
    """Whether a fraction of ``latex`` has a fraction in its numerator or denominator."""
    for match in re.finditer(r"\\[dt]?frac\{", latex):
        depth, end = 0, match.end() - 1
        for end in range(match.end() - 1, len(latex)):  # the end of the two arguments
            depth += {"{": 1, "}": -1}.get(latex[end], 0)
            if depth == 0 and latex[end] == "}" and latex[end + 1:end + 2] != "{":
                break
        if re.search(r"\\[dt]?frac\{", latex[match.end():end]):
            return True
    return False


def _transposed(table):
    """A long table of a few short columns (documents with their judgments) set across the page instead, one row per
    column, as the statement of a judging exercise writes it; None when the table is short or would not fit."""
    if len(table.rows) < 8 or len(table.columns) > 6 or table.columns[0] == "rank":  # a ranking reads down the page
        return None
    cells = [[table.columns[i], *(row[i] for row in table.rows)] for i in range(len(table.columns))]
    if not all(isinstance(c, (str, int)) and not isinstance(c, bool) for column in cells for c in column[1:]):
        return None  # fractions stay in columns
    label_width = max(len(column[0]) for column in cells)
    widths = [max(len(str(column[j])) for column in cells) for j in range(1, len(cells[0]))]
    if label_width + sum(w + 3 for w in widths) > 90:
        return None
    header, *rows = cells
    return Table(tuple(str(c) for c in header), tuple(tuple(row) for row in rows), table.caption)


TEXT_WIDTH = 95  # characters of a table row that fit between the margins


def _wrapped_columns(table, widths) -> dict[int, float] | None:
    """Columns of prose to set as paragraphs (index -> its share of the room left), when a table is too wide for the
    page and the other columns leave room; None when the table fits as it is or wrapping would not help."""
    if sum(widths) + 3 * len(widths) <= TEXT_WIDTH or len(table.rows) > ROWS_PER_PAGE:
        return None
    prose = [i for i, _ in enumerate(table.columns)
             if widths[i] > 24 and all(isinstance(row[i], str) for row in table.rows)]
    fixed = sum(widths[i] + 3 for i in range(len(widths)) if i not in prose)
    if not prose or TEXT_WIDTH - fixed < 14 * len(prose):
        return None
    total = sum(widths[i] for i in prose)
    return {i: widths[i] / total for i in prose}


def _paragraph_table(table, wrapped: dict[int, float], stretch: str) -> list[str]:
    """A tabularx as wide as the text whose prose columns wrap, sharing the room the other columns leave in
    proportion to their text; the other cells are set in math mode as in the array tables."""
    count = len(wrapped)

    def spec(i):
        if i not in wrapped:
            return "c"
        return rf">{{\raggedright\arraybackslash\hsize={count * wrapped[i]:.3f}\hsize}}X"

    def cell(i, value):
        if i in wrapped:
            return latex_text(value) if value else ""
        text = cell_latex(value, latex_text, inline=True)
        return f"${text}$" if text else ""

    columns = "|".join(spec(i) for i in range(len(table.columns)))
    lines = [r"\begin{center}\begin{minipage}{\linewidth}\centering"]
    if table.caption:
        lines += [rf"\textit{{{latex_text(table.caption)}}}\\[0.3em]"]
    lines += [rf"\renewcommand{{\arraystretch}}{{{stretch}}}", rf"\begin{{tabularx}}{{\linewidth}}{{{columns}}}",
              " & ".join(latex_text(c) for c in table.columns) + r" \\ \hline"]
    lines += [" & ".join(cell(i, value) for i, value in enumerate(row)) + r" \\" for row in table.rows]
    return lines + [r"\end{tabularx}", r"\end{minipage}\end{center}"]


ROWS_PER_PAGE = 40  # a longer table continues in blocks of this many rows (fewer when fractions are stacked)


def table_lines(table):
    """A table with its caption on the same page; rows spaced so fractions never touch; wide tables scaled to fit.

    A table longer than a page is set in blocks of ROWS_PER_PAGE rows, the header repeated and the caption marked
    '(continued)', so no block is taller than the page.
    """
    if isinstance(table, WorkingTable):
        return _working_table(table)
    table = _transposed(table) or table
    columns = "|".join("c" for _ in table.columns)
    # trec_eval's measure names (P_5) are names, as the figures write them, not P with a subscript 5
    text = latex_escape if table.names else latex_text
    header = " & ".join(rf"\text{{{text(c)}}}" for c in table.columns) + r" \\ \hline"
    body = [" & ".join(cell_latex(c, text, inline=True) for c in row) + r" \\" for row in table.rows]
    widths = [max([len(c)] + [visible_width(cell_latex(row[i], latex_text, inline=True)) for row in table.rows])
              for i, c in enumerate(table.columns)]
    stretch = "1.5" if any(r"\frac" in row for row in body) else "1.0"  # stacked fractions need the room
    wrapped = _wrapped_columns(table, widths)
    if wrapped:  # long prose columns wrap in paragraph columns instead of shrinking the whole table to fit
        return _paragraph_table(table, wrapped, stretch)
    lines = []
    per_block = ROWS_PER_PAGE if stretch == "1.0" else ROWS_PER_PAGE * 2 // 3
    for start in range(0, max(len(body), 1), per_block):
        array = [rf"\begin{{array}}{{{columns}}}", header, *body[start:start + per_block], r"\end{array}"]
        if sum(widths) + 3 * len(widths) > 95:  # wider than the text: scale it down rather than overflow the margin
            array = [r"\resizebox{\linewidth}{!}{$"] + array + [r"$}"]
        else:
            array = ["$"] + array + ["$"]
        lines += [r"\begin{center}\begin{minipage}{\linewidth}\centering"]
        if table.caption:
            caption = table.caption + (" (continued)" if start else "")
            lines += [rf"\textit{{{latex_text(caption)}}}\\[0.3em]"]
        lines += [rf"\renewcommand{{\arraystretch}}{{{stretch}}}"] + array + [r"\end{minipage}\end{center}"]
    return lines


def _working_table(table):
    """A table to fill in by hand, as wide as the text: every row ruled and tall enough to write in, the empty columns
    sharing the room the filled ones (rank, judgment) leave, their headers wrapping when the room is short."""
    def spec(i):
        return "c" if any(row[i] not in ("", None) for row in table.rows) else r">{\centering\arraybackslash}X"

    columns = "|".join(spec(i) for i in range(len(table.columns)))
    header = " & ".join(latex_text(c) for c in table.columns) + r" \\ \hline"
    body = [" & ".join(latex_text(str(c)) if c not in ("", None) else "" for c in row) + r" \\ \hline"
            for row in table.rows]
    lines = []
    for start in range(0, max(len(body), 1), WORKING_ROWS):  # a long ranking continues, its header repeated
        lines += [r"\begin{center}\begin{minipage}{\linewidth}\centering"]
        if table.caption:
            caption = table.caption + (" (continued)" if start else "")
            lines += [rf"\textit{{{latex_text(caption)}}}\\[0.3em]"]
        lines += [r"\renewcommand{\arraystretch}{1.8}", rf"\begin{{tabularx}}{{\linewidth}}{{|{columns}|}}\hline", header,
                  *body[start:start + WORKING_ROWS], r"\end{tabularx}", r"\end{minipage}\end{center}"]
    return lines


WORKING_ROWS = 25  # rows of a table to fill in by hand that fit on a page with its caption
