"""Who a sheet belongs to: normalised student ids, the class roster, variant codes and the class manifest.

* A student id is normalised the same way when a sheet is made and when it is graded: surrounding spaces
  dropped, inner runs of spaces made one, case folded (``" Alice "`` and ``"alice"`` are one student).
* A **variant code** (``K3F-9QX``) is printed on every sheet and answer key. It is derived with SHA-256 from the
  set's id, the normalised student id and the seed, so a sheet graded against another set, seed or student
  shows a different code. Students may copy it into an optional ``variant`` column of the answers CSV.
* The **roster** is a CSV with a header naming ``id`` (or ``student``) and optionally ``name`` and ``email``.
* The **manifest** (``manifest.json``, written by ``irlab sheet --roster FILE --out DIR``) records the set,
  its SHA-256, the seed, and every student's code and files; ``irlab grade --manifest`` reads the seed and
  the roster from it and refuses to grade answers against another set.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import re
from dataclasses import dataclass
from pathlib import Path

from ..errors import InputFileError
from ..limits import MAX_CLASS_FILE_BYTES, MAX_CSV_LINE, MAX_SKIPPED_LINES, read_at_most
from ..outputs import write_text

# Crockford's base 32: no I, L, O or U, so a code copied by hand survives (read_code maps the look-alikes)
_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
MANIFEST_VERSION = 1


def normalise_student(student) -> str:
    """The id a student is known by: spaces trimmed and collapsed, case folded.

    >>> normalise_student("  Alice  Smith ")
    'alice smith'
    """
    return " ".join(str(student).split()).casefold()


def variant_code(set_id: str, student, seed) -> str:
    """Six characters (``XXX-XXX``) that identify one student's variant of one set with one seed.

    >>> variant_code("homework-variants", "alice", "2026") == variant_code("homework-variants", " ALICE", "2026")
    True
    """
    text = "\x1f".join(["irlab-variant", str(set_id), "" if student is None else normalise_student(student),
                        "" if seed is None else str(seed)])
    number = int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest()[:4], "big") >> 2  # 30 bits
    chars = "".join(_ALPHABET[(number >> shift) & 31] for shift in range(25, -1, -5))
    return f"{chars[:3]}-{chars[3:]}"


def read_code(text: str) -> str:
    """A code as a student may have copied it (lower case, no dash, O for 0, I or L for 1) in canonical form."""
    cleaned = "".join(str(text).split()).replace("-", "").upper().translate(str.maketrans("OIL", "011"))
    return f"{cleaned[:3]}-{cleaned[3:]}" if len(cleaned) == 6 else str(text).strip()


def looks_like_email(text: str) -> bool:
    """True for ``someone@somewhere``: one '@' with text on both sides and no space (an id that is an e-mail)."""
    local, at, domain = str(text).partition("@")
    return bool(at and local and domain) and "@" not in domain and not any(c.isspace() for c in text)


@dataclass(frozen=True)
class RosterEntry:
    id: str  # as written in the roster
    name: str = ""
    email: str = ""
    line: int | None = None
    # the institution's student id (Canvas's SIS User ID, Moodle's ID number) when an LMS's list says it ("" when it
    # has none); None for irlab's own roster, whose id is that id unless it is an e-mail (institution_id)
    sis_id: str | None = None
    canvas_id: str = ""  # Canvas's own user id (its gradebook's ID column), when the list came from Canvas

    @property
    def key(self) -> str:
        return normalise_student(self.id)

    @property
    def institution_id(self) -> str:
        """What a gradebook's SIS User ID / ID number column holds for this student: never a Canvas id or an e-mail."""
        if self.sis_id is not None:
            return self.sis_id
        return "" if looks_like_email(self.id) else self.id

    @property
    def email_address(self) -> str:
        """The student's e-mail: the list's, else the id when the id is one."""
        return self.email or (self.id if looks_like_email(self.id) else "")


def read_csv_text(path: Path) -> str:
    """A class file's text (UTF-8, a spreadsheet's byte-order mark dropped); a missing or undecodable file is an
    InputFileError naming it.  A file of more than MAX_CLASS_FILE_BYTES, or with a line of more than MAX_CSV_LINE
    characters, is refused before the CSV is parsed (irlab/limits.py)."""
    try:
        raw = read_at_most(path, MAX_CLASS_FILE_BYTES, "MAX_CLASS_FILE_BYTES", "a class CSV")
        text = io.TextIOWrapper(io.BytesIO(raw), encoding="utf-8-sig").read()  # newlines as read_text reads them
    except FileNotFoundError:
        raise InputFileError(path, None, "no such file") from None
    except UnicodeDecodeError as error:
        raise InputFileError(path, None, f"not UTF-8 text ({error.reason})") from None
    start = _first_long_line(text)
    if start is not None:
        end = text.find("\n", start)
        length = (len(text) if end < 0 else end) - start
        raise InputFileError(path, text.count("\n", 0, start) + 1, f"the line has {length:,} characters; a line of a "
                                                                   f"class CSV has at most {MAX_CSV_LINE:,} (irlab's "
                                                                   "limit MAX_CSV_LINE)")
    return text


def _first_long_line(text: str) -> int | None:
    """Where the first line of more than MAX_CSV_LINE characters starts, or None. Looks for the last line break
    in each window of MAX_CSV_LINE + 1 characters instead of splitting the text into lines: a file of millions of
    short (or blank) lines is checked in as many steps as it has windows, with no list of its lines."""
    window, start = MAX_CSV_LINE + 1, 0
    while len(text) - start >= window:
        newline = text.rfind("\n", start, start + window)
        if newline < 0:  # no line break in the window: the line that starts here is too long
            return start
        start = newline + 1  # every line before it fits in the window
    return None


_LINE = re.compile(r".*\n|.+")  # a line of a class CSV's text and its line break (the last may have none)


def csv_reader(text: str):
    """A csv.reader over a class CSV's text (as read_csv_text reads it), its delimiter found by csv_delimiter.

    It is given the text a line at a time, as ``io.StringIO(text)`` would, without StringIO's copy of the whole text
    at four bytes a character (240 MB for a header and 60 million blank lines, most of which are never read)."""
    return csv.reader(map(re.Match.group, _LINE.finditer(text)), delimiter=csv_delimiter(text))


def csv_delimiter(text: str) -> str:
    """',' unless the header line has none and uses ';' or a tab (spreadsheets in decimal-comma locales)."""
    first = text.split("\n", 1)[0]
    if "," not in first:
        for candidate in (";", "\t"):
            if candidate in first:
                return candidate
    return ","


def _csv_rows(reader, path):
    """The rows of a csv.reader; what it cannot read (a field over its 131,072 characters) an InputFileError."""
    try:
        yield from reader
    except csv.Error as error:
        raise InputFileError(path, reader.line_num, f"not valid CSV: {error}") from None


def data_rows(reader, path):
    """(line, cells) of each row of a class CSV's ``reader`` (after its header) with a non-blank cell, in order.

    Blank rows (no cell but spaces: an empty line, ``,,,``) are skipped, as TREC files' blank lines are, with their
    bound: beyond MAX_SKIPPED_LINES they may not outnumber the other rows, so a file that is mostly blank (a header
    and 60 million empty lines) is refused at the first row that shows it, within a second, instead of being read to
    the end. What the csv module cannot read (a field over its 131,072 characters) is an InputFileError too."""
    blank = data = 0
    for cells in _csv_rows(reader, path):
        if any(map(str.strip, cells)):  # a cell with more than spaces
            data += 1
            yield reader.line_num, cells
            continue
        blank += 1
        if blank > MAX_SKIPPED_LINES and blank > data:
            raise InputFileError(path, reader.line_num, f"{blank:,} blank rows up to here and {data:,} rows with a "
                                                        f"value: beyond {MAX_SKIPPED_LINES:,}, blank rows may not "
                                                        "outnumber the others (irlab's limit MAX_SKIPPED_LINES; a "
                                                        "class CSV is not mostly blank)")


def read_roster(path) -> list[RosterEntry]:
    """Read a roster CSV (``id`` or ``student``; optional ``name``, ``email``); duplicates after normalising are an
    error naming both lines."""
    path = Path(path)
    text = read_csv_text(path)
    reader = csv_reader(text)
    try:
        header = [cell.strip().lower() for cell in next(_csv_rows(reader, path))]
    except StopIteration:
        raise InputFileError(path, 1, "empty roster: the first line must be a header naming id (and name, email)") from None
    lms = _lms_roster(header)
    if lms is not None:
        return _read_lms_roster(path, reader, header, *lms)
    column = "id" if "id" in header else "student" if "student" in header else None
    if column is None:
        raise InputFileError(path, 1, f"the roster's header must name an 'id' (or 'student') column (found: {', '.join(header)})")
    wanted = (column, "name", "email")
    width = len(header)

    def entry(cell, cells, line):
        if len(cells) > width:
            raise InputFileError(path, line, f"the row has {len(cells)} fields but the header has {width}")
        made = RosterEntry(cell(column), cell("name"), cell("email"), line)
        if not made.key:
            raise InputFileError(path, line, "no student id")
        return made

    return _entries(path, reader, header, wanted, entry)


def _entries(path, reader, header, wanted, entry) -> list[RosterEntry]:
    """The roster's students, one per non-blank row: ``entry(cell, cells, line)`` makes a row's RosterEntry (None
    skips a row that is not a student), ``cell(name)`` reading the column named ``name`` (one of ``wanted``). Two
    rows of one student (ids compared ignoring case and spaces) are an InputFileError naming both lines."""
    index = {name: header.index(name) for name in wanted if name in header}
    entries: list[RosterEntry] = []
    seen: dict[str, RosterEntry] = {}
    for line, cells in data_rows(reader, path):

        def cell(name):
            i = index.get(name)
            return cells[i].strip() if i is not None and i < len(cells) else ""

        made = entry(cell, cells, line)
        if made is None:
            continue
        if made.key in seen:
            other = seen[made.key]
            raise InputFileError(path, line, f"student {made.id!r} is already on the roster at line {other.line} "
                                             f"(as {other.id!r}; ids are compared ignoring case and spaces)")
        seen[made.key] = made
        entries.append(made)
    if not entries:
        raise InputFileError(path, None, "the roster lists no student")
    return entries


# An LMS's own class list read as a roster, with the ids irlab.lms.responses gives the same students: Canvas's
# gradebook export ("Student", "ID", "SIS User ID", "SIS Login ID", "Section", …, a "Points Possible" row under the
# header) by SIS user id, else Canvas id; Moodle's participants or grader export ("First name", "Last name" or
# "Surname", "Email address", …) by e-mail, else ID number or username.
_CANVAS_ROSTER = (("sis user id", "id"), ("student",), ("sis login id",))  # id (first non-empty), name, e-mail
_MOODLE_ROSTER = (("email address", "id number", "username"), ("first name", "last name", "surname"), ("email address",))
_CANVAS_NOT_STUDENTS = ("points possible", "manual posting")


def _lms_roster(header: list[str]):
    if all(name in header for name in ("student", "id", "sis user id")):
        return _CANVAS_ROSTER, True
    if "email address" in header and "first name" in header and ("last name" in header or "surname" in header):
        return _MOODLE_ROSTER, False
    return None


def _read_lms_roster(path, reader, header, columns, canvas: bool) -> list[RosterEntry]:
    ids, names, emails = columns

    def entry(cell, cells, line):
        if canvas and (cell("student").casefold() in _CANVAS_NOT_STUDENTS or not (cell("id") or cell("student"))):
            return None  # the gradebook's points-possible (or posting-policy) row under the header
        student = next((cell(name) for name in ids if cell(name)), "")
        name = cell("student") if canvas else " ".join(cell(n) for n in names if cell(n))
        email = next((cell(n) for n in emails if "@" in cell(n)), "")
        made = RosterEntry(student, name, email, line, sis_id=cell("sis user id" if canvas else "id number"),
                           canvas_id=cell("id") if canvas else "")
        if not made.key:
            raise InputFileError(path, line, f"no student id ({' or '.join(repr(n) for n in ids)})")
        return made

    return _entries(path, reader, header, [name for names in columns for name in names], entry)


def file_digest(path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


# Windows (so also OneDrive, SharePoint and a USB stick a class folder is copied to) refuses a file named after one of
# its devices, in any case, whatever follows the name's first dot ("CON.txt", "nul.tar.gz"), trailing dots and spaces
# ignored ("CON .txt"); COM and LPT with 0-9 or the superscripts ¹²³ (Microsoft's "Naming Files, Paths, and
# Namespaces"). safe_name has made spaces '_' already, so the part before the first dot is compared as it is.
_WINDOWS_DEVICE = re.compile(r"CON|PRN|AUX|NUL|(COM|LPT)[0-9\u00b9\u00b2\u00b3]", re.IGNORECASE)


def safe_name(student: str) -> str:
    """A file name for a student's sheet: letters, digits, '-', '_' and '.' kept, anything else '_', no dot first
    or last; a Windows device name gets a '_' after it (``CON`` -> ``CON_``, ``nul.x`` -> ``nul_.x``). The same id
    always gives the same name; ids that give one name are caught by write_class_sheets' collision check.

    >>> [safe_name(s) for s in ("s001", "a b/c", "..x..", "CON", "lpt9.v2", "COM\u00b9", "CONSOLE")]
    ['s001', 'a_b_c', 'x', 'CON_', 'lpt9_.v2', 'COM\u00b9_', 'CONSOLE']
    """
    name = "".join(c if c.isalnum() or c in "-_." else "_" for c in student.strip())
    name = name.strip(".") or "student"
    device, dot, rest = name.partition(".")
    return f"{device}_{dot}{rest}" if _WINDOWS_DEVICE.fullmatch(device) else name


@dataclass(frozen=True)
class Manifest:
    path: Path
    set_id: str
    set_file: str
    set_sha256: str
    seed: str | None
    roster: list[RosterEntry]
    codes: dict  # normalised id -> code

    def check_set(self, set_id: str, set_file) -> str | None:
        """Raise when the manifest was written for another set; a note when the set's file changed since."""
        if set_id != self.set_id:
            raise InputFileError(self.path, None, f"these sheets were made from set {self.set_id!r} ({self.set_file}), "
                                                  f"not from {set_id!r} ({set_file}): grade the answers against "
                                                  f"{self.set_file}")
        if file_digest(set_file) != self.set_sha256:
            return (f"{set_file} has changed since the sheets were made ({self.path}); check that the variants "
                    "did not change")
        return None


def write_manifest(path, set_id: str, set_file, seed, roster: list[RosterEntry], files: dict,
                   class_files: dict | None = None, refused: dict | None = None) -> Path:
    """The class manifest: the set (and its SHA-256), the seed, every student's variant code and files, and
    ``class_files`` (the merged class PDFs and their sources) when there are any; ``refused``: per student (by
    roster key), the draws refused before each exercise's variant ({exercise id: count}) and their total."""
    path = Path(path)
    refused = refused or {}
    data = {"irlab_manifest": MANIFEST_VERSION, "set": set_id, "file": str(set_file), "sha256": file_digest(set_file),
            "seed": None if seed is None else str(seed),
            "students": [{"id": e.id, "name": e.name, "email": e.email, **_lms_ids(e),
                          "code": variant_code(set_id, e.id, seed),
                          **files.get(e.key, {}),
                          **({"refused_draws": refused[e.key]} if e.key in refused else {})} for e in roster]}
    if refused:
        data["refused_draws_total"] = sum(sum(counts.values()) for counts in refused.values())
    if class_files:
        data["class"] = dict(class_files)
    return write_text(path, json.dumps(data, indent=2, ensure_ascii=False) + "\n")  # whole, never through a link


def _lms_ids(entry: RosterEntry) -> dict:
    """The LMS ids of a roster read from an LMS's class list, kept in the manifest so that grading with it fills the
    gradebooks' ID and SIS columns as the roster would (none for irlab's own roster)."""
    ids = {} if entry.sis_id is None else {"sis_id": entry.sis_id}
    return {**ids, "canvas_id": entry.canvas_id} if entry.canvas_id else ids


def read_manifest(path) -> Manifest:
    path = Path(path)
    if path.is_dir():
        path = path / "manifest.json"
    try:
        data = json.loads(read_at_most(path, MAX_CLASS_FILE_BYTES, "MAX_CLASS_FILE_BYTES", "a class manifest")
                          .decode("utf-8"))
    except FileNotFoundError:
        raise InputFileError(path, None, "no such file (irlab sheet --roster FILE --out DIR writes DIR/manifest.json)") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        raise InputFileError(path, None, f"not a manifest written by irlab sheet ({error})") from None
    except RecursionError:  # arrays nested deeper than Python's JSON reader follows; irlab's nest three levels
        raise InputFileError(path, None, "not a manifest written by irlab sheet (nested too deeply)") from None
    if not isinstance(data, dict) or data.get("irlab_manifest") != MANIFEST_VERSION or \
            not isinstance(data.get("students"), list):
        raise InputFileError(path, None, "not a manifest written by irlab sheet --roster FILE --out DIR")
    try:
        roster = [RosterEntry(str(s["id"]), str(s.get("name", "")), str(s.get("email", "")),
                              sis_id=None if s.get("sis_id") is None else str(s["sis_id"]),
                              canvas_id=str(s.get("canvas_id", ""))) for s in data["students"]]
        codes = {normalise_student(s["id"]): str(s["code"]) for s in data["students"]}
        return Manifest(path, str(data["set"]), str(data["file"]), str(data["sha256"]),
                        None if data.get("seed") is None else str(data["seed"]), roster, codes)
    except (KeyError, TypeError) as error:
        raise InputFileError(path, None, f"not a manifest written by irlab sheet (missing {error})") from None
