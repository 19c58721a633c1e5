"""Two bugs: ties re-sorted by docno AND the nDCG ideal taken from the run's own grades."""
from ir_eval import Evaluator, run
class Bug(Evaluator):
    def order(self, rows):
        return [doc for doc, _r, _s in sorted(rows, key=lambda r: (-r[2], r[0]))]
    def ideal_grades(self, ranking, judged, k):
        return sorted((judged.get(d, 0) for d in ranking), reverse=True)
run(Bug)
