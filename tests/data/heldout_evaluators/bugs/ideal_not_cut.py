"""nDCG@k: the ideal DCG sums over all relevant documents, not only the first k."""
from ir_eval import Evaluator, run
class Bug(Evaluator):
    def ideal_dcg(self, ranking, judged, k):
        grades = self.ideal_grades(ranking, judged, k)
        return self.dcg(grades, len(grades))
run(Bug)
