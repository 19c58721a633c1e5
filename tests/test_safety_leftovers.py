"""Issue 20, items 11 and 13: an answers-only key keeps the statement's data; the leftovers (ragged unretrieved,
threshold = 0 in variants, the RBP persistence key, dict placeholders, one histogram bar per integer score).

Expected values are computed here by hand (Fractions), not by the code under test."""

import json
import tomllib
from fractions import Fraction as F
from pathlib import Path

import pytest

from irlab.errors import InputFileError
from irlab.exercise_set import Where, load, solve, solve_question, statement_text

ROOT = Path(__file__).resolve().parent.parent
HOMEWORK = ROOT / "exercises" / "homework-variants.toml"
SEED = ROOT / "exercises" / "chapter8-seed.toml"


def write(tmp_path, text, name="set.toml"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def answer_values(document_json):
    """{(exercise, question): [exact value text, …]} from a solution's JSON."""
    values = {}
    for exercise in json.loads(document_json)["sections"]:
        for question in exercise.get("sections", []):
            values[exercise["exercise"], question["question"]] = [a["value"] for a in question["answers"]]
    return values


# item 11: answers-only keys keep the statement's data ---------------------------------------------------------

def test_item11_answers_only_sheet_key_shows_the_students_ranking_and_judgments(cli):
    from irlab.homework.variants import variant_set

    variant = variant_set(HOMEWORK, "s001", 2026)
    ranking = variant.exercise("1").parameters["ranking"]
    judgments = variant.exercise("3").parameters["judgments"]
    out = cli("sheet", str(HOMEWORK), "--student", "s001", "--seed", "2026", "--key", "--answers-only")
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert ranking in lines  # the list the statement announces ("the following ranked list of 8 documents")
    assert f"the following ranked list of {len(ranking)} documents" in out.stdout
    # a TA checks the answer against the list: P = hits / n, counted here from the list itself
    assert f"Answer: P = {F(ranking.count('R'), len(ranking))}" in out.stdout
    # the judgments table, every row, as the statement prints it
    assert "document | judge 1 | judge 2" in out.stdout
    for document, first, second in judgments:
        assert any(line.split("|") and [c.strip() for c in line.split("|")] == [str(document), str(first), str(second)]
                   for line in lines), (document, first, second)
    assert "Step 1." not in out.stdout and "Rank table" not in out.stdout  # still no working


AGGREGATE = """
title = "Judges"
[[exercise]]
id = "j"
statement = "Two judges; the system returned the documents {retrieved}."
[exercise.parameters]
judgments = [[1, 1, 0], [2, 1, 1], [3, 0, 0], [4, 1, 1]]
retrieved = [1, 2]
[[exercise.question]]
id = "a"
solver = "aggregate"
rule = "all"
[[exercise.question]]
id = "b"
solver = "aggregate"
rule = "any"
"""


def test_item11_answers_only_keeps_the_statements_judgments_not_the_verdict_columns(cli, tmp_path):
    path = write(tmp_path, AGGREGATE)
    full = json.loads(cli("solve", str(path), "--format", "json").stdout)["sections"][0]
    key = json.loads(cli("solve", str(path), "--format", "json", "--answers-only").stdout)["sections"][0]
    judgments = [[1, 1, 0], [2, 1, 1], [3, 0, 0], [4, 1, 1]]
    assert full["tables"][0]["columns"][3:]  # the full key adds each rule's verdict to the statement's table
    (table,) = key["tables"]
    assert table == {"caption": "Relevance judgments (0 = non-relevant, 1 = relevant)",
                     "columns": ["document", "judge 1", "judge 2"], "rows": judgments}
    assert key["paragraphs"] == ["Two judges; the system returned the documents 1, 2."]
    # rule all: relevant {2, 4}, retrieved {1, 2}: P = 1/2, R = 1/2; rule any: relevant {1, 2, 4}: P = 1, R = 2/3
    values = {q["question"]: [a["value"] for a in q["answers"]] for q in key["sections"]}
    assert values["a"][:2] == ["1/2", "1/2"] and values["b"][:2] == ["1", "2/3"]


def test_item11_solve_answers_only_keeps_the_data_and_says_which_part_was_solved(cli):
    written = tomllib.loads(SEED.read_text(encoding="utf-8"))["exercise"][0]["parameters"]["ranking"]
    out = cli("solve", str(SEED), "--exercise", "8/1", "--answers-only")
    assert out.returncode == 0, out.stderr
    assert written in out.stdout.splitlines()  # the 21 letters as the sheet prints them
    first20 = written[:20]
    assert f"Solved with the first 20 documents, {first20}" in out.stdout  # what the answers were computed on
    assert f"Answer: P@20 = {F(first20.count('R'), 20)}" in out.stdout
    assert "Formula:" not in out.stdout


# item 13: leftovers -----------------------------------------------------------------------------------------------

RAGGED = """
title = "Ragged"
[[exercise]]
id = "1"
statement = "Two queries: {rankings}."
[exercise.parameters]
rankings = ["RNR", "NRR"]
unretrieved = UNRETRIEVED
[[exercise.question]]
id = "a"
solver = "ap"
"""


@pytest.mark.parametrize("unretrieved", ["[1, 1]", "[2, 1, 1]"])
def test_item13_a_flat_unretrieved_list_with_rankings_is_refused_naming_the_key(cli, tmp_path, unretrieved):
    path = write(tmp_path, RAGGED.replace("UNRETRIEVED", unretrieved))
    out = cli("solve", str(path))
    assert out.returncode == 2 and "Traceback" not in out.stderr
    assert "set.toml: exercise 1, key 'parameters.unretrieved': with rankings, give one list of grades per ranking" \
        in out.stderr


def test_item13_unretrieved_mixing_lists_and_grades_is_refused_at_load(tmp_path):
    path = write(tmp_path, RAGGED.replace("UNRETRIEVED", "[[1], 1]"))
    with pytest.raises(InputFileError, match=r"key 'parameters.unretrieved': mixes lists and single grades"):
        load(path)


def test_item13_a_ragged_parameter_from_python_is_named_not_a_type_error():
    from irlab.exercise_set import Question

    where = Where("set.toml", "1", "a")
    with pytest.raises(InputFileError, match=r"set.toml: exercise 1, question a, key 'parameters.unretrieved'"):
        solve_question({"rankings": ["RNR", "NRR"], "unretrieved": [1, 1]}, Question("a", "", "ap"), where)


def test_item13_unretrieved_lists_of_different_lengths_solve_per_query(tmp_path):
    path = write(tmp_path, RAGGED.replace("UNRETRIEVED", "[[1, 1], []]"))
    # q1 RNR with two relevant unretrieved: R = 4, AP = (1/1 + 2/3) / 4; q2 NRR: R = 2, AP = (1/2 + 2/3) / 2
    expected = ((F(1) + F(2, 3)) / 4 + (F(1, 2) + F(2, 3)) / 2) / 2
    assert answer_values(solve(path).render("json")) == {("1", "a"): [str(expected)]}


THRESHOLD = """
title = "Threshold"
[[exercise]]
id = "1"
statement = "A system returns {ranking}."
[exercise.parameters]
ranking = [2, 0, 1, 3]
[exercise.variants]
threshold = DRAW
[[exercise.question]]
id = "a"
solver = "precision"
"""


@pytest.mark.parametrize("draw", ["0", "[0, 2]", "{ choose = [0, 1] }"])
def test_item13_threshold_zero_in_variants_names_the_file_and_key(cli, tmp_path, draw):
    path = write(tmp_path, THRESHOLD.replace("DRAW", draw), "thresholds.toml")
    out = cli("sheet", str(path), "--student", "s1")
    assert out.returncode == 2 and "Traceback" not in out.stderr
    assert "thresholds.toml: exercise 1, key 'variants.threshold'" in out.stderr and "[1, 20]" in out.stderr


def test_item13_a_statement_that_cannot_be_filled_names_the_file_and_exercise(tmp_path):
    path = write(tmp_path, THRESHOLD.replace("DRAW", "2"), "thresholds.toml")
    exercise = load(path).exercise("1")
    with pytest.raises(InputFileError, match=r"thresholds.toml: exercise 1: relevance threshold must be"):
        statement_text(exercise, {**exercise.parameters, "threshold": 0}, path)


RBP = """
title = "RBP"
[[exercise]]
id = "1"
statement = "A system returns {ranking}."
[exercise.parameters]
ranking = "RNRRN"
[[exercise.question]]
id = "a"
solver = "rbp"
persistence = VALUE
"""


@pytest.mark.parametrize("value", ["0.8", '"4/5"', '"80%"'])
def test_item13_rbp_persistence_key_is_used(tmp_path, value):
    path = write(tmp_path, RBP.replace("VALUE", value))
    p = F(4, 5)
    expected = (1 - p) * (1 + p**2 + p**3)  # R at ranks 1, 3, 4: (1 - p) Σ p^(i-1)
    assert expected == F(269, 625)
    assert answer_values(solve(path).render("json")) == {("1", "a"): [str(expected)]}


@pytest.mark.parametrize("value, shown", [("1", "got 1"), ("0", "got 0"), ("1.5", "got 1.5"), ('"-1/2"', "got '-1/2'")])
def test_item13_rbp_persistence_outside_0_1_is_refused_at_load(cli, tmp_path, value, shown):
    path = write(tmp_path, RBP.replace("VALUE", value))
    out = cli("solve", str(path))
    assert out.returncode == 2 and "Traceback" not in out.stderr
    assert f"exercise 1, question a, key 'persistence': must lie in (0, 1), {shown}" in out.stderr


PLACEHOLDERS = """
title = "Placeholders"
[[exercise]]
id = "counts"
statement = "Counts: {counts}."
[exercise.parameters]
counts = { tp = 20, fp = 40, fn = 60, tn = 880 }
[[exercise.question]]
id = "a"
solver = "precision"

[[exercise]]
id = "queries"
statement = "Per query: {counts}."
[exercise.parameters]
counts = [{ tp = 2, fp = 2, fn = 2 }, { tp = 1, fp = 3, fn = 0 }]
[[exercise.question]]
id = "a"
solver = "pr-averages"

[[exercise]]
id = "systems"
statement = "Rankings: {systems}. Queries: {rankings}."
[exercise.parameters]
systems = { "1" = ["RNRN", "NNR"], "2" = ["NRNN", "RRN"] }
rankings = ["RNRN", "NNR"]
relevant = [2, 1]
[[exercise.question]]
id = "a"
solver = "compare-systems"

[[exercise]]
id = "scores"
statement = "Scores: {systems}."
[exercise.parameters]
systems = { B = [0.35, 0.84, 0.15], A = [0.25, 0.43, 0.39] }
[[exercise.question]]
id = "a"
solver = "t-test"

[[exercise]]
id = "runs"
statement = "Runs: {runs}."
[exercise.parameters]
runs = { A = "d1,d2,d3", B = ["d2", "d4", "d1"] }
[[exercise.question]]
id = "a"
solver = "pool"
depth = 2
"""


def test_item13_dict_placeholders_print_like_the_statements_other_data(tmp_path):
    path = write(tmp_path, PLACEHOLDERS)
    exercise_set = load(path)
    text = {e.id: statement_text(e, e.parameters, path) for e in exercise_set.exercises}
    assert text == {
        "counts": "Counts: tp = 20, fp = 40, fn = 60, tn = 880.",
        "queries": "Per query: tp = 2, fp = 2, fn = 2; tp = 1, fp = 3, fn = 0.",
        # a system's rankings are joined like {rankings}; its scores like any list
        "systems": "Rankings: 1: RNRN and NNR; 2: NRNN and RRN. Queries: RNRN and NNR.",
        "scores": "Scores: B: 0.35, 0.84, 0.15; A: 0.25, 0.43, 0.39.",
        "runs": "Runs: A: d1,d2,d3; B: d2, d4, d1.",
    }
    assert all("{" not in t and "'" not in t for t in text.values())


def test_item13_score_histogram_has_one_bar_per_integer_score():
    from irlab.plots import score_histogram

    scores = [0, 1, 2, 3, 4, 4, F(5), 5, 5]  # whole points, exact or not
    ax = score_histogram(scores, 5).axes[0]
    bars = ax.patches
    assert [int(p.get_height()) for p in bars] == [1, 1, 1, 1, 2, 3]  # 4 and 5 are two bars
    assert [round(p.get_x() + p.get_width() / 2) for p in bars] == [0, 1, 2, 3, 4, 5]
    assert [t.get_text() for t in ax.get_xticklabels()] == ["0", "1", "2", "3", "4", "5"]


def test_item13_score_histogram_keeps_bins_for_partial_credit():
    from irlab.plots import score_histogram

    ax = score_histogram([F(1, 2), 4, F(9, 2), 5], 5).axes[0]
    assert [int(p.get_height()) for p in ax.patches] == [1, 0, 0, 0, 3]  # [0, 1), …, [4, 5]
    assert [t.get_text() for t in ax.get_xticklabels()][-1] == "4–5"
