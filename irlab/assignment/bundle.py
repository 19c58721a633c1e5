"""The Gradescope autograder bundle: a zip a teacher uploads as is.

Gradescope (https://gradescope-autograders.readthedocs.io/en/latest/specs/) unpacks the zip into /autograder/source,
runs ``setup.sh`` once when it builds the image and ``run_autograder`` for every submission, which finds the
student's files in /autograder/submission and must write /autograder/results/results.json. The bundle holds the
assignment file as it is and its collection at the same relative paths, setup.sh (pip-installs irlab) and
run_autograder (``irlab check-eval … --gradescope /autograder/results/results.json``).
"""

from __future__ import annotations

import io
import shlex
import zipfile
from pathlib import Path

from .. import __version__
from ..errors import ParameterError
from .spec import Assignment

SOURCE = "/autograder/source"


def bundled_files(assignment: Assignment) -> dict:
    """{name in the zip: local path} of the assignment's collection: the paths the assignment file gives, relative to
    it, so the file is bundled as it is. A collection file outside the assignment's folder is refused."""
    base = Path(assignment.path).resolve().parent
    files = {}
    for path in (assignment.collection.qrels_path, *(p for _, p in assignment.collection.run_paths)):
        resolved = Path(path).resolve()
        if not resolved.is_relative_to(base):
            raise ParameterError(f"--bundle: {path} is not in the assignment's folder {base}; the bundle keeps the "
                                 "assignment file as it is, so its qrels and runs must be below it")
        files[resolved.relative_to(base).as_posix()] = resolved
    return files


def setup_script(pip: str) -> str:
    return ("#!/usr/bin/env bash\n"
            "# Gradescope runs this once, building the autograder image: install irlab.\n"
            "set -euo pipefail\n"
            "apt-get install -y python3 python3-pip > /dev/null\n"
            f"python3 -m pip install --break-system-packages {shlex.quote(pip)} || python3 -m pip install {shlex.quote(pip)}\n")


def run_script() -> str:
    return ("#!/usr/bin/env bash\n"
            "# Gradescope runs this for every submission: check it, write the results for Gradescope.\n"
            "mkdir -p /autograder/results\n"
            f"irlab check-eval {SOURCE}/assignment.toml /autograder/submission "
            "--gradescope /autograder/results/results.json\n")


def bundle_bytes(assignment: Assignment, pip: str | None = None) -> bytes:
    """The zip: setup.sh, run_autograder, assignment.toml and collection/ at its root (not in a folder)."""
    files = bundled_files(assignment)
    text = Path(assignment.path).read_bytes()
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, content, mode in (("setup.sh", setup_script(pip or f"irlab=={__version__}"), 0o755),
                                    ("run_autograder", run_script(), 0o755), ("assignment.toml", text, 0o644)):
            info = zipfile.ZipInfo(name, date_time=(2024, 1, 1, 0, 0, 0))
            info.external_attr = (0o100000 | mode) << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            zf.writestr(info, content)
        for name, path in files.items():
            info = zipfile.ZipInfo(name, date_time=(2024, 1, 1, 0, 0, 0))
            info.external_attr = 0o100644 << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            zf.writestr(info, Path(path).read_bytes())
    return out.getvalue()
