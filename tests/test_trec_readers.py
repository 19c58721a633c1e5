"""Reader tests: every bad input names file and line; gzip; comments."""

import gzip

import numpy as np
import pytest

from irlab.errors import InputFileError, IrlabError
from irlab.trec import evaluate, read_qrels, read_run

@pytest.fixture(autouse=True, params=["whole-file", "chunked"])
def reader_path(request, monkeypatch):
    """Run every test through both reading strategies."""
    import irlab.trec.readers as readers

    if request.param == "chunked":
        monkeypatch.setattr(readers, "_WHOLE_FILE_LIMIT", -1)
    return request.param


GOOD_RUN = "1 Q0 d1 1 3.0 r\n1 Q0 d2 2 2.0 r\n2 Q0 d1 1 1.5 r\n"
GOOD_QRELS = "1 0 d1 1\n1 0 d3 2\n2 0 d1 0\n"


def write(tmp_path, name, text, gz=False):
    p = tmp_path / name
    data = text.encode("utf-8") if isinstance(text, str) else text
    if gz:
        data = gzip.compress(data)
    p.write_bytes(data)
    return p


def error_for(reader, path):
    with pytest.raises(InputFileError) as ei:
        reader(path)
    return ei.value


@pytest.mark.parametrize("text,line,fragment", [
    ("1 Q0 d1 1 3.0 r\n1 Q0 d2 2 2.0\n", 2, "expected 6 fields"),
    ("1 Q0 d1 1 3.0 r\n\n1 Q0 d2 2 abc r\n", 3, "not a number"),
    ("1 Q0 d1 1 nan r\n", 1, "not a finite number"),
    ("1 Q0 d1 1 3.0 r\n1 Q0 d2 2 -inf r\n", 2, "not a finite number"),
    ("1 Q0 d1 1 3.0 r\n1 Q0 d2 2 2.0 r\n1 Q0 d1 3 1.0 r\n", 3, "duplicate docno 'd1' for topic '1'"),
    ("1 Q0 d1 1 1,5 r\n", 1, "not a number"),
])
def test_run_errors_name_file_and_line(tmp_path, text, line, fragment):
    p = write(tmp_path, "run.txt", text)
    err = error_for(read_run, p)
    assert err.line == line
    assert str(err).startswith(f"{p}:{line}: ")
    assert fragment in str(err)
    assert isinstance(err, IrlabError) and isinstance(err, ValueError)


@pytest.mark.parametrize("text,line,fragment", [
    ("1 0 d1 1\n1 0 d2\n", 2, "expected 4 fields"),
    ("1 0 d1 1\n1 0 d2 1 extra\n", 2, "expected 4 fields"),
    ("1 0 d1 1.7\n", 1, "grade '1.7' is not an integer"),
    ("1 0 d1 x\n", 1, "is not an integer"),
    ("1 0 d1 1\n2 0 d1 1\n1 0 d1 0\n", 3, "duplicate docno 'd1' for topic '1' in qrels"),
])
def test_qrels_errors_name_file_and_line(tmp_path, text, line, fragment):
    p = write(tmp_path, "qrels.txt", text)
    err = error_for(read_qrels, p)
    assert err.line == line
    assert f"{p}:{line}: " in str(err)
    assert fragment in str(err)


@pytest.mark.parametrize("reader", [read_run, read_qrels])
@pytest.mark.parametrize("text", ["", "\n\n", "# only a comment\n"])
def test_empty_files(tmp_path, reader, text):
    p = write(tmp_path, "f.txt", text)
    err = error_for(reader, p)
    assert str(p) in str(err) and "no data lines" in str(err)


def test_missing_file(tmp_path):
    err = error_for(read_run, tmp_path / "nope.txt")
    assert "nope.txt" in str(err) and "cannot open" in str(err)


def test_gzip_input_detected_by_magic(tmp_path):
    plain = write(tmp_path, "run.txt", GOOD_RUN)
    gz = write(tmp_path, "run.weird-extension", GOOD_RUN, gz=True)
    a, b = read_run(plain), read_run(gz)
    assert a.docno.tolist() == b.docno.tolist() and a.score.tolist() == b.score.tolist()
    qgz = write(tmp_path, "qrels.gz", GOOD_QRELS, gz=True)
    assert read_qrels(qgz).grade.tolist() == [1, 2, 0]


def test_gzip_errors_still_name_the_line(tmp_path):
    p = write(tmp_path, "run.gz", "1 Q0 d1 1 3.0 r\n1 Q0 d2 2 x r\n", gz=True)
    err = error_for(read_run, p)
    assert err.line == 2 and f"{p}:2:" in str(err)


def test_comment_and_blank_lines_skipped(tmp_path):
    text = "# header\n1 Q0 d1 1 3.0 r\n\n   # indented comment\n1 Q0 d2 2 2.0 r\n2 Q0 d1 1 1.5 r\n"
    run = read_run(write(tmp_path, "run.txt", text))
    assert run.docno.tolist() == [b"d1", b"d2", b"d1"]
    assert run.score.tolist() == [3.0, 2.0, 1.5]
    assert run.topic_names == ["1", "2"]
    # a line number after comments is still right
    bad = write(tmp_path, "bad.txt", text + "# c\n2 Q0 d9 1 oops r\n")
    assert error_for(read_run, bad).line == 8


def test_extra_fields_after_runid_are_ignored_like_trec_eval(tmp_path):
    run = read_run(write(tmp_path, "run.txt", "1 Q0 d1 1 3.0 r junk at end\n1 Q0 d2 2 2 r\n"))
    assert run.docno.tolist() == [b"d1", b"d2"]
    assert run.runid == "r"


def test_runid_is_last_lines_like_trec_eval(tmp_path):
    run = read_run(write(tmp_path, "run.txt", "1 Q0 d1 1 3.0 first\n1 Q0 d2 2 2 last\n"))
    assert run.runid == "last"


def test_negative_grades_and_signs(tmp_path):
    q = read_qrels(write(tmp_path, "q.txt", "1 0 a -1\n1 0 b +2\n1 0 c 0\n"))
    assert q.grade.tolist() == [-1, 2, 0]


def test_non_ascii_docnos_take_the_careful_path(tmp_path):
    # b"\xc3\xa0" (a-grave) contains 0xa0, a "space" for numpy's parser but not for trec_eval
    text = "1 Q0 d\u00e0x 1 3.0 r\n1 Q0 d2 2 2.0 r\n".encode("utf-8")
    run = read_run(write(tmp_path, "run.txt", text))
    assert run.docno.tolist() == ["d\u00e0x".encode(), b"d2"]


def test_long_docnos_not_truncated(tmp_path):
    long = "x" * 70
    text = "1 Q0 a 1 3 r\n" * 0 + "".join(f"1 Q0 d{i} 1 {i} r\n" for i in range(50)) + f"1 Q0 {long} 1 0.5 r\n"
    run = read_run(write(tmp_path, "run.txt", text))
    assert run.docno[-1] == long.encode()


def test_large_file_chunked_and_duplicate_far_away(tmp_path, monkeypatch):
    import irlab.trec.readers as readers

    monkeypatch.setattr(readers, "_CHUNK_BYTES", 4096)
    lines = [f"{t} Q0 doc{d} {d} {1000 - d} run\n" for t in range(1, 6) for d in range(200)]
    p = write(tmp_path, "run.txt", "".join(lines))
    run = read_run(p)
    assert len(run) == 1000 and run.topic_names == ["1", "2", "3", "4", "5"]
    lines.append("2 Q0 doc7 1 0.1 run\n")
    p2 = write(tmp_path, "run2.txt", "".join(lines))
    err = error_for(read_run, p2)
    assert err.line == 1001 and "first on line 208" in str(err)


def test_evaluate_reports_no_common_topic(tmp_path):
    q = write(tmp_path, "q.txt", "9 0 d1 1\n")
    r = write(tmp_path, "r.txt", GOOD_RUN)
    with pytest.raises(IrlabError, match="no topic"):
        evaluate(q, r)


def test_topic_codes_and_ungrouped_topics(tmp_path):
    run = read_run(write(tmp_path, "r.txt", "b Q0 d1 1 1 r\na Q0 d1 1 1 r\nb Q0 d2 1 2 r\n"))
    assert run.topic_names == ["a", "b"]
    assert run.topic_idx.tolist() == [1, 0, 1]
    assert np.array_equal(run.score, [1.0, 1.0, 2.0])


@pytest.mark.parametrize("prefix", ["", "a-very-long-topic-id-"])
def test_interleaved_topics_use_hashed_coding(tmp_path, prefix):
    lines = [f"{prefix}{t} Q0 d{i} 1 {i % 7} r\n" for i in range(3000) for t in [(i * 7) % 13]]
    run = read_run(write(tmp_path, "r.txt", "".join(lines)))
    names = sorted({f"{prefix}{(i * 7) % 13}" for i in range(3000)})
    assert run.topic_names == names
    got = [run.topic_names[c] for c in run.topic_idx.tolist()]
    assert got == [line.split()[0] for line in lines]


def test_longer_values_in_later_chunks_widen_columns(tmp_path, monkeypatch):
    import irlab.trec.readers as readers

    monkeypatch.setattr(readers, "_CHUNK_BYTES", 1024)
    monkeypatch.setattr(readers, "_SAMPLE_BYTES", 1024)
    lines = [f"1 Q0 d{i} 1 {i} r\n" for i in range(300)]
    lines.append(f"{'t' * 40} Q0 {'x' * 90} 1 0.5 r\n")
    lines += [f"2 Q0 e{i} 1 {i} r\n" for i in range(100)]
    run = read_run(write(tmp_path, "r.txt", "".join(lines)))
    assert run.docno[300] == b"x" * 90
    assert "t" * 40 in run.topic_names
    qlines = [f"1 0 d{i} 1\n" for i in range(300)] + [f"1 0 {'y' * 50} 2\n"]
    q = read_qrels(write(tmp_path, "q.txt", "".join(qlines)))
    assert b"y" * 50 in q.docno.tolist()


def test_huge_grade_is_an_input_error(tmp_path):
    err = error_for(read_qrels, write(tmp_path, "q.txt", "1 0 a 1\n1 0 b 99999999999999999999999\n"))
    assert err.line == 2 and "out of range" in str(err)


def test_truncated_gzip_is_an_input_error(tmp_path):
    data = gzip.compress(GOOD_RUN.encode() * 50)
    p = tmp_path / "run.gz"
    p.write_bytes(data[: len(data) // 2])
    err = error_for(read_run, p)
    assert str(p) in str(err) and "cannot read file" in str(err)


def test_crlf_tabs_and_leading_blanks(tmp_path):
    text = "1\tQ0\td1\t1\t3.0\tr\r\n  1 Q0 d2 2   2.0 r\r\n\r\n2 Q0 d1 1 1.5 r"  # no final newline
    run = read_run(write(tmp_path, "run.txt", text))
    assert run.docno.tolist() == [b"d1", b"d2", b"d1"] and run.score.tolist() == [3.0, 2.0, 1.5]
    q = read_qrels(write(tmp_path, "q.txt", "1 0 d1 1\r\n1\t0\td2\t0\r\n"))
    assert q.grade.tolist() == [1, 0]


@pytest.mark.parametrize("layout", ["grouped", "interleaved"])
def test_thread_pool_and_chunk_boundaries_do_not_change_the_result(tmp_path, monkeypatch, layout):
    """The chunks are parsed on a thread pool; whatever the number of threads and
    wherever the chunk boundaries fall (mid-line, odd sizes), the rows, topics,
    docnos and the bits of every score are those of the single-threaded reader."""
    import irlab.trec.readers as readers

    rng = np.random.default_rng(7)
    lines = []
    for t in range(40):
        for r in range(int(rng.integers(1, 60))):
            docno = f"D{t:02d}-{int(rng.integers(0, 10**int(rng.integers(1, 12))))}-{r}"
            score = rng.choice([f"{rng.normal(0, 50):.{int(rng.integers(0, 9))}f}", str(int(rng.integers(-99, 99))),
                                f"{rng.random():.15f}", "+.5", "-0"])
            lines.append(f"{3 * t + 1} Q0 {docno} {r} {score} tag{t}\n")
    if layout == "interleaved":
        lines = [lines[i] for i in rng.permutation(len(lines))]
    path = write(tmp_path, "run.txt", "".join(lines))
    monkeypatch.setattr(readers, "_WHOLE_FILE_LIMIT", -1)
    results = []
    for threads, chunk in [(1, 1 << 20), (2, 97), (3, 1000), (4, 4093), (2, 1)]:
        monkeypatch.setattr(readers, "_THREADS", threads)
        monkeypatch.setattr(readers, "_CHUNK_BYTES", chunk)
        run = read_run(path)
        results.append((run.topics.tolist(), run.topic_idx.tolist(), run.docno.tolist(),
                        run.score.view(np.uint64).tolist(), run.runid))
    assert all(r == results[0] for r in results[1:])
    assert len(results[0][2]) == len(lines) and results[0][4] == lines[-1].split()[5]


def test_duplicate_check_in_slices_on_threads_reports_the_first(tmp_path, monkeypatch):
    """Slices of whole topics are checked for duplicates in parallel; the error names the same
    (first) duplicate as the sequential check, whichever slice finishes first."""
    import irlab.trec.readers as readers

    lines = [f"{t} Q0 d{r} {r} {10 - r} x\n" for t in range(1, 13) for r in range(4)]
    lines.insert(30, "8 Q0 d1 9 1 x\n")      # topic 8: d1 again (line 31)
    lines.insert(45, "12 Q0 d0 9 1 x\n")     # topic 12: d0 again
    path = write(tmp_path, "run.txt", "".join(lines))
    monkeypatch.setattr(readers, "_DUP_SLICE_ROWS", 5)
    messages = []
    for threads in (1, 2, 4):
        monkeypatch.setattr(readers, "_THREADS", threads)
        messages.append(str(error_for(read_run, path)))
    assert messages == [f"{path}:31: duplicate docno 'd1' for topic '8' in run (first on line 30)"] * 3


@pytest.mark.parametrize("threads", [1, 2])
def test_reading_both_files_reports_the_qrels_error_first(tmp_path, monkeypatch, threads):
    """evaluate() reads the qrels on a second thread while it reads the run; errors come out as in
    sequential reading: a bad qrels file first, then a bad run file."""
    import irlab.trec.readers as readers

    monkeypatch.setattr(readers, "_THREADS", threads)
    good_q, good_r = write(tmp_path, "q", GOOD_QRELS), write(tmp_path, "r", GOOD_RUN)
    bad_q, bad_r = write(tmp_path, "bq", "1 0 d1 x\n"), write(tmp_path, "br", "1 Q0 d1 1 x r\n")
    for qrels, run, name in [(bad_q, bad_r, bad_q), (good_q, bad_r, bad_r), (bad_q, good_r, bad_q)]:
        with pytest.raises(InputFileError) as err:
            evaluate(qrels, run, ["map"])
        assert str(err.value).startswith(f"{name}:1: ")
    q, r = readers.read_both(good_q, good_r)
    assert (q.docno.tolist(), r.docno.tolist()) == ([b"d1", b"d3", b"d1"], [b"d1", b"d2", b"d1"])


def test_threads_follow_the_idle_cores(monkeypatch):
    """One thread per idle core (Linux's runnable-task count, this program's thread included), at most 4;
    a forced count wins; without /proc/loadavg, every core."""
    import io

    import irlab.trec.readers as readers

    monkeypatch.setattr(readers, "_THREADS", None)
    monkeypatch.setattr(readers.os, "sched_getaffinity", lambda pid: set(range(8)), raising=False)
    for loadavg, expected in [("0.5 0.4 0.3 1/90 123\n", 4), ("2.0 2.0 2.0 6/90 123\n", 3),
                              ("3.0 2.0 2.0 9/90 123\n", 1)]:
        monkeypatch.setattr(readers, "open", lambda *a, text=loadavg, **k: io.StringIO(text), raising=False)
        assert readers.threads() == expected
    monkeypatch.setattr(readers.os, "sched_getaffinity", lambda pid: {0, 1}, raising=False)
    monkeypatch.setattr(readers, "open", lambda *a, **k: io.StringIO("1.0 1.0 1.0 2/90 123\n"), raising=False)
    assert readers.threads() == 1

    def unreadable(*args, **kwargs):
        raise OSError("no /proc")

    monkeypatch.setattr(readers, "open", unreadable, raising=False)
    assert readers.threads() == 2
    monkeypatch.setattr(readers, "_THREADS", 3)
    assert readers.threads() == 3
