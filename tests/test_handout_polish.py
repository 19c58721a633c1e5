"""Handout polish (issue 23, item 3): nDCG's answer, steps in reading order, trec_eval names, quiet --pdf/--html,
the key's wording."""

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from irlab import Ranking, ndcg

ROOT = Path(__file__).resolve().parent.parent


def irlab(*args, cwd):
    return subprocess.run([sys.executable, "-m", "irlab", *args], cwd=cwd, capture_output=True, text=True)


def test_ndcg_answer_gives_dcg_and_idcg_then_the_exact_form_on_its_own_line():
    result = ndcg(Ranking.parse("3,2,0,1", unretrieved=[2]), k=3)
    text = result.render("text")
    assert text.rstrip().endswith("Result: nDCG@3 = DCG@3 / IDCG@3 ≈ 8.8928 / 10.3928 ≈ 0.8557\n"
                                  "Exact: nDCG@3 = (7 + 3/log2(3)) / (7 + 3/log2(3) + 3/2)")
    latex = result.render("latex")
    assert (r"\textbf{Result:} \( \mathrm{nDCG}@3 = \mathrm{DCG}@3 / \mathrm{IDCG}@3 \approx 8.8928 / 10.3928 "
            r"\approx 0.8557 \)") in latex
    assert (r"\[ \mathrm{nDCG}@3 = \dfrac{7 + \dfrac{3}{\log_2 3}}{7 + \dfrac{3}{\log_2 3} + \dfrac{3}{2}} \]"
            in latex)
    # a rational nDCG keeps its one-line answer
    assert "Result: nDCG = 1" in ndcg(Ranking.parse("1,0"), gain="linear", discount="reciprocal-rank").render("text")


def test_a_long_ndcg_answer_breaks_across_lines_at_full_size():
    latex = ndcg(Ranking.parse("3,2,0,1,2,3,1,0,2,1,3,2", unretrieved=[3, 3])).render("latex")
    tail = latex[latex.index(r"\textbf{Result:}"):]
    assert r"\approx 17.2663 / 25.3956 \approx 0.6799" in tail
    assert r"\begin{align*}" in tail and r"\Big/" in tail and r"\Bigl(" in tail


@pytest.mark.skipif(not (shutil.which("pdflatex") and shutil.which("pdftotext")), reason="needs pdflatex, pdftotext")
def test_steps_in_reading_order_one_a_line(tmp_path):
    done = irlab("explain", "ap", "RNNRR", "--relevant", "5", "--pdf", "ap.pdf", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    tex = (tmp_path / "ap.tex").read_text()
    assert r"\hfill\stepcounter{enumi}" not in tex
    text = subprocess.run(["pdftotext", "-layout", "ap.pdf", "-"], cwd=tmp_path, capture_output=True,
                          text=True).stdout
    numbers = [line.split(".")[0].strip() for line in text.splitlines()
               if line.strip()[:2] in {f"{i}." for i in range(1, 10)}]
    assert numbers == [str(i) for i in range(1, len(numbers) + 1)] and len(numbers) >= 3


def test_trec_eval_measure_names_are_names_not_subscripts():
    from irlab.document import Table
    from irlab.render.html import render_html
    from irlab.render.latex import render_latex
    from irlab.document import Document

    document = Document("Run", [Table(("topic", "P_5", "iprec_at_recall_0.80"), (("301", "0.2000", "0.1000"),),
                                      names=True)])
    latex = render_latex(document)
    assert r"\text{P\_5}" in latex and r"\text{iprec\_at\_recall\_0.80}" in latex and "textsubscript" not in latex
    html = render_html(document)
    assert "<th>P_5</th>" in html and "<sub>" not in html
    # prose keeps its subscripts
    assert "textsubscript" in render_latex(Document("x", [Table(("rel_1",), (("a",),))]))


def test_eval_report_tables_name_measures_as_trec_eval(tmp_path):
    from irlab.printable import run_report
    from irlab.trec.evaluate import evaluate

    result = evaluate(str(ROOT / "exercises/compare/qrels.txt"), str(ROOT / "exercises/compare/baseline.txt"))
    latex = run_report(result, "q", "r").render("latex")
    assert r"\text{P\_5}" in latex and r"P\textsubscript{5}" not in latex


def test_pdf_and_html_print_one_line_not_the_solution(tmp_path):
    done = irlab("explain", "ndcg", "3,2,0,1", "--unretrieved", "2", "--k", "3", "--html", "n.html", cwd=tmp_path)
    assert done.returncode == 0 and done.stdout == ""
    assert done.stderr.splitlines() == ["irlab: wrote n.html"]
    done = irlab("conventions", "f", "--ranking", "RRRN", "--relevant", "5", "--html", "c.html", cwd=tmp_path)
    assert done.returncode == 0 and done.stdout == "" and len(done.stderr.splitlines()) == 1
    done = irlab("solve", str(ROOT / "exercises/chapter8-seed.toml"), "--html", "s.html", cwd=tmp_path)
    assert done.stdout == "" and "irlab: wrote" in done.stderr
    plain = irlab("conventions", "f", "--ranking", "RRRN", "--relevant", "5", cwd=tmp_path)
    assert plain.returncode == 0 and plain.stdout.startswith("F-measure with parameter 1: why the libraries disagree\n")


def test_the_answer_key_does_not_tell_to_copy_the_code():
    from irlab.homework.variants import answer_key_document, sheet_document

    path = ROOT / "exercises/homework-variants.toml"
    key = answer_key_document(path, "s001", 2026).render("text")
    assert "Variant code: 9SA-DXN (the code on this student's answers)." in key and "copy it" not in key
    assert "(copy it into your answers)" in sheet_document(path, "s001", 2026).render("text")
