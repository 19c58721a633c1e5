"""More than two judges: Fleiss' kappa (checked on Fleiss's worked example) and IIR's average pairwise kappa."""

import itertools
from fractions import Fraction

import pytest

from irlab.errors import ParameterError, RankingError
from irlab.metrics import cohen_kappa, fleiss_kappa, pairwise_kappa

# the worked example for Fleiss' kappa (Fleiss 1971 as usually reproduced): 10 documents, 14 judges, 5 categories;
# row i gives how many judges chose categories 1..5 for document i
COUNTS = [(0, 0, 0, 0, 14), (0, 2, 6, 4, 2), (0, 0, 3, 5, 6), (0, 3, 9, 2, 0), (2, 2, 8, 1, 1),
          (7, 7, 0, 0, 0), (3, 2, 6, 3, 0), (2, 5, 3, 2, 2), (6, 5, 2, 1, 0), (0, 2, 2, 3, 7)]


def judges_from_counts(counts):
    """14 judges' columns whose per-document category counts are ``counts`` (who chose what does not matter)."""
    rows = [[category for category, count in enumerate(row, 1) for _ in range(count)] for row in counts]
    return [[row[j] for row in rows] for j in range(len(rows[0]))]


def test_fleiss_worked_example():
    n, docs = 14, len(COUNTS)
    p_j = [Fraction(sum(row[j] for row in COUNTS), docs * n) for j in range(5)]
    p_i = [Fraction(sum(c * c for c in row) - n, n * (n - 1)) for row in COUNTS]
    p_bar, p_e = sum(p_i) / docs, sum(p * p for p in p_j)
    result = fleiss_kappa(judges_from_counts(COUNTS))
    assert result.value == (p_bar - p_e) / (1 - p_e)
    assert round(float(p_bar), 3) == 0.378 and round(float(p_e), 3) == 0.213 and round(float(result), 3) == 0.210


def test_fleiss_with_two_judges_is_scotts_pi_the_pooled_kappa():
    first, second = "1,1,0,0,1,0,1,1", "1,0,0,0,1,1,1,1"
    assert fleiss_kappa([first, second]).value == cohen_kappa(first, second).value


def test_pairwise_kappa_is_the_mean_of_every_pair():
    judges = ["1,1,0,0,1,0", "1,0,0,0,1,1", "1,1,0,1,1,0", "0,1,0,0,1,0"]
    for marginals in ("pooled", "per-judge"):
        pairs = [cohen_kappa(a, b, kappa_marginals=marginals).value for a, b in itertools.combinations(judges, 2)]
        assert pairwise_kappa(judges, kappa_marginals=marginals).value == sum(pairs) / 6
    assert pairwise_kappa("1,1,0,0; 1,0,0,0; 1,1,0,0").value == (Fraction(7, 15) + 1 + Fraction(7, 15)) / 3


def test_fleiss_table_and_steps():
    result = fleiss_kappa("1,1,0,0; 1,1,0,1; 1,0,0,0")
    assert result.value == Fraction(1, 3)  # P_avg = (1 + 1/3 + 1 + 1/3)/4 = 2/3, P_e = 1/2
    assert [row[-1] for row in result.tables[0].rows] == [1, Fraction(1, 3), 1, Fraction(1, 3)]


def test_cli_many_judges(cli):
    out = cli("explain", "fleiss", "--judges", "1,1,0,0; 1,1,0,1; 1,0,0,0")
    assert out.returncode == 0 and out.stdout.rstrip().endswith("κ = 1/3 ≈ 0.3333")
    out = cli("explain", "pairwise-kappa", "--judges", "1,1,0,0; 1,0,0,0; 1,1,0,0")
    assert out.returncode == 0 and "κ_avg = 29/45" in out.stdout
    out = cli("explain", "fleiss", "RNR")
    assert out.returncode == 2 and "--judges" in out.stderr


def test_bad_judges():
    with pytest.raises(RankingError, match="at least two judges"):
        fleiss_kappa("1,0,1")
    with pytest.raises(RankingError, match="differ in length"):
        fleiss_kappa("1,0,1; 1,0")
    with pytest.raises(RankingError, match="judge 2: judgment 2"):
        fleiss_kappa("1,0,1; 1,x,0")
    with pytest.raises(ParameterError, match="P_e = 1"):
        fleiss_kappa("1,1; 1,1")
    with pytest.raises(RankingError, match="binary"):
        pairwise_kappa("1,2; 0,1")
