"""Free-text questions with choices and correct: graded automatically by the letters a student names."""

import json
import re
import pytest

from irlab.errors import InputFileError
from irlab.exercise_set import solve
from irlab.homework import answer_key_document, sheet_document
from irlab.homework.feedback import check
from irlab.solvers.choices import correct_letters, judge

SET = """title = "choices"
[[exercise]]
id = "1"
statement = "Two systems were compared on three queries."
[[exercise.question]]
id = "a"
text = "Which system has the higher MAP?"
solver = "free-text"
choices = ["system 1", "system 2", "they tie"]
correct = "b"
[[exercise.question]]
id = "b"
text = "Which measures need a judgment of every retrieved document?"
solver = "free-text"
choices = ["P@10", "bpref", "nDCG", "infAP"]
correct = ["a", "C"]
model_answer = "P@10 and nDCG count an unjudged document as non-relevant; bpref and infAP are built for gaps."
"""


@pytest.fixture
def exercise_set(tmp_path):
    path = tmp_path / "choices.toml"
    path.write_text(SET)
    return path


@pytest.mark.parametrize("answer, verdict", [
    ("b", True), (" B ", True), ("(b)", True), ("b, b", True), ("b.", True), ("b)", True),
    ("a", False), ("b, c", False),
    ("", None), ("d", None), ("system 2", None), ("2", None),
])
def test_one_right_option(exercise_set, answer, verdict):
    feedback = check(exercise_set, "1", "a", answer)
    status = {True: "correct", False: "wrong", None: "invalid"}[verdict]
    assert [p.status for p in feedback.parts] == [status]
    assert feedback.parts[0].credit == (1 if verdict else 0)


@pytest.mark.parametrize("answer, verdict", [
    ("a, c", True), ("C A", True), ("ca", True), ("c;a", True), ("A/C", True), ("a & c", True),
    ("a", False), ("c", False), ("a, b, c", False), ("b, d", False),
    ("a, e", None),
])
def test_several_right_options(exercise_set, answer, verdict):
    part = check(exercise_set, "1", "b", answer).parts[0]
    assert part.status == {True: "correct", False: "wrong", None: "invalid"}[verdict]
    if verdict is False:
        assert "several options are right" in part.message and "(a), (c)" not in part.message  # not revealed


def test_the_class_is_graded(cli, exercise_set, tmp_path):
    answers = tmp_path / "answers.csv"
    answers.write_text("student,exercise,question,answer\n"
                       "ann,1,a,B\nann,1,b,\"c, a\"\n"
                       "bob,1,a,a\nbob,1,b,a\n"
                       "cid,1,a,system 2\n")
    data = json.loads(cli("grade", str(exercise_set), str(answers), "--format", "json").stdout)
    scores = {s["student"]: s["score"] for s in data["students"]}
    assert scores == {"ann": "2", "bob": "0", "cid": "0"}
    cid = next(s for s in data["students"] if s["student"] == "cid")
    assert [p["status"] for q in cid["questions"] for p in q["parts"]] == ["invalid", "missing"]


def test_key_sheet_and_solution(exercise_set):
    text = solve(exercise_set).render("text")
    assert "Right option: (b) system 2" in text
    assert "Right options: (a) P@10; (c) nDCG" in text and "every right option must be named" in text
    assert "a choice question (the sheet says 'one answer')" in text
    assert "a choice question (the sheet says 'choose all that apply')" in text
    assert "Model answer: P@10 and nDCG" in text
    sheet = sheet_document(exercise_set, "ann").render("text")
    assert "(c) they tie" in sheet and "Right option" not in sheet and sheet.count("Your answer (letter)") == sheet.count("Your answer (letters)") == 1
    key = answer_key_document(exercise_set, "ann").render("text")
    assert "Right options: (a) P@10; (c) nDCG" in key


@pytest.mark.parametrize("fmt", ["text", "markdown", "latex", "html", "json"])
def test_renders_in_every_format(exercise_set, fmt):
    out = solve(exercise_set).render(fmt)
    assert "Right options:" in out and "nDCG" in out
    if fmt == "json":
        sections = json.loads(out)["sections"][0]["sections"]
        assert [s.get("correct") for s in sections] == [["b"], ["a", "c"]]


@pytest.mark.parametrize("question, message", [
    ('solver = "free-text"\ncorrect = "a"', "give the options in choices"),
    ('solver = "free-text"\nchoices = ["x", "y"]\ncorrect = "c"', "there is no option (c)"),
    ('solver = "free-text"\nchoices = ["x", "y"]\ncorrect = 1', "by letter"),
    ('solver = "free-text"\nchoices = ["x", "y"]\ncorrect = "a1"', "letters of the options"),
    ('solver = "free-text"\nmodel_answer = "x"\ncorrect = "a"\nchoices = ["x", "y"]\nmetric = "ap"', "metric"),
])
def test_bad_choice_questions(tmp_path, question, message):
    path = tmp_path / "set.toml"
    path.write_text(f'title = "t"\n[[exercise]]\nid = "1"\nstatement = "s"\n[[exercise.question]]\nid = "a"\n{question}\n')
    with pytest.raises(InputFileError, match=re.escape(message)) as raised:
        solve(path)
    assert "set.toml" in str(raised.value)


def test_letters_by_hand():
    assert correct_letters("b", 2) == frozenset("b")
    assert correct_letters(["c", "A"], 3) == frozenset("ac")
    right = frozenset("ac")
    assert judge("A, C", right, 3)[0] is True and judge("a", right, 3)[0] is False and judge("?", right, 3)[0] is None


@pytest.mark.parametrize("answer, verdict", [
    ("a and c", True), ("(a) P@10, (c) nDCG", True), ("a) P@10 and c) nDCG", True), ("(A)  p@10 ; (C) NDCG", True),
    ("(a) P@10, (c) bpref", None),  # the text after (c) is another option's
    ("banana", None), ("a or c", None),  # words are not read as letters: 'banana' is not (b), (a), (n)
])
def test_answers_written_in_words(exercise_set, answer, verdict):
    part = check(exercise_set, "1", "b", answer).parts[0]
    assert part.status == {True: "correct", False: "wrong", None: "invalid"}[verdict]


def test_messages_a_student_reads():
    right, choices = frozenset("ac"), ["P@10", "bpref", "nDCG", "infAP"]
    assert judge("banana", right, 4) == (None, "the answer 'banana' is not an option letter; write the letters of "
                                               "the options, such as 'b' or 'a, c' (the options are (a) to (d))")
    assert "'or' is not an option letter" in judge("a or c", right, 4)[1]
    assert "'bpref' after (c) is not the text of option (c)" in judge("(a) P@10, (c) bpref", right, 4, choices)[1]
    assert judge("", right, 4)[1].startswith("no answer given")
    assert judge(" c, A", right, 4)[1] == "Correct: (a) and (c)."
    assert judge("a, b, c", right, 4)[1] == ("Not quite: you picked (a), (b) and (c), which is not the right set of "
                                             "options (several options are right: name every one of them, and no "
                                             "other).")
    one = frozenset("b")
    assert judge("a", one, 3)[1] == "Not quite: (a) is not the right option (exactly one option is right)."
    assert judge("b c", one, 3)[1] == "Not quite: you picked (b) and (c), but exactly one option is right."


def test_the_sheet_says_how_many_options_to_pick(exercise_set, tmp_path):
    sheet = sheet_document(exercise_set, "ann").render("text")
    assert "a) Which system has the higher MAP? (one answer)" in sheet
    assert "b) Which measures need a judgment of every retrieved document? (choose all that apply)" in sheet
    bad = tmp_path / "bad.toml"
    bad.write_text(SET.replace('correct = "b"', 'correct = "z"'))
    with pytest.raises(InputFileError, match=r"bad.toml: exercise 1, question a, key 'correct'.*no option \(z\)"):
        sheet_document(bad, "ann")


def test_the_answers_only_key_keeps_the_right_options(cli, exercise_set):
    from irlab.document import answers_only

    key = answers_only(answer_key_document(exercise_set, "ann")).render("text")
    assert "Right option: (b) system 2" in key and "Right options: (a) P@10; (c) nDCG" in key
    assert "Model answer: P@10 and nDCG" in key and "Options:" not in key  # the answers, without the rest
    done = cli("solve", str(exercise_set), "--answers-only")
    assert done.returncode == 0 and "Right option: (b) system 2" in done.stdout
