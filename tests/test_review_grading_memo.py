"""Adversarial review of what the screen reads once (plain_answers._prepared / _per_draw, mistakes._plan; 6e4045a,
ed3af7d, c14ab12): a question whose options name a parameter (k = "{length}") must be read anew on every draw, so
one draw's reading is never served for another's. Checked over many draws against the explained solver and against
the catalogue's rewrites built afresh on each draw's parameters."""

from __future__ import annotations

import math
import random
from dataclasses import replace
from fractions import Fraction

from irlab import exact
from irlab.exercise_set import Where, load, resolve_question, solve_question
from irlab.homework import plain_answers
from irlab.homework.drawing import _count_problem, draw_parameters
from irlab.homework.mistakes import MISTAKES, rewrites

NAMING_SET = '''
id = "naming"
title = "Options naming parameters"

[[exercise]]
id = "1"
title = "Cut-offs drawn with the list"
statement = "{ranking}"
[exercise.parameters]
ranking = "RNRNNR"
relevant = 4
[exercise.variants]
ranking = { length = [3, 9], relevant = [1, 3] }
relevant = [3, 6]
[[exercise.question]]
id = "a"
solver = "precision"
k = "{length}"
[[exercise.question]]
id = "b"
solver = "recall"
k = "{relevant}"
[[exercise.question]]
id = "c"
solver = "precision"
k = "{relevant}"
[[exercise.question]]
id = "d"
solver = "precision"
k = 2
[[exercise.question]]
id = "e"
solver = "ndcg"
k = "{relevant_shown}"
[[exercise.question]]
id = "f"
solver = "ndcg"
'''


def _close(plain, explained) -> bool:
    if isinstance(plain, float):
        return math.isclose(plain, exact.to_float(explained), rel_tol=1e-12, abs_tol=1e-15)
    return plain == explained


def _fresh_rewrites(question, params):
    """The catalogue's rewrites as they were made before the plans: the question resolved on these parameters."""
    resolved = resolve_question(question, params)
    return [(mistake.name, rewrite.question.solver, rewrite.question.options, rewrite.params, rewrite.context)
            for mistake in MISTAKES if mistake.rewrite is not None for rewrite in mistake.rewrite(resolved, params)]


def test_questions_naming_parameters_are_read_on_each_draw(tmp_path):
    path = tmp_path / "naming.toml"
    path.write_text(NAMING_SET, encoding="utf-8")
    exercise = load(path).exercises[0]
    rng = random.Random(40)
    seen_k = set()
    compared = 0
    for _ in range(150):
        params = dict(draw_parameters(exercise, rng, path))
        if _count_problem(params) is not None:
            continue
        memo: dict = {}  # one draw's memo, as the screen keeps it; the module's readings live across draws
        for question in exercise.questions:
            where = Where(path, exercise.id, question.id)
            try:
                explained = [answer.result.value for answer in solve_question(params, question, where).primary]
            except Exception:  # a draw the drawing refuses (k beyond the list, recall undefined)
                continue
            plain = plain_answers.plain_parts(params, question, where, memo)
            assert len(plain) == len(explained) and all(_close(p, e) for (_, p), e in zip(plain, explained)), \
                (question.id, params, plain, explained)
            made = [(mistake.name, rewrite.question.solver, rewrite.question.options, rewrite.params, rewrite.context)
                    for mistake, rewrite in rewrites(question, params, path)]
            assert made == _fresh_rewrites(question, params), (question.id, params)
            for mistake, rewrite in rewrites(question, params, path):  # each rewrite's plain value, as solved
                try:
                    solved = solve_question(rewrite.params, rewrite.question, where).primary
                except Exception:
                    continue
                mistaken = plain_answers.plain_parts(rewrite.params, rewrite.question, where, memo)
                assert all(_close(p, s.result.value) for (_, p), s in zip(mistaken, solved)), (mistake.name, params)
                compared += 1
            if question.id == "c":
                seen_k.add(resolve_question(question, params).options["k"])
    assert len(seen_k) >= 3 and compared > 300, (seen_k, compared)


def test_a_question_copied_with_other_options_is_not_read_as_the_original(tmp_path):
    # a question copied with another cut-off (as a mistake's rewrite makes it) never takes the original's reading,
    # even while the original's is kept: precision at 2 and at 5 of the same list differ
    path = tmp_path / "naming.toml"
    path.write_text(NAMING_SET, encoding="utf-8")
    exercise = load(path).exercises[0]
    question = next(q for q in exercise.questions if q.id == "d")
    params = dict(exercise.parameters)
    where = Where(path, exercise.id, question.id)
    memo: dict = {}
    at_two = plain_answers.plain_parts(params, question, where, memo)
    copied = replace(question, options={**question.options, "k": 5})
    at_five = plain_answers.plain_parts(params, copied, where, memo)
    assert at_two[0][1] == Fraction(1, 2)  # RNRNNR: 1 of the top 2, 2 of the top 5
    assert at_five[0][1] == solve_question(params, copied, where).primary[0].result.value == Fraction(2, 5)
