"""Benchmark: ``irlab eval --diversity`` against pyndeval (ndeval 4.5's C code), from files to means.

Generates a seeded TREC-sized diversity case in a temporary directory (default: 50 topics, 1,000 retrieved
documents each, 5 subtopics, 300 judged documents per topic of which about a third are relevant to each subtopic),
then times ``--repeat`` runs of each, taking turns (best and median wall time, median CPU time):

* irlab: ``irlab.trec.diversity.evaluate_diversity(qrels_path, run_path)`` (reading both files included);
* pyndeval: the files read line by line in Python into its tuples, then ``pyndeval.ndeval`` and the mean.

and checks that the 21 means agree (reported, not asserted).  It prints irlab's CPU time split (reading both files
into arrays, joining them, the measures, printing ``-q`` as the command does), then times whole processes, taking
turns: the command ``python -m irlab eval --diversity QRELS RUN`` and a Python process that imports pyndeval and
does the above, each with its wall time, CPU time (user + sys of the child) and peak RSS, medians.  The children
keep their compiled bytecode in a temporary directory (PYTHONPYCACHEPREFIX), as an installed irlab does, after
one warm-up run of each.

    python benchmarks/bench_diversity.py
    python benchmarks/bench_diversity.py --topics 200 --docs 1000 --subtopics 8 --repeat 5
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from irlab.limits import MAX_IDEAL_WORK  # noqa: E402
from irlab.trec.diversity import NDEVAL_MEASURES, evaluate_diversity  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from diversity_pyndeval import pyndeval_means  # noqa: E402


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


def irlab_split(qrels, run):
    """irlab's CPU seconds: (read both files into arrays, join them, measures, print -q), one run each."""
    from irlab.cli import main
    from irlab.trec import diversity_arrays as arrays
    from irlab.trec.diversity import parse_diversity_measures

    clock = time.process_time
    start, codes = clock(), {}
    q = arrays._read(qrels, 4, "qrels", (0, 1, 2), codes)
    r = arrays._read(run, 6, "run", (0, 2), codes)
    read = clock() - start
    start = clock()
    width = max(q["docno"].shape[1], r["docno"].shape[1])
    q["docno"], r["docno"] = arrays._widen(q["docno"], width), arrays._widen(r["docno"], width)
    names = sorted(codes)
    renumber = [0] * len(names)
    for i, name in enumerate(names):
        renumber[codes[name]] = i
    renumber = arrays.np.array(renumber)
    q["topic"], r["topic"] = renumber[q["topic"]], renumber[r["topic"]]
    judged = arrays._Judged(q, len(names), 1, MAX_IDEAL_WORK)
    ranked = arrays._Ranked(r, judged, len(names), False, None)
    join = clock() - start
    start = clock()
    measured = [t for t in ranked.topics.tolist() if judged.n_subtopics[t] > 0]
    arrays._Values(judged, ranked, parse_diversity_measures(None), len(names), 0.5, 0.5,
                   arrays._lockstep_topics(judged, measured))
    measures = clock() - start
    # printing: the command's time less that of the evaluate_diversity it calls (wrapped to time it)
    from irlab.trec import diversity

    inner = []

    def timed_evaluate(*args, **kwargs):
        begin = clock()
        try:
            return evaluate_diversity(*args, **kwargs)
        finally:
            inner.append(clock() - begin)

    diversity.evaluate_diversity = timed_evaluate
    try:
        start = clock()
        with contextlib.redirect_stdout(io.StringIO()) as out:
            main(["eval", "--diversity", "-q", str(qrels), str(run)])
        printed = clock() - start - sum(inner)
    finally:
        diversity.evaluate_diversity = evaluate_diversity
    assert inner and out.getvalue()
    return read, join, measures, printed


TIME = "/usr/bin/time"   # GNU time (Debian's package "time")


def child_runs(commands, repeat, env):
    """Each command run ``repeat`` times as a child process, taking turns (after one warm-up run each): per command
    the median wall time, median CPU time (user + sys), median peak RSS in MiB and its last output.

    GNU time starts each command and reports its figures: a child forked by this process would count this
    process's own memory in its peak (Linux keeps the largest RSS of the image a process replaces by exec)."""
    walls, cpus, peaks, outputs = [[] for _ in commands], [[] for _ in commands], [[] for _ in commands], {}
    for turn in range(repeat + 1):
        for i, command in enumerate(commands):
            with tempfile.TemporaryFile() as out, tempfile.NamedTemporaryFile("r") as figures:
                start = time.perf_counter()
                done = subprocess.run([TIME, "-f", "%U %S %M", "-o", figures.name, *command], stdout=out, env=env)
                wall = time.perf_counter() - start
                if done.returncode:
                    raise SystemExit(f"{' '.join(command)} exited with {done.returncode}")
                out.seek(0)
                outputs[i] = out.read()
                user, system, peak_kib = figures.read().split()[-3:]
            if turn:   # the first turn compiles the bytecode
                walls[i].append(wall)
                cpus[i].append(float(user) + float(system))
                peaks[i].append(int(peak_kib) / 1024)
    return [(statistics.median(walls[i]), statistics.median(cpus[i]), statistics.median(peaks[i]), outputs[i])
            for i in range(len(commands))]


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
        print("in one process, from files to means:")
        print(f"irlab     best {best:.3f} s  median {median:.3f} s  median CPU {cpu:.3f} s")
        print(f"pyndeval  best {best2:.3f} s  median {median2:.3f} s  median CPU {cpu2:.3f} s")
        print(f"irlab / pyndeval: {best / best2:.2f}x best, {median / median2:.2f}x median, {cpu / cpu2:.2f}x CPU")
        worst = max(abs(ours[m] - theirs[m]) for m in NDEVAL_MEASURES)
        print(f"largest difference of the {len(NDEVAL_MEASURES)} means: {worst:.2e}")
        read, join, measures, printed = irlab_split(qrels, run)
        print(f"irlab's CPU time: read {read:.3f} s, join {join:.3f} s, measures {measures:.3f} s, "
              f"print (-q) {printed:.3f} s")
        if not os.path.exists(TIME):
            print(f"{TIME} (GNU time) not found: whole processes not timed")
            return 0
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        env["PYTHONPYCACHEPREFIX"] = str(Path(folder) / "pycache")
        env["PYTHONPATH"] = os.pathsep.join([str(REPO)] + ([env["PYTHONPATH"]] if env.get("PYTHONPATH") else []))
        (wall, cpu, peak, out), (wall2, cpu2, peak2, out2) = child_runs(
            [[sys.executable, "-m", "irlab", "eval", "--diversity", str(qrels), str(run)],
             [sys.executable, str(Path(__file__).resolve().parent / "diversity_pyndeval.py"), str(qrels), str(run)]],
            args.repeat, env)
        print("whole processes (python -m irlab eval --diversity QRELS RUN; python with pyndeval), medians:")
        print(f"irlab     wall {wall:.3f} s  CPU {cpu:.3f} s  peak RSS {peak:.0f} MiB")
        print(f"pyndeval  wall {wall2:.3f} s  CPU {cpu2:.3f} s  peak RSS {peak2:.0f} MiB")
        print(f"irlab / pyndeval: {wall / wall2:.2f}x wall, {cpu / cpu2:.2f}x CPU, {peak / peak2:.2f}x peak RSS")
        print(f"their outputs (21 means, 4 decimals): {'identical' if out == out2 else 'DIFFERENT'}")
        print(f"load average at the end: {load_average()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
