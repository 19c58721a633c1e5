"""Self-checks in the student version of a lesson: compare a student's value with the teacher's, politely.

In a lesson (notebooks/NN_name.md) a code cell tagged ``solution`` ends with the expression that is the answer.
The student version (``python3 notebooks/build.py --student DIR``) replaces that cell by a prompt and a cell

    your_answer = ...  # replace ... with your computation
    check_value(your_answer, "sha256:…")

A "check yourself" cell, tagged ``answer``, keeps its statements, but its answers (``my_P = …``) become ``...`` and
each ``assert my_P == precision(...).value, "hint"`` becomes ``check_value(my_P, "sha256:…", name="my_P",
hint="hint")``.

The teacher's value is not written into the student's notebook, only a digest of it: of its exact value when it is
a number, an irlab result or a list of numbers, else of the text Jupyter displays for it. The student's value is
compared the same way. The check never raises: an unanswered (``...`` or ``None``) or wrong answer prints feedback,
so the notebook runs top to bottom. Exercises with an answer key and a diagnosis of the usual mistakes use
:func:`irlab.check` instead.

Examples
--------
>>> from fractions import Fraction
>>> expected = digest(Fraction(3, 8))
>>> check_value(..., expected)
Not answered yet: replace the ... with your computation, then run this cell again.
False
>>> check_value(Fraction(3, 8), expected)
Correct.
True
>>> check_value(0.375, expected)
Correct.
True
>>> check_value(None, expected, name="my_P")
my_P: Not answered yet: replace the ... with your computation, then run this cell again.
False
>>> check_value(Fraction(3, 5), expected, name="my_P", hint="count the R")  # doctest: +NORMALIZE_WHITESPACE
my_P: Not the expected answer yet: your value displays as Fraction(3, 5). Hint: count the R.
Re-read the question and try again.
False
"""

from __future__ import annotations

import hashlib
import json
from fractions import Fraction

NOT_ANSWERED = "Not answered yet: replace the ... with your computation, then run this cell again."
CORRECT = "Correct."


def displayed_text(value) -> str:
    """The text Jupyter displays for ``value`` (its ``text/plain`` output), or ``repr`` outside IPython."""
    try:
        from IPython import get_ipython  # deferred: IPython is optional (Jupyter only) and heavy
    except ImportError:  # irlab does not need IPython; a plain Python session compares reprs
        shell = None
    else:
        shell = get_ipython()
    if shell is not None:
        formatter = shell.display_formatter.formatters["text/plain"]
        return formatter(value)
    return repr(value)


def exact_number(value) -> Fraction | None:
    """``value`` as an exact Fraction when it is a number or an irlab result (a float read as what it prints as:
    0.375 is 3/8), else None."""
    exact = getattr(value, "value", value)  # an irlab Result carries its exact value
    if type(exact).__module__ == "numpy" and getattr(exact, "shape", None) == ():
        exact = exact.item()  # a numpy scalar (a pandas cell): numpy 2 reprs it np.float64(0.5), not as a number
    if getattr(exact, "is_Rational", False):  # a sympy Rational or Integer, without importing sympy
        exact = Fraction(int(exact.p), int(exact.q))
    if isinstance(exact, float) and exact == exact and abs(exact) != float("inf"):
        exact = Fraction(repr(exact))
    if isinstance(exact, (int, Fraction)) and not isinstance(exact, bool):
        return Fraction(exact)
    return None


def canonical(value) -> str:
    """What is compared: the exact number for a number or an irlab result (so ``Fraction(3, 7)``, ``3/7`` as a
    ``Fraction`` and ``f_measure(...)`` agree), the exact numbers of a list or tuple of them (so a list of Fractions
    and the same list of floats agree), else the text Jupyter displays for the value."""
    number = exact_number(value)
    if number is not None:
        return f"number {number}"
    if isinstance(value, (list, tuple)) and value:
        numbers = [exact_number(item) for item in value]
        if None not in numbers:
            return "numbers " + ", ".join(str(n) for n in numbers)
    return "text " + displayed_text(value).strip()


def canonical_digest(form: str) -> str:
    """``sha256:`` and the hex digest of a :func:`canonical` form."""
    return "sha256:" + hashlib.sha256(form.encode("utf-8")).hexdigest()


def digest(value) -> str:
    """The digest stored for a teacher's answer: that of its :func:`canonical` form."""
    return canonical_digest(canonical(value))


def answer_canonicals(*values) -> None:
    """Print the :func:`canonical` forms of a teacher's answers as a JSON list (notebooks/build.py runs this after
    each solution and answer cell, in a run of its own whose outputs are never written)."""
    print(json.dumps([canonical(value) for value in values]))


def check_value(value, expected_digest: str, *, name: str | None = None, hint: str | None = None) -> bool:
    """Print whether ``value`` is the teacher's answer (compared through :func:`digest`); True when it is.

    Never raises. ``...`` (Ellipsis) or ``None`` means "not answered yet". A float is read as what it prints as, so
    0.375 is 3/8 but 0.4286 is not 3/7: the feedback then asks for the exact value, as irlab computes it. ``name``
    (the answer's variable) starts the line, so a cell checking several answers says which is which; ``hint`` is
    added to the feedback on a wrong answer.
    """
    said = f"{name}: " if name else ""
    if value is ... or value is None:
        print(said + NOT_ANSWERED)
        return False
    try:
        given = digest(value)
        shown = displayed_text(value)
    except Exception as error:  # a student's object whose repr fails must not stop the notebook
        print(f"{said}Could not read your answer ({type(error).__name__}: {error}); try again with a number or a "
              "result.")
        return False
    if given == expected_digest:
        print(said + CORRECT)
        return True
    advice = ""
    if isinstance(value, float):
        advice = " You gave a float: give the exact value, as irlab computes it (e.g. Fraction(3, 7), not 0.4286)."
    if hint:
        advice += f" Hint: {hint.rstrip('.')}."
    short = shown if len(shown) <= 80 else shown[:77] + "..."
    print(f"{said}Not the expected answer yet: your value displays as {short}.{advice} Re-read the question and try "
          "again.")
    return False
