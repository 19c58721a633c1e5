"""The last holes of issue 20 ("Safe with students' files and grades"), each with the real payload.

1. A system's or a run's name from an exercise set is set as written in every formula: LaTeX that pdflatex compiles
   and MathML that shows it, never a command it runs (``B\\input{x}``, ``é^~_{%#&$}ßκ``); a name with a control
   character or longer than MAX_NAME is refused when the set is loaded.
2. A student's feedback (``check``) shows a control character from the set or the answer as '<U+001B>' in its HTML,
   Markdown, text and repr, as every renderer does, and markup in an answer as written.
3. MAX_ANSWER_CHARS is a bound of irlab/limits.py like the others.
4. The answer key reads the set's [grading] defaults through exercise_set.read_toml, the reader load() uses: a 5,001-digit
   integer, a 5,000-deep array or a set past MAX_SET_BYTES is an InputFileError naming the file, never a builtin error.
5. ``irlab sheet SET --roster R --out DIR --answers-only`` writes every student's key of answers only, as
   ``--student ID --key --answers-only`` prints it (the class keys ignored the option).
"""

import shutil
import subprocess
from fractions import Fraction
from pathlib import Path

import pytest

from conftest import pdflatex_available
from irlab import limits
from irlab.escape import LATEX_SPECIAL, LATEX_UNICODE, latex_name
from irlab.render.mathml import text_of_latex, to_mathml
from irlab.trace import symbol_latex

needs_pdf_tools = pytest.mark.skipif(not (pdflatex_available() and shutil.which("pdftotext")),
                                     reason="pdflatex/pdftotext not installed (CI installs texlive and poppler-utils)")

INPUT = "B\\input{x}"  # a command pdflatex would run: the file x.tex
SPECIALS = "é^~_{%#&$}ßκ"  # every character math mode cannot take as it is, and letters outside ASCII


def toml_key(name: str) -> str:
    """A TOML quoted key holding ``name`` exactly."""
    return '"' + "".join(c if c.isprintable() and c not in '"\\' else f"\\u{ord(c):04x}" for c in name) + '"'


def systems_set(tmp_path, first=INPUT, second=SPECIALS, file="systems.toml"):
    path = tmp_path / file
    path.write_text(f"""id = "names"
title = "Hostile names"

[[exercise]]
id = "h"
title = "Two systems"
statement = "Two systems."

[exercise.parameters]
systems = {{ {toml_key(first)} = ["RNRNNNNNRR"], {toml_key(second)} = ["NRNNRRRNNN"] }}
relevant = 4

[[exercise.question]]
id = "a"
text = "What is the MAP of each system?"
solver = "compare-systems"
metric = "ap"
""", encoding="utf-8")
    return path


def pdf_text(path) -> str:
    return subprocess.run(["pdftotext", str(path), "-"], capture_output=True, text=True, check=True).stdout


# --- 1. names in symbols ------------------------------------------------------------------------------------------

def test_a_name_math_mode_cannot_take_is_escaped_text_in_the_symbol():
    assert symbol_latex(f"AP({INPUT})") == r"\mathrm{AP}(\text{B\textbackslash{}input\textbraceleft{}x\textbraceright{}})"
    assert symbol_latex("AP(café)") == r"\mathrm{AP}(\text{caf\'e})"
    assert symbol_latex("AP(ß)") == r"\mathrm{AP}(\text{\ss{}})"  # a letter outside ASCII, printed as written
    assert symbol_latex("AP(a\x1bb)") == r"\mathrm{AP}(\text{a\texttt{<U+001B>}b})"
    assert symbol_latex("AP(x^)") == r"\mathrm{AP}(\text{x\^{}})"  # a lone caret: pdflatex's 'Missing { inserted'
    assert symbol_latex("AP(a^b^c)") == r"\mathrm{AP}(\text{a\^{}b\^{}c})"  # TeX's 'Double superscript'
    assert symbol_latex("AP(<script>)") == r"\mathrm{AP}(\text{\ensuremath{<}script\ensuremath{>}})"  # no '<s' in Markdown


def test_irlabs_own_symbols_keep_their_latex():
    own = {"AP@5": r"\mathrm{AP}@5", "G*_3": "G^{*}_{3}", "2^n": r"\mathrm{2^n}", "|pool|": r"\mathrm{|pool|}",
           "Σtp": r"\mathrm{\Sigma tp}", "κ_avg": r"\kappa_{\mathrm{avg}}", "s²": "s^{2}", "AP(q1)": r"\mathrm{AP}(\mathrm{q1})",
           "P(recall=0.25)": r"P(\mathrm{recall}=0.25)", "R-prec(1)": r"\mathrm{R\text{-}prec}(1)",
           "F(P_macro, R_macro)": r"F(P_{\mathrm{macro, R}_{\mathrm{macro}}})", "unique(A)": r"\mathrm{unique}(A)"}
    assert {symbol: symbol_latex(symbol) for symbol in own} == own


def test_a_name_is_never_nested_deeper_than_symbol_nesting_nor_scripted_twice():
    # 200 '@' were 400 nested calls and a RecursionError; 'x**' was x^{*}^{*}, pdflatex's 'Double superscript'
    assert symbol_latex("AP(" + "@" * 200 + ")").count("@") == 200
    assert symbol_latex("x**") == "{x^{*}}^{*}"
    assert symbol_latex("a_" * 100 + "b").count("_{") == 6  # SYMBOL_NESTING levels of subscripts, then flat


@pytest.mark.parametrize("name", [INPUT, SPECIALS.replace("_", ""), "a\x1bb", "<script>alert(1)</script>", "x}+{y",
                                  "½ λ Γ ç ŭ", "$<$", "a\\$b", "😀"])
def test_mathml_shows_the_name_as_written(name):
    mathml = to_mathml(symbol_latex(f"AP({name})"))
    shown = name.replace("\x1b", "<U+001B>").replace("½", "1\u20442")
    escaped = shown.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    assert f"<mtext>{escaped}</mtext>" in mathml
    assert "<script" not in mathml and "\x1b" not in mathml


def test_text_of_latex_reads_back_every_character_the_escaper_writes():
    sample = "".join(LATEX_SPECIAL) + "".join(
        c for c in LATEX_UNICODE if not LATEX_UNICODE[c].isascii() or LATEX_UNICODE[c][0] in "\\$")
    sample += "àÉçňŭåāõ αβγΛΩ ß日本 😀 /,"
    assert text_of_latex(latex_name(sample)) == sample
    assert text_of_latex(latex_name("\x00\x1b\x7f\x9f")) == "<U+0000><U+001B><U+007F><U+009F>"
    assert text_of_latex(r"\ (5 more terms) \,") == " (5 more terms) ,"  # irlab's own \text{…} as before


def test_latex_name_is_printable_ascii_with_balanced_braces_and_no_math_shift():
    latex = latex_name(SPECIALS + "x}+{y" + "\x1b\n")
    assert all(" " <= c <= "~" for c in latex)
    assert latex.count("{") == latex.count("}") and "$" not in latex.replace(r"\$", "")


def test_solve_shows_hostile_system_names_in_text_markdown_latex_and_html(tmp_path, cli):
    path = systems_set(tmp_path)
    text = cli("solve", str(path))
    assert text.returncode == 0, text.stderr
    assert f"AP({INPUT}) = 3/5 = 0.6" in text.stdout and f"AP({SPECIALS}) = 69/140 ≈ 0.4929" in text.stdout

    markdown = cli("solve", str(path), "--format", "markdown")
    assert markdown.returncode == 0, markdown.stderr
    line = next(line for line in markdown.stdout.splitlines() if line.startswith(f"**MAP of system {INPUT[0]}"))
    assert line.endswith(r"$\mathrm{AP}(\text{B\textbackslash{}input\textbraceleft{}x\textbraceright{}}) = \frac{3}{5} = 0.6$")

    latex = cli("solve", str(path), "--format", "latex", "--standalone")
    assert latex.returncode == 0, latex.stderr
    assert r"\mathrm{AP}(\text{B\textbackslash{}input\textbraceleft{}x\textbraceright{}}) = 3/5 = 0.6" in latex.stdout
    assert r"\input{" not in latex.stdout.replace(r"\textbackslash{}input", "")
    assert all(" " <= c <= "~" or c in "\n" for c in latex.stdout)

    html = cli("solve", str(path), "--format", "html", "--standalone")
    assert html.returncode == 0, html.stderr  # was a MathMLError traceback: \input is outside the subset
    assert "<mtext>B\\input{x}</mtext>" in html.stdout
    assert "<mtext>é^~</mtext>" in html.stdout and "<mtext>{%#&amp;$}ßκ</mtext>" in html.stdout  # '_': a subscript


@needs_pdf_tools
def test_solve_pdf_of_hostile_system_names_compiles_and_shows_them(tmp_path, cli):
    pdf = tmp_path / "names.pdf"
    out = cli("solve", str(systems_set(tmp_path, second="x**")), "--pdf", str(pdf))  # was a UnicodeEncodeError
    assert out.returncode == 0, out.stderr
    shown = pdf_text(pdf)
    assert "AP(B\\input{x}) = 3/5 = 0.6" in shown
    assert not (tmp_path / "x.tex").exists()


def test_a_backslash_or_letters_outside_ascii_are_names_like_any_other(tmp_path, cli):
    out = cli("solve", str(systems_set(tmp_path, first="naïve\\run", second="κ-ß")))
    assert out.returncode == 0, out.stderr
    assert "AP(naïve\\run) = 3/5" in out.stdout and "AP(κ-ß) = 69/140" in out.stdout


@pytest.mark.parametrize("name, shown", [("a\x1bb", "U+001B"), ("a\tb", "U+0009"), ("line\nbreak", "U+000A")])
def test_a_system_name_with_a_control_character_is_refused_at_load(tmp_path, cli, name, shown):
    path = systems_set(tmp_path, first=name)
    out = cli("solve", str(path))
    assert out.returncode == 2
    assert out.stderr.startswith(f"irlab: error: {path}: exercise h, key 'parameters.systems': the system name ")
    assert f"holds the control character {shown}" in out.stderr and "\x1b" not in out.stderr
    assert "Traceback" not in out.stderr


def test_a_name_longer_than_max_name_is_refused_at_load(tmp_path, cli):
    path = systems_set(tmp_path, first="a" * (limits.MAX_NAME + 1))
    out = cli("solve", str(path))
    assert out.returncode == 2
    assert "has 256 characters; a name is at most 255 (irlab's limit MAX_NAME)" in out.stderr
    assert cli("solve", str(systems_set(tmp_path, first="a" * limits.MAX_NAME))).returncode == 0


def test_a_run_name_with_a_control_character_is_refused_at_load(tmp_path, cli):
    path = tmp_path / "pool.toml"
    path.write_text('id = "p"\ntitle = "Pool"\n[[exercise]]\nid = "1"\ntitle = "Pool"\nstatement = "Pool."\n'
                    '[exercise.parameters]\nruns = { "A\\u0007" = "d1,d2", B = "d2,d3" }\n'
                    '[[exercise.question]]\nid = "a"\nsolver = "pool"\ndepth = 2\n', encoding="utf-8")
    out = cli("solve", str(path))
    assert out.returncode == 2
    assert "key 'parameters.runs': the run name 'A\\x07' holds the control character U+0007" in out.stderr


# --- 2. control characters in a student's feedback -----------------------------------------------------------------

def precision_set(tmp_path, exercise_id="1\x1b[2J"):
    path = tmp_path / "feedback.toml"
    path.write_text(f"""id = "feedback"
title = "Feedback"

[[exercise]]
id = {toml_key(exercise_id)}
title = "Precision"
statement = "A ranking."

[exercise.parameters]
ranking = "RNRN"
relevant = 2

[[exercise.question]]
id = "a"
text = "What is the precision?"
solver = "precision"
""", encoding="utf-8")
    return path


def test_feedback_html_shows_control_characters_by_code_point(tmp_path):
    from irlab.homework import check

    feedback = check(precision_set(tmp_path), "1\x1b[2J", "a", "0.6\x1b[31m")  # ESC [2J clears a terminal
    page = feedback._repr_html_()
    assert "<strong>Exercise 1&lt;U+001B&gt;[2J, question a</strong>" in page  # was the raw ESC byte
    assert "\x1b" not in page and "\x1b" not in feedback.text() and "\x1b" not in feedback._repr_markdown_()
    assert feedback._repr_markdown_().startswith("**Exercise 1&lt;U+001B>[2J, question a**: ")
    assert repr(feedback) == "<Feedback exercise 1<U+001B>[2J question a: not correct>"


def test_feedback_markdown_shows_markup_in_an_answer_as_written(tmp_path):
    from irlab.homework import check

    feedback = check(precision_set(tmp_path, exercise_id="1"), "1", "a", "<img src=x onerror=alert(1)>")
    markdown = feedback._repr_markdown_()
    assert "'&lt;img src=x onerror=alert(1)>' is not a number" in markdown  # a '<' that opens no tag
    assert "&#x27;&lt;img src=x onerror=alert(1)&gt;&#x27; is not a number" in feedback._repr_html_()


def test_feedback_of_a_well_behaved_answer_is_unchanged(tmp_path):
    from irlab.homework import check

    feedback = check(precision_set(tmp_path, exercise_id="1"), "1", "a", "0.6")
    assert feedback._repr_markdown_() == f"**Exercise 1, question a**: {feedback.text()}\n"
    assert feedback._repr_html_().endswith(f"<strong>Exercise 1, question a</strong>: {feedback.text()}</div>")


# --- 3. the bound on an answer's length, defined once ----------------------------------------------------------------

def test_max_answer_chars_is_defined_in_limits_and_used_by_the_answer_reader():
    import inspect

    from irlab.homework import answers

    assert limits.MAX_ANSWER_CHARS == 1000 and answers.MAX_ANSWER_CHARS is limits.MAX_ANSWER_CHARS
    assert "MAX_ANSWER_CHARS =" not in inspect.getsource(answers)
    assert answers.parse_answer("1" * 1000).value == int("1" * 1000)  # at the bound: read
    assert answers.parse_answer("1" * 1001).problem == ("the answer is 1,001 characters long; irlab reads answers of "
                                                        "at most 1,000 characters")


# --- 4. every reader of a set reads it the one guarded way ---------------------------------------------------------

SEED_TEXT = (Path(__file__).resolve().parents[1] / "exercises" / "chapter8-seed.toml").read_text(encoding="utf-8")


@pytest.mark.parametrize("grading, problem", [
    ("tolerance = " + "1" * 5001, "an integer of more than 4,300 digits"),  # was ValueError from tomllib
    ("tolerance = " + "[" * 5000 + "1" + "]" * 5000, "nested too deeply"),  # was RecursionError
])
def test_the_answer_keys_grading_defaults_are_read_the_guarded_way(tmp_path, grading, problem):
    from irlab.errors import InputFileError
    from irlab.homework.key import grading_defaults

    path = tmp_path / "set.toml"
    path.write_text(SEED_TEXT + f"\n[grading]\n{grading}\n", encoding="utf-8")
    with pytest.raises(InputFileError, match=problem) as error:
        grading_defaults(path)
    assert str(error.value).startswith(str(path))


def test_a_set_replaced_by_one_too_large_is_refused_by_the_key_reader(tmp_path):
    from irlab.errors import InputFileError
    from irlab.homework.key import grading_defaults

    path = tmp_path / "set.toml"
    path.write_text(SEED_TEXT + "\n[grading]\ntolerance = 0.01\n" + "#" * limits.MAX_SET_BYTES + "\n", encoding="utf-8")
    with pytest.raises(InputFileError, match="MAX_SET_BYTES"):
        grading_defaults(path)  # was read whole and parsed, past the bound load() keeps


def test_the_key_reads_the_set_through_exercise_set_read_toml(tmp_path):
    import inspect

    from irlab.homework import key

    assert "tomllib" not in inspect.getsource(key)
    path = tmp_path / "set.toml"
    path.write_text(SEED_TEXT + "\n[grading]\ntolerance = 0.05\n", encoding="utf-8")
    assert key.grading_defaults(path) == {"tolerance": 0.05}
    assert key.answer_key(path, "8/2", "a").tolerance.rtol == Fraction(1, 20)


# --- 5. --answers-only applies to every key of a class -------------------------------------------------------------

SEED = Path(__file__).resolve().parents[1] / "exercises" / "chapter8-seed.toml"


@pytest.mark.parametrize("flags", [["--answers-only"], ["--key", "--answers-only"]])
def test_class_keys_with_answers_only_are_the_one_student_quick_key(tmp_path, cli, flags):
    roster = tmp_path / "roster.csv"
    roster.write_text("id,name\ns1,Ann\ns2,Bo\n", encoding="utf-8")
    out = cli("sheet", str(SEED), "--roster", str(roster), "--out", str(tmp_path / "class"), "--seed", "T",
              "--format", "markdown", *flags)
    assert out.returncode == 0, out.stderr
    assert "wrote 2 sheets and answer keys (answers only) to" in out.stderr
    for student in ("s1", "s2"):
        quick = cli("sheet", str(SEED), "--student", student, "--seed", "T", "--key", "--answers-only",
                    "--format", "markdown")
        full = cli("sheet", str(SEED), "--student", student, "--seed", "T", "--key", "--format", "markdown")
        written = (tmp_path / "class" / f"{student}-key.md").read_text(encoding="utf-8")
        assert written == quick.stdout != full.stdout  # was the full key, the working included
        assert "Sum of the precisions" in full.stdout and "Sum of the precisions" not in written
        sheet = cli("sheet", str(SEED), "--student", student, "--seed", "T", "--format", "markdown")
        assert (tmp_path / "class" / f"{student}.md").read_text(encoding="utf-8") == sheet.stdout


def test_class_keys_without_answers_only_keep_the_working(tmp_path, cli):
    roster = tmp_path / "roster.csv"
    roster.write_text("id\ns1\n", encoding="utf-8")
    out = cli("sheet", str(SEED), "--roster", str(roster), "--out", str(tmp_path / "class"), "--format", "markdown")
    assert out.returncode == 0, out.stderr
    assert "wrote 1 sheets and answer keys to" in out.stderr
    full = cli("sheet", str(SEED), "--student", "s1", "--key", "--format", "markdown")
    assert (tmp_path / "class" / "s1-key.md").read_text(encoding="utf-8") == full.stdout
