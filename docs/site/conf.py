"""Sphinx configuration of irlab's course site (build it with ``python3 docs/site/build.py``; see README).

The source directory is the repository root, limited by ``include_patterns`` to the pages of the site: this
folder (index, the guide's pages moved from the README, API reference, the exercise sets solved, written by build.py
into _generated/), the README, docs/architecture.md, and the lessons as the stored .ipynb (myst-nb renders their outputs as stored; nothing is executed). MathJax is served
from the site itself (sphinx-mathjax-offline), so the site works without a network.
"""

import re

project = "irlab"
author = "irlab contributors"
root_doc = "docs/site/index"
extensions = [
    "myst_nb",
    "sphinx.ext.autodoc",
    "sphinx.ext.napoleon",
    "sphinx-mathjax-offline",
]
include_patterns = [
    "docs/site/**",
    "docs/architecture.md",
    "README.md",
    "notebooks/[0-9][0-9]_*.ipynb",
    "notebooks/README.md",
    "notebooks/data/README.md",
    "benchmarks/README.md",
    "exercises/README.md",
]
exclude_patterns = ["docs/site/build.py", "docs/site/conf.py"]
nb_execution_mode = "off"  # the lessons' outputs are the ones nbval checks
myst_enable_extensions = ["dollarmath", "amsmath"]
myst_heading_anchors = 3
html_theme = "alabaster"
# wide enough for trec_eval tables and the explanations' rank tables without a scrollbar on a laptop screen
html_theme_options = {"page_width": "min(1400px, 96vw)", "body_max_width": "none"}
html_title = "irlab: IR evaluation, exactly"
autodoc_member_order = "bysource"
napoleon_numpy_docstring = True


def plain_bars(app, what, name, obj, options, lines):
    """irlab's docstrings write formulas as plain text, where |d_i| is an absolute value; reStructuredText would read
    it as a substitution. Escape each | outside ``literals`` and doctest blocks, which show it as written."""
    in_doctest = False
    for number, line in enumerate(lines):
        stripped = line.strip()
        in_doctest = stripped.startswith(">>>") or (in_doctest and bool(stripped))
        if in_doctest or "|" not in line:
            continue
        parts = line.split("``")
        parts[::2] = [re.sub(r"(?<!\\)\|", r"\\|", part) for part in parts[::2]]
        lines[number] = "``".join(parts)


def setup(app):
    app.connect("autodoc-process-docstring", plain_bars)
