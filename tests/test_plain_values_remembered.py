"""The plain path remembers values (irlab.metrics.plain._VALUES: DCG and nDCG by the grades they read;
irlab.homework.plain_answers._VALUES: a question's parts by solver and ranking). A remembered value must be the very
value computed afresh — same number, same type (an exact Fraction stays exact, a double the same double) — whatever
was computed before it; tests/test_screening.py checks the values themselves against the explained metrics."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given, settings, strategies as st

from irlab.exercise_set import Where, check_consistency
from irlab.homework import plain_answers
from irlab.homework.drawing import variant_set
from irlab.homework.mistakes import rewrites
from irlab.metrics import plain
from irlab.ranking import Ranking

ROOT = Path(__file__).resolve().parents[1]

_OPTIONS = st.fixed_dictionaries({"k": st.sampled_from([None, 1, 2, 3, 4, 5, 6, 8]),
                                  "gain": st.sampled_from([None, "exp", "linear"]),
                                  "discount": st.sampled_from([None, "log2-rank-plus-1", "log2-rank",
                                                               "reciprocal-rank"])})
_RANKING = st.builds(lambda grades, unretrieved: Ranking.from_grades(grades, unretrieved=tuple(unretrieved)),
                     st.lists(st.integers(0, 3), min_size=1, max_size=8), st.lists(st.integers(0, 3), max_size=3))


def _afresh(compute, ranking, options):
    plain._VALUES.clear()
    return compute(ranking, **options)


def _identical(a, b) -> bool:
    return type(a) is type(b) and a == b


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(_RANKING, _OPTIONS, st.sampled_from(["dcg", "ndcg"])), min_size=1, max_size=12))
def test_a_remembered_dcg_or_ndcg_is_the_value_computed_afresh(cases):
    plain._VALUES.clear()
    remembered = []
    for ranking, options, name in cases:  # one after another: later cases may find what earlier ones left
        options = {key: value for key, value in options.items() if value is not None}
        remembered.append(plain.PLAIN[name][0](ranking, **options))
    for (ranking, options, name), value in zip(cases, remembered):
        options = {key: value for key, value in options.items() if value is not None}
        assert _identical(value, _afresh(plain.PLAIN[name][0], ranking, options)), (ranking, options, name)


def test_equal_grades_share_a_value_and_different_ones_do_not():
    plain._VALUES.clear()
    first = plain.ndcg(Ranking.from_grades([3, 0, 2], unretrieved=(1,)), k=2)
    # the same top 2 and the same ideal top 2 ([3, 2]): the same nDCG@2, whatever follows
    assert plain.ndcg(Ranking.from_grades([3, 0, 1, 2]), k=2) is first
    other = plain.ndcg(Ranking.from_grades([3, 0, 2], unretrieved=(3,)), k=2)  # ideal top 2 is [3, 3]
    assert other < first
    linear = plain.ndcg(Ranking.from_grades([3, 0, 2], unretrieved=(1,)), k=2, gain="linear")
    assert linear != first  # 3 / (3 + 2/log2 3) against 7 / (7 + 3/log2 3)


def _variant_params(student: str):
    exercise_set = variant_set(ROOT / "exercises" / "homework-variants.toml", student=student, seed="remembered")
    for exercise in exercise_set.exercises:
        params, _ = check_consistency(exercise, exercise_set.path)
        yield exercise_set.path, exercise, params


def _parts_of_every_rewrite(path, exercise, params, memo):
    found = []
    for question in exercise.questions:
        where = Where(path, exercise.id, question.id)
        for rewritten, rewrite_params in [(question, params)] + [(r.question, r.params) for _, r in
                                                                rewrites(question, params, path)]:
            try:
                found.append(plain_answers.plain_parts(rewrite_params, rewritten, where, memo))
            except Exception as error:  # a refusal is raised each time, in its words
                found.append((type(error), str(error)))
    return found


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(0, 400), min_size=1, max_size=6))
def test_a_questions_remembered_parts_are_the_parts_computed_afresh(students):
    plain_answers._VALUES.clear()
    plain._VALUES.clear()
    seen = [(case, _parts_of_every_rewrite(*case, {})) for student in students
            for case in _variant_params(f"s{student}")]  # the later students' draws may find earlier values
    for case, parts in seen:
        plain_answers._VALUES.clear()
        plain._VALUES.clear()
        afresh = _parts_of_every_rewrite(*case, None)
        assert len(parts) == len(afresh)
        for mine, theirs in zip(parts, afresh):
            if isinstance(theirs, tuple):  # (error type, message)
                assert mine == theirs
            else:
                assert [name for name, _ in mine] == [name for name, _ in theirs]
                assert all(_identical(a, b) for (_, a), (_, b) in zip(mine, theirs)), (case[1].id, mine, theirs)
