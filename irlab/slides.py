"""Slides: a worked solution built up the way a lecturer builds it on the board.

The data first (the statement, the conventions), then each table row by row (a long table continues on further
slides of at most ROWS_PER_SLIDE rows, never shrunk), then the steps one at a time, then the formula they applied,
then the answer. ``write_slides(document, "talk.pdf")`` compiles landscape slides (16:9), one page per
reveal, with their LaTeX source beside them; ``write_slides(document, "talk.html")`` writes one self-contained page
(MathML, no script or font from elsewhere) that the arrow keys, the space bar and clicks advance.

Both are built from the same frames, and every piece is set by the LaTeX or the HTML renderer's own functions, so
the escaping of text taken from students' files is theirs.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from html import escape
from pathlib import Path

from .document import Answer, Document, Figure, Formula, Note, Paragraph, Section, Steps, Table, figures_in
from .errors import OutputFileError, ParameterError
from .messages import say
from .outputs import check_target, write_file
from .printable import compile_pdf, source_note, write_latex_files
from .render.common import cell_latex
from .render.html import html_blocks, visible_controls_html
from .render.latex import latex_blocks, latex_text, step_lines, table_lines

ROWS_PER_SLIDE = 12  # a longer table continues on the next slide, its header repeated
ROWS_STACKED = 8  # rows per slide when the table holds stacked fractions, which need more height
STEP_LINES = 9  # lines of steps on one slide (a long step set on several aligned lines counts them all)
DATA_CHARACTERS = 700  # characters of statement and notes on one slide
SUFFIXES = (".pdf", ".html")


@dataclass
class Frame:
    """One slide: its title and its pieces, each revealed in turn. A piece is ("blocks", [block, ...]) shown at
    once, ("rows", table) whose rows appear one by one, or ("steps", [step, ...], first number) one step a reveal."""

    title: str
    pieces: list = field(default_factory=list)

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


_ORDER = {Paragraph: 0, Note: 0, Table: 1, Steps: 2, Formula: 3, Answer: 4, Figure: 5}


def _kind(block) -> int:
    return next(rank for kind, rank in _ORDER.items() if isinstance(block, kind))


def _section_frames(blocks, title, out) -> None:
    run = []
    for block in list(blocks) + [None]:
        if block is None or isinstance(block, Section):
            # a run of blocks is presented as on the board: data, tables, steps, the formula, the answer
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
            per = ROWS_STACKED if _stacked(block) else ROWS_PER_SLIDE
            for start in range(0, max(len(block.rows), 1), per):
                part = f"rows {start + 1}-{min(start + per, len(block.rows))} of {len(block.rows)}"
                caption = block.caption if len(block.rows) <= per else (
                    f"{block.caption} ({part})" if block.caption else part[0].upper() + part[1:])
                chunk = Table(block.columns, block.rows[start:start + per], caption, block.names)
                out.append(Frame(title, [("rows", chunk)]))
        elif isinstance(block, Steps):
            steps_frame, lines = None, 0
            for step in block.steps:
                height = _step_height(step)
                if steps_frame is None or lines + height > STEP_LINES:
                    steps_frame = Frame(f"{title}: steps" if len(title) <= 60 else title, [("steps", [], number)])
                    out.append(steps_frame)
                    lines = 0
                steps_frame.pieces[0][1].append(step)
                lines += height
                number += 1
        elif isinstance(block, Formula):
            out.append(Frame(f"{title}: the formula" if len(title) <= 55 else title, [("blocks", [block])]))
        elif isinstance(block, Answer):
            last = out[-1]
            if last.title.endswith("the answer") and len(last.pieces) < 3:  # a question's answers on one slide
                last.pieces.append(("blocks", [block]))
            else:
                out.append(Frame(f"{title}: the answer" if len(title) <= 55 else title, [("blocks", [block])]))
        elif isinstance(block, Figure):
            out.append(Frame(title, [("blocks", [block])]))
    if data:
        out.append(Frame(title, [("blocks", [b]) for b in data]))


def _stacked(table) -> bool:

    return any(r"\frac" in cell_latex(cell, latex_text, inline=True) for row in table.rows for cell in row)


def _step_height(step) -> int:

    lines = step_lines(step)
    return 1 if len(lines) == 1 else 1 + lines[2].count("\\\\") + 1


# --- PDF: one landscape page per reveal -----------------------------------------------------------------------------
# Beamer needs pgf (Debian's texlive-pictures), which the machines irlab prints on do not have; the article class
# on a landscape 16:9 page does the same with what texlive-latex-base and -recommended hold: a slide that builds up
# in n reveals is n pages, each showing one more row, step or piece, so a PDF viewer's "next page" is the next reveal.
# The page is as wide in characters as the LaTeX renderer's A4 text (12 pt on 216 mm), so its tables and broken
# formulas fit as they are; a row not yet revealed is there invisibly (\phantom), so the columns never move.

PREAMBLE = r"""\documentclass[12pt]{article}
\usepackage{amsmath,amssymb,graphicx,tabularx}
\usepackage[papersize={240mm,135mm},hmargin=12mm,top=9mm,bottom=11mm,footskip=6mm]{geometry}
\setlength{\parindent}{0pt}
\setlength{\parskip}{0.4em}
\setlength{\emergencystretch}{3em}
\setlength{\abovedisplayskip}{0.2em}
\setlength{\belowdisplayskip}{0.2em}
\newcommand\irlabslide[1]{\newpage{\Large\bfseries #1\par}\vspace{0.2em}\hrule\vspace{0.6em}}
\begin{document}
"""


def slides_latex(document: Document) -> str:
    """The LaTeX source of the slides (printable ASCII, as the LaTeX renderer writes): one page per reveal."""

    lines = [PREAMBLE]
    for frame in frames(document):
        if frame.pieces[0][0] == "title":
            lines += [r"\thispagestyle{empty}", r"\vspace*{\fill}\begin{center}",
                      rf"{{\LARGE\bfseries {latex_text(frame.title)}\par}}\vspace{{1em}}",
                      r"worked step by step\end{center}\vspace*{\fill}", ""]
            continue
        for shown in range(1, max(sum(_units(piece) for piece in frame.pieces), 1) + 1):
            lines.append(rf"\irlabslide{{{latex_text(frame.title)}}}")
            left = shown
            for piece in frame.pieces:
                if left <= 0:
                    break
                lines += _piece_latex(piece, left)
                left -= _units(piece)
            lines.append("")
    return "\n".join(lines) + "\\end{document}\n"


def _units(piece) -> int:
    """How many pages a piece adds: one per row as the LaTeX renderer sets the table (a long table of a few short
    columns is set across the page, one line per column), one per step, one for anything else."""

    if piece[0] == "rows":
        lines = table_lines(piece[1])
        header = next(i for i, line in enumerate(lines) if line.endswith(r"\hline"))
        return max(sum(1 for line in lines[header + 1:] if line.endswith("\\\\")), 1)
    return len(piece[1]) if piece[0] == "steps" else 1


def _piece_latex(piece, shown: int) -> list[str]:
    """A piece with its first ``shown`` rows or steps (all of them when ``shown`` is larger)."""

    kind, content = piece[0], piece[1]
    if kind == "blocks":  # with the blank line after it, so pieces stay paragraphs of their own
        return latex_blocks(content, 3)
    if kind == "rows":  # the rows not yet revealed are there, invisible, so the columns keep their widths
        lines = table_lines(content)
        header = next(i for i, line in enumerate(lines) if line.endswith(r"\hline"))
        body = [i for i in range(header + 1, len(lines)) if lines[i].endswith("\\\\")]
        for i in body[shown:]:
            cells = lines[i][:-2].split(" & ")
            lines[i] = " & ".join(rf"\phantom{{{cell}}}" if cell.strip() else cell for cell in cells) + r" \\"
        return lines
    items = [line for step in content[:shown] for line in step_lines(step)]  # numbered on from the previous slide
    return [r"\begin{enumerate}", rf"\setcounter{{enumi}}{{{piece[2] - 1}}}", *items, r"\end{enumerate}"]


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
    for frame in frames(document):
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
