"""Issue 13: a fuzz test of the whole command line. Whatever the argv, exercise TOML or answer CSV, irlab ends with
exit 0, or exit 2 and exactly one `irlab: error:` line, never a traceback; every case is bounded in time.

Hypothesis runs derandomized (the same cases in every run) and bounded: 120 cases in all, in-process.
"""

import contextlib
import io
import os
import tempfile
import time
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from irlab.cli import main
from irlab.metrics import METRICS as ALL_METRICS

# IRLAB_FUZZ_EXAMPLES=2000 runs a deeper, random search (not derandomized) by hand
DEEPER = int(os.environ.get("IRLAB_FUZZ_EXAMPLES", "0"))
FUZZ = settings(max_examples=DEEPER or 40, deadline=None, derandomize=not DEEPER, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
SECONDS_PER_CASE = 10  # far above the slowest case seen (~1 s); a hang shows up here instead of as a stuck suite


def run(argv):
    """irlab ARGV in this process: (exit code, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    started = time.perf_counter()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(argv))
    assert time.perf_counter() - started < SECONDS_PER_CASE, argv
    return code, out.getvalue(), err.getvalue()


def assert_ends_cleanly(argv):
    code, _, err = run(argv)
    assert "Traceback" not in err, (argv, err)
    if code == 0:
        return
    assert code == 2, (argv, code, err)
    errors = [line for line in err.splitlines() if line.startswith("irlab: error: ")]
    assert len(errors) == 1, (argv, err)


# argv -----------------------------------------------------------------------------------------------------

METRICS = [metric.name for metric in ALL_METRICS] + ["map", "nope"]
NASTY = ["", "0", "-1", "1", "3", "5", "25%", "0.5", "1/3", "1e400", "1e-5000", "1e999999999", "nan", "inf", "-inf",
         "３", "1_0", "99999999999999999999", "0x10", " ", "1,2", "R", "{x}", "\udcff", "--k", "1" * 60]
RANKINGS = st.one_of(
    st.text(alphabet="RN", min_size=1, max_size=30),
    st.lists(st.integers(min_value=0, max_value=4), min_size=1, max_size=12).map(lambda gs: ",".join(map(str, gs))),
    st.text(alphabet="RNrnU |,;x", max_size=30),
    st.lists(st.integers(min_value=-2, max_value=40), max_size=12).map(lambda gs: ",".join(map(str, gs))),
    st.sampled_from(["RNNRR", "3,2,0,1", "99999999999999999999,0", "１,0", ";", "R" * 300]),
)
OPTIONS = ["--k", "--k", "--relevant", "--relevant", "--unretrieved", "--collection", "--threshold", "--recall-level",
           "--beta", "--max-grade", "--judge1", "--a", "--b", "--counts", "--judges", "--gain", "--discount", "--format",
           "--depth"]
VALUES = st.one_of(st.integers(min_value=1, max_value=20).map(str), st.sampled_from(NASTY), RANKINGS,
                   st.integers(min_value=-10, max_value=10**6).map(str))


@st.composite
def explain_argv(draw):
    argv = ["explain", draw(st.sampled_from(METRICS)), draw(RANKINGS)]
    for _ in range(draw(st.integers(0, 3))):
        if draw(st.booleans()):
            argv.append(draw(RANKINGS))
        else:
            argv += [draw(st.sampled_from(OPTIONS)), draw(VALUES)]
    return argv


@FUZZ
@given(explain_argv())
def test_fuzz_argv_of_explain(argv):
    assert_ends_cleanly(argv)


# exercise TOML --------------------------------------------------------------------------------------------

SET = """title = "Fuzz"

[[exercise]]
id = "1"
statement = "The list {ranking} has {relevant} relevant documents among {collection}."
on_mismatch = "refuse"
[exercise.parameters]
ranking = "RNNRR"
relevant = 5
collection = 100
[exercise.stated]
length = 5
[exercise.variants]
collection = [100, 200]
[[exercise.question]]
id = "a"
text = "AP of the first {length}?"
solver = "ap"
k = 3
tolerance = 0.01
[[exercise.question]]
id = "b"
solver = "map-bounds"
answer = "bounds"
"""
LINES = SET.splitlines()
SLOTS = [number for number, line in enumerate(LINES) if " = " in line]  # every key of the set above
TOML_VALUES = st.one_of(
    st.integers(min_value=-(10**20), max_value=10**20).map(str),
    st.sampled_from(['"abc"', '""', '"RNRRN"', '"{relevant[0]}"', '"{ranking.upper}"', '"{{d3}}"', "true", "1.5", "-3",
                     "[1, 2]", '["RN", 5]', "[[1, 0, 1]]", '{ choose = ["x"] }', "{ choose = [100000000] }",
                     "[100000000, 100000000]", "{}", "[]", "nan", "inf", '"３"', '"map-bounds"', '"kendall"',
                     '"nerr"', '"truncate"', '"data"', '"\\u00e9"', "1e400"]),
)


@st.composite
def fuzzed_set(draw):
    """The set above with one to three of its values replaced by a fuzzed TOML value."""
    lines = list(LINES)
    for _ in range(draw(st.integers(1, 3))):
        number = draw(st.sampled_from(SLOTS))
        lines[number] = f"{LINES[number].split(' = ')[0]} = {draw(TOML_VALUES)}"
    return "\n".join(lines) + "\n"


@FUZZ
@given(fuzzed_set(), st.sampled_from(["solve", "sheet", "sheet-student", "grade"]))
def test_fuzz_exercise_toml(text, command):
    with tempfile.TemporaryDirectory() as directory:
        path = Path(directory) / "set.toml"
        path.write_text(text, encoding="utf-8")
        answers = Path(directory) / "answers.csv"
        answers.write_text("student,exercise,question,answer\ns1,1,a,0.5\n", encoding="utf-8")
        argv = {"solve": ["solve", str(path)], "sheet": ["sheet", str(path), "--student", "s2", "--seed", "7"],
                "sheet-student": ["sheet", str(path), "--student", "s1", "--key"],
                "grade": ["grade", str(path), str(answers), "--allow-ungraded"]}[command]
        assert_ends_cleanly(argv)


# answer CSVs ----------------------------------------------------------------------------------------------

CELLS = st.one_of(st.sampled_from(["", "1", "a", "b", "s1", "0.5", "21/50", "42%", "1e400", "1/0", "３", "nan",
                                   "\"", "a,b", "1" * 5000, "b.1", "b:highest"]),
                  st.text(max_size=8))


@st.composite
def answer_csv(draw):
    header = draw(st.sampled_from(["student,exercise,question,answer"] * 4 + [
        "Student;Exercise;Question;Answer", "student,exercise,answer", "", "answer,question,exercise,student,extra"]))
    good = st.tuples(st.sampled_from(["s1", "s2", ""]), st.sampled_from(["1", "1", "1", "2"]), st.sampled_from(["a", "b", "b.1", "c"]),
                     CELLS).map(",".join)
    rows = [draw(st.one_of(good, good, good, good, st.lists(CELLS, max_size=5).map(",".join))) for _ in range(draw(st.integers(0, 6)))]
    return "\n".join([header, *rows]) + "\n"


@FUZZ
@given(answer_csv(), st.booleans())
def test_fuzz_answer_csv(text, strict):
    with tempfile.TemporaryDirectory() as directory:
        path = Path(directory) / "set.toml"
        path.write_text(SET, encoding="utf-8")
        answers = Path(directory) / "answers.csv"
        answers.write_text(text, encoding="utf-8")
        argv = ["grade", str(path), str(answers), "--allow-ungraded"] + (["--strict"] if strict else [])
        assert_ends_cleanly(argv)
