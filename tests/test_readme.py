"""The README's console examples are real output: each complete example is re-run and compared."""

import re
import shlex
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[1] / "README.md"


def console_examples():
    """(command, expected output) for ```console blocks with one command and no elided lines."""
    examples = []
    for block in re.findall(r"```console\n(.*?)```", README.read_text(encoding="utf-8"), re.S):
        lines = block.rstrip("\n").split("\n")
        commands = [line for line in lines if line.startswith("$ ")]
        if len(commands) != 1 or any(line.strip() == "..." for line in lines) or "abridged" in block:
            continue
        examples.append((lines[0][2:], "\n".join(lines[1:])))
    return examples


def test_readme_has_complete_examples():
    assert len(console_examples()) >= 2


@pytest.mark.parametrize("command, expected", console_examples(), ids=lambda v: v if v.startswith("irlab") else "")
def test_readme_example_output_is_current(cli, command, expected):
    if "../shared/" in command and not (README.parent.parent / "shared").exists():
        pytest.skip("skips this README example: it reads ../shared/trec_eval (trec_eval 10.0's test collection, "
                    "kept beside the repository, not in it), which is not present")
    command, _, head = command.partition(" | head -")
    args = shlex.split(command)
    assert args[0] == "irlab"
    out = cli(*args[1:])
    assert out.returncode == 0, out.stderr
    produced = out.stdout.rstrip("\n").split("\n")
    if head:
        produced = produced[: int(head)]
    assert "\n".join(produced) == expected
