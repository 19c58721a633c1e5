"""Properties every metric must have, on random rankings (hypothesis)."""

from fractions import Fraction as F

from hypothesis import given, settings
from hypothesis import strategies as st

from irlab import (
    Ranking, average_precision, cohen_kappa, dcg, eleven_point_average, expected_reciprocal_rank, f_measure,
    interpolated_precision, kendall_tau_distance, ndcg, normalized_err, precision, r_precision, recall,
    reciprocal_rank, spearman_rho,
)
from irlab.exact import to_float
from irlab.trace import steps

settings.register_profile("irlab", max_examples=60, deadline=None)
settings.load_profile("irlab")


@st.composite
def binary_rankings(draw):
    flags = draw(st.lists(st.sampled_from([0, 1]), min_size=1, max_size=12))
    missing = draw(st.integers(0, 4))
    return Ranking.from_binary(flags, relevant=sum(flags) + missing)


@st.composite
def graded_rankings(draw):
    grades = draw(st.lists(st.integers(0, 3), min_size=1, max_size=8))
    unretrieved = draw(st.lists(st.integers(1, 3), max_size=3))
    return Ranking.from_grades(grades, unretrieved=unretrieved)


cutoffs = st.one_of(st.none(), st.integers(1, 15))


def in_unit_interval(value):
    return 0 <= to_float(value) <= 1 + 1e-12


@given(binary_rankings(), cutoffs)
def test_binary_metrics_lie_in_unit_interval(ranking, k):
    for metric in (precision, recall, average_precision, reciprocal_rank, f_measure):
        assert in_unit_interval(metric(ranking, k=k).value), metric.__name__
    assert in_unit_interval(r_precision(ranking).value)
    assert in_unit_interval(eleven_point_average(ranking).value)


@given(binary_rankings())
def test_ap_is_at_most_one_and_retrieved_denominator_never_smaller(ranking):
    by_relevant = average_precision(ranking).value
    by_retrieved = average_precision(ranking, ap_denominator="retrieved").value
    assert by_relevant <= 1
    assert by_relevant <= by_retrieved


@given(binary_rankings())
def test_ap_of_perfect_ranking_is_one(ranking):
    R = ranking.total_relevant
    if R:
        assert average_precision(Ranking.from_binary([1] * R, relevant=R)).value == 1


@given(binary_rankings(), st.integers(0, 10), st.integers(0, 10))
def test_interpolated_precision_does_not_increase_with_recall(ranking, a, b):
    low, high = sorted((F(a, 10), F(b, 10)))
    assert interpolated_precision(ranking, low).value >= interpolated_precision(ranking, high).value
    trec = [interpolated_precision(ranking, level, interpolation="trec-eval").value for level in (low, high)]
    assert trec[0] >= trec[1]


@given(graded_rankings(), cutoffs)
def test_ndcg_and_nerr_lie_in_unit_interval(ranking, k):
    assert in_unit_interval(ndcg(ranking, k=k).value)
    assert in_unit_interval(ndcg(ranking, k=k, gain="linear", discount="log2-rank").value)
    assert in_unit_interval(normalized_err(ranking, k=k).value)
    assert in_unit_interval(expected_reciprocal_rank(ranking, k=k).value)


@given(graded_rankings(), cutoffs)
def test_ideal_ranking_scores_one(ranking, k):
    ideal = sorted([g for g in ranking.grades + ranking.unretrieved if g > 0], reverse=True)
    if ideal:
        best = Ranking.from_grades(ideal)
        assert ndcg(best, k=k).value == 1
        assert normalized_err(best, k=k).value == 1


@given(graded_rankings())
def test_dcg_exact_value_matches_float_formula(ranking):
    import math

    expected = sum((2**g - 1) / math.log2(i + 1) for i, g in enumerate(ranking.grades, 1))
    assert abs(to_float(dcg(ranking).value) - expected) < 1e-9


@given(st.permutations(list("abcdefg")), st.permutations(list("abcdefg")))
def test_rank_correlations_bounds_and_symmetry(a, b):
    distance = kendall_tau_distance(a, b).value
    assert 0 <= distance <= 1
    assert distance == kendall_tau_distance(b, a).value
    assert kendall_tau_distance(a, a).value == 0
    rho = spearman_rho(a, b).value
    assert -1 <= rho <= 1 and spearman_rho(a, a).value == 1


@given(st.lists(st.tuples(st.sampled_from([0, 1]), st.sampled_from([0, 1])), min_size=2, max_size=30))
def test_kappa_is_at_most_one_and_one_for_identical_judges(pairs):
    first, second = [p[0] for p in pairs], [p[1] for p in pairs]
    if len(set(first + second)) == 2:  # otherwise P(E) = 1 and kappa is undefined
        assert cohen_kappa(first, second).value <= 1
    if len(set(first)) == 2:
        assert cohen_kappa(first, first).value == 1


@given(binary_rankings(), cutoffs)
def test_last_step_is_the_result(ranking, k):
    for metric in (average_precision, precision, recall, f_measure):
        result = metric(ranking, k=k)
        assert steps(result.traced)[-1].value == result.value
