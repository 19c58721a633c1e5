"""Traced values: numbers that remember how they were made.

In the spirit of micrograd, every arithmetic operation on a :class:`Traced` builds a node that keeps its
operands. Naming a node (``.named("AP", "Average precision")``) turns it into a step of the explanation:
its formula is the expression written with the operands' symbols, its substitution the same expression
with their values. The explanation is therefore a by-product of computing, never a second implementation.

>>> hits, k = Traced(2, "hits"), Traced(4, "k")
>>> p = (hits / k).named("P@4", "Precision at 4")
>>> formula(p, "text"), substitution(p, "text"), p.value
('hits / k', '2 / 4', Fraction(1, 2))
"""

from __future__ import annotations

import re
from fractions import Fraction

from . import exact
from .escape import latex_name

# precedence of each operation, to decide where parentheses are needed when writing an expression
_PRECEDENCE = {"add": 1, "sub": 1, "neg": 2, "mul": 2, "div": 2, "pow": 3, "call": 4, "leaf": 4}


class Traced:
    """An exact value with the operation and operands that produced it."""

    __slots__ = ("value", "op", "operands", "symbol", "label", "note", "function", "origin")

    def __init__(self, value, symbol=None, label=None, *, op="leaf", operands=(), note=None, function=None, origin=None):
        kind = type(value)
        if kind is int:  # most leaves (ranks, counts, gains): nothing to normalise
            self.value = value
        elif kind is Fraction:
            self.value = value.numerator if value.denominator == 1 else value
        elif isinstance(value, Traced):
            raise TypeError("Traced(value) expects a number, not a Traced")
        else:
            self.value = exact.simplify(value) if exact.is_symbolic(value) else exact.rational(value)
        self.op = op
        self.operands = tuple(operands)
        self.symbol = symbol
        self.label = label
        self.note = note
        self.function = function
        # a leaf standing for a value computed elsewhere (AP of one query in MAP) is written as that computation wrote it
        self.origin = origin

    def named(self, symbol, label=None, note=None) -> "Traced":
        """Give this value a symbol (shown in formulas) and, with a label, make it a step of the explanation."""
        self.symbol, self.label, self.note = symbol, label, note
        return self

    # arithmetic builds new nodes ---------------------------------------------------------------
    def __add__(self, other):
        return _node("add", exact.add, self, other)

    def __radd__(self, other):
        return _node("add", exact.add, other, self)

    def __sub__(self, other):
        return _node("sub", exact.sub, self, other)

    def __rsub__(self, other):
        return _node("sub", exact.sub, other, self)

    def __mul__(self, other):
        return _node("mul", exact.mul, self, other)

    def __rmul__(self, other):
        return _node("mul", exact.mul, other, self)

    def __truediv__(self, other):
        return _node("div", exact.div, self, other)

    def __rtruediv__(self, other):
        return _node("div", exact.div, other, self)

    def __pow__(self, other):
        return _node("pow", exact.power, self, other)

    def __rpow__(self, other):
        return _node("pow", exact.power, other, self)

    def __neg__(self):
        return Traced(exact.sub(0, self.value), op="neg", operands=(self,))

    def __float__(self):
        return exact.to_float(self.value)

    def __repr__(self):
        name = f"{self.symbol} = " if self.symbol else ""
        return f"Traced({name}{exact.value_text(self.value)})"

    @property
    def is_leaf(self) -> bool:
        return self.op == "leaf"


def lift(x) -> Traced:
    """Wrap a plain number as an unnamed leaf; Traced values pass through."""
    return x if isinstance(x, Traced) else Traced(x)


def made(value, op, operands, function=None) -> Traced:
    """An unnamed node of a ``value`` that irlab.exact computed (normalised already: an int, a Fraction that is not
    whole, or an irrational sympy expression), without Traced()'s checks; explanations build a hundred thousand."""
    node = _new(Traced)
    node.value, node.op, node.operands, node.function = value, op, operands, function
    node.symbol = node.label = node.note = node.origin = None
    return node


def made_leaf(value, symbol=None) -> Traced:
    """``Traced(value, symbol)`` of a value normalised already (as :func:`made` takes), without Traced()'s checks."""
    node = _new(Traced)
    node.value, node.symbol, node.op, node.operands = value, symbol, "leaf", ()
    node.label = node.note = node.function = node.origin = None
    return node


_new = object.__new__


def _node(op, combine, left, right) -> Traced:
    if type(left) is not Traced:
        left = lift(left)
    if type(right) is not Traced:
        right = lift(right)
    return made(combine(left.value, right.value), op, (left, right))


def total(terms, symbol=None, label=None) -> Traced:
    """The sum of several values as one n-ary node (an empty sum is 0)."""
    terms = [lift(t) for t in terms]
    if not terms:
        return Traced(0, symbol, label)
    node = made(exact.total([term.value for term in terms]), "add", tuple(terms))
    return node.named(symbol, label) if symbol else node


def mean(values, symbol=None, label=None) -> Traced:
    """Arithmetic mean, written (a + b + …) / n."""
    values = [lift(v) for v in values]
    node = total(values) / len(values)
    return node.named(symbol, label) if symbol else node


def call(function: str, operands, value, symbol=None, label=None) -> Traced:
    """A function application written ``function(operands…)``; the caller supplies the exact value."""
    node = Traced(value, op="call", operands=[lift(o) for o in operands], function=function)
    return node.named(symbol, label) if symbol else node


def log2(n) -> Traced:
    n = lift(n)
    return call("log2", [n], exact.log2(n.value))


def log(n, base: int = 2) -> Traced:
    """log_base(n) for an integer base >= 2, exact: log2(n) / log2(base), an int when n is a power of the base."""
    if base == 2:
        return log2(n)
    n = lift(n)
    return call(f"log{base}", [n], exact.log(n.value, base))


def maximum(values, symbol=None, label=None) -> Traced:
    values = [lift(v) for v in values]
    return call("max", values, exact.maximum(v.value for v in values), symbol, label)


def minimum(values, symbol=None, label=None) -> Traced:
    values = [lift(v) for v in values]
    smallest = min(values, key=lambda v: exact.to_float(v.value)).value
    return call("min", values, smallest, symbol, label)


def steps(*results: Traced) -> list[Traced]:
    """The labelled nodes that ``results`` depend on, operands before the values built from them."""
    ordered: list = []
    seen: set = set()
    for result in results:
        _visit(result, seen, ordered)
    return ordered


def _visit(node: Traced, seen: set, ordered: list) -> None:
    """steps' walk (a module function: a nested recursive one is a reference cycle, which holds the whole graph
    until the garbage collector runs, and grading pauses it)."""
    # a leaf stated twice (the same count feeding P and R) is one step
    key = (node.symbol, node.label, str(node.value)) if node.is_leaf and node.label else id(node)
    if key in seen:
        return
    seen.add(key)
    for operand in node.operands:
        _visit(operand, seen, ordered)
    if node.label:
        ordered.append(node)


# writing expressions -------------------------------------------------------------------------------

_GREEK = {"Σ": r"\Sigma", "κ": r"\kappa", "ρ": r"\rho", "τ": r"\tau", "β": r"\beta", "Δ": r"\Delta", "²": "^{2}"}
_LATEX_SPECIAL = {"#": r"\#", "%": r"\%", "&": r"\&", "_": r"\_", "$": r"\$", "{": r"\{", "}": r"\}"}


def symbol_latex(symbol: str) -> str:
    r"""LaTeX for a symbol, as a textbook sets it.

    >>> [symbol_latex(s) for s in ("AP@5", "G*_3", "P_1(R)", "F_0.5", "κ", "R-prec")]
    ['\\mathrm{AP}@5', 'G^{*}_{3}', 'P_{1}(R)', 'F_{0.5}', '\\kappa', '\\mathrm{R\\text{-}prec}']

    A name from a file (a system, a run, a query) is set as written, whatever it holds: one that math mode cannot
    take (a backslash, a lone caret, a brace, a letter outside ASCII, a control character) is text, escaped as
    LaTeX prose is, and pdflatex and the HTML page's MathML show the name, never run it.

    >>> symbol_latex("AP(B\\input)"), symbol_latex("AP(é)")
    ('\\mathrm{AP}(\\text{B\\textbackslash{}input})', "\\mathrm{AP}(\\text{\\'e})")
    """
    return _symbol_latex(symbol, SYMBOL_NESTING)


SYMBOL_NESTING = 6  # parts of a symbol read inside one another; irlab's own nest 4 deep at most (F(P_macro, R_macro)),
#                     deeper is a name from a file ("a_b_c_…"), set flat rather than as hundreds of nested subscripts


def _symbol_latex(symbol: str, depth: int) -> str:
    if symbol in _GREEK:
        return _GREEK[symbol]
    if depth > 0:
        inner = depth - 1
        if symbol.endswith(")") and "(" in symbol and not symbol.startswith("("):
            name, _, argument = symbol[:-1].partition("(")
            return f"{_symbol_latex(name, inner)}({_argument_latex(argument, inner)})"
        name, at, cut = symbol.partition("@")
        if at:
            return f"{_symbol_latex(name, inner)}@{_argument_latex(cut, inner)}"
        base, sep, sub = symbol.partition("_")
        if sep and sub:
            return f"{_symbol_latex(base, inner)}_{{{_argument_latex(sub, inner)}}}"
        if symbol.endswith(("*", "²")) and len(symbol) > 1:
            return f"{_scripted_base(_symbol_latex(symbol[:-1], inner))}^{{{'*' if symbol[-1] == '*' else '2'}}}"
    if (len(symbol) == 1 and symbol.isalpha() and symbol.isascii()) or _is_number(symbol):
        return symbol
    return _upright(symbol)


# what \mathrm{…} takes as it is: printable ASCII but for \ ^ ~ { } and the < > & a Markdown viewer could read as
# markup, the Greek letters above, and a superscript of one letter or digit (irlab's 2^n) that no other superscript
# or prime follows (TeX's "double superscript")
_MATH_SAFE = re.compile(r"(?:[A-Za-z0-9 !\"#$%'()*+,\-./:;=?@\[\]_`|ΣκρτβΔ]|\^[A-Za-z0-9](?![\^']))*")


def _upright(word: str) -> str:
    r"""An upright word: \mathrm{…} as irlab's own names are set, or for a name math mode cannot take, \text{…}
    escaped by the LaTeX renderer's own rules (irlab/escape.py), which render/mathml.py reads back."""
    if _MATH_SAFE.fullmatch(word):
        body = "".join(_GREEK.get(c, _LATEX_SPECIAL.get(c, c)) + (" " if c in _GREEK else "") for c in word)
        return rf"\mathrm{{{body.strip().replace('-', chr(92) + 'text{-}')}}}"
    return rf"\text{{{latex_name(word)}}}"


def _scripted_base(latex: str) -> str:
    """A base for a superscript: braced when it has a script of its own (a name 'x**' is {x^{*}}^{*})."""
    return f"{{{latex}}}" if "^" in latex or "_" in latex.replace(r"\_", "") else latex


def _is_number(text: str) -> bool:
    return text.isascii() and text.replace(".", "", 1).replace("/", "", 1).isdigit()


def _argument_latex(text: str, depth: int = SYMBOL_NESTING) -> str:
    """A subscript or argument: numbers and single letters as they are, words upright, 'recall=0.25' with its '='."""
    if "=" in text and depth > 0:
        return "=".join(_argument_latex(part, depth - 1) for part in text.split("="))
    if _is_number(text) or (len(text) == 1 and text.isalpha() and text.isascii()):
        return text
    return _symbol_latex(text, depth)


def _symbolic_precedence(value) -> int:
    """How tightly sympy's printed form of ``value`` binds: a sum like '+', a product or quotient like '·'."""
    if value.is_Atom or value.is_Function:
        return 4 if not (value.is_Number and value < 0) else 2
    if value.is_Add:
        return 1
    if value.is_Mul or value.is_Pow:
        return 2 if not value.could_extract_minus_sign() else 1
    return 0


NEGATIVE = 0.5  # a negative number is parenthesised wherever it is an operand: 2 + (-1), (-1) · (-1/2), as printed


def _value_text(value) -> tuple[str, int]:
    text = exact.exact_text(value)
    if exact.is_symbolic(value):
        return text, _symbolic_precedence(value)
    if value < 0:
        return text, NEGATIVE
    if isinstance(value, Fraction) and value.denominator != 1:
        return text, 1.5  # written a/b: safe in a sum, parenthesised as a factor or a divisor
    return text, 4


def _value_latex(value) -> tuple[str, int]:
    text = exact.exact_latex(value)
    if exact.is_symbolic(value):
        return text, _symbolic_precedence(value)
    return text, (4 if value >= 0 else NEGATIVE)


SHOWN_OPERANDS = 10  # a longer sum is written by its first and last terms


def _write(node: Traced, fmt: str, show_values: bool, top: bool) -> tuple[str, int]:
    """Write ``node`` in ``fmt`` ('text' or 'latex'); returns the string and its precedence."""
    if not top and node.symbol:
        if show_values:
            return _written(node, fmt)
        return (symbol_latex(node.symbol) if fmt == "latex" else node.symbol), 4
    if node.is_leaf:
        return _written(node, fmt)

    def part(child, minimum, strict=False):
        text, prec = _write(child, fmt, show_values, False)
        if prec < minimum or (strict and prec == minimum):
            text = rf"\left({text}\right)" if fmt == "latex" else f"({text})"
        return text

    op, ops = node.op, node.operands
    if op == "add":
        if len(ops) > 2 * SHOWN_OPERANDS:  # a sum over thousands of ranks: its ends, and how many terms are left out
            hidden = len(ops) - 2 * SHOWN_OPERANDS
            middle = rf"\dots \text{{ ({hidden:,} more terms) }} \dots" if fmt == "latex" else f"… ({hidden:,} more terms) …"
            shown = [part(o, 1) for o in ops[:SHOWN_OPERANDS]] + [middle] + [part(o, 1) for o in ops[-SHOWN_OPERANDS:]]
            return " + ".join(shown), 1
        return " + ".join(part(o, 1) for o in ops), 1
    if op == "sub":
        return f"{part(ops[0], 1)} - {part(ops[1], 1, strict=True)}", 1
    if op == "neg":
        return f"-{part(ops[0], 3)}", 2
    if op == "mul":
        joiner = r" \cdot " if fmt == "latex" else " · "
        return joiner.join(part(o, 2) for o in ops), 2
    if op == "div":
        if fmt == "latex":
            num, _ = _write(ops[0], fmt, show_values, False)
            den, _ = _write(ops[1], fmt, show_values, False)
            if ops[0].op == "add" and len(ops[0].operands) > 3 and not ops[0].symbol:
                # a long sum over a count (a mean) as 1/n (…): the sum can then break across lines
                return rf"\frac{{1}}{{{den}}} \left({num}\right)", 2
            return _latex_quotient(num, den)
        return f"{part(ops[0], 2)} / {part(ops[1], 2, strict=True)}", 2
    if op == "pow":
        if fmt == "latex":
            exponent, _ = _write(ops[1], fmt, show_values, False)
            return f"{{{_power_base(part(ops[0], 4))}}}^{{{exponent}}}", 3
        return f"{part(ops[0], 4)}^{part(ops[1], 4)}", 3
    if op == "call":
        written_args = [_write(o, fmt, show_values, False)[0] for o in ops]
        if not show_values and len(written_args) > 4:  # the values are all listed in the substitution
            written_args = [*written_args[:2], r"\dots" if fmt == "latex" else "…", written_args[-1]]
        args = ", ".join(written_args)
        if node.function in _BRACKETS:
            left, right = _BRACKETS[node.function][fmt == "latex"]
            return f"{left}{args}{right}", 4
        if fmt == "latex" and node.function == "sqrt":
            return rf"\sqrt{{{args}}}", 4
        if fmt == "latex":
            name = {"log2": r"\log_2", "max": r"\max", "min": r"\min", "Φ": r"\Phi"}.get(  # Φ: the normal distribution
                node.function, rf"\operatorname{{{node.function}}}")
            if _log_base(node.function):
                name = rf"\log_{{{_log_base(node.function)}}}"
            return rf"{name}\left({args}\right)", 4
        return f"{node.function}({args})", 4
    raise ValueError(f"unknown operation {op!r}")


def _log_base(function) -> int | None:
    """10 for 'log10': the base of a logarithm node other than log2 (trace.log)."""
    if function and function.startswith("log") and function[3:].isdigit() and function != "log2":
        return int(function[3:])
    return None


# functions written as brackets around their argument: (text, latex) pairs of (left, right)
_BRACKETS = {
    "indicator": (("[", " > 0]"), (r"\left[", r" > 0\right]")),
    "ceil": (("⌈", "⌉"), (r"\left\lceil ", r"\right\rceil")),
    "round": (("round(", ")"), (r"\operatorname{round}\left(", r"\right)")),
}


def _latex_quotient(num: str, den: str) -> tuple[str, int]:
    """\\frac{num}{den}, or for long operands (num) / (den), which a printed page can break across lines."""
    if len(num) + len(den) > 160:
        return rf"\left({num}\right) \Big/ \left({den}\right)", 2
    return rf"\frac{{{num}}}{{{den}}}", 4


def _parenthesised(text, fmt):
    return rf"\left({text}\right)" if fmt == "latex" else f"({text})"


def _written(node: Traced, fmt: str) -> tuple[str, int]:
    """The exact value of ``node`` written the way it was computed (see :func:`written`) and its precedence."""
    latex = fmt == "latex"
    value = node.value
    if not exact.is_symbolic(value):
        return _value_latex(value) if latex else _value_text(value)
    if node.origin is not None:
        return _written(node.origin, fmt)
    op, ops = node.op, node.operands
    if op == "leaf":
        return _value_latex(value) if latex else _value_text(value)
    if op == "call":
        if node.function == "log2" or _log_base(node.function):
            argument, base = exact.exact_text(ops[0].value), _log_base(node.function) or 2
            subscript = "2" if base == 2 else f"{{{base}}}"
            return (rf"\log_{subscript} {argument}" if latex else f"log{base}({argument})"), 4
        chosen = next((o for o in ops if o.value is value or o.value == value), None)  # max/min: the operand it picked
        if chosen is not None:
            return _written(chosen, fmt)
        return _value_latex(value) if latex else _value_text(value)

    def part(child, minimum, strict=False):
        text, prec = _written(child, fmt)
        return (_parenthesised(text, fmt), 3.9) if prec < minimum or (strict and prec == minimum) else (text, prec)

    if op == "add":
        kept = [o for o in ops if not exact.is_zero(o.value)]
        hidden = len(kept) - 2 * SHOWN_OPERANDS
        if hidden > 0:  # a sum over thousands of ranks: its ends, and how many terms are left out
            middle = rf"\dots \text{{ ({hidden:,} more terms) }} \dots" if latex else f"… ({hidden:,} more terms) …"
            terms = [part(o, 1)[0] for o in kept[:SHOWN_OPERANDS]] + [middle] + [part(o, 1)[0] for o in kept[-SHOWN_OPERANDS:]]
        else:
            terms = [part(o, 1)[0] for o in kept] or ["0"]
        out = terms[0]
        for term in terms[1:]:
            out += f" - {term[1:]}" if term.startswith("-") else f" + {term}"
        return out, 1
    if op == "sub":
        return f"{part(ops[0], 1)[0]} - {part(ops[1], 1, strict=True)[0]}", 1
    if op == "neg":
        return f"-{part(ops[0], 3)[0]}", 2
    if op == "mul":
        return (r" \cdot " if latex else " · ").join(part(o, 2)[0] for o in ops), 2
    if op == "div" and ops[1].value == 1:
        return _written(ops[0], fmt)
    if op == "div":
        if latex:
            return _latex_quotient(_written(ops[0], fmt)[0], _written(ops[1], fmt)[0])
        (num, num_prec), (den, den_prec) = part(ops[0], 2), part(ops[1], 2, strict=True)
        if num_prec == 4 and den_prec == 4:
            return f"{num}/{den}", 1.5  # compact like a fraction: bare in a sum, bracketed as a factor
        return f"{num} / {den}", 2
    if op == "pow":
        base, exponent = part(ops[0], 4)[0], _written(ops[1], fmt)[0]
        return (f"{{{_power_base(base)}}}^{{{exponent}}}" if latex else f"{base}^{part(ops[1], 4)[0]}"), 3
    return _value_latex(value) if latex else _value_text(value)


def _power_base(latex: str) -> str:
    """A power's base in LaTeX: a fraction or a negative number in brackets, (4/5)^0 and (-1)^2, never 4^0/5."""
    if latex.startswith(("\\frac", "\\dfrac", "\\tfrac", "-")):
        return rf"\left({latex}\right)"
    return latex


def written(node: Traced, fmt: str = "text") -> str:
    """The exact value of ``node`` as the computation wrote it, for reading beside the formula.

    Rational values are reduced fractions. A value with logarithms keeps the shape of its computation: terms in
    the order they were added (rank order), zero terms dropped, every ``log2(n)`` with its own argument
    (``3/log2(6)``, never sympy's rewriting ``3/(log2(3) + 1)``).

    >>> written(Traced(3) / log2(6) + Traced(1) / log2(4))
    '3/log2(6) + 1/2'
    """
    return _written(node, fmt)[0]


def formula(node: Traced, fmt: str = "text") -> str:
    """The expression that defines ``node``, its operands written as symbols where they have one."""
    return _write(node, fmt, show_values=False, top=True)[0]


def substitution(node: Traced, fmt: str = "text") -> str:
    """The same expression with every operand replaced by its exact value."""
    return _write(node, fmt, show_values=True, top=True)[0]
