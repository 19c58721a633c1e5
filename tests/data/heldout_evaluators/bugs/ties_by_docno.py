"""Re-sorts each ranking by score, equal scores by docno (string order), instead of keeping the listed order."""
from ir_eval import Evaluator, run
class Bug(Evaluator):
    def order(self, rows):
        return [doc for doc, _r, _s in sorted(rows, key=lambda r: (-r[2], r[0]))]
run(Bug)
