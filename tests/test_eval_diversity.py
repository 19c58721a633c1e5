"""irlab eval --diversity: ndeval 4.5's measures on TREC diversity qrels (irlab/trec/diversity.py).

The oracle is pyndeval 0.0.8, ndeval.c's own code behind a Python interface: it takes (qid, docno, score) and
ranks by score, so each run is handed to it with score = -position in the order irlab reads (by rank, or with
--traditional by score then docno).  pyndeval prints no mean: ndeval's is the plain mean of the per-topic values
over the topics of both files (every qrels topic with -c), computed here from pyndeval's per-topic values.
"""

from __future__ import annotations

import gzip
import json
import math
import random
import tempfile
from fractions import Fraction
from math import log2
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from diversity_files import faulty_lines
from irlab.cli import main
from irlab.errors import InputFileError, IrlabError, ParameterError
from irlab.trec.diversity import (NDEVAL_MEASURES, evaluate_diversity, greedy_ideal, parse_diversity_measures,
                                  read_diversity_qrels)

pyndeval = pytest.importorskip("pyndeval")

# ---------------------------------------------------------------------------
# generated cases


@st.composite
def diversity_cases(draw):
    """(qrels lines, run lines, alpha, beta, level, depth, complete, cut-offs): a few topics, up to 5 subtopics and
    40 documents each; judgments 0-3; some run documents unjudged; ranks with gaps, lines in any order; a run topic
    without judgments and a qrels topic without results now and then."""
    rnd = random.Random(draw(st.integers(0, 2**32 - 1)))
    qrels, run = [], []
    topics = rnd.randint(1, 4)
    for t in range(1, topics + 2):
        docs = [f"D{t}-{i:02d}" for i in range(rnd.randint(1, 40))]
        judged_topic = t <= topics
        run_topic = t < topics or t > topics or rnd.random() < 0.7   # the last judged topic may have no results
        if judged_topic:
            for s in range(1, rnd.randint(1, 5) + 1):
                share = rnd.choice([0.0, 0.1, 0.3, 0.6])
                for d in docs:
                    if rnd.random() < share:
                        qrels.append((str(t), str(s), d, rnd.choice([1, 1, 2, 3])))
                    elif rnd.random() < 0.2:
                        qrels.append((str(t), str(s), d, 0))
        elif rnd.random() < 0.5:
            continue   # no run-only topic this time
        if run_topic:
            ranked = rnd.sample(docs + [f"U{t}-{i}" for i in range(8)], rnd.randint(1, len(docs) + 8))
            ranks = sorted(rnd.sample(range(0, 3 * len(ranked) + 5), len(ranked)))
            for rank, d in zip(ranks, ranked):
                run.append((str(t), d, rank, rnd.choice([rnd.random(), float(rnd.randint(0, 3))])))
    if not qrels:
        qrels.append(("1", "1", "D1-00", 1))
    if not run:
        run.append(("1", "D1-00", 1, 1.0))
    alpha = draw(st.sampled_from([0.5, 0.5, 0.0, 1.0, 0.25, 0.3, 0.75, 0.9]))
    beta = draw(st.sampled_from([0.5, 0.5, 0.0, 1.0, 0.2, 0.8]))
    level = draw(st.sampled_from([1, 1, 1, 2, 0]))
    depth = draw(st.sampled_from([None, None, 1, 3, 10, 25]))
    complete = draw(st.booleans())
    cutoffs = sorted(set(draw(st.lists(st.integers(2, 20), min_size=1, max_size=3))))
    return qrels, run, alpha, beta, level, depth, complete, cutoffs


def write_case(folder, qrels, run, shuffle_seed=0):
    rnd = random.Random(shuffle_seed)
    q_lines = [f"{t} {s} {d} {j}\n" for t, s, d, j in qrels]
    r_lines = [f"{t} Q0 {d} {rank} {score!r} myrun\n" for t, d, rank, score in run]
    rnd.shuffle(q_lines)
    rnd.shuffle(r_lines)   # ndeval orders each topic itself
    (folder / "qrels").write_text("".join(q_lines))
    (folder / "run").write_text("".join(r_lines))
    return str(folder / "qrels"), str(folder / "run")


def ordered_run(run, traditional):
    """{topic: docnos} in ndeval's order: by rank, or (-traditional) by score then docno, both descending."""
    by_topic = {}
    for t, d, rank, score in run:
        by_topic.setdefault(t, []).append((rank, score, d))
    key = (lambda row: (row[1], row[2])) if traditional else (lambda row: row[0])
    return {t: [row[2] for row in sorted(rows, key=key, reverse=traditional)] for t, rows in by_topic.items()}


def pyndeval_values(qrels, run, measures, *, alpha, beta, level, depth, traditional=False):
    """pyndeval's per-topic values for the run in ndeval's order (pyndeval ranks by score: score = -position)."""
    # subtopics in numeric order first: pyndeval numbers them by first appearance and sums gains in that order,
    # ndeval (and irlab) by subtopic number
    ordered_qrels = sorted(qrels, key=lambda q: (int(q[1]), q[0], q[2]))
    evaluator = pyndeval.RelevanceEvaluator(ordered_qrels, measures, relevance_level=max(level, 0), alpha=alpha,
                                            beta=beta)
    scored = []
    for t, docs in ordered_run(run, traditional).items():
        docs = docs if depth is None else docs[:depth]
        scored += [(t, d, -float(i)) for i, d in enumerate(docs)]
    return evaluator.evaluate(scored)


def close(a, b, tolerance=1e-9):
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    return abs(a - b) <= tolerance


# ---------------------------------------------------------------------------
# equality with ndeval (pyndeval)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(diversity_cases(), st.booleans())
def test_every_measure_equals_pyndeval_per_topic_and_mean(case, traditional):
    qrels, run, alpha, beta, level, depth, complete, cutoffs = case
    measures = list(NDEVAL_MEASURES) + [f"{family}@{k}" for family in ("ERR-IA", "nERR-IA", "alpha-DCG",
                                                                       "alpha-nDCG", "P-IA", "strec") for k in cutoffs]
    measures = list(dict.fromkeys(measures))
    with tempfile.TemporaryDirectory() as folder:
        q_path, r_path = write_case(Path(folder), qrels, run)
        judged = {q[0] for q in qrels}
        ran = {r[0] for r in run}
        if not judged & ran and not complete:
            with pytest.raises(IrlabError, match="no topic has both"):
                evaluate_diversity(q_path, r_path, measures, alpha=alpha, beta=beta, relevance_level=level)
            return
        result = evaluate_diversity(q_path, r_path, measures, alpha=alpha, beta=beta, traditional=traditional,
                                    depth=depth, complete=complete, relevance_level=level)
    expected = pyndeval_values(qrels, run, measures, alpha=alpha, beta=beta, level=level, depth=depth,
                               traditional=traditional)
    assert set(expected) == judged & ran   # pyndeval: the topics of both files
    assert set(result.per_topic) == (judged if complete else judged & ran)
    assert result.columns == measures
    for topic, values in expected.items():
        for m in measures:
            assert close(result.per_topic[topic][m], values[m]), (topic, m, result.per_topic[topic][m], values[m])
    for topic in (judged - ran) if complete else ():   # -c: a qrels topic without results counts 0
        assert all(v == 0.0 for v in result.per_topic[topic].values())
    for m in measures:
        mean = math.fsum(values[m] for values in expected.values()) / len(result.per_topic)
        assert close(result.summary[m], mean), (m, result.summary[m], mean)


EXACT = ("alpha-nDCG", "alpha-DCG", "ERR-IA", "nERR-IA", "strec", "P-IA")


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(diversity_cases(), st.sampled_from([Fraction(1, 2), Fraction(1, 4), Fraction(3, 4), Fraction(1)]),
       st.integers(1, 12))
def test_the_fast_path_equals_the_exact_library(case, alpha, k):
    # irlab.metrics.diversity computes with Fractions (and sympy's exact logs): the source of truth. alpha is a
    # short binary fraction, so ndeval's float comparisons in the greedy ideal decide ties as exact ones do
    from irlab.metrics import diversity as exact_diversity

    qrels, run, _, _, level, depth, _, _ = case
    level = max(level, 1)
    measures = [f"{family}@{k}" for family in EXACT]
    with tempfile.TemporaryDirectory() as folder:
        q_path, r_path = write_case(Path(folder), qrels, run)
        if not {q[0] for q in qrels} & {r[0] for r in run}:
            return
        result = evaluate_diversity(q_path, r_path, measures, alpha=float(alpha), depth=depth,
                                    relevance_level=level)
    judgments = {}
    for t, s, d, j in qrels:
        judgments.setdefault(t, {}).setdefault(d, {})[s] = j
    functions = {"alpha-nDCG": exact_diversity.alpha_ndcg, "alpha-DCG": exact_diversity.alpha_dcg,
                 "ERR-IA": exact_diversity.err_ia, "nERR-IA": exact_diversity.nerr_ia}
    for topic, docs in ordered_run(run, traditional=False).items():
        if topic not in judgments:
            continue
        ranking = exact_diversity.IntentRanking.from_qrels(docs if depth is None else docs[:depth], judgments[topic],
                                                           relevance_level=level)
        for family in EXACT:
            if family in functions:
                exact_value = functions[family](ranking, k=k, alpha=alpha)
            else:
                exact_value = {"strec": exact_diversity.subtopic_recall,
                               "P-IA": exact_diversity.precision_ia}[family](ranking, k=k)
            fast = result.per_topic[topic][f"{family}@{k}"]
            assert abs(fast - float(exact_value)) <= 1e-12, (topic, family, k, fast, float(exact_value))


def test_at_rank_1_irlab_divides_by_the_ideal_ideal_list_where_ndeval_does_not():
    # ndeval's computeDCG/computeERR divide by the "ideal ideal" list from index 1 on, so alpha-DCG@1 and ERR-IA@1
    # come out S times too large (pyndeval: 2.0 for a first document relevant to 2 of 3 subtopics); irlab: 2/3
    qrels = [("1", "1", "a", 1), ("1", "2", "a", 1), ("1", "3", "c", 1)]
    run = [("1", "a", 1, 2.0), ("1", "c", 2, 1.0)]
    measures = ["alpha-DCG@1", "ERR-IA@1", "alpha-nDCG@1", "nERR-IA@1"]
    expected = pyndeval_values(qrels, run, measures, alpha=0.5, beta=0.5, level=1, depth=None)["1"]
    with tempfile.TemporaryDirectory() as folder:
        result = evaluate_diversity(*write_case(Path(folder), qrels, run), measures)
    assert expected["alpha-DCG@1"] == expected["ERR-IA@1"] == 2.0
    assert result.per_topic["1"]["alpha-DCG@1"] == result.per_topic["1"]["ERR-IA@1"] == 2 / 3
    assert result.per_topic["1"]["alpha-nDCG@1"] == expected["alpha-nDCG@1"] == 1.0
    assert result.per_topic["1"]["nERR-IA@1"] == expected["nERR-IA@1"] == 1.0


# ---------------------------------------------------------------------------
# a case worked by hand

HAND_QRELS = "7 1 a 1\n7 2 a 1\n7 2 b 2\n7 3 c 1\n7 1 d 0\n"
HAND_RUN = "7 Q0 b 1 5.0 hand\n7 Q0 a 2 4.0 hand\n7 Q0 x 3 3.0 hand\n7 Q0 c 4 2.0 hand\n7 Q0 d 5 1.0 hand\n"


@pytest.fixture()
def hand(tmp_path):
    (tmp_path / "qrels").write_text(HAND_QRELS)
    (tmp_path / "run").write_text(HAND_RUN)
    return str(tmp_path / "qrels"), str(tmp_path / "run")


def test_alpha_ndcg_at_5_worked_by_hand(hand):
    # α = 1/2. Run b, a, x, c, d:
    #   b {2}: gain 1 (s2 seen once);  a {1,2}: 1 + (1/2) = 3/2;  x unjudged: 0;  c {3}: 1;  d judged 0: 0
    #   DCG@5 = 1/log2(2) + (3/2)/log2(3) + 1/log2(5)
    # greedy ideal: a (gain 2), then c (1 > b's 1/2), then b (1/2):
    #   ideal DCG@5 = 2 + 1/log2(3) + (1/2)/log2(4)
    # alpha-nDCG@5 = 2.377072 / 2.880930 = 0.825106
    # ERR-IA@5: run (1 + (3/2)/2 + 1/4) over the ideal ideal 3(1 + 1/4 + 1/12 + 1/32 + 1/160) = 4.13125: 0.484115
    # P-IA@5: 4 (document, subtopic) pairs over 5 ranks x 3 subtopics = 4/15; strec@1 = 1/3, strec@5 = 1
    result = evaluate_diversity(*hand, ["alpha-nDCG@5", "ERR-IA@5", "P-IA@5", "strec@1,5"])
    by_hand = (1 + 1.5 / log2(3) + 1 / log2(5)) / (2 + 1 / log2(3) + 0.5 / log2(4))
    assert result.per_topic["7"]["alpha-nDCG@5"] == pytest.approx(by_hand, abs=1e-12)
    assert result.per_topic["7"]["ERR-IA@5"] == pytest.approx((1 + 1.5 / 2 + 1 / 4) / 4.13125, abs=1e-12)
    assert result.per_topic["7"]["P-IA@5"] == 4 / 15
    assert (result.per_topic["7"]["strec@1"], result.per_topic["7"]["strec@5"]) == (1 / 3, 1.0)
    topic = read_diversity_qrels(hand[0]).topics[b"7"]
    assert greedy_ideal(topic, 0.5) == [(b"a", 2.0), (b"c", 1.0), (b"b", 0.5)]


def test_ideal_ties_go_to_the_largest_docno(tmp_path):
    # b and z relevant to subtopic 1, m to subtopic 2: all gain 1 at rank 1, and ndeval's strcmp rule takes 'z';
    # then m (gain 1, its subtopic fresh) before b (1/2); the smallest-docno rule would give b, m, z
    (tmp_path / "qrels").write_text("1 1 b 1\n1 2 m 1\n1 1 z 1\n")
    topic = read_diversity_qrels(tmp_path / "qrels").topics[b"1"]
    assert greedy_ideal(topic, 0.5) == [(b"z", 1.0), (b"m", 1.0), (b"b", 0.5)]


def test_traditional_orders_by_score_then_docno_descending(tmp_path):
    # ndeval's resultCompareByScore: score descending, then strcmp(b, a): docno descending. The ranks say c, b, a;
    # by score, b and c tie at 2 and c (larger) comes first: c, b, a; a alone relevant: P-IA@1 tells the order.
    (tmp_path / "qrels").write_text("1 1 a 1\n1 1 b 0\n")
    (tmp_path / "run").write_text("1 Q0 a 1 1 r\n1 Q0 b 2 2 r\n1 Q0 c 3 2 r\n")
    by_rank = evaluate_diversity(tmp_path / "qrels", tmp_path / "run", ["strec@1", "MAP-IA"])
    by_score = evaluate_diversity(tmp_path / "qrels", tmp_path / "run", ["strec@1", "MAP-IA"], traditional=True)
    assert by_rank.summary == {"strec@1": 1.0, "MAP-IA": 1.0}      # a, b, c
    assert by_score.summary == {"strec@1": 0.0, "MAP-IA": 1 / 3}   # c, b, a: a at rank 3


# ---------------------------------------------------------------------------
# the command line


def test_default_prints_ndeval_columns_in_trec_eval_layout(hand, cli):
    done = cli("eval", "--diversity", *hand)
    assert done.returncode == 0 and done.stderr == ""
    lines = done.stdout.splitlines()
    assert [line.split("\t")[0].rstrip() for line in lines] == list(NDEVAL_MEASURES)
    assert lines[NDEVAL_MEASURES.index("alpha-nDCG@5")] == "alpha-nDCG@5          \tall\t0.8251"   # by hand above
    assert all(line.split("\t")[1] == "all" for line in lines)


def test_q_m_and_nosummary(hand, tmp_path, cli):
    (tmp_path / "q2").write_text(HAND_QRELS + "8 1 e 1\n")
    (tmp_path / "r2").write_text(HAND_RUN + "8 Q0 e 1 1 hand\n")
    done = cli("eval", "--diversity", "-q", "-m", "alpha-nDCG@5", "-m", "strec@5,P-IA@5", str(tmp_path / "q2"),
               str(tmp_path / "r2"))
    # topic 8: its one document, relevant to its one subtopic, at rank 1: every measure 1 but P-IA@5 = 1/5
    assert done.stdout == ("alpha-nDCG@5          \t7\t0.8251\nstrec@5               \t7\t1.0000\n"
                           "P-IA@5                \t7\t0.2667\n"
                           "alpha-nDCG@5          \t8\t1.0000\nstrec@5               \t8\t1.0000\n"
                           "P-IA@5                \t8\t0.2000\n"
                           "alpha-nDCG@5          \tall\t0.9126\nstrec@5               \tall\t1.0000\n"
                           "P-IA@5                \tall\t0.2333\n")
    done = cli("eval", "--diversity", "-q", "-n", "-m", "strec@1", str(tmp_path / "q2"), str(tmp_path / "r2"))
    assert done.stdout == "strec@1               \t7\t0.3333\nstrec@1               \t8\t1.0000\n"


def test_csv_and_json_carry_the_same_values(hand, cli):
    text = cli("eval", "--diversity", "-q", "-m", "ERR-IA@20,NRBP", *hand).stdout
    csv = cli("eval", "--diversity", "-q", "--format", "csv", "-m", "ERR-IA@20,NRBP", *hand).stdout
    doc = json.loads(cli("eval", "--diversity", "-q", "--format", "json", "-m", "ERR-IA@20,NRBP", *hand).stdout)
    assert csv.splitlines()[0] == "measure,topic,value"
    rows = [line.split(",") for line in csv.splitlines()[1:]]
    assert [(m, t) for m, t, _ in rows] == [("ERR-IA@20", "7"), ("NRBP", "7"), ("ERR-IA@20", "all"), ("NRBP", "all")]
    assert [f"{float(v):6.4f}" for _, _, v in rows] == [line.split("\t")[2] for line in text.splitlines()]
    assert doc["runid"] == "hand" and doc["measures"] == ["ERR-IA@20", "NRBP"]
    assert doc["per_topic"]["7"]["NRBP"] == doc["summary"]["NRBP"] == float(rows[1][2])


def test_options_reach_the_evaluator(hand, cli):
    # --alpha 1: a subtopic counts once; -M 2 keeps b, a; -l 2 keeps only b's judgment of 2
    def value(*options):
        done = cli("eval", "--diversity", *options, "-m", "alpha-DCG@5", *hand)
        assert done.returncode == 0, done.stderr
        return float(done.stdout.split("\t")[2])
    # DCG@5 = 2.377072 (above) over the ideal ideal 3(1 + (1/2)/log2(3) + (1/4)/2 + (1/8)/log2(5) + (1/16)/log2(6))
    assert value() == pytest.approx((1 + 1.5 / log2(3) + 1 / log2(5)) / (3 * (
        1 + 0.5 / log2(3) + 0.25 / 2 + 0.125 / log2(5) + 0.0625 / log2(6))), abs=5e-5)   # 0.5218
    assert value("--alpha", "1") != value() and value("--alpha", "1/2") == value("--alpha", "0.5") == value()
    assert value("-M", "2") < value()
    assert value("-l", "2") != value()
    assert value("--beta", "0.9") == value()   # beta is NRBP's only


def test_qrels_topic_without_results_and_run_topic_without_judgments(hand, tmp_path, cli):
    (tmp_path / "q2").write_text(HAND_QRELS + "8 1 e 1\n")
    (tmp_path / "r2").write_text(HAND_RUN + "9 Q0 e 1 1 hand\n")
    done = cli("eval", "--diversity", "-q", "-m", "strec@5", str(tmp_path / "q2"), str(tmp_path / "r2"))
    # as ndeval: the mean is over the topics of both files (7 only); 9 is not printed (ndeval: a line of zeros)
    assert done.stdout == "strec@5               \t7\t1.0000\nstrec@5               \tall\t1.0000\n"
    assert "1 qrels topic has no results" in done.stderr and ": 8;" in done.stderr and "-c counts" in done.stderr
    assert "1 run topic has no judgments" in done.stderr and "not evaluated" in done.stderr
    done = cli("eval", "--diversity", "-q", "-c", "-m", "strec@5", str(tmp_path / "q2"), str(tmp_path / "r2"))
    # -c: every qrels topic, 8 counting 0 (ndeval's -c divides by the qrels topics)
    assert done.stdout == ("strec@5               \t7\t1.0000\nstrec@5               \t8\t0.0000\n"
                           "strec@5               \tall\t0.5000\n")


def test_run_topic_ndeval_would_read_as_a_number_is_named(tmp_path, cli):
    (tmp_path / "r").write_text("51 Q0 a 1 1 r\nwt09-52 Q0 a 1 1 r\n052 Q0 b 1 1 r\n")
    (tmp_path / "q").write_text("51 1 a 1\n52 1 a 1\n")
    done = cli("eval", "--diversity", "-m", "strec@5", str(tmp_path / "q"), str(tmp_path / "r"))
    assert "ndeval would read run topics as numbers (052 as 52, wt09-52 as 52)" in done.stderr


def test_topic_without_relevant_document_has_nan_nnrbp_as_ndeval(tmp_path, cli):
    (tmp_path / "q").write_text("1 1 a 1\n2 1 b 0\n")
    (tmp_path / "r").write_text("1 Q0 a 1 1 r\n2 Q0 b 1 1 r\n")
    done = cli("eval", "--diversity", "-q", "-m", "nNRBP,strec@5", str(tmp_path / "q"), str(tmp_path / "r"))
    assert done.stdout.splitlines() == ["nNRBP                 \t1\t1.0000", "strec@5               \t1\t1.0000",
                                        "nNRBP                 \t2\t  -nan", "strec@5               \t2\t0.0000",
                                        "nNRBP                 \tall\t  -nan", "strec@5               \tall\t0.5000"]
    assert "no document judged relevant" in done.stderr and ": 2" in done.stderr


def test_gzip_files_are_read(hand, tmp_path, cli):
    for name in ("qrels", "run"):
        with gzip.open(tmp_path / f"{name}.gz", "wt") as f:
            f.write(Path(hand[0] if name == "qrels" else hand[1]).read_text())
    plain = cli("eval", "--diversity", *hand).stdout
    assert cli("eval", "--diversity", str(tmp_path / "qrels.gz"), str(tmp_path / "run.gz")).stdout == plain


# ---------------------------------------------------------------------------
# bad input: one line naming file:line, exit 2


@pytest.mark.parametrize("qrels, line, problem", [
    ("7 1 a 1\n7 2 b\n", 2, "expected 4 fields (topic subtopic docno judgment"),
    ("7 1 a 1\n7 2 b 1 x\n", 2, "expected 4 fields"),
    ("7 1 a 1\n\n7 2 b 1.5\n", 3, "judgment '1.5' is not a whole number"),
    ("7 1 a -1\n", 1, "judgment '-1' is negative"),
    ("7 1 a 1\n7 1 a 0\n", 2, "judged twice for topic '7', subtopic '1' (first on line 1)"),
    ("7 1 a 1\n7 1 " + "d" * 300 + " 1\n", 2, "has at most 255 (irlab's limit MAX_ID_BYTES)"),
    ("# only a comment\n", None, "no data lines"),
])
def test_bad_qrels_lines(tmp_path, cli, qrels, line, problem):
    (tmp_path / "q").write_text(qrels)
    (tmp_path / "r").write_text("7 Q0 a 1 1 r\n")
    done = cli("eval", "--diversity", str(tmp_path / "q"), str(tmp_path / "r"))
    where = f"{tmp_path / 'q'}:{line}: " if line else f"{tmp_path / 'q'}: "
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith(f"irlab: error: {where}") and problem in done.stderr, done.stderr
    assert len(done.stderr.splitlines()) == 1


@pytest.mark.parametrize("run, line, problem", [
    ("7 Q0 a 1 1\n", 1, "expected 6 fields (topic Q0 docno rank score runid), found 5"),
    ("7 Q0 a 1 1 r\n7 Q0 b x 1 r\n", 2, "rank 'x' is not a whole number"),
    ("7 Q0 a -1 1 r\n", 1, "rank '-1' is negative"),
    ("7 Q0 a 1 nan r\n", 1, "score 'nan' is not a finite number"),
    ("7 Q0 a 1 1 r\n7 Q0 a 2 1 r\n", 2, "duplicate docno 'a' for topic '7' in run (first on line 1)"),
    ("7 Q0 a 3 1 r\n7 Q0 b 3 1 r\n", 2, "duplicate rank 3 for topic '7' in run (first on line 1)"),
    ("7 Q0 a 1 1 r\n" + "x" * 10_001 + "\n", 2, "longer than 10,000 bytes (irlab's limit MAX_LINE_BYTES"),
])
def test_bad_run_lines(tmp_path, cli, run, line, problem):
    (tmp_path / "q").write_text("7 1 a 1\n")
    (tmp_path / "r").write_text(run)
    done = cli("eval", "--diversity", str(tmp_path / "q"), str(tmp_path / "r"))
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith(f"irlab: error: {tmp_path / 'r'}:{line}: ") and problem in done.stderr, done.stderr


def test_duplicate_rank_is_no_error_with_traditional(tmp_path, cli):
    (tmp_path / "q").write_text("7 1 a 1\n")
    (tmp_path / "r").write_text("7 Q0 a 3 1 r\n7 Q0 b 3 2 r\n")
    done = cli("eval", "--diversity", "--traditional", "-m", "strec@1", str(tmp_path / "q"), str(tmp_path / "r"))
    assert done.returncode == 0 and done.stdout == "strec@1               \tall\t0.0000\n"   # b (score 2) first


@pytest.mark.parametrize("options, problem", [
    (["--alpha", "2"], "--alpha must be between 0 and 1"),
    (["--beta", "-0.1"], "--beta must be between 0 and 1"),
    (["--alpha", "abc"], "--alpha: not a number"),
    (["-m", "alpha-nDCG@0"], "a cut-off is a whole number >= 1, got '0'"),
    (["-m", "alpha-nDCG@20001"], "at most 20,000"),
    (["-m", "NRBP@5"], "NRBP is a measure of the whole run and takes no cut-off"),
    (["-m", "map"], "unknown diversity measure 'map'"),
    (["-m", "NRBP,,MAP-IA"], "empty diversity measure name"),
    (["-J"], "-J has no meaning with --diversity"),
    (["-N", "5"], "-N has no meaning with --diversity"),
    (["-l", "-1"], "relevance level (-l) must be >= 0"),
])
def test_bad_options(hand, cli, options, problem):
    done = cli("eval", "--diversity", *options, *hand)
    assert done.returncode == 2 and problem in done.stderr and len(done.stderr.splitlines()) == 1, done.stderr


@pytest.mark.parametrize("option", [["--alpha", "0.3"], ["--beta", "0.3"], ["--traditional"]])
def test_ndeval_options_need_diversity(hand, cli, option):
    done = cli("eval", *option, *hand)
    assert done.returncode == 2 and "is an option of --diversity" in done.stderr


def test_library_errors_are_irlab_errors(hand):
    with pytest.raises(ParameterError, match="alpha"):
        evaluate_diversity(*hand, alpha=1.5)
    with pytest.raises(ParameterError, match="-M"):
        evaluate_diversity(*hand, depth=-1)
    with pytest.raises(InputFileError, match="cannot open"):
        evaluate_diversity(hand[0] + ".missing", hand[1])
    assert [m.column for m in parse_diversity_measures(None)] == list(NDEVAL_MEASURES)


def test_greedy_ideal_work_is_bounded(tmp_path, cli, monkeypatch):
    # ndeval's greedy ideal is quadratic: documents x distinct subtopic sets is bounded (MAX_IDEAL_WORK), so a
    # hostile qrels file ends with one error naming the limit; a small bound stands in for the real one here
    from irlab.trec import diversity

    monkeypatch.setattr(diversity, "MAX_IDEAL_WORK", 5)
    (tmp_path / "q").write_text("1 1 a 1\n1 2 b 1\n1 3 c 1\n")   # 3 documents x 3 sets = 9 > 5
    (tmp_path / "r").write_text("1 Q0 a 1 1 r\n")
    done = cli("eval", "--diversity", str(tmp_path / "q"), str(tmp_path / "r"))
    assert done.returncode == 2
    assert "topic '1' has 3 relevant documents covering 3 different sets of subtopics" in done.stderr
    assert "MAX_IDEAL_WORK" in done.stderr
    (tmp_path / "q").write_text("1 1 a 1\n1 1 b 1\n1 1 c 1\n")   # 3 documents x 1 set: within the bound
    assert cli("eval", "--diversity", str(tmp_path / "q"), str(tmp_path / "r")).returncode == 0


def test_ideal_cut_to_the_depth_that_counts_changes_nothing(tmp_path):
    # the greedy ideal is computed only to the largest cut-off (and, for nNRBP, while the last gain times beta^i,
    # a bound on every later term, is at least half the float spacing above the sum): the same values, to the
    # last bit, as from the whole ideal ranking
    rnd = random.Random(7)
    lines = [f"1 {s} d{d:03d} 1" for d in range(300) for s in range(1, 7) if rnd.random() < 0.3]
    (tmp_path / "q").write_text("\n".join(lines) + "\n")
    (tmp_path / "r").write_text("".join(f"1 Q0 d{d:03d} {i} 1 r\n" for i, d in enumerate(rnd.sample(range(300), 200))))
    qrels = read_diversity_qrels(tmp_path / "q")
    from irlab.trec.diversity import read_diversity_run, topic_values

    ranked = read_diversity_run(tmp_path / "r").topics[b"1"]
    topic = qrels.topics[b"1"]
    whole = greedy_ideal(topic, 0.5)
    assert len(whole) > 250
    for measures in (["ndeval"], ["alpha-nDCG@20,nERR-IA@5"]):
        plan = parse_diversity_measures(measures)
        for alpha in (0.0, 0.5, 0.9):
            whole = greedy_ideal(topic, alpha)
            # beta^i soon negligible at 0.05 or 0.5, 0 after one rank at 0; at 0.99 or 1 (alpha 0) far down
            for beta in (0.0, 0.05, 0.5, 0.9, 0.99, 1.0):
                assert topic_values(topic, ranked, plan, alpha=alpha, beta=beta) == topic_values(
                    topic, ranked, plan, alpha=alpha, beta=beta, ideal=whole)


def test_ideal_cut_changes_nothing_on_many_small_topics(tmp_path):
    # as above, on 40 generated topics of 1-8 subtopics and uneven relevance, at alpha and beta off the usual grid
    rnd = random.Random(11)
    lines = [f"{t} {s} d{d:03d} {rnd.choice((0, 1, 1, 2))}" for t in range(40) for d in range(rnd.randint(1, 90))
             for s in range(1, rnd.randint(2, 9)) if rnd.random() < 0.5]
    (tmp_path / "q").write_text("\n".join(lines) + "\n")
    (tmp_path / "r").write_text("".join(f"{t} Q0 d{d:03d} {i} 1 r\n" for t in range(40)
                                        for i, d in enumerate(rnd.sample(range(100), 60))))
    from irlab.trec.diversity import read_diversity_run, topic_values

    qrels, run = read_diversity_qrels(tmp_path / "q"), read_diversity_run(tmp_path / "r")
    plan = parse_diversity_measures(["nNRBP,alpha-nDCG@3"])
    checked = 0
    for name, topic in qrels.topics.items():
        for alpha, beta in ((0.3, 0.7), (0.5, 0.5), (0.9, 0.95), (0.1, 0.2)):
            whole = greedy_ideal(topic, alpha)
            assert topic_values(topic, run.topics[name], plan, alpha=alpha, beta=beta) == topic_values(
                topic, run.topics[name], plan, alpha=alpha, beta=beta, ideal=whole)
            checked += bool(topic.subtopics)
    assert checked > 100


# ---------------------------------------------------------------------------
# diversity qrels read without --diversity

EXERCISES = Path(__file__).resolve().parent.parent / "exercises" / "diversity"


def test_diversity_qrels_without_diversity_say_how_to_read_them(cli):
    # qrels.txt judges both-1 for subtopic 1 (line 1) and subtopic 2 (line 11): to trec_eval's reader a repeat
    done = cli("eval", "-m", "ndcg_cut.5", str(EXERCISES / "qrels.txt"), str(EXERCISES / "redundant.txt"))
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr == (f"irlab: error: {EXERCISES / 'qrels.txt'}:11: duplicate docno 'both-1' for topic '51' in "
                           "qrels (first on line 1); a diversity qrels file (topic subtopic docno judgment) repeats a "
                           "docno once per subtopic: irlab eval reads one with --diversity\n")
    assert cli("eval", "--diversity", "-m", "strec@5", str(EXERCISES / "qrels.txt"),
               str(EXERCISES / "redundant.txt")).returncode == 0


def test_the_hint_is_for_qrels_only(tmp_path):
    # a run repeating a docno is no diversity file: its message is as before, without the hint
    from irlab.trec import read_qrels, read_run

    (tmp_path / "run").write_text("1 Q0 d1 1 3 r\n1 Q0 d1 2 2 r\n")
    with pytest.raises(InputFileError) as run_error:
        read_run(tmp_path / "run")
    assert str(run_error.value) == f"{tmp_path / 'run'}:2: duplicate docno 'd1' for topic '1' in run (first on line 1)"
    (tmp_path / "qrels").write_text("1 0 d1 1\n1 0 d2 0\n1 0 d1 0\n")
    with pytest.raises(InputFileError, match=r"qrels:3: duplicate docno 'd1' for topic '1' in qrels \(first on line "
                                             r"1\); a diversity qrels file .* with --diversity\Z"):
        read_qrels(tmp_path / "qrels")


# ---------------------------------------------------------------------------
# the bulk reading equals the line-by-line reading: values, and the first error with its file:line

def _outcome(read, path, **options):
    try:
        got = read(path, **options)
    except IrlabError as exc:
        return type(exc).__name__, str(exc)
    return repr(got)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.integers(0, 2**32 - 1), st.sampled_from(["qrels", "run"]), st.sampled_from([7, 31, 64, 250, 1 << 22]))
def test_bulk_reading_equals_the_line_by_line_reading(monkeypatch, seed, what, chunk):
    # small bounds (line 40 bytes, id 12, 3 blank lines) and chunks so that every fault and chunk edge is met
    from irlab.trec import diversity, diversity_base

    rnd = random.Random(seed)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / what
        path.write_bytes(faulty_lines(rnd, what))
        read = diversity.read_diversity_qrels if what == "qrels" else diversity.read_diversity_run
        options = {"relevance_level": rnd.choice([0, 1, 2])} if what == "qrels" else {"traditional": rnd.random() < 0.3}
        with monkeypatch.context() as patch:
            for name, value in (("MAX_LINE_BYTES", 40), ("MAX_ID_BYTES", 12), ("MAX_SKIPPED_LINES", 3),
                                ("_CHUNK_BYTES", chunk)):
                patch.setattr(diversity_base, name, value)
            bulk = _outcome(read, path, **options)
            patch.setattr(diversity.DiversityLines, "bulk", lambda self, buf: None)   # every chunk line by line
            one_by_one = _outcome(read, path, **options)
    assert bulk == one_by_one


@settings(max_examples=2000, deadline=None)
@given(st.text(alphabet="0123456789.eE+-_ in", max_size=8).filter(bool))
def test_scores_checked_in_bulk_as_one_by_one(score):
    # a score is read in bulk by float() when it has only digits, '.', 'e', 'E', '+' and '-': float() then accepts
    # exactly what the line-by-line check (FLOAT_TOKEN and a finite value) accepts
    from irlab.trec.diversity import FLOAT_TOKEN, finite_scores

    token = score.encode()
    one_by_one = bool(FLOAT_TOKEN.match(token)) and math.isfinite(float(token))
    assert (finite_scores([token]) is not None) == one_by_one
