"""``irlab pool RUN…  -k K``: depth-k pools as TREC builds them, the report and the list of documents to judge.

    irlab pool RUN [RUN ...] -k K [--topic QID]... [-o FILE[.csv]] [--list-format qrels|csv] [--format …]
"""

from __future__ import annotations

import sys
from pathlib import Path

from ..errors import ParameterError
from ..outputs import write_text
from ..printable import write_printables
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
    p.add_argument("runs", nargs="+", metavar="RUN", help="run files (qid Q0 docno rank score runid)")
    p.add_argument("-k", "--depth", required=True, metavar="K", help="pool depth: every run's top K per topic")
    p.add_argument("--topic", action="append", metavar="QID", help="pool only this topic (repeatable)")
    p.add_argument("-o", "--judging-list", metavar="FILE",
                   help="write the documents to judge: qrels lines 'topic 0 docno -1' (trec_eval reads -1 as "
                        "pooled but not judged), or a CSV for assessors when FILE ends in .csv")
    p.add_argument("--list-format", choices=("qrels", "csv"), help="format of the judging list (default: csv for "
                   "a .csv file, else qrels)")
    add_format(p, help="output format of the report (default: text)")
    add_printable(p, "also write the pool report as PDF")
    p.set_defaults(handler=run)
    return p


def run(args) -> int:
    """Print the report; write the judging list if asked."""
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
