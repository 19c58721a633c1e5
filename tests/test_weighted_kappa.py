"""Cohen's kappa over k categories and weighted kappa, checked exactly against scikit-learn's cohen_kappa_score;
Fleiss' kappa on Wikipedia's worked example and on graded categories."""

import json
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from irlab.errors import IrlabError, ParameterError, RankingError
from irlab.metrics import cohen_kappa, cohen_kappa_categories, fleiss_kappa, get_metric, weighted_kappa

sklearn_metrics = pytest.importorskip("sklearn.metrics")


def sklearn_kappa(first, second, weights=None, labels=None):
    return sklearn_metrics.cohen_kappa_score(list(first), list(second), weights=weights, labels=labels)


@st.composite
def judged_pairs(draw):
    """Two judges' grades on the same documents, not both constant on one grade (kappa undefined)."""
    k = draw(st.integers(2, 6))
    low = draw(st.integers(0, 3))
    grades = st.integers(low, low + k - 1)
    size = draw(st.integers(2, 40))
    first = draw(st.lists(grades, min_size=size, max_size=size))
    second = draw(st.lists(grades, min_size=size, max_size=size))
    if len(set(first) | set(second)) == 1:
        second[0] = low if first[0] != low else low + 1
    return first, second


@settings(max_examples=150, deadline=None)
@given(judged_pairs())
def test_cohen_kappa_over_k_categories_is_sklearns(pair):
    first, second = pair
    ours = cohen_kappa_categories(first, second).value
    assert isinstance(ours, (int, Fraction))
    assert abs(float(ours) - sklearn_kappa(first, second)) < 1e-12


@settings(max_examples=150, deadline=None)
@given(judged_pairs(), st.sampled_from(["linear", "quadratic"]))
def test_weighted_kappa_is_sklearns(pair, weights):
    first, second = pair
    ours = weighted_kappa(first, second, weights=weights).value
    # irlab weighs by grade distance; scikit-learn by position among its labels: the same once every grade from the
    # lowest to the highest is a label
    labels = list(range(min(first + second), max(first + second) + 1))
    assert abs(float(ours) - sklearn_kappa(first, second, weights, labels)) < 1e-12
    if set(first) | set(second) == set(labels):  # no grade skipped: scikit-learn's default labels agree
        assert abs(float(ours) - sklearn_kappa(first, second, weights)) < 1e-12


def test_hand_computed_values():
    # O = [[1,0,0],[0,0,1],[0,1,1]], n_1 = n_2 = (1, 1, 2): P(A) = 1/2, P(E) = 6/16, κ = (1/8)/(5/8) = 1/5
    result = cohen_kappa_categories("0,1,2,2", "0,2,2,1")
    assert result.value == Fraction(1, 5)
    steps = {s.symbol: s.value for s in result.steps}
    assert steps["P(A)"] == Fraction(1, 2) and steps["P(E)"] == Fraction(3, 8)
    assert result.tables[0].rows[-1] == ("total", 1, 1, 2, 4)
    # linear: Σw·O = 1/2 + 1/2 = 1; Σw·E = 1/8 + 1/2 + 1/8 + 1/4 + 1/2 + 1/4 = 7/4; κ_w = 1 - 4/7 = 3/7
    linear = weighted_kappa("0,1,2,2", "0,2,2,1", weights="linear")
    assert linear.value == Fraction(3, 7)
    assert {s.symbol: s.value for s in linear.steps}["Σw·E"] == Fraction(7, 4)
    # quadratic: w = 1/4 next door, 1 two apart: Σw·O = 1/2; Σw·E = 1/16 + 1/2 + 1/16 + 1/8 + 1/2 + 1/8 = 11/8
    assert weighted_kappa("0,1,2,2", "0,2,2,1", weights="quadratic").value == 1 - Fraction(1, 2) / Fraction(11, 8)
    assert weighted_kappa("0,1,2,2", "0,2,2,1").value == Fraction(7, 11)  # quadratic is the default


def test_labels_and_the_binary_case():
    assert cohen_kappa_categories("high,low,low,mid", "high,low,mid,mid").value == Fraction(7, 11)
    assert abs(float(cohen_kappa_categories(["a", "b", "b"], ["a", "b", "a"])) - sklearn_kappa("abb", "aba")) < 1e-12
    first, second = "1,1,0,0,1,0,1,1", "1,0,0,0,1,1,1,1"  # 0/1: kappa with Cohen's own marginals
    assert cohen_kappa_categories(first, second).value == cohen_kappa(first, second, kappa_marginals="per-judge").value
    # with two grades, every weighting is the unweighted kappa
    for weights in ("linear", "quadratic"):
        assert weighted_kappa(first, second, weights=weights).value == cohen_kappa_categories(first, second).value


def test_a_grade_nobody_gave_still_lies_between():
    # grades 0 and 3 only: scikit-learn would put them next to each other; irlab keeps the distance 3
    result = weighted_kappa("0,0,3,3", "0,3,3,3", weights="linear")
    assert len(result.tables[0].rows) == 5  # grades 0, 1, 2, 3 and the totals
    assert abs(float(result) - sklearn_kappa([0, 0, 3, 3], [0, 3, 3, 3], "linear", [0, 1, 2, 3])) < 1e-12


def test_bad_input_is_one_error_naming_the_problem():
    with pytest.raises(RankingError, match="differ in length"):
        cohen_kappa_categories("0,1,2", "0,1")
    with pytest.raises(RankingError, match="non-negative"):
        cohen_kappa_categories("0,-1,2", "0,1,2")
    with pytest.raises(RankingError, match="label 'x' but others are integers"):
        cohen_kappa_categories("0,x,2", "0,1,2")
    with pytest.raises(RankingError, match="same kind"):
        cohen_kappa_categories("0,1,2", "a,b,c")
    with pytest.raises(RankingError, match="ordered categories"):
        weighted_kappa("a,b,c", "a,c,c")
    with pytest.raises(ParameterError, match="'linear', 'quadratic'"):
        weighted_kappa("0,1,2", "0,1,1", weights="cubic")
    with pytest.raises(ParameterError, match="undefined"):
        cohen_kappa_categories("2,2,2", "2,2,2")
    with pytest.raises(ParameterError, match="undefined"):
        weighted_kappa("2,2,2", "2,2,2")
    with pytest.raises(IrlabError, match="at most 20"):
        cohen_kappa_categories("0,21", "0,1")


def test_declarations():
    assert get_metric("cohen-kappa").inputs == get_metric("weighted-kappa").inputs == "judges"
    assert [p.name for p in get_metric("weighted-kappa").parameters] == ["weights"]


def test_cli_explains_both(cli):
    out = cli("explain", "weighted-kappa", "--judge1", "0,1,2,2", "--judge2", "0,2,2,1", "--weights", "linear")
    assert out.returncode == 0, out.stderr
    assert "κ_w = 1 - Σw·O / Σw·E = 1 - 1 / (7/4) = 3/7" in out.stdout
    assert "weights = linear" in out.stdout
    data = json.loads(cli("explain", "cohen-kappa", "--judge1", "high,low,low,mid", "--judge2", "high,low,mid,mid",
                          "--format", "json").stdout)
    assert data["value"] == "7/11"
    wrong = cli("explain", "kappa", "--judge1", "0,1", "--judge2", "1,1", "--weights", "linear")
    assert wrong.returncode == 2 and "--weights does not apply to kappa" in wrong.stderr


def test_binary_kappa_output_unchanged(cli):
    out = cli("explain", "kappa", "--judge1", "0,0,1,1,1,1,1,1,0,0,0,0", "--judge2", "0,0,1,1,0,0,0,0,1,1,1,1")
    assert out.returncode == 0
    assert "pooled" in out.stdout and "Result: κ = -1/3" in out.stdout


# Wikipedia, "Fleiss' kappa", worked example: 10 subjects, 14 raters, 5 categories; row i: raters per category
WIKIPEDIA = [(0, 0, 0, 0, 14), (0, 2, 6, 4, 2), (0, 0, 3, 5, 6), (0, 3, 9, 2, 0), (2, 2, 8, 1, 1),
             (7, 7, 0, 0, 0), (3, 2, 6, 3, 0), (2, 5, 3, 2, 2), (6, 5, 2, 1, 0), (0, 2, 2, 3, 7)]


def test_fleiss_on_wikipedias_example_exactly():
    rows = [[category for category, count in enumerate(row, 1) for _ in range(count)] for row in WIKIPEDIA]
    judges = "; ".join(",".join(str(row[j]) for row in rows) for j in range(14))  # categories 1..5 as --judges text
    result = fleiss_kappa(judges)
    # p_j = (20, 28, 39, 21, 32) / 140; Σ_i Σ_j n_ij² = 828, so P_avg = (828 - 140) / (10 · 182) = 172/455
    p_e = sum(Fraction(c, 140) ** 2 for c in (20, 28, 39, 21, 32))
    p_avg = Fraction(828 - 140, 1820)
    assert p_e == Fraction(417, 1960)
    assert result.value == (p_avg - p_e) / (1 - p_e) == Fraction(4211, 20059)
    assert round(float(result), 3) == 0.210  # Wikipedia's κ ≈ 0.210
    steps = {s.symbol: s.value for s in result.steps}
    assert round(float(steps["P_avg"]), 3) == 0.378 and round(float(steps["P_e"]), 3) == 0.213
    assert result.tables[0].columns == ("document", "n_1", "n_2", "n_3", "n_4", "n_5", "P_i")


def test_fleiss_with_two_judges_over_grades_is_scotts_pi():
    # two judges: P_i is 1 when they agree and 0 otherwise, so P_avg = P(A); P_e pools their marginals (Scott 1955)
    first, second = [0, 1, 2, 2, 3, 1], [0, 2, 2, 1, 3, 1]
    pooled = [Fraction(first.count(c) + second.count(c), 12) for c in range(4)]
    p_a, p_e = Fraction(4, 6), sum(p * p for p in pooled)
    assert fleiss_kappa([first, second]).value == (p_a - p_e) / (1 - p_e)
