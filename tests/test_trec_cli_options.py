"""irlab eval's trec_eval options, long names, parameter parsing and the notes it writes on stderr."""

from __future__ import annotations

import pytest

from irlab.cli import main
from irlab.errors import ParameterError
from irlab.trec.measures import parse_measures

QRELS = "1 0 a 1\n1 0 b 0\n2 0 c 1\n"
RUN = "1 Q0 a 1 2 r\n1 Q0 b 2 1 r\n3 Q0 a 1 1 r\n"


@pytest.fixture()
def paths(tmp_path):
    (tmp_path / "qrels").write_text(QRELS)
    (tmp_path / "run").write_text(RUN)
    return str(tmp_path / "qrels"), str(tmp_path / "run")


def run_cli(capsys, *argv):
    code = main(["eval", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_nosummary_prints_only_topics(paths, capsys):
    code, out, _ = run_cli(capsys, "-q", "-n", "-m", "P.1", *paths)
    assert code == 0 and out == "P_1                   \t1\t1.0000\n"
    _, out, _ = run_cli(capsys, "--nosummary", "-m", "P.1", *paths)
    assert out == ""


def test_trec_eval_long_option_names(paths, capsys):
    short = run_cli(capsys, "-q", "-c", "-J", "-l", "1", "-M", "1", "-N", "10", "-m", "utility.1,-1,0,0", *paths)
    long = run_cli(capsys, "--query_eval_wanted", "--complete_rel_info_wanted", "--Judged_docs_only",
                   "--level_for_rel", "1", "--Max_retrieved_per_topic", "1", "--Number_docs_in_coll", "10",
                   "--measure", "utility.1,-1,0,0", *paths)
    assert short[:2] == long[:2]
    # -M 1: topic 1 keeps a (relevant): 1; topic 2 missing, -J drops the stand-in: 0 -> mean 0.5
    assert "utility_1,-1,0,0      \tall\t0.5000" in short[1]


def test_version(paths, capsys):
    with pytest.raises(SystemExit) as stop:
        main(["eval", "-v", *paths])
    assert stop.value.code == 0
    assert "trec_eval 10.0" in capsys.readouterr().out


def test_missing_topics_are_named_on_stderr(paths, capsys):
    code, out, err = run_cli(capsys, "-m", "num_q", *paths)
    assert code == 0 and "num_q                 \tall\t1" in out
    assert "1 qrels topic has no results" in err and ": 2;" in err and "exit 4" in err
    assert "1 run topic has no judgments" in err and "evaluated: 3" in err
    _, out, err = run_cli(capsys, "-c", "-m", "num_q", *paths)
    assert "num_q                 \tall\t2" in out and "no results" not in err


def test_comment_and_blank_lines_trec_eval_reads_otherwise(tmp_path, capsys):
    (tmp_path / "q").write_text("# one\n# two\n1 0 a 1\n\n  # three\n")
    (tmp_path / "r").write_text("#ok\n1 Q0 a 1 1 r\n")
    _, out, err = run_cli(capsys, "-m", "map", str(tmp_path / "q"), str(tmp_path / "r"))
    assert "map                   \tall\t1.0000" in out
    assert "q: line 2, 5: comment line(s) that trec_eval 10.0 would read as data" in err
    assert "q: line 4: blank line(s) skipped" in err
    assert "/r:" not in err  # a single comment line in column 0 is read alike


def test_cutoffs_are_read_like_atol():
    notes = []
    plan = parse_measures(["P.1e2,5", "recall.7.9"], notes=notes)
    assert [it.names for it in plan.items] == [["P_1", "P_5"], ["recall_7"]]
    assert len(notes) == 2 and "'1e2' read as 1" in notes[0] and "'7.9' read as 7" in notes[1]


@pytest.mark.parametrize("spec, message", [
    ("map.5", "takes no parameters"),
    ("iprec_at_recall.1.5", "recall level '1.5' is outside"),
    ("P.x", "'x' is not a number"),
    ("P.0", "must be positive"),
    ("ndcg@10", "did you mean ndcg_cut.10"),
    ("P@10", "did you mean P.10"),
    ("MRR", "did you mean recip_rank"),
])
def test_measure_specs_refused_with_a_reason(spec, message):
    with pytest.raises(ParameterError, match=message):
        parse_measures([spec])


def test_huge_depth_is_no_limit(paths, capsys):
    code, out, _ = run_cli(capsys, "-M", "99999999999999999999999", "-m", "num_ret", *paths)
    assert code == 0 and "num_ret               \tall\t2" in out


def test_corrupt_gzip_is_one_error_line(tmp_path, capsys):
    import gzip

    data = bytearray(gzip.compress(b"".join(b"1 Q0 d%d 1 %d r\n" % (i, 1000 - i) for i in range(2000))))
    data[len(data) // 2] ^= 0xFF
    data[len(data) // 2 + 1] ^= 0x55
    (tmp_path / "run.gz").write_bytes(bytes(data))
    (tmp_path / "qrels").write_text(QRELS)
    for argv in (["eval", str(tmp_path / "qrels"), str(tmp_path / "run.gz")],
                 ["explain", "ap", "--qrels", str(tmp_path / "qrels"), "--run", str(tmp_path / "run.gz"),
                  "--topic", "1"]):
        assert main(argv) == 2
        err = capsys.readouterr().err
        assert err.count("irlab: error:") == 1 and "run.gz: cannot read file" in err and "Traceback" not in err


def test_explain_and_eval_agree_on_colliding_docnos(tmp_path, capsys):
    (tmp_path / "q").write_text("307 0 FR940405-2-00040 0\n307 0 FR940406-2-00045 1\n")
    (tmp_path / "r").write_text("307 Q0 FR940406-2-00045 358 642 r\n")
    _, out, _ = run_cli(capsys, "-m", "map", "-m", "num_rel_ret", str(tmp_path / "q"), str(tmp_path / "r"))
    assert "num_rel_ret           \tall\t1" in out and "map                   \tall\t1.0000" in out
    assert main(["explain", "ap", "--qrels", str(tmp_path / "q"), "--run", str(tmp_path / "r"), "--topic", "307"]) == 0
    assert "AP = 1" in capsys.readouterr().out


@pytest.mark.parametrize("kwargs, error", [
    ({"depth": "x"}, TypeError), ({"depth": 2.5}, TypeError), ({"relevance_level": None}, TypeError),
    ({"depth": -1}, ValueError), ({"relevance_level": -1}, ValueError), ({"num_docs_in_coll": -5}, ValueError),
])
def test_api_options_are_checked(paths, kwargs, error):
    from irlab.errors import IrlabError
    from irlab.trec import evaluate

    with pytest.raises(error) as raised:
        evaluate(*paths, ["map"], **kwargs)
    assert isinstance(raised.value, IrlabError)


def test_api_huge_options_saturate_like_atol(paths):
    from irlab.trec import evaluate

    res = evaluate(*paths, ["num_ret", "num_rel"], depth=10**30, relevance_level=10**30, num_docs_in_coll=10**30)
    assert res.summary["num_ret"] == 2 and res.summary["num_rel"] == 0


def test_a_long_runs_memory_goes_back_before_the_measures_with_the_same_output(paths, capsys, monkeypatch):
    # at _RELEASE_ROWS judgments + judged rows, malloc_trim runs even on one thread; what is printed does not change
    from irlab.cli import eval as eval_command
    from irlab.trec import readers

    calls = []
    argv = ("-q", "-c", "-m", "all_trec", *paths)
    before = run_cli(capsys, *argv)
    monkeypatch.setattr(readers, "_malloc_trim", calls.append)
    monkeypatch.setattr(readers, "threads", lambda: 1)
    assert run_cli(capsys, *argv) == before and calls == []   # 3 judgments + 2 judged rows: below the bound
    monkeypatch.setattr(eval_command, "_RELEASE_ROWS", 4)
    assert run_cli(capsys, *argv) == before and calls == [0]
    assert before[0] == 0 and "num_q" in before[1] and "note" in before[2]
