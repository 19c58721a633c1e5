"""JSON written piece by piece: the bytes of ``json.dumps(value, indent=2, ensure_ascii=False)``, streamed.

A class's JSON report holds one object per student and per input row; building it whole (the dict, then the
string) took twice the memory of the report itself and most of the time of writing it, because the standard
library's encoder is pure Python once ``indent`` is given. :func:`write_json` walks the value once and hands
each piece to ``write``; a :class:`Lazy` list is produced element by element while it is written, so a
large report never exists twice in memory.

>>> import io, json
>>> value = {"a": [1, 2.5, None], "b": {"c": "é\\n", "d": []}, "e": Lazy(x * x for x in range(3))}
>>> out = io.StringIO(); write_json(value, out.write)
>>> out.getvalue() == json.dumps({**value, "e": [0, 1, 4]}, indent=2, ensure_ascii=False)
True
"""

from __future__ import annotations

from json.encoder import encode_basestring  # the C implementation when available, as json.dumps uses

_INDENT = "  "
string_text = encode_basestring  # a str as JSON text (for writers that know a value is one)


class Lazy:
    """An iterable written as a JSON list, element by element (it is iterated once)."""

    __slots__ = ("items",)

    def __init__(self, items):
        self.items = items


class Raw:
    """A value already written as JSON (by :func:`fragment`, at the nesting level where it is written): a report
    whose students share most of their objects (a question nobody answered) writes each one once, not once a
    student."""

    __slots__ = ("text",)

    def __init__(self, text: str):
        self.text = text


def fragment(value, level: int) -> Raw:
    """``value`` written as :func:`write_json` writes it at nesting ``level``, kept to be written again."""
    pieces: list = []
    write_json(value, pieces.append, level)
    return Raw("".join(pieces))


def list_marks(level: int) -> tuple[str, str, str]:
    """What a non-empty list at nesting ``level`` is written with: before its first item, between two items, after
    its last one (an empty list is ``[]``)."""
    inner = "\n" + _INDENT * (level + 1)
    return "[" + inner, "," + inner, "\n" + _INDENT * level + "]"


def int_list(values, level: int) -> Raw:
    """``fragment(list(values), level)`` for a list of ints (a report's line numbers: one list a question answered,
    written without walking the value)."""
    if not values:
        return Raw("[]")
    first, between, last = list_marks(level)
    return Raw(first + between.join(map(int.__repr__, values)) + last)


def _float(value: float) -> str:
    if value != value:
        return "NaN"
    if value == float("inf"):
        return "Infinity"
    if value == float("-inf"):
        return "-Infinity"
    return float.__repr__(value)


_SCALARS = {str: encode_basestring, int: int.__repr__, float: _float, bool: lambda v: "true" if v else "false",
            type(None): lambda v: "null", Raw: lambda v: v.text}


_HEADS: dict = {}  # (level, the keys in order) -> what precedes each member's value: the same in every student's object


def _heads(level: int, keys: tuple) -> list[str]:
    """Separator, indent and key before each member of an object with ``keys`` at nesting ``level``."""
    for key in keys:
        if not isinstance(key, str):  # json.dumps would write 1 as "1": the reports have text keys only
            raise TypeError(f"JSON object keys are text here, got {key!r}")
    indent = "\n" + _INDENT * (level + 1)
    return [("{" if i == 0 else ",") + indent + encode_basestring(key) + ": " for i, key in enumerate(keys)]


class Shape:
    """Objects that all have ``keys``, in that order, at nesting ``level`` (a report's students, questions, rows),
    written from their members' JSON texts: the text between the values is made once for all of them.

    >>> import json
    >>> Shape(("a", "b"), 0).text(["1", '"x"']) == json.dumps({"a": 1, "b": "x"}, indent=2)
    True
    """

    __slots__ = ("heads", "end")

    def __init__(self, keys: tuple, level: int):
        if not keys:
            raise ValueError("a Shape has members: write an empty object as {}")
        self.heads = tuple(_heads(level, tuple(keys)))  # what precedes each member's value
        self.end = "\n" + _INDENT * level + "}"

    def text(self, values) -> str:
        """The object whose members' values are ``values``, each already written as :func:`write_json` writes it
        one level deeper (see :func:`value_text`)."""
        pieces = [piece for pair in zip(self.heads, values, strict=True) for piece in pair]
        pieces.append(self.end)
        return "".join(pieces)


def value_text(value, level: int) -> str:
    """``value`` written as :func:`write_json` writes it at nesting ``level`` (text and numbers without a walk)."""
    scalar = _SCALARS.get(type(value))
    return scalar(value) if scalar is not None else fragment(value, level).text


def write_json(value, write, level: int = 0) -> None:
    """Write ``value`` (dicts with str keys, lists, tuples, :class:`Lazy`, str, int, float, bool, None) as
    ``json.dumps(value, indent=2, ensure_ascii=False)`` writes it, starting at nesting ``level``."""
    scalar = _SCALARS.get(type(value))
    if scalar is not None:
        write(scalar(value))
    elif isinstance(value, dict):
        if not value:
            write("{}")
            return
        shape = (level, tuple(value))
        heads = _HEADS.get(shape)
        if heads is None:
            heads = _heads(level, shape[1])
            if len(_HEADS) >= 1024:
                _HEADS.clear()
            _HEADS[shape] = heads
        pending = []  # the scalar members in a row, written at once
        for head, item in zip(heads, value.values()):
            scalar = _SCALARS.get(type(item))
            if scalar is not None:  # most values: no recursion
                pending.append(head)
                pending.append(scalar(item))
            else:
                pending.append(head)
                write("".join(pending))
                pending.clear()
                write_json(item, write, level + 1)
        pending.append("\n" + _INDENT * level + "}")
        write("".join(pending))
    elif isinstance(value, (list, tuple, Lazy)):
        inner = "\n" + _INDENT * (level + 1)
        separator = "[" + inner
        for item in (value.items if isinstance(value, Lazy) else value):
            scalar = _SCALARS.get(type(item))
            if scalar is not None:
                write(separator + scalar(item))
            else:
                write(separator)
                write_json(item, write, level + 1)
            separator = "," + inner
        write("[]" if separator[0] == "[" else "\n" + _INDENT * level + "]")
    elif isinstance(value, (str, int, float)):  # subclasses (an IntEnum, a str subclass): as json writes them
        write(encode_basestring(value) if isinstance(value, str) else
              int.__repr__(value) if isinstance(value, int) else _float(value))
    else:
        raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")
