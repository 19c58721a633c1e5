"""The rendering layer: every format, Jupyter reprs, determinism, and LaTeX that really compiles."""

import json
import re
import subprocess
import sys

import pytest

from conftest import pdflatex_available
from irlab import Ranking, average_precision, cohen_kappa, kendall_tau_distance, mean_over_queries, ndcg
from irlab.document import Document, Paragraph, Table
from irlab.render import render
from irlab.render.latex import PREAMBLE, latex_text


def sample_results():
    r = Ranking.parse("RNNRR", relevant=5)
    return [
        average_precision(r),
        ndcg(Ranking.parse("3,2,0,1", unretrieved=[2]), k=3),
        cohen_kappa("0,0,1,1,1,1", "0,1,1,0,0,1"),
        kendall_tau_distance("a,b,c", "c,a,b"),
        mean_over_queries([average_precision(r), average_precision(Ranking.parse("NR", relevant=1))]),
    ]


def test_jupyter_reprs_are_deterministic_and_address_free():
    for result in sample_results():
        for method in ("_repr_markdown_", "_repr_latex_", "_repr_html_"):
            first, second = getattr(result, method)(), getattr(result, method)()
            assert first == second
            assert " at 0x" not in first
        assert repr(result).startswith("<Result ")


def test_result_carries_exact_value_float_and_steps():
    result = average_precision(Ranking.parse("RNNRR", relevant=5))
    assert float(result) == 0.42
    labels = [step.label for step in result.steps]
    assert labels == ["Sum of the precisions at the relevant ranks", "Relevant documents for the query", "Average precision"]
    assert result.steps[-1].substitution_text == "(21/10) / 5"


def test_markdown_uses_latex_math():
    md = average_precision(Ranking.parse("RNNRR", relevant=5)).render("markdown")
    assert r"$\mathrm{AP} = \frac{S}{R} = \frac{\frac{21}{10}}{5} = \frac{21}{50} = 0.42$" in md
    assert "| rank | judgment | relevant so far | P@k | contribution |" in md


def test_html_escapes_and_standalone_page_is_self_contained():
    doc = Document("A <b> & c", [Paragraph("x < y & z"), Table(("a",), (("<td>",),))])
    html = render(doc, "html", standalone=True)
    assert "&lt;b&gt; &amp; c" in html and "x &lt; y &amp; z" in html and "&lt;td&gt;" in html
    assert html.startswith("<!DOCTYPE html>") and "http" not in html


def test_json_of_a_mean_keeps_each_query_as_a_section():
    data = json.loads(sample_results()[-1].render("json"))
    assert data["value"] == "23/50"
    assert [s["value"] for s in data["sections"]] == ["21/50", "1/2"]


def test_latex_text_escapes_specials_and_unicode():
    assert latex_text("a_b & 50% ≥ κ") == r"a\_b \& 50\% $\geq$ $\kappa$"


@pytest.mark.skipif(not pdflatex_available(), reason="pdflatex is not installed (CI installs texlive)")
def test_latex_of_every_metric_compiles(tmp_path):
    from irlab.metrics import METRICS
    from test_cli import ALL_METRICS
    from irlab.cli import build_parser, explain_result

    bodies = []
    for metric in METRICS:
        args = build_parser().parse_args(["explain", metric.name, *ALL_METRICS[metric.name]])
        bodies.append(explain_result(args).render("latex"))
    bodies += [r.render("latex") for r in sample_results()]
    source = PREAMBLE + "\n\\clearpage\n".join(bodies) + "\\end{document}\n"
    assert source.isascii(), sorted({c for c in source if not c.isascii()})
    tex = tmp_path / "all.tex"
    tex.write_text(source)
    done = subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error", tex.name],
                          cwd=tmp_path, capture_output=True, text=True, errors="replace", timeout=120)
    assert done.returncode == 0, done.stdout[-3000:]
    assert (tmp_path / "all.pdf").stat().st_size > 1000


def test_import_irlab_is_light():
    code = "import sys, irlab; print('sympy' in sys.modules, 'matplotlib' in sys.modules, 'numpy' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert out[:2] == ["False", "False"]


def test_step_chains_state_each_side_once_and_keep_log_arguments():
    from irlab import Ranking, ndcg, precision

    text = precision(Ranking.parse("RNNRR"), k=5).render("text")
    assert "P@5 = hits@5 / k = 3 / 5 = 0.6" in text  # not '3 / 5 = 3/5 = 0.6'
    text = ndcg(Ranking.parse("3,2,0,1,2")).render("text")
    assert ("= 7 / log2(2) + 3 / log2(3) + 0 / log2(4) + 1 / log2(5) + 3 / log2(6) "
            "= 7 + 3/log2(3) + 1/log2(5) + 3/log2(6) ≈ 10.4840") in text
    assert "nDCG = (7 + 3/log2(3) + 1/log2(5) + 3/log2(6)) / (7 + 3/log2(3) + 3/2 + 1/log2(5)) ≈ 0.9686" in text
    assert "(log2(3) + 1)" not in text and not re.search(r"\d\*|\*\(|\*\*", text)  # no Python syntax
    assert " 5 |     2 |            3 | log2(6) ≈ 2.5850     | 3/log2(6) ≈ 1.1606" in text


def test_mean_over_queries_writes_each_query_as_computed():
    from irlab import Ranking, mean_over_queries, ndcg

    result = mean_over_queries([ndcg(Ranking.parse("0,1")), ndcg(Ranking.parse("1,0"))], "mean nDCG")
    assert "mean nDCG = (nDCG(q1) + nDCG(q2)) / 2 = (1/log2(3) + 1) / 2 ≈ 0.8155" in result.render("text")
