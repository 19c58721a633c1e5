"""every cut-off one rank late (k + 1, an inclusive slice) (the catalogue's cutoff-one-late)."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import correct  # noqa: E402


correct.cutoff = lambda k: k + 1

if __name__ == "__main__":
    correct.main()
