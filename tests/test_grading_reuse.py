"""Grading reuses what many rows share (issue 28, item 4): the missing parts of an unanswered question, the feedback on
an answer to a shared sheet (an LMS quiz's variant, the set as written), a question's cells in the CSV report, and
SafeWriter's cells. Every report must be byte for byte the one grading each row afresh gives (``grading._REUSE``
off), on generated Moodle and Canvas exports and irlab CSVs with repeated, right, mistaken, blank and hostile answers.
"""

import csv
import io
import random
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from irlab import exact, spreadsheet
from irlab.homework import grading, variant_code
from irlab.homework.grading import clear_caches
from irlab.homework.key import answer_key
from irlab.lms.bank import question_name, variant_student
from irlab.lms.responses import grade
from test_lms_responses import HOSTILE, SEED, SET, SET_ID, _addresses  # the fixtures' set and hostile cells

ROOT = Path(__file__).resolve().parents[1]
FORMATS = ("csv", "json", "text", "markdown", "canvas", "moodle")
PARTS = _addresses()  # (exercise, question, part or None) of every numeric part of the set


def _answer(rng: random.Random, exercise, question, part, variant) -> str:
    key = answer_key(SET, exercise, question, variant_student(variant), SEED)
    target = key.parts[0 if part is None else int(part) - 1]
    roll = rng.random()
    if roll < 0.4:
        value = target.result.value
        return rng.choice([exact.decimal_text(value), exact.decimal_text(value, 2), f"{exact.to_float(value):.4f}"])
    if roll < 0.6 and key.mistaken(target):
        return exact.decimal_text(rng.choice(key.mistaken(target))[1].value)
    if roll < 0.75:
        return rng.choice(["0.5", "0,5", "1/3", "50%", "0.123"])
    return rng.choice(["", "-", " ", *HOSTILE])


def _moodle(rng: random.Random, attempts: int, variants: int, slots: int) -> str:
    header = ["Surname", "First name", "Email address", "State", "Started on", "Completed", "Time taken", "Grade/10.00"]
    for slot in range(1, slots + 1):
        header += [f"Question {slot}", f"Response {slot}", f"Right answer {slot}"]
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(header)
    for number in range(attempts):
        student = rng.choice([f"s{number}@example.org", f"s{number % 7}@example.org"])  # some attempt twice
        cells = [f"S{number}", "A.", student, "Finished", "x", "y", "1 min", "1.00"]
        for slot in range(slots):
            exercise, question, part = rng.choice(PARTS)
            variant = rng.randint(1, variants)
            code = variant_code(SET_ID, variant_student(variant), SEED)
            answer = _answer(rng, exercise, question, part, variant)
            cells += [f"{question_name(SET_ID, exercise, question, part, code)} ?", answer or "-", "0"]
        writer.writerow(cells)
    return out.getvalue()


def _canvas(rng: random.Random, students: int, variants: int) -> str:
    columns = [(rng.randint(0, 2), *rng.choice(PARTS)) for _ in range(6)]
    header = ["name", "id", "sis_id", "section", "section_id", "section_sis_id", "submitted", "attempt"]
    for n, (variant, exercise, question, part) in enumerate(columns, 100):
        code = variant_code(SET_ID, variant_student(variant % variants + 1), SEED)
        header += [f"{n}: {question_name(SET_ID, exercise, question, part, code)} ?", "1.0"]
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(header + ["n correct", "n incorrect", "score"])
    for uid in range(students):
        cells = [f"S{uid}", str(uid), f"sis{uid}", "IR", "5", "A", "2026-01-20", "1"]
        for variant, exercise, question, part in columns:
            given = rng.random() < 0.6
            cells += [_answer(rng, exercise, question, part, variant % variants + 1), "0.0"] if given else ["", ""]
        writer.writerow(cells + ["0", "0", "0.0"])
    return out.getvalue()


def _irlab_csv(rng: random.Random, students: int) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["student", "exercise", "question", "answer"])
    for number in range(students):
        for exercise, question, part in rng.sample(PARTS, 4):
            address = question if part is None else f"{question}.{part}"
            key = answer_key(SET, exercise, question)
            target = key.parts[0 if part is None else int(part) - 1]
            answer = exact.decimal_text(target.result.value) if rng.random() < 0.5 else rng.choice(["0.5", "", *HOSTILE])
            writer.writerow([f"s{number}", exercise, address, answer])
    return out.getvalue()


def _reports(path, monkeypatch, reuse: bool, **options) -> dict:
    monkeypatch.setattr(grading, "_REUSE", reuse)
    clear_caches()
    report = grade(SET, path, **options)
    out = {}
    for fmt in FORMATS:
        stream = io.StringIO()
        report.write(fmt, stream)
        out[fmt] = stream.getvalue()
    out["problems"], out["notes"] = report.problems, report.notes
    return out


@settings(max_examples=2, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_an_lms_export_grades_byte_for_byte_as_grading_every_row_afresh(tmp_path_factory, seed):
    monkeypatch = pytest.MonkeyPatch()
    try:
        rng = random.Random(seed)
        folder = tmp_path_factory.mktemp("exports")
        (folder / "moodle.csv").write_text(_moodle(rng, 30, rng.randint(1, 3), rng.randint(1, 4)), encoding="utf-8")
        (folder / "canvas.csv").write_text(_canvas(rng, 20, rng.randint(1, 3)), encoding="utf-8")
        for name in ("moodle.csv", "canvas.csv"):
            fast = _reports(folder / name, monkeypatch, True, seed=SEED)
            assert fast == _reports(folder / name, monkeypatch, False, seed=SEED)
            assert "No answer submitted." in fast["csv"]  # unanswered questions' shared parts were written
        (folder / "answers.csv").write_text(_irlab_csv(rng, 30), encoding="utf-8")  # one sheet: the set as written
        as_written = _reports(folder / "answers.csv", monkeypatch, True, variants=False)
        assert as_written == _reports(folder / "answers.csv", monkeypatch, False, variants=False)
    finally:
        monkeypatch.undo()


def test_the_shipped_sample_grades_as_before_with_a_roster(monkeypatch):
    options = dict(seed="2026", roster=ROOT / "exercises" / "sample-roster.csv")
    sample = ROOT / "exercises" / "sample-answers.csv"
    chapter8 = ROOT / "exercises" / "chapter8-book.toml"
    outputs = []
    for reuse in (True, False):
        monkeypatch.setattr(grading, "_REUSE", reuse)
        clear_caches()
        report = grading.grade(chapter8, sample, **options)
        outputs.append([report.render(fmt) for fmt in FORMATS])
    assert outputs[0] == outputs[1]


CELLS = st.one_of(st.text(alphabet="=+-@;\t\r\n\"', 0aé", max_size=6), st.integers(-5, 5),
                  st.sampled_from(HOSTILE), st.none())


@settings(max_examples=200, deadline=None)
@given(st.lists(st.lists(CELLS, min_size=1, max_size=5), min_size=1, max_size=12))
def test_a_safe_writer_writes_each_row_as_a_fresh_writer_does(rows):
    """SafeWriter remembers the cells it has made safe (and forgets them past _MEMO_SIZE): the same bytes as a writer
    that has seen nothing, and write_joined as writerow."""
    shared, joined = io.StringIO(), io.StringIO()
    writer, other = spreadsheet.writer(shared), spreadsheet.writer(joined)
    for row in rows * 2:
        writer.writerow(row)
        if len(row) > 1:
            other.write_joined(row[0], other.joined(row[1:]))
        else:
            other.writerow(row)
    fresh = io.StringIO()
    for row in rows * 2:
        spreadsheet.writer(fresh).writerow(row)
    assert shared.getvalue() == fresh.getvalue() == joined.getvalue()


def test_a_safe_writer_past_its_memo_size_writes_the_same(monkeypatch):
    monkeypatch.setattr(spreadsheet, "_MEMO_SIZE", 3)
    rows = [[f"=s{i % 5}", f"-{i % 4}", "a;=b", i] for i in range(40)]
    small, fresh = io.StringIO(), io.StringIO()
    writer = spreadsheet.writer(small)
    for row in rows:
        writer.writerow(row)
        spreadsheet.writer(fresh).writerow(row)
    assert small.getvalue() == fresh.getvalue()
    assert small.getvalue().startswith("'=s0,-0,a;'=b,0\n'=s1,-1,")  # a signed number is text only first


@given(st.lists(st.fractions(min_value=0, max_value=1, max_denominator=12), max_size=40))
def test_a_question_summed_and_medianed_over_its_distinct_scores_is_the_same_as_over_every_score(scores):
    counts: dict = {}
    for score in scores:
        counts[score] = counts.get(score, 0) + 1
    assert grading._median_of_counts(counts) == grading._median(scores)
    assert grading._exact_sum(list(counts), list(counts.values())) == sum(scores, Fraction(0))


def test_a_question_object_written_from_its_shared_text_is_what_write_json_writes():
    from irlab.homework.jsonstream import fragment
    part = grading.missing_part(answer_key(SET, "1", "a"), answer_key(SET, "1", "a").parts[0])
    writer = grading._StudentJson()  # one writer: the question's text is made once, then joined with each one's lines
    for lines in ((), (3,), (4, 17), ()):
        student = grading.StudentGrade("s1", [grading.QuestionGrade("s1", "1", "a", [part], lines)])
        expected = fragment(grading._student_json(student), grading._STUDENT_LEVEL).text
        assert writer(student) == expected
        assert ('"lines": []' in expected) == (not lines)
    assert len(writer.memo) == 1


PLAIN = st.text(alphabet="aZ09_.@-=+ ;,\"\t'é", max_size=8)


@settings(max_examples=300, deadline=None)
@given(st.lists(PLAIN, min_size=1, max_size=6))
def test_a_plain_cell_written_without_its_memo_is_what_the_full_rule_writes(cells):
    """SafeWriter writes a cell of ASCII letters, digits and '_.@-' that starts with a letter, digit or '_' as it is,
    without the formula check: the same text as the rule itself gives, first in a row and after it."""
    writer = spreadsheet.writer(io.StringIO())
    for cell in cells:
        assert writer.first_cell(cell) == spreadsheet._first_field(cell)
        assert writer.joined([cell]) == spreadsheet._plain_field(cell)


def test_each_student_has_their_own_grades_of_the_questions_the_class_left_unanswered(tmp_path, monkeypatch):
    """The report keeps one grade of a question left unanswered for the whole class; StudentGrade.questions gives
    every student their own objects, field for field what grading every row afresh gives, and the reports stay."""
    rng = random.Random(7)
    (tmp_path / "moodle.csv").write_text(_moodle(rng, 25, 2, 2), encoding="utf-8")
    monkeypatch.setattr(grading, "_REUSE", False)
    clear_caches()
    afresh = grade(SET, tmp_path / "moodle.csv", SEED)
    monkeypatch.setattr(grading, "_REUSE", True)
    clear_caches()
    report = grade(SET, tmp_path / "moodle.csv", SEED)
    before = {fmt: report.render(fmt) for fmt in FORMATS}
    shared = list({id(q): q for s in report.students for q in s.question_grades if not q.lines}.values())
    assert len(shared) == len(report.questions)  # one grade per question for everyone who left it unanswered
    for student, other in zip(report.students, afresh.students):
        mine = student.questions
        assert all(q.student == student.student for q in mine)
        assert [(q.student, q.exercise, q.question, q.parts, q.lines, q.row_status) for q in mine] == \
               [(q.student, q.exercise, q.question, q.parts, q.lines, q.row_status) for q in other.questions]
        assert student.questions is mine and not any(q is blank for q in mine for blank in shared)  # made once
    assert {fmt: report.render(fmt) for fmt in FORMATS} == before


def test_a_student_without_questions_to_grade_has_only_a_total_row():
    """A class graded on free-text questions only has no question to score: each student's CSV rows are the total."""
    report = grading.GradeReport("set.toml", "answers.csv", None, [grading.StudentGrade("-a", [])], [])
    assert report.render("csv").splitlines() == [
        "student,exercise,question,score,max,answer,mistakes,feedback,status,lines", "'-a,,total,0,0,,,,total,"]
