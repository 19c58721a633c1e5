"""nDCG with the discount 1/log2(i+1) (the textbook one), not TTDS's rel_1 + sum rel_i/log2 i."""
import math
from ir_eval import Evaluator, run
class Bug(Evaluator):
    def discount(self, i):
        return math.log2(i + 1)
run(Bug)
