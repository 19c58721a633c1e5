"""Two bugs: AP over the relevant retrieved AND every score rounded to 2 decimals."""
from ir_eval import Evaluator, run
class Bug(Evaluator):
    def ap_denominator(self, ranking, judged, found):
        return found
    def fmt(self, x):
        return f"{round(x, 2):.3f}"
run(Bug)
