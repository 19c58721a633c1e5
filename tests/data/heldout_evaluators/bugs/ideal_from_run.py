"""nDCG: the ideal ranking is the run's own documents re-sorted by grade."""
from ir_eval import Evaluator, run
class Bug(Evaluator):
    def ideal_grades(self, ranking, judged, k):
        return sorted((judged.get(d, 0) for d in ranking), reverse=True)
run(Bug)
