"""The ``irlab sheet`` and ``irlab grade`` subcommands, for the lead to wire into :mod:`irlab.cli`.

    irlab sheet FILE --student ID [--seed S] [--key] [--exercise ID] [--format text|markdown|latex|html|json]
    irlab grade FILE ANSWERS.csv [--seed S] [--strict] [--as-written] [--format csv|json|text|markdown]

``add_homework_parsers(subparsers)`` adds both to the main parser's subparsers; ``run_sheet(args)`` and
``run_grade(args)`` print to stdout and return the exit code (bad input raises an IrlabError subclass).
"""

from __future__ import annotations

import sys

SHEET_FORMATS = ("text", "markdown", "latex", "html", "json")
GRADE_FORMATS = ("csv", "json", "text", "markdown")


def add_homework_parsers(subparsers) -> None:
    sheet = subparsers.add_parser("sheet", help="a student's personal variant of an exercise set (or its answer key)")
    sheet.add_argument("file", help="exercise set, e.g. exercises/chapter8-seed.toml")
    sheet.add_argument("--student", required=True, metavar="ID", help="student id: each student gets their own numbers")
    sheet.add_argument("--seed", metavar="S", help="variant seed (e.g. the term); same student + seed = same sheet")
    sheet.add_argument("--key", action="store_true", help="print the answer key (worked solutions) instead of the sheet")
    sheet.add_argument("--exercise", metavar="ID", help="only this exercise")
    sheet.add_argument("--format", default="text", choices=SHEET_FORMATS, help="output format (default: text)")
    sheet.add_argument("--standalone", action="store_true", help="a complete LaTeX document or HTML page")

    grade = subparsers.add_parser("grade", help="grade a CSV of answers (student,exercise,question,answer)")
    grade.add_argument("file", help="exercise set the sheets were made from")
    grade.add_argument("answers", help="CSV with a header: student, exercise, question, answer")
    grade.add_argument("--seed", metavar="S", help="the seed the sheets were made with")
    grade.add_argument("--strict", action="store_true", help="stop at the first row that cannot be graded")
    grade.add_argument("--as-written", action="store_true",
                       help="grade against the set as written, not per-student variants (everyone had the same sheet)")
    grade.add_argument("--format", default="csv", choices=GRADE_FORMATS, help="output format (default: csv)")


def run_sheet(args) -> int:
    from .variants import answer_key_document, sheet_document

    make = answer_key_document if args.key else sheet_document
    document = make(args.file, args.student, args.seed, getattr(args, "exercise", None))
    sys.stdout.write(document.render(args.format, standalone=getattr(args, "standalone", False)))
    return 0


def run_grade(args) -> int:
    from .grading import grade

    report = grade(args.file, args.answers, args.seed, getattr(args, "strict", False),
                   not getattr(args, "as_written", False))
    sys.stdout.write(report.render(args.format))
    return 0
