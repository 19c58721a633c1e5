"""Class CSVs (answers, rosters, Moodle and Canvas exports) keep the TREC files' blank-line bound: beyond
MAX_SKIPPED_LINES, blank rows may not outnumber the others, so a header and millions of blank lines is refused at the
first row that shows it (issue 28, item 3); and the line-length check and the line reader that replaced
``text.split`` and ``io.StringIO`` read every text as those did (compared on generated texts)."""

import csv
import io
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from irlab import limits
from irlab.errors import InputFileError
from irlab.homework import identity
from irlab.homework.grading import parse_answers, read_answers
from irlab.homework.identity import read_roster
from irlab.lms.responses import grade

ROOT = Path(__file__).resolve().parents[1]
SET = ROOT / "exercises" / "homework-variants.toml"
DATA = ROOT / "tests" / "data" / "lms"
BOUND = limits.MAX_SKIPPED_LINES
BLANKS = ("\n", " \n", ",,,\n", " , ,\t\n")  # rows without a value: an empty line, spaces, empty cells


def blank_lines(count: int) -> str:
    return "".join(BLANKS[i % len(BLANKS)] for i in range(count))


def flood_message(blank: int, data: int) -> str:
    return (f"{blank:,} blank rows up to here and {data:,} rows with a value: beyond {BOUND:,}, blank rows may not "
            "outnumber the others (irlab's limit MAX_SKIPPED_LINES; a class CSV is not mostly blank)")


def refused(read, *args) -> InputFileError:
    with pytest.raises(InputFileError) as caught:
        read(*args)
    return caught.value


def test_an_answers_csv_reads_up_to_the_bound_of_blank_rows_and_refuses_one_more(tmp_path):
    assert BOUND == 10_000
    header = "student,exercise,question,answer\n"
    (tmp_path / "ok.csv").write_text(header + blank_lines(BOUND) + "alice,1,a,0.5\n")
    rows = read_answers(tmp_path / "ok.csv")
    assert [(row.line, row.student, row.answer) for row in rows] == [(BOUND + 2, "alice", "0.5")]
    (tmp_path / "flood.csv").write_text(header + blank_lines(BOUND + 1) + "alice,1,a,0.5\n")
    error = refused(read_answers, tmp_path / "flood.csv")
    assert (error.path, error.line) == (str(tmp_path / "flood.csv"), BOUND + 2)  # the 10,001st blank row: no further
    assert error.problem == flood_message(BOUND + 1, 0)


def test_beyond_the_bound_blank_rows_may_be_as_many_as_the_others(tmp_path):
    header = "student,exercise,question,answer\n"
    data = "".join(f"s{i},1,a,0.5\n" for i in range(12_000))
    assert len(parse_answers(header + data + blank_lines(12_000) + "z,1,a,1\n")) == 12_001
    error = refused(parse_answers, header + data + blank_lines(12_001) + "z,1,a,1\n", "a.csv")
    assert error.line == 1 + 12_000 + 12_001 and error.problem == flood_message(12_001, 12_000)
    # blank rows between the answers count the same way, wherever they are
    interleaved = "".join(f"s{i},1,a,0.5\n" + blank_lines(2) for i in range(BOUND // 2 + 1))
    error = refused(parse_answers, header + interleaved, "a.csv")
    assert error.problem == flood_message(BOUND + 1, BOUND // 2 + 1)  # the first blank row past the bound


def test_a_blank_row_flood_in_a_roster_is_refused(tmp_path):
    for name, header in (("irlab.csv", "id,name,email\n"),
                         ("moodle.csv", (DATA / "moodle-participants.csv").read_text().splitlines()[0] + "\n"),
                         ("canvas.csv", (DATA / "canvas-gradebook.csv").read_text().splitlines()[0] + "\n")):
        (tmp_path / name).write_text(header + blank_lines(BOUND + 1) + "x@example.org,X,x@example.org\n")
        error = refused(read_roster, tmp_path / name)
        assert (error.path, error.line, error.problem) == (str(tmp_path / name), BOUND + 2, flood_message(BOUND + 1, 0))
    (tmp_path / "ok.csv").write_text("id,name\n" + blank_lines(BOUND) + "alice,Alice\n")
    assert [(e.id, e.line) for e in read_roster(tmp_path / "ok.csv")] == [("alice", BOUND + 2)]


@pytest.mark.parametrize("fixture", ["moodle-responses.csv", "canvas-student-analysis.csv"])
def test_a_blank_row_flood_in_an_lms_export_is_refused(tmp_path, fixture):
    lines = (DATA / fixture).read_text(encoding="utf-8").splitlines(keepends=True)
    (tmp_path / "export.csv").write_text(lines[0] + lines[1] + blank_lines(BOUND + 1) + "".join(lines[2:]))
    error = refused(grade, SET, tmp_path / "export.csv", "2026")
    assert (error.path, error.line) == (str(tmp_path / "export.csv"), BOUND + 3)
    assert error.problem == flood_message(BOUND + 1, 1)


def test_irlab_grade_names_the_bound_and_the_file_and_exits_2(tmp_path):
    flood = tmp_path / "flood.csv"
    flood.write_text("student,exercise,question,answer\n" + "\n" * (10 * BOUND))  # far past the bound
    done = subprocess.run([sys.executable, "-m", "irlab", "grade", str(SET), str(flood)], capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr == f"irlab: error: {flood}:{BOUND + 2}: {flood_message(BOUND + 1, 0)}\n"


def naive_first_long_line(text: str, limit: int):
    """The line number and length of the first line longer than ``limit`` as the reader found it before."""
    lengths = [len(line) for line in text.split("\n")]
    return next(((i, n) for i, n in enumerate(lengths, 1) if n > limit), None)


@settings(max_examples=400, deadline=None)
@given(st.lists(st.integers(0, 12), max_size=30), st.integers(1, 8), st.booleans())
def test_the_line_length_check_finds_the_line_splitting_found(lengths, limit, final_newline):
    text = "\n".join("x" * n for n in lengths) + ("\n" if final_newline and lengths else "")
    original = identity.MAX_CSV_LINE
    identity.MAX_CSV_LINE = limit
    try:
        start = identity._first_long_line(text)
    finally:
        identity.MAX_CSV_LINE = original
    expected = naive_first_long_line(text, limit)
    if expected is None:
        assert start is None
    else:
        end = text.find("\n", start)
        assert (text.count("\n", 0, start) + 1, (len(text) if end < 0 else end) - start) == expected


CSV_PIECES = st.sampled_from(["a", "b", ",", ";", "\t", " ", '"', '""', "\n", "\n\n", "é", "0,5"])


@settings(max_examples=400, deadline=None)
@given(st.lists(CSV_PIECES, max_size=40))
def test_the_csv_reader_reads_rows_and_line_numbers_as_stringio_did(pieces):
    text = "".join(pieces)
    ours = identity.csv_reader(text)
    theirs = csv.reader(io.StringIO(text), delimiter=identity.csv_delimiter(text))

    def rows(reader):
        out = []
        try:
            for cells in reader:
                out.append((reader.line_num, cells))
        except csv.Error as error:
            out.append((reader.line_num, str(error)))
        return out

    assert rows(ours) == rows(theirs)
