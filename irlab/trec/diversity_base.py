"""What both paths of ``irlab eval --diversity`` share: a diversity file's lines and tokens
(:class:`DiversityLines`), the readers' types, and ndeval's float terms (the DCG discount, β^i, the ideal-ideal
normaliser).

:mod:`irlab.trec.diversity` reads the files into per-topic objects; :mod:`irlab.trec.diversity_arrays` into numpy
arrays.  Both split a file with :class:`DiversityLines` and compute with the terms below, so they accept the same
files and give the same floats.
"""

from __future__ import annotations

import functools
import io
import math
import re
from dataclasses import dataclass

import numpy as np

from irlab.errors import InputFileError
from irlab.limits import MAX_ID_BYTES, MAX_LINE_BYTES, MAX_SKIPPED_LINES
from irlab.trec.readers import open_maybe_gzip, parse_decimals

DIGITS = re.compile(rb"[0-9]+\Z")   # a natural number, as ndeval reads topics, subtopics, judgments and ranks
# a number float() reads (strtod's forms), as a score
FLOAT_TOKEN = re.compile(rb"[+-]?(?:(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?|inf|infinity|nan)\Z",
                         re.IGNORECASE)
_MAX_NUMBER_DIGITS = 15   # a judgment or a rank: more digits are no judgment or rank (limits.MAX_DIGITS)


def id_text(b: bytes) -> str:
    """An id (bytes as in the file) as text: bytes that are no UTF-8 kept as surrogates, so no two ids print alike."""
    return b.decode("utf-8", errors="surrogateescape")


def shown_id(b: bytes) -> str:
    """An id as an error message quotes it (at most 60 characters)."""
    s = id_text(b)
    return repr(s if len(s) <= 60 else s[:57] + "...")


# --------------------------------------------------------------------------
# reading
#
# A file is read in chunks of whole lines.  A chunk whose every line is plain (within MAX_LINE_BYTES, blank or with
# exactly the fields it needs, no comment, ids within MAX_ID_BYTES, no flood of blank lines) is split in bulk: one
# bytes.split() for its tokens, numpy for the line checks.  Any other chunk is read line by line, exactly as
# before: that reading names the first line at fault, with the file's line number, or reads the unusual lines
# (comments, a run's extra columns) it accepts.  Both give the same tokens.

_CHUNK_BYTES = 1 << 22   # 4 MiB at a time: memory stays near the old line-by-line reading's


class DiversityLines:
    """The data lines of one diversity file (gzip or plain), bounded as irlab's TREC readers are (irlab/limits.py):
    a line of at most MAX_LINE_BYTES, ids of at most MAX_ID_BYTES, blank and comment lines ('#') skipped but,
    beyond MAX_SKIPPED_LINES, never more of them than data lines.  ``fields`` is the number a line needs (a run
    line may have more, ignored as ndeval and trec_eval ignore them); ``ids`` the indices of its id fields."""

    def __init__(self, path, fields, what, ids):
        self.path, self.fields, self.what, self.ids = path, fields, what, ids
        self.lineno = self.skipped = self.data = 0   # counted so far, as the line-by-line reading counts them
        self.first = None                            # the tokens of the first data line

    def chunks(self):
        """The file as chunks of whole lines (the last one may lack its line end)."""
        try:
            with open_maybe_gzip(self.path) as f:
                carry = b""
                while True:
                    block = f.read(_CHUNK_BYTES)
                    if not block:
                        break
                    buf = carry + block
                    cut = buf.rfind(b"\n") + 1
                    if cut == 0 and len(buf) > MAX_LINE_BYTES:
                        # no line end within a line's bound: cut where the line-by-line reading's readline does
                        cut = len(buf) - len(buf) % (MAX_LINE_BYTES + 1)
                    carry = buf[cut:]
                    if cut:
                        yield buf[:cut]
                if carry:
                    yield carry
        except (OSError, EOFError) as exc:
            raise InputFileError(self.path, None, f"cannot read file: {exc}") from None

    def single_spaced(self, u, starts, lengths):
        """Whether a chunk's lines, each ``fields`` tokens (``starts``, ``lengths``) with one space between them, are
        data lines within the bounds: no comment, no line beyond MAX_LINE_BYTES, no id beyond MAX_ID_BYTES."""
        f = self.fields
        longest = int((starts[f - 1::f] + lengths[f - 1::f] - starts[0::f]).max())
        return (longest <= MAX_LINE_BYTES and not (u[starts[0::f]] == 35).any()
                and max(int(lengths[i::f].max()) for i in self.ids) <= MAX_ID_BYTES)

    def finish(self):
        if self.data == 0:
            raise InputFileError(self.path, None, "no data lines (empty file?)")

    def bulk(self, buf, split=True):
        """(tokens, line numbers of the data lines, counts after the chunk) of a chunk whose lines are all plain;
        None when one is not (then :meth:`one_by_one` reads it).  Nothing is counted until :meth:`commit`.  Without
        ``split`` the tokens are None: only their places (``self.spans``) are wanted."""
        u = np.frombuffer(buf, dtype=np.uint8)
        ends = np.flatnonzero(u == 10)
        if buf[-1:] != b"\n":
            ends = np.append(ends, len(u))
        starts = np.empty_like(ends)
        starts[0], starts[1:] = 0, ends[:-1] + 1
        if int((ends - starts).max()) > MAX_LINE_BYTES:
            return None
        space = (u == 32) | ((u >= 9) & (u <= 13))   # the separators of bytes.split(): " \t\n\v\f\r"
        word = ~space
        begins, last = word.copy(), word
        begins[1:] &= space[:-1]
        last[:-1] &= space[1:]
        begins, last = np.flatnonzero(begins), np.flatnonzero(last)   # each token's first and last byte
        first_token = np.searchsorted(begins, starts)   # index of each line's first token (if it has one)
        counts = np.diff(np.append(first_token, len(begins)))
        blank = counts == 0
        if not (counts[~blank] == self.fields).all():
            return None
        if b"#" in buf and (u[begins[first_token[~blank]]] == ord("#")).any():
            return None   # a comment line
        n_blank = int(blank.sum())
        if self.skipped + n_blank > MAX_SKIPPED_LINES and self._flood(np.flatnonzero(blank)):
            return None
        id_tokens = np.add.outer(np.arange(0, len(begins), self.fields), self.ids)   # every line's id fields
        if len(begins) and int((last - begins)[id_tokens].max()) >= MAX_ID_BYTES:   # a length - 1
            return None
        tokens = buf.split() if split else None
        linenos = self.lineno + 1 + np.flatnonzero(~blank)
        self.spans = u, begins, last - begins + 1   # where each token is, for the numbers read in bulk
        return tokens, linenos, (self.lineno + len(ends), self.skipped + n_blank, self.data + len(ends) - n_blank)

    def numbers(self, field, integer):
        """The values of every line's ``field`` in the chunk :meth:`bulk` just split, read in bulk as numbers
        written ``[+-]digits[.digits]`` of at most 15 digits (strtod's value, as float() reads them); with
        ``integer`` whole numbers >= 0 written with digits only (ndeval's naturalNumber).  None when a token has
        another form: the caller then reads them one by one."""
        u, begins, lengths = self.spans
        start, length = begins[field::self.fields], lengths[field::self.fields]
        if integer and len(start) and not ((u[start] >= 48) & (u[start] <= 57)).all():
            return None   # a sign: no natural number
        values = parse_decimals(u, start, length, integer)
        return None if values is None else values.tolist()

    def _flood(self, blank_lines):
        """Whether a blank line of the chunk is one too many: beyond MAX_SKIPPED_LINES, more than the data lines."""
        order = np.arange(1, len(blank_lines) + 1)
        skipped = self.skipped + order
        data = self.data + blank_lines + 1 - order   # the data lines before each blank line
        return bool(((skipped > MAX_SKIPPED_LINES) & (skipped > data)).any())

    def commit(self, tokens, counts):
        if self.first is None and tokens:
            self.first = tokens[:self.fields]
        self.lineno, self.skipped, self.data = counts

    def one_by_one(self, buf):
        """(line number, fields) of every data line of the chunk, read and checked one line at a time."""
        path, fields, what = self.path, self.fields, self.what
        f = io.BytesIO(buf)
        while True:
            raw = f.readline(MAX_LINE_BYTES + 1)
            if not raw:
                return
            self.lineno += 1
            lineno = self.lineno
            if len(raw.rstrip(b"\r\n")) > MAX_LINE_BYTES:
                raise InputFileError(path, lineno, f"the line is longer than {MAX_LINE_BYTES:,} bytes (irlab's "
                                                   "limit MAX_LINE_BYTES; a TREC line has under 200 bytes)")
            toks = raw.split()
            if not toks or toks[0].startswith(b"#"):
                self.skipped += 1
                if self.skipped > MAX_SKIPPED_LINES and self.skipped > self.data:
                    raise InputFileError(path, lineno, f"{self.skipped:,} blank or comment lines and {self.data:,} "
                                                       f"data lines: beyond {MAX_SKIPPED_LINES:,}, blank and "
                                                       "comment lines may not outnumber data lines (irlab's limit "
                                                       "MAX_SKIPPED_LINES)")
                continue
            if len(toks) < fields or (what == "qrels" and len(toks) > fields):
                layout = ("topic subtopic docno judgment (TREC diversity qrels)" if what == "qrels"
                          else "topic Q0 docno rank score runid")
                raise InputFileError(path, lineno, f"expected {fields} fields ({layout}), found {len(toks)}")
            for name, token in (("topic id", toks[0]), ("docno", toks[2])) + (
                    (("subtopic", toks[1]),) if what == "qrels" else ()):
                if len(token) > MAX_ID_BYTES:
                    raise InputFileError(path, lineno, f"{name} {shown_id(token)} has {len(token):,} bytes; a "
                                                       f"{name} has at most {MAX_ID_BYTES} (irlab's limit "
                                                       "MAX_ID_BYTES)")
            self.data += 1
            if self.first is None:
                self.first = toks
            yield lineno, toks


def natural_number(path, lineno, token, what, why):
    """A whole number >= 0 written with ASCII digits (ndeval's naturalNumber), at most 15 of them."""
    if not DIGITS.match(token):
        sign = token.startswith(b"-") and DIGITS.match(token[1:])
        problem = "is negative" if sign else "is not a whole number"
        raise InputFileError(path, lineno, f"{what} {shown_id(token)} {problem}: {why}")
    if len(token) > _MAX_NUMBER_DIGITS:
        raise InputFileError(path, lineno, f"{what} {shown_id(token)} has more than {_MAX_NUMBER_DIGITS} digits")
    return int(token)


def natural_numbers(tokens):
    """The numbers of ``tokens`` when each is a natural number of at most 15 digits (checked in bulk), else None."""
    joined = b"".join(tokens)
    if not joined.isdigit():
        return None if tokens else []
    if len(joined) == len(tokens):   # one digit each, as judgments usually are: their values are the bytes' less 48
        return list(joined.translate(_DIGIT_VALUES))
    if max(map(len, tokens)) > _MAX_NUMBER_DIGITS:
        return None
    return list(map(int, tokens))


_DIGIT_VALUES = bytes(range(256))[:48] + bytes(range(10)) + bytes(range(58, 256))   # b"7" -> b"\x07"


@dataclass(frozen=True)
class TopicIntents:
    """The judgments of one topic.

    ``subtopics``: the subtopics with at least one relevant document, in ndeval's order (by number when every
    subtopic id is a number, else by byte order); ``relevant``: docno -> indices into ``subtopics`` of the
    subtopics it is relevant to (increasing); ``judged``: every judged docno; ``per_subtopic``: relevant documents
    of each subtopic."""

    subtopics: tuple
    relevant: dict
    judged: frozenset
    per_subtopic: tuple


@dataclass(frozen=True)
class DiversityQrels:
    path: str
    topics: dict   # topic id (bytes) -> TopicIntents
    relevance_level: int = 1


@dataclass(frozen=True)
class DiversityRun:
    path: str
    runid: str
    topics: dict   # topic id (bytes) -> docnos (bytes) in rank order
    traditional: bool = False


def subtopic_order(names):
    """ndeval's subtopic order (its subtopics are numbers, summed in that order); any other ids by byte order."""
    if all(DIGITS.match(n) for n in names):
        return sorted(names, key=lambda n: (int(n), n))
    return sorted(names)


def finite_scores(tokens):
    """The scores of ``tokens`` when each is a finite number (checked in bulk), else None."""
    # written with these bytes only, a token float() reads is one FLOAT_TOKEN matches (no '_', 'inf' or 'nan')
    if b"".join(tokens).translate(None, b"0123456789.eE+-"):
        return None
    try:
        values = list(map(float, tokens))
    except ValueError:
        return None
    return values if all(map(math.isfinite, values)) else None


def dcg_discount(i):
    """ndeval's DCG discount at the 0-based rank i: log(2)/log(i+2)."""
    return math.log(2.0) / math.log(i + 2.0)


@functools.lru_cache(maxsize=16)
def beta_powers(beta, n):
    """β^0 ... β^(n-1), each one factor more than the one before, as ndeval computes β^i at rank i: shared by a
    run's topics (n is a power of two, so a few lengths serve every topic)."""
    out, decay = [], 1.0
    for _ in range(n):
        out.append(decay)
        decay *= beta
    return tuple(out)


@functools.lru_cache(maxsize=1024)   # the same few (S, α, k) for every topic and measure of a run
def ideal_ideal(n_subtopics, alpha, k, discounted):
    """ndeval's "ideal ideal" normaliser: every document relevant to every subtopic, gain S(1-α)^i at the 0-based
    rank i, discounted as ``discounted(gain, i)`` and summed over the top k."""
    total, gain = 0.0, float(n_subtopics)
    for i in range(k):
        total += discounted(gain, i)
        gain *= 1.0 - alpha
    return total


def dcg_term(gain, i):
    """alpha-DCG's term at the 0-based rank i, as ndeval computes it."""
    return gain * dcg_discount(i)


def err_term(gain, i):
    """ERR-IA's term at the 0-based rank i, as ndeval computes it."""
    return gain / (i + 1.0)
