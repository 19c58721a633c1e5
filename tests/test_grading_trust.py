"""Grading a class a teacher can trust: every row accounted for, the right set and seed, the roster, ambiguous CSV
rows, gradebook exports (issue: homework grading a teacher can trust, items 2, 3, 4, 5, 9).

Expected scores are computed here from the variants' data by hand (precision = R's shown / list length), never
by irlab's solvers.
"""

import csv
import io
import json
from fractions import Fraction as F
from pathlib import Path

import pytest

from irlab.errors import InputFileError
from irlab.homework import grade, variant_set
from irlab.homework.identity import normalise_student, read_code, read_roster, variant_code

EXERCISES = Path(__file__).resolve().parents[1] / "exercises"
SEED = EXERCISES / "chapter8-seed.toml"
VARIANTS = EXERCISES / "homework-variants.toml"


def write(tmp_path, text, name="answers.csv"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def precision(student, seed):
    """Exercise 1 a of homework-variants: the share of R's in the student's list, counted by hand."""
    ranking = variant_set(VARIANTS, student, seed).exercise("1").parameters["ranking"]
    return F(ranking.count("R"), len(ranking))


# item 2: no silent drops -----------------------------------------------------------------------

MIXED = ("student,exercise,question,answer\n"
         "s1,8/2,a,3/5\n"           # 2 graded, right (F1 = 3/5)
         "s1,8/9,a,1\n"             # 3 unknown exercise
         "s1,8/2,z,1\n"             # 4 unknown question
         "s1,8/4,c:x,1\n"           # 5 unknown part
         ",8/2,a,3/5\n"             # 6 no student
         "s1,8/2,b,0.5\n"           # 7 duplicate: line 8 counts
         "s1,8/2,b,21/50\n"         # 8 graded, right (AP = 21/50)
         "s1,8/4,b,0.2;0.5\n"       # 9 two values for three parts
         "s2,8/9,a,1\n")            # 10 s2's only row: unknown exercise

STATUSES = {2: "graded", 3: "unknown-exercise", 4: "unknown-question", 5: "unknown-part", 6: "no-student",
            7: "duplicate", 8: "graded", 9: "wrong-part-count", 10: "unknown-exercise"}


def test_every_row_has_a_status_in_every_format(tmp_path):
    report = grade(SEED, write(tmp_path, MIXED), variants=False)
    assert {row.line: row.status for row in report.rows} == STATUSES
    # CSV: the 'lines' column names every input line exactly once
    rows = list(csv.DictReader(io.StringIO(report.render("csv"))))
    lines = [int(n) for row in rows for n in row["lines"].split()]
    assert sorted(lines) == list(range(2, 11))
    assert {int(r["lines"]): r["status"] for r in rows if r["lines"] and r["status"] != "graded"} == \
        {n: s for n, s in STATUSES.items() if s != "graded"}
    # JSON: every row with its status
    data = json.loads(report.render("json"))
    assert {r["line"]: r["status"] for r in data["rows"]} == STATUSES
    assert data["row_counts"] == {"duplicate": 1, "graded": 2, "no-student": 1, "unknown-exercise": 2,
                                  "unknown-part": 1, "unknown-question": 1, "wrong-part-count": 1}
    # text: the accounting line, every row not graded; s2, whose only row was rejected, is no student
    text = report.render("text")
    assert "9 answer rows read: 2 graded, 1 duplicate, 1 no-student, 2 unknown-exercise, 1 unknown-part, " \
           "1 unknown-question, 1 wrong-part-count." in text
    for line in (3, 4, 5, 6, 7, 9, 10):
        assert f"line {line} (" in text
    assert [s.student for s in report.students] == ["s1"] and "s2: " not in text
    assert "line 10 (unknown-exercise)" in text.split("Rows not graded")[1]
    # s1 has 8/2 a and b right: 2 of the 16 questions of the set, every one counted (nobody answered 8/1 or 8/3)
    assert report.questions == [("8/1", q) for q in "abcdefgh"] + [("8/2", q) for q in "abc"] + \
        [("8/3", q) for q in "ab"] + [("8/4", q) for q in "abc"]
    s1 = next(s for s in report.students if s.student == "s1")
    assert (s1.score, s1.max_score) == (2, 16)
    assert "Graded: every question of the set, exercises 8/1, 8/2, 8/3, 8/4 (16 questions, 1 point each)." in text


def test_cli_summarises_problems_on_stderr_and_fails(cli, tmp_path):
    path = write(tmp_path, MIXED)
    out = cli("grade", str(SEED), str(path), "--as-written")
    assert out.returncode == 1
    assert "9 answer rows read: 2 graded" in out.stderr
    for line in (3, 4, 5, 6, 7, 9, 10):
        assert f"{path}:{line}: " in out.stderr
    assert "--allow-ungraded" in out.stderr
    allowed = cli("grade", str(SEED), str(path), "--as-written", "--allow-ungraded")
    assert allowed.returncode == 0 and allowed.stdout == out.stdout and f"{path}:3: " in allowed.stderr
    clean = cli("grade", str(SEED), str(write(tmp_path, "student,exercise,question,answer\ns1,8/2,a,3/5\n", "ok.csv")),
                "--as-written")
    assert (clean.returncode, clean.stderr) == (0, "")


# item 3: wrong set, wrong seed ------------------------------------------------------------------

def test_grading_against_another_set_is_an_error_that_says_what_to_do(cli, tmp_path):
    answers = EXERCISES / "sample-answers.csv"  # answers to chapter8-book's exercise 8.9
    out = cli("grade", str(VARIANTS), str(answers))
    assert out.returncode == 2 and out.stdout == ""
    assert "none of the 10 rows can be graded against set 'homework-variants': the answers name exercise 8.9, " \
           "the set has 1, 2, 3. Is this the exercise set the sheets were made from?" in out.stderr


def test_variant_code_column_catches_a_forgotten_or_wrong_seed(cli, tmp_path):
    rows = "".join(f"{s},1,a,{precision(s, '2026')},{variant_code('homework-variants', s, '2026')}\n"
                   for s in ("s1", "s2"))
    path = write(tmp_path, "student,exercise,question,answer,variant\n" + rows)
    good = grade(VARIANTS, path, "2026")
    assert [s.score for s in good.students] == [1, 1] and not good.problems
    for seed, hint in ((None, "the sheets were made with a --seed"), ("2025", "another --seed than 2025")):
        with pytest.raises(InputFileError, match="none of the 2 rows' variant codes matches") as caught:
            grade(VARIANTS, path, seed)
        assert hint in str(caught.value)
    out = cli("grade", str(VARIANTS), str(path))
    assert out.returncode == 2 and "grade with the same --seed, or with --manifest" in out.stderr


def test_one_wrong_code_is_a_row_problem(tmp_path):
    code = variant_code("homework-variants", "s1", "2026")
    path = write(tmp_path, "student,exercise,question,answer,variant\n"
                           f"s1,1,a,{precision('s1', '2026')},{code.lower().replace('-', '')}\n"  # as copied by hand
                           f"s2,1,a,{precision('s2', '2026')},{code}\n")  # s1's code on s2's row
    report = grade(VARIANTS, path, "2026")
    assert [row.status for row in report.rows] == ["graded", "variant-mismatch"]
    assert f"variant code '{code}' is not the code of s2's sheet" in report.problems[0]


def test_codes_are_printed_on_sheets_and_keys_and_depend_on_set_student_and_seed(cli):
    code = variant_code("homework-variants", "alice", "2026")
    assert len({code, variant_code("homework-variants", "alice", "2025"), variant_code("homework-variants", "bob", "2026"),
                variant_code("chapter8-book", "alice", "2026"), variant_code("homework-variants", "alice", None)}) == 5
    for extra in ((), ("--key",)):
        out = cli("sheet", str(VARIANTS), "--student", "Alice", "--seed", "2026", *extra)
        assert f"Variant code: {code}" in out.stdout
    assert read_code(code.lower().replace("-", "").replace("0", "o")) == code


def test_class_manifest_gives_the_seed_and_checks_the_set(cli, tmp_path):
    roster = write(tmp_path, "id,name,email\ns1,Ann Lee,ann@example.org\ns2,Bo Yu,bo@example.org\n", "roster.csv")
    out = cli("sheet", str(VARIANTS), "--roster", str(roster), "--out", str(tmp_path / "sheets"), "--seed", "2026")
    assert out.returncode == 0, out.stderr
    manifest = json.loads((tmp_path / "sheets" / "manifest.json").read_text())
    assert manifest["seed"] == "2026" and manifest["set"] == "homework-variants"
    assert [(s["id"], s["code"], s["sheet"], s["key"]) for s in manifest["students"]] == [
        ("s1", variant_code("homework-variants", "s1", "2026"), "s1.txt", "s1-key.txt"),
        ("s2", variant_code("homework-variants", "s2", "2026"), "s2.txt", "s2-key.txt")]
    sheet = (tmp_path / "sheets" / "s1.txt").read_text()
    ranking = variant_set(VARIANTS, "s1", "2026").exercise("1").parameters["ranking"]
    assert ranking in sheet and manifest["students"][0]["code"] in sheet
    answers = write(tmp_path, f"student,exercise,question,answer\ns1,1,a,{precision('s1', '2026')}\n")
    report = grade(VARIANTS, answers, manifest=tmp_path / "sheets")  # no --seed: the manifest has it
    assert report.seed == "2026" and report.students[0].score == 1
    assert [s.student for s in report.students] == ["s1", "s2"]  # the roster comes from the manifest
    with pytest.raises(InputFileError, match="made with seed '2026', not '2025'"):
        grade(VARIANTS, answers, "2025", manifest=tmp_path / "sheets")
    with pytest.raises(InputFileError, match="these sheets were made from set 'homework-variants'"):
        grade(SEED, answers, manifest=tmp_path / "sheets" / "manifest.json")


# item 4: roster ---------------------------------------------------------------------------------

def test_roster_reports_strangers_absentees_and_spellings(tmp_path):
    roster = write(tmp_path, "id,name,email\nAlice,Alice A,alice@example.org\nbob,Bob B,\ncarol,,\n", "roster.csv")
    rows = (f"alice,1,a,{precision('alice', '2026')}\n"  # 2
            f" ALICE ,1,b,0\n"                           # 3: same student
            f"dave,1,a,{precision('dave', '2026')}\n"    # 4: not on the roster
            f"bob,1,a,0\n")                              # 5
    report = grade(VARIANTS, write(tmp_path, "student,exercise,question,answer\n" + rows), "2026", roster=roster)
    assert [s.student for s in report.students] == ["Alice", "bob", "carol"]  # the roster, in its order
    assert [s.score for s in report.students] == [1, 0, 0]
    assert [(s.student, s.score) for s in report.kept_out] == [("dave", 1)]  # graded, but not in the class
    assert report.students[0].questions[0].lines == (2,) and report.students[0].questions[1].lines == (3,)
    notes = "\n".join(report.notes)
    assert "student ids 'alice' (line 2), 'ALICE' (line 3) differ only in case or spaces: graded as one student, " \
           "as on the roster: 'Alice'" in notes
    assert "dave" not in notes and report.problems == [
        f"{tmp_path / 'answers.csv'}:4: student 'dave' (line 4) is not on the roster: no sheet was issued to this id "
        "(a typo?); graded against its own variant in this report, kept out of the gradebook exports and the class "
        "statistics"]
    assert "1 roster student has no answers (scored 0): carol" in notes


def test_ids_are_normalised_alike_for_sheets_and_grading():
    assert normalise_student("  Alice\tSmith ") == normalise_student("alice smith") == "alice smith"
    assert variant_set(VARIANTS, " ALICE ", "2026").exercise("1").parameters == \
        variant_set(VARIANTS, "alice", "2026").exercise("1").parameters


def test_roster_errors_name_the_line(tmp_path):
    with pytest.raises(InputFileError, match=r"roster.csv:3: student 'ALICE' is already on the roster at line 2"):
        read_roster(write(tmp_path, "id\nalice\nALICE\n", "roster.csv"))
    with pytest.raises(InputFileError, match=r"r2.csv:1: the roster's header must name an 'id'"):
        read_roster(write(tmp_path, "name\nx\n", "r2.csv"))


# item 5: ambiguous CSV ----------------------------------------------------------------------------

def test_an_unquoted_decimal_comma_is_a_reported_problem_never_a_guess(cli, tmp_path):
    path = write(tmp_path, "student,exercise,question,answer\ns001,8/2,b,0,42\ns001,8/2,a,3/5\n")
    report = grade(SEED, path, variants=False)
    assert [row.status for row in report.rows] == ["extra-fields", "graded"]
    assert report.problems == [f"{path}:2: the row has 5 fields but the header has 4 — an unquoted decimal comma? "
                               "Quote the answer (\"0,25\") or write 0.25; not graded"]
    rows = list(csv.DictReader(io.StringIO(report.render("csv"))))
    assert [(r["student"], r["status"], r["lines"]) for r in rows if r["lines"]] == [
        ("s001", "graded", "3"), ("s001", "extra-fields", "2")]  # every input line in the CSV report
    b = next(q for q in report.students[0].questions if q.question == "b")
    assert b.parts[0].status == "missing"  # not graded as 0 (the first half of "0,42")
    out = cli("grade", str(SEED), str(path), "--as-written")
    assert out.returncode == 1 and "unquoted decimal comma" in out.stderr


# item 9: gradebooks ---------------------------------------------------------------------------------

CLASS = ("student,exercise,question,answer\n"
         "s1,8/2,a,3/5\n"        # F1 = 3/5: right
         "s1,8/2,b,0.7\n"        # AP is 21/50: wrong
         "s1,8/2,c,0.6962;0.5\n"  # highest right (731/1050 = 0.6962), lowest wrong: 1/2
         "s2,8/2,a,0.6\ns2,8/2,b,42%\ns2,8/2,c,0.6962;0.4381\n"  # all right: 3
         "s3,8/2,a,1\n")         # 0
ROSTER = "id,name,email\ns1,Ann Lee,ann@example.org\ns2,Bo Yu,bo@example.org\ns3,Cy Ng,cy@example.org\ns4,Di Li,\n"


def test_canvas_and_moodle_gradebooks(tmp_path):
    report = grade(SEED, write(tmp_path, CLASS), variants=False, roster=write(tmp_path, ROSTER, "roster.csv"),
                   exercises=["8/2"])
    canvas = list(csv.reader(io.StringIO(report.render("canvas"))))
    assert canvas[0] == ["Student", "ID", "SIS User ID", "SIS Login ID", "Section", "chapter8-seed 8/2a",
                         "chapter8-seed 8/2b", "chapter8-seed 8/2c", "chapter8-seed total", "chapter8-seed percentage"]
    assert canvas[1] == ["Points Possible", "", "", "", "", "1", "1", "1", "3", "100"]
    # s1: 1 + 0 + 1/2 = 3/2 of 3 = 50 %; s2: 3 = 100 %; s3: 0; s4 (roster, no answers): 0
    assert canvas[2:] == [["Ann Lee", "", "s1", "ann@example.org", "", "1", "0", "0.5", "1.5", "50"],
                          ["Bo Yu", "", "s2", "bo@example.org", "", "1", "1", "1", "3", "100"],
                          ["Cy Ng", "", "s3", "cy@example.org", "", "0", "0", "0", "0", "0"],
                          ["Di Li", "", "s4", "", "", "0", "0", "0", "0", "0"]]
    moodle = list(csv.reader(io.StringIO(report.render("moodle"))))
    assert moodle[0] == ["ID number", "Email address", "Full name", "chapter8-seed 8/2a", "chapter8-seed 8/2b",
                         "chapter8-seed 8/2c", "Total", "Percentage"]
    assert moodle[1] == ["s1", "ann@example.org", "Ann Lee", "1", "0", "0.5", "1.5", "50"]
    assert len(moodle) == 5


def test_class_summary_per_question(tmp_path):
    report = grade(SEED, write(tmp_path, CLASS), variants=False, roster=write(tmp_path, ROSTER, "roster.csv"),
                   exercises=["8/2"])
    summary = {r["question"]: r for r in report.question_summary()}
    # a: scores 1, 1, 0, 0 -> mean 1/2, median 1/2, share 2/4; b: 0, 1, 0, 0 -> 1/4, 0, 1/4; c: 1/2, 1, 0, 0
    assert (summary["a"]["mean"], summary["a"]["median"], summary["a"]["share_correct"]) == (F(1, 2), F(1, 2), F(1, 2))
    assert (summary["b"]["mean"], summary["b"]["median"], summary["b"]["share_correct"]) == (F(1, 4), 0, F(1, 4))
    assert (summary["c"]["mean"], summary["c"]["median"], summary["c"]["share_correct"]) == (F(3, 8), F(1, 4), F(1, 4))
    assert report.mistake_summary()[0]["mistake"] == "ap-divided-by-relevant-retrieved"


def test_html_class_report_has_the_histogram(cli, tmp_path):
    page = tmp_path / "grades.html"
    out = cli("grade", str(SEED), str(write(tmp_path, CLASS)), "--as-written", "--exercise", "8/2", "--html", str(page))
    assert out.returncode == 0, out.stderr
    html = page.read_text()
    assert "data:image/png;base64," in html and "Score distribution of the 3 students (points of 3)" in html
    assert "Scores per question" in html and "median" in html


def test_trailing_empty_fields_are_not_extra_fields(tmp_path):
    report = grade(SEED, write(tmp_path, "student,exercise,question,answer\ns1,8/2,a,3/5,,\n"), variants=False)
    assert [row.status for row in report.rows] == ["graded"] and report.students[0].score == 1


@pytest.mark.skipif(not __import__("shutil").which("pdflatex"), reason="needs pdflatex")
def test_pdf_class_report(cli, tmp_path):
    pdf = tmp_path / "grades.pdf"
    out = cli("grade", str(SEED), str(write(tmp_path, CLASS)), "--as-written", "--exercise", "8/2", "--pdf", str(pdf))
    assert out.returncode == 0, out.stderr
    assert pdf.read_bytes()[:5] == b"%PDF-"
    tex = pdf.with_suffix(".tex").read_text()
    assert "Score distribution of the 3 students (points of 3)" in tex and "includegraphics" in tex


def test_class_sheets_refuse_a_single_pdf(cli, tmp_path):
    roster = write(tmp_path, "id\ns1\n", "roster.csv")
    out = cli("sheet", str(VARIANTS), "--roster", str(roster), "--out", str(tmp_path / "d"), "--pdf", str(tmp_path / "x.pdf"))
    assert out.returncode == 2 and "--pdf/--html print one student's sheet" in out.stderr
    assert not (tmp_path / "x.pdf").exists()
    out = cli("sheet", str(VARIANTS), "--roster", str(roster))
    assert out.returncode == 2 and "give the directory with --out DIR" in out.stderr


from hypothesis import given, settings, strategies as st  # noqa: E402

_CELLS = st.tuples(st.sampled_from(["s1", "S1 ", "s2", ""]), st.sampled_from(["8/2", "8/4", "8/9"]),
                   st.sampled_from(["a", "b", "c", "c.1", "c:lowest", "c:x", "z"]),
                   st.sampled_from(["3/5", "0.42", "", "n/a", "0.2;0.5", "0,6", "0.2;0.5;2/7"]),
                   st.sampled_from(["", ",extra", ",,"]))


@settings(max_examples=40, deadline=None)
@given(st.lists(_CELLS, min_size=1, max_size=8))
def test_property_every_input_line_is_in_every_format(tmp_path_factory, cells):
    lines = ["student,exercise,question,answer"] + [f"{s},{e},{q},{a}{x}" if "," not in a else f'{s},{e},{q},"{a}"{x}'
                                                    for s, e, q, a, x in cells]
    path = tmp_path_factory.mktemp("p") / "answers.csv"
    path.write_text("\n".join(lines) + "\n")
    try:
        report = grade(SEED, path, variants=False)
    except InputFileError as error:  # nothing gradable at all: refused as a whole, with the reason
        assert "none of the" in str(error)
        return
    expected = list(range(2, len(cells) + 2))
    assert [row.line for row in report.rows] == expected
    assert sorted(int(n) for r in csv.DictReader(io.StringIO(report.render("csv"))) for n in r["lines"].split()) == expected
    assert [r["line"] for r in json.loads(report.render("json"))["rows"]] == expected
    assert all(row.status in ("graded", "duplicate", "no-student", "unknown-exercise", "unknown-question", "unknown-part",
                              "extra-fields", "short-row", "wrong-part-count") for row in report.rows)


def test_a_row_answered_again_only_in_part_still_counts_for_the_other_parts(tmp_path):
    # 8/4 b: P = 1/5, R = 1/2, F1 = 2/7; line 3 answers b.1 again (rightly), line 2 still counts for b.2 and b.3
    path = write(tmp_path, "student,exercise,question,answer\ns1,8/4,b,0.3;0.5;2/7\ns1,8/4,b.1,1/5\n")
    report = grade(SEED, path, variants=False)
    assert [row.status for row in report.rows] == ["graded", "graded"]
    assert report.rows[0].message == "b.1 answered again at line 3, which counts for that part"
    b = next(q for q in report.students[0].questions if (q.exercise, q.question) == ("8/4", "b"))
    assert b.score == 1 and b.lines == (2, 3)
    path = write(tmp_path, "student,exercise,question,answer\ns1,8/4,b.1,0.3\ns1,8/4,b,0.2;0.5;2/7\n", "b.csv")
    assert [row.status for row in grade(SEED, path, variants=False).rows] == ["duplicate", "graded"]
