"""The ``irlab sheet`` and ``irlab grade`` subcommands, wired into :mod:`irlab.cli`.

    irlab sheet FILE --student ID [--seed S] [--key] [--exercise ID] [--format text|markdown|latex|html|json]
    irlab sheet FILE --roster ROSTER.csv --out DIR [--seed S] [--format …]     # a class: sheets, keys, manifest
    irlab grade FILE ANSWERS.csv [--seed S | --manifest DIR] [--roster ROSTER.csv] [--exercise ID[,ID]]... [--strict]
                [--allow-ungraded] [--as-written] [--format csv|json|text|markdown|canvas|moodle] [--html F] [--pdf F]

``add_homework_parsers(subparsers)`` adds both to the main parser's subparsers; ``run_sheet(args)`` and
``run_grade(args)`` print to stdout and return the exit code (bad input raises an IrlabError subclass).
``irlab grade`` prints a summary of the rows it could not grade and of the ids not on the roster (and roster
notes) on stderr and exits 1 when there is any, unless ``--allow-ungraded``; the report itself lists every row
either way. ``--exercise`` names the exercises to grade; by default every question of the set counts.
"""

from __future__ import annotations

import sys
from pathlib import Path

SHEET_FORMATS = ("text", "markdown", "latex", "html", "json")
GRADE_FORMATS = ("csv", "json", "text", "markdown", "canvas", "moodle")
_EXTENSIONS = {"text": "txt", "markdown": "md", "latex": "tex", "html": "html", "json": "json"}
UNGRADED_EXIT = 1


def add_homework_parsers(subparsers) -> None:
    sheet = subparsers.add_parser("sheet", help="a student's personal variant of an exercise set (or its answer key)")
    sheet.add_argument("file", help="exercise set, e.g. exercises/chapter8-seed.toml")
    who = sheet.add_mutually_exclusive_group(required=True)
    who.add_argument("--student", metavar="ID", help="student id: each student gets their own numbers")
    who.add_argument("--roster", metavar="FILE", help="class roster CSV (id[,name,email]): a sheet and key per student "
                                                      "in --out DIR, and DIR/manifest.json for irlab grade --manifest")
    sheet.add_argument("--out", metavar="DIR", help="with --roster: the directory to write the class's sheets into")
    sheet.add_argument("--seed", metavar="S", help="variant seed (e.g. the term); same student + seed = same sheet")
    sheet.add_argument("--key", action="store_true", help="print the answer key (worked solutions) instead of the sheet")
    sheet.add_argument("--answers-only", action="store_true", help="the answer key lists the answers without the working")
    sheet.add_argument("--exercise", metavar="ID", help="only this exercise")
    sheet.add_argument("--format", default="text", choices=SHEET_FORMATS, help="output format (default: text)")
    sheet.add_argument("--standalone", action="store_true", help="a complete LaTeX document or HTML page")

    grade = subparsers.add_parser("grade", help="grade a CSV of answers (student,exercise,question,answer[,variant])")
    grade.add_argument("file", help="exercise set the sheets were made from")
    grade.add_argument("answers", help="CSV with a header: student, exercise, question, answer (optional: variant)")
    grade.add_argument("--seed", metavar="S", help="the seed the sheets were made with")
    grade.add_argument("--manifest", metavar="FILE", help="manifest.json written by irlab sheet --roster --out DIR "
                                                          "(gives the seed and the roster; checks the set)")
    grade.add_argument("--roster", metavar="FILE", help="class roster CSV (id[,name,email]): report students not on "
                                                        "it, without answers, or written differently")
    grade.add_argument("--exercise", metavar="ID", action="append",
                       help="grade only this exercise, every one of its questions (repeat it, or list them: "
                            "--exercise 8/2,8/4); by default every question of the set counts")
    grade.add_argument("--strict", action="store_true", help="stop at the first row that cannot be graded")
    grade.add_argument("--allow-ungraded", action="store_true",
                       help="exit 0 even when some rows could not be graded (they are still listed)")
    grade.add_argument("--as-written", action="store_true",
                       help="grade against the set as written, not per-student variants (everyone had the same sheet)")
    grade.add_argument("--format", default="csv", choices=GRADE_FORMATS,
                       help="output format (default: csv; canvas, moodle: gradebook import CSV)")
    grade.add_argument("--html", metavar="FILE", help="also write the class report (with the score histogram) as HTML")
    grade.add_argument("--pdf", metavar="FILE", help="also write the class report (with the score histogram) as PDF")


def run_sheet(args) -> int:
    from ..errors import ParameterError
    from .variants import answer_key_document, sheet_document

    if getattr(args, "roster", None):
        if getattr(args, "pdf", None) or getattr(args, "html", None):
            raise ParameterError("--pdf/--html print one student's sheet; for a class use --roster FILE --out DIR "
                                 "with --format latex or html (one file per student)")
        if not getattr(args, "out", None):
            raise ParameterError("--roster writes one sheet per student: give the directory with --out DIR")
        return _class_sheets(args)
    if getattr(args, "out", None):
        raise ParameterError("--out DIR goes with --roster FILE (one sheet per student)")
    make = answer_key_document if args.key else sheet_document
    document = make(args.file, args.student, args.seed, getattr(args, "exercise", None))
    if args.key and getattr(args, "answers_only", False):
        from ..document import answers_only

        document = answers_only(document)
    sys.stdout.write(document.render(args.format, standalone=getattr(args, "standalone", False)))
    return 0


def _class_sheets(args) -> int:
    """Every roster student's sheet and answer key in DIR (with --answers-only, keys of the answers without the
    working), and DIR/manifest.json.

    Every file name is decided and checked first (no two students' files one file, ignoring case; none the
    manifest; none an input; none a link; none a file of DIR that an earlier run's manifest does not list), every
    document is rendered, and only then is anything written, each file whole (outputs.write_file)."""
    from ..document import answers_only
    from ..outputs import check_outputs, write_text
    from .identity import read_roster, write_manifest
    from .variants import answer_key_document, sheet_document, variant_set

    roster = read_roster(args.roster)
    out = Path(args.out)
    if out.exists() and not out.is_dir():
        from ..errors import OutputFileError

        raise OutputFileError(out, "it is not a directory (--out names the directory for the class's sheets)")
    files = _class_file_names(roster, _EXTENSIONS[args.format], args.roster)
    planned = [(f"the {_KINDS[kind]} of {entry.id!r}", out / files[entry.key][kind]) for entry in roster
               for kind in _KINDS]
    check_outputs([("the exercise set", args.file), ("the --roster file", args.roster)],
                  planned + [("the class manifest", out / MANIFEST_NAME)])
    _check_earlier_files(out, [path for _, path in planned])
    exercise, brief = getattr(args, "exercise", None), getattr(args, "answers_only", False)

    def key_document(*student):  # --answers-only: every key of the class lists the answers without the working
        key = answer_key_document(*student)
        return answers_only(key) if brief else key

    texts = [make(args.file, entry.id, args.seed, exercise).render(args.format, standalone=True)
             for entry in roster for make in (sheet_document, key_document)]
    _make_directory(out)
    for (_, path), text in zip(planned, texts):
        write_text(path, text)
    set_id = variant_set(args.file).id
    manifest = write_manifest(out / MANIFEST_NAME, set_id, args.file, args.seed, roster, files)
    keys = "answer keys (answers only)" if brief else "answer keys"
    print(f"irlab: wrote {len(roster)} sheets and {keys} to {out}/ and the class manifest {manifest}", file=sys.stderr)
    return 0


MANIFEST_NAME = "manifest.json"
_KINDS = {"sheet": "sheet", "key": "answer key"}  # the files of one student, in the order they are written


def _class_file_names(roster, extension: str, roster_path) -> dict:
    """Each student's file names, {normalised id: {"sheet": "s1.html", "key": "s1-key.html"}}. Two students whose
    files would be one file (compared ignoring case, as Windows and macOS do), a file named like the class manifest
    or a name too long for a file system is an InputFileError on the roster naming both ids and the file."""
    from ..errors import InputFileError
    from ..outputs import NAME_MAX, folded
    from .identity import safe_name

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
    from ..errors import OutputFileError
    from ..outputs import folded

    earlier = _earlier_sheets(out / MANIFEST_NAME)
    for path in paths:
        if path.exists() and folded(path.name) not in earlier:
            raise OutputFileError(path, f"the file exists and is not a sheet that {out / MANIFEST_NAME} lists from an "
                                        "earlier irlab sheet run; move it or choose another --out")


def _earlier_sheets(manifest: Path) -> set:
    """The file names (folded) of the sheets and keys an earlier run's manifest lists; none when there is none."""
    import json

    from ..errors import OutputFileError
    from ..limits import MAX_CLASS_FILE_BYTES, read_at_most
    from ..outputs import folded

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
    from ..errors import OutputFileError

    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise OutputFileError(out, "it is not a directory" if out.exists() else error.strerror or str(error)) from None


def run_grade(args) -> int:
    from .grading import grade

    report = grade(args.file, args.answers, args.seed, getattr(args, "strict", False),
                   not getattr(args, "as_written", False), getattr(args, "roster", None), getattr(args, "manifest", None),
                   getattr(args, "exercise", None))
    report.write(args.format, sys.stdout)
    html, pdf = getattr(args, "html", None), getattr(args, "pdf", None)
    if html or pdf:
        from ..printable import write_printables
        from .gradebook import class_report

        write_printables(class_report(report), pdf, html)
    problems = report.problems
    for note in report.notes:
        print(f"irlab: note: {note}", file=sys.stderr)
    if problems:
        print(f"irlab: {report.accounting()} {'Problems' if report.id_problems else 'Not graded'}:", file=sys.stderr)
        for problem in problems[:20]:
            print(f"  {problem}", file=sys.stderr)
        if len(problems) > 20:
            print(f"  … and {len(problems) - 20} more (every row is listed in the report)", file=sys.stderr)
        if not getattr(args, "allow_ungraded", False):
            print("irlab: some rows could not be graded" + (" or ids are not on the roster" if report.id_problems else "")
                  + " (exit 1); --allow-ungraded accepts that", file=sys.stderr)
            return UNGRADED_EXIT
    return 0
