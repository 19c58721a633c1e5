"""Fast, strict readers for TREC qrels and run files.

Formats (whitespace separated, one record per line; plain text or gzip,
detected by the magic bytes ``1f 8b``):

* qrels: ``qid iter docno grade``            (grade: an integer, may be negative)
* run:   ``qid Q0 docno rank score runid``   (rank is ignored and anything
  after the runid is ignored, as in trec_eval; fewer than 6 fields is an error)

Blank lines and lines whose first field starts with ``#`` are skipped; the
readers' ``notes`` say where trec_eval 10.0 would read such a line differently.

Every problem raises :class:`irlab.errors.InputFileError` naming the file and
the line: wrong number of fields, a score that is not a finite number, a grade
that is not an integer (trec_eval would silently truncate ``1.7`` to ``1``;
irlab refuses), the same docno twice for one topic, a file without data lines.

Bounds (irlab/limits.py, each named in its error), so that a small hostile
file ends within seconds: a line has at most MAX_LINE_BYTES, a qid or docno
MAX_ID_BYTES; a .gz file inflates to at most MAX_GZIP_RATIO times its size
(plus MAX_GZIP_SLACK); beyond MAX_SKIPPED_LINES, blank and comment lines may
not outnumber data lines.  The array parse checks what it takes on the way
(lines of exactly the expected fields); everything else is checked with
array operations before any line-by-line work (:class:`_LineBounds`).

Speed: a file is read in chunks of a few MB (a small file in one piece), and
each chunk is split and converted with array operations on its bytes
(:func:`_vector_parse`: one pass finds where tokens start, numbers of up to 8
bytes are read as 64-bit words; in one pass of C instead where irlab.trec._tokenize was built at install, with
the same arrays).  If that is not possible -- comment or blank
lines, non-ASCII bytes (which would be split differently from trec_eval),
numbers in exponent form or of more than 15 digits, any error -- numpy's C ``loadtxt`` parses
the chunk into fixed-width rows, and when that fails too the chunk is read line
by line in Python, which also pinpoints the offending line.  Duplicates are
found by sorting 64-bit hashes of (topic, docno) and confirmed byte-exactly.
"""

from __future__ import annotations

import copy
import ctypes
import gzip
import importlib
import io
import math
import os
import re
import threading
import warnings
import zlib
from collections import deque
from dataclasses import dataclass, field

import numpy as np

from irlab.errors import InputFileError
from irlab.limits import MAX_GZIP_RATIO, MAX_GZIP_SLACK, MAX_ID_BYTES, MAX_LINE_BYTES, MAX_SKIPPED_LINES

__all__ = ["Qrels", "Run", "read_qrels", "read_run", "read_both", "release_free_memory", "in_parallel",
           "duplicate_check", "raise_duplicate", "open_maybe_gzip", "pair_keys", "equal_key_pairs", "compiled",
           "key_words", "topic_docno_order"]

_CHUNK_BYTES = 2 << 20   # small chunks: the vectorised parser's temporaries are a few times a chunk
_INT_RE = re.compile(rb"[+-]?[0-9]+\Z")
_FLOAT_RE = re.compile(
    rb"[+-]?(?:(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?|inf|infinity|nan)\Z",
    re.IGNORECASE,
)
# bytes that numpy's loadtxt treats as field separators although trec_eval does
# not (it splits on ASCII blanks): every non-ASCII byte is sent to the slow path
# (latin-1 "\xa0" and "\x85" are Unicode spaces), as are \x1c-\x1f.
_SUSPECT_BYTES = (b"\x00", b"\x1c", b"\x1d", b"\x1e", b"\x1f")


def decode_ids(b: bytes) -> str:
    return b.decode("utf-8", errors="surrogateescape")


def _show(b: bytes) -> str:
    s = decode_ids(b)
    return s if len(s) <= 60 else s[:57] + "..."


def open_maybe_gzip(path):
    """Open ``path`` for binary reading, transparently decompressing gzip (at most MAX_GZIP_RATIO times the
    compressed size: :class:`_BoundedGzipFile`)."""
    path = os.fspath(path)
    try:
        f = open(path, "rb")
    except OSError as exc:
        raise InputFileError(path, None, f"cannot open file: {exc.strerror or exc}") from None
    if not f.seekable():  # a FIFO or pipe: read once it is gone, and a second open of a FIFO waits for ever
        f.close()
        raise InputFileError(path, None, "is a pipe or FIFO, not a file: irlab reads a file more than once "
                                         "(to tell gzip from text, and again if a run is not grouped by topic); "
                                         "save it to a file first")
    magic = f.read(2)
    f.seek(0)
    if magic == b"\x1f\x8b":
        return _BoundedGzipFile(path, f)
    return f


class _BoundedGzipFile(gzip.GzipFile):
    """A gzip file that refuses to inflate to more than MAX_GZIP_RATIO times its compressed size plus
    MAX_GZIP_SLACK: a gzip bomb (a few hundred KB that inflate to gigabytes of blank lines) ends in an
    InputFileError after reading that much, which no real qrels or run file reaches.  Every read goes through
    ``read``, ``read1`` or ``readline`` (``readinto`` and iteration call them), each asking for no more than
    the bound leaves."""

    def __init__(self, path, fileobj):
        super().__init__(fileobj=fileobj, mode="rb")
        self._path = path
        try:
            self._packed = os.fstat(fileobj.fileno()).st_size
        except (OSError, AttributeError, ValueError):
            self._packed = 0
        self._allowed = MAX_GZIP_RATIO * self._packed + MAX_GZIP_SLACK
        self._inflated = 0

    def _room(self, size):
        room = self._allowed - self._inflated + 1   # one byte more than allowed proves the file too large
        return room if size is None or size < 0 else min(size, room)

    def _count(self, data):
        self._inflated += len(data)
        if self._inflated > self._allowed:
            raise InputFileError(
                self._path, None,
                f"inflates to more than {self._allowed:,} bytes, {MAX_GZIP_RATIO} times its {self._packed:,} "
                f"compressed bytes plus {MAX_GZIP_SLACK >> 20} MiB (irlab's limit MAX_GZIP_RATIO; real qrels and "
                "run files compress 4 to 10 times): a gzip bomb?")
        return data

    def read(self, size=-1):
        return self._count(super().read(self._room(size)))

    def read1(self, size=-1):
        return self._count(super().read1(self._room(size)))

    def readline(self, size=-1):
        return self._count(super().readline(self._room(size)))

    def seek(self, offset, whence=io.SEEK_SET):
        self._inflated = super().seek(offset, whence)
        return self._inflated


@dataclass
class Qrels:
    """Relevance judgments, rows sorted by (topic, docno) byte order.

    ``topics`` holds the distinct topic ids (bytes, sorted);
    ``topic_idx[i]`` indexes ``topics`` for row ``i``.
    """

    path: str
    topics: np.ndarray
    topic_idx: np.ndarray
    docno: np.ndarray
    grade: np.ndarray
    notes: list = field(default_factory=list)   # where trec_eval would read the file differently

    @property
    def topic_names(self) -> list[str]:
        return [decode_ids(t) for t in self.topics.tolist()]

    def __len__(self) -> int:
        return len(self.docno)


@dataclass
class Run:
    """A ranked run, rows in file order (sorting happens in the evaluator)."""

    path: str
    runid: str
    topics: np.ndarray
    topic_idx: np.ndarray
    docno: np.ndarray
    score: np.ndarray
    notes: list = field(default_factory=list)   # where trec_eval would read the file differently

    @property
    def topic_names(self) -> list[str]:
        return [decode_ids(t) for t in self.topics.tolist()]

    def __len__(self) -> int:
        return len(self.docno)


# --------------------------------------------------------------------------
# chunked reading


def file_chunks(f, size=None):
    """Yield pieces of the file that end at a newline, as bytearrays read in
    place (the caller counts the lines: a vectorised parse knows how many it
    found).  A piece ends without a newline at the end of the file, or when
    its last line is longer than MAX_LINE_BYTES (which :class:`_LineBounds`
    then reports): a file without newlines is never read whole."""
    size = size or _CHUNK_BYTES
    while True:
        block = bytearray(size)
        got = f.readinto(block)
        if not got:
            return
        del block[got:]
        if block[-1] != 10:
            block += f.readline(MAX_LINE_BYTES + 1)   # complete the last line (bytearray grows in place)
        yield block


class MappedChunks:
    """:func:`file_chunks`' pieces of a plain file, as read-only memoryviews of the file mapped in memory: the
    compiled parse reads the page cache itself (no copy into fresh, zeroed buffers: 7M run lines parsed in about
    half the CPU time).  ``done`` is the share of the file's bytes yielded so far.  Made only where the compiled
    parse is used (only it takes a memoryview; :func:`_vector_parse` copies one for the numpy parse) and the file
    maps (a regular, non-empty file), else :func:`mapped_or_read` reads it.  A file truncated by another program
    while it is mapped would end the process with SIGBUS; appending to it is harmless (the size is fixed at open)."""

    def __init__(self, f):
        import mmap   # deferred: only the streamed run maps its file

        self.map = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
        if hasattr(mmap, "MADV_SEQUENTIAL"):
            self.map.madvise(mmap.MADV_SEQUENTIAL)   # read ahead
        # the pages of pieces parsed long ago leave this process (they stay in the page cache): the file's pages
        # that a process touched count in its resident memory, and a 10^8-line run is 3.5 GiB
        self.drop, self.page = getattr(mmap, "MADV_DONTNEED", None), mmap.PAGESIZE
        self.size, self.step, self.pos, self.dropped = len(self.map), _CHUNK_BYTES, 0, 0

    @property
    def done(self) -> float:
        return self.pos / self.size

    def __iter__(self):
        view, n, starts = memoryview(self.map), self.size, deque()
        while self.pos < n:
            start = self.pos
            # file_chunks' piece: size bytes, then the rest of the last line, at most MAX_LINE_BYTES + 1 bytes more
            cut = min(start + self.step, n)
            newline = self.map.find(b"\n", cut - 1, min(cut + MAX_LINE_BYTES + 1, n))
            self.pos = newline + 1 if newline >= 0 else min(cut + MAX_LINE_BYTES + 1, n)
            yield view[start:self.pos]
            starts.append(start)
            if len(starts) > 8:   # parsed by now (parsed_chunks holds at most _MAX_THREADS + 1); a late read re-reads
                self._drop_before(starts.popleft())

    def halves(self, search=1 << 20):
        """Two MappedChunks of the same mapping, the file's bytes before and from the start of the first line past
        the middle whose first token is not the one before it (where a topic starts, in a run grouped by topic), or None
        when no such line is found within ``search`` bytes, or the file is smaller than two pieces."""
        if self.pos or self.size < 2 * self.step:
            return None
        middle = self.size // 2  # the search for a line's end bounded too: a hostile file (2 GiB of NULs) has none,
        line = self.map.find(b"\n", middle, min(self.size, middle + search)) + 1  # and every page looked at is kept
        if not line:
            return None
        stop = min(self.size, line + search)
        first = _FIRST_TOKEN.match(self.map, line, stop)
        while 0 < line < stop:
            token = _FIRST_TOKEN.match(self.map, line, stop)
            if token.group() != first.group():
                break
            line = self.map.find(b"\n", line, stop) + 1
        if not 0 < line < stop:
            return None
        first, second = copy.copy(self), copy.copy(self)
        first.size = line
        second.pos = line
        second.dropped = line - line % self.page
        return first, second

    def _drop_before(self, offset):
        end = offset - offset % self.page
        if self.drop is not None and end > self.dropped:
            self.map.madvise(self.drop, self.dropped, end - self.dropped)
            self.dropped = end


# a line's first token with the blanks before it and the byte after it (MappedChunks.halves)
_FIRST_TOKEN = re.compile(rb"[ \t\v\f\r]*[^ \t\v\f\r\n]*[ \t\v\f\r\n]?")


def mapped_or_read(f):
    """The pieces of :func:`file_chunks` for an open file: mapped (:class:`MappedChunks`) where it can be, else
    read; with the share of the file read so far, a function (None for read pieces: the caller asks the file)."""
    if _tokenize is not None and not isinstance(f, gzip.GzipFile):
        try:
            chunks = MappedChunks(f)
            return chunks, lambda: chunks.done
        except (OSError, ValueError, OverflowError):   # an empty file, a pipe, a system without mmap
            pass
    return file_chunks(f), None


class ColumnSpec:
    """Column layout of one file kind."""

    def __init__(self, kind):
        self.kind = kind
        self.needs_scan = False   # comment or blank lines seen: look for trec_eval's readings of them
        if kind == "run":
            self.nfields = 6
            self.fields_doc = "qid Q0 docno rank score runid"
        else:
            self.nfields = 4
            self.fields_doc = "qid iter docno grade"


# the compiled parse of irlab/trec/_tokenize.c, built by setup.py where a C compiler is found; IRLAB_PURE_PYTHON=1
# leaves it unused (the numpy parse gives the same arrays)
# (by importlib: a C module imports nothing of irlab, and an import statement would read to tests/test_layers.py,
# which sees only .py modules, as this module importing its own package)
_tokenize = None
if not os.environ.get("IRLAB_PURE_PYTHON"):
    try:
        _tokenize = importlib.import_module("irlab.trec._tokenize")
    except ImportError:
        pass
_MAX_VECTOR_ID = 32   # the array parses take ids up to this long (the longer, rare ones go to loadtxt)


def compiled():
    """irlab.trec._tokenize where it is built and used (not under IRLAB_PURE_PYTHON=1), else None: for the join's
    own passes in C (irlab.trec.stream), which give what its numpy passes give."""
    return _tokenize

_BLANK_BYTE = np.zeros(256, dtype=bool)
_BLANK_BYTE[[9, 10, 11, 12, 13, 32]] = True   # the bytes bytes.split() splits on (as _check_line does)
_BOUNDS_PIECE = 1 << 20                        # bytes checked at a time (bounded temporaries)


class _LineBounds:
    """Checks, with array operations, the pieces of a file that the array parse did not take (it takes only
    lines of exactly the expected fields, none longer than MAX_LINE_BYTES): every line is at most MAX_LINE_BYTES
    long, and beyond MAX_SKIPPED_LINES the blank and comment lines never outnumber the data lines.  So a file of
    NUL bytes, of one endless line or mostly of blank lines stops at the first piece that shows it, and the line
    by line readers that follow (the slow parse, trec_eval's reading notes) do a bounded amount of work."""

    def __init__(self, path):
        self.path = path
        self.data_lines = 0
        self.skipped = 0

    def count_data(self, lines):
        """``lines`` data lines read by the array parse."""
        self.data_lines += lines

    def check(self, data, first_line):
        """Check ``data`` (whole lines; its first is line ``first_line``), a piece at a time."""
        start, line = 0, first_line
        while start < len(data):
            stop = min(len(data), start + _BOUNDS_PIECE)
            if stop < len(data):   # end the piece after a newline, or just past a line that is too long
                newline = data.find(b"\n", stop, stop + MAX_LINE_BYTES + 1)
                stop = newline + 1 if newline >= 0 else min(len(data), stop + MAX_LINE_BYTES + 1)
            line = self._check_piece(np.frombuffer(data, dtype=np.uint8, count=stop - start, offset=start), line)
            start = stop

    def _check_piece(self, u, first_line):
        n = len(u)
        newlines = np.flatnonzero(u == 10)
        ends = newlines if u[n - 1] == 10 else np.append(newlines, n)
        begins = np.concatenate(([0], ends[:-1] + 1))
        long = np.flatnonzero(ends - begins > MAX_LINE_BYTES)
        if len(long):
            raise InputFileError(self.path, first_line + int(long[0]),
                                 f"the line is longer than {MAX_LINE_BYTES:,} bytes (irlab's limit MAX_LINE_BYTES, "
                                 "trec_eval 10.0's line buffer; a TREC line has under 200 bytes)")
        skipped = _skipped_lines(u, begins, ends)
        skipped_so_far = self.skipped + np.cumsum(skipped)
        data_so_far = self.data_lines + np.arange(1, len(ends) + 1) - (skipped_so_far - self.skipped)
        flood = np.flatnonzero((skipped_so_far > MAX_SKIPPED_LINES) & (skipped_so_far > data_so_far))
        if len(flood):
            i = int(flood[0])
            raise InputFileError(self.path, first_line + i,
                                 f"{int(skipped_so_far[i]):,} blank or comment lines up to here and "
                                 f"{int(data_so_far[i]):,} data lines: beyond {MAX_SKIPPED_LINES:,}, blank and "
                                 "comment lines may not outnumber data lines (irlab's limit MAX_SKIPPED_LINES; "
                                 "trec_eval 10.0 stops at the first blank line)")
        self.skipped, self.data_lines = int(skipped_so_far[-1]), int(data_so_far[-1])
        return first_line + len(newlines)


def _skipped_lines(u, begins, ends):
    """Which lines (``u[begins[i]:ends[i]]``) are blank or comments (their first field starts with '#'), as
    _check_line reads them.  A line that starts with a byte other than a blank is decided by that byte; only the
    others (rare in a real file) need the first byte that is not blank."""
    first = u[begins]
    skipped = first == 35
    indented = np.flatnonzero(_BLANK_BYTE[first])
    if len(indented):
        ink = np.flatnonzero(~_BLANK_BYTE[u])   # where the bytes that are not blank are
        at = np.searchsorted(ink, begins[indented])
        has_ink = at < len(ink)
        first_ink = ink[np.minimum(at, len(ink) - 1)] if len(ink) else np.zeros(len(indented), np.int64)
        blank = ~has_ink | (first_ink >= ends[indented])
        skipped[indented] = blank | (u[first_ink] == 35)
    return skipped


def _check_line(spec, path, lineno, toks, seen, out):
    """Careful validation of one split line; appends to ``out`` lists."""
    if not toks or toks[0].startswith(b"#"):
        return
    if len(toks) != spec.nfields and not (spec.kind == "run" and len(toks) > spec.nfields):
        # runs: like trec_eval, anything after the runid is ignored
        raise InputFileError(
            path, lineno,
            f"expected {spec.nfields} fields ({spec.fields_doc}), found {len(toks)}",
        )
    q, d = toks[0], toks[2]
    for name, token in (("topic id", q), ("docno", d)):
        if len(token) > MAX_ID_BYTES:
            raise InputFileError(path, lineno, f"{name} {_show(token)!r} has {len(token):,} bytes; a {name} has at "
                                               f"most {MAX_ID_BYTES} (irlab's limit MAX_ID_BYTES)")
    if spec.kind == "run":
        s = toks[4]
        if not _FLOAT_RE.match(s):
            raise InputFileError(path, lineno, f"score {_show(s)!r} is not a number")
        v = float(s)
        if not math.isfinite(v):
            raise InputFileError(path, lineno, f"score {_show(s)!r} is not a finite number")
        out[2].append(v)
        out[3][:] = [toks[5]]  # trec_eval reports the runid of the last line
    else:
        g = toks[3]
        if not _INT_RE.match(g):
            raise InputFileError(
                path, lineno,
                f"grade {_show(g)!r} is not an integer (trec_eval would silently truncate it; irlab refuses)",
            )
        gi = int(g)
        if abs(gi) >= 1 << 62:
            raise InputFileError(path, lineno, f"grade {_show(g)!r} is out of range")
        out[2].append(gi)
    key = (q, d)
    if seen is not None:
        first = seen.get(key)
        if first is not None:
            what = "run" if spec.kind == "run" else "qrels"
            raise InputFileError(path, lineno, _duplicate_message(what, q, d, first))
        seen[key] = lineno
    out[0].append(q)
    out[1].append(d)


def _slow_chunk(spec, path, first_line, data, seen):
    out = ([], [], [], [])
    for i, line in enumerate(data.split(b"\n")):
        _check_line(spec, path, first_line + i, line.split(), seen, out)
    q = np.array(out[0], dtype=bytes) if out[0] else np.zeros(0, "S1")
    d = np.array(out[1], dtype=bytes) if out[1] else np.zeros(0, "S1")
    v = np.array(out[2], dtype=np.float64 if spec.kind == "run" else np.int64)
    runid = out[3][0] if out[3] else None
    return q, d, v, runid


def last_runid(data):
    tail = data[-65536:]
    for line in reversed(tail.rstrip(b"\n").split(b"\n")[1:] if len(tail) < len(data) else tail.split(b"\n")):
        toks = line.split()
        if len(toks) >= 6 and not toks[0].startswith(b"#"):
            return toks[5]
    return None


def _first_data_tokens(data):
    for line in data.split(b"\n", 2000)[:2000]:
        toks = line.split()
        if toks and not toks[0].startswith(b"#"):
            yield toks


def _round8(n):
    return max(8, (n + 7) // 8 * 8)


_MAX_WIDTH = MAX_ID_BYTES + 1   # loadtxt's widest qid or docno column: a value that fills it is too long
assert _MAX_WIDTH % 8 == 0      # like every column width (ids are read as 64-bit words)


def _sample_widths(data):
    """Column widths of qid and docno for loadtxt, from the first data lines of ``data`` (at most _MAX_WIDTH)."""
    lens = [1, 1]
    for toks in _first_data_tokens(data):
        lens[0] = max(lens[0], len(toks[0]))
        if len(toks) > 2:
            lens[1] = max(lens[1], len(toks[2]))
    return [min(_round8(length + 1), _MAX_WIDTH) for length in lens]


def _loadtxt_rows(spec, data, widths):
    """(rows, widths): loadtxt's parse of ``data``, a column widened (doubled) while a value fills it.  Rows are
    None when loadtxt cannot read the data or an id needs more than _MAX_WIDTH bytes: the line by line reader
    then decides (and names the line)."""
    arr = _fast_chunk(spec, data, widths)
    while arr is not None:
        full = (_field_full(arr, "q"), _field_full(arr, "d"))
        if not any(full):
            break
        if any(f and w >= _MAX_WIDTH for w, f in zip(widths, full)):
            return None, widths
        widths = [min(w * 2, _MAX_WIDTH) if f else w for w, f in zip(widths, full)]
        arr = _fast_chunk(spec, data, widths)
    return arr, widths


_MIN_WIDTH = 16


def _row_dtype(kind, wq, wd):
    """loadtxt row layout; qid, docno and value start at multiples of 8 bytes
    so that they can be read as 64-bit words without copying."""
    if kind == "run":
        names, formats = ["q", "x", "d", "r", "v", "z"], [f"S{wq}", "S1", f"S{wd}", "S1", "f8", "S1"]
        offsets = [0, wq + wd + 8, wq, wq + wd + 9, wq + wd, wq + wd + 10]
    else:
        names, formats = ["q", "x", "d", "v"], [f"S{wq}", "S1", f"S{wd}", "i8"]
        offsets = [0, wq + wd + 8, wq, wq + wd]
    return np.dtype({"names": names, "formats": formats, "offsets": offsets,
                     "itemsize": wq + wd + 16})


def _may_need_notes(data):
    """True when a line may be a comment or blank (then trec_eval may read it
    otherwise: see _trec_eval_reading_notes).  Vectorised: a '#' anywhere, or
    a line that starts with a blank or a newline."""
    if b"#" in data:
        return True
    if data[:1] in (b"\n", b" ", b"\t", b"\r", b"\f", b"\v"):
        return True
    u = np.frombuffer(data, dtype=np.uint8)
    after = u[np.flatnonzero(u[:-1] == 10) + 1]
    return bool(((after == 10) | (after == 32) | ((after >= 9) & (after <= 13))).any())


def _fast_chunk(spec, data, widths):
    """Parse with loadtxt; return None when the slow path must decide."""
    if not spec.needs_scan and _may_need_notes(data):
        spec.needs_scan = True
    if not data.isascii() or any(c in data for c in _SUSPECT_BYTES):
        return None
    if b"#" in data:
        # drop comment lines (first field starts with '#'); anything else
        # containing '#' is left for loadtxt (comments=None keeps it as data)
        lines = [ln for ln in data.split(b"\n") if not ln.lstrip().startswith(b"#")]
        data = b"\n".join(lines)
    dt = _row_dtype(spec.kind, *widths)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            arr = np.loadtxt(io.BytesIO(data), dtype=dt, comments=None, ndmin=1,
                             encoding="latin1")
    except (ValueError, OverflowError):
        return None
    if spec.kind == "run" and len(arr) and not np.isfinite(arr["v"]).all():
        return None
    return arr


def _field_full(arr, name):
    """True if some value fills the field's whole width (it may be truncated)."""
    if len(arr) == 0:
        return False
    dt, off = arr.dtype.fields[name][:2]
    u = arr.view(np.uint8).reshape(len(arr), arr.dtype.itemsize)
    return bool(u[:, off + dt.itemsize - 1].any())


class _Columns:
    """Growable output columns: topic code, docno and value of each row.

    A qid is kept once, not once per line: topics are coded as the chunks
    arrive, in order of first appearance, and renumbered in byte order at
    the end (:meth:`final`)."""

    def __init__(self, capacity, wd, vdtype):
        self.n = 0
        self.t = np.zeros(capacity, dtype=np.int32)
        self.d = np.zeros(capacity, dtype=f"S{wd}")
        self.v = np.zeros(capacity, dtype=vdtype)
        self.codes = {}   # qid bytes -> code, in order of first appearance

    def _topic_codes(self, q):
        m = len(q)
        if m == 0:
            return np.zeros(0, dtype=np.int32)
        same = q.view(np.uint64) if q.dtype.itemsize == 8 and q.flags.c_contiguous else q   # 8 bytes: compared as words
        starts = np.concatenate(([0], np.flatnonzero(same[1:] != same[:-1]) + 1))
        if len(starts) <= max(m // 16, 64):   # grouped by topic: one name per group
            names, inverse = q[starts].tolist(), None
        else:
            names, inverse = np.unique(q, return_inverse=True)
            names = names.tolist()
        codes = np.array([self.codes.setdefault(name, len(self.codes)) for name in names], dtype=np.int32)
        if inverse is None:
            return np.repeat(codes, np.diff(np.append(starts, m)))
        return codes[inverse.reshape(-1)]

    @staticmethod
    def _copy_bytes(dst, start, src):
        """dst[start:start+len(src)] = src for S arrays (src may be a strided
        field of a structured array), as one 2-D byte copy."""
        m = len(src)
        if m == 0:
            return
        w, W = src.dtype.itemsize, dst.dtype.itemsize
        base = src.base if src.base is not None else src
        if w == W and src.strides[0] == w:
            # the same width: a plain copy of fixed-size items
            dst.view(f"V{W}")[start: start + m] = src.view(f"V{W}")
            return
        if src.strides[0] == w and src.flags.c_contiguous and w <= W:
            # contiguous: a byte copy (numpy's S-to-S assignment pads element by element)
            d8 = dst.view(np.uint8).reshape(len(dst), W)
            d8[start: start + m, :w] = src.view(np.uint8).reshape(m, w)
            if w < W:
                d8[start: start + m, w:] = 0
            return
        if src.strides[0] == w or not isinstance(base, np.ndarray) or base.dtype.fields is None:
            dst[start: start + m] = src
            return
        off = src.__array_interface__["data"][0] - base.__array_interface__["data"][0]
        s8 = base.view(np.uint8).reshape(len(base), base.dtype.itemsize)[:, off: off + w]
        d8 = dst.view(np.uint8).reshape(len(dst), W)
        k = min(w, W)
        d8[start: start + m, :k] = s8[:, :k]

    def add(self, q, d, v, used_d):
        m = len(v)
        need = self.n + m
        if need > len(self.v):
            cap = max(need, int(len(self.v) * 1.5) + 1024)
            self.t = np.concatenate((self.t[: self.n], np.zeros(cap - self.n, self.t.dtype)))
            self.d = np.concatenate((self.d[: self.n], np.zeros(cap - self.n, self.d.dtype)))
            self.v = np.concatenate((self.v[: self.n], np.zeros(cap - self.n, self.v.dtype)))
        if used_d > self.d.dtype.itemsize:
            self.d = self.d.astype(f"S{_round8(used_d)}")
        self.t[self.n: need] = self._topic_codes(q)
        self._copy_bytes(self.d, self.n, d)
        self.v[self.n: need] = v
        self.n = need

    def final(self):
        """(topics in byte order, topic index of each row, docno, value)."""
        names = list(self.codes)
        width = _round8(max(len(name) for name in names)) if names else 8
        order = np.argsort(np.array(names, dtype=f"S{width}"), kind="stable")
        renumber = np.empty(len(names), dtype=np.int32)
        renumber[order] = np.arange(len(names), dtype=np.int32)
        topics = np.array(names, dtype=f"S{width}")[order]
        return topics, renumber[self.t[: self.n]], self.d[: self.n], self.v[: self.n]


_WHOLE_FILE_LIMIT = 64 << 20   # read smaller files in one piece (one loadtxt call); larger ones in chunks (less memory)
_SAMPLE_BYTES = 1 << 20        # column widths are guessed from this much of the file


def _read(path, kind, progress=None, check_duplicates=True):
    spec = ColumnSpec(kind)
    path = os.fspath(path)
    res = None
    with open_maybe_gzip(path) as f:
        raw = f.fileobj if isinstance(f, gzip.GzipFile) else f
        try:
            disk_size = os.fstat(raw.fileno()).st_size
        except (OSError, AttributeError):
            disk_size = None
        gz = isinstance(f, gzip.GzipFile)
        if disk_size is not None and disk_size <= _WHOLE_FILE_LIMIT // (8 if gz else 1):
            try:
                data = f.read(_WHOLE_FILE_LIMIT + 1)   # a .gz that inflates more than 8 times is read in chunks
            except (OSError, EOFError, gzip.BadGzipFile, zlib.error) as exc:
                raise InputFileError(path, None, f"cannot read file: {exc}") from None
            if len(data) <= _WHOLE_FILE_LIMIT:
                if progress is not None:
                    progress(0.3)
                spec.needs_scan = _may_need_notes(data)
                res = _read_whole(spec, data, path)
                if res is not None:
                    q, d, v, runid = res
                    res = (*_code_topics(q), d, v, runid)
                    del q
                if progress is not None:
                    progress(1.0)
            del data
        if res is None:
            f.seek(0)
            res = _read_chunked(spec, path, f, raw, disk_size, progress)
    topics, tidx, d, v, runid = res
    del res
    if check_duplicates:
        dup = duplicate_check(tidx, d)[0]
        if dup is not None:
            raise_duplicate(path, kind, topics, tidx, d, dup)
    release_free_memory()
    notes = _trec_eval_reading_notes(path) if spec.needs_scan else []
    return topics, tidx, d, v, runid, notes


_DUP_SLICE_ROWS = 1 << 18


def distinct_sorted(values):
    """The distinct values, sorted: ``np.unique(values)``, which on its first call loads numpy.ma (a tenth of
    numpy's import time; the plain form asks whether the array is masked)."""
    values = np.sort(np.asarray(values).ravel())
    return values[np.concatenate(([True], values[1:] != values[:-1]))] if len(values) else values


def whole_topic_slices(starts, n, size):
    """(a, b) row ranges of about ``size`` rows that never split a topic, for
    rows grouped by topic with each group starting at ``starts`` (sorted, from 0)."""
    cuts = distinct_sorted(np.append(starts[np.searchsorted(starts, np.arange(0, n, size), side="right") - 1], n))
    return zip(cuts[:-1].tolist(), cuts[1:].tolist())


def listed(items, shown):
    """'a, b, c and 4 more': the first ``shown`` items of a list in a message."""
    items = list(items)
    more = f" and {len(items) - shown} more" if len(items) > shown else ""
    return ", ".join(str(item) for item in items[:shown]) + more


try:   # glibc: give memory freed by the parse (kept by malloc, per thread) back to the system
    _malloc_trim = ctypes.CDLL(None).malloc_trim
except (OSError, AttributeError, TypeError):   # not glibc (Windows cannot even load "None")
    _malloc_trim = None


def release_free_memory(always=False):
    """Return freed heap memory to the system (glibc's ``malloc_trim``; a no-op
    elsewhere).  The parse and hashing threads free their large temporaries
    into per-thread malloc arenas, which would otherwise stay in the process's
    resident memory while the next stage allocates its own.  ``always``: on one
    thread too, where a stage's freed arrays stay in the heap while the next
    stage's Python objects live in arenas of their own."""
    if _malloc_trim is not None and (always or threads() > 1):
        _malloc_trim(0)


def in_parallel(fn, items):
    """``[fn(item) for item in items]``, on a thread pool when there are
    several cores and items (for numpy work, which releases the GIL)."""
    items = list(items)
    workers = threads() if len(items) > 1 else 1
    if workers <= 1:
        return [fn(item) for item in items]
    from concurrent.futures import ThreadPoolExecutor   # deferred: a single-threaded run never loads it

    with ThreadPoolExecutor(min(workers, len(items))) as pool:
        return list(pool.map(fn, items))


def duplicate_check(tidx, d, also=None):
    """(row of the first repeated (topic, docno) pair or None, results of
    ``also``).  The (topic, docno) keys are hashed and sorted a slice at a
    time: slices of whole topics when every topic's rows are contiguous (the
    usual run file), so the keys stay small, else all rows at once.
    ``also(first_row, keys)``, when given, is called with each slice's keys,
    so that a caller who needs the same keys (the evaluator's join) does not
    hash the rows again."""
    n = len(tidx)
    brk = np.flatnonzero(tidx[1:] != tidx[:-1]) + 1
    if n <= _DUP_SLICE_ROWS or len(distinct_sorted(tidx[np.concatenate(([0], brk))])) != len(brk) + 1:
        slices = [(0, n)]
    else:
        slices = list(whole_topic_slices(np.concatenate(([0], brk)), n, _DUP_SLICE_ROWS))

    def check(ab):
        a, b = ab
        keys = pair_keys(tidx[a:b], d[a:b])
        found = _find_duplicate(tidx[a:b], d[a:b], keys)
        return None if found is None else a + found, None if also is None else also(a, keys)

    results = in_parallel(check, slices)
    found = [row for row, _ in results if row is not None]
    return (found[0] if found else None), [extra for _, extra in results]


def raise_duplicate(path, kind, topics, tidx, d, row):
    """The error for a repeated (topic, docno) pair found at ``row``, naming
    both of its lines."""
    _locate_duplicate(ColumnSpec(kind), path, topics[tidx[row]], d[row])


def _trec_eval_reading_notes(path, shown=3):
    """Where trec_eval 10.0 reads a line differently (get_qrels.c, get_trec_results.c):
    it skips a comment only when '#' is in column 0 and the line before was
    not a skipped comment (its column count is not reset after one), and it
    stops on a blank line as malformed.  irlab skips every '#' line and every
    blank line; these notes say where the two part."""
    comments, blanks = [], []
    previous_skipped = False
    with open_maybe_gzip(path) as f:
        for lineno, line in enumerate(f, 1):
            toks = line.split()
            trec_skips = line.startswith(b"#") and not previous_skipped
            previous_skipped = trec_skips
            if not toks:
                blanks.append(lineno)
            elif toks[0].startswith(b"#") and not trec_skips:
                comments.append(lineno)
    notes = []
    for lines, what in ((comments, "comment line(s) that trec_eval 10.0 would read as data (it skips only a "
                                   "'#' in column 0, and not the second of two comment lines in a row)"),
                        (blanks, "blank line(s) skipped; trec_eval 10.0 stops on them as malformed")):
        if lines:
            notes.append(f"{path}: line {listed(lines, shown)}: {what}")
    return notes


_POW10 = 10 ** np.arange(19, dtype=np.int64)
_POW10F = _POW10[:8].astype(np.float64)


def _rows_at(u, start, width):
    """(n, width) bytes u[start[i]: start[i] + width]: one ``width``-byte copy
    per token, through a view of ``u`` as overlapping ``width``-byte items.
    Bytes past the end of ``u`` read as 0 (only tokens in the last ``width``
    bytes need that, so ``u`` is not copied into a padded buffer)."""
    size = len(u)
    if size < width:
        padded = np.zeros(width, dtype=np.uint8)
        padded[:size] = u
        u, size = padded, width
    items = np.ndarray(shape=(size - width + 1,), dtype=f"V{width}", buffer=u, strides=(1,))
    late = len(start) and int(start.max()) > size - width
    out = items[np.minimum(start, size - width) if late else start].view(np.uint8).reshape(len(start), width)
    if late:
        for i in np.flatnonzero(start > size - width).tolist():
            tail = u[int(start[i]):]
            out[i, : len(tail)] = tail
            out[i, len(tail):] = 0
    return out


# _KEEP_BYTES[k] / _KEEP_LAST[k]: a 64-bit word whose first / last k bytes (in memory order) are 0xff, the rest 0
_KEEP_BYTES = np.frombuffer(b"".join(bytes([255] * k + [0] * (8 - k)) for k in range(9)), dtype=np.uint64)
_KEEP_LAST = np.frombuffer(b"".join(bytes([0] * (8 - k) + [255] * k) for k in range(9)), dtype="<u8")
_ZEROS_BEFORE = np.frombuffer(b"".join(b"0" * (8 - k) + bytes(k) for k in range(9)), dtype="<u8")
_LEAD_SHIFT = np.array([64 - 8 * k if k else 0 for k in range(9)], dtype=np.uint64)   # to a token's first byte


def _gather(u, start, length, width):
    """Tokens u[start:start+length] as a fixed-width S array (NUL padded);
    ``width`` is a multiple of 8."""
    out = _rows_at(u, start, width)
    words = out.view(np.uint64)
    for k in range(width // 8):
        # bytes past each token's end are zeroed a 64-bit word at a time
        words[:, k] &= _KEEP_BYTES[np.clip(length - 8 * k, 0, 8)]
    return out.view(f"S{width}").ravel()


def _parse_short_decimals(u, start, length, integer):
    """:func:`parse_decimals` for tokens of at most 8 bytes that do not
    start in the first 8 - length bytes of ``u``: each token is read as one
    little-endian 64-bit word ending at its last byte, and its digits are
    combined in a few word operations (the SWAR method of Lemire's
    fast_float, "parse_eight_digits_unrolled").  None for any other shape."""
    end = start + length
    if len(start) == 0 or int(length.max()) > 8 or int(end.min()) < 8:
        return None
    word = _rows_at(u, end - 8, 8).view("<u8").ravel()
    word &= _KEEP_LAST[length]
    word |= _ZEROS_BEFORE[length]                              # bytes before the token read as '0'
    if not integer and int(length.min()) >= 2:
        fixed = _fixed_point_words(word)
        if fixed is not None:
            return fixed
    chars = word.view(np.uint8).reshape(len(word), 8)
    digit = chars - np.uint8(48)
    other = digit > 9                                          # not a digit: '.', a sign, or wrong
    dots = (chars == 46).view(np.uint8).view("<u8").ravel()   # a 1 in each byte holding a '.'
    lead_shift = _LEAD_SHIFT[length]
    lead = (word >> lead_shift) & np.uint64(0xFF)              # the token's first byte
    negative = lead == 45
    signed = negative | (lead == 43)
    # every non-digit is the one '.' or a leading sign, and a digit is left
    if not ((other.view(np.uint8).view("<u8").ravel() == dots + (signed.astype(np.uint64) << lead_shift)).all()
            and ((dots & (dots - np.uint64(1))) == 0).all()):
        return None
    has_dot = dots != 0
    if integer and has_dot.any():
        return None
    if ((length - signed - has_dot) < 1).any():
        return None
    digit &= other.view(np.uint8) - np.uint8(1)                # non-digits become 0
    x = digit.view("<u8").ravel()
    # close the '.' gap: the bytes before it move one byte on
    before = (dots - np.uint64(1)) & (np.uint64(0) - has_dot.astype(np.uint64))
    x = ((x & before) << np.uint64(8)) | (x & ~before)
    x = x * np.uint64(10) + (x >> np.uint64(8))
    x = ((x & np.uint64(0x000000FF000000FF)) * np.uint64(100 + (1000000 << 32))
         + ((x >> np.uint64(16)) & np.uint64(0x000000FF000000FF)) * np.uint64(1 + (10000 << 32))) >> np.uint64(32)
    x &= np.uint64(0xFFFFFFFF)                                 # the digits as one integer (< 10**8)
    if integer:
        whole = x.astype(np.int64)
        np.negative(whole, out=whole, where=negative)
        return whole
    frac = (dots * np.uint64(0x0706050403020100)) >> np.uint64(56)   # digits after the '.' (7 - its byte)
    value = x.astype(np.float64)
    value /= _POW10F[frac]                                     # both exact: one correctly rounded division
    np.negative(value, out=value, where=negative)
    return value


_ALL_BYTES = np.uint64(0xFFFFFFFFFFFFFFFF)
_ZERO_CHARS = np.uint64(0x3030303030303030)


def _fixed_point_words(word):
    """Scores such as ``12.34`` whose '.' is as many bytes from the end in every token (a run written with one
    format, "%.4f"), unsigned, given as :func:`_parse_short_decimals`'s words (the token ends at the last byte,
    '0' bytes before it; tokens of 2 bytes or more): the same doubles in fewer word operations, as the '.' is
    taken out with constant masks.  None for any other shape (that function's general case decides)."""
    dot = bytes(word[:1].view(np.uint8)).find(b".")   # the first token's '.' (memory order is string order)
    if dot < 0:
        return None
    shift = np.uint64(8 * dot)
    if not (((word >> shift) & np.uint64(0xFF)) == np.uint64(46)).all():
        return None
    before = np.uint64((1 << 8 * dot) - 1)                     # the bytes before the '.' move one byte on
    after = _ALL_BYTES << np.uint64(8 * dot + 8) if dot < 7 else np.uint64(0)
    x = ((word & before) << np.uint64(8)) | (word & after) | np.uint64(0x30)
    # every byte a digit (Lemire's is_made_of_eight_digits_fast)
    if not (((x & np.uint64(0xF0F0F0F0F0F0F0F0)) | (((x + np.uint64(0x0606060606060606)) & np.uint64(0xF0F0F0F0F0F0F0F0))
                                                    >> np.uint64(4))) == np.uint64(0x3333333333333333)).all():
        return None
    x -= _ZERO_CHARS
    x = x * np.uint64(10) + (x >> np.uint64(8))
    x = ((x & np.uint64(0x000000FF000000FF)) * np.uint64(100 + (1000000 << 32))
         + ((x >> np.uint64(16)) & np.uint64(0x000000FF000000FF)) * np.uint64(1 + (10000 << 32))) >> np.uint64(32)
    x &= np.uint64(0xFFFFFFFF)                                 # the digits as one integer (< 10**8)
    value = x.astype(np.float64)
    value /= _POW10F[7 - dot]                                  # both exact: one correctly rounded division
    return value


def parse_decimals(u, start, length, integer):
    """Numbers written ``[+-]digits[.digits]`` (at most 15 digits), exactly as
    strtod reads them: the integer mantissa and the power of ten are both
    exact doubles, so one IEEE division rounds correctly.  None when some
    token has another shape (the caller then uses loadtxt)."""
    n = len(start)
    if n == 0:
        return np.zeros(0, np.int64 if integer else np.float64)
    short = _parse_short_decimals(u, start, length, integer)
    if short is not None:
        return short
    width = int(length.max())
    if width > 17:
        return None
    c = _rows_at(u, start, width)
    negative = c[:, 0] == 45                                   # '-'
    skip = negative | (c[:, 0] == 43)                          # a sign ('-' or '+') is not a digit
    mantissa = np.zeros(n, dtype=np.int64)
    digits = np.zeros(n, dtype=np.int64)
    frac = np.zeros(n, dtype=np.int64)
    seen_dot = np.zeros(n, dtype=bool)
    for j in range(width):
        col = c[:, j]
        inside = length > j
        if j == 0:
            inside = inside & ~skip
        is_digit = inside & (col >= 48) & (col <= 57)
        is_dot = inside & (col == 46)
        if (inside & ~is_digit & ~is_dot).any() or (is_dot & seen_dot).any() or (integer and is_dot.any()):
            return None
        mantissa = np.where(is_digit, mantissa * 10 + (col.astype(np.int64) - 48), mantissa)
        digits += is_digit
        frac += is_digit & seen_dot
        seen_dot |= is_dot
    if (digits == 0).any() or (digits > 15).any():
        return None
    if integer:
        return np.where(negative, -mantissa, mantissa)
    value = mantissa.astype(np.float64) / _POW10[frac].astype(np.float64)
    return np.where(negative, -value, value)


def _token_lengths(word, starts, nexts):
    """Length of each token starting at ``starts`` when a single separator
    byte comes before the next token (at ``nexts``), else None."""
    if len(starts) == 0:
        return starts
    if not word[nexts - 2].all():
        return None
    return nexts - starts - 1



def _single_spaced(u, nf):
    """(token starts, the blank byte after each token) when every token is followed by exactly one blank byte, every
    line holds ``nf`` tokens and the data ends with a newline -- the usual file, split with one comparison and one
    ``flatnonzero`` over its bytes; None for anything else (the general splitting then decides)."""
    n = len(u)
    if n == 0 or u[0] <= 32 or u[n - 1] != 10:
        return None
    blank = np.flatnonzero(u <= 32)
    m = len(blank)
    if m % nf or (m > 1 and int((blank[1:] - blank[:-1]).min()) == 1):   # a token after every blank but the last
        return None
    # newlines end every nf tokens, and there are no others (a newline is a blank byte)
    if not (u[blank[nf - 1::nf]] == 10).all() or int(np.count_nonzero(u == 10)) != m // nf:
        return None
    starts = np.empty(m, dtype=np.int64)
    starts[0] = 0
    np.add(blank[:-1], 1, out=starts[1:])
    return starts, blank


def _lines_within_bound(first, n):
    """No line longer than MAX_LINE_BYTES: from one line's first token to the next one's is at most that and its
    newline (a longer gap may be blanks before a token, which _LineBounds tells apart)."""
    return not (int(first[0]) > MAX_LINE_BYTES or n - int(first[-1]) > MAX_LINE_BYTES + 1 or
                (len(first) > 1 and int((first[1:] - first[:-1]).max()) > MAX_LINE_BYTES + 1))


def _vector_parse(spec, data):
    """(qid, docno, value) arrays of a chunk of the common shape, or None (the loadtxt and line-by-line readers then
    decide, and report errors): the compiled parse when it is built and takes the chunk, else :func:`_numpy_parse`.
    Both give the same arrays (tests/test_trec_tokenize.py)."""
    if _tokenize is not None:
        parsed = _compiled_parse(spec, data)
        if parsed is not None:
            return parsed
    if isinstance(data, memoryview):   # a mapped piece (MappedChunks): the numpy parse reads bytes' methods
        data = bytearray(data)
    return _numpy_parse(spec, data)


# per thread and file kind, the qid and docno widths and the bytes per line of the last chunk parsed (a file's lines
# are much alike): the arrays are made that size, since every page of them that is written costs a fault
_SPLIT_SHAPE = threading.local()


def _compiled_parse(spec, data):
    """:func:`_numpy_parse` in one pass of C (irlab/trec/_tokenize.c) for the chunks it takes -- whole lines of exactly
    the expected fields, printable ASCII, plain decimal numbers -- else None."""
    q_width, d_width, line_bytes = getattr(_SPLIT_SHAPE, spec.kind, (8, 16, 0))
    # at most every line the chunk can hold: one of nfields tokens has as many separators and newline bytes at least
    most = len(data) // (2 * spec.nfields) + 1
    lines = min(most, int(len(data) / line_bytes * 1.05) + 64) if line_bytes else most
    while True:   # the ids are copied out at the widths guessed; a second pass when they are not this chunk's
        values = np.empty(lines, dtype=np.float64 if spec.kind == "run" else np.int64)
        q, d = np.empty(lines, dtype=f"S{q_width}"), np.empty(lines, dtype=f"S{d_width}")
        found = _tokenize.split(data, spec.nfields, 4 if spec.kind == "run" else 3, spec.kind != "run",
                                MAX_LINE_BYTES, _MAX_VECTOR_ID, values, q, q_width, d, d_width)
        if found is None:
            return None
        if found is False:   # shorter lines than the last chunk's
            lines = most
            continue
        n, q_max, d_max = found
        needed = _round8(q_max), _round8(d_max)
        setattr(_SPLIT_SHAPE, spec.kind, (*needed, len(data) / n))
        if needed == (q_width, d_width):
            return q[:n], d[:n], values[:n]
        q_width, d_width = needed


def _numpy_parse(spec, data):
    """The common case -- ASCII lines of exactly the expected fields, plain
    decimal numbers -- split and converted with array operations (faster than
    loadtxt).  Returns (qid, docno, value) arrays, or None for anything else
    (the loadtxt and line-by-line readers then decide, and report errors).

    Tokens are the runs of bytes > 32.  When every line starts in column 0 and
    its fields are one blank byte apart (the usual file), finding the blank
    bytes is all (:func:`_single_spaced`): each token runs from the byte after
    a blank to the next blank.  Otherwise one pass finds where tokens start,
    and the newline count proves that each line holds exactly ``nfields`` tokens."""
    if not data or not data.isascii() or b"#" in data or any(c in data for c in _SUSPECT_BYTES):
        return None
    u = np.frombuffer(data, dtype=np.uint8)
    n = len(u)
    nf = spec.nfields
    vf = 4 if spec.kind == "run" else 3
    spaced = _single_spaced(u, nf)
    if spaced is not None:   # the usual file, in two passes over its bytes: each token ends at the blank after it
        starts, stops = spaced
        first = starts[::nf]
        if not _lines_within_bound(first, n):
            return None
        lengths = {f: stops[f::nf] - starts[f::nf] for f in (0, 2, vf)}
    else:
        word = u > 32
        begins = np.empty(n, dtype=bool)
        begins[0] = word[0]
        np.greater(word[1:], word[:-1], out=begins[1:])
        starts = np.flatnonzero(begins)
        del begins
        lines = int(np.count_nonzero(u == 10))
        if len(starts) != lines * nf or lines == 0:
            return None
        first = starts[::nf]
        # each line holds exactly nf tokens when every line's first token follows
        # a newline and the file ends with one: that accounts for every newline
        if not (u[n - 1] == 10 and (u[first[1:] - 1] == 10).all()):
            newlines = np.flatnonzero(u == 10)
            if (starts[nf - 1::nf] > newlines).any() or (first[1:] < newlines[:-1]).any():
                return None
        if not _lines_within_bound(first, n):
            return None
        # one separator byte after every token (as many blank bytes as tokens, and
        # none before the first): each length follows from where the next token starts
        single = bool(word[0]) and n - int(np.count_nonzero(word)) == len(starts)
        lengths = {}
        for f in (0, 2, vf):
            nexts = starts[f + 1::nf] if f + 1 < nf else np.append(first[1:], n)
            lengths[f] = nexts - starts[f::nf] - 1 if single else _token_lengths(word, starts[f::nf], nexts)
        if any(v is None for v in lengths.values()):
            # separators longer than one byte somewhere: find where tokens end
            ends = np.empty(n, dtype=bool)
            ends[-1] = word[-1]
            np.greater(word[:-1], word[1:], out=ends[:-1])
            stops = np.flatnonzero(ends) + 1
            del ends
            lengths = {f: stops[f::nf] - starts[f::nf] for f in (0, 2, vf)}
        del word
    q_len, d_len = lengths[0], lengths[2]
    if max(int(q_len.max()), int(d_len.max())) > _MAX_VECTOR_ID:
        return None
    q = _gather(u, starts[0::nf], q_len, _round8(int(q_len.max())))
    d = _gather(u, starts[2::nf], d_len, _round8(int(d_len.max())))
    v = parse_decimals(u, starts[vf::nf], lengths[vf], integer=spec.kind != "run")
    if v is None:
        return None
    return q, d, v


def _read_whole(spec, data, path):
    """One loadtxt call over a whole (ASCII, comment-free, valid) file;
    None when the chunked reader must decide."""
    if not data or b"#" in data:
        return None
    runid = last_runid(data) if spec.kind == "run" else None
    vec = _vector_parse(spec, data)
    if vec is not None:
        return (*vec, runid)
    _LineBounds(path).check(data, 1)
    arr, _ = _loadtxt_rows(spec, data, _sample_widths(data[:_SAMPLE_BYTES]))
    if arr is None or len(arr) == 0:
        return None
    return arr["q"], arr["d"], arr["v"], runid


_THREADS = None   # threads for the parse, hashing and sorting (numpy releases the GIL there); None: threads()
_MAX_THREADS = 4


def threads():
    """How many threads the readers and the join use: ``_THREADS`` when set,
    else one per core that is idle right now, at most ``_MAX_THREADS``.  A
    core busy with another program makes a second thread a loss (the two
    then share one core, and trade the GIL and their caches); Linux's count
    of runnable tasks in /proc/loadavg says how many are busy.  The results
    never depend on it (the tests compare 1 to 4 threads)."""
    if _THREADS is not None:
        return max(1, _THREADS)
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    try:
        with open("/proc/loadavg") as f:
            running = int(f.read().split()[3].split("/")[0])   # this program's thread is one of them
    except (OSError, ValueError, IndexError):
        running = 1
    return max(1, min(_MAX_THREADS, cores - running + 1))


def parsed_chunks(spec, chunks, workers=None):
    """(data, vectorised parse or None) for each chunk, in file order.
    With several cores the chunks are parsed on a thread pool, a few
    chunks ahead of the caller (bounded memory); each chunk is parsed on its
    own, so the result does not depend on the number of threads."""
    workers = threads() if workers is None else workers
    if workers <= 1:
        for data in chunks:
            yield data, _vector_parse(spec, data)
        return
    from concurrent.futures import ThreadPoolExecutor   # deferred: a single-threaded run never loads it

    pending = deque()
    with ThreadPoolExecutor(workers - 1) as pool:   # the caller's thread is the other one
        try:
            for data in chunks:
                pending.append((data, pool.submit(_vector_parse, spec, data)))
                if len(pending) > workers:
                    piece, job = pending.popleft()
                    yield piece, job.result()
            while pending:
                piece, job = pending.popleft()
                yield piece, job.result()
        finally:
            for *_, job in pending:
                job.cancel()


def _read_chunked(spec, path, f, raw, disk_size, progress):
    kind = spec.kind
    runid = None
    last_data = None
    widths = None
    cols = None
    total = None if isinstance(f, gzip.GzipFile) else disk_size
    bounds = _LineBounds(path)
    try:
        first_line = 1
        for data, vec in parsed_chunks(spec, file_chunks(f)):
            if vec is None:   # what the array parse did not take may be hostile: check it before any other parse
                bounds.check(data, first_line)
            if widths is None:
                widths = _sample_widths(data)
                lines = max(data.count(b"\n"), 1)
                est = int((total or 4 * len(data)) / max(len(data) / lines, 1) * 1.02) + 1024
                cols = _Columns(est, widths[1], np.float64 if kind == "run" else np.int64)
            if vec is not None:   # no comment or blank line when the vectorised parse succeeds
                bounds.count_data(len(vec[2]))
                cols.add(*vec, vec[1].dtype.itemsize)
                rid = None
            else:
                arr, widths = _loadtxt_rows(spec, data, widths)
                if arr is None:
                    q, d, v, rid = _slow_chunk(spec, path, first_line, bytes(data), None)
                    cols.add(q, d, v, d.dtype.itemsize)
                else:
                    rid = None
                    cols.add(arr["q"], arr["d"], arr["v"], widths[1])
                    del arr
            if kind == "run" and cols.n:
                if rid is not None:
                    runid, last_data = rid, None
                else:
                    last_data = data
            first_line += len(vec[2]) if vec is not None else data.count(b"\n")
            if progress is not None and disk_size:
                try:
                    progress(min(raw.tell() / disk_size, 1.0))
                except (OSError, ValueError):
                    pass
    except (OSError, EOFError, gzip.BadGzipFile, zlib.error) as exc:
        raise InputFileError(path, None, f"cannot read file: {exc}") from None
    if cols is None or cols.n == 0:
        raise InputFileError(path, None, "no data lines (empty file?)")
    if kind == "run" and last_data is not None:
        runid = last_runid(bytes(last_data)) or runid
    return (*cols.final(), runid)


def _code_topics(q):
    """Distinct topic ids (sorted bytes) and an int32 code per row.

    Run files are normally grouped by topic: then only the change points are
    sorted.  Otherwise topics are found through 64-bit hashes (checked
    byte-exactly), avoiding a string sort of every row."""
    n = len(q)
    change = np.flatnonzero(q[1:] != q[:-1]) + 1
    if len(change) < max(n // 8, 1024):
        starts = np.concatenate(([0], change))
        topics, inv = np.unique(q[starts], return_inverse=True)
        lens = np.diff(np.append(starts, n))
        return topics, np.repeat(inv.astype(np.int32), lens)
    if q.dtype.itemsize <= 8:
        # the (zero-padded) bytes themselves are an exact 64-bit key
        h = np.ascontiguousarray(q.astype("S8")).view(np.uint64)
    else:
        h = pair_keys(np.zeros(n, dtype=np.int64), q)
    if n < (1 << 32):
        # group rows by a 32-bit hash with one packed sort of (hash, row)
        with np.errstate(over="ignore"):
            packed = (h * np.uint64(0x9E3779B97F4A7C15)) >> np.uint64(32)
        packed <<= np.uint64(32)
        packed |= np.arange(n, dtype=np.uint64)
        packed.sort()
        rows = (packed & np.uint64(0xFFFFFFFF)).astype(np.int64)
        hs = packed >> np.uint64(32)
        del packed
        brk = np.ones(n, dtype=bool)
        np.not_equal(hs[1:], hs[:-1], out=brk[1:])
        del hs
        gstarts = np.flatnonzero(brk)
        gid = np.cumsum(brk) - 1
        hr = h[rows]
        if (hr == hr[gstarts][gid]).all():  # no 32-bit collision between different keys
            strings = q[rows[gstarts]]
            topics, inv2 = np.unique(strings, return_inverse=True)
            tidx = np.empty(n, dtype=np.int32)
            tidx[rows] = inv2.astype(np.int32)[gid]
            if q.dtype.itemsize > 8:
                # 64-bit hashes of longer ids: confirm the strings themselves
                if not (q == topics[tidx]).all():
                    topics, inv = np.unique(q, return_inverse=True)
                    return topics, inv.astype(np.int32)
            return topics, tidx
    uh = distinct_sorted(h)
    hidx = np.searchsorted(uh, h)
    rep = np.empty(len(uh), dtype=np.int64)
    rep[hidx[::-1]] = np.arange(n - 1, -1, -1)  # first row of each hash
    strings = q[rep]
    if not (strings[hidx] == q).all():  # a hash collision: do it the slow way
        topics, inv = np.unique(q, return_inverse=True)
        return topics, inv.astype(np.int32)
    topics, inv2 = np.unique(strings, return_inverse=True)
    return topics, inv2.astype(np.int32)[hidx]


def key_words(docno):
    """Docnos as rows of native 64-bit words, zero padded: what :func:`pair_keys` hashes, C-contiguous."""
    return np.ascontiguousarray(_words(docno))


def _words(docno):
    """Docnos as rows of native 64-bit words (zero padded), without copying
    when ``docno`` is an 8-byte-aligned field of a loadtxt row array."""
    w = docno.dtype.itemsize
    n = len(docno)
    base = docno.base
    if (w % 8 == 0 and n and docno.strides[0] != w and isinstance(base, np.ndarray)
            and base.dtype.fields is not None and base.dtype.itemsize % 8 == 0
            and docno.strides[0] == base.dtype.itemsize and len(base) == n):
        off = docno.__array_interface__["data"][0] - base.__array_interface__["data"][0]
        if off % 8 == 0 and base.__array_interface__["data"][0] % 8 == 0:
            k = off // 8
            return base.view(np.uint64).reshape(n, base.dtype.itemsize // 8)[:, k: k + w // 8]
    if w % 8:
        docno = docno.astype(f"S{w + (-w) % 8}")
        w = docno.dtype.itemsize
    docno = np.ascontiguousarray(docno)
    return docno.view(np.uint64).reshape(n, w // 8) if n else np.zeros((0, w // 8), np.uint64)


def pair_keys(topic_idx: np.ndarray, docno: np.ndarray) -> np.ndarray:
    """64-bit hash of each (topic index, docno) pair, independent of the
    docno array's width (a zero padding word adds nothing).

    Each word is scrambled on its own (multiply, xor-shift: a bijection that
    keeps 0 at 0) before the words are added, so that docnos differing in the
    high bytes of two words (``FR940405-2-00040`` / ``FR940406-2-00045``) do
    not cancel out as they would in a linear combination.  Equal keys are a
    hint, never a verdict: every user compares the bytes of each candidate
    (:func:`equal_key_pairs`)."""
    words = _words(docno)
    n = len(words)
    out = np.empty(n, dtype=np.uint64)
    tidx = np.asarray(topic_idx)
    if _tokenize is not None and n:   # the same keys in one pass of C (tests/test_trec_tokenize.py)
        _tokenize.mix_keys(np.ascontiguousarray(tidx, dtype=np.int64), np.ascontiguousarray(words),
                           words.shape[1], out)
        return out
    block = 1 << 20   # rows per pass: bounded temporaries on 7M-line runs
    for a in range(0, n, block):
        out[a: a + block] = _mix_words(tidx[a: a + block], words[a: a + block])
    return out


def _mix_words(topic_idx, words):
    n = len(words)
    k = np.empty(n, dtype=np.uint64)
    tmp = np.empty(n, dtype=np.uint64)
    x = np.empty(n, dtype=np.uint64)
    ct = np.uint64(0xD6E8FEB86659FD93)
    with np.errstate(over="ignore"):
        np.multiply(topic_idx.astype(np.uint64), ct, out=k)
        k += ct
        for j in range(words.shape[1]):
            c = np.uint64(((0x9E3779B97F4A7C15 + 0x632BE59BD9B4E019 * j) | 1) & 0xFFFFFFFFFFFFFFFF)
            np.multiply(words[:, j], c, out=x)
            np.right_shift(x, np.uint64(29), out=tmp)
            x ^= tmp
            x *= np.uint64(0x94D049BB133111EB)
            k += x
        np.right_shift(k, np.uint64(31), out=tmp)
        k ^= tmp
        k *= np.uint64(0xBF58476D1CE4E5B9)
        np.right_shift(k, np.uint64(29), out=tmp)
        k ^= tmp
    return k


def equal_key_pairs(sorted_keys: np.ndarray, keys: np.ndarray):
    """Every (i, p) with ``keys[i] == sorted_keys[p]``: all candidates, not
    only the first, so that a join or a duplicate check never depends on a
    hash being unique (the caller then compares the bytes)."""
    if len(sorted_keys) == 0 or len(keys) == 0:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    left = np.searchsorted(sorted_keys, keys, side="left")
    right = np.searchsorted(sorted_keys, keys, side="right")
    count = right - left
    i = np.flatnonzero(count)
    count = count[i]
    if len(count) == 0 or count.max() == 1:
        return i.astype(np.int64), left[i].astype(np.int64)
    rows = np.repeat(i, count)
    starts = np.repeat(left[i] - (np.cumsum(count) - count), count)
    return rows.astype(np.int64), (starts + np.arange(len(rows))).astype(np.int64)


def _find_duplicate(tidx, d, keys):
    """Row index of the first repeated (topic, docno) pair, or None."""
    s = np.sort(keys)
    if not (s[1:] == s[:-1]).any():
        return None
    del s
    order = np.argsort(keys, kind="stable")
    ks = keys[order]
    eq = ks[1:] == ks[:-1]
    # rows whose key is shared: sort them by the real (topic, docno) and look
    # for neighbours that are truly equal (however many rows share a key)
    shared = np.zeros(len(ks), dtype=bool)
    shared[1:] |= eq
    shared[:-1] |= eq
    rows = order[shared]
    o = np.lexsort((rows, d[rows], tidx[rows]))
    rows = rows[o]
    same = (tidx[rows[1:]] == tidx[rows[:-1]]) & (d[rows[1:]] == d[rows[:-1]])
    if not same.any():
        return None
    return int(rows[1:][same].min())


def _locate_duplicate(spec, path, topic, docno):
    first = None
    with open_maybe_gzip(path) as f:
        for lineno, raw in enumerate(f, 1):
            toks = raw.split()
            if len(toks) < 3 or toks[0].startswith(b"#"):
                continue
            if toks[0] == topic and toks[2] == docno:
                if first is None:
                    first = lineno
                else:
                    what = "run" if spec.kind == "run" else "qrels"
                    raise InputFileError(path, lineno, _duplicate_message(what, topic, docno, first))
    raise InputFileError(path, None, f"duplicate docno {_show(docno)!r} for topic {_show(topic)!r}")


DIVERSITY_QRELS_HINT = ("; a diversity qrels file (topic subtopic docno judgment) repeats a docno once per subtopic: "
                        "irlab eval reads one with --diversity")


def _duplicate_message(what, topic, docno, first):
    """A (topic, docno) pair given twice; in qrels, perhaps diversity qrels read as trec_eval's, so it says how
    to read those."""
    return (f"duplicate docno {_show(docno)!r} for topic {_show(topic)!r} in {what} (first on line {first})"
            + (DIVERSITY_QRELS_HINT if what == "qrels" else ""))


def read_qrels(path, *, progress=None) -> Qrels:
    """Read a TREC qrels file (``qid iter docno grade``).

    ``progress``: optional callable receiving the fraction of the file read."""
    if isinstance(path, Qrels):
        return path
    topics, tidx, d, g, _, notes = _read(path, "qrels", progress)
    order = topic_docno_order(tidx, d, len(topics))
    return Qrels(os.fspath(path), topics, tidx[order], d[order], g[order], notes)


def topic_docno_order(topic_idx: np.ndarray, docno: np.ndarray, topics: int) -> np.ndarray:
    """``np.lexsort((docno, topic_idx))``, the qrels' order: by topic index (in ``[0, topics)``), then by docno bytes;
    in C where it is built, which sorts each topic's few rows alone (a fifth of lexsort's time on 210,000 judgments;
    the same order, tests/test_trec_tokenize.py)."""
    n = len(docno)
    if _tokenize is None or not n or docno.dtype.kind != "S" or not docno.dtype.itemsize:
        return np.lexsort((docno, topic_idx))
    order = np.empty(n, dtype=np.int64)
    _tokenize.topic_docno_order(np.ascontiguousarray(topic_idx, dtype=np.int64), np.ascontiguousarray(docno),
                                docno.dtype.itemsize, topics, order)
    return order


def read_run(path, *, progress=None, check_duplicates=True) -> Run:
    """Read a TREC run file (``qid Q0 docno rank score runid``).

    ``progress``: optional callable receiving the fraction of the file read.
    ``check_duplicates=False`` leaves the check for a docno repeated in a
    topic to the caller (:func:`duplicate_check`; the evaluator makes it
    while it joins the run with the qrels)."""
    if isinstance(path, Run):
        return path
    topics, tidx, d, s, runid, notes = _read(path, "run", progress, check_duplicates)
    return Run(os.fspath(path), decode_ids(runid or b""), topics, tidx, d, s, notes)


def read_both(qrels, run, *, check_run_duplicates=True):
    """``(read_qrels(qrels), read_run(run))``; with several cores the qrels
    are read on a second thread while the run is read.  A bad qrels file is
    reported before a bad run file, as when they are read one after the other."""
    if isinstance(qrels, Qrels) or isinstance(run, Run) or threads() <= 1:
        return read_qrels(qrels), read_run(run, check_duplicates=check_run_duplicates)
    from concurrent.futures import ThreadPoolExecutor   # deferred: a single-threaded run never loads it

    with ThreadPoolExecutor(1) as pool:
        judged = pool.submit(read_qrels, qrels)
        try:
            ranked = read_run(run, check_duplicates=check_run_duplicates)
        except Exception:
            judged.result()   # the qrels' own error first
            raise
        return judged.result(), ranked
