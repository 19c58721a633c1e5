"""The diagnosis of one answer weighs only the named mistakes near it (diagnosis.mistaken_near_answer), and solves
with its explanation a mistake whose plain value is exact only when it is named (mistakes.Deferred). Both must name
what the diagnosis over every mistake, each solved with its explanation (the key's own list), names."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from irlab.homework import diagnosis, mistakes
from irlab.homework.answers import parse_answer
from irlab.homework.diagnosis import diagnose, mistaken_near_answer
from test_feedback_fast import keys, written  # noqa: F401  (the fixture: nine questions of two variants, and kappa)


def _near_candidates(key, part, parsed):
    saved = dict(key.candidates)
    key.candidates.clear()  # as a key whose mistakes were never all solved
    try:
        return mistaken_near_answer(key, part, parsed.value, parsed.shown)
    finally:
        key.candidates.update(saved)


def _diagnosed(key, part, parsed, candidates):
    return diagnose(parsed.value, key.question, key.params, part.result, part.index, key.tolerance, parsed.shown,
                    candidates, key.path, parsed.resolution)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.data())
def test_a_diagnosis_over_the_near_mistakes_is_the_diagnosis_over_all(keys, data):  # noqa: F811
    key, part, right, mistaken = data.draw(st.sampled_from(keys))
    parsed = parse_answer(data.draw(written(key, right, mistaken)))
    if not parsed.ok:
        return
    near = _near_candidates(key, part, parsed)
    assert _diagnosed(key, part, parsed, near) == _diagnosed(key, part, parsed, key.mistaken(part))


def test_deferred_mistakes_are_solved_only_when_named(keys, monkeypatch):  # noqa: F811
    """The AP question's mistakes have exact plain values: listed unsolved, and an answer equal to one of them has
    that one (and no other) solved, naming it as the explained value does."""
    solved = []
    real = mistakes._solved
    monkeypatch.setattr(mistakes, "_solved", lambda *args: solved.append(args[0]) or real(*args))
    key, part, right, mistaken = next(case for case in keys if case[0].question.solver == "ap")
    value = next(v for v in mistaken[:-2] if v != right)
    parsed = parse_answer(str(value))
    near = _near_candidates(key, part, parsed)
    assert near and all(type(result) is mistakes.Deferred for _, result, _ in near)
    assert solved == []
    found = _diagnosed(key, part, parsed, near)
    assert found is not None and found.mistaken_value == value
    assert [rewrite for _, result, rewrite in near if result.value == value] == solved[:1] and len(solved) >= 1
    assert found == _diagnosed(key, part, parsed, key.mistaken(part))
    assert diagnosis.Deferred is mistakes.Deferred
