"""Writes no row for a topic the system did not answer, but its mean still counts it as 0 (correct mean)."""
from ir_eval import Evaluator, run
class Bug(Evaluator):
    def row(self, system, topic, values):
        return super().row(system, topic, values)
    def system_rows(self, qrels, run):
        self.answered = set(run)
        return super().system_rows(qrels, run)
    def main(self, collection, out):
        super().main(collection, out)
        lines = open(out).read().splitlines()
        kept = [l for l in lines if not l.startswith("3,7,")]
        open(out, "w").write("\n".join(kept) + "\n")
run(Bug)
