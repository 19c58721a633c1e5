"""PDF layout: every solved example set and a set of explanations compile without any box wider than the text.

pdflatex reports 'Overfull \\hbox (12.3pt too wide)' when a line runs past the margin; more than 1 pt fails.
"""

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from irlab.document import figures_in

EXERCISES = sorted((Path(__file__).resolve().parents[1] / "exercises").glob("*.toml"))
EXPLANATIONS = [
    ("11pt", "RNRNNNNNRR", "--relevant", "4"),
    ("ndcg", "3,2,0,1,2,0,1,3,2,1,0,2,1,0,0,2,3,1,0,1"),
    ("ap", "RNNRNRNNNRRNNNRNNNRN", "--relevant", "9"),
    ("err", "3,2,0,1,2,0,1,3"),
    ("f", "RNNRR", "--relevant", "8", "--beta", "0.5"),
    ("iprec", "RNRNNNNNRRNRNNNNNRRN", "--relevant", "10", "--recall-level", "0.35"),
    ("ndcg", ",".join(str((7 * i) % 4) for i in range(1, 81))),  # an 80-row table with stacked fractions: continued
]

pytestmark = pytest.mark.skipif(shutil.which("pdflatex") is None, reason="pdflatex is not installed")


def overfull_boxes(document, tmp_path) -> list[str]:
    """Compile ``document`` and return pdflatex's overfull-box warnings wider than 1 pt."""
    source = document.render("latex", standalone=True)
    (tmp_path / "document.tex").write_text(source, encoding="ascii")
    for figure in figures_in(document.blocks):
        (tmp_path / figure.name).write_bytes(figure.png)
    done = subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "document.tex"], cwd=tmp_path,
                          capture_output=True, text=True, errors="replace", timeout=300)
    assert done.returncode == 0, done.stdout[-2000:]
    log = (tmp_path / "document.log").read_text(errors="replace")
    return [m.group(0) for m in re.finditer(r"Overfull \\[hv]box \((\d+(?:\.\d+)?)pt too (?:wide|high)\)[^\n]*\n[^\n]*", log)
            if float(m.group(1)) > 1]


def test_solved_sets_and_explanations_fit_their_margins(tmp_path):
    """One document holding every solved example set and the explanations: one pdflatex run keeps the suite fast."""
    from irlab.cli import build_parser
    from irlab.cli.explain import explain_document
    from irlab.document import Document, Section
    from irlab.printable import solution_document

    parts = []
    for path in EXERCISES:
        solved = solution_document(path)
        parts.append(Section(solved.title, solved.blocks))
    for arguments in EXPLANATIONS:
        document, _ = explain_document(build_parser().parse_args(["explain", *arguments]))
        parts.append(Section(document.title, document.blocks))
    assert overfull_boxes(Document("Layout check", parts), tmp_path) == []


def test_conventions_handouts_fit_their_margins(tmp_path):
    """`irlab conventions` tables hold long prose (conventions, reasons): those columns wrap instead of the table
    shrinking to an unreadable size, and nothing runs past the margin."""
    from irlab.document import Document, Section
    from irlab.explorer import Case, explore

    comparisons = [explore("ndcg", Case.from_scores("0.9,0.5,0.5,0.1", "2,0,1,1"), gains="1=1,2=5"),
                   explore("ap", Case.from_scores("0.9,0.5,0.5,0.1,0", "1,0,1,1,1")),
                   explore("f", Case.from_scores("0.9,0.5", "1,0"), beta=2),
                   explore("tau", judges=("4,3,3,2", "4,3,2,2"))]
    document = Document("Conventions", [Section(c.title, tuple(c.blocks())) for c in comparisons])
    latex = document.render("latex", standalone=True)
    assert r"\begin{tabularx}{\linewidth}" in latex and r"\resizebox" not in latex
    assert overfull_boxes(document, tmp_path) == []


def test_conventions_pdf_option(tmp_path, cli):
    done = cli("conventions", "map", "--ranking", "RNNRR", "--relevant", "5", "--pdf", str(tmp_path / "map.pdf"))
    assert done.returncode == 0 and (tmp_path / "map.pdf").read_bytes()[:4] == b"%PDF"
    assert "irlab: wrote" in done.stderr and done.stdout == ""  # the files and the line naming them, not the solution


def test_a_pdf_leaves_no_file_that_its_line_on_stderr_does_not_name(tmp_path, cli, monkeypatch):
    """The README's `irlab explain ndcg ... --pdf ndcg.pdf`: the plot's file lies beside the .tex that includes it,
    and the one line on stderr names it."""
    monkeypatch.chdir(tmp_path)
    done = cli("explain", "ndcg", "3,2,0,1", "--unretrieved", "2", "--pdf", "ndcg.pdf")
    assert done.returncode == 0 and done.stdout == ""
    (figure,) = [p.name for p in tmp_path.glob("figure-*.png")]
    assert done.stderr == f"irlab: wrote ndcg.pdf (LaTeX source: ndcg.tex; the figure it includes: {figure})\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(["ndcg.pdf", "ndcg.tex", figure])
    source = (tmp_path / "ndcg.tex").read_text()
    # beside its caption where the page has room, else on the next page 80% of the text wide
    assert rf"\includegraphics[width=\linewidth,height=\irlabroom,keepaspectratio]{{{figure}}}" in source
    assert rf"\includegraphics[width=0.8\linewidth,height=0.6\textheight,keepaspectratio]{{{figure}}}" in source


def test_judgment_strings_are_never_hyphenated_at_a_line_end(tmp_path):
    """Paragraphs of long R/N rankings, set as pdflatex sets them: every line ends at a box of five letters or a
    space, never with a hyphen, and every string is whole in the text."""
    from irlab.document import Document, Paragraph

    rankings = ["".join("RN"[(i * 7 + j * 3) % 5 > 1] for j in range(9 + i % 14)) for i in range(60)]
    document = Document("Rankings", [Paragraph("The runs returned " + " and ".join(rankings) + ".")])
    assert overfull_boxes(document, tmp_path) == []
    subprocess.run(["pdftotext", "-layout", "document.pdf", "out.txt"], cwd=tmp_path, check=True)
    lines = (tmp_path / "out.txt").read_text().splitlines()
    assert not [line for line in lines if re.search(r"[RN]-\s*$", line)]
    assert len(lines) > 5
