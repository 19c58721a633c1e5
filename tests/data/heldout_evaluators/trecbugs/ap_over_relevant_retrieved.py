"""map divides by the relevant documents retrieved."""
from trec_eval_q import TrecEvaluator, run
class Bug(TrecEvaluator):
    def ap_denominator(self, ranking, judged, found):
        return found
run(Bug)
