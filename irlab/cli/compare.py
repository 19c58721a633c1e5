"""``irlab compare QRELS RUN_A RUN_B [RUN_C …]``: per-topic values and paired significance tests, explained.

    irlab compare QRELS RUN_A RUN_B [RUN_C ...] [-m MEASURE] [--test t|wilcoxon|sign|permutation|bootstrap|all]...
"""

from __future__ import annotations

import argparse
import sys

from .. import conventions as conv
from ..compare import TEST_NAMES, compare_files
from ..printable import write_printables
from ..slides import SLIDES_HELP, slides_outputs, write_announced
from .options import add_format, add_printable, check_paths

INPUTS = (("qrels", "the qrels"), ("runs", "one of the runs"))


def _positive_int(text):
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {value}")
    return value


def _decimals(text):
    if text == "full":
        return None
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of decimals (0-17) or 'full', got {text!r}") from None
    if not 0 <= value <= 17:
        raise argparse.ArgumentTypeError(f"expected a number of decimals (0-17) or 'full', got {value}")
    return value


def add_parser(commands):
    """Add the ``compare`` command to the main parser's ``commands``."""
    p = commands.add_parser(
        "compare", help="compare TREC runs per topic with paired significance tests, explained",
        description="Compare two or more TREC runs on the same topics: per-topic values of one measure "
                    "(trec_eval 10.0 semantics) and paired significance tests, step by step.")
    p.add_argument("qrels", help="qrels file: qid iter docno grade")
    p.add_argument("runs", nargs="+", metavar="RUN", help="two or more run files (qid Q0 docno rank score runid)")
    p.add_argument("-m", "--measure", default="map", help="one trec_eval measure (default map), e.g. P.10, ndcg_cut.10")
    p.add_argument("--test", dest="tests", action="append", choices=TEST_NAMES + ("all",),
                   help="test to run (repeatable; default all: t, wilcoxon, sign, permutation, bootstrap)")
    p.add_argument("--alpha", default="0.05", metavar="A", help="significance level (default 0.05)")
    p.add_argument("--alternative", choices=[c.key for c in conv.ALTERNATIVE.choices], default=None,
                   help=f"{conv.ALTERNATIVE.question} (default {conv.ALTERNATIVE.default})")
    p.add_argument("--correction", choices=[c.key for c in conv.MULTIPLE_COMPARISONS.choices], default=None,
                   help=f"{conv.MULTIPLE_COMPARISONS.question} (default {conv.MULTIPLE_COMPARISONS.default})")
    p.add_argument("--samples", type=_positive_int, metavar="B",
                   help="sampled sign assignments / bootstrap resamples (default: exact permutation test up to "
                        "20 topics, else 10000)")
    p.add_argument("--seed", type=int, default=0, help="seed of the sampling (default 0)")
    p.add_argument("--decimals", type=_decimals, default=4, metavar="N",
                   help="round per-topic values to N decimals, as trec_eval prints them (default 4; 'full' keeps the floats)")
    p.add_argument("-c", "--complete", action="store_true",
                   help="score qrels topics missing from a run as empty rankings (trec_eval -c)")
    add_format(p)
    add_printable(p, "also write the comparison with its per-topic difference plot as PDF")
    p.add_argument("--slides", metavar="FILE", help=SLIDES_HELP)
    p.set_defaults(handler=run)
    return p


def run(args) -> int:
    """Print the comparison; write the PDF/HTML report if asked."""
    check_paths(args, INPUTS, slides_outputs(args.slides))
    printable = bool(args.pdf or args.html or args.slides)
    document = compare_files(args.qrels, args.runs, args.measure, tests=args.tests or ["all"],
                             alternative=args.alternative, alpha=args.alpha, correction=args.correction,
                             samples=args.samples, seed=args.seed, decimals=args.decimals, complete=args.complete,
                             figures=printable)
    if printable:  # the files, and one line on stderr naming them
        write_printables(document, args.pdf, args.html)
        if args.slides:
            write_announced(document, args.slides)
    else:
        sys.stdout.write(document.render(args.format))
    return 0
