"""A student's evaluator, written the way the coursework asks, in plain floats (no irlab): the reference the buggy
ones start from. Each bug_*.py in this directory imports it and replaces one function with a classic mistake.

    python3 correct.py QRELS OUT RUN1 RUN2 ...          # TTDS's ir_eval.csv, systems numbered 1, 2, ...
    python3 correct.py --trec QRELS OUTDIR RUN1 ...     # trec_eval -q style, OUTDIR/<n>.eval per system

TTDS's rules: documents in the order the results list them; P@10, R@50, R-precision, AP over all R relevant,
nDCG@10/@20 with the grade as gain and DCG = rel_1 + sum_{i>=2} rel_i / log2 i; a query a system does not answer
scores 0 and counts in the mean; 3 decimals. With --trec: ties by docno descending (trec_eval) and the discount
log2(i + 1) at every rank, 4 decimals.
"""

import math
import sys

TREC = "--trec" in sys.argv
ARGS = [a for a in sys.argv[1:] if a != "--trec"]
DECIMALS = 4 if TREC else 3


def read_qrels(path):
    qrels = {}
    for line in open(path):
        topic, _, doc, grade = line.split()
        qrels.setdefault(topic, {})[doc] = int(grade)
    return qrels


def read_run(path):
    run = {}
    for line in open(path):
        topic, _, doc, rank, score, _ = line.split()
        run.setdefault(topic, []).append((doc, float(score)))
    return run


def rank(rows):
    """The documents in rank order."""
    if TREC:
        rows = sorted(rows, key=lambda r: r[0], reverse=True)
    return [doc for doc, _ in sorted(rows, key=lambda r: -r[1])]


def relevant_count(ranked, judged):
    return sum(1 for g in judged.values() if g > 0)


def precision(ranked, judged, k):
    return sum(1 for d in ranked[:k] if judged.get(d, 0) > 0) / k


def recall(ranked, judged, k):
    R = relevant_count(ranked, judged)
    return sum(1 for d in ranked[:k] if judged.get(d, 0) > 0) / R if R else 0.0


def r_precision(ranked, judged):
    R = relevant_count(ranked, judged)
    return sum(1 for d in ranked[:R] if judged.get(d, 0) > 0) / R if R else 0.0


def average_precision(ranked, judged):
    hits, total = 0, 0.0
    for i, d in enumerate(ranked, 1):
        if judged.get(d, 0) > 0:
            hits += 1
            total += hits / i
    R = relevant_count(ranked, judged)
    return total / R if R else 0.0


def gain(grade):
    return grade


def discount(i):
    if TREC:
        return 1 / math.log2(i + 1)
    return 1.0 if i == 1 else 1 / math.log2(i)


def dcg(grades, k):
    return sum(gain(g) * discount(i) for i, g in enumerate(grades[:k], 1))


def ideal_grades(ranked, judged):
    return sorted((g for g in judged.values() if g > 0), reverse=True)


def ideal_depth(k):
    return k


def ndcg(ranked, judged, k):
    ideal = dcg(ideal_grades(ranked, judged), ideal_depth(k))
    return dcg([max(judged.get(d, 0), 0) for d in ranked], k) / ideal if ideal else 0.0


def cutoff(k):
    return k


MEASURES = [  # (column, trec_eval name, function of (ranked, judged))
    ("P@10", "P_10", lambda r, j: precision(r, j, cutoff(10))),
    ("R@50", "recall_50", lambda r, j: recall(r, j, cutoff(50))),
    ("r-precision", "Rprec", lambda r, j: r_precision(r, j)),
    ("AP", "map", lambda r, j: average_precision(r, j)),
    ("nDCG@10", "ndcg_cut_10", lambda r, j: ndcg(r, j, cutoff(10))),
    ("nDCG@20", "ndcg_cut_20", lambda r, j: ndcg(r, j, cutoff(20))),
]


def fmt(x):
    return f"{x:.{DECIMALS}f}"


def topics_to_score(qrels, run):
    """Every judged topic (a missing one scores 0)."""
    return sorted(qrels, key=int)


def score_topic(run, topic, judged):
    """One value per measure, or None to write no row."""
    if topic not in run:
        return [0.0] * len(MEASURES)
    ranked = rank(run[topic])
    return [f(ranked, judged) for _, _, f in MEASURES]


def mean(values):
    return sum(values) / len(values)


def evaluate(qrels, run):
    """[(topic, values)] and the mean values."""
    rows = []
    for topic in topics_to_score(qrels, run):
        values = score_topic(run, topic, qrels[topic])
        if values is not None:
            rows.append((topic, values))
    means = [mean([values[m] for _, values in rows]) for m in range(len(MEASURES))]
    return rows, means


def main():
    qrels_path, out, *runs = ARGS
    qrels = read_qrels(qrels_path)
    if TREC:
        for n, path in enumerate(runs, 1):
            rows, means = evaluate(qrels, read_run(path))
            with open(f"{out}/{n}.eval", "w") as f:
                f.write(f"runid\tall\tsystem{n}\n")
                for topic, values in rows:
                    for (_, name, _), v in zip(MEASURES, values):
                        f.write(f"{name}\t{topic}\t{fmt(v)}\n")
                for (_, name, _), v in zip(MEASURES, means):
                    f.write(f"{name}\tall\t{fmt(v)}\n")
        return
    with open(out, "w") as f:
        f.write("system_number,query_number," + ",".join(c for c, _, _ in MEASURES) + "\n")
        for n, path in enumerate(runs, 1):
            rows, means = evaluate(qrels, read_run(path))
            for topic, values in rows:
                f.write(f"{n},{topic}," + ",".join(fmt(v) for v in values) + "\n")
            f.write(f"{n},mean," + ",".join(fmt(v) for v in means) + "\n")


if __name__ == "__main__":
    main()
