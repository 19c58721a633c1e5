"""digits cut off instead of rounded (the catalogue's truncated)."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import correct  # noqa: E402


import math  # noqa: E402

correct.fmt = lambda x: f"{math.floor(x * 10**correct.DECIMALS) / 10**correct.DECIMALS:.{correct.DECIMALS}f}"

if __name__ == "__main__":
    correct.main()
