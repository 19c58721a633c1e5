"""nDCG with gain 2^rel - 1."""
from ir_eval import Evaluator, run
class Bug(Evaluator):
    def gain(self, grade):
        return 2 ** grade - 1
run(Bug)
