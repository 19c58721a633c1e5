"""Cuts every score to 3 decimals (int(x * 1000) / 1000) instead of rounding."""
from ir_eval import Evaluator, run
class Bug(Evaluator):
    def fmt(self, x):
        return f"{int(x * 1000) / 1000:.3f}"
run(Bug)
