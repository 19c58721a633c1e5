"""Every lesson's student version, as handed out and as answered: it runs top to bottom, each check says "not
answered yet" until the cell is filled in, and the teacher's own computation, typed in as the answer, is "correct".

So a lesson's checked exercises cannot drift from its solutions (a solution edited without rebuilding, a digest of a
value that prints differently) without a failing test.
"""

import ast
import importlib.util
import os
from pathlib import Path

import nbformat
import pytest

from irlab.lesson_check import CORRECT, NOT_ANSWERED

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"
pytest.importorskip("jupytext", reason="the lessons' .md sources are read with jupytext (the [test] extra)")
pytest.importorskip("nbclient", reason="the student versions are executed with nbclient (the [test] extra)")

_spec = importlib.util.spec_from_file_location("irlab_notebooks_build_every", NOTEBOOKS / "build.py")
build = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(build)

LESSONS = sorted(p.stem for p in build.lesson_sources()
                 if any(build.is_solution(cell) for cell in build.read_lesson(p).cells))


def answered(solution: str) -> str:
    """The teacher's solution cell as a student would type it: its statements, then ``your_answer = <its value>``."""
    tree = ast.parse(solution)
    *statements, last = tree.body
    assert isinstance(last, ast.Expr), "a solution cell ends with the expression that is the answer"
    lines = [ast.get_source_segment(solution, statement) for statement in statements]
    return "\n".join(lines + [f"your_answer = ({ast.get_source_segment(solution, last.value)})"])


@pytest.mark.parametrize("lesson", LESSONS)
def test_student_version_runs_and_accepts_the_teachers_answers(lesson, tmp_path):
    from nbclient import NotebookClient

    # beside notebooks/, as build.py's docstring asks: ../exercises/ resolves from the student's folder
    student_dir = tmp_path / "student"
    os.symlink(ROOT / "exercises", tmp_path / "exercises")
    (path,) = build.build([lesson[:2]], teacher=False, student_dir=student_dir)
    student = nbformat.read(path, as_version=4)
    solutions = {c.id: c.source for c in build.read_lesson(NOTEBOOKS / f"{lesson}.md").cells if build.is_solution(c)}
    assert solutions, f"{lesson} has no solution cell"
    cells = []
    for cell in student.cells:
        cells.append(cell)
        if cell.id.endswith("-check"):
            solution_id = cell.id[: -len("-check")]
            source = cell.source.replace("your_answer = ...  # replace ... with your computation, then run this cell",
                                         answered(solutions[solution_id]))
            assert source != cell.source
            cells.append(nbformat.v4.new_code_cell(source, id=f"{solution_id}-answered"))
    student.cells = cells
    NotebookClient(student, timeout=300, kernel_name="python3",
                   resources={"metadata": {"path": str(student_dir)}}).execute()
    failures = [(c.id, o.get("ename"), o.get("evalue")) for c in student.cells if c.cell_type == "code"
                for o in c.outputs if o.output_type == "error"]
    assert failures == []
    shown = {c.id: "".join(o.get("text", "") for o in c.outputs if o.output_type == "stream").strip()
             for c in student.cells if c.cell_type == "code"}
    for solution_id in solutions:
        assert shown[f"{solution_id}-check"] == NOT_ANSWERED, solution_id
        assert shown[f"{solution_id}-answered"] == CORRECT, (solution_id, shown[f"{solution_id}-answered"])
