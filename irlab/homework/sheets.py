"""Sheets and answer keys written to files: one student's printable sheet and key, or a whole class's directory.

:func:`write_class_sheets` writes a sheet and a key per roster student and the class manifest that
``irlab grade --manifest`` reads; :func:`write_student_printables` writes one student's sheet and key as PDF and/or
HTML, both or neither. Every path is checked before anything is written (:mod:`irlab.outputs`).
"""

from __future__ import annotations

import gc
import json
from contextlib import contextmanager
from pathlib import Path

from ..document import answers_only
from ..errors import InputFileError, OutputFileError
from ..limits import MAX_CLASS_FILE_BYTES, read_at_most
from ..outputs import NAME_MAX, check_outputs, folded, write_files
from ..printable import (compile_parts, compile_pdf, cut_pages, latex_files, parts_figures, parts_latex,
                         write_printables)
from .ahead import worked_ahead
from .drawing import variant_set
from .identity import read_roster, safe_name, variant_code, write_manifest
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

    ``fmt`` "pdf": each student's sheet and key as PDF (their LaTeX sources beside them), and the whole class in
    two PDFs ready to print, class-sheets.pdf and class-keys.pdf (sources beside them, the manifest lists them
    under "class"): every student's sheet starts on an odd page (a blank page pads a sheet of an odd number of
    pages, so printed on both sides no sheet of paper holds two students' pages), its pages numbered from 1 under a
    running header with the student's name, id and variant code. pdflatex makes every PDF before any file is
    written.

    Every file name is decided and checked first (no two students' files one file, ignoring case; none the
    manifest or a class file; none an input; none a link; none a file of ``out`` that an earlier run's manifest
    does not list), every document is rendered, and only then is anything written: every file whole, and all of
    them or none (outputs.write_files); the manifest last, so that a failure (a full disk, a name the file system
    refuses, Ctrl-C) removes the files this run added and leaves the earlier manifest, and a rerun works."""
    roster = read_roster(roster_file)
    out = Path(out)
    if out.exists() and not out.is_dir():
        raise OutputFileError(out, "it is not a directory (--out names the directory for the class's sheets)")
    pdf = fmt == "pdf"
    files = _class_file_names(roster, EXTENSIONS.get(fmt, fmt), roster_file, pdf)
    planned = [(f"the {_KINDS[kind]} of {entry.id!r}", out / files[entry.key][kind]) for entry in roster
               for kind in _KINDS if kind in files[entry.key]]
    class_files = {kind: out / name for kind, name in CLASS_FILES.items()} if pdf else {}
    planned += [(f"the class's {_CLASS_KINDS[kind]}", path) for kind, path in class_files.items()]
    check_outputs([("the exercise set", set_file), ("the --roster file", roster_file)],
                  planned + [("the class manifest", out / MANIFEST_NAME)])
    _check_earlier_files(out, [path for _, path in planned])

    def key_document(*student):  # --answers-only: every key of the class lists the answers without the working
        key = answer_key_document(*student)
        return answers_only(key) if brief else key

    with_variants = any(e.variants for e in variant_set(set_file).exercises)

    def student_files(entry):
        """(draws refused per exercise or None, [sheet, key]): documents for PDF, else their bytes."""
        refused = _refused_counts(variant_set(set_file, entry.id, seed)) if with_variants else None
        made = [make(set_file, entry.id, seed, exercise) for make in (sheet_document, key_document)]
        return refused, made if pdf else [document.render(fmt, standalone=True).encode("utf-8") for document in made]

    # a worker process may make the next students' files as bytes (not for PDF: its documents are compiled together)
    by_key = {entry.key: entry for entry in roster}
    ahead_of = worked_ahead([] if pdf else list(by_key), lambda key: student_files(by_key[key]), _MIN_STUDENTS_AHEAD)
    with _collecting_less(), ahead_of as ahead:
        made, refused = [], {}
        for entry in roster:  # each student's variant drawn once here: the sheet and the key find it drawn
            counts, sheet_and_key = ahead.take(entry.key) or student_files(entry)
            if with_variants:
                refused[entry.key] = counts
            made += [(entry, item) for item in sheet_and_key]
        set_id = variant_set(set_file).id
        if pdf:
            contents = _class_pdfs(made, set_id, seed, planned)
        else:
            contents = [(path, text) for (_, path), (_, text) in zip(planned, made)]
    files_written = _flat_files(contents)
    created = [path for path, _ in files_written if not path.exists()]  # what a failure removes again
    made_out = not out.exists()
    _make_directory(out)
    try:  # a class is written whole or not at all, the manifest last
        write_files(files_written)
        # with the class files too, so that a later run replaces them and a reader finds them
        manifest = write_manifest(out / MANIFEST_NAME, set_id, set_file, seed, roster, files,
                                  CLASS_FILES if pdf else None, refused)
    except BaseException:  # the files this run added are removed; those it replaced are the ones the earlier
        _remove(created, out if made_out else None)  # manifest lists, so a rerun writes the class again
        raise
    return len(roster), manifest


# A class of this many students or more is shared with a worker process on a second core (irlab.homework.ahead):
# a student's sheet and key take some 40 ms, starting the worker a few.
_MIN_STUDENTS_AHEAD = 8


# Python's cyclic collector runs after every 700 new container objects and rescans those that survived, and a
# class's documents are all held until they are written: for 200 students the collector took 1.9 s of 11 s
# (measured with gc.callbacks), 0.7 s with young collections 70 times rarer. The thresholds are restored after.
_CLASS_COLLECTION_THRESHOLD = 50_000


@contextmanager
def _collecting_less():
    thresholds = gc.get_threshold()
    gc.set_threshold(max(thresholds[0], _CLASS_COLLECTION_THRESHOLD), *thresholds[1:])
    try:
        yield
    finally:
        gc.set_threshold(*thresholds)


def _refused_counts(drawn) -> dict:
    """{exercise id: draws refused before its variant} of a student's variant set, for each exercise with variants
    (irlab.homework.drawing): the manifest lists them per student when the set has variants."""
    return {e.id: len(e.refused_draws) for e in drawn.exercises if e.variants}


NAME_SHOWN = 40  # characters of a roster name in the running header, which keeps the id and code on one line


def _header(entry, kind: str, set_id: str, seed) -> str:
    """The running header of a student's pages: whose they are (roster name, id) and the variant code."""
    name = entry.name if len(entry.name) <= NAME_SHOWN else entry.name[:NAME_SHOWN - 3].rstrip() + "..."
    who = f"{name} ({entry.id})" if name else entry.id
    code = variant_code(set_id, entry.id, seed)
    return f"{who}, variant code {code}" if kind == "sheet" else f"Answer key of {who}, variant code {code}"


def _class_pdfs(documents, set_id: str, seed, planned) -> list:
    """(path, bytes or (LaTeX source, figures)) of every file of a class in PDF, all made before anything is
    written: the class's sheets and its keys, one LaTeX run each, and each student's sheet and key cut from those
    (printable.cut_pages: the pages a run of its own makes; one run each without qpdf, as LuaLaTeX takes seconds a
    run). A character that no installed font has is named on stderr once, with the student whose sheet holds it."""
    kinds = ["sheet", "key"] * (len(documents) // 2)
    parts = [(document, _header(entry, kind, set_id, seed)) for (entry, document), kind in zip(documents, kinds)]
    whose = [f"the {_KINDS[kind]} of " + (f"{entry.name} ({entry.id})" if entry.name else entry.id)
             for (entry, _), kind in zip(documents, kinds)]
    per_student = [path for _, path in planned[:-len(CLASS_FILES)]]  # sheet, key, sheet source, key source
    class_files = [path for _, path in planned[-len(CLASS_FILES):]]  # sheets, keys, their sources
    contents, warned = [], set()
    for kind in (0, 1):
        chosen = parts[kind::2]
        source, figures = parts_latex(chosen), parts_figures(chosen)
        whole, pages = compile_parts(source, figures, class_files[2 + kind], whose[kind::2], warned)
        contents += [(class_files[2 + kind], (source, figures)), (class_files[kind], whole)]
        if len(pages) != len(chosen):  # the log did not say where every part is: each compiled on its own
            pages = [None] * len(chosen)
        for student, (part, span) in enumerate(zip(chosen, pages)):
            pdf_path, tex_path = per_student[4 * student + kind], per_student[4 * student + 2 + kind]
            own, own_figures = parts_latex([part]), parts_figures([part])
            cut = cut_pages(whole, *span) if span else None
            if cut is None:
                cut = compile_pdf(own, own_figures, tex_path, written=False, whose=[(whose[2 * student + kind], own)],
                                  warned=warned)
            contents += [(tex_path, (own, own_figures)), (pdf_path, cut)]
    return contents


MANIFEST_NAME = "manifest.json"
# the files of one student, in the order they are written (the LaTeX sources with --format pdf only)
_KINDS = {"sheet": "sheet", "key": "answer key", "sheet_source": "sheet's LaTeX source",
          "key_source": "answer key's LaTeX source"}
# --format pdf: the whole class's sheets and keys, each in one PDF to print, their LaTeX sources beside them
CLASS_FILES = {"sheets": "class-sheets.pdf", "keys": "class-keys.pdf", "sheets_source": "class-sheets.tex",
               "keys_source": "class-keys.tex"}
_CLASS_KINDS = {"sheets": "sheets (one PDF)", "keys": "answer keys (one PDF)",
                "sheets_source": "sheets' LaTeX source", "keys_source": "answer keys' LaTeX source"}


def _class_file_names(roster, extension: str, roster_path, sources: bool = False) -> dict:
    """Each student's file names, {normalised id: {"sheet": "s1.html", "key": "s1-key.html"}} (``sources``: and
    "sheet_source", "key_source", the .tex beside a .pdf). Two students whose files would be one file (compared
    ignoring case, as Windows and macOS do), a file named like the class manifest or a class file (with
    ``sources``), or a name too long for a file system is an InputFileError on the roster naming both ids and the
    file."""

    taken = {folded(MANIFEST_NAME): None}
    if sources:
        taken.update({folded(name): None for name in CLASS_FILES.values()})
    files = {}
    for entry in roster:
        stem = safe_name(entry.id)
        names = {"sheet": f"{stem}.{extension}", "key": f"{stem}-key.{extension}"}
        if sources:
            names.update({"sheet_source": f"{stem}.tex", "key_source": f"{stem}-key.tex"})
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
                whose = ("the class manifest's file that irlab grade --manifest reads" if
                         folded(name) == folded(MANIFEST_NAME) else "a file of the whole class")
                raise InputFileError(roster_path, entry.line, f"roster id {entry.id!r} would write {name} "
                                     f"({mine}), {whose}: give the student another id")
            other, theirs = taken[folded(name)]
            raise InputFileError(roster_path, entry.line, f"roster ids {other.id!r} (line {other.line}) and "
                                 f"{entry.id!r} (line {entry.line}) both make the file {name} ({theirs} and {mine}; "
                                 "file names are compared ignoring case, after characters other than letters, digits, "
                                 "'-', '_' and '.' become '_' and a Windows device name such as CON gets a '_'): "
                                 "give one of them another id")
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
        names |= {folded(name) for name in (data.get("class") or {}).values() if isinstance(name, str)}
    except (OSError, ValueError, KeyError, TypeError, AttributeError, RecursionError):  # too large, too deep: not one
        students = None
    if students is None:
        raise OutputFileError(manifest, "the file exists and is not a class manifest written by irlab sheet; move "
                                        "it or choose another --out")
    return names


def _flat_files(contents) -> list:
    """(path, bytes) of every file of ``contents``: a LaTeX source's figure files beside it, each figure once."""
    flat = {}
    for path, content in contents:
        for target, data in latex_files(path, *content) if isinstance(content, tuple) else [(path, content)]:
            flat.setdefault(target, data)
    return list(flat.items())


def _remove(paths, directory: Path | None) -> None:
    """Remove ``paths`` (those missing skipped) and then ``directory`` when it is left empty."""
    for path in paths:
        path.unlink(missing_ok=True)
    if directory is not None:
        try:
            directory.rmdir()
        except OSError:  # not empty: something else is in it
            pass


def _make_directory(out: Path) -> None:

    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise OutputFileError(out, "it is not a directory" if out.exists() else error.strerror or str(error)) from None
