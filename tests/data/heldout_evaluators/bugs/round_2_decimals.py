"""Rounds every score to 2 decimals (round(x, 2)) before writing it with 3."""
from ir_eval import Evaluator, run
class Bug(Evaluator):
    def fmt(self, x):
        return f"{round(x, 2):.3f}"
run(Bug)
