"""Loops over range(1, 4): system 4 is never evaluated."""
from ir_eval import Evaluator, run
class Bug(Evaluator):
    systems = [1, 2, 3]
run(Bug)
