"""Adversarial review (session 41) of irlab eval's C topic stream and its two halves on two threads: runs whose
topics are shuffled, cut by the halves inside a topic (written with other blanks), apart across the cut, with CRLF,
no final newline, long and 8/9/32/33-byte qids, huge numeric qids, run topics without judgments, judged topics
without a run (-c), many judgments against few rows and few against many, a docno given twice, a file of exactly
two chunks: every line irlab eval -q prints is trec_eval 10.0's, with small chunks so each file is cut in halves."""

from __future__ import annotations

import random
import subprocess

import pytest

from irlab.cli import main
from irlab.trec import readers
from irlab.trec import stream as stream_module

needs_c = pytest.mark.skipif(not hasattr(readers.compiled(), "topic_stream"), reason="the C topic stream is not built")
CHUNK = 1024  # bytes a chunk: every run below is several chunks, so MappedChunks.halves cuts it


def _topic(rng, qid, rows, sep=" ", crlf=False, docno=lambda d: f"D{d}", universe=200):
    score, lines = 1000.0, []
    for rank, d in enumerate(rng.sample(range(universe), rows), 1):
        if rng.random() < 0.7:  # else tied with the row above
            score -= rng.choice([0.5, 1, 0.25])
        lines.append(f"{qid}{sep}Q0{sep}{docno(d)}{sep}{rank}{sep}{score:g}{sep}run1" + ("\r" if crlf else ""))
    return lines


def _qrels(rng, qids, judged=12, universe=200, docno=lambda d: f"D{d}") -> str:
    lines = []
    for q in qids:
        lines += [f"{q} 0 {docno(d)} {rng.choice([0, 0, 1, 2, 3])}" for d in rng.sample(range(universe), judged)]
        lines.append(f"{q} 0 Dbest 1")  # every topic has a grade >= 1 (trec_eval's all-negative topics crash)
    return "\n".join(lines) + "\n"


def _middle_line(lines) -> int:
    size, seen = sum(len(line) + 1 for line in lines), 0
    for i, line in enumerate(lines):
        seen += len(line) + 1
        if seen > size // 2:
            return i
    return len(lines) - 1


def _case(name, rng):
    """(qrels text, run lines, extra options, whether the halves are expected to be reduced apart)."""
    qids = [str(i) for i in range(1, 40)]
    if name == "shuffled odd qids":
        qids += ["1234567", "12345678", "123456789", "x" * 32, "01", "001", "a.b-c", str(10**18), str(2**64 + 1)]
        rng.shuffle(qids)
        return _qrels(rng, qids), [line for q in qids for line in _topic(rng, q, 30)], [], True
    if name == "qids longer than a slot":
        qids = ["x" * 32 + chr(65 + i) for i in range(20)] + qids
        return _qrels(rng, qids), [line for q in qids for line in _topic(rng, q, 30)], [], False
    if name == "other blanks at the cut":
        lines = [line for q in qids for line in _topic(rng, q, 30)]
        middle = _middle_line(lines)
        qid = lines[middle].split()[0]
        for i in range(len(lines)):
            if lines[i].split()[0] == qid and i % 2:
                lines[i] = ("\t" if i % 4 == 1 else "  ") + lines[i].replace(" ", "\t", 1)
        return _qrels(rng, qids), lines, [], False
    if name in ("topic again after the cut", "topic again before the cut"):
        blocks = [_topic(rng, q, 30) for q in qids]
        lines = [line for block in blocks for line in block]
        middle = _middle_line(lines)
        topic = qids.index(lines[middle].split()[0])
        again = qids[topic - 1] if name.endswith("after the cut") else qids[topic + 3]
        extra = [f"{again} Q0 Dnew{n} 1 0.1 run1" for n in range(5)]
        at = topic + 3 if name.endswith("after the cut") else topic - 2
        blocks.insert(at, extra)
        return _qrels(rng, qids), [line for block in blocks for line in block], [], True
    if name == "crlf, no final newline":
        lines = [line for q in qids for line in _topic(rng, q, 30, crlf=True)]
        lines[-1] = lines[-1].rstrip("\r")
        return _qrels(rng, qids), lines, [], False
    if name == "crlf":
        return _qrels(rng, qids), [line for q in qids for line in _topic(rng, q, 30, crlf=True)], [], True
    if name == "unjudged and unretrieved topics":
        ran = [q for q in qids if int(q) % 7] + ["zz1", "zz2"]
        lines = [line for q in ran for line in _topic(rng, q, 30)]
        return _qrels(rng, qids), lines, ["-c"], True
    if name == "many judged, few rows and the reverse":
        qrels, lines = [], []
        for q in qids:
            judged, rows = rng.choice([(0, 3), (150, 1), (150, 141), (3, 140), (400, 2)])
            qrels += [f"{q} 0 D{d} {rng.choice([0, 1, 2])}" for d in rng.sample(range(500), judged)]
            qrels.append(f"{q} 0 Dbest 1")
            lines += _topic(rng, q, rows, universe=500)
        return "\n".join(qrels) + "\n", lines, [], True
    if name == "a docno twice":
        blocks = [_topic(rng, q, 30) for q in qids]
        blocks[25].append(blocks[25][3].rsplit(" ", 3)[0] + " 99 0.001 run1")
        return _qrels(rng, qids), [line for block in blocks for line in block], [], False
    if name == "two whole chunks":
        lines = [line for q in qids for line in _topic(rng, q, 30)]
        size = 0
        for i, line in enumerate(lines):
            if size + len(line) + 1 > 8 * CHUNK:
                lines = lines[:i]
                break
            size += len(line) + 1
        lines[-1] += "x" * (8 * CHUNK - size)  # the runid padded: exactly eight chunks of bytes, newline included
        used = sorted({line.split()[0] for line in lines}, key=qids.index)
        return _qrels(rng, used), lines, [], True
    raise AssertionError(name)


CASES = ["shuffled odd qids", "qids longer than a slot", "other blanks at the cut", "topic again after the cut",
         "topic again before the cut", "crlf, no final newline", "crlf", "unjudged and unretrieved topics",
         "many judged, few rows and the reverse", "a docno twice", "two whole chunks"]


@needs_c
@pytest.mark.parametrize("name", CASES)
@pytest.mark.parametrize("options", [["-q"], ["-q", "-n", "-M", "20"]], ids=["q", "q-n-M"])
def test_irlab_eval_on_two_halves_prints_what_trec_eval_prints(trec_eval_binary, tmp_path, monkeypatch, capsys,
                                                             name, options):
    qrels_text, lines, extra, halved = _case(name, random.Random(name))
    qrels, run = tmp_path / "qrels", tmp_path / "run"
    qrels.write_text(qrels_text, encoding="utf-8")
    run.write_bytes(("\n".join(lines) + ("" if "no final" in name else "\n")).encode())
    if name == "two whole chunks":
        assert run.stat().st_size == 8 * CHUNK
    monkeypatch.setattr(readers, "_CHUNK_BYTES", CHUNK)
    monkeypatch.setattr(readers, "_THREADS", 2)
    reduced = []
    real = stream_module._reduced_beside
    monkeypatch.setattr(stream_module, "_reduced_beside",
                        lambda *args: reduced.append(real(*args)) or reduced[-1])
    ranked, real_ranked = [], stream_module._ranked_run
    monkeypatch.setattr(stream_module, "_ranked_run", lambda *args: ranked.append(real_ranked(*args)) or ranked[-1])
    args = [*options, *extra, "-m", "all_trec", str(qrels), str(run)]
    code = main(["eval", *args])
    ours = capsys.readouterr()
    theirs = subprocess.run([str(trec_eval_binary), *args], capture_output=True, text=True)
    if name == "a docno twice":  # trec_eval refuses it (exit 4) unless -M cuts it off; irlab names the line (docs/site)
        assert code == 2 and "run:" in ours.err and "duplicate docno" in ours.err and ours.out == ""
        assert theirs.returncode != 0 or "-M" in options
        return
    assert code == 0 and theirs.returncode == 0, (ours.err, theirs.stderr)
    drop = ("rbp ",)  # trec_eval's rbp reads uninitialised memory (tests/test_trec_eval_differential.py)
    assert [line for line in ours.out.splitlines() if not line.startswith(drop)] == \
        [line for line in theirs.stdout.splitlines() if not line.startswith(drop)]
    assert len(reduced) == 1  # the halves were cut and reduced
    taken = reduced[0] is not None and reduced[0] is not stream_module._DECLINED
    assert taken == halved  # reduced apart, or declined / refused for the whole-file reader to decide
    if name.startswith("topic again"):  # each half is grouped by topic, the run is not: read whole
        assert ranked == [None]
    elif taken:
        assert len(ranked) == 1 and ranked[0] is not None
