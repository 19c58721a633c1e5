"""The house rules of docs/architecture.md, checked on the source: the command line is one layer, imports go one way
(the only circle is document <-> renderers), an irlab import inside a function is there for a heavy dependency and
says so, every module imports on its own, and ``import irlab`` stays light."""

import ast
import pathlib
import subprocess
import sys

import pytest

PACKAGE = pathlib.Path(__file__).resolve().parent.parent / "irlab"
FILES = sorted(PACKAGE.rglob("*.py"))
MAX_DEFERRED = 40  # issue 21: at most 40 irlab imports inside functions, each for a heavy dependency
ALLOWED_CIRCLE = {"irlab.document", "irlab.render", "irlab.render.common", "irlab.render.html", "irlab.render.json",
                  "irlab.render.latex", "irlab.render.markdown", "irlab.render.mathml", "irlab.render.text"}
HEAVY = ("numpy", "sympy", "matplotlib", "scipy")


def module_name(path: pathlib.Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(path): path for path in FILES}


def imports(path: pathlib.Path):
    """(irlab module imported, the import node, at module level?) for every import of an irlab module in the file."""
    name = module_name(path)
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    top = set()
    for node in tree.body:  # module level, also inside a module-level if/try
        top |= {id(inner) for inner in ast.walk(node)} if isinstance(node, (ast.If, ast.Try)) else {id(node)}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            base = (".".join(package[:len(package) - node.level + 1] + ([node.module] if node.module else []))
                    if node.level else node.module or "")
            targets = [f"{base}.{alias.name}" for alias in node.names]
        elif isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        else:
            continue
        for target in targets:
            while target and target not in MODULES:
                target = target.rpartition(".")[0]
            if target and target != name:
                yield target, node, id(node) in top


def test_only_the_command_line_knows_argv():
    offenders = []
    for path in FILES:
        if module_name(path).startswith("irlab.cli") or module_name(path) == "irlab.__main__":  # the entry point
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = ([alias.name for alias in node.names] if isinstance(node, ast.Import) else
                     [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            if any(n == "argparse" for n in names):
                offenders.append(f"{path.name}:{node.lineno} imports argparse")
        offenders += [f"{path.name}:{node.lineno} imports {target}" for target, node, _ in imports(path)
                      if target.startswith("irlab.cli")]
    assert offenders == []


def _circles(graph: dict) -> list[set]:
    """The strongly connected components of more than one module (Tarjan)."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = set()
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.add(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(component)

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_imports_go_one_way_but_document_and_its_renderers():
    graph = {name: {target for target, _, _ in imports(path)} for name, path in MODULES.items()}
    circles = _circles(graph)
    assert all(circle <= ALLOWED_CIRCLE for circle in circles), [sorted(c) for c in circles]


def test_an_import_inside_a_function_is_for_a_heavy_dependency_and_says_so():
    deferred = [(path, node) for path in FILES for _, node, at_top in imports(path) if not at_top]
    statements = {(path, node.lineno): node for path, node in deferred}
    assert len(statements) <= MAX_DEFERRED, f"{len(statements)} irlab imports inside functions"
    unexplained = []
    for (path, line), node in statements.items():
        lines = path.read_text(encoding="utf-8").split("\n")
        first = line - 1  # the reason may stand above a group of imports: look up through imports and comments
        while first > 0 and lines[first - 1].strip().startswith(("#", "from ", "import ")):
            first -= 1
        if "deferred" not in " ".join(lines[first:node.end_lineno]):
            unexplained.append(f"{module_name(path)}:{line}")
    assert unexplained == [], "an irlab import inside a function needs a '# deferred: <why>' comment"


@pytest.mark.parametrize("name", sorted(name for name in MODULES if name != "irlab.__main__"))
def test_every_module_imports_on_its_own(name):
    done = subprocess.run([sys.executable, "-c", f"import {name}"], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-2000:]


def test_import_irlab_stays_light():
    code = "import irlab, sys; print(sorted(m for m in sys.modules if m.split('.')[0] in %r))" % (HEAVY,)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"
