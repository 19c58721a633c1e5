"""Prose with characters beyond irlab's own table still reaches LaTeX readably, never as a silent '?'."""

from irlab.render.latex import latex_text


def test_greek_accents_fractions_and_the_rest():
    assert latex_text("α = 0.05") == r"$\alpha$ = 0.05"
    assert latex_text("ε λ Λ Ω") == r"$\epsilon$ $\lambda$ $\Lambda$ $\Omega$"
    assert latex_text("ñ ç ½") == r"\~{n} \c{c} $\frac{1}{2}$"
    assert latex_text("日") == r"\texttt{<U+65E5>}"
    assert "?" not in latex_text("αβγδεζηθικλμνξπρστυφχψω")


def test_hyphens_and_straight_quotes_print_as_typed():
    from irlab.escape import latex_escape

    # '--' would be an en dash and '"' a closing quote in pdflatex's text fonts
    assert latex_escape('cwl-eval --max_depth') == r"cwl-eval -{}-max\_depth"
    assert latex_escape('its "worse case" ("x")') == "its ``worse case'' (``x'')"
    assert latex_escape("a–b — c") == "a--b --- c"  # the real dashes stay dashes
