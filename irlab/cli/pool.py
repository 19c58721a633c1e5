"""``irlab pool RUN…  -k K``: depth-k pools as TREC builds them, the report and the list of documents to judge;
``irlab pool --to-qrels FILE.csv``: the judging list, filled in, back as qrels.

    irlab pool RUN [RUN ...] -k K [--topic QID]... [-o FILE[.csv]] [--list-format qrels|csv] [--format …]
    irlab pool --to-qrels JUDGED.csv [-o QRELS]
"""

from __future__ import annotations

import sys
from pathlib import Path

from ..errors import ParameterError
from ..outputs import write_text
from ..printable import write_printables
from ..solvers.judging import read_judging_list
from ..solvers.pooling import pool_runs
from .options import add_format, add_printable, check_paths, integer

INPUTS = (("runs", "one of the runs"),)


def add_parser(commands):
    """Add the ``pool`` command to the main parser's ``commands``."""
    p = commands.add_parser(
        "pool", help="build depth-k pools from TREC runs: judging list, pool sizes, unique contributions",
        description="Pool TREC runs as TREC does (the union of each run's top k per topic; Voorhees & Harman "
                    "2005, IIR 8.5): report per topic the pool size and each run's unique contributions, and "
                    "write the documents to judge.")
    p.add_argument("runs", nargs="*", metavar="RUN", help="run files (qid Q0 docno rank score runid)")
    p.add_argument("-k", "--depth", metavar="K", help="pool depth: every run's top K per topic (required with runs)")
    p.add_argument("--topic", action="append", metavar="QID", help="pool only this topic (repeatable)")
    p.add_argument("-o", "--judging-list", metavar="FILE",
                   help="write the documents to judge: qrels lines 'topic 0 docno -1' (trec_eval reads -1 as "
                        "pooled but not judged), or a CSV for assessors when FILE ends in .csv")
    p.add_argument("--to-qrels", metavar="FILE.csv",
                   help="read a judging list written with -o FILE.csv and filled in (topic,docno,relevance) back "
                        "as qrels, to -o FILE or stdout: the apostrophes irlab put before docnos such as +x or "
                        "=SUM(1) removed, an empty relevance written -1 (not judged)")
    p.add_argument("--list-format", choices=("qrels", "csv"), help="format of the judging list (default: csv for "
                   "a .csv file, else qrels)")
    add_format(p, help="output format of the report (default: text)")
    add_printable(p, "also write the pool report as PDF")
    p.set_defaults(handler=run)
    return p


def run(args) -> int:
    """Print the report; write the judging list if asked (or read a filled-in one back as qrels)."""
    if args.to_qrels is not None:
        return to_qrels(args)
    if not args.runs:
        raise ParameterError("give the run files to pool (or --to-qrels FILE.csv to read a judging list back)")
    if args.depth is None:
        raise ParameterError("the following arguments are required: -k/--depth (the pool depth)")
    target = args.judging_list
    check_paths(args, INPUTS, [("-o/--judging-list", target)] if target is not None else [])
    depth = integer(args.depth, "pool depth k (--depth)", 1)
    if target is not None and Path(target).is_dir():
        raise ParameterError(f"--judging-list {target} is a directory; give a file name")
    if target is None and args.list_format:
        raise ParameterError("--list-format applies to the judging list: give --judging-list FILE")
    pooled = pool_runs(args.runs, depth, args.topic)
    if target is not None:
        fmt = args.list_format or ("csv" if target.lower().endswith(".csv") else "qrels")
        write_text(target, pooled.judging_list(fmt))
        print(f"irlab: wrote {target} ({pooled.size} documents to judge, {fmt})", file=sys.stderr)
    document = pooled.document()
    if args.pdf or args.html:  # the files, and one line on stderr naming them
        write_printables(document, args.pdf, args.html)
    else:
        sys.stdout.write(document.render(args.format))
    return 0


def to_qrels(args) -> int:
    """Write the filled-in judging list as qrels (to -o FILE, else stdout); say on stderr what was read."""
    if args.runs or args.depth is not None or args.topic or args.list_format or args.pdf or args.html:
        raise ParameterError("--to-qrels reads a judging list back: give it alone, with -o QRELS for the qrels file "
                             "(no runs, -k, --topic, --list-format, --pdf or --html)")
    target = args.judging_list
    check_paths(args, (("to_qrels", "the judging list"),), [("-o/--judging-list", target)] if target is not None else [])
    if target is not None and Path(target).is_dir():
        raise ParameterError(f"-o {target} is a directory; give a file name")
    judged = read_judging_list(args.to_qrels)
    text = judged.qrels()
    unjudged = judged.unjudged
    topics = len({topic for topic, *_ in judged.rows})
    said = f"{len(judged.rows)} documents of {topics} topic{'s' * (topics != 1)}"
    if unjudged:
        lines = ", ".join(map(str, unjudged[:10])) + (" …" if len(unjudged) > 10 else "")
        said += f"; {len(unjudged)} without a relevance yet, written -1 (not judged): line{'s' * (len(unjudged) != 1)} {lines}"
    if target is None:
        sys.stdout.write(text)
        print(f"irlab: read {args.to_qrels}: {said}", file=sys.stderr)
    else:
        write_text(target, text)
        print(f"irlab: wrote {target} from {args.to_qrels}: {said}", file=sys.stderr)
    return 0
