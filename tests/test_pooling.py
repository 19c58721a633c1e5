"""Pooling: pool size, documents judged per run and unique contributions, by hand and from TREC runs."""

from pathlib import Path

import pytest

from irlab.errors import ParameterError, RankingError
from irlab.exercise_set import Where, load, solve_question
from irlab.solvers.pooling import pool, trec_pool
from irlab.trec.evaluate import topic_judgments

DATA = Path(__file__).resolve().parents[1] / "exercises"
RUNS = [DATA / "compare" / name for name in ("baseline.txt", "expansion.txt", "weak.txt")]


def test_pool_by_hand():
    runs = {"A": "d1,d2,d3,d4,d5", "B": "d2,d6,d1,d7,d3", "C": "d8,d2,d9,d1,d6"}
    # top 3: A {d1,d2,d3}, B {d2,d6,d1}, C {d8,d2,d9}: union of 6; only A has d3, only B d6, only C d8 and d9
    assert [a.value for a in pool(runs, 3).answers] == [6, 1, 1, 2]
    # depth 5 brings d4, d5 (A), d7 (B): 9 documents; d6 and d1 are now shared, d3 too
    assert [a.value for a in pool(runs, 5).answers] == [9, 2, 1, 2]
    found = pool(runs, 2, relevant="d1,d6,d7").answers[-1]
    assert found.value == 2  # the depth-2 pool {d1, d2, d6, d8} holds d1 and d6, not d7


def test_the_explanation_names_the_documents():
    runs = {"A": "d10,d2,d3", "B": "d2,d6,d1", "C": "d8,d2,d9"}
    solved = pool(runs, 3, relevant="d1,d5,d9,d10")
    text = "\n".join(a.result.render("text") for a in solved.answers)
    # the pool in natural order (d10 last), each run's own documents in its rank order
    assert "the union of every run's top 3 (d1, d2, d3, d6, d8, d9, d10): |pool| = 7" in text
    assert "Documents only run A puts in its top 3 (d10, d3): unique(A) = 2" in text
    assert "Relevant documents in the pool (d1, d9, d10): found = 3" in text
    assert "1 relevant document (d5) stays outside the pool and would be judged non-relevant" in text
    assert solved.notes[1].text.startswith("the assessors judge the 7 pooled documents (d1, d2, d3, d6, d8, d9, d10)")
    assert "every relevant document is in the pool" in pool(runs, 3, relevant="d2").answers[-1].result.render("text")
    assert "only run B puts in its top 1 (none)" in pool({"A": "d1", "B": "d1"}, 1).answers[2].result.render("text")
    for fmt in ("latex", "html"):
        assert "d1, d2, d3, d6, d8, d9, d10" in solved.answers[0].result.render(fmt)


def test_trec_pool_matches_a_manual_union_in_trec_eval_order():
    qrels = DATA / "compare" / "qrels.txt"
    tops = [topic_judgments(str(qrels), str(run), "403").ranked[:10] for run in RUNS]
    union = set().union(*tops)
    unique = [len(set(top) - set().union(*(t for t in tops if t is not top))) for top in tops]
    assert [a.value for a in trec_pool([str(r) for r in RUNS], 10, "403").answers] == [len(union), *unique]


def test_pool_in_an_exercise_set():
    path = DATA / "chapter8-systems.toml"
    exercise = load(path).exercise("pool")
    question = exercise.questions[0]
    solution = solve_question(dict(exercise.parameters), question, Where(path, "pool", "a"))
    assert [a.value for a in solution.answers] == [6, 1, 1, 2]


def test_bad_pools():
    with pytest.raises(ParameterError, match="depth"):
        pool({"A": "d1"}, None)
    with pytest.raises(RankingError, match="appears twice"):
        pool({"A": "d1,d2,d1"}, 2)
    with pytest.raises(RankingError, match="no documents for topic 999"):
        trec_pool([str(RUNS[0])], 5, "999")


def test_the_printed_report_is_not_shrunk_to_fit():
    from irlab.solvers.pooling import pool_runs

    # short numeric headers leave the page's room to the file names, which wrap instead of the table shrinking
    latex = pool_runs([str(r) for r in RUNS], 10).document().render("latex")
    assert r"\resizebox" not in latex and r"\begin{tabularx}" in latex
    text = pool_runs([str(r) for r in RUNS], 10, ["401"]).document().render("text")
    assert "| rows read | in top 10 | below 10 | other topics | unique" in text
    assert "unique: the run's pooled documents no other run has in its top 10" in text


def test_a_run_without_a_topic_is_named(tmp_path):
    from irlab.solvers.pooling import pool_runs

    (tmp_path / "a.run").write_text("1 Q0 a 1 3 A\n1 Q0 b 2 2 A\n2 Q0 c 1 1 A\n3 Q0 e 1 1 A\n")
    (tmp_path / "b.run").write_text("1 Q0 b 1 3 B\n1 Q0 d 2 2 B\n")
    pooled = pool_runs([tmp_path / "a.run", tmp_path / "b.run"], 3)
    text = pooled.document().render("text")
    # B's 0 for topics 2 and 3 means "not in the run", not "nothing of its own": the report says so
    assert "Warning: run B has no documents for 2 of the pooled topics (2, 3): it adds nothing to those pools" in text
    assert "run A has no documents" not in text
    one = pool_runs([tmp_path / "a.run", tmp_path / "b.run"], 3, ["1", "2"]).document().render("text")
    assert "run B has no documents for topic 2: it adds nothing to that pool" in one
    assert "Warning" not in pool_runs([tmp_path / "a.run", tmp_path / "b.run"], 3, ["1"]).document().render("text")
