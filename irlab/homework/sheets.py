"""Sheets and answer keys written to files: one student's printable sheet and key, or a whole class's directory.

:func:`write_class_sheets` writes a sheet and a key per roster student and the class manifest that
``irlab grade --manifest`` reads; :func:`write_student_printables` writes one student's sheet and key as PDF and/or
HTML, both or neither. Every path is checked before anything is written (:mod:`irlab.outputs`).
"""

from __future__ import annotations

import json
from pathlib import Path

from ..document import answers_only
from ..errors import InputFileError, OutputFileError
from ..limits import MAX_CLASS_FILE_BYTES, read_at_most
from ..outputs import NAME_MAX, check_outputs, folded, write_text
from ..printable import write_printables
from .drawing import variant_set
from .identity import read_roster, safe_name, write_manifest
from .variants import answer_key_document, sheet_document

EXTENSIONS = {"text": "txt", "markdown": "md", "latex": "tex", "html": "html", "json": "json"}


def key_path(path) -> Path:
    """The answer key's file beside the sheet's: sheet.pdf -> sheet-key.pdf."""
    path = Path(path)
    return path.with_name(f"{path.stem}-key{path.suffix}")


def write_student_printables(set_file, student, seed=None, exercise: str | None = None, pdf=None, html=None,
                             brief: bool = False) -> list[str]:
    """The student's sheet as ``pdf`` and/or ``html`` and, beside each, its answer key (``key_path``; ``brief``: the
    answers without the working): both are written, or neither. Returns the lines that say what was written."""
    sheet = sheet_document(set_file, student, seed, exercise)
    key = answer_key_document(set_file, student, seed, exercise)
    if brief:
        key = answers_only(key)
    paths = [Path(p) for p in (pdf, html) if p]
    paths += [p.with_suffix(".tex") for p in paths if p.suffix.lower() == ".pdf"]
    existed = {str(p) for p in paths if p.exists()}
    written, said = write_printables(sheet, pdf, html, announce=False)
    try:
        _, said_too = write_printables(key, pdf and key_path(pdf), html and key_path(html), announce=False)
    except BaseException:  # both or neither: a sheet without its key is not handed out by mistake
        for path in written:
            if str(path) not in existed:
                Path(path).unlink(missing_ok=True)
        raise
    return said + said_too


def write_class_sheets(set_file, roster_file, out, seed=None, fmt: str = "text", exercise: str | None = None,
                       brief: bool = False) -> tuple[int, Path]:
    """Every roster student's sheet and answer key in the directory ``out`` (``brief``: keys of the answers without
    the working), and ``out/manifest.json``; returns the number of students and the manifest's path.

    Every file name is decided and checked first (no two students' files one file, ignoring case; none the
    manifest; none an input; none a link; none a file of ``out`` that an earlier run's manifest does not list),
    every document is rendered, and only then is anything written, each file whole (outputs.write_file)."""
    roster = read_roster(roster_file)
    out = Path(out)
    if out.exists() and not out.is_dir():
        raise OutputFileError(out, "it is not a directory (--out names the directory for the class's sheets)")
    files = _class_file_names(roster, EXTENSIONS[fmt], roster_file)
    planned = [(f"the {_KINDS[kind]} of {entry.id!r}", out / files[entry.key][kind]) for entry in roster
               for kind in _KINDS]
    check_outputs([("the exercise set", set_file), ("the --roster file", roster_file)],
                  planned + [("the class manifest", out / MANIFEST_NAME)])
    _check_earlier_files(out, [path for _, path in planned])

    def key_document(*student):  # --answers-only: every key of the class lists the answers without the working
        key = answer_key_document(*student)
        return answers_only(key) if brief else key

    texts = [make(set_file, entry.id, seed, exercise).render(fmt, standalone=True)
             for entry in roster for make in (sheet_document, key_document)]
    _make_directory(out)
    for (_, path), text in zip(planned, texts):
        write_text(path, text)
    set_id = variant_set(set_file).id
    manifest = write_manifest(out / MANIFEST_NAME, set_id, set_file, seed, roster, files)
    return len(roster), manifest


MANIFEST_NAME = "manifest.json"
_KINDS = {"sheet": "sheet", "key": "answer key"}  # the files of one student, in the order they are written


def _class_file_names(roster, extension: str, roster_path) -> dict:
    """Each student's file names, {normalised id: {"sheet": "s1.html", "key": "s1-key.html"}}. Two students whose
    files would be one file (compared ignoring case, as Windows and macOS do), a file named like the class manifest
    or a name too long for a file system is an InputFileError on the roster naming both ids and the file."""

    taken = {folded(MANIFEST_NAME): None}
    files = {}
    for entry in roster:
        stem = safe_name(entry.id)
        names = {"sheet": f"{stem}.{extension}", "key": f"{stem}-key.{extension}"}
        for kind, name in names.items():
            mine = f"the {_KINDS[kind]} of {entry.id!r}"
            if len(name.encode("utf-8")) > NAME_MAX:
                raise InputFileError(roster_path, entry.line, f"the roster id makes a file name of "
                                     f"{len(name.encode('utf-8'))} bytes ({name[:40]}…); file systems allow "
                                     f"{NAME_MAX}: give the student a shorter id")
            if folded(name) not in taken:
                taken[folded(name)] = (entry, mine)
                continue
            if taken[folded(name)] is None:
                raise InputFileError(roster_path, entry.line, f"roster id {entry.id!r} would write {name} "
                                     f"({mine}), the class manifest's file that irlab grade --manifest reads: "
                                     "give the student another id")
            other, theirs = taken[folded(name)]
            raise InputFileError(roster_path, entry.line, f"roster ids {other.id!r} (line {other.line}) and "
                                 f"{entry.id!r} (line {entry.line}) both make the file {name} ({theirs} and {mine}; "
                                 "file names are compared ignoring case, after characters other than letters, digits, "
                                 "'-', '_' and '.' become '_'): give one of them another id")
        files[entry.key] = names
    return files


def _check_earlier_files(out: Path, paths) -> None:
    """DIR may hold an earlier run's sheets: the files its manifest lists are replaced; any other existing file at
    a sheet's path (or a manifest.json not written by irlab) is someone else's and is an OutputFileError."""
    earlier = _earlier_sheets(out / MANIFEST_NAME)
    for path in paths:
        if path.exists() and folded(path.name) not in earlier:
            raise OutputFileError(path, f"the file exists and is not a sheet that {out / MANIFEST_NAME} lists from an "
                                        "earlier irlab sheet run; move it or choose another --out")


def _earlier_sheets(manifest: Path) -> set:
    """The file names (folded) of the sheets and keys an earlier run's manifest lists; none when there is none."""


    if not manifest.exists() or manifest.is_symlink():  # a link is refused with its name by check_outputs
        return set()
    try:
        data = json.loads(read_at_most(manifest, MAX_CLASS_FILE_BYTES, "MAX_CLASS_FILE_BYTES", "a class manifest")
                          .decode("utf-8"))
        students = data["students"] if isinstance(data, dict) and "irlab_manifest" in data else None
        names = {folded(s[kind]) for s in students for kind in _KINDS if isinstance(s.get(kind), str)}
    except (OSError, ValueError, KeyError, TypeError, AttributeError, RecursionError):  # too large, too deep: not one
        students = None
    if students is None:
        raise OutputFileError(manifest, "the file exists and is not a class manifest written by irlab sheet; move "
                                        "it or choose another --out")
    return names


def _make_directory(out: Path) -> None:

    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise OutputFileError(out, "it is not a directory" if out.exists() else error.strerror or str(error)) from None
