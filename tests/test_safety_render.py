"""Hostile text from students' files and exercise sets through the Markdown, LaTeX and HTML renderers (issue 20).

A student id with an ESC byte must not cost the class's PDF (items 6), and markup in an answer or a statement must
reach a Markdown viewer as characters, never as a tag (item 7). The payloads are the real ones; the property test
puts generated hostile strings in every place of a document where text from a file can go, and checks what a
Markdown viewer, a browser and pdflatex get.
"""

import re
import shutil
import struct
import subprocess
import zlib
from fractions import Fraction
from html.parser import HTMLParser
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings, strategies as st

from conftest import pdflatex_available
from irlab.document import Answer, Document, Figure, Formula, Note, Paragraph, Section, Step, Steps, Table
from irlab.render.common import prose_parts
from irlab.render.latex import latex_text

# C0 controls but tab and newline, DEL and C1 controls (and lone surrogates): what no output may carry as it is
CONTROL_CHARACTER = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff]")

SEED = Path(__file__).resolve().parents[1] / "exercises" / "chapter8-seed.toml"
IMG = "<img src=x onerror=alert(1)>"
SCRIPT = "<script>alert(1)</script>"
needs_latex = pytest.mark.skipif(not (pdflatex_available() and shutil.which("pdftotext")),
                                 reason="pdflatex/pdftotext not installed (CI installs texlive and poppler-utils)")


def pdf_text(path) -> str:
    return subprocess.run(["pdftotext", str(path), "-"], capture_output=True, text=True, check=True).stdout


def toml_string(text: str) -> str:
    """A TOML basic string holding ``text`` exactly, control characters as \\uXXXX escapes."""
    return '"' + "".join(c if c.isprintable() and c not in '"\\' else f"\\u{ord(c):04x}" for c in text) + '"'


def exercise_set(tmp_path, title="A set", statement="A ranking.", question="What is the precision?"):
    path = tmp_path / "set.toml"
    path.write_text(f"""id = "hostile"
title = {toml_string(title)}

[[exercise]]
id = "1"
title = {toml_string(title)}
statement = {toml_string(statement)}

[exercise.parameters]
ranking = "RNR"
relevant = 2

[[exercise.question]]
id = "a"
text = {toml_string(question)}
solver = "precision"
""", encoding="utf-8")
    return path


# --- the payloads, through the command line ---------------------------------------------------------------

def answers_with_an_escape_in_a_student_id(tmp_path):
    answers = tmp_path / "answers.csv"
    answers.write_text("student,exercise,question,answer\ns1\x1b[31m,8/2,a,3/5\ns2,8/2,a,0.6\n", encoding="utf-8")
    return answers


def test_student_id_with_escape_is_printed_visibly_in_the_class_report_latex(tmp_path):
    from irlab.homework.gradebook import class_report
    from irlab.homework.grading import grade

    report = grade(SEED, answers_with_an_escape_in_a_student_id(tmp_path), variants=False)
    latex = class_report(report).render("latex", standalone=True)
    assert r"s1\texttt{<U+001B>}[31m" in latex
    assert "\x1b" not in latex


@needs_latex
def test_student_id_with_escape_graded_with_pdf_still_gives_the_class_pdf(tmp_path, cli):
    pdf = tmp_path / "class.pdf"
    out = cli("grade", str(SEED), str(answers_with_an_escape_in_a_student_id(tmp_path)), "--as-written",
              "--pdf", str(pdf))
    assert out.returncode == 0, out.stderr
    text = pdf_text(pdf)
    assert "s1<U+001B>[31m" in text  # the id as it is in the file, its ESC byte by code point
    assert "s2" in text


def test_title_with_backspace_etx_and_del_solved_to_latex(tmp_path, cli):
    path = exercise_set(tmp_path, title="Set \b one \x03 two \x7f end")
    out = cli("solve", str(path), "--format", "latex", "--standalone")
    assert out.returncode == 0, out.stderr
    assert r"\section*{Set \texttt{<U+0008>} one \texttt{<U+0003>} two \texttt{<U+007F>} end}" in out.stdout
    assert all(" " <= c <= "~" or c in "\n\t" for c in out.stdout)
    if pdflatex_available() and shutil.which("pdftotext"):
        pdf = tmp_path / "set.pdf"
        out = cli("solve", str(path), "--pdf", str(pdf))
        assert out.returncode == 0, out.stderr
        assert "Set <U+0008> one <U+0003> two <U+007F> end" in pdf_text(pdf)


def test_markup_in_answers_is_escaped_by_grade_markdown(tmp_path, cli):
    answers = tmp_path / "answers.csv"
    answers.write_text(f"student,exercise,question,answer\ns1,8/2,a,{IMG}\ns2,8/2,a,{SCRIPT}\n", encoding="utf-8")
    out = cli("grade", str(SEED), str(answers), "--as-written", "--format", "markdown", "--allow-ungraded")
    assert out.returncode == 0, out.stderr
    assert "'&lt;img src=x onerror=alert(1)>' is not a number" in out.stdout
    assert "'&lt;script>alert(1)&lt;/script>' is not a number" in out.stdout
    assert "<img" not in out.stdout and "<script" not in out.stdout and "</script" not in out.stdout
    assert_markdown_runs_nothing(out.stdout)


def test_markup_in_a_statement_is_escaped_by_solve_markdown(tmp_path, cli):
    path = exercise_set(tmp_path, statement=f"Look: {IMG} and {SCRIPT}.", question=f"Is {SCRIPT} precise?")
    out = cli("solve", str(path), "--format", "markdown")
    assert out.returncode == 0, out.stderr
    assert "Look: &lt;img src=x onerror=alert(1)> and &lt;script>alert(1)&lt;/script>." in out.stdout
    assert "#### a) Is &lt;script>alert(1)&lt;/script> precise?" in out.stdout
    assert "<img" not in out.stdout and "<script" not in out.stdout
    assert_markdown_runs_nothing(out.stdout)


def test_markup_in_a_statement_is_text_in_html(tmp_path, cli):
    path = exercise_set(tmp_path, statement=f"Look: {IMG} and {SCRIPT}.")
    out = cli("solve", str(path), "--format", "html")
    assert out.returncode == 0, out.stderr
    assert "Look: &lt;img src=x onerror=alert(1)&gt; and &lt;script&gt;alert(1)&lt;/script&gt;." in out.stdout
    assert "<img" not in out.stdout and "<script" not in out.stdout


def test_markdown_keeps_irlabs_own_relations_and_ampersands():
    """'d < 0', 'recall >= r' and 'Croft, Metzler & Strohman' cannot open markup: irlab's own prose keeps its bytes."""
    text = Document("t", [Paragraph("d < 0, recall >= r, a<=b; Croft, Metzler & Strohman; R&D &#60; <b>")]).render("markdown")
    assert "d < 0, recall >= r, a<=b; Croft, Metzler & Strohman; R&amp;D &amp;#60; &lt;b>" in text


def test_markdown_links_math_and_code_from_a_file_are_text():
    text = Document("t", [Paragraph("[x](javascript:alert(1)) ![i](x) [r]: y $x$ `c` a\\b")]).render("markdown")
    assert r"[x\](javascript:alert(1)) ![i\](x) [r\]: y \$x\$ \`c\` a\\b" in text


def test_html_shows_control_characters_by_code_point_in_text_and_attributes():
    html = Document("id \x1b[31m", [Figure("caption \x07", PNG), Paragraph("a\x00b\x9bc")]).render("html")
    assert "<h2>id &lt;U+001B&gt;[31m</h2>" in html
    assert 'alt="caption &lt;U+0007&gt;"' in html
    assert "<p>a&lt;U+0000&gt;b&lt;U+009B&gt;c</p>" in html
    assert not CONTROL_CHARACTER.search(html)


def test_text_shows_control_characters_so_a_terminal_obeys_none():
    text = Document("id \x1b[2J", [Table(("student",), (("s1\x1b[31m",),))]).render("text")
    assert text.startswith("id <U+001B>[2J\n" + "=" * len("id <U+001B>[2J") + "\n")
    assert "s1<U+001B>[31m" in text and "\x1b" not in text


# --- generated hostile text in every place of a document -----------------------------------------------------------

def _png() -> bytes:
    """A 1x1 white PNG, so that a Figure's caption can be tested and its image compiled."""
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 1, 1, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(b"\x00\xff\xff\xff")) + chunk(b"IEND", b""))


PNG = _png()


def hostile_document(text: str) -> Document:
    """``text`` as everything a file can name: title, heading, paragraph, note, captions, column, cells, labels."""
    step = Step(text or "s", "P", Fraction(1, 3), note=text or None)
    return Document(text, [Section(text, (
        Paragraph(text), Note("warning", text), Formula("P = 1/3", r"P = \frac{1}{3}", caption=text or None),
        Table((text, "n"), ((text, 1), (text, Fraction(1, 2))), caption=text or None), Steps((step,)),
        Answer(text or "a", "P", Fraction(1, 3)), Figure(text, PNG)))])


PAYLOADS = [IMG, SCRIPT, "</p>", "<!--", "<?php", "<!DOCTYPE", "<a@b.c>", "<http://x.y>", "&lt;", "&#60;", "&amp",
            "[x](javascript:alert(1))", "![i](x)", "[r]: javascript:x", "$x$", "$$", "`c`", "```", "|", "*", "_", "\\",
            "\\input{/etc/passwd}", "\\\\[1em]", "{", "}", "#", "%", "&", "^", "~", "[", "]", "--", "``", "''", "'",
            '"', "=SUM(A1)", "+1", "-1", "@x", " ", "\n", "\n\n", "\r", "\r\n", "\t", "a", "<=", " < ", "日", "ά",
            "ο", "½", "⁄", "\u202e", "\u2028", "\ufeff", "é", "ß", "κ", "≥", "−"]
CONTROL = st.characters(min_codepoint=0, max_codepoint=0x9F).filter(lambda c: CONTROL_CHARACTER.match(c))
PIECE = st.one_of(st.sampled_from(PAYLOADS), CONTROL, st.characters(), st.text(max_size=4))
HOSTILE = st.one_of(
    st.lists(PIECE, max_size=12).map("".join),
    st.builds(lambda text, times: text * times, st.lists(PIECE, min_size=1, max_size=4).map("".join),
              st.integers(50, 400)),  # a very long field
)
PROPERTY = settings(max_examples=60, deadline=None, derandomize=True, database=None,
                    suppress_health_check=[HealthCheck.too_slow])


class _Elements(HTMLParser):
    """The elements, attributes and text a browser would build from an HTML page."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.tags, self.attributes, self.texts = [], [], []

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        self.attributes += [(tag, name, value or "") for name, value in attrs]

    def handle_data(self, data):
        self.texts.append(data)


def elements(html: str) -> _Elements:
    parser = _Elements()
    parser.feed(html)
    parser.close()
    return parser


MARKDOWN_ELEMENTS = {"h2", "h3", "h4", "h5", "h6", "p", "em", "strong", "blockquote", "ol", "ul", "li", "img", "hr",
                     "br", "pre", "code"}  # CommonMark formatting; never a link, a script or an attribute of one's own


def assert_markdown_runs_nothing(markdown: str):
    """What a Markdown viewer builds: no raw tag, comment or link, no image but irlab's own PNG, no control byte."""
    assert not CONTROL_CHARACTER.search(markdown)
    assert not re.search(r"<[A-Za-z/!?]", markdown), "a '<' that could open a tag, a comment or an autolink"
    assert not re.search(r"&(?!lt;|amp;)[#A-Za-z0-9]", markdown), "an '&' that could open a character reference"
    markdown_it = pytest.importorskip("markdown_it")
    page = elements(markdown_it.MarkdownIt("commonmark").render(markdown))  # raw HTML on, as viewers have it
    assert set(page.tags) <= MARKDOWN_ELEMENTS, set(page.tags) - MARKDOWN_ELEMENTS
    for tag, name, value in page.attributes:
        assert (tag, name) in {("img", "src"), ("img", "alt"), ("ol", "start")}, (tag, name, value)
        assert name != "src" or value.startswith("data:image/png;base64,"), value


@given(HOSTILE)
@example(IMG + SCRIPT)
@example("id\x1b[31m\b\x03\x7f\x00\x85")
@PROPERTY
def test_markdown_shows_hostile_text_and_runs_nothing(text):
    markdown = hostile_document(text).render("markdown")
    assert_markdown_runs_nothing(markdown)
    rows = [line for line in markdown.split("\n") if line.startswith("| ")]
    assert len(rows) == 3 and all(len(re.findall(r"(?<!\\)\|", row)) == 3 for row in rows)


IRLAB_HTML = {"div", "style", "h2", "h3", "section", "p", "strong", "sub", "sup", "table", "tr", "th", "td", "ol", "li",
              "span", "figure", "img", "figcaption", "math", "mi", "mn", "mo", "mrow", "mfrac", "mtext", "mspace",
              "msub", "msup", "msubsup"}


@given(HOSTILE)
@example(IMG + SCRIPT + '" onmouseover="alert(1)')
@example("id\x1b[31m\b\x03\x7f\x00\x85\r\n")
@PROPERTY
def test_html_shows_hostile_text_as_text(text):
    html = hostile_document(text).render("html", standalone=True)
    assert not CONTROL_CHARACTER.search(html)
    page = elements(html)
    assert set(page.tags) <= IRLAB_HTML | {"html", "head", "meta", "title", "body"}, set(page.tags) - IRLAB_HTML
    for tag, name, value in page.attributes:
        assert not name.startswith("on"), (tag, name, value)
        assert name != "src" or value.startswith("data:image/png;base64,"), value
    paragraph = html[html.index("<p>") + 3:html.index("</p>")]
    shown = "".join(elements(paragraph).texts)
    expected = "".join(piece for _, piece in prose_parts(text.replace("\r\n", "\n")))
    assert shown == visible(expected)
    assert [value for _, name, value in page.attributes if name == "alt"] == [visible(text.replace("\r\n", "\n"))]


def visible(text: str) -> str:
    """Control characters as every renderer shows them, by code point."""
    return CONTROL_CHARACTER.sub(lambda m: f"<U+{ord(m.group()):04X}>", text)


def _outside_math(latex: str) -> str:
    return re.sub(r"(?<!\\)\$[^$]*(?<!\\)\$", "", latex)


def assert_safe_latex_text(escaped: str):
    """Escaped prose: printable ASCII or a printable character beyond it (for LuaLaTeX: irlab/tex_engine.py), no
    control character, braces balanced, no blank line (so it may be any command's argument), and every character TeX
    would act on escaped: nothing of the file becomes a command, a comment or an alignment."""
    assert all(" " <= c <= "~" or c in "\n\t" or (c > "~" and not CONTROL_CHARACTER.match(c)) for c in escaped), [
        c for c in escaped if CONTROL_CHARACTER.match(c)]
    assert not re.search(r"\n[ \t]*\n", escaped)
    unescaped_braces = re.sub(r"\\[{}]", "", escaped)
    depth = 0
    for char in unescaped_braces:
        depth += {"{": 1, "}": -1}.get(char, 0)
        assert depth >= 0
    assert depth == 0
    assert len(re.findall(r"(?<!\\)\$", escaped)) % 2 == 0
    assert not re.search(r"(?<!\\)[%#&_~^]", _outside_math(escaped))
    commands = set(re.findall(r"\\([A-Za-z]+)", escaped))
    assert commands <= {"textbackslash", "texttt", "textsubscript", "textsuperscript", "allowbreak", "frac", "c", "v",
                        "u", "r", "dots", "geq", "leq", "neq", "cdot", "times", "approx", "cap", "cup", "in",
                        "rightarrow", "lceil", "rceil", "surd", "infty", "pm", "Sigma", "Pi", "Delta", "Gamma",
                        "Theta", "Lambda", "Xi", "Upsilon", "Phi", "Psi", "Omega", "alpha", "beta", "gamma", "delta",
                        "epsilon", "zeta", "eta", "theta", "iota", "kappa", "lambda", "mu", "nu", "xi", "pi", "rho",
                        "sigma", "tau", "upsilon", "phi", "chi", "psi", "omega", "ss", "O", "o", "AE", "ae", "OE",
                        "oe", "S", "div", "H", "mbox"}, commands


@given(HOSTILE)
@example("\\input{/etc/passwd}%\n\n}{\\\\[1em]")
@example("[x] \b\x03\x7f\x1b")
@PROPERTY
def test_latex_escapes_hostile_text_to_printable_ascii(text):
    """Printable ASCII where the text is ASCII (pdflatex compiles it); beyond ASCII, printable characters only."""
    assert_safe_latex_text(latex_text(text))
    latex = hostile_document(text).render("latex", standalone=True)
    assert not CONTROL_CHARACTER.search(latex.replace("\n", " ").replace("\t", " "))
    if all(" " <= c <= "~" or c in "\n\t" for c in text):
        assert latex.isascii()


HOSTILE_EXAMPLES = [IMG + SCRIPT, "id\x1b[31m \b\x03\x7f\x00\x85 end", "\\input{/etc/passwd}%\n\n}{#&_^~$ [x] \\\\[1em]",
                    "[first] " + "x" * 3000, "日本 ά ο ⁄ ⅟ \u202e ß é½ κ≥−"]


@needs_latex
@pytest.mark.parametrize("text", HOSTILE_EXAMPLES, ids=["markup", "controls", "latex", "long", "unicode"])
def test_hostile_documents_compile(tmp_path, text):
    from irlab.printable import write_pdf

    pdf = write_pdf(hostile_document(text), tmp_path / "hostile.pdf")
    shown = pdf_text(pdf)
    if "\x1b" in text:
        assert "<U+001B>" in shown and "<U+0008>" in shown and "<U+007F>" in shown


@needs_latex
def test_every_character_of_the_basic_plane_compiles(tmp_path):
    """LuaLaTeX takes whatever text a file holds: each of the 63,488 characters of the BMP (surrogates aside)."""
    from irlab.render.latex import PREAMBLE
    from irlab.tex_engine import with_unicode_fonts

    if shutil.which("lualatex") is None:
        pytest.skip("lualatex is not installed (.ci/run installs texlive-luatex)")
    characters = "".join(chr(c) for c in range(0x10000) if not 0xD800 <= c < 0xE000)
    body = "\n\n".join(latex_text(characters[i:i + 64]) for i in range(0, len(characters), 64))
    source = with_unicode_fonts(PREAMBLE + body + "\n\\end{document}\n")
    (tmp_path / "all.tex").write_text(source, encoding="utf-8")
    run = subprocess.run(["lualatex", "-interaction=nonstopmode", "-halt-on-error", "all.tex"], cwd=tmp_path,
                         capture_output=True, text=True, errors="replace")
    assert run.returncode == 0, run.stdout[-2000:]
    assert "<U+001B>" in pdf_text(tmp_path / "all.pdf")
