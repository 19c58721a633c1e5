"""Sphinx configuration of irlab's course site (build it with ``python3 docs/site/build.py``; see README).

The source directory is the repository root, limited by ``include_patterns`` to the pages of the site: this
folder (index, API reference, the exercise sets solved, written by build.py into _generated/), the README, and the
lessons as the stored .ipynb (myst-nb renders their outputs as stored; nothing is executed). MathJax is served
from the site itself (sphinx-mathjax-offline), so the site works without a network.
"""

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
html_title = "irlab: IR evaluation, exactly"
autodoc_member_order = "bysource"
napoleon_numpy_docstring = True
