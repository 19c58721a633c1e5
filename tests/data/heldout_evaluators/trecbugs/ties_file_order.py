"""Keeps equal scores in the order the run file lists them (no docno tie-break)."""
from ir_eval import Evaluator
from trec_eval_q import TrecEvaluator, run
class Bug(TrecEvaluator):
    order = Evaluator.order
run(Bug)
