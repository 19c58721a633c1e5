"""An explanation's fields are worked out only when it names them (diagnosis._Context): every named mistake's
explanation reads, word for word, as it does with every field worked out beforehand, for the questions of the
chapter-8 sets (AP denominators, recall levels, cut-offs, rankings with and without R) and of two students'
variants, for every answer form the advice may name."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from irlab.exercise_set import Where, resolve_question
from irlab.homework import diagnosis
from irlab.homework.drawing import variant_set
from irlab.homework.key import answer_key
from irlab.homework.mistakes import MISTAKES

ROOT = Path(__file__).resolve().parents[1]
SETS = [ROOT / "exercises" / name for name in ("chapter8-book.toml", "chapter8-seed.toml", "homework-variants.toml")]


def _keys():
    found = []
    for path in SETS:
        for student in ((None,) if "variants" not in path.name else ("ana", "bo")):
            for exercise in variant_set(path, student, "fields").exercises:
                for question in exercise.questions:
                    try:
                        key = answer_key(path, exercise.id, question.id, student, "fields")
                    except Exception:  # a question this set cannot key (free text, a refusal): nothing to explain
                        continue
                    found.extend((key, part) for part in key.parts if part.result is not None)
    for key, part in list(found):  # the AP divisor's three wordings
        if key.question.solver == "ap":
            for choice in ("retrieved", "min-relevant-k", "relevant"):
                question = replace(key.question, options={**key.question.options, "ap_denominator": choice})
                found.append((replace(key, question=question, candidates={}), part))
    return found


KEYS = _keys()


def _eager(key, part, given, percent_sign, fractions, rewrite_context) -> dict:
    """Every field worked out first, as diagnose did before: the question's, the value's forms, the answer, then
    the rewrite's own on top."""
    question = resolve_question(key.question, key.params, Where(key.path, None, key.question.id))
    return {**diagnosis._question_fields(question, key.params),
            **diagnosis._value_forms(part.value, percent_sign, fractions), "given": given, **rewrite_context}


class _Unknown(dict):
    def __missing__(self, name):
        return "?"


def test_the_questions_cover_every_field():
    assert len(KEYS) >= 60
    assert any(key.question.options.get("ap_denominator") for key, _ in KEYS)
    assert any(key.question.options.get("recall_level") for key, _ in KEYS)
    assert any(isinstance(key.question.options.get("k"), int) for key, _ in KEYS)


@pytest.mark.parametrize("percent_sign,fractions", [(True, True), (False, True), (True, False), (False, False)])
def test_every_explanation_reads_as_with_every_field_worked_out(percent_sign, fractions):
    told = 0
    for key, part in KEYS:
        rewrites = [(mistake, rewrite.context) for mistake, _, rewrite in key.mistaken(part)]
        for mistake, rewrite_context in rewrites + [(mistake, {}) for mistake in MISTAKES]:
            context = diagnosis._Context(key.question, key.params, key.path, part.value, "0.123", percent_sign,
                                         fractions)
            fields = diagnosis._Fields(rewrite_context)
            fields.context = context
            expected = mistake.explanation.format_map(_Unknown(_eager(key, part, "0.123", percent_sign, fractions,
                                                                      rewrite_context)))
            assert mistake.explanation.format_map(fields) == expected
            told += "?" not in expected
    assert told > 100  # most explanations are filled in, not '?'
