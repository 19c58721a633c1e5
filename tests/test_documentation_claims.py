"""What the documentation claims, checked (issue 29): weighted kappa equals scikit-learn's only with ``labels``
spanning every grade, and P@k's user model says what ERG divides by when the list is short."""

from fractions import Fraction

import pytest

from irlab import Ranking
from irlab.metrics.cwl import user_model
from irlab.metrics.weighted_kappa import weighted_kappa

JUDGE1, JUDGE2 = [0, 1, 3, 3, 0, 3], [0, 3, 3, 1, 0, 3]  # grade 2 given by neither judge


def test_weighted_kappa_by_hand_with_a_grade_in_the_middle_never_given():
    # linear, k - 1 = 3: observed Σ w·O = 2/3 + 2/3 (the pairs 1-3, 3-1); expected Σ w·E = (2/3 + 6 + 2/3 + 2 + 6 + 2)
    # / 6 = 26/9 (marginals 0:2, 1:1, 3:3 for both judges): κ_w = 1 - (4/3) / (26/9) = 7/13
    assert weighted_kappa(JUDGE1, JUDGE2, weights="linear").value == Fraction(7, 13)
    # quadratic: Σ w·O = 4/9 + 4/9; Σ w·E = (2/9 + 6 + 2/9 + 4/3 + 6 + 4/3) / 6 = 68/27: κ_w = 1 - (8/9) / (68/27)
    assert weighted_kappa(JUDGE1, JUDGE2, weights="quadratic").value == Fraction(11, 17)


@pytest.mark.parametrize("weights", ["linear", "quadratic"])
def test_scikit_learn_agrees_only_with_labels_spanning_every_grade(weights):
    sklearn = pytest.importorskip("sklearn.metrics")
    ours = float(weighted_kappa(JUDGE1, JUDGE2, weights=weights).value)
    assert sklearn.cohen_kappa_score(JUDGE1, JUDGE2, weights=weights, labels=[0, 1, 2, 3]) == pytest.approx(ours, abs=1e-12)
    # without labels scikit-learn weighs 3 as the third grade given (0, 1, 3 -> 0, 1, 2): another value
    plain = sklearn.cohen_kappa_score(JUDGE1, JUDGE2, weights=weights)
    assert plain == pytest.approx({"linear": 11 / 17, "quadratic": 23 / 29}[weights], abs=1e-12)
    assert abs(plain - ours) > 0.1
    note = " ".join(n.text for n in weighted_kappa(JUDGE1, JUDGE2, weights=weights).notes)
    assert "labels=range(0, 4)) gives the same" in note and "leaves out grade 2, never given" in note
    every = " ".join(n.text for n in weighted_kappa([0, 1, 2], [0, 2, 2], weights=weights).notes)
    assert "gives the same" in every and "never given" not in every


def _notes(result) -> str:
    return " ".join(note.text for note in result.notes)


def test_erg_of_a_short_list_read_to_depth_n_divides_by_what_it_computes():
    # RNRRNNR, P@9's user reading only n = 5 ranks: ERG = (1 + 1 + 1) / 5, the hits of the first 5 over 5
    result = user_model(Ranking.parse("RNRRNNR"), "precision", k=9, max_depth=5)
    assert result.value == Fraction(3, 5)
    assert "divides by k = 9" not in _notes(result)  # the 7 documents are never read past at depth 5
    # read to n = 8, past the list's end: ERG = 4 hits / 8
    deeper = user_model(Ranking.parse("RNRRNNR"), "precision", k=9, max_depth=8)
    assert deeper.value == Fraction(1, 2) and "ERG divides by the n = 8 ranks read" in _notes(deeper)
    # without a depth limit it does divide by k: 4 / 9
    whole = user_model(Ranking.parse("RNRRNNR"), "precision", k=9)
    assert whole.value == Fraction(4, 9) and "ERG divides by k = 9" in _notes(whole)
