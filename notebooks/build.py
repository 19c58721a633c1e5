"""Re-execute the lessons from their MyST Markdown sources; optionally write the student versions.

    python3 notebooks/build.py                       # every lesson: NN_name.md -> executed NN_name.ipynb
    python3 notebooks/build.py 03 10                 # only the lessons whose names start with 03 or 10
    python3 notebooks/build.py --student DIR         # the same, then the student versions into DIR
    python3 notebooks/build.py --student-only --student DIR  # only the student versions

A lesson's source is notebooks/NN_name.md (jupytext's MyST Markdown, paired with the .ipynb by jupytext.toml).
The written .ipynb is reproducible so that strict nbval can check it: cell ids NN-01, NN-02, … by position,
kernelspec ``python3``, no execution timings, each printed stream stored in one piece, no widget state (a widget
keeps its text summary). The kernel's working directory is notebooks/ (as with nbval and
``jupyter nbconvert --execute``), so paths in the lessons are relative to it.

Student versions: a code cell tagged ``solution`` (``:tags: [solution]`` and ``:prompt: …`` in its ``{code-cell}``
directive) must end with the expression that is the answer. In the student version it becomes a markdown prompt
and a cell ``your_answer = ...`` followed by ``check_value(your_answer, "sha256:…")`` (irlab/lesson_check.py),
which compares with a digest of the teacher's value (taken from a run of the lesson) and prints feedback instead
of raising. Student versions carry no outputs and no solutions (only their digests). Names a solution cell
defines must not be needed by later cells (tests/test_student_versions.py runs a student version top to bottom).
They keep the lessons' relative paths: write them into a folder beside notebooks/ (``--student student`` from
the repository root), so that ``../exercises/`` resolves; the data/ folder is copied into it.
"""

from __future__ import annotations

import re
import shutil
import sys
from pathlib import Path

import nbformat

HERE = Path(__file__).resolve().parent
LESSON = re.compile(r"^(\d\d)_\w+\.md$")
KERNELSPEC = {"name": "python3", "display_name": "Python 3 (ipykernel)", "language": "python"}
SOLUTION_TAG = "solution"
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"


class BuildError(Exception):
    """A lesson that cannot be built, with a message naming the file and the cell."""


def lesson_sources(wanted: list[str] | None = None, folder: Path = HERE) -> list[Path]:
    """The lessons' .md sources in order (NN_name.md), those starting with one of ``wanted`` when given."""
    paths = sorted(p for p in folder.glob("*.md") if LESSON.match(p.name))
    if wanted:
        paths = [p for p in paths if any(p.stem.startswith(w) for w in wanted)]
        if not paths:
            raise BuildError(f"no lesson in {folder} starts with {' or '.join(wanted)}")
    return paths


def read_lesson(source: Path) -> nbformat.NotebookNode:
    """The lesson's cells from its .md, with the fixed ids and metadata the stored notebooks have."""
    import jupytext

    nb = jupytext.read(source, fmt="md:myst")
    nb.metadata.pop("jupytext", None)  # the text representation's header stays in the .md
    nb.metadata["kernelspec"] = dict(KERNELSPEC)
    nb.metadata.setdefault("language_info", {"name": "python"})
    number = source.name[:2]
    for index, cell in enumerate(nb.cells, 1):
        cell["id"] = f"{number}-{index:02d}"
        if cell.cell_type == "code":
            cell.outputs = []
            cell.execution_count = None
    nb.nbformat, nb.nbformat_minor = 4, 5
    return nb


def execute(nb: nbformat.NotebookNode, name: str) -> None:
    """Run every cell in a fresh python3 kernel whose working directory is notebooks/."""
    from nbclient import NotebookClient
    from nbclient.exceptions import CellExecutionError
    from nbconvert.preprocessors import CoalesceStreamsPreprocessor

    client = NotebookClient(nb, timeout=300, kernel_name=KERNELSPEC["name"], record_timing=False,
                            resources={"metadata": {"path": str(HERE)}})
    try:
        client.execute()
    except CellExecutionError as error:  # the kernel's traceback names the cell's code and the exception
        raise BuildError(f"{name}: a cell failed to execute:\n{error}") from None
    # a print() may reach the notebook in several chunks, depending on when the kernel flushes its output;
    # store each stream in one piece (nbval merges the chunks before comparing, so either way passes)
    CoalesceStreamsPreprocessor().preprocess(nb, {})
    # a widget (irlab's playground) lives only in a running kernel: its state and model ids change at every run, so
    # the stored notebook keeps its text/plain summary and no widget state
    nb.metadata.pop("widgets", None)
    for cell in nb.cells:
        for output in cell.get("outputs", []):
            output.get("data", {}).pop(WIDGET_VIEW, None)


def is_solution(cell) -> bool:
    return cell.cell_type == "code" and SOLUTION_TAG in cell.get("metadata", {}).get("tags", [])


def teacher_digests(nb: nbformat.NotebookNode, name: str) -> dict[str, str]:
    """The digest of each solution cell's answer (its last expression), by cell id, from a run of the lesson.

    The lesson runs once more with a probe after each solution cell printing :func:`irlab.lesson_check.digest` of
    ``_`` (IPython's last displayed value); the probes never reach a written notebook.
    """
    probed = nbformat.v4.new_notebook(metadata=dict(nb.metadata))
    probes = {}
    for cell in nb.cells:
        copy = nbformat.from_dict(dict(cell))
        if copy.cell_type == "code":
            copy.outputs, copy.execution_count = [], None
        probed.cells.append(copy)
        if is_solution(cell):
            where = f"{name}.md, cell {cell.id} (tagged {SOLUTION_TAG})"
            prompt = cell.metadata.get("prompt")
            if not isinstance(prompt, str) or not prompt.strip():
                raise BuildError(f"{where}: no prompt; add ':prompt: what the student computes' to its code-cell "
                                 "directive")
            probe = nbformat.v4.new_code_cell(
                "from irlab.lesson_check import answer_digest as _answer_digest\n"
                "_answer_digest(_ if Out.get(len(In) - 2) is _ else ...)", id=f"{cell.id}-probe")
            probes[cell.id] = probe
            probed.cells.append(probe)
    if not probes:
        return {}
    execute(probed, f"{name}.md (the run that takes the teacher's answers)")
    digests = {}
    for cell_id, probe in probes.items():
        text = "".join(o.get("text", "") for o in probe.outputs if o.get("output_type") == "stream").strip()
        if not text.startswith("sha256:"):
            raise BuildError(f"{name}.md, cell {cell_id}: the probe of its answer printed {text!r}")
        digests[cell_id] = text
    return digests


def student_version(nb: nbformat.NotebookNode, name: str, digests: dict[str, str]) -> nbformat.NotebookNode:
    """The student version of a lesson: solutions replaced by prompts and checks, no outputs."""
    from irlab.lesson_check import digest

    student = nbformat.v4.new_notebook(metadata=dict(nb.metadata))
    unanswered = digest(...)
    for cell in nb.cells:
        if not is_solution(cell):
            copy = nbformat.from_dict(dict(cell))
            if copy.cell_type == "code":
                copy.outputs, copy.execution_count = [], None
            student.cells.append(copy)
            continue
        if digests[cell.id] == unanswered:
            raise BuildError(f"{name}.md, cell {cell.id} (tagged {SOLUTION_TAG}): it displays no value; end the cell "
                             "with the expression that is the answer")
        prompt = cell.metadata["prompt"].strip()
        student.cells.append(nbformat.v4.new_markdown_cell(f"**Your turn.** {prompt}", id=f"{cell.id}-prompt"))
        student.cells.append(nbformat.v4.new_code_cell(
            "from irlab.lesson_check import check_value\n\n"
            "your_answer = ...  # replace ... with your computation, then run this cell\n"
            f'check_value(your_answer, "{digests[cell.id]}")',
            id=f"{cell.id}-check", metadata={"tags": ["check"]}))
    return student


def write(nb: nbformat.NotebookNode, path: Path) -> None:
    nbformat.validate(nb)
    nbformat.write(nb, path)


def build(wanted: list[str] | None = None, *, teacher: bool = True, student_dir: Path | None = None,
          folder: Path = HERE) -> list[Path]:
    """Execute and write the lessons (unless ``teacher`` is false) and their student versions into ``student_dir``."""
    written = []
    for source in lesson_sources(wanted, folder):
        if teacher:
            nb = read_lesson(source)
            execute(nb, source.name)
            target = source.with_suffix(".ipynb")
            write(nb, target)
            written.append(target)
        if student_dir is not None:
            nb = read_lesson(source)
            student_dir.mkdir(parents=True, exist_ok=True)
            # the lessons read data/…; ../exercises/… resolves when DIR is beside notebooks/
            if (folder / "data").is_dir():
                shutil.copytree(folder / "data", student_dir / "data", dirs_exist_ok=True)
            path = student_dir / source.with_suffix(".ipynb").name
            write(student_version(nb, source.stem, teacher_digests(nb, source.stem)), path)
            written.append(path)
    return written


def main(argv: list[str]) -> int:
    wanted, student_dir, teacher = [], None, True
    arguments = iter(argv)
    for argument in arguments:
        if argument == "--student":
            folder = next(arguments, None)
            if folder is None:
                print("build.py: error: --student needs a directory", file=sys.stderr)
                return 2
            student_dir = Path(folder)
        elif argument == "--student-only":
            teacher = False
        elif argument.startswith("-"):
            print(f"build.py: error: unknown option {argument} (the options: python3 -m pydoc notebooks/build.py)",
                  file=sys.stderr)
            return 2
        else:
            wanted.append(argument)
    if not teacher and student_dir is None:
        print("build.py: error: --student-only needs --student DIR", file=sys.stderr)
        return 2
    try:
        for path in build(wanted, teacher=teacher, student_dir=student_dir):
            shown = path.relative_to(Path.cwd()) if path.is_relative_to(Path.cwd()) else path
            print(f"{shown}: {path.stat().st_size // 1024} KiB")
    except BuildError as error:
        print(f"build.py: error: {error}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
