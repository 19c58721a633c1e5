"""irlab's one compiled part, optional: irlab.trec._tokenize, the batch evaluator's parse of TREC files in C.

Everything else is in pyproject.toml.  ``optional=True``: where no C compiler is found, or the build fails, pip
still installs irlab, and irlab.trec.readers uses its numpy parse, which gives the same columns."""

from setuptools import Extension, setup

setup(ext_modules=[Extension("irlab.trec._tokenize", ["irlab/trec/_tokenize.c"], optional=True)])
