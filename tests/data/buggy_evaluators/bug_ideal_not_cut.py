"""nDCG@k divided by the DCG of the whole ideal ranking (the catalogue's ideal-not-cut-at-k)."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import correct  # noqa: E402


correct.ideal_depth = lambda k: None  # grades[:None] is the whole list

if __name__ == "__main__":
    correct.main()
