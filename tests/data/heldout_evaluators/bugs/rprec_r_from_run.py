"""R-precision with R = the relevant documents counted in the run, not in the qrels."""
from ir_eval import Evaluator, run
class Bug(Evaluator):
    def r_of(self, ranking, judged):
        rel = self.relevant(judged)
        return sum(1 for d in ranking if d in rel)
run(Bug)
