"""the ideal DCG sorts the retrieved documents only (the catalogue's ideal-from-run)."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import correct  # noqa: E402


def ideal_grades(ranked, judged):
    return sorted((judged.get(d, 0) for d in ranked if judged.get(d, 0) > 0), reverse=True)


correct.ideal_grades = ideal_grades

if __name__ == "__main__":
    correct.main()
