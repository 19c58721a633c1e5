"""The homework package imports one way (issue 21): drawing a variant, then the catalogue of mistakes, the answer key,
the diagnosis and the sheets (no circle diagnosis <-> key <-> variants), no irlab import hidden in a function, every
module importable on its own without numpy, sympy, scipy or matplotlib, and `import irlab` does not load it."""

import ast
import pathlib
import subprocess
import sys

import pytest

PACKAGE = pathlib.Path(__file__).resolve().parent.parent / "irlab"
LAYER = [f"homework/{p.name}" for p in sorted((PACKAGE / "homework").glob("*.py"))]
MODULES = ["irlab.homework"] + [f"irlab.homework.{p.stem}" for p in sorted((PACKAGE / "homework").glob("*.py"))
                                if p.name != "__init__.py"]


def _module(path: str) -> str:
    parts = pathlib.PurePosixPath(path).with_suffix("").parts
    return ".".join(("irlab",) + (parts[:-1] if parts[-1] == "__init__" else parts))


def _imports(path: str):
    """(irlab module imported, line, at module level?) for every import of an irlab module in the file."""
    module = _module(path)
    package = module.split(".") if path.endswith("__init__.py") else module.split(".")[:-1]
    tree = ast.parse((PACKAGE / path).read_text(encoding="utf-8"))
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
    """The module ``target`` names: itself, or for 'package.name' the package it is a name of."""
    while target and target not in modules:
        target = target.rpartition(".")[0]
    return target or None


def test_no_irlab_import_inside_a_function_of_the_homework_package():
    deferred = [f"{path}:{line} imports {target}" for path in LAYER for target, line, at_top in _imports(path) if not at_top]
    assert deferred == []


def test_the_homework_package_imports_one_way():
    modules = {_module(path) for path in LAYER}
    graph = {_module(path): {_known(t, modules) for t, _, _ in _imports(path)} - {None, _module(path)} for path in LAYER}
    graph["irlab.homework"] = set()  # the package's front door imports every module; none imports it back

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

    circles = sorted(f"{a} -> {b} -> … -> {a}" for a in graph for b in graph[a] if reaches(b, a))
    assert circles == []
    below = {"irlab.homework.drawing": ["irlab.homework.mistakes", "irlab.homework.key", "irlab.homework.diagnosis",
                                        "irlab.homework.variants"],
             "irlab.homework.mistakes": ["irlab.homework.key", "irlab.homework.diagnosis"],
             "irlab.homework.key": ["irlab.homework.diagnosis", "irlab.homework.variants"],
             "irlab.homework.diagnosis": ["irlab.homework.variants"]}
    assert [(low, high) for low, highs in below.items() for high in highs if reaches(low, high)] == []


def test_the_names_the_command_line_and_notebooks_import_stay_where_they_were():
    from irlab.homework import diagnosis, key, variants

    for name in ("sheet_document", "answer_key_document", "variant_set", "variant_rng", "variant_exercise",
                 "draw_parameters", "MAX_ATTEMPTS"):
        assert hasattr(variants, name), name
    for name in ("set_too_close", "too_close_notes", "question_findings", "diagnose", "matches", "divergence_step",
                 "MISTAKES", "Mistake", "mistaken_results"):
        assert hasattr(diagnosis, name), name
    assert hasattr(key, "answer_key") and hasattr(key, "grading_defaults")


@pytest.mark.parametrize("module", MODULES)
def test_each_homework_module_imports_alone_without_a_heavy_dependency(module):
    code = (f"import sys, {module}; print(sorted(m for m in sys.modules if m.split('.')[0] in "
            "('numpy', 'sympy', 'scipy', 'matplotlib', 'pandas')))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=PACKAGE.parent)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def test_import_irlab_does_not_load_the_homework_package():
    code = "import sys, irlab; print(sorted(m for m in sys.modules if m.startswith('irlab.homework')))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=PACKAGE.parent)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"
