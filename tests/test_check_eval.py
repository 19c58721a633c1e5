"""irlab check-eval: a student's own evaluator checked cell by cell, each wrong number named with the bug that
reproduces it.

The students are the programs in tests/data/buggy_evaluators/: correct.py, a plain-float evaluator written from
the coursework's rules (no irlab), and bug_*.py, each replacing one of its functions with one classic bug (the
catalogue name it should get is in its docstring). Each runs here on the generated collection; a cell "changes"
when its text differs from correct.py's. Every changed cell must be wrong and name the bug (as a primary
explanation of its finding), no other cell may be wrong, and correct.py must score full marks.
"""

import csv
import json
import re
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest

from irlab.assignment import Checker, read_assignment
from irlab.assignment.report import gradescope, render

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "exercises" / "assignments"
COLLECTION = EXAMPLES / "collection"
PROGRAMS = ROOT / "tests" / "data" / "buggy_evaluators"
RUNS = [str(COLLECTION / f"system{n}.run") for n in range(1, 5)]
BUGGY = sorted(PROGRAMS.glob("bug_*.py"))


@pytest.fixture(scope="module")
def ttds():
    return Checker(read_assignment(EXAMPLES / "ttds-ir-eval.toml"))


@pytest.fixture(scope="module")
def outputs(tmp_path_factory):
    """Each program's ir_eval.csv."""
    out = tmp_path_factory.mktemp("students")
    made = {}
    for program in [PROGRAMS / "correct.py", *BUGGY]:
        path = out / f"{program.stem}.csv"
        subprocess.run([sys.executable, str(program), str(COLLECTION / "qrels.txt"), str(path), *RUNS], check=True)
        made[program.stem] = path
    return made


def cells(path) -> dict:
    rows = list(csv.reader(open(path)))
    header = rows[0]
    return {(r[0], None if r[1] == "mean" else r[1], column): value
            for r in rows[1:] for column, value in zip(header[2:], r[2:])}


def expected_bug(program: Path) -> str:
    return re.search(r"the catalogue's ([a-z0-9-]+)\)", program.read_text()).group(1)


def test_there_are_at_least_a_dozen_buggy_evaluators_each_naming_a_catalogue_bug(ttds):
    names = {bug.name for bug in ttds.assignment.bugs}
    assert len(BUGGY) >= 12
    assert all(expected_bug(p) in names for p in BUGGY)
    assert len({expected_bug(p) for p in BUGGY}) == len(BUGGY)


def test_the_correct_evaluator_scores_full_marks(ttds, outputs):
    outcome = ttds.check(outputs["correct"])
    assert outcome.score == ttds.assignment.max_score == 6
    assert all(v.right for v in outcome.verdicts) and len(outcome.verdicts) == 4 * 11 * 6
    assert outcome.findings == [] and outcome.submission.problems == []
    assert "Every number is right." in render(outcome, "correct")


@pytest.mark.parametrize("program", BUGGY, ids=lambda p: p.stem)
def test_each_bug_is_named_on_every_cell_it_changes_and_on_no_other(ttds, outputs, program):
    reference, mine = cells(outputs["correct"]), cells(outputs[program.stem])
    changed = {key for key in reference if mine.get(key) != reference[key]}
    assert changed, "the bug must change some number on the generated collection"
    outcome = ttds.check(outputs[program.stem])
    key = lambda v: (v.cell.system, v.cell.topic, v.cell.measure.column)  # noqa: E731
    wrong = {key(v) for v in outcome.verdicts if not v.right}
    bug = expected_bug(program)
    named = {key(v) for f in outcome.findings if any(b.name == bug for bugs in f.explanations for b in bugs)
             for v in f.verdicts}
    assert wrong <= changed
    assert named == wrong
    # a changed cell still counted right is an exact tie: both roundings of a value ending in 5 are right
    for v in outcome.verdicts:
        if v.right and key(v) in changed:
            assert abs(v.given.value - Fraction(v.reference)) == ttds.assignment.tolerance
    assert len(outcome.findings) == 1  # one finding, however many cells


def test_a_finding_shows_the_student_number_the_bug_value_and_the_reference(ttds, outputs):
    outcome = ttds.check(outputs["bug_ap_relevant_retrieved"])
    text = render(outcome, "alice")
    # system 1, topic 1 of the generated collection: 8 relevant, 7 retrieved; the precisions sum to 67/10
    assert "system 1, topic 1, AP: you wrote 0.957, and that way it is 67/70 ≈ 0.9571; the assignment's value is " \
           "67/80 = 0.8375" in text
    assert "ap-over-relevant-retrieved or r-from-run" in text  # both reproduce every AP cell: said once, both named


# Gradescope's documented results.json (https://gradescope-autograders.readthedocs.io/en/latest/specs/, "Output
# format"): top-level score (optional if every test has one), execution_time, output, visibility, stdout_visibility,
# extra_data, tests; each test: score, max_score, status (passed/failed), name, name_format, number, output,
# output_format, tags, visibility, extra_data; visibility one of hidden, after_due_date, after_published, visible
VISIBILITY = {"hidden", "after_due_date", "after_published", "visible"}
TOP = {"score": (int, float), "execution_time": (int, float), "output": str, "output_format": str,
       "test_output_format": str, "test_name_format": str, "visibility": str, "stdout_visibility": str,
       "extra_data": dict, "tests": list, "leaderboard": list}
TEST = {"score": (int, float), "max_score": (int, float), "status": str, "name": str, "name_format": str,
        "number": str, "output": str, "output_format": str, "tags": list, "visibility": str, "extra_data": dict}


def validate_gradescope(results: dict) -> None:
    assert set(results) <= set(TOP), set(results) - set(TOP)
    for key, kind in TOP.items():
        if key in results:
            assert isinstance(results[key], kind), key
    assert results.get("visibility", "visible") in VISIBILITY
    assert results.get("stdout_visibility", "visible") in VISIBILITY
    for test in results.get("tests", []):
        assert set(test) <= set(TEST), set(test) - set(TEST)
        for key, kind in TEST.items():
            if key in test:
                assert isinstance(test[key], kind), key
        assert test.get("status", "passed") in ("passed", "failed")
        assert test.get("visibility", "visible") in VISIBILITY
        assert 0 <= test["score"] <= test["max_score"]
    if "score" not in results:
        assert all("score" in t for t in results["tests"])


def test_results_json_follows_gradescope_s_documented_format(ttds, outputs):
    for name in ("correct", "bug_exponential_gain"):
        results = json.loads(json.dumps(gradescope(ttds.check(outputs[name]))))
        validate_gradescope(results)
        assert [t["name"] for t in results["tests"]] == [m.column for m in ttds.assignment.measures]
        assert results["score"] == pytest.approx(sum(t["score"] for t in results["tests"]))
    ndcg = results["tests"][4]
    # exponential gain changes every nDCG cell but one (system 3's topic 7 has no run: 0 either way)
    assert ndcg["status"] == "failed" and ndcg["score"] == pytest.approx(1 / 44)
    assert "exponential-gain" in ndcg["output"]
    assert results["tests"][0] == {"name": "P@10", "score": 1.0, "max_score": 1.0, "status": "passed",
                                   "visibility": "visible", "output": "44 of 44 numbers right."}
