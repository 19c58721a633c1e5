"""P@10 with integer division (//): 0 unless all ten are relevant."""
from ir_eval import Evaluator, run
class Bug(Evaluator):
    def precision(self, ranking, judged, k):
        rel = self.relevant(judged)
        return sum(1 for d in ranking[:k] if d in rel) // k
run(Bug)
