"""TF-Ranking's ARP and OPA: its documented examples, and an independent computation from labels and scores."""

from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from irlab import Ranking
from irlab.cli import main
from irlab.metrics import get_metric, mean_over_queries

ARP, OPA = get_metric("arp").compute, get_metric("opa").compute


def in_rank_order(labels, scores):
    """The labels and scores of a TF-Ranking list sorted by score, highest first (a stable sort: ties keep their order)."""
    order = sorted(range(len(scores)), key=lambda i: -scores[i])
    return [labels[i] for i in order], [scores[i] for i in order]


def ranking(labels, scores):
    grades, ordered = in_rank_order(labels, scores)
    return Ranking.from_grades(grades, scores=ordered)


def test_tf_ranking_documented_examples():
    # ARPMetric: y_true [[0, 1, 1]], y_pred [[3, 1, 2]] -> 2.5; OPAMetric: y_true [[0, 1, 2]], same scores -> 1/3
    assert ARP(ranking([0, 1, 1], [3, 1, 2])).value == Fraction(5, 2)
    assert OPA(ranking([0, 1, 2], [3, 1, 2])).value == Fraction(1, 3)
    # the ragged examples: y_true [[0, 1], [1, 2, 0]], y_pred [[2, 1], [2, 5, 4]] -> ARP 1.75, OPA 0.5: TF-Ranking
    # pools the lists (Σ numerators / Σ denominators); the mean of the per-list values is irlab's mean over queries
    lists = [ranking([0, 1], [2, 1]), ranking([1, 2, 0], [2, 5, 4])]
    arps = [ARP(r) for r in lists]
    steps = [{s.symbol: s.value for s in r.steps} for r in arps]
    assert [r.value for r in arps] == [2, Fraction(5, 3)]
    assert sum(s["Σ rank·y"] for s in steps) / sum(s["Σ y"] for s in steps) == Fraction(7, 4)
    assert mean_over_queries(arps, "mean ARP").value == Fraction(11, 6)
    opas = [OPA(r) for r in lists]
    steps = [{s.symbol: s.value for s in r.steps} for r in opas]
    assert [r.value for r in opas] == [0, Fraction(2, 3)]
    assert Fraction(sum(s["C"] for s in steps), sum(s["P"] for s in steps)) == Fraction(1, 2)


def brute(labels, scores):
    """TF-Ranking's formulas straight from the labels and scores, ranks by score with ties at their mean rank."""
    n = len(labels)
    rank = [Fraction(1 + sum(scores[j] > scores[i] for j in range(n)) + 1 + sum(scores[j] >= scores[i] for j in range(n)) - 1, 2)
            for i in range(n)]
    mass = sum(labels)
    arp = Fraction(sum(r * y for r, y in zip(rank, labels)), mass) if mass else 0
    pairs = sum(labels[i] > labels[j] for i in range(n) for j in range(n))
    right = sum(labels[i] > labels[j] and scores[i] > scores[j] for i in range(n) for j in range(n))
    return arp, (Fraction(right, pairs) if pairs else 0)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 3), st.integers(0, 4)), min_size=1, max_size=9))
def test_equal_to_an_independent_computation_with_tied_scores(items):
    labels = [label for label, _ in items]
    scores = [score for _, score in items]
    expected_arp, expected_opa = brute(labels, scores)
    r = ranking(labels, scores)
    assert ARP(r).value == expected_arp
    assert OPA(r).value == expected_opa


def test_explained_in_every_format_and_listed(capsys):
    for fmt in ("text", "markdown", "latex", "html", "json"):
        assert main(["explain", "opa", "2,1,0,1", "--scores", "0.9,0.5,0.5,0.1", "--format", fmt]) == 0
        assert "0.6" in capsys.readouterr().out
    assert main(["explain", "arp", "0,1,1"]) == 0
    assert "ARP = Σ rank·y / Σ y = 5 / 2" in capsys.readouterr().out
    assert main(["metrics"]) == 0
    listing = capsys.readouterr().out
    assert "tfr.keras.metrics.ARPMetric" in listing and "tfr.keras.metrics.OPAMetric" in listing
