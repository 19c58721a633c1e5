"""Off by one: every cut-off keeps k+1 documents (range(k + 1))."""
from ir_eval import Evaluator, run
class Bug(Evaluator):
    def top(self, ranking, k):
        return ranking[:k + 1]
run(Bug)
