"""Writing files safely: every file irlab writes goes through here.

* A file is written to a temporary file beside it and renamed into place, so a failure (a full disk, Ctrl-C,
  pdflatex failing) never leaves a half-written file, and an existing file is replaced whole or not at all.
  :func:`write_files` does the same for several files at once (a class's sheets): all of them or none.
* A name longer than NAME_MAX bytes is refused before anything is written; the temporary file's name keeps at most
  TEMPORARY_STEM bytes of it, so it is never the name that is too long.
* Nothing is written through a symbolic link: an output path that is a link (a dangling one too) is refused with
  the link named, so a link planted in a shared folder cannot redirect irlab's output onto another file. A device,
  a pipe or a directory at the output path is refused the same way.
* :func:`check_outputs` compares every output of a command with every input and with every other output before
  anything is written: the same path, the same file through a symbolic or a hard link, and (between outputs) names
  that differ only in case, which are one file on the case-insensitive file systems of Windows and macOS.
"""

from __future__ import annotations

import os
import stat
import tempfile
import unicodedata
from pathlib import Path

from .errors import OutputFileError, ParameterError

NAME_MAX = 255  # bytes of one file name on the usual file systems (ext4, APFS, NTFS in UTF-16 units)
# bytes of the final name kept in the temporary file's name, which adds 10 of its own ('.', '.', mkstemp's 8): in
# bytes, not characters, so that 64 four-byte characters (U+20000) cannot make a temporary name of 266 bytes
TEMPORARY_STEM = 64


def check_target(path) -> Path:
    """``path`` as a Path when a file may be written there: a regular file or nothing. A symbolic link (even a
    dangling one), a directory, a device or a pipe is an OutputFileError naming the path."""
    path = Path(path)
    size = len(os.fsencode(path.name))
    if size > NAME_MAX:
        raise OutputFileError(path, f"its name has {size} bytes (in UTF-8); file systems allow {NAME_MAX}: give a "
                                    "shorter name")
    try:
        status = path.lstat()
    except FileNotFoundError:
        return path
    except OSError as error:
        raise OutputFileError(path, error.strerror or str(error)) from None
    if stat.S_ISLNK(status.st_mode):
        raise OutputFileError(path, f"it is a symbolic link (to {_link_target(path)}); irlab never writes through "
                                    "a link: remove the link or give another file")
    if stat.S_ISDIR(status.st_mode):
        raise OutputFileError(path, "it is a directory; give a file name")
    if not stat.S_ISREG(status.st_mode):
        raise OutputFileError(path, "it is not a regular file (a device, a pipe or a socket); give a file name")
    return path


def _link_target(path: Path) -> str:
    try:
        return os.readlink(path)
    except OSError:  # removed meanwhile
        return "?"


def write_file(path, data: bytes) -> Path:
    """Write ``data`` to ``path`` through a temporary file beside it and a rename: the file is complete or absent,
    never half-written, and never written through a symbolic link. A failure is an OutputFileError naming it."""
    return write_files([(path, data)])[0]


def write_files(files) -> list[Path]:
    """Write every ``(path, data)`` of ``files``, or none: each to a temporary file beside its path first, and only
    when all of them are written are they renamed into place, in the order given (a manifest last appears last).

    A failure while writing (a full disk, a name the file system refuses, Ctrl-C) removes every temporary file and
    leaves every path as it was. A rename that fails (a directory planted at a path meanwhile) removes the files this
    call had created; the files it had already replaced keep their new content. A failure is an OutputFileError
    naming the path. Never writes through a symbolic link."""
    files = [(check_target(path), data) for path, data in files]
    staged = []  # (temporary, path) of every file written so far
    try:
        for path, data in files:
            staged.append((_write_temporary(path, data), path))
    except BaseException:
        for temporary, _ in staged:
            Path(temporary).unlink(missing_ok=True)
        raise
    created = []
    try:
        for number, (temporary, path) in enumerate(staged):
            existed = path.exists()
            try:
                os.replace(temporary, path)  # replaces a link planted since check_target, never its target
            except OSError as error:
                raise OutputFileError(path, error.strerror or str(error)) from None
            if not existed:
                created.append(path)
    except BaseException:
        for temporary, _ in staged[number:]:
            Path(temporary).unlink(missing_ok=True)
        for path in created:
            path.unlink(missing_ok=True)
        raise
    return [path for path, _ in files]


def temporary_prefix(name: str) -> str:
    """The start of the temporary file's name for a file named ``name``: '.', its first TEMPORARY_STEM bytes (whole
    characters), '.'; mkstemp adds 8 characters, so a temporary name has at most TEMPORARY_STEM + 10 bytes."""
    kept, size = [], 0
    for char in name:
        size += len(os.fsencode(char))
        if size > TEMPORARY_STEM:
            break
        kept.append(char)
    return f".{''.join(kept)}."


def _write_temporary(path: Path, data: bytes) -> str:
    """A new temporary file beside ``path`` holding ``data``, with the usual permissions; removed on failure."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=temporary_prefix(path.name))
    except OSError as error:
        raise OutputFileError(path, error.strerror or str(error)) from None
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(data)
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(temporary, 0o666 & ~umask)  # mkstemp creates 0600; give the usual permissions
    except OSError as error:
        Path(temporary).unlink(missing_ok=True)
        raise OutputFileError(path, error.strerror or str(error)) from None
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    return temporary


def write_text(path, text: str) -> Path:
    """:func:`write_file` for UTF-8 text."""
    return write_file(path, text.encode("utf-8"))


def folded(name) -> str:
    """A file name as a case-insensitive file system compares it (one Unicode form, case folded)."""
    return unicodedata.normalize("NFC", str(name)).casefold()


def same_file(first, second) -> str | None:
    """How two paths name one file: ``""`` (the same path), ``"through a symbolic link"``, ``"through a hard
    link"``, or None when they are different files."""
    first, second = Path(first), Path(second)
    if os.path.abspath(first) == os.path.abspath(second):
        return ""
    if first.resolve() == second.resolve():
        return "through a symbolic link"
    try:
        if os.path.samefile(first, second):  # also one file under two spellings on a case-insensitive system
            return "" if folded(first.resolve()) == folded(second.resolve()) else "through a hard link"
    except OSError:  # one of them does not exist (yet): no link to it
        pass
    return None


def check_outputs(inputs, outputs) -> None:
    """Refuse, before anything is written, an output that is one of the inputs or that another output also writes.

    ``inputs`` and ``outputs`` are ``(label, path)`` pairs, the label saying what the file is for a message
    ("the answers CSV", "--html", "the LaTeX source of --pdf"); a path of None is skipped. An output that is an
    input (the same path, or the same file through a symbolic or a hard link) is a ParameterError naming the option
    and the input; two outputs whose resolved paths are equal ignoring case are one naming both. Then every output
    must be writable without following a link (:func:`check_target`).
    """
    inputs = [(label, Path(path)) for label, path in inputs if path is not None]
    outputs = [(label, Path(path)) for label, path in outputs if path is not None]
    for out_label, out in outputs:
        for in_label, source in inputs:
            how = same_file(out, source)
            if how is not None:
                link = f", the same file {how}" if how else ""
                raise ParameterError(f"{out_label} {out} is {in_label} ({source}{link}): irlab never overwrites one "
                                     "of its inputs; give another file")
    seen = {}
    for label, out in outputs:
        key = folded(out.resolve())
        if key in seen:
            other_label, other = seen[key]
            case = " (names are compared ignoring case)" if out.resolve() != other.resolve() else ""
            raise ParameterError(f"{other_label} ({other}) and {label} ({out}) are the same file{case}; give them "
                                 "different names")
        seen[key] = (label, out)
    for _, out in outputs:
        check_target(out)
