"""Printable output: PDF through a real pdflatex, or one self-contained HTML page, figures included.

Nothing is half-written: the PDF appears only when pdflatex succeeded, and the ``.tex`` source is
always kept beside it so a user without LaTeX can still compile it elsewhere.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

from . import plots, tex_engine
from .document import Document, Figure, Paragraph, Section, Table, figures_in
from .errors import IrlabError, OutputFileError
from .escape import latex_escape
from .messages import say
from .exercise_set import question_inputs, resolve_question, solve
from .outputs import check_target, write_file, write_files

TEXLIVE_HINT = "install a LaTeX distribution with pdflatex (Debian/Ubuntu: apt-get install texlive-latex-base texlive-latex-recommended)"

# which plot illustrates which metric
_PR_CURVE = {"ap", "iprec", "prec-at-recall", "11pt"}
_DCG_CURVE = {"dcg", "idcg", "ndcg", "cg"}
# a solution shows these as a table already: kappa's contingency table, and AP's contribution column of the rank
# table (the precision-recall curve is drawn for the questions on interpolation)
_SHOWN_AS_TABLE = {"kappa", "ap"}


class PrintError(IrlabError):
    """A printable document could not be produced (no pdflatex, or LaTeX failed)."""


def figure(fig, caption: str) -> Figure:
    """A matplotlib figure as a document block (deterministic PNG, 150 dpi for print)."""
    return Figure(caption, plots.figure_png(fig, dpi=150))


def illustrate(metric: str, rankings=(), judges=None, options=None) -> list[Figure]:
    """The figures that show a metric's computation: a precision-recall curve, DCG/IDCG curves or a kappa table."""
    options = options or {}
    if metric == "kappa" and judges is not None:
        fig = plots.kappa_table(*judges, kappa_marginals=options.get("kappa_marginals"))
        return [figure(fig, "Contingency table of the two judges")]
    if len(rankings) != 1 or getattr(rankings[0], "is_empty", False):  # an empty ranking: nothing to draw
        return []
    (ranking,) = rankings
    if metric in _PR_CURVE and ranking.total_relevant > 0:
        fig = plots.precision_recall_curve(ranking, interpolation=options.get("interpolation"))
        return [figure(fig, "Precision-recall curve with the interpolated precision and the 11 standard recall levels")]
    if metric in _DCG_CURVE:
        fig = plots.dcg_curves(ranking, k=options.get("k"), gain=options.get("gain"), discount=options.get("discount"))
        return [figure(fig, "DCG of the ranking and of the ideal ranking over the rank")]
    return []


def with_figures(section: Section, figures) -> Section:
    return Section(section.title, section.blocks + tuple(figures), section.meta) if figures else section


def solution_document(path, exercise_id: str | None = None) -> Document:
    """An exercise set solved step by step, each question with its figure where one helps (once per exercise)."""
    shown = {}  # exercise -> names of the figures already shown in it

    def add_figures(params, question, where, section):
        try:
            rankings, judges = question_inputs(params, question, where)
            options = resolve_question(question, params, where).options
        except IrlabError:  # the question itself solved, so this is only a figure we cannot draw
            return section
        if question.solver in _SHOWN_AS_TABLE:
            return section
        seen = shown.setdefault(where.exercise, set())
        figures = [f for f in illustrate(question.solver, rankings, judges, options) if f.name not in seen]
        seen.update(f.name for f in figures)
        return with_figures(section, figures)

    return solve(path, exercise_id, decorate=add_figures)


def run_report(result, qrels, run, figures: int = 4) -> Document:
    """A batch evaluation as a printable report: the per-topic table of every measure and per-topic bars.

    ``result`` is an :class:`irlab.trec.evaluate.EvalResult`; bars are drawn for the first ``figures`` measures
    (map first when it was computed). Values are printed with four decimals, as trec_eval prints them.
    """
    topics = sorted(result.per_topic)
    measures = [c for c in result.columns if c not in result.integer_columns
                and all(isinstance(result.per_topic[t].get(c), float) for t in topics)]
    counts = [c for c in result.columns if c in result.integer_columns]
    width = 6  # measures per table, so that a table fits the page
    blocks = [Paragraph(f"Run {result.runid} ({run}) judged by {qrels}: {len(topics)} topics evaluated, "
                        "as trec_eval 10.0 evaluates them.")]
    if counts:
        blocks.append(Table(("measure", "all"), tuple((c, str(result.summary[c])) for c in counts), "Counts",
                            names=True))
    for start in range(0, len(measures), width):
        chosen = measures[start:start + width]
        rows = [(t, *(f"{result.per_topic[t][c]:.4f}" for c in chosen)) for t in topics]
        rows.append(("all", *(f"{result.summary[c]:.4f}" for c in chosen)))
        blocks.append(Table(("topic", *chosen), tuple(rows), "Per topic", names=True))  # P_5 as trec_eval names it
    drawn = sorted(measures, key=lambda c: c != "map")[:figures]
    for measure in drawn:
        values = {t: result.per_topic[t][measure] for t in topics}
        blocks.append(figure(plots.topic_bars(values, measure), f"{measure} per topic, with its mean"))
    return Document(f"Evaluation of run {result.runid}", blocks, {"run": str(run), "qrels": str(qrels)})


def write_html(document: Document, path) -> Path:
    """One self-contained HTML page (inline CSS, images as data URIs) that prints cleanly."""
    path = Path(path)
    write_file(path, document.render("html", standalone=True).encode("utf-8"))
    return path


def write_pdf(document: Document, path) -> Path:
    """Compile ``document`` with pdflatex into ``path``; the LaTeX source is written beside it as ``.tex``."""
    path = check_target(path)  # before the .tex is written beside it
    source = document.render("latex", standalone=True)
    tex_path = path.with_suffix(".tex")
    figures = {f.name: f.png for f in figures_in(document.blocks)}
    write_latex_files(tex_path, source, figures)
    write_file(path, compile_pdf(source, figures, tex_path))
    return path


def write_latex_files(tex_path: Path, source: str, figures: dict) -> None:
    """The LaTeX source and the figure files it includes, beside it (a figure file holding other bytes is refused)."""
    write_files(latex_files(tex_path, source, figures))


def latex_files(tex_path: Path, source: str, figures: dict) -> list:
    """(path, bytes) of the LaTeX source and of the figure files beside it, for outputs.write_files; a figure file
    holding other bytes is refused."""
    for name, png in figures.items():
        _check_figure_file(tex_path.parent / name, png)
    source = tex_engine.with_unicode_fonts(source)
    return [(tex_path, source.encode("utf-8"))] + [(tex_path.parent / name, png) for name, png in figures.items()]


def compile_pdf(source: str, figures: dict, tex_path, written: bool = True, whose=None, warned=None) -> bytes:
    """The PDF that pdflatex (an ASCII source) or LuaLaTeX (any other: tex_engine) makes of ``source`` (one run, in a
    temporary directory with the figures); ``tex_path`` names the source in the messages (``written``: it was written
    before). A PrintError when the engine is missing or fails.

    A character that no installed font has (LuaLaTeX sets an empty glyph) is named on stderr with whose text held
    it: ``whose`` is a list of (who, their LaTeX), by default the source itself; ``warned`` (a set) keeps a
    class's several PDFs from repeating a warning."""
    source = tex_engine.with_unicode_fonts(source)
    pdf, log = _run_engine(source, figures, tex_path, written)
    _warn_missing(tex_engine.missing_characters(log), whose or [(f"the text of {tex_path}", source)], warned)
    return pdf


def _run_engine(source: str, figures: dict, tex_path, written: bool) -> tuple[bytes, str]:
    """(the PDF, the log) of one run of the engine ``source`` needs, in a temporary directory with the figures."""
    name = tex_engine.engine(source)
    program = shutil.which(name)
    if program is None:
        said = (f"The LaTeX source was written to {tex_path}" if written else
                "Nothing was written (--format latex writes the LaTeX sources alone)")
        hint = TEXLIVE_HINT if name == "pdflatex" else tex_engine.LUALATEX_HINT
        raise PrintError(f"{name} was not found: {hint}. {said}")
    with tempfile.TemporaryDirectory(prefix="irlab-pdf-") as build:
        build = Path(build)
        (build / "document.tex").write_text(source, encoding="utf-8")
        for figure_name, png in figures.items():
            (build / figure_name).write_bytes(png)
        done = subprocess.run(
            [program, "-interaction=nonstopmode", "-halt-on-error", "document.tex"],
            cwd=build, capture_output=True, text=True, errors="replace", timeout=300,
            env={**os.environ, "SOURCE_DATE_EPOCH": "0", "FORCE_SOURCE_DATE": "1"},
        )
        if done.returncode != 0 or not (build / "document.pdf").exists():
            problem = next((line for line in done.stdout.splitlines() if line.startswith("!")), "see the log")
            raise PrintError(f"{name} failed on {tex_path}: {problem}")
        log = (build / "document.log").read_text(encoding="utf-8", errors="replace")
        return (build / "document.pdf").read_bytes(), log


def _warn_missing(missing, whose, warned) -> None:
    """One line on stderr per owner whose text holds characters no installed font has."""
    warned = set() if warned is None else warned
    for who, text in whose:
        theirs = [char for char in missing if char in text]
        if theirs and (who, tuple(theirs)) not in warned:
            warned.add((who, tuple(theirs)))
            say(f"irlab: warning: no installed font has {tex_engine.describe(theirs)}, in {who}: the PDF cannot show "
                f"them; install a font that has them (docs/site/printing.md, 'Names in every script')")


# Several documents in one LaTeX file, for a class printed at once: each part starts on an odd page, so that printed
# on both sides of the paper no sheet of paper holds two students' pages (a blank page pads a part of an odd number
# of pages, but the last); each part's pages are numbered from 1, under a running header naming whose they are.
# The log says where each part's pages start and end, so that one run makes a whole class (split_parts).
_PARTS_MACROS = r"""\newcommand\irlabodd{\clearpage\ifodd\value{page}\else\thispagestyle{empty}\null\clearpage\fi}
\newcommand\irlabshipped[1]{\clearpage\typeout{irlab-#1:\the\ReadonlyShipoutCounter}}
\newcommand\irlabpart[1]{\irlabshipped{end}\irlabodd\irlabshipped{start}\setcounter{page}{1}\markright{#1}}
\pagestyle{myheadings}
"""

HEADER_MAX = 90  # characters of a running header shown, so that a long roster name cannot overflow the line


def parts_latex(parts) -> str:
    """One standalone LaTeX document of ``parts``, (document, header) pairs, each starting on an odd page under its
    running header (plain text, escaped here; a header longer than HEADER_MAX characters is cut with '...')."""
    parts = list(parts)
    if not parts:
        raise ValueError("parts_latex needs at least one document")
    preamble, begin, _ = parts[0][0].render("latex", standalone=True).partition("\\begin{document}\n")
    lines = [preamble + begin + _PARTS_MACROS]
    for document, header in parts:
        header = header if len(header) <= HEADER_MAX else header[:HEADER_MAX - 3].rstrip() + "..."
        lines += [f"\\irlabpart{{{latex_escape(header)}}}", document.render("latex")]
    return "\n".join(lines) + "\\irlabshipped{end}\n\\end{document}\n"


def compile_parts(source: str, figures: dict, tex_path, whose, warned=None) -> tuple[bytes, list]:
    """The PDF of ``source`` (from ``parts_latex``) and each part's (first, last) page in it, the blank page that
    pads a part left out; ``whose`` names each part's owner for the warnings of ``compile_pdf``."""
    source = tex_engine.with_unicode_fonts(source)
    pdf, log = _run_engine(source, figures, tex_path, written=False)
    parts = source.split("\n\\irlabpart{")[1:]
    _warn_missing(tex_engine.missing_characters(log), list(zip(whose, parts)), warned)
    shipped = {kind: [int(n) for n in re.findall(rf"^irlab-{kind}:(\d+)$", log, re.M)] for kind in ("start", "end")}
    return pdf, [(start + 1, end) for start, end in zip(shipped["start"], shipped["end"][1:])]


def cut_pages(pdf: bytes, first: int, last: int) -> bytes | None:
    """Pages ``first`` to ``last`` of ``pdf`` as a PDF of their own, by qpdf (the same bytes every time); None when
    qpdf is not installed."""
    qpdf = shutil.which("qpdf")
    if qpdf is None:
        return None
    with tempfile.TemporaryDirectory(prefix="irlab-cut-") as folder:
        whole, part = Path(folder) / "whole.pdf", Path(folder) / "part.pdf"
        whole.write_bytes(pdf)
        subprocess.run([qpdf, "--deterministic-id", "--empty", "--pages", str(whole), f"{first}-{last}", "--",
                        str(part)], capture_output=True, check=True, timeout=300)
        return part.read_bytes()


def parts_figures(parts) -> dict:
    """The figures of every document of ``parts`` (named by their content, so one name is one figure)."""
    return {f.name: f.png for document, _ in parts for f in figures_in(document.blocks)}


def _check_figure_file(path: Path, png: bytes) -> None:
    """A figure's file is named by a hash of its bytes (Figure.name), so an existing file of that name holding
    other bytes is not an earlier copy of this figure: it is someone's file, and it is not replaced."""
    if path.is_file() and not path.is_symlink() and path.read_bytes() != png:
        raise OutputFileError(path, "a file of this name exists and is not this figure (figure files are named by "
                                    "their content); move it or write the PDF elsewhere")


def source_note(tex_path: Path, figures) -> str:
    """'(LaTeX source: a.tex)', naming the figure files written beside it too, so that none lies there unexplained."""
    if not figures:
        return f"(LaTeX source: {tex_path})"
    names = ", ".join(str(tex_path.parent / name) for name in figures)
    return f"(LaTeX source: {tex_path}; the figure{'s' if len(figures) > 1 else ''} it includes: {names})"


def write_printables(document: Document, pdf=None, html=None, announce: bool = True) -> tuple[list, list]:
    """Write the PDF (its LaTeX source beside it) and/or the HTML page of ``document``; return the files written and
    the lines that say so (printed on stderr when ``announce``). A failure names the user's path."""
    def written(write, path):
        try:
            return write(document, path)
        except OSError as error:
            raise OutputFileError(path, error.strerror or str(error)) from None

    files, said = [], []
    if pdf:
        path = written(write_pdf, pdf)
        figures = sorted({f.name for f in figures_in(document.blocks)})
        files += [path, path.with_suffix(".tex"), *(path.parent / name for name in figures)]
        said.append(f"irlab: wrote {path} {source_note(path.with_suffix('.tex'), figures)}")
    if html:
        path = written(write_html, html)
        files.append(path)
        said.append(f"irlab: wrote {path}")
    if announce and said:
        say(*said)
    return files, said
