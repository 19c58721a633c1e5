"""Benchmark: irlab vs trec_eval 10.0 vs pytrec_eval (vs ranx, if installed), from files to means.

Generates a seeded synthetic TREC collection (default: 7,000 topics x 1,000
retrieved documents, ~30 graded judgments per topic, many tied scores) in a
temporary directory, then runs each tool in its own subprocess on the same
files and reports wall time and peak memory (``ru_maxrss`` of that child via
``os.wait4``), side by side.

    python benchmarks/bench_trec.py                  # full size (7M run lines)
    python benchmarks/bench_trec.py --topics 700     # quick try
    python benchmarks/bench_trec.py --tools irlab,pytrec_eval --repeat 3
    python benchmarks/bench_trec.py --tools irlab,irlab1,trec_eval --dir /tmp/b --reuse   # irlab1: one thread
    python benchmarks/bench_trec.py --tools irlab,before,trec_eval --before /tmp/old   # /tmp/old/irlab: an older tree
    python benchmarks/bench_trec.py --huge --dir /tmp/huge     # 10^8 run lines (3.7 GB): irlab eval's peak memory

trec_eval 10.0 is compiled with -O2 from ../shared/trec_eval/trec_eval-10.0.tar.gz into the
temporary directory (tests/trec_eval_oracle.py; skipped with a message when the tarball or a
compiler is absent) and run as the C program it is; its printed means are compared with irlab's.
ranx is imported lazily inside its subprocess; when it is not installed it is
skipped with a message (installing it compiles numba code for a long time).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
MEASURES = ["map", "ndcg", "P", "recall", "ndcg_cut", "recip_rank", "bpref", "Rprec"]


# ---------------------------------------------------------------------------
# data generation


def generate(dirpath: Path, topics: int, docs: int, judged: int, seed: int, layout: str = "sorted"):
    """Write qrels.txt and run.txt.  ``layout``: "sorted" (each topic's lines
    together, by decreasing score -- how TREC runs are usually written) or
    "shuffled" (lines of every 100 topics interleaved at random).  The run's
    lines are formatted with numpy's string functions, 100 topics at a time
    (10^8 lines in minutes rather than hours)."""
    rng = np.random.default_rng(seed)
    run_path = dirpath / "run.txt"
    qrels_path = dirpath / "qrels.txt"
    with open(run_path, "wb") as fr, open(qrels_path, "w") as fq:
        for t0 in range(0, topics, 100):
            tt = np.arange(t0, min(topics, t0 + 100))
            n = len(tt)
            base = rng.integers(0, 10**8 - 8 * docs, size=n)
            ids = base[:, None] + np.arange(docs) * 8 + rng.integers(0, 8, size=(n, docs))
            # coarse scores -> many ties, broken by docno in trec_eval
            scores = np.round(rng.gamma(2.0, 2.0, size=(n, docs)), 2)
            order = np.argsort(-scores, axis=1, kind="stable")
            qlines = []
            for i, t in enumerate(tt):
                qid = str(401 + t)
                # ~2/3 of the judgments among retrieved docs (biased to the top), rest unretrieved
                k_ret = min(docs, judged * 2 // 3)
                top = order[i, : max(k_ret * 5, k_ret)]
                pick = rng.choice(top, size=k_ret, replace=False)
                jd = [f"DOC-{ids[i, j]:09d}" for j in pick]
                extra = ids[i, -1] + 8 * (1 + np.arange(judged - k_ret))
                jd += [f"DOC-{x:09d}" for x in extra]
                grades = rng.choice([0, 0, 0, 1, 1, 2, 3], size=len(jd))
                qlines.extend(f"{qid} 0 {d} {g}\n" for d, g in zip(jd, grades))
            chars, kept = _run_lines(401 + tt, np.take_along_axis(ids, order, 1), np.take_along_axis(scores, order, 1))
            if layout == "shuffled":
                perm = rng.permutation(len(chars))
                chars, kept = chars[perm], kept[perm]
            fr.write(chars[kept].tobytes())
            fq.write("".join(qlines))
    return qrels_path, run_path


def _run_lines(qids, ids, scores):
    """The lines f"{qid} Q0 DOC-{id:09d} {rank} {score:.2f} bench\n" of topics ``qids`` (ids and scores: one row per
    topic, in rank order) as ``(chars, kept)``: each line's fields side by side, NUL-padded to fixed widths, and
    which of those bytes are the line's (``chars[kept]`` are the lines one after the other)."""
    n, docs = ids.shape
    cents = np.rint(scores.ravel() * 100).astype(np.int64)   # %.2f of a value rounded to 0.01
    digits = ids.ravel()[:, None] // 10 ** np.arange(8, -1, -1) % 10 + 48   # {id:09d} (ids below 10^9)
    assert ids.max() < 10**9
    fields = [_table(qids, np.repeat(np.arange(n), docs)), b" Q0 DOC-", digits.astype(np.uint8).view("S9").ravel(),
              b" ", _table(np.arange(1, docs + 1), np.tile(np.arange(docs), n)), b" ",
              _table(np.arange(cents.max() // 100 + 1), cents // 100), b".",
              _table([f"{c:02d}" for c in range(100)], cents % 100), b" bench\n"]
    chars, kept = [], []
    for field in fields:
        field = np.full(n * docs, field) if isinstance(field, bytes) else field
        width = field.dtype.itemsize
        chars.append(field.view(np.uint8).reshape(-1, width))
        kept.append(np.arange(width) < np.strings.str_len(field)[:, None])
    return np.hstack(chars), np.hstack(kept)


def _table(values, index):
    """``str(values[i])`` for each i in ``index``, as a bytes array (formatted once per distinct value)."""
    return np.array([str(v).encode() for v in values])[index]


# ---------------------------------------------------------------------------
# per-tool child programs: read files, evaluate, print {"seconds":..., "means":{...}}

# irlab: `irlab eval` itself (its main(), so that irlab1 can pin one thread); stdout is compared byte for byte
CHILD_IRLAB = r"""
import sys
sys.path.insert(0, {repo!r})
if {threads!r}:
    import irlab.trec.readers
    irlab.trec.readers._THREADS = {threads!r}   # --threads: override the number of cores used
from irlab.cli import main
sys.exit(main(["eval", *{options!r}, {qrels!r}, {run!r}]))
"""

# where irlab's time goes: the stages of `irlab eval` (irlab/cli/eval.py) timed one by one, in one more child; "run":
# the run's C pass (split, duplicate check, join and ranks in one: _tokenize.topic_stream), on two threads when a core
# is idle; "join": _Reducer's numpy join, for the chunks the C pass declines
CHILD_SPLIT = r"""
import importlib, json, os, sys, time
t0 = time.perf_counter()
sys.path.insert(0, {repo!r})
from irlab.trec import stream
from irlab.trec.evaluate import prepare, read_inputs
from irlab.trec.measures import compute_all, parse_measures
from irlab.trec.output import format_result
import irlab.cli.eval
t1 = time.perf_counter()
spent = {{"join": 0.0, "qrels": 0.0}}
def timed(module, name, stage):
    fn = getattr(module, name)
    def wrapper(*args, **kwargs):
        start = time.perf_counter()
        try:
            return fn(*args, **kwargs)
        finally:
            spent[stage] += time.perf_counter() - start
    setattr(module, name, wrapper)
timed(stream._Reducer, "add", "join")
timed(importlib.import_module("irlab.trec.evaluate"), "read_qrels", "qrels")
plan = parse_measures({measures!r})
qrels, run, joined = read_inputs({qrels!r}, {run!r})
t2 = time.perf_counter()
result = compute_all(prepare(qrels, run, joined=joined), plan)
t3 = time.perf_counter()
with open(os.devnull, "w") as out:
    out.write(format_result(result, "text", per_topic=False, summary=True))
t4 = time.perf_counter()
print(json.dumps({{"imports": t1 - t0, "qrels": spent["qrels"], "run": t2 - t1 - spent["join"] - spent["qrels"],
                  "join": spent["join"], "measures": t3 - t2, "print": t4 - t3,
                  "streamed": isinstance(run, stream.RankedRun)}}))
"""

CHILD_PYTREC = r"""
import json, time
t0 = time.perf_counter()
import pytrec_eval
qrels = {{}}
with open({qrels!r}) as f:
    for line in f:
        q, _, d, g = line.split()
        qrels.setdefault(q, {{}})[d] = int(g)
run = {{}}
with open({run!r}) as f:
    for line in f:
        q, _, d, _, s, _ = line.split()
        run.setdefault(q, {{}})[d] = float(s)
ev = pytrec_eval.RelevanceEvaluator(qrels, set({measures!r}))
res = ev.evaluate(run)
names = next(iter(res.values())).keys()
means = {{m: pytrec_eval.compute_aggregated_measure(m, [v[m] for v in res.values()]) for m in names}}
print(json.dumps({{"seconds": time.perf_counter() - t0, "means": means}}))
"""

CHILD_RANX = r"""
import json, sys, time
t0 = time.perf_counter()
try:
    import ranx
except ImportError:
    print(json.dumps({{"skipped": "ranx is not installed (pip install ranx)"}}))
    sys.exit(0)
qrels = ranx.Qrels.from_file({qrels!r}, kind="trec")
run = ranx.Run.from_file({run!r}, kind="trec")
metrics = ["map", "ndcg", "precision@10", "recall@100", "ndcg@10", "mrr"]
means = ranx.evaluate(qrels, run, metrics)
print(json.dumps({{"seconds": time.perf_counter() - t0, "means": {{k: float(v) for k, v in means.items()}}}}))
"""

# irlab1: irlab restricted to one thread, to see what the other core brings
CHILDREN = {"irlab": CHILD_IRLAB, "irlab1": CHILD_IRLAB, "before": CHILD_IRLAB, "trec_eval": None,
            "pytrec_eval": CHILD_PYTREC, "ranx": CHILD_RANX}   # before: irlab eval from --before DIR
OPTIONS = [f"-m{m}" for m in MEASURES]   # the same command line for trec_eval and irlab eval


def build_trec_eval(dirpath: Path):
    """trec_eval 10.0 compiled with -O2 into ``dirpath``: (binary, None) or (None, reason)."""
    sys.path.insert(0, str(REPO / "tests"))
    import trec_eval_oracle

    reason = trec_eval_oracle.unavailable_reason()
    if reason:
        return None, reason
    try:
        return trec_eval_oracle.build(dirpath, optimize=True), None
    except RuntimeError as error:
        return None, str(error).splitlines()[0]


def trec_eval_means(stdout: bytes):
    """The ``all`` lines trec_eval printed, as {measure: printed value}."""
    means = {}
    for line in stdout.decode().splitlines():
        name, topic, value = (f.strip() for f in line.split("\t"))
        if topic == "all":
            means[name] = value
    return means


def printed_means(stdout: bytes):
    """The ``all`` lines trec_eval (or irlab eval) printed, as {measure: float}."""
    return {name: float(value) for name, value in trec_eval_means(stdout).items() if name != "runid"}


def run_child(tool, qrels, run, trec_eval=None, threads=0, before=None):
    if tool == "trec_eval":  # the C program itself: its wall time and peak memory are the child's
        argv = [str(trec_eval), *OPTIONS, str(qrels), str(run)]
    else:
        code = CHILDREN[tool].format(repo=str(before if tool == "before" else REPO), qrels=str(qrels), run=str(run),
                                     measures=MEASURES,
                                     options=OPTIONS, threads=1 if tool == "irlab1" else threads)
        argv = [sys.executable, "-c", code]
    t0 = time.perf_counter()
    p = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    out = p.stdout.read()
    err = p.stderr.read()
    _, status, usage = os.wait4(p.pid, 0)
    wall = time.perf_counter() - t0
    p.returncode = os.waitstatus_to_exitcode(status)
    if p.returncode != 0:
        return {"error": err.decode(errors="replace").strip().splitlines()[-1:] or ["failed"]}
    info = {"wall": wall, "maxrss_mb": usage.ru_maxrss / 1024.0,   # Linux: kilobytes
            "cpu": usage.ru_utime + usage.ru_stime}
    if tool in ("trec_eval", "irlab", "irlab1", "before"):   # a C program, or irlab eval: wall time only
        return {**info, "seconds": wall, "stdout": out, "means": printed_means(out)}
    child = json.loads(out.decode().strip().splitlines()[-1])
    return child if "skipped" in child else {**child, **info}


def load_average():
    with open("/proc/loadavg") as f:
        return " ".join(f.read().split()[:3])


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--topics", type=int)
    ap.add_argument("--docs", type=int, default=1000, help="retrieved documents per topic")
    ap.add_argument("--judged", type=int, default=30, help="judgments per topic")
    ap.add_argument("--seed", type=int, default=20261122)
    ap.add_argument("--layout", choices=("sorted", "shuffled"), default="sorted",
                    help="run file layout: grouped by topic and score-sorted (usual), or shuffled")
    ap.add_argument("--reuse", action="store_true",
                    help="with --dir: reuse qrels.txt/run.txt already there instead of generating")
    ap.add_argument("--tools", help="default: irlab,trec_eval,pytrec_eval,ranx (with --huge: irlab)")
    ap.add_argument("--huge", action="store_true",
                    help="100,000 topics (10^8 run lines, about 3.7 GB in --dir): irlab eval once, for its peak memory "
                         "when it streams a run sorted by topic")
    ap.add_argument("--repeat", type=int, default=1, help="runs per tool (best wall time is kept)")
    ap.add_argument("--dir", help="keep the generated files here instead of a temp dir")
    ap.add_argument("--before", metavar="DIR",
                    help="tool 'before': irlab eval from another irlab tree (e.g. `git archive REV irlab | tar -x -C DIR`)")
    ap.add_argument("--no-split", action="store_true", help="skip the extra run that times irlab's stages")
    ap.add_argument("--threads", type=int, default=0,
                    help="threads irlab may use (default: one per core, at most 4); 1 = single-threaded")
    args = ap.parse_args(argv)
    if args.huge:   # irlab alone unless told: trec_eval would need about 8 GB of memory here
        args.tools = args.tools or "irlab"
    args.topics = args.topics or (100_000 if args.huge else 7000)
    args.tools = args.tools or "irlab,trec_eval,pytrec_eval,ranx"

    tools = [t.strip() for t in args.tools.split(",") if t.strip()]
    for t in tools:
        if t not in CHILDREN:
            ap.error(f"unknown tool {t!r} (choose from {', '.join(CHILDREN)})")

    with tempfile.TemporaryDirectory(prefix="irlab-bench-") as tmp:
        d = Path(args.dir) if args.dir else Path(tmp)
        d.mkdir(parents=True, exist_ok=True)
        t0 = time.perf_counter()
        if args.reuse and (d / "run.txt").is_file() and (d / "qrels.txt").is_file():
            qrels, run = d / "qrels.txt", d / "run.txt"
        else:
            qrels, run = generate(d, args.topics, args.docs, args.judged, args.seed, args.layout)
        gen = time.perf_counter() - t0
        size = run.stat().st_size / 2**20
        print(f"# {args.topics} topics x {args.docs} docs = {args.topics * args.docs:,} run lines "
              f"({size:.0f} MiB, {args.layout}), ~{args.judged} judgments/topic; prepared in {gen:.1f}s")
        print(f"# python {platform.python_version()}, numpy {np.__version__}, {os.cpu_count()} cpus, "
              f"measures: {', '.join(MEASURES)}; load average at the start: {load_average()}")
        # tools alternate within each repeat, so that load from other processes
        # on the machine hits them alike; the best (minimum) wall time is kept
        runs = {tool: [] for tool in tools}
        skipped = {}
        binary = None
        if "trec_eval" in tools:
            binary, reason = build_trec_eval(Path(tmp) / "trec_eval-build")
            if binary is None:
                skipped["trec_eval"] = {"skipped": reason}
        # irlab's modules compiled once, as pip compiles an installed package: where PYTHONDONTWRITEBYTECODE is set
        # (as here) every start would otherwise compile them again, which no installed irlab does
        for tree in {REPO, *([Path(args.before)] if args.before else [])}:
            subprocess.run([sys.executable, "-m", "compileall", "-q", str(tree / "irlab")], check=True)
        for _ in range(args.repeat):
            for tool in tools:
                if tool in skipped:
                    continue
                r = run_child(tool, qrels, run, binary, args.threads, args.before)
                if "wall" in r:
                    runs[tool].append(r)
                else:
                    skipped[tool] = r
        results = {}
        for tool in tools:
            if runs[tool]:
                best = min(runs[tool], key=lambda r: r["wall"])
                best = dict(best)
                walls = sorted(r["wall"] for r in runs[tool])
                best["median"] = walls[len(walls) // 2]
                best["maxrss_mb"] = max(r["maxrss_mb"] for r in runs[tool])
                cpus = sorted(r["cpu"] for r in runs[tool])
                best["median_cpu"] = cpus[len(cpus) // 2]
                results[tool] = best
            else:
                results[tool] = skipped[tool]
        print(f"{'tool':<12} {'best wall s':>11} {'median s':>9} {'median CPU s':>13} {'peak RSS MiB':>13}")
        for tool, r in results.items():
            if "wall" in r:
                print(f"{tool:<12} {r['wall']:>11.2f} {r['median']:>9.2f} {r['median_cpu']:>13.2f} "
                      f"{r['maxrss_mb']:>13.0f}")
            else:
                print(f"{tool:<12} skipped: {r.get('skipped') or r.get('error')}")
        a, t = results.get("irlab", {}), results.get("trec_eval", {})
        if "wall" in a:
            print(f"# irlab eval read {args.topics * args.docs:,} run lines ({size / 1024:.2f} GiB) and printed "
                  f"{len(a['means'])} means in a peak RSS of {a['maxrss_mb']:.0f} MiB")
        if "wall" in a and "wall" in t:
            print(f"# irlab / trec_eval: wall {a['wall'] / t['wall']:.2f}x best, {a['median'] / t['median']:.2f}x "
                  f"median, CPU {a['median_cpu'] / t['median_cpu']:.2f}x median; "
                  f"peak memory {a['maxrss_mb'] / t['maxrss_mb']:.2f}x")
            same = all(r["stdout"] == t["stdout"] for r in runs["irlab"]) and len(set(
                r["stdout"] for r in runs["trec_eval"])) == 1
            print(f"# irlab eval's output is {'byte-identical to' if same else 'DIFFERENT from'} trec_eval's "
                  f"({len(t['means'])} means, every repeat)")
        o = results.get("before", {})
        if "wall" in a and "wall" in o:
            same = all(r["stdout"] == o["stdout"] for r in runs["irlab"] + runs["before"])
            print(f"# irlab / before: wall {a['median'] / o['median']:.2f}x median, CPU "
                  f"{a['median_cpu'] / o['median_cpu']:.2f}x median, peak memory {a['maxrss_mb'] / o['maxrss_mb']:.2f}x; "
                  f"output {'byte-identical' if same else 'DIFFERENT'}")
        b = results.get("pytrec_eval", {})
        if "wall" in a and "wall" in b:
            print(f"# irlab / pytrec_eval: wall {a['wall'] / b['wall']:.2f}x, "
                  f"peak memory {a['maxrss_mb'] / b['maxrss_mb']:.2f}x")
            common = sorted(set(a["means"]) & set(b["means"]))
            diff = max(abs(a["means"][k] - b["means"][k]) for k in common) if common else float("nan")
            print(f"# {len(common)} means compared with pytrec_eval (irlab's printed to 4 decimals), "
                  f"max |difference| = {diff:.2e}")
        if "wall" in a and not args.no_split:
            code = CHILD_SPLIT.format(repo=str(REPO), qrels=str(qrels), run=str(run), measures=MEASURES)
            split = json.loads(subprocess.run([sys.executable, "-c", code], capture_output=True,
                                              check=True).stdout.decode().splitlines()[-1])
            print("# irlab's time split (one more run, stages of irlab eval timed in-process): "
                  + ", ".join(f"{k} {split[k]:.2f}s" for k in ("imports", "qrels", "run", "join", "measures", "print"))
                  + ("; the run was streamed topic by topic" if split["streamed"] else "; the run was read whole")
                  + " (run: split, duplicate check, join and ranks in one C pass; join: numpy's, where C declines)")
        print(f"# load average at the end: {load_average()} ({os.cpu_count()} cpus)")

if __name__ == "__main__":
    main()
