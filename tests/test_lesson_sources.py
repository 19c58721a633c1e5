"""Every lesson is a pair: notebooks/NN_name.md (the source) and NN_name.ipynb (the same cells, executed).

An edit of the .md that was not re-executed (python3 notebooks/build.py NN), or an .ipynb edited without jupytext,
shows up here as a lesson whose two files disagree, before nbval compares outputs.
"""

from pathlib import Path

import nbformat
import pytest

jupytext = pytest.importorskip("jupytext", reason="the lessons' .md sources are read with jupytext (the [test] extra)")

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"
SOURCES = sorted(NOTEBOOKS.glob("[0-9][0-9]_*.md"))


def test_every_lesson_has_both_files():
    assert len(SOURCES) >= 11
    notebooks = sorted(NOTEBOOKS.glob("[0-9][0-9]_*.ipynb"))
    assert [p.stem for p in SOURCES] == [p.stem for p in notebooks]
    assert 'formats = "ipynb,md:myst"' in (NOTEBOOKS / "jupytext.toml").read_text()


@pytest.mark.parametrize("source", SOURCES, ids=lambda p: p.stem)
def test_the_notebook_holds_the_cells_of_its_source(source):
    text = jupytext.read(source, fmt="md:myst")
    stored = nbformat.read(source.with_suffix(".ipynb"), as_version=4)
    def cells(nb):
        return [(c.cell_type, c.source, c.get("metadata", {}).get("tags", [])) for c in nb.cells]
    assert cells(stored) == cells(text), f"{source.name} changed: python3 notebooks/build.py {source.name[:2]}"
    number = source.name[:2]
    assert [c.id for c in stored.cells] == [f"{number}-{i:02d}" for i in range(1, len(stored.cells) + 1)]
    assert all(c.execution_count is not None for c in stored.cells if c.cell_type == "code"), "not executed"
    assert "widgets" not in stored.metadata
