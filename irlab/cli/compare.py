"""``irlab compare QRELS RUN_A RUN_B [RUN_C …]``: per-topic values and paired significance tests, explained.

    irlab compare QRELS RUN_A RUN_B [RUN_C ...] [-m MEASURE] [--test t|wilcoxon|sign|permutation|bootstrap|all]...
    irlab compare --from-pyterrier PERQUERY.csv [--baseline NAME] [--table TABLE.csv] [--correction C] [--test t]

``--from-pyterrier`` explains a PyTerrier experiment from the files it saved (:mod:`irlab.experiment`).
"""

from __future__ import annotations

import argparse
import sys

from .. import conventions as conv
from ..compare import TEST_NAMES, compare_files
from ..errors import ParameterError
from ..experiment import DEFAULT_THRESHOLD, explain_experiment, read_perquery_csv, read_table_csv
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
    p.add_argument("qrels", nargs="?", help="qrels file: qid iter docno grade")
    p.add_argument("runs", nargs="*", metavar="RUN", help="two or more run files (qid Q0 docno rank score runid)")
    p.add_argument("-m", "--measure", default="map", metavar="MEASURE",
                   help="one measure (default map), as trec_eval names it (map, P.10, ndcg_cut.10, recip_rank) or "
                        "as ir_measures does (AP, P@10, nDCG@10, AP(rel=2), RR, ERR@20, RBP(p=0.8), INST(T=3), "
                        "SDCG@10; alpha_nDCG@20, ERR_IA@20 ... on diversity qrels: topic subtopic docno judgment)")
    p.add_argument("--test", dest="tests", action="append", choices=TEST_NAMES + ("all",),
                   help="test to run (repeatable; default all: t, wilcoxon, sign, permutation, bootstrap; with "
                        "--from-pyterrier pt.Experiment's t, its default, or wilcoxon)")
    p.add_argument("--alpha", default="0.05", metavar="A",
                   help="significance level (default 0.05; with --from-pyterrier pt.Experiment's correction_alpha)")
    p.add_argument("--alternative", choices=[c.key for c in conv.ALTERNATIVE.choices], default=None,
                   help=f"{conv.ALTERNATIVE.question} (default {conv.ALTERNATIVE.default})")
    p.add_argument("--correction", metavar="C", default=None,
                   help=f"{conv.MULTIPLE_COMPARISONS.question}: {', '.join(_CORRECTIONS)} (default "
                        f"{conv.MULTIPLE_COMPARISONS.default}); with --from-pyterrier the one pt.Experiment was given, "
                        "by statsmodels' name (holm, bonferroni, sidak, holm-sidak, fdr_bh, b, s, h, hs)")
    p.add_argument("--samples", type=_positive_int, metavar="B",
                   help="sampled sign assignments / bootstrap resamples (default: exact permutation test up to "
                        "20 topics, else 10000)")
    p.add_argument("--seed", type=int, default=0, help="seed of the sampling (default 0)")
    p.add_argument("--decimals", type=_decimals, default=4, metavar="N",
                   help="round per-topic values to N decimals, as trec_eval prints them (default 4; 'full' keeps the floats)")
    p.add_argument("-c", "--complete", action="store_true",
                   help="score qrels topics missing from a run as empty rankings (trec_eval -c)")
    pyterrier = p.add_argument_group(
        "a PyTerrier experiment (pt.Experiment)",
        "--from-pyterrier reads pt.Experiment(..., perquery=True)'s frame saved as CSV (frame.to_csv(path): "
        "columns name, qid, measure, value) instead of QRELS and RUNs, reproduces the +, -, p-value, reject and "
        "p-value corrected columns pt.Experiment adds with baseline= and correction=, and explains each test")
    pyterrier.add_argument("--from-pyterrier", metavar="PERQUERY.csv", help="pt.Experiment's per-topic values as CSV")
    pyterrier.add_argument("--baseline", metavar="NAME",
                           help="the system pt.Experiment compared the others with (its baseline=, by name or row "
                                "index; default: the table's row without p-values)")
    pyterrier.add_argument("--table", metavar="TABLE.csv",
                           help="pt.Experiment(..., baseline=...)'s table saved as CSV: every cell is checked against "
                                "the one recomputed")
    pyterrier.add_argument("--threshold", metavar="D", default=None,
                           help="list and draw the topics with |Δ| above D (default 0.05)")
    add_format(p)
    add_printable(p, "also write the comparison with its per-topic difference plot as PDF")
    p.add_argument("--slides", metavar="FILE", help=SLIDES_HELP)
    p.set_defaults(handler=run)
    return p


_CORRECTIONS = [c.key for c in conv.MULTIPLE_COMPARISONS.choices]
_PYTERRIER_ONLY = (("--baseline", "baseline"), ("--table", "table"), ("--threshold", "threshold"))


def _number(text, option):
    try:
        return float(text)
    except ValueError:
        raise ParameterError(f"{option} expects a number, got {text!r}") from None


def _experiment(args, printable):
    """--from-pyterrier: pt.Experiment's per-topic CSV (and table) explained (irlab.experiment)."""
    if args.qrels or args.runs:
        raise ParameterError("--from-pyterrier reads the per-topic CSV instead of QRELS and RUNs: give one or the "
                             "other")
    tests = set(args.tests or ["t"])
    if len(tests) != 1 or not tests <= {"t", "wilcoxon"}:
        raise ParameterError("with --from-pyterrier, --test is pt.Experiment's test: t (its default) or wilcoxon")
    for option, given in (("-m", args.measure != "map"), ("--samples", args.samples), ("--seed", args.seed),
                          ("--alternative", args.alternative), ("-c", args.complete), ("--decimals", args.decimals != 4)):
        if given:
            raise ParameterError(f"{option} has no meaning with --from-pyterrier (pt.Experiment's per-topic values, "
                                 "two-sided tests)")
    table = read_table_csv(args.table) if args.table else None
    baseline = args.baseline
    if baseline is None and table is None:
        raise ParameterError("--from-pyterrier needs --baseline NAME (the system pt.Experiment was given as "
                             "baseline=) or --table TABLE.csv (whose baseline row has no p-values)")
    if baseline is not None and baseline.isdigit() and table is not None and baseline not in set(table["name"]):
        baseline = int(baseline)   # pt.Experiment's baseline=1: a row index
    threshold = DEFAULT_THRESHOLD if args.threshold is None else _number(args.threshold, "--threshold")
    return explain_experiment(table, read_perquery_csv(args.from_pyterrier), baseline=baseline,
                              correction=args.correction, alpha=_number(args.alpha, "--alpha"), test=tests.pop(),
                              threshold=threshold, figures=printable)


def run(args) -> int:
    """Print the comparison; write the PDF/HTML report if asked."""
    check_paths(args, INPUTS + (("from_pyterrier", "the per-topic CSV"), ("table", "the table")),
                slides_outputs(args.slides))
    printable = bool(args.pdf or args.html or args.slides)
    if args.from_pyterrier:
        document = _experiment(args, printable)
    else:
        _check_plain(args)
        document = compare_files(args.qrels, args.runs, args.measure, tests=args.tests or ["all"],
                                 alternative=args.alternative, alpha=args.alpha, correction=args.correction,
                                 samples=args.samples, seed=args.seed, decimals=args.decimals,
                                 complete=args.complete, figures=printable)
    _write(document, args, printable)
    return 0


def _check_plain(args):
    """QRELS and RUNs given, and no option of --from-pyterrier."""
    for option, name in _PYTERRIER_ONLY:
        if getattr(args, name) is not None:
            raise ParameterError(f"{option} is an option of --from-pyterrier (a PyTerrier experiment's per-topic CSV)")
    if not args.qrels or len(args.runs) < 2:
        raise ParameterError("irlab compare needs QRELS and at least two runs (or --from-pyterrier PERQUERY.csv)")
    if args.correction is not None and args.correction not in _CORRECTIONS:
        raise ParameterError(f"--correction {args.correction}: one of {', '.join(_CORRECTIONS)} (statsmodels' other "
                             "methods are read with --from-pyterrier)")


def _write(document, args, printable):
    if printable:  # the files, and one line on stderr naming them
        write_printables(document, args.pdf, args.html)
        if args.slides:
            write_announced(document, args.slides)
    else:
        sys.stdout.write(document.render(args.format))
