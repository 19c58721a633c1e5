"""nDCG with the gain 2^g - 1 (the catalogue's exponential-gain)."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import correct  # noqa: E402


correct.gain = lambda grade: 2**grade - 1

if __name__ == "__main__":
    correct.main()
