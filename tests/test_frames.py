"""Runs and qrels as DataFrames, dicts and records (irlab.frames): the same values in every form, equal to
ir_measures' calc_aggregate and iter_calc; one topic explained as irlab explain --qrels --run --topic explains it."""

import json
import subprocess
import sys

import pytest

import irlab
from irlab.cli import main
from irlab.errors import InputTypeError, IrlabError

pd = pytest.importorskip("pandas")
ir_measures = pytest.importorskip("ir_measures")

MEASURES = ["nDCG@10", "AP", "P(rel=2)@2", "RR", "R@3", "ERR@10", "Judged@3", "map"]
RUN = [("401", "a", 3.0), ("401", "c", 2.0), ("401", "b", 2.0), ("401", "x", 1.0), ("402", "d", 5.0),
       ("402", "z", 4.0), ("404", "a", 1.0)]
QRELS = [("401", "a", 2), ("401", "b", 1), ("401", "c", 0), ("401", "e", 1), ("402", "a", 1), ("402", "d", 2),
         ("403", "q", 1)]


def forms():
    """The same run and qrels in every accepted form."""
    pt_run = pd.DataFrame(RUN, columns=["qid", "docno", "score"]).assign(rank=[0, 1, 2, 3, 0, 1, 0])
    pt_qrels = pd.DataFrame(QRELS, columns=["qid", "docno", "label"])
    irm_run = pd.DataFrame(RUN, columns=["query_id", "doc_id", "score"])
    irm_qrels = pd.DataFrame(QRELS, columns=["query_id", "doc_id", "relevance"])
    dict_run, dict_qrels = {}, {}
    for q, d, s in RUN:
        dict_run.setdefault(q, {})[d] = s
    for q, d, g in QRELS:
        dict_qrels.setdefault(q, {})[d] = g
    tuples_run = [ir_measures.ScoredDoc(*r) for r in RUN]
    tuples_qrels = (ir_measures.Qrel(*q) for q in QRELS)   # a generator, as ir_datasets' qrels_iter()
    return {"pyterrier": (pt_run, pt_qrels), "ir_measures": (irm_run, irm_qrels), "dicts": (dict_run, dict_qrels),
            "records": (tuples_run, tuples_qrels)}


def test_every_form_gives_ir_measures_values():
    _, (run, qrels) = next(iter(forms().items()))
    measures = [ir_measures.parse_measure(m) for m in MEASURES[:-1]]
    irm_run = run.rename(columns={"qid": "query_id", "docno": "doc_id"})
    irm_qrels = qrels.rename(columns={"qid": "query_id", "docno": "doc_id", "label": "relevance"})
    aggregate = ir_measures.calc_aggregate(measures, irm_qrels, irm_run)
    per_topic = {(m.query_id, str(m.measure)): m.value for m in ir_measures.iter_calc(measures, irm_qrels, irm_run)}
    for form, (run, qrels) in forms().items():
        ev = irlab.evaluate(run, qrels, MEASURES)
        for name, measure in zip(MEASURES, measures):
            tolerance = 5.1e-6 if name.startswith("ERR") else 1e-12   # gdeval prints 5 decimals
            assert abs(ev.aggregate[name] - aggregate[measure]) <= tolerance, (form, name)
            for topic in ("401", "402", "403"):   # 403: judged, not in the run -- 0, as ir_measures counts it
                assert abs(ev.per_topic[topic][name] - per_topic[topic, str(measure)]) <= tolerance, (form, name)
        assert ev.aggregate["map"] == ev.aggregate["AP"]
        assert set(ev.per_topic) == {"401", "402", "403"}   # 404 has no judgments: neither tool evaluates it


def test_results_come_back_as_frames_and_records_in_the_callers_columns():
    run, qrels = forms()["pyterrier"]
    ev = irlab.evaluate(run, qrels, ["AP", "nDCG@10"])
    assert list(ev.frame().columns) == ["AP", "nDCG@10"] and len(ev.frame()) == 1
    per_topic = ev.frame(per_topic=True)
    assert list(per_topic.columns) == ["qid", "measure", "value"] and len(per_topic) == 6
    # 401: a(2) c(0) b(1) x, R = 3 -> AP = (1 + 2/3) / 3
    assert per_topic.query("qid == '401' and measure == 'AP'")["value"].item() == pytest.approx((1 + 2 / 3) / 3)
    run, qrels = forms()["ir_measures"]
    metrics = irlab.evaluate(run, qrels, ["AP"]).metrics()
    assert metrics[0] == ("401", "AP", pytest.approx((1 + 2 / 3) / 3)) and metrics[0].query_id == "401"
    assert list(irlab.evaluate(run, qrels, ["AP"]).frame(per_topic=True).columns) == ["query_id", "measure", "value"]


def test_complete_false_leaves_out_a_topic_the_run_does_not_answer():
    run, qrels = forms()["dicts"]
    assert set(irlab.evaluate(run, qrels, ["AP"], complete=False).per_topic) == {"401", "402"}


@pytest.mark.parametrize("run, qrels, message", [
    (pd.DataFrame({"qid": ["1"], "doc": ["a"], "score": [1.0]}), {"1": {"a": 1}}, "needs the columns"),
    (pd.DataFrame({"qid": ["1"], "docno": ["a"], "score": [float("nan")]}), {"1": {"a": 1}}, "not a finite number"),
    ({"1": {"a": 1.0}}, {"1": {"a": 1.5}}, "whole number"),
    ([("1", "a", 1.0)], {"1": {"a": 1}}, "needs the fields"),
    (pd.DataFrame({"qid": ["1", "1"], "docno": ["a", "a"], "score": [1.0, 2.0]}), {"1": {"a": 1}}, "given twice"),
    ({"1": {"a b": 1.0}}, {"1": {"a": 1}}, "without spaces"),
    ({}, {"1": {"a": 1}}, "no rows"),
    ("run.txt", {"1": {"a": 1}}, "DataFrame, a dict of dicts"),
])
def test_bad_frames_are_one_clear_error(run, qrels, message):
    with pytest.raises(InputTypeError, match=message):
        irlab.evaluate(run, qrels, ["AP"])


def test_a_measure_irlab_does_not_compute_is_refused():
    run, qrels = forms()["dicts"]
    with pytest.raises(IrlabError, match="ir_measures names it: nDCG@5"):
        irlab.evaluate(run, qrels, ["ndcg@5"])


def test_import_irlab_loads_neither_pandas_nor_numpy():
    code = "import sys, irlab; print('pandas' in sys.modules, 'numpy' in sys.modules)"
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, text=True).stdout.split() == ["False",
                                                                                                          "False"]


def test_one_topic_of_a_frame_is_explained_as_the_files_are(tmp_path, capsys):
    run, qrels = forms()["pyterrier"]
    (tmp_path / "run").write_text("".join(f"{q} Q0 {d} 0 {s} r\n" for q, d, s in RUN))
    (tmp_path / "qrels").write_text("".join(f"{q} 0 {d} {g}\n" for q, d, g in QRELS))
    ev = irlab.evaluate(run, qrels, ["nDCG@10", "AP(rel=2)", "RBP(p=0.8)"])
    for name in ("nDCG@10", "AP(rel=2)", "RBP(p=0.8)"):
        result = irlab.explain(name, run, qrels, topic="401")
        assert main(["explain", name, "--qrels", str(tmp_path / "qrels"), "--run", str(tmp_path / "run"),
                     "--topic", "401", "--format", "json"]) == 0
        from_files = json.loads(capsys.readouterr().out)
        assert str(result.value) == from_files["value"] and float(result) == pytest.approx(ev.per_topic["401"][name])
    text = irlab.explain("ndcg", run, qrels, topic=401, k=3).render("text")
    assert "topic 401 of the run judged by the qrels" in text and "R = 3 relevant in total" in text
    with pytest.raises(InputTypeError, match="no option 'kk'"):
        irlab.explain("ndcg", run, qrels, topic="401", kk=3)


def test_the_site_notebook_example_is_real_output():
    """The ```pycon``` block of irlab.evaluate and irlab.explain in docs/site/stack.md, run as a doctest (by hand:
    topic 401 ranks a(2) c(0) b(1), c before b on the tied score; nDCG@10 = 2.5 / (2 + 1/log2(3)) = 0.950234,
    AP = 5/6)."""
    import doctest
    import re
    from pathlib import Path

    readme = (Path(__file__).resolve().parents[1] / "docs" / "site" / "stack.md").read_text(encoding="utf-8")
    blocks = [b for b in re.findall(r"```pycon\n(.*?)```", readme, re.S) if "irlab.evaluate(" in b]
    assert len(blocks) == 1
    test = doctest.DocTestParser().get_doctest(blocks[0], {}, "stack", "docs/site/stack.md", 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    runner.run(test)
    assert runner.summarize(verbose=False) == (0, len(test.examples))


# ranx is not installed here (its numba is heavy): these stand-ins mirror ranx 0.3's documented Run and Qrels --
# the values in numba typed dicts ``run.run`` / ``qrels.qrels`` ({qid: {docno: value}}), ``to_dict()`` returning
# them as a defaultdict of dicts, and the Run's ``name`` (AmenRa/ranx, ranx/data_structures/run.py and qrels.py)
class RanxRun:
    def __init__(self, run, name=None):
        self.run, self.name = {q: dict(d) for q, d in run.items()}, name

    def to_dict(self):
        from collections import defaultdict

        d = defaultdict(dict)
        for q_id in self.run:
            d[q_id] = dict(self.run[q_id])
        return d


class RanxQrels:
    def __init__(self, qrels, name=None):
        self.qrels, self.name = {q: dict(d) for q, d in qrels.items()}, name

    def to_dict(self):
        return RanxRun.to_dict(SimpleRun(self.qrels))


class SimpleRun:
    def __init__(self, run):
        self.run = run


def test_ranx_run_and_qrels_are_taken_by_their_documented_api():
    dict_run, dict_qrels = forms()["dicts"]
    expected = irlab.evaluate(dict_run, dict_qrels, MEASURES)
    ours = irlab.evaluate(RanxRun(dict_run, name="bm25"), RanxQrels(dict_qrels), MEASURES)
    assert ours.aggregate == expected.aggregate and ours.per_topic == expected.per_topic
    assert ours.result.runid == "bm25"
    # an object with the typed dicts and no to_dict (as ranx's objects expose .run and .qrels)
    attrs = irlab.evaluate(SimpleRun(dict_run), type("Q", (), {"qrels": dict_qrels})(), MEASURES)
    assert attrs.aggregate == expected.aggregate


def test_diversity_names_on_frames_with_subtopics_equal_ir_measures():
    qrels = pd.DataFrame([("401", "1", "a", 1), ("401", "2", "a", 1), ("401", "2", "b", 1), ("401", "3", "x", 2),
                          ("402", "1", "d", 1), ("402", "2", "z", 2), ("403", "1", "q", 1)],
                         columns=["query_id", "iteration", "doc_id", "relevance"])
    run, _ = forms()["ir_measures"]
    run = run.assign(score=[4.0, 3.0, 2.5, 1.0, 5.0, 4.0, 1.0])   # distinct: pyndeval breaks ties its own way
    names = ["alpha_nDCG@20", "ERR_IA@5", "NRBP", "AP_IA(rel=2)", "StRecall@2"]
    ours = irlab.evaluate(run, qrels, names)
    # one measure at a time: ir_measures 0.4.3 hands pyndeval's second invocation (another rel or alpha) a run
    # iterator the first one has used up, so in one call AP_IA(rel=2) or the rest would be 0
    for name in names:
        measure = ir_measures.parse_measure(name)
        assert ours.aggregate[name] == pytest.approx(ir_measures.calc_aggregate([measure], qrels, run)[measure],
                                                     abs=1e-12), name
    records = [ir_measures.Qrel(q, d, g, s) for q, s, d, g in qrels.itertuples(index=False)]
    assert irlab.evaluate(run, records, names).aggregate == ours.aggregate
    with pytest.raises(IrlabError, match="a dict of dicts holds no subtopics"):
        irlab.evaluate(run, forms()["dicts"][1], names)
    with pytest.raises(IrlabError, match="no topic of .* has two subtopics"):
        irlab.evaluate(run, qrels.assign(iteration="0").drop_duplicates(["query_id", "doc_id"]), names)


def test_ids_converted_in_bulk_equal_those_converted_one_by_one():
    """A frame's columns are encoded at once (irlab.frames._ids); the result and every refusal are those of the
    id-by-id path it falls back to."""
    from irlab.frames import _ids, _ids_one_by_one

    import numpy as np

    samples = [["401", "402", "401"], ["DOC-1", "doc-22", "é-3", "x"], np.array(["a", "bb"], dtype=object),
               pd.Series(["q1", "q22"], dtype="string").to_numpy(), np.array([401, 7, 12]), [5, 6], ["7"]]
    for values in samples:
        assert _ids(values, "docno").tolist() == _ids_one_by_one(list(values), "docno").tolist()
    good = [f"d{i}" for i in range(5000)]
    for bad, message in ((" x", "' x' must be 1 to"), ("a\nb", "'a\\\\nb' must be 1 to"), ("", "'' must be 1 to"),
                         ("y" * 256, "must be 1 to 255 bytes"), (None, "got NoneType None"), (2.5, "got float 2.5"),
                         ("a\ud800", "not text UTF-8 can write")):
        with pytest.raises(InputTypeError, match=message):
            _ids(good[:2500] + [bad] + good[2500:], "docno")


def test_labels_and_int_ids_from_frames():
    run = pd.DataFrame({"qid": [401, 401, 402], "docno": ["a", "b", "a"], "score": [2.0, 1.0, 1.0]})
    qrels = pd.DataFrame({"qid": [401, 401, 402], "docno": ["a", "b", "a"], "label": [1.0, 2.0, 0.0]})
    as_text = irlab.evaluate(run.astype({"qid": str}), qrels.astype({"qid": str, "label": int}), ["AP", "nDCG@10"])
    assert irlab.evaluate(run, qrels, ["AP", "nDCG@10"]).per_topic == as_text.per_topic
    with pytest.raises(InputTypeError, match="a relevance label is a whole number .*got 1.5"):
        irlab.evaluate(run, qrels.assign(label=[1.0, 1.5, 0.0]), ["AP"])


def test_a_bad_row_of_diversity_qrels_frames_is_named_by_its_row():
    qrels = pd.DataFrame([("401", "1", "a", 1), ("401", "2", "a", 1), ("401", "2", "a", 2), ("401", "3", "x", 1.0)],
                         columns=["query_id", "iteration", "doc_id", "relevance"])
    run = pd.DataFrame([("401", "a", 3.0), ("401", "x", 1.0)], columns=["qid", "docno", "score"])
    with pytest.raises(InputTypeError, match=r"diversity qrels' row 2 \(from 0; line 3 as a qrels file\): docno 'a' "
                                             r"is judged twice for topic '401', subtopic '2' \(first on line 2\)"):
        irlab.evaluate(run, qrels, ["alpha_nDCG@20"])
    with pytest.raises(InputTypeError, match="a diversity judgment is a whole number >= 0 .*got -1"):
        irlab.evaluate(run, qrels.assign(relevance=[1, 1, -1, 1]), ["alpha_nDCG@20"])
    # grades written 1.0 are whole numbers, as in plain qrels: alpha-nDCG@20 = 1 (a then x cover s1, s2, s3)
    assert irlab.evaluate(run, qrels.drop(index=2), ["alpha_nDCG@20"]).aggregate == {"alpha_nDCG@20": 1.0}
