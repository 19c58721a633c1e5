"""R-precision with R counted among the retrieved documents (the catalogue's r-from-run)."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import correct  # noqa: E402


def r_precision(ranked, judged):
    R = sum(1 for d in ranked if judged.get(d, 0) > 0)
    return sum(1 for d in ranked[:R] if judged.get(d, 0) > 0) / R if R else 0.0


correct.r_precision = r_precision

if __name__ == "__main__":
    correct.main()
