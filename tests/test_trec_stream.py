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
    monkeypatch.setattr(stream_module, "_read_in_c", lambda *args: stream_module._DECLINED)   # the chunks' path
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


# ---------------------------------------------------------------------------
# the topics reduced in C as the run is split (_tokenize.topic_stream) against the chunks reduced by _Reducer


@st.composite
def ranked_runs(draw):
    """A qrels and a run text that stress the C reduction: ids near its 32-byte slots (and past them), topics whose
    names are prefixes of each other, long ties (past the 64 it ranks inside a tie), rising scores, topics without
    judgments, judgments never retrieved; sometimes a topic's lines apart, a docno twice, or a score in exponent
    form (which the C split declines)."""
    topics = draw(st.lists(st.sampled_from(["1", "10", "100", "7", "q-" + "x" * 29, "q-" + "y" * 30, "301"]),
                           min_size=1, max_size=4, unique=True))
    special = ["L" * 31 + "1", "L" * 32] + (["L" * 33] if draw(st.sampled_from(range(10))) == 5 else [])
    score_pool = draw(st.sampled_from([["1", "1.0", "0.5"], ["2.25", "-1.5", "3", "0"], ["4.125"]] * 3 + [["7", "1e3"]]))
    run, qrels = [], []
    for topic in topics:
        count = draw(st.sampled_from([1, 3, 20, 64, 65, 140]))
        retrieved = draw(st.permutations([f"D{i}" for i in range(count)] + special))[:count + len(special) // 2]
        scores = draw(st.lists(st.sampled_from(score_pool), min_size=len(retrieved), max_size=len(retrieved)))
        if draw(st.booleans()):
            scores.sort(key=float, reverse=True)
        if draw(st.sampled_from(range(10))) == 5:
            retrieved.append(retrieved[0])   # a docno twice in the topic
            scores.append(scores[0])
        run.append([f"{topic} Q0 {d} {i + 1} {s} run\n" for i, (d, s) in enumerate(zip(retrieved, scores))])
        if draw(st.booleans()) or topic == topics[0]:
            judged = draw(st.lists(st.sampled_from(retrieved + special + ["D999", "J" * 40]), min_size=1,
                                   max_size=30, unique=True))
            qrels += [f"{topic} 0 {d} {draw(st.integers(-1, 3))}\n" for d in judged]
    if len(run) > 1 and len(run[0]) > 1 and draw(st.sampled_from(range(10))) == 5:
        run.append([run[0].pop()])   # topics[0]'s last line after the other topics
    return "".join(qrels), "".join(line for block in run for line in block)


@settings(max_examples=300, deadline=None)
@given(data=ranked_runs(), chunk=st.sampled_from([16, 64, 200, 1 << 20]), threads=st.sampled_from([1, 2]))
def test_topics_reduced_in_c_as_by_the_chunks(tmp_path_factory, data, chunk, threads):
    """The C reduction gives _Reducer's ranked run bit for bit (its topics, num_ret, and each judged retrieved
    document's topic, rank and qrels row, in the same order), or None where _Reducer gives None, or declines; on two
    threads the run's halves are reduced apart (a file of two pieces or more)."""
    tmp_path = tmp_path_factory.mktemp("topics")
    (tmp_path / "qrels").write_text(data[0])
    (tmp_path / "run").write_text(data[1])
    qrels = readers.read_qrels(tmp_path / "qrels")
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(readers, "_CHUNK_BYTES", chunk)
        mp.setattr(readers, "_THREADS", threads)
        in_c = stream_module._read_in_c(qrels, tmp_path / "run", None)
        mp.setattr(stream_module, "_read_in_c", lambda *args: stream_module._DECLINED)
        by_chunks = read_ranked(qrels, tmp_path / "run")
    if in_c is stream_module._DECLINED:
        assert "1e3" in data[1] or "L" * 33 in data[1]   # what the C split does not take
        return
    assert (in_c is None) == (by_chunks is None)
    if in_c is not None:
        for name in ("topics", "nret", "seg", "pos", "qrow"):
            assert getattr(in_c, name).tolist() == getattr(by_chunks, name).tolist(), name
        assert in_c.runid == by_chunks.runid


def test_topics_reduced_in_c_rank_as_trec_eval(tmp_path, monkeypatch):
    """Ranks by hand (score descending, then docno descending, by bytes): a tie of 70 equal scores (past the 64 the C
    reduction ranks inside a tie, so the topic is sorted), a topic whose scores rise, and one in order."""
    monkeypatch.setattr(readers, "_CHUNK_BYTES", 100)
    tie = "".join(f"1 Q0 d{i:02d} {i} 5 r\n" for i in range(70))
    rising = "2 Q0 a 1 1 r\n2 Q0 b 2 3 r\n2 Q0 c 3 2 r\n2 Q0 d 4 3 r\n"
    ordered = "3 Q0 z 1 9 r\n3 Q0 y 2 4 r\n3 Q0 x 3 4 r\n3 Q0 w 4 1 r\n"
    (tmp_path / "run").write_text(tie + rising + ordered)
    (tmp_path / "qrels").write_text("1 0 d00 1\n1 0 d69 1\n1 0 d33 1\n2 0 a 1\n2 0 b 1\n2 0 c 1\n2 0 d 1\n"
                                    "3 0 w 1\n3 0 x 1\n3 0 y 1\n3 0 q 1\n")
    qrels = readers.read_qrels(tmp_path / "qrels")
    ranked = stream_module._read_in_c(qrels, tmp_path / "run", None)
    assert isinstance(ranked, RankedRun)
    found = sorted((ranked.topics[s].decode(), qrels.docno[q].decode(), p)
                   for s, p, q in zip(ranked.seg.tolist(), ranked.pos.tolist(), ranked.qrow.tolist()))
    assert found == [("1", "d00", 69), ("1", "d33", 36), ("1", "d69", 0),
                     ("2", "a", 3), ("2", "b", 1), ("2", "c", 2), ("2", "d", 0),   # b, d tie at 3: d first
                     ("3", "w", 3), ("3", "x", 2), ("3", "y", 1)]
    assert ranked.nret.tolist() == [70, 4, 4]


def test_topics_reduced_in_c_give_up_as_the_chunks_do(tmp_path, monkeypatch):
    """A topic's lines apart, or a docno twice in a topic: None at once (the whole-file reader then reads the run and
    names the line); a score in exponent form: declined, and the chunks decide."""
    monkeypatch.setattr(readers, "_CHUNK_BYTES", 16)
    (tmp_path / "qrels").write_text("1 0 a 1\n2 0 b 1\n")
    qrels = readers.read_qrels(tmp_path / "qrels")
    for run, expected in [("1 Q0 a 1 2 r\n2 Q0 b 1 2 r\n1 Q0 c 2 1 r\n", None),
                          ("1 Q0 a 1 2 r\n1 Q0 b 2 1 r\n1 Q0 a 3 1 r\n", None),
                          ("1 Q0 a 1 2e0 r\n2 Q0 b 1 2 r\n", stream_module._DECLINED)]:
        (tmp_path / "run").write_text(run)
        assert stream_module._read_in_c(qrels, tmp_path / "run", None) is expected
    result = evaluate_module.evaluate(tmp_path / "qrels", tmp_path / "run", ["num_ret"])   # read whole
    assert result["1"]["num_ret"] == 1 and result["2"]["num_ret"] == 1


def test_a_mapped_run_is_cut_in_halves_where_a_topic_starts(tmp_path, monkeypatch):
    """MappedChunks.halves cuts at the first line past the middle whose first token changes (blanks before it
    count, so a topic written with other blanks is cut inside: the halves then share a topic and one pass reads the
    run, with the same result); no cut when the middle topic runs to the end, or within the search."""
    monkeypatch.setattr(readers, "_CHUNK_BYTES", 16)
    lines = [f"{t} Q0 d{i} {i} {9 - i} r\n" for t in (5, 6, 7) for i in range(4)]
    (tmp_path / "run").write_text("".join(lines))
    with open(tmp_path / "run", "rb") as f:
        first, second = readers.MappedChunks(f).halves()
        assert bytes(b"".join(first)) == "".join(lines[:8]).encode()   # the middle falls in topic 6: cut before 7
        assert bytes(b"".join(second)) == "".join(lines[8:]).encode()
        assert readers.MappedChunks(f).halves(search=10) is None
    lines = [f"{t} Q0 d{i} {i} {9 - i} r\n" for t, n in ((5, 4), (6, 8), (7, 4)) for i in range(n)]
    tabbed = [line.replace("6 Q0", "6\tQ0") if line.startswith("6") and i % 2 else line for i, line in enumerate(lines)]
    (tmp_path / "run").write_text("".join(tabbed))
    with open(tmp_path / "run", "rb") as f:
        first, second = readers.MappedChunks(f).halves()
        assert bytes(b"".join(second)).startswith(b"6")   # topic 6 on both sides of the cut
    (tmp_path / "qrels").write_text("5 0 d1 1\n6 0 d2 1\n6 0 d0 1\n7 0 d3 1\n")
    qrels = readers.read_qrels(tmp_path / "qrels")
    monkeypatch.setattr(readers, "_THREADS", 2)
    halves = stream_module._read_in_c(qrels, tmp_path / "run", None)
    monkeypatch.setattr(readers, "_THREADS", 1)
    one = stream_module._read_in_c(qrels, tmp_path / "run", None)
    for ranked in (halves, one):
        found = sorted((ranked.topics[s].decode(), p) for s, p in zip(ranked.seg.tolist(), ranked.pos.tolist()))
        assert found == [("5", 1), ("6", 0), ("6", 2), ("7", 3)] and ranked.nret.tolist() == [4, 8, 4]
    (tmp_path / "run").write_text("".join(lines[:6]) + "".join(lines[:2]) + "".join(lines[12:]))   # 5 again after 6
    monkeypatch.setattr(readers, "_THREADS", 2)
    assert stream_module._read_in_c(qrels, tmp_path / "run", None) is None
