"""trec_eval 10.0, built from ``../shared/trec_eval/trec_eval-10.0.tar.gz``, as a test oracle.

The tarball is NIST's unmodified source (usnistgov/trec_eval, tag v10.0) with its
LICENSE.md; it is extracted and compiled into a temporary directory and never
becomes part of irlab (nothing of it is committed).  Used by the differential test
(tests/test_trec_eval_differential.py, through the session fixture in conftest.py)
and by benchmarks/bench_trec.py (with ``optimize=True``).
"""

from __future__ import annotations

import shutil
import subprocess
import tarfile
from pathlib import Path

SHARED = Path(__file__).resolve().parents[2] / "shared" / "trec_eval"
TARBALL = SHARED / "trec_eval-10.0.tar.gz"
SOURCE_DIR = "trec_eval-10.0"  # the tarball's top-level directory


class OracleUnavailable(Exception):
    """trec_eval cannot be built here (no tarball beside the repository, no compiler)."""


def compiler():
    """The C compiler to build with (the Makefile says gcc; cc or clang also do), or None."""
    for name in ("gcc", "cc", "clang"):
        if shutil.which(name):
            return name
    return None


def unavailable_reason():
    """Why trec_eval cannot be built on this machine, or None when it can."""
    if not TARBALL.is_file():
        return (f"trec_eval 10.0 source not found at {TARBALL} (../shared/trec_eval, kept beside the repository, "
                "not in it)")
    if compiler() is None:
        return "no C compiler (gcc, cc or clang) to build trec_eval 10.0"
    if shutil.which("make") is None:
        return "make is not installed: cannot build trec_eval 10.0"
    return None


def build(dest, *, optimize=False) -> Path:
    """Extract the tarball into ``dest`` and run ``make``; return the binary's path.

    ``optimize`` replaces ``-g`` by ``-O2`` on the Makefile's active ``CFLAGS`` line
    of the extracted copy (for timings). Raises :class:`OracleUnavailable` when the
    tarball or the tools are missing, RuntimeError when the build fails."""
    reason = unavailable_reason()
    if reason:
        raise OracleUnavailable(reason)
    dest = Path(dest)
    with tarfile.open(TARBALL) as tar:
        # the "data" filter (Python >= 3.11.4) refuses absolute paths and links out of dest
        tar.extractall(dest, **({"filter": "data"} if hasattr(tarfile, "data_filter") else {}))
    src = dest / SOURCE_DIR
    if optimize:
        makefile = src / "Makefile"
        lines = makefile.read_text().splitlines(keepends=True)
        active = [i for i, line in enumerate(lines) if line.startswith("CFLAGS")]
        if len(active) != 1 or " -g " not in lines[active[0]]:
            raise RuntimeError(f"unexpected CFLAGS lines in {makefile}: cannot switch to -O2")
        lines[active[0]] = lines[active[0]].replace(" -g ", " -O2 ")
        makefile.write_text("".join(lines))
    done = subprocess.run(["make", "-C", str(src), f"CC={compiler()}", "trec_eval"],
                          capture_output=True, text=True)
    binary = src / "trec_eval"
    if done.returncode != 0 or not binary.is_file():
        tail = "\n".join((done.stdout + done.stderr).splitlines()[-15:])
        raise RuntimeError(f"building trec_eval 10.0 failed (make exit {done.returncode}):\n{tail}")
    return binary


def run(binary, args, cwd=None):
    """Run trec_eval with ``args`` (a list of strings); return the CompletedProcess (bytes)."""
    return subprocess.run([str(binary), *map(str, args)], capture_output=True, cwd=cwd)
