r"""The lines irlab says on standard error — notes, warnings, "wrote …", errors — each with its control characters
visible, by the one rule of :func:`irlab.escape.visible_controls`.

A student id, a qrels topic or a file name is text from a file, and a terminal obeys the escape sequences in it: a
roster id ``a\x1b]0;PWNED\x07\x1b[2J`` would retitle and clear the teacher's terminal. Library code says its lines
with :func:`say`; the ``irlab`` command also wraps stderr in :class:`VisibleControls` while a command runs, so a line
said any other way (argparse's usage errors, a message built elsewhere) is escaped too.

>>> import io
>>> stream = VisibleControls(io.StringIO())
>>> _ = stream.write("roster student a\x1b]0;PWNED\x07 has no answers\n")
>>> stream.wrapped.getvalue()
'roster student a<U+001B>]0;PWNED<U+0007> has no answers\n'
"""

from __future__ import annotations

import sys

from .escape import visible_controls


def say(*lines: str) -> None:
    """Print ``lines`` on stderr, one a line, each control character shown as '<U+001B>'."""
    print("\n".join(visible_controls(str(line)) for line in lines), file=sys.stderr)


class VisibleControls:
    """A text stream that writes to ``wrapped`` with every control character but tab and newline made visible.

    Everything else (``flush``, ``isatty``, ``fileno``, ``encoding`` …) is the wrapped stream's, and ``wrapped``
    stays reachable for the one writer that needs a carriage return: the progress bar of ``irlab eval``, whose
    text is irlab's own."""

    def __init__(self, wrapped):
        self.wrapped = wrapped

    def write(self, text: str) -> int:
        self.wrapped.write(visible_controls(text))
        return len(text)

    def writelines(self, lines) -> None:
        for line in lines:
            self.write(line)

    def __getattr__(self, name):
        return getattr(self.wrapped, name)


def unescaped(stream):
    """The stream under a :class:`VisibleControls`, for text that is irlab's own and needs a carriage return."""
    return stream.wrapped if isinstance(stream, VisibleControls) else stream
