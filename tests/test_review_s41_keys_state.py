"""Review of this session's remembered answer-key parts across gradings in one process.

The keys made from plain values learn a question's wording (irlab.homework.plain_key._LEARNED) and a draw's parts
(_DRAWN) from an earlier key; the tolerance and mistake credit are remembered per question and [grading] table
(irlab.homework.key_build._per_question). A second grading in the same process — the set file edited in between
(same size, the same draws, other options and grading table), or another set whose exercises, questions and draws
have the same ids — must grade exactly as a process that never saw the first.
"""

from __future__ import annotations

import csv
import os
import subprocess
import sys
from fractions import Fraction

from irlab import exact
from irlab.homework.grading import clear_caches
from irlab.homework.key import answer_key
from irlab.homework.plain_key import PlainResult
from irlab.lms.responses import grade

SET = """id = "edited"
title = "A set edited between two gradings"

[grading]
tolerance = "2%"
mistake_credit = "1/2"

[[exercise]]
id = "1"
statement = "The list {ranking} of {length} documents; R = {relevant}."
[exercise.parameters]
ranking = "RNRRNNRNNR"
relevant = 7
[exercise.variants]
ranking = { length = [6, 9], relevant = [2, 4] }
relevant = [4, 6]
[[exercise.question]]
id = "a"
text = "P@k"
solver = "precision"
k = 3
allow_degenerate = true
[[exercise.question]]
id = "b"
text = "iprec"
solver = "iprec"
recall_level = "25%"
allow_degenerate = true
[[exercise.question]]
id = "c"
text = "F"
solver = "f"
beta = 2
allow_degenerate = true
[[exercise.question]]
id = "e"
text = "AP (not edited: its grading table is)"
solver = "ap"
allow_degenerate = true
[[exercise.question]]
id = "d"
text = "nDCG@k"
solver = "ndcg"
k = 3
allow_degenerate = true

[[exercise]]
id = "2"
statement = "{judgments}; retrieved {retrieved}"
[exercise.parameters]
judgments = [[1, 1, 1], [2, 1, 0], [3, 0, 0], [4, 1, 1]]
retrieved = [1, 2]
[exercise.variants]
judgments = { documents = [5, 7], judges = 2 }
retrieved = { count = [2, 4] }
[[exercise.question]]
id = "a"
text = "aggregate"
solver = "aggregate"
rule = "any"
allow_degenerate = true
[[exercise.question]]
id = "b"
text = "kappa"
solver = "kappa"
kappa_marginals = "pooled"
allow_degenerate = true
# padding
"""

# the same draws (the variants are untouched), every question's answer and the grading table changed; the edited
# text is padded to the same size (SET ends in a comment), so only the modification time tells the versions apart
EDITS = [('k = 3\nallow_degenerate = true\n[[exercise.question]]\nid = "b"',
          'k = 4\nallow_degenerate = true\n[[exercise.question]]\nid = "b"'),
         ('recall_level = "25%"', 'recall_level = "75%"'), ("beta = 2", "beta = 3"),
         ('k = 3\nallow_degenerate = true\n\n', 'k = 2\nallow_degenerate = true\n\n'),
         ('rule = "any"', 'rule = "all"'), ('"pooled"', '"per-judge"'),
         ('tolerance = "2%"', 'tolerance = "9%"'), ('mistake_credit = "1/2"', 'mistake_credit = "1/4"')]
STUDENTS = [f"s{number:02d}" for number in range(14)]
SEED = "edit"


def _edited(text: str) -> str:
    for old, new in EDITS:
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    return text[:len(SET) - 1] + "\n" if len(text) > len(SET) else text[:-1] + " " * (len(SET) - len(text)) + "\n"


def _written(path, text: str, stamp: int) -> None:
    path.write_text(text, encoding="utf-8")
    os.utime(path, ns=(stamp, stamp))  # (a stamp of its own: the edit is seen however fast it comes)


def _answers(path, answers_path) -> None:
    """Each student's answers as the set's current version keys them (see _answer): right for one version and
    mostly wrong for the other."""
    with answers_path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["student", "exercise", "question", "answer"])
        for number, student in enumerate(STUDENTS):
            for exercise, questions in (("1", "abcde"), ("2", "ab")):
                for question in questions:
                    key = answer_key(path, exercise, question, student, SEED)
                    values = [_answer(key, part, number) for part in key.parts]
                    writer.writerow([student, exercise, question, "; ".join(values)])


def _answer(key, part, number: int) -> str:
    """The right value, 5 % above it (within the edited tolerance only), a named mistake's value, or 0.3."""
    value = Fraction(exact.to_float(part.value)) if exact.is_symbolic(part.value) else Fraction(part.value)
    mistaken = [result.value for _, result, _ in key.mistaken(part) if not exact.is_symbolic(result.value)]
    choices = [exact.exact_text(value), exact.decimal_text(value * Fraction(105, 100), 6), "0.3",
               exact.exact_text(mistaken[0]) if mistaken else "1"]
    return choices[number % 4]


def _report(path, answers_path) -> str:
    report = grade(path, answers_path, SEED)
    return report.render("json") + report.render("text") + report.render("csv")


def _fresh_report(path, answers_path) -> str:
    """The report of a process that never graded anything else."""
    code = ("import sys; from irlab.lms.responses import grade; r = grade(sys.argv[1], sys.argv[2], sys.argv[3]); "
            "sys.stdout.write(r.render('json') + r.render('text') + r.render('csv'))")
    done = subprocess.run([sys.executable, "-c", code, str(path), str(answers_path), SEED], capture_output=True,
                          text=True, check=True)
    return done.stdout


def _shortcut_keys(path) -> int:
    return sum(isinstance(part.result, PlainResult) for student in STUDENTS for exercise, questions in
               (("1", "abcde"), ("2", "ab")) for question in questions
               for part in answer_key(path, exercise, question, student, SEED).parts)


def test_a_set_edited_between_two_gradings_is_graded_as_written_now(tmp_path):
    path, answers = tmp_path / "set.toml", tmp_path / "answers.csv"
    versions = [(SET, 10**18), (_edited(SET), 2 * 10**18), (SET, 3 * 10**18)]
    assert len(versions[1][0]) == len(SET) and versions[1][0] != SET
    clear_caches()
    _written(path, *versions[1])
    _answers(path, answers)  # answers right for the edited version (mostly wrong for the first)
    fresh = {}
    for text, stamp in versions[:2]:
        _written(path, text, stamp)
        fresh[text] = _fresh_report(path, answers)
    assert fresh[SET] != fresh[versions[1][0]]
    clear_caches()
    for number, (text, stamp) in enumerate(versions):
        _written(path, text, stamp)
        assert _report(path, answers) == fresh[text], f"version {number + 1}"
        assert _shortcut_keys(path) > 0  # keys made from learned wording or an earlier draw's parts
    clear_caches()


def test_two_sets_with_the_same_ids_graded_one_after_the_other(tmp_path):
    first, second, answers = tmp_path / "first.toml", tmp_path / "second.toml", tmp_path / "answers.csv"
    _written(first, SET, 10**18)
    _written(second, _edited(SET), 10**18)  # the same ids, draws, size and stamp: only the path tells them apart
    clear_caches()
    _answers(second, answers)
    fresh = {path: _fresh_report(path, answers) for path in (first, second)}
    clear_caches()
    for path in (first, second, first):
        assert _report(path, answers) == fresh[path], path.name
    assert _shortcut_keys(first) > 0
    clear_caches()
