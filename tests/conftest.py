import shutil
import subprocess
import sys
from dataclasses import dataclass

import pytest

from irlab.cli import main


@dataclass
class Completed:
    returncode: int
    stdout: str
    stderr: str


def run_cli(*args):
    """Run the irlab command in a subprocess, exactly as a user would."""
    return subprocess.run([sys.executable, "-m", "irlab", *args], capture_output=True, text=True)


@pytest.fixture
def cli(capsys):
    """Run ``irlab ARGS`` in this process (fast) and return its exit code and output."""

    def run(*args):
        code = main(list(args))
        captured = capsys.readouterr()
        return Completed(code, captured.out, captured.err)

    return run


@pytest.fixture(scope="session")
def trec_eval_binary(tmp_path_factory):
    """trec_eval 10.0 built once per test session from ../shared/trec_eval (see trec_eval_oracle.py);
    the test is skipped when the tarball or a compiler is absent."""
    import trec_eval_oracle

    reason = trec_eval_oracle.unavailable_reason()
    if reason:
        pytest.skip(f"skips this comparison with trec_eval 10.0 (built from source): {reason}")
    return trec_eval_oracle.build(tmp_path_factory.mktemp("trec_eval"))


def pdflatex_available():
    return shutil.which("pdflatex") is not None
