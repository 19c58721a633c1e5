"""pytest configuration for the notebooks (nbval).

pyproject.toml passes ``--nbval-sanitize-with notebooks/sanitize.cfg``, a path relative to the repository root.
nbval opens it relative to the current directory, so a run started elsewhere (``cd notebooks && pytest``) would
not find it; resolve it against the root directory instead.

Images are not compared: nbval leaves ``image/png`` out of the comparison (unless --nbdime is given), so only the
text of each output — explanations, numbers and the Figure's ``<Figure size … with N Axes>`` — must match.
"""

from pathlib import Path


def pytest_configure(config):
    option = getattr(config.option, "nbval_sanitize_with", None)
    if option and not Path(option).is_absolute() and not Path(option).exists():
        candidate = Path(str(config.rootpath)) / option
        if candidate.exists():
            config.option.nbval_sanitize_with = str(candidate)


def pytest_sessionstart(session):
    # On a fresh machine matplotlib builds its font cache on first import and says so on stderr; inside a
    # notebook kernel that message would become a cell output that nbval compares. Build it here, first.
    import matplotlib.font_manager  # noqa: F401
