"""DCG dividing by log2(i + 1) at every rank (the catalogue's discount-log2-rank-plus-1)."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import correct  # noqa: E402


import math  # noqa: E402

correct.discount = lambda i: 1 / math.log2(i + 1)

if __name__ == "__main__":
    correct.main()
