"""``irlab sheet SET``: a student's personal variant of an exercise set, its answer key, or a whole class's sheets.

    irlab sheet FILE --student ID [--seed S] [--key [--answers-only]] [--exercise ID] [--format …] [--pdf F] [--html F]
    irlab sheet FILE --roster ROSTER.csv --out DIR [--seed S] [--format …]     # a class: sheets, keys, manifest
    irlab sheet FILE --roster ROSTER.csv --out DIR --format pdf     # and class-sheets.pdf, class-keys.pdf to print
"""

from __future__ import annotations

import sys
from pathlib import Path

from ..document import answers_only
from ..errors import ParameterError
from ..homework.sheets import CLASS_FILES, EXTENSIONS, key_path, write_class_sheets, write_student_printables
from ..homework.variants import answer_key_document, sheet_document
from .options import add_format, add_printable, check_paths, printable_outputs

INPUTS = (("file", "the exercise set"), ("roster", "the --roster file"))


def add_parser(commands) -> None:
    sheet = commands.add_parser("sheet", help="a student's personal variant of an exercise set (or its answer key)")
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
    add_format(sheet, (*EXTENSIONS, "pdf"), help="output format (default: text); pdf with --roster: each student's "
               "sheet and key as PDF and the class's in two PDFs to print double-sided, class-sheets.pdf and "
               "class-keys.pdf")
    sheet.add_argument("--standalone", action="store_true", help="a complete LaTeX document or HTML page")
    add_printable(sheet, "also write the sheet as PDF, and its answer key beside it as FILE-key.pdf")
    sheet.set_defaults(handler=run)


def run(args) -> int:
    # one student's sheet is written with its answer key beside it: both are outputs
    keys = [] if args.roster else printable_outputs(args.pdf and key_path(args.pdf), args.html and key_path(args.html),
                                                    "the answer key of ")
    check_paths(args, INPUTS, keys)
    if args.roster:
        if args.pdf or args.html:
            raise ParameterError("--pdf/--html print one student's sheet; for a class use --roster FILE --out DIR "
                                 "--format pdf (a PDF per student and the class's sheets and keys in two PDFs), "
                                 "or --format latex or html")
        if not args.out:
            raise ParameterError("--roster writes one sheet per student: give the directory with --out DIR")
        count, manifest = write_class_sheets(args.file, args.roster, args.out, args.seed, args.format, args.exercise,
                                             args.answers_only)
        keys = "answer keys (answers only)" if args.answers_only else "answer keys"
        print(f"irlab: wrote {count} sheets and {keys} to {Path(args.out)}/ and the class manifest {manifest}",
              file=sys.stderr)
        if args.format == "pdf":
            out = Path(args.out)
            print(f"irlab: to print the class: {out / CLASS_FILES['sheets']} and {out / CLASS_FILES['keys']} (each "
                  "student's pages start on an odd page, for double-sided printing)", file=sys.stderr)
        return 0
    if args.out:
        raise ParameterError("--out DIR goes with --roster FILE (one sheet per student)")
    if args.format == "pdf":
        raise ParameterError("--format pdf writes a class's PDFs (--roster FILE --out DIR); for one student's sheet "
                             "use --pdf FILE")
    if args.pdf or args.html:
        said = write_student_printables(args.file, args.student, args.seed, args.exercise, args.pdf, args.html,
                                        args.answers_only)
        print("\n".join(said), file=sys.stderr)
        return 0  # the files are the output, as for every command's --pdf/--html
    make = answer_key_document if args.key else sheet_document
    document = make(args.file, args.student, args.seed, args.exercise)
    if args.key and args.answers_only:
        document = answers_only(document)
    sys.stdout.write(document.render(args.format, standalone=args.standalone))
    return 0
