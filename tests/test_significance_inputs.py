"""Corrections accept the doubles scipy returns, and the alternative reads right whatever the systems are called."""

from fractions import Fraction

import pytest

from irlab import conventions as conv
from irlab.metrics.significance import adjust


def test_holm_and_bonferroni_on_doubles():
    # Holm: sorted 0.01, 0.03, 0.04 -> 3 * 0.01, max(0.03, 2 * 0.03), max(0.06, 1 * 0.04)
    assert adjust([0.01, 0.04, 0.03], "holm") == pytest.approx([0.03, 0.06, 0.06])
    assert adjust([0.01, 0.04, 0.6], "bonferroni") == pytest.approx([0.03, 0.12, 1])
    assert adjust([Fraction(1, 100), Fraction(1, 2)], "bonferroni") == [Fraction(1, 50), 1]


def test_alternatives_name_no_system():
    for choice in conv.ALTERNATIVE.choices:
        assert " A " not in f" {choice.summary} " and " B " not in f" {choice.summary} "
