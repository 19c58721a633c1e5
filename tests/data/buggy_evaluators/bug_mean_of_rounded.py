"""the mean row averages the values as printed (the catalogue's mean-of-rounded)."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import correct  # noqa: E402


correct.mean = lambda values: sum(round(v, correct.DECIMALS) for v in values) / len(values)

if __name__ == "__main__":
    correct.main()
