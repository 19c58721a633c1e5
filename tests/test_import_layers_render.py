"""The rendering layer imports one way (issue 21): the trace and the text escaper sit below the document and its
renderers, the one circle left is document <-> renderers (Document.render calls them, they read its blocks), no other
irlab import hides in a function, every module imports alone, and sympy is loaded by none of them."""

import ast
import pathlib
import subprocess
import sys

import pytest

from irlab.document import Document, Paragraph
from irlab.errors import ParameterError
from irlab.render import FORMATS, render

PACKAGE = pathlib.Path(__file__).resolve().parent.parent / "irlab"
LAYER = ["escape.py", "trace.py", "exact.py", "document.py", "display.py"] + [
    f"render/{p.name}" for p in sorted((PACKAGE / "render").glob("*.py"))]


def _module(path: str) -> str:
    parts = pathlib.PurePosixPath(path).with_suffix("").parts
    return ".".join(("irlab",) + (parts[:-1] if parts[-1] == "__init__" else parts))


def _imports(path: str):
    """(irlab module or name imported, line, at module level?) for every import of irlab in the file."""
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


def _graph():
    modules = {_module(path) for path in LAYER} | {"irlab.errors"}

    def known(target):
        while target and target not in modules:
            target = target.rpartition(".")[0]
        return target or None

    return {_module(path): {known(t) for t, _, _ in _imports(path)} - {None, _module(path)} for path in LAYER}


def _reachable(graph, start):
    seen, todo = set(), [start]
    while todo:
        for after in graph.get(todo.pop(), ()):
            if after not in seen:
                seen.add(after)
                todo.append(after)
    return seen


def test_the_trace_and_the_escaper_reach_neither_the_document_nor_a_renderer():
    graph = _graph()
    assert graph["irlab.escape"] == set()  # the lowest module of the layer: standard library only
    for low in ("irlab.escape", "irlab.trace", "irlab.exact"):
        reached = _reachable(graph, low)
        assert not {m for m in reached if m == "irlab.document" or m.startswith("irlab.render")}, low


def test_the_one_circle_is_document_and_renderers():
    graph = _graph()
    in_circle = {m for m in graph if m in _reachable(graph, m)}
    assert in_circle == {"irlab.document", "irlab.render", "irlab.render.text", "irlab.render.markdown",
                         "irlab.render.latex", "irlab.render.html", "irlab.render.json"}


def test_the_only_irlab_import_inside_a_function_is_document_render_with_its_reason():
    deferred = [(path, target, line) for path in LAYER for target, line, at_top in _imports(path) if not at_top]
    assert [(path, target) for path, target, _ in deferred] == [("document.py", "irlab.render.render")]
    line = (PACKAGE / "document.py").read_text().splitlines()[deferred[0][2] - 1]
    assert "# deferred: the renderers import this module" in line


@pytest.mark.parametrize("module", [_module(path) for path in LAYER])
def test_each_module_imports_alone_in_a_fresh_interpreter_without_sympy(module):
    code = (f"import sys, {module}; print(sorted(m for m in sys.modules if m.split('.')[0] in "
            "('numpy', 'sympy', 'scipy', 'matplotlib')))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=PACKAGE.parent)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def test_importing_the_trace_loads_no_renderer_and_import_irlab_none_either():
    for module in ("irlab.trace", "irlab"):
        code = f"import sys, {module}; print(sorted(m for m in sys.modules if m.startswith('irlab.render')))"
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=PACKAGE.parent)
        assert done.returncode == 0, done.stderr
        assert done.stdout.strip() == "[]", module


def test_the_escaping_rules_are_read_from_their_old_places_too():
    import irlab.escape
    import irlab.render.common
    import irlab.render.latex

    assert irlab.render.common.visible_controls is irlab.escape.visible_controls
    assert irlab.render.common.CONTROL_CHARACTER is irlab.escape.CONTROL_CHARACTER
    assert irlab.render.common.control_name is irlab.escape.control_name
    assert irlab.render.latex.latex_name is irlab.escape.latex_name


def test_render_takes_each_format_and_refuses_any_other_as_before():
    document = Document("T", [Paragraph("p")])
    for fmt in FORMATS:
        assert render(document, fmt) == document.render(fmt)
    for fmt in ("pdf", "TEXT", None, ["text"]):
        with pytest.raises(ParameterError, match=r"unknown format .*; choose one of text, markdown, latex, html, json"):
            render(document, fmt)
