"""Self-checks in the student version of a lesson: compare a student's value with the teacher's, politely.

In a lesson (notebooks/NN_name.md) a code cell tagged ``solution`` ends with the expression that is the answer.
The student version (``python3 notebooks/build.py --student DIR``) replaces that cell by a prompt and a cell

    your_answer = ...  # replace ... with your computation
    check_value(your_answer, "sha256:…")

The teacher's value is not written into the student's notebook, only a digest of it: of its exact value when it is
a number or an irlab result, else of the text Jupyter displays for it. The student's value is compared the same way.
The check never raises: an unanswered or wrong answer prints feedback, so the notebook runs top to bottom.
Exercises with an answer key and a diagnosis of the usual mistakes use :func:`irlab.check` instead.

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
"""

from __future__ import annotations

import hashlib
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


def canonical(value) -> str:
    """What is compared: the exact number for a number or an irlab result (so ``Fraction(3, 7)``, ``3/7`` as a
    ``Fraction`` and ``f_measure(...)`` agree), else the text Jupyter displays for the value."""
    exact = getattr(value, "value", value)  # an irlab Result carries its exact value
    if getattr(exact, "is_Rational", False):  # a sympy Rational or Integer, without importing sympy
        exact = Fraction(int(exact.p), int(exact.q))
    if isinstance(exact, float) and exact == exact and abs(exact) != float("inf"):
        exact = Fraction(repr(exact))  # a float means what it prints as: 0.375 is 3/8
    if isinstance(exact, (int, Fraction)) and not isinstance(exact, bool):
        return f"number {Fraction(exact)}"
    return "text " + displayed_text(value).strip()


def digest(value) -> str:
    """The digest stored for a teacher's answer: ``sha256:`` and the hex digest of its :func:`canonical` form."""
    return "sha256:" + hashlib.sha256(canonical(value).encode("utf-8")).hexdigest()


def answer_digest(value) -> None:
    """Print the digest of a teacher's answer (notebooks/build.py runs this after each solution cell)."""
    print(digest(value))


def check_value(value, expected_digest: str) -> bool:
    """Print whether ``value`` is the teacher's answer (compared through :func:`digest`); True when it is.

    Never raises. ``...`` (Ellipsis) means "not answered yet". A float is read as what it prints as, so 0.375
    is 3/8 but 0.4286 is not 3/7: the feedback then asks for the exact value, as irlab computes it.
    """
    if value is ...:
        print(NOT_ANSWERED)
        return False
    try:
        given = digest(value)
        shown = displayed_text(value)
    except Exception as error:  # a student's object whose repr fails must not stop the notebook
        print(f"Could not read your answer ({type(error).__name__}: {error}); try again with a number or a result.")
        return False
    if given == expected_digest:
        print(CORRECT)
        return True
    hint = ""
    if isinstance(value, float):
        hint = " You gave a float: give the exact value, as irlab computes it (e.g. Fraction(3, 7), not 0.4286)."
    short = shown if len(shown) <= 80 else shown[:77] + "..."
    print(f"Not the expected answer yet: your value displays as {short}.{hint} Re-read the question and try again.")
    return False
