"""The command line as a user meets it: output, JSON contract, one-line errors with exit code 2."""

import json

import pytest

ALL_METRICS = {
    "precision": ["RNNRR", "--relevant", "5", "--k", "4"],
    "recall": ["RNNRR", "--relevant", "5", "--k", "4"],
    "f": ["RNNRR", "--relevant", "5", "--beta", "2"],
    "hits": ["RNNRR", "--k", "3"],
    "success": ["NNRNR", "--k", "3"],
    "rprec": ["RNNRR", "--relevant", "5"],
    "rr": ["NNRNR"],
    "ap": ["RNNRR", "--relevant", "5"],
    "prec-at-recall": ["RRNNNNNNRR", "--relevant", "8", "--recall-level", "25%"],
    "iprec": ["RRNNNNNNRR", "--relevant", "8", "--recall-level", "0.33"],
    "11pt": ["RNNRR", "--relevant", "5"],
    "cg": ["3,2,0,1", "--k", "3"],
    "dcg": ["3,2,0,1", "--k", "4"],
    "idcg": ["3,2,0,1", "--unretrieved", "2"],
    "ndcg": ["3,2,0,1", "--unretrieved", "2", "--k", "3"],
    "err": ["3,2,0,1"],
    "nerr": ["3,2,0,1", "--k", "3"],
    "kappa": ["--judge1", "0,0,1,1,1,1,1,1,0,0,0,0", "--judge2", "0,0,1,1,0,0,0,0,1,1,1,1"],
    "kendall": ["--a", "d1,d2,d3,d4", "--b", "d2,d1,d4,d3"],
    "spearman": ["--a", "d1,d2,d3,d4", "--b", "d2,d1,d4,d3"],
    "kendall-tau": ["--a", "1,2,2,3,4", "--b", "1,3,2,2,2"],
    "spearman-scores": ["--a", "1,2,3,4", "--b", "1,3,2,2"],
    "t-test": ["--a", "0.5,0.4,0.7,0.3,0.6", "--b", "0.3,0.4,0.5,0.2,0.1"],
    "wilcoxon": ["--a", "0.5,0.4,0.7,0.3,0.6", "--b", "0.3,0.4,0.5,0.2,0.1", "--alternative", "greater"],
    "sign-test": ["--a", "0.5,0.4,0.7,0.3,0.6", "--b", "0.3,0.4,0.5,0.2,0.1"],
    "permutation-test": ["--a", "0.5,0.4,0.7,0.3,0.6", "--b", "0.3,0.4,0.5,0.2,0.1"],
    "bootstrap": ["--a", "0.5,0.4,0.7,0.3,0.6", "--b", "0.3,0.4,0.5,0.2,0.1"],
    "set-accuracy": ["--counts", "tp=20,fp=40,fn=60,tn=880"],
    "fallout": ["RNNRR", "--relevant", "5", "--collection", "20"],
    "e-measure": ["--counts", "tp=20,fp=40,fn=60", "--beta", "2"],
    "break-even": ["RNNRR", "--relevant", "3"],
    "fleiss": ["--judges", "1,1,0,0;1,1,0,1;1,0,0,0"],
    "pairwise-kappa": ["--judges", "1,1,0,0;1,0,0,0;1,1,0,0", "--kappa-marginals", "per-judge"],
    "cohen-kappa": ["--judge1", "0,1,2,2,1", "--judge2", "0,2,2,1,1"],
    "weighted-kappa": ["--judge1", "0,1,2,3,3", "--judge2", "0,1,3,3,2", "--weights", "linear"],
    "bpref": ["RNURN", "--relevant", "3"],
    "infap": ["RSNUR", "--relevant", "3"],
    "rbp": ["RNURN", "--persistence", "0.8"],
    "3pt": ["RNRNR", "--relevant", "5"],
    "kpt": ["RNRNR", "--relevant", "5", "--levels", "0.25,0.75"],
    "gmap": ["RNNRR", "NRN", "--relevant", "5,2"],
    "auc": ["RNRNN", "--relevant", "4"],
    "inst": ["RNURN", "--target", "2", "--max-depth", "20"],
    "insq": ["2,0,1", "--target", "3/2"],
    "sdcg": ["RNR", "--k", "3"],
    "arp": ["2,0,1", "--scores", "0.9,0.8,0.8"],
    "opa": ["2,0,1", "--scores", "0.9,0.8,0.8"],
    "q-measure": ["3,0,1,2", "--unretrieved", "3", "--beta", "1/2", "--gains", "1=1,2=2,3=3"],
    "alpha-ndcg": ["1+2 - 2 3 ?", "--unretrieved", "3 1+4", "--k", "4"],
    "alpha-dcg": ["1+2 - 2 3", "--alpha", "1/4"],
    "err-ia": ["1+2 - 2 3", "--unretrieved", "3 1+4", "--k", "3", "--diversity-normalisation", "raw"],
    "nerr-ia": ["1+2 - 2 3", "--unretrieved", "3 1+4", "--alpha", "3/4"],
    "strec": ["1+2 - 2 3", "--unretrieved", "4", "--k", "3"],
    "p-ia": ["1+2 - 2 3", "--k", "3"],
}


def test_explain_ap_text_shows_table_formula_and_result(cli):
    out = cli("explain", "ap", "RNNRR", "--relevant", "5")
    assert out.returncode == 0, out.stderr
    text = out.stdout
    assert "rank | judgment | relevant so far |          P@k | contribution" in text
    assert "ap_denominator = relevant" in text
    assert "AP = S / R = (21/10) / 5 = 21/50 = 0.42" in text
    assert text.rstrip().endswith("Result: AP = 21/50 = 0.42")


@pytest.mark.parametrize("metric", sorted(ALL_METRICS))
@pytest.mark.parametrize("fmt", ["text", "markdown", "latex", "html", "json"])
def test_every_metric_in_every_format(cli, metric, fmt):
    out = cli("explain", metric, *ALL_METRICS[metric], "--format", fmt)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip()
    assert " at 0x" not in out.stdout
    if fmt == "json":
        data = json.loads(out.stdout)
        assert {"metric", "value", "decimal", "convention", "steps"} <= set(data)
        assert isinstance(data["decimal"], float) and isinstance(data["value"], str)
        assert all({"label", "formula", "value"} <= set(step) for step in data["steps"])
        assert data["steps"], "every explanation has at least one step"


def test_json_contract_values(cli):
    data = json.loads(cli("explain", "ap", "RNNRR", "--relevant", "5", "--format", "json").stdout)
    assert data["metric"] == "ap" and data["value"] == "21/50" and data["decimal"] == 0.42
    assert data["convention"] == {"ap_denominator": "relevant"}
    assert data["steps"][-1]["formula"] == "S / R"
    kappa = json.loads(cli("explain", "kappa", *ALL_METRICS["kappa"], "--format", "json").stdout)
    assert kappa["value"] == "-1/3"
    ndcg = json.loads(cli("explain", "ndcg", "RN", "--relevant", "2", "--format", "json").stdout)
    assert ndcg["value"] == "1/(1 + 1/log2(3))"
    assert ndcg["convention"] == {"gain": "exp", "discount": "log2-rank-plus-1"}


def test_map_over_several_rankings(cli):
    out = cli("explain", "map", "NRNRRN", "NNRRR", "--relevant", "10,20")
    assert out.returncode == 0, out.stderr
    assert "Result: MAP = 139/1200 ≈ 0.1158" in out.stdout


def test_r_is_assumed_and_said_when_not_given(cli):
    out = cli("explain", "ap", "RNNRR")
    assert "Assumption: R was not given" in out.stdout
    assert "Result: AP = 7/10 = 0.7" in out.stdout


def test_metrics_lists_every_contract_name(cli):
    out = cli("metrics")
    assert out.returncode == 0
    for name in "precision recall f hits success rprec rr ap iprec 11pt cg dcg idcg ndcg err nerr kappa kendall spearman".split():
        assert any(line.startswith(name + " ") for line in out.stdout.splitlines()), name
    assert "--ap-denominator: relevant (default) | retrieved" in out.stdout


@pytest.mark.parametrize(
    "args, message",
    [
        (["ap", "RNXRR"], "unexpected character 'X' at position 3"),
        (["ap", ""], "empty"),
        (["precision", "RNNRR", "--k", "0"], "cut-off k must be an integer >= 1"),
        (["precision", "RNNRR", "--k", "2.5"], "cut-off k must be an integer"),
        (["iprec", "RNNRR", "--recall-level", "1.5"], "recall level must lie in [0, 1]"),
        (["iprec", "RNNRR", "--recall-level", "-0.1"], "recall level must lie in [0, 1]"),
        (["ap", "RNNRR", "--relevant", "2"], "smaller than the 3 relevant documents"),
        (["ap", "RNNRR", "--collection", "3"], "collection size N = 3 is smaller"),
        (["ndcg", "3,-1,2"], "negative grade -1"),
        (["kappa", "--judge1", "0,1,1", "--judge2", "0,1"], "differ in length"),
        (["kappa", "--judge1", "0,1,2", "--judge2", "0,1,1"], "expected 0 (non-relevant) or 1"),
        (["kendall", "--a", "a,b,a", "--b", "a,b"], "appears twice"),
        (["spearman", "--a", "a,b,c", "--b", "a,b,d"], "only in the first: c"),
        (["nosuchmetric", "RN"], "unknown metric"),
        (["ap", "RNNRR", "--beta", "2"], "--beta does not apply to ap"),
        (["ap", "RNNRR", "--ap-denominator", "sometimes"], "unknown ap_denominator"),
        (["f", "RNNRR", "--beta", "0"], "beta must lie in"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(cli, args, message):
    out = cli("explain", *args)
    assert out.returncode == 2
    assert out.stdout == ""
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("irlab: error:"), out.stderr
    assert message in lines[0]
    assert "Traceback" not in out.stderr


def test_unknown_command_is_one_line(cli):
    out = cli("frobnicate")
    assert out.returncode == 2 and out.stderr.startswith("irlab: error:")


def test_the_installed_entry_point_runs_as_a_user_would():
    from conftest import run_cli

    ok = run_cli("explain", "ap", "RNNRR", "--relevant", "5", "--format", "json")
    assert ok.returncode == 0 and json.loads(ok.stdout)["value"] == "21/50"
    bad = run_cli("explain", "ap", "RNXRR")
    assert bad.returncode == 2 and bad.stderr.startswith("irlab: error:") and "Traceback" not in bad.stderr


TREC = __import__("pathlib").Path(__file__).resolve().parents[2] / "shared" / "trec_eval"


@pytest.mark.skipif(not TREC.exists(), reason="skips explaining AP of topic 302 of trec_eval's test run: "
                    "../shared/trec_eval (trec_eval 10.0's test collection, kept beside the repository, not in it) is not present")
def test_explain_one_topic_of_trec_files_matches_trec_eval(cli):
    out = cli("explain", "ap", "--qrels", str(TREC / "qrels.test"), "--run", str(TREC / "results.test"),
              "--topic", "302", "--format", "json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert f"{data['decimal']:.4f}" == "0.4175"  # out.test.aq: map 302 0.4175
    assert data["tables"][0]["columns"][:2] == ["rank", "document"]
    ndcg = json.loads(cli("explain", "ndcg", "--qrels", str(TREC / "qrels.test"), "--run", str(TREC / "results.test"),
                          "--topic", "302", "--format", "json").stdout)
    assert f"{ndcg['decimal']:.4f}" == "0.6617" and ndcg["convention"]["gain"] == "linear"
    text = cli("explain", "p", "--qrels", str(TREC / "qrels.test"), "--run", str(TREC / "results.test"), "--topic", "302")
    assert text.returncode == 2 and "unknown metric 'p'" in text.stderr
    missing = cli("explain", "ap", "--qrels", str(TREC / "qrels.test"), "--topic", "302")
    assert missing.returncode == 2 and "needs --qrels FILE --run FILE --topic QID" in missing.stderr


def test_homework_commands_are_wired(cli, tmp_path):
    seed = __import__("pathlib").Path(__file__).resolve().parents[1] / "exercises" / "chapter8-seed.toml"
    first = cli("sheet", str(seed), "--student", "s1", "--seed", "7", "--exercise", "8/2")
    again = cli("sheet", str(seed), "--student", "s1", "--seed", "7", "--exercise", "8/2")
    assert first.returncode == 0 and first.stdout == again.stdout and "Student: s1" in first.stdout
    answers = tmp_path / "answers.csv"
    answers.write_text("student,exercise,question,answer\ns1,8/2,a,0.6\n")
    graded = cli("grade", str(seed), str(answers), "--as-written", "--format", "json")
    assert graded.returncode == 0, graded.stderr
    assert "8/2" in graded.stdout
    missing = cli("grade", str(seed), str(tmp_path / "none.csv"))
    assert missing.returncode == 2 and missing.stderr.startswith("irlab: error:")


def test_irlab_check_is_exported():
    import irlab

    feedback = irlab.check(__import__("pathlib").Path(__file__).resolve().parents[1] / "exercises" / "chapter8-book.toml",
                           "8.9", "e", "0.555")
    assert "divide by the 6 relevant documents retrieved" in str(feedback)
    with pytest.raises(AssertionError, match="Not quite"):
        irlab.assert_answer(__import__("pathlib").Path(__file__).resolve().parents[1] / "exercises" / "chapter8-book.toml",
                            "8.9", "e", "0.555")


def test_version(capsys):
    from irlab.cli import main

    with pytest.raises(SystemExit) as done:
        main(["--version"])
    assert done.value.code == 0 and capsys.readouterr().out.startswith("irlab 0.")
