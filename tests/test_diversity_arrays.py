"""irlab eval --diversity's array path (irlab/trec/diversity_arrays.py) against its per-topic path.

The per-topic path (irlab/trec/diversity.py, compared with pyndeval and the exact library in test_eval_diversity.py)
is the reference: on generated files the array path must give every value bit for bit (floats compared with ==,
nan with nan), the same notes, and must actually be taken for plain files (not fall back without saying so).
"""

from __future__ import annotations

import math
import random
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from diversity_files import faulty_lines
from irlab.trec import diversity, diversity_arrays
from irlab.trec.diversity import evaluate_diversity, parse_diversity_measures, read_diversity_qrels, read_diversity_run

MEASURES = ["all", "ERR-IA@1,3,7,30", "nERR-IA@2,8", "alpha-DCG@1,4", "alpha-nDCG@3,25", "P-IA@2,30", "strec@1,9"]


@st.composite
def cases(draw):
    """(qrels text, run text, options): a few topics (ids of any length, some not numbers), up to 7 subtopics
    (sometimes named, not numbered), docnos of 1 to 30 bytes (several 64-bit words), judgments 0-3, unjudged and
    run-only documents, ranks with gaps in any line order, ties in score; now and then a tab or CR (the general
    splitting), a topic without a relevant document, a run topic without judgments and a qrels topic without a run."""
    rnd = random.Random(draw(st.integers(0, 2**32 - 1)))
    qrels, run = [], []
    named = rnd.random() < 0.2
    for t in range(rnd.randint(1, 5)):
        topic = rnd.choice([str(t + 1), f"wt09-{t}", "t" * rnd.randint(1, 20) + str(t)])
        docs = list(dict.fromkeys("".join(rnd.choice("abcxyz-0123456789") for _ in range(rnd.randint(1, 30)))
                                  for _ in range(rnd.randint(1, 40))))
        subtopics = [f"s{s}" if named else str(s) for s in rnd.sample(range(1, 12), rnd.randint(1, 7))]
        if rnd.random() < 0.9:
            for s in subtopics:
                share = rnd.choice([0.0, 0.1, 0.3, 0.6, 1.0])
                for d in docs:
                    if rnd.random() < share:
                        qrels.append(f"{topic} {s} {d} {rnd.choice([1, 1, 2, 3])}")
                    elif rnd.random() < 0.2:
                        qrels.append(f"{topic} {s} {d} 0")
        if rnd.random() < 0.9:
            ranked = rnd.sample(docs + [f"U{t}-{i}" for i in range(8)], rnd.randint(1, len(docs) + 8))
            ranks = sorted(rnd.sample(range(0, 3 * len(ranked) + 5), len(ranked)))
            for rank, d in zip(ranks, ranked):
                score = rnd.choice([f"{rnd.random():.4f}", str(rnd.randint(0, 3)), f"{-rnd.random():.2f}", "1e-3"])
                run.append(f"{topic} Q0 {d} {rank} {score} myrun")
    qrels = qrels or ["1 1 d 1"]
    run = run or ["1 Q0 d 1 1 r"]
    if draw(st.booleans()):
        rnd.shuffle(qrels)
        rnd.shuffle(run)
    end = rnd.choice(["\n"] * 8 + ["\r\n", " \n"])
    options = dict(alpha=draw(st.sampled_from([0.5, 0.0, 1.0, 0.3, 0.9])), beta=draw(st.sampled_from([0.5, 0.0, 1.0, 0.8])),
                   traditional=draw(st.booleans()), depth=draw(st.sampled_from([None, None, 0, 1, 5, 30])),
                   complete=draw(st.booleans()), relevance_level=draw(st.sampled_from([1, 1, 2, 0])))
    return end.join(qrels) + end * rnd.choice([0, 1]), end.join(run) + "\n", options


def same(a, b):
    return a == b or (isinstance(a, float) and math.isnan(a) and math.isnan(b))


def both_paths(folder, qrels, run, options, measures=MEASURES):
    (folder / "qrels").write_text(qrels)
    (folder / "run").write_text(run)
    q, r = str(folder / "qrels"), str(folder / "run")
    try:
        reference = evaluate_diversity(read_diversity_qrels(q, relevance_level=options["relevance_level"]),
                                       read_diversity_run(r, traditional=options["traditional"]), measures,
                                       notes=(notes := []), **options)
    except diversity.IrlabError as exc:
        with pytest.raises(type(exc), match="no topic has both"):
            evaluate_diversity(q, r, measures, **options)
        return "no shared topic"
    arrays = diversity_arrays.evaluate_in_arrays(q, r, parse_diversity_measures(measures), **options,
                                                 max_ideal_work=diversity.MAX_IDEAL_WORK)
    fast = evaluate_diversity(q, r, measures, notes=(fast_notes := []), **options)
    assert fast_notes == notes
    assert list(fast.per_topic) == list(reference.per_topic)
    for topic, values in reference.per_topic.items():
        for column, value in values.items():
            assert same(fast.per_topic[topic][column], value), (topic, column, fast.per_topic[topic][column], value)
    assert all(same(fast.summary[c], reference.summary[c]) for c in reference.columns)
    assert (fast.runid, fast.columns) == (reference.runid, reference.columns)
    return arrays


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cases())
def test_the_array_path_gives_the_per_topic_paths_values_bit_for_bit(case):
    qrels, run, options = case
    with tempfile.TemporaryDirectory() as folder:
        arrays = both_paths(Path(folder), qrels, run, options)
    assert arrays is not None, "the array path left plain files to the per-topic path"


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                HealthCheck.function_scoped_fixture])
@given(cases())
def test_topics_left_to_the_per_topic_code_give_the_same_values(monkeypatch, case):
    # topics beyond the lock-step greedy's arrays (or with more relevant documents) are ranked per topic
    monkeypatch.setattr(diversity_arrays, "_LOCKSTEP_CELLS", 12)
    monkeypatch.setattr(diversity_arrays, "_LOCKSTEP_RELEVANT", 5)
    qrels, run, options = case
    with tempfile.TemporaryDirectory() as folder:
        both_paths(Path(folder), qrels, run, options)


def test_dense_blocks_of_running_sums_add_as_one_block(monkeypatch, tmp_path):
    rnd = random.Random(7)
    qrels = "".join(f"{t} {s} d{d} 1\n" for t in range(1, 4) for s in range(1, 4) for d in range(60)
                    if rnd.random() < 0.5)
    run = "".join(f"{t} Q0 d{d} {i} 1 r\n" for t in range(1, 4) for i, d in enumerate(rnd.sample(range(80), 80)))
    options = dict(alpha=0.5, beta=0.9, traditional=False, depth=None, complete=False, relevance_level=1)
    monkeypatch.setattr(diversity_arrays, "_CELLS", 7)   # a block of one topic (or subtopic) at a time
    assert both_paths(tmp_path, qrels, run, options) is not None


@pytest.mark.parametrize("qrels, run", [
    ("1 1 a 1\n1 1 a 0\n", "1 Q0 a 1 1 r\n"),                 # a judgment repeated
    ("1 1 a 1\n", "1 Q0 a 1 1 r\n1 Q0 a 2 1 r\n"),            # a docno repeated
    ("1 1 a 1\n", "1 Q0 a 1 1 r\n1 Q0 b 1 1 r\n"),            # a rank repeated
    ("# judged\n1 1 a 1\n", "1 Q0 a 1 1 r\n"),                # a comment
    ("1 1 a 1\n", "1 Q0 a 1 1 r extra\n"),                    # a run's extra column
    ("1 1 a 1\n", "1 Q0 a 1 nan r\n"),                        # a score that is no finite number
    ("1 1 a\0 1\n", "1 Q0 a 1 1 r\n"),                        # a zero byte in an id
])
def test_what_the_array_path_leaves_to_the_per_topic_path(tmp_path, qrels, run):
    (tmp_path / "q").write_text(qrels)
    (tmp_path / "r").write_text(run)
    plan = parse_diversity_measures(None)
    assert diversity_arrays.evaluate_in_arrays(str(tmp_path / "q"), str(tmp_path / "r"), plan, alpha=0.5, beta=0.5,
                                               traditional=False, depth=None, complete=False, relevance_level=1,
                                               max_ideal_work=diversity.MAX_IDEAL_WORK) is None


@settings(max_examples=2000, deadline=None)
@given(st.lists(st.text(alphabet="0123456789.+-eE_ in", min_size=1, max_size=20).filter(lambda t: " " not in t),
                min_size=1, max_size=4))
def test_scores_passed_without_reading_are_finite_numbers(tokens):
    # ordered by rank, a run's scores are only checked: whatever passes must be a finite number the per-topic path
    # reads (float(), as strtod) - the check may refuse more, those are then read one by one
    import numpy as np

    text = " ".join(tokens).encode()
    starts = np.array([m.start() for m in __import__("re").finditer(rb"\S+", text)])
    lengths = np.array([len(t.encode()) for t in tokens])
    if diversity_arrays._plain_decimals(np.frombuffer(text, np.uint8), starts, lengths):
        assert diversity.finite_scores([t.encode() for t in tokens]) is not None, tokens


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.integers(0, 2**32 - 1), st.sampled_from(["qrels", "run"]), st.sampled_from([7, 31, 64, 250, 1 << 22]))
def test_faulty_files_give_the_per_topic_paths_values_or_error(monkeypatch, seed, what, chunk):
    # test_eval_diversity's faulty lines (blank and comment lines, CR, tabs, bad numbers, long ids and lines,
    # repeats) in one file, plain lines in the other, small bounds and chunks: the array path gives the values of
    # the per-topic path, or leaves the files to it and so its error (file:line)
    from irlab.trec import diversity_base

    rnd = random.Random(seed)
    plain = {"qrels": b"1 1 a 1\n1 2 b 1\n2 1 c 2\n10 s d 1\n", "run": b"1 Q0 a 1 1 r\n2 Q0 c 5 0.5 r\n10 Q0 b 2 1 r\n"}
    options = dict(alpha=0.5, beta=0.5, traditional=rnd.random() < 0.3, depth=None, complete=rnd.random() < 0.3,
                   relevance_level=rnd.choice([0, 1, 2]))
    with tempfile.TemporaryDirectory() as folder, monkeypatch.context() as patch:
        for name, value in (("MAX_LINE_BYTES", 40), ("MAX_ID_BYTES", 12), ("MAX_SKIPPED_LINES", 3),
                            ("_CHUNK_BYTES", chunk)):
            patch.setattr(diversity_base, name, value)
        q, r = Path(folder) / "qrels", Path(folder) / "run"
        q.write_bytes(faulty_lines(rnd, "qrels") if what == "qrels" else plain["qrels"])
        r.write_bytes(faulty_lines(rnd, "run") if what == "run" else plain["run"])
        outcomes = []
        for files in ((str(q), str(r)), None):
            try:
                if files is None:
                    files = (read_diversity_qrels(q, relevance_level=options["relevance_level"]),
                             read_diversity_run(r, traditional=options["traditional"]))
                result = evaluate_diversity(*files, MEASURES, **options)
                outcomes.append(repr(sorted((t, sorted(v.items())) for t, v in result.per_topic.items())))
            except diversity.IrlabError as exc:
                outcomes.append(f"{type(exc).__name__}: {exc}")
    assert outcomes[0] == outcomes[1]
