"""Benchmark: explanations of legitimate but long inputs (issue 13, item 3), timed as a user runs them.

    python benchmarks/bench_cliffs.py                # every case, best of 3
    python benchmarks/bench_cliffs.py --repeat 1 --only ndcg

Each case is one ``irlab`` command in its own subprocess (start-up and imports included, as a user sees it), on
seeded synthetic data: a ranking of 10,000 judgments (ap: R with probability 0.3; ndcg/err: grades 0-3), and MAP
bounds of a top-20 list with R = N/2 for N = 10,000 (an exercise set solved with ``irlab solve``). The exact value
is computed in full; the explanation shows the first and last rows of long tables and the first and last terms
of long sums, saying how many it leaves out.
"""

from __future__ import annotations

import argparse
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

MAP_BOUNDS_SET = """title = "MAP bounds, large"
[[exercise]]
id = "1"
statement = "The top {length} of a full ranking of {collection} documents, {relevant} of them relevant: {ranking}"
[exercise.parameters]
ranking = "TOP"
relevant = 5000
collection = 10000
[[exercise.question]]
id = "a"
solver = "map-bounds"
answer = "all"
"""


def cases(directory: Path) -> dict[str, list[str]]:
    rng = random.Random(2026)
    letters = "".join("R" if rng.random() < 0.3 else "N" for _ in range(10_000))
    grades = ",".join(str(rng.randint(0, 3)) for _ in range(10_000))
    top = "".join(rng.choice("RN") for _ in range(20))
    exercise = directory / "map-bounds.toml"
    exercise.write_text(MAP_BOUNDS_SET.replace("TOP", top), encoding="utf-8")
    return {
        "ap 10,000": ["explain", "ap", letters],
        "ndcg 1,000": ["explain", "ndcg", ",".join(grades.split(",")[:1_000])],
        "ndcg 2,000": ["explain", "ndcg", ",".join(grades.split(",")[:2_000])],
        "ndcg 10,000": ["explain", "ndcg", grades],
        "err 10,000": ["explain", "err", grades],
        "map-bounds R=5,000 N=10,000": ["solve", str(exercise)],
    }


def timed(argv: list[str]) -> float:
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "irlab", *argv], capture_output=True, text=True, cwd=ROOT)
    elapsed = time.perf_counter() - started
    if done.returncode != 0:
        raise SystemExit(f"irlab {argv[:2]} failed: {done.stderr.strip()}")
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="runs per case; the best is reported (default 3)")
    parser.add_argument("--only", help="run only the cases whose name contains this text")
    args = parser.parse_args()
    start = timed(["metrics"])  # Python start-up and irlab's imports, for reference
    print(f"{'irlab metrics (start-up)':<30} {start:6.2f} s")
    with tempfile.TemporaryDirectory() as directory:
        for name, argv in cases(Path(directory)).items():
            if args.only and args.only not in name:
                continue
            times = [timed(argv) for _ in range(args.repeat)]
            print(f"{name:<30} {min(times):6.2f} s  (runs: {', '.join(f'{t:.2f}' for t in times)})", flush=True)


if __name__ == "__main__":
    main()
