"""Output paths (issue 20, items 2 and 3): no sheet file holds another student's key, no command overwrites one of
its own inputs, nothing is written through a symbolic link or half-written.

Each scenario runs the real command line on copies of the shipped files and checks the exit code, the one error
line, and that every input is byte-identical afterwards.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from irlab.document import Document, Figure
from irlab.errors import OutputFileError, ParameterError
from irlab.outputs import check_outputs, write_file
from irlab.printable import write_pdf

EXERCISES = Path(__file__).resolve().parents[1] / "exercises"


def one_error(out, *fragments) -> str:
    """Exit 2, nothing on stdout, one `irlab: error:` line holding every fragment."""
    assert out.returncode == 2, (out.returncode, out.stderr)
    assert out.stdout == ""
    lines = out.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("irlab: error: "), out.stderr
    for fragment in fragments:
        assert fragment in lines[0], (fragment, lines[0])
    return lines[0]


@pytest.fixture
def files(tmp_path):
    """Copies of the shipped set, answers, roster, qrels and runs in tmp_path; their bytes, to compare after."""
    names = {"set": EXERCISES / "homework-variants.toml", "answers": EXERCISES / "sample-answers.csv",
             "roster": EXERCISES / "sample-roster.csv", "qrels": EXERCISES / "compare" / "qrels.txt",
             "r1": EXERCISES / "compare" / "baseline.txt", "r2": EXERCISES / "compare" / "expansion.txt"}
    paths = {key: Path(shutil.copy(source, tmp_path / source.name)) for key, source in names.items()}
    paths["bytes"] = {key: path.read_bytes() for key, path in paths.items()}
    return paths


def unchanged(files) -> bool:
    return all(files[key].read_bytes() == data for key, data in files["bytes"].items())


def roster(tmp_path, text, name="roster.csv") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


# item 2: class sheets ------------------------------------------------------------------------------------------

def test_roster_ids_x_key_and_x_are_refused_naming_both(cli, files, tmp_path):
    # x's answer key would be x-key.html, which is also the sheet of the student x-key
    ids = roster(tmp_path, "id\nx-key\nx\n")
    out = tmp_path / "sheets"
    one_error(cli("sheet", str(files["set"]), "--roster", str(ids), "--out", str(out), "--format", "html"),
              f"{ids}:3: roster ids 'x-key' (line 2) and 'x' (line 3) both make the file x-key.html "
              "(the sheet of 'x-key' and the answer key of 'x';", "give one of them another id")
    assert not out.exists()  # refused before anything is written
    assert ids.read_text() == "id\nx-key\nx\n" and unchanged(files)


def test_roster_id_manifest_with_json_would_be_the_class_manifest(cli, files, tmp_path):
    ids = roster(tmp_path, "id\ns1\nmanifest\n")
    out = tmp_path / "sheets"
    one_error(cli("sheet", str(files["set"]), "--roster", str(ids), "--out", str(out), "--format", "json"),
              f"{ids}:3: roster id 'manifest' would write manifest.json (the sheet of 'manifest'), the class "
              "manifest's file")
    assert not out.exists() and unchanged(files)
    # in another format the student's files are manifest.txt and manifest-key.txt, beside the class manifest
    done = cli("sheet", str(files["set"]), "--roster", str(ids), "--out", str(out))
    assert done.returncode == 0, done.stderr
    assert sorted(p.name for p in out.iterdir()) == ["manifest-key.txt", "manifest.json", "manifest.txt",
                                                     "s1-key.txt", "s1.txt"]
    student = json.loads((out / "manifest.json").read_text())["students"][1]
    assert (student["id"], student["sheet"], student["key"]) == ("manifest", "manifest.txt", "manifest-key.txt")


def test_ids_Ab_and_ab_are_one_student(cli, files, tmp_path):
    ids = roster(tmp_path, "id\nAb\nab\n")
    one_error(cli("sheet", str(files["set"]), "--roster", str(ids), "--out", str(tmp_path / "d")),
              f"{ids}:3: student 'ab' is already on the roster at line 2 (as 'Ab';")
    assert not (tmp_path / "d").exists()


def test_ids_that_differ_but_make_names_differing_only_in_case_are_refused(cli, files, tmp_path):
    # 'Ab c' and 'ab_C' are two students, but their sheets Ab_c.txt and ab_C.txt are one file on Windows and macOS
    ids = roster(tmp_path, "id\nAb c\nab_C\n")
    one_error(cli("sheet", str(files["set"]), "--roster", str(ids), "--out", str(tmp_path / "d")),
              "roster ids 'Ab c' (line 2) and 'ab_C' (line 3) both make the file ab_C.txt (the sheet of 'Ab c' and "
              "the sheet of 'ab_C'; file names are compared ignoring case")
    assert not (tmp_path / "d").exists()


def test_class_sheets_never_overwrite_the_roster_placed_in_dir(cli, files, tmp_path):
    out = tmp_path / "sheets"
    out.mkdir()
    ids = roster(out, "id\ns1\ns2\n", "s2-key.txt")  # the roster saved where student s2's key goes
    one_error(cli("sheet", str(files["set"]), "--roster", str(ids), "--out", str(out)),
              f"the answer key of 's2' {ids} is the --roster file ({ids}): irlab never overwrites one of its inputs")
    assert ids.read_text() == "id\ns1\ns2\n" and [p.name for p in out.iterdir()] == ["s2-key.txt"]


def test_class_sheets_never_overwrite_the_set_through_a_hard_link_in_dir(cli, files, tmp_path):
    out = tmp_path / "sheets"
    out.mkdir()
    os.link(files["set"], out / "s1.txt")
    ids = roster(tmp_path, "id\ns1\n")
    one_error(cli("sheet", str(files["set"]), "--roster", str(ids), "--out", str(out)),
              f"the sheet of 's1' {out / 's1.txt'} is the exercise set ({files['set']}, the same file through a "
              "hard link)")
    assert unchanged(files)


def test_a_rerun_replaces_the_class_own_sheets_but_no_other_file(cli, files, tmp_path):
    out = tmp_path / "sheets"
    ids = roster(tmp_path, "id\ns1\ns2\n")
    first = cli("sheet", str(files["set"]), "--roster", str(ids), "--out", str(out), "--seed", "2025")
    second = cli("sheet", str(files["set"]), "--roster", str(ids), "--out", str(out), "--seed", "2026")
    assert first.returncode == 0 and second.returncode == 0, second.stderr
    assert json.loads((out / "manifest.json").read_text())["seed"] == "2026"
    (out / "notes.txt").write_text("my notes\n")
    sheet = (out / "s1.txt").read_bytes()
    more = roster(tmp_path, "id\ns1\ns3\nnotes\n", "more.csv")
    one_error(cli("sheet", str(files["set"]), "--roster", str(more), "--out", str(out), "--seed", "2027"),
              f"{out / 'notes.txt'}: cannot write: the file exists and is not a sheet that {out / 'manifest.json'} "
              "lists from an earlier irlab sheet run")
    assert (out / "notes.txt").read_text() == "my notes\n"
    assert (out / "s1.txt").read_bytes() == sheet and not (out / "s3.txt").exists()  # nothing written


def test_a_manifest_json_not_written_by_irlab_is_not_replaced(cli, files, tmp_path):
    out = tmp_path / "app"
    out.mkdir()
    (out / "manifest.json").write_text('{"name": "my web app"}\n')
    one_error(cli("sheet", str(files["set"]), "--roster", str(files["roster"]), "--out", str(out)),
              f"{out / 'manifest.json'}: cannot write: the file exists and is not a class manifest written by irlab")
    assert [p.name for p in out.iterdir()] == ["manifest.json"]
    assert (out / "manifest.json").read_text() == '{"name": "my web app"}\n'


def test_a_symbolic_link_at_a_sheet_path_is_never_written_through(cli, files, tmp_path):
    outside = tmp_path / "outside.txt"
    outside.write_text("someone else's file\n")
    out = tmp_path / "sheets"
    out.mkdir()
    (out / "s001-key.txt").symlink_to(outside)
    one_error(cli("sheet", str(files["set"]), "--roster", str(files["roster"]), "--out", str(out)),
              f"{out / 's001-key.txt'}: cannot write: it is a symbolic link (to {outside}); irlab never writes "
              "through a link")
    assert outside.read_text() == "someone else's file\n" and (out / "s001-key.txt").is_symlink()
    assert [p.name for p in out.iterdir()] == ["s001-key.txt"]


# item 3: outputs that are inputs --------------------------------------------------------------------------------

def test_grade_html_pointing_to_the_answers_csv(cli, files):
    answers = str(files["answers"])
    one_error(cli("grade", str(files["set"]), answers, "--html", answers),
              f"--html {answers} is the answers CSV ({answers}): irlab never overwrites one of its inputs")
    assert unchanged(files)


def test_grade_pdf_whose_latex_source_is_the_roster(cli, files, tmp_path):
    ids = roster(tmp_path, "id\ns001\n", "class.tex")
    one_error(cli("grade", str(files["set"]), str(files["answers"]), "--roster", str(ids), "--pdf",
                  str(tmp_path / "class.pdf")),
              f"the LaTeX source of --pdf {ids} is the --roster file ({ids})")
    assert ids.read_text() == "id\ns001\n" and not (tmp_path / "class.pdf").exists()


def test_grade_html_pointing_to_the_manifest_of_a_directory(cli, files, tmp_path):
    out = tmp_path / "sheets"
    assert cli("sheet", str(files["set"]), "--roster", str(files["roster"]), "--out", str(out)).returncode == 0
    manifest = (out / "manifest.json").read_bytes()
    one_error(cli("grade", str(files["set"]), str(files["answers"]), "--manifest", str(out), "--html",
                  str(out / "manifest.json")),
              f"--html {out / 'manifest.json'} is the --manifest file ({out / 'manifest.json'})")
    assert (out / "manifest.json").read_bytes() == manifest


def test_eval_html_pointing_to_the_qrels(cli, files):
    qrels = str(files["qrels"])
    one_error(cli("eval", qrels, str(files["r1"]), "--html", qrels), f"--html {qrels} is the qrels ({qrels})")
    assert unchanged(files)


def test_eval_pdf_pointing_to_the_run(cli, files, tmp_path):
    run = tmp_path / "run.pdf"
    run.write_bytes(files["bytes"]["r1"])
    one_error(cli("eval", str(files["qrels"]), str(run), "--pdf", str(run)), f"--pdf {run} is the run ({run})")
    assert run.read_bytes() == files["bytes"]["r1"]


def test_pool_html_pointing_to_a_run(cli, files):
    r1, r2 = str(files["r1"]), str(files["r2"])
    one_error(cli("pool", "-k", "5", r1, r2, "--html", r1), f"--html {r1} is one of the runs ({r1})")
    one_error(cli("pool", "-k", "5", r1, r2, "-o", r2), f"-o/--judging-list {r2} is one of the runs ({r2})")
    assert unchanged(files)


def test_pool_judging_list_and_html_cannot_be_one_file(cli, files, tmp_path):
    target = tmp_path / "pool.html"
    one_error(cli("pool", "-k", "5", str(files["r1"]), "-o", str(target), "--html", str(target)),
              f"--html ({target}) and -o/--judging-list ({target}) are the same file")
    assert not target.exists()


def test_compare_html_pointing_to_a_run(cli, files):
    r2 = str(files["r2"])
    one_error(cli("compare", str(files["qrels"]), str(files["r1"]), r2, "--html", r2),
              f"--html {r2} is one of the runs ({r2})")
    assert unchanged(files)


def test_solve_html_pointing_to_the_set(cli, files):
    # it used to overwrite the set and then fail reading it
    exercise_set = str(files["set"])
    one_error(cli("solve", exercise_set, "--html", exercise_set),
              f"--html {exercise_set} is the exercise set ({exercise_set})")
    assert unchanged(files)


def test_explain_and_conventions_html_pointing_to_the_run(cli, files):
    qrels, run = str(files["qrels"]), str(files["r1"])
    for command in (("explain", "ap"), ("conventions", "ap")):
        one_error(cli(*command, "--qrels", qrels, "--run", run, "--topic", "401", "--html", run),
                  f"--html {run} is the --run file ({run})")
    assert unchanged(files)


def test_a_hard_link_to_an_input_is_that_input(cli, files, tmp_path):
    link = tmp_path / "report.html"
    os.link(files["qrels"], link)
    one_error(cli("eval", str(files["qrels"]), str(files["r1"]), "--html", str(link)),
              f"--html {link} is the qrels ({files['qrels']}, the same file through a hard link)")
    assert unchanged(files) and link.read_bytes() == files["bytes"]["qrels"]


def test_a_symbolic_link_to_an_input_is_that_input(cli, files, tmp_path):
    link = tmp_path / "report.html"
    link.symlink_to(files["answers"])
    one_error(cli("grade", str(files["set"]), str(files["answers"]), "--html", str(link)),
              f"--html {link} is the answers CSV ({files['answers']}, the same file through a symbolic link)")
    assert unchanged(files)


def test_a_symbolic_link_at_an_output_path_is_never_written_through(cli, tmp_path):
    outside = tmp_path / "elsewhere" / "grades.csv"
    outside.parent.mkdir()
    outside.write_text("student,score\ns1,3\n")
    link = tmp_path / "ap.html"
    link.symlink_to(outside)
    one_error(cli("explain", "ap", "RNNRR", "--html", str(link)),
              f"{link}: cannot write: it is a symbolic link (to {outside}); irlab never writes through a link")
    assert outside.read_text() == "student,score\ns1,3\n" and link.is_symlink()


def test_a_dangling_symbolic_link_is_refused_too(cli, tmp_path):
    target = tmp_path / "created-elsewhere.html"
    link = tmp_path / "ap.html"
    link.symlink_to(target)
    one_error(cli("explain", "ap", "RNNRR", "--html", str(link)), f"{link}: cannot write: it is a symbolic link")
    assert not target.exists()


def test_a_single_sheet_and_its_key_are_checked_against_each_other(cli, files, tmp_path):
    # --pdf s.pdf writes s.tex, s-key.pdf and s-key.tex: --html s-key.tex would be the key's LaTeX source
    one_error(cli("sheet", str(files["set"]), "--student", "s1", "--pdf", str(tmp_path / "s.pdf"), "--html",
                  str(tmp_path / "S-KEY.tex")),
              f"--html ({tmp_path / 'S-KEY.tex'}) and the LaTeX source of the answer key of --pdf "
              f"({tmp_path / 's-key.tex'}) are the same file (names are compared ignoring case)")
    assert [p for p in tmp_path.iterdir() if p.suffix in (".pdf", ".tex", ".html")] == []


# the writer itself ----------------------------------------------------------------------------------------------

def test_write_file_replaces_a_file_whole_and_leaves_no_temporary(tmp_path):
    target = tmp_path / "page.html"
    target.write_text("old")
    other = tmp_path / "other-name.html"
    os.link(target, other)  # a hard link elsewhere keeps the old content: the name is replaced, not the file
    write_file(target, b"new")
    assert target.read_bytes() == b"new" and other.read_text() == "old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["other-name.html", "page.html"]


def test_write_file_refuses_links_directories_and_devices(tmp_path):
    (tmp_path / "link").symlink_to(tmp_path / "nowhere")
    for path, problem in ((tmp_path / "link", "it is a symbolic link"), (tmp_path, "it is a directory"),
                          (Path(os.devnull), "it is not a regular file")):
        with pytest.raises(OutputFileError, match=problem):
            write_file(path, b"x")
    assert not (tmp_path / "nowhere").exists()


def test_write_file_names_the_path_when_the_folder_cannot_be_made(tmp_path):
    (tmp_path / "file").write_text("x")
    with pytest.raises(OutputFileError, match=f"^{tmp_path / 'file' / 'page.html'}: cannot write: "):
        write_file(tmp_path / "file" / "page.html", b"new")


def test_check_outputs_compares_outputs_ignoring_case_but_inputs_by_file(tmp_path):
    check_outputs([("the qrels", tmp_path / "Q.txt")], [("--html", tmp_path / "q.txt")])  # two files on Linux
    with pytest.raises(ParameterError, match=r"--pdf \(.*a.pdf\) and --html \(.*A.PDF\) are the same file"):
        check_outputs([], [("--pdf", tmp_path / "a.pdf"), ("--html", tmp_path / "A.PDF")])


def test_a_figure_file_of_other_content_beside_a_pdf_is_not_replaced(tmp_path):
    figure = Figure("a plot", b"\x89PNG these bytes")
    theirs = tmp_path / figure.name
    theirs.write_bytes(b"someone's picture")
    with pytest.raises(OutputFileError, match=f"{theirs}: cannot write: a file of this name exists and is not "
                                              "this figure"):
        write_pdf(Document("Report", (figure,)), tmp_path / "report.pdf")
    assert theirs.read_bytes() == b"someone's picture" and not (tmp_path / "report.tex").exists()
