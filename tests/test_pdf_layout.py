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


@pytest.mark.parametrize("path", EXERCISES, ids=lambda p: p.name)
def test_solved_exercise_set_fits_its_margins(path, tmp_path):
    from irlab.printable import solution_document

    assert overfull_boxes(solution_document(path), tmp_path) == []


@pytest.mark.parametrize("arguments", EXPLANATIONS, ids=lambda a: " ".join(a[:2]))
def test_explanation_fits_its_margins(arguments, tmp_path):
    from irlab.cli import build_parser, _explain_document

    document, _ = _explain_document(build_parser().parse_args(["explain", *arguments]))
    assert overfull_boxes(document, tmp_path) == []
