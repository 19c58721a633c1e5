"""Benchmark: grade a class of 500 students x 10 questions, each against their own variant.

    python benchmarks/bench_grading.py                       # 500 students, exercises/homework-variants.toml
    python benchmarks/bench_grading.py --students 100 --repeat 3
    python benchmarks/bench_grading.py --students 12500 --write /tmp/class.csv --generate-only
    python benchmarks/bench_grading.py --answers /tmp/class.csv  # grading only, in a fresh process
    python benchmarks/bench_grading.py --answers /tmp/class.csv --reports /tmp/after   # every format, for diff -r
    python benchmarks/bench_grading.py --moodle 200000 --write /tmp/moodle.csv --generate-only   # an LMS export
    python benchmarks/bench_grading.py --answers /tmp/moodle.csv --seed 2026     # graded as `irlab grade` reads it
    python benchmarks/bench_grading.py --answers /tmp/moodle.csv --seed 2026 --cli   # issue 28's figure, see below

The answers are synthetic and seeded: about 60 % right (in varied forms: fractions, decimals, percentages),
20 % one of the catalogued mistakes (so the diagnosis runs), 10 % some other wrong number, 10 % blank or
unreadable. They are written to a temporary CSV; every cache is cleared before timing, so the wall time
covers reading the CSV, drawing and checking 500 variants, solving 5,000 questions exactly, diagnosing the
wrong answers and building the report (CSV and JSON written to files too).

``--moodle ATTEMPTS`` writes a Moodle quiz Responses export instead (the layout irlab.lms.responses reads: one
row per attempt, each drawn one of ``--variants`` variants of the bank, ``--slots`` questions each), answered in
the same mix; ``--answers`` grades such an export as ``irlab grade`` does.

``--cli`` times issue 28's reproduction instead: ``irlab grade SET ANSWERS --seed S > report.csv`` (the CSV report
on stdout) in a child process, and prints the child's CPU time (user + sys), wall time and peak RSS, the figures
the issue's target (under 20 s for a 200,000-attempt export) is about.

Measurements, and where the time goes: benchmarks/README.md (section bench_grading.py).
"""

from __future__ import annotations

import argparse
import csv
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from fractions import Fraction
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from irlab import exact  # noqa: E402
from irlab.homework.grading import clear_caches  # noqa: E402
from irlab.homework.identity import variant_code  # noqa: E402
from irlab.homework.key import answer_key  # noqa: E402
from irlab.homework.variants import variant_set  # noqa: E402
from irlab.lms.bank import question_name, variant_student  # noqa: E402
from irlab.lms.responses import grade  # noqa: E402  (irlab's answers CSV or an LMS export, as `irlab grade`)


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


def _answered(key, part, rng: random.Random) -> str:
    """One part's answer in the benchmark's mix: right, a catalogued mistake, another number, blank or unreadable."""
    roll = rng.random()
    if roll < 0.6:
        return _written(part.value, rng)
    if roll < 0.8 and key.mistaken(part):
        _, result, _ = rng.choice(key.mistaken(part))
        return exact.decimal_text(result.value)
    if roll < 0.9:
        return f"{rng.random():.3f}"
    return rng.choice(["", "n/a", "?"])


def make_moodle_export(path: Path, exercise_file: Path, attempts: int, seed: str, variants: int = 2,
                       slots: int = 1) -> int:
    """Write a Moodle quiz Responses export of ``attempts`` attempts (one row each, one student each), every one
    drawn one of ``variants`` variants of the set's numeric one-part questions, ``slots`` questions per attempt;
    returns the number of response cells (the answer rows irlab grades)."""
    rng = random.Random(20261123)
    exercise_set = variant_set(exercise_file)
    questions = []  # (exercise, question, {variant number: key})
    for exercise in exercise_set.exercises:
        for question in exercise.questions:
            keys = {n: answer_key(exercise_file, exercise.id, question.id, variant_student(n), seed)
                    for n in range(1, variants + 1)}
            if question.solver != "free-text" and len(keys[1].parts) == 1 and keys[1].parts[0].result is not None:
                questions.append((exercise.id, question.id, keys))
    names = {(e, q, n): question_name(exercise_set.id, e, q, None, variant_code(exercise_set.id, variant_student(n), seed))
             for e, q, keys in questions for n in keys}
    header = ["Surname", "First name", "Email address", "State", "Started on", "Completed", "Time taken", "Grade/10.00"]
    for slot in range(1, slots + 1):
        header += [f"Question {slot}", f"Response {slot}", f"Right answer {slot}"]
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(header)
        for number in range(attempts):
            cells = [f"Student{number}", "A.", f"s{number:06d}@example.org", "Finished", "20 January 2026  10:00 AM",
                     "20 January 2026  10:20 AM", "20 mins", "5.00"]
            for slot in range(slots):
                exercise, question, keys = questions[slot % len(questions)]
                variant = rng.randint(1, variants)
                key = keys[variant]
                answer = _answered(key, key.parts[0], rng)
                cells += [f"{names[exercise, question, variant]} What is it?", answer or "-",
                          exact.decimal_text(key.parts[0].value)]
            writer.writerow(cells)
    return attempts * slots


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
                    pieces = [_answered(key, part, rng) for part in key.parts]
                    writer.writerow([student, exercise.id, question.id, "; ".join(pieces)])
                    rows += 1
    return rows


def _cli_run(exercise_file: Path, answers: Path, seed: str, report: Path) -> str:
    """``irlab grade FILE ANSWERS --seed SEED > REPORT`` in a child process: its CPU, wall time and peak RSS."""
    command = [sys.executable, "-m", "irlab", "grade", str(exercise_file), str(answers), "--seed", seed]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
    with report.open("w", encoding="utf-8") as out, tempfile.TemporaryFile() as errors:
        started = time.perf_counter()
        child = subprocess.Popen(command, stdout=out, stderr=errors, env=env)
        _, status, usage = os.wait4(child.pid, 0)  # this child's own CPU time and peak RSS
        elapsed = time.perf_counter() - started
        child.returncode = os.waitstatus_to_exitcode(status)
        errors.seek(0)
        stderr = errors.read()
    if child.returncode not in (0, 1):  # 1: some rows not graded, listed in the report
        raise SystemExit(f"irlab grade failed ({child.returncode}): {stderr.decode(errors='replace')[-2000:]}")
    return (f"irlab grade {answers.name} --seed {seed} > report.csv: {usage.ru_utime:.2f} + {usage.ru_stime:.2f} = "
            f"{usage.ru_utime + usage.ru_stime:.2f} s CPU, {elapsed:.2f} s wall, peak RSS {usage.ru_maxrss / 1024:.0f} "
            f"MiB, report {report.stat().st_size:,} bytes")


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--students", type=int, default=500)
    parser.add_argument("--file", default=str(ROOT / "exercises" / "homework-variants.toml"))
    parser.add_argument("--seed", default="bench")
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--moodle", type=int, metavar="ATTEMPTS", help="generate a Moodle Responses export of this "
                                                                       "many attempts instead of irlab's answers CSV")
    parser.add_argument("--variants", type=int, default=2, help="variants drawn in the Moodle export (default 2)")
    parser.add_argument("--slots", type=int, default=1, help="questions per attempt in the Moodle export (default 1)")
    parser.add_argument("--generate-only", action="store_true", help="only time generating the answers")
    parser.add_argument("--write", metavar="CSV", help="write the generated answers to CSV (with --generate-only: "
                                                       "generate once, grade later with --answers)")
    parser.add_argument("--answers", metavar="CSV", help="grade this answers file (made with --write) instead of "
                                                         "generating one: the process then measures grading only")
    parser.add_argument("--cli", action="store_true", help="time `irlab grade FILE ANSWERS --seed S > report.csv` "
                                                            "in a child process (CPU, wall, peak RSS) instead")
    parser.add_argument("--reports", metavar="DIR", help="after timing, write the report in every format to DIR "
                                                         "(compare two versions' DIRs with diff -r: a speed-up must "
                                                         "leave every byte as it was)")
    args = parser.parse_args(argv)
    exercise_file = Path(args.file)
    with tempfile.TemporaryDirectory() as tmp:
        if args.answers:
            answers = Path(args.answers)
            with answers.open(encoding="utf-8") as handle:  # the first column: the student, or a Moodle surname
                args.students = len({line.split(",", 1)[0] for line in handle}) - 1
        else:
            answers = Path(args.write) if args.write else Path(tmp) / "answers.csv"
            started = time.perf_counter()
            if args.moodle:
                make_moodle_export(answers, exercise_file, args.moodle, args.seed, args.variants, args.slots)
                args.students = args.moodle
                what = f"a Moodle export of {args.moodle} attempts ({args.variants} variants, {args.slots} slots each)"
            else:
                rows = make_answers(answers, exercise_file, args.students, args.seed)
                what = f"{rows} answer rows for {args.students} students"
            print(f"generated {what} in {time.perf_counter() - started:.1f} s ({answers.stat().st_size / 1e6:.1f} MB)")
        if args.generate_only:
            return 0
        if args.cli:
            for run in range(1, args.repeat + 1):
                print(f"run {run}: {_cli_run(exercise_file, answers, args.seed, Path(tmp) / 'report.csv')}")
            return 0
        for run in range(1, args.repeat + 1):
            clear_caches()
            started, cpu, worker = time.perf_counter(), time.process_time(), _children_cpu()
            report = grade(exercise_file, answers, args.seed)
            for fmt in ("csv", "json"):  # written to files, as `irlab grade --format csv|json > FILE` does
                with (Path(tmp) / f"report.{fmt}").open("w", encoding="utf-8") as handle:
                    report.write(fmt, handle)
            elapsed, cpu = time.perf_counter() - started, time.process_time() - cpu
            worker = _children_cpu() - worker  # the worker that grades students ahead (irlab.homework.ahead), if one ran
            total = sum(s.score for s in report.students)
            peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux
            child_peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
            print(f"run {run}: graded {args.students} students x {len(report.questions)} questions in {elapsed:.2f} s wall, "
                  f"{cpu:.2f} s CPU ({1000 * cpu / len(report.rows):.2f} ms CPU per answer row) + {worker:.2f} s CPU "
                  f"in the grading worker; peak RSS {peak:.0f} MiB, worker {child_peak:.0f} MiB"
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
