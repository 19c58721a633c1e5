"""Grading a class's CSV end to end: exact scores, partial credit, feedback, mistakes summary, bad rows."""

import csv
import io
import json
from fractions import Fraction as F
from pathlib import Path

import pytest

from irlab import InputFileError
from irlab.homework import grade, variant_set

EXERCISES = Path(__file__).resolve().parents[1] / "exercises"
SEED = EXERCISES / "chapter8-seed.toml"

# seed sheet as written: 8/2 F1 = 3/5, AP = 21/50, AP_max = 731/1050, AP_min = 4337/9900;
# 8/4 kappa = -1/3, (b) P = 1/5, Rec = 1/2, F1 = 2/7, (c) P = 1, Rec = 1/2, F1 = 2/3
CLASS = """student,exercise,question,answer
s1,8/2,a,0.6
s1,8/2,b,21/50
s1,8/2,c.1,0.6962
s1,8/2,c:lowest,0.4381
s1,8/4,a,-1/3
s1,8/4,b,0.2; 0.5; 0.2857
s1,8/4,c.1,100%
s1,8/4,c:recall,0.4
s2,8/2,a,
s2,8/2,b,0.7
s2,8/2,c,0.6962; 0.5
s2,8/4,a,-0.33
s3,8/9,a,1
"""


def write(tmp_path, text, name="answers.csv"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def by_question(report, student):
    grades = next(s for s in report.students if s.student == student)
    return grades, {(q.exercise, q.question): q for q in grades.questions}


def test_class_as_written_exact_scores(tmp_path):
    report = grade(SEED, write(tmp_path, CLASS), variants=False, exercises=["8/2", "8/4"])
    assert [s.student for s in report.students] == ["s1", "s2"]  # s3's only row was rejected: no student
    assert report.questions == [("8/2", "a"), ("8/2", "b"), ("8/2", "c"), ("8/4", "a"), ("8/4", "b"), ("8/4", "c")]
    s1, q1 = by_question(report, "s1")
    assert [q1[k].score for k in report.questions] == [1, 1, 1, 1, 1, F(1, 3)]  # c: P right, Rec wrong, F missing
    assert s1.score == F(16, 3) and s1.max_score == 6
    s2, q2 = by_question(report, "s2")
    assert [q2[k].score for k in report.questions] == [0, 0, F(1, 2), 1, 0, 0]
    assert s2.score == F(3, 2)
    assert q2[("8/2", "a")].parts[0].status == "invalid"
    assert q2[("8/2", "a")].feedback == "No answer recognised: no answer given."
    assert q2[("8/2", "b")].parts[0].mistake == "ap-divided-by-relevant-retrieved"
    assert q2[("8/4", "b")].parts[0].message == "No answer submitted."
    assert report.problems == [f"{tmp_path / 'answers.csv'}:14: unknown exercise '8/9' (the set has 8/1, 8/2, 8/3, 8/4); not graded"]
    assert report.mistake_summary() == [{"mistake": "ap-divided-by-relevant-retrieved",
                                         "title": "AP divided by the relevant documents retrieved instead of all R",
                                         "answers": 1, "students": 1, "questions": ["8/2 b"]}]
    means = {(r["exercise"], r["question"]): r["mean"] for r in report.question_summary()}
    # the class means are over s1 and s2 (s3 is no student): 8/2 c (1 + 1/2) / 2, 8/4 c (1/3 + 0) / 2
    assert means[("8/2", "c")] == F(3, 4) and means[("8/4", "c")] == F(1, 6)


def test_csv_and_json_outputs(tmp_path):
    report = grade(SEED, write(tmp_path, CLASS), variants=False, exercises=["8/2", "8/4"])
    rows = list(csv.DictReader(io.StringIO(report.render("csv"))))
    assert list(rows[0]) == ["student", "exercise", "question", "score", "max", "answer", "mistakes", "feedback",
                            "status", "lines"]
    totals = {r["student"]: r["score"] for r in rows if r["question"] == "total"}
    assert totals == {"s1": "5.3333", "s2": "1.5"}
    s3 = [r for r in rows if r["student"] == "s3"]  # rejected row only: listed once, no total
    assert [(r["exercise"], r["status"], r["lines"]) for r in s3] == [("8/9", "unknown-exercise", "14")]
    s2b = next(r for r in rows if (r["student"], r["exercise"], r["question"]) == ("s2", "8/2", "b"))
    assert s2b["mistakes"] == "ap-divided-by-relevant-retrieved" and s2b["score"] == "0"
    assert s2b["feedback"].startswith("Not quite: 0.7 is what you get if you divide by the 3 relevant documents retrieved")
    data = json.loads(report.render("json"))
    assert [(s["student"], s["score"]) for s in data["students"]] == [("s1", "16/3"), ("s2", "3/2")]
    assert data["graded"] == {"exercises": ["8/2", "8/4"], "left_out": ["8/1", "8/3"], "read_by_teacher": []}
    part = data["students"][0]["questions"][5]["parts"][1]
    assert (part["part"], part["part_name"], part["status"], part["credit"]) == ("2", "recall", "wrong", "0")
    assert data["mistakes"][0]["mistake"] == "ap-divided-by-relevant-retrieved"
    text = report.render("text")
    assert "Most common mistakes" in text and "s1: 16/3 of 6" in text and "unknown exercise '8/9'" in text
    assert "Graded: the exercises chosen, exercises 8/2, 8/4 (6 questions, 1 point each); left out: 8/1, 8/3." in text


def test_each_student_is_graded_against_their_own_variant(tmp_path):
    students = [f"s{i}" for i in range(6)]
    precision = {}
    for student in students:  # P@k of the student's own list, k its length, counted here by hand
        ranking = variant_set(SEED, student, "2026").exercise("8/1").parameters["ranking"]
        precision[student] = F(ranking.count("R"), len(ranking))
    lines = ["student,exercise,question,answer"]
    lines += [f"{s},8/1,a,{precision[s]}" for s in students]
    other = next(s for s in students[1:] if precision[s] != precision["s0"])
    lines.append(f"zz,8/1,a,{precision[other]}")  # answers with a classmate's numbers
    report = grade(SEED, write(tmp_path, "\n".join(lines) + "\n"), seed="2026", exercises=["8/1"])
    scores = {s.student: s.score for s in report.students}
    for student in students:
        assert scores[student] == 1
    zz = variant_set(SEED, "zz", "2026").exercise("8/1").parameters["ranking"]
    assert scores["zz"] == (1 if F(zz.count("R"), len(zz)) == precision[other] else 0)
    assert report.questions == [("8/1", q) for q in "abcdefgh"]
    assert all(s.max_score == 8 for s in report.students)
    # another seed gives other variants: the same answers are no longer all right
    assert sum(s.score for s in grade(SEED, write(tmp_path, "\n".join(lines) + "\n", "b.csv"), seed="other").students) < 6


def test_missing_column_names_file_and_line(tmp_path):
    path = write(tmp_path, "student,exercise,question\ns1,8/2,a\n")
    with pytest.raises(InputFileError) as raised:
        grade(SEED, path)
    assert str(raised.value) == (f"{path}:1: missing column 'answer': the header must name student, exercise, question, "
                                 "answer (found: student, exercise, question)")


def test_header_is_required_and_empty_files_are_reported(tmp_path):
    with pytest.raises(InputFileError, match=r":1: missing columns 'student', 'exercise', 'question', 'answer'"):
        grade(SEED, write(tmp_path, "s1,8/2,a,0.6\n"))
    with pytest.raises(InputFileError, match=r":1: empty file"):
        grade(SEED, write(tmp_path, ""))
    with pytest.raises(InputFileError, match="no such file"):
        grade(SEED, tmp_path / "missing.csv")


def test_columns_in_any_order_and_case_extra_columns_ignored(tmp_path):
    text = "Answer,Question,comment,EXERCISE,student\n0.6,a,first try,8/2,s1\n"
    report = grade(SEED, write(tmp_path, text), variants=False)
    assert by_question(report, "s1")[1][("8/2", "a")].score == 1


def test_bad_rows_are_listed_with_their_line_or_stop_the_run_when_strict(tmp_path):
    text = ("student,exercise,question,answer\n"
            ",8/2,a,0.6\n"          # line 2: no student
            "s1,8/2,z,0.6\n"        # line 3: no such question
            "s1,8/4,b:x,0.6\n"      # line 4: no such part
            "s1,8/4,b,0.2\n"        # line 5: three values needed
            "s1,8/2,a,0.5\n"        # line 6: answered again at line 7, which counts
            "s1,8/2,a,0.6\n")       # line 7
    path = write(tmp_path, text)
    report = grade(SEED, path, variants=False)
    assert [p.split(": ", 1)[0] for p in report.problems] == [f"{path}:{n}" for n in (2, 3, 4, 5, 6)]
    assert "no student id" in report.problems[0]
    assert "exercise 8/2 has no question 'z' (it has a, b, c)" in report.problems[1]
    assert "question b has no part 'x'" in report.problems[2]
    assert "again at line 7; this earlier answer is not counted" in report.problems[4]
    assert [row.status for row in report.rows] == ["no-student", "unknown-question", "unknown-part", "wrong-part-count",
                                                   "duplicate", "graded"]
    assert by_question(report, "s1")[1][("8/2", "a")].score == 1
    with pytest.raises(InputFileError, match=rf"^{path}:2: no student id; not graded$"):
        grade(SEED, path, variants=False, strict=True)


def test_short_rows_grade_blank(tmp_path):
    report = grade(SEED, write(tmp_path, "student,exercise,question,answer\ns1,8/2,a\n"), variants=False)
    assert by_question(report, "s1")[1][("8/2", "a")].parts[0].status == "invalid"
    short = grade(SEED, write(tmp_path, "student,exercise,question,answer\ns1,8/2,a,1\ns1,8/2\n", "short.csv"),
                  variants=False)
    assert short.problems == [f"{tmp_path / 'short.csv'}:3: the row has 2 fields, no question; not graded"]


def test_most_common_mistakes_first(tmp_path):
    text = ("student,exercise,question,answer\n"
            "a,8/2,b,0.7\n"        # AP ÷ 3 relevant retrieved instead of ÷ 5
            "b,8/2,b,0.7\n"
            "c,8/2,b,42\n"         # a percentage without its % sign
            "c,8/3,b,0.5056\n"     # MAP with each AP ÷ relevant retrieved
            "d,8/2,a,0.6\n")
    report = grade(SEED, write(tmp_path, text), variants=False, exercises=["8/2", "8/3"])
    summary = report.mistake_summary()
    assert [(m["mistake"], m["answers"], m["students"]) for m in summary] == [
        ("ap-divided-by-relevant-retrieved", 3, 3), ("percent-without-sign", 1, 1)]
    assert summary[0]["questions"] == ["8/2 b", "8/3 b"]
    assert {s.student: s.score for s in report.students} == {"a": 0, "b": 0, "c": 0, "d": 1}
    assert all(s.max_score == 5 for s in report.students)  # 8/2 a-c and 8/3 a-b


def test_semicolon_separated_files_with_decimal_commas(tmp_path):
    text = "student;exercise;question;answer\ns1;8/2;a;0,6\ns1;8/2;b;\"0,7\"\n"
    report = grade(SEED, write(tmp_path, text), variants=False, exercises=["8/2"])
    scores = [q.score for q in report.students[0].questions]
    assert scores == [1, 0, 0]
    assert report.students[0].questions[1].parts[0].mistake == "ap-divided-by-relevant-retrieved"
    quoted = 'student,exercise,question,answer\ns1,8/2,a,"0,6"\n'
    assert grade(SEED, write(tmp_path, quoted, "q.csv"), variants=False).students[0].score == 1


def test_a_question_may_give_partial_credit_for_a_recognised_mistake(tmp_path):
    exercise = tmp_path / "x.toml"
    exercise.write_text('''title = "AP"
[[exercise]]
id = "1"
statement = "{ranking} with R = {relevant}"
[exercise.parameters]
ranking = "RNNRR"
relevant = 5
[[exercise.question]]
id = "a"
text = "AP?"
solver = "ap"
mistake_credit = "1/2"
''')
    # 7/10 divides by the 3 relevant retrieved instead of R = 5: a named mistake, half the credit
    answers = write(tmp_path, "student,exercise,question,answer\ns1,1,a,0.7\ns2,1,a,0.9\ns3,1,a,21/50\n")
    report = grade(exercise, answers, variants=False)
    scores = {s.student: s.score for s in report.students}
    assert scores == {"s1": F(1, 2), "s2": 0, "s3": 1}
    bad = tmp_path / "bad.toml"
    bad.write_text(exercise.read_text().replace('"1/2"', '"2"'))
    with pytest.raises(InputFileError, match="key 'mistake_credit': must be a share of the part's credit between 0 and 1"):
        grade(bad, answers, variants=False)  # a broken set never grades (not even the rows it could)
