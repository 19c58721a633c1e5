"""AP divided by the relevant documents the run found, not by all relevant documents."""
from ir_eval import Evaluator, run
class Bug(Evaluator):
    def ap_denominator(self, ranking, judged, found):
        return found
run(Bug)
