"""A streamed run's file is mapped in memory (readers.MappedChunks): the pieces file_chunks reads, the same evaluation.

Reference: readers.file_chunks (reads the file into buffers), which the whole-file reader and gzip files keep using,
and read_ranked over those read pieces.  Pieces are compared byte for byte for any file (lines longer than the line
bound, no final newline, chunk sizes down to one byte); read_ranked's results with and without the mapping.
"""

from __future__ import annotations

import gzip
import importlib

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import irlab.trec.readers as readers
from irlab.trec.stream import read_ranked

stream_module = importlib.import_module("irlab.trec.stream")

needs_compiled = pytest.mark.skipif(readers.compiled() is None, reason="the mapping serves the compiled parse only")


def _read_pieces(path):
    with open(path, "rb") as f:
        return [bytes(p) for p in readers.file_chunks(f)]


def _mapped_pieces(path):
    with open(path, "rb") as f:
        chunks = readers.MappedChunks(f)
        pieces, shares = [], []
        for p in chunks:
            pieces.append(bytes(p))
            shares.append(chunks.done)
        return pieces, shares


@settings(max_examples=300, deadline=None)
@given(lines=st.lists(st.tuples(st.integers(0, 40), st.sampled_from(b"ab \t#\x00\xff")), min_size=1, max_size=40),
       final_newline=st.booleans(), chunk=st.integers(1, 64), bound=st.integers(1, 30))
def test_mapped_pieces_are_the_read_pieces(tmp_path_factory, lines, final_newline, chunk, bound):
    data = b"\n".join(bytes([c]) * n for n, c in lines) + (b"\n" if final_newline else b"")
    if not data:
        data = b"\n"
    path = tmp_path_factory.mktemp("mapped") / "file"
    path.write_bytes(data)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(readers, "_CHUNK_BYTES", chunk)
        mp.setattr(readers, "MAX_LINE_BYTES", bound)   # lines longer than the bound: pieces without a newline
        read = _read_pieces(path)
        mapped, shares = _mapped_pieces(path)
    assert mapped == read
    assert b"".join(mapped) == data
    assert shares == sorted(shares) and shares[-1] == 1.0


def test_what_cannot_be_mapped_is_read(tmp_path):
    (tmp_path / "empty").write_bytes(b"")
    with open(tmp_path / "empty", "rb") as f:
        chunks, share = readers.mapped_or_read(f)
        assert share is None and list(chunks) == []
    with gzip.open(tmp_path / "run.gz", "wb") as g:
        g.write(b"1 Q0 a 1 2 r\n")
    with readers.open_maybe_gzip(tmp_path / "run.gz") as f:
        chunks, share = readers.mapped_or_read(f)
        assert share is None and [bytes(p) for p in chunks] == [b"1 Q0 a 1 2 r\n"]


@needs_compiled
def test_a_plain_file_is_mapped(tmp_path):
    (tmp_path / "run").write_bytes(b"1 Q0 a 1 2 r\n")
    with open(tmp_path / "run", "rb") as f:
        chunks, share = readers.mapped_or_read(f)
        assert isinstance(chunks, readers.MappedChunks) and share() == 0.0
        assert [bytes(p) for p in chunks] == [b"1 Q0 a 1 2 r\n"] and share() == 1.0


@needs_compiled
@settings(max_examples=60, deadline=None)
@given(text=st.sampled_from([
    "1 Q0 a 1 2.5 r\n1 Q0 b 2 2 r\n2 Q0 a 1 0.25 r\n",
    "1 Q0 a 1 2.5 r\n1 Q0 b 2 12345678901234567.5 r\n",   # a number the C parse declines, numpy's takes
    "1 Q0 a 1 2.5 r\n# a comment\n1 Q0 b 2 2 r\n",          # declined by both: read whole
    "1 Q0 a 1 2.5 r\n2 Q0 a 1 2 r\n1 Q0 b 2 2 r\n",         # a topic not contiguous: read whole
    "1 Q0 a 1 2.5 r\n1 Q0 a 2 2 r\n",                        # a repeated docno: read whole
    "1 Q0 a 1 2.5 r\n1 Q0 b 2 2 r",                          # no final newline
]), chunk=st.sampled_from([4, 16, 40, 1 << 20]), threads=st.sampled_from([1, 2]))
def test_read_ranked_is_the_same_mapped_or_read(tmp_path_factory, text, chunk, threads):
    tmp_path = tmp_path_factory.mktemp("ranked")
    (tmp_path / "qrels").write_text("1 0 a 1\n1 0 b 2\n2 0 a 0\n")
    (tmp_path / "run").write_text(text)
    qrels = readers.read_qrels(tmp_path / "qrels")
    results = []
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(readers, "_CHUNK_BYTES", chunk)
        mp.setattr(readers, "_THREADS", threads)
        seen = []
        results.append(read_ranked(qrels, tmp_path / "run", progress=seen.append))
        assert seen == sorted(seen) and (results[0] is None or seen[-1] == 1.0)
        mp.setattr(stream_module, "mapped_or_read", lambda f: (readers.file_chunks(f), None))
        results.append(read_ranked(qrels, tmp_path / "run"))
    mapped, read = results
    assert (mapped is None) == (read is None)
    if mapped is not None:
        for name in ("topics", "nret", "seg", "pos", "qrow"):
            assert np.array_equal(getattr(mapped, name), getattr(read, name)), name
        assert mapped.runid == read.runid


@settings(max_examples=200, deadline=None)
@given(lines=st.lists(st.tuples(st.sampled_from(["1", "2", "a#", "\xe9"]), st.sampled_from(["Q0", ""]),
                                st.sampled_from(["a", "b", "D-0000000000000000000000000000000000001"]),
                                st.sampled_from(["2.5", "1e5", ".5", "12345678901234567.5", "x"])), min_size=1,
                      max_size=6), newline=st.booleans())
def test_a_mapped_piece_parses_as_its_bytes(lines, newline):
    """a memoryview (a mapped piece) gives what its bytes give, declined by the compiled parse or not"""
    data = "\n".join(f"{q} {z} {d} 1 {v} r" for q, z, d, v in lines).encode() + (b"\n" if newline else b"")
    spec = readers.ColumnSpec("run")
    got, want = readers._vector_parse(spec, memoryview(data)), readers._vector_parse(spec, bytearray(data))
    assert (got is None) == (want is None)
    assert got is None or all(np.array_equal(a, b) for a, b in zip(got, want))


@needs_compiled
def test_the_pages_of_pieces_parsed_long_ago_leave_the_process(tmp_path, monkeypatch):
    """their resident memory, not their bytes: the pieces read the same after their pages were dropped"""
    import mmap

    monkeypatch.setattr(readers, "_CHUNK_BYTES", mmap.PAGESIZE)
    data = b"".join(b"%d Q0 D%d 1 2.5 r\n" % (i // 50, i) for i in range(20 * mmap.PAGESIZE // 18))
    (tmp_path / "run").write_bytes(data)
    with open(tmp_path / "run", "rb") as f:
        chunks = readers.MappedChunks(f)
        pieces = list(chunks)
        assert len(pieces) > 12 and chunks.dropped % mmap.PAGESIZE == 0
        assert chunks.dropped >= (len(pieces) - 10) * mmap.PAGESIZE
        assert b"".join(bytes(p) for p in pieces) == data   # dropped pages are read again from the file
