"""Benchmark: ``irlab eval --diversity`` against pyndeval (ndeval 4.5's C code), from files to means.

Generates a seeded TREC-sized diversity case in a temporary directory (default: 50 topics, 1,000 retrieved
documents each, 5 subtopics, 300 judged documents per topic of which about a third are relevant to each subtopic),
then times ``--repeat`` runs of each, taking turns (best and median wall time, median CPU time):

* irlab: ``irlab.trec.diversity.evaluate_diversity(qrels_path, run_path)`` (reading both files included);
* pyndeval: the files read line by line in Python into its tuples, then ``pyndeval.ndeval`` and the mean.

and checks that the 21 means agree (reported, not asserted).

    python benchmarks/bench_diversity.py
    python benchmarks/bench_diversity.py --topics 200 --docs 1000 --subtopics 8 --repeat 5
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from irlab.trec.diversity import NDEVAL_MEASURES, evaluate_diversity  # noqa: E402


def generate(folder: Path, topics: int, docs: int, subtopics: int, judged: int, seed: int):
    rnd = random.Random(seed)
    qrels, run = [], []
    for t in range(1, topics + 1):
        pool = [f"clueweb09-en{t:04d}-{i:05d}" for i in range(docs + judged // 2)]
        for d in rnd.sample(pool, judged):
            for s in range(1, subtopics + 1):
                qrels.append(f"{t} {s} {d} {1 if rnd.random() < 0.33 else 0}\n")
        for rank, d in enumerate(rnd.sample(pool, docs), 1):
            run.append(f"{t} Q0 {d} {rank} {-rank / docs:.6f} bench\n")
    (folder / "qrels").write_text("".join(qrels))
    (folder / "run").write_text("".join(run))
    return folder / "qrels", folder / "run", len(qrels), len(run)


def irlab_means(qrels, run):
    return evaluate_diversity(qrels, run).summary


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
    return {m: math.fsum(v[m] for v in per_topic.values()) / len(per_topic) for m in NDEVAL_MEASURES}


def timed(fns, repeat):
    """Each of ``fns`` run ``repeat`` times, taking turns (load from other processes hits them alike): per function
    its value, best and median wall time and median CPU time (``time.process_time``)."""
    walls, cpus, values = [[] for _ in fns], [[] for _ in fns], [None] * len(fns)
    for _ in range(repeat):
        for i, fn in enumerate(fns):
            start, cpu = time.perf_counter(), time.process_time()
            values[i] = fn()
            walls[i].append(time.perf_counter() - start)
            cpus[i].append(time.process_time() - cpu)
    return [(values[i], min(walls[i]), statistics.median(walls[i]), statistics.median(cpus[i]))
            for i in range(len(fns))]


def load_average():
    with open("/proc/loadavg") as f:
        return " ".join(f.read().split()[:3])


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--topics", type=int, default=50)
    parser.add_argument("--docs", type=int, default=1000, help="retrieved documents per topic")
    parser.add_argument("--subtopics", type=int, default=5)
    parser.add_argument("--judged", type=int, default=300, help="judged documents per topic")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=2012)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        qrels, run, q_lines, r_lines = generate(Path(folder), args.topics, args.docs, args.subtopics, args.judged,
                                                args.seed)
        print(f"{args.topics} topics x {args.docs} retrieved, {args.subtopics} subtopics: {q_lines:,} qrels lines, "
              f"{r_lines:,} run lines")
        print(f"load average at the start: {load_average()}")
        try:
            import pyndeval  # noqa: F401  (deferred: an optional oracle, the test extra)
        except ImportError:
            (ours, best, median, cpu), = timed([lambda: irlab_means(qrels, run)], args.repeat)
            print(f"irlab     best {best:.3f} s  median {median:.3f} s  median CPU {cpu:.3f} s")
            print("pyndeval  not installed (pip install pyndeval): skipped")
            return 0
        (ours, best, median, cpu), (theirs, best2, median2, cpu2) = timed(
            [lambda: irlab_means(qrels, run), lambda: pyndeval_means(qrels, run)], args.repeat)
        print(f"irlab     best {best:.3f} s  median {median:.3f} s  median CPU {cpu:.3f} s")
        print(f"pyndeval  best {best2:.3f} s  median {median2:.3f} s  median CPU {cpu2:.3f} s")
        print(f"irlab / pyndeval: {best / best2:.2f}x best, {median / median2:.2f}x median, {cpu / cpu2:.2f}x CPU")
        worst = max(abs(ours[m] - theirs[m]) for m in NDEVAL_MEASURES)
        print(f"largest difference of the {len(NDEVAL_MEASURES)} means: {worst:.2e}")
        print(f"load average at the end: {load_average()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
