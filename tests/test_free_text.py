"""Free-text questions: space on the sheet, the model answer in the key, never graded automatically."""

from pathlib import Path

import pytest

from irlab.errors import InputFileError
from irlab.exercise_set import load, solve
from irlab.homework import answer_key_document, sheet_document

SET = Path(__file__).resolve().parents[1] / "exercises" / "chapter8-systems.toml"


def test_solution_and_key_show_the_model_answer():
    text = solve(SET, "8.8").render("text")
    assert "Model answer: Yes. AP rewards relevant documents at the very top" in text
    assert "Options: (a) yes; (b) no" in text and "not graded automatically" in text  # b: read by the teacher
    assert "Right option: (a) yes" in text and "a choice question (the sheet says 'one answer'), graded automatically" in text  # d: a choice
    key = answer_key_document(SET, "alice", exercise_id="8.8").render("text")
    assert "Model answer: Yes: R-precision is 1/2 for system 1" in key


def test_sheet_leaves_room_or_lists_the_options():
    sheet = sheet_document(SET, "alice", exercise_id="8.8").render("text")
    block = sheet.split("b) Does this result")[1].split("d) Does R-precision")[0]
    assert block.count("_" * 72) == 3  # lines = 3
    assert "(a) yes" in sheet and "(b) no" in sheet and "Your answer (letter)" in sheet  # d names its one right option
    assert "Model answer" not in sheet and "Right option" not in sheet


def test_grading_skips_free_text(cli, tmp_path):
    import json

    answers = tmp_path / "answers.csv"
    answers.write_text("student,exercise,question,answer\nalice,8.8,a,0.6;0.4929;0.1071\nalice,8.8,b,It makes sense\n")
    data = json.loads(cli("grade", str(SET), str(answers), "--format", "json").stdout)
    assert [(r["question"], r["status"]) for r in data["rows"]] == [("a", "graded"), ("b", "free-text")]
    graded = {(q["exercise"], q["question"]) for s in data["students"] for q in s["questions"]}
    assert ("8.8", "a") in graded and ("8.8", "b") not in graded
    assert ("8.8", "d") in graded  # a choice question (correct = "a"): graded, here unanswered
    assert data["students"][0]["score"] == "1"


@pytest.mark.parametrize("question, message", [
    ('solver = "free-text"', "model_answer"),
    ('solver = "free-text"\nmodel_answer = "x"\nchoices = ["only one"]', "at least two"),
    ('solver = "free-text"\nmodel_answer = "x"\nlines = 0', "lines"),
])
def test_bad_free_text_questions(tmp_path, question, message):
    path = tmp_path / "set.toml"
    path.write_text(f'title = "t"\n[[exercise]]\nid = "1"\nstatement = "s"\n[[exercise.question]]\nid = "a"\n{question}\n')
    with pytest.raises(InputFileError, match=message):
        solve(load(path).path)
