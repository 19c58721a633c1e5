"""What the screen reads once per question (screening._judge) against what it read on every draw before.

A question's named mistakes are solved on the plain path through the solvers its judge read once; on random draws
of every variant exercise of exercises/*.toml, each mistaken value (or refusal) is the rewritten question's own plain
value (or refusal), in catalogue order. And fitting_both, handed only the mistakes the far test does not pass over,
finds what it finds among them all.
"""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

from hypothesis import given, settings, strategies as st

from irlab.exercise_set import Where, check_consistency, load
from irlab.homework import screening
from irlab.homework.diagnosis import fitting_both
from irlab.homework.drawing import _count_problem, _stated, draw_parameters
from irlab.homework.key_build import grading_defaults
from irlab.homework.mistakes import rewrites
from irlab.homework.plain_answers import plain_parts, solved_parts

ROOT = Path(__file__).resolve().parents[1]
VARIANT_EXERCISES = [(path, index) for path in sorted((ROOT / "exercises").glob("*.toml"))
                     for index, exercise in enumerate(load(path).exercises) if exercise.variants]


def _plain(compute):
    """(the values, or the refusal's type and words)."""
    try:
        return compute()
    except Exception as error:
        return type(error), str(error)


def _judged(case, seed: int):
    """(question, the parameters it is solved with, where, its judge, its plain values) of each question the screen
    judges on a draw of the exercise (none when the draw's counts do not go together)."""
    path, index = case
    exercise = load(path).exercises[index]
    params = draw_parameters(exercise, random.Random(seed), path)
    if _count_problem(params) is not None:
        return
    params = check_consistency(replace(exercise, parameters=params, stated=_stated(exercise, params)), path)[0]
    grading = grading_defaults(path)
    for question in exercise.questions:
        where = Where(path, None, question.id)
        judge = screening._judge(question, grading) if question.solver != "free-text" else screening.UNSURE
        values = _plain(lambda: plain_parts(params, question, where))
        if judge is not screening.UNSURE and isinstance(values, list):  # (else the screen stops at the question)
            yield question, params, where, judge, values


def test_every_variant_exercise_is_drawn_from():
    assert {path.name for path, _ in VARIANT_EXERCISES} >= {"homework-variants.toml", "chapter8-seed.toml"}


@settings(max_examples=400, deadline=None)
@given(st.sampled_from(VARIANT_EXERCISES), st.integers(0, 2**32))
def test_the_judges_mistaken_values_are_the_rewritten_questions_plain_values(case, seed):
    for question, params, where, judge, _ in _judged(case, seed):
        if judge.steps is None:  # (the screen then rewrites on every draw, as before)
            continue
        memo: dict = {}
        plain_parts(params, question, where, memo)  # the question first, as the screen reads it
        judged = []
        for mistake, solver, resolved in judge.steps:
            if solver is None:
                judged += [(mistake, _plain(lambda: plain_parts(rewrite.params, rewrite.question, where, memo)))
                           for rewrite in mistake.rewrite(resolved, params)]
            elif solver is screening._REFUSED:
                judged.append((mistake, "refused"))
            else:
                judged.append((mistake, _plain(lambda: solved_parts(solver, params, where, memo))))
        rewritten = [(mistake, _plain(lambda: plain_parts(rewrite.params, rewrite.question, where)))
                     for mistake, rewrite in rewrites(question, params, where.path)]
        assert [mistake for mistake, _ in judged] == [mistake for mistake, _ in rewritten]
        for (mistake, mine), (_, theirs) in zip(judged, rewritten):
            if mine == "refused":  # the plain path cannot read the rewritten question at all
                assert not isinstance(theirs, list), (question.id, mistake.name)
            else:
                assert mine == theirs, (case, question.id, mistake.name, params)


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(VARIANT_EXERCISES), st.integers(0, 2**32))
def test_fitting_both_finds_among_the_near_mistakes_what_it_finds_among_all(case, seed):
    for question, params, where, judge, values in _judged(case, seed):
        mistaken = [(mistake, found[0][1]) for mistake, rewrite in rewrites(question, params, where.path)
                    for found in [_plain(lambda: plain_parts(rewrite.params, rewrite.question, where))]
                    if isinstance(found, list)] + screening._SCALED
        for _, value in values:
            if isinstance(value, float) or any(isinstance(v, float) for _, v in mistaken):
                continue  # (values with logarithms are nudged first: tests/test_screening.py)
            passed = screening._passed_over(value, mistaken, judge.tolerance, judge.reach)
            if passed is None:
                continue
            near = [pair for pair, far in zip(mistaken, passed) if not far]
            assert (list(fitting_both(value, judge.tolerance, near))
                    == list(fitting_both(value, judge.tolerance, mistaken))), (question.id, params)
