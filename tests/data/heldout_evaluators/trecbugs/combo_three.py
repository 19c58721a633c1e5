"""Three bugs at once: ties in file order, map over relevant retrieved, TTDS discount."""
import math
from ir_eval import Evaluator
from trec_eval_q import TrecEvaluator, run
class Bug(TrecEvaluator):
    order = Evaluator.order
    def ap_denominator(self, ranking, judged, found):
        return found
    def discount(self, i):
        return 1.0 if i == 1 else math.log2(i)
run(Bug)
