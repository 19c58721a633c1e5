"""Benchmark: irlab vs ir_measures on ir_measures' own names, from DataFrames and from files.

Generates bench_trec's seeded collection (default 1,000 topics x 1,000 retrieved documents = 1 M run lines, about
30 graded judgments per topic, many tied scores), then, each tool in its own subprocess, alternating, ``--repeat``
times:

* frames: the run and qrels as pandas DataFrames in ir_measures' columns (query_id, doc_id, score; relevance),
  unpickled before the clock starts; timed is ``irlab.evaluate(run, qrels, names)`` against
  ``ir_measures.calc_aggregate(measures, qrels, run)`` on the same frames;
* files: ``irlab eval -m nDCG@10 -m P@5 ... qrels run`` against ``python -m ir_measures qrels run 'nDCG@10 P@5 ...'``,
  the whole command.

Reported: medians of the wall time ("seconds": the call's own for frames, the child's for files) and CPU time
("its CPU": the call's process time for frames, the child's for files), the child's wall and CPU time (user + sys,
imports and unpickling included) and peak RSS (``os.wait4``); the means must be equal (1e-9; ir_measures'
CLI prints 4 decimals, compared to 5e-5).

    python benchmarks/bench_ir_measures.py                  # 1 M run lines, 3 rounds
    python benchmarks/bench_ir_measures.py --topics 100     # quick try
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "benchmarks"))
from bench_trec import generate, load_average  # noqa: E402  (the same collection as bench_trec)

NAMES = ["nDCG@10", "P@5", "AP", "RR", "R@100"]

CHILD_FRAMES = r"""
import json, sys, time, warnings
sys.path.insert(0, {repo!r})
import pandas as pd
run, qrels = pd.read_pickle({run!r}), pd.read_pickle({qrels!r})
names = {names!r}
if {tool!r} == "irlab":
    import irlab, irlab.frames   # the module irlab.evaluate loads on its first call, as ir_measures is imported
    t0, c0 = time.perf_counter(), time.process_time()
    means = irlab.evaluate(run, qrels, names).aggregate
else:
    import ir_measures
    measures = [ir_measures.parse_measure(n) for n in names]
    t0, c0 = time.perf_counter(), time.process_time()
    means = {{str(m): v for m, v in ir_measures.calc_aggregate(measures, qrels, run).items()}}
seconds, cpu = time.perf_counter() - t0, time.process_time() - c0
print(json.dumps({{"seconds": seconds, "call_cpu": cpu, "means": {{k: float(v) for k, v in means.items()}}}}))
"""


def frames(dirpath: Path, qrels_path: Path, run_path: Path):
    """The run and qrels files as ir_measures-style DataFrames, pickled beside them."""
    import pandas as pd

    run = pd.read_csv(run_path, sep=" ", header=None, usecols=[0, 2, 4], names=["query_id", "doc_id", "score"],
                      dtype={"query_id": str, "doc_id": str, "score": float})
    qrels = pd.read_csv(qrels_path, sep=" ", header=None, usecols=[0, 2, 3], names=["query_id", "doc_id", "relevance"],
                        dtype={"query_id": str, "doc_id": str, "relevance": int})
    run.to_pickle(dirpath / "run.pkl")
    qrels.to_pickle(dirpath / "qrels.pkl")
    return dirpath / "qrels.pkl", dirpath / "run.pkl", len(run)


def child(argv):
    t0 = time.perf_counter()
    p = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=str(REPO))
    out, err = p.stdout.read(), p.stderr.read()
    _, status, usage = os.wait4(p.pid, 0)
    wall = time.perf_counter() - t0
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{argv[:4]} failed: {err.decode(errors='replace')[-2000:]}")
    return out.decode(), {"wall": wall, "cpu": usage.ru_utime + usage.ru_stime, "rss_mb": usage.ru_maxrss / 1024}


def run_frames(tool, qrels_pkl, run_pkl):
    code = CHILD_FRAMES.format(repo=str(REPO), run=str(run_pkl), qrels=str(qrels_pkl), names=NAMES, tool=tool)
    out, info = child([sys.executable, "-c", code])
    got = json.loads(out.strip().splitlines()[-1])
    return {**info, "seconds": got["seconds"], "call_cpu": got["call_cpu"], "means": got["means"]}


def run_files(tool, qrels, run):
    if tool == "irlab":
        argv = [sys.executable, "-m", "irlab", "eval", *[a for n in NAMES for a in ("-m", n)], str(qrels), str(run)]
    else:
        argv = [sys.executable, "-m", "ir_measures", str(qrels), str(run), " ".join(NAMES)]
    out, info = child(argv)
    means = {}
    for line in out.splitlines():
        parts = line.split("\t")
        if tool == "irlab" and len(parts) == 3 and parts[1] == "all":
            means[parts[0].strip()] = float(parts[2])
        elif tool == "ir_measures" and len(parts) == 2:
            means[parts[0].strip()] = float(parts[1])
    return {**info, "seconds": info["wall"], "call_cpu": info["cpu"], "means": means}


def check_equal(a, b, tolerance, what):
    assert set(a) == set(b) == set(NAMES), (what, sorted(a), sorted(b))
    bad = {n: (a[n], b[n]) for n in NAMES if abs(a[n] - b[n]) > tolerance}
    assert not bad, f"{what}: means differ {bad}"


def summary(rows):
    return {key: statistics.median(r[key] for r in rows) for key in ("seconds", "call_cpu", "wall", "cpu", "rss_mb")}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--topics", type=int, default=1000)
    ap.add_argument("--docs", type=int, default=1000)
    ap.add_argument("--judged", type=int, default=30)
    ap.add_argument("--seed", type=int, default=20261127)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--dir", help="keep the collection here (default: a temporary directory)")
    ap.add_argument("--prepare", metavar="DIR", help=argparse.SUPPRESS)   # the child writing the collection
    args = ap.parse_args(argv)
    if args.prepare:
        qrels, run = generate(Path(args.prepare), args.topics, args.docs, args.judged, args.seed)
        print(frames(Path(args.prepare), qrels, run)[2])
        return
    with tempfile.TemporaryDirectory(prefix="irlab-bench-") as tmp:
        dirpath = Path(args.dir or tmp)
        dirpath.mkdir(parents=True, exist_ok=True)
        # prepared in a child: a child forked from a parent holding the frames would start at the parent's
        # resident size (Linux keeps the larger maxrss across fork and exec), hiding the tools' own peaks
        prepare = [sys.executable, __file__, "--prepare", str(dirpath), "--topics", str(args.topics), "--docs",
                   str(args.docs), "--judged", str(args.judged), "--seed", str(args.seed)]
        lines = int(subprocess.run(prepare, check=True, capture_output=True, text=True).stdout.split()[-1])
        qrels, run = dirpath / "qrels.txt", dirpath / "run.txt"
        qrels_pkl, run_pkl = dirpath / "qrels.pkl", dirpath / "run.pkl"
        print(f"{lines:,} run lines, {args.topics:,} topics; names {' '.join(NAMES)}; load {load_average()}")
        results = {(path, tool): [] for path in ("frames", "files") for tool in ("irlab", "ir_measures")}
        for round_ in range(args.repeat):
            order = ("irlab", "ir_measures") if round_ % 2 == 0 else ("ir_measures", "irlab")
            for tool in order:
                results["frames", tool].append(run_frames(tool, qrels_pkl, run_pkl))
            for tool in order:
                results["files", tool].append(run_files(tool, qrels, run))
        for path, tolerance in (("frames", 1e-9), ("files", 5e-5)):
            for a, b in zip(results[path, "irlab"], results[path, "ir_measures"]):
                check_equal(a["means"], b["means"], tolerance, path)
        print(f"{'':8} {'tool':12} {'seconds':>9} {'its CPU':>9} {'child wall':>11} {'child CPU':>10} {'peak RSS':>10}")
        for path in ("frames", "files"):
            medians = {tool: summary(results[path, tool]) for tool in ("irlab", "ir_measures")}
            for tool, m in medians.items():
                print(f"{path:8} {tool:12} {m['seconds']:8.2f}s {m['call_cpu']:8.2f}s {m['wall']:10.2f}s "
                      f"{m['cpu']:9.2f}s {m['rss_mb']:7.1f} MiB")
            ratio = medians["ir_measures"]["seconds"] / medians["irlab"]["seconds"]
            cpu = medians["ir_measures"]["call_cpu"] / medians["irlab"]["call_cpu"]
            print(f"{path:8} irlab is {ratio:.2f}x faster (seconds), {cpu:.2f}x (its CPU); means equal")
        print(f"medians of {args.repeat} alternating rounds; load after: {load_average()}")


if __name__ == "__main__":
    main()
