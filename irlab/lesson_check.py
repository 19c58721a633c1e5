"""Self-checks in the student version of a lesson: compare a student's value with the teacher's, politely.

In a lesson (notebooks/NN_name.md) a code cell tagged ``solution`` ends with the expression that is the answer.
The student version (``python3 notebooks/build.py --student DIR``) replaces that cell by a prompt and a cell

    your_answer = ...  # replace ... with your computation
    check_value(your_answer, "sha256:…")

The teacher's value is not written into the student's notebook, only a digest of the text Jupyter displayed for it
(its ``text/plain`` output), so the check compares what the student's value displays as with that digest.
The check never raises: an unanswered or wrong answer prints feedback, so the notebook runs top to bottom.
Exercises with an answer key and a diagnosis of the usual mistakes use :func:`irlab.check` instead.

Examples
--------
>>> from fractions import Fraction
>>> expected = digest(repr(Fraction(3, 8)))
>>> check_value(..., expected)
Not answered yet: replace the ... with your computation, then run this cell again.
False
>>> check_value(Fraction(3, 8), expected)
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
        from IPython import get_ipython
    except ImportError:  # irlab does not need IPython; a plain Python session compares reprs
        shell = None
    else:
        shell = get_ipython()
    if shell is not None:
        formatter = shell.display_formatter.formatters["text/plain"]
        return formatter(value)
    return repr(value)


def digest(text: str) -> str:
    """The digest stored for a teacher's displayed answer: ``sha256:`` and the hex digest of the stripped text."""
    return "sha256:" + hashlib.sha256(text.strip().encode("utf-8")).hexdigest()


def check_value(value, expected_digest: str) -> bool:
    """Print whether ``value`` displays as the teacher's answer did; True when it does. Never raises.

    ``...`` (Ellipsis) means "not answered yet". A float is compared as what it displays as, so the exact
    answer (a ``Fraction``, as irlab computes it) is asked for when a float is given.
    """
    if value is ...:
        print(NOT_ANSWERED)
        return False
    try:
        shown = displayed_text(value)
    except Exception as error:  # a student's object whose repr fails must not stop the notebook
        print(f"Could not display your answer ({type(error).__name__}: {error}); try again with a number or a result.")
        return False
    if digest(shown) == expected_digest:
        print(CORRECT)
        return True
    hint = ""
    if isinstance(value, float):
        hint = f" You gave a float; give the exact value instead, e.g. {Fraction(repr(value))!r} as irlab does."
    short = shown if len(shown) <= 80 else shown[:77] + "..."
    print(f"Not the expected answer yet: your value displays as {short}.{hint} Re-read the question and try again.")
    return False
