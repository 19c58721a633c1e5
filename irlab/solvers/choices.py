"""Choice questions: a free-text question whose ``choices`` name the right option(s) by letter (``correct``).

The options are lettered (a), (b), (c)… in the order written. An answer names the letters of the options it
picks; case, spaces, separators (``,`` ``;`` ``/`` ``&`` ``+`` ``.`` ``and`` and brackets) and order do not
matter, and a letter written twice counts once; a label may be followed by its option's own text (``(c) infAP``).
A word that is not a run of option letters (``banana``) is not an answer, never read as letters. An answer is
right when it picks exactly the right options: one letter for a single right option, all of them (and no other)
when several are right. The sheet says which (``instruction``).

>>> right = correct_letters(["a", "C"], 3)
>>> sorted(right), judge(" c , A ", right, 3)[0], judge("a", right, 3)[0]
(['a', 'c'], True, False)
"""

from __future__ import annotations

import re
import string

from ..errors import ParameterError

LETTERS = string.ascii_lowercase
_SEPARATORS = re.compile(r"[\s,;/&+.()\[\]]+")  # '.' too: 'b.' is how many write a letter
_JOINING_WORDS = {"and"}  # 'a and c' names (a) and (c)
# an option's letter written as a label, '(b)' or 'b)', possibly followed by the option's own text
_LABEL = re.compile(r"(?:^|(?<=[\s,;/&+]))\(?([a-z])\)", re.IGNORECASE)
_EXAMPLE = "such as 'b' or 'a, c'"


def letter_of(index: int) -> str:
    return LETTERS[index]


def options_text(choices) -> str:
    """'(a) yes; (b) no'."""
    return "; ".join(f"({letter_of(i)}) {choice}" for i, choice in enumerate(choices))


def instruction(right: frozenset) -> str:
    """What the sheet tells the student about how many options to pick: 'one answer' or 'choose all that apply'."""
    return "one answer" if len(right) == 1 else "choose all that apply"


def _normal(text: str) -> str:
    return " ".join(text.casefold().split())


def _labelled(text: str, choices, what: str) -> list | None:
    """The letters of an answer written with labels, '(a) bpref, (c) infAP' or 'b) it counts as non-relevant':
    each label followed by nothing or by its option's own text. None when the answer is not written that way."""
    labels = list(_LABEL.finditer(text))
    if not labels or text[:labels[0].start()].strip(" ,;/&+") or choices is None:
        return None
    letters = []
    for label, following in zip(labels, labels[1:] + [None]):
        letter = label.group(1).lower()
        after = text[label.end():following.start() if following else len(text)].strip(" ,;/&+")
        if after.lower().endswith(" and"):
            after = after[:-4]
        index = LETTERS.index(letter)
        if after and after.lower() != "and" and index < len(choices) and _normal(after) != _normal(choices[index]):
            raise ParameterError(f"{what} {text!r}: {after!r} after ({letter}) is not the text of option ({letter}); "
                                 f"write the letters of the options, {_EXAMPLE}")
        letters.append(letter)
    return letters


def _letters(text: str, count: int, what: str, choices=None) -> frozenset:
    """The set of letters in ``text``, each one of the ``count`` options; ParameterError says what is wrong."""
    shown = text.strip()
    letters = _labelled(shown, choices, what)
    if letters is None:
        pieces = [p for p in _SEPARATORS.split(shown.lower()) if p and p not in _JOINING_WORDS]
        letters = []
        for piece in pieces:
            if not piece.isascii() or not piece.isalpha():
                raise ParameterError(f"{what} {shown!r}: write the letters of the options, {_EXAMPLE}")
            if len(piece) > 1 and any(letter not in LETTERS[:count] for letter in piece):
                which = f"{what} {shown!r} is" if piece == shown.lower() else f"{what} {shown!r}: {piece!r} is"
                raise ParameterError(f"{which} not an option letter; write the letters of the options, {_EXAMPLE} "
                                     f"(the options are (a) to ({letter_of(count - 1)}))")
            letters += list(piece)  # 'ac' names (a) and (c)
    if not letters:
        raise ParameterError(f"{what} is empty: write the letter(s) of the option(s), {_EXAMPLE}")
    outside = sorted({letter for letter in letters if letter not in LETTERS[:count]})
    if outside:
        raise ParameterError(f"{what} {shown!r}: there is no option ({outside[0]}); the options are "
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


def _listed(letters) -> str:
    """'(a)', '(a) and (c)', '(a), (b) and (c)'."""
    shown = [f"({letter})" for letter in sorted(letters)]
    return shown[0] if len(shown) == 1 else f"{', '.join(shown[:-1])} and {shown[-1]}"


def judge(raw, right: frozenset, count: int, choices=None) -> tuple[bool | None, str]:
    """(True, message) for the right options, (False, message) for others, (None, problem) when no letters are
    recognised. The message never names the right options. With ``choices`` (the options' texts) an answer may
    copy an option after its label: '(c) infAP'."""
    text = "" if raw is None else str(raw)
    if not text.strip():
        return None, f"no answer given; write the letter(s) of the option(s), {_EXAMPLE}"
    try:
        picked = _letters(text, count, "the answer", choices)
    except ParameterError as error:
        return None, str(error)
    shown = _listed(picked)
    if picked == right:
        return True, f"Correct: {shown}."
    if len(right) == 1:
        if len(picked) > 1:
            return False, f"Not quite: you picked {shown}, but exactly one option is right."
        return False, f"Not quite: {shown} is not the right option (exactly one option is right)."
    return False, (f"Not quite: you picked {shown}, which is not the right set of options (several options are "
                   "right: name every one of them, and no other).")


def written(right: frozenset, choices) -> str:
    """'(a) yes' or '(a) yes; (c) maybe': the right options as the key shows them."""
    return "; ".join(f"({letter}) {choices[LETTERS.index(letter)]}" for letter in sorted(right))
