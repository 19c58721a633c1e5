"""Issue 13, items 1, 2, 4, 5 and homework item 6: an exercise set is checked key by key against irlab/schema.py
when it is loaded; every bad key stops with one message naming file, exercise, question and key."""

from pathlib import Path

import pytest

from irlab import schema
from irlab.errors import InputFileError
from irlab.exercise_set import load, solve

ROOT = Path(__file__).resolve().parent.parent

BASE = """
title = "Set"

[[exercise]]
id = "1"
statement = "The list {ranking} has {relevant} relevant documents among {collection}."
[exercise.parameters]
ranking = "RNNRR"
relevant = 5
collection = 100
[[exercise.question]]
id = "a"
text = "AP?"
solver = "ap"
"""

KENDALL = """
title = "Set"
[[exercise]]
id = "k"
statement = "Two rankings."
[exercise.parameters]
a = "d1,d2,d3"
b = "d3,d1,d2"
[[exercise.question]]
id = "a"
solver = "kendall"
"""

KAPPA = """
title = "Set"
[[exercise]]
id = "kap"
statement = "Two judges."
[exercise.parameters]
judgments = [[1, 0, 1], [2, 1, 1], [3, 0, 0]]
[[exercise.question]]
id = "a"
solver = "kappa"
"""


def refused(tmp_path, text):
    path = tmp_path / "set.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(InputFileError) as caught:
        solve(path)
    message = str(caught.value)
    assert message.startswith(f"{path}"), message
    assert "\n" not in message
    return message


def test_item1_wrong_value_types_in_toml_are_named_not_tracebacks(tmp_path):
    cases = [
        (BASE.replace('solver = "ap"', 'solver = "ap"\nap_denominator = 1'),
         "exercise 1, question a, key 'ap_denominator': must be one of relevant, retrieved, min-relevant-k, got 1"),
        (BASE.replace("collection = 100", "collection = 100\nunretrieved = 5"),
         "exercise 1, key 'parameters.unretrieved': must be a list of grades"),
        (BASE.replace('ranking = "RNNRR"', "rankings = 5"), "exercise 1, key 'parameters.rankings': must be a list of rankings"),
        (KAPPA.replace("judgments = [[1, 0, 1], [2, 1, 1], [3, 0, 0]]", "judgments = [1, 2]"),
         "exercise kap, key 'parameters.judgments': must be a list of rows"),
        (KAPPA.replace("judgments = [[1, 0, 1], [2, 1, 1], [3, 0, 0]]", "judge1 = 5\njudge2 = \"0,1\""),
         "exercise kap, key 'parameters.judge1': must be a judge's 0/1 column"),
        (KENDALL.replace('a = "d1,d2,d3"', "a = 5"), "exercise k, key 'parameters.a': must be a ranking of document ids"),
        (KENDALL.replace('b = "d3,d1,d2"', ""), "exercise k, question a, key 'solver': kendall needs parameters.a and parameters.b"),
        (BASE.replace('ranking = "RNNRR"', 'rankings = ["RNNRR", "RN"]').replace("relevant = 5", "")
         .replace("{ranking} has {relevant} relevant documents among {collection}", "lists")
         .replace('solver = "ap"', 'solver = "map-bounds"'),
         "question a, key 'solver': map-bounds needs parameters.ranking (one query"),
        (BASE.replace("{ranking} has", "{relevant[0]} has"), "exercise 1, key 'statement': {relevant[0]} is not a placeholder"),
        (BASE + '[exercise.variants]\ncollection = { choose = ["x"] }\n',
         "exercise 1, key 'variants.collection': choice 1: must be an integer, got 'x'"),
    ]
    for text, message in cases:
        assert message in refused(tmp_path, text)


def test_item1_a_set_that_is_not_utf8_is_named_with_its_line(tmp_path):
    path = tmp_path / "latin1.toml"
    path.write_bytes(BASE.replace("AP?", "Précision ?").encode("latin-1"))
    with pytest.raises(InputFileError) as caught:
        load(path)
    assert str(caught.value) == f"{path}:13: not UTF-8 text (byte 0xe9); save the file as UTF-8"


def test_item2_variants_beyond_the_limits_are_refused_before_drawing(tmp_path):
    text = KAPPA + "[exercise.variants]\njudgments = { documents = [100000000, 100000000] }\n"
    assert "key 'variants.judgments.documents': must be an integer in [0, 20,000] (irlab's limit), got 100,000,000" \
        in refused(tmp_path, text)
    ranking = BASE + "[exercise.variants]\nranking = { length = [5, 1000000000] }\n"
    assert "key 'variants.ranking.length': must be an integer in [0, 20,000]" in refused(tmp_path, ranking)


def test_item4_inputs_that_were_accepted_but_should_not_be(tmp_path):
    cases = [
        (BASE.replace('ranking = "RNNRR"', 'rankings = "RNRRN"'), "key 'parameters.rankings': must be a list of rankings"),
        (BASE.replace('ranking = "RNNRR"', 'ranking = "RNNRR"\nrankings = ["RN", "NR"]'),
         "key 'parameters.rankings': give either ranking (one query) or rankings (several), not both"),
        (BASE.replace("{ranking} has", "{ranking.upper} has"), "key 'statement': {ranking.upper} is not a placeholder"),
        (BASE.replace('solver = "ap"', 'solver = "ap"\nboth_denominators = "yes"'),
         "question a, key 'both_denominators': must be true or false, got 'yes'"),
        (BASE.replace('id = "1"', 'id = ""'), "key 'id': must be a non-empty text or integer id"),
        (BASE.replace('id = "a"', 'id = "  "'), "exercise 1, question #1, key 'id': must be a non-empty text or integer id"),
        (BASE.replace("collection = 100", "collection = 100\n[exercise.stated]\nlength = -3"),
         "key 'stated.length': must be an integer in [1, 20,000], got -3"),
    ]
    for text, message in cases:
        assert message in refused(tmp_path, text)


def test_item4_truncate_refuses_a_stated_length_longer_than_the_data(tmp_path):
    text = BASE.replace("collection = 100", "collection = 100\n[exercise.stated]\nlength = 50").replace(
        'statement = "', 'on_mismatch = "truncate"\nstatement = "')
    message = refused(tmp_path, text)
    assert "on_mismatch = 'truncate' cannot cut the list to 50 documents when it has only 5" in message
    assert "Solved with the first 50" not in message


def test_item5_unknown_keys_list_only_the_keys_of_that_solver(tmp_path):
    message = refused(tmp_path, BASE.replace('solver = "ap"', 'solver = "ap"\nkk = 3'))
    assert "question a, key 'kk': unknown key in the question (allowed for ap: " in message
    allowed = message.split("allowed for ap: ")[1]
    assert "ap_denominator" in allowed and "k," in allowed and "tolerance" in allowed
    assert "gain" not in allowed and "rule" not in allowed and "answer" not in allowed
    message = refused(tmp_path, BASE.replace('solver = "ap"', 'solver = "ap"\nrule = "all"'))
    assert "key 'rule': does not apply to ap (only to aggregate)" in message


def test_item5_doubled_braces_are_written_as_braces(tmp_path):
    path = tmp_path / "set.toml"
    path.write_text(BASE.replace("among {collection}.", "among {collection}: {{d3, d56}}."), encoding="utf-8")
    assert "has 5 relevant documents among 100: {d3, d56}." in solve(path).render("text")


def test_item5_the_readme_key_table_is_generated_from_the_schema():
    readme = (ROOT / "exercises" / "README.md").read_text(encoding="utf-8")
    start, stop = readme.index(schema.BEGIN), readme.index(schema.END) + len(schema.END)
    assert readme[start:stop] == schema.readme_table(), "run: python3 -m irlab.schema --write exercises/README.md"
    for key in schema.keys():
        assert f"| `{key.name}` |" in readme


def test_item5_every_key_the_shipped_sets_use_is_in_the_schema():
    for path in sorted((ROOT / "exercises").glob("*.toml")):
        load(path)  # raises on any key the schema does not know


@pytest.mark.parametrize("line, key, problem", [
    ('tolerance = "abc"', "tolerance", "must be a relative tolerance"),
    ("decimals = -3", "decimals", "must be a whole number of decimal places >= 0, got -3"),
    ('form = "roman"', "form", "must be one of any, fraction, decimal, got 'roman'"),
    ("mistake_credit = 5", "mistake_credit", "must be a share of the part's credit between 0 and 1, such as 0.5 or 1/2, got 5"),
])
def test_homework_item6_grading_options_are_refused_at_load_time(tmp_path, cli, line, key, problem):
    path = tmp_path / "hw.toml"
    path.write_text(BASE.replace('solver = "ap"', f'solver = "ap"\n{line}'), encoding="utf-8")
    expected = f"{path}: exercise 1, question a, key '{key}': {problem}"
    with pytest.raises(InputFileError) as caught:
        load(path)
    assert str(caught.value).startswith(expected)
    answers = tmp_path / "answers.csv"
    answers.write_text("student,exercise,question,answer\ns1,1,a,0.5\n", encoding="utf-8")
    for argv in (["solve", str(path)], ["sheet", str(path), "--student", "s1"], ["grade", str(path), str(answers)]):
        out = cli(*argv)
        assert out.returncode == 2 and out.stdout == ""
        assert out.stderr.startswith(f"irlab: error: {expected}") and out.stderr.count("\n") == 1


def test_homework_item6_duplicate_question_ids_are_refused(tmp_path):
    text = BASE + '[[exercise.question]]\nid = "a"\nsolver = "precision"\n'
    assert "exercise 1, question a, key 'id': question id used twice in this exercise" in refused(tmp_path, text)
