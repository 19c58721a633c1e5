"""``irlab check-eval ASSIGNMENT SUBMISSION…``: a student's own evaluator output checked cell by cell, each wrong
number with the bug that reproduces it (the library is :mod:`irlab.assignment`).

    irlab check-eval ASSIGNMENT.toml ir_eval.csv [more submissions…] [--format text|markdown|html|json]
                     [--gradescope results.json] [--class-csv FILE] [--bundle autograder.zip [--pip SPEC]] [--bugs]
"""

from __future__ import annotations

import io
import sys
from pathlib import Path

from ..assignment.bundle import bundle_bytes
from ..assignment.catalogue import catalogue_text
from ..assignment.check import Checker
from ..assignment.report import gradescope_json, render, write_class_csv
from ..assignment.spec import read_assignment
from ..errors import ParameterError
from ..outputs import write_file, write_text
from .options import check_paths

FORMATS = ("text", "markdown", "html", "json")


def add_parser(commands) -> None:
    p = commands.add_parser(
        "check-eval",
        help="check a student's own evaluator output (TTDS ir_eval.csv, trec_eval -q) cell by cell, naming the bug "
             "behind each wrong number; Gradescope results.json and autograder bundle",
        description="Check the output of a student's own evaluator against irlab's exact values, cell by cell. A "
                    "wrong number is named with the catalogue bug that reproduces it (recomputed, never guessed), "
                    "else reported with the reference and how to see its worked steps. The assignment file declares "
                    "the collection, the layout, each column's measure and conventions, the tolerance and points.",
    )
    p.add_argument("assignment", help="the assignment file (TOML; exercises/assignments/ has two examples)")
    p.add_argument("submission", nargs="*", help="a student's output file, or a directory holding it (Gradescope's "
                   "/autograder/submission); several: one report each, and --class-csv")
    p.add_argument("--format", choices=FORMATS, default="text",
                   help="the report: text, markdown, html, or json (Gradescope's results.json)")
    p.add_argument("--gradescope", metavar="FILE", help="write Gradescope's results.json for the one submission")
    p.add_argument("--class-csv", metavar="FILE", help="write one row per submission: score, points per measure, "
                                                       "findings")
    p.add_argument("--bundle", metavar="ZIP", help="write the Gradescope autograder bundle (setup.sh, "
                                                   "run_autograder, the assignment and its collection)")
    p.add_argument("--pip", metavar="SPEC", help="--bundle: what setup.sh pip-installs (default: this irlab's "
                                                 "version, irlab==X.Y.Z; a git URL or a wheel name works too)")
    p.add_argument("--bugs", action="store_true", help="list the bug catalogue, the assignment's own bugs included")
    p.set_defaults(handler=run)


def _student(path: str) -> str:
    return Path(path).stem if Path(path).is_file() else Path(path).name


def run(args) -> int:
    outputs = [(option, getattr(args, name)) for option, name in
               (("--gradescope", "gradescope"), ("--class-csv", "class_csv"), ("--bundle", "bundle"))
               if getattr(args, name)]
    check_paths(args, (("assignment", "the assignment file"), ("submission", "a submission")), outputs)
    if args.pip and not args.bundle:
        raise ParameterError("--pip says what the --bundle's setup.sh installs: give --bundle too")
    assignment = read_assignment(args.assignment)
    if args.bugs:
        sys.stdout.write(catalogue_text(assignment.bugs))
    if args.bundle:
        write_file(args.bundle, bundle_bytes(assignment, args.pip))
        print(f"irlab: wrote {args.bundle}", file=sys.stderr)
    if not args.submission:
        if not (args.bugs or args.bundle):
            raise ParameterError("give a submission to check (or --bundle, --bugs)")
        return 0
    if args.gradescope and len(args.submission) != 1:
        raise ParameterError("--gradescope writes the results of one submission: give exactly one")
    checker = Checker(assignment)
    outcomes = []
    for submission in args.submission:
        outcome = checker.check(submission)
        outcomes.append((_student(submission), outcome))
        if args.format == "json":
            sys.stdout.write(gradescope_json(outcome))
        else:
            sys.stdout.write(render(outcome, _student(submission), args.format))
    if args.gradescope:
        write_text(args.gradescope, gradescope_json(outcomes[0][1]))
        print(f"irlab: wrote {args.gradescope}", file=sys.stderr)
    if args.class_csv:
        stream = io.StringIO()
        write_class_csv(stream, outcomes)
        write_text(args.class_csv, stream.getvalue())
        print(f"irlab: wrote {args.class_csv}", file=sys.stderr)
    return 0
