"""R@50 divided by 50 instead of by the number of relevant documents."""
from ir_eval import Evaluator, run
class Bug(Evaluator):
    def recall(self, ranking, judged, k):
        rel = self.relevant(judged)
        return sum(1 for d in ranking[:k] if d in rel) / k
run(Bug)
