"""The metrics layer and the TREC package import one way (issue 21): no circles, no irlab import hidden in a function,
every module importable on its own, and `import irlab` as light as before (no numpy, sympy, scipy, matplotlib)."""

import ast
import pathlib
import subprocess
import sys

import pytest

from irlab.metric import DECLARED_FORMULAS, Result
from irlab.metrics import METRICS, REGISTRY, get_metric
from irlab.trace import Traced

PACKAGE = pathlib.Path(__file__).resolve().parent.parent / "irlab"
LAYER = (["metric.py", "ranking.py", "conventions.py", "exact.py", "errors.py", "display.py", "topic_ranking.py"]
         + [f"metrics/{p.name}" for p in sorted((PACKAGE / "metrics").glob("*.py"))]
         + [f"trec/{p.name}" for p in sorted((PACKAGE / "trec").glob("*.py")) if p.name != "cli.py"])


def _module(path: str) -> str:
    parts = pathlib.PurePosixPath(path).with_suffix("").parts
    return ".".join(("irlab",) + (parts[:-1] if parts[-1] == "__init__" else parts))


def _imports(path: str):
    """(irlab module imported, line, at module level?) for every import of an irlab module in the file."""
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
    """The module ``target`` names: itself, or for 'package.name' the package it is a name of."""
    while target and target not in modules:
        target = target.rpartition(".")[0]
    return target or None


def test_no_irlab_import_inside_a_function_of_the_metrics_layer_or_the_trec_package():
    deferred = [f"{path}:{line} imports {target}" for path in LAYER for target, line, at_top in _imports(path) if not at_top]
    assert deferred == []


def test_the_metrics_layer_and_the_trec_package_import_one_way():
    modules = {_module(path) for path in LAYER}
    graph = {_module(path): {_known(t, modules) for t, _, _ in _imports(path)} - {None, _module(path)} for path in LAYER}

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
    assert not any(t.startswith("irlab.metrics") for t in graph["irlab.metric"])  # the declarations import it


@pytest.mark.parametrize("module", ["irlab.metric", "irlab.metrics", "irlab.metrics.counts", "irlab.metrics.set_based",
                                    "irlab.metrics.rank_correlation", "irlab.metrics.significance", "irlab.trec.measures",
                                    "irlab.trec.evaluate", "irlab.trec.context", "irlab.topic_ranking"])
def test_each_module_imports_alone_in_a_fresh_interpreter(module):
    done = subprocess.run([sys.executable, "-c", f"import {module}"], capture_output=True, text=True,
                          cwd=PACKAGE.parent)
    assert done.returncode == 0, done.stderr


def test_import_irlab_loads_no_heavy_dependency_and_not_the_trec_package():
    code = ("import sys, irlab; print(sorted(m for m in sys.modules if m.split('.')[0] in "
            "('numpy', 'sympy', 'scipy', 'matplotlib', 'pandas') or m.startswith('irlab.trec')))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=PACKAGE.parent)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def test_every_declared_metric_lends_its_formula_to_the_results_that_give_none():
    assert DECLARED_FORMULAS == {metric.name: metric.formula for metric in METRICS}
    result = Result("ap", "Average precision", Traced(1, "AP"))
    assert get_metric("ap").formula in result.blocks()
    assert not any(block == REGISTRY["ap"].formula for block in Result("no-such", "x", Traced(1)).blocks())
