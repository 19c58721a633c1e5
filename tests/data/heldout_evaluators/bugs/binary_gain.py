"""nDCG treats every relevant document as grade 1."""
from ir_eval import Evaluator, run
class Bug(Evaluator):
    def gain(self, grade):
        return 1 if grade > 0 else 0
run(Bug)
