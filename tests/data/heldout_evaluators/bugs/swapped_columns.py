"""Writes AP's value under r-precision and r-precision's under AP (the header is right)."""
from ir_eval import Evaluator, run
class Bug(Evaluator):
    def scores(self, ranking, judged):
        s = super().scores(ranking, judged)
        s[2], s[3] = s[3], s[2]
        return s
run(Bug)
