"""The README's examples are real output: every ``$ command`` of its console and bash blocks is run, in order, in a
copy of the repository's exercises, and compared with the lines shown under it.

How a shown example is read:
* the lines under a command, up to the next command or the end of the block, are its output: stdout, or stdout
  followed by stderr (irlab's ``irlab: wrote …`` and ``irlab: error: …`` lines go to stderr);
* ``| head -N`` keeps the first N lines, as the shell would;
* a line ``...`` stands for lines left out: the shown pieces must appear in that order, each as consecutive lines;
* ``# abridged`` after a command: each shown line must appear, in order, among the output's lines;
* a command with no lines under it must succeed (its output is not shown);
* a command whose shown output ends in ``irlab: error: …`` must fail with that message; every other one succeeds.
"""

import re
import shlex
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"


@dataclass
class Example:
    line: int  # where the command is in README.md
    command: str  # as shown, after '$ '
    shown: list  # the lines under it

    @property
    def abridged(self) -> bool:
        return "# abridged" in self.command


def examples() -> list[Example]:
    """Every '$ ' command of the README's console and bash blocks, with the lines shown under it."""
    found, block, current = [], None, None
    for number, line in enumerate(README.read_text(encoding="utf-8").split("\n"), 1):
        if block is None:
            if re.fullmatch(r"```(console|bash)", line):
                block = line
            continue
        if line == "```":
            block = current = None
        elif line.startswith("$ "):
            current = Example(number, line[2:], [])
            found.append(current)
        elif current is not None:
            current.shown.append(line)
    return found


def _pieces(lines):
    """The shown lines split at '...' lines."""
    pieces = [[]]
    for line in lines:
        if line.strip() == "...":
            pieces.append([])
        else:
            pieces[-1].append(line)
    return [piece for piece in pieces if piece]


def _contains_in_order(produced, pieces) -> bool:
    """Each piece appears as consecutive lines of ``produced``, the pieces in order."""
    start = 0
    for piece in pieces:
        for at in range(start, len(produced) - len(piece) + 1):
            if produced[at:at + len(piece)] == piece:
                start = at + len(piece)
                break
        else:
            return False
    return True


def _subsequence(produced, shown) -> bool:
    rest = iter(produced)
    return all(any(line == candidate for candidate in rest) for line in shown)


def matches(example: Example, stdout: str, stderr: str) -> bool:
    command, _, head = example.command.partition(" | head -")
    readings = [stdout, stdout + stderr]
    for text in readings:
        produced = text.rstrip("\n").split("\n") if text else []
        if head:
            produced = produced[: int(head.split()[0])]
        if example.abridged:
            if _subsequence(produced, example.shown):
                return True
        elif any(line.strip() == "..." for line in example.shown):
            if _contains_in_order(produced, _pieces(example.shown)):
                return True
        elif produced == example.shown:
            return True
    return False


@pytest.fixture(scope="module")
def workdir(tmp_path_factory):
    """A copy of what the README's commands read; the commands run there in README order (sheets/ written by one
    example is read by a later one)."""
    work = tmp_path_factory.mktemp("readme")
    shutil.copytree(ROOT / "exercises", work / "exercises")
    return work


def _run(example: Example, work: Path):
    command = example.command.partition(" | head -")[0]
    args = shlex.split(command, comments=True)
    if args[0] == "irlab":
        args = [sys.executable, "-m", "irlab", *args[1:]]
    return subprocess.run(args, cwd=work, capture_output=True, text=True, timeout=600)


EXAMPLES = examples()


def test_the_readme_shows_examples():
    assert len(EXAMPLES) >= 20
    assert not [e.command for e in EXAMPLES if "../shared" in e.command], \
        "a README example must run on a fresh clone: use files shipped in the repository"


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda e: f"README.md:{e.line}")
def test_readme_example_is_real_output(example, workdir):
    done = _run(example, workdir)
    fails = bool(example.shown) and example.shown[-1].startswith("irlab: error:")
    if fails:
        assert done.returncode != 0, f"README.md:{example.line}: {example.command} succeeded"
    else:
        assert done.returncode == 0, f"README.md:{example.line}: {example.command}\n{done.stderr}"
    if example.shown:
        assert matches(example, done.stdout, done.stderr), (
            f"README.md:{example.line}: {example.command}\n--- shown ---\n" + "\n".join(example.shown)
            + "\n--- produced ---\n" + done.stdout + done.stderr)


def test_the_checker_reads_elisions_and_abridged_examples():
    shown = Example(1, "irlab x", ["a", "...", "c", "d"])
    assert matches(shown, "a\nb\nc\nd\n", "")
    assert not matches(shown, "a\nc\nb\nd\n", "")
    abridged = Example(1, "irlab x   # abridged: the answers", ["b", "d"])
    assert matches(abridged, "a\nb\nc\nd\n", "") and not matches(abridged, "d\nb\n", "")
    exact = Example(1, "irlab x | head -2", ["a", "b"])
    assert matches(exact, "a\nb\nc\n", "") and not matches(exact, "a\nc\n", "")
