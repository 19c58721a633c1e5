"""Solvers, exercise sets, the schema, printing, plots, the explorer and compare import one way (issue 21): no circle
through them, no irlab import hidden in a function unless the module it imports loads numpy (irlab.trec), no name
private to another irlab module imported, and every module importable on its own without numpy, sympy, scipy or
matplotlib."""

import ast
import pathlib
import subprocess
import sys

import pytest

PACKAGE = pathlib.Path(__file__).resolve().parent.parent / "irlab"
LAYER = ([f"solvers/{p.name}" for p in sorted((PACKAGE / "solvers").glob("*.py"))]
         + ["exercise_set.py", "exercise_inputs.py", "schema.py", "printable.py", "plots.py", "explorer.py", "compare.py",
            "playground.py", "lesson_check.py", "topic_ranking.py"])
HEAVY = ("numpy", "sympy", "scipy", "matplotlib", "pandas")
# irlab modules that load a heavy dependency when imported: the only ones a function may import
LOADS_NUMPY = ("irlab.trec",)


def _module(path: str) -> str:
    parts = pathlib.PurePosixPath(path).with_suffix("").parts
    return ".".join(("irlab",) + (parts[:-1] if parts[-1] == "__init__" else parts))


def _every_module() -> set:
    return {_module(p.relative_to(PACKAGE).as_posix()) for p in PACKAGE.rglob("*.py")}


def _imports(path: str):
    """(irlab module or module.name imported, line, at module level?) for every import of irlab in the file."""
    module = _module(path)
    package = module.split(".") if path.endswith("__init__.py") else module.split(".")[:-1]
    tree = ast.parse((PACKAGE / path).read_text())
    top = {id(node) for node in tree.body}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            base = ".".join(package[:len(package) - node.level + 1] + ([node.module] if node.module else [])) \
                if node.level else (node.module or "")
            targets = [f"{base}.{alias.name}" for alias in node.names]
        elif isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        else:
            continue
        for target in targets:
            if target.startswith("irlab"):
                yield target, node.lineno, id(node) in top


def _known(target: str, modules: set) -> str | None:
    while target and target not in modules:
        target = target.rpartition(".")[0]
    return target or None


def _deferred(paths):
    return [(path, line, target) for path in paths for target, line, at_top in _imports(path) if not at_top]


def test_a_function_imports_an_irlab_module_only_when_it_loads_numpy_and_says_why():
    modules = _every_module()
    wrong = []
    for path, line, target in _deferred(p for p in LAYER if p != "schema.py"):
        text = (PACKAGE / path).read_text().splitlines()[line - 1]
        if not _known(target, modules).startswith(LOADS_NUMPY) or "# deferred:" not in text:
            wrong.append(f"{path}:{line} imports {target}")
    assert wrong == []


def test_the_schema_imports_every_irlab_module_at_the_top_and_no_private_name():
    assert _deferred(["schema.py"]) == []
    assert not any(target.rpartition(".")[2].startswith("_") for target, _, _ in _imports("schema.py"))


def test_no_circle_runs_through_solvers_exercise_sets_schema_printing_or_compare():
    modules = _every_module()
    graph = {}
    for path in (p.relative_to(PACKAGE).as_posix() for p in PACKAGE.rglob("*.py")):
        graph[_module(path)] = {_known(t, modules) for t, _, _ in _imports(path)} - {None, _module(path)}
    graph["irlab"] = set()  # the package's front imports the metrics only (and homework inside its two wrappers)
    mine = {_module(path) for path in LAYER}

    def reaches(start, goal):
        seen, todo = set(), [start]
        while todo:
            for after in graph.get(todo.pop(), ()):
                if after == goal:
                    return True
                if after not in seen:
                    seen.add(after)
                    todo.append(after)
        return False

    circles = sorted(f"{a} -> {b} -> … -> {a}" for a in mine for b in graph[a] if reaches(b, a))
    assert circles == []
    solver_modules = {m for m in mine if m.startswith("irlab.solvers.")}
    assert not any("irlab.solvers" in graph[m] for m in solver_modules)  # Answer, Solution: irlab.solvers.solution
    assert not any(m.startswith("irlab.exercise_set") for m in graph["irlab.solvers.extended"])


def test_no_name_private_to_another_irlab_module_is_imported():
    private = [f"{path}:{line} imports {target}" for path in LAYER if path != "schema.py"
               for target, line, _ in _imports(path) if target.rpartition(".")[2].startswith("_")]
    assert private == []


@pytest.mark.parametrize("module", sorted({_module(path) for path in LAYER} | {"irlab.metrics.significance"}))
def test_each_module_imports_alone_without_a_heavy_dependency(module):
    code = f"import sys, {module}; print(sorted({{m.split('.')[0] for m in sys.modules}} & set({HEAVY!r})))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=PACKAGE.parent)
    assert done.returncode == 0, done.stderr
    expected = "['numpy']" if module == "irlab.topic_ranking" else "[]"  # it reads TREC files: irlab.trec
    assert done.stdout.strip() == expected


def test_solvers_and_exercise_sets_share_one_reading_of_an_exercise_rankings():
    from irlab import exercise_inputs, exercise_set
    from irlab.metrics import significance
    from irlab.solvers import Answer, Solution, extended, solution

    assert exercise_set.exercise_rankings is extended.exercise_rankings is exercise_inputs.exercise_rankings
    assert (Answer, Solution) == (solution.Answer, solution.Solution)
    assert not hasattr(significance, "_values") and not hasattr(significance, "_alpha")
    assert significance.alpha_value(None) == significance.DEFAULT_ALPHA
