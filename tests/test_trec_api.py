"""Python API, output formats, CLI options, topic bridge and irlab's extra measures."""

import argparse
import json
import math

import pytest

from irlab.errors import IrlabError, ParameterError
from irlab.trec import evaluate, format_text, parse_measures, topic_judgments
from irlab.cli.eval import add_parser as add_eval_parser, run as run_eval

QRELS = "1 0 a 2\n1 0 b 1\n1 0 c 0\n1 0 d -1\n2 0 a 1\n2 0 z 3\n3 0 q 1\n"
RUN = ("1 Q0 b 1 3.0 myrun\n1 Q0 a 2 2.0 myrun\n1 Q0 x 3 1.0 myrun\n1 Q0 c 4 0.5 myrun\n"
       "2 Q0 b 1 1.0 myrun\n2 Q0 a 2 1.0 myrun\n2 Q0 B 3 1.0 myrun\n"
       "9 Q0 a 1 1.0 myrun\n")


@pytest.fixture()
def files(tmp_path):
    q = tmp_path / "qrels"
    r = tmp_path / "run"
    q.write_text(QRELS)
    r.write_text(RUN)
    return q, r


def cli(argv, capsys):
    parser = argparse.ArgumentParser(prog="irlab")
    sub = parser.add_subparsers(dest="cmd", required=True)
    add_eval_parser(sub)
    args = parser.parse_args(["eval"] + [str(a) for a in argv])
    assert run_eval(args) == 0
    return capsys.readouterr().out


def test_ties_broken_by_docno_descending(files):
    q, r = files
    res = evaluate(q, r, ["P.1,2", "recip_rank", "num_ret"])
    # topic 2: all scores tie -> order b, a, B (byte order, descending); a is relevant
    assert res.per_topic["2"]["P_1"] == 0.0
    assert res.per_topic["2"]["recip_rank"] == 0.5
    assert res.per_topic["2"]["num_ret"] == 3
    # run-only topic 9 and qrels-only topic 3 are ignored without -c
    assert set(res.per_topic) == {"1", "2"}
    assert res.summary["num_ret"] == 7


def test_complete_and_depth(files):
    q, r = files
    res = evaluate(q, r, ["map", "num_ret", "num_rel", "num_q"], complete=True, depth=2)
    assert set(res.per_topic) == {"1", "2", "3"}
    assert res.summary["num_q"] == 3
    assert res.per_topic["3"]["num_ret"] == 0 and res.per_topic["3"]["num_rel"] == 1
    assert res.per_topic["1"]["num_ret"] == 2
    # topic 1 top 2: b(rel), a(rel); R = 2 -> AP 1; topic 2: b, a -> a at rank 2, R = 2 -> 0.25
    assert res.per_topic["1"]["map"] == 1.0
    assert res.per_topic["2"]["map"] == pytest.approx(0.25)
    assert res.summary["map"] == pytest.approx((1.0 + 0.25 + 0.0) / 3)


def test_relevance_level(files):
    q, r = files
    res = evaluate(q, r, ["num_rel", "P.1", "relstring"], relevance_level=2)
    assert res.per_topic["1"]["num_rel"] == 1
    assert res.per_topic["1"]["P_1"] == 0.0
    assert res.per_topic["1"]["relstring"] == "12-0"
    assert res.per_topic["2"]["relstring"] == "-1-"


def test_gm_map_floor_and_sums(files):
    q, r = files
    res = evaluate(q, r, ["map", "gm_map", "num_rel_ret"])
    aps = [res.per_topic[t]["map"] for t in ("1", "2")]
    assert res.summary["gm_map"] == pytest.approx(math.exp(sum(math.log(max(a, 1e-5)) for a in aps) / 2))
    assert "gm_map" not in res.per_topic["1"]  # summary-only, like trec_eval
    assert res.summary["num_rel_ret"] == 2 + 1


def test_err_nerr_and_ndcg_exp(files):
    q, r = files
    res = evaluate(q, r, ["err_cut.1,3", "nerr_cut.1,3", "ndcg_exp_cut.3"])
    t = res.per_topic["1"]
    # topic 1: gmax = 2, ranking b(1) a(2) x(-) c(0); Pr = (2^g-1)/4
    assert t["err_cut_1"] == pytest.approx(0.25)
    assert t["err_cut_3"] == pytest.approx(0.25 + 0.75 / 2 * 0.75)
    ideal3 = 0.75 + 0.25 / 2 * 0.25
    assert t["nerr_cut_1"] == pytest.approx(0.25 / 0.75)
    assert t["nerr_cut_3"] == pytest.approx((0.25 + 0.75 / 2 * 0.75) / ideal3)
    dcg = 1 / math.log2(2) + 3 / math.log2(3)
    idcg = 3 / math.log2(2) + 1 / math.log2(3)
    assert t["ndcg_exp_cut_3"] == pytest.approx(dcg / idcg)
    # extras are not part of all_trec
    assert "err_cut_5" not in parse_measures(["all_trec"]).columns


def test_parameter_syntax_and_order():
    plan = parse_measures(["P.5,7,3", "map", "ndcg_cut.10,20,23.4", "Rprec_mult.5.0,0.2", "utility.2,-1,0,0"])
    assert plan.columns == ["map", "P_3", "P_5", "P_7", "Rprec_mult_0.20", "Rprec_mult_5.00",
                            "utility_2,-1,0,0", "ndcg_cut_10", "ndcg_cut_20", "ndcg_cut_23"]
    with pytest.raises(ParameterError, match="unknown measure"):
        parse_measures(["nosuch"])
    with pytest.raises(ParameterError, match="not supported"):
        parse_measures(["prefs_simp"])
    with pytest.raises(ParameterError, match="duplicate"):
        parse_measures(["P.5,5"])
    with pytest.raises(ParameterError, match="positive"):
        parse_measures(["P.0"])
    with pytest.raises(ParameterError):
        parse_measures(["ndcg.1"])


def test_cli_text_matches_trec_eval_format(files, capsys):
    q, r = files
    out = cli(["-q", "-mP.1", "-m", "num_ret", q, r], capsys)
    assert out.splitlines() == [
        "num_ret               \t1\t4",
        "P_1                   \t1\t1.0000",
        "num_ret               \t2\t3",
        "P_1                   \t2\t0.0000",
        "num_ret               \tall\t7",
        "P_1                   \tall\t0.5000",
    ]


def test_cli_default_is_official(files, capsys):
    q, r = files
    out = cli([q, r], capsys)
    names = [line.split("\t")[0].strip() for line in out.splitlines()]
    assert names[:6] == ["runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "map"]
    assert out.splitlines()[0].endswith("\tall\tmyrun")


def test_cli_json_and_csv(files, capsys):
    q, r = files
    doc = json.loads(cli(["--format", "json", "-q", "-m", "map", "-m", "relstring", q, r], capsys))
    assert doc["runid"] == "myrun"
    assert doc["summary"]["map"] == pytest.approx(evaluate(q, r, ["map"]).summary["map"])
    assert doc["per_topic"]["2"]["relstring"] == "-1-"
    csv_out = cli(["--format", "csv", "-m", "P.1", "-c", "-M", "1", "-l", "1", q, r], capsys)
    rows = csv_out.splitlines()
    assert rows[0] == "measure,topic,value"
    assert rows[1].startswith("P_1,all,") and float(rows[1].split(",")[2]) == pytest.approx(1 / 3)


def test_cli_errors_are_irlab_errors(tmp_path, files, capsys):
    q, r = files
    bad = tmp_path / "bad"
    bad.write_text("1 Q0 a 1 zz r\n")
    with pytest.raises(IrlabError, match=r"bad:1: score 'zz' is not a number"):
        cli([q, bad], capsys)
    with pytest.raises(IrlabError, match="unknown measure"):
        cli(["-m", "nope", q, r], capsys)


def test_no_progress_bar_when_not_a_tty(files, capsys):
    q, r = files
    cli([q, r], capsys)
    assert capsys.readouterr().err == ""


def test_topic_judgments(files):
    q, r = files
    tj = topic_judgments(q, r, "2")
    assert tj.ranked == ["b", "a", "B"]
    assert tj.grades == [None, 1, None]
    assert tj.unretrieved == [3]
    assert tj.binary == [0, 1, 0]
    tj1 = topic_judgments(q, r, "1", relevance_level=2, depth=2)
    assert tj1.ranked == ["b", "a"] and tj1.grades == [1, 2]
    assert tj1.unretrieved == [0, -1] and tj1.binary == [0, 1]
    assert topic_judgments(q, r, "3").ranked == []
    with pytest.raises(IrlabError):
        topic_judgments(q, r, "nope")


def test_result_access_and_text(files):
    q, r = files
    res = evaluate(q, r, "map")
    assert res["all"] is res.summary and res["1"]["map"] == res.per_topic["1"]["map"]
    assert format_text(res) == "map                   \tall\t%6.4f\n" % res.summary["map"]


def test_to_dataframe(files):
    pd = pytest.importorskip("pandas")
    q, r = files
    df = evaluate(q, r, ["map", "P.5"]).to_dataframe()
    assert isinstance(df, pd.DataFrame)
    assert list(df.columns) == ["map", "P_5"] and "all" in df.index


def test_utility_with_params_under_complete_keeps_trec_eval_bogus_value(files):
    q, r = files
    res = evaluate(q, r, ["utility.2,-1,0,0", "utility"], complete=True)
    # topic 3 is missing: trec_eval evaluates a one-document bogus ranking
    assert res.per_topic["3"]["utility_2,-1,0,0"] == -1.0
    plain = evaluate(q, r, ["utility"], complete=True)
    assert plain.per_topic["3"]["utility"] == 0.0


def test_progress_bar_only_for_long_runs_on_a_tty(files, capsys, monkeypatch):
    import sys

    import irlab.cli.eval as tcli

    q, r = files
    # not a TTY: nothing on stderr even for a "long" run
    monkeypatch.setattr(tcli, "_LONG_RUN_BYTES", 0)
    monkeypatch.setattr(tcli, "_PROGRESS_DELAY", 0.0)
    cli([q, r], capsys)
    assert capsys.readouterr().err == ""
    # TTY and long: a bar on stderr, stdout unchanged
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True, raising=False)
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True, raising=False)
    parser = argparse.ArgumentParser(prog="irlab")
    add_eval_parser(parser.add_subparsers(dest="cmd"))
    assert run_eval(parser.parse_args(["eval", "-m", "map", str(q), str(r)])) == 0
    out, err = capsys.readouterr()
    assert out.startswith("map")
    assert "irlab eval: [" in err and "%" in err


def test_progress_render():
    from irlab.cli.eval import _Progress

    p = _Progress("x", enabled=False)
    p.update("reading run", 0.5)
    line = p.render(1.0)
    assert "[" + "#" * 15 + "-" * 15 + "]" in line and " 50%" in line and "reading run" in line


def test_measures_without_a_reference_by_hand(files):
    # yaap, dcg and ideal_dcg are not in all_trec (no replay data) nor in pytrec_eval
    q, r = files
    t = evaluate(q, r, ["yaap", "dcg", "ideal_dcg", "unj", "rbp", "rbp_resid"]).per_topic["1"]
    # topic 1 ranking: b(1) a(2) x(not judged) c(0); R = 2
    assert t["yaap"] == pytest.approx(math.log(3.0))
    assert t["dcg"] == pytest.approx(1 + 2 / math.log2(3))
    assert t["ideal_dcg"] == pytest.approx(2 + 1 / math.log2(3))
    assert t["unj_5"] == pytest.approx(1 / 5) and t["unj_20"] == pytest.approx(1 / 20)
    # gains 0..2 are normalised to [0, 1]: b 0.5, a 1.0
    assert t["rbp"] == pytest.approx(0.1 * (0.5 + 1.0 * 0.9))
    assert t["rbp_resid"] == pytest.approx(0.9 ** 4 + 0.1 * 0.9 ** 2)


def test_judged_only_and_collection_size(files, capsys):
    q, r = files
    # -J: topic 1 keeps b(1) a(2) c(0) -> ranks 1..3; x (not judged) is dropped
    res = evaluate(q, r, ["num_ret", "P.3", "utility.0,0,0,1"], judged_only=True, num_docs_in_coll=100)
    t = res.per_topic["1"]
    assert t["num_ret"] == 3 and t["P_3"] == pytest.approx(2 / 3)
    # nonrelevant not retrieved = N + relret - ret - R = 100 + 2 - 3 - 2
    assert t["utility_0,0,0,1"] == 97.0
    out = cli(["-J", "-N", "100", "-q", "-m", "num_ret", q, r], capsys)
    assert "num_ret               \t1\t3" in out.splitlines()


def test_per_topic_dicts_made_when_first_read(files):
    """compute_all keeps the per-topic values as columns (TopicRows) until per_topic is read: printing the means
    (irlab eval without -q) makes no topic's dict; read, per_topic holds the values the columns gave, by topic in
    order, and the same result pickles, compares and copies as one given dicts."""
    import dataclasses
    import pickle

    from irlab.trec.context import EvalResult, TopicRows
    from irlab.trec.output import format_result

    q, r = files
    res = evaluate(q, r, ["map", "P.5", "relstring", "num_ret"])
    assert isinstance(vars(res)["per_topic"], TopicRows)
    assert repr(vars(res)["per_topic"]) == "TopicRows(2 topics, columns ['num_ret', 'map', 'P_5', 'relstring'])"
    summary = format_result(res, "text", per_topic=False)
    assert isinstance(vars(res)["per_topic"], TopicRows) and summary.startswith("num_ret")
    assert list(res.per_topic) == ["1", "2"] and res.per_topic["1"] == {"num_ret": 4, "map": (1 / 1 + 2 / 2) / 2,
                                                                       "P_5": 2 / 5, "relstring": "12-0"}
    assert isinstance(vars(res)["per_topic"], dict) and res.per_topic is res.per_topic
    given = EvalResult(per_topic=res.per_topic, summary=res.summary, columns=res.columns, runid=res.runid,
                       integer_columns=res.integer_columns, topic_columns=res.topic_columns)
    fresh = evaluate(q, r, ["map", "P.5", "relstring", "num_ret"])
    assert fresh == given and pickle.loads(pickle.dumps(fresh)) == given
    assert dataclasses.replace(evaluate(q, r, "map"), runid="x").per_topic == {"1": {"map": 1.0}, "2": {"map": 0.25}}
    assert format_result(fresh, "text", per_topic=True) == format_result(given, "text", per_topic=True)
