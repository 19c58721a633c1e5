"""Writing a class's report: the streamed JSON is json.dumps(indent=2) byte for byte, and write() is render()."""

import gc
import io
import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from irlab import InputFileError
from irlab.homework import grade
from irlab.homework.jsonstream import Lazy, int_list, write_json

EXERCISES = Path(__file__).resolve().parents[1] / "exercises"
SEED = EXERCISES / "chapter8-seed.toml"

_scalars = (st.none() | st.booleans() | st.integers(-10**30, 10**30) | st.floats(allow_nan=True, allow_infinity=True)
            | st.text())
_values = st.recursive(_scalars, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
                       max_leaves=30)


def _streamed(value, level=0) -> str:
    out = io.StringIO()
    write_json(value, out.write, level)
    return out.getvalue()


@settings(max_examples=300, deadline=None)
@given(_values)
def test_streamed_json_is_json_dumps_with_indent(value):
    assert _streamed(value) == json.dumps(value, indent=2, ensure_ascii=False)


def test_lazy_lists_and_tuples_are_written_as_lists():
    value = {"empty": Lazy(iter(())), "squares": Lazy(n * n for n in range(3)), "pair": (1, "é"), "nested": {}}
    expected = {"empty": [], "squares": [0, 1, 4], "pair": [1, "é"], "nested": {}}
    assert _streamed(value) == json.dumps(expected, indent=2, ensure_ascii=False)
    assert _streamed([[]], 2) == "[\n      []\n    ]"  # a value nested at level 2, as json.dumps indents it there


@settings(max_examples=100, deadline=None)
@given(st.lists(st.integers(-10**20, 10**20), max_size=5), st.integers(0, 6))
def test_a_list_of_ints_is_written_as_json_dumps_writes_it_at_its_level(values, level):
    # the list as an item of a list, a member's value, at nesting level + 2: written without walking it, the same text
    assert _streamed({"x": Lazy([int_list(values, level + 2)])}, level) == _streamed({"x": [values]}, level)
    assert _streamed({"x": [int_list(values, 2)]}) == json.dumps({"x": [values]}, indent=2)


def test_unserialisable_values_and_keys_other_than_text_are_refused():
    for bad in ({1: "x"}, {"x": object()}):
        try:
            _streamed(bad)
        except TypeError:
            continue
        raise AssertionError(f"{bad!r} was written")


CLASS = """student,exercise,question,answer
s1,8/2,a,0.6
s1,8/2,b,21/50
s1,8/4,a,-1/3
s1,8/4,b,0.2; 0.5; 0.2857
s2,8/2,a,
s2,8/2,b,0.7
s2,8/2,c,0.6962; 0.5
s2,8/4,a,-0.33
,8/2,a,1
s3,8/9,a,1
"""


def test_written_report_is_the_rendered_report(tmp_path):
    answers = tmp_path / "answers.csv"
    answers.write_text(CLASS, encoding="utf-8")
    report = grade(SEED, answers, variants=False)
    for fmt in ("csv", "json", "text", "markdown", "canvas", "moodle"):
        out = io.StringIO()
        report.write(fmt, out)
        assert out.getvalue() == report.render(fmt), fmt
    assert report.render("json") == json.dumps(report.as_dict(), indent=2, ensure_ascii=False) + "\n"
    data = json.loads(report.render("json"))
    # as written: 8/2 a = 3/5, b = 21/50, c = (731/1050, 4337/9900); 8/4 a = -1/3, b = (1/5, 1/2, 2/7).
    # s1: four questions right; s2: half of 8/2 c and 8/4 a (-0.33 is -1/3 rounded); s3: nothing gradable, no student
    assert [s["score"] for s in data["students"]] == ["4", "3/2"]
    assert [r["status"] for r in data["rows"]][-2:] == ["no-student", "unknown-exercise"]


def test_grading_restores_automatic_garbage_collection(tmp_path):
    """Grading pauses the cyclic collector (it collects per batch itself) and always turns it back on."""
    answers = tmp_path / "answers.csv"
    answers.write_text(CLASS, encoding="utf-8")
    assert gc.isenabled()
    grade(SEED, answers, variants=False).write("json", io.StringIO())
    assert gc.isenabled()
    answers.write_text("student,exercise,question,answer\ns1,8/9,a,1\n", encoding="utf-8")
    with pytest.raises(InputFileError):
        grade(SEED, answers)  # no row can be graded: an error, raised from inside the paused section
    assert gc.isenabled()
    gc.disable()
    try:
        answers.write_text(CLASS, encoding="utf-8")
        grade(SEED, answers, variants=False)
        assert not gc.isenabled()  # a caller's choice is kept
    finally:
        gc.enable()
