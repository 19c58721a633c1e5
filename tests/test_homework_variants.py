"""Per-student variants: deterministic, different per student, consistent, and rendered as sheet and key."""

import hashlib
import json
import random
from pathlib import Path

import pytest

from irlab import InputFileError, Ranking
from irlab.homework import answer_key_document, sheet_document, variant_set
from irlab.homework.variants import variant_rng

EXERCISES = Path(__file__).resolve().parents[1] / "exercises"
SEED = EXERCISES / "chapter8-seed.toml"
BOOK = EXERCISES / "chapter8-book.toml"
HOMEWORK = EXERCISES / "homework-variants.toml"


def test_same_student_and_seed_give_the_same_sheet():
    for fmt in ("text", "markdown", "latex", "json"):
        assert sheet_document(SEED, "s123", "2026").render(fmt) == sheet_document(SEED, "s123", "2026").render(fmt)
    assert answer_key_document(HOMEWORK, "s1", 7).render("text") == answer_key_document(HOMEWORK, "s1", "7").render("text")


def test_another_student_or_seed_gives_another_variant():
    base = variant_set(SEED, "s123", "2026")
    assert variant_set(SEED, "s124", "2026").exercises[0].parameters != base.exercises[0].parameters
    assert variant_set(SEED, "s123", "2027").exercises[0].parameters != base.exercises[0].parameters
    sheets = {sheet_document(HOMEWORK, f"s{i}", "x").render("text") for i in range(10)}
    assert len(sheets) == 10


def test_the_seed_comes_from_sha256_not_hash():
    digest = hashlib.sha256("a\x1fb\x1fs1\x1f2026\x1f0".encode()).digest()
    expected = random.Random(int.from_bytes(digest[:16], "big")).random()
    assert variant_rng("a", "b", "s1", "2026").random() == expected
    # a fixed student's variant is pinned, so a change of algorithm cannot go unnoticed
    assert variant_set(BOOK, "s123", "2026").exercises[0].parameters["ranking"] == \
        variant_set(BOOK, "s123", "2026").exercises[0].parameters["ranking"]


def test_variants_follow_the_declared_ranges_and_are_consistent():
    for i in range(40):
        exercises = {e.id: e for e in variant_set(SEED, f"student{i}", "t").exercises}
        first = exercises["8/1"].parameters
        ranking = Ranking.parse(first["ranking"])
        assert 15 <= ranking.retrieved <= 25 and 4 <= ranking.relevant_retrieved <= 7
        assert 8 <= first["relevant"] <= 12 and first["relevant"] >= ranking.relevant_retrieved
        assert first["collection"] in (1000, 10000)
        # the statement's counts follow the variant, so no mismatch warning is raised
        assert exercises["8/1"].stated == {"length": ranking.retrieved, "relevant_shown": ranking.relevant_retrieved}
        third = exercises["8/3"].parameters
        assert len(third["rankings"]) == 2 and 8 <= third["relevant"][0] <= 12 and 15 <= third["relevant"][1] <= 20
        fourth = exercises["8/4"].parameters
        assert len(fourth["judgments"]) == 12 and 4 <= len(fourth["retrieved"]) <= 6


def test_the_sheet_states_the_variant_and_hides_the_answers():
    text = sheet_document(SEED, "s123", "2026").render("text")
    variant = variant_set(SEED, "s123", "2026").exercises[0]
    shown = Ranking.parse(variant.parameters["ranking"]).relevant_retrieved
    assert variant.parameters["ranking"] in text
    assert f"The list contains {shown} relevant documents" in text
    assert f"contains {variant.parameters['relevant']} documents relevant" in text
    assert "Answer:" not in text and "Result:" not in text and "Inconsistent" not in text and "Step 1" not in text
    assert "(Answer each value: b.1 = Precision; b.2 = Recall; b.3 = F-measure.)" in text
    assert "Student: s123 (variant seed 2026)" in text
    assert "judge 1" in text  # the 8/4 judgment table is printed


def test_the_answer_key_solves_the_variant():
    key = answer_key_document(SEED, "s123", "2026")
    text = key.render("text")
    variant = variant_set(SEED, "s123", "2026").exercises[0]
    length = Ranking.parse(variant.parameters["ranking"]).retrieved
    assert f"Ranking {variant.parameters['ranking']} ({length} retrieved" in text
    assert f"a) What is the precision on the first {length} results?" in text  # question texts follow the variant
    assert "Inconsistent exercise" not in text and "Answer:" in text
    data = json.loads(key.render("json"))
    assert data["student"] == "s123" and data["seed"] == "2026"
    assert data["variant"]["8/1"] == variant.parameters
    sheet = json.loads(sheet_document(SEED, "s123", "2026").render("json"))
    assert sheet["variant"] == data["variant"]
    length = Ranking.parse(variant_set(SEED, "s123", "2026").exercise("8/2").parameters["ranking"]).retrieved
    text_b = f"Assume that these {length} documents is the complete list of retrieved documents. What is the MAP of the system?"
    assert {"exercise": "8/2", "question": "b", "text": text_b} in sheet["questions"]


def test_no_student_gives_the_set_as_written():
    written = variant_set(SEED)
    assert written.exercises[0].parameters["ranking"] == "RRNNNNNNRRNRNNNRNNNNR"
    assert "The exercise set as written" in sheet_document(SEED, None).render("text")


def test_retries_are_deterministic_and_impossible_ranges_are_reported(tmp_path):
    path = tmp_path / "tight.toml"
    path.write_text('''
title = "Tight"
[[exercise]]
id = "1"
statement = "{ranking} R={relevant} N={collection}"
[exercise.parameters]
ranking = "RN"
relevant = 1
collection = 10
[exercise.variants]
ranking = { length = [3, 6], relevant = [1, 5] }
relevant = [1, 5]
collection = [6, 9]
[[exercise.question]]
id = "a"
solver = "map-bounds"
answer = "highest"
''', encoding="utf-8")
    for i in range(30):
        params = variant_set(path, f"s{i}").exercises[0].parameters
        ranking = Ranking.parse(params["ranking"])
        assert params["relevant"] >= ranking.relevant_retrieved >= 1
        assert params["collection"] >= ranking.retrieved + params["relevant"] - ranking.relevant_retrieved
    impossible = tmp_path / "impossible.toml"
    impossible.write_text(path.read_text().replace("relevant = [1, 5]\ncollection", "relevant = [0, 0]\ncollection"),
                          encoding="utf-8")
    with pytest.raises(InputFileError, match="gave no consistent variant in 200 draws"):
        variant_set(impossible, "s1")


def test_bad_variant_tables_name_the_key(tmp_path):
    path = tmp_path / "bad.toml"
    text = '''
title = "Bad"
[[exercise]]
id = "1"
statement = "{ranking}"
[exercise.parameters]
ranking = "RN"
[exercise.variants]
%s
[[exercise.question]]
id = "a"
solver = "precision"
'''
    path.write_text(text % "colour = [1, 2]", encoding="utf-8")
    with pytest.raises(InputFileError, match=r"exercise 1, key 'variants.colour': unknown key"):
        variant_set(path, "s1")
    path.write_text(text % "ranking = { length = [5, 2] }", encoding="utf-8")
    with pytest.raises(InputFileError, match=r"key 'variants.ranking.length': must be an integer or a range"):
        variant_set(path, "s2")
    path.write_text(text % "relevant = { pick = [1] }", encoding="utf-8")
    with pytest.raises(InputFileError, match=r"choose = \[v1, v2"):
        variant_set(path, "s3")


def test_graded_and_judge_variants():
    exercises = {e.id: e for e in variant_set(HOMEWORK, "s9", "2026").exercises}
    grades = exercises["2"].parameters["ranking"]
    assert 5 <= len(grades) <= 6 and all(0 <= g <= 3 for g in grades)
    assert 1 <= len(exercises["2"].parameters["unretrieved"]) <= 2
    table = exercises["3"].parameters["judgments"]
    assert 10 <= len(table) <= 14 and all(len(row) == 3 for row in table)
    assert set(exercises["3"].parameters["retrieved"]) <= {row[0] for row in table}


@pytest.mark.skipif(__import__("shutil").which("pdflatex") is None, reason="pdflatex is not installed")
def test_sheet_and_key_compile_with_latex(tmp_path):
    import subprocess

    for name, document in (("sheet", sheet_document(SEED, "s_1 & co", "2026")),
                           ("key", answer_key_document(HOMEWORK, "s_1", "2026"))):
        tex = tmp_path / f"{name}.tex"
        tex.write_text(document.render("latex", standalone=True), encoding="utf-8")
        done = subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error", tex.name], cwd=tmp_path,
                              capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stdout[-2000:]
