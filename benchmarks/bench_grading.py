"""Benchmark: grade a class of 500 students x 10 questions, each against their own variant.

    python benchmarks/bench_grading.py                       # 500 students, exercises/homework-variants.toml
    python benchmarks/bench_grading.py --students 100 --repeat 3
    python benchmarks/bench_grading.py --students 12500 --write /tmp/class.csv --generate-only
    python benchmarks/bench_grading.py --answers /tmp/class.csv  # grading only, in a fresh process
    python benchmarks/bench_grading.py --answers /tmp/class.csv --reports /tmp/after   # every format, for diff -r

The answers are synthetic and seeded: about 60 % right (in varied forms: fractions, decimals, percentages),
20 % one of the catalogued mistakes (so the diagnosis runs), 10 % some other wrong number, 10 % blank or
unreadable. They are written to a temporary CSV; every cache is cleared before timing, so the wall time
covers reading the CSV, drawing and checking 500 variants, solving 5,000 questions exactly, diagnosing the
wrong answers and building the report (CSV and JSON written to files too).

Measurements, and where the time goes: benchmarks/README.md (section bench_grading.py).
"""

from __future__ import annotations

import argparse
import csv
import random
import resource
import sys
import tempfile
import time
from fractions import Fraction
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from irlab import exact  # noqa: E402
from irlab.homework import grade  # noqa: E402
from irlab.homework.grading import clear_caches  # noqa: E402
from irlab.homework.key import answer_key  # noqa: E402
from irlab.homework.variants import variant_set  # noqa: E402


def _written(value, rng: random.Random) -> str:
    if exact.is_symbolic(value):
        return exact.decimal_text(value)
    style = rng.choice(["fraction", "decimal", "percent", "comma"])
    if style == "fraction":
        return exact.exact_text(value)
    if style == "percent":
        return exact.decimal_text(Fraction(value) * 100, 2) + "%"
    text = exact.decimal_text(value)
    return text.replace(".", ",") if style == "comma" else text


def make_answers(path: Path, exercise_file: Path, students: int, seed: str) -> int:
    """Write the synthetic class's answers; returns the number of answer rows."""
    rng = random.Random(20261122)
    rows = 0
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["student", "exercise", "question", "answer"])
        for number in range(students):
            student = f"s{number:04d}"
            for exercise in variant_set(exercise_file, student, seed).exercises:
                for question in exercise.questions:
                    key = answer_key(exercise_file, exercise.id, question.id, student, seed)
                    pieces = []
                    for part in key.parts:
                        roll = rng.random()
                        if roll < 0.6:
                            pieces.append(_written(part.value, rng))
                        elif roll < 0.8 and key.mistaken(part):
                            _, result, _ = rng.choice(key.mistaken(part))
                            pieces.append(exact.decimal_text(result.value))
                        elif roll < 0.9:
                            pieces.append(f"{rng.random():.3f}")
                        else:
                            pieces.append(rng.choice(["", "n/a", "?"]))
                    writer.writerow([student, exercise.id, question.id, "; ".join(pieces)])
                    rows += 1
    return rows


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--students", type=int, default=500)
    parser.add_argument("--file", default=str(ROOT / "exercises" / "homework-variants.toml"))
    parser.add_argument("--seed", default="bench")
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--generate-only", action="store_true", help="only time generating the answers")
    parser.add_argument("--write", metavar="CSV", help="write the generated answers to CSV (with --generate-only: "
                                                       "generate once, grade later with --answers)")
    parser.add_argument("--answers", metavar="CSV", help="grade this answers file (made with --write) instead of "
                                                         "generating one: the process then measures grading only")
    parser.add_argument("--reports", metavar="DIR", help="after timing, write the report in every format to DIR "
                                                         "(compare two versions' DIRs with diff -r: a speed-up must "
                                                         "leave every byte as it was)")
    args = parser.parse_args(argv)
    exercise_file = Path(args.file)
    with tempfile.TemporaryDirectory() as tmp:
        if args.answers:
            answers = Path(args.answers)
            with answers.open(encoding="utf-8") as handle:
                rows = sum(1 for _ in handle) - 1
                handle.seek(0)
                args.students = len({line.split(",", 1)[0] for line in handle}) - 1
        else:
            answers = Path(args.write) if args.write else Path(tmp) / "answers.csv"
            started = time.perf_counter()
            rows = make_answers(answers, exercise_file, args.students, args.seed)
            print(f"generated {rows} answer rows for {args.students} students in {time.perf_counter() - started:.1f} s")
        if args.generate_only:
            return 0
        for run in range(1, args.repeat + 1):
            clear_caches()
            started, cpu = time.perf_counter(), time.process_time()
            report = grade(exercise_file, answers, args.seed)
            for fmt in ("csv", "json"):  # written to files, as `irlab grade --format csv|json > FILE` does
                with (Path(tmp) / f"report.{fmt}").open("w", encoding="utf-8") as handle:
                    report.write(fmt, handle)
            elapsed, cpu = time.perf_counter() - started, time.process_time() - cpu
            total = sum(s.score for s in report.students)
            peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux
            print(f"run {run}: graded {args.students} students x {len(report.questions)} questions in {elapsed:.2f} s wall, "
                  f"{cpu:.2f} s CPU ({1000 * cpu / rows:.2f} ms CPU per answer row); peak RSS {peak:.0f} MiB"
                  f"{'' if args.answers else ' (answers generated in the same process)'}; "
                  f"class mean {float(total) / args.students:.3f} "
                  f"of {len(report.questions)}; {len(report.mistake_summary())} kinds of mistake recognised; "
                  f"{len(report.problems)} rows not graded")
        if args.reports:
            out = Path(args.reports)
            out.mkdir(parents=True, exist_ok=True)
            for fmt in ("csv", "json", "text", "markdown", "canvas", "moodle"):
                (out / f"report.{fmt}").write_text(report.render(fmt), encoding="utf-8")
            print(f"reports written to {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
