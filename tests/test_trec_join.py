"""The qrels/run join and the duplicate check depend on docno bytes, never on a hash being unique.

Reference: a plain Python dict join over (topic, docno) strings; the evaluator's numbers must be those of the
exact per-topic path, which reads the same files with dicts.
"""

from __future__ import annotations

import importlib

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import irlab.trec.readers as readers
from irlab.errors import InputFileError
from irlab.trec.evaluate import evaluate
from irlab.trec.readers import equal_key_pairs, pair_keys, read_qrels

evaluate_module = importlib.import_module("irlab.trec.evaluate")  # irlab.trec.evaluate is also a function
ranks_module = importlib.import_module("irlab.trec.ranks")


def write(tmp_path, qrels, run):
    (tmp_path / "qrels").write_text(qrels, encoding="utf-8")
    (tmp_path / "run").write_text(run, encoding="utf-8")
    return tmp_path / "qrels", tmp_path / "run"


def test_structured_docnos_that_used_to_share_a_key(tmp_path):
    # the minimal repro: the linear hash gave both docnos one key and the join checked the first only
    q, r = write(tmp_path, "307 0 FR940405-2-00040 0\n307 0 FR940406-2-00045 1\n",
                 "307 Q0 FR940406-2-00045 358 642 r\n")
    res = evaluate(q, r, ["map", "num_rel_ret", "num_rel"])
    assert res["307"]["num_rel_ret"] == 1
    assert res["307"]["map"] == 1.0


def test_every_candidate_with_an_equal_key_is_returned():
    sorted_keys = np.array([1, 5, 5, 5, 9], dtype=np.uint64)
    keys = np.array([5, 2, 9, 5], dtype=np.uint64)
    rows, pos = equal_key_pairs(sorted_keys, keys)
    assert sorted(zip(rows.tolist(), pos.tolist())) == [(0, 1), (0, 2), (0, 3), (2, 4), (3, 1), (3, 2), (3, 3)]


@settings(max_examples=60, deadline=None)
@given(sorted_keys=st.lists(st.integers(0, 2**64 - 1), max_size=300),
       probes=st.lists(st.integers(0, 2**64 - 1), max_size=300), top_bits=st.integers(0, 3))
def test_key_slots_find_every_equal_key(sorted_keys, probes, top_bits):
    """The direct-mapped table of the join returns exactly the (i, p) pairs of binary search, with keys
    crowded into few slots (only their low bits vary) and repeated keys."""
    if top_bits:   # keys that share their top bits share a slot
        sorted_keys = [k >> (64 - 8 * top_bits) for k in sorted_keys]
        probes = [k >> (64 - 8 * top_bits) for k in probes]
    sorted_keys = np.array(sorted(sorted_keys + sorted_keys[:5]), dtype=np.uint64)
    keys = np.array(probes + sorted_keys[::3].tolist(), dtype=np.uint64)
    got = ranks_module.KeySlots(sorted_keys).find(keys)
    want = equal_key_pairs(sorted_keys, keys)
    assert sorted(zip(*(x.tolist() for x in got))) == sorted(zip(*(x.tolist() for x in want)))


def test_keys_ignore_the_padding_width():
    a = np.array([b"FR940405-2-00040", b"x"], dtype="S16")
    b = a.astype("S40")
    t = np.array([3, 3])
    assert (pair_keys(t, a) == pair_keys(t, b)).all()


# ---- docno families seen in real collections, plus docnos built to collide in a linear hash


def _fr(draw):
    return f"FR94{draw(st.integers(1, 12)):02d}{draw(st.integers(1, 31)):02d}-{draw(st.integers(0, 3))}-{draw(st.integers(0, 99999)):05d}"


def _la(draw):
    return f"LA{draw(st.integers(1, 12)):02d}{draw(st.integers(1, 31)):02d}90-{draw(st.integers(0, 9999)):04d}"


def _fbis(draw):
    return f"FBIS{draw(st.integers(3, 4))}-{draw(st.integers(1, 99999))}"


def _wsj(draw):
    return f"WSJ{draw(st.integers(870101, 921231))}-{draw(st.integers(0, 999)):04d}"


def _msmarco(draw):
    return str(draw(st.integers(0, 8_841_822)))


def _clueweb(draw):
    return f"clueweb09-en{draw(st.integers(0, 11)):04d}-{draw(st.integers(0, 99)):02d}-{draw(st.integers(0, 99999)):05d}"


def _long_prefix(draw):
    return "http://example.org/a/very/long/common/prefix/" + str(draw(st.integers(0, 50)))


def _utf8(draw):
    return "doc-" + draw(st.sampled_from(["é", "ß", "日本", "ü", "е", "e\u0301"])) + str(draw(st.integers(0, 20)))


def _permuted_words(draw):
    # the same 8-byte words in another order, and two words whose high bytes differ by cancelling amounts
    words = ["ABCDEFGH", "IJKLMNOP", "QRSTUVWX"]
    order = draw(st.permutations(words))
    return "".join(order[: draw(st.integers(1, 3))])


FAMILIES = [_fr, _la, _fbis, _wsj, _msmarco, _clueweb, _long_prefix, _utf8, _permuted_words]


@st.composite
def trec_files(draw):
    family = draw(st.sampled_from(FAMILIES))
    pool = sorted({family(draw) for _ in range(draw(st.integers(2, 14)))})
    qrels, run = [], []
    for topic in ("301", "302", "9"):
        judged = draw(st.lists(st.sampled_from(pool), max_size=len(pool), unique=True))
        qrels += [f"{topic} 0 {d} {draw(st.integers(-1, 2))}" for d in judged]
        retrieved = draw(st.lists(st.sampled_from(pool), max_size=len(pool), unique=True))
        run += [f"{topic} Q0 {d} {i} {draw(st.integers(0, 3))} r" for i, d in enumerate(retrieved, 1)]
    if not qrels or not run:
        qrels.append("301 0 a 1")
        run.append("301 Q0 a 1 1 r")
    if draw(st.booleans()):
        # the usual shape of run files: topics contiguous, scores non-increasing (the ranker's fast path)
        run.sort(key=lambda line: (line.split()[0], -float(line.split()[4])))
    return "\n".join(qrels) + "\n", "\n".join(run) + "\n"


def reference(qrels_text, run_text):
    """num_ret, num_rel, num_rel_ret and AP per topic from dicts of strings."""
    judged = {}
    for line in qrels_text.splitlines():
        t, _, d, g = line.split()
        judged.setdefault(t, {})[d] = int(g)
    ranked = {}
    for line in run_text.splitlines():
        t, _, d, _, s, _ = line.split()
        ranked.setdefault(t, []).append((float(s), d.encode()))
    out = {}
    for t in sorted(set(judged) & set(ranked)):
        docs = [d.decode() for _, d in sorted(ranked[t], reverse=True)]  # score desc, docno desc
        rel = [judged[t].get(d, -1) >= 1 for d in docs]
        R = sum(g >= 1 for g in judged[t].values())
        hits, ap = 0, 0.0
        for i, r in enumerate(rel, 1):
            if r:
                hits += 1
                ap += hits / i
        out[t] = {"num_ret": len(docs), "num_rel": R, "num_rel_ret": hits, "map": ap / R if R else 0.0}
    return out


def check(tmp_path, files):
    q, r = write(tmp_path, *files)
    expected = reference(*files)
    if not expected:
        return
    res = evaluate(q, r, ["num_ret", "num_rel", "num_rel_ret", "map"])
    assert set(res.per_topic) == set(expected)
    for t, values in expected.items():
        for name, v in values.items():
            assert res[t][name] == pytest.approx(v, abs=1e-12), (t, name)


@settings(max_examples=60, deadline=None)
@given(files=trec_files())
def test_join_on_real_docno_schemes(tmp_path_factory, files):
    check(tmp_path_factory.mktemp("join"), files)


def _degenerate_keys(topic_idx, docno):
    """Every docno of a topic gets one key: the join must still be right."""
    return topic_idx.astype(np.uint64) * np.uint64(7)


@settings(max_examples=40, deadline=None)
@given(files=trec_files())
def test_join_does_not_depend_on_the_hash(tmp_path_factory, files):
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(readers, "pair_keys", _degenerate_keys)
        mp.setattr(evaluate_module, "pair_keys", _degenerate_keys)
        check(tmp_path_factory.mktemp("join"), files)


def test_duplicates_are_found_among_many_rows_sharing_a_key(tmp_path, monkeypatch):
    monkeypatch.setattr(readers, "pair_keys", _degenerate_keys)
    (tmp_path / "qrels").write_text("1 0 a 1\n1 0 b 1\n1 0 c 0\n1 0 a 0\n")
    with pytest.raises(InputFileError, match=r"qrels:4: duplicate docno 'a' for topic '1'.*first on line 1"):
        read_qrels(tmp_path / "qrels")
    (tmp_path / "qrels").write_text("1 0 a 1\n1 0 b 1\n1 0 c 0\n")
    assert len(read_qrels(tmp_path / "qrels")) == 3


@settings(max_examples=25, deadline=None)
@given(files=trec_files())
def test_join_and_ranks_in_small_slices_and_chunks(tmp_path_factory, files):
    # the readers' chunks and the ranker's slices of whole topics, made tiny so that they really split
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(readers, "_WHOLE_FILE_LIMIT", 0)
        mp.setattr(readers, "_CHUNK_BYTES", 64)
        mp.setattr(ranks_module, "SLICE_ROWS", 3)
        check(tmp_path_factory.mktemp("join"), files)


def test_duplicates_found_slice_by_slice(tmp_path, monkeypatch):
    monkeypatch.setattr(readers, "_DUP_SLICE_ROWS", 2)
    lines = [f"{t} Q0 d{i} {i} {9 - i} r" for t in (1, 2, 3) for i in range(3)]
    lines.insert(8, "3 Q0 d0 9 0 r")   # topic 3's d0 again, in the last slice
    (tmp_path / "run").write_text("\n".join(lines) + "\n")
    with pytest.raises(InputFileError, match=r"run:9: duplicate docno 'd0' for topic '3'.*first on line 7"):
        readers.read_run(tmp_path / "run")


@pytest.mark.parametrize("complete", [False, True])
@pytest.mark.parametrize("slice_rows", [3, 1 << 18])
def test_join_made_during_the_duplicate_check_matches_the_separate_join(tmp_path, monkeypatch, complete, slice_rows):
    """evaluate() on paths checks the run for duplicates and hashes it for the join in one pass; the
    result is that of evaluating already-read files (separate check and join), with run topics that
    have no judgments and judged topics without results, in slices of whole topics or all at once."""
    monkeypatch.setattr(readers, "_DUP_SLICE_ROWS", slice_rows)
    rng = np.random.default_rng(3)
    run_lines, qrels_lines = [], []
    for t in range(1, 15):
        docs = [f"FR9404{t:02d}-2-{int(k):05d}" for k in rng.choice(500, size=12, replace=False)]
        if t % 5:   # topics 5 and 10 have no results
            run_lines += [f"{t} Q0 {d} {r} {round(float(rng.random()), 1)} x\n" for r, d in enumerate(docs)]
        if t % 7:   # topics 7 and 14 have no judgments
            qrels_lines += [f"{t} 0 {d} {int(rng.integers(-1, 3))}\n" for d in docs[::2] + ["FR000000-0-00000"]]
    q, r = write(tmp_path, "".join(qrels_lines), "".join(run_lines))
    measures = ["map", "ndcg", "P.5", "num_rel_ret", "num_ret", "bpref"]
    fused = evaluate(q, r, measures, complete=complete)
    separate = evaluate(read_qrels(q), readers.read_run(r), measures, complete=complete)
    assert fused.per_topic == separate.per_topic and fused.summary == separate.summary
    assert fused.per_topic["3"]["num_rel_ret"] > 0
    (tmp_path / "dup").write_text("".join(run_lines) + run_lines[20])
    with pytest.raises(InputFileError) as a:
        evaluate(q, tmp_path / "dup", measures)
    with pytest.raises(InputFileError) as b:
        readers.read_run(tmp_path / "dup")
    assert str(a.value) == str(b.value) and "duplicate docno" in str(a.value)
