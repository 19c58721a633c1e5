"""Breaks ties by docno descending, but as numbers (int(docno)), not as strings like trec_eval's strcmp."""
from trec_eval_q import TrecEvaluator, run
class Bug(TrecEvaluator):
    def order(self, rows):
        rows = sorted(rows, key=lambda r: int(r[0]), reverse=True)
        return [doc for doc, _r, _s in sorted(rows, key=lambda r: -r[2])]
run(Bug)
