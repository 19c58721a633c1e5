"""The judging list ``irlab pool -o FILE.csv`` writes, filled in by assessors, read back as qrels (``irlab pool
--to-qrels FILE.csv``).

The list is a CSV ``topic,docno,relevance``; an assessor fills in the relevance column in a spreadsheet or a text
editor, and the file comes back as untrusted input. Read back:

* the header names ``topic``, ``docno`` and ``relevance`` (any case and order; other columns, e.g. an assessor's
  notes, are left out); a spreadsheet in a decimal-comma locale may have saved it with ';' or tabs;
* topic and docno are read with :func:`irlab.spreadsheet.read_back_id`: exactly the apostrophe irlab put before a
  formula start (``'+x``, ``'=SUM(1)``) or before an apostrophe of the id itself (``''quoted``) is removed, nothing
  else, so the qrels name the documents the runs retrieved; a cell a spreadsheet saved without the apostrophe is
  read as it is;
* an id is not empty, has no space or control character (a qrels line is split at spaces) and at most MAX_ID_BYTES
  bytes; a (topic, docno) given twice is an error naming both lines;
* a relevance is a whole number (negative allowed, as in qrels) of at most MAX_LINEAR_GRADE in size; one left empty
  is written -1, trec_eval's "in the pool, not judged", and counted (:attr:`JudgedList.unjudged`).

Anything else is an InputFileError naming file:line. The file holds at most MAX_JUDGING_LIST_BYTES, a line at most
MAX_LINE_BYTES, and beyond MAX_SKIPPED_LINES blank rows may not outnumber the others.
"""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass, field

from ..errors import InputFileError
from ..escape import visible_controls
from ..limits import (MAX_ID_BYTES, MAX_JUDGING_LIST_BYTES, MAX_LINE_BYTES, MAX_LINEAR_GRADE, MAX_SKIPPED_LINES,
                      read_at_most)
from ..spreadsheet import read_back_id

COLUMNS = ("topic", "docno", "relevance")
NOT_JUDGED = -1  # trec_eval: in the pool, not judged (what irlab pool's qrels-format list writes for every document)
_GRADE = re.compile(r"[+-]?[0-9]+")
_LONG_LINE = re.compile(b"(?m)^[^\n]{%d}" % (MAX_LINE_BYTES + 1))  # from a line's start: each line scanned once
_NOT_IN_AN_ID = re.compile(r"[\s\x00-\x1f\x7f-\x9f]")


@dataclass
class JudgedList:
    """The judgments of a filled-in judging list, in file order: (topic, docno, grade, line)."""

    path: str
    rows: list = field(default_factory=list)

    @property
    def unjudged(self) -> list[int]:
        """The lines whose relevance was left empty (written as -1)."""
        return [line for _, _, grade, line in self.rows if grade is None]

    def qrels(self) -> str:
        """Qrels lines ``topic 0 docno grade`` (-1 for a document not judged yet)."""
        return "".join(f"{topic} 0 {docno} {NOT_JUDGED if grade is None else grade}\n"
                       for topic, docno, grade, _ in self.rows)


def read_judging_list(path) -> JudgedList:
    """Read a filled-in judging list (see the module docstring); any problem is an InputFileError naming file:line."""
    text = _text(path)
    first_line = text.split("\n", 1)[0]
    delimiter = "," if "," in first_line else next((d for d in ";\t" if d in first_line), ",")
    reader = csv.reader(io.StringIO(text), delimiter=delimiter)
    try:
        header = [cell.strip().lower() for cell in next(reader)]
        missing = [name for name in COLUMNS if name not in header]
        if missing:
            raise InputFileError(path, 1, f"the header must name {', '.join(COLUMNS)} (irlab pool -o FILE.csv writes "
                                          f"it); {', '.join(missing)} missing in: {visible_controls(','.join(header))}")
        index = [header.index(name) for name in COLUMNS]
        judged = JudgedList(str(path))
        seen: dict = {}
        blank = 0
        for cells in reader:
            line = reader.line_num
            if not any(cell.strip() for cell in cells):
                blank += 1
                if blank > MAX_SKIPPED_LINES and blank > len(judged.rows):
                    raise InputFileError(path, line, f"{blank:,} blank rows up to here: beyond {MAX_SKIPPED_LINES:,} "
                                                     "they may not outnumber the others (irlab's limit "
                                                     "MAX_SKIPPED_LINES)")
                continue
            row = _row(path, line, cells, index)
            if row[:2] in seen:
                raise InputFileError(path, line, f"topic {row[0]} docno {visible_controls(row[1])} is judged again "
                                                 f"(first at line {seen[row[:2]]})")
            seen[row[:2]] = line
            judged.rows.append(row)
    except StopIteration:
        raise InputFileError(path, 1, f"empty file: the first line must be the header {','.join(COLUMNS)}") from None
    except csv.Error as error:
        raise InputFileError(path, reader.line_num, f"not valid CSV: {error}") from None
    if not judged.rows:
        raise InputFileError(path, None, "the judging list has no document")
    return judged


def _text(path) -> str:
    try:
        raw = read_at_most(path, MAX_JUDGING_LIST_BYTES, "MAX_JUDGING_LIST_BYTES", "a judging list")
    except FileNotFoundError:
        raise InputFileError(path, None, "no such file") from None
    except IsADirectoryError:
        raise InputFileError(path, None, "is a directory, not a judging list") from None
    long = _LONG_LINE.search(raw)  # one pass, no list of the lines
    if long:
        end = raw.find(b"\n", long.start())
        length = (len(raw) if end < 0 else end) - long.start()
        raise InputFileError(path, raw.count(b"\n", 0, long.start()) + 1,
                             f"the line has {length:,} bytes; a line has at most {MAX_LINE_BYTES:,} (irlab's limit "
                             "MAX_LINE_BYTES)")
    try:
        return io.TextIOWrapper(io.BytesIO(raw), encoding="utf-8-sig").read()  # a spreadsheet's byte-order mark dropped
    except UnicodeDecodeError as error:
        raise InputFileError(path, None, f"not UTF-8 text ({error.reason}): save the list as CSV UTF-8") from None


def _row(path, line: int, cells: list[str], index: list[int]) -> tuple:
    topic, docno, relevance = (cells[i] if i < len(cells) else "" for i in index)
    ids = []
    for name, cell in (("topic", topic), ("docno", docno)):
        value = read_back_id(cell)
        if not value:
            raise InputFileError(path, line, f"no {name}")
        if _NOT_IN_AN_ID.search(value):
            raise InputFileError(path, line, f"{name} {visible_controls(value)!r} has a space or control character; a "
                                             "qrels line is split at spaces")
        if len(value.encode("utf-8", "surrogatepass")) > MAX_ID_BYTES:
            raise InputFileError(path, line, f"the {name} has {len(value.encode('utf-8', 'surrogatepass')):,} bytes; "
                                             f"a {name} has at most {MAX_ID_BYTES} (irlab's limit MAX_ID_BYTES)")
        ids.append(value)
    grade = relevance.strip()
    if not grade:
        return ids[0], ids[1], None, line
    if not _GRADE.fullmatch(grade):
        raise InputFileError(path, line, f"relevance {visible_controls(grade[:40])!r} is not a whole number (0 not "
                                         "relevant, 1 relevant, 2 highly relevant, ...; empty: not judged yet)")
    if len(grade) > 8 or abs(int(grade)) > MAX_LINEAR_GRADE:
        raise InputFileError(path, line, f"relevance {grade[:40]} is larger than {MAX_LINEAR_GRADE:,} (irlab's limit "
                                         "MAX_LINEAR_GRADE)")
    return ids[0], ids[1], int(grade), line
