"""Slides: a worked solution built up the way a lecturer builds it on the board.

The data first (the statement, the conventions), then each table row by row (a long table continues on further
slides of at most ROWS_PER_SLIDE rows, its header repeated, never shrunk), then the formula, then the steps that
apply it one at a time, then the answer, large. ``write_slides(document, "talk.pdf")`` compiles Beamer slides
(16:9, body text 14.4 pt on a 90 mm page: more than 1/18 of its height), one page per reveal, with their LaTeX
source beside them; ``write_slides(document, "talk.html")`` writes one self-contained page
(MathML, no script or font from elsewhere) that the arrow keys, the space bar and clicks advance.

Both are built from the same frames, and every piece is set by the LaTeX or the HTML renderer's own functions, so
the escaping of text taken from students' files is theirs.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from html import escape
from pathlib import Path

from .document import Answer, Document, Figure, Formula, Note, Paragraph, Section, Steps, Table, figures_in
from .errors import OutputFileError, ParameterError
from .messages import say
from .outputs import check_target, write_file
from .printable import compile_pdf, source_note, write_latex_files
from . import exact
from .escape import latex_escape
from .render.common import break_latex, cell_latex, ratio_chain, ratio_exact_latex, value_latex
from .render.html import html_blocks, visible_controls_html
from .render.latex import latex_blocks, latex_paragraphs, latex_text, step_lines
from .trace import symbol_latex

# what fits on a 90 mm slide below its title at body size (14.4 pt), measured on the rendered pages
ROWS_PER_SLIDE = 7  # a longer table continues on the next slide, its header repeated, never shrunk
ROWS_STACKED = 4  # rows per slide when the table holds fractions, displayed at full size and so taller
DATA_CHARACTERS = 400  # characters of statement and notes on one slide
SUFFIXES = (".pdf", ".html")


@dataclass
class Frame:
    """One slide: its title and its pieces, each revealed in turn. A piece is ("blocks", [block, ...]) shown at
    once, ("rows", table) whose rows appear one by one, or ("steps", [step, ...], first number) one step a reveal."""

    title: str
    pieces: list = field(default_factory=list)
    continued: bool = False  # a PDF slide that continues a step too tall for one slide (HTML scrolls instead)

    @property
    def reveals(self) -> int:
        """How many presses build this slide up (its first piece is there when the slide appears)."""
        count = 0
        for piece in self.pieces:
            count += len(piece[1].rows) if piece[0] == "rows" else len(piece[1]) if piece[0] == "steps" else 1
        return max(count, 1)


def frames(document: Document) -> list[Frame]:
    """The slides of ``document``: its title alone, then every section's data, tables, steps, formula and answer."""
    out = [Frame(document.title, [("title", document.title)])]
    _section_frames(document.blocks, document.title, out)
    return out


_ORDER = {Paragraph: 0, Note: 0, Table: 1, Formula: 2, Steps: 3, Answer: 4, Figure: 5}


def _kind(block) -> int:
    return next(rank for kind, rank in _ORDER.items() if isinstance(block, kind))


def _section_frames(blocks, title, out) -> None:
    run = []
    for block in list(blocks) + [None]:
        if block is None or isinstance(block, Section):
            # a run of blocks is presented as on the board: data, tables, the formula, the steps that apply it,
            # the answer
            _run_frames(sorted(run, key=_kind), title, out)  # sorted() is stable: each kind keeps its order
            run = []
            if block is not None:
                _section_frames(block.blocks, block.title if title is None else f"{title}: {block.title}"
                                if len(title) + len(block.title) <= 70 else block.title, out)
        else:
            run.append(block)


def _run_frames(blocks, title, out) -> None:
    data, size = [], 0
    steps_frame, lines, number = None, 0, 1
    for block in blocks:
        if isinstance(block, (Paragraph, Note)):
            length = len(block.text)
            if data and size + length > DATA_CHARACTERS:
                out.append(Frame(title, [("blocks", [b]) for b in data]))
                data, size = [], 0
            data.append(block)
            size += length
            continue
        if data:
            out.append(Frame(title, [("blocks", [b]) for b in data]))
            data, size = [], 0
        if isinstance(block, Table):
            groups = _column_groups(block)
            for group in groups:  # a table too wide for the slide at body size: its columns in parts, the first kept
                part = block if len(groups) == 1 else Table(
                    tuple(block.columns[i] for i in group), tuple(tuple(row[i] for i in group) for row in block.rows),
                    block.caption, block.names)
                columns = "" if len(groups) == 1 else (f"columns {group[1] + 1}-{group[-1] + 1}" if len(group) > 2 else
                                                       f"column {group[1] + 1}") + f" of {len(block.columns)}"
                most = ROWS_STACKED if _stacked(part) or _wrapped(part) else ROWS_PER_SLIDE
                most -= _heading_lines(part) - 1  # each further line of a heading takes a row's room, and so
                most -= len(block.caption or "") + len(columns) + 20 > CAPTION_CHARACTERS  # a caption of two lines
                most = max(most - _title_lines(title) + 1, 2)  # and a title of several
                count = len(block.rows)
                parts = max(-(-count // most), 1)  # parts of (nearly) equal length: 3 + 3, not 5 + 1
                bounds = [-(-count * i // parts) for i in range(parts + 1)]  # the longer parts first
                widths = _column_widths(part)  # the whole table's, so its headings look the same on every slide
                for start, end in zip(bounds, bounds[1:]):
                    rows = "" if parts == 1 else f"rows {start + 1}-{end} of {count}"
                    where = ", ".join(x for x in (rows, columns) if x)
                    caption = (f"{block.caption} ({where})" if block.caption else where[0].upper() + where[1:]
                               ) if where else block.caption
                    chunk = Table(part.columns, part.rows[start:end], caption, block.names)
                    out.append(Frame(title, [("rows", chunk, widths)]))
        elif isinstance(block, Steps):
            steps_frame, used = None, 0
            heading = f"{title}: steps" if len(title) <= 30 else title
            room = _room(heading)
            for step in block.steps:
                lines = slide_step_lines(step)
                height = _height(lines)
                if height > room:  # a step taller than a slide: its rows go on, at full size, on the next ones
                    _split_step(step, lines, number, heading, room, out)
                    steps_frame, number = None, number + 1
                    continue
                if steps_frame is None or used + height > room:
                    steps_frame = Frame(heading, [("steps", [], number)])
                    out.append(steps_frame)
                    used = 0
                steps_frame.pieces[0][1].append(step)
                used += height
                number += 1
        elif isinstance(block, Formula):
            out.append(Frame(f"{title}: the formula" if len(title) <= 26 else title, [("blocks", [block])]))
        elif isinstance(block, Answer):
            last = out[-1]
            if last.title.endswith("the answer") and len(last.pieces) < 2 and not last.pieces[0][1][0].ratio:  # a question's answers on one slide
                last.pieces.append(("blocks", [block]))
            else:
                out.append(Frame(f"{title}: the answer" if len(title) <= 28 else title, [("blocks", [block])]))
        elif isinstance(block, Figure):
            out.append(Frame(title, [("blocks", [block])]))
    if data:
        out.append(Frame(title, [("blocks", [b]) for b in data]))


def _stacked(table) -> bool:

    return any(r"\frac" in cell_latex(cell, latex_text, inline=True) for row in table.rows for cell in row)


# a table's width in slide_width units (half ems of the body): the slide's 148 mm of text, the columns' padding in
TABLE_WIDTH = 58
CAPTION_CHARACTERS = 66  # an italic caption longer than this takes two lines
LONGEST_WORD = 24  # a longer word (a path) is cut to wrap in its cell
TEXT_CELL = 14  # a text cell or heading longer than this wraps at its spaces (to its column's width)


def _wrap(text: str, width: float) -> list[str]:
    """``text`` in lines of at most ``width`` characters, broken at spaces (a longer word keeps its line)."""
    lines = []
    width = max(int(width), 1)
    words = [word[i:i + LONGEST_WORD] for word in text.split() for i in range(0, len(word), LONGEST_WORD)]
    for word in words:  # a word longer than LONGEST_WORD (a file's path) is cut into pieces that fit
        if lines and len(lines[-1]) + 1 + len(word) <= width:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines or [""]


def _cell_width(cell, wrap: float) -> float:
    if isinstance(cell, str):
        return max([min(len(cell), wrap)] + [min(len(word), LONGEST_WORD) for word in cell.split()])
    return slide_width(cell_latex(cell, latex_text, inline=True))


def _column_widths(table) -> list[float]:
    """Each column's width: its widest cell, its heading wrapped to it (bold: 1.15 a letter); where the columns
    are too wide for the slide, long texts wrap, at 22 characters, then at TEXT_CELL."""
    for wrap in (float("inf"), 22, TEXT_CELL):
        widths = []
        for i, heading in enumerate(table.columns):
            cells = max([_cell_width(row[i], wrap) for row in table.rows] + [0])
            words = max([_heading_width(word) for word in heading.split()] + [1])
            whole = _heading_width(heading)
            widths.append(max(cells, words if wrap < float("inf") or not cells else min(whole, 22)) + 1)
        if sum(widths) <= TABLE_WIDTH:
            break
    return widths


def _heading_width(heading: str) -> float:
    """A bold heading's width: 1 a letter, 0.6 a space, a sub- or superscript (2^g, log2) 0.7, its marks nothing."""
    return sum(0 if char in "^_" else 0.6 if char == " " else 0.7 if char.isdigit() else 1 for char in heading)


def _column_groups(table) -> list[list[int]]:
    """The columns of each slide: all where they fit the slide's width, else the first column (the rank, the topic)
    with as many of the next as fit, then again with the next ones."""
    widths = _column_widths(table)
    if sum(widths) <= TABLE_WIDTH or len(widths) < 3:
        return [list(range(len(widths)))]
    groups = [[0]]
    for i in range(1, len(widths)):
        if len(groups[-1]) > 1 and sum(widths[j] for j in groups[-1]) + widths[i] > TABLE_WIDTH:
            groups.append([0])
        groups[-1].append(i)
    return groups


def _heading_lines(table) -> int:
    """The lines of ``table``'s tallest heading, wrapped to its column."""
    return max(len(_wrap(c, w - 1)) for c, w in zip(table.columns, _column_widths(table)))


def _wrapped(table, widths=None) -> bool:
    """Whether a cell of ``table`` is set on several lines."""
    widths = widths or _column_widths(table)
    return any(isinstance(cell, str) and len(_wrap(cell, widths[i] - 1)) > 1 for row in table.rows
               for i, cell in enumerate(row))


def _stacked_lines(lines, bold: bool = False) -> str:
    """Lines of text set one above another in a table cell."""
    escaped = [latex_text(line) for line in lines]
    if bold:
        escaped = [rf"\textbf{{{line}}}" for line in escaped]
    return escaped[0] if len(escaped) == 1 else r"\begin{tabular}[c]{@{}c@{}}" + r" \\ ".join(escaped) + r"\end{tabular}"


def slide_step_lines(step) -> list[str]:
    """A step as the slides set it: broken to the slide's width, every fraction at full size (a text-size fraction's
    numerator is smaller than the body)."""
    return [line.replace(r"\tfrac{", r"\dfrac{") for line in step_lines(step, STEP_WIDTH, STEP_LINE, slide_width)]


_FRACTION = re.compile(r"\\[dt]?frac\{([^{}]*)\}\{([^{}]*)\}")


def slide_width(latex: str) -> float:
    """The width of math on a slide in half ems (about a digit's width): a fraction as wide as its wider part, a
    binary operator with its spaces 2.5, a command 1 (log 3), brackets' sizing commands nothing."""
    latex = re.sub(r" ?\\[bB]igg?/ ?", "oo", latex)  # a quotient's big slash, spaced as an operator
    latex = re.sub(r"\\(left|right|[bB]igg?[lr]?)\b", "", latex)
    while _FRACTION.search(latex):  # innermost fractions first
        latex = _FRACTION.sub(lambda m: "x" * round(max(slide_width(m.group(1)), slide_width(m.group(2)))), latex)
    latex = re.sub(r"\\log\b", "xxx", latex)
    latex = re.sub(r" ?(\\approx|\\cdot|[-+=]) ?", "oo", latex)  # an operator's spaces: 'o' counts 1.25
    latex = re.sub(r"\\[A-Za-z]+", "x", latex)
    return sum(0 if char in "{}^_ " else 1.25 if char == "o" else 1 for char in latex)


# the heights, in points, of what a slide of steps holds, measured on the rendered slides (14.4 pt body)
LINE_POINTS = 23  # a line of text or of an equation without fractions
FRACTION_POINTS = 32  # a line holding a full-size fraction
DISPLAY_POINTS = 10  # the space around a displayed equation
ROOM_POINTS = 190  # below a one-line title, above the frame number (the page is 255 pt high)
TITLE_CHARACTERS = 40  # a longer title takes two lines, LINE_POINTS more


def _title_lines(title: str) -> int:
    return len(_wrap(title, TITLE_CHARACTERS))


def _room(title: str) -> int:
    return ROOM_POINTS - (LINE_POINTS + 4) * (_title_lines(title) - 1)


def _row_height(latex: str) -> int:
    return FRACTION_POINTS if "frac{" in latex else LINE_POINTS


def _height(lines: list[str]) -> int:
    if len(lines) == 1:
        return _row_height(lines[0])
    return LINE_POINTS + DISPLAY_POINTS + sum(_row_height(row) for row in lines[2].split(" \\\\\n"))


def _split_step(step, lines, number, heading, room, out) -> None:
    """Frames for one step too tall for a slide: its label and first rows, then its further rows, each slide as
    full as its room allows; the piece's fourth item is the slice of the step's rows it shows."""
    rows = lines[2].split(" \\\\\n")
    start, used = 0, LINE_POINTS + DISPLAY_POINTS
    for end in range(len(rows) + 1):
        if end == len(rows) or (end > start and used + _row_height(rows[end]) > room):
            out.append(Frame(heading if start == 0 else f"{heading} (continued)",
                             [("steps", [step], number, (start, end))], continued=start > 0))
            start, used, room = end, DISPLAY_POINTS, _room(f"{heading} (continued)")
        if end < len(rows):
            used += _row_height(rows[end])


# --- PDF: Beamer, one page per reveal -----------------------------------------------------------------------------
# Beamer's 16:9 page is 160 mm x 90 mm; its 14pt option sets the body in 14.4 pt (5.08 mm), more than 1/18 of the
# height (5 mm), which a back row of a lecture hall reads. Nothing on a slide is set smaller than the body: tables at
# body size as wide as the slide (a longer one continues on the next slide rather than shrinking), captions and
# notes at body size, the answer larger. Beamer ships in Debian's texlive-latex-recommended; it needs pgf
# (texlive-pictures). The serif font theme keeps the Computer Modern of irlab's other PDFs, which LuaLaTeX's
# fallback fonts (irlab.tex_engine) extend for names beyond ASCII. A row not yet revealed is there invisibly
# (\uncover), so the columns never move.

BODY_POINTS = 14.4  # Beamer's 14pt option (size14.clo)
PAGE_HEIGHT_MM = 90  # Beamer's aspectratio=169 page: 160 mm x 90 mm
STEP_WIDTH = 38  # slide_width of an aligned step row: 29 ems of 14.4 pt on the 148 mm text, less the indent
STEP_LINE = 48  # slide_width of a step set on one line, its label included
FORMULA_WIDTH = 44
ANSWER_WIDTH = 32  # the answer is set \Large (20.7 pt)

PREAMBLE = r"""\documentclass[aspectratio=169,14pt]{beamer}
\usepackage{amsmath,amssymb,array}
\usefonttheme{serif}
\setbeamertemplate{navigation symbols}{}
\setbeamertemplate{footline}{\hfill\insertframenumber\hspace{3mm}\vspace{2mm}}
\setbeamercolor{title}{fg=black}
\setlength{\tabcolsep}{3pt}
\setbeamersize{text margin left=6mm,text margin right=6mm}
\setbeamercovered{invisible}
\setbeamercolor{frametitle}{fg=black}
\setbeamerfont{frametitle}{series=\bfseries}
\setbeamertemplate{enumerate item}{\insertenumlabel.}
\setlength{\emergencystretch}{3em}
\makeatletter % Beamer's \normalsize and \Large set their own display skips: displays close to their text
\def\irlab@skips{\abovedisplayskip 4pt\belowdisplayskip 4pt\abovedisplayshortskip 2pt\belowdisplayshortskip 2pt}
\g@addto@macro\normalsize{\irlab@skips}\g@addto@macro\Large{\irlab@skips}
\makeatother
\begin{document}
"""


def slides_latex(document: Document) -> str:
    """The LaTeX source of the slides (printable ASCII, as the LaTeX renderer writes): a Beamer frame per slide,
    one page per reveal."""

    lines = [PREAMBLE]
    for frame in frames(document):
        if frame.pieces[0][0] == "title":
            lines += [rf"\title{{{latex_text(frame.title)}}}", r"\subtitle{worked step by step}", r"\date{}",
                      r"\begin{frame}[plain]", r"\titlepage", r"\end{frame}", ""]
            continue
        lines.append(rf"\begin{{frame}}[t]{{{latex_text(frame.title)}}}")
        first = 1
        for piece in frame.pieces:
            lines += _piece_latex(piece, first)
            first += _units(piece)
        lines += [r"\end{frame}", ""]
    return "\n".join(lines) + "\\end{document}\n"


def _units(piece) -> int:
    """How many reveals a piece adds: one per row, one per step, one for anything else."""
    if piece[0] == "rows":
        return max(len(piece[1].rows), 1)
    return len(piece[1]) if piece[0] == "steps" else 1


def _piece_latex(piece, first: int) -> list[str]:
    """A piece whose first row, step or block appears on the frame's page ``first``, the next ones a page later."""

    kind, content = piece[0], piece[1]
    if kind == "rows":
        return [rf"\onslide<{first}->"] + _table_latex(content, first, piece[2] if len(piece) > 2 else None)
    if kind == "steps" and len(piece) > 3:  # rows start:end of a step too tall for one slide
        lines = slide_step_lines(content[0])
        start, end = piece[3]
        rows = [r"\begin{align*}", " \\\\\n".join(lines[2].split(" \\\\\n")[start:end]), r"\end{align*}"]
        if start:
            return [rf"\onslide<{first}->", *rows]
        return [rf"\onslide<{first}->", r"\begin{enumerate}", rf"\setcounter{{enumi}}{{{piece[2] - 1}}}",
                lines[0], *rows, r"\end{enumerate}"]
    if kind == "steps":  # numbered on from the previous slide
        items = []
        for offset, step in enumerate(content):
            lines = slide_step_lines(step)
            items += [lines[0].replace(r"\item", rf"\item<{first + offset}->", 1), *lines[1:]]
        return [rf"\onslide<{first}->", r"\begin{enumerate}", rf"\setcounter{{enumi}}{{{piece[2] - 1}}}", *items,
                r"\end{enumerate}"]
    (block,) = content
    if isinstance(block, Answer):
        body = _answer_latex(block)
    elif isinstance(block, Formula):
        body = _formula_latex(block)
    elif isinstance(block, Figure):
        body = [r"\begin{center}",
                rf"\includegraphics[width=\linewidth,height=0.55\textheight,keepaspectratio]{{{block.name}}}\\",
                latex_paragraphs(block.caption), r"\end{center}"]
    else:
        body = latex_blocks(content, 3)
    return [rf"\onslide<{first}->", *body, ""]


def _table_latex(table: Table, first: int, widths=None) -> list[str]:
    """The table at body size, as wide as the slide: its caption, header, and each row appearing a page after the
    one before; fractions displayed (full size), long text wrapped, never a scaled box."""

    text = latex_escape if table.names else latex_text
    widths = widths or _column_widths(table)
    lines = []
    if table.caption:
        lines.append(rf"\begin{{center}}\textit{{{latex_text(table.caption)}}}\end{{center}}\vspace{{-0.6em}}")
    columns = "c" * len(table.columns)
    stretch = "1.75" if _stacked(table) else "1.3" if _wrapped(table, widths) else "1.15"
    header = [_stacked_lines(_wrap(c, w - 1), bold=True) if not table.names else rf"\textbf{{{text(c)}}}"
              for c, w in zip(table.columns, widths)]
    lines += [rf"{{\renewcommand{{\arraystretch}}{{{stretch}}}",
              rf"\begin{{tabular*}}{{\linewidth}}{{@{{\extracolsep{{\fill}}}}{columns}@{{}}}}\hline",
              " & ".join(header) + r" \\ \hline"]
    for offset, row in enumerate(table.rows):
        cells = []
        for cell, width in zip(row, widths):
            if isinstance(cell, str) and not table.names and len(_wrap(cell, width - 1)) > 1:
                latex = _stacked_lines(_wrap(cell, width - 1))
            else:
                latex = cell_latex(cell, text, inline=True)
                latex = rf"$\displaystyle {latex}$" if latex else ""
            cells.append(rf"\uncover<{first + offset}->{{{latex}}}" if latex else "")
        lines.append(" & ".join(cells) + r" \\")
    return lines + [r"\hline", r"\end{tabular*}}"]


def _formula_latex(block: Formula) -> list[str]:
    formulas = [part.strip() for part in block.latex.replace(r"\qquad", r"\quad").split(r", \quad")]
    rows = [piece for formula in formulas for piece in break_latex(formula, FORMULA_WIDTH, slide_width)]
    caption = [rf"\textit{{{latex_text(block.caption)}:}}", ""] if block.caption else []
    return caption + [r"\begin{gather*}", " \\\\\n".join(rows), r"\end{gather*}"]


def _exact_quotient(block: Answer) -> list[str]:
    """A quotient's exact form at body size, where its parts fit the slide's width as one fraction; a longer one is
    left to the step that computed it (taller than a slide, it would push the answer off its own slide)."""
    (_, _, _, top), (_, _, _, bottom) = block.ratio
    if max(slide_width(top), slide_width(bottom)) <= STEP_WIDTH:
        return [r"\begin{gather*}", ratio_exact_latex(block), r"\end{gather*}"]
    return []


def _answer_latex(block: Answer) -> list[str]:
    """The answer large: its label and value (a quotient through its parts' values), then a quotient's exact form
    at body size, broken to the slide's width."""

    label, symbol = rf"\textbf{{{latex_text(block.label)}:}}", symbol_latex(block.symbol)
    if block.ratio:
        chain = ratio_chain(block, "latex")
        if chain is not None:  # the label beside the first line of the chain, so the exact form has the room
            first, *rest = break_latex(chain, ANSWER_WIDTH, slide_width)
            more = [r"\begin{gather*}", " \\\\\n".join(rest), r"\end{gather*}"] if rest else [r"\par"]
            return [r"{\Large " + label + rf" \( {first} \)", *more, "}"] + _exact_quotient(block)
    value = value_latex(block.value, block.written_latex if exact.is_symbolic(block.value) else None, inline=True)
    rows = break_latex(f"{symbol} = {value}", ANSWER_WIDTH, slide_width)
    return [r"{\Large " + label, r"\begin{gather*}", " \\\\\n".join(rows), r"\end{gather*}}"]


def slides_pdf(document: Document, path) -> Path:
    """Compile the slides into ``path`` (a .pdf); their LaTeX source is written beside it as .tex."""

    path = check_target(path)
    source = slides_latex(document)
    figures = {f.name: f.png for f in figures_in(document.blocks)}
    tex_path = path.with_suffix(".tex")
    write_latex_files(tex_path, source, figures)
    write_file(path, compile_pdf(source, figures, tex_path))
    return path


# --- HTML: one page -----------------------------------------------------------------------------------------------

STYLE = """
html, body { margin: 0; height: 100%; background: #222; }
body { font-family: system-ui, sans-serif; }
.slide { display: none; box-sizing: border-box; width: 100vw; height: 100vh; padding: 3vh 4vw; background: #fff;
  overflow: auto; font-size: min(2.3vw, 4.1vh); line-height: 1.35; }
.slide.current { display: block; }
.slide h2 { margin: 0 0 0.6em 0; font-size: 1.35em; color: #1a3d6d; border-bottom: 2px solid #1a3d6d; }
.slide.title { display: none; text-align: center; padding-top: 35vh; }
.slide.title.current { display: block; }
.slide.title h1 { font-size: 2em; }
.reveal.hidden { visibility: hidden; }
.slide table { border-collapse: collapse; margin: 0.3em 0; }
.slide th, .slide td { border: 1px solid #bbb; padding: 0.1em 0.6em; text-align: right; }
.slide th { background: #f2f2f2; }
.slide th.text, .slide td.text { text-align: left; }
.slide p.caption { margin: 0.2em 0; font-style: italic; }
.slide .note { border-left: 3px solid #888; padding-left: 0.6em; }
.slide .note.warning { border-color: #c60; }
.slide .answer { font-weight: bold; }
.slide .formula { margin: 0.4em 0 0.4em 1.5em; overflow-x: auto; }
.slide .formula math, .slide .chain math { display: inline-block; margin-right: 0.3em; }
.slide figure img { max-height: 60vh; max-width: 100%; }
#counter { position: fixed; right: 1vw; bottom: 1vh; font-size: 14px; color: #666; }
@media print { .slide, .slide.title { display: block; break-after: page; } .reveal.hidden { visibility: visible; } }
""".strip()

# one position per reveal over the whole talk; the body's data-position and data-positions say where it is
SCRIPT = """
(function () {
  const slides = [...document.querySelectorAll('.slide')];
  const positions = [];
  slides.forEach((slide, s) => {
    const count = Number(slide.dataset.reveals);
    for (let r = 1; r <= count; r++) positions.push([s, r]);
  });
  let at = 0;
  function show() {
    const [s, r] = positions[at];
    slides.forEach((slide, i) => slide.classList.toggle('current', i === s));
    slides[s].querySelectorAll('.reveal').forEach(e => e.classList.toggle('hidden', Number(e.dataset.reveal) > r));
    document.body.dataset.position = String(at + 1);
    document.body.dataset.positions = String(positions.length);
    document.getElementById('counter').textContent = (at + 1) + ' / ' + positions.length;
  }
  function go(to) { at = Math.max(0, Math.min(positions.length - 1, to)); show(); }
  document.addEventListener('keydown', e => {
    if (['ArrowRight', 'ArrowDown', 'PageDown', ' ', 'Enter'].includes(e.key)) { go(at + 1); e.preventDefault(); }
    else if (['ArrowLeft', 'ArrowUp', 'PageUp', 'Backspace'].includes(e.key)) { go(at - 1); e.preventDefault(); }
    else if (e.key === 'Home') go(0);
    else if (e.key === 'End') go(positions.length - 1);
  });
  document.addEventListener('click', e => go(e.shiftKey ? at - 1 : at + 1));
  show();
})();
""".strip()


def slides_html(document: Document) -> str:
    """The slides as one self-contained page."""

    parts = []
    for frame in (frame for frame in frames(document) if not frame.continued):  # HTML scrolls a tall step
        if frame.pieces[0][0] == "title":
            parts.append(f'<section class="slide title" data-reveals="1"><h1>{escape(frame.title)}</h1>'
                         "<p>worked step by step</p></section>")
            continue
        body, reveal = [], 0
        for piece in frame.pieces:
            html, reveal = _piece_html(piece, reveal)
            body.append(html)
        parts.append(f'<section class="slide" data-reveals="{reveal}"><h2>{escape(frame.title)}</h2>\n'
                     + "\n".join(body) + "\n</section>")
    page = ("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            f"<title>{escape(document.title)}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n"
            + "\n".join(parts) + f'\n<div id="counter"></div>\n<script>{SCRIPT}</script>\n</body>\n</html>\n')
    return visible_controls_html(page)


def _piece_html(piece, reveal: int) -> tuple[str, int]:

    kind, content = piece[0], piece[1]
    if kind == "blocks":
        return f'<div class="reveal" data-reveal="{reveal + 1}">' + "\n".join(html_blocks(content, 3)) + "</div>", reveal + 1
    if kind == "rows":
        lines = html_blocks([content], 3)
        header = next(i for i, line in enumerate(lines) if line.startswith("<tr><th"))
        for i in range(header + 1, len(lines)):
            if lines[i].startswith("<tr>"):
                reveal += 1
                lines[i] = f'<tr class="reveal" data-reveal="{reveal}">' + lines[i][len("<tr>"):]
        return "\n".join(lines), max(reveal, 1)
    lines = html_blocks([Steps(tuple(content))], 3)
    for i, line in enumerate(lines):
        if line.startswith('<li class="step">'):
            reveal += 1
            lines[i] = f'<li class="step reveal" data-reveal="{reveal}">' + line[len('<li class="step">'):]
    lines[0] = f'<ol start="{piece[2]}">'
    return "\n".join(lines), reveal


def write_slides(document: Document, path) -> Path:
    """Slides of ``document`` in ``path``: Beamer PDF (its .tex beside it) or one HTML page, by the suffix."""
    suffix = Path(path).suffix.lower()
    if suffix == ".pdf":
        return slides_pdf(document, path)
    if suffix == ".html":
        return write_file(path, slides_html(document).encode("utf-8"))
    raise ParameterError(f"--slides {path}: the file name must end in .pdf (landscape slides) or .html (one page)")


SLIDES_HELP = ("also write slides that build the solution up step by step: FILE.pdf (landscape, one page per "
               "reveal; its .tex beside it) or FILE.html (one page; arrow keys, space and clicks advance)")


def write_announced(document: Document, path) -> Path:
    """Write the slides and say so in one line on stderr, as --pdf and --html do."""


    try:
        written = write_slides(document, path)
    except OSError as error:
        raise OutputFileError(path, error.strerror or str(error)) from None
    figures = sorted({f.name for f in figures_in(document.blocks)})
    source = f" {source_note(written.with_suffix('.tex'), figures)}" if written.suffix.lower() == ".pdf" else ""
    say(f"irlab: wrote slides {written}{source}")
    return written


def slides_outputs(path) -> list:
    """The files --slides writes, as (label, path) for check_outputs: the slides, and a PDF's LaTeX source."""
    if not path:
        return []
    if Path(path).suffix.lower() not in SUFFIXES:
        raise ParameterError(f"--slides {path}: the file name must end in .pdf (landscape slides) or .html (one page)")
    outputs = [("--slides", path)]
    if Path(path).suffix.lower() == ".pdf":
        outputs.append(("the LaTeX source of --slides", Path(path).with_suffix(".tex")))
    return outputs
