# Makes notebooks/ a package for pytest only: its conftest.py is then imported as ``notebooks.conftest`` and
# cannot shadow tests/conftest.py (tests import helpers with ``from conftest import …``). Nothing to import here.
