"""The compiled parse (irlab/trec/_tokenize.c, optional) gives exactly the numpy parse's arrays, or declines.

Where it takes a chunk, its qids, docnos and values (to the bit) are the numpy parse's; where it declines, the numpy
parse and the checked readers decide as they do without it.  It declines only what the numpy parse also declines,
plus three shapes no TREC file has (a byte 127 or another control byte than the blanks, a last line without its
newline), so it never sends a plain chunk down a slower path.  IRLAB_PURE_PYTHON=1 leaves it unused."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import irlab.trec.readers as readers
from irlab.trec import stream

compiled = pytest.mark.skipif(readers._tokenize is None,
                              reason="irlab.trec._tokenize is not built (no C compiler at install, or IRLAB_PURE_PYTHON)")

number = st.one_of(
    st.integers(-10**6, 10**6).map(str),
    st.tuples(st.integers(0, 10**7), st.integers(0, 10**7)).map(lambda t: f"{t[0]}.{t[1]}"),
    st.floats(-1e6, 1e6, allow_nan=False, allow_infinity=False).map(repr),   # 1e-05, -0.0, 123.456
    st.floats(allow_nan=True, allow_infinity=True).map(str),                 # nan, inf, 1.7976931348623157e+308
    st.sampled_from(["+3", "-0", "-0.0", ".5", "5.", "-.25", "+.", ".", "-", "0.1", "1e-5", "1E5", "NaN", "inf",
                     "123456789012345", "1234567890123456", "12345678901234567890", "-999999999999999",
                     "0.30000000000000004", "00000000000000.5", "007", "2.5E3", "1.2.3", "1-2", "0x10", "12.25"]),
)
token = st.text(st.characters(min_codepoint=33, max_codepoint=126, blacklist_characters="#"), min_size=1, max_size=40)
short_token = st.text(st.characters(min_codepoint=33, max_codepoint=126, blacklist_characters="#"), min_size=1,
                      max_size=32)
plain_number = st.one_of(st.integers(-10**6, 10**6).map(str),
                         st.decimals(-10**6, 10**6, places=4, allow_nan=False).map(str),
                         st.floats(-1e6, 1e6).map(repr).filter(lambda s: "e" not in s and sum(map(str.isdigit, s)) <= 15))
blank = st.sampled_from([" ", " ", " ", "\t", "  ", " \t ", "\r ", "\v", "\f"])
odd = st.sampled_from(["", "\n", "  \n", "# a comment\n", "1 Q0 d\n", "\x01", "\x00", "\x1c", "\x7f", "\xa0", "#",
                       "é", "\r\n"])


@st.composite
def chunk(draw, kind):
    """A chunk of run or qrels lines: blanks of every kind, CRLF, indented lines, long docnos, numbers of every shape;
    sometimes an odd line or byte that one of the parses must decline, or no final newline."""
    lines = []
    wild = draw(st.booleans())   # else ids of at most 32 bytes and plain decimals: chunks both parses take
    number_here = number if wild else plain_number
    for _ in range(draw(st.integers(1, 25))):
        docno = draw(st.one_of(token, st.sampled_from(["FR940405-2-00040", "clueweb12-0000tw-00-00000",
                                                       "msmarco_v2.1_doc_00_0#0"])) if wild else short_token)
        if kind == "run":
            fields = [draw(st.sampled_from(["1", "2", "301", "q7", "topic-with-a-long-name-over-32-bytes"][:4 + wild])),
                      "Q0",
                      docno, str(draw(st.integers(0, 999))), draw(number_here), draw(st.sampled_from(["run", "bm25.x"]))]
        else:
            fields = [draw(st.sampled_from(["1", "301", "q7"])), "0", docno,
                      draw(st.one_of(st.integers(-3, 4).map(str), number) if wild else st.integers(-9, 10**15).map(str))]
        line = fields[0] + "".join(draw(blank) + f for f in fields[1:])
        line = draw(st.sampled_from(["", "", "", " ", "\t"])) + line + draw(st.sampled_from(["", "", "", " ", "\r"]))
        lines.append(line)
    text = "\n".join(lines) + draw(st.sampled_from(["\n", "\n", "\n", "\n", "", "\n  "]))
    for _ in range(draw(st.sampled_from([0, 0, 1, 2]))):
        at = draw(st.integers(0, len(text)))
        text = text[:at] + draw(odd) + text[at:]
    return bytearray(text.encode("latin-1", "replace") if text.isascii() else text.encode())


def declines_alone(data):
    """The shapes only the compiled parse declines: a byte 127 or a control byte other than the blanks (which the
    numpy parse takes as separators), a chunk that does not end with a newline."""
    return (not data.endswith(b"\n") or b"\x7f" in data
            or any(b < 32 and b not in b"\t\n\v\f\r" for b in data))


def same_arrays(a, b):
    assert [x.dtype for x in a] == [x.dtype for x in b]
    assert a[0].tolist() == b[0].tolist() and a[1].tolist() == b[1].tolist()
    assert a[2].view(np.uint64).tolist() == b[2].view(np.uint64).tolist()   # the same bits (-0.0 included)


@compiled
@pytest.mark.parametrize("kind", ["run", "qrels"])
@settings(max_examples=300, deadline=None)
@given(data=st.data())
def test_compiled_parse_gives_the_numpy_parse_arrays_or_declines(kind, data):
    chunk_bytes = data.draw(chunk(kind))
    spec = readers.ColumnSpec(kind)
    fast = readers._compiled_parse(spec, chunk_bytes)
    numpy_parse = readers._numpy_parse(spec, chunk_bytes)
    if fast is not None:
        assert numpy_parse is not None, bytes(chunk_bytes)
        same_arrays(fast, numpy_parse)
    elif numpy_parse is not None:
        assert declines_alone(chunk_bytes), bytes(chunk_bytes)


@compiled
def test_compiled_parse_values_by_hand():
    spec = readers.ColumnSpec("run")
    q, d, v = readers._compiled_parse(
        spec, b"301 Q0 FR940405-2-00040 1 12.25 r\n301\tQ0 x 2 -0 r\r\n 7 Q0 y 3 123456789012345 r \n"
              b"7 Q0 z 4 .5 r\n7 Q0 w 5 -2. r\n")
    assert q.dtype == "S8" and q.tolist() == [b"301", b"301", b"7", b"7", b"7"]
    assert d.dtype == "S16" and d.tolist() == [b"FR940405-2-00040", b"x", b"y", b"z", b"w"]
    assert v.tolist() == [12.25, 0.0, 123456789012345.0, 0.5, -2.0]
    assert np.signbit(v).tolist() == [False, True, False, False, True]
    assert float.hex(float(readers._compiled_parse(spec, b"1 Q0 d 1 0.1 r\n")[2][0])) == float.hex(0.1)
    for other in (b"1 Q0 d 1 1e-5 r\n", b"1 Q0 d 1 NaN r\n", b"1 Q0 d 1 12345678901234567890 r\n",
                  b"1 Q0 d 1 1234567890123456 r\n", b"1 Q0 d 1 1 r\n\n", b"1 Q0 d 1 1 r x\n", b"# c\n1 Q0 d 1 1 r\n",
                  b"1 Q0 d 1 1 r", b"1 Q0 " + b"d" * 33 + b" 1 1 r\n", b"1 Q0 d\x7f 1 1 r\n", b""):
        assert readers._compiled_parse(spec, other) is None, other
    q, d, v = readers._compiled_parse(readers.ColumnSpec("qrels"), b"301 0 d1 -2\n301 0 d2 +3\n")
    assert v.dtype == np.int64 and v.tolist() == [-2, 3]
    assert readers._compiled_parse(readers.ColumnSpec("qrels"), b"301 0 d1 1.5\n") is None


@compiled
@settings(max_examples=40, deadline=None)
@given(text=chunk("run"))
def test_readers_and_stream_give_the_same_with_and_without_it(tmp_path_factory, text):
    """The whole readers (the checked paths included) and the streamed join: the same columns or the same error."""
    path = tmp_path_factory.mktemp("tok") / "run"
    path.write_bytes(bytes(text))
    qrels_path = path.parent / "qrels"
    qrels_path.write_text("1 0 FR940405-2-00040 1\n301 0 d 2\nq7 0 x 0\n")
    qrels = readers.read_qrels(qrels_path)

    def read():
        try:
            run = readers.read_run(path)
        except readers.InputFileError as exc:
            return str(exc)
        ranked = stream.read_ranked(qrels, path)
        return (run.topics.tolist(), run.topic_idx.tolist(), run.docno.tolist(),
                run.score.view(np.uint64).tolist(), run.runid,
                None if ranked is None else (ranked.topics.tolist(), ranked.nret.tolist(), ranked.seg.tolist(),
                                             ranked.pos.tolist(), ranked.qrow.tolist()))

    with_it = read()
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(readers, "_tokenize", None)
        assert read() == with_it


def _key_by_hand(topic, docno):
    """readers._mix_words' key of one (topic index, docno), in Python integers (an independent implementation)."""
    mask = (1 << 64) - 1
    padded = docno + b"\0" * (-len(docno) % 8)
    k = (topic * 0xD6E8FEB86659FD93 + 0xD6E8FEB86659FD93) & mask
    for j in range(len(padded) // 8):
        x = int.from_bytes(padded[8 * j: 8 * j + 8], sys.byteorder) * ((0x9E3779B97F4A7C15 + 0x632BE59BD9B4E019 * j) | 1)
        x &= mask
        x = ((x ^ (x >> 29)) * 0x94D049BB133111EB) & mask
        k = (k + x) & mask
    k = ((k ^ (k >> 31)) * 0xBF58476D1CE4E5B9) & mask
    return k ^ (k >> 29)


@compiled
@settings(max_examples=200, deadline=None)
@given(rows=st.lists(st.tuples(st.integers(0, 2**31 - 1), st.binary(min_size=1, max_size=40).map(lambda b: b.rstrip(b"\0") or b"x")),
                     max_size=30),
       topic_dtype=st.sampled_from([np.int32, np.int64]), width=st.sampled_from([0, 3, 8, 17]),
       in_record=st.booleans())
def test_compiled_pair_keys_are_the_numpy_keys(rows, topic_dtype, width, in_record):
    """The join's (topic, docno) keys from C are numpy's bit for bit, and both are the keys computed by hand: whatever
    the docno width (padding words add nothing), the topic index's dtype, or a docno column inside a record array."""
    topics = np.array([t for t, _ in rows], dtype=topic_dtype)
    docnos = np.array([d for _, d in rows], dtype=f"S{max([len(d) for _, d in rows] + [1]) + width}")
    if in_record:   # the loadtxt reader's rows: the docno an 8-byte-aligned field of a wider record
        record = np.zeros(len(rows), dtype=[("q", "S8"), ("d", docnos.dtype), ("v", "f8")])
        record["d"] = docnos
        docnos = record["d"]
    with_it = readers.pair_keys(topics, docnos)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(readers, "_tokenize", None)
        without = readers.pair_keys(topics, docnos)
    assert with_it.dtype == without.dtype == np.uint64
    assert with_it.tolist() == without.tolist() == [_key_by_hand(t, d) for t, d in rows]


def test_irlab_pure_python_leaves_it_unused(tmp_path):
    """IRLAB_PURE_PYTHON=1: the numpy parse only, and irlab eval prints the same bytes."""
    (tmp_path / "qrels").write_text("1 0 a 1\n1 0 b 0\n2 0 c 2\n")
    (tmp_path / "run").write_text("1 Q0 a 1 0.5 r\n1 Q0 b 2 0.25 r\n2 Q0 c 1 -1.5 r\n2 Q0 a 2 3 r\n")
    code = ("import sys, irlab.trec.readers as r; from irlab.cli import main; "
            "print(r._tokenize is None); main(['eval', '-q', sys.argv[1], sys.argv[2]])")
    out = {}
    for pure in ("1", ""):
        env = {**os.environ, "IRLAB_PURE_PYTHON": pure}
        out[pure] = subprocess.run([sys.executable, "-c", code, str(tmp_path / "qrels"), str(tmp_path / "run")],
                                   env=env, capture_output=True, text=True, check=True).stdout
    assert out["1"].startswith("True\n")
    built = importlib.util.find_spec("irlab.trec._tokenize") is not None
    assert out[""].startswith(f"{not built}\n")
    assert out["1"].split("\n", 1)[1] == out[""].split("\n", 1)[1]
    assert "map                   \tall\t0.7500" in out["1"]   # topic 1: AP 1; topic 2: AP 1/2


@compiled
def test_compiled_join_by_hand():
    """The streamed join's one call: every pair of equal keys, i ascending and then the table's order, whatever the
    table's collisions; -1 for a docno repeated in a block (before any pair), -2 when the output holds too few pairs
    (numpy then joins)."""
    c = readers._tokenize
    words = readers.key_words(np.array([b"a", b"b", b"c", b"d", b"e", b"f"], dtype="S8"))
    table = np.array([7, 3 << 60, 7, 1 << 63, 5], dtype=np.uint64)   # 7 twice: a colliding key gives both rows
    keys = np.array([7, 8, 1 << 63, 7, 3 << 60, 0], dtype=np.uint64)  # rows 0 and 3 share a key, not their bytes
    one_block = np.array([0], dtype=np.int64)
    i, p = np.empty(10, dtype=np.int64), np.empty(10, dtype=np.int64)
    count = c.join_blocks(keys, one_block, words, 1, table, i, p)
    assert count == 6
    assert list(zip(i[:count].tolist(), p[:count].tolist())) == [(0, 0), (0, 2), (2, 3), (3, 0), (3, 2), (4, 1)]
    assert c.join_blocks(keys, one_block, words, 1, table, i[:5], p[:5]) == -2
    assert c.join_blocks(keys, one_block, words, 1, table[:0], i, p) == 0


@compiled
def test_compiled_join_finds_a_repeated_docno_by_its_bytes():
    """A docno repeated in a block of rows (a topic): equal keys with other bytes are not one, nor is the same docno
    in another block."""
    c = readers._tokenize
    words = readers.key_words(np.array([b"a", b"b", b"a", b"c", b"b", b"c"], dtype="S8"))
    same_key = np.zeros(6, dtype=np.uint64)        # every key equal: only the bytes decide
    table = np.zeros(1, dtype=np.uint64)
    i, p = np.empty(6, dtype=np.int64), np.empty(6, dtype=np.int64)

    def join(starts):
        return c.join_blocks(same_key, np.array(starts, dtype=np.int64), words, 1, table, i, p)

    assert join([0, 2, 4]) == 6                    # blocks a b | a c | b c: no repeat, every row joins the 0 key
    assert join([0, 1]) == -1                      # b at rows 1 and 4
    assert join([0, 3]) == -1                      # a at rows 0 and 2
    with pytest.raises(ValueError):
        join([1])


@st.composite
def ranked_blocks(draw):
    """Blocks of rows (a topic each), scores non-increasing in each block (sometimes one rising), many ties, docnos
    distinct within a block; some rows to rank."""
    seg, scores, docnos = [], [], []
    for b in range(draw(st.integers(1, 5))):
        names = draw(st.lists(st.text("abAB0-", min_size=1, max_size=12), min_size=1, max_size=20, unique=True))
        block = sorted(draw(st.lists(st.sampled_from([3.0, 2.5, 0.0, -0.0, -1.0]), min_size=len(names),
                                     max_size=len(names))), reverse=True)
        seg += [b] * len(names)
        scores += block
        docnos += names
    if draw(st.integers(0, 4)) == 0:   # a score rising inside a block: C declines, numpy sorts
        at = draw(st.integers(0, len(scores) - 1))
        scores[at] = 9.0
    rows = sorted(draw(st.sets(st.integers(0, len(seg) - 1))))
    return (np.array(seg, dtype=np.int64), np.array(scores), np.array([d.encode() for d in docnos], dtype="S16"),
            np.array(rows, dtype=np.int64))


@compiled
@settings(max_examples=300, deadline=None)
@given(case=ranked_blocks(), max_tie=st.sampled_from([1, 2, 3, 64]))
def test_compiled_ranks_are_the_numpy_ranks(case, max_tie):
    """ranks.topic_ranks from C (presorted blocks, ties up to COMPILED_MAX_TIE) equals numpy's, which declines
    nothing; and both are the rank in trec_eval's order computed by sorting each block in Python."""
    from irlab.trec import ranks
    seg, score, docno, rows = case
    T = int(seg.max()) + 1
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(ranks, "COMPILED_MAX_TIE", max_tie)
        with_it = ranks.topic_ranks(seg, score, docno, rows, T)
        mp.setattr(readers, "_tokenize", None)
        without = ranks.topic_ranks(seg, score, docno, rows, T)
    by_hand = []
    for r in rows.tolist():
        block = [j for j in range(len(seg)) if seg[j] == seg[r]]
        order = sorted(block, key=lambda j: (-score[j], [-x for x in docno[j].ljust(16, b"\0")]))   # strcmp order
        by_hand.append(order.index(r))
    assert with_it.tolist() == without.tolist() == by_hand


@compiled
@settings(max_examples=100, deadline=None)
@given(data=st.data(), chunk_size=st.sampled_from([24, 64, 200, 1 << 20]))
def test_streamed_join_gives_the_same_with_and_without_it(tmp_path_factory, data, chunk_size):
    """The streamed join and ranks (the C passes: a hash set per topic, the judgments' table, the presorted ranks)
    give numpy's pairs and ranks, or decline alike (a docno repeated in a topic, colliding keys)."""
    topics = data.draw(st.lists(st.sampled_from(["1", "2", "301", "q7"]), min_size=1, max_size=4, unique=True))
    docs = ["a", "b", "FR940405-2-00040", "x", "d"]
    lines = []
    for topic in topics:
        retrieved = data.draw(st.lists(st.sampled_from(docs), min_size=1, max_size=7))   # a docno may repeat
        scores = sorted(data.draw(st.lists(st.sampled_from(["1", "0.5", "2.25", "-0"]), min_size=len(retrieved),
                                           max_size=len(retrieved))), key=float, reverse=data.draw(st.booleans()))
        lines += [f"{topic} Q0 {d} {i} {s} r\n" for i, (d, s) in enumerate(zip(retrieved, scores))]
    path = tmp_path_factory.mktemp("join") / "run"
    path.write_text("".join(lines))
    (path.parent / "qrels").write_text("1 0 FR940405-2-00040 1\n1 0 a 0\n301 0 d 2\nq7 0 x 1\nq7 0 b -1\n9 0 a 1\n")
    qrels = readers.read_qrels(path.parent / "qrels")

    def read():
        ranked = stream.read_ranked(qrels, path)
        if ranked is None:
            return None
        return (ranked.topics.tolist(), ranked.nret.tolist(),
                sorted(zip(ranked.seg.tolist(), ranked.pos.tolist(), ranked.qrow.tolist())))

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(readers, "_CHUNK_BYTES", chunk_size)
        with_it = read()
        mp.setattr(readers, "_tokenize", None)
        assert read() == with_it


@compiled
@settings(max_examples=300, deadline=None)
@given(numbers=st.lists(st.one_of(st.from_regex(r"[0-9]{1,8}", fullmatch=True),
                                  st.from_regex(r"[0-9]{0,7}\.[0-9]{0,7}", fullmatch=True).filter(
                                      lambda t: len(t) <= 8 and t != ".")), min_size=1, max_size=40),
       tail=st.sampled_from([" r", " a-much-longer-run-name-of-many-bytes"]))
def test_compiled_short_numbers_are_pythons_floats(numbers, tail):
    """Scores and grades of up to 8 bytes (the word-at-a-time conversion, at a line's end too, where fewer than 8
    bytes follow) are Python's correctly rounded float() and int(), to the bit."""
    run = "".join(f"1 Q0 d{i} 1 {x}{tail}\n" for i, x in enumerate(numbers)).encode()
    values = readers._compiled_parse(readers.ColumnSpec("run"), bytearray(run))[2]
    assert values.view(np.uint64).tolist() == np.array([float(x) for x in numbers]).view(np.uint64).tolist()
    integers = [x for x in numbers if "." not in x]
    if integers:
        qrels = "".join(f"1 0 d{i} {x}\n" for i, x in enumerate(integers)).encode()
        grades = readers._compiled_parse(readers.ColumnSpec("qrels"), bytearray(qrels))[2]
        assert grades.tolist() == [int(x) for x in integers]


@compiled
@settings(max_examples=100, deadline=None)
@given(chunks=st.lists(st.tuples(st.sampled_from(["run", "qrels"]), st.data()), min_size=2, max_size=6))
def test_compiled_parse_takes_chunks_of_changing_shape_in_a_row(chunks):
    """The compiled parse sizes its arrays by the chunk before (ids' widths, bytes per line); chunks whose ids are
    wider or narrower, or whose lines are shorter, than the last ones still give the numpy parse's arrays."""
    for kind, data in chunks:
        chunk_bytes = data.draw(chunk(kind))
        spec = readers.ColumnSpec(kind)
        fast, numpy_parse = readers._compiled_parse(spec, chunk_bytes), readers._numpy_parse(spec, chunk_bytes)
        if fast is not None:
            same_arrays(fast, numpy_parse)


@compiled
@settings(max_examples=300, deadline=None)
@given(rows=st.lists(st.tuples(st.integers(0, 4), st.binary(max_size=11)), max_size=90),
       topic_dtype=st.sampled_from([np.int32, np.int64]), in_record=st.booleans())
def test_compiled_qrels_order_is_lexsorts(rows, topic_dtype, in_record):
    """read_qrels' order from C (by topic index, then docno bytes) is np.lexsort's and a sort by hand: NUL and high
    bytes in docnos, topics of 0 to 90 rows (insertion and merge sorts), a pair repeated (row order kept), a docno
    column inside a record array."""
    width = max([len(d) for _, d in rows] + [1])
    topics = np.array([t for t, _ in rows], dtype=topic_dtype)
    docnos = np.array([d for _, d in rows], dtype=f"S{width}")
    if in_record:
        record = np.zeros(len(rows), dtype=[("q", "S3"), ("d", docnos.dtype), ("v", "f8")])
        record["d"] = docnos
        docnos = record["d"]
    by_hand = sorted(range(len(rows)), key=lambda r: (rows[r][0], rows[r][1].ljust(width, b"\0"), r))
    with_it = readers.topic_docno_order(topics, docnos, 5)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(readers, "_tokenize", None)
        without = readers.topic_docno_order(topics, docnos, 5)
    assert with_it.tolist() == without.tolist() == np.lexsort((docnos, topics)).tolist() == by_hand


@compiled
def test_compiled_qrels_order_refuses_a_topic_index_out_of_range():
    with pytest.raises(ValueError, match="topic_docno_order: a topic index out of range"):
        readers._tokenize.topic_docno_order(np.array([0, 5]), np.array([b"a", b"b"]), 1, 5, np.empty(2, np.int64))


@compiled
def test_compiled_parse_makes_room_for_shorter_lines_than_the_last_chunks():
    spec = readers.ColumnSpec("run")
    long_lines = bytearray(b"".join(b"topic-%03d Q0 %s 1 1.5 a-long-run-name\n" % (i, b"D" * 30) for i in range(10)))
    short_lines = bytearray(b"1 Q0 d 1 2 r\n" * 500)   # 13 bytes a line, a fifth of the last chunk's
    for data in (long_lines, short_lines, long_lines):
        q, d, v = readers._compiled_parse(spec, data)
        same_arrays((q, d, v), readers._numpy_parse(spec, data))
    assert len(readers._compiled_parse(spec, short_lines)[0]) == 500
