"""Reads the rank column as the score and sorts it descending: every ranking comes out reversed."""
from ir_eval import Evaluator, run
class Bug(Evaluator):
    def order(self, rows):
        return [doc for doc, _r, _s in sorted(rows, key=lambda r: -r[1])]
run(Bug)
