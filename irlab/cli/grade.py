"""``irlab grade SET ANSWERS.csv``: a class's answers graded, every row accounted for, in a report or a gradebook.

    irlab grade FILE ANSWERS.csv [--seed S | --manifest DIR] [--roster ROSTER.csv] [--exercise ID[,ID]]... [--strict]
                [--allow-ungraded] [--as-written] [--format csv|json|text|markdown|canvas|moodle] [--html F] [--pdf F]

A summary of the rows that could not be graded and of the ids not on the roster (and roster notes) goes to stderr,
and the exit code is 1 when there is any, unless ``--allow-ungraded``; the report itself lists every row either
way. ``--exercise`` names the exercises to grade; by default every question of the set counts.
"""

from __future__ import annotations

import sys

from ..homework.gradebook import class_report
from ..lms.responses import grade  # irlab's answers CSV, or a Moodle or Canvas response export
from ..printable import write_printables
from .options import check_paths

GRADE_FORMATS = ("csv", "json", "text", "markdown", "canvas", "moodle")
UNGRADED_EXIT = 1
INPUTS = (("file", "the exercise set"), ("answers", "the answers CSV"), ("manifest", "the --manifest file"),
          ("roster", "the --roster file"))


def add_parser(commands) -> None:
    grade = commands.add_parser("grade", help="grade a CSV of answers (student,exercise,question,answer[,variant])")
    grade.add_argument("file", help="exercise set the sheets were made from")
    grade.add_argument("answers", help="CSV with a header: student, exercise, question, answer (optional: variant); "
                       "or a Moodle quiz Responses / Canvas quiz Student Analysis export of an irlab quiz bank")
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
    grade.set_defaults(handler=run)


def run(args) -> int:
    check_paths(args, INPUTS)
    report = grade(args.file, args.answers, args.seed, args.strict,
                   not args.as_written, args.roster, args.manifest,
                   args.exercise)
    report.write(args.format, sys.stdout)
    html, pdf = args.html, args.pdf
    if html or pdf:
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
        if not args.allow_ungraded:
            print("irlab: some rows could not be graded" + (" or ids are not on the roster" if report.id_problems else "")
                  + " (exit 1); --allow-ungraded accepts that", file=sys.stderr)
            return UNGRADED_EXIT
    return 0
