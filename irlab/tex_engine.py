"""Which TeX engine compiles a PDF, and the fonts that print every name as written.

A source of printable ASCII (irlab's prose and most English or accented-Latin names: the escaper writes é, ü, ç
as accent commands) is compiled by pdflatex as it always was: about 0.5 s a document. A source holding any other
character (Ł, ß, Ø, Đ, ő, ț, Vietnamese, Greek or Cyrillic names, CJK ...) gets a few preamble lines and is
compiled by LuaLaTeX with fontspec: Latin Modern, the same Computer Modern look, and for the characters it lacks
luaotfload's per-glyph fallback to the installed fonts that have them, chosen per document from
``FALLBACK_FONTS`` (CMU Serif first, Greek and Cyrillic in the same style). About 3 to 6 s a document on a
loaded two-core machine, so a class is compiled twice (its sheets and its keys), and each student's PDFs are cut
from those (``irlab.homework.sheets``).

Why not pdflatex with T1/T2A/LGR encodings: Vietnamese needs a fourth encoding (T5, vntex), the escaper would switch
encodings inside a name, ț and Đ need more packages, and CJK, Arabic, Hebrew or Devanagari could never print.
Why not XeLaTeX: it has no per-glyph font fallback (each script's ranges switched by hand); about 2 s a document.

A character that no installed font has is an empty glyph to LuaTeX, which logs 'Missing character: There is no 日
(U+65E5)'; ``missing_characters`` reads that log so that the caller warns naming whose text held it.
"""

from __future__ import annotations

import functools
import re
import shutil
import subprocess

# the preamble lines start with this comment, so that adding them twice is a no-op
MARKER = "% irlab: Unicode text, compile with lualatex"

MAIN_FONT = "Latin Modern Roman"  # LuaLaTeX's default text font: ASCII looks as pdflatex sets it
MONO_FONT = "Latin Modern Mono"

# fonts tried in this order for the characters Latin Modern lacks: (fontconfig family, Debian package)
FALLBACK_FONTS = (
    ("CMU Serif", "fonts-cmu"),                      # Greek, Cyrillic, more Latin, in the Computer Modern style
    ("DejaVu Serif", "fonts-dejavu-core"),
    ("Noto Serif", "fonts-noto-core"),
    ("Noto Serif CJK SC", "fonts-noto-cjk"),         # Chinese, Japanese, Korean
    ("Noto Sans CJK SC", "fonts-noto-cjk"),
    ("WenQuanYi Zen Hei", "fonts-wqy-zenhei"),
    ("Noto Serif Devanagari", "fonts-noto-core"),
    ("Lohit Devanagari", "fonts-lohit-deva"),
    ("Noto Naskh Arabic", "fonts-noto-core"),
    ("Noto Serif Hebrew", "fonts-noto-core"),
    ("FreeSerif", "fonts-freefont-otf"),
    ("DejaVu Sans", "fonts-dejavu-core"),            # Arabic and Hebrew letters, symbols
)
FONT_PACKAGES = sorted({package for _, package in FALLBACK_FONTS})

LUALATEX_HINT = ("install LuaLaTeX and fonts for names beyond ASCII (Debian/Ubuntu: apt-get install texlive-luatex "
                 "fonts-cmu fonts-dejavu-core; fonts-noto-cjk, fonts-noto-core for CJK, Arabic, Hebrew, Devanagari)")


def needs_unicode(source: str) -> bool:
    """Whether ``source`` holds a character beyond ASCII, which pdflatex's default fonts cannot print."""
    return not source.isascii()


def engine(source: str) -> str:
    """'pdflatex' for a source of ASCII, else 'lualatex'."""
    return "lualatex" if needs_unicode(source) else "pdflatex"


def with_unicode_fonts(source: str) -> str:
    """``source`` with the preamble lines that print its characters beyond ASCII (fontspec, Latin Modern and the
    installed fallback fonts that have them) before ``\\begin{document}``; an ASCII source is returned unchanged."""
    if not needs_unicode(source) or MARKER in source or "\\begin{document}" not in source:
        return source
    head, begin, body = source.partition("\\begin{document}")
    return head + unicode_preamble(set(source) - set(map(chr, range(128)))) + begin + body


def unicode_preamble(characters) -> str:
    """The fontspec lines for a document holding ``characters``: every face of Latin Modern falls back, glyph by
    glyph, to the installed fonts of ``FALLBACK_FONTS`` that have one of the characters it lacks."""
    fonts = fallback_fonts(characters)
    lines = [MARKER + " (fallback fonts: " + (", ".join(fonts) or "none needed") + ")",
             r"\usepackage{fontspec}", r"\tracinglostchars=1"]
    faces = {"regular": "", "bold": "/B", "italic": "/I", "bolditalic": "/BI"}
    lua = [f'luaotfload.add_fallback("irlab{face}", {{{", ".join(_font_spec(f, style) for f in fonts)}}})'
           for face, style in faces.items()]
    lines.append(r"\directlua{" + " ".join(lua) + "}")
    features = ("RawFeature={fallback=irlabregular}, BoldFeatures={RawFeature={fallback=irlabbold}}, "
                "ItalicFeatures={RawFeature={fallback=irlabitalic}}, "
                "BoldItalicFeatures={RawFeature={fallback=irlabbolditalic}}")
    lines += [rf"\setmainfont{{{MAIN_FONT}}}[{features}]", rf"\setmonofont{{{MONO_FONT}}}[{features}]"]
    return "\n".join(lines) + "\n"


def _font_spec(family: str, style: str) -> str:
    # HarfBuzz shapes the fallback glyphs (marks, conjuncts); a family without the style gets its nearest face
    return f'"{family}{style if family in _styled_families() else ""}:mode=harf;"'


def fallback_fonts(characters) -> list[str]:
    """The families of ``FALLBACK_FONTS`` that the document needs, in order: each has a character of
    ``characters`` that Latin Modern and the fonts before it lack."""
    coverage = font_coverage()
    left = {c for c in characters if not _covers(coverage.get(MAIN_FONT, _LATIN_MODERN), c)}
    chosen = []
    for family, _ in FALLBACK_FONTS:
        if family in coverage and any(_covers(coverage[family], c) for c in left):
            chosen.append(family)
            left = {c for c in left if not _covers(coverage[family], c)}
    return chosen


# Latin Modern's coverage when fontconfig does not list it: Latin-1, Latin Extended-A, Vietnamese
_LATIN_MODERN = ((0x20, 0x17F), (0x1EA0, 0x1EF9))


def _covers(ranges, char: str) -> bool:
    code = ord(char)
    return any(low <= code <= high for low, high in ranges)


@functools.cache
def font_coverage() -> dict[str, tuple]:
    """{family: ((first, last) code point ranges)} of every installed font, from one ``fc-list`` call; empty when
    fontconfig is missing."""
    fc_list = shutil.which("fc-list")
    if fc_list is None:
        return {}
    listed = subprocess.run([fc_list, "--format", "%{family[0]}\t%{charset}\n"], capture_output=True, text=True,
                            errors="replace", timeout=60).stdout
    ranges: dict[str, set] = {}
    for line in listed.splitlines():
        family, _, charset = line.partition("\t")
        for piece in charset.split():
            low, _, high = piece.partition("-")
            try:
                ranges.setdefault(family, set()).add((int(low, 16), int(high or low, 16)))
            except ValueError:
                continue
    return {family: tuple(sorted(spans)) for family, spans in ranges.items()}


@functools.cache
def _styled_families() -> frozenset:
    """The families that have a bold and an italic face (the others fall back in their regular face)."""
    fc_list = shutil.which("fc-list")
    if fc_list is None:
        return frozenset()
    listed = subprocess.run([fc_list, "--format", "%{family[0]}\t%{style[0]}\n"], capture_output=True, text=True,
                            errors="replace", timeout=60).stdout
    styles: dict[str, set] = {}
    for line in listed.splitlines():
        family, _, style = line.partition("\t")
        styles.setdefault(family, set()).add(style.lower())
    return frozenset(f for f, s in styles.items() if any("bold" in x for x in s) and any("italic" in x or "oblique"
                                                                                       in x for x in s))


_MISSING = re.compile(r"^Missing character: There is no (.+?) \(U\+([0-9A-F]{4,6})\)", re.M)


def missing_characters(log: str) -> list[str]:
    """The characters LuaTeX's log says no font printed, each once, in order."""
    seen = {}
    for match in _MISSING.finditer(log):
        seen.setdefault(chr(int(match.group(2), 16)), None)
    return list(seen)


def describe(characters) -> str:
    """'日, 本 (U+65E5, U+672C)'."""
    characters = list(characters)
    return f"{', '.join(characters)} ({', '.join(f'U+{ord(c):04X}' for c in characters)})"
