"""Two bugs: the 'web' nDCG, exponential gain 2^rel - 1 AND discount log2(i+1)."""
import math
from ir_eval import Evaluator, run
class Bug(Evaluator):
    def gain(self, grade):
        return 2 ** grade - 1
    def discount(self, i):
        return math.log2(i + 1)
run(Bug)
