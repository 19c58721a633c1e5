"""every cut-off one rank early (k - 1, a 0-based index used as a count) (the catalogue's cutoff-one-early)."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import correct  # noqa: E402


correct.cutoff = lambda k: k - 1

if __name__ == "__main__":
    correct.main()
