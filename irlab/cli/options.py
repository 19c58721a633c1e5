"""What every command shares: the parser classes, readers of option values, and the check of output paths.

Option readers turn the text of one option into a value or raise :class:`ParameterError` naming the option; the
domain modules below the command line take the values and never see argv.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..errors import ParameterError
from ..option_values import integer, per_query  # noqa: F401  (the commands' option readers, defined below the CLI)
from ..outputs import check_outputs


class Parser(argparse.ArgumentParser):
    """argparse, but usage errors are one line in irlab's own format."""

    def error(self, message):
        raise ParameterError(message)


class IntermixedParser(Parser):
    """A subcommand whose options may come before, between or after its positionals
    (``irlab explain ap --relevant 5 RNNRR``): argparse's intermixed parsing."""

    _intermixing = False

    def parse_known_args(self, args=None, namespace=None):
        if self._intermixing:  # parse_known_intermixed_args calls back here for each of its two passes
            return super().parse_known_args(args, namespace)
        self._intermixing = True
        try:
            return self.parse_known_intermixed_args(args, namespace)
        finally:
            self._intermixing = False


def add_format(parser, formats=None, help="output format (default: text)"):
    """--format, one of ``formats`` (default: every format irlab.render writes)."""
    if formats is None:
        from ..render import FORMATS  # deferred: the renderers are not needed to parse irlab eval's options

        formats = FORMATS
    parser.add_argument("--format", default="text", choices=formats, help=help)


def add_printable(parser, pdf_help="also write a printable PDF (pdflatex; the .tex is kept beside it); FILE ends in .pdf"):
    parser.add_argument("--pdf", metavar="FILE", help=pdf_help)
    parser.add_argument("--html", metavar="FILE", help="also write a self-contained HTML page (no LaTeX needed)")


def check_argv(argv) -> list[str]:
    """The arguments as text; bytes that are not UTF-8 (``--seed $'\\xff'``) are refused here, once, by position."""
    argv = sys.argv[1:] if argv is None else list(argv)
    for position, argument in enumerate(argv, 1):
        try:
            str(argument).encode("utf-8")
        except UnicodeEncodeError:
            shown = str(argument).encode("utf-8", "surrogateescape")
            raise ParameterError(f"argument {position} ({shown!r}) is not valid UTF-8 text") from None
    return [str(argument) for argument in argv]


# files ------------------------------------------------------------------------------------------------------------

def printable_outputs(pdf, html, whose="") -> list:
    """The files --pdf and --html write, as (label, path): the PDF, its LaTeX source beside it, the HTML page."""
    outputs = []
    if pdf:
        outputs += [(f"{whose}--pdf", pdf), (f"the LaTeX source of {whose}--pdf", Path(pdf).with_suffix(".tex"))]
    if html:
        outputs.append((f"{whose}--html", html))
    return outputs


def check_paths(args, inputs=(), outputs=()) -> None:
    """Before anything is computed or written: --pdf names a .pdf (its LaTeX source goes beside it as .tex), and no
    output path is one of the command's inputs or another output (outputs.check_outputs).

    ``inputs``: (argument name, how a message names it) of the files the command reads (an argument may hold a list
    of files; --manifest DIR reads DIR/manifest.json); ``outputs``: the files it writes besides its printables."""
    pdf = getattr(args, "pdf", None)
    if pdf and Path(pdf).suffix.lower() != ".pdf":
        raise ParameterError(f"--pdf {pdf}: the file name must end in .pdf (the LaTeX source is written beside it "
                             f"as {Path(pdf).with_suffix('.tex').name})")
    read = []
    for name, label in inputs:
        value = getattr(args, name, None)
        for path in value if isinstance(value, list) else [value]:
            if path is not None and name == "manifest" and Path(path).is_dir():
                path = Path(path) / "manifest.json"
            read.append((label, path))
    written = printable_outputs(pdf, getattr(args, "html", None)) + list(outputs)
    check_outputs(read, written)
