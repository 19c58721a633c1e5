"""The rendering layer: every format, Jupyter reprs, determinism, and LaTeX that really compiles."""

import json
import re
import subprocess
import sys
from pathlib import Path

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
    assert latex_text("ap_denominator & 50% ≥ κ") == r"ap\_denominator \& 50\% $\geq$ $\kappa$"
    assert latex_text("2^g - 1, rel_1") == r"2\textsuperscript{g} - 1, rel\textsubscript{1}"


@pytest.mark.skipif(not pdflatex_available(), reason="pdflatex is not installed (CI installs texlive)")
def test_latex_of_every_metric_compiles(tmp_path):
    from irlab.metrics import METRICS
    from test_cli import ALL_METRICS
    from irlab.cli import build_parser
    from irlab.cli.explain import explain_result

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
    assert "IDCG = (7 + 3/log2(3) + 1/log2(5) + 3/log2(6)) / (7 + 3/log2(3) + 3/2 + 1/log2(5)) ≈ 0.9686" in text
    assert "Exact: nDCG = (7 + 3/log2(3) + 1/log2(5) + 3/log2(6)) / (7 + 3/log2(3) + 3/2 + 1/log2(5))\n" in text
    assert "(log2(3) + 1)" not in text and not re.search(r"\d\*|\*\(|\*\*", text)  # no Python syntax
    assert " 5 |     2 |            3 | log2(6) ≈ 2.5850     | 3/log2(6) ≈ 1.1606" in text


def test_mean_over_queries_writes_each_query_as_computed():
    from irlab import Ranking, mean_over_queries, ndcg

    result = mean_over_queries([ndcg(Ranking.parse("0,1")), ndcg(Ranking.parse("1,0"))], "mean nDCG")
    assert "mean nDCG = (nDCG(q1) + nDCG(q2)) / 2 = (1/log2(3) + 1) / 2 ≈ 0.8155" in result.render("text")


def test_notation_cannot_be_misread():
    from irlab import Ranking, cohen_kappa, f_measure, precision, recall

    ranking = Ranking.parse("RNNRR", relevant=8)
    f_half = f_measure(ranking, beta="1/2").render("text")
    assert "Result: F_0.5 = 15/28 ≈ 0.5357" in f_half and "F_1/2" not in f_half  # not 'F1 divided by 2'
    assert "Rec = hits / R = 3 / 8 = 0.375" in f_half and "R = 8 (given)" in f_half  # recall is Rec, R the count
    assert f_measure(ranking, beta=0.1).symbol == "F_0.1"
    assert f_measure(ranking, beta="1/3").symbol == "F_β"
    assert "β = 1/3 ≈ 0.3333" in f_measure(ranking, beta="1/3").render("text")
    assert recall(ranking, k=3).symbol == "Rec@3" and recall(ranking).symbol == "Rec"
    # the formula shown is the one computed
    assert "Formula: P = hits / n\n" in precision(ranking).render("text")
    truncated = precision(Ranking.parse("RNN"), k=5, precision_denominator="retrieved").render("text")
    assert "Formula: P@k = hits@k / n@k, n@k = min(k, n)" in truncated and "P@5 = hits@5 / n@k = 1 / 3" in truncated
    kappa = cohen_kappa("1100110", "1000111").render("text")
    assert "n = 7" in kappa and "P(rel) = (rel_1 + rel_2) / (2 · n)" in kappa and "P(nonrel)" in kappa
    assert "P(R)" not in kappa and "P(N)" not in kappa


def test_interpolation_compares_every_rank_whose_recall_reaches_r():
    from irlab import Ranking, interpolated_precision

    result = interpolated_precision(Ranking.parse("RNRNNNNNRR", relevant=4), "0.3")
    table = result.tables[0]
    marked = [row[0] for row in table.rows if row[-1] == "yes"]
    assert marked == [3, 4, 5, 6, 7, 8, 9, 10]  # recall 1/2 >= 0.3 from rank 3 on, relevant or not
    assert "p_interp(0.3) = max(P@3, P@4, …, P@10) = max(2/3, 1/2, 2/5, 1/3, 2/7, 1/4, 1/3, 2/5) = 2/3" in result.render("text")


def test_accuracy_is_iirs_and_success_keeps_its_name(cli):
    from irlab.metrics import get_metric

    out = cli("explain", "accuracy", "RNNRR", "--relevant", "5", "--collection", "100")
    assert out.returncode == 0, out.stderr
    assert "accuracy = (tp + tn) / N = (3 + 93) / 100 = 24/25 = 0.96" in out.stdout  # (tp + tn) / N, IIR 8.3
    assert get_metric("success").title == "Success (hit rate, hit@k)" and get_metric("hit").name == "success"
    assert get_metric("accuracy").name == "set-accuracy"


def test_html_typesets_formulas_as_mathml():
    from irlab import Ranking, ndcg
    from irlab.render.mathml import to_mathml

    html = ndcg(Ranking.parse("3,2,0,1,2")).render("html")
    assert "<code>" not in html and "log<sub>2</sub>(i + 1)" in html and "2<sup>g</sup> - 1" in html
    assert html.count("<math") > 20
    assert '<msub><mi mathvariant="normal">log</mi><mn>2</mn></msub><mn>6</mn>' in html  # log_2 6 in the table
    assert to_mathml(r"P@k = \frac{\mathrm{hits}@k}{k}") == (
        '<math><mrow><mi>P</mi><mo lspace="0" rspace="0">@</mo><mi>k</mi><mo>=</mo><mfrac><mrow><mi mathvariant="normal">'
        'hits</mi><mo lspace="0" rspace="0">@</mo><mi>k</mi></mrow><mi>k</mi></mfrac></mrow></math>')


def test_every_explanation_translates_to_mathml():
    from irlab import Ranking
    from irlab.metrics import METRICS

    binary, graded = Ranking.parse("RNRNNNNNRR", relevant=5, collection=50), Ranking.parse("3,2,0,1,2", unretrieved=[2])
    for metric in METRICS:
        if metric.inputs == "rankings-of-ids":
            result = metric.compute("a,b,c,d", "b,a,d,c")
        elif metric.name == "kappa":
            result = metric.compute("1100110", "1000111")
        elif metric.inputs != "ranking":
            continue
        else:
            options = {"recall_level": "0.3"} if any(p.name == "recall_level" for p in metric.parameters) else {}
            result = metric.compute(graded if metric.name in ("cg", "dcg", "idcg", "ndcg", "err", "nerr") else binary, **options)
        assert "<math" in result.render("html"), metric.name  # a command outside the subset would raise


def test_trec_mode_explains_with_trec_evals_conventions(cli, tmp_path):
    from fractions import Fraction

    from irlab.trec.evaluate import evaluate

    qrels, run = tmp_path / "qrels", tmp_path / "run"
    qrels.write_text("1 0 d1 0\n1 0 d2 1\n1 0 d5 1\n1 0 d9 1\n")  # R = 3, d9 never retrieved
    run.write_text("".join(f"1 Q0 d{i} {i} {10 - i} r\n" for i in range(1, 6)))  # N R N N R
    out = cli("explain", "11pt", "--qrels", str(qrels), "--run", str(run), "--topic", "1", "--format", "json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    # trec_eval needs round(r·R) relevant documents: 5 levels at 1/2, 4 at 2/5, 2 at 0 -> 41/110 (the book's ⌈r·R⌉: 16/55)
    assert data["value"] == "41/110" and data["convention"]["interpolation"] == "trec-eval"
    assert abs(evaluate(str(qrels), str(run), ["11pt_avg"]).per_topic["1"]["11pt_avg"] - float(Fraction(41, 110))) < 1e-9
    book = json.loads(cli("explain", "11pt", "--qrels", str(qrels), "--run", str(run), "--topic", "1",
                          "--interpolation", "book", "--format", "json").stdout)
    assert book["value"] == "16/55"
    text = cli("explain", "11pt", "--qrels", str(qrels), "--run", str(run), "--topic", "1").stdout
    assert "interpolation = trec-eval here, as trec_eval computes iprec_at_recall and 11pt_avg" in text


def test_rich_display_everywhere_in_jupyter(tmp_path):
    from irlab import Ranking
    from irlab.exercise_set import load
    from irlab.solvers import map_bounds
    from irlab.trec.evaluate import evaluate

    ranking_html = Ranking.parse("RNR", relevant=3)._repr_html_()
    assert "<table>" in ranking_html and "<th>relevant so far</th>" in ranking_html and "Ranking RNR" in ranking_html
    exercises = load(Path(__file__).resolve().parents[1] / "exercises" / "chapter8-book.toml")
    set_html = exercises._repr_html_()
    assert set_html.count("<section>") == len(exercises.exercises) and "<th class=\"text\">solved by</th>" in set_html
    qrels, run = tmp_path / "qrels", tmp_path / "run"
    qrels.write_text("1 0 d1 1\n1 0 d2 0\n")
    run.write_text("1 Q0 d1 1 2 r\n1 Q0 d2 2 1 r\n")
    eval_html = evaluate(str(qrels), str(run), ["map"])._repr_html_()
    assert "<th>map</th>" in eval_html and "<td>1.0000</td>" in eval_html
    solution_html = map_bounds(Ranking.parse("RNRNN", relevant=4, collection=20))._repr_html_()
    assert solution_html.count("<section>") >= 2 and "<math" in solution_html


def test_a_fraction_too_long_for_a_table_cell_shows_its_decimal():
    from fractions import Fraction

    from irlab.render.common import cell_latex, cell_text

    assert cell_text(Fraction(1, 3)) == "1/3 ≈ 0.3333"  # short: exact, then decimal
    assert cell_text(Fraction(531441, 1000000)) == "531441/1000000 ≈ 0.5314"
    long = Fraction(9**20, 10**20)  # 0.9^20 = 0.12157665459056928801: 20-digit numerator and denominator
    assert cell_text(long) == "≈ 0.1216"
    assert cell_latex(long, str) == r"\approx 0.1216"


def test_a_power_of_a_fraction_keeps_its_brackets_in_every_format():
    from irlab import Ranking
    from irlab.metrics import rank_biased_precision

    result = rank_biased_precision(Ranking.parse("RNR"), persistence="4/5")
    html = result.render("html")
    # (4/5)^2 as a bracketed fraction to the power 2, never 4^2/5
    assert "<msup><mrow><mo>(</mo><mfrac><mn>4</mn><mn>5</mn></mfrac><mo>)</mo></mrow><mn>2</mn></msup>" in html
    assert r"{\left(\frac{4}{5}\right)}^{2}" in result.render("markdown") or "(4/5)^2" in result.render("markdown")


def test_json_keeps_every_digit_of_a_long_exact_value():
    import json
    from fractions import Fraction

    from irlab import Ranking
    from irlab.metrics import inst

    result = inst(Ranking.parse("RNR"), target=1)  # over 1,000 ranks: 867-digit numerator and denominator
    data = json.loads(result.render("json"))
    value = Fraction(data["answer"]["value"])  # parseable, and the very value computed
    assert value == result.value and len(str(value.denominator)) == 867
    assert "digits)" in result.render("text")  # a reader still sees it abbreviated


def test_a_step_whose_name_is_its_formula_says_it_once():
    from irlab import Ranking
    from irlab.metrics import rank_biased_precision

    result = rank_biased_precision(Ranking.parse("RNR"), persistence="1/2")
    step = next(line for line in result.render("markdown").splitlines() if "Upper bound" in line)
    assert step.count("resid") == 1  # not "RBP + resid = RBP + resid = 5/8 + 1/8"


def test_a_bracketed_group_takes_its_superscript_whole_in_mathml():
    from irlab.render.mathml import to_mathml

    # INST's ((i + 2T - 1)/(i + 2T))^2: the square belongs to the bracketed fraction, not to its closing bracket
    got = to_mathml(r"\left(\frac{a}{b}\right)^2")
    assert got == ("<math><msup><mrow><mo>(</mo><mfrac><mi>a</mi><mi>b</mi></mfrac><mo>)</mo></mrow><mn>2</mn></msup>"
                   "</math>")


def test_mathml_sets_a_minus_sign_and_keeps_a_hyphen_in_a_name():
    from irlab.render.mathml import to_mathml

    assert to_mathml("1 - p") == "<math><mrow><mn>1</mn><mo>−</mo><mi>p</mi></mrow></math>"  # U+2212, as LaTeX sets it
    assert "<mtext>-</mtext>" in to_mathml(r"\mathrm{R\text{-}prec}")  # R-prec's hyphen is text
