"""The ``irlab sheet`` and ``irlab grade`` subcommands, wired into :mod:`irlab.cli`.

    irlab sheet FILE --student ID [--seed S] [--key] [--exercise ID] [--format text|markdown|latex|html|json]
    irlab sheet FILE --roster ROSTER.csv --out DIR [--seed S] [--format …]     # a class: sheets, keys, manifest
    irlab grade FILE ANSWERS.csv [--seed S | --manifest DIR] [--roster ROSTER.csv] [--strict] [--allow-ungraded]
                [--as-written] [--format csv|json|text|markdown|canvas|moodle] [--html F] [--pdf F]

``add_homework_parsers(subparsers)`` adds both to the main parser's subparsers; ``run_sheet(args)`` and
``run_grade(args)`` print to stdout and return the exit code (bad input raises an IrlabError subclass).
``irlab grade`` prints a summary of the rows it could not grade (and roster notes) on stderr and exits 1 when
any row could not be graded, unless ``--allow-ungraded``; the report itself lists every row either way.
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
    """Every roster student's sheet and answer key in DIR, and DIR/manifest.json."""
    from .identity import read_roster, safe_name, write_manifest
    from .variants import answer_key_document, sheet_document, variant_set

    roster = read_roster(args.roster)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    extension = _EXTENSIONS[args.format]
    files, used = {}, set()
    for entry in roster:
        stem = safe_name(entry.id)
        while stem.casefold() in used:  # two ids that make the same file name
            stem += "_"
        used.add(stem.casefold())
        written = {}
        for kind, make in (("sheet", sheet_document), ("key", answer_key_document)):
            document = make(args.file, entry.id, args.seed, getattr(args, "exercise", None))
            name = f"{stem}.{extension}" if kind == "sheet" else f"{stem}-key.{extension}"
            (out / name).write_text(document.render(args.format, standalone=True), encoding="utf-8")
            written[kind] = name
        files[entry.key] = written
    set_id = variant_set(args.file).id
    manifest = write_manifest(out / "manifest.json", set_id, args.file, args.seed, roster, files)
    print(f"irlab: wrote {len(roster)} sheets and answer keys to {out}/ and the class manifest {manifest}",
          file=sys.stderr)
    return 0


def run_grade(args) -> int:
    from .grading import grade

    report = grade(args.file, args.answers, args.seed, getattr(args, "strict", False),
                   not getattr(args, "as_written", False), getattr(args, "roster", None), getattr(args, "manifest", None))
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
        print(f"irlab: {report.accounting()} Not graded:", file=sys.stderr)
        for problem in problems[:20]:
            print(f"  {problem}", file=sys.stderr)
        if len(problems) > 20:
            print(f"  … and {len(problems) - 20} more (every row is listed in the report)", file=sys.stderr)
        if not getattr(args, "allow_ungraded", False):
            print("irlab: some rows could not be graded (exit 1); --allow-ungraded accepts that", file=sys.stderr)
            return UNGRADED_EXIT
    return 0
