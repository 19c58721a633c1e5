"""MathML (native in Chromium, Firefox and Safari) from the LaTeX that irlab writes: no script, no network.

irlab writes its formulas once, in LaTeX, from the trace; this module translates that small, known subset
(fractions, sub- and superscripts, sums and products with limits, upright names, brackets, Greek letters and a
few relations) into MathML Core. Writing it here rather than depending on a general converter keeps the runtime
dependencies at numpy/sympy/matplotlib and makes the output deterministic; a command outside the subset is an
error that the tests catch, never a silently garbled formula.

>>> to_mathml(r"\\frac{\\mathrm{hits}}{k}")
'<math><mfrac><mi mathvariant="normal">hits</mi><mi>k</mi></mfrac></math>'
"""

from __future__ import annotations

import functools
import re
import unicodedata
from html import escape

from ..escape import CONTROL_CHARACTER, LATEX_ACCENTS, LATEX_SPECIAL, LATEX_UNICODE

_TOKEN = re.compile(r"\\[A-Za-z]+|\\.|[0-9]+(?:\.[0-9]+)?|[A-Za-z]|\s+|.", re.S)

_IDENTIFIERS = {
    "alpha": "α", "beta": "β", "gamma": "γ", "delta": "δ", "kappa": "κ", "rho": "ρ", "tau": "τ", "pi": "π",
    "sigma": "σ", "mu": "μ", "Sigma": "Σ", "Delta": "Δ", "Pi": "Π", "Phi": "Φ", "infty": "∞",
}
_OPERATORS = {
    "cdot": "·", "times": "×", "approx": "≈", "ge": "≥", "geq": "≥", "le": "≤", "leq": "≤", "neq": "≠", "in": "∈",
    "dots": "…", "ldots": "…", "cdots": "⋯", "lceil": "⌈", "rceil": "⌉", "lfloor": "⌊", "rfloor": "⌋", "mid": "|",
    "to": "→", "rightarrow": "→", "pm": "±", "{": "{", "}": "}", "cap": "∩", "cup": "∪", "Rightarrow": "⇒",
    "iff": "⇔", "Big/": "/", "Leftrightarrow": "⇔", "lt": "<", "gt": ">", "setminus": "∖",
}
_LARGE = {"sum": "∑", "prod": "∏"}
_NAMED = {"log", "max", "min", "Pr", "exp", "ln", "arg", "sup", "inf", "lim"}  # upright function names
_SPACES = {",": "0.17em", ";": "0.28em", " ": "0.25em", "quad": "1em", "qquad": "2em", ":": "0.22em", "!": "0"}
_ESCAPED = {"#", "%", "&", "_", "$"}


class MathMLError(ValueError):
    """The LaTeX uses a command outside the subset irlab writes."""


def to_mathml(latex: str, display: bool = False, alttext: str | None = None) -> str:
    """``latex`` as one ``<math>`` element (``display=True``: a displayed block; ``alttext``: its plain-text reading)."""
    parser = _Parser(latex)
    body = parser.sequence()
    if parser.peek() is not None:
        raise MathMLError(f"unbalanced braces in {latex!r}")
    attributes = (' display="block"' if display else "") + (f' alttext="{escape(alttext)}"' if alttext else "")
    return f"<math{attributes}>{_row(body)}</math>"


def _row(items) -> str:
    return items[0] if len(items) == 1 else f"<mrow>{''.join(items)}</mrow>"


class _Parser:
    def __init__(self, latex: str):
        self.latex = latex
        self.tokens = [t for t in _TOKEN.findall(latex)]
        self.position = 0

    def peek(self, skip_space=True):
        while skip_space and self.position < len(self.tokens) and self.tokens[self.position].isspace():
            self.position += 1
        return self.tokens[self.position] if self.position < len(self.tokens) else None

    def take(self, skip_space=True):
        token = self.peek(skip_space)
        self.position += 1
        return token

    def sequence(self, upright=False) -> list[str]:
        items = []
        while True:
            token = self.peek(skip_space=not upright)
            if token is None or token == "}":
                return items
            if upright and token.isspace():
                self.take(False)
                items.append('<mspace width="0.25em"/>')
                continue
            atom = self.atom(upright)
            if atom is None:
                continue
            items.append(self.scripts(atom))
            if upright:  # merge letters into one upright word: 'hits', not h i t s
                items = _merge_words(items)

    def group(self, upright=False) -> str:
        token = self.take()
        if token != "{":
            return self.scripts_free_atom(token, upright)
        items = self.sequence(upright)
        if self.take() != "}":
            raise MathMLError(f"missing '}}' in {self.latex!r}")
        return _row(items) if items else "<mrow></mrow>"

    def _delimiter(self):
        """The delimiter after \\left, \\right or \\bigl …: a stretching operator, or nothing for '.'."""
        delimiter = self.take()
        if delimiter == ".":
            return None
        symbol = _OPERATORS.get(delimiter[1:], delimiter[1:]) if delimiter.startswith("\\") else delimiter
        return f"<mo>{escape(symbol)}</mo>"

    def scripts_free_atom(self, token, upright):
        self.position -= 1
        return self.atom(upright)

    def scripts(self, base: str) -> str:
        sub = sup = None
        while self.peek() in ("_", "^"):
            mark = self.take()
            if mark == "_":
                sub = self.group()
            else:
                sup = self.group()
        large = base.startswith('<mo largeop') or base.startswith('<mi mathvariant="normal">max') or \
            base.startswith('<mi mathvariant="normal">min')
        if sub is not None and sup is not None:
            return f"<{'munderover' if large else 'msubsup'}>{base}{sub}{sup}</{'munderover' if large else 'msubsup'}>"
        if sub is not None:
            return f"<{'munder' if large else 'msub'}>{base}{sub}</{'munder' if large else 'msub'}>"
        if sup is not None:
            return f"<msup>{base}{sup}</msup>"
        return base

    def atom(self, upright=False):
        token = self.take(skip_space=not upright)
        if token is None:
            raise MathMLError(f"unexpected end of {self.latex!r}")
        if token == "{":
            self.position -= 1
            return self.group(upright)
        if token[0].isdigit():
            return f"<mn>{token}</mn>"
        if token.isalpha() and len(token) == 1:
            return f'<mi mathvariant="normal">{token}</mi>' if upright else f"<mi>{token}</mi>"
        if token == "'":
            return "<mo>′</mo>"
        if not token.startswith("\\"):
            if token in "()[]|":
                return f'<mo stretchy="false">{escape(token)}</mo>'
            if token == "@":  # P@k reads as one name, not as an operator with space around it
                return '<mo lspace="0" rspace="0">@</mo>'
            if token == "-" and not upright:  # the minus sign, as LaTeX sets it (a hyphen in an upright name stays)
                return "<mo>−</mo>"
            return f"<mo>{escape(token)}</mo>"
        name = token[1:]
        if name in ("frac", "dfrac", "tfrac"):
            return f"<mfrac>{self.group()}{self.group()}</mfrac>"
        if name == "binom":
            top, bottom = self.group(), self.group()
            return f'<mrow><mo>(</mo><mfrac linethickness="0">{top}{bottom}</mfrac><mo>)</mo></mrow>'
        if name == "sqrt":
            return f"<msqrt>{self.group()}</msqrt>"
        if name == "bar":
            return f"<mover>{self.group()}<mo>‾</mo></mover>"
        if name in ("mathrm", "operatorname", "mathit"):
            return self.group(upright=name != "mathit")
        if name == "text":
            return f"<mtext>{escape(text_of_latex(self._raw_group()))}</mtext>"
        if name == "left":  # \left( … \right): one group, so a script after \right belongs to all of it
            opening = self._delimiter()
            items = []
            while self.peek() not in (None, "}", "\\right"):
                atom = self.atom(upright)
                if atom is not None:
                    items.append(self.scripts(atom))
            if self.take() != "\\right":
                raise MathMLError(f"\\left without \\right in {self.latex!r}")
            closing = self._delimiter()
            return _row([part for part in (opening, *items, closing) if part])
        if name in ("right", "bigl", "bigr", "Bigl", "Bigr"):
            return self._delimiter()
        if name in _LARGE:
            return f'<mo largeop="true" movablelimits="true">{_LARGE[name]}</mo>'
        if name in _NAMED:
            return f'<mi mathvariant="normal">{name}</mi>'
        if name in _IDENTIFIERS:
            symbol = _IDENTIFIERS[name]
            return f'<mi mathvariant="normal">{symbol}</mi>' if symbol.isupper() else f"<mi>{symbol}</mi>"
        if name in _OPERATORS:
            return f"<mo>{escape(_OPERATORS[name])}</mo>"
        if name in _SPACES:
            return f'<mspace width="{_SPACES[name]}"/>'
        if name in _ESCAPED:
            return f"<mo>{escape(name)}</mo>" if name in "%&" else f"<mi>{escape(name)}</mi>"
        if name in ("hline", "displaystyle", "textstyle", "limits", "nolimits", "big", "Big"):
            return None
        raise MathMLError(f"LaTeX command {token} is outside the subset irlab writes (in {self.latex!r})")

    def _raw_group(self) -> str:
        if self.take() != "{":
            raise MathMLError(f"\\text needs braces in {self.latex!r}")
        depth, out = 1, []
        while True:
            token = self.take(skip_space=False)
            if token is None:
                raise MathMLError(f"missing '}}' in {self.latex!r}")
            if token == "{":
                depth += 1
            elif token == "}":
                depth -= 1
                if depth == 0:
                    return "".join(out)
            out.append(token)


def text_of_latex(latex: str) -> str:
    r"""The characters that LaTeX text of irlab's escaper (irlab/escape.py) prints: ``\textbackslash{}`` is '\',
    ``\'e`` is 'é', ``\ensuremath{\kappa}`` is 'κ', ``\texttt{<U+00DF>}`` is 'ß' (a control character stays
    '<U+001B>'), any other ``\x`` is 'x'. A name from a file, escaped for pdflatex, reads in HTML as it was written.

    >>> text_of_latex(r"B\textbackslash{}in\textbraceleft{}x\textbraceright{} caf\'e \ensuremath{\kappa} 10\%")
    'B\\in{x} café κ 10%'
    """
    return _text_tables()[0].sub(_unescaped, latex)


def _unescaped(match) -> str:
    literal, code, accent, letter = match.group("literal", "code", "accent", "letter")
    if literal is not None:
        return _text_tables()[1][literal]
    if code is not None:
        char = chr(int(code, 16)) if int(code, 16) <= 0x10FFFF else "\0"
        return f"<U+{code}>" if CONTROL_CHARACTER.match(char) else char
    if accent is not None:
        return unicodedata.normalize("NFC", letter + _text_tables()[2][accent])
    if match.group("char") is not None:
        return match.group("char")
    return _math_character(match.group("math") or match.group("shifted") or "") or match.group(0)


def _math_character(latex: str) -> str | None:
    """A character the escaper writes in math: '<', '\\kappa', '\\geq', '\\frac{1}{2}' (as 1⁄2), '^2'; else None."""
    fraction = re.fullmatch(r"\\frac\{(\d+)\}\{(\d+)\}", latex)
    if fraction:
        return f"{fraction.group(1)}\u2044{fraction.group(2)}"
    literals = _text_tables()[1]
    if f"${latex}$" in literals:
        return literals[f"${latex}$"]
    name = latex[1:]
    if latex.startswith("\\") and name.isascii() and name.isalpha():  # a Greek letter outside the escaper's table
        kind = "CAPITAL" if name[0].isupper() else "SMALL"
        try:
            return unicodedata.lookup(f"GREEK {kind} LETTER {'LAMDA' if name.lower() == 'lambda' else name.upper()}")
        except KeyError:
            return None
    return None


@functools.cache
def _text_tables():
    """The escaper's own tables read backwards: (pattern, literal -> character, accent command -> combining mark).
    Plain ASCII that it writes for a character ('--' for an en dash, "''" for a closing quote) stays as written, since
    a name may hold it as it is."""
    literals = {latex: char for char, latex in {**LATEX_SPECIAL, **LATEX_UNICODE}.items() if latex.startswith(("\\", "$"))}
    literals.update({r"\textbraceleft{}": "{", r"\textbraceright{}": "}", r"\allowbreak{}": ""})
    combining = {command: mark for mark, command in LATEX_ACCENTS.items()}
    alternatives = "|".join(re.escape(k) for k in sorted(literals, key=len, reverse=True))
    pattern = re.compile(
        rf"(?P<literal>{alternatives})|\\texttt\{{<U\+(?P<code>[0-9A-F]{{4,6}})>\}}"
        rf"|\\(?P<accent>[{''.join(re.escape(c) for c in combining)}])\{{(?P<letter>[A-Za-z])\}}"
        rf"|\$(?P<math>[^$]+)\$|\\ensuremath\{{(?P<shifted>[^{{}}]*(?:\{{[^{{}}]*\}}[^{{}}]*)*)\}}"
        rf"|\\(?P<char>[^A-Za-z])", re.S)
    return pattern, literals, combining


def _merge_words(items):
    """Join adjacent upright single letters/digits into one identifier."""
    pattern = re.compile(r'^<mi mathvariant="normal">([^<]+)</mi>$')
    if len(items) >= 2:
        a, b = pattern.match(items[-2]), pattern.match(items[-1]) or re.match(r"^<mn>([^<]+)</mn>$", items[-1])
        if a and b:
            return items[:-2] + [f'<mi mathvariant="normal">{a.group(1)}{b.group(1)}</mi>']
    return items
