"""Every runnable example in irlab's docstrings runs and prints what it says."""

import doctest
import importlib
import pkgutil

import pytest

import irlab

MODULES = sorted(name for _, name, _ in pkgutil.walk_packages(irlab.__path__, "irlab.") if not name.endswith("__main__"))


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    module = importlib.import_module(name)
    failures, _ = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE, verbose=False)
    assert failures == 0, f"{failures} docstring example(s) of {name} failed (run python -m doctest -v on it)"
