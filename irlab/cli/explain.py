"""``irlab explain METRIC RANKING…``: one metric computed exactly and explained step by step.

    irlab explain ap RNNRR --relevant 5 [--format text|markdown|latex|html|json] [--pdf F] [--html F]
    irlab explain ap --qrels FILE --run FILE --topic QID          # one topic of TREC files
"""

from __future__ import annotations

import sys

from .. import conventions as conv
from ..explanation import explain_document, explain_result
from ..printable import write_printables
from ..slides import SLIDES_HELP, slides_outputs, write_announced
from .options import IntermixedParser, add_format, add_printable, check_paths

INPUTS = (("qrels", "the --qrels file"), ("run", "the --run file"))


def add_parser(commands) -> None:
    explain = commands.add_parser("explain", help="compute one metric exactly and explain it step by step")
    explain.__class__ = IntermixedParser  # add_parser takes no per-command class; this one only adds a method
    explain.add_argument("metric", help="metric name (irlab metrics lists them), or an ir_measures name: nDCG@5 "
                         "(ndcg --k 5), AP(rel=2), RBP(p=0.8), IPrec@0.5 ...")
    explain.add_argument("rankings", nargs="*", metavar="RANKING",
                         help="an R/N string (RNNRR) or grades (3,2,0,1); several rankings give the mean over queries")
    ranking = explain.add_argument_group("what is known about the ranking")
    ranking.add_argument("--relevant", metavar="R", help="total number of relevant documents (one per ranking, comma-separated)")
    ranking.add_argument("--unretrieved", metavar="GRADES", help="grades of judged documents not retrieved ('2,1'; ';' between rankings)")
    ranking.add_argument("--collection", metavar="N", help="number of documents in the collection (one per ranking, "
                         "comma-separated, or one for all)")
    ranking.add_argument("--threshold", metavar="T", help="a grade >= T counts as relevant (default 1)")
    ranking.add_argument("--scores", metavar="SCORES", help="precision, rr, ap, dcg, ndcg: the system's score at each "
                         "rank, in rank order (0.9,0.8,0.8,0.1; ';' between rankings): equal scores are ties, resolved "
                         "by --ties")
    trec = explain.add_argument_group("one topic of TREC files instead of a RANKING")
    trec.add_argument("--qrels", metavar="FILE", help="TREC qrels file (qid iter docno grade)")
    trec.add_argument("--run", metavar="FILE", help="TREC run file (qid Q0 docno rank score runid)")
    trec.add_argument("--topic", metavar="QID", help="the topic to explain")
    trec.add_argument("--depth", metavar="M", help="keep only the top M documents of the run (trec_eval -M)")
    params = explain.add_argument_group("metric parameters")
    params.add_argument("--k", metavar="K", help="cut-off rank")
    params.add_argument("--recall-level", metavar="X", help="recall level in [0, 1] (0.25 or 25%%)")
    params.add_argument("--beta", metavar="B", help="F-measure weight of recall (default 1); q-measure: the same "
                        "option weighs the gain in the blended ratio (default 1; 0 gives AP)")
    params.add_argument("--max-grade", metavar="G", help="top of the grade scale for ERR (default: highest judged grade)")
    params.add_argument("--gains", metavar="TABLE", help="dcg/ndcg: a gain per grade, '1=1,2=5' (trec_eval ndcg.l=g); "
                        "q-measure: a gain per relevant grade (default gain = grade)")
    params.add_argument("--log-base", metavar="B", help="dcg/ndcg: base of the discount's logarithm (default 2; "
                        "scikit-learn dcg_score log_base)")
    params.add_argument("--judge1", metavar="COLUMN", help="kappa: first judge's 0/1 judgments; cohen-kappa/weighted-kappa: "
                        "first judge's categories (grades 0,2,1 or labels high,low)")
    params.add_argument("--judge2", metavar="COLUMN", help="kappa: second judge's 0/1 judgments; cohen-kappa/weighted-kappa: "
                        "second judge's categories")
    params.add_argument("--weights", metavar="linear|quadratic", help="weighted-kappa: disagreement weights, "
                        "|i-j|/(k-1) or ((i-j)/(k-1))^2 (default quadratic)")
    params.add_argument("--counts", metavar="COUNTS", help="set metrics: tp=20,fp=40,fn=60,tn=880 instead of a ranking; "
                        "kappa: the judges' 2x2 table yes-yes,yes-no,no-yes,no-no (300,20,10,70)")
    params.add_argument("--levels", metavar="R1,R2,…", help="kpt: the recall levels to average (0.2,0.5,0.8)")
    params.add_argument("--persistence", metavar="P", help="rbp: probability of reading on to the next rank (default 9/10)")
    params.add_argument("--target", metavar="T", help="inst/insq: the amount of gain the user wants (default 1, cwl-eval's T)")
    params.add_argument("--max-depth", metavar="N", help="inst/insq/sdcg and --user-model: ranks read, gain 0 beyond the "
                        "list (default 1000, cwl-eval --max_depth)")
    params.add_argument("--user-model", action="store_true", help="precision, rr, rbp: also explain the metric as a C/W/L "
                        "user model (C(i), W(i), L(i); expected rate of gain, expected depth, expected total gain; "
                        "sdcg, inst and insq always are)")
    params.add_argument("--alpha", metavar="A", help="diversity (alpha-ndcg, err-ia, …): α in (0, 1], the chance a "
                        "relevant document satisfies; a subtopic seen c times gains (1-α)^c (default 1/2, ndeval's)")
    params.add_argument("--quantity", metavar="Q", help="t-test, wilcoxon, sign-test: the answer, p (default) or a "
                        "statistic: t, df; w-plus (R's V), w-minus, z; n-plus, n-minus, n (irlab metrics lists them)")
    params.add_argument("--judges", metavar="COLUMNS", help="fleiss/pairwise-kappa: every judge's column, ';' between "
                        "judges ('1,1,0; 1,0,0; 1,1,1')")
    params.add_argument("--a", metavar="IDS", help="kendall/spearman: first ranking of document ids; kendall-tau/"
                        "spearman-scores and the paired tests: first list of scores (0.31,0.25,0.25)")
    params.add_argument("--b", metavar="IDS", help="kendall/spearman: second ranking of document ids; kendall-tau/"
                        "spearman-scores and the paired tests: second list of scores, paired by position")
    choices = explain.add_argument_group("conventions (where the literature disagrees)")
    for convention in conv.ALL:
        keys = [c.key for c in convention.choices]
        choices.add_argument(convention.option, dest=convention.name, metavar="|".join(keys),
                             help=f"{convention.question} (default {convention.default})")
    add_format(explain)
    explain.add_argument("--standalone", action="store_true", help="a complete LaTeX document or HTML page")
    add_printable(explain)
    explain.add_argument("--slides", metavar="FILE", help=SLIDES_HELP)
    explain.set_defaults(handler=run)


def run(args) -> int:
    check_paths(args, INPUTS, slides_outputs(args.slides))
    printable = bool(args.pdf or args.html or args.slides)
    page = args.standalone and args.format == "html"  # a page carries its figure, exactly as --html writes it
    if printable:  # the files and the one line on stderr that names them, not the whole explanation again
        document = explain_document(args)[0]
        write_printables(document, args.pdf, args.html)
        if args.slides:
            write_announced(document, args.slides)
        return 0
    if page:
        document, result = explain_document(args)
    else:
        result = explain_result(args)
    sys.stdout.write(document.render("html", standalone=True) if page else
                     result.render(args.format, standalone=args.standalone))
    return 0
