"""Reading a student's output: untrusted, so bounded, and never a traceback — every line that does not fit the
declared layout becomes a :class:`Problem` naming file:line, and every cell that can be read is kept.

Cells are keyed ``(system, topic, column)``; ``topic`` None is the system's mean row.
"""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path

from ..limits import MAX_CSV_LINE, MAX_SUBMISSION_BYTES, MAX_SUBMISSION_PROBLEMS
from .spec import Assignment

_DECIMAL = re.compile(r"[+-]?(?:[0-9]{1,30}(?:\.[0-9]{0,30})?|\.[0-9]{1,30})(?:[eE][+-]?[0-9]{1,3})?")


@dataclass(frozen=True)
class Problem:
    file: str
    line: int | None
    text: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: {self.text}" if self.line else f"{self.file}: {self.text}"


@dataclass(frozen=True)
class Given:
    value: Fraction
    text: str  # as written
    file: str
    line: int


@dataclass
class Submission:
    cells: dict = field(default_factory=dict)  # (system, topic | None, column) -> Given
    problems: list = field(default_factory=list)
    problem_count: int = 0  # all of them; ``problems`` keeps the first MAX_SUBMISSION_PROBLEMS

    def problem(self, file, line, text) -> None:
        self.problem_count += 1
        if len(self.problems) < MAX_SUBMISSION_PROBLEMS:
            self.problems.append(Problem(str(file), line, text))


def _clip(text: str, width: int = 40) -> str:
    text = text.replace("\n", " ")
    return text if len(text) <= width else text[:width] + "…"


def _read_text(path: Path, sub: Submission) -> str | None:
    try:
        with open(path, "rb") as handle:
            data = handle.read(MAX_SUBMISSION_BYTES + 1)
    except OSError as error:
        sub.problem(path, None, f"cannot be read: {error.strerror or error}")
        return None
    if len(data) > MAX_SUBMISSION_BYTES:
        sub.problem(path, None, f"more than {MAX_SUBMISSION_BYTES:,} bytes (irlab's limit MAX_SUBMISSION_BYTES): "
                                "only the first part is read")
        data = data[:MAX_SUBMISSION_BYTES].rsplit(b"\n", 1)[0]
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = data[: error.start].count(b"\n") + 1
        sub.problem(path, line, f"not UTF-8 text (byte 0x{data[error.start]:02x}); the bytes that are not are "
                                "read as U+FFFD")
        return data.decode("utf-8-sig", errors="replace")


def _lines(text: str, path: Path, sub: Submission):
    """(line number, line) of the text, a line longer than MAX_CSV_LINE reported and skipped."""
    for number, line in enumerate(text.splitlines(), 1):
        if len(line) > MAX_CSV_LINE:
            sub.problem(path, number, f"a line of more than {MAX_CSV_LINE:,} characters (irlab's limit MAX_CSV_LINE)")
            continue
        yield number, line


def _number(text: str, path, number: int, what: str, sub: Submission) -> Fraction | None:
    stripped = text.strip()
    if not _DECIMAL.fullmatch(stripped):
        sub.problem(path, number, f"{what}: {_clip(stripped)!r} is not a decimal number")
        return None
    return Fraction(stripped)


def _keep(sub: Submission, key, given: Given, path, number: int) -> None:
    if key in sub.cells:
        first = sub.cells[key]
        sub.problem(path, number, f"a second value for {_cell_name(key)} (line {first.line} gave one): the first is "
                                  "graded")
        return
    sub.cells[key] = given


def _cell_name(key) -> str:
    system, topic, column = key
    return f"system {system}, {'the mean' if topic is None else f'topic {topic}'}, {column}"


def find_file(root: Path, name: str) -> Path | None:
    """``root`` itself when it is a file, else ``root/name``, else the one file named ``name`` below it."""
    if root.is_file():
        return root
    if (root / name).is_file():
        return root / name
    found = sorted(p for p in root.rglob(name) if p.is_file()) if root.is_dir() else []
    return found[0] if found else None


def read_csv(assignment: Assignment, root: Path) -> Submission:
    sub = Submission()
    path = find_file(root, assignment.submission)
    if path is None:
        sub.problem(root, None, f"no file {assignment.submission} in the submission")
        return sub
    text = _read_text(path, sub)
    if text is None:
        return sub
    rows = ((n, line) for n, line in _lines(text, path, sub) if line.strip())
    header_line = next(rows, None)
    if header_line is None:
        sub.problem(path, None, "the file is empty")
        return sub
    header = [cell.strip() for cell in next(csv.reader(io.StringIO(header_line[1])))]
    wanted = [assignment.system_column, assignment.topic_column] + [m.column for m in assignment.measures]
    missing = [c for c in wanted if c not in header]
    if missing:
        sub.problem(path, header_line[0], f"the header should be {','.join(wanted)}; {', '.join(missing)} "
                                          f"{'is' if len(missing) == 1 else 'are'} missing (found {_clip(header_line[1], 80)!r})")
    if assignment.system_column not in header or assignment.topic_column not in header:
        return sub
    at = {c: header.index(c) for c in wanted if c in header}
    systems = set(assignment.collection.systems)
    topics = set(assignment.collection.topics)
    for number, line in rows:
        try:
            cells = next(csv.reader(io.StringIO(line)))
        except csv.Error as error:
            sub.problem(path, number, f"not a CSV row: {error}")
            continue
        if len(cells) != len(header):
            sub.problem(path, number, f"{len(cells)} fields where the header has {len(header)}")
            if len(cells) < len(header):
                continue
        system, topic = cells[at[assignment.system_column]].strip(), cells[at[assignment.topic_column]].strip()
        if system not in systems:
            sub.problem(path, number, f"unknown system {_clip(system)!r}; the systems are {', '.join(sorted(systems))}")
            continue
        if topic != assignment.mean_label and topic not in topics:
            sub.problem(path, number, f"unknown {assignment.topic_column} {_clip(topic)!r} (the judged topics, or "
                                      f"{assignment.mean_label!r} for the mean)")
            continue
        for measure in assignment.measures:
            if measure.column not in at:
                continue
            raw = cells[at[measure.column]]
            value = _number(raw, path, number, measure.column, sub)
            if value is not None:
                key = (system, None if topic == assignment.mean_label else topic, measure.column)
                _keep(sub, key, Given(value, raw.strip(), str(path), number), path, number)
    return sub


def read_trec_eval(assignment: Assignment, root: Path) -> Submission:
    """One file per system, trec_eval -q lines 'measure topic value' (tabs or spaces); undeclared measures (runid,
    num_q, …) are skipped."""
    sub = Submission()
    columns = {m.column for m in assignment.measures}
    topics = set(assignment.collection.topics)
    single = root.is_file() and len(assignment.collection.systems) == 1
    for system in assignment.collection.systems:
        name = assignment.submission.replace("{system}", system)
        path = root if single else find_file(root, name) if root.is_dir() else None
        if path is None:
            sub.problem(root, None, f"no file {name} (system {system}) in the submission")
            continue
        text = _read_text(path, sub)
        if text is None:
            continue
        for number, line in _lines(text, path, sub):
            fields = line.split()
            if not fields:
                continue
            if len(fields) != 3:
                sub.problem(path, number, f"{len(fields)} fields where trec_eval -q writes 3 (measure, topic, value)")
                continue
            measure, topic, raw = fields
            if measure not in columns:
                continue
            if topic != assignment.mean_label and topic not in topics:
                sub.problem(path, number, f"unknown topic {_clip(topic)!r} (the judged topics, or "
                                          f"{assignment.mean_label!r} for the mean)")
                continue
            value = _number(raw, path, number, measure, sub)
            if value is not None:
                key = (system, None if topic == assignment.mean_label else topic, measure)
                _keep(sub, key, Given(value, raw, str(path), number), path, number)
    return sub


def read_submission(assignment: Assignment, root) -> Submission:
    """Every cell of the student's output that can be read, and the problems of the rest."""
    root = Path(root)
    if not root.exists():
        sub = Submission()
        sub.problem(root, None, "no such file or directory")
        return sub
    return (read_csv if assignment.layout == "csv" else read_trec_eval)(assignment, root)
