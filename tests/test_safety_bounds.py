"""Issue 20, items 4 and 5: small hostile files end in one clear error, within seconds and bounded memory.

Every bound is in irlab/limits.py and named in its error. The hostile files are generated in a temporary
directory (never committed): a gzip bomb, a 2 GiB sparse file of NUL bytes, 100 MB of blank lines, a run line with
a 20 MB docno, TOML that Python's reader cannot take, class CSVs and a manifest too large or too deep.
"""

import gzip
import os
import subprocess
import sys
import threading
import time
import zlib

import pytest

from irlab import limits
from irlab.errors import InputFileError
from irlab.trec import read_qrels, read_run

QRELS = "1 0 d1 1\n1 0 d2 0\n"
RUN_LINE = b"1 Q0 d1 1 2.5 r\n"


@pytest.fixture(params=["whole-file", "chunked"])
def reader_path(request, monkeypatch):
    """The same file through both reading strategies (one piece, or chunks of 4 KB)."""
    import irlab.trec.readers as readers

    if request.param == "chunked":
        monkeypatch.setattr(readers, "_WHOLE_FILE_LIMIT", -1)
        monkeypatch.setattr(readers, "_CHUNK_BYTES", 4096)
    return request.param


def run_lines(count, start=0):
    return b"".join(b"1 Q0 d%d %d 1.0 r\n" % (i, i) for i in range(start, start + count))


def refused(reader, path):
    with pytest.raises(InputFileError) as caught:
        reader(path)
    return caught.value


# ---------------------------------------------------------------------------------------------------------------
# TREC readers: each bound at its edge, through both reading strategies


def test_a_line_of_max_line_bytes_is_read_and_one_byte_more_is_refused_naming_line_and_limit(tmp_path, reader_path):
    assert limits.MAX_LINE_BYTES == 10_000  # trec_eval 10.0's MAXLINE (get_trec_results.c)
    longest = b"1 Q0 dx 1 1.0 r" + b" " * (limits.MAX_LINE_BYTES - 15)
    assert len(longest) == limits.MAX_LINE_BYTES
    (tmp_path / "ok.txt").write_bytes(run_lines(3000) + longest + b"\n")
    assert len(read_run(tmp_path / "ok.txt")) == 3001
    (tmp_path / "long.txt").write_bytes(run_lines(3000) + longest + b" \n" + run_lines(5, 3000))
    error = refused(read_run, tmp_path / "long.txt")
    assert error.line == 3001
    assert "longer than 10,000 bytes" in error.problem and "MAX_LINE_BYTES" in error.problem


def test_leading_blanks_before_a_short_line_count_towards_its_length(tmp_path, reader_path):
    (tmp_path / "run.txt").write_bytes(run_lines(10) + b" " * limits.MAX_LINE_BYTES + b"1 Q0 dx 1 1.0 r\n")
    error = refused(read_run, tmp_path / "run.txt")
    assert error.line == 11 and "MAX_LINE_BYTES" in error.problem
    (tmp_path / "ok.txt").write_bytes(run_lines(10) + b" " * 100 + b"1 Q0 dx 1 1.0 r\n")
    assert len(read_run(tmp_path / "ok.txt")) == 11


@pytest.mark.parametrize("field,line", [
    ("docno", lambda name: b"1 Q0 " + name + b" 1 1.0 r\n"),
    ("topic id", lambda name: name + b" Q0 dx 1 1.0 r\n"),
])
def test_ids_of_max_id_bytes_are_read_and_longer_ones_refused_naming_line_and_limit(tmp_path, reader_path, field, line):
    assert limits.MAX_ID_BYTES == 255
    longest = b"x" * limits.MAX_ID_BYTES
    (tmp_path / "ok.txt").write_bytes(run_lines(2000) + line(longest))
    run = read_run(tmp_path / "ok.txt")
    assert len(run) == 2001
    assert longest in (run.docno.tolist() if field == "docno" else run.topics.tolist())
    for size in (256, 5000):
        (tmp_path / "long.txt").write_bytes(run_lines(2000) + line(b"x" * size) + run_lines(3, 2000))
        error = refused(read_run, tmp_path / "long.txt")
        assert error.line == 2001
        assert f"{field} 'xxx" in error.problem and f"has {size:,} bytes" in error.problem
        assert "at most 255 (irlab's limit MAX_ID_BYTES)" in error.problem


def test_qrels_docnos_are_bounded_too(tmp_path, reader_path):
    (tmp_path / "qrels.txt").write_bytes(b"1 0 d1 1\n1 0 " + b"y" * 300 + b" 0\n")
    error = refused(read_qrels, tmp_path / "qrels.txt")
    assert error.line == 2 and "has 300 bytes" in error.problem


def test_blank_and_comment_lines_up_to_the_limit_are_skipped_and_one_more_is_refused(tmp_path, reader_path):
    skipped = limits.MAX_SKIPPED_LINES
    assert skipped == 10_000
    mixed = b"".join(b"# comment\n" if i % 2 else b"\n" for i in range(skipped))
    (tmp_path / "ok.txt").write_bytes(mixed + RUN_LINE)
    assert len(read_run(tmp_path / "ok.txt")) == 1
    (tmp_path / "flood.txt").write_bytes(mixed + b"  \t\n" + RUN_LINE)
    error = refused(read_run, tmp_path / "flood.txt")
    assert error.line == skipped + 1
    assert "10,001 blank or comment lines up to here and 0 data lines" in error.problem
    assert "MAX_SKIPPED_LINES" in error.problem


def test_beyond_the_limit_blank_lines_may_be_as_many_as_the_data_lines(tmp_path, reader_path):
    data = run_lines(12_000)
    (tmp_path / "ok.txt").write_bytes(data + b"\n" * 12_000)
    assert len(read_run(tmp_path / "ok.txt")) == 12_000
    (tmp_path / "flood.txt").write_bytes(data + b"\n" * 12_001 + RUN_LINE)
    error = refused(read_run, tmp_path / "flood.txt")
    assert error.line == 24_001
    assert "12,001 blank or comment lines up to here and 12,000 data lines" in error.problem


def test_a_gzip_file_may_inflate_a_hundred_times_plus_slack_and_no_more(tmp_path, reader_path, monkeypatch):
    import irlab.trec.readers as readers

    monkeypatch.setattr(readers, "MAX_GZIP_SLACK", 0)   # the ratio alone, on a small file
    data = run_lines(20_000)
    packed = gzip.compress(data, 9)
    (tmp_path / "ok.txt.gz").write_bytes(packed)
    assert len(data) <= 100 * len(packed)
    assert len(read_run(tmp_path / "ok.txt.gz")) == 20_000
    # valid lines padded with blanks inflate far more than 100 times (and the ratio is checked before the lines)
    inflated = run_lines(100) + b"".join(b"2 Q0 e%d 1 1.0 r%s\n" % (i, b" " * 9900) for i in range(2000))
    (tmp_path / "bomb.txt.gz").write_bytes(gzip.compress(inflated, 9))
    assert len(inflated) > 100 * os.path.getsize(tmp_path / "bomb.txt.gz")
    error = refused(read_run, tmp_path / "bomb.txt.gz")
    assert error.line is None
    assert "inflates to more than" in error.problem and "MAX_GZIP_RATIO" in error.problem


def test_a_real_gzip_file_reads_as_the_plain_one(tmp_path, reader_path):
    data = run_lines(30_000)
    (tmp_path / "run.txt").write_bytes(data)
    (tmp_path / "run.txt.gz").write_bytes(gzip.compress(data))
    plain, packed = read_run(tmp_path / "run.txt"), read_run(tmp_path / "run.txt.gz")
    assert plain.docno.tolist() == packed.docno.tolist() and plain.score.tolist() == packed.score.tolist()


# ---------------------------------------------------------------------------------------------------------------
# the hostile files, end to end: one error from the command line, within seconds and bounded memory

SECONDS = 15        # each took minutes before (the machine is shared: generous)
PEAK_MIB = 400      # each took 1-5 GB before; about 40-160 MiB now, Python, numpy and irlab included


# Linux counts in a child's peak RSS the memory of the process it was forked from (a test run's pytest holds
# hundreds of MB): a small Python launcher starts irlab and reports irlab's own peak, measured by wait4
_LAUNCHER = """
import os, subprocess, sys
child = subprocess.Popen([sys.executable, "-m", "irlab", *sys.argv[2:]])
_, status, usage = os.wait4(child.pid, 0)
open(sys.argv[1], "w").write(f"{os.waitstatus_to_exitcode(status)} {usage.ru_maxrss}")
"""


def run_measured(argv, cwd):
    """(exit code, stderr, wall seconds, peak RSS in MiB) of ``python -m irlab ARGV`` in its own process."""
    with open(cwd / "stdout", "wb") as out, open(cwd / "stderr", "wb") as err:
        start = time.monotonic()
        launcher = subprocess.Popen([sys.executable, "-c", _LAUNCHER, str(cwd / "measured"), *argv], stdout=out,
                                    stderr=err, cwd=cwd, start_new_session=True)
        # a hang fails the test instead of blocking the suite
        watchdog = threading.Timer(120, lambda: os.killpg(launcher.pid, 9))
        watchdog.start()
        launcher.wait()
        watchdog.cancel()
        wall = time.monotonic() - start
    code, peak_kib = (cwd / "measured").read_text().split()
    return int(code), (cwd / "stderr").read_text(), wall, int(peak_kib) / 1024


def gzip_bomb(path, megabytes):
    packer = zlib.compressobj(9, zlib.DEFLATED, 31)   # 31: a gzip header
    block = b"\n" * (1 << 20)
    with open(path, "wb") as out:
        for _ in range(megabytes):
            out.write(packer.compress(block))
        out.write(packer.flush())


def make_bomb(path):
    gzip_bomb(path, 192)   # about 190 KB inflating to 192 MB of blank lines
    assert os.path.getsize(path) < 250_000


def make_sparse_nuls(path):
    with open(path, "wb") as out:
        out.truncate(2 << 30)   # 2 GiB of NUL bytes, none of them on disk


def make_blank_flood(path):
    with open(path, "wb") as out:
        block = b"\n" * (1 << 20)
        for _ in range(100):
            out.write(block)
        out.write(RUN_LINE)


def make_long_docno(path):
    path.write_bytes(b"1 Q0 " + b"D" * (20 << 20) + b" 1 1.0 r\n")


@pytest.mark.parametrize("make,limit", [
    (make_bomb, "MAX_GZIP_RATIO"),
    (make_sparse_nuls, "MAX_LINE_BYTES"),
    (make_blank_flood, "MAX_SKIPPED_LINES"),
    (make_long_docno, "MAX_LINE_BYTES"),
], ids=["gzip-bomb", "2GiB-of-NULs", "100MB-of-blank-lines", "20MB-docno"])
def test_hostile_runs_end_in_one_error_within_seconds_and_bounded_memory(tmp_path, make, limit):
    (tmp_path / "qrels.txt").write_text(QRELS)
    name = "run.gz" if make is make_bomb else "run.txt"
    make(tmp_path / name)
    code, stderr, wall, peak = run_measured(["eval", "qrels.txt", name], tmp_path)
    assert code == 2, stderr
    assert stderr.startswith(f"irlab: error: {name}") and limit in stderr
    assert "Traceback" not in stderr and len(stderr.splitlines()) == 1
    assert wall < SECONDS, f"{wall:.1f} s"
    assert peak < PEAK_MIB, f"{peak:.0f} MiB"


def test_pool_names_a_hostile_run_without_reading_its_endless_line(tmp_path):
    make_sparse_nuls(tmp_path / "run.txt")
    code, stderr, wall, peak = run_measured(["pool", "-k", "10", "run.txt"], tmp_path)
    assert code == 2 and stderr.startswith("irlab: error: run.txt:1: the line is longer than 10,000 bytes")
    assert wall < SECONDS and peak < PEAK_MIB, (wall, peak)


# ---------------------------------------------------------------------------------------------------------------
# exercise sets: TOML that Python's reader cannot take, and the set's size

SET_HEAD = 'id = "hostile"\ntitle = "t"\n\n[[exercise]]\nid = "1"\n'


def solve_error(tmp_path, text):
    path = tmp_path / "set.toml"
    path.write_text(text) if isinstance(text, str) else path.write_bytes(text)
    code, stderr, wall, _ = run_measured(["solve", "set.toml"], tmp_path)
    assert code == 2 and "Traceback" not in stderr and len(stderr.splitlines()) == 1, stderr
    assert wall < SECONDS
    return stderr


def test_an_integer_of_5001_digits_is_an_error_naming_file_and_line(tmp_path):
    stderr = solve_error(tmp_path, SET_HEAD + "k = " + "1" * 5001 + "\n")
    assert stderr == ("irlab: error: set.toml:6: an integer of more than 4,300 digits, Python's limit "
                      "(no exercise needs one)\n")


@pytest.mark.parametrize("nested", ["[" * 5000 + "1" + "]" * 5000, "{a = " * 5000 + "1" + "}" * 5000])
def test_values_nested_5000_deep_are_an_error_naming_the_file(tmp_path, nested):
    stderr = solve_error(tmp_path, SET_HEAD + "k = " + nested + "\n")
    assert stderr.startswith("irlab: error: set.toml: not a set irlab can read: arrays or inline tables nested "
                             "too deeply")


def test_a_set_larger_than_max_set_bytes_is_refused_unread(tmp_path):
    stderr = solve_error(tmp_path, SET_HEAD + "# " + "x" * limits.MAX_SET_BYTES + "\n")
    assert stderr == ("irlab: error: set.toml: more than 1,048,576 bytes: an exercise set is at most 1,048,576 "
                      "bytes (irlab's limit MAX_SET_BYTES; no real one is that large)\n")


def test_a_device_is_not_read_as_a_set(tmp_path):
    from irlab.exercise_set import load

    if not os.path.exists("/dev/zero"):
        pytest.skip("no /dev/zero")
    with pytest.raises(InputFileError, match="MAX_SET_BYTES"):
        load("/dev/zero")


# ---------------------------------------------------------------------------------------------------------------
# class files: answers CSV, roster CSV, manifest


def test_class_csvs_are_bounded_in_size_and_line_length(tmp_path, monkeypatch):
    from irlab.homework import identity
    from irlab.homework.grading import read_answers

    header = "student,exercise,question,answer\n"
    (tmp_path / "answers.csv").write_text(header + "alice,1,a," + "9" * limits.MAX_CSV_LINE + "\n")
    error = refused(read_answers, tmp_path / "answers.csv")
    assert error.line == 2
    assert error.problem == ("the line has 100,010 characters; a line of a class CSV has at most 100,000 "
                             "(irlab's limit MAX_CSV_LINE)")
    (tmp_path / "ok.csv").write_text(header + "alice,1,a," + "9" * (limits.MAX_CSV_LINE - 10) + "\n")
    assert read_answers(tmp_path / "ok.csv")[0].answer == "9" * (limits.MAX_CSV_LINE - 10)
    monkeypatch.setattr(identity, "MAX_CLASS_FILE_BYTES", 100)
    (tmp_path / "big.csv").write_text(header + "alice,1,a,0.5\n" * 10)
    error = refused(read_answers, tmp_path / "big.csv")
    assert error.problem.startswith("more than 100 bytes: a class CSV is at most 100 bytes (irlab's limit "
                                    "MAX_CLASS_FILE_BYTES")


def test_newlines_of_a_class_csv_are_read_as_before(tmp_path):
    from irlab.homework.grading import read_answers

    (tmp_path / "answers.csv").write_bytes(b"\xef\xbb\xbfstudent,exercise,question,answer\r\nalice,1,a,\"two\r\nlines\"\r"
                                           b"bob,1,a,0.5\r\n")
    rows = read_answers(tmp_path / "answers.csv")
    assert [(row.line, row.student, row.answer) for row in rows] == [(3, "alice", "two\nlines"), (4, "bob", "0.5")]


def test_a_roster_field_longer_than_the_csv_limit_is_an_error_not_a_traceback(tmp_path):
    from irlab.homework.identity import read_roster

    (tmp_path / "roster.csv").write_text('id,name\n"' + ("a" * 1000 + "\n") * 200 + '",b\n')
    error = refused(read_roster, tmp_path / "roster.csv")
    assert error.problem == "not valid CSV: field larger than field limit (131072)"


def test_a_manifest_nested_too_deeply_or_too_large_is_an_error(tmp_path, monkeypatch):
    from irlab.homework import identity

    (tmp_path / "manifest.json").write_text("[" * 100_000 + "]" * 100_000)
    error = refused(identity.read_manifest, tmp_path / "manifest.json")
    assert error.problem == "not a manifest written by irlab sheet (nested too deeply)"
    monkeypatch.setattr(identity, "MAX_CLASS_FILE_BYTES", 10)
    (tmp_path / "manifest.json").write_text('{"irlab_manifest": 1, "students": []}')
    error = refused(identity.read_manifest, tmp_path / "manifest.json")
    assert "a class manifest is at most 10 bytes (irlab's limit MAX_CLASS_FILE_BYTES" in error.problem


def test_sheet_refuses_a_deep_file_in_place_of_an_earlier_manifest_without_a_traceback(tmp_path):
    from pathlib import Path

    homework = Path(__file__).resolve().parents[1] / "exercises" / "homework-variants.toml"
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "manifest.json").write_text("[" * 100_000 + "]" * 100_000)
    (tmp_path / "roster.csv").write_text("id\nalice\n")
    code, stderr, _, _ = run_measured(["sheet", str(homework), "--roster", "roster.csv", "--out", "out"], tmp_path)
    assert code == 2 and stderr == ("irlab: error: out/manifest.json: cannot write: the file exists and is not a "
                                    "class manifest written by irlab sheet; move it or choose another --out\n")
