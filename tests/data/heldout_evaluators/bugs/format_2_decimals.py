"""Writes every score with 2 decimals ('%.2f')."""
from ir_eval import Evaluator, run
class Bug(Evaluator):
    decimals = 2
run(Bug)
