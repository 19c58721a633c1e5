"""The plain path remembers values (irlab.metrics.plain._VALUES: DCG and nDCG by the grades they read;
irlab.homework.plain_answers._VALUES: a question's parts by solver and ranking). A remembered value must be the very
value computed afresh — same number, same type (an exact Fraction stays exact, a double the same double) — whatever
was computed before it; tests/test_screening.py checks the values themselves against the explained metrics."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given, settings, strategies as st

from fractions import Fraction

from irlab import conventions as conv
from irlab.exercise_set import Where, check_consistency
from irlab.homework import plain_answers
from irlab.homework.drawing import variant_set
from irlab.homework.mistakes import rewrites
from irlab.limits import MAX_CUTOFF, MAX_GRADE
from irlab.metric import check_cutoff
from irlab.metrics import plain
from irlab.ranking import Ranking

ROOT = Path(__file__).resolve().parents[1]

_OPTIONS = st.fixed_dictionaries({"k": st.sampled_from([None, 1, 2, 3, 4, 5, 6, 8]),
                                  "gain": st.sampled_from([None, "exp", "linear"]),
                                  "discount": st.sampled_from([None, "log2-rank-plus-1", "log2-rank",
                                                               "reciprocal-rank"])})
_RANKING = st.builds(lambda grades, unretrieved: Ranking.from_grades(grades, unretrieved=tuple(unretrieved)),
                     st.lists(st.integers(0, 3), min_size=1, max_size=8), st.lists(st.integers(0, 3), max_size=3))


def _forget():
    for remembered in (plain._VALUES, plain._SUMS, plain._GRADED):
        remembered.clear()


def _afresh(compute, ranking, options):
    _forget()
    return compute(ranking, **options)


def _identical(a, b) -> bool:
    return type(a) is type(b) and a == b


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(_RANKING, _OPTIONS, st.sampled_from(["dcg", "ndcg"])), min_size=1, max_size=12))
def test_a_remembered_dcg_or_ndcg_is_the_value_computed_afresh(cases):
    _forget()
    remembered = []
    for ranking, options, name in cases:  # one after another: later cases may find what earlier ones left
        options = {key: value for key, value in options.items() if value is not None}
        remembered.append(plain.PLAIN[name][0](ranking, **options))
    for (ranking, options, name), value in zip(cases, remembered):
        options = {key: value for key, value in options.items() if value is not None}
        assert _identical(value, _afresh(plain.PLAIN[name][0], ranking, options)), (ranking, options, name)


def test_equal_grades_share_a_value_and_different_ones_do_not():
    _forget()
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
    _forget()
    seen = [(case, _parts_of_every_rewrite(*case, {})) for student in students
            for case in _variant_params(f"s{student}")]  # the later students' draws may find earlier values
    for case, parts in seen:
        plain_answers._VALUES.clear()
        _forget()
        afresh = _parts_of_every_rewrite(*case, None)
        assert len(parts) == len(afresh)
        for mine, theirs in zip(parts, afresh):
            if isinstance(theirs, tuple):  # (error type, message)
                assert mine == theirs
            else:
                assert [name for name, _ in mine] == [name for name, _ in theirs]
                assert all(_identical(a, b) for (_, a), (_, b) in zip(mine, theirs)), (case[1].id, mine, theirs)


def _read_one_by_one(ranking, k, gain, discount, gains, log_base):
    """What plain.dcg and plain.ndcg read before summing, check by check in their order, nothing remembered."""
    plain._plain(ranking)
    k = check_cutoff(k)
    depth = ranking.retrieved if k is None else min(k, ranking.retrieved)
    if gains is not None or log_base not in (None, 2):
        raise plain.Unsupported("a gain table or another log base")
    gain, discount = conv.GAIN.choice(gain).key, conv.DISCOUNT.choice(discount).key
    if gain == "exp" and any(g > MAX_GRADE for g in ranking.grades + ranking.unretrieved):
        raise plain.Unsupported("a grade above the exponential gain's bound")
    return k, depth, gain, discount


def _outcome(read, *args):
    try:
        return read(*args)
    except Exception as error:
        return type(error), str(error)


_ODD_RANKINGS = st.sampled_from([Ranking.from_grades([0, 3], scores=[2, 1]), Ranking.parse(""),
                                 Ranking.from_grades([MAX_GRADE + 1, 0]), Ranking.from_grades([1], unretrieved=(40,)),
                                 Ranking.parse("RNR", relevant=4), "RNR"])


@settings(max_examples=400, deadline=None)
@given(_RANKING | _ODD_RANKINGS,
       st.sampled_from([None, 1, 3, 5, 0, -2, 2.0, "3", True, Fraction(4), Fraction(1, 2), MAX_CUTOFF, MAX_CUTOFF + 1]),
       st.sampled_from([None, "exp", "linear", "LINEAR", " exp", "cubic", 3]),
       st.sampled_from([None, "log2-rank", "log2-rank-plus-1", "reciprocal-rank", "log2_rank", "none", 1.5]),
       st.sampled_from([None, None, "1=2"]), st.sampled_from([None, 2, 2, 10]))
def test_a_remembered_reading_of_a_dcg_is_the_checks_read_one_by_one(ranking, k, gain, discount, gains, log_base):
    _forget()
    expected = _outcome(_read_one_by_one, ranking, k, gain, discount, gains, log_base)
    for _ in range(2):  # afresh, then with what the first reading remembered
        assert _outcome(plain._dcg_reading, ranking, k, gain, discount, gains, log_base) == expected
