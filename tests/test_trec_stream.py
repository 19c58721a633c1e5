"""A run grouped by topic is streamed (irlab.trec.stream): the same evaluation as reading it whole.

Reference: the whole-file path (read_inputs(..., stream=False)), itself checked against trec_eval 10.0 and the exact
per-topic evaluator elsewhere.  Chunks of a few dozen bytes make topics straddle chunks; runs with ties, unsorted
scores, topics without judgments and judged topics without results; -M, -c, -J and -l.
"""

from __future__ import annotations

import importlib

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import irlab.trec.readers as readers
from irlab.errors import InputFileError
from irlab.trec.measures import compute_all, parse_measures
from irlab.trec.stream import RankedRun, read_ranked

evaluate_module = importlib.import_module("irlab.trec.evaluate")   # irlab.trec.evaluate is also a function
stream_module = importlib.import_module("irlab.trec.stream")

MEASURES = parse_measures(["all_trec"])


@st.composite
def collections(draw):
    topics = draw(st.lists(st.sampled_from(["1", "2", "10", "301", "a7", "topic-xyz-0000000042"]), min_size=1,
                           max_size=5, unique=True))
    docs = [f"D{i}" for i in range(draw(st.integers(1, 12)))] + ["LONG-DOCNO-0000000000000017"]
    run, qrels = [], []
    for topic in topics:
        if draw(st.booleans()) or topic == topics[0]:
            retrieved = draw(st.lists(st.sampled_from(docs), min_size=1, max_size=len(docs), unique=True))
            scores = draw(st.lists(st.sampled_from([0.5, 1.0, 1.25, 2.0, 3.75, -1.5]), min_size=len(retrieved),
                                   max_size=len(retrieved)))
            if draw(st.booleans()):   # as TREC runs are written: by decreasing score
                scores.sort(reverse=True)
            run += [f"{topic} Q0 {d} {i + 1} {s} run{len(topic)}\n" for i, (d, s) in enumerate(zip(retrieved, scores))]
        if draw(st.booleans()) or topic == topics[0]:
            judged = draw(st.lists(st.sampled_from(docs), min_size=1, max_size=len(docs), unique=True))
            qrels += [f"{topic} 0 {d} {draw(st.integers(-1, 3))}\n" for d in judged]
    return "".join(qrels), "".join(run)


def _both(tmp_path, qrels_text, run_text, **options):
    (tmp_path / "qrels").write_text(qrels_text)
    (tmp_path / "run").write_text(run_text)
    qrels, ranked, joined = evaluate_module.read_inputs(tmp_path / "qrels", tmp_path / "run")
    assert isinstance(ranked, RankedRun) and joined is None
    whole = evaluate_module.read_inputs(tmp_path / "qrels", tmp_path / "run", stream=False)
    assert not isinstance(whole[1], RankedRun)
    streamed = evaluate_module.prepare(qrels, ranked, joined=joined, **options)
    read_whole = evaluate_module.prepare(*whole[:2], joined=whole[2], **options)
    return streamed, read_whole, ranked, whole[1]


@settings(max_examples=150, deadline=None)
@given(data=collections(), chunk=st.sampled_from([16, 40, 97, 1 << 20]), threads=st.sampled_from([1, 2]),
       options=st.fixed_dictionaries({"depth": st.sampled_from([None, 0, 1, 3]), "complete": st.booleans(),
                                      "judged_only": st.booleans(), "relevance_level": st.integers(0, 2)}))
def test_streamed_run_evaluates_as_the_whole_file(tmp_path_factory, data, chunk, threads, options):
    tmp_path = tmp_path_factory.mktemp("stream")
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(readers, "_CHUNK_BYTES", chunk)
        mp.setattr(readers, "_THREADS", threads)
        streamed, whole, ranked, run = _both(tmp_path, *data, **options)
    for name in ("names", "nret", "rel", "seg", "pos", "rel_levels", "maxgrade", "missing", "runid"):
        assert np.array_equal(np.asarray(getattr(streamed, name)), np.asarray(getattr(whole, name))), name
    assert ranked.topics.tolist() == run.topics.tolist() and ranked.runid == run.runid
    a, b = compute_all(streamed, MEASURES), compute_all(whole, MEASURES)
    assert repr(a.per_topic) == repr(b.per_topic) and repr(a.summary) == repr(b.summary)   # equal floats, nan too


def test_a_run_not_grouped_by_topic_is_read_whole(tmp_path, monkeypatch):
    monkeypatch.setattr(readers, "_CHUNK_BYTES", 16)
    (tmp_path / "qrels").write_text("1 0 a 1\n2 0 b 1\n")
    (tmp_path / "run").write_text("1 Q0 a 1 2 r\n2 Q0 b 1 2 r\n1 Q0 c 2 1 r\n")
    qrels = readers.read_qrels(tmp_path / "qrels")
    assert read_ranked(qrels, tmp_path / "run") is None
    result = evaluate_module.evaluate(tmp_path / "qrels", tmp_path / "run", ["num_ret", "map"])
    assert result["1"]["num_ret"] == 2 and result["1"]["map"] == 1.0


def test_qrels_rows_in_any_order_join_alike(tmp_path, monkeypatch):
    """The streamed join takes each chunk's topics' judgments by topic; Qrels built elsewhere (not by read_qrels,
    which sorts them by topic) with rows in another order give the same judged documents."""
    monkeypatch.setattr(readers, "_CHUNK_BYTES", 16)
    (tmp_path / "qrels").write_text("1 0 a 1\n1 0 c 0\n2 0 a 2\n2 0 b 1\n")
    (tmp_path / "run").write_text("1 Q0 a 1 2 r\n1 Q0 c 2 1 r\n2 Q0 b 1 2 r\n2 Q0 a 2 1 r\n")
    qrels = readers.read_qrels(tmp_path / "qrels")
    shuffled = readers.Qrels(qrels.path, qrels.topics, *(column[[3, 0, 2, 1]] for column in
                                                         (qrels.topic_idx, qrels.docno, qrels.grade)))
    for given in (qrels, shuffled):
        ranked = read_ranked(given, tmp_path / "run")
        found = sorted(zip(ranked.seg.tolist(), ranked.pos.tolist(), given.docno[ranked.qrow].tolist()))
        assert found == [(0, 0, b"a"), (0, 1, b"c"), (1, 0, b"b"), (1, 1, b"a")]


def test_a_progress_bar_does_not_stop_the_streaming(tmp_path, monkeypatch):
    """With progress reported (irlab eval on a terminal) the run is streamed all the same; the fractions rise to 1,
    the qrels' share (by bytes on disk) first."""
    monkeypatch.setattr(readers, "_CHUNK_BYTES", 16)
    (tmp_path / "qrels").write_text("1 0 a 1\n2 0 b 1\n")
    (tmp_path / "run").write_text("1 Q0 a 1 2 r\n1 Q0 c 2 1 r\n2 Q0 b 1 2 r\n2 Q0 a 2 1 r\n")   # 52 bytes
    seen = []
    qrels, ranked, joined = evaluate_module.read_inputs(tmp_path / "qrels", tmp_path / "run", progress=seen.append)
    assert isinstance(ranked, RankedRun) and joined is None
    assert seen == sorted(seen) and seen[-1] == 1.0 and 16 / 68 in seen   # 16 qrels bytes of 68
    assert ranked.nret.tolist() == [2, 2] and ranked.pos.tolist() == [0, 0]


class _QrelsStillBeingRead:
    """A future of read qrels that says it is not done the first ``waits`` times it is asked."""

    def __init__(self, qrels, waits):
        self.qrels, self.waits = qrels, waits

    def done(self):
        self.waits -= 1
        return self.waits < 0

    def result(self):
        return self.qrels


@pytest.mark.parametrize("waits", [0, 2, 5, 1000])
@pytest.mark.parametrize("backlog", [1, 3, 16])
def test_chunks_parsed_while_the_qrels_are_read_are_joined_alike(tmp_path, monkeypatch, waits, backlog):
    """The run's chunks parsed before the qrels are read (kept, at most _BACKLOG_CHUNKS, or all of a short run)
    give the same ranked run as when the qrels came first; topics run across chunks."""
    monkeypatch.setattr(readers, "_CHUNK_BYTES", 40)
    monkeypatch.setattr(stream_module, "_BACKLOG_CHUNKS", backlog)
    (tmp_path / "qrels").write_text("1 0 a 1\n1 0 c 0\n2 0 a 2\n2 0 b 1\n3 0 d 1\n")
    (tmp_path / "run").write_text("".join(f"{t} Q0 {d} {i} {9 - i} r\n" for t in (1, 2, 3)
                                          for i, d in enumerate("abcdefg")))
    qrels = readers.read_qrels(tmp_path / "qrels")
    first = read_ranked(qrels, tmp_path / "run")
    late = read_ranked(_QrelsStillBeingRead(qrels, waits), tmp_path / "run")
    for name in ("topics", "nret", "seg", "pos", "qrow"):
        assert getattr(late, name).tolist() == getattr(first, name).tolist(), name
    assert first.nret.tolist() == [7, 7, 7] and len(first.qrow) == 5


def test_a_bad_qrels_file_is_reported_before_a_bad_run_read_beside_it(tmp_path, monkeypatch):
    monkeypatch.setattr(readers, "_THREADS", 2)   # the qrels read on a second thread while the run is read
    (tmp_path / "qrels").write_text("1 0 a one\n")
    with pytest.raises(InputFileError, match="qrels:1: grade 'one'"):
        evaluate_module.read_inputs(tmp_path / "qrels", tmp_path / "missing-run")
    (tmp_path / "run").write_text("1 Q0 a 1 2 r\n")
    with pytest.raises(InputFileError, match="qrels:1: grade 'one'"):
        evaluate_module.read_inputs(tmp_path / "qrels", tmp_path / "run")


@pytest.mark.parametrize("run, line", [("1 Q0 a 1 2 r\n1 Q0 b 2 1 r\n1 Q0 a 3 1 r\n", 3),   # a repeated docno
                                        ("1 Q0 a 1 2 r\n1 Q0 b 2 x r\n", 2),                  # a score that is no number
                                        ("1 Q0 a 1 2 r\n# a comment\n1 Q0 b 2 1 r\n1 Q0 b 3 1 r\n", 4)])
def test_the_whole_file_reader_names_the_line_at_fault(tmp_path, monkeypatch, run, line):
    monkeypatch.setattr(readers, "_CHUNK_BYTES", 16)
    (tmp_path / "qrels").write_text("1 0 a 1\n")
    (tmp_path / "run").write_text(run)
    with pytest.raises(InputFileError, match=f"run:{line}: "):
        evaluate_module.evaluate(tmp_path / "qrels", tmp_path / "run", ["map"])


single_spaced_token = st.text(st.characters(min_codepoint=33, max_codepoint=126), min_size=1, max_size=12).filter(
    lambda t: not t.startswith("#"))


@settings(max_examples=150, deadline=None)
@given(lines=st.lists(st.tuples(st.sampled_from(["1", "2", "301", "q7"]), single_spaced_token,
                                st.integers(0, 99), st.sampled_from(["0", "1.5", "-2.25", "12.125", "7", "x", "1e3"]),
                                st.sampled_from([" ", "\t", "  ", "\r"])), min_size=1, max_size=25),
       blanks=st.integers(0, 2))
def test_blank_separated_lines_split_as_the_general_splitting(lines, blanks):
    """_single_spaced (the usual file: one blank byte after every token) gives _numpy_parse the same columns as
    the general splitting, or declines; most drawn files have one blank after every token, some not."""
    text = "".join(f"{q} Q0 {d} {r} {s} run{sep if i < blanks else ' '}x\n"
                   for i, (q, d, r, s, sep) in enumerate(lines)).replace(" x\n", "\n")
    data = bytearray(text.encode())
    spec = readers.ColumnSpec("run")
    fast = readers._numpy_parse(spec, data)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(readers, "_single_spaced", lambda u, nf: None)
        general = readers._numpy_parse(spec, data)
    assert (fast is None) == (general is None)
    if fast is not None:
        assert [a.tolist() for a in fast[:2]] == [b.tolist() for b in general[:2]]
        assert fast[2].view(np.uint64).tolist() == general[2].view(np.uint64).tolist()
