"""AP: sum of precisions divided by the number of documents retrieved."""
from ir_eval import Evaluator, run
class Bug(Evaluator):
    def ap_denominator(self, ranking, judged, found):
        return len(ranking)
run(Bug)
