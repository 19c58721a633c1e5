"""Working space on students' sheets (working_space): the blank rank table the worked solution fills, and an answer box."""

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from irlab import IrlabError
from irlab.document import AnswerBox, Section, Table, WorkingTable
from irlab.homework import answer_key_document, sheet_document, variant_set

HOMEWORK = Path(__file__).resolve().parents[1] / "exercises" / "homework-variants.toml"


def _set(tmp_path, set_line="working_space = true", replace=None):
    text = HOMEWORK.read_text(encoding="utf-8").replace('\n[[exercise]]', f"\n{set_line}\n\n[[exercise]]", 1)
    if replace:
        text = text.replace(*replace)
    path = tmp_path / "hw.toml"
    path.write_text(text, encoding="utf-8")
    return path


def _blocks(blocks, kind):
    for block in blocks:
        if isinstance(block, kind):
            yield block
        if isinstance(block, Section):
            yield from _blocks(block.blocks, kind)


def _exercise(document, exercise_id):
    return next(b for b in document.blocks if isinstance(b, Section) and b.meta.get("exercise") == exercise_id)


def test_blank_table_has_the_keys_columns_the_ranking_filled_in_and_nothing_computed(tmp_path):
    path = _set(tmp_path)
    sheet = _exercise(sheet_document(path, "s001", 2026), "1")
    key = _exercise(answer_key_document(path, "s001", 2026), "1")
    (blank,) = _blocks(sheet.blocks, WorkingTable)
    (solved,) = [b for b in key.blocks if isinstance(b, Table) and b.columns[0] == "rank"]
    assert blank.columns == solved.columns == ("rank", "judgment", "relevant so far", "P@k", "contribution", "recall",
                                               "recall >= r", "note")
    ranking = variant_set(path, "s001", 2026).exercise("1").parameters["ranking"]
    assert ranking == "NRRRNNNR"  # this student's variant, not the set's RNRRNNRNNR
    assert [row[:2] for row in blank.rows] == [(rank, judgment) for rank, judgment in enumerate(ranking, 1)]
    assert [row[:2] for row in solved.rows] == [row[:2] for row in blank.rows]
    assert all(cell == "" for row in blank.rows for cell in row[2:])
    assert any(cell not in ("", None) for row in solved.rows for cell in row[2:])  # the key does fill them
    boxes = list(_blocks(sheet.blocks, AnswerBox))
    assert len(boxes) == 6 and boxes[0].lines == 4  # one per question a-f
    assert not [b for b in _blocks(sheet.blocks, type(boxes[0]).__mro__[1]) if b.text.startswith("Your answer: _")]


def test_graded_rankings_keep_the_grades_and_the_ideal_ranking_only_its_ranks(tmp_path):
    path = _set(tmp_path)
    sheet = _exercise(sheet_document(path, "s001", 2026), "2")
    grades = variant_set(path, "s001", 2026).exercise("2").parameters["ranking"]
    tables = list(_blocks(sheet.blocks, WorkingTable))
    actual, ideal = tables[0], tables[1]
    assert actual.columns == ("rank", "grade", "gain 2^g - 1", "divided by log2(i+1)", "term")
    assert [(row[0], int(row[1])) for row in actual.rows] == [(i, g) for i, g in enumerate(grades, 1)]
    assert ideal.caption.startswith("Ideal ranking") and all(row[1:] == ("",) * 4 for row in ideal.rows)
    # judge agreement is not answered from a ranking: answer boxes, no table
    agreement = _exercise(sheet_document(path, "s001", 2026), "3")
    assert not list(_blocks(agreement.blocks, WorkingTable)) and len(list(_blocks(agreement.blocks, AnswerBox))) == 2


def test_off_by_default_and_a_question_overrides_the_set(tmp_path):
    plain = sheet_document(HOMEWORK, "s001", 2026)
    assert not list(_blocks(plain.blocks, (WorkingTable, AnswerBox)))
    path = _set(tmp_path, "", ('solver = "ap"\n', 'solver = "ap"\nworking_space = true\n'))
    sheet = _exercise(sheet_document(path, "s001", 2026), "1")
    assert len(list(_blocks(sheet.blocks, WorkingTable))) == 1
    assert len(list(_blocks(sheet.blocks, AnswerBox))) == 1  # question d only; the others keep the answer line
    path = _set(tmp_path, "working_space = true", ('solver = "rr"\n', 'solver = "rr"\nworking_space = false\n'))
    sheet = _exercise(sheet_document(path, "s001", 2026), "1")
    assert len(list(_blocks(sheet.blocks, AnswerBox))) == 5


@pytest.mark.parametrize("line, key", [('working_space = "yes"', "key 'working_space'")])
def test_a_bad_value_is_one_located_error(tmp_path, line, key):
    with pytest.raises(IrlabError, match=f"{key}: must be true or false"):
        sheet_document(_set(tmp_path, line), "s001", 2026)


def test_text_sheet_shows_the_table_and_ruled_lines(tmp_path):
    text = sheet_document(_set(tmp_path), "s001", 2026).render("text")
    assert "Rank table (every question of this exercise refers to it), to fill in:" in text
    assert "   2 | R        |                 |" in text
    assert text.count("Your answer (the value, and how you got it):") == 10


@pytest.mark.skipif(shutil.which("pdflatex") is None, reason="needs pdflatex")
def test_pdf_compiles_without_overfull_boxes(tmp_path):
    book = (HOMEWORK.parent / "chapter8-book.toml").read_text(encoding="utf-8")  # a 23-document list, 8 columns
    (tmp_path / "book.toml").write_text(book.replace("\n[[exercise]]", "\nworking_space = true\n\n[[exercise]]", 1),
                                        encoding="utf-8")
    for name, set_file in (("hw", _set(tmp_path)), ("book", tmp_path / "book.toml")):
        subprocess.run(["irlab", "sheet", str(set_file), "--student", "s001", "--seed", "2026", "--pdf",
                        str(tmp_path / f"{name}.pdf")], check=True, capture_output=True, cwd=tmp_path)
        build = tmp_path / f"build-{name}"
        build.mkdir()
        subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "-output-directory", str(build),
                        str(tmp_path / f"{name}.tex")], check=True, capture_output=True, cwd=tmp_path)
        log = (build / f"{name}.log").read_text(encoding="latin-1")
        too_wide = [float(points) for points in re.findall(r"Overfull \\[hv]box \(([\d.]+)pt too", log)]
        assert not [p for p in too_wide if p > 1], too_wide
        assert r"\fbox{" in (tmp_path / f"{name}.tex").read_text(encoding="utf-8")
