"""Replay trec_eval 10.0's own test suite (shared/trec_eval) through irlab eval."""

import argparse
import shlex
from pathlib import Path

import pytest

from irlab.cli.eval import add_parser as add_eval_parser, run as run_eval
from irlab.trec.measures import MEASURES, UNSUPPORTED

DATA = Path(__file__).resolve().parents[2] / "shared" / "trec_eval"

pytestmark = pytest.mark.skipif(
    not (DATA / "out.test").is_file(),
    reason=f"skips replaying trec_eval 10.0's own test suite: its reference outputs are not at {DATA} "
           "(../shared/trec_eval, kept beside the repository, not in it)",
)

# expected output -> trec_eval arguments (from shared/trec_eval/README.md)
CASES = {
    "out.test": "qrels.test results.test",
    "out.test.a": "-m all_trec qrels.test results.test",
    "out.test.aq": "-m all_trec -q qrels.test results.test",
    "out.test.aqc": "-m all_trec -q -c qrels.test results.trunc",
    "out.test.aqcM": "-m all_trec -q -c -M100 qrels.test results.trunc",
    "out.test.aql": "-m all_trec -mrelstring.20 -q -l2 qrels.rel_level results.test",
    "out.test.meas_params": (
        "-q -miprec_at_recall..10,.20,.25,.75,.50 -m P.5,7,3 -m recall.20,2000 "
        "-m Rprec_mult.5.0,0.2,0.35 -mutility.2,-1,0,0 -m 11pt_avg..25,.5,.75 "
        "-mndcg.1=3,2=9,4=4.5 -mndcg_cut.10,20,23.4 -msuccess.2,5,20 qrels.test results.test"
    ),
}


def base_measure(name):
    """The measure an output name belongs to (longest known prefix), or None."""
    known = sorted(set(MEASURES) | set(UNSUPPORTED), key=len, reverse=True)
    for m in known:
        if name == m or name.startswith(m + "_"):
            return m
    return None


def run_cli(argv, capsys):
    parser = argparse.ArgumentParser(prog="irlab")
    sub = parser.add_subparsers(dest="cmd", required=True)
    add_eval_parser(sub)
    args = parser.parse_args(["eval"] + argv)
    assert run_eval(args) == 0
    return capsys.readouterr().out


@pytest.mark.parametrize("expected", sorted(CASES))
def test_replay(expected, capsys, monkeypatch):
    monkeypatch.chdir(DATA)
    got = run_cli(shlex.split(CASES[expected]), capsys).splitlines()
    want = (DATA / expected).read_text().splitlines()
    got_by_key = {tuple(line.split("\t")[:2]): line for line in got}
    skipped, unknown, mismatches = set(), set(), []
    compared = 0
    for line in want:
        name, topic, value = line.split("\t")
        base = base_measure(name.strip())
        if base is None:
            unknown.add(name.strip())
            continue
        if base in UNSUPPORTED:
            skipped.add(base)
            continue
        key = (name, topic)
        if got_by_key.get(key) != line:
            mismatches.append((line, got_by_key.get(key)))
        compared += 1
    assert not unknown, f"measures neither supported nor listed in UNSUPPORTED: {sorted(unknown)}"
    assert not mismatches, f"{len(mismatches)} mismatching lines, e.g. {mismatches[:5]}"
    assert compared > 0
    # irlab prints nothing trec_eval does not, and in the same order
    wanted_keys = [tuple(line.split("\t")[:2]) for line in want
                   if base_measure(line.split("\t")[0].strip()) not in UNSUPPORTED]
    assert [tuple(line.split("\t")[:2]) for line in got] == wanted_keys
    if skipped:  # reported in the -ra summary
        pytest.skip(f"compared {compared} lines; unsupported measures skipped: {sorted(skipped)}")


def test_unsupported_list_is_reported():
    # the single place listing what irlab does not implement
    assert "prefs_simp" in UNSUPPORTED and "map_avgjg" in UNSUPPORTED
    assert not (set(UNSUPPORTED) & set(MEASURES))


def test_api_matches_cli_on_reference():
    from irlab.trec import evaluate

    res = evaluate(DATA / "qrels.test", DATA / "results.test", ["map", "P.10", "ndcg_cut.10"])
    assert f"{res.summary['map']:6.4f}" == "0.1785"
    assert f"{res.summary['P_10']:6.4f}" == "0.3000"
    assert f"{res.per_topic['302']['P_10']:6.4f}" == "0.7000"
    assert f"{res.per_topic['301']['ndcg_cut_10']:6.4f}" == "0.1518"


def test_base_measure_classification():
    assert base_measure("P_5") == "P"
    assert base_measure("relative_P_5") == "relative_P"
    assert base_measure("ndcg_cut_10") == "ndcg_cut"
    assert base_measure("utility_2,-1,0,0") == "utility"
    assert base_measure("prefs_simp") in UNSUPPORTED
    assert base_measure("no_such_measure") is None
