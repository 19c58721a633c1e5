"""The chapter-8 sheets solved end to end, against hand-computed fractions; MAP bounds against brute force."""

import json
from fractions import Fraction as F
from itertools import combinations
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from irlab import InputFileError, Ranking
from irlab.exercise_set import load, solve
from irlab.solvers import aggregate_relevance, f_macro_micro, map_bounds

EXERCISES = Path(__file__).resolve().parents[1] / "exercises"
SEED = EXERCISES / "chapter8-seed.toml"
BOOK = EXERCISES / "chapter8-book.toml"


def exact(text):
    try:
        return F(text)
    except ValueError:
        return text  # a symbolic value (a logarithm) stays as its string


def answers(path, exercise=None):
    """{(exercise, question): [exact answers as Fraction]} from the JSON output."""
    data = json.loads(solve(path, exercise).render("json"))
    found = {}
    for ex in data["sections"]:
        for q in ex["sections"]:
            found[(q["exercise"], q["question"])] = [exact(a["value"]) for a in q["answers"] if a["primary"]]
    return found


# seed list cut to its stated 20 letters: relevant at ranks 1, 2, 9, 10, 12, 16
SEED_SUM = 1 + 1 + F(3, 9) + F(4, 10) + F(5, 12) + F(6, 16)  # = 141/40
SEED_HIGH = (SEED_SUM + F(7, 21) + F(8, 22)) / 8
SEED_LOW = (SEED_SUM + F(7, 9999) + F(8, 10000)) / 8


def test_seed_sheet_answers():
    got = answers(SEED)
    assert SEED_SUM == F(141, 40)
    assert got[("8/1", "a")] == [F(3, 10)]
    assert got[("8/1", "b")] == [F(3, 7)]  # 2 (3/10)(3/4) / (3/10 + 3/4)
    assert got[("8/1", "c")] == [1]
    assert got[("8/1", "d")] == [F(5, 12)]  # max(P@9, P@10, P@12, P@16) = max(1/3, 2/5, 5/12, 3/8)
    assert got[("8/1", "e")] == [SEED_SUM / 8] == [F(141, 320)]
    assert got[("8/1", "f")] == [SEED_HIGH] == [F(5573, 10560)]
    assert got[("8/1", "g")] == [SEED_LOW]
    assert got[("8/1", "h")] == [1]
    assert got[("8/2", "a")] == [F(3, 5)]
    assert got[("8/2", "b")] == [F(21, 50)]
    assert got[("8/2", "c")] == [(F(21, 10) + F(4, 6) + F(5, 7)) / 5, (F(21, 10) + F(4, 99) + F(5, 100)) / 5]
    assert got[("8/3", "a")] == [(F(3, 8) + F(6, 25)) / 2, F(12, 41)]  # macro, micro
    assert got[("8/3", "b")] == [(F(4, 25) + F(43, 600)) / 2]
    assert got[("8/4", "a")] == [F(-1, 3)]
    assert got[("8/4", "b")] == [F(1, 5), F(1, 2), F(2, 7)]
    assert got[("8/4", "c")] == [1, F(1, 2), F(2, 3)]


def test_seed_sheet_reports_its_inconsistent_list():
    text = solve(SEED, "8/1").render("text")
    assert ("Inconsistent exercise: the statement says the list has 20 documents but the data has 21; the statement "
            "says the list contains 6 relevant documents but the data has 7. Solved with the first 20 documents, "
            "RRNNNNNNRRNRNNNRNNNN, which agrees with the statement.") in text


def test_seed_alternative_ap_denominator_is_shown_and_labelled():
    data = json.loads(solve(SEED, "8/1").render("json"))
    e = next(q for q in data["sections"][0]["sections"] if q["question"] == "e")
    alternative = [a for a in e["answers"] if not a["primary"]]
    assert alternative[0]["value"] == "47/80"  # (141/40) / 6 relevant retrieved
    assert "relevant documents retrieved" in alternative[0]["label"]


def test_book_exercise_8_9():
    got = answers(BOOK)
    total = 1 + 1 + F(3, 9) + F(4, 11) + F(5, 15) + F(6, 20)  # relevant at 1, 2, 9, 11, 15, 20
    high = (total + F(7, 21) + F(8, 22)) / 8
    assert got[("8.9", "a")] == [F(3, 10)]
    assert got[("8.9", "b")] == [F(3, 7)]
    assert got[("8.9", "c")] == [1]
    assert got[("8.9", "d")] == [F(4, 11)]
    assert got[("8.9", "e")] == [total / 8] == [F(1099, 2640)]
    assert got[("8.9", "f")] == [high] == [F(443, 880)]
    assert got[("8.9", "g")] == [(total + F(7, 9999) + F(8, 10000)) / 8]
    assert got[("8.9", "h")] == [high - total / 8]
    assert "Inconsistent" not in solve(BOOK).render("text")


def test_lowest_map_as_expression_in_n():
    import sympy

    low = map_bounds(Ranking.parse("RNNRR", relevant=5, collection=100)).answers[1].result
    N = sympy.Symbol("N", positive=True, integer=True)
    expression = sympy.sympify(low.parameters["lowest_in_N"].replace("·", "*"), locals={"N": N})
    assert expression.subs(N, 100) == sympy.Rational(4337, 9900)
    assert "AP_min(N) = 21/50 + 4/(5 · (N - 1)) + 1/N" in low.render("text")


def brute_force_ap_range(flags, relevant, collection):
    top, n = list(flags), len(flags)
    missing = relevant - sum(flags)
    values = []
    for places in combinations(range(n + 1, collection + 1), missing):
        full = top + [0] * (collection - n)
        for rank in places:
            full[rank - 1] = 1
        hits, total = 0, F(0)
        for rank, rel in enumerate(full, 1):
            if rel:
                hits += 1
                total += F(hits, rank)
        values.append(total / relevant)
    return min(values), max(values)


@given(st.lists(st.sampled_from([0, 1]), min_size=1, max_size=5), st.integers(0, 3), st.integers(0, 4))
def test_map_bounds_match_brute_force(flags, missing, spare):
    relevant = sum(flags) + missing
    if relevant == 0:
        return
    collection = len(flags) + missing + spare
    solution = map_bounds(Ranking.from_binary(flags, relevant=relevant, collection=collection))
    low, high = brute_force_ap_range(flags, relevant, collection)
    assert solution.answers[0].value == high
    assert solution.answers[1].value == low


def test_solvers_directly():
    table = [[1, 1, 1], [2, 1, 0], [3, 0, 1], [4, 0, 0]]
    assert [a.value for a in aggregate_relevance(table, [1, 2], "all").answers] == [F(1, 2), 1, F(2, 3)]
    assert [a.value for a in aggregate_relevance([[1, 1, 1, 0], [2, 1, 0, 0]], [1], "majority").answers] == [1, 1, 1]
    qs = [Ranking.parse("RN", relevant=2), Ranking.parse("RRRN", relevant=3)]
    # macro: F(1/2, 1/2) = 1/2 and F(3/4, 1) = 6/7; micro: P = 4/6, R = 4/5
    assert [a.value for a in f_macro_micro(qs).answers] == [(F(1, 2) + F(6, 7)) / 2, F(8, 11)]


# -- editing data only ------------------------------------------------------------------------------

NEW_EXERCISE = """
title = "Homework 3"
[[exercise]]
id = "1"
statement = "A system returns {ranking} for a query with {relevant} relevant documents among {collection}."
[exercise.parameters]
ranking = "NRRNR"
relevant = 4
collection = 50
[[exercise.question]]
id = "a"
text = "AP?"
solver = "ap"
[[exercise.question]]
id = "b"
text = "nDCG@3 with linear gain?"
solver = "ndcg"
k = 3
gain = "linear"
"""


def test_an_instructor_adds_an_exercise_by_editing_toml_only(tmp_path):
    path = tmp_path / "hw3.toml"
    path.write_text(NEW_EXERCISE)
    got = answers(path)
    assert got[("1", "a")] == [(F(1, 2) + F(2, 3) + F(3, 5)) / 4]
    text = solve(path).render("text")
    assert "A system returns NRRNR for a query with 4 relevant documents among 50." in text
    assert "gain = linear" in text


@pytest.mark.parametrize(
    "change, message",
    [
        (("solver = \"ap\"", "solver = \"apx\""), "exercise 1, question a, key 'solver': unknown solver 'apx'"),
        (("k = 3", "kk = 3"), "exercise 1, question b, key 'kk': unknown key in the question"),
        (("relevant = 4", "relevant = 1"), "exercise 1, question a: R = 1 relevant documents is smaller than the 3"),
        (("collection = 50", "collection = 3"), "collection size N = 3 is smaller than the 5 documents"),
        (("ranking = \"NRRNR\"", "ranking = \"NRXNR\""), "unexpected character 'X' at position 3"),
        (("statement = \"A system", "statement = \"{nothing} A system"), "key 'statement': the text uses {nothing}"),
        (("[[exercise.question]]\nid = \"a\"", "[[exercise.question]]\nid = \"a\"\nid = \"b\""), "hw3.toml:"),
        (("title = \"Homework 3\"", ""), "key 'title': missing"),
    ],
)
def test_malformed_exercise_files_name_file_exercise_and_key(tmp_path, change, message):
    path = tmp_path / "hw3.toml"
    path.write_text(NEW_EXERCISE.replace(*change))
    with pytest.raises(InputFileError) as caught:
        solve(path)
    assert str(caught.value).startswith(str(path))
    assert message in str(caught.value)


def test_question_texts_and_options_follow_the_parameters(tmp_path):
    path = tmp_path / "hw.toml"
    path.write_text(NEW_EXERCISE.replace('text = "AP?"', 'text = "AP of the {length} documents, R = {relevant}?"')
                    .replace("k = 3", 'k = "{length}"'))
    text = solve(path).render("text")
    assert "a) AP of the 5 documents, R = 4?" in text
    assert "nDCG@5" in text  # k = "{length}" took the list's length
    bad = tmp_path / "bad.toml"
    bad.write_text(NEW_EXERCISE.replace("k = 3", 'k = "{size}"'))
    with pytest.raises(InputFileError, match="question b, key 'k': {size} names no parameter"):
        solve(bad)


def test_toml_syntax_error_names_the_line(tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text('title = "x"\n[[exercise]]\nid = \n')
    with pytest.raises(InputFileError, match=r"bad.toml:3: not valid TOML"):
        load(path)


def test_refuse_is_the_default_for_inconsistent_statements(tmp_path):
    path = tmp_path / "x.toml"
    path.write_text(NEW_EXERCISE.replace("[exercise.parameters]", "[exercise.stated]\nlength = 4\n[exercise.parameters]"))
    with pytest.raises(InputFileError, match="the statement says the list has 4 documents but the data has 5"):
        solve(path)


def test_solve_cli(cli):
    out = cli("solve", str(SEED), "--exercise", "8/2", "--format", "json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    questions = data["sections"][0]["sections"]
    assert [q["value"] for q in questions] == ["3/5", "21/50", "731/1050"]
    assert all(q["steps"] for q in questions if q["question"] != "c")
    bad = cli("solve", "nope.toml")
    assert bad.returncode == 2 and bad.stderr.startswith("irlab: error: nope.toml: no such file")
    for fmt in ("text", "markdown", "latex", "html"):
        assert cli("solve", str(SEED), "--format", fmt).returncode == 0
