"""ROC AUC of a ranking: hand-worked counts of pairs in the right order, and scikit-learn's roc_auc_score as oracle."""

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from irlab import Ranking
from irlab.errors import IrlabError, RankingError
from irlab.metrics import get_metric, roc_auc

metrics = pytest.importorskip("sklearn.metrics")


def sklearn_auc(ranking):
    """scikit-learn sees a ranking as scores that fall with the rank: n, n-1, ..., 1."""
    n = ranking.retrieved
    return metrics.roc_auc_score([int(r) for r in ranking.relevance], [n - i for i in range(n)])


def test_hand_worked_rnrnn():
    # rank 1 (R) beats the 3 N below it, rank 3 (R) the 2 N below it: C = 5 of 2 · 3 = 6 pairs
    result = roc_auc(Ranking.parse("RNRNN"))
    assert result.value == Fraction(5, 6)
    steps = {s.symbol: s.value for s in result.steps}
    assert (steps["C"], steps["n_R"], steps["n_N"], steps["pairs"]) == (5, 2, 3, 6)
    assert [row[-1] for row in result.tables[0].rows] == [3, "", 2, "", ""]  # pairs each relevant document wins
    assert [row[-2] for row in result.tables[0].rows] == [0, "", 1, "", ""]  # and loses


@pytest.mark.parametrize("text, expected", [
    ("RN", 1), ("NR", 0), ("RRNN", 1), ("NNRR", 0), ("RNNR", Fraction(1, 2)), ("NRRN", Fraction(1, 2)),
    ("NRNRN", Fraction(3, 6)), ("RNNRR", Fraction(2, 6)),
])
def test_hand_worked_values(text, expected):
    assert roc_auc(Ranking.parse(text)).value == expected


def test_graded_ranking_uses_the_threshold():
    # grades 3,0,2,1 with relevant = grade >= 2: R N R N, C = 2 + 1 of 2 · 2
    assert roc_auc(Ranking.parse("3,0,2,1", threshold=2)).value == Fraction(3, 4)
    # threshold 1: 3 0 2 1 is R N R R: C = 1 + 0 + 0 of 3 · 1
    assert roc_auc(Ranking.parse("3,0,2,1")).value == Fraction(1, 3)


def test_unjudged_documents_count_as_non_relevant():
    assert roc_auc(Ranking.parse("RURN")).value == roc_auc(Ranking.parse("RNRN")).value == Fraction(3, 4)


def test_relevant_not_retrieved_are_in_no_pair_and_the_note_gives_the_ranked_last_value():
    given_r = roc_auc(Ranking.parse("RNRNN", relevant=4))
    assert given_r.value == Fraction(5, 6)  # the retrieved list's pairs, as scikit-learn
    notes = " ".join(note.text for note in given_r.notes)
    assert "C / (R · n_N) = 5 / (4 · 3) = 5/12" in notes
    assert "C / (R" not in " ".join(note.text for note in roc_auc(Ranking.parse("RNRNN")).notes)


@pytest.mark.parametrize("text", ["RRR", "NNN", "UUN", "3,2,1"])
def test_undefined_without_both_kinds_is_one_error(text):
    with pytest.raises(RankingError, match="ROC AUC is undefined"):
        roc_auc(Ranking.parse(text))
    with pytest.warns(Warning, match="not defined"):  # the oracle: undefined too (a warning and nan)
        assert sklearn_auc(Ranking.parse(text)) != sklearn_auc(Ranking.parse(text))


def test_registered_with_alias():
    assert get_metric("roc-auc").name == "auc"
    # the registry's compute is roc_auc under the empty_ranking convention's check (irlab.metrics.empty)
    assert get_metric("auc").compute.__wrapped__ is roc_auc


def test_explain_text(cli):
    out = cli("explain", "auc", "RNRNN", "--relevant", "4")
    assert out.returncode == 0, out.stderr
    assert "non-relevant above it (pairs lost) | non-relevant below it (pairs won)" in out.stdout
    assert "C = c_1 + c_3 = 3 + 2 = 5" in out.stdout
    assert "pairs = n_R · n_N = 2 · 3 = 6" in out.stdout
    assert out.stdout.rstrip().endswith("Result: AUC = 5/6 ≈ 0.8333")
    bad = cli("explain", "auc", "NNN")
    assert bad.returncode == 2 and "ROC AUC is undefined" in bad.stderr and "Traceback" not in bad.stderr


@settings(max_examples=300, deadline=None)
@given(st.lists(st.booleans(), min_size=2, max_size=60).filter(lambda flags: any(flags) and not all(flags)))
def test_matches_sklearn_roc_auc_score(flags):
    ranking = Ranking.from_binary(flags)
    value = roc_auc(ranking).value
    assert isinstance(value, (int, Fraction))
    assert abs(float(value) - sklearn_auc(ranking)) <= 1e-12
    # the count, independently: every (relevant, non-relevant) pair, ordered right when the relevant one comes first
    pairs = [(i < j) for i, a in enumerate(flags) if a for j, b in enumerate(flags) if not b]
    assert value == Fraction(sum(pairs), len(pairs))


@settings(max_examples=100, deadline=None)
@given(st.lists(st.integers(0, 3), min_size=2, max_size=40), st.integers(1, 3))
def test_graded_matches_sklearn_with_binarised_labels(grades, threshold):
    ranking = Ranking.from_grades(grades, threshold=threshold)
    if len(set(ranking.relevance)) < 2:
        with pytest.raises(IrlabError):
            roc_auc(ranking)
        return
    assert abs(float(roc_auc(ranking).value) - sklearn_auc(ranking)) <= 1e-12
