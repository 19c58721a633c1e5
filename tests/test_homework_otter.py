"""check()/assert_answer() inside otter-grader test cells, graded end to end without Docker (``otter run``).

otter-grader is not in the [test] extra: it brings ~360 MB (pandas, sphinx, playwright, jupytext, …) and each
``otter run`` starts a Jupyter kernel (~15 s), too heavy for CI. This test runs wherever otter-grader is
installed (``pip install otter-grader``) and is skipped otherwise; see docs/site/homework.md.
"""

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

otter = pytest.importorskip("otter")
nbformat = pytest.importorskip("nbformat")

BOOK = Path(__file__).resolve().parents[1] / "exercises" / "chapter8-book.toml"


def _otter_test(name: str, code: str) -> str:
    case = {"code": code, "hidden": False, "locked": False}
    test = {"name": name, "points": 1,
            "suites": [{"cases": [case], "scored": True, "setup": "", "teardown": "", "type": "doctest"}]}
    return f"OK_FORMAT = True\n\ntest = {test!r}\n"


def test_otter_grades_a_notebook_that_uses_assert_answer(tmp_path):
    command = shutil.which("otter", path=str(Path(sys.executable).parent)) or shutil.which("otter")
    if command is None:
        pytest.skip("the otter command is not on PATH")
    tests = tmp_path / "tests"
    tests.mkdir()
    # 8.9 e of the book: AP = 1099/2640; 0.555 divides by the 6 relevant documents retrieved instead of all 8
    tests.joinpath("q1.py").write_text(_otter_test("q1", ">>> import irlab\n"
                                                         ">>> bool(irlab.assert_answer(BOOK, '8.9', 'e', wrong))\nTrue"))
    tests.joinpath("q2.py").write_text(_otter_test("q2", ">>> import irlab\n"
                                                         ">>> bool(irlab.assert_answer(BOOK, '8.9', 'e', right))\nTrue"))
    notebook = nbformat.v4.new_notebook()
    notebook.cells = [nbformat.v4.new_code_cell(f"import otter\ngrader = otter.Notebook()\nBOOK = {str(BOOK)!r}"),
                      nbformat.v4.new_code_cell('wrong = "0.555"\nright = "1099/2640"'),
                      nbformat.v4.new_code_cell('grader.check("q1")'), nbformat.v4.new_code_cell('grader.check("q2")')]
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nbformat.write(notebook, tmp_path / "submission.ipynb")
    generate = subprocess.run([command, "generate", "-t", "tests", "--no-requirements", "--no-environment", "--no-config",
                               "-o", "autograder.zip"], cwd=tmp_path, capture_output=True, text=True)
    assert generate.returncode == 0, generate.stderr
    (tmp_path / "out").mkdir()
    run = subprocess.run([command, "run", "-a", "autograder.zip", "-o", "out", "--no-logo", "submission.ipynb"],
                         cwd=tmp_path, capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    results = json.loads((tmp_path / "out" / "results.json").read_text())
    scores = {t["name"]: t.get("score") for t in results["tests"] if t["name"] in ("q1", "q2")}
    assert scores == {"q1": 0.0, "q2": 1.0}
    output = json.dumps(results)
    assert "0.555 is what you get if you divide by the 6 relevant documents retrieved" in output
