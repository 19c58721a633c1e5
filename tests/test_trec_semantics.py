"""trec_eval 10.0 behaviours the evaluator emulates, each with values worked out by hand from trec_eval's source."""

from __future__ import annotations

import math

import pytest

from irlab.trec import evaluate, format_text


def files(tmp_path, qrels, run):
    (tmp_path / "qrels").write_text(qrels)
    (tmp_path / "run").write_text(run)
    return tmp_path / "qrels", tmp_path / "run"


def test_summary_mean_adds_topic_by_topic(tmp_path):
    # P@20 per topic: 3/20, 1/20, 1/20 over three topics; sequential double sum then / 3 is what trec_eval prints
    qrels = "".join(f"{t} 0 d{i} 1\n" for t, n in (("1", 3), ("2", 1), ("3", 1)) for i in range(n))
    run = "".join(f"{t} Q0 d{i} {i} {100 - i} r\n" for t in ("1", "2", "3") for i in range(20))
    res = evaluate(*files(tmp_path, qrels, run), ["P.20"])
    expected = ((0.0 + 3 / 20) + 1 / 20) + 1 / 20
    assert res.summary["P_20"] == expected / 3


def test_interpolated_precision_keeps_the_exact_doubles(tmp_path):
    # 7 relevant retrieved at ranks 1..6 and 160: iprec at recall 1.0 (c = 7) is 7/160 -- printed 0.0437
    qrels = "".join(f"1 0 r{i} 1\n" for i in range(7))
    ranked = [f"r{i}" for i in range(6)] + [f"n{i}" for i in range(153)] + ["r6"]
    run = "".join(f"1 Q0 {d} {i} {1000 - i} x\n" for i, d in enumerate(ranked))
    res = evaluate(*files(tmp_path, qrels, run), ["iprec_at_recall.1"])
    assert res["1"]["iprec_at_recall_1.00"] == 7 / 160
    assert "0.0437" in format_text(res)


def test_levels_trec_eval_cannot_match_take_the_top_precision(tmp_path):
    # R = 4, relevant at ranks 2 and 5: lround(x * 4) for x = 0, .1, .3, .5, .9 -> 0, 0, 1, 2, 4
    qrels = "1 0 a 1\n1 0 b 1\n1 0 c 1\n1 0 d 1\n"
    run = "1 Q0 x 1 9 r\n1 Q0 a 2 8 r\n1 Q0 y 3 7 r\n1 Q0 z 4 6 r\n1 Q0 b 5 5 r\n"
    levels = "0,0.1,0.3,0.5,0.9"
    res = evaluate(*files(tmp_path, qrels, run), [f"iprec_at_recall.{levels}", f"11pt_avg.{levels}"])
    row = res["1"]
    # c=4 > 2 relevant retrieved: never reached (0, left out of 11pt_avg); c=2: max(2/5) ; c=1: max(1/2, 2/5); c=0: top
    assert [row[f"iprec_at_recall_{x:3.2f}"] for x in (0, 0.1, 0.3, 0.5, 0.9)] == [0.5, 0.5, 0.5, 0.4, 0.0]
    assert row[f"11pt_avg_{levels}"] == ((((0.0 + 0.4) + 0.5) + 0.5) + 0.5) / 5


def test_nothing_retrieved_under_J_is_zero_over_zero(tmp_path):
    q, r = files(tmp_path, "1 0 a 1\n", "1 Q0 b 1 1 r\n")
    res = evaluate(q, r, ["iprec_at_recall.0", "11pt_avg.0"], judged_only=True)
    assert math.isnan(res["1"]["iprec_at_recall_0.00"]) and math.isnan(res.summary["11pt_avg_0"])
    assert "iprec_at_recall_0.00  \tall\t  -nan" in format_text(res)


def test_rndcg_with_no_positive_ideal_gain_is_zero_over_zero(tmp_path):
    q, r = files(tmp_path, "1 0 a 1\n1 0 b 0\n", "1 Q0 a 1 3 r\n1 Q0 c 2 2 r\n1 Q0 d 3 1 r\n")
    assert math.isnan(evaluate(q, r, ["Rndcg.1=0"])["1"]["Rndcg_1=0"])
    # no relevant document at all: trec_eval returns 0 before dividing
    q, r = files(tmp_path, "1 0 a -1\n1 0 b 0\n", "1 Q0 a 1 3 r\n")
    assert evaluate(q, r, ["Rndcg"])["1"]["Rndcg"] == 0.0


def test_complete_mode_stand_in_ranking(tmp_path):
    # topic 2 is judged but absent from the run: -c ranks one unjudged stand-in document
    q, r = files(tmp_path, "1 0 a 1\n2 0 b 1\n2 0 c 2\n", "1 Q0 a 1 1 r\n")
    plain = evaluate(q, r, ["num_ret", "utility", "relstring"], complete=True)["2"]
    assert plain["num_ret"] == 0 and plain["utility"] == 0.0 and plain["relstring"] == ""  # cleared by name
    named = evaluate(q, r, ["utility.1,-1,0,0", "relstring.5", "set_P"], complete=True)
    # parameterised names keep the stand-in's values (checked against trec_eval 10.0)
    assert named["2"]["utility_1,-1,0,0"] == -1.0 and named["2"]["relstring_5"] == "-"
    assert named.summary["utility_1,-1,0,0"] == 0.0 and named.summary["set_P"] == 0.5
    # with -J the stand-in is not judged, so it goes: an empty ranking
    res = evaluate(q, r, ["utility.1,-1,0,0", "relstring.5"], complete=True, judged_only=True)
    assert res["2"]["utility_1,-1,0,0"] == 0.0 and res["2"]["relstring_5"] == ""
    res = evaluate(q, r, ["utility.1,-1,0,0"], complete=True, depth=0)
    assert res["2"]["utility_1,-1,0,0"] == 0.0


def test_complete_mode_num_rel_summary_counts_positive_qrels_lines(tmp_path):
    q, r = files(tmp_path, "1 0 a 1\n1 0 b 2\n2 0 c 1\n2 0 d 0\n", "1 Q0 a 1 1 r\n")
    res = evaluate(q, r, ["num_rel"], complete=True, relevance_level=2)
    assert res["1"]["num_rel"] == 1 and res["2"]["num_rel"] == 0   # per topic: grade >= -l
    assert res.summary["num_rel"] == 3                             # summary: grade > 0, any -l
    assert evaluate(q, r, ["num_rel"], relevance_level=2).summary["num_rel"] == 1


def test_rbp_resid_takes_p(tmp_path):
    # ranks 1..3: judged, unjudged, unjudged; p = 0.5: p^3 + (1 - p)(p^1 + p^2)
    q, r = files(tmp_path, "1 0 a 1\n", "1 Q0 a 1 3 r\n1 Q0 x 2 2 r\n1 Q0 y 3 1 r\n")
    res = evaluate(q, r, ["rbp_resid.p=0.5"])
    assert res["1"]["rbp_resid_p=0.5"] == pytest.approx(0.125 + 0.5 * (0.5 + 0.25), abs=1e-15)
