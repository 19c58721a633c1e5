"""irlab.explain_experiment against PyTerrier's own pt.Experiment (python-terrier runs it on DataFrames without Java),
statsmodels' multipletests and scipy's ttest_rel; irlab.ir_measure against ir_measures' calc_aggregate."""

import math
import warnings

import numpy as np
import pandas as pd
import pytest

import irlab
from irlab.errors import InputTypeError, ParameterError
from irlab.experiment import _interval, explain_experiment, multipletests

ir_measures = pytest.importorskip("ir_measures")


def collection(seed, topics=14, docs=15, systems=4):
    """PyTerrier frames: graded qrels, runs with tied scores, unjudged documents, a qrels topic no run answers."""
    rng = np.random.default_rng(seed)
    qrels, runs = [], [[] for _ in range(systems)]
    for t in range(topics):
        qid = str(400 + t)
        for d in range(docs):
            if rng.random() < 0.6:
                qrels.append((qid, f"d{d}", int(rng.integers(0, 3))))
        if t == topics - 1:
            continue
        for s in range(systems):
            for d in rng.choice(docs + 5, size=10, replace=False):
                runs[s].append((qid, f"d{d}", float(rng.integers(0, 6))))
    frames = []
    for rows in runs:
        df = pd.DataFrame(rows, columns=["qid", "docno", "score"])
        df["rank"] = df.groupby("qid")["score"].rank(ascending=False, method="first").astype(int) - 1
        frames.append(df)
    qrels = pd.DataFrame(qrels, columns=["qid", "docno", "label"])
    return frames, pd.DataFrame({"qid": sorted(set(qrels.qid)), "query": "q"}), qrels


@pytest.fixture(scope="module")
def pt():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return pytest.importorskip("pyterrier")


@pytest.fixture
def no_forced_gc(monkeypatch):
    """statsmodels' multipletests(method='holm') ends with gc.collect() (statsmodels/stats/multitest.py), which walks
    every object of the process: 0.16 s a call in a bare interpreter, 0.4 s with pyterrier and pandas loaded, so 300
    calls took 114 s of a 0.1 s test. Collecting garbage cannot change a p-value; the call is made a no-op here."""
    import gc

    monkeypatch.setattr(gc, "collect", lambda generation=2: 0)


def experiment(pt, runs, topics, qrels, measures, names, **options):
    """(table, per-topic frame): pt.Experiment with the significance options, then with perquery=True (it refuses
    baseline= with perquery)."""
    return (pt.Experiment(runs, topics, qrels, measures, names=names, **options),
            pt.Experiment(runs, topics, qrels, measures, names=names, perquery=True))


def _verdicts(document):
    return [v for block in document.blocks if hasattr(block, "meta") for v in block.meta.get("same", [])]


@pytest.mark.parametrize("seed,correction", [(0, "holm"), (1, "bonferroni"), (2, "hs"), (3, "fdr_bh"), (4, "sidak")])
def test_every_significance_cell_of_pt_experiment_is_reproduced(pt, no_forced_gc, seed, correction):
    runs, topics, qrels = collection(seed)
    names = ["A", "B", "C", "D"]
    measures = ["map", ir_measures.nDCG @ 10, ir_measures.P @ 5]
    table, perquery = experiment(pt, runs, topics, qrels, measures, names, baseline=1, correction=correction)
    document = explain_experiment(table, perquery, correction=correction)
    verdicts = _verdicts(document)
    # 3 measures x 3 systems x (+, -, p-value, reject, corrected): every cell the same double, bool or count
    assert len(verdicts) == 45 and set(verdicts) == {"equal"}
    assert document.meta["baseline"] == "B" and document.meta["same"] is True
    row = table.set_index("name").loc["C"]
    assert document.meta["cells"]["C|map p-value"] == row["map p-value"]
    assert document.meta["cells"]["C|map +"] == row["map +"]


def test_wilcoxon_and_no_correction_are_reproduced(pt):
    runs, topics, qrels = collection(7, topics=20)
    table, perquery = experiment(pt, runs[:3], topics, qrels, ["map"], ["x", "y", "z"], baseline=0, test="wilcoxon")
    document = explain_experiment(table, perquery, test="wilcoxon")
    assert set(_verdicts(document)) == {"equal"} and len(_verdicts(document)) == 6


def test_a_changed_cell_is_reported_as_different(pt):
    runs, topics, qrels = collection(5)
    table, perquery = experiment(pt, runs[:2], topics, qrels, ["map"], ["x", "y"], baseline=0)
    table.loc[1, "map p-value"] = table.loc[1, "map p-value"] / 2
    document = explain_experiment(table, perquery)
    assert document.meta["same"] is False
    assert "a cell differs from pt.Experiment's" in document.render("text")


def test_irlab_measures_run_inside_pt_experiment(pt):
    runs, topics, qrels = collection(6)
    q = irlab.ir_measure("q-measure", beta=1)
    table = pt.Experiment(runs[:2], topics, qrels, [q, "map"], names=["x", "y"])
    for system, run in zip(["x", "y"], runs[:2]):
        expected = ir_measures.calc_aggregate([q], qrels.rename(columns={"qid": "query_id", "docno": "doc_id",
                                                                         "label": "relevance"}),
                                              run.rename(columns={"qid": "query_id", "docno": "doc_id"}))[q]
        assert table.set_index("name").loc[system, str(q)] == pytest.approx(expected, abs=1e-15)


# ---- statsmodels and scipy -------------------------------------------------------------------------------------------

@pytest.mark.parametrize("method", ["bonferroni", "sidak", "holm", "holm-sidak", "fdr_bh"])
def test_multipletests_equals_statsmodels(no_forced_gc, method):
    multitest = pytest.importorskip("statsmodels.stats.multitest")
    rng = np.random.default_rng(11)
    for trial in range(300):
        m = int(rng.integers(1, 9))
        p = rng.choice([0.001, 0.01, 0.02, 0.04, 0.05], size=m) if trial % 3 == 0 else rng.random(m) ** 3
        alpha = [0.05, 0.1, 0.01][trial % 3]
        reject, corrected = multipletests(p, alpha, method)
        want_reject, want_corrected, _, _ = multitest.multipletests(p, alpha=alpha, method=method)
        assert reject == want_reject.tolist()
        assert corrected == want_corrected.tolist()   # the same doubles


def test_effect_interval_equals_scipy():
    scipy_stats = pytest.importorskip("scipy.stats")
    rng = np.random.default_rng(3)
    for _ in range(50):
        a, b = rng.random(25), rng.random(25)
        mean, low, high, d_z = _interval(list(a - b), 0.05)
        interval = scipy_stats.ttest_rel(a, b).confidence_interval(0.95)
        assert (low, high) == pytest.approx((interval.low, interval.high), rel=1e-12)
        assert d_z == pytest.approx(np.mean(a - b) / np.std(a - b, ddof=1), rel=1e-12)


# ---- the explanation -------------------------------------------------------------------------------------------------

PER = pd.DataFrame({"name": ["BM25"] * 4 + ["DPH"] * 4 + ["QL"] * 4, "qid": ["1", "2", "3", "4"] * 3,
                    "measure": "AP", "value": [0.5, 0.25, 0.75, 0.1, 0.6, 0.2, 0.9, 0.3, 0.4, 0.25, 0.7, 0.05]})


def test_explanation_reads_p_gives_the_effect_and_the_topics_that_carry_it():
    text = explain_experiment(None, PER, baseline="BM25", correction="holm").render("text")
    # DPH - BM25: 0.1, -0.05, 0.15, 0.2 -> 3 wins, 1 loss, mean 0.1, s = sqrt(7/600), t = 1.8516 (by hand)
    assert "DPH is above BM25 on 3 of 4 topics and below on 1 (0 equal)" in text
    assert "Cohen's d_z = Δ / s (the spread of the differences) | 0.926" in text
    assert "Step 9. t statistic: t = d_mean / SE = (1/10) / (sqrt(42)/120) ≈ 1.8516" in text
    assert "It is not the probability that DPH is no better" in text
    # |Δ| = 0.2, 0.15, 0.1, 0.05: the two largest carry 0.35 of 0.5; 0.05 is not above the threshold 0.05
    assert "2 of 4 topics carry half of Σ|Δ| = 0.5000" in text
    assert "    4 | +0.2000 |                      40%" in text and "+0.0500" not in text.split("Topics with")[1][:200]
    # Holm over p = 0.1612 (DPH) and 0.0917 (QL): both adjusted to 2 x 0.0917
    assert text.count("0.1834422266231436") == 4


def test_the_chart_draws_only_topics_above_the_threshold():
    document = explain_experiment(None, PER, baseline=0, threshold=0.1, figures=True)
    figures = [b for s in document.blocks if hasattr(s, "blocks") for b in s.blocks if type(b).__name__ == "Figure"]
    assert len(figures) == 2 and all(f.png.startswith(b"\x89PNG") for f in figures)
    from irlab.plots import difference_bars

    fig = difference_bars({"1": 0.1, "2": -0.05, "3": 0.15, "4": 0.2}, "AP", ("DPH", "BM25"), threshold=0.1)
    ax = fig.axes[0]
    assert [t.get_text() for t in ax.get_xticklabels()] == ["4", "3"]
    assert "2 with |Δ| <= 0.1 not drawn" in ax.get_xlabel() and "DPH better on 3, BM25 on 1" in ax.get_xlabel()


@pytest.mark.parametrize("call,message", [
    (lambda: explain_experiment(None, None), "needs the per-topic values"),
    (lambda: explain_experiment(None, PER, baseline="BM25", correction="hommel"), "irlab reproduces statsmodels'"),
    (lambda: explain_experiment(None, PER, baseline="X"), "is not one of the systems"),
    (lambda: explain_experiment(None, PER), "give baseline="),
    (lambda: explain_experiment(None, PER, baseline=0, test="z"), "pt.Experiment's tests"),
    (lambda: explain_experiment(None, pd.DataFrame({"a": [1]}), baseline=0), "columns name, qid, measure, value"),
    (lambda: explain_experiment(None, PER[PER.qid != "3"].iloc[1:], baseline="DPH"), "has no AP value for topic 1"),
    (lambda: irlab.ir_measure("ap", beta=2), "has no option 'beta'"),
])
def test_bad_input_is_one_clear_error(call, message):
    with pytest.raises((InputTypeError, ParameterError), match=None) as caught:
        call()
    assert message in str(caught.value)


def test_a_corrected_table_needs_its_correction(pt, no_forced_gc):
    runs, topics, qrels = collection(8)
    table, perquery = experiment(pt, runs[:3], topics, qrels, ["map"], ["x", "y", "z"], baseline=0, correction="holm")
    with pytest.raises(ParameterError, match="give the correction"):
        explain_experiment(table, perquery)
    with pytest.raises(ParameterError, match="the table's baseline is x"):
        explain_experiment(table, perquery, baseline="y", correction="holm")


# ---- irlab's metrics as ir_measures measures -----------------------------------------------------------------------

def _ir_frames(seed, ties=True):
    rng = np.random.default_rng(seed)
    q, d, r = [], [], []
    for t in range(10):
        qid = str(t + 1)
        for doc in range(12):
            if rng.random() < 0.7:
                q.append((qid, f"d{doc:02d}", int(rng.integers(0, 3))))
            for s in range(3):
                if rng.random() < 0.5:
                    d.append((qid, str(s + 1), f"d{doc:02d}", int(rng.integers(0, 2))))
        if t == 9:
            continue   # a topic judged and not answered: 0 for every measure
        for i, doc in enumerate(rng.choice(15, 10, replace=False)):
            r.append((qid, f"d{doc:02d}", float(rng.integers(0, 4)) if ties else 10.0 - i))
    r.append(("99", "d01", 1.0))   # a topic answered and not judged: left out, as ir_measures' measures leave it
    return (pd.DataFrame(q, columns=["query_id", "doc_id", "relevance"]),
            pd.DataFrame(d, columns=["query_id", "iteration", "doc_id", "relevance"]),
            pd.DataFrame(r, columns=["query_id", "doc_id", "score"]))


@pytest.mark.parametrize("seed", range(4))
def test_ir_measure_equals_ir_measures_on_the_measures_both_compute(seed):
    qrels, diversity, run = _ir_frames(seed)
    pairs = [(irlab.ir_measure("ap"), ir_measures.AP), (irlab.ir_measure("ndcg", k=10, gain="linear"), ir_measures.nDCG @ 10),
             (irlab.ir_measure("precision", k=5), ir_measures.P @ 5), (irlab.ir_measure("rr"), ir_measures.RR),
             (irlab.ir_measure("ap", threshold=2), ir_measures.AP(rel=2))]
    got = ir_measures.calc_aggregate([m for pair in pairs for m in pair], qrels, run)
    for mine, theirs in pairs:
        assert got[mine] == pytest.approx(got[theirs], abs=1e-14), str(mine)
    topics = {m.query_id for m in ir_measures.iter_calc([pairs[0][0]], qrels, run)}
    assert topics == set(qrels.query_id) and "99" not in topics
    # untied scores: alpha-nDCG@10 equals ndeval's (pyndeval) topic by topic
    _, diversity, untied = _ir_frames(seed, ties=False)
    mine, theirs = irlab.ir_measure("alpha-ndcg", k=10), ir_measures.alpha_nDCG @ 10
    values = {(str(m.measure), m.query_id): m.value for m in ir_measures.iter_calc([mine, theirs], diversity, untied)}
    for qid in set(diversity.query_id):
        assert values[(str(mine), qid)] == pytest.approx(values[(str(theirs), qid)], abs=1e-14)


def test_tie_aware_ap_is_the_mean_over_orders_of_the_tied_documents():
    qrels = pd.DataFrame({"query_id": ["1"] * 3, "doc_id": ["a", "b", "c"], "relevance": [1, 0, 1]})
    run = pd.DataFrame({"query_id": ["1"] * 3, "doc_id": ["a", "b", "c"], "score": [0.9, 0.5, 0.5]})
    measure = irlab.ir_measure("ap", ties="tie-averaged")
    # a first, then b c or c b: AP = (1 + 2/3) / 2 or (1 + 1) / 2; their mean 11/12; trec_eval ranks c (docno
    # descending) before b: AP = 1
    assert ir_measures.calc_aggregate([measure], qrels, run)[measure] == pytest.approx(11 / 12, abs=1e-15)
    assert math.isclose(ir_measures.calc_aggregate([ir_measures.AP], qrels, run)[ir_measures.AP], 1.0)


# ---- ir_measures' rules as named conventions ------------------------------------------------------------------------

def test_ir_measures_rules_are_named_conventions_shown_where_they_apply():
    from irlab import conventions as conv
    from irlab.explorer import Case, explore

    assert {c.name for c in conv.RUN_EVALUATION} == {"missing_topics", "judged_only", "err_top_grade",
                                                     "tie_docno_order"}
    # ERR of grades 3,0,1,2 (by hand): topic scale gmax = 3 gives 5471/6144; gdeval's gmax = 4 gives 7765/16384
    rows = {row.tool.name: (row, value) for row, value in explore("err", Case.from_ranking("3,0,1,2")).values}
    assert rows["ir_measures"][1] == rows["gdeval (TREC Web track)"][1] == __import__("fractions").Fraction(7765, 16384)
    assert rows["ir_measures"][0].choice("err_top_grade") == "gdeval-4"
    assert rows["Chapelle et al. 2009"][1] == __import__("fractions").Fraction(5471, 6144)
    text = explain_experiment(None, PER, baseline="BM25").render("text")
    assert "missing_topics = zero, it counts 0, as an empty ranking (trec_eval -c; ir_measures" in text


def test_a_missing_topic_counts_zero_in_pyterrier_as_the_convention_says(pt):
    # topic 413 of collection() is judged and answered by no run: pt.Experiment's per-topic value is 0 for every run
    runs, topics, qrels = collection(9)
    perquery = pt.Experiment(runs[:2], topics, qrels, ["map"], names=["x", "y"], perquery=True)
    assert perquery[perquery.qid == "413"]["value"].tolist() == [0.0, 0.0]
    got = irlab.evaluate(runs[0], qrels, ["AP"]).per_topic
    assert got["413"]["AP"] == 0 and irlab.evaluate(runs[0], qrels, ["AP"], complete=False).per_topic.get("413") is None


def test_the_site_experiment_example_is_real_output():
    """The ```pycon``` block of irlab.explain_experiment in docs/site/stack.md, run as a doctest (DPH - BM25 = 0.1,
    -0.05, 0.15, 0.2: 3 above, 1 below; t = 1.8516 by hand; p = scipy's ttest_rel)."""
    import doctest
    import re
    from pathlib import Path

    readme = (Path(__file__).resolve().parents[1] / "docs" / "site" / "stack.md").read_text(encoding="utf-8")
    blocks = [b for b in re.findall(r"```pycon\n(.*?)```", readme, re.S) if "irlab.explain_experiment(" in b]
    assert len(blocks) == 1
    test = doctest.DocTestParser().get_doctest(blocks[0], {"pd": pd, "irlab": irlab}, "stack", "docs/site/stack.md", 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    runner.run(test)
    assert runner.summarize(verbose=False) == (0, len(test.examples))


def test_compare_from_pyterrier_explains_the_csv_files_pt_experiment_saved(pt, no_forced_gc, tmp_path, capsys):
    """irlab compare --from-pyterrier: pt.Experiment's per-topic frame and table, saved with to_csv as a notebook
    saves them, give the explanation irlab.explain_experiment gives on the frames (qids such as 051 kept)."""
    from irlab.cli import main

    runs, topics, qrels = collection(11)
    for frame in (*runs, qrels, topics):
        frame["qid"] = "0" + frame["qid"]
    names = ["BM25", "QE", "RM3"]
    table, perquery = experiment(pt, runs[:3], topics, qrels, ["map", ir_measures.nDCG @ 10], names, baseline=0,
                                 correction="holm")
    perquery.to_csv(tmp_path / "perquery.csv")
    table.to_csv(tmp_path / "table.csv", index=False)
    expected = explain_experiment(table, perquery, correction="holm")
    assert expected.meta["same"] is True
    args = ["compare", "--from-pyterrier", str(tmp_path / "perquery.csv"), "--correction", "holm"]
    assert main(args + ["--table", str(tmp_path / "table.csv")]) == 0
    assert capsys.readouterr().out == expected.render("text")
    assert main(args + ["--baseline", "BM25", "--format", "markdown"]) == 0
    assert capsys.readouterr().out == explain_experiment(None, perquery, baseline="BM25",
                                                         correction="holm").render("markdown")
    assert "0400" in expected.render("text")


@pytest.mark.parametrize("extra, message", [
    ([], "needs --baseline NAME"),
    (["--baseline", "X", "--test", "sign"], "t (its default) or wilcoxon"),
    (["--baseline", "X", "qrels.txt"], "instead of QRELS and RUNs"),
    (["--baseline", "X", "-m", "P.10"], "-m has no meaning with --from-pyterrier"),
    (["--baseline", "X"], "baseline 'X' is not one of the systems A, B"),
    (["--baseline", "A", "--correction", "nope"], "irlab reproduces statsmodels'"),
])
def test_compare_from_pyterrier_bad_input_is_one_clear_error(tmp_path, capsys, extra, message):
    from irlab.cli import main

    (tmp_path / "pq.csv").write_text("name,qid,measure,value\nA,1,AP,0.5\nA,2,AP,0.25\nB,1,AP,0.75\nB,2,AP,0.5\n")
    assert main(["compare", "--from-pyterrier", str(tmp_path / "pq.csv"), *extra]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err and err.count("\n") == 1


def test_compare_from_pyterrier_bad_csv_names_the_line(tmp_path, capsys):
    from irlab.cli import main

    (tmp_path / "pq.csv").write_text("name,qid,measure,value\nA,1,AP,0.5\nA,1,AP,0.25\n")
    assert main(["compare", "--from-pyterrier", str(tmp_path / "pq.csv"), "--baseline", "A"]) == 2
    assert "pq.csv:3: system A has a second value of AP for topic 1" in capsys.readouterr().err
    (tmp_path / "pq.csv").write_text("system,qid,AP\nA,1,0.5\n")
    assert main(["compare", "--from-pyterrier", str(tmp_path / "pq.csv"), "--baseline", "A"]) == 2
    assert "columns name, qid, measure, value; it has system, qid, AP" in capsys.readouterr().err
    assert main(["compare", "--baseline", "A", "q", "r1", "r2"]) == 2
    assert "--baseline is an option of --from-pyterrier" in capsys.readouterr().err
