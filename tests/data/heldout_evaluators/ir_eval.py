"""A student's evaluator for TTDS coursework 1 (written without irlab): reads qrels.txt and systemN.run and
writes ir_eval.csv.  Each metric is a method so that a buggy variant overrides exactly one thing."""
import csv
import math
import sys
from collections import defaultdict

MEASURES = ["P@10", "R@50", "r-precision", "AP", "nDCG@10", "nDCG@20"]


class Evaluator:
    decimals = 3
    systems = [1, 2, 3, 4]

    # ---- reading -------------------------------------------------------------------------------------------
    def read_qrels(self, path):
        qrels = defaultdict(dict)
        for line in open(path):
            q, _, doc, grade = line.split()
            qrels[q][doc] = int(grade)
        return qrels

    def read_run(self, path):
        rows = defaultdict(list)
        for line in open(path):
            q, _, doc, rank, score, _tag = line.split()
            rows[q].append((doc, int(rank), float(score)))
        return {q: self.order(r) for q, r in rows.items()}

    def order(self, rows):
        # the ranking as the file lists it (the assignment's ranks)
        return [doc for doc, _rank, _score in rows]

    # ---- helpers ---------------------------------------------------------------------------------------------
    def relevant(self, judged):
        return {d for d, g in judged.items() if g > 0}

    def top(self, ranking, k):
        return ranking[:k]

    # ---- metrics ---------------------------------------------------------------------------------------------
    def precision(self, ranking, judged, k):
        rel = self.relevant(judged)
        return sum(1 for d in self.top(ranking, k) if d in rel) / k

    def recall(self, ranking, judged, k):
        rel = self.relevant(judged)
        return sum(1 for d in self.top(ranking, k) if d in rel) / len(rel)

    def r_of(self, ranking, judged):
        return len(self.relevant(judged))

    def rprec(self, ranking, judged):
        rel = self.relevant(judged)
        r = self.r_of(ranking, judged)
        return sum(1 for d in ranking[:r] if d in rel) / r if r else 0.0

    def ap_denominator(self, ranking, judged, found):
        return len(self.relevant(judged))

    def ap(self, ranking, judged):
        rel = self.relevant(judged)
        found, total = 0, 0.0
        for i, d in enumerate(ranking, start=1):
            if d in rel:
                found += 1
                total += found / i
        den = self.ap_denominator(ranking, judged, found)
        return total / den if den else 0.0

    def gain(self, grade):
        return grade

    def discount(self, i):
        return 1.0 if i == 1 else math.log2(i)

    def dcg(self, grades, k):
        return sum(self.gain(g) / self.discount(i) for i, g in enumerate(grades[:k], start=1))

    def ideal_grades(self, ranking, judged, k):
        return sorted((g for g in judged.values() if g > 0), reverse=True)

    def ideal_dcg(self, ranking, judged, k):
        return self.dcg(self.ideal_grades(ranking, judged, k), k)

    def ndcg(self, ranking, judged, k):
        grades = [judged.get(d, 0) for d in self.top(ranking, k)]
        ideal = self.ideal_dcg(ranking, judged, k)
        return self.dcg(grades, len(grades)) / ideal if ideal else 0.0

    def scores(self, ranking, judged):
        return [self.precision(ranking, judged, 10), self.recall(ranking, judged, 50), self.rprec(ranking, judged),
                self.ap(ranking, judged), self.ndcg(ranking, judged, 10), self.ndcg(ranking, judged, 20)]

    # ---- the table -------------------------------------------------------------------------------------------
    def topics(self, qrels, run):
        return sorted(qrels, key=int)

    def mean(self, values):
        return sum(values) / len(values)

    def fmt(self, x):
        return f"{x:.{self.decimals}f}"

    def system_rows(self, qrels, run):
        table = []
        for q in self.topics(qrels, run):
            ranking = run.get(q, [])
            table.append((q, self.scores(ranking, qrels[q]) if ranking else [0.0] * len(MEASURES)))
        return table

    def row(self, system, topic, values):
        return [system, topic] + [self.fmt(v) for v in values]

    def main(self, collection, out):
        qrels = self.read_qrels(f"{collection}/qrels.txt")
        with open(out, "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(["system_number", "query_number"] + MEASURES)
            for s in self.systems:
                run = self.read_run(f"{collection}/system{s}.run")
                table = self.system_rows(qrels, run)
                for q, values in table:
                    w.writerow(self.row(s, q, values))
                means = [self.mean([v[i] for _, v in table]) for i in range(len(MEASURES))]
                w.writerow(self.row(s, "mean", means))



def run(cls):
    """Run a variant from the command line: python3 variant.py COLLECTION OUT.csv"""
    cls().main(sys.argv[1], sys.argv[2])


if __name__ == "__main__":
    run(Evaluator)
