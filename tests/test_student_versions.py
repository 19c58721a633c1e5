"""The student versions of the lessons (notebooks/build.py --student): solutions out, polite checks in.

A lesson's code cell tagged ``solution`` becomes a prompt and a ``check_value(your_answer, "sha256:…")`` cell
(irlab/lesson_check.py). Unanswered, the check prints feedback and the notebook still runs top to bottom;
answered with the teacher's value (exactly, or as an equal Fraction or float), it says so.
"""

import importlib.util
from fractions import Fraction
from pathlib import Path

import nbformat
import pytest

from irlab.lesson_check import CORRECT, NOT_ANSWERED, check_value, digest

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"
pytest.importorskip("jupytext", reason="the lessons' .md sources are read with jupytext (the [test] extra)")

# notebooks/build.py, loaded under its own name (a plain "import build" could find the PyPI package "build")
_spec = importlib.util.spec_from_file_location("irlab_notebooks_build", NOTEBOOKS / "build.py")
build = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(build)


def run(nb):
    from nbclient import NotebookClient

    NotebookClient(nb, timeout=300, kernel_name="python3", resources={"metadata": {"path": str(NOTEBOOKS)}}).execute()
    return nb


def printed(cell):
    return "".join(o.get("text", "") for o in cell.outputs if o.output_type == "stream")


def errors(nb):
    return [(c.id, o.get("ename"), o.get("evalue")) for c in nb.cells if c.cell_type == "code"
            for o in c.outputs if o.output_type == "error"]


@pytest.fixture(scope="module")
def student_02(tmp_path_factory):
    folder = tmp_path_factory.mktemp("student")
    written = build.build(["02"], teacher=False, student_dir=folder)
    assert written == [folder / "02_ranked_evaluation.ipynb"]
    return nbformat.read(written[0], as_version=4)


def test_solutions_are_replaced_by_prompts_and_checks(student_02):
    teacher = build.read_lesson(NOTEBOOKS / "02_ranked_evaluation.md")
    solutions = [c for c in teacher.cells if build.is_solution(c)]
    assert [c.source for c in solutions] == ["r_precision(ranking)", "average_precision(ranking)"]
    sources = [c.source for c in student_02.cells]
    for solution in solutions:
        assert solution.source not in sources
        ids = [c.id for c in student_02.cells]
        at = ids.index(f"{solution.id}-prompt")
        assert ids[at + 1] == f"{solution.id}-check"
        assert student_02.cells[at].source.startswith("**Your turn.** ")
    # every other cell is kept, in order, without outputs
    assert len(student_02.cells) == len(teacher.cells) + len(solutions)
    assert all(c.outputs == [] for c in student_02.cells if c.cell_type == "code")
    # the teacher's values are not in the student's notebook, only their digests
    text = nbformat.writes(student_02)
    assert "21/50" not in text and "Fraction(21, 50)" not in text
    assert digest(Fraction(21, 50)) in text and digest(Fraction(3, 5)) in text


def test_student_version_runs_top_to_bottom_with_polite_checks(student_02):
    """One run of the student version: each check unanswered (as handed out), then answered by a copy of it."""
    nb = nbformat.from_dict(student_02)
    answers = {"02-11-check": "Fraction(3, 5)",  # R-precision of RNNRR with R = 5, by hand: 3 relevant in the top 5
               "02-16-check": "(1 + Fraction(2, 4) + Fraction(3, 5)) / 5"}  # AP = (1/1 + 2/4 + 3/5) / 5 = 21/50
    cells = []
    for cell in nb.cells:
        cells.append(cell)
        if cell.id in answers:
            answered = cell.source.replace("your_answer = ...", f"your_answer = {answers[cell.id]}")
            cells.append(nbformat.v4.new_code_cell(answered, id=f"{cell.id}-answered"))
    cells.append(nbformat.v4.new_code_cell('check_value(0.42, "' + digest(Fraction(21, 50)) + '")', id="float"))
    cells.append(nbformat.v4.new_code_cell('check_value(Fraction(2, 5), "' + digest(Fraction(21, 50)) + '")',
                                           id="wrong"))
    nb.cells = cells
    run(nb)
    assert errors(nb) == []
    shown = {c.id: printed(c).strip() for c in nb.cells if c.cell_type == "code"}
    assert shown["02-11-check"] == NOT_ANSWERED and shown["02-16-check"] == NOT_ANSWERED
    assert shown["02-11-check-answered"] == CORRECT and shown["02-16-check-answered"] == CORRECT
    assert shown["float"] == CORRECT  # 0.42 is exactly 21/50
    assert shown["wrong"].startswith("Not the expected answer yet: your value displays as Fraction(2, 5).")


def test_check_value_is_polite_outside_jupyter(capsys):
    expected = digest(Fraction(3, 7))
    assert check_value(..., expected) is False
    assert capsys.readouterr().out.strip() == NOT_ANSWERED
    assert check_value(0.4286, expected) is False
    assert "give the exact value" in capsys.readouterr().out

    class Broken:
        def __repr__(self):
            raise ValueError("no repr")

    assert check_value(Broken(), expected) is False
    assert capsys.readouterr().out.startswith("Could not read your answer (ValueError: no repr)")


def test_numpy_scalars_are_numbers(capsys):
    """A value read from a pandas frame is a numpy scalar (numpy 2 reprs np.float64(0.375)): compared as its number."""
    np = pytest.importorskip("numpy")
    assert digest(np.float64(0.375)) == digest(Fraction(3, 8)) == digest(0.375)
    assert digest(np.int64(7)) == digest(np.float64(7.0)) == digest(7)
    assert digest(np.bool_(True)) != digest(1)   # a truth value is not a number, as True is not
    assert check_value(np.float64(0.4286), digest(Fraction(3, 7))) is False
    assert capsys.readouterr().out.startswith("Not the expected answer yet: your value displays as")


def test_a_solution_without_prompt_or_value_is_refused(tmp_path):
    lesson = tmp_path / "01_tiny.md"
    header = "---\nkernelspec:\n  display_name: Python 3 (ipykernel)\n  language: python\n  name: python3\n---\n\n"
    lesson.write_text(header + "```{code-cell} ipython3\n:tags: [solution]\n\nx = 1\n```\n")
    with pytest.raises(build.BuildError, match=r"01_tiny\.md, cell 01-01 \(tagged solution\): no prompt"):
        build.build(teacher=False, student_dir=tmp_path / "out", folder=tmp_path)
    lesson.write_text(header + "```{code-cell} ipython3\n:tags: [solution]\n:prompt: Set x.\n\nx = 1\n```\n")
    with pytest.raises(build.BuildError, match=r"cell 01-01 \(tagged solution\): it displays no value"):
        build.build(teacher=False, student_dir=tmp_path / "out", folder=tmp_path)


def answer_cell(source: str, tags=("answer",)):
    return nbformat.v4.new_code_cell(source, id="01-01", metadata={"tags": list(tags)})


def test_an_answer_cell_loses_its_answers_and_keeps_its_checks():
    teacher = ('exercise = Ranking.parse("NRRNR", relevant=4)\n'
               "my_P, my_R = Fraction(3, 5), Fraction(3, 4)   # ← your answers\n"
               "my_F1 = 2 * my_P * my_R / (my_P + my_R)\n"
               'assert my_P == precision(exercise).value, "precision: relevant retrieved / retrieved"\n'
               "assert my_F1 == f_measure(exercise).value\n"
               'print("Both correct:", my_P, my_F1)\n')
    cell = answer_cell(teacher)
    assert build.answer_checks(cell, "here") == [build.Check("my_P", "precision(exercise).value"),
                                                 build.Check("my_F1", "f_measure(exercise).value")]
    answers = [build.Answer("01-01", "my_P", "number 3/5", "number 3/5"),
               build.Answer("01-01", "my_F1", "number 2/3", "number 2/3")]
    assert build.student_answer_cell(cell, "here", answers) == (
        "from irlab.lesson_check import check_value\n\n"
        'exercise = Ranking.parse("NRRNR", relevant=4)\n'
        "my_P, my_R = ..., ...   # ← your answers\n"
        "my_F1 = ...   # ← your answer\n"
        f'check_value(my_P, "{digest(Fraction(3, 5))}", name="my_P", '
        'hint="precision: relevant retrieved / retrieved")\n'
        f'check_value(my_F1, "{digest(Fraction(2, 3))}", name="my_F1")')
    assert build.answer_statements(teacher) == [(2, 2), (3, 3)]


def test_assert_answer_becomes_irlabs_check():
    cell = answer_cell('my_ap = "657/1400"   # ← your answer\n'
                       'irlab.assert_answer(SET, "1", "d", my_ap, student="s103", seed=SEED)\n')
    assert build.answer_checks(cell, "here") == [build.Check("my_ap", None)]
    answers = [build.Answer("01-01", "my_ap", "text '657/1400'", None)]
    assert build.student_answer_cell(cell, "here", answers) == (
        "my_ap = ...   # ← your answer\n"
        'irlab.check(SET, "1", "d", my_ap, student="s103", seed=SEED)')
    # imported by name, and followed by more: check is imported, and printed where it would not display
    cell = answer_cell('from irlab import assert_answer\nmy_a = "1/2"\nassert_answer(SET, "1", "a", my_a)\n'
                       'print("ok")\nassert_answer(SET, "1", "b", my_a)\nx = 1')
    answers = [build.Answer("01-01", "my_a", "text '1/2'", None)] * 2
    assert build.student_answer_cell(cell, "here", answers) == (
        "from irlab import assert_answer\nmy_a = ...   # ← your answer\n"
        'from irlab import check\nprint(check(SET, "1", "a", my_a))\n'
        'from irlab import check\nprint(check(SET, "1", "b", my_a))\nx = 1')


@pytest.mark.parametrize("source, message", [
    ("my_x = 1\nmy_x\nassert my_x == 1", r"here, line 2: reads my_x, which the student version leaves blank"),
    ("my_x = 1\ny = my_x + 1\nassert y == 2", r"here, line 2: reads my_x"),
    ("my_x, my_y = 1, 1\nassert my_x == my_y", r"here, line 2: what my_x is compared with reads an answer name"),
    ("my_x = 1  # ← your answer", r"here: checks no answer"),
])
def test_an_answer_cell_the_student_version_cannot_keep_is_refused(source, message):
    with pytest.raises(build.BuildError, match=message):
        build.answer_checks(answer_cell(source), "here")


def test_an_untagged_cell_checking_an_answer_is_refused(tmp_path):
    lesson = tmp_path / "01_tiny.md"
    header = "---\nkernelspec:\n  display_name: Python 3 (ipykernel)\n  language: python\n  name: python3\n---\n\n"
    lesson.write_text(header + "```{code-cell} ipython3\nmy_x = 3  # ← your answer\nassert my_x == 1 + 2\n```\n")
    with pytest.raises(build.BuildError, match=r"01_tiny\.md, cell 01-01, line 2: checks an answer \(my_…\) in a "
                                               r"cell not tagged answer"):
        build.build(teacher=False, student_dir=tmp_path / "out", folder=tmp_path)
