"""irlab pool: depth-k pools of TREC runs, computed by hand (ties in trec_eval's order), the judging list, errors."""

import json

import pytest

from irlab.solvers.pooling import pool, pool_runs, ranked_by_topic
from irlab.trec import read_qrels, read_run

# lines out of order and rank columns that disagree with the scores: only score and docno decide the order
RUN_A = """401 Q0 d4 1 1.0 sysA
402 Q0 x2 1 4 sysA
401 Q0 d2 2 2.0 sysA
401 Q0 d1 9 3.0 sysA
402 Q0 x1 2 5 sysA
401 Q0 d3 3 2.0 sysA
"""
RUN_B = """401 Q0 d1 1 9 sysB
401 Q0 d5 2 9 sysB
401 Q0 d2 3 10 sysB
401 Q0 d6 4 1 sysB
402 Q0 x3 1 1.0 sysB
"""
RUN_C = """401 Q0 d10 1 0.5 sysC
401 Q0 d9 2 0.5 sysC
401 Q0 d1 3 0.4 sysC
403 Q0 y1 1 1.0 sysC
"""
# trec_eval's order: score descending, ties by docno descending (byte order: "d9" > "d10", "d5" > "d1", "d3" > "d2")
ORDER = {"A": {"401": ["d1", "d3", "d2", "d4"], "402": ["x1", "x2"]},
         "B": {"401": ["d2", "d5", "d1", "d6"], "402": ["x3"]},
         "C": {"401": ["d9", "d10", "d1"], "403": ["y1"]}}


@pytest.fixture
def runs(tmp_path):
    paths = []
    for name, text in (("a.run", RUN_A), ("b.run", RUN_B), ("c.run", RUN_C)):
        path = tmp_path / name
        path.write_text(text)
        paths.append(str(path))
    return paths


def test_runs_are_ranked_as_trec_eval_ranks(runs):
    for path, name in zip(runs, "ABC"):
        assert ranked_by_topic(read_run(path)) == ORDER[name]


def test_pools_by_hand(runs):
    pooled = pool_runs(runs, 2)
    # 401: A {d1, d3}, B {d2, d5}, C {d9, d10}: six documents, each brought by one run only
    # 402: A {x1, x2}, B {x3}; 403: C {y1}
    assert pooled.pools == {"401": ["d1", "d10", "d2", "d3", "d5", "d9"], "402": ["x1", "x2", "x3"], "403": ["y1"]}
    assert pooled.size == 10
    assert [{t: len(u) for t, u in r.unique.items()} for r in pooled.runs] == [
        {"401": 2, "402": 2}, {"401": 2, "402": 1}, {"401": 2, "403": 1}]
    # every row accounted for: A has 6 rows, 4 in its top 2 (two per topic), 2 below; B 5 = 3 + 2; C 4 = 3 + 1
    assert [(r.rows, r.in_top_k, r.rows_elsewhere) for r in pooled.runs] == [(6, 4, 0), (5, 3, 0), (4, 3, 0)]
    # depth 3 on 401: A {d1, d3, d2}, B {d2, d5, d1}, C {d9, d10, d1}: d1 and d2 are shared now
    deeper = pool_runs(runs, 3, topics=["401"])
    assert deeper.pools == {"401": ["d1", "d10", "d2", "d3", "d5", "d9"]}
    assert [r.unique["401"] for r in deeper.runs] == [["d3"], ["d5"], ["d9", "d10"]]
    assert [r.rows_elsewhere for r in deeper.runs] == [2, 1, 1]
    # depth 1 shows the ties: d9 before d10 (C), d2 alone at the top of B
    assert pool_runs(runs, 1).pools["401"] == ["d1", "d2", "d9"]


def test_the_same_pool_as_the_exercise_solver(runs):
    solution = pool({name: ",".join(ORDER[name]["401"]) for name in "ABC"}, 3)
    assert solution.answers[0].value == len(pool_runs(runs, 3, topics=["401"]).pools["401"]) == 6


def test_cli_report_and_judging_lists(cli, runs, tmp_path):
    qrels = tmp_path / "judge.qrels"
    done = cli("pool", *runs, "-k", "2", "-o", str(qrels))
    assert done.returncode == 0, done.stderr
    assert "10 documents to judge" in done.stdout and "wrote" in done.stderr
    lines = qrels.read_text().splitlines()
    assert lines[:2] == ["401 0 d1 -1", "401 0 d10 -1"] and len(lines) == 10
    judged = read_qrels(str(qrels))  # a valid qrels file: -1 is trec_eval's "in the pool, not judged"
    assert len(judged) == 10 and set(judged.grade.tolist()) == {-1}
    sheet = tmp_path / "assessors.csv"
    assert cli("pool", *runs, "-k", "2", "--topic", "402", "-o", str(sheet)).returncode == 0
    assert sheet.read_text() == "topic,docno,relevance\n402,x1,\n402,x2,\n402,x3,\n"


@pytest.mark.parametrize("fmt", ["text", "markdown", "latex", "html", "json"])
def test_report_in_every_format(cli, runs, fmt):
    done = cli("pool", *runs, "-k", "2", "--format", fmt)
    assert done.returncode == 0
    if fmt == "json":
        data = json.loads(done.stdout)
        assert data["size"] == 10
        assert data["topics"]["402"] == {"pool": 3, "unique": {"sysA": 2, "sysB": 1, "sysC": 0},
                                         "unique_documents": {"sysA": ["x1", "x2"], "sysB": ["x3"], "sysC": []}}
        assert [(r["rows"], r["in_top_k"], r["below_depth"], r["other_topics"]) for r in data["runs"]] == [
            (6, 4, 2, 0), (5, 3, 2, 0), (4, 3, 1, 0)]
    else:
        assert "sysA" in done.stdout and "Voorhees" in done.stdout


def test_bad_input_is_one_line_and_exit_2(cli, runs, tmp_path):
    broken = tmp_path / "broken.run"
    broken.write_text("401 Q0 d1 1 2.0 x\n401 Q0 d2 2\n")
    qrels = tmp_path / "qrels"  # given among the runs by mistake (irlab pool dir/*)
    qrels.write_text("401 0 d1 1\n401 0 d2 0\n")
    cases = [
        (("-k", "0", runs[0]), "must be an integer >= 1"),
        (("-k", "two", runs[0]), "digits 0-9"),
        ((runs[0],), "required: -k/--depth"),
        (("-k", "2", str(tmp_path / "missing.run")), "cannot open file"),
        (("-k", "2", runs[0], runs[0]), "given twice"),
        (("-k", "2", runs[0], "--topic", "999"), "topic 999 is not in the run; its topics are 401, 402"),
        (("-k", "2", *runs, "--topic", "999"), "topic 999 is in none of the 3 runs; their topics are 401, 402"),
        (("-k", "2", runs[0], str(qrels)), "qrels:1: expected 6 fields (qid Q0 docno rank score runid), found 4: "
                                           "this is a qrels line (topic iteration docno relevance); irlab pool takes "
                                           "run files only"),
        (("-k", "2", runs[0], "-o", runs[0]), "is one of the runs"),
        (("-k", "2", runs[0], "--list-format", "csv"), "--list-format applies"),
        (("-k", "2", str(broken)), "broken.run:2"),
    ]
    for args, message in cases:
        done = cli("pool", *args)
        assert done.returncode == 2 and done.stdout == "", args
        assert done.stderr.count("\n") == 1 and done.stderr.startswith("irlab: error:") and message in done.stderr, \
            (args, done.stderr)


def test_trec_eval_order_on_many_ties(tmp_path):
    import random

    from irlab.trec.evaluate import topic_judgments

    rng = random.Random(7)
    lines = [f"{t} Q0 {rng.choice('abc')}{n} 0 {rng.choice([0.5, 1, 1.5])} r"
             for t in ("7", "10", "8") for n in rng.sample(range(300), 60)]
    rng.shuffle(lines)
    path = tmp_path / "ties.run"
    path.write_text("\n".join(lines) + "\n")
    qrels = tmp_path / "q"
    qrels.write_text("7 0 a1 1\n10 0 a1 1\n8 0 a1 1\n")
    ranked = ranked_by_topic(read_run(str(path)))
    assert list(ranked) == ["10", "7", "8"]  # topics in byte order, as trec_eval sorts them
    for topic, docs in ranked.items():
        rows = [line.split() for line in lines if line.split()[0] == topic]
        # score descending, then docno descending as strcmp orders it ("b299" before "b29")
        by_hand = [r[2] for r in sorted(rows, key=lambda r: (float(r[4]), r[2].encode()), reverse=True)]
        assert docs == by_hand == topic_judgments(str(qrels), str(path), topic).ranked


def test_printable_report(cli, runs, tmp_path):
    page = tmp_path / "pool.html"
    done = cli("pool", *runs, "-k", "2", "--html", str(page))
    assert done.returncode == 0 and f"wrote {page}" in done.stderr
    html = page.read_text()
    assert "Pool of depth 2" in html and "unique: sysC" in html


def test_report_names_the_unique_documents(runs, monkeypatch):
    """Depth 3 on topic 401 (by hand above): A alone brought d3, B d5, C d9 and d10 — listed in the report."""
    from irlab.solvers.pooling import TrecPool

    text = pool_runs(runs, 3, topics=["401"]).document().render("text")
    table = text.split("The unique documents, by run and topic")[1].split("\n\n")[0]
    assert "401 | a" in table or "401 | sysA" in table
    assert [line.split("|")[-1].strip() for line in table.splitlines()[3:]] == ["d3", "d5", "d9 d10"]
    monkeypatch.setattr(TrecPool, "SHOWN_DOCUMENTS", 1)
    text = pool_runs(runs, 3, topics=["401"]).document().render("text")
    assert "d9 … and 1 more" in text
