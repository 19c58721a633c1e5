"""ir_measures' measure names in irlab (irlab.measure_names, irlab.trec.named): read as ir_measures reads them, and
computed as ir_measures computes them (its calc/iter_calc is the oracle) on generated collections with graded
judgments, ties, topics missing from the run and unjudged documents."""

import math
import os
import random
import tempfile

import pytest

from irlab.cli import main
from irlab.errors import ParameterError
from irlab.measure_names import ALIASES, REGISTRY, explain_target, parse
from irlab.trec import evaluate

ir_measures = pytest.importorskip("ir_measures")

ISSUE_EXAMPLES = ["nDCG@10", "AP(rel=2)", "P(rel=2)@5", "R@100", "RR", "Rprec", "Bpref", "ERR@20", "RBP(p=0.8)",
                  "nDCG(dcg='exp-log2')@10", "Judged@10", "NumRel", "SetF(beta=0.5)", "alpha_nDCG@20", "ERR_IA@20",
                  "INST(T=3)", "SDCG@10", "IPrec@0.5", "MAP", "MRR", "NDCG@10", "NumRelRet", "SetRelP"]


def _same_as_ir_measures(text):
    theirs = ir_measures.parse_measure(text)
    ours = parse(text)
    assert ours.measure == theirs.NAME, text
    assert dict(ours.given) == theirs.params, text


@pytest.mark.parametrize("text", ISSUE_EXAMPLES)
def test_every_name_of_the_issue_reads_as_ir_measures_reads_it(text):
    _same_as_ir_measures(text)


def test_the_registry_is_ir_measures_registry():
    assert set(REGISTRY) | set(ALIASES) == set(ir_measures.measures.registry)
    for name, (at, params) in REGISTRY.items():
        cls = ir_measures.measures.registry[name]
        assert cls.AT_PARAM == at and set(params) == set(cls.SUPPORTED_PARAMS), name


def _value_text(kind, rng, key):
    if kind is bool:
        return rng.choice(["True", "False"])
    if kind is int:
        return str(rng.randint(1, 30))
    if kind is float:
        return rng.choice(["0.5", "0.25", "1.0", "3.0", "0.8"])
    if key == "gains":
        return "{0: 0, 1: 1, 2: 3}"
    return "'log2'"


def test_generated_names_read_as_ir_measures_reads_them():
    rng = random.Random(31)
    names = list(REGISTRY) + list(ALIASES)
    for _ in range(600):
        name = rng.choice(names)
        measure = ALIASES.get(name, (name, {}))[0]
        at, params = REGISTRY[measure]
        keys = [k for k in params if k != at and rng.random() < 0.4]
        text = name
        if keys:
            text += "(" + ", ".join(f"{k}={_value_text(params[k][0], rng, k)}" for k in keys) + ")"
        if at in params and rng.random() < 0.6:
            text += "@" + ("0.5" if at == "recall" else str(rng.randint(1, 100)))
        try:
            ours = parse(text)
        except ParameterError as exc:   # irlab refuses only what ir_measures cannot compute either
            assert "needs" in str(exc), text
            with pytest.raises(AssertionError):
                ir_measures.parse_measure(text).validate_params()
            continue
        theirs = ir_measures.parse_measure(text)
        assert ours.measure == theirs.NAME and dict(ours.given) == theirs.params, text


@pytest.mark.parametrize("text", ["ndcg@5", "nDCG(5)", "nDCG@", "nDCG[5]", "AP(rel=x)", "__import__('os')",
                                  "AP;P@5", "Nope@5", "AP(bogus=1)", "nDCG(dcg='exp')@5", "P@0"])
def test_names_ir_measures_refuses_are_refused_with_a_reason(text):
    with pytest.raises((ValueError, NameError, AssertionError, TypeError)):
        ir_measures.parse_measure(text).validate_params()
        if text == "P@0":   # ir_measures accepts a cut-off of 0 (and answers 0 for it); irlab asks for one >= 1
            raise ValueError
    with pytest.raises(ParameterError):
        parse(text)


def test_a_name_irlab_cannot_compute_names_the_nearest_it_can():
    with pytest.raises(ParameterError, match=r"did you mean nDCG@5, or `ndcg --k 5 --gain linear`\?"):
        parse("ndcg@5")
    assert explain_target("nDCG@5") == ("ndcg", {"k": "5", "gain": "linear"})
    assert explain_target("RBP(p=0.8)") == ("rbp", {"persistence": "0.8"})
    assert explain_target("INST(T=3)") == ("inst", {"target": "3"})
    assert explain_target("AP(rel=2)") == ("ap", {"threshold": "2"})
    assert explain_target("IPrec@0.5") == ("iprec", {"recall_level": "0.5"})


# ---- values: ir_measures' calc is the oracle -------------------------------------------------------------------

# every ir_measures measure irlab computes from a run and its qrels, with parameters
ORACLE = ["AP", "AP(rel=2)", "AP@5", "P@5", "P(rel=2)@5", "R@10", "R(rel=2)@10", "RR", "RR(rel=2)", "Rprec",
          "Rprec(rel=2)", "Bpref", "Bpref(rel=2)", "infAP", "infAP(rel=2)", "nDCG", "nDCG@5", "nDCG@10", "NumRel",
          "NumRet", "NumRelRet", "NumRet(rel=2)", "SetP", "SetP(rel=2)", "SetR", "SetF", "SetF(beta=0.5)", "SetAP",
          "SetRelP", "IPrec@0.5", "Success@1", "Success(rel=2)@5", "MAP", "MRR", "NDCG@5", "ERR@10", "ERR@20",
          "nDCG(dcg='exp-log2')@10", "Judged@5", "Judged@10", "RR@3", "RBP(rel=1)", "RBP(p=0.5,rel=2)",
          "nDCG(gains={0:0,1:1,2:3,3:7})@5", "nDCG(gains={0:0,1:2,2:3})", "AP(judged_only=True)",
          "P(judged_only=True)@5", "nDCG(judged_only=True)@10"]
# ir_measures' tools whose ties are not trec_eval's (score descending, docno descending): Judged and MS MARCO's
# RR@k sort ties by docno ascending, cwl-eval (RBP) keeps the run's order
TIE_ORDER_OF_ITS_OWN = ("Judged", "RR@", "RBP")
# gdeval prints 5 decimals
FIVE_DECIMALS = ("ERR", "nDCG(dcg=")


def _collection(rng, ties):
    """Graded judgments (-1 to 4), unjudged retrieved documents, qrels topics missing from the run and run topics
    without judgments; numeric topic ids (gdeval reads no others)."""
    qrels, run = {}, {}
    for _ in range(rng.randint(1, 5)):
        topic = str(rng.randint(1, 60))
        docs = [f"d{i}" for i in range(rng.randint(3, 25))]
        judged = {d: rng.choice([-1, 0, 0, 1, 1, 2, 3, 4]) for d in docs if rng.random() < 0.6}
        if rng.random() < 0.8 and judged and max(judged.values()) >= 0:   # pytrec_eval fails on all-negative topics
            qrels[topic] = judged
        if rng.random() < 0.85:
            ranked = rng.sample(docs, rng.randint(1, len(docs)))
            run[topic] = {d: float(rng.randint(0, 4)) if ties else rng.random() for d in ranked}
    qrels = qrels or {"1": {"d0": 1}}
    if not set(run) & set(qrels):
        run[next(iter(qrels))] = {"d0": 1.0}
    return qrels, run


def _trec_eval_order(run):
    """The same rankings with distinct scores in trec_eval's order (score descending, docno descending)."""
    out = {}
    for topic, scores in run.items():
        ranked = sorted(sorted(scores, reverse=True), key=lambda d: -scores[d])   # ASCII docnos: str order is strcmp's
        out[topic] = {d: float(len(ranked) - i) for i, d in enumerate(ranked)}
    return out


def _irlab(qrels, run, names, tmp_path):
    qp, rp = tmp_path / "qrels", tmp_path / "run"
    qp.write_text("".join(f"{t} 0 {d} {g}\n" for t, v in qrels.items() for d, g in v.items()))
    rp.write_text("".join(f"{t} Q0 {d} 0 {s!r} r\n" for t, v in run.items() for d, s in v.items()))
    return evaluate(str(qp), str(rp), names, complete=True)   # ir_measures averages over every qrels topic


@pytest.mark.parametrize("seed", range(0, 64, 4))
def test_values_equal_ir_measures_on_generated_collections(seed, tmp_path):
    for offset in range(4):
        rng = random.Random(seed + offset)
        ties = offset % 2 == 0
        qrels, run = _collection(rng, ties)
        ours = _irlab(qrels, run, ORACLE, tmp_path)
        measures = [ir_measures.parse_measure(name) for name in ORACLE]
        # one measure at a time: in one call, pytrec_eval's NumRet joins whichever invocation comes first, a
        # judged_only one included (it then counts judged documents only)
        plain = {(m.query_id, str(m.measure)): m.value for measure in measures
                 for m in ir_measures.iter_calc([measure], qrels, run)}
        ordered = {(m.query_id, str(m.measure)): m.value for measure in measures
                   for m in ir_measures.iter_calc([measure], qrels, _trec_eval_order(run))}
        for name, measure in zip(ORACLE, measures):
            theirs = ordered if name.startswith(TIE_ORDER_OF_ITS_OWN) else plain
            tolerance = 5.1e-6 if name.startswith(FIVE_DECIMALS) else 1e-12
            topics = {t for t, m in theirs if m == str(measure)}
            assert topics == set(qrels)
            for topic in topics:
                if name in ("NumRel",) and topic not in run:
                    continue   # ir_measures counts 0 for a qrels topic missing from the run; trec_eval -c its R
                mine, expected = ours.per_topic[topic][name], theirs[topic, str(measure)]
                assert abs(mine - expected) <= tolerance, (seed + offset, name, topic, mine, expected)
            mean = sum(theirs[t, str(measure)] for t in topics) / len(topics)
            if name.startswith("Num"):
                continue   # counts are summed, not averaged (trec_eval's 'all' line)
            if name != "NumRel":
                assert abs(ours.summary[name] - mean) <= tolerance, (seed + offset, name)


def test_a_qrels_topic_missing_from_the_run_counts_as_ir_measures_counts_it(tmp_path):
    qrels = {"1": {"a": 1, "b": 2}, "2": {"c": 1}}
    run = {"1": {"a": 2.0, "x": 1.0}}
    ours = _irlab(qrels, run, ["AP", "nDCG@10", "NumRet"], tmp_path)
    agg = ir_measures.calc_aggregate([ir_measures.AP, ir_measures.nDCG @ 10], qrels, run)
    assert ours.summary["AP"] == agg[ir_measures.AP] == 0.25
    assert ours.summary["nDCG@10"] == pytest.approx(agg[ir_measures.nDCG @ 10], abs=1e-15)
    assert ours.per_topic["2"]["NumRet"] == 0 and ours.summary["NumRet"] == 2


# ---- the commands ----------------------------------------------------------------------------------------------

QRELS = "401 0 a 2\n401 0 b 1\n401 0 c 0\n401 0 e 1\n402 0 a 1\n402 0 d 2\n"
RUN = "401 Q0 a 1 3.0 r\n401 Q0 c 2 2.0 r\n401 Q0 b 3 2.0 r\n401 Q0 x 4 1.0 r\n402 Q0 d 1 5 r\n402 Q0 z 2 4 r\n"


@pytest.fixture
def files(tmp_path):
    (tmp_path / "qrels").write_text(QRELS)
    (tmp_path / "run").write_text(RUN)
    (tmp_path / "run2").write_text(RUN.replace(" a 1 3.0", " a 1 1.5").replace(" d 1 5", " d 1 3"))
    return str(tmp_path / "qrels"), str(tmp_path / "run"), str(tmp_path / "run2")


def test_eval_prints_each_name_as_written_beside_trec_eval_names(files, capsys):
    qrels, run, _ = files
    assert main(["eval", "-q", "-m", "map", "-m", "nDCG@10", "-m", "AP(rel=2)", "-m", "P(rel=2)@2", qrels, run]) == 0
    lines = [line.split("\t") for line in capsys.readouterr().out.splitlines()]
    values = {(m.strip(), t): v for m, t, v in lines}
    # 401 ranked a(2) c(0) b(1) x (c before b: tied at 2.0, docno descending); R = 3 at rel 1, 1 at rel 2
    assert values["map", "401"] == "%6.4f" % ((1 + 2 / 3) / 3)
    assert values["AP(rel=2)", "401"] == "1.0000" and values["AP(rel=2)", "402"] == "1.0000"
    assert values["P(rel=2)@2", "401"] == "0.5000"
    dcg = 2 + 1 / math.log2(4)
    ideal = 2 + 1 / math.log2(3) + 1 / math.log2(4)
    assert values["nDCG@10", "401"] == "%6.4f" % (dcg / ideal)
    assert [m.strip() for m, t, _ in lines if t == "all"] == ["map", "nDCG@10", "AP(rel=2)", "P(rel=2)@2"]


@pytest.mark.parametrize("name, message", [
    ("ndcg@5", "did you mean ndcg_cut.5? Or, as ir_measures names it: nDCG@5?"),
    ("BPM(max_rel=2)@5", "of cwl-eval's user models it computes INST, INSQ and SDCG@k"),
    ("alpha_nDCG@20", "needs diversity qrels"),
    ("INST(T=1e308)", "at most 1e+12 (limits.MAX_CWL_TARGET)"),
    ("INST(min_rel=2,max_rel=2)", "so 0 <= min_rel < max_rel"),
    ("P", None),   # trec_eval's P, as before
])
def test_eval_refuses_what_it_cannot_compute_naming_why(files, capsys, name, message):
    qrels, run, _ = files
    code = main(["eval", "-m", name, qrels, run])
    out, err = capsys.readouterr()
    if message is None:
        assert code == 0 and out.startswith("P_5 ")
    else:
        assert code == 2 and message in err and "Traceback" not in err


def test_compare_takes_an_ir_measures_name(files, capsys):
    qrels, run, run2 = files
    assert main(["compare", "-m", "nDCG@10", "--test", "sign", qrels, run, run2]) == 0
    out = capsys.readouterr().out
    assert "on nDCG@10" in out


def test_explain_a_topic_by_its_ir_measures_name_gives_the_eval_value(files, capsys):
    qrels, run, _ = files
    for name in ("nDCG@10", "AP(rel=2)", "RR", "P(rel=2)@2", "IPrec@0.5", "ERR@20"):
        assert main(["eval", "-q", "-m", name, qrels, run]) == 0
        value = [line.split("\t")[2] for line in capsys.readouterr().out.splitlines() if "\t401\t" in line][0]
        assert main(["explain", name, "--qrels", qrels, "--run", run, "--topic", "401", "--format", "json"]) == 0
        import json

        got = json.loads(capsys.readouterr().out)
        assert "%6.4f" % float(got["decimal"] if "decimal" in got else got["value"]) == value, name


def test_explain_refuses_a_name_it_cannot_explain_and_a_contradicting_option(files, capsys):
    qrels, run, _ = files
    assert main(["explain", "ndcg@5", "RNNRR"]) == 2
    assert "did you mean nDCG@5, or `ndcg --k 5 --gain linear`?" in capsys.readouterr().err
    assert main(["explain", "nDCG@5", "RNNRR", "--k", "3"]) == 2
    assert "nDCG@5 sets --k 5; the option gives 3" in capsys.readouterr().err
    assert main(["explain", "nDCG@5", "3,2,0,1", "--k", "5"]) == 0


def test_iprec_is_trec_eval_10s_where_pytrec_eval_runs_trec_eval_9(tmp_path):
    """IPrec@x is iprec_at_recall at x as trec_eval 10.0 computes it (irlab eval's semantics); ir_measures runs
    trec_eval 9 inside pytrec_eval, whose recall levels round differently (conventions: interpolation trec-eval-9):
    seed 6's topic 31 has IPrec@0.3 = 0.75 here and 5/7 there."""
    qrels, run = _collection(random.Random(6), True)
    ours = _irlab(qrels, run, ["IPrec@0.3", "iprec_at_recall.0.3"], tmp_path)
    assert all(v["IPrec@0.3"] == v["iprec_at_recall_0.30"] for v in ours.per_topic.values())
    theirs = {m.query_id: m.value for m in ir_measures.iter_calc([ir_measures.IPrec @ 0.3], qrels, run)}
    assert ours.per_topic["31"]["IPrec@0.3"] == 0.75 and theirs["31"] == pytest.approx(5 / 7)


# ---- C/W/L user models and diversity measures: cwl-eval and pyndeval through ir_measures are the oracles --------

# max_rel given (ir_measures requires it); without it irlab takes the topic's top grade (below)
CWL_ORACLE = ["INST(max_rel=4)", "INST(T=3.0,max_rel=4)", "INSQ(max_rel=4)", "INSQ(T=2.0,min_rel=1,max_rel=3)",
              "SDCG(max_rel=4)@10", "SDCG(max_rel=4)@3", "SDCG(min_rel=1,max_rel=4)@20", "INST(T=2.5,max_rel=2)"]


def _per_topic(measures, qrels, run):
    return {(m.query_id, str(m.measure)): m.value for m in ir_measures.iter_calc(measures, qrels, run)}


@pytest.mark.parametrize("seed", range(0, 40, 4))
def test_cwl_values_equal_ir_measures_on_generated_collections(seed, tmp_path):
    for offset in range(4):
        rng = random.Random(seed + offset)
        qrels, run = _collection(rng, offset % 2 == 0)
        ours = _irlab(qrels, run, CWL_ORACLE + ["INST(T=3)", "SDCG@4"], tmp_path)
        ordered = _trec_eval_order(run)   # cwl-eval keeps a tie group in the run's order
        theirs = _per_topic([ir_measures.parse_measure(n) for n in CWL_ORACLE], qrels, ordered)
        for name in CWL_ORACLE:
            key = str(ir_measures.parse_measure(name))
            assert {t for t, m in theirs if m == key} == set(qrels)
            for topic in qrels:
                assert abs(ours.per_topic[topic][name] - theirs[topic, key]) <= 1e-12, (seed + offset, name, topic)
            mean = sum(theirs[t, key] for t in qrels) / len(qrels)
            assert abs(ours.summary[name] - mean) <= 1e-12
        for topic, judged in qrels.items():   # no max_rel: the topic's top grade
            top = max(judged.values())
            for name, theirs_name in (("INST(T=3)", f"INST(T=3.0,max_rel={top})"), ("SDCG@4", f"SDCG(max_rel={top})@4")):
                if top <= 0:
                    assert ours.per_topic[topic][name] == 0
                    continue
                (value,) = _per_topic([ir_measures.parse_measure(theirs_name)], {topic: judged},
                                      {topic: ordered.get(topic, {})} if topic in ordered else {}).values() or [0.0]
                assert abs(ours.per_topic[topic][name] - value) <= 1e-12, (seed + offset, name, topic)


def test_cwl_values_of_a_topic_are_those_irlab_explain_works_out(tmp_path, capsys):
    qrels = {"1": {"a": 2, "b": 1, "c": 0, "e": 3}, "2": {"x": 1, "y": 0}}
    run = {"1": {"a": 4.0, "c": 3.0, "z": 2.0, "e": 1.0}, "2": {"y": 2.0, "x": 1.0}}
    names = ["INST(T=3)", "INSQ", "SDCG@3", "INST"]
    ours = _irlab(qrels, run, names, tmp_path)
    import json

    for name in names:
        for topic in qrels:
            assert main(["explain", name, "--qrels", str(tmp_path / "qrels"), "--run", str(tmp_path / "run"),
                         "--topic", topic, "--format", "json"]) == 0
            got = json.loads(capsys.readouterr().out)
            assert ours.per_topic[topic][name] == pytest.approx(float(got["decimal"]), abs=1e-12), (name, topic)
    # SDCG@3 of topic 1 by hand: gains 2/3, 0, 0 over Σ_{i<=3} 1/log2(i+1)
    assert ours.per_topic["1"]["SDCG@3"] == pytest.approx((2 / 3) / (1 + 1 / math.log2(3) + 0.5), abs=1e-15)


DIVERSITY_ORACLE = ["alpha_nDCG@20", "alpha_nDCG@5", "alpha_nDCG(alpha=0.3)@10", "alpha_DCG@10", "ERR_IA@20",
                    "ERR_IA@5", "nERR_IA@10", "P_IA@10", "P_IA(rel=2)@5", "StRecall@10", "NRBP", "nNRBP",
                    "NRBP(alpha=0.3,beta=0.8)", "AP_IA", "AP_IA(rel=2)", "alpha_nDCG(rel=2)@20"]


def _diversity_collection(rng):
    """Topics of 1 to 4 subtopics judged 0-2 (a document judged for several), documents retrieved unjudged, a
    qrels topic missing from the run, a run topic without judgments."""
    qrels, run = [], {}
    for i, topic in enumerate(map(str, rng.sample(range(1, 40), rng.randint(2, 5)))):
        docs = [f"d{i}" for i in range(rng.randint(3, 30))]
        for subtopic in range(1, rng.randint(2 if i else 3, 5)):
            for doc in rng.sample(docs, rng.randint(1, len(docs))):
                qrels.append(ir_measures.Qrel(topic, doc, rng.choice([0, 0, 1, 1, 2]), str(subtopic)))
        if rng.random() < 0.85:
            ranked = rng.sample(docs + ["u1", "u2"], rng.randint(1, len(docs)))
            run[topic] = {d: float(len(ranked) - i) for i, d in enumerate(ranked)}   # distinct scores
    run["99"] = {"d0": 1.0}
    return qrels, run


@pytest.mark.parametrize("seed", range(12))
def test_diversity_values_equal_ir_measures_on_generated_collections(seed, tmp_path):
    qrels, run = _diversity_collection(random.Random(seed))
    qp, rp = tmp_path / "qrels", tmp_path / "run"
    qp.write_text("".join(f"{q.query_id} {q.iteration} {q.doc_id} {q.relevance}\n" for q in qrels))
    rp.write_text("".join(f"{t} Q0 {d} 0 {s!r} r\n" for t, v in run.items() for d, s in v.items()))
    ours = evaluate(str(qp), str(rp), DIVERSITY_ORACLE, complete=True)
    judged = {q.query_id for q in qrels}
    for name in DIVERSITY_ORACLE:
        measure = ir_measures.parse_measure(name)
        theirs = _per_topic([measure], qrels, run)
        assert {t for t, _ in theirs} == judged
        for topic in judged:
            mine, expected = ours.per_topic[topic][name], theirs[topic, str(measure)]
            assert mine == pytest.approx(expected, abs=1e-12) or (math.isnan(mine) and math.isnan(expected)), \
                (seed, name, topic, mine, expected)
        aggregate = ir_measures.calc_aggregate([measure], qrels, run)[measure]
        assert ours.summary[name] == pytest.approx(aggregate, abs=1e-12, nan_ok=True), (seed, name)


def test_diversity_names_in_eval_and_compare_need_diversity_qrels(files, tmp_path, capsys):
    qrels, run, run2 = files
    assert main(["eval", "-m", "alpha_nDCG@20", qrels, run]) == 2
    err = capsys.readouterr().err
    assert "needs diversity qrels (topic subtopic docno judgment" in err and f"no topic of {qrels}" in err
    diverse = tmp_path / "diversity"
    diverse.write_text("401 1 a 1\n401 2 a 1\n401 2 b 1\n401 3 x 1\n402 1 d 1\n402 2 z 2\n")
    assert main(["eval", "-q", "-m", "alpha_nDCG@20", "-m", "ERR_IA@20", str(diverse), run]) == 0
    lines = [line.split("\t") for line in capsys.readouterr().out.splitlines()]
    assert [m.strip() for m, t, _ in lines if t == "all"] == ["alpha_nDCG@20", "ERR_IA@20"]
    # 401 ranked a, c, b, x (tie c/b by docno descending), 3 subtopics, alpha 0.5: a is new to s1 and s2 (gain 2
    # at rank 1), b new to none (s2 seen once: 0.5 at rank 3), x new to s3 (1 at rank 4); ndeval divides by the
    # "ideal ideal" list, every document new to every subtopic: 3 * 0.5^(i-1) at rank i
    err_ia = (2 + 0.5 / 3 + 1 / 4) / sum(3 * 0.5 ** (i - 1) / i for i in range(1, 21))
    assert [v for m, t, v in lines if m.strip() == "ERR_IA@20" and t == "401"] == ["%6.4f" % err_ia]
    assert main(["eval", "-m", "alpha_nDCG@20", "-m", "map", str(diverse), run]) == 2
    assert "ask for them in a separate call" in capsys.readouterr().err
    assert main(["compare", "-m", "alpha_nDCG@20", "--test", "sign", str(diverse), run, run2]) == 0
    assert "on alpha_nDCG@20" in capsys.readouterr().out


def test_explain_refuses_a_cwl_scale_it_does_not_use_naming_the_name_it_explains():
    with pytest.raises(ParameterError, match=r"INST\(T=3,max_rel=4\): irlab explain scales a grade by the topic's "
                                             r"top grade .* Explain INST\(T=3\) "):
        explain_target("INST(T=3,max_rel=4)")
    with pytest.raises(ParameterError, match=r"Explain SDCG@5 "):
        explain_target("SDCG(min_rel=1)@5")
