"""The vectorised reader gives exactly what the line-by-line reader gives (strtod's doubles, the same docnos)."""

from __future__ import annotations

import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import irlab.trec.readers as readers

number = st.one_of(
    st.integers(-10**6, 10**6).map(str),
    st.tuples(st.integers(0, 10**7), st.integers(0, 10**7)).map(lambda t: f"{t[0]}.{t[1]}"),
    st.floats(-1e6, 1e6, allow_nan=False, allow_infinity=False).map(repr),   # 1e-05, -0.0, 123.456
    st.sampled_from(["+3", "-0", ".5", "5.", "-.25", "0.1", "0.30000000000000004", "123456789012345",
                     "1234567890123456", "007", "2.5E3"]),
)
token = st.text(st.characters(min_codepoint=33, max_codepoint=126), min_size=1, max_size=20).filter(
    lambda t: not t.startswith("#"))
blank = st.sampled_from([" ", "\t", "  ", " \t "])


@st.composite
def run_text(draw):
    lines = []
    for _ in range(draw(st.integers(1, 30))):
        fields = [draw(st.sampled_from(["1", "2", "301", "q7"])), "Q0", draw(token), str(draw(st.integers(0, 99))),
                  draw(number), "run"]
        seps = [draw(blank) for _ in fields[1:]]
        line = fields[0] + "".join(s + f for s, f in zip(seps, fields[1:]))
        lines.append(draw(st.sampled_from(["", " "])) + line + draw(st.sampled_from(["", " ", "\r"])))
    return "\n".join(lines) + "\n"


def read_both(tmp_path, text, kind):
    (tmp_path / "f").write_text(text)
    reader = readers.read_run if kind == "run" else readers.read_qrels
    fast = reader(tmp_path / "f")
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(readers, "_vector_parse", lambda spec, data: None)
        mp.setattr(readers, "_fast_chunk", lambda spec, data, widths: None)
        slow = reader(tmp_path / "f")
    return fast, slow


@settings(max_examples=80, deadline=None)
@given(text=run_text())
def test_vector_parser_matches_line_by_line(tmp_path_factory, text):
    tmp = tmp_path_factory.mktemp("vec")
    try:
        fast, slow = read_both(tmp, text, "run")
    except readers.InputFileError as exc:   # duplicates: both readers must refuse alike
        with pytest.raises(readers.InputFileError) as again:
            read_both(tmp, text, "run")
        assert str(again.value) == str(exc)
        return
    assert fast.topics.tolist() == slow.topics.tolist()
    assert fast.topic_idx.tolist() == slow.topic_idx.tolist()
    assert fast.docno.tolist() == slow.docno.tolist()
    assert fast.score.view(np.uint64).tolist() == slow.score.view(np.uint64).tolist()   # the same bits
    assert fast.runid == slow.runid


def test_vector_parser_takes_the_common_shape_and_leaves_the_rest():
    spec = readers.ColumnSpec("run")
    q, d, v = readers._vector_parse(spec, b"1 Q0 FR940405-2-00040 1 12.25 r\n1\tQ0 x 2 -3 r\r\n")
    assert q.tolist() == [b"1", b"1"] and d.tolist() == [b"FR940405-2-00040", b"x"] and v.tolist() == [12.25, -3.0]
    for other in (b"1 Q0 a 1 1e3 r\n", b"1 Q0 a 1 nan r\n", b"1 Q0 a 1 1 r extra\n", b"1 Q0 a 1 1 r\n\n",
                  "1 Q0 é 1 1 r\n".encode(), b"1 Q0 a 1 1.2.3 r\n"):
        assert readers._vector_parse(spec, other) is None, other
    q, d, v = readers._vector_parse(readers.ColumnSpec("qrels"), b"301 0 d1 -2\n301 0 d2 +3\n")
    assert v.dtype == np.int64 and v.tolist() == [-2, 3]
    assert readers._vector_parse(readers.ColumnSpec("qrels"), b"301 0 d1 1.5\n") is None


short_token = st.one_of(
    st.from_regex(r"[+-]?[0-9]{1,7}(\.[0-9]{0,6})?", fullmatch=True),
    st.from_regex(r"[+-]?\.[0-9]{1,6}", fullmatch=True),
    st.text(st.sampled_from("0123456789.+-e"), min_size=1, max_size=8),
).filter(lambda t: len(t) <= 8)


@settings(max_examples=300, deadline=None)
@given(tokens=st.lists(short_token, min_size=1, max_size=12), integer=st.booleans())
def test_word_parser_gives_strtods_doubles_or_declines(tokens, integer):
    """Tokens of up to 8 bytes are read as one 64-bit word each: the same bits as
    strtod (Python's float) for [+-]digits[.digits], the same ints for grades, and
    None (the column-by-column and line-by-line readers then decide) for anything else."""
    data = "".join(f"7 Q0 d{i} 1 {t} r\n" for i, t in enumerate(tokens)).encode()
    starts, lengths, offset = [], [], 0
    for line in data.split(b"\n")[:-1]:
        fields = line.split(b" ")
        starts.append(offset + sum(len(f) + 1 for f in fields[:4]))
        lengths.append(len(fields[4]))
        offset += len(line) + 1
    u = np.frombuffer(data, dtype=np.uint8)
    got = readers._parse_short_decimals(u, np.array(starts), np.array(lengths), integer)
    pattern = r"[+-]?[0-9]+\Z" if integer else r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)\Z"
    if not all(re.match(pattern, t) for t in tokens):
        assert got is None
    elif integer:
        assert got.dtype == np.int64 and got.tolist() == [int(t) for t in tokens]
    else:
        assert got.view(np.uint64).tolist() == np.array([float(t) for t in tokens]).view(np.uint64).tolist()


@st.composite
def one_format_scores(draw):
    """Scores as one printf format writes them ("%.2f"): the '.' as many bytes from the end in each, no sign; now
    and then one token of another shape, which sends them all to the general word parser."""
    k = draw(st.integers(0, 6))
    whole = st.from_regex(rf"[0-9]{{0,{7 - k}}}", fullmatch=True)
    tokens = draw(st.lists(st.tuples(whole, st.from_regex(rf"[0-9]{{{k}}}", fullmatch=True)).map(".".join).filter(
        lambda t: len(t) >= 2), min_size=1, max_size=12))
    if draw(st.integers(0, 3)) == 0:
        tokens.insert(draw(st.integers(0, len(tokens))), draw(st.sampled_from(["-1.5", "7", "+.25", "1e3", "1.2.3"])))
    return tokens


@settings(max_examples=300, deadline=None)
@given(tokens=one_format_scores())
def test_one_format_scores_give_strtods_doubles(tokens):
    """_fixed_point_words (the '.' at one place from the end in every token) gives the bits strtod gives, or
    leaves the tokens to the general case, which gives them too or declines."""
    data = "".join(f"7 Q0 d{i} 1 {t} r\n" for i, t in enumerate(tokens)).encode()
    u = np.frombuffer(data, dtype=np.uint8)
    starts = np.array([m.start(1) for m in re.finditer(rb" 1 (\S+) r\n", data)])
    got = readers._parse_short_decimals(u, starts, np.array([len(t) for t in tokens]), False)
    if all(re.fullmatch(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)", t) for t in tokens):
        assert got.view(np.uint64).tolist() == np.array([float(t) for t in tokens]).view(np.uint64).tolist()
    else:
        assert got is None


def test_word_parser_examples():
    u = np.frombuffer(b"1 Q0 d 1 12.34 r\n1 Q0 e 1 -.5 r\n1 Q0 f 1 5. r\n1 Q0 g 1 -0 r\n1 Q0 h 1 99999999 r\n",
                      dtype=np.uint8)
    got = readers._parse_short_decimals(u, np.array([9, 26, 41, 55, 69]), np.array([5, 3, 2, 2, 8]), False)
    assert got.tolist() == [12.34, -0.5, 5.0, -0.0, 99999999.0] and np.signbit(got[3])
    # a token in the first 8 bytes, or longer than 8 bytes: the column-by-column parser
    assert readers._parse_short_decimals(u, np.array([0]), np.array([1]), True) is None
    assert readers.parse_decimals(u, np.array([0]), np.array([1]), True).tolist() == [1]


@pytest.mark.parametrize("text", [
    "1 Q0 a 1 2.5 r\n1\tQ0\tbb\t2\t-1\tr\n",              # one separator byte everywhere: lengths from the starts
    "1 Q0 a 1 2.5 r\n1  Q0 bb 2 -1 r\n",                   # two blanks once: lengths checked field by field
    "1 Q0 a 1 2.5 r\n1 Q0 bb 2 -1  r\n",                   # two blanks after a field that is not read
    "1 Q0 a 1 2.5 r\r\n1 Q0 bb 2 -1 r\r\n",                # CRLF
    "1 Q0 a 1 2.5 r   \n1 Q0 bb 2 -1 r\n",                 # trailing blanks
])
def test_token_lengths_with_one_or_more_separator_bytes(tmp_path, text):
    fast, slow = read_both(tmp_path, text, "run")
    assert fast.docno.tolist() == slow.docno.tolist() == [b"a", b"bb"]
    assert fast.score.tolist() == slow.score.tolist() == [2.5, -1.0]
    q, d, v = readers._vector_parse(readers.ColumnSpec("run"), text.encode())
    assert q.tolist() == [b"1", b"1"] and d.tolist() == [b"a", b"bb"] and v.tolist() == [2.5, -1.0]
