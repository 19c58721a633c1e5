"""Prose with characters beyond irlab's own table still reaches LaTeX readably, never as a silent '?'."""

from irlab.render.latex import latex_text


def test_greek_accents_fractions_and_the_rest():
    assert latex_text("α = 0.05") == r"$\alpha$ = 0.05"
    assert latex_text("ε λ Λ Ω") == r"$\epsilon$ $\lambda$ $\Lambda$ $\Omega$"
    assert latex_text("ñ ç ½") == r"\~{n} \c{c} $\frac{1}{2}$"
    assert latex_text("日") == "日"  # as written, for LuaLaTeX (irlab/tex_engine.py)
    assert "?" not in latex_text("αβγδεζηθικλμνξπρστυφχψω")


def test_hyphens_and_straight_quotes_print_as_typed():
    from irlab.escape import latex_escape

    # '--' would be an en dash and '"' a closing quote in pdflatex's text fonts
    assert latex_escape('cwl-eval --max_depth') == r"cwl-eval -{}-max\_depth"
    assert latex_escape('its "worse case" ("x")') == "its ``worse case'' (``x'')"
    assert latex_escape("a–b — c") == "a--b --- c"  # the real dashes stay dashes


def test_names_of_every_script_are_written_as_they_are_and_ascii_stays_ascii():
    from irlab.escape import latex_escape, latex_name
    from irlab.render.mathml import text_of_latex
    from irlab.tex_engine import engine

    # what pdflatex's own fonts have stays a LaTeX command (an ASCII source, compiled by pdflatex as before)
    assert latex_escape("Jürgen Straße, Øyvind, Őry Ż") == r'J\"urgen Stra\ss{}e, \O{}yvind, \H{O}ry \.{Z}'
    # the rest as written, for LuaLaTeX: Ł (pdflatex's is an L struck through), Đ, ț, Vietnamese, Cyrillic, CJK
    for name in ("Łukasz", "Đorđe", "Țăran", "Nguyễn Thị", "Дмитрий", "田中"):
        assert not latex_escape(name).isascii() and "<U+" not in latex_escape(name)
    # a Greek word is text; a Greek letter standing alone is the math symbol it was
    assert latex_escape("Αλέξανδρος, α = 0.05, κ") == r"Αλέξανδρος, $\alpha$ = 0.05, $\kappa$"
    assert latex_escape("a\x1bb") == r"a\texttt{<U+001B>}b"  # control characters alone keep their visible code
    assert engine(latex_escape("Ann Lee Jürgen")) == "pdflatex" and engine(latex_escape("Łukasz")) == "lualatex"
    for name in ("Łukasz Żółć", "Nguyễn Thị", "Ștefan Țăran", "Αλέξανδρος", "run_1 {κ}", "Œuvre 日本"):
        assert text_of_latex(latex_name(name)) == name  # the HTML's MathML reads the name back as written


def test_a_unicode_source_gets_the_fonts_it_needs_once():
    from irlab.tex_engine import MARKER, with_unicode_fonts

    ascii_source = "\\documentclass{article}\n\\begin{document}\nAnn\n\\end{document}\n"
    assert with_unicode_fonts(ascii_source) == ascii_source
    source = with_unicode_fonts(ascii_source.replace("Ann", "Дмитрий"))
    assert source.count(MARKER) == 1 and with_unicode_fonts(source) == source
    assert source.index("\\usepackage{fontspec}") < source.index("\\begin{document}")


def test_judgment_strings_break_between_boxes_never_with_a_hyphen():
    assert latex_text("list NNRRNNNNNNRNNRN here") == (
        r"list \mbox{NNRRN}\allowbreak{}\mbox{NNNNN}\allowbreak{}\mbox{RNNRN} here")
    assert latex_text("RNR and NRNNRX") == "RNR and NRNNRX"  # short strings and words stay as they are


def test_a_step_of_nested_fractions_is_displayed_full_size():
    from irlab.cli import build_parser
    from irlab.cli.explain import explain_document

    document, _ = explain_document(build_parser().parse_args(["explain", "ndcg", "3,2,0,1", "--unretrieved", "2"]))
    latex = document.render("latex")
    step = latex[latex.index(r"\item Normalised DCG"):]
    step = step[:step.index(r"\end{align*}")]
    assert step.startswith("\\item Normalised DCG:\n\\begin{align*}")  # displayed, not inline in the item's line
    assert r"\dfrac{7 + \dfrac{3}{\log_2 3} + \dfrac{1}{\log_2 5}}{7 + \dfrac{3}{\log_2 3}" in step
    assert r"\tfrac" not in step
