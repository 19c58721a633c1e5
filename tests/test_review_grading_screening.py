"""Adversarial review of the screen's decisions in doubles (screening._all_far, 89bd88e; screening._fit_by_rounding,
c551b6a) on what the synthetic class never has: other [grading] tables (absolute tolerances, a zero tolerance,
wide and narrow relative ones, min_decimals 0 and 6, fixed decimals, no rounding accepted) and values near 0.
The screen's verdict must be the exact judge's (drawing._judged_exactly) on every draw it decides, and a decision
in doubles must be the exact definition's for the doubles and for values 1e-12 from them either way."""

from __future__ import annotations

import random
from fractions import Fraction
from pathlib import Path

import pytest

from irlab.answer_options import Tolerance
from irlab.homework import screening
from irlab.homework.diagnosis import answer_margin, fit_both_exactly, fitting_both
from irlab.homework.drawing import _judged_exactly
from irlab.homework.mistakes import MISTAKES
from test_screening import EDGES_SET, OPTIONS_SET, _draws

ROOT = Path(__file__).resolve().parents[1]
GRADINGS = ['tolerance = 0\nabs_tolerance = 0', 'tolerance = 0.2', 'abs_tolerance = 0.05\ntolerance = 0',
            'min_decimals = 0', 'min_decimals = 6', 'decimals = 2', 'accept_rounded = false',
            'tolerance = 0.1\nabs_tolerance = 0.01\nmin_decimals = 1', 'tolerance = 0.5\nmin_decimals = 0']
SETS = {"variants": (ROOT / "exercises" / "homework-variants.toml").read_text(encoding="utf-8"),
        "options": OPTIONS_SET, "edges": EDGES_SET}


@pytest.mark.parametrize("grading", range(len(GRADINGS)))
def test_the_screen_decides_as_the_exact_judge_under_other_grading_tables(grading, tmp_path):
    counts = {"sure": 0, "unsure": 0, "refused": 0, "too close": 0}
    for name, text in SETS.items():
        path = tmp_path / f"{name}.toml"
        path.write_text(f"{text}\n[grading]\n{GRADINGS[grading]}\n", encoding="utf-8")
        for where, candidate in _draws(path, 12, 4000 + grading):
            verdict = screening.screen(candidate, where)
            if verdict is None:
                counts["unsure"] += 1
                continue
            problem, degenerate, _, _ = _judged_exactly(candidate, where, [])
            assert verdict == (problem, degenerate), (name, GRADINGS[grading], candidate.id, candidate.parameters)
            counts["sure"] += 1
            counts["refused"] += problem is not None
            counts["too close"] += problem is not None and "within the tolerance" in problem
    assert counts["sure"] > 5 * counts["unsure"] and counts["refused"] > 0, counts


# tolerances the rounding test of test_screening does not draw: absolute ones, wide, narrow, none at all
TOLERANCES = [{"abs_tolerance": "0.005", "tolerance": 0}, {"abs_tolerance": "0.05"}, {"tolerance": "0.5"},
              {"tolerance": 2}, {"tolerance": "1e-6"}, {"tolerance": 0, "abs_tolerance": 0}, {"min_decimals": 6},
              {"tolerance": "0.2", "min_decimals": 0}, {"abs_tolerance": "1e-4", "tolerance": "1e-4", "min_decimals": 4},
              {"abs_tolerance": "0.5", "min_decimals": 0}]


def _case(rng: random.Random):
    """A right value (often tiny, or on a rounding's half unit) and a mistaken one about the reach away."""
    tolerance = Tolerance.of(rng.choice(TOLERANCES))
    right = rng.choice([1, -1, 1, 1]) * 10.0 ** rng.uniform(-7, 3) * rng.random()
    if rng.random() < 0.1:
        right = rng.choice([0.0, 1e-12, -1e-9])
    unit = 10.0 ** -tolerance.min_decimals
    if rng.random() < 0.2:
        shown = rng.randint(tolerance.min_decimals, tolerance.min_decimals + 3)
        right = (round(right * 10**shown) + 0.5) / 10**shown
    reach = 2 * max(float(tolerance.rtol) * abs(right), float(tolerance.atol))
    gap = (reach + rng.uniform(-0.3, 1.3) * unit) * rng.choice([1, 1, 1, rng.uniform(0, 3)])
    return right, right + rng.choice([1, -1]) * gap, tolerance


def test_a_rounding_decided_in_doubles_is_the_exact_decision_under_other_tolerances():
    rng = random.Random(40)
    decided = {True: 0, False: 0}
    for _ in range(20000):
        right, mistaken, tolerance = _case(rng)
        verdict = screening._fit_by_rounding(right, mistaken, tolerance)
        if verdict is None:
            continue
        decided[verdict] += 1
        for a, b in ((0, 0), (1, 1), (1, -1), (-1, 1), (-1, -1)):
            exact = fit_both_exactly(Fraction(right * (1 + a * 1e-12)), Fraction(mistaken * (1 + b * 1e-12)), tolerance)
            assert exact is verdict, (right, mistaken, tolerance, a, b)
    assert min(decided.values()) > 2000, decided


def test_mistakes_all_far_under_absolute_tolerances_are_passed_over_by_fitting_both():
    # just beyond twice fitting_both's own margin, under absolute and relative tolerances: all far means none fits
    rng = random.Random(41)
    far = 0
    for _ in range(3000):
        tolerance = Tolerance.of(rng.choice(TOLERANCES))
        right = Fraction(rng.randint(-10**6, 10**6), rng.randint(1, 10**6))
        reach = Fraction(2 * answer_margin(right, float(right), tolerance))
        values = [right + rng.choice([1, -1]) * reach * (1 + Fraction(rng.randint(-20, 50), 10**6)) for _ in range(3)]
        mistaken = list(zip(MISTAKES, values))
        if screening._all_far(right, mistaken, tolerance):
            far += 1
            assert list(fitting_both(right, tolerance, mistaken)) == [], (right, values, tolerance)
            assert all(abs(value - right) > reach for value in values)
    assert far > 300, far
