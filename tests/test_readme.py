"""The README's and the site's examples are real output: every ``$ command`` of the console and bash blocks of
README.md and of each page docs/site/*.md is run, in order, in a fresh copy of the repository's exercises for that
file (a page's examples may use what an earlier example of the same page wrote), and compared with the lines shown
under it.

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
# the files whose examples are checked: the README and the site's pages (not _generated/, written by build.py)
FILES = [README, *sorted((ROOT / "docs" / "site").glob("*.md"))]


@dataclass
class Example:
    file: str  # the file shown in, relative to the repository: README.md, docs/site/eval.md
    line: int  # where the command is in that file
    command: str  # as shown, after '$ '
    shown: list  # the lines under it

    @property
    def abridged(self) -> bool:
        return "# abridged" in self.command


    @property
    def where(self) -> str:
        return f"{self.file}:{self.line}"


def examples(path: Path = README, name: str = "") -> list[Example]:
    """Every '$ ' command of a file's console and bash blocks, with the lines shown under it, in the file's order."""
    name = name or path.relative_to(ROOT).as_posix()
    found, block, current = [], None, None
    for number, line in enumerate(path.read_text(encoding="utf-8").split("\n"), 1):
        if block is None:
            if re.fullmatch(r"```(console|bash)", line):
                block = line
            continue
        if line == "```":
            block = current = None
        elif line.startswith("$ "):
            current = Example(name, number, line[2:], [])
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
def workdirs(tmp_path_factory):
    """One work dir per file: a copy of what its commands read, made when its first example runs; a file's commands
    run there in the file's order (sheets/ written by one example is read by a later one of the same file)."""
    made = {}

    def workdir(file: str) -> Path:
        if file not in made:
            work = tmp_path_factory.mktemp(file.replace("/", "-").removesuffix(".md"))
            shutil.copytree(ROOT / "exercises", work / "exercises")
            made[file] = work
        return made[file]

    return workdir


def _run(example: Example, work: Path):
    command = example.command.partition(" | head -")[0]
    args = shlex.split(command, comments=True)
    if args[0] == "irlab":
        args = [sys.executable, "-m", "irlab", *args[1:]]
    elif args[0] == "python3":  # a student's one-liner: the Python the tests run under, where irlab is installed
        args = [sys.executable, *args[1:]]
    return subprocess.run(args, cwd=work, capture_output=True, text=True, timeout=600)


EXAMPLES = {path.relative_to(ROOT).as_posix(): examples(path) for path in FILES}
ALL = [example for found in EXAMPLES.values() for example in found]


def test_the_readme_and_the_site_show_examples():
    assert len(EXAMPLES["README.md"]) >= 5, "README's tours each show a verified example"
    assert len(ALL) >= 40 and sum(1 for found in EXAMPLES.values() if found) >= 10  # README and the guide's pages
    assert not [e.where for e in ALL if "../shared" in e.command], \
        "an example must run on a fresh clone: use files shipped in the repository"


@pytest.mark.parametrize("example", ALL, ids=lambda e: e.where)
def test_example_is_real_output(example, workdirs):
    done = _run(example, workdirs(example.file))
    fails = bool(example.shown) and example.shown[-1].startswith("irlab: error:")
    if fails:
        assert done.returncode != 0, f"{example.where}: {example.command} succeeded"
    else:
        assert done.returncode == 0, f"{example.where}: {example.command}\n{done.stderr}"
    if example.shown:
        assert matches(example, done.stdout, done.stderr), (
            f"{example.where}: {example.command}\n--- shown ---\n" + "\n".join(example.shown)
            + "\n--- produced ---\n" + done.stdout + done.stderr)


def test_examples_are_read_from_console_and_bash_blocks_only(tmp_path):
    """A page's examples come from its console and bash blocks only (not text), each named by its file and line."""
    page = tmp_path / "page.md"
    page.write_text("# P\n\n```console\n$ irlab metrics | head -1\nx\n```\n\n```text\n$ not run\n```\n"
                    "```bash\n$ irlab y\n```\n", encoding="utf-8")
    found = [(e.where, e.command, e.shown) for e in examples(page, "docs/site/page.md")]
    assert found == [("docs/site/page.md:4", "irlab metrics | head -1", ["x"]), ("docs/site/page.md:12", "irlab y", [])]


def test_the_checker_reads_elisions_and_abridged_examples():
    shown = Example("README.md", 1, "irlab x", ["a", "...", "c", "d"])
    assert matches(shown, "a\nb\nc\nd\n", "")
    assert not matches(shown, "a\nc\nb\nd\n", "")
    abridged = Example("README.md", 1, "irlab x   # abridged: the answers", ["b", "d"])
    assert matches(abridged, "a\nb\nc\nd\n", "") and not matches(abridged, "d\nb\n", "")
    exact = Example("README.md", 1, "irlab x | head -2", ["a", "b"])
    assert matches(exact, "a\nb\nc\n", "") and not matches(exact, "a\nc\n", "")
