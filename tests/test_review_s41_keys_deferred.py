"""Review of mistakes.Deferred on DCG and nDCG questions whose discounts are all rational.

tests/test_diagnosis_deferred.py draws its questions from the variant files, whose DCG and nDCG take logarithms, so
their named mistakes' plain values are doubles and never deferred. With k = 1, a log2-rank discount at k = 2 or the
reciprocal-rank discount, the plain values are exact Fractions (Fraction(3, 1) where the explained DCG gives the int
3, or a sympy number) and the mistakes are listed unsolved. An answer equal to each named mistake's value, written
exactly and rounded, must be diagnosed over those near mistakes exactly as over every mistake solved.
"""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from irlab import exact
from irlab.exercise_set import Question, Where, solve_question
from irlab.homework.answers import parse_answer
from irlab.homework.diagnosis import diagnose, mistaken_near_answer
from irlab.homework.key_build import build_key
from irlab.homework.mistakes import Deferred

OPTIONS = [{"k": 1}, {"k": 2, "discount": "log2-rank"}, {"k": 3, "discount": "reciprocal-rank"},
           {"k": 1, "gain": "linear"}, {"k": 2, "discount": "reciprocal-rank", "gain": "linear"}]
DRAWS = [{"ranking": [2, 0, 3], "unretrieved": [1]}, {"ranking": [1, 3, 2, 0]},
         {"ranking": [3, 3, 1], "unretrieved": [2, 2]}, {"ranking": "RNNR", "relevant": 3}]


def _written(value) -> list[str]:
    if exact.is_symbolic(value):
        return [exact.decimal_text(value, 6), exact.decimal_text(value, 2)]
    return [exact.exact_text(value), exact.decimal_text(value, 2), exact.decimal_text(value, 4, strip=False)]


@pytest.mark.parametrize("solver", ["dcg", "ndcg"])
@pytest.mark.parametrize("options", OPTIONS, ids=repr)
def test_deferred_rational_dcg_mistakes_diagnose_as_solved_ones(solver, options, tmp_path):
    where = Where(tmp_path / "set.toml", "1", "a")
    question = Question("a", "?", solver, options)
    deferred = 0
    for params in DRAWS:
        key = build_key(where.path, SimpleNamespace(id="1"), question, params, solve_question(params, question, where),
                        {})
        part = key.parts[0]
        every = key.mistaken(part)
        assert every
        for _, result, _ in every:
            for text in _written(result.value):
                parsed = parse_answer(text)
                saved = dict(key.candidates)
                key.candidates.clear()  # as a key whose mistakes were never all solved
                near = mistaken_near_answer(key, part, parsed.value, parsed.shown)
                key.candidates.update(saved)
                deferred += sum(type(found) is Deferred for _, found, _ in near)
                assert (diagnose(parsed.value, question, params, part.result, 0, key.tolerance, parsed.shown, near,
                                 key.path, parsed.resolution)
                        == diagnose(parsed.value, question, params, part.result, 0, key.tolerance, parsed.shown, every,
                                    key.path, parsed.resolution)), (params, text)
    assert deferred > 0  # the case under review: exact plain values, listed unsolved
