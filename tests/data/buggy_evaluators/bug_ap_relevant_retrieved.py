"""AP divided by the relevant documents the run retrieved (the catalogue's ap-over-relevant-retrieved)."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import correct  # noqa: E402


def average_precision(ranked, judged):
    hits, total = 0, 0.0
    for i, d in enumerate(ranked, 1):
        if judged.get(d, 0) > 0:
            hits += 1
            total += hits / i
    return total / hits if hits else 0.0


correct.average_precision = average_precision

if __name__ == "__main__":
    correct.main()
