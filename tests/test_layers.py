"""The house rules of docs/architecture.md, checked on the source: the command line is one layer, imports go one way
(the only circle is document <-> renderers), an irlab import inside a function is there for a heavy dependency and
says so, every module imports on its own and loads numpy only if it reads TREC files, and ``import irlab`` stays
light. Then what each part of the package keeps besides (issue 21): the order of its layers, which of its modules
import every irlab module at the top, and that the names moved between modules are still found where they were.

The machinery (``imports``, ``module_name``, ``_circles``, ``MODULES``, ...) lives here only: import it from
``test_layers`` rather than copy it."""

import ast
import functools
import os
import pathlib
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

import pytest

PACKAGE = pathlib.Path(__file__).resolve().parent.parent / "irlab"
FILES = sorted(PACKAGE.rglob("*.py"))
MAX_DEFERRED = 40  # issue 21: at most 40 irlab imports inside functions, each for a heavy dependency
ALLOWED_CIRCLE = {"irlab.document", "irlab.render", "irlab.render.common", "irlab.render.html", "irlab.render.json",
                  "irlab.render.latex", "irlab.render.markdown", "irlab.render.mathml", "irlab.render.text"}
HEAVY = ("numpy", "sympy", "matplotlib", "scipy", "pandas")
TREC = "irlab.trec"  # the TREC readers load numpy: the only irlab modules that do, with irlab.topic_ranking


def module_name(path: pathlib.Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(path): path for path in FILES}


def under(*names: str) -> list[str]:
    """The modules named, with every module of those that are packages."""
    return sorted(m for m in MODULES if any(m == name or m.startswith(name + ".") for name in names))


@functools.cache
def _tree(path: pathlib.Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"))


def imported_names(path: pathlib.Path):
    """(name as written but absolute, the import node) for every import in the file: 'irlab.render.render' for
    'from .render import render' in irlab/document.py, 'numpy' for 'import numpy as np'."""
    name = module_name(path)
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    for node in ast.walk(_tree(path)):
        if isinstance(node, ast.ImportFrom):
            base = (".".join(package[:len(package) - node.level + 1] + ([node.module] if node.module else []))
                    if node.level else node.module or "")
            for alias in node.names:
                yield f"{base}.{alias.name}", node
        elif isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, node


def resolve(name: str) -> str:
    """The irlab module a dotted name is or is a name of ('' for none): irlab.render for irlab.render.render."""
    while name and name not in MODULES:
        name = name.rpartition(".")[0]
    return name


def imports(path: pathlib.Path):
    """(irlab module imported, the import node, at module level?) for every import of an irlab module in the file."""
    name = module_name(path)
    top = set()
    for node in _tree(path).body:  # module level, also inside a module-level if/try
        top |= {id(inner) for inner in ast.walk(node)} if isinstance(node, (ast.If, ast.Try)) else {id(node)}
    for imported, node in imported_names(path):
        target = resolve(imported)
        if target and target != name:
            yield target, node, id(node) in top


def deferred(name: str) -> list[tuple[str, ast.stmt]]:
    """(irlab name as written but absolute, node) for each irlab import of the module that is not a statement of
    its body: inside a function or class, and (stricter than ``imports``' at module level) under an if or try."""
    path = MODULES[name]
    body = {id(node) for node in _tree(path).body}
    return [(imported, node) for imported, node in imported_names(path)
            if imported.startswith("irlab") and id(node) not in body]


@functools.cache
def graph() -> dict[str, set]:
    """Every irlab module -> the irlab modules it imports, at the top or inside a function."""
    return {name: {target for target, _, _ in imports(path)} for name, path in MODULES.items()}


def reachable(graph: dict, start: str) -> set:
    seen, todo = set(), [start]
    while todo:
        for after in graph.get(todo.pop(), ()):
            if after not in seen:
                seen.add(after)
                todo.append(after)
    return seen


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


ALONE = sorted(name for name in MODULES if name != "irlab.__main__")


@functools.cache
def loaded_alone() -> dict[str, subprocess.CompletedProcess]:
    """Each module imported alone in a fresh interpreter, one per CPU at a time; its stdout lists sys.modules."""
    def run(name):
        code = f"import sys, {name}; print(sorted(sys.modules))"
        return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=PACKAGE.parent)

    with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        return dict(zip(ALONE, pool.map(run, ALONE)))


def modules_loaded_by(name: str) -> list[str]:
    done = loaded_alone()[name]
    assert done.returncode == 0, done.stderr[-2000:]
    return ast.literal_eval(done.stdout.strip().splitlines()[-1])


# --- the whole package ---------------------------------------------------------------------------------------------

def test_only_the_command_line_knows_argv():
    offenders = []
    for path in FILES:
        if module_name(path).startswith("irlab.cli") or module_name(path) == "irlab.__main__":  # the entry point
            continue
        for node in ast.walk(_tree(path)):
            names = ([alias.name for alias in node.names] if isinstance(node, ast.Import) else
                     [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            if any(n == "argparse" for n in names):
                offenders.append(f"{path.name}:{node.lineno} imports argparse")
        offenders += [f"{path.name}:{node.lineno} imports {target}" for target, node, _ in imports(path)
                      if target.startswith("irlab.cli")]
    assert offenders == []


def test_imports_go_one_way_but_document_and_its_renderers():
    circles = _circles(graph())
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


@pytest.mark.parametrize("name", ALONE)
def test_every_module_imports_on_its_own_and_only_the_trec_readers_load_numpy(name):
    heavy = sorted({m.split(".")[0] for m in modules_loaded_by(name)} & set(HEAVY))
    # the frames bridge (irlab.frames, and what PyTerrier's users call through it) turns DataFrames into the TREC
    # readers' numpy arrays, so it loads numpy as they do; ``import irlab`` reaches it only when called
    reads_trec = (name in ("irlab.topic_ranking", "irlab.frames", "irlab.custom_measures") or name == TREC
                  or name.startswith(TREC + "."))
    assert heavy == (["numpy"] if reads_trec else [])


def test_import_irlab_stays_light():  # no heavy dependency, no renderer, no homework, no TREC reader, no metric
    assert [m for m in modules_loaded_by("irlab")
            if m.split(".")[0] in HEAVY or m.startswith(("irlab.render", "irlab.homework", TREC, "irlab.metric"))] == []


def test_the_metrics_of_import_irlab_are_bound_on_first_use_as_before():
    code = ("import sys, irlab; loaded = 'irlab.metrics' in sys.modules; names = [getattr(irlab, n) for n in irlab.__all__]; "
            "print(loaded, set(irlab.__all__) <= set(dir(irlab)), irlab.precision('RNR').value, irlab.metrics.ndcg.__name__, "
            "irlab.ndcg is irlab.ndcg, irlab.Ranking is sys.modules['irlab.ranking'].Ranking, hasattr(irlab, 'no_such_name'))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=PACKAGE.parent)
    assert done.stdout.split() == ["False", "True", "2/3", "ndcg", "True", "True", "False"], done.stderr[-2000:]


def test_irlab_eval_loads_neither_the_metrics_nor_the_document_model(tmp_path):
    # issue 34: its start-up is part of a batch evaluation's time; explanations and Jupyter load them on use
    (tmp_path / "q").write_text("1 0 d1 1\n")
    (tmp_path / "r").write_text("1 Q0 d1 1 0.5 run\n")
    code = (f"import sys, io, contextlib; from irlab.cli import main\nwith contextlib.redirect_stdout(io.StringIO()):\n"
            f"    assert main(['eval', {str(tmp_path / 'q')!r}, {str(tmp_path / 'r')!r}]) == 0\nprint(sorted(sys.modules))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=PACKAGE.parent)
    assert done.returncode == 0, done.stderr[-2000:]
    loaded = ast.literal_eval(done.stdout.strip().splitlines()[-1])
    assert [m for m in loaded if m.startswith(("irlab.metric", "irlab.document", "irlab.display", "irlab.render",
                                                "irlab.ranking", "irlab.exact"))] == []


def test_importing_the_trace_loads_no_renderer():
    assert [m for m in modules_loaded_by("irlab.trace") if m.startswith("irlab.render")] == []


# --- the metrics layer and the TREC package --------------------------------------------------------------------------

METRICS_LAYER = under("irlab.metric", "irlab.ranking", "irlab.conventions", "irlab.exact", "irlab.errors",
                      "irlab.display", "irlab.topic_ranking", "irlab.metrics", TREC)
HOMEWORK = under("irlab.homework")


@pytest.mark.parametrize("part", [METRICS_LAYER, HOMEWORK, ["irlab.schema"]], ids=["metrics+trec", "homework", "schema"])
def test_these_import_every_irlab_module_at_the_top(part):
    assert [f"{name}:{node.lineno} imports {imported}" for name in part for imported, node in deferred(name)
            if (name, imported) not in PRESENTATION_ONLY] == []


# but the TREC package turns a result into the exact model's objects in these two places only, for an explanation
# and for Jupyter: so `irlab eval` loads neither irlab.metrics nor the document model (issue 34, its start-up)
PRESENTATION_ONLY = {("irlab.trec.diversity", "irlab.metrics.diversity.IntentRanking"),
                     ("irlab.trec.context", "irlab.display.eval_result_document")}


def test_the_metric_declarations_do_not_reach_the_metrics():
    assert not any(m.startswith("irlab.metrics") for m in reachable(graph(), "irlab.metric"))  # the metrics import them


def test_every_declared_metric_lends_its_formula_to_the_results_that_give_none():
    from irlab.metric import DECLARED_FORMULAS, Result
    from irlab.metrics import METRICS, REGISTRY, get_metric
    from irlab.trace import Traced

    assert DECLARED_FORMULAS == {metric.name: metric.formula for metric in METRICS}
    result = Result("ap", "Average precision", Traced(1, "AP"))
    assert get_metric("ap").formula in result.blocks()
    assert not any(block == REGISTRY["ap"].formula for block in Result("no-such", "x", Traced(1)).blocks())


# --- rendering: the trace and the escaper below the document and its renderers ------------------------------------

RENDER_LAYER = under("irlab.escape", "irlab.trace", "irlab.exact", "irlab.document", "irlab.display", "irlab.render")
DOCUMENT_AND_RENDERERS = {"irlab.document", "irlab.render", "irlab.render.text", "irlab.render.markdown",
                          "irlab.render.latex", "irlab.render.html", "irlab.render.json"}


def test_the_trace_and_the_escaper_reach_neither_the_document_nor_a_renderer():
    assert graph()["irlab.escape"] == set()  # the lowest module: standard library only
    for low in ("irlab.escape", "irlab.trace", "irlab.exact"):
        reached = reachable(graph(), low)
        assert not {m for m in reached if m == "irlab.document" or m.startswith("irlab.render")}, low


def test_the_one_circle_is_document_and_the_renderers_it_calls():
    assert _circles(graph()) == [DOCUMENT_AND_RENDERERS]  # render.common and render.mathml are on none
    layer = {name: graph()[name] & set(RENDER_LAYER) for name in RENDER_LAYER}
    assert _circles(layer) == [DOCUMENT_AND_RENDERERS]  # and it closes inside the layer


def test_the_only_irlab_import_inside_a_function_of_the_rendering_layer_is_document_render_with_its_reason():
    found = [(name, imported, node) for name in RENDER_LAYER for imported, node in deferred(name)]
    assert [(name, imported) for name, imported, _ in found] == [("irlab.document", "irlab.render.render")]
    line = MODULES["irlab.document"].read_text(encoding="utf-8").splitlines()[found[0][2].lineno - 1]
    assert "# deferred: the renderers import this module" in line


def test_the_escaping_rules_are_read_from_irlab_escape_only():
    # one home for the rules (irlab.escape): the renderers and the homework modules import them from there
    for module in ("irlab.render.common", "irlab.render.latex", "irlab.homework.feedback"):
        text = MODULES[module].read_text(encoding="utf-8")
        assert "render.common import visible_controls" not in text and "noqa: F401" not in text, module


def test_render_takes_each_format_and_refuses_any_other_as_before():
    from irlab.document import Document, Paragraph
    from irlab.errors import ParameterError
    from irlab.render import FORMATS, render

    document = Document("T", [Paragraph("p")])
    for fmt in FORMATS:
        assert render(document, fmt) == document.render(fmt)
    for fmt in ("pdf", "TEXT", None, ["text"]):
        with pytest.raises(ParameterError, match=r"unknown format .*; choose one of text, markdown, latex, html, json"):
            render(document, fmt)


# --- homework: drawing -> the catalogue of mistakes -> the answer key -> the diagnosis -> the sheets -----------------

def test_the_homework_layers_go_one_way():
    # a draw is judged by its key and its named mistakes before it is issued (degenerate), so the drawing sits above
    # the keys it builds and the diagnosis of one key, and below a student's key and the instructor's findings
    below = {"irlab.homework.mistakes": ["irlab.homework.key_build", "irlab.homework.diagnosis",
                                         "irlab.homework.drawing", "irlab.homework.key"],
             "irlab.homework.key_build": ["irlab.homework.diagnosis", "irlab.homework.degenerate",
                                          "irlab.homework.drawing", "irlab.homework.key"],
             "irlab.homework.diagnosis": ["irlab.homework.degenerate", "irlab.homework.drawing", "irlab.homework.key",
                                          "irlab.homework.findings", "irlab.homework.variants"],
             "irlab.homework.drawing": ["irlab.homework.key", "irlab.homework.findings", "irlab.homework.variants"],
             "irlab.homework.key": ["irlab.homework.findings", "irlab.homework.variants"],
             "irlab.homework.findings": ["irlab.homework.variants"]}
    assert [(low, high) for low, highs in below.items() for high in highs if high in reachable(graph(), low)] == []


def test_the_names_the_command_line_and_notebooks_import_stay_where_they_were():
    from irlab.homework import diagnosis, findings, key, variants

    for name in ("sheet_document", "answer_key_document", "variant_set", "variant_rng", "variant_exercise",
                 "draw_parameters", "MAX_ATTEMPTS"):
        assert hasattr(variants, name), name
    for name in ("diagnose", "matches", "divergence_step", "MISTAKES", "Mistake", "mistaken_results"):
        assert hasattr(diagnosis, name), name
    for name in ("set_too_close", "too_close_notes", "question_findings"):  # above the drawing since variants are judged
        assert hasattr(findings, name), name
    assert hasattr(key, "answer_key") and hasattr(key, "grading_defaults")


# --- solvers, exercise sets, the schema, printing, plots, the explorer, compare --------------------------------------

SOLVERS_LAYER = under("irlab.solvers", "irlab.exercise_set", "irlab.exercise_inputs", "irlab.schema", "irlab.printable",
                      "irlab.plots", "irlab.explorer", "irlab.compare", "irlab.playground", "irlab.lesson_check",
                      "irlab.topic_ranking")


def test_a_function_there_imports_an_irlab_module_only_when_it_loads_numpy_and_says_why():
    wrong = [f"{name}:{node.lineno} imports {imported}" for name in SOLVERS_LAYER for imported, node in deferred(name)
             if not resolve(imported).startswith(TREC)
             or "# deferred:" not in MODULES[name].read_text(encoding="utf-8").splitlines()[node.lineno - 1]]
    assert wrong == []


def test_no_name_private_to_another_irlab_module_is_imported_anywhere():
    # a module's _names are its own: what another module needs is public, with a docstring
    private = [f"{name}:{node.lineno} imports {imported}" for name in MODULES
               for imported, node in imported_names(MODULES[name])
               if imported.startswith("irlab") and imported.rpartition(".")[2].startswith("_")
               and not imported.endswith("__")]  # dunders (__version__) are public
    assert private == []


def test_no_solver_imports_irlab_solvers_back_and_extended_not_the_exercise_sets():
    assert [name for name in under("irlab.solvers") if "irlab.solvers" in graph()[name]] == []  # irlab.solvers.solution
    assert not any(m.startswith("irlab.exercise_set") for m in graph()["irlab.solvers.extended"])


def test_solvers_and_exercise_sets_share_one_reading_of_an_exercise_rankings():
    from irlab import exercise_inputs, exercise_set
    from irlab.metrics import significance
    from irlab.solvers import Answer, Solution, extended, solution

    assert exercise_set.exercise_rankings is extended.exercise_rankings is exercise_inputs.exercise_rankings
    assert (Answer, Solution) == (solution.Answer, solution.Solution)
    assert not hasattr(significance, "_values") and not hasattr(significance, "_alpha")
    assert significance.alpha_value(None) == significance.DEFAULT_ALPHA
