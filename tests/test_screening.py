"""The drawing's fast verdict (irlab.homework.screening, on irlab.metrics.plain values) against the exact judge.

Plain values equal the explained metrics (exactly where rational, to 1e-12 where logarithms appear); a verdict the
screen reaches is the exact judge's verdict, word for word; and whole classes drawn with the screen get the very
variants (parameters and refused draws) they get without it.
"""

from __future__ import annotations

import math
import random
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from irlab import exact
from irlab.exercise_set import Where, load, statement_text
from irlab.homework import drawing, plain_answers, screening
from irlab.homework.drawing import _count_problem, _judged_exactly, _stated, draw_parameters
from irlab.metrics import REGISTRY
from irlab.metrics.plain import PLAIN, Unsupported
from irlab.ranking import Ranking

ROOT = Path(__file__).resolve().parents[1]

# every option value each plain metric covers, drawn from
OPTION_VALUES = {
    "k": [None, 1, 2, 3, 5, 8, 12],
    "precision_denominator": [None, "k", "retrieved"],
    "recall_denominator": [None, "relevant", "min-relevant-k"],
    "ap_denominator": [None, "relevant", "retrieved", "min-relevant-k"],
    "beta": [1, 2, "1/2", 3],
    "f_weight": [None, "beta", "beta-squared"],
    "recall_level": ["0", "0.25", "33%", "1/2", "0.7", "1"],
    "interpolation": [None, "book", "trec-eval", "trec-eval-9"],
    "gain": [None, "exp", "linear"],
    "discount": [None, "log2-rank-plus-1", "log2-rank", "reciprocal-rank"],
    "kappa_marginals": [None, "pooled", "per-judge"],
}


def _same_value(plain, explained) -> bool:
    if isinstance(plain, float):
        reference = exact.to_float(explained)
        return abs(plain - reference) <= 1e-12 * max(1.0, abs(reference))
    return not exact.is_symbolic(explained) and plain == explained


@st.composite
def ranking_case(draw):
    graded = draw(st.booleans())
    length = draw(st.integers(1, 14))
    if graded:
        grades = draw(st.lists(st.integers(0, 3), min_size=length, max_size=length))
        unretrieved = draw(st.lists(st.integers(0, 3), max_size=3))
        return Ranking.from_grades(grades, unretrieved=tuple(unretrieved))
    text = "".join(draw(st.lists(st.sampled_from("RN"), min_size=length, max_size=length)))
    shown = text.count("R")
    relevant = draw(st.one_of(st.none(), st.integers(shown, shown + 6)))
    return Ranking.parse(text, relevant=relevant)


@settings(max_examples=600, deadline=None)
@given(ranking_case(), st.sampled_from(sorted(n for n in PLAIN if n != "kappa")), st.data())
def test_plain_values_equal_the_explained_metrics(ranking, name, data):
    compute, accepted = PLAIN[name]
    options = {key: data.draw(st.sampled_from(OPTION_VALUES[key]), label=key)
               for key in sorted(accepted) if key in OPTION_VALUES}
    options = {key: value for key, value in options.items() if value is not None}
    if name in ("iprec", "prec-at-recall") and "recall_level" not in options:
        options["recall_level"] = "1/2"
    try:
        explained = REGISTRY.get(name).compute(ranking, **options).value
    except Exception as error:  # the explained metric refuses: the plain one must not give a number
        with pytest.raises(Exception):
            compute(ranking, **options)
        return
    try:
        plain = compute(ranking, **options)
    except Unsupported:
        return
    assert _same_value(plain, explained), (name, ranking, options, plain, explained)


@st.composite
def nearly_ideal_case(draw):
    """A graded ranking at or next to its ideal: judged grades best first, the first ones retrieved, then perhaps
    two ranks swapped (a tie when their grades are equal) or every retrieved grade made 0."""
    grades = sorted(draw(st.lists(st.integers(0, 3), min_size=1, max_size=9)), reverse=True)
    retrieved = draw(st.integers(1, len(grades)))
    ranking, unretrieved = grades[:retrieved], grades[retrieved:]
    change = draw(st.sampled_from(["ideal", "swap", "zero"]))
    if change == "swap" and retrieved > 1:
        i, j = draw(st.integers(0, retrieved - 1)), draw(st.integers(0, retrieved - 1))
        ranking[i], ranking[j] = ranking[j], ranking[i]
    elif change == "zero":
        ranking = [0] * retrieved
        unretrieved = grades  # still judged: the ideal keeps them
    return Ranking.from_grades(ranking, unretrieved=tuple(draw(st.permutations(unretrieved))))


@settings(max_examples=500, deadline=None)
@given(nearly_ideal_case(), st.sampled_from([None, 1, 2, 3, 5, 8]), st.sampled_from([None, "exp", "linear"]),
       st.sampled_from([None, "log2-rank-plus-1", "log2-rank", "reciprocal-rank"]))
def test_ndcg_of_one_or_zero_is_exact_in_the_plain_path(ranking, k, gain, discount):
    # nDCG@k is 1 exactly iff DCG's (gain, discount) terms are IDCG's (irlab.metrics.plain), 0 iff no gain is in
    # the top k: then the plain value is the exact 1 or 0 the explained metric gives, never a double near it
    options = {name: value for name, value in (("k", k), ("gain", gain), ("discount", discount)) if value is not None}
    explained = REGISTRY.get("ndcg").compute(ranking, **options).value
    plain = PLAIN["ndcg"][0](ranking, **options)
    assert _same_value(plain, explained), (ranking, options, plain, explained)
    if explained in (0, 1):
        assert not isinstance(plain, float) and plain == explained, (ranking, options, plain)
    else:  # below 1 and above 0 (whatever the 1e-12 rule would call a float this near)
        assert 0 < exact.to_float(explained) < 1 - 1e-9


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 1), st.integers(0, 1)), min_size=1, max_size=16),
       st.sampled_from([None, "pooled", "per-judge"]))
def test_plain_kappa_equals_the_explained_kappa(pairs, marginals):
    first, second = [a for a, _ in pairs], [b for _, b in pairs]
    options = {} if marginals is None else {"kappa_marginals": marginals}
    try:
        explained = REGISTRY.get("kappa").compute(first, second, **options).value
    except Exception:
        with pytest.raises(Exception):
            PLAIN["kappa"][0](first, second, **options)
        return
    assert PLAIN["kappa"][0](first, second, **options) == explained


# a set whose questions use every option the plain path covers, drawn in ranges that make degenerate draws common
OPTIONS_SET = '''
id = "screening"
title = "Screening"

[[exercise]]
id = "1"
title = "Binary"
statement = "{ranking} (R = {relevant})"
[exercise.parameters]
ranking = "RNRRN"
relevant = 4
[exercise.variants]
ranking = { length = [3, 9], relevant = [1, 4] }
relevant = [1, 6]
[[exercise.question]]
id = "a"
solver = "recall"
k = 3
recall_denominator = "min-relevant-k"
[[exercise.question]]
id = "b"
solver = "ap"
k = 4
ap_denominator = "min-relevant-k"
[[exercise.question]]
id = "c"
solver = "f"
beta = 2
f_weight = "beta-squared"
k = 6
precision_denominator = "retrieved"
[[exercise.question]]
id = "d"
solver = "prec-at-recall"
recall_level = 0.3
[[exercise.question]]
id = "e"
solver = "iprec"
recall_level = "70%"
interpolation = "trec-eval"
tolerance = 0.05
[[exercise.question]]
id = "f"
solver = "precision"
k = 4
allow_degenerate = true

[[exercise]]
id = "2"
title = "Graded"
statement = "{ranking} {unretrieved}"
[exercise.parameters]
ranking = [3, 2, 0, 1]
unretrieved = [2]
[exercise.variants]
ranking = { length = [3, 5], grades = [0, 2] }
unretrieved = { length = [0, 2], grades = [0, 2] }
[[exercise.question]]
id = "a"
solver = "ndcg"
k = 3
discount = "log2-rank"
[[exercise.question]]
id = "b"
solver = "dcg"
gain = "linear"
discount = "reciprocal-rank"
decimals = 1
[[exercise.question]]
id = "c"
solver = "ndcg"
gain = "linear"
min_decimals = 3

[[exercise]]
id = "3"
title = "Judges"
statement = "{retrieved}"
[exercise.parameters]
judgments = [[1, 1, 1], [2, 1, 0], [3, 0, 0], [4, 0, 1]]
retrieved = [1, 2]
[exercise.variants]
judgments = { documents = [4, 7], judges = 2 }
retrieved = { count = [1, 4] }
[[exercise.question]]
id = "a"
solver = "kappa"
kappa_marginals = "per-judge"
[[exercise.question]]
id = "b"
solver = "aggregate"
rule = "any"
'''

# draws whose answers are often exactly 0 or 1 with logarithms (ideal rankings, ties at ranks 1-2 under log2-rank,
# no gain in the top k) or undefined (no document relevant under rule "all", judges who agree on everything)
EDGES_SET = '''
id = "edges"
title = "Edges"

[[exercise]]
id = "1"
title = "Graded"
statement = "{ranking} {unretrieved}"
[exercise.parameters]
ranking = [2, 1, 0]
unretrieved = [1]
[exercise.variants]
ranking = { length = [1, 3], grades = [0, 2] }
unretrieved = { length = [1, 2], grades = [0, 1] }
[[exercise.question]]
id = "a"
solver = "ndcg"
k = 3
[[exercise.question]]
id = "b"
solver = "ndcg"
discount = "log2-rank"
gain = "linear"
'''
# the same judges' exercise twice, its questions in either order: the exact judge stops at the first refusal
JUDGES_EXERCISE = '''
[[exercise]]
id = "{id}"
title = "Judges"
statement = "{{retrieved}}"
[exercise.parameters]
judgments = [[1, 1, 1], [2, 1, 0], [3, 0, 0]]
retrieved = [1, 2]
[exercise.variants]
judgments = {{ documents = [1, 3], judges = 2 }}
retrieved = {{ count = [1, 2] }}
[[exercise.question]]
id = "a"
{first}
[[exercise.question]]
id = "b"
{second}
'''
KAPPA, ALL_JUDGES = 'solver = "kappa"\nkappa_marginals = "per-judge"', 'solver = "aggregate"\nrule = "all"'
EDGES_SET += (JUDGES_EXERCISE.format(id="2", first=KAPPA, second=ALL_JUDGES)
              + JUDGES_EXERCISE.format(id="3", first=ALL_JUDGES, second=KAPPA))

SETS = [ROOT / "exercises" / "homework-variants.toml", ROOT / "exercises" / "chapter8-seed.toml",
        ROOT / "exercises" / "chapter8-book.toml"]


@pytest.fixture(scope="module")
def options_set(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("screening") / "screening.toml"
    path.write_text(OPTIONS_SET, encoding="utf-8")
    return path


def _draws(path: Path, count: int, seed: int):
    exercise_set = load(path)
    rng = random.Random(seed)
    for exercise in exercise_set.exercises:
        if not exercise.variants:
            continue
        for _ in range(count):
            params = draw_parameters(exercise, rng, exercise_set.path)
            if _count_problem(params) is not None:
                continue
            candidate = replace(exercise, parameters=params, stated=_stated(exercise, params))
            statement_text(candidate, params, exercise_set.path)
            yield exercise_set.path, candidate


@pytest.mark.parametrize("which", range(len(SETS) + 1))
def test_a_screened_verdict_is_the_exact_judges_verdict(which, options_set):
    path = options_set if which == len(SETS) else SETS[which]
    counts = {"sure": 0, "unsure": 0, "refused": 0}
    for where, candidate in _draws(path, 150, 20261127 + which):
        verdict = screening.screen(candidate, where)
        if verdict is None:
            counts["unsure"] += 1
            continue
        problem, degenerate, _, _ = _judged_exactly(candidate, where, [])
        assert verdict == (problem, degenerate), (candidate.id, candidate.parameters)
        counts["sure"] += 1
        counts["refused"] += problem is not None
    if which in (0, len(SETS)):  # sets the plain path covers: most draws are decided, refused ones among them
        assert counts["sure"] > 3 * counts["unsure"] and counts["refused"] > 0, counts


def test_exact_edges_are_screened_as_the_exact_judge_decides_them(tmp_path):
    # every draw of EDGES_SET is decided on plain values, with the exact judge's verdict; among them answers of 1
    # and 0 from sums with logarithms and the solvers' refusals of undefined values, in their own words
    path = tmp_path / "edges.toml"
    path.write_text(EDGES_SET, encoding="utf-8")
    seen = {"is 1": 0, "is 0": 0, "kappa undefined": 0, "recall undefined": 0, "issued": 0}
    for where, candidate in _draws(path, 120, 34):
        verdict = screening.screen(candidate, where)
        problem, degenerate, _, _ = _judged_exactly(candidate, where, [])
        assert verdict == (problem, degenerate), (candidate.id, candidate.parameters, verdict, problem)
        if problem is None:
            seen["issued"] += 1
        elif problem.endswith("the answer is 1") and candidate.id == "1":
            seen["is 1"] += 1
        elif problem.endswith("the answer is 0") and candidate.id == "1":
            seen["is 0"] += 1
        elif "undefined" in problem:
            seen["kappa undefined" if "kappa" in problem else "recall undefined"] += 1
    assert all(count > 5 for count in seen.values()), seen


@pytest.mark.parametrize("path", [SETS[0], "options"])
def test_a_class_gets_the_same_variants_with_or_without_the_screen(path, options_set, monkeypatch):
    path = options_set if path == "options" else path
    students = [f"s{i:03d}" for i in range(40)]

    def variants():
        drawing.clear_drawing_caches()
        return [(e.id, e.parameters, e.refused_draws) for s in students
                for e in drawing.variant_set(path, s, "screening").exercises]

    screened = variants()
    monkeypatch.setattr(drawing, "screen", lambda candidate, where, grading=None: None)
    exact_only = variants()
    drawing.clear_drawing_caches()
    assert screened == exact_only
    assert any(refused for _, _, refused in screened)


def test_unsupported_cases_are_left_to_the_explained_metrics():
    scored = Ranking.parse("RNR", scores="0.9,0.5,0.5")
    with pytest.raises(Unsupported):
        PLAIN["precision"][0](scored, k=2)
    with pytest.raises(Unsupported):
        PLAIN["ndcg"][0](Ranking.parse("2,1,0"), gains="1=3")
    with pytest.raises(Unsupported):
        PLAIN["ap"][0](Ranking.parse("-"))
    # a question with an option the plain path does not cover is "unsure", never guessed
    question = replace(load(SETS[0]).exercises[0].questions[0], options={"ties": "tie-averaged"})
    with pytest.raises(Unsupported):
        plain_answers.plain_parts({"ranking": "RNR", "relevant": 3}, question, Where("x", "1", "a"))


def test_a_value_with_logarithms_is_compared_as_the_exact_judge_does():
    # nDCG@3 of 1,0,1 with log2(i + 1): (1 + 1/2) / (1 + 1/log2(3)); plain float vs the exact sympy value
    ranking = Ranking.from_grades([1, 0, 1])
    plain = PLAIN["ndcg"][0](ranking, k=3)
    explained = REGISTRY.get("ndcg").compute(ranking, k=3).value
    assert isinstance(plain, float) and exact.is_symbolic(explained)
    assert abs(plain - 1.5 / (1 + 1 / math.log2(3))) < 1e-15
    assert _same_value(plain, explained)
    # rational when every discount is: DCG with 1/i, and nDCG whose irrational terms have gain 0
    assert PLAIN["dcg"][0](ranking, discount="reciprocal-rank") == Fraction(4, 3)  # 1 + 0/2 + 1/3
    assert PLAIN["ndcg"][0](Ranking.from_grades([1, 0, 0])) == 1


@pytest.mark.parametrize("path", [SETS[0], "options"])
def test_a_question_judged_when_drawn_has_no_finding_when_computed_again(path, options_set):
    # the sheets and keys skip computing the findings of questions the drawing judged: computed, they are none
    from irlab.homework.diagnosis import key_too_close
    from irlab.homework.findings import question_findings
    from irlab.homework.key import answer_key
    path = options_set if path == "options" else path
    skipped = 0
    for student in [f"s{i:03d}" for i in range(25)]:
        drawing.clear_drawing_caches()
        for exercise, question, found in question_findings(path, student, "screening"):
            if drawing.judged_worth_solving(exercise, question):
                skipped += 1
                assert found == [] and key_too_close(answer_key(path, exercise.id, question.id, student,
                                                                "screening")) == []
            else:  # opted out (allow_degenerate): computed
                assert question.options.get("allow_degenerate")
    assert skipped > 100


@settings(max_examples=2000, deadline=None)
@given(st.fractions(min_value=-2, max_value=2, max_denominator=10**6),
       st.fractions(min_value=-2, max_value=2, max_denominator=10**6),
       st.sampled_from([{}, {"tolerance": "0.01"}, {"decimals": 2}, {"min_decimals": 3}, {"tolerance": "0.001",
                        "accept_rounded": False}, {"tolerance": 0, "abs_tolerance": "0.005"}, {"decimals": 4}]),
       st.sampled_from([Fraction(0), Fraction(1, 10**5), Fraction(1, 200), Fraction(-1, 300)]))
def test_answers_fit_both_in_doubles_agrees_with_the_exact_definition(right, mistaken, options, shift):
    from irlab.answer_options import Tolerance
    from irlab.homework.diagnosis import answers_fit_both, fit_both_exactly
    tolerance = Tolerance.of(options)
    mistaken = mistaken if mistaken != right else right + shift  # also values right at a tolerance's edge
    assert answers_fit_both(right, mistaken, tolerance) == fit_both_exactly(right, mistaken, tolerance)


def test_answers_fit_both_at_the_very_edge_is_decided_exactly():
    from irlab.answer_options import Tolerance
    from irlab.homework.diagnosis import answers_fit_both
    two_decimals = Tolerance.of({"decimals": 2})  # reach: two half-units, 1/100
    right = Fraction(1, 3)
    assert answers_fit_both(right, right + Fraction(1, 100), two_decimals)
    assert not answers_fit_both(right, right + Fraction(1, 100) + Fraction(1, 10**30), two_decimals)


@pytest.mark.parametrize("path", [SETS[0], "options"])
def test_diagnosing_with_the_mistakes_near_an_answer_is_diagnosing_with_them_all(path, options_set):
    # a wrong answer is diagnosed from the named mistakes whose plain values may lie near it, re-solved with their
    # explanations; the others diagnose itself passes over: the diagnosis must be the very same
    from irlab.homework.diagnosis import diagnose, mistaken_near_answer
    from irlab.homework.key import answer_key, clear_key_caches
    path = options_set if path == "options" else path
    rng = random.Random(7)
    compared = matched = pruned = 0
    for student in [f"d{i:03d}" for i in range(12)]:
        drawing.clear_drawing_caches()
        clear_key_caches()
        for exercise in drawing.variant_set(path, student, "near").exercises:
            for question in exercise.questions:
                if question.solver == "free-text":
                    continue
                key = answer_key(path, exercise.id, question.id, student, "near")
                for part in key.parts:
                    everything = key.mistaken(part)
                    key.candidates.clear()  # as a fresh key: only the near ones are re-solved
                    values = [exact.to_float(result.value) for _, result, _ in everything] + [
                        exact.to_float(part.value), rng.random()]
                    for value in values:
                        for decimals in (2, 3, 4, 6):
                            text = f"{value:.{decimals}f}"
                            given = Fraction(text)
                            args = (given, key.question, key.params, part.result, part.index, key.tolerance, text)
                            near = mistaken_near_answer(key, part, given, text)
                            assert len(near) <= len(everything)
                            pruned += len(near) < len(everything)
                            expected = diagnose(*args, everything, key.path)
                            assert diagnose(*args, near, key.path) == expected, (student, question.id, text)
                            compared += 1
                            matched += expected is not None
    assert compared > 500 and matched > 50 and pruned > 100


def test_a_long_ranking_is_left_to_the_explained_metric_and_its_work_bounds():
    # AP over thousands of ranks builds exact values of thousands of digits: the explained metric bounds that work
    # (irlab.limits) and the plain path does not try
    long = Ranking.parse("R" + "N" * 1500 + "R", relevant=2)
    with pytest.raises(Unsupported):
        PLAIN["ap"][0](long)
    assert PLAIN["ap"][0](Ranking.parse("R" + "N" * 900 + "R", relevant=2)) == (1 + Fraction(2, 902)) / 2


@st.composite
def rounding_zone_case(draw):
    """A right value and a mistaken one whose gap lies between the tolerances' reach and that reach plus one unit of
    min_decimals (where only a correct rounding can fit both), or next to either edge, with the tolerance."""
    from irlab.answer_options import Tolerance
    options = draw(st.sampled_from([{}, {"tolerance": "0.01"}, {"min_decimals": 3}, {"tolerance": 0, "abs_tolerance": "0.005"},
                                    {"tolerance": "0.001", "min_decimals": 1}, {"min_decimals": 0}]))
    tolerance = Tolerance.of(options)
    right = draw(st.floats(min_value=-3, max_value=3, allow_nan=False, allow_subnormal=False))
    share = draw(st.one_of(st.floats(min_value=-0.2, max_value=1.2), st.sampled_from([0.0, 1.0, 1 + 1e-12, -1e-12])))
    sign = draw(st.sampled_from([1, -1]))
    rtol, atol = float(tolerance.rtol), float(tolerance.atol)
    reach = 2 * max(rtol * abs(right), atol)  # about: the mistaken value's own bound is near the right one's
    return right, right + sign * (reach + share * 10.0 ** -tolerance.min_decimals), tolerance


@settings(max_examples=3000, deadline=None)
@given(rounding_zone_case())
def test_fitting_both_decided_in_doubles_is_the_exact_decision_of_every_nearby_value(case):
    # screening._fit_by_rounding decides in doubles whether some correct rounding fits both values; when it
    # decides, the exact definition gives that answer for the doubles and for values 1e-12 from them either way
    # (the exact judge's doubles may differ from the plain ones in their last bits)
    from irlab.homework.diagnosis import fit_both_exactly
    right, mistaken, tolerance = case
    decided = screening._fit_by_rounding(right, mistaken, tolerance)
    if decided is None:
        return
    for a, b in ((0, 0), (1, 1), (1, -1), (-1, 1), (-1, -1)):
        assert fit_both_exactly(Fraction(right * (1 + a * 1e-12)), Fraction(mistaken * (1 + b * 1e-12)),
                                tolerance) is decided, (right, mistaken, tolerance)


def test_fitting_both_by_a_rounding_is_decided_in_doubles_away_from_its_edges():
    from irlab.answer_options import Tolerance
    default = Tolerance()  # 1 % either way, or a correct rounding to at least 2 decimals
    assert default.rtol == Fraction(1, 100) and default.min_decimals == 2 and default.accept_rounded
    # 0.0149 and 0.0051: far outside 1 % of each other, within one unit of 2 decimals, and both round to 0.01
    assert screening._fit_by_rounding(0.0149, 0.0051, default) is True
    # 0.7 and 0.7142: 0.0142 apart, beyond the reach 0.007 + 0.007142; rounded, 0.70 is 0.0142 from 0.7142 and
    # 0.71 is 0.01 from 0.7 (more than 1 % of either), and finer roundings are further apart still
    assert screening._fit_by_rounding(0.7, 0.7142, default) is False
    assert fit_both_exactly_of(0.0149, 0.0051, default) is True and fit_both_exactly_of(0.7, 0.7142, default) is False
    # on a rounding's half unit, or at the reach itself, it leaves the question to the exact test
    assert screening._fit_by_rounding(0.125, 0.1335, default) is None  # 0.125 is half way between 0.12 and 0.13
    assert screening._fit_by_rounding(1.0, 1 + 2 / 99, default) is None  # the gap 2/99 is the reach 1/100 + (101/99)/100


def fit_both_exactly_of(right: float, mistaken: float, tolerance) -> bool:
    from irlab.homework.diagnosis import fit_both_exactly
    return fit_both_exactly(Fraction(right), Fraction(mistaken), tolerance)


def test_a_questions_rewrites_are_built_once_and_are_the_catalogues_rewrites():
    # mistakes.rewrites keeps the rewritten questions of a question whose options name no parameter: the same
    # (mistake, question, parameters, context) as each mistake's own rewrite on the question, on every draw
    from irlab.exercise_set import resolve_question
    from irlab.homework.mistakes import MISTAKES, rewrites
    exercise_set = load(SETS[0])
    rng = random.Random(3)
    compared = 0
    for exercise in exercise_set.exercises:
        for _ in range(5):
            params = draw_parameters(exercise, rng, exercise_set.path)
            for question in exercise.questions:
                resolved = resolve_question(question, params)
                expected = [(mistake, rewrite) for mistake in MISTAKES if mistake.rewrite is not None
                            for rewrite in mistake.rewrite(resolved, params)]
                first, again = list(rewrites(question, params)), list(rewrites(question, params))
                assert first == expected == again
                assert all(a[1].params is params or a[1].params == b[1].params for a, b in zip(first, expected))
                assert all(a[1].question is b[1].question for a, b in zip(first, again))  # built once
                compared += len(first)
    assert compared > 50
    # a question whose option names a parameter is rewritten on each draw's value
    question = replace(exercise_set.exercises[0].questions[1], options={"k": "{relevant}"})
    ks = [rewrite.question.options["k"] for mistake, rewrite in rewrites(question, {"ranking": "RNRNR", "relevant": 4})
          if mistake.name == "off-by-one-rank"]
    assert ks == [3, 5]


def test_the_plain_memo_of_a_screen_never_mixes_parameters():
    # plain_parts's memo is keyed by objects' ids; it keeps them alive, so a parameters dict made after another is
    # gone is never taken for it
    exercise_set = load(SETS[0])
    rng = random.Random(5)
    memo: dict = {}
    for exercise in exercise_set.exercises:
        for _ in range(30):
            params = dict(draw_parameters(exercise, rng, exercise_set.path))
            for question in exercise.questions:
                where = Where(exercise_set.path, exercise.id, question.id)
                try:
                    alone = plain_answers.plain_parts(params, question, where)
                except Exception as error:  # not covered, or a draw the drawing refuses (R below the hits)
                    with pytest.raises(type(error)):
                        plain_answers.plain_parts(params, question, where, memo)
                    continue
                assert plain_answers.plain_parts(params, question, where, memo) == alone
                assert plain_answers.plain_parts(params, question, where, memo) == alone


def test_an_ideal_ranking_longer_than_any_list_is_summed_without_keeping_its_ranks():
    # R = 1,200 relevant documents, 2 of them retrieved: IDCG sums 1,200 ranks; the table of discounts the plain
    # path keeps stops at the longest ranking it reads (1,000 ranks), the value is the explained one all the same
    from irlab.metrics import plain
    ranking = Ranking.parse("RNR", relevant=1200)
    value = PLAIN["ndcg"][0](ranking)
    assert _same_value(value, REGISTRY.get("ndcg").compute(ranking).value)
    assert 0.0104 < value < 0.0106  # (1 + 1/2) / Σ_{i<=1200} 1/log2(i + 1)
    assert all(len(keys) <= 1000 for keys in plain._KEYS.values())


@settings(max_examples=500, deadline=None)
@given(st.fractions(min_value=-2, max_value=2, max_denominator=10**4),
       st.lists(st.one_of(st.fractions(min_value=-3, max_value=3, max_denominator=10**4),
                          st.sampled_from([(Fraction(100),), (Fraction(1, 100),)])), min_size=1, max_size=5),
       st.sampled_from([{}, {"tolerance": "0.05"}, {"decimals": 2}, {"min_decimals": 3}, {"tolerance": 0, "abs_tolerance": "0.5"},
                        {"decimals": 0}, {"form": "fraction"}]),
       st.integers(0, 40))
def test_mistakes_screened_as_all_far_are_all_passed_over_by_fitting_both(right, values, options, near):
    # screening._all_far skips fitting_both when, in doubles, every mistake is far beyond its reach or gives the
    # right value itself: fitting_both must then find none (values are also drawn just outside the reach, ``near``
    # units of it away, and equal to the right value)
    from irlab.answer_options import Tolerance
    from irlab.homework.diagnosis import answer_margin, fitting_both
    from irlab.homework.mistakes import MISTAKES
    tolerance = Tolerance.of(options)
    reach = Fraction(2 * answer_margin(right, float(right), tolerance))
    values = [v if isinstance(v, tuple) or near == 0 else right + reach * (1 + Fraction(near, 10**6)) for v in values]
    values[near % len(values)] = right if near % 3 == 0 else values[near % len(values)]  # the right value itself
    mistaken = list(zip(MISTAKES, values))
    if screening._all_far(right, mistaken, tolerance):
        assert list(fitting_both(right, tolerance, mistaken)) == []
        assert all(isinstance(v, tuple) or v == right or abs(v - right) > reach for v in values)
    if all(not isinstance(v, tuple) and v == right for v in values):
        assert screening._all_far(right, mistaken, tolerance)  # (a mistake that gives the right value is none)
