"""irlab check-eval beyond the TTDS slice: the trec_eval -q layout (its reference checked against irlab's trec_eval
10.0 batch evaluator), a student's file as hostile input, the class CSV, the Gradescope bundle, the catalogue."""

import csv
import io
import json
import subprocess
import sys
import zipfile
from fractions import Fraction
from pathlib import Path

import pytest

from irlab.assignment import Checker, read_assignment
from irlab.assignment.bundle import bundle_bytes
from irlab.assignment.report import gradescope, write_class_csv
from irlab.cli import main
from irlab.errors import InputFileError
from irlab.exact import to_float
from irlab.trec import evaluate

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "exercises" / "assignments"
COLLECTION = EXAMPLES / "collection"
PROGRAMS = ROOT / "tests" / "data" / "buggy_evaluators"
RUNS = [str(COLLECTION / f"system{n}.run") for n in range(1, 5)]
TTDS = EXAMPLES / "ttds-ir-eval.toml"


@pytest.fixture(scope="module")
def trec():
    return Checker(read_assignment(EXAMPLES / "trec-eval-q.toml"))


@pytest.fixture(scope="module")
def ttds():
    return Checker(read_assignment(TTDS))


def student(program: str, tmp_path, trec_layout=False) -> Path:
    out = tmp_path / program
    if trec_layout:
        out.mkdir()
    args = ["--trec"] if trec_layout else []
    subprocess.run([sys.executable, str(PROGRAMS / f"{program}.py"), *args, str(COLLECTION / "qrels.txt"),
                    str(out if trec_layout else out.with_suffix(".csv")), *RUNS], check=True)
    return out if trec_layout else out.with_suffix(".csv")


def test_the_trec_eval_layout_reference_is_trec_eval_s_value(trec):
    """Every per-topic reference of the trec_eval-style assignment equals irlab's trec_eval 10.0 batch evaluator."""
    compared = 0
    for system, path in trec.assignment.collection.run_paths:
        batch = evaluate(str(COLLECTION / "qrels.txt"), path, ["P.10", "recall.50", "Rprec", "map", "ndcg_cut.10,20"]).per_topic
        for cell in trec.cells():
            if cell.system != system or cell.topic is None or cell.topic not in batch:
                continue
            value = trec.value(cell, cell.measure.settings)
            assert to_float(value) == pytest.approx(batch[cell.topic][cell.measure.column], abs=1e-12)
            compared += 1
    assert compared == (4 * 10 - 1) * 6  # system 3 has no topic 7


def test_trec_eval_layout_correct_scores_full_and_a_tie_bug_is_named(trec, tmp_path):
    outcome = trec.check(student("correct", tmp_path, trec_layout=True))
    assert outcome.score == trec.assignment.max_score == 7
    buggy = trec.check(student("bug_ties_sorted_by_docno", tmp_path, trec_layout=True))
    assert [f.name for f in buggy.findings] == ["ties-docno-ascending"]
    assert buggy.score < 7


def test_a_file_not_in_the_layout_gets_findings_naming_file_and_line_and_still_scores_what_it_can(ttds, tmp_path):
    good = student("correct", tmp_path).read_text().splitlines()
    lines = [good[0].replace("AP", "MAP"), *good[1:]]  # AP column misnamed: that column is unreadable
    lines[3] = "1,3,zero,0.5"  # wrong field count and a word
    lines[4] = lines[4].replace(lines[4].split(",")[2], "=1+1", 1)
    lines.insert(6, "9,1,0,0,0,0,0,0")  # unknown system
    path = tmp_path / "ir_eval.csv"
    path.write_text("\n".join(lines) + "\n")
    outcome = ttds.check(path)
    problems = [str(p) for p in outcome.submission.problems]
    assert problems[0] == (f"{path}:1: the header should be system_number,query_number,P@10,R@50,r-precision,AP,"
                           "nDCG@10,nDCG@20; AP is missing (found 'system_number,query_number,P@10,R@50,"
                           "r-precision,MAP,nDCG@10,nDCG@20')")
    assert f"{path}:4: 4 fields where the header has 8" in problems
    assert f"{path}:5: P@10: '=1+1' is not a decimal number" in problems
    assert any(p.startswith(f"{path}:7: unknown system '9'") for p in problems)
    right = {m.column: outcome.measure_score(m)[0] for m in ttds.assignment.measures}
    assert right == {"P@10": 42, "R@50": 43, "r-precision": 43, "AP": 0, "nDCG@10": 43, "nDCG@20": 43}
    results = gradescope(outcome)
    assert results["tests"][0]["name"] == "Submission layout" and results["tests"][0]["max_score"] == 0


def test_binary_huge_and_empty_files_are_findings_not_tracebacks(ttds, tmp_path, monkeypatch):
    import irlab.assignment.submission as submission

    binary = tmp_path / "bin.csv"
    binary.write_bytes(b"\xff\xfe\x00garbage\n")
    assert "not UTF-8 text (byte 0xff)" in str(ttds.check(binary).submission.problems[0])
    empty = tmp_path / "empty.csv"
    empty.write_text("")
    assert str(ttds.check(empty).submission.problems[0]).endswith("the file is empty")
    monkeypatch.setattr(submission, "MAX_SUBMISSION_BYTES", 100)
    big = tmp_path / "big.csv"
    big.write_text("x" * 1000)
    assert "more than 100 bytes (irlab's limit MAX_SUBMISSION_BYTES)" in str(ttds.check(big).submission.problems[0])


def test_the_class_csv_is_formula_safe(ttds, tmp_path):
    outcome = ttds.check(student("bug_truncated", tmp_path))
    stream = io.StringIO()
    write_class_csv(stream, [("=HYPERLINK(\"x\")", outcome)])
    rows = list(csv.reader(io.StringIO(stream.getvalue())))
    assert rows[0][:3] == ["student", "score", "max_score"]
    assert rows[1][0] == "'=HYPERLINK(\"x\")"
    assert rows[1][-2] == "truncated (89)"


def test_the_gradescope_bundle_runs_as_gradescope_runs_it(ttds, tmp_path, monkeypatch):
    data = bundle_bytes(ttds.assignment, "irlab")
    archive = zipfile.ZipFile(io.BytesIO(data))
    names = archive.namelist()
    assert names[:3] == ["setup.sh", "run_autograder", "assignment.toml"]
    assert archive.getinfo("run_autograder").external_attr >> 16 & 0o111
    assert "pip install --break-system-packages irlab" in archive.read("setup.sh").decode()
    source = tmp_path / "source"
    archive.extractall(source)
    # the bundled assignment reads the bundled collection: the same cells and the same references
    bundled = Checker(read_assignment(source / "assignment.toml"))
    assert bundled.assignment.collection.systems == ttds.assignment.collection.systems
    cell = bundled.cells()[3]
    assert bundled.value(cell, cell.measure.settings) == ttds.value(ttds.cells()[3], ttds.cells()[3].measure.settings)
    # run_autograder's command, with /autograder replaced by the temporary directory
    submission = tmp_path / "submission"
    submission.mkdir()
    student("correct", tmp_path).rename(submission / "ir_eval.csv")
    results = tmp_path / "results.json"
    command = archive.read("run_autograder").decode().splitlines()[-1].split()
    assert command[:2] == ["irlab", "check-eval"]
    args = [a.replace("/autograder/source", str(source)).replace("/autograder/submission", str(submission))
            .replace("/autograder/results/results.json", str(results)) for a in command[2:]]
    assert main(["check-eval", *args]) == 0
    assert json.loads(results.read_text())["score"] == 6


def test_a_teacher_adds_a_bug_in_the_assignment_file(tmp_path):
    text = TTDS.read_text().replace('qrels = "collection/', f'qrels = "{COLLECTION}/').replace(
        '= "collection/', f'= "{COLLECTION}/')
    text += ('\n[[bug]]\nname = "discount-reciprocal"\ntitle = "discount 1/i"\ncomputes = "DCG with 1/i"\n'
             'reference = "TTDS: 1/log2 i"\nmeasures = ["ndcg"]\nsettings = { discount = "reciprocal-rank" }\n')
    path = tmp_path / "a.toml"
    path.write_text(text)
    assignment = read_assignment(path)
    assert assignment.bugs[-1].name == "discount-reciprocal" and assignment.bugs[-1].measures == ("ndcg",)
    bad = tmp_path / "bad.toml"
    bad.write_text(text.replace('discount = "reciprocal-rank" }', 'discount = "log10" }'))
    with pytest.raises(InputFileError, match="discount is one of log2-rank-plus-1, log2-rank, reciprocal-rank"):
        read_assignment(bad)


def test_cli_lists_the_catalogue_and_refuses_bad_input(capsys, tmp_path):
    assert main(["check-eval", str(TTDS), "--bugs"]) == 0
    out = capsys.readouterr().out
    assert "ap-over-relevant-retrieved: AP divided by the relevant documents retrieved" in out
    assert main(["conventions", "--bugs"]) == 0
    assert "exponential-gain" in capsys.readouterr().out
    assert main(["check-eval", str(tmp_path / "none.toml"), "x.csv"]) == 2
    assert "none.toml: no such file" in capsys.readouterr().err
    assert main(["check-eval", str(TTDS), "a.csv", "b.csv", "--gradescope", str(tmp_path / "r.json")]) == 2
    assert "--gradescope writes the results of one submission" in capsys.readouterr().err
