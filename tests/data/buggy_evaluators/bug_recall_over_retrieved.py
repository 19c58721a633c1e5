"""recall divided by the documents retrieved up to k (the catalogue's recall-over-retrieved)."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import correct  # noqa: E402


def recall(ranked, judged, k):
    top = ranked[:k]
    return sum(1 for d in top if judged.get(d, 0) > 0) / len(top)


correct.recall = recall

if __name__ == "__main__":
    correct.main()
