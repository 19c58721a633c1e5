"""irlab sheet / irlab grade through the command line's own parser, their errors raised (not turned into exit 2)."""

import json
from pathlib import Path

import pytest

from irlab import IrlabError, ParameterError
from irlab.cli import build_parser
from irlab.homework import sheet_document, answer_key_document

EXERCISES = Path(__file__).resolve().parents[1] / "exercises"
SEED = EXERCISES / "chapter8-seed.toml"


def run(capsys, *argv):
    args = build_parser().parse_args([str(a) for a in argv])
    code = args.handler(args)
    return code, capsys.readouterr().out


def test_sheet_and_key(capsys):
    code, out = run(capsys, "sheet", SEED, "--student", "s123", "--seed", "2026")
    assert code == 0 and out == sheet_document(SEED, "s123", "2026").render("text")
    code, out = run(capsys, "sheet", SEED, "--student", "s123", "--seed", "2026", "--key", "--format", "markdown")
    assert out == answer_key_document(SEED, "s123", "2026").render("markdown")
    code, out = run(capsys, "sheet", SEED, "--student", "s123", "--exercise", "8/2", "--format", "json")
    data = json.loads(out)
    assert [s["exercise"] for s in data["sections"]] == ["8/2"]
    code, out = run(capsys, "sheet", SEED, "--student", "s1", "--format", "latex")
    assert "\\section" in out or "\\subsection" in out


def test_grade(capsys, tmp_path):
    answers = tmp_path / "answers.csv"
    answers.write_text("student,exercise,question,answer\ns1,8/2,b,0.7\ns1,8/2,a,3/5\n", encoding="utf-8")
    code, out = run(capsys, "grade", SEED, answers, "--as-written", "--exercise", "8/2")
    assert code == 0
    assert out.splitlines()[0] == "student,exercise,question,score,max,answer,mistakes,feedback,status,lines"
    assert out.splitlines()[-1] == "s1,,total,1,3,,,,total,"
    code, out = run(capsys, "grade", SEED, answers, "--as-written")  # every question of the set counts
    assert out.splitlines()[-1] == "s1,,total,1,16,,,,total,"
    code, out = run(capsys, "grade", SEED, answers, "--as-written", "--format", "json")
    assert json.loads(out)["mistakes"][0]["mistake"] == "ap-divided-by-relevant-retrieved"
    code, out = run(capsys, "grade", SEED, answers, "--seed", "x", "--format", "text")
    assert "graded against each student's variant" in out and "(seed x)" in out


def test_usage_and_input_errors(capsys, tmp_path):
    with pytest.raises(ParameterError, match="--student"):
        build_parser().parse_args(["sheet", str(SEED)])
    with pytest.raises(ParameterError, match="invalid choice"):
        build_parser().parse_args(["grade", str(SEED), "a.csv", "--format", "pdf"])
    with pytest.raises(IrlabError, match="no such file"):
        run(capsys, "grade", SEED, tmp_path / "none.csv")
    with pytest.raises(IrlabError, match="no exercise '9'"):
        run(capsys, "sheet", SEED, "--student", "s1", "--exercise", "9")
