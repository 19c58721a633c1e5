"""``irlab eval QRELS RUN``: trec_eval 10.0's command line, with irlab's errors, formats and printable report.

    irlab eval [-q] [-n] [-c] [-J] [-M N] [-l N] [-N N] [-m MEASURE]... [--format text|json|csv] qrels run

trec_eval's long option names are accepted as trec_eval spells them
(``--nosummary``, ``--Judged_docs_only``, ``--Max_retrieved_per_topic`` ...).

``-m`` is repeatable and accepts trec_eval's glued form (``-mP.5,10``) and
nicknames (``official`` -- the default -- and ``all_trec``).

``--diversity`` reads the qrels as TREC diversity qrels (``topic subtopic docno judgment``) and prints ndeval
4.5's measures (:mod:`irlab.trec.diversity`) in the same layouts, with ndeval's ``-alpha``, ``-beta`` and
``-traditional`` as ``--alpha``, ``--beta`` and ``--traditional``.
"""

from __future__ import annotations

import argparse
import os
import sys
import threading
import time

from .. import __version__
from ..errors import ParameterError
from ..messages import unescaped
from .options import add_printable, check_paths

INPUTS = (("qrels", "the qrels"), ("run", "the run"))

_LONG_RUN_BYTES = 50 << 20   # show progress only for inputs this large
_PROGRESS_DELAY = 1.0        # ... and only if still running after this many seconds
# judgments + judged retrieved rows from which their memory goes back to the system before the measures run: the
# measures' Python objects cannot reuse it, so it lowers the peak of a long run (bench_trec's 2*10^7 lines, 1 M rows);
# below (its 7 M lines: 350,000 rows) the page faults of fresh memory would cost more time than the MiB saved are worth
_RELEASE_ROWS = 500_000


def _integer(text):
    """An ASCII integer (no '_' separators, no other digits); huge values are
    saturated by the evaluator, like trec_eval's atol."""
    try:
        v = int(text.strip()) if text.strip().isascii() else None
    except ValueError:
        v = None
    if v is None or "_" in text:
        raise argparse.ArgumentTypeError(f"expected an integer, got {text!r}")
    return v


def _nonneg_int(text):
    v = _integer(text)
    if v < 0:
        raise argparse.ArgumentTypeError(f"expected a non-negative integer, got {text.strip()!r}")
    return v


def add_parser(commands):
    """Add the ``eval`` command to the main parser's ``commands``.

    Every option has trec_eval's short letter and its long name exactly as
    trec_eval spells it (``--Judged_docs_only``), plus irlab's own spelling."""
    p = commands.add_parser(
        "eval",
        help="evaluate a TREC run against qrels (trec_eval 10.0 semantics)",
        description="Evaluate a TREC run file against a qrels file, like trec_eval 10.0. "
                    "Files may be gzip-compressed.",
    )
    p.add_argument("qrels", help="qrels file: qid iter docno grade (with --diversity: topic subtopic docno judgment)")
    p.add_argument("run", help="run file: qid Q0 docno rank score runid")
    p.add_argument("-m", "--measure", dest="measures", action="append", metavar="MEASURE",
                   help="measure or nickname, optionally with parameters: map, P.5,10, "
                        "ndcg_cut.10, official, all_trec, or an ir_measures name: nDCG@10, AP(rel=2), "
                        "P(rel=2)@5, RR, INST(T=3), SDCG@10, or alpha_nDCG@20, ERR_IA@20 on diversity qrels "
                        "(topic subtopic docno judgment) (repeatable; default: official)")
    p.add_argument("-q", "--query_eval_wanted", "--query", dest="per_topic", action="store_true",
                   help="also print per-topic values")
    p.add_argument("-n", "--nosummary", dest="summary", action="store_false",
                   help="do not print the summary ('all') lines")
    p.add_argument("-c", "--complete_rel_info_wanted", "--complete", dest="complete", action="store_true",
                   help="average over every qrels topic: a topic missing from the run is ranked on a "
                        "stand-in of one unjudged document, as trec_eval does")
    p.add_argument("-M", "--Max_retrieved_per_topic", "--max-docs", dest="depth", type=_nonneg_int,
                   metavar="N", help="evaluate only the top N documents of each topic")
    p.add_argument("-l", "--level_for_rel", "--level", dest="relevance_level", type=_integer, default=1,
                   metavar="N", help="minimum grade counted as relevant by binary measures (default 1)")
    p.add_argument("-J", "--Judged_docs_only", "--judged-only", dest="judged_only", action="store_true",
                   help="evaluate only the retrieved documents that have a judgment")
    p.add_argument("-N", "--Number_docs_in_coll", "--num-docs", dest="num_docs_in_coll", type=_nonneg_int,
                   default=0, metavar="N", help="number of documents in the collection (for utility)")
    p.add_argument("-v", "--version", action="version",
                   version=f"irlab {__version__} (trec_eval 10.0 semantics)")
    p.add_argument("--format", dest="format", choices=("text", "json", "csv"), default="text",
                   help="output format (default: trec_eval text)")
    add_printable(p, "also write a printable report (per-topic tables and bars) as PDF")
    diversity = p.add_argument_group(
        "diversity (ndeval 4.5)",
        "--diversity reads QRELS as TREC diversity qrels, 'topic subtopic docno judgment', and prints ndeval's "
        "intent-aware measures (-m alpha-nDCG@20, ERR-IA@5,10, NRBP, ...; default: ndeval's 21); -q, -n, -c, -M, "
        "-l and --format keep their meaning")
    diversity.add_argument("--diversity", action="store_true",
                           help="evaluate on TREC diversity qrels, as ndeval 4.5 does")
    diversity.add_argument("--alpha", metavar="A",
                           help="redundancy intolerance in [0, 1] (ndeval's -alpha; default 0.5)")
    diversity.add_argument("--beta", metavar="B", help="NRBP's patience in [0, 1] (ndeval's -beta; default 0.5)")
    diversity.add_argument("--traditional", action="store_true",
                           help="order each topic by score, then docno, both descending (ndeval's -traditional); "
                                "default: by the rank column, as ndeval")
    p.set_defaults(handler=run)
    return p


class _Progress:
    """A one-line progress bar on stderr (only for long runs on a terminal)."""

    WIDTH = 30

    def __init__(self, label, enabled, stream=None):
        self.label = label
        self.enabled = enabled
        self.stream = stream or unescaped(sys.stderr)  # irlab's own text, redrawn with a carriage return
        self._stop = threading.Event()
        self._thread = None
        self.stage = "reading"
        self.fraction = 0.0
        self.shown = False

    def __enter__(self):
        if self.enabled:
            self._thread = threading.Thread(target=self._loop, daemon=True)
            self._thread.start()
        return self

    def update(self, stage=None, fraction=None):
        if stage is not None:
            self.stage = stage
        if fraction is not None:
            self.fraction = max(0.0, min(1.0, fraction))

    def render(self, elapsed):
        filled = int(round(self.fraction * self.WIDTH))
        bar = "#" * filled + "-" * (self.WIDTH - filled)
        return f"\r{self.label}: [{bar}] {self.fraction * 100:3.0f}% {self.stage} {elapsed:5.1f}s"

    def _loop(self):
        if self._stop.wait(_PROGRESS_DELAY):
            return
        t0 = time.monotonic() - _PROGRESS_DELAY
        while True:
            self.stream.write(self.render(time.monotonic() - t0))
            self.stream.flush()
            self.shown = True
            if self._stop.wait(0.2):
                break
        self.stream.write("\r" + " " * (len(self.label) + self.WIDTH + 40) + "\r")
        self.stream.flush()

    def __exit__(self, *exc):
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
        return False


def run(args) -> int:
    """Run ``irlab eval`` for a parsed namespace; print to stdout; return exit code.

    Bad input raises :class:`irlab.errors.IrlabError` (the main CLI turns it
    into ``irlab: error: ...`` and exit status 2)."""
    # the evaluator makes no BLAS call (it sorts, hashes and sums), so OpenBLAS's threads would only wait: one, set
    # before numpy loads and never over the user's own setting
    if "numpy" not in sys.modules:
        os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    # deferred: irlab.trec loads numpy, which no other command needs
    from ..trec.evaluate import file_size, prepare, read_inputs, topic_coverage_notes
    from ..trec.measures import compute_all, parse_measures
    from ..trec.diversity_names import is_diversity
    from ..trec.named import batch_plan, evaluate_specs, split_specs
    from ..trec.readers import release_free_memory

    check_paths(args, INPUTS)
    if getattr(args, "diversity", False):
        return _run_diversity(args)
    for option, given in (("--alpha", getattr(args, "alpha", None)), ("--beta", getattr(args, "beta", None)),
                          ("--traditional", getattr(args, "traditional", False))):
        if given:
            raise ParameterError(f"{option} is an option of --diversity (ndeval's measures); add --diversity")

    notes = []
    specs = args.measures or ["official"]
    trec_specs, named = split_specs(specs)   # ir_measures names (nDCG@10, AP(rel=2)) beside trec_eval's
    if any(map(is_diversity, named)):   # alpha_nDCG@20, ERR_IA@20 ...: read from diversity qrels, by ndeval
        return _run_diversity_names(args, specs, evaluate_specs)
    plan = parse_measures(trec_specs, notes=notes) if not named else None
    if named:
        batch_plan(named, args.relevance_level)   # a name irlab does not compute is refused before reading files
    long_run = file_size(args.run) + file_size(args.qrels) >= _LONG_RUN_BYTES  # and >1 s, see _Progress
    show = long_run and sys.stdout.isatty() and sys.stderr.isatty()
    with _Progress("irlab eval", show) as prog:
        # without a progress bar the qrels are read beside the run, on a second core when one is idle
        progress = (lambda f: prog.update("reading", 0.9 * f)) if show else None
        qrels, run, joined = read_inputs(args.qrels, args.run, progress=progress)
        prog.update("evaluating", 0.9)
        options = dict(relevance_level=args.relevance_level, depth=args.depth, complete=args.complete,
                       judged_only=getattr(args, "judged_only", False),
                       num_docs_in_coll=getattr(args, "num_docs_in_coll", 0))
        if named:
            result = evaluate_specs(qrels, run, specs, **options, joined=joined, notes=notes)
            notes += qrels.notes + run.notes + topic_coverage_notes(qrels, run, complete=args.complete)
        else:
            context = prepare(qrels, run, **options, joined=joined)
            notes += qrels.notes + run.notes + topic_coverage_notes(qrels, run, complete=args.complete)
            held = len(qrels) + len(context.seg)
            del qrels, run, joined   # the measures read the context alone
            if held >= _RELEASE_ROWS:
                release_free_memory(always=True)
            result = compute_all(context, plan)
        prog.update("done", 1.0)
    for note in notes:
        print(f"irlab: note: {note}", file=sys.stderr)
    if getattr(args, "pdf", None) or getattr(args, "html", None):  # the files, and one line on stderr naming them
        from ..printable import run_report, write_printables   # deferred: half of irlab eval's imports otherwise

        write_printables(run_report(result, args.qrels, args.run), args.pdf, getattr(args, "html", None))
        return 0
    _write_result(result, args)
    return 0


def _run_diversity_names(args, specs, evaluate_specs) -> int:
    """``irlab eval -m alpha_nDCG@20``: ir_measures' diversity names, on diversity qrels (irlab.trec.diversity_names)."""
    for option, given in (("--pdf", getattr(args, "pdf", None)), ("--html", getattr(args, "html", None))):
        if given:
            raise ParameterError(f"{option} has no meaning with diversity measures (ndeval's)")
    notes = []
    result = evaluate_specs(args.qrels, args.run, specs, relevance_level=args.relevance_level, depth=args.depth,
                            complete=args.complete, judged_only=getattr(args, "judged_only", False),
                            num_docs_in_coll=getattr(args, "num_docs_in_coll", 0), notes=notes)
    for note in notes:
        print(f"irlab: note: {note}", file=sys.stderr)
    _write_result(result, args)
    return 0


def _write_result(result, args) -> None:
    """The result on stdout as trec_eval prints it: ids byte for byte into a file or a pipe, as trec_eval writes
    them (on a terminal, irlab.cli.main shows a control character in them as '<U+001B>')."""
    from ..trec.output import format_result  # deferred: irlab.trec loads numpy, which no other command needs

    sys.stdout.write(format_result(result, args.format, per_topic=args.per_topic,
                                   summary=getattr(args, "summary", True)))
    sys.stdout.flush()


def _unit(text, option):
    """--alpha or --beta as typed ('0.5', '1/3'), a number in [0, 1]."""
    if text is None:
        return 0.5   # ndeval's default for both
    from ..exact import parse_number  # deferred: exact numbers (fractions, decimal) for --alpha and --beta only

    try:
        value = parse_number(text)
    except ValueError as exc:
        raise ParameterError(f"{option}: {exc}") from None
    if not 0 <= value <= 1:
        raise ParameterError(f"{option} must be between 0 and 1 (as ndeval's), got {text.strip()}")
    return float(value)


def _run_diversity(args) -> int:
    """``irlab eval --diversity``: ndeval 4.5's measures (:mod:`irlab.trec.diversity`), printed as trec_eval prints."""
    # deferred: irlab.trec loads numpy, which no other command needs
    from ..trec.diversity import evaluate_diversity

    for option, given in (("-J", getattr(args, "judged_only", False)), ("-N", getattr(args, "num_docs_in_coll", 0)),
                          ("--pdf", getattr(args, "pdf", None)), ("--html", getattr(args, "html", None))):
        if given:
            raise ParameterError(f"{option} has no meaning with --diversity (ndeval's options are -q, -n, -c, -M, "
                                 "-l, -m, --alpha, --beta, --traditional and --format)")
    notes = []
    result = evaluate_diversity(args.qrels, args.run, args.measures, alpha=_unit(args.alpha, "--alpha"),
                                beta=_unit(args.beta, "--beta"), traditional=args.traditional, depth=args.depth,
                                complete=args.complete, relevance_level=args.relevance_level, notes=notes)
    for note in notes:
        print(f"irlab: note: {note}", file=sys.stderr)
    _write_result(result, args)
    return 0
