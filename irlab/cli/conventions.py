"""``irlab conventions MEASURE …``: why libraries disagree — every tool's value of a measure on one ranking, with the
irlab conventions that reproduce it (the library is :mod:`irlab.explorer`).

    irlab conventions ndcg --scores 0.9,0.5,0.5,0.1 --grades 2,0,1,1 [--k K] [--format …] [--pdf F] [--html F]
"""

from __future__ import annotations

import sys

from ..document import Displayable
from ..errors import ParameterError
from ..explorer import MEASURES, PAIRED, Case, explore, explore_all, measure_name, topic_case
from ..printable import write_printables
from ..ranking import Ranking, parse_grade_list
from .options import add_format, add_printable, check_paths, integer

INPUTS = (("qrels", "the --qrels file"), ("run", "the --run file"))


def add_parser(commands):
    p = commands.add_parser(
        "conventions",
        help="why libraries disagree: every tool's value of a measure, with the conventions behind it",
        description="Compare trec_eval 10.0, trec_eval 9 (pytrec_eval), ir_measures, ranx, scikit-learn, "
                    "torchmetrics, TF-Ranking, RecBole, BEIR and the textbook on one ranking (and scipy on two "
                    "score lists: tau, spearman): the exact value each computes, the irlab conventions that "
                    "reproduce it and why it differs.",
    )
    p.add_argument("measure", nargs="?", help=f"one of {', '.join(MEASURES)}, or all (with --qrels/--run or --scores)")
    p.add_argument("--bugs", action="store_true", help="list the catalogue of classic evaluator bugs irlab check-eval "
                   "names (each: what it computes, the reference, the measures it touches)")
    p.add_argument("--scores", metavar="LIST", help="the system's scores, one per document ('0.9,0.5,0.5,0.1')")
    p.add_argument("--grades", metavar="LIST", help="the documents' grades, in the same order as --scores")
    p.add_argument("--docnos", metavar="IDS", help="document ids (trec_eval breaks ties by them; default d1, d2, …)")
    p.add_argument("--ranking", metavar="RANKING", help="a ranking already in order: 'RNNRR' or '3,2,0,1'")
    p.add_argument("--relevant", metavar="R", help="R, the number of relevant documents for the query")
    p.add_argument("--unretrieved", metavar="GRADES", help="grades of judged documents not retrieved ('2,1')")
    p.add_argument("--k", metavar="K", help="cut-off k")
    p.add_argument("--recall-level", metavar="r", help="iprec: the recall level")
    p.add_argument("--gains", metavar="TABLE", help="ndcg/dcg: a gain per grade, '1=1,2=5' (trec_eval ndcg.l=g)")
    p.add_argument("--log-base", metavar="B", help="ndcg/dcg: base of the discount's logarithm (scikit-learn log_base)")
    p.add_argument("--beta", metavar="B", help="f: the F-measure's parameter (β for IIR, the weight β² for set_F)")
    p.add_argument("--judge1", metavar="COLUMN", help="kappa: first judge's 0/1 judgments")
    p.add_argument("--judge2", metavar="COLUMN", help="kappa: second judge's 0/1 judgments")
    p.add_argument("--x", metavar="SCORES", help="tau/spearman: the first score list ('0.31,0.28,0.28'), e.g. the MAP "
                   "of each system under one set of judgments")
    p.add_argument("--y", metavar="SCORES", help="tau/spearman: the second score list, item by item")
    p.add_argument("--qrels", metavar="FILE", help="all: TREC qrels file")
    p.add_argument("--run", metavar="FILE", help="all: TREC run file")
    p.add_argument("--topic", metavar="T", help="all: the topic (default: the run's first)")
    add_format(p)
    add_printable(p, "also write the comparison as a printable PDF (a handout)")
    p.set_defaults(handler=run)
    return p


def _refuse_unused(args, measure: str) -> None:
    """Every option given is used: one that this comparison would ignore is an error, not silently dropped."""
    trec = bool(args.qrels or args.run)
    unused = {
        "--k": args.k is not None and measure in ("kappa", "tau", "spearman", "11pt", "iprec"),
        "--x/--y": (args.x is not None or args.y is not None) and measure not in ("tau", "spearman"),
        "--recall-level": args.recall_level is not None and measure != "iprec",
        "--gains/--log-base": (args.gains is not None or args.log_base is not None) and measure not in ("ndcg", "dcg"),
        "--beta": args.beta is not None and measure != "f",
        "--k (set_F has no cut-off: trec_eval -M k cuts the run)": args.k is not None and measure == "f",
        "--judge1/--judge2": (args.judge1 is not None or args.judge2 is not None) and measure != "kappa",
        "--topic": args.topic is not None and not trec,
        "--docnos": args.docnos is not None and args.scores is None,
        "--scores/--grades/--ranking": trec and (args.scores or args.grades or args.ranking) is not None,
        "--relevant/--unretrieved": trec and (args.relevant or args.unretrieved) is not None,
    }
    if measure in PAIRED:
        unused["--scores/--grades/--ranking/--qrels/--run"] = any(
            v is not None for v in (args.scores, args.grades, args.ranking, args.qrels, args.run))
    given = [option for option, ignored in unused.items() if ignored]
    if given:
        raise ParameterError(f"irlab conventions {measure} does not use {', '.join(given)}")


def conventions_result(args) -> Displayable:
    measure = args.measure.strip().lower()
    if measure != "all":
        measure = measure_name(measure)
    _refuse_unused(args, measure)
    k = integer(args.k, "--k", 1)
    relevant = integer(args.relevant, "--relevant", 0)
    if args.qrels or args.run:
        if not (args.qrels and args.run):
            raise ParameterError("--qrels and --run go together")
        case, topic = topic_case(args.qrels, args.run, args.topic)
        title = f"Topic {topic} of {args.run}: why the libraries disagree"
        if measure == "all":
            return explore_all(case, k, title)
        return explore(measure, case, k, args.recall_level, **_measure_options(args))
    if measure == "kappa":
        return explore(measure, None, k, args.recall_level, (args.judge1, args.judge2))
    if measure in ("tau", "spearman"):
        if args.x is None or args.y is None:
            raise ParameterError(f"{measure} compares two score lists of the same items: give --x and --y")
        return explore(measure, None, judges=(args.x, args.y))
    if args.scores is not None or args.grades is not None:
        if args.scores is None or args.grades is None:
            raise ParameterError("--scores and --grades go together (one grade per scored document)")
        if args.ranking:
            raise ParameterError("give either --ranking or --scores with --grades, not both")
        case = Case.from_scores(args.scores, args.grades, args.docnos, args.unretrieved or (), relevant)
    elif args.ranking:
        unretrieved = parse_grade_list(args.unretrieved, "--unretrieved") if args.unretrieved else ()
        case = Case.from_ranking(Ranking.parse(args.ranking, relevant=relevant, unretrieved=unretrieved))
    else:
        raise ParameterError("give the documents: --scores with --grades, --ranking, or --qrels with --run")
    if measure == "all":
        return explore_all(case, k)
    return explore(measure, case, k, args.recall_level, **_measure_options(args))


def _measure_options(args) -> dict:
    return {"gains": args.gains, "log_base": args.log_base, "beta": args.beta}


def run(args) -> int:
    if args.bugs:  # the bug catalogue is data beside the conventions (irlab.assignment.catalogue)
        from ..assignment.catalogue import catalogue_text  # deferred: only --bugs needs the check-eval catalogue

        sys.stdout.write(catalogue_text())
        return 0
    if args.measure is None:
        raise ParameterError("give a measure (or all), or --bugs for the catalogue of evaluator bugs")
    check_paths(args, INPUTS)
    result = conventions_result(args)
    if getattr(args, "pdf", None) or getattr(args, "html", None):  # the files, and one line on stderr naming them
        write_printables(result.document(), args.pdf, args.html)
    else:
        sys.stdout.write(result.render(args.format))
    return 0
