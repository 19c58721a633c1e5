"""Benchmark: a class's sheets, ``irlab sheet SET --roster R --out DIR``, in a fresh process per run.

    python benchmarks/bench_sheets.py                                  # 30 students, text, 3 runs
    python benchmarks/bench_sheets.py --students 30 1000 --repeat 1
    python benchmarks/bench_sheets.py --before /tmp/old --repeat 5    # /tmp/old/irlab: an older tree, taking turns
    python benchmarks/bench_sheets.py --phases                         # where the time goes, in one process

Each run is one ``python -m irlab sheet`` child (start-up and imports included) on a generated roster (ids
s0000, s0001, …) of exercises/homework-variants.toml with seed 2026; the figures are the child's CPU time (user +
system) and peak RSS (``ru_maxrss``), read with ``os.wait4``, and its wall time, the median of the runs. With
``--before DIR`` the older tree (``git archive REV | tar -x -C DIR``) runs in turn with this one, so both see the
same load, and their class directories are compared file by file (they must be identical).

``--phases`` times, in one process, what a class's sheets are made of: importing irlab's CLI, importing sympy
(nDCG's logarithms need it), drawing the variants, the sheets, the answer keys, rendering and writing.

Measurements: benchmarks/README.md (section bench_sheets.py).
"""

from __future__ import annotations

import argparse
import filecmp
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SET = ROOT / "exercises" / "homework-variants.toml"


def write_roster(path: Path, students: int) -> None:
    lines = ["id,name,email"] + [f"s{i:04d},Student {i},s{i:04d}@example.org" for i in range(students)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def run_once(tree: Path, roster: Path, out: Path, fmt: str, seed: str, exercise_set: Path) -> tuple[float, float, float]:
    """(CPU seconds, peak RSS in MiB, wall seconds) of one ``irlab sheet --roster`` child run on ``tree``."""
    env = {**os.environ, "PYTHONPATH": str(tree)}
    command = [sys.executable, "-m", "irlab", "sheet", str(exercise_set), "--roster", str(roster), "--out", str(out),
               "--seed", seed, "--format", fmt]
    start = time.perf_counter()
    child = subprocess.Popen(command, env=env, cwd=tree, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - start
    stderr = child.stderr.read().decode("utf-8", "replace")
    child.stderr.close()
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"irlab sheet failed in {tree}:\n{stderr}")
    return usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, wall


def same_directories(left: Path, right: Path) -> list[str]:
    """The files that differ or exist on one side only (an empty list: identical, byte for byte)."""
    differ = []
    names = sorted({p.name for p in left.iterdir()} | {p.name for p in right.iterdir()})
    for name in names:
        a, b = left / name, right / name
        if not (a.exists() and b.exists()) or not filecmp.cmp(a, b, shallow=False):
            differ.append(name)
    return differ


def phases(students: int, fmt: str, seed: str, exercise_set: Path) -> None:
    """Print the CPU time of each part of a class's sheets, measured in this process (run in a child)."""
    clock = time.process_time
    start = clock()
    import irlab.cli  # noqa: F401  (what `irlab` imports before it reads its arguments)
    marks = [("import irlab.cli", clock() - start)]
    begin = clock()
    import sympy  # noqa: F401  (nDCG's logarithms; imported on first use by irlab.exact)
    marks.append(("import sympy", clock() - begin))
    from irlab.homework.drawing import variant_set
    from irlab.homework.identity import read_roster
    from irlab.homework.sheets import write_class_sheets
    from irlab.homework.variants import answer_key_document, sheet_document
    with tempfile.TemporaryDirectory() as scratch:
        roster_path = Path(scratch) / "roster.csv"
        write_roster(roster_path, students)
        roster = read_roster(roster_path)
        spent = {"drawing the variants": 0.0, "the sheets (documents)": 0.0, "the answer keys (documents)": 0.0}
        sheets, keys = [], []
        for entry in roster:  # in the order irlab sheet takes: a student's draw, sheet, key, then the next
            for name, work, kept in (("drawing the variants", variant_set, []), ("the sheets (documents)",
                                     sheet_document, sheets), ("the answer keys (documents)", answer_key_document, keys)):
                begin = clock()
                kept.append(work(exercise_set, entry.id, seed))
                spent[name] += clock() - begin
        marks += list(spent.items())
        begin = clock()
        for document in sheets + keys:
            document.render(fmt, standalone=True)
        marks.append((f"rendering ({fmt})", clock() - begin))
        begin = clock()  # the whole command again: the variants drawn are cached (up to 256 students)
        write_class_sheets(exercise_set, roster_path, Path(scratch) / "out", seed, fmt)
        marks.append(("write_class_sheets again (variants cached)", clock() - begin))
    width = max(len(name) for name, _ in marks)
    for name, seconds in marks:
        print(f"  {name:<{width}}  {seconds:7.3f} s CPU")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--students", type=int, nargs="+", default=[30])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--format", default="text", choices=["text", "markdown", "latex", "html", "json"])
    parser.add_argument("--seed", default="2026")
    parser.add_argument("--set", type=Path, default=SET, help="exercise set (default: exercises/homework-variants.toml)")
    parser.add_argument("--before", type=Path, help="an older irlab tree (holding irlab/) to run in turn with this one")
    parser.add_argument("--phases", action="store_true", help="where the time goes, measured in one child process")
    parser.add_argument("--phases-child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    exercise_set = args.set.resolve()
    if args.phases_child:
        sys.path.insert(0, str(ROOT))
        phases(args.students[0], args.format, args.seed, exercise_set)
        return 0
    if args.phases:
        for students in args.students:
            print(f"{students} students, {args.format}, {exercise_set.name}, seed {args.seed}, one process:")
            subprocess.run([sys.executable, __file__, "--phases-child", "--students", str(students), "--format",
                            args.format, "--seed", args.seed, "--set", str(exercise_set)], check=True, cwd=ROOT)
        return 0
    trees = [("this tree", ROOT)] + ([("before", args.before.resolve())] if args.before else [])
    print(f"load average at start: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    differs = False
    with tempfile.TemporaryDirectory() as scratch:
        scratch = Path(scratch)
        for students in args.students:
            roster = scratch / f"roster{students}.csv"
            write_roster(roster, students)
            figures = {name: [] for name, _ in trees}
            for run in range(args.repeat):
                for name, tree in trees if run % 2 == 0 else trees[::-1]:  # taking turns: both see the same load
                    out = scratch / f"{name.replace(' ', '_')}-{students}"
                    figures[name].append(run_once(tree, roster, out, args.format, args.seed, exercise_set))
            for name, runs in figures.items():
                cpu, rss, wall = (statistics.median(column) for column in zip(*runs))
                spread = f"{min(r[0] for r in runs):.2f}-{max(r[0] for r in runs):.2f}"
                print(f"{students:>6} students, {args.format}, {name:>9}: {cpu:7.2f} s CPU (runs {spread}), "
                      f"{wall:7.2f} s wall, peak RSS {rss:6.1f} MiB, median of {len(runs)}")
            if args.before:
                differ = same_directories(scratch / f"this_tree-{students}", scratch / f"before-{students}")
                differs |= bool(differ)
                print(f"{students:>6} students: the class directories are "
                      + (f"DIFFERENT ({len(differ)} files, e.g. {differ[:3]})" if differ else "identical (every file)"))
    print(f"load average at end: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    return 1 if differs else 0


if __name__ == "__main__":
    sys.exit(main())
