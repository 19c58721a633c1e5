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

"Check yourself" cells: a code cell tagged ``answer`` holds the teacher's answers in names starting ``my_`` and
checks them. In the student version every assignment to such a name becomes ``...`` (its comment kept, else
``# ← your answer``); ``assert my_x == <irlab's value>, "hint"`` becomes ``check_value(my_x, "sha256:…",
name="my_x", hint="hint")`` (the digest of irlab's value, from a run of the lesson); a call ``….assert_answer(…)``
becomes the same call to ``check``, which shows irlab's feedback instead of raising; ``print(…)`` goes (the checks
print their verdict); other statements stay, unless they read a ``my_`` name (refused). A cell that is not tagged
``answer`` but checks a ``my_`` name is refused too, so a new "check yourself" cannot hand its answer out.
They keep the lessons' relative paths: write them into a folder beside notebooks/ (``--student student`` from
the repository root), so that ``../exercises/`` resolves; the data/ folder is copied into it.
"""

from __future__ import annotations

import ast
import io
import json
import re
import shutil
import sys
import tokenize
from pathlib import Path
from typing import NamedTuple

import nbformat

HERE = Path(__file__).resolve().parent
LESSON = re.compile(r"^(\d\d)_\w+\.md$")
KERNELSPEC = {"name": "python3", "display_name": "Python 3 (ipykernel)", "language": "python"}
SOLUTION_TAG = "solution"
ANSWER_TAG = "answer"
ANSWER_PREFIX = "my_"  # in a cell tagged answer, the names holding the student's answers
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


def is_answer_cell(cell) -> bool:
    return cell.cell_type == "code" and ANSWER_TAG in cell.get("metadata", {}).get("tags", [])


class Check(NamedTuple):
    """One check of a cell tagged answer: ``assert name == expected`` (``expected`` is its source), or a call to
    ``assert_answer`` (``expected`` None: irlab's answer key has the value)."""
    name: str
    expected: str | None


class Answer(NamedTuple):
    """A teacher's checked answer from a run of the lesson: the cell, the name (``your_answer`` for a solution cell)
    and the :func:`irlab.lesson_check.canonical` forms of the teacher's value and of the value it is checked
    against (None when irlab's answer key checks it)."""
    cell_id: str
    name: str
    value: str
    expected: str | None


def _is_answer_name(name: str) -> bool:
    return name.startswith(ANSWER_PREFIX)


def _names(node) -> set[str]:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}


def _assigned_answers(statement) -> list[str] | None:
    """The names of ``my_a, my_b = …`` (every target an answer name), else None."""
    if not isinstance(statement, ast.Assign) or len(statement.targets) != 1:
        return None
    target = statement.targets[0]
    names = target.elts if isinstance(target, ast.Tuple) else [target]
    if names and all(isinstance(n, ast.Name) and _is_answer_name(n.id) for n in names):
        return [n.id for n in names]
    return None


def _asserted_answer(statement) -> tuple[str, ast.expr, str | None] | None:
    """``assert my_x == expected, "hint"`` as (my_x, expected, hint), else None."""
    if not isinstance(statement, ast.Assert):
        return None
    test = statement.test
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], ast.Eq)
            and isinstance(test.left, ast.Name) and _is_answer_name(test.left.id)):
        return None
    hint = statement.msg
    if hint is not None and not (isinstance(hint, ast.Constant) and isinstance(hint.value, str)):
        return None
    return test.left.id, test.comparators[0], hint.value if hint is not None else None


def _assert_answer_call(statement) -> ast.Call | None:
    """A statement that is a call to ``assert_answer`` (irlab's homework check), else None."""
    if isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Call):
        function = statement.value.func
        if (isinstance(function, ast.Attribute) and function.attr == "assert_answer") or \
                (isinstance(function, ast.Name) and function.id == "assert_answer"):
            return statement.value
    return None


def _is_print(statement) -> bool:
    return (isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Call)
            and isinstance(statement.value.func, ast.Name) and statement.value.func.id == "print")


def _parse(cell, where: str) -> ast.Module:
    try:
        return ast.parse(cell.source)
    except SyntaxError as error:
        raise BuildError(f"{where}: not Python that build.py can read ({error.msg}, line {error.lineno})") from None


def _comments(source: str) -> dict[int, str]:
    """The comment ending each line of ``source``, by line number."""
    comments = {}
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.COMMENT:
            comments[token.start[0]] = token.string
    return comments


def _call_answers(call: ast.Call) -> list[str]:
    """The answer names an ``assert_answer(…)`` call checks, in the order of its arguments."""
    return [n for argument in call.args + [k.value for k in call.keywords]
            for n in sorted(_names(argument)) if _is_answer_name(n)]


def answer_checks(cell, where: str) -> list[Check]:
    """The checks of a cell tagged answer, in order; a BuildError for a statement the student version cannot keep."""
    checks = []
    for statement in _parse(cell, where).body:
        if _assigned_answers(statement) is not None or _is_print(statement):
            continue
        asserted = _asserted_answer(statement)
        call = _assert_answer_call(statement)
        if asserted is not None:
            answer, expected, _ = asserted
            if any(_is_answer_name(n) for n in _names(expected)):
                raise BuildError(f"{where}, line {statement.lineno}: what {answer} is compared with reads an answer "
                                 f"name ({ANSWER_PREFIX}…); compare with irlab's value alone")
            checks.append(Check(answer, ast.get_source_segment(cell.source, expected)))
        elif call is not None:
            if not _call_answers(call):
                raise BuildError(f"{where}, line {statement.lineno}: assert_answer checks no answer name "
                                 f"({ANSWER_PREFIX}…)")
            checks.extend(Check(answer, None) for answer in _call_answers(call))
        elif any(_is_answer_name(n) for n in _names(statement)):
            read = sorted(n for n in _names(statement) if _is_answer_name(n))
            raise BuildError(f"{where}, line {statement.lineno}: reads {', '.join(read)}, which the student version "
                             f"leaves blank; check an answer only with 'assert {read[0]} == <irlab's value>, \"hint\"' "
                             "or assert_answer(…), and print nothing from it")
    if not checks:
        raise BuildError(f"{where}: checks no answer; add 'assert {ANSWER_PREFIX}… == <irlab's value>'")
    return checks


def refuse_untagged_checks(cell, where: str) -> None:
    """A code cell not tagged answer must not check an answer name: its answer would reach the student version."""
    if cell.cell_type != "code" or is_answer_cell(cell) or ANSWER_PREFIX not in cell.source:
        return
    try:
        tree = ast.parse(cell.source)
    except SyntaxError:  # IPython syntax (a magic): the lesson's run reports real errors
        return
    for statement in ast.walk(tree):
        if _asserted_answer(statement) is not None or _assert_answer_call(statement) is not None:
            raise BuildError(f"{where}, line {statement.lineno}: checks an answer ({ANSWER_PREFIX}…) in a cell not "
                             f"tagged {ANSWER_TAG}; add ':tags: [{ANSWER_TAG}]' to its code-cell directive so the "
                             "student version leaves the answer blank")


def answer_statements(source: str) -> list[tuple[int, int]]:
    """The (first, last) lines of the statements of ``source`` that assign answers (``my_a, my_b = …``).

    The teacher's cell and its student copy have them in the same order (tests put the teacher's lines back)."""
    return [(s.lineno, s.end_lineno) for s in ast.parse(source).body if _assigned_answers(s) is not None]


def student_answer_cell(cell, where: str, answers: list[Answer]) -> str:
    """The student's copy of a cell tagged answer (``answers``: the cell's, from :func:`teacher_answers`): answers
    blank, asserts turned into :func:`check_value` calls, ``assert_answer`` into ``check``, prints gone."""
    from irlab.lesson_check import canonical_digest

    source = cell.source
    lines = source.splitlines()
    comments = _comments(source)
    statements = _parse(cell, where).body
    expected = iter(a.expected for a in answers if a.expected is not None)  # the asserts', in order
    replaced: dict[int, tuple[int, list[str]]] = {}  # a statement's first line -> its last line, its new lines
    last_kept = max(index for index, statement in enumerate(statements) if not _is_print(statement))
    for index, statement in enumerate(statements):
        names = _assigned_answers(statement)
        asserted = _asserted_answer(statement)
        call = _assert_answer_call(statement)
        if names is not None:
            target = ast.get_source_segment(source, statement.targets[0])
            comment = comments.get(statement.end_lineno, "# ← your answer" + ("s" if len(names) > 1 else ""))
            new = [f"{target} = {', '.join(['...'] * len(names))}   {comment}"]
        elif asserted is not None:
            answer, _, hint = asserted
            new = [f'check_value({answer}, "{canonical_digest(next(expected))}", name="{answer}"'
                   + (f", hint={json.dumps(hint, ensure_ascii=False)})" if hint else ")")]
        elif call is not None:
            # irlab.check gives the same feedback as assert_answer without raising; it displays as the cell's last
            # value, and is printed anywhere else
            function, text = call.func, ast.get_source_segment(source, call)
            if isinstance(function, ast.Attribute):
                new = [ast.get_source_segment(source, function.value) + ".check"]
            else:
                new = ["from irlab import check", "check"]
            new[-1] += text[len(ast.get_source_segment(source, function)):]
            if index != last_kept:
                new[-1] = f"print({new[-1]})"
        elif _is_print(statement):
            new = []  # the checks print their verdicts
        else:
            continue
        replaced[statement.lineno] = (statement.end_lineno, new)
    out = []
    if any(_asserted_answer(statement) is not None for statement in statements):
        out = ["from irlab.lesson_check import check_value"]
        if not re.match(r"(from|import) ", source):  # beside the cell's own imports, else apart
            out.append("")
    number = 1
    while number <= len(lines):
        if number in replaced:
            last, new = replaced[number]
            out.extend(new)
            number = last + 1
        else:
            out.append(lines[number - 1])
            number += 1
    while out and not out[-1].strip():
        out.pop()
    return "\n".join(out)


def _probe(cell, where: str) -> str:
    """The probe run after a solution or answer cell: it prints the canonical forms of the teacher's answers."""
    head = "from irlab.lesson_check import answer_canonicals as _answer_canonicals\n"
    if is_solution(cell):
        # ``_`` is IPython's last displayed value: the cell's answer when its last expression displayed one
        return head + "_answer_canonicals(_ if Out.get(len(In) - 2) is _ else ...)"
    values = []
    for check in answer_checks(cell, where):
        values += [check.name] + ([f"({check.expected})"] if check.expected is not None else [])
    return head + f"_answer_canonicals({', '.join(values)})"


def teacher_answers(nb: nbformat.NotebookNode, name: str) -> list[Answer]:
    """The teacher's checked answers, from a run of the lesson: each solution cell's (its last expression) and each
    answer cell's checked names with the values they are checked against.

    The lesson runs once more with a probe after each such cell printing the answers'
    :func:`irlab.lesson_check.canonical` forms; the probes never reach a written notebook.
    """
    probed = nbformat.v4.new_notebook(metadata=dict(nb.metadata))
    probes = {}
    for cell in nb.cells:
        copy = nbformat.from_dict(dict(cell))
        if copy.cell_type == "code":
            copy.outputs, copy.execution_count = [], None
        probed.cells.append(copy)
        where = f"{name}.md, cell {cell.get('id')}"
        refuse_untagged_checks(cell, where)
        if is_solution(cell) and is_answer_cell(cell):
            raise BuildError(f"{where}: tagged both {SOLUTION_TAG} and {ANSWER_TAG}; a cell is one or the other")
        if is_solution(cell):
            prompt = cell.metadata.get("prompt")
            if not isinstance(prompt, str) or not prompt.strip():
                raise BuildError(f"{where} (tagged {SOLUTION_TAG}): no prompt; add ':prompt: what the student "
                                 "computes' to its code-cell directive")
        if is_solution(cell) or is_answer_cell(cell):
            probe = nbformat.v4.new_code_cell(_probe(cell, where), id=f"{cell.id}-probe")
            probes[cell.id] = (cell, probe)
            probed.cells.append(probe)
    if not probes:
        return []
    execute(probed, f"{name}.md (the run that takes the teacher's answers)")
    answers = []
    for cell_id, (cell, probe) in probes.items():
        text = "".join(o.get("text", "") for o in probe.outputs if o.get("output_type") == "stream").strip()
        try:
            forms = json.loads(text)
        except ValueError:
            raise BuildError(f"{name}.md, cell {cell_id}: the probe of its answers printed {text!r}") from None
        if is_solution(cell):
            answers.append(Answer(cell_id, "your_answer", forms[0], forms[0]))
            continue
        forms = iter(forms)
        for check in answer_checks(cell, f"{name}.md, cell {cell_id}"):
            value = next(forms)
            answers.append(Answer(cell_id, check.name, value, next(forms) if check.expected is not None else None))
    return answers


def student_version(nb: nbformat.NotebookNode, name: str, answers: list[Answer]) -> nbformat.NotebookNode:
    """The student version of a lesson: solutions replaced by prompts and checks, answers blank, no outputs."""
    from irlab.lesson_check import canonical, canonical_digest

    student = nbformat.v4.new_notebook(metadata=dict(nb.metadata))
    unanswered = canonical(...)
    for cell in nb.cells:
        of_cell = [a for a in answers if a.cell_id == cell.get("id")]
        if not is_solution(cell):
            copy = nbformat.from_dict(dict(cell))
            if copy.cell_type == "code":
                copy.outputs, copy.execution_count = [], None
            if is_answer_cell(cell):
                copy.source = student_answer_cell(cell, f"{name}.md, cell {cell.id}", of_cell)
            student.cells.append(copy)
            continue
        if of_cell[0].value == unanswered:
            raise BuildError(f"{name}.md, cell {cell.id} (tagged {SOLUTION_TAG}): it displays no value; end the cell "
                             "with the expression that is the answer")
        prompt = cell.metadata["prompt"].strip()
        student.cells.append(nbformat.v4.new_markdown_cell(f"**Your turn.** {prompt}", id=f"{cell.id}-prompt"))
        student.cells.append(nbformat.v4.new_code_cell(
            "from irlab.lesson_check import check_value\n\n"
            "your_answer = ...  # replace ... with your computation, then run this cell\n"
            f'check_value(your_answer, "{canonical_digest(of_cell[0].expected)}")',
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
            write(student_version(nb, source.stem, teacher_answers(nb, source.stem)), path)
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
