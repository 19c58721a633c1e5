"""ARP and OPA over several lists: irlab's mean of the per-list values (list_mean = per-list, the default) or
TF-Ranking's pooled batch value (list_mean = pooled), equal to TF-Ranking's documented ragged examples and to an
independent pooling of generated lists; in exercise sets and explained in the five formats."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from irlab import Ranking
from irlab.errors import IrlabError, ParameterError
from irlab.metrics.pairs import arp, mean_over_lists, opa

# TF-Ranking's ragged examples: y_true [[0, 1], [1, 2, 0]], y_pred [[2, 1], [2, 5, 4]]. In score order the lists are
# labels [0, 1] (scores 2, 1) and [2, 0, 1] (scores 5, 4, 2). ARP: Σ rank·y = 2 and 1·2 + 3·1 = 5, Σ y = 1 and 3:
# pooled 7/4 = 1.75, per list (2 + 5/3) / 2 = 11/6. OPA: 0 of 1 and 2 of 3 pairs: pooled 2/4 = 0.5, per list 1/3.
LISTS = [Ranking.from_grades([0, 1], scores=[2, 1]), Ranking.from_grades([2, 0, 1], scores=[5, 4, 2])]


def test_tf_rankings_ragged_examples_are_the_pooled_values():
    assert mean_over_lists([arp(r) for r in LISTS], "pooled").value == Fraction(7, 4)
    assert mean_over_lists([opa(r) for r in LISTS], "pooled").value == Fraction(1, 2)
    assert mean_over_lists([arp(r) for r in LISTS]).value == Fraction(11, 6)
    assert mean_over_lists([opa(r) for r in LISTS], "per-list").value == Fraction(1, 3)


def test_the_pooled_mean_is_explained_in_every_format():
    result = mean_over_lists([arp(r) for r in LISTS], "pooled")
    text = result.render("text")
    assert "list_mean = pooled" in text and "TF-Ranking" in text and "pooled Σ rank·y = " in text
    assert "List q1" in text and "List q2" in text
    for fmt in ("markdown", "latex", "html"):
        assert "pooled" in result.render(fmt)
    assert json.loads(result.render("json"))
    assert "list_mean = per-list" in mean_over_lists([opa(r) for r in LISTS]).render("text")


def test_no_label_mass_anywhere_is_zero_as_tf_ranking_reports_it():
    flat = [Ranking.from_grades([0, 0]), Ranking.from_grades([1, 1])]
    assert mean_over_lists([arp(r) for r in flat[:1]], "pooled").value == 0
    assert mean_over_lists([arp(r) for r in flat], "pooled").value == Fraction(3, 2)  # (1 + 2) / 2
    assert mean_over_lists([opa(r) for r in flat], "pooled").value == 0  # no pair with different labels


def test_bad_input_is_one_clear_error():
    with pytest.raises(ParameterError, match="unknown list_mean"):
        mean_over_lists([arp(r) for r in LISTS], "weighted")
    with pytest.raises(ParameterError, match="arp or opa"):
        mean_over_lists([])
    with pytest.raises(ParameterError, match="together"):
        mean_over_lists([arp(LISTS[0]), opa(LISTS[1])], "pooled")
    with pytest.raises(ParameterError, match="unknown list_mean"):
        arp(LISTS[0], list_mean="x")


@settings(max_examples=100, deadline=None)
@given(st.lists(st.lists(st.tuples(st.integers(0, 3), st.integers(0, 4)), min_size=1, max_size=7), min_size=1,
                max_size=4))
def test_pooled_equals_an_independent_pooling(lists):
    """TF-Ranking's formulas summed over the lists straight from labels and scores (ties at their mean rank)."""
    rankings, top_arp, bottom_arp, top_opa, bottom_opa = [], 0, 0, 0, 0
    for items in lists:
        items = sorted(items, key=lambda item: -item[1])
        labels, scores = [y for y, _ in items], [s for _, s in items]
        rankings.append(Ranking.from_grades(labels, scores=scores))
        for i, (y, s) in enumerate(items):
            tied = [j for j, (_, t) in enumerate(items) if t == s]
            top_arp += Fraction(min(tied) + max(tied) + 2, 2) * y
            bottom_arp += y
            for z, t in items:
                top_opa += y > z and s > t
                bottom_opa += y > z
    assert mean_over_lists([arp(r) for r in rankings], "pooled").value == (
        Fraction(top_arp, 1) / bottom_arp if bottom_arp else 0)
    assert mean_over_lists([opa(r) for r in rankings], "pooled").value == (
        Fraction(top_opa, bottom_opa) if bottom_opa else 0)


def test_an_exercise_set_pools_or_averages_the_lists(tmp_path):
    from irlab.exercise_set import Where, load, solve, solve_question

    text = '''title = "TF-Ranking's ragged lists"
[[exercise]]
id = "1"
statement = "Two lists in score order, labels {rankings}, scores {scores}."
[exercise.parameters]
rankings = [[0, 1], [2, 0, 1]]
scores = [[2, 1], [5, 4, 2]]
[[exercise.question]]
id = "a"
solver = "arp"
list_mean = "pooled"
[[exercise.question]]
id = "b"
solver = "opa"
list_mean = "pooled"
[[exercise.question]]
id = "c"
solver = "arp"
'''
    path = tmp_path / "set.toml"
    path.write_text(text)
    exercise = load(str(path)).exercises[0]
    assert solve(str(path)).render("text")
    values = [solve_question(dict(exercise.parameters), q, Where(str(path), exercise.id, q.id)).answers[0].value
              for q in exercise.questions]
    assert values == [Fraction(7, 4), Fraction(1, 2), Fraction(11, 6)]
    path.write_text(text.replace('list_mean = "pooled"', 'list_mean = "batch"', 1))
    with pytest.raises(IrlabError, match="list_mean"):
        solve(str(path))


def test_explain_on_the_command_line_pools_or_averages(capsys):
    from irlab.cli import main

    assert main(["explain", "arp", "0,1", "2,0,1", "--list-mean", "pooled"]) == 0
    assert "Result: pooled ARP = 7/4 = 1.75" in capsys.readouterr().out
    assert main(["explain", "opa", "0,1", "2,0,1"]) == 0
    assert "Result: mean OPA = 1/3" in capsys.readouterr().out
    assert main(["explain", "opa", "0,1", "2,0,1", "--list-mean", "batch"]) == 2
    assert "irlab: error: unknown list_mean 'batch'" in capsys.readouterr().err
