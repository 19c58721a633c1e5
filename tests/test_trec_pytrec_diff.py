"""Differential test against pytrec_eval (trec_eval 9.x inside) on random inputs.

Only measures where trec_eval 9 and 10 agree are compared (not
iprec_at_recall / 11pt_avg, whose recall points changed in version 10)."""

import math
import os
import random
import tempfile

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pytrec_eval = pytest.importorskip("pytrec_eval")

from irlab.trec import evaluate  # noqa: E402

MEASURES = ["num_ret", "num_rel", "num_rel_ret", "map", "Rprec", "bpref", "recip_rank",
            "P", "recall", "infAP", "Rprec_mult", "utility", "binG", "G", "ndcg", "ndcg_rel",
            "Rndcg", "ndcg_cut", "map_cut", "relative_P", "success", "set_P",
            "set_relative_P", "set_recall", "set_map", "set_F", "num_nonrel_judged_ret"]

DOCS = [f"d{i}" for i in range(8)] + ["D1", "d10", "a"]

topic_st = st.fixed_dictionaries({
    "run": st.dictionaries(st.sampled_from(DOCS), st.sampled_from([0.5, 1.0, 1.0, 2.0, 3.25, -1.0]),
                           min_size=1, max_size=10),
    "qrels": st.dictionaries(st.sampled_from(DOCS), st.integers(-2, 3), min_size=1, max_size=10),
    # trec_eval 9 (inside pytrec_eval) crashes on a topic whose grades are all negative
}).filter(lambda t: max(t["qrels"].values()) >= 0)
data_st = st.dictionaries(st.sampled_from(["1", "2", "10", "x"]), topic_st, min_size=1, max_size=3)


def _write(d, name, lines):
    p = os.path.join(d, name)
    with open(p, "w") as f:
        f.write("".join(lines))
    return p


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=data_st, level=st.sampled_from([1, 2, 3]), layout=st.sampled_from(["as-is", "sorted", "shuffled"]),
       seed=st.integers(0, 1000), judged_only=st.booleans())
def test_matches_pytrec_eval(data, level, layout, seed, judged_only):
    qrels = {t: dict(v["qrels"]) for t, v in data.items()}
    run = {t: dict(v["run"]) for t, v in data.items()}
    lines = [(t, doc, s) for t, v in run.items() for doc, s in v.items()]
    if layout == "sorted":      # usual run-file shape: grouped, score descending
        lines.sort(key=lambda x: (x[0], -x[2]))
    elif layout == "shuffled":  # topics interleaved
        random.Random(seed).shuffle(lines)
    with tempfile.TemporaryDirectory() as d:
        qp = _write(d, "q", [f"{t} 0 {doc} {g}\n" for t, v in qrels.items() for doc, g in v.items()])
        rp = _write(d, "r", [f"{t} Q0 {doc} 0 {s!r} run\n" for t, doc, s in lines])
        ours = evaluate(qp, rp, MEASURES, relevance_level=level, judged_only=judged_only)
    ev = pytrec_eval.RelevanceEvaluator(qrels, set(MEASURES), relevance_level=level,
                                        judged_docs_only_flag=judged_only)
    theirs = ev.evaluate(run)
    assert set(theirs) == set(ours.per_topic)
    for topic, vals in theirs.items():
        for name, v in vals.items():
            mine = ours.per_topic[topic][name]
            assert math.isclose(mine, v, rel_tol=1e-9, abs_tol=1e-9), (topic, name, mine, v)
