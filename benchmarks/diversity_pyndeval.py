"""The peer of ``bench_diversity.py``: diversity qrels and a run read line by line in Python into pyndeval's tuples,
``pyndeval.ndeval`` (ndeval 4.5's C code), and the mean of each measure over the topics.  It imports nothing of
irlab (a child process of the benchmark runs it alone):

    python benchmarks/diversity_pyndeval.py QRELS RUN     # prints each mean as irlab eval -q prints it
"""

import math
import sys


def pyndeval_means(qrels, run):
    import pyndeval  # deferred: an optional oracle (the test extra)

    judgments = []
    with open(qrels) as f:
        for line in f:
            t, s, d, j = line.split()
            judgments.append((t, s, d, int(j)))
    scored = []
    with open(run) as f:
        for line in f:
            t, _, d, rank, _, _ = line.split()
            scored.append((t, d, -float(rank)))   # pyndeval ranks by score: the rank column, as ndeval
    per_topic = pyndeval.ndeval(judgments, scored)
    measures = next(iter(per_topic.values()))
    return {m: math.fsum(v[m] for v in per_topic.values()) / len(per_topic) for m in measures}


if __name__ == "__main__":
    means = pyndeval_means(sys.argv[1], sys.argv[2])
    print("\n".join(f"{m:<22}\tall\t{v:.4f}" for m, v in means.items()))
