"""The Gradescope autograder bundle: a zip a teacher uploads as is.

Gradescope (https://gradescope-autograders.readthedocs.io/en/latest/specs/) unpacks the zip into /autograder/source,
runs ``setup.sh`` once when it builds the image and ``run_autograder`` for every submission, which finds the
student's files in /autograder/submission and must write /autograder/results/results.json. The bundle holds the
assignment file and its collection (paths rewritten to sit beside it), setup.sh (pip-installs irlab) and
run_autograder (``irlab check-eval … --gradescope /autograder/results/results.json``).
"""

from __future__ import annotations

import io
import shlex
import tomllib
import zipfile
from pathlib import Path

from .. import __version__
from .spec import Assignment

SOURCE = "/autograder/source"


def _toml_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def bundled_assignment(assignment: Assignment) -> tuple[str, dict]:
    """The assignment file with qrels and runs pointing into collection/, and {name in zip: local path}."""
    files = {"collection/" + Path(assignment.collection.qrels_path).name: assignment.collection.qrels_path}
    runs = {}
    for label, path in assignment.collection.run_paths:
        name = f"collection/{label}-{Path(path).name}"
        files[name] = path
        runs[label] = name
    text = Path(assignment.path).read_text(encoding="utf-8")
    data = tomllib.loads(text)
    lines = []
    skipping = False
    for line in text.splitlines():  # drop the qrels key and the [runs] table; they are written again below
        stripped = line.strip()
        if stripped.startswith("["):
            skipping = stripped == "[runs]"
        if skipping or stripped.split("=")[0].strip() == "qrels" and not stripped.startswith("#"):
            continue
        lines.append(line)
    head = [f"qrels = {_toml_string(next(iter(files)))}"] if "qrels" in data else []
    first_table = next((i for i, line in enumerate(lines) if line.strip().startswith("[")), len(lines))
    lines[first_table:first_table] = head + ["", "[runs]"] + [f"{_toml_string(label)} = {_toml_string(name)}"
                                                              for label, name in runs.items()] + [""]
    return "\n".join(lines) + "\n", files


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
    text, files = bundled_assignment(assignment)
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
