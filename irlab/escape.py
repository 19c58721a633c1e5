r"""Escaping text that comes from files (a system's name, a student id, a title) for every output.

Two rules live here, below both the trace (which sets names in formulas) and the renderers, and import neither:
the control characters that no output may carry (``visible_controls`` shows them as '<U+001B>'), and the LaTeX
text escaper (``latex_escape``, ``latex_name``) whose tables ``render/mathml.py`` reads backwards.

>>> visible_controls("a\x1bb")
'a<U+001B>b'
>>> latex_name("run_1 {κ}")
'run\\_1 \\textbraceleft{}\\ensuremath{\\kappa}\\textbraceright{}'
"""

from __future__ import annotations

import re
import unicodedata

# C0 controls but tab and newline, DEL, C1 controls and lone surrogates: pdflatex stops at them, HTML forbids them
# and a terminal obeys them, so one stray byte in a student id or a title would cost the whole class's output
CONTROL_CHARACTER = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff]")


def control_name(char: str) -> str:
    """How every renderer shows a control character: its code point, 'U+001B'."""
    return f"U+{ord(char):04X}"


def visible_controls(text: str) -> str:
    """``text`` with each control character written as '<U+001B>', so a reader sees it and can fix the file;
    a Windows line end (CR LF) is a line end."""
    return CONTROL_CHARACTER.sub(lambda m: f"<{control_name(m.group())}>", text.replace("\r\n", "\n"))


# beyond the control characters, the two noncharacters that XML 1.0 forbids as well
XML_NONCHARACTER = re.compile("[\ufffe\uffff]")


def visible_in_xml(text: str) -> str:
    """``text`` as an XML file can carry it (the LMS question banks): control characters and U+FFFE, U+FFFF
    written as '<U+001B>'."""
    return XML_NONCHARACTER.sub(lambda m: f"<{control_name(m.group())}>", visible_controls(str(text)))


# the LaTeX text escaper ------------------------------------------------------------------------------

LATEX_SPECIAL = {
    "\\": r"\textbackslash{}", "{": r"\{", "}": r"\}", "#": r"\#", "$": r"\$", "%": r"\%", "&": r"\&",
    "_": r"\_", "^": r"\^{}", "~": r"\~{}", "<": r"$<$", ">": r"$>$", "|": r"$|$",
}
# characters irlab's prose uses outside ASCII, and the letters of names that plain pdflatex's fonts have as glyphs
# (its Ł is an L struck through, which pdftotext reads as L), written so that it needs no extra package (a source of
# ASCII is compiled by pdflatex, irlab/tex_engine.py)
LATEX_UNICODE = {
    "≥": r"$\geq$", "≤": r"$\leq$", "≠": r"$\neq$", "·": r"$\cdot$", "×": r"$\times$", "≈": r"$\approx$",
    "Σ": r"$\Sigma$", "Π": r"$\Pi$", "κ": r"$\kappa$", "ρ": r"$\rho$", "τ": r"$\tau$", "β": r"$\beta$", "Δ": r"$\Delta$",
    "∩": r"$\cap$", "∪": r"$\cup$", "∈": r"$\in$", "→": r"$\rightarrow$", "⌈": r"$\lceil$", "⌉": r"$\rceil$",
    "…": r"\dots{}", "−": "-", "–": "--", "—": "---", "‘": "`", "’": "'", "“": "``", "”": "''", "é": r"\'e",
    "ä": r"\"a", "ö": r"\"o", "ü": r"\"u", "²": r"$^2$", "√": r"$\surd$", "∞": r"$\infty$", "±": r"$\pm$",
    "ß": r"\ss{}", "Ø": r"\O{}", "ø": r"\o{}", "Æ": r"\AE{}", "æ": r"\ae{}",
    "Œ": r"\OE{}", "œ": r"\oe{}", "§": r"\S{}", "÷": r"$\div$",
    "³": r"$^3$", "Φ": r"$\Phi$",  # Wilcoxon's normal approximation: Σ (t³ - t) of the ties, Φ the normal distribution
}


def latex_name(name: str) -> str:
    """A name from a file (a system, a run, a query) for ``\\text{…}`` inside a formula, every character as written:
    ``latex_escape`` (the escaping of ``render.latex.latex_text`` without its sub- and superscripts). Inside a formula a '$' would end a Markdown
    viewer's math, so the escaper's ``$\\kappa$`` is ``\\ensuremath{\\kappa}``; a brace is ``\\textbraceleft{}``, so that
    a lone brace never unbalances a formula broken into lines where its braces balance; a line break is a space."""
    escaped = latex_escape(name.replace("\n", " "))
    escaped = escaped.replace(r"\{", r"\textbraceleft{}").replace(r"\}", r"\textbraceright{}")
    return _MATH_SHIFT.sub(r"\\ensuremath{\1}", escaped)


_MATH_SHIFT = re.compile(r"(?<!\\)\$(.*?)(?<!\\)\$")  # $…$ of the escaper; \$ is a dollar sign


def latex_escape(text: str) -> str:
    """Every character of ``text`` for LaTeX text mode: specials escaped; irlab's Unicode and the letters pdflatex's
    fonts have (é, ß, Ø) by LaTeX commands, so that ASCII text stays ASCII; a control character by its code point
    ('<U+001B>', visibly); a Greek letter standing alone (α = 0.05) as a math symbol; every other character as it is
    (Ł, Đ, ț, ễ, a Greek or Cyrillic word, 日), for LuaLaTeX (irlab/tex_engine.py). A long path or list may break after
    '/' or ','. No sub- or superscripts: ``render.latex.latex_text`` adds those."""
    out = []
    escaped = [_escape_char(char) if not _in_word(text, i) else char for i, char in enumerate(text)]
    for i, char in enumerate(text):
        following = text[i + 1:i + 2]
        if char == '"':  # a straight quote would print as a closing one: opening or closing by its place
            escaped[i] = "``" if i == 0 or text[i - 1].isspace() or text[i - 1] in "([{" else "''"
        elif char == "-" and following == "-":  # '--max_depth' as typed, not an en dash
            escaped[i] = "-{}"
        out.append(escaped[i])
        # a long path or grade list may break after '/' or ',', a run of code points (<U+65E5><U+672C>) between them
        if (char in "/," and following and not following.isspace()) or (
                following and escaped[i].startswith(r"\texttt") and escaped[i + 1].startswith(r"\texttt")):
            out.append(r"\allowbreak{}")
    return "".join(out)


def _in_word(text: str, i: int) -> bool:
    """A Greek letter beside another Greek letter is part of a word (a Greek name), set as text, not as a math
    symbol (Σi, κ=0.4 keep theirs)."""
    def greek(char):
        return char.isalpha() and unicodedata.name(char, "").startswith("GREEK")

    return greek(text[i]) and (greek(text[i - 1:i] or " ") or greek(text[i + 1:i + 2] or " "))


def _escape_char(char: str) -> str:
    if char in LATEX_SPECIAL:
        return LATEX_SPECIAL[char]
    if char in LATEX_UNICODE:
        return LATEX_UNICODE[char]
    if CONTROL_CHARACTER.match(char) or char == "\ufffd":  # LuaTeX stops at U+FFFD, its mark of invalid UTF-8
        return rf"\texttt{{<{control_name(char)}>}}"
    if ord(char) < 128:
        return char
    return _other_unicode(char)


LATEX_ACCENTS = {"\u0301": "'", "\u0300": "`", "\u0308": '"', "\u0302": "^", "\u0303": "~", "\u0304": "=",
                 "\u0327": "c", "\u030c": "v", "\u0306": "u", "\u030a": "r", "\u0307": ".", "\u030b": "H"}
_GREEK_SMALL = {"ALPHA", "BETA", "GAMMA", "DELTA", "EPSILON", "ZETA", "ETA", "THETA", "IOTA", "KAPPA", "LAMDA", "MU",
                "NU", "XI", "PI", "RHO", "SIGMA", "TAU", "UPSILON", "PHI", "CHI", "PSI", "OMEGA"}  # LaTeX has these
_GREEK_CAPITALS = {"GAMMA", "DELTA", "THETA", "LAMDA", "XI", "PI", "SIGMA", "UPSILON", "PHI", "PSI", "OMEGA"}


def _other_unicode(char):
    """Greek letters as math symbols, accented Latin letters with LaTeX accents, vulgar fractions as
    fractions; anything else as it is, for LuaLaTeX (never a silent '?')."""
    name = unicodedata.name(char, "")
    for kind, letters in (("SMALL", _GREEK_SMALL), ("CAPITAL", _GREEK_CAPITALS)):
        letter = name[len(f"GREEK {kind} LETTER "):].removeprefix("FINAL ")  # final sigma is a sigma
        if name.startswith(f"GREEK {kind} LETTER ") and letter in letters:
            command = "lambda" if letter == "LAMDA" else letter.lower()
            return rf"$\{command if kind == 'SMALL' else command.capitalize()}$"
    decomposed = unicodedata.normalize("NFD", char)
    if len(decomposed) == 2 and decomposed[0].isascii() and decomposed[0].isalpha() and decomposed[1] in LATEX_ACCENTS:
        return rf"\{LATEX_ACCENTS[decomposed[1]]}{{{decomposed[0]}}}"
    top, slash, bottom = unicodedata.normalize("NFKD", char).partition("\u2044")
    if slash and top.isascii() and top.isdigit() and bottom.isascii() and bottom.isdigit():
        return rf"$\frac{{{top}}}{{{bottom}}}$"
    return char
