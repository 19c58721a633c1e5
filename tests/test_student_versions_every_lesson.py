"""Every lesson's student version, as handed out and as answered: it holds none of the teacher's checked answers,
it runs top to bottom, each check says "not answered yet" until the cell is filled in, and the teacher's own
computation, typed in as the answer, is "correct".

The checked answers are the teacher's: each solution cell's value and each "check yourself" (answer) cell's ``my_…``
values, taken by build.py from a run of the lesson. So a lesson's checked exercises cannot drift from its solutions
(a solution edited without rebuilding, a digest of a value that prints differently), nor hand an answer out, without
a failing test.
"""

import ast
import functools
import importlib.util
import os
import re
import shutil
from fractions import Fraction
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
                 if any(build.is_solution(cell) or build.is_answer_cell(cell) for cell in build.read_lesson(p).cells))


@functools.cache
def teacher_and_student(lesson: str):
    """The lesson's cells, the teacher's checked answers (from a run of the lesson) and its student version."""
    teacher = build.read_lesson(NOTEBOOKS / f"{lesson}.md")
    answers = build.teacher_answers(teacher, lesson)
    return teacher, answers, build.student_version(teacher, lesson, answers)


def decimal_places(value: Fraction, places: int) -> str:
    """``value`` rounded to ``places`` decimals (half away from zero), e.g. 0.4676 for 657/1400 and 4."""
    scaled = abs(value) * 10 ** places
    whole = int(scaled + Fraction(1, 2))
    text = f"{whole // 10 ** places}.{whole % 10 ** places:0{places}d}"
    return ("-" if value < 0 else "") + text


def number_patterns(value: Fraction) -> list[str]:
    """Regular expressions for the ways a lesson could write ``value``: Fraction(a, b), a/b, \\frac{a}{b}, and its
    decimal to 3 and 4 places (as printed, and without trailing zeros when that still has 2 decimals or more)."""
    a, b = value.numerator, value.denominator
    forms = [rf"Fraction\(\s*{a}\s*,\s*{b}\s*\)", rf"(?<![\d.]){a}\s*/\s*{b}(?![\d.])",
             rf"\\[dt]?frac\{{{a}\}}\{{{b}\}}"]
    for places in (3, 4):
        shown = decimal_places(value, places)
        for text in {shown, shown.rstrip("0")}:
            if len(text.partition(".")[2]) >= 2:
                forms.append(rf"(?<![\d.]){re.escape(text)}(?!\d)")
    return forms


def answer_patterns(form: str) -> list[str]:
    """Regular expressions for the value of a checked answer, given as its canonical form (lesson_check.canonical).

    An integer (DCG = 2, 3 discordant pairs) is not searched for as text, since any 2 or 3 in a lesson would match:
    that its assignment is blank is checked by test_every_answer_is_blank."""
    kind, _, text = form.partition(" ")
    if kind == "number":
        value = Fraction(text)
        return [] if value.denominator == 1 else number_patterns(value)
    if kind == "numbers":  # a list as a whole (its items may be given in the lesson, e.g. raw p-values)
        values = [Fraction(item) for item in text.split(", ")]
        return [r"\[?\s*" + r"\s*,\s*".join(rf"Fraction\(\s*{v.numerator}\s*,\s*{v.denominator}\s*\)" for v in values),
                r"\s*,\s*".join(rf"(?<![\d.]){v.numerator}\s*/\s*{v.denominator}(?![\d.])" for v in values)]
    literal = ast.literal_eval(text) if text[:1] in "'\"" else text  # a string answer such as '657/1400'
    try:
        value = Fraction(literal.replace(" ", ""))
    except (ValueError, ZeroDivisionError):
        return [re.escape(literal)]
    return [] if value.denominator == 1 else number_patterns(value)


# An answer whose value the student version writes for another reason, each read and found not to give it away:
# (cell, text found) -> why. The answer's own cell is gone or blank either way.
NOT_THE_ANSWER = {
    ("13-10", "Fraction(1, 2)"): "RBP's persistence p = 1/2 in later cells; the answer is the ERG of P@3 on 2,0,1",
    ("13-10", "1/2"): "the same p = 1/2, in text and prompts",
}


@pytest.mark.parametrize("lesson", LESSONS)
def test_student_version_holds_no_checked_answer(lesson):
    teacher, answers, student = teacher_and_student(lesson)
    assert answers, f"{lesson} checks no answer"
    assert all(c.outputs == [] for c in student.cells if c.cell_type == "code")
    text = "\n".join(cell.source for cell in student.cells)
    found = [(a.cell_id, a.name, a.value, match.group())
             for a in answers for form in {a.value, a.expected} - {None} for pattern in answer_patterns(form)
             for match in [re.search(pattern, text)] if match and (a.cell_id, match.group()) not in NOT_THE_ANSWER]
    assert found == []


def test_the_search_finds_every_form_of_a_value():
    """The patterns above, tried on text that does and does not hold 657/1400 and 21/50."""
    patterns = answer_patterns("text '657/1400'")
    for holding in ('my_ap = "657/1400"', "Fraction(657, 1400)", r"$\frac{657}{1400}$", "AP ≈ 0.4693", "0.469",
                    "657 / 1400"):
        assert any(re.search(p, holding) for p in patterns), holding
    for not_holding in ("1657/1400", "0.46931", "10.469", "Fraction(657, 14000)"):
        assert not any(re.search(p, not_holding) for p in patterns), not_holding
    assert any(re.search(p, "AP = 0.42") for p in answer_patterns("number 21/50"))  # 0.420 without its zero
    assert not any(re.search(p, "P = 0.4") for p in answer_patterns("number 2/5"))  # too short to tell apart
    assert answer_patterns("number 2") == []
    holm = answer_patterns("numbers 197/512, 15/128, 15/128")
    assert any(re.search(p, "[Fraction(197, 512), Fraction(15, 128), Fraction(15, 128)]") for p in holm)
    assert not any(re.search(p, "p = [Fraction(197, 512), Fraction(5, 128), Fraction(13, 256)]") for p in holm)


@pytest.mark.parametrize("lesson", LESSONS)
def test_every_answer_is_blank(lesson):
    """In each answer cell of the student version, every ``my_…`` assignment is ``...`` and no assert is left."""
    teacher, _, student = teacher_and_student(lesson)
    cells = {c.id: c for c in student.cells}
    for cell in (c for c in teacher.cells if build.is_answer_cell(c)):
        source = cells[cell.id].source
        blanks = build.answer_statements(source)
        assert len(blanks) == len(build.answer_statements(cell.source)) > 0
        lines = source.splitlines()
        for first, last in blanks:
            (statement,) = ast.parse("\n".join(lines[first - 1:last])).body
            values = statement.value.elts if isinstance(statement.value, ast.Tuple) else [statement.value]
            assert all(isinstance(v, ast.Constant) and v.value is ... for v in values), lines[first - 1]
            assert "# ←" in lines[last - 1]  # the blank says it is the student's
        assert not any(isinstance(s, ast.Assert) and "my_" in ast.unparse(s) for s in ast.walk(ast.parse(source)))


def answered(solution: str) -> str:
    """The teacher's solution cell as a student would type it: its statements, then ``your_answer = <its value>``."""
    tree = ast.parse(solution)
    *statements, last = tree.body
    assert isinstance(last, ast.Expr), "a solution cell ends with the expression that is the answer"
    lines = [ast.get_source_segment(solution, statement) for statement in statements]
    return "\n".join(lines + [f"your_answer = ({ast.get_source_segment(solution, last.value)})"])


def with_teachers_answers(student_source: str, teacher_source: str) -> str:
    """A student's answer cell with its blank ``my_…`` lines replaced by the teacher's, in order."""
    lines, teacher_lines = student_source.splitlines(), teacher_source.splitlines()
    blanks, filled = build.answer_statements(student_source), build.answer_statements(teacher_source)
    assert len(blanks) == len(filled) > 0
    for (first, last), (t_first, t_last) in reversed(list(zip(blanks, filled))):
        lines[first - 1:last] = teacher_lines[t_first - 1:t_last]
    return "\n".join(lines)


def printed(cell) -> str:
    return "".join(o.get("text", "") for o in cell.outputs if o.output_type == "stream").strip()


def displayed(cell, mime: str = "text/plain") -> str:
    return "".join(o.get("data", {}).get(mime, "") for o in cell.outputs if o.output_type == "execute_result")


@pytest.mark.parametrize("lesson", LESSONS)
def test_student_version_runs_and_accepts_the_teachers_answers(lesson, tmp_path):
    from nbclient import NotebookClient

    teacher, answers, handed_out = teacher_and_student(lesson)
    # beside notebooks/, as build.py's docstring asks: ../exercises/ resolves from the student's folder
    student_dir = tmp_path / "student"
    os.symlink(ROOT / "exercises", tmp_path / "exercises")
    shutil.copytree(NOTEBOOKS / "data", student_dir / "data")
    student = nbformat.from_dict(handed_out)
    teacher_cells = {c.id: c for c in teacher.cells}
    solutions = {c.id for c in teacher.cells if build.is_solution(c)}
    answer_cells = {c.id for c in teacher.cells if build.is_answer_cell(c)}
    cells = []
    for cell in student.cells:
        cells.append(cell)
        if cell.id.endswith("-check"):
            solution_id = cell.id[: -len("-check")]
            source = cell.source.replace("your_answer = ...  # replace ... with your computation, then run this cell",
                                         answered(teacher_cells[solution_id].source))
            assert source != cell.source
            cells.append(nbformat.v4.new_code_cell(source, id=f"{solution_id}-answered"))
        elif cell.id in answer_cells:
            cells.append(nbformat.v4.new_code_cell(with_teachers_answers(cell.source, teacher_cells[cell.id].source),
                                                   id=f"{cell.id}-answered"))
    student.cells = cells
    NotebookClient(student, timeout=300, kernel_name="python3",
                   resources={"metadata": {"path": str(student_dir)}}).execute()
    failures = [(c.id, o.get("ename"), o.get("evalue")) for c in student.cells if c.cell_type == "code"
                for o in c.outputs if o.output_type == "error"]
    assert failures == []
    ran = {c.id: c for c in student.cells if c.cell_type == "code"}
    for solution_id in solutions:
        assert printed(ran[f"{solution_id}-check"]) == NOT_ANSWERED, solution_id
        assert printed(ran[f"{solution_id}-answered"]) == CORRECT, (solution_id, ran[f"{solution_id}-answered"].outputs)
    for cell_id in answer_cells:
        checked = [a.name for a in answers if a.cell_id == cell_id]
        if any(a.expected is None for a in answers if a.cell_id == cell_id):
            # irlab.check's feedback, displayed: "no answer given" until answered, then correct
            assert displayed(ran[cell_id]).endswith(": not correct>")
            assert "no answer given" in displayed(ran[cell_id], "text/markdown")
            assert displayed(ran[f"{cell_id}-answered"]).endswith(": correct>"), ran[f"{cell_id}-answered"].outputs
        else:
            assert printed(ran[cell_id]) == "\n".join(f"{name}: {NOT_ANSWERED}" for name in checked)
            assert printed(ran[f"{cell_id}-answered"]) == "\n".join(f"{name}: {CORRECT}" for name in checked)
