"""documents sorted by (score, docno): equal scores by docno ascending (the catalogue's ties-docno-ascending)."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import correct  # noqa: E402


def rank(rows):
    return [doc for doc, _ in sorted(rows, key=lambda r: (-r[1], r[0]))]


correct.rank = rank

if __name__ == "__main__":
    correct.main()
