"""α-nDCG, α-DCG, ERR-IA, nERR-IA, strec and P-IA (irlab.metrics.diversity): hand-worked values, ndeval as the
oracle (pyndeval 0.0.8, ndeval 4.5's C code), the greedy ideal's tie rule, bad input, explain and exercise sets."""

from __future__ import annotations

import gzip
import json
import math
import re
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from irlab.errors import InputFileError, InputTypeError, IrlabError, ParameterError
from irlab.exact import is_symbolic
from irlab.metrics import get_metric
from irlab.metrics.diversity import (IntentRanking, alpha_dcg, alpha_ndcg, err_ia, ideal_intent_order, nerr_ia,
                                     precision_ia, subtopic_recall)
from irlab.trec.diversity import read_diversity_topic

pyndeval = pytest.importorskip("pyndeval")

HALF = Fraction(1, 2)
L3, L5, L6 = math.log2(3), math.log2(5), math.log2(6)


# -- hand-worked ------------------------------------------------------------------------------------------------------
# "1+2 - 2 3 ?" with "3 1+4" not retrieved, α = 1/2, k = 5. S = 4 subtopics (1, 2, 3, 4).
# Run gains: d1 {1,2}: 1 + 1 = 2; d2: 0; d3 {2}, seen once: 1/2; d4 {3}: 1; d5 unjudged: 0.
# Greedy ideal over the pool d1 {1,2}, d3 {2}, d4 {3}, u1 {3}, u2 {1,4}:
#   rank 1: d1 and u2 both gain 2, the larger docno wins: u2;  rank 2: d1 gains 1/2 + 1 = 3/2 (the others 1): d1;
#   rank 3: d3 1/2, d4 1, u1 1: tie, u1 > d4: u1;  rank 4: d4 1/2, d3 1/2: d4;  rank 5: d3 1/2.
#   ideal gains 2, 3/2, 1, 1/2, 1/2.
EXAMPLE = IntentRanking.parse("1+2 - 2 3 ?", unretrieved="3 1+4")


def test_the_worked_example_by_hand():
    assert ideal_intent_order(EXAMPLE, HALF) == ("u2", "d1", "u1", "d4", "d3")
    dcg = 2 + 0.5 / 2 + 1 / L5  # 2/log2(2) + (1/2)/log2(4) + 1/log2(5)
    idcg = 2 + 1.5 / L3 + 1 / 2 + 0.5 / L5 + 0.5 / L6
    assert float(alpha_dcg(EXAMPLE, k=5, diversity_normalisation="raw")) == pytest.approx(dcg, abs=1e-12)
    result = alpha_ndcg(EXAMPLE, k=5)
    assert is_symbolic(result.value) and float(result) == pytest.approx(dcg / idcg, abs=1e-12)
    # ideal-ideal α-DCG@5: 4 · Σ_{i<=5} (1/2)^(i-1) / log2(i+1)
    ideal_ideal = 4 * sum(0.5 ** (i - 1) / math.log2(i + 1) for i in range(1, 6))
    assert float(alpha_dcg(EXAMPLE, k=5)) == pytest.approx(dcg / ideal_ideal, abs=1e-12)
    # ERR-IA: Σ g_i / i = 2 + (1/2)/3 + 1/4 = 29/12; raw = (α / S) · 29/12 = 29/96
    assert err_ia(EXAMPLE, k=5, diversity_normalisation="raw").value == Fraction(29, 96)
    # ndeval: over 4 · (1 + 1/4 + 1/12 + 1/32 + 1/80) = 661/120
    assert err_ia(EXAMPLE, k=5).value == Fraction(29, 12) / Fraction(661, 120) == Fraction(290, 661)
    # nERR-IA: ideal Σ g*_i / i = 2 + 3/4 + 1/3 + 1/8 + 1/10 = 397/120
    assert nerr_ia(EXAMPLE, k=5).value == Fraction(290, 397)
    assert subtopic_recall(EXAMPLE, k=5).value == Fraction(3, 4)  # subtopics 1, 2, 3 of 4
    assert precision_ia(EXAMPLE, k=5).value == Fraction(4, 20)  # 2 + 1 + 1 pairs over k · S


def test_alpha_one_counts_each_subtopic_once_and_the_ideal_ranking_scores_one():
    ranking = IntentRanking.parse("1 1 2")  # α = 1: gains 1, 0, 1; ideal: d3 {2} then d2 {1} (ties to the larger)
    assert alpha_dcg(ranking, alpha=1, diversity_normalisation="raw").value == 1 + 1 / (2 * 1)  # 1 + 1/log2(4)
    assert ideal_intent_order(ranking, 1) == ("d3", "d2", "d1")
    assert alpha_ndcg(IntentRanking.parse("1+2 3 1")).value == 1  # the greedy order itself


def test_the_greedy_tie_rule_decides_the_value():
    # every document gains 2 at rank 1; ndeval takes the largest docno. "1+2 3+4 1+3": d3 {1,3} first, then d1 and d2
    # both gain 3/2 (d2 wins), then d1 3/2: ideal gains 2, 3/2, 3/2. The run itself gains 2, 2, 1 and beats it.
    beaten = IntentRanking.parse("1+2 3+4 1+3")
    assert ideal_intent_order(beaten, HALF) == ("d3", "d2", "d1")
    value = float(alpha_ndcg(beaten))
    assert value == pytest.approx((2 + 2 / L3 + 1 / 2) / (2 + 1.5 / L3 + 1.5 / 2), abs=1e-12) and value > 1
    assert any("beats the greedy ideal" in note.text for note in alpha_ndcg(beaten).notes)
    # the same documents, the names swapped: now d3 is {1,2}, picked first, and the greedy ideal is the best order
    other = IntentRanking.parse("1+3 3+4 1+2")
    assert ideal_intent_order(other, HALF) == ("d3", "d2", "d1")
    assert float(alpha_ndcg(other)) == pytest.approx((2 + 1.5 / L3 + 1.5 / 2) / (2 + 2 / L3 + 1 / 2), abs=1e-12)
    # and ndeval agrees on both
    for ranking in (beaten, other):
        assert float(alpha_ndcg(ranking, k=5)) == pytest.approx(_ndeval(ranking, 5, HALF)["alpha-nDCG@5"], abs=1e-9)


def test_zero_cases_are_reported_as_ndeval_reports_them():
    nothing = IntentRanking.parse("- ?")
    for metric in (alpha_ndcg, alpha_dcg, err_ia, nerr_ia, subtopic_recall, precision_ia):
        assert metric(nothing, k=5).value == 0
    missed = IntentRanking.parse("- -", unretrieved="1")
    assert alpha_ndcg(missed).value == 0 and nerr_ia(missed).value == 0
    empty = IntentRanking((), (("x", frozenset({"1"})),), ("1",))  # a run with no document for the topic
    assert alpha_ndcg(empty, k=5).value == 0 and err_ia(empty, k=5).value == 0 and precision_ia(empty).value == 0


def test_ndeval_leaves_rank_one_unnormalised_and_irlab_does_not():
    ranking = IntentRanking.parse("1+2 2")
    oracle = _ndeval(ranking, 1, HALF, measures=["alpha-DCG@1", "ERR-IA@1"])
    assert oracle["ERR-IA@1"] == 2.0 == oracle["alpha-DCG@1"]  # ndeval's raw g_1 (its loop starts at rank 2)
    assert err_ia(ranking, k=1).value == 1 == alpha_dcg(ranking, k=1).value  # g_1 / S, as at every other k


# -- ndeval as the oracle ------------------------------------------------------------------------------------------

MEASURES = ("alpha-nDCG", "alpha-DCG", "ERR-IA", "nERR-IA", "strec", "P-IA")
OURS = {"alpha-nDCG": lambda r, k, a: alpha_ndcg(r, k, a), "alpha-DCG": lambda r, k, a: alpha_dcg(r, k, a),
        "ERR-IA": lambda r, k, a: err_ia(r, k, a), "nERR-IA": lambda r, k, a: nerr_ia(r, k, a),
        "strec": lambda r, k, a: subtopic_recall(r, k), "P-IA": lambda r, k, a: precision_ia(r, k)}


def _ndeval(ranking: IntentRanking, k, alpha, measures=None, judgments=None):
    """pyndeval on the same topic: its run order is score descending, so scores n, n-1, … keep the rank order."""
    if judgments is None:
        judgments = {docno: {s: 1 for s in subtopics} for docno, subtopics in ranking.pool}
    qrels = [("q", s, docno, grade) for docno, grades in judgments.items() for s, grade in grades.items()]
    n = len(ranking.retrieved)
    run = [("q", docno, float(n - i)) for i, docno in enumerate(ranking.docnos)]
    measures = measures or [f"{m}@{k}" for m in MEASURES]
    return pyndeval.ndeval(qrels, run, measures=measures, alpha=float(alpha))["q"]


DOCNOS = st.text("abcxyz019", min_size=1, max_size=3)


@st.composite
def topics(draw):
    """A topic's diversity judgments and a run of 0..25 documents (some unjudged, some judged non-relevant)."""
    subtopics = [str(s) for s in range(1, draw(st.integers(1, 6)) + 1)]
    judged = draw(st.lists(DOCNOS, max_size=30, unique=True))
    judgments = {}
    for docno in judged:
        grades = draw(st.dictionaries(st.sampled_from(subtopics), st.integers(0, 2), min_size=1))
        judgments[docno] = grades
    unjudged = draw(st.lists(DOCNOS.map(lambda d: "u" + d), max_size=5, unique=True))
    candidates = draw(st.permutations(judged + unjudged))
    run = candidates[: draw(st.integers(0, 25))]
    return run, judgments


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(topic=topics(), alpha=st.sampled_from([Fraction(1, 2), Fraction(1, 4), Fraction(3, 4)]))
def test_every_measure_equals_ndeval(topic, alpha):
    run, judgments = topic
    if not judgments:
        judgments = {"zz": {"1": 0}}
    ranking = IntentRanking.from_qrels(run, judgments)
    for k in (5, 10, 20):
        if not run:  # pyndeval reports nothing for a topic the run does not list; ndeval -c counts it as 0
            assert all(float(OURS[m](ranking, k, alpha)) == 0 for m in MEASURES)
            continue
        oracle = _ndeval(ranking, k, alpha, judgments=judgments)
        for measure in MEASURES:
            assert float(OURS[measure](ranking, k, alpha)) == pytest.approx(oracle[f"{measure}@{k}"], abs=1e-9), \
                (measure, k)


@settings(max_examples=60, deadline=None)
@given(topic=topics())
def test_the_raw_sums_are_the_papers(topic):
    run, judgments = topic
    ranking = IntentRanking.from_qrels(run, judgments or {"zz": {"1": 0}})
    S = len(ranking.subtopics)
    if not S:
        return
    gains, seen = [], {}
    for subtopics in ranking.retrieved[:10]:  # Clarke et al.'s G[k] and Chapelle et al.'s ERR-IA, written out
        gains.append(sum(HALF ** seen.get(s, 0) for s in subtopics))
        for s in subtopics:
            seen[s] = seen.get(s, 0) + 1
    dcg = sum(float(g) / math.log2(i + 2) for i, g in enumerate(gains))
    assert float(alpha_dcg(ranking, 10, diversity_normalisation="raw")) == pytest.approx(dcg, abs=1e-9)
    erria = sum(Fraction(1, S) * HALF * g / (i + 1) for i, g in enumerate(gains))
    assert err_ia(ranking, 10, diversity_normalisation="raw").value == erria


# -- bad input -------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("text, named", [
    ("1+2 x? 3", "'x?'"), ("1++2", "''"), ("1+1", "listed twice"), ("", "at least one document"),
    ("1 2 ü", "'ü'"), ("1,2,+", "''"),
])
def test_bad_written_forms_name_the_token(text, named):
    with pytest.raises(ParameterError, match=re.escape(named)):
        IntentRanking.parse(text)


@pytest.mark.parametrize("text", ["RNR", "rnnr", "RN R", "r n | r r", "RN,R", "U|N"])
def test_an_rn_string_is_refused_not_read_as_one_subtopic(text):
    # 'RNR' used to be one document relevant to a subtopic named RNR (α-nDCG@1 = 1)
    with pytest.raises(ParameterError, match=r"is an R/N string .* '1\+2 - 2 3'"):
        IntentRanking.parse(text)
    with pytest.raises(ParameterError, match="R/N string"):
        alpha_ndcg(text)


@pytest.mark.parametrize("text, read_as, says", [
    ("3,0,2,1", ["3", "0", "2", "1"], "read as 4 documents, each relevant to the one subtopic written (d1 to subtopic "
                                      "3, d2 to subtopic 0, d3 to subtopic 2, d4 to subtopic 1)"),
    ("1,2 3", ["1", "2", "3"], "read as 3 documents"),
    ("1,2,3,4,5,6,7", list("1234567"), "d6 to subtopic 6, … (7 documents)"),
    ("R N R", ["R", "N", "R"], "subtopics named N, R, not as an R/N string"),
    ("3 0 2 1", ["3", "0", "2", "1"], "subtopic named 0"),
])
def test_a_form_that_may_be_another_metrics_is_read_as_subtopics_with_a_warning(text, read_as, says):
    ranking = IntentRanking.parse(text)
    assert [ranking.label(rank) for rank in range(1, len(ranking.retrieved) + 1)] == read_as  # one subtopic each
    assert len(ranking.warnings) == 1 and says in ranking.warnings[0]
    explained = alpha_ndcg(ranking).render("text")
    assert f"Warning: {ranking.warnings[0]}" in explained
    if "," in text:  # how to write a document relevant to several subtopics
        assert "'1+2': relevant to subtopics 1 and 2" in ranking.warnings[0]


@pytest.mark.parametrize("text", ["1+2 - 2 3 ?", "a+b, -, b", "1, -, 2", "1 1+2 3 2", "1 2 ?", "a b a", "R+N N"])
def test_the_diversity_forms_get_no_warning(text):
    assert IntentRanking.parse(text).warnings == ()
    assert "Warning" not in alpha_ndcg(text).render("text")


def test_explain_refuses_an_rn_string_and_warns_on_a_grade_list():
    done = _irlab("explain", "alpha-ndcg", "RNR")
    assert done.returncode == 2 and done.stderr.startswith("irlab: error: 'RNR' is an R/N string")
    grades = _irlab("explain", "alpha-ndcg", "3,0,2,1")
    # read as 4 documents with one distinct subtopic each: every order is ideal, α-nDCG@4 = 1
    assert grades.returncode == 0 and "Warning: '3,0,2,1' has commas" in grades.stdout
    assert "Result: α-nDCG@4 = 1" in grades.stdout


@pytest.mark.parametrize("unretrieved, named", [("?", "'?'"), ("1 -", "'-'"), ("1+a!", "'a!'")])
def test_bad_unretrieved_documents_are_named(unretrieved, named):
    with pytest.raises(ParameterError, match=re.escape(named)):
        IntentRanking.parse("1", unretrieved=unretrieved)


@pytest.mark.parametrize("alpha", [0, "0", "1.5", -1, "a half", "1/0"])
def test_alpha_outside_zero_one_is_refused(alpha):
    with pytest.raises(ParameterError, match="alpha"):
        alpha_ndcg(EXAMPLE, alpha=alpha)


def test_wrong_types_are_input_type_errors():
    assert alpha_ndcg("1+2 - 2", k=2).value == alpha_ndcg(IntentRanking.parse("1+2 - 2"), k=2).value  # text is read
    with pytest.raises(InputTypeError):
        alpha_ndcg(["1+2", "-"])
    with pytest.raises(InputTypeError):
        IntentRanking.parse(12)
    with pytest.raises(ParameterError, match="cut-off"):
        err_ia(EXAMPLE, k=0)
    with pytest.raises(ParameterError, match="not in subtopics"):
        IntentRanking((frozenset({"9"}),), (), ())


def _formula_line(result):
    return next(line for line in result.render("text").splitlines() if line.startswith("Formula: "))


@pytest.mark.parametrize("metric, compute", [("alpha-dcg", alpha_dcg), ("err-ia", err_ia)])
def test_the_formula_shown_is_that_of_the_value_under_each_normalisation(metric, compute):
    # ndeval (the default): the run's sum over the ideal-ideal list's sum S · (1-α)^(i-1) at rank i, the quotient
    # the Result holds (290/661 for ERR-IA@5 above); raw: the paper's sum, as declared
    ndeval = compute(EXAMPLE, k=5)
    assert "S · (1-α)^(i-1)" in _formula_line(ndeval) and "α / S" not in _formula_line(ndeval)
    latex = ndeval.render("latex")
    assert r"S\,(1-\alpha)^{i-1}" in latex and r"\frac{\alpha}{S}" not in latex
    assert r"g_i = \sum_{s \in d_i} (1-\alpha)^{c_s(i)}" in latex  # the gain on its own line, not broken at its '='
    raw = compute(EXAMPLE, k=5, diversity_normalisation="raw")
    assert _formula_line(raw) == "Formula: " + get_metric(metric).formula_text
    assert get_metric(metric).formula_latex in raw.render("latex")


def _write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text)
    return str(path)


def test_one_topic_of_trec_files_equals_ndeval(tmp_path):
    qrels = _write(tmp_path, "qrels", "7 1 a 1\n7 2 a 1\n7 2 b 2\n7 3 c 1\n7 1 d 0\n8 1 a 1\n")
    run = _write(tmp_path, "run", "7 Q0 d 1 0.9 r\n7 Q0 x 3 0.2 r\n7 Q0 a 2 0.5 r\n7 Q0 b 4 0.1 r\n8 Q0 a 1 1 r\n")
    ranking = read_diversity_topic(qrels, run, "7")
    assert ranking.docnos == ("d", "a", "x", "b") and ranking.unjudged == (3,)  # ordered by the rank column
    judgments = {"a": {"1": 1, "2": 1}, "b": {"2": 2}, "c": {"3": 1}, "d": {"1": 0}}
    oracle = _ndeval(ranking, 5, HALF, judgments=judgments)
    for measure in MEASURES:
        assert float(OURS[measure](ranking, 5, HALF)) == pytest.approx(oracle[f"{measure}@5"], abs=1e-9)


# the messages of irlab eval --diversity's readers (irlab/trec/diversity.py), which explain shares
@pytest.mark.parametrize("qrels_text, run_text, problem", [
    ("7 1 a\n", "7 Q0 a 1 1 r\n", r"qrels:1: expected 4 fields \(topic subtopic docno judgment"),
    ("7 1 a 1\n7 1 a 0\n", "7 Q0 a 1 1 r\n", "qrels:2: docno 'a' is judged twice for topic '7', subtopic '1'"),
    ("7 1 a one\n", "7 Q0 a 1 1 r\n", "qrels:1: judgment 'one' is not a whole number"),
    ("7 1 a -1\n", "7 Q0 a 1 1 r\n", "qrels:1: judgment '-1' is negative"),
    ("7 1 a 1\n", "7 Q0 a 1 1 r\n7 Q0 b 1 1 r\n", "run:2: duplicate rank 1 for topic '7'"),
    ("7 1 a 1\n", "7 Q0 a 1 1 r\n7 Q0 a 2 1 r\n", "run:2: duplicate docno 'a' for topic '7'"),
    ("8 1 a 1\n", "7 Q0 a 1 1 r\n", "qrels: topic 7 has no judgments"),
    ("7 1 a 1\n", "8 Q0 a 1 1 r\n", "run: topic 7 has no retrieved documents"),
    ("7 1 a 1\n", "7 Q0 a\xe9 1 1 r\n", r"run: topic 7: docno a\\xe9 is not UTF-8 text"),
    ("7 1\xe9 a 1\n", "7 Q0 a 1 1 r\n", r"qrels: topic 7: subtopic 1\\xe9 is not UTF-8 text"),
])
def test_bad_trec_files_name_file_and_line(tmp_path, qrels_text, run_text, problem):
    qrels, run = tmp_path / "qrels", tmp_path / "run"
    qrels.write_bytes(qrels_text.encode("latin-1"))
    run.write_bytes(run_text.encode("latin-1"))
    with pytest.raises(InputFileError, match=problem):
        read_diversity_topic(str(qrels), str(run), "7")


def test_a_missing_file_is_an_input_file_error(tmp_path):
    with pytest.raises(InputFileError, match="cannot open file"):
        read_diversity_topic(str(tmp_path / "none"), str(tmp_path / "none"), "1")


def test_explain_reads_gzip_files_as_irlab_eval_does(tmp_path):
    # 'q.gz:1: not UTF-8 text' before: explain had a second reader that did not know gzip
    qrels_text, run_text = "7 1 a 1\n7 2 a 1\n7 2 b 2\n7 3 c 1\n", "7 Q0 b 1 0.9 r\n7 Q0 x 2 0.5 r\n7 Q0 a 3 0.2 r\n"
    for name, text in (("q", qrels_text), ("r", run_text)):
        (tmp_path / name).write_text(text)
        with gzip.open(tmp_path / f"{name}.gz", "wt") as f:
            f.write(text)
    plain = _irlab("explain", "err-ia", "--qrels", str(tmp_path / "q"), "--run", str(tmp_path / "r"), "--topic", "7")
    packed = _irlab("explain", "err-ia", "--qrels", str(tmp_path / "q.gz"), "--run", str(tmp_path / "r.gz"),
                    "--topic", "7")
    assert plain.returncode == packed.returncode == 0, packed.stderr
    assert packed.stdout.replace(".gz", "") == plain.stdout and f"{tmp_path / 'r.gz'} judged by" in packed.stdout
    # b (2) at rank 1, x unjudged, a (1+2) at rank 3: Σ g_i / i = 1 + (1 + 1/2) / 3 = 3/2 over the ideal-ideal
    # list's 3 · (1 + (1/2)/2 + (1/4)/3) = 4: ERR-IA@3 = 3/8, as irlab eval --diversity prints it
    assert "ERR-IA@3 = 3/8 = 0.375" in packed.stdout
    evaluated = _irlab("eval", "--diversity", "-q", "-m", "ERR-IA@3", str(tmp_path / "q.gz"), str(tmp_path / "r.gz"))
    assert "ERR-IA@3\t7\t0.3750" in evaluated.stdout.replace(" ", "")


def test_explain_reads_the_bounds_of_irlab_eval(tmp_path):
    # a gzip bomb (blank lines inflating far beyond MAX_GZIP_RATIO) ends in the same error as irlab eval's
    with gzip.open(tmp_path / "bomb.gz", "wb") as f:
        f.write(b"7 1 a 1\n" + b"\n" * 20_000_000)
    (tmp_path / "r").write_text("7 Q0 a 1 1 r\n")
    done = _irlab("explain", "alpha-ndcg", "--qrels", str(tmp_path / "bomb.gz"), "--run", str(tmp_path / "r"),
                  "--topic", "7")
    assert done.returncode == 2 and done.stderr.startswith(f"irlab: error: {tmp_path / 'bomb.gz'}")
    assert "MAX_GZIP_RATIO" in done.stderr or "MAX_SKIPPED_LINES" in done.stderr


# -- explain and exercise sets -----------------------------------------------------------------------------------------

def _irlab(*args):
    return subprocess.run([sys.executable, "-m", "irlab", *args], capture_output=True, text=True)


@pytest.mark.parametrize("metric", ["alpha-ndcg", "alpha-dcg", "err-ia", "nerr-ia", "strec", "p-ia"])
def test_explain_runs_in_every_format(metric):
    result = get_metric(metric).compute(EXAMPLE, k=5)
    for fmt in ("text", "markdown", "latex", "html"):
        assert result.render(fmt)
    meta = json.loads(result.render("json"))
    assert meta["meta"]["metric"] == metric if "meta" in meta else json.dumps(meta).count(metric)


def test_explain_on_the_command_line():
    done = _irlab("explain", "err-ia", "1+2 - 2 3 ?", "--unretrieved", "3 1+4", "--k", "5", "--alpha", "1/2")
    assert done.returncode == 0 and "ERR-IA@5 = 290/661" in done.stdout and "ideal ideal" in done.stdout
    raw = _irlab("explain", "err-ia", "1+2 - 2 3 ?", "--unretrieved", "3 1+4", "--k", "5",
                 "--diversity-normalisation", "raw")
    assert "ERR-IA@5 = 29/96" in raw.stdout
    bad = _irlab("explain", "alpha-ndcg", "1+2 x? 3")
    assert bad.returncode == 2 and bad.stderr.startswith("irlab: error: document 2 ('x?')")
    wrong = _irlab("explain", "alpha-ndcg", "1+2", "--relevant", "3")
    assert wrong.returncode == 2 and "--relevant does not apply" in wrong.stderr
    no_alpha = _irlab("explain", "ap", "RNR", "--alpha", "1/2")
    assert no_alpha.returncode == 2 and "--alpha does not apply" in no_alpha.stderr


def _solve(path):
    """Every question's first answer value, as irlab solve computes it (load checks the set against the schema)."""
    from irlab.exercise_set import Where, load, solve, solve_question

    exercise = load(path).exercises[0]
    assert solve(path).render("text")
    return [solve_question(dict(exercise.parameters), question, Where(path, exercise.id, question.id)).answers[0].value
            for question in exercise.questions]


def test_an_exercise_set_solves_the_diversity_metrics(tmp_path):
    path = _write(tmp_path, "div.toml", '''title = "Diversity"
[[exercise]]
id = "1"
statement = "The ranking {intents}, with {unretrieved_intents} not retrieved."
[exercise.parameters]
intents = "1+2 - 2 3 ?"
unretrieved_intents = "3 1+4"
[[exercise.question]]
id = "a"
solver = "err-ia"
k = 5
alpha = "1/2"
[[exercise.question]]
id = "b"
solver = "nerr-ia"
k = 5
[[exercise.question]]
id = "c"
solver = "err-ia"
k = 5
diversity_normalisation = "raw"
''')
    assert _solve(path) == [Fraction(290, 661), Fraction(290, 397), Fraction(29, 96)]
    bad = _write(tmp_path, "bad.toml", open(path).read().replace('"1+2 - 2 3 ?"', '"1+2 x?"'))
    with pytest.raises(IrlabError, match="intents"):
        _solve(bad)
    no_alpha = _write(tmp_path, "alpha.toml", open(path).read().replace('alpha = "1/2"', "alpha = 0"))
    with pytest.raises(IrlabError, match="alpha"):
        _solve(no_alpha)


# -- references --------------------------------------------------------------------------------------------------------

def test_chapelle_2011_is_cited_with_its_real_title_everywhere():
    # Chapelle, Ji, Liao, Velipasaoglu, Lai & Wu 2011, Information Retrieval 14(6), 572-592: the title as published
    # (doi 10.1007/s10791-011-9167-7); an earlier citation gave it a title it never had
    title = "Intent-based diversification of web search results: metrics and algorithms"
    for metric in ("err-ia", "nerr-ia"):
        reference = get_metric(metric).reference
        assert title in reference and "10.1007/s10791-011-9167-7" in reference and "572-592" in reference
    root = Path(__file__).resolve().parent.parent
    sources = [*sorted((root / "irlab").rglob("*.py")), root / "notebooks" / "14_novelty_and_diversity.md"]
    assert [str(path) for path in sources if "Intent-based diversity measures" in path.read_text(encoding="utf-8")] == []
