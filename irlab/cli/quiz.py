"""``irlab quiz SET``: an exercise set as a question bank that an LMS imports (Moodle XML, Canvas QTI, GIFT).

    irlab quiz FILE --format moodle|qti|gift [--variants N] [--seed S] [--exercise ID] -o FILE

Every question gets N variants drawn as ``irlab sheet`` draws them (variant i is the sheet of student id
``variant-i`` with the seed), each with its exact answer, the margin irlab's grader accepts, and one answer per
named mistake with irlab's feedback; the bank's notes and one line saying what was written go to stderr.
"""

from __future__ import annotations

import sys

from ..errors import ParameterError
from ..limits import MAX_QUIZ_VARIANTS
from ..lms.build import build_bank
from ..lms.gift import write_gift
from ..lms.moodle import write_moodle
from ..lms.qti import canvas_notes, write_qti
from ..outputs import write_file, write_text
from .options import check_paths, integer

QUIZ_FORMATS = ("moodle", "qti", "gift")
INPUTS = (("file", "the exercise set"),)
_WHAT = {"moodle": "Moodle XML", "qti": "Canvas QTI 1.2 zip", "gift": "GIFT"}


def add_parser(commands) -> None:
    quiz = commands.add_parser("quiz", help="an exercise set as an LMS question bank (Moodle XML, Canvas QTI, GIFT)")
    quiz.add_argument("file", help="exercise set, e.g. exercises/homework-variants.toml")
    quiz.add_argument("--format", required=True, choices=QUIZ_FORMATS,
                      help="moodle: Moodle XML; qti: a Canvas QTI 1.2 zip; gift: Moodle's GIFT text")
    quiz.add_argument("--variants", metavar="N", default="1",
                      help=f"variants of each question, 1 to {MAX_QUIZ_VARIANTS} (default 1); a set without "
                           "[exercise.variants] has one")
    quiz.add_argument("--seed", metavar="S", help="variant seed (e.g. the term): the variants irlab sheet draws "
                                                  "for student ids variant-1 … variant-N")
    quiz.add_argument("--exercise", metavar="ID", help="only this exercise")
    quiz.add_argument("-o", "--output", metavar="FILE", required=True, help="the bank's file (a .zip for qti)")
    quiz.set_defaults(handler=run)


def run(args) -> int:
    if args.format == "qti" and not str(args.output).lower().endswith(".zip"):  # Canvas imports a QTI .zip package
        stem = str(args.output).rsplit(".", 1)[0] if "." in str(args.output).rsplit("/", 1)[-1] else str(args.output)
        raise ParameterError(f"-o {args.output}: a Canvas QTI bank is a .zip package (Canvas imports QTI .zip files); "
                             f"name it {stem}.zip")
    check_paths(args, INPUTS, [("-o", args.output)])
    variants = integer(args.variants, "--variants", 1)  # at most MAX_QUIZ_VARIANTS: build_bank checks it
    bank = build_bank(args.file, variants, args.seed, [args.exercise] if args.exercise else None)
    if args.format == "moodle":
        write_text(args.output, write_moodle(bank))
    elif args.format == "gift":
        write_text(args.output, write_gift(bank))
    else:
        write_file(args.output, write_qti(bank))
        bank.notes += canvas_notes(bank)
    for note in bank.notes:
        print(f"irlab: note: {note}", file=sys.stderr)
    categories = len({question.category for question in bank.questions})
    print(f"irlab: wrote {len(bank.questions)} questions ({categories} questions of the set, {bank.variants} "
          f"variant{'s' if bank.variants != 1 else ''} each at most) as {_WHAT[args.format]} to {args.output}",
          file=sys.stderr)
    return 0
