"""Batch TREC evaluation with trec_eval 10.0 semantics (vectorised with numpy).

>>> from irlab.trec import evaluate
>>> res = evaluate("qrels.txt", "run.txt", ["map", "P.10", "ndcg_cut.10"])  # doctest: +SKIP
>>> res.summary["map"], res.per_topic["301"]["P_10"]                        # doctest: +SKIP

Measures: every measure of trec_eval 10.0's ``all_trec`` set (num_q, num_ret,
num_rel, num_rel_ret, map, gm_map, Rprec, bpref, recip_rank,
iprec_at_recall_*, P_*, relstring, recall_*, infAP, gm_bpref, Rprec_mult_*,
utility, 11pt_avg, ndcg, ndcg_rel, Rndcg, ndcg_cut_*, map_cut_*, relative_P_*,
success_*, set_P, set_relative_P, set_recall, set_map, set_F,
num_nonrel_judged_ret, binG, G, rbp, rbp_resid, unj_*), plus trec_eval's dcg,
ideal_dcg and yaap, with trec_eval's names, parameter syntax (``P.5,10``,
``ndcg.1=3,2=9``), nicknames (``official``, ``all_trec``, ``set``) and output
order.  Beyond trec_eval, only when named: ``err_cut``, ``nerr_cut``,
``ndcg_exp_cut``.  Not implemented (they need other qrels formats): the names
in :data:`irlab.trec.measures.UNSUPPORTED` (prefs_*, *_avgjg).

Differences from trec_eval, on purpose: bad input is an error naming file and
line (trec_eval truncates a grade of 1.7 to 1, accepts "nan" scores, ...);
``-l`` must be >= 0; a gain for level -1 (not in the qrels) is refused.
"""

from irlab.trec.evaluate import EvalResult, TopicJudgments, topic_judgments
from irlab.trec.named import evaluate
from irlab.trec.measures import MEASURES, NICKNAMES, UNSUPPORTED, parse_measures
from irlab.trec.output import format_csv, format_json, format_result, format_text
from irlab.trec.readers import Qrels, Run, read_qrels, read_run

__all__ = [
    "evaluate", "EvalResult", "topic_judgments", "TopicJudgments",
    "read_qrels", "read_run", "Qrels", "Run",
    "format_text", "format_json", "format_csv", "format_result",
    "MEASURES", "NICKNAMES", "UNSUPPORTED", "parse_measures",
]
