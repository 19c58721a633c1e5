"""Check: no personal variant of the shipped sets has a degenerate answer (issue 29, item 3), over 1,000 seeds.

    python benchmarks/check_variant_draws.py                 # 1,000 seeds of every shipped set with variants
    python benchmarks/check_variant_draws.py --seeds 100 --student s1

For every seed, every exercise of the student's variant: no computed answer (each part) is 0 or 1, and no named
mistake lies within the tolerance of a right value (``set_too_close``, what ``irlab sheet`` warns about). Prints,
per set, the draws made and refused (per exercise: the total, the most before one variant, and the reasons by
question) and the time taken; exits 1 if any issued variant is degenerate. tests/test_variant_draws.py checks 100
seeds in the suite.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

from irlab.exact import to_float
from irlab.exercise_set import load
from irlab.homework.diagnosis import set_too_close
from irlab.homework.drawing import clear_drawing_caches, variant_set
from irlab.homework.key import answer_key

ROOT = Path(__file__).resolve().parents[1]


def degenerate_answers(path: Path, student: str, seed) -> list[str]:
    """What is degenerate in the student's variant: each computed part 0 or 1, each too-close mistake."""
    found = []
    for exercise in variant_set(path, student, seed).exercises:
        for question in exercise.questions:
            if question.solver == "free-text":
                continue
            for part in answer_key(path, exercise.id, question.id, student, seed).parts:
                value = to_float(part.value)  # exact, or with logarithms (nDCG)
                if abs(value) < 1e-12 or abs(value - 1) < 1e-12:
                    found.append(f"{exercise.id}{question.id}.{part.number} = {part.value}")
    found += [finding.text() for finding in set_too_close(path, student, seed)]
    return found


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=1000)
    parser.add_argument("--student", default="student")
    args = parser.parse_args(argv)
    sets = [p for p in sorted((ROOT / "exercises").glob("*.toml")) if any(e.variants for e in load(p).exercises)]
    bad = 0
    for path in sets:
        start = time.perf_counter()
        refused, most, reasons, issued = Counter(), Counter(), Counter(), 0
        for seed in range(args.seeds):
            for problem in degenerate_answers(path, args.student, seed):
                bad += 1
                print(f"DEGENERATE {path.name} seed {seed}: {problem}")
            for exercise in variant_set(path, args.student, seed).exercises:
                if not exercise.variants:
                    continue
                issued += 1
                refused[exercise.id] += len(exercise.refused_draws)
                most[exercise.id] = max(most[exercise.id], len(exercise.refused_draws))
                reasons.update((exercise.id, reason.split(":")[0]) for reason in exercise.refused_draws)
            if seed % 50 == 49:
                clear_drawing_caches()  # memory stays flat
        total = sum(refused.values())
        print(f"{path.name}: {args.seeds} seeds, {issued} variants of exercises issued after {issued + total} draws "
              f"({total} refused) in {time.perf_counter() - start:.0f} s")
        for exercise_id, count in refused.items():
            print(f"  exercise {exercise_id}: {count} refused (at most {most[exercise_id]} before one variant)")
            for (where, reason), times in sorted(reasons.items()):
                if where == exercise_id:
                    print(f"    {reason}: {times}")
    print(f"degenerate answers in issued variants: {bad}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
