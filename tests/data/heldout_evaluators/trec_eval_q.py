"""A student's trec_eval -q look-alike (no irlab): one file per system, 'measure<TAB>topic<TAB>value', 4 decimals,
trec_eval's choices: equal scores by docno descending, DCG discount log2(i+1), linear gain; a topic a run lacks has no
line and scores 0 in the 'all' mean (-c)."""
import math
import os
import sys
from ir_eval import Evaluator

NAMES = ["P_10", "recall_50", "Rprec", "map", "ndcg_cut_10", "ndcg_cut_20"]


class TrecEvaluator(Evaluator):
    decimals = 4

    def order(self, rows):
        rows = sorted(rows, key=lambda r: r[0], reverse=True)          # docno descending ...
        return [doc for doc, _r, _s in sorted(rows, key=lambda r: -r[2])]  # ... within equal scores (stable)

    def discount(self, i):
        return math.log2(i + 1)

    def main(self, collection, outdir):
        os.makedirs(outdir, exist_ok=True)
        qrels = self.read_qrels(f"{collection}/qrels.txt")
        for s in self.systems:
            run = self.read_run(f"{collection}/system{s}.run")
            table = self.system_rows(qrels, run)
            with open(f"{outdir}/{s}.eval", "w") as f:
                f.write(f"{'runid':<22}\tall\tsystem{s}\n")
                for q, values in table:
                    if True:  # trec_eval 10.0 -c prints a missing topic too (a bogus ranking scoring 0)
                        for name, v in zip(NAMES, values):
                            f.write(f"{name:<22}\t{q}\t{self.fmt(v)}\n")
                f.write(f"{'num_q':<22}\tall\t{len(table)}\n")
                for i, name in enumerate(NAMES):
                    f.write(f"{name:<22}\tall\t{self.fmt(self.mean([v[i] for _, v in table]))}\n")


def run(cls):
    cls().main(sys.argv[1], sys.argv[2])


if __name__ == "__main__":
    run(TrecEvaluator)
