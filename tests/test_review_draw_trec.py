"""Adversarial review of the TREC readers around the mapped run (readers.MappedChunks): runs the mapping cannot
serve (a FIFO, a pipe, a file in /proc) and runs it serves at its edges (CRLF lines, no final newline, a line
longer than MAX_LINE_BYTES at a piece's edge, a file of exactly one piece or one piece and a byte, a symlink)
give what the read pieces give: the same RankedRun, the same progress and the same errors naming file:line.

Reference: read_ranked over file_chunks' read pieces (readers.mapped_or_read made to read), and for a pipe a
clear refusal instead of a hang or Python's "File or stream is not seekable"."""

import os
import subprocess
import sys
import threading
from pathlib import Path

import numpy as np
import pytest

import irlab.trec.readers as readers
from irlab.errors import IrlabError
from irlab.trec.readers import read_qrels
from irlab.trec.stream import read_ranked

stream_module = sys.modules["irlab.trec.stream"]
ROOT = Path(__file__).resolve().parent.parent

QRELS = "".join(f"{t} 0 d{d} {(t * d) % 3}\n" for t in range(1, 4) for d in range(1, 20))
RUN_LINES = [f"{t} Q0 d{d} {r} {50 - r}.25 sys" for t in range(1, 4) for r, d in enumerate((3, 1, 7, 12, 5, 19, 2), 1)]


def _evaluate(args, **kwargs):
    """``irlab eval`` in a child process: a reader that blocks fails the test by its timeout, never hangs it."""
    return subprocess.run([sys.executable, "-m", "irlab", "eval", "-m", "map", "-m", "P.5", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=60, **kwargs)


def test_a_fifo_run_is_refused_naming_it(tmp_path):
    if not hasattr(os, "mkfifo"):
        pytest.skip("no FIFOs here")
    (tmp_path / "qrels").write_text(QRELS)
    fifo = tmp_path / "run.fifo"
    os.mkfifo(fifo)
    # the writer waits for a reader; it is ended below whatever the reader did
    writer = subprocess.Popen(["sh", "-c", f"cat > '{fifo}'"], stdin=subprocess.PIPE, stderr=subprocess.DEVNULL)
    threading.Thread(target=lambda: _write_quietly(writer, "\n".join(RUN_LINES) + "\n"), daemon=True).start()
    try:
        done = _evaluate([str(tmp_path / "qrels"), str(fifo)])
    finally:
        writer.kill()
        writer.wait()
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith(f"irlab: error: {fifo}: ") and "pipe" in done.stderr and "a file" in done.stderr


def test_a_pipe_given_as_dev_fd_is_refused_naming_it(tmp_path):
    (tmp_path / "qrels").write_text(QRELS)
    read, write = os.pipe()
    name = f"/dev/fd/{read}"
    if not os.path.exists(name):
        os.close(read), os.close(write)
        pytest.skip("no /dev/fd here")
    feeder = threading.Thread(target=_feed, args=(write, ("\n".join(RUN_LINES) + "\n").encode()), daemon=True)
    feeder.start()
    try:
        done = _evaluate([str(tmp_path / "qrels"), name], pass_fds=(read,))
    finally:
        os.close(read)
    assert done.returncode == 2 and done.stderr.startswith(f"irlab: error: {name}: ") and "pipe" in done.stderr


def _write_quietly(process, text):
    try:
        process.communicate(text.encode(), timeout=60)
    except (BrokenPipeError, subprocess.TimeoutExpired, ValueError, OSError):
        pass


def _feed(fd, data):
    try:
        os.write(fd, data)
    except OSError:
        pass
    finally:
        os.close(fd)


def _ranked(path, qrels, mapped):
    shares = []
    with pytest.MonkeyPatch.context() as patch:
        if not mapped:
            patch.setattr(stream_module, "mapped_or_read", lambda f: (readers.file_chunks(f), None))
        try:
            ranked = read_ranked(qrels, path, shares.append)
        except IrlabError as error:
            return str(error), shares
    if ranked is None:
        return None, shares
    return {key: value.tolist() if isinstance(value, np.ndarray) else value for key, value in vars(ranked).items()}, \
        [round(share, 12) for share in shares]


def _edge_files(tmp_path, chunk, bound):
    text = "\n".join(RUN_LINES)
    files = {"lf": text + "\n", "no-final-newline": text, "crlf": text.replace("\n", "\r\n") + "\r\n",
             "crlf-no-final-newline": text.replace("\n", "\r\n")}
    first = RUN_LINES[0] + "\n"
    for offset in (-1, 0, 1):  # a line longer than the bound starting just before, at and after a piece's edge
        pad = max(chunk - len(first) + offset, 0)
        files[f"long-at-edge{offset:+d}"] = first + "#" * pad + "\n" * (pad > 0) + "1 Q0 dx 9 1.0 " + "y" * (bound + 5) \
            + "\n" + "\n".join(RUN_LINES[1:]) + "\n"
    one_piece = (text + "\n").encode()[:chunk]
    files["one-piece"] = one_piece.decode()
    files["one-piece-and-a-byte"] = (text + "\n").encode()[:chunk + 1].decode()
    paths = {}
    for name, content in files.items():
        path = tmp_path / name
        path.write_bytes(content.encode())
        paths[name] = path
    link = tmp_path / "link"
    link.symlink_to(paths["lf"])
    paths["symlink"] = link
    return paths


@pytest.mark.skipif(readers.compiled() is None, reason="the mapping serves the compiled parse only")
@pytest.mark.parametrize("chunk, bound", [(64, 80), (97, 40), (len(RUN_LINES[0]) + 1, 30), (4096, 200)])
@pytest.mark.parametrize("workers", [1, 3])  # pieces read ahead of the parse: the progress shares move with them
def test_mapped_runs_at_the_edges_read_as_read_pieces(tmp_path, chunk, bound, workers):
    (tmp_path / "qrels").write_text(QRELS)
    qrels = read_qrels(tmp_path / "qrels")
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(readers, "_CHUNK_BYTES", chunk)
        patch.setattr(readers, "MAX_LINE_BYTES", bound)
        patch.setattr(readers, "_THREADS", workers)  # else one per idle core, which the load changes between reads
        for name, path in _edge_files(tmp_path, chunk, bound).items():
            assert _ranked(path, qrels, mapped=True) == _ranked(path, qrels, mapped=False), name


def test_a_proc_file_and_the_qrels_as_run_are_refused_as_before(tmp_path):
    (tmp_path / "qrels").write_text(QRELS)
    if os.path.exists("/proc/self/status"):  # st_size 0: read, not mapped; its lines are not a run's
        done = _evaluate([str(tmp_path / "qrels"), "/proc/self/status"])
        assert done.returncode == 2 and done.stderr.startswith("irlab: error: /proc/self/status:1: expected 6 fields")
    done = _evaluate([str(tmp_path / "qrels"), str(tmp_path / "qrels")])
    assert done.returncode == 2 and f"{tmp_path / 'qrels'}:1: expected 6 fields" in done.stderr


def _pieces(path, mapped):
    with open(path, "rb") as f:
        return [bytes(piece) for piece in (readers.MappedChunks(f) if mapped else readers.file_chunks(f))]


@pytest.mark.parametrize("chunk, bound", [(16, 8), (64, 80), (7, 1)])
def test_mapped_pieces_where_a_line_ends_exactly_at_the_line_bound_past_a_piece_edge(tmp_path, chunk, bound):
    # file_chunks completes a piece with readline(MAX_LINE_BYTES + 1): a newline that many bytes past the edge
    # (or one more, or one less) ends the piece there or not at all; the mapped search must end at the same byte
    cases = 0
    for start in range(0, chunk + 1):  # the crossing line starts this many bytes before the edge (0: at it)
        for past in range(max(bound - 2, 0), bound + 3):  # and its newline is this many bytes past it
            head = b"a" * (chunk - start - 1) + b"\n" if chunk - start >= 1 else b""
            data = head + b"b" * (start + past) + b"\n" + b"c" * 3 + b"\n"
            path = tmp_path / f"{start}-{past}"
            path.write_bytes(data)
            with pytest.MonkeyPatch.context() as patch:
                patch.setattr(readers, "_CHUNK_BYTES", chunk)
                patch.setattr(readers, "MAX_LINE_BYTES", bound)
                assert _pieces(path, mapped=True) == _pieces(path, mapped=False), (start, past)
            cases += 1
    assert cases == (chunk + 1) * len(range(max(bound - 2, 0), bound + 3))
