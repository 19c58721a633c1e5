"""The ``irlab`` command: a thin layer over the library, one module per command.

Each module here (``explain``, ``solve``, ``metrics``, ``eval``, ``sheet``, ``grade``, ``quiz``, ``compare``,
``conventions``, ``pool``) has ``add_parser(commands)``, which declares the command's options, and ``run(args)``,
which reads them, calls the library and prints; shared option readers live in :mod:`irlab.cli.options`. Nothing below this package
imports argparse or knows of argv and exit codes.

Every bad input ends with one line ``irlab: error: …`` on stderr and exit code 2.
"""

from __future__ import annotations

import argparse
import io
import sys
from importlib import import_module

from .. import __version__
from ..errors import IrlabError
from ..messages import VisibleControls
from .options import Parser, check_argv

# the commands in the order ``irlab --help`` lists them, each the module of the same name in this package
COMMANDS = ("metrics", "explain", "solve", "sheet", "grade", "quiz", "eval", "compare", "conventions", "pool", "check_eval")


def build_parser(argv=()) -> argparse.ArgumentParser:
    """The ``irlab`` parser; when ``argv`` starts with a command's name, that command's only (see below)."""
    parser = Parser(prog="irlab", description="Exact, step-by-step explained IR evaluation metrics.")
    parser.add_argument("--version", action="version", version=f"irlab {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    commands.required = True
    # `irlab eval ...` loads eval's module alone: all eleven load explanations, exercise sets and LMS writers, about a
    # second of start-up that a small run's evaluation does not take; anything else (--help, a typo) sees every command
    named = argv[0].replace("-", "_") if argv and argv[0] == argv[0].replace("_", "-") else None
    for name in (named,) if named in COMMANDS else COMMANDS:
        import_module(f"{__name__}.{name}").add_parser(commands)
    return parser


def _run(argv) -> int:
    """Parse ``argv`` and run the command it names (its module's ``run``); bad input raises an IrlabError."""
    argv = check_argv(argv)
    args = build_parser(argv).parse_args(argv)
    return args.handler(args)


def _error(message) -> int:
    """The one line every failure ends with (exit code 2)."""
    message = " ".join(str(message).split("\n"))
    try:
        print(f"irlab: error: {message}", file=sys.stderr)
    except (OSError, ValueError, AttributeError):  # stderr closed too: the exit code still says it
        pass
    return 2


def _silence_stdout() -> None:
    """After a closed pipe (``irlab … | head``), point stdout at /dev/null so Python's final flush stays quiet."""
    import os

    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError, io.UnsupportedOperation):
        pass


def main(argv=None) -> int:
    """Run ``irlab ARGV``: 0 (or the command's own code), 2 with one ``irlab: error:`` line, 130 on Ctrl-C."""
    if sys.stdout is None:  # started with stdout closed (irlab … >&-): there is nowhere to put the result
        return _error("standard output is closed: nowhere to write the result")
    stdout, stderr = sys.stdout, sys.stderr
    # every line on stderr — notes, warnings, argparse's usage errors, the error line — and every line on a terminal
    # shows a control character from a file (a student id, a qrels topic, a path) as '<U+001B>' instead of sending it
    # to the terminal; into a file or a pipe, stdout keeps what a data format carries (trec_eval's ids, CSV cells)
    if stderr is not None and not isinstance(stderr, VisibleControls):
        sys.stderr = VisibleControls(stderr)
    if not isinstance(stdout, VisibleControls) and _is_terminal(stdout):
        sys.stdout = VisibleControls(stdout)
    try:
        return _main(argv)
    finally:
        sys.stdout, sys.stderr = stdout, stderr


def _is_terminal(stream) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError, OSError):
        return False


def _main(argv) -> int:
    try:
        return _run(argv)
    except IrlabError as error:
        return _error(error)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # the reader went away (| head): the output is no longer wanted
        _silence_stdout()
        return 0
    except OSError as error:  # a file that cannot be read or written: say which, no traceback
        where = f"{error.filename}: " if error.filename else ""
        return _error(f"{where}{error.strerror or error}")
    except UnicodeEncodeError as error:  # a terminal that cannot show irlab's characters (≈, β)
        return _error(f"the output cannot be encoded as {error.encoding}: set PYTHONIOENCODING=utf-8 or a UTF-8 locale")
    except MemoryError:
        return _error("out of memory; irlab's limits (irlab/limits.py) should have refused this input first")


if __name__ == "__main__":
    sys.exit(main())
