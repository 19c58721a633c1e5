"""ndcg_cut with DCG = rel_1 + sum rel_i / log2 i (the formula from the lecture slides), not trec_eval's log2(i+1)."""
import math
from trec_eval_q import TrecEvaluator, run
class Bug(TrecEvaluator):
    def discount(self, i):
        return 1.0 if i == 1 else math.log2(i)
run(Bug)
