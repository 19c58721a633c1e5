"""Choice questions: a free-text question whose ``choices`` name the right option(s) by letter (``correct``).

The options are lettered (a), (b), (c)… in the order written. An answer names the letters of the options it
picks; case, spaces, separators (``,`` ``;`` ``/`` ``&`` ``+`` and brackets) and order do not matter, and a
letter written twice counts once. It is right when it picks exactly the right options: one letter for a single
right option, all of them (and no other) when several are right.

>>> right = correct_letters(["a", "C"], 3)
>>> sorted(right), judge(" c , A ", right, 3)[0], judge("a", right, 3)[0]
(['a', 'c'], True, False)
"""

from __future__ import annotations

import re
import string

from ..errors import ParameterError

LETTERS = string.ascii_lowercase
_SEPARATORS = re.compile(r"[\s,;/&+()\[\]]+")


def letter_of(index: int) -> str:
    return LETTERS[index]


def options_text(choices) -> str:
    """'(a) yes; (b) no'."""
    return "; ".join(f"({letter_of(i)}) {choice}" for i, choice in enumerate(choices))


def _letters(text: str, count: int, what: str) -> frozenset:
    """The set of letters in ``text``, each one of the ``count`` options; ParameterError says what is wrong."""
    pieces = [p for p in _SEPARATORS.split(text.strip().lower()) if p]
    letters = []
    for piece in pieces:
        if not piece.isascii() or not piece.isalpha():
            raise ParameterError(f"{what} {text.strip()!r}: write the letters of the options, such as 'b' or 'a, c'")
        letters += list(piece)  # 'ac' names (a) and (c)
    if not letters:
        raise ParameterError(f"{what} is empty: write the letter(s) of the option(s), such as 'b' or 'a, c'")
    outside = sorted({letter for letter in letters if letter not in LETTERS[:count]})
    if outside:
        raise ParameterError(f"{what} {text.strip()!r}: there is no option ({outside[0]}); the options are "
                             f"(a) to ({letter_of(count - 1)})")
    return frozenset(letters)


def correct_letters(value, count: int) -> frozenset:
    """The right options of an exercise: ``"b"``, ``"a, c"`` or ``["a", "c"]``, checked against ``count`` options."""
    if count > len(LETTERS):
        raise ParameterError(f"a choice question has at most {len(LETTERS)} options (a to z), got {count}")
    if isinstance(value, list) and value and all(isinstance(v, str) for v in value):
        value = ", ".join(value)
    if not isinstance(value, str):
        raise ParameterError(f"correct must name the right option(s) by letter, such as \"b\" or [\"a\", \"c\"], "
                             f"got {value!r:.60}")
    return _letters(value, count, "correct")


def judge(raw, right: frozenset, count: int) -> tuple[bool | None, str]:
    """(True, message) for the right options, (False, message) for others, (None, problem) when no letters are
    recognised. The message never names the right options."""
    text = "" if raw is None else str(raw)
    try:
        picked = _letters(text, count, "the answer")
    except ParameterError as error:
        return None, str(error)
    shown = ", ".join(f"({letter})" for letter in sorted(picked))
    if picked == right:
        return True, f"Correct: {shown}."
    several = "several options are right: name every one of them" if len(right) > 1 else "exactly one option is right"
    return False, f"Not quite: {shown} is not the right choice ({several})."


def written(right: frozenset, choices) -> str:
    """'(a) yes' or '(a) yes; (c) maybe': the right options as the key shows them."""
    return "; ".join(f"({letter}) {choices[LETTERS.index(letter)]}" for letter in sorted(right))
