"""Every line irlab prints on a terminal shows a control character from a file as '<U+001B>' (issue 28, item 1).

A roster id, a qrels topic or a file name is text from a file; a terminal obeys the escape sequences in it
(``ESC ] 0 ; title BEL`` retitles the window, ``ESC [ 2 J`` clears it). Each test drives one command's note, warning,
problem list or error with such a payload and checks the stream a teacher's terminal would show.
"""

import io
import shutil
import sys

import pytest

from irlab.cli import main
from irlab.messages import VisibleControls, say, unescaped

ROOT = __import__("pathlib").Path(__file__).resolve().parents[1]
BOOK = str(ROOT / "exercises" / "chapter8-book.toml")
ANSWERS = str(ROOT / "exercises" / "sample-answers.csv")
HOSTILE = "a\x1b]0;PWNED\x07\x1b[2J"
SHOWN = "a<U+001B>]0;PWNED<U+0007><U+001B>[2J"
RAW = ("\x1b", "\x07", "\x9b", "\r")


def no_raw_controls(text):
    assert not any(char in text for char in RAW), repr(text)


def run(argv, capsys):
    code = main(argv)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_grade_roster_student_without_answers(tmp_path, capsys):
    roster = tmp_path / "roster.csv"
    roster.write_text(f"id,name,email\ns001,Ann Lee,a@x\n{HOSTILE},Eve,e@x\n", encoding="utf-8")
    code, out, err = run(["grade", BOOK, ANSWERS, "--seed", "2026", "--roster", str(roster), "--format", "text"],
                         capsys)
    assert code == 1  # s002 answered but is not on this roster
    assert f"1 roster student has no answers (scored 0): {SHOWN}" in err
    no_raw_controls(err)
    no_raw_controls(out)


def test_grade_problem_lines_name_a_hostile_student(tmp_path, capsys, monkeypatch):
    answers = tmp_path / "answers.csv"
    answers.write_text("student,exercise,question,answer,variant\n"
                       + "".join(f"{HOSTILE},8.9,{q},0.25,Z88-521\n" for q in "ab")
                       + "s001,8.9,a,4/23,Z88-521\n", encoding="utf-8")
    roster = tmp_path / "roster.csv"
    roster.write_text("id,name,email\ns001,Ann Lee,a@x\n", encoding="utf-8")
    code, out, err = run(["grade", BOOK, str(answers), "--seed", "2026", "--roster", str(roster)], capsys)
    assert code == 1
    assert f"{HOSTILE},8.9,a,,,0.25" in out  # the CSV report into a file or a pipe: the id as the file has it
    no_raw_controls(err)
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True, raising=False)
    code, out, err = run(["grade", BOOK, str(answers), "--seed", "2026", "--roster", str(roster)], capsys)
    assert f"{SHOWN},8.9,a,,,0.25" in out  # on a terminal: visible
    assert f"variant code 'Z88-521' is not the code of {SHOWN}'s sheet" in err
    assert "(lines 2, 3) is not on the roster" in err
    no_raw_controls(err)
    no_raw_controls(out)


def test_sheet_warning_names_a_hostile_student(tmp_path, capsys, monkeypatch):
    import irlab.homework.variants as variants

    monkeypatch.setattr(variants, "_WARNED", set())  # said once a process: another test may have said it
    # variants that put a named mistake within the tolerance of the right value are kept (allow_degenerate), so that
    # some student's sheet warns the teacher about one (8.9c: interpolated precision, 4/17 against 3/13)
    book = tmp_path / "book.toml"
    book.write_text((ROOT / "exercises" / "chapter8-book.toml").read_text(encoding="utf-8").replace(
        "[[exercise.question]]\n", "[[exercise.question]]\nallow_degenerate = true\n"), encoding="utf-8")
    for number in range(40):
        code, out, err = run(["sheet", str(book), "--student", f"{number}\x1b]0;P\x07", "--seed", "2026"], capsys)
        assert code == 0
        if "'s variant;" in err:
            break
    assert f"(in student {number}<U+001B>]0;P<U+0007>'s variant;" in err
    no_raw_controls(err)
    no_raw_controls(out)


def qrels_and_run(tmp_path):
    qrels = tmp_path / "qrels.txt"
    qrels.write_bytes(b"4\x1b[2J01 0 d1 1\n402 0 d2 1\n")
    results = tmp_path / "run.txt"
    results.write_bytes(b"402 Q0 d2 1 1.0 r\x1b]0;X\x07\n")
    return str(qrels), str(results)


def test_eval_note_names_a_hostile_topic(tmp_path, capsys):
    qrels, results = qrels_and_run(tmp_path)
    code, out, err = run(["eval", qrels, results, "-m", "map"], capsys)
    assert code == 0
    assert "run.txt: 4<U+001B>[2J01; evaluated the 1 topic both files share" in err
    no_raw_controls(err)


def test_eval_stdout_keeps_ids_for_files_and_escapes_them_on_a_terminal(tmp_path, capsys, monkeypatch):
    qrels = tmp_path / "qrels.txt"
    qrels.write_bytes(b"4\x1b[2J01 0 d1 1\n")
    results = tmp_path / "run.txt"
    results.write_bytes(b"4\x1b[2J01 Q0 d1 1 1.0 r\n")
    code, out, _ = run(["eval", str(qrels), str(results), "-q", "-m", "map"], capsys)
    assert code == 0
    assert out.splitlines()[0] == "map                   \t4\x1b[2J01\t1.0000"  # into a file: as trec_eval writes it
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True, raising=False)
    code, out, _ = run(["eval", str(qrels), str(results), "-q", "-m", "map"], capsys)
    assert out.splitlines()[0] == "map                   \t4<U+001B>[2J01\t1.0000"


def test_error_line_names_a_hostile_path(tmp_path, capsys):
    missing = str(tmp_path / f"no{HOSTILE}.txt")
    code, out, err = run(["eval", missing, missing], capsys)
    assert code == 2
    assert err.startswith("irlab: error: ") and SHOWN in err
    no_raw_controls(err)


def test_usage_error_from_argparse_is_escaped(capsys):
    code, out, err = run(["explain", "ap", "RNR", f"--bogus{HOSTILE}"], capsys)
    assert code == 2
    assert f"--bogus{SHOWN}" in err
    no_raw_controls(err)


def test_notes_of_solve_and_quiz_name_a_hostile_set_path(tmp_path, capsys):
    hostile_set = tmp_path / f"hw{HOSTILE}.toml"
    shutil.copy(ROOT / "exercises" / "homework-variants.toml", hostile_set)
    code, out, err = run(["quiz", str(hostile_set), "--format", "moodle", "-o", str(tmp_path / "bank.xml")], capsys)
    assert code == 0
    assert f"hw{SHOWN}.toml" in err or "irlab: wrote" in err
    no_raw_controls(err)
    code, out, err = run(["solve", str(hostile_set)], capsys)
    assert code == 0
    no_raw_controls(err)


def test_the_stream_restored_after_a_command(capsys):
    before = sys.stderr
    run(["metrics"], capsys)
    assert sys.stderr is before


def test_say_for_library_code(capsys):
    say(f"irlab: warning: {HOSTILE}", "second\x9bline")
    err = capsys.readouterr().err
    assert err == f"irlab: warning: {SHOWN}\nsecond<U+009B>line\n"


def test_stream_keeps_tabs_newlines_and_gives_the_progress_bar_its_stream():
    inner = io.StringIO()
    stream = VisibleControls(inner)
    assert stream.write("x\ty\r\nz\x00\n") == len("x\ty\r\nz\x00\n")
    assert inner.getvalue() == "x\ty\nz<U+0000>\n"
    assert unescaped(stream) is inner and unescaped(inner) is inner


@pytest.mark.parametrize("argv", [["explain", "ap", HOSTILE], ["solve", HOSTILE], ["pool", HOSTILE, "-k", "1"],
                                  ["compare", HOSTILE, HOSTILE, HOSTILE], ["conventions", HOSTILE],
                                  ["grade", HOSTILE, HOSTILE], ["sheet", HOSTILE, "--student", HOSTILE]])
def test_every_command_error_with_a_hostile_argument(argv, capsys):
    code, out, err = run(argv, capsys)
    assert code == 2 and err.startswith("irlab: error: ")
    no_raw_controls(err)
    no_raw_controls(out)
