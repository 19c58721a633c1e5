"""Not a bug: the columns in another order, header and values consistent."""
import csv
from ir_eval import Evaluator, run
class Ok(Evaluator):
    def main(self, collection, out):
        super().main(collection, out)
        rows = list(csv.reader(open(out)))
        perm = [1, 0, 7, 6, 5, 4, 3, 2]
        with open(out, "w", newline="") as f:
            csv.writer(f).writerows([[r[i] for i in perm] for r in rows])
run(Ok)
