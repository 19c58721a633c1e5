"""Writes 0 for a topic the system did not answer but averages only over the topics it answered."""
from ir_eval import Evaluator, run
class Bug(Evaluator):
    def system_rows(self, qrels, run):
        table = super().system_rows(qrels, run)
        self.answered = [q in run for q, _ in table]
        return table
    def mean(self, values):
        kept = [v for v, ok in zip(values, self.answered) if ok]
        return sum(kept) / len(kept)
run(Bug)
