"""Re-execute the lessons from their MyST Markdown sources; optionally write the student versions.

    python3 notebooks/build.py                       # every lesson: NN_name.md -> executed NN_name.ipynb
    python3 notebooks/build.py 03 10                 # only the lessons whose names start with 03 or 10
    python3 notebooks/build.py --student DIR         # the same, then the student versions into DIR
    python3 notebooks/build.py --stored --student DIR  # student versions only, from the stored .ipynb (no execution)

A lesson's source is notebooks/NN_name.md (jupytext's MyST Markdown, paired with the .ipynb by jupytext.toml).
The written .ipynb is reproducible so that strict nbval can check it: cell ids NN-01, NN-02, … by position,
kernelspec ``python3``, no execution timings, each printed stream stored in one piece. The kernel's working directory
is notebooks/ (as with nbval and ``jupyter nbconvert --execute``), so paths in the lessons are relative to it.

Student versions: a code cell tagged ``solution`` (``:tags: [solution]`` and ``:prompt: …`` in its ``{code-cell}``
directive) must end with the expression that is the answer. In the student version it becomes a markdown prompt
and a cell ``your_answer = ...`` followed by ``check_value(your_answer, "sha256:…")`` (irlab/lesson_check.py), which
compares with a digest of the teacher's displayed value and prints feedback instead of raising. Student versions
carry no outputs. Names a solution cell defines must not be needed by later cells (tests/test_student_versions.py
runs the student versions top to bottom).
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import nbformat

HERE = Path(__file__).resolve().parent
LESSON = re.compile(r"^(\d\d)_\w+\.md$")
KERNELSPEC = {"name": "python3", "display_name": "Python 3 (ipykernel)", "language": "python"}
SOLUTION_TAG = "solution"


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


def execute(nb: nbformat.NotebookNode) -> None:
    """Run every cell in a fresh python3 kernel whose working directory is notebooks/."""
    from nbclient import NotebookClient
    from nbconvert.preprocessors import CoalesceStreamsPreprocessor

    client = NotebookClient(nb, timeout=300, kernel_name=KERNELSPEC["name"], record_timing=False,
                            resources={"metadata": {"path": str(HERE)}})
    client.execute()
    # a print() may reach the notebook in several chunks, depending on when the kernel flushes its output;
    # store each stream in one piece (nbval merges the chunks before comparing, so either way passes)
    CoalesceStreamsPreprocessor().preprocess(nb, {})


def sources_agree(nb: nbformat.NotebookNode, stored: nbformat.NotebookNode) -> bool:
    """Whether a lesson read from its .md has the same cells as the stored notebook."""
    def cells(notebook):
        return [(c.cell_type, c.source, c.get("metadata", {}).get("tags", [])) for c in notebook.cells]
    return cells(nb) == cells(stored)


def is_solution(cell) -> bool:
    return cell.cell_type == "code" and SOLUTION_TAG in cell.get("metadata", {}).get("tags", [])


def student_version(teacher: nbformat.NotebookNode, name: str) -> nbformat.NotebookNode:
    """The student version of an executed teacher notebook: solutions replaced by prompts and checks, no outputs."""
    from irlab.lesson_check import digest

    student = nbformat.v4.new_notebook(metadata=dict(teacher.metadata))
    for cell in teacher.cells:
        if not is_solution(cell):
            copy = nbformat.from_dict(dict(cell))
            copy.metadata = dict(cell.metadata)
            if copy.cell_type == "code":
                copy.outputs, copy.execution_count = [], None
            student.cells.append(copy)
            continue
        where = f"{name}.md, cell {cell.id} (tagged {SOLUTION_TAG})"
        prompt = cell.metadata.get("prompt")
        if not isinstance(prompt, str) or not prompt.strip():
            raise BuildError(f"{where}: no prompt; add ':prompt: what the student computes' to its code-cell directive")
        shown = [o["data"]["text/plain"] for o in cell.get("outputs", [])
                 if o.get("output_type") == "execute_result" and "text/plain" in o.get("data", {})]
        if len(shown) != 1:
            raise BuildError(f"{where}: the teacher's notebook shows no value for it; end the cell with the expression "
                             "that is the answer, and execute the lesson")
        text = shown[0] if isinstance(shown[0], str) else "".join(shown[0])
        student.cells.append(nbformat.v4.new_markdown_cell(f"**Your turn.** {prompt.strip()}", id=f"{cell.id}-prompt"))
        student.cells.append(nbformat.v4.new_code_cell(
            "from irlab.lesson_check import check_value\n\n"
            "your_answer = ...  # replace ... with your computation, then run this cell\n"
            f'check_value(your_answer, "{digest(text)}")',
            id=f"{cell.id}-check", metadata={"tags": ["check"]}))
    return student


def write(nb: nbformat.NotebookNode, path: Path) -> None:
    nbformat.validate(nb)
    nbformat.write(nb, path)


def build(wanted: list[str] | None = None, *, execute_lessons: bool = True, student_dir: Path | None = None,
          folder: Path = HERE) -> list[Path]:
    """Build the lessons (and their student versions into ``student_dir``); the paths written."""
    written = []
    for source in lesson_sources(wanted, folder):
        nb = read_lesson(source)
        target = source.with_suffix(".ipynb")
        if execute_lessons:
            execute(nb)
            write(nb, target)
            written.append(target)
        else:
            if not target.exists():
                raise BuildError(f"{target.name} does not exist; build it first (python3 notebooks/build.py {source.name[:2]})")
            stored = nbformat.read(target, as_version=4)
            if not sources_agree(nb, stored):
                raise BuildError(f"{source.name} and {target.name} differ; re-execute the lesson first "
                                 f"(python3 notebooks/build.py {source.name[:2]})")
            nb = stored
        if student_dir is not None:
            student_dir.mkdir(parents=True, exist_ok=True)
            path = student_dir / target.name
            write(student_version(nb, source.stem), path)
            written.append(path)
    return written


def main(argv: list[str]) -> int:
    wanted, student_dir, execute_lessons = [], None, True
    arguments = iter(argv)
    for argument in arguments:
        if argument == "--student":
            folder = next(arguments, None)
            if folder is None:
                print("build.py: error: --student needs a directory", file=sys.stderr)
                return 2
            student_dir = Path(folder)
        elif argument == "--stored":
            execute_lessons = False
        elif argument.startswith("-"):
            print(f"build.py: error: unknown option {argument} (see the docstring: python3 -m pydoc notebooks/build.py)",
                  file=sys.stderr)
            return 2
        else:
            wanted.append(argument)
    if not execute_lessons and student_dir is None:
        print("build.py: error: --stored only makes sense with --student DIR", file=sys.stderr)
        return 2
    try:
        for path in build(wanted, execute_lessons=execute_lessons, student_dir=student_dir):
            print(f"{path.relative_to(Path.cwd()) if path.is_relative_to(Path.cwd()) else path}: {path.stat().st_size // 1024} KiB")
    except BuildError as error:
        print(f"build.py: error: {error}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
