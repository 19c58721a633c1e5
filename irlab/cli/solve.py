"""``irlab solve SET``: an exercise set (TOML) solved step by step, or its answers only.

    irlab solve exercises/chapter8-seed.toml [--exercise ID] [--answers-only] [--format …] [--pdf F] [--html F]
"""

from __future__ import annotations

import sys

from ..document import answers_only
from ..exercise_set import solve
from ..homework.findings import too_close_notes
from ..printable import solution_document, write_printables
from ..slides import SLIDES_HELP, slides_outputs, write_announced
from .options import add_format, add_printable, check_paths

INPUTS = (("file", "the exercise set"),)


def add_parser(commands) -> None:
    parser = commands.add_parser("solve", help="solve an exercise set (TOML) step by step")
    parser.add_argument("file", help="exercise set, e.g. exercises/chapter8-seed.toml")
    parser.add_argument("--exercise", metavar="ID", help="solve only this exercise (e.g. 8/1)")
    add_format(parser)
    parser.add_argument("--standalone", action="store_true", help="a complete LaTeX document or HTML page")
    parser.add_argument("--answers-only", action="store_true", help="only the answers, without the working (a key)")
    add_printable(parser)
    parser.add_argument("--slides", metavar="FILE", help=SLIDES_HELP)
    parser.set_defaults(handler=run)


def run(args) -> int:
    check_paths(args, INPUTS, slides_outputs(args.slides))

    def shown(document):  # --answers-only: a key of answers without the working
        return answers_only(document) if args.answers_only else document

    if args.pdf or args.html or args.slides:
        document = shown(solution_document(args.file, args.exercise))
        write_printables(document, args.pdf, args.html)
        if args.slides:
            write_announced(document, args.slides)
    elif args.standalone and args.format == "html":  # the page with its figures, as --html writes it
        sys.stdout.write(shown(solution_document(args.file, args.exercise)).render("html", standalone=True))
    else:
        sys.stdout.write(shown(solve(args.file, args.exercise)).render(args.format, standalone=args.standalone))
    for note in too_close_notes(args.file, exercise_id=args.exercise):  # for the instructor, beside the solution
        print(f"irlab: note: {note}", file=sys.stderr)
    return 0
