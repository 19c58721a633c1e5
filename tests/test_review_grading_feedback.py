"""Adversarial review of feedback found again (feedback._graded_kept, 4ae317e): many keys graded in one process
share the table of answers graded already, so a key must never find another key's feedback unless grading it
afresh gives the very same. Keys here differ in what the synthetic class never varies at once: the same exercise
and question ids in sets with other [grading] tables (tolerance, abs_tolerance, accept_rounded, decimals, form),
several parts, logarithmic values revealed with and without exact values, and answers on the tolerance's edge."""

from __future__ import annotations

import random
from fractions import Fraction as F
from pathlib import Path

import pytest

from irlab import exact
from irlab.homework import feedback
from irlab.homework.answers import rational_value
from irlab.homework.diagnosis import part_too_close
from irlab.homework.feedback import grade_part, grade_reference, kept
from irlab.homework.key import answer_key, clear_key_caches

ROOT = Path(__file__).resolve().parents[1]

# One exercise, the same ids and values in every set: precision 1/3 (3 of 9 retrieved relevant), nDCG (logarithms)
# and a two-part question. Only the [grading] table differs, so only the tolerance tells the keys apart.
SAME_IDS = '''
id = "review"
title = "Review"

[[exercise]]
id = "1"
title = "List"
statement = "{ranking}"
[exercise.parameters]
ranking = "RNNRNNRNN"
relevant = 4
collection = 100
[[exercise.question]]
id = "a"
solver = "precision"
[[exercise.question]]
id = "b"
solver = "precision"
k = 3
[[exercise.question]]
id = "c"
solver = "map-bounds"
answer = "bounds"
[[exercise]]
id = "2"
title = "Graded"
statement = "{ranking}"
[exercise.parameters]
ranking = [3, 0, 2, 1]
unretrieved = [2]
[[exercise.question]]
id = "a"
solver = "ndcg"
gain = "linear"

[grading]
'''
GRADINGS = ['tolerance = 0.01', 'tolerance = 0.005\naccept_rounded = false', 'tolerance = 0\nabs_tolerance = 0',
            'abs_tolerance = 0.004\ntolerance = 0', 'decimals = 3', 'form = "fraction"', 'tolerance = 0.2',
            'tolerance = 0.01\nmin_decimals = 4']


@pytest.fixture(scope="module")
def keys(tmp_path_factory):
    folder = tmp_path_factory.mktemp("review-feedback")
    found = []
    for number, grading in enumerate(GRADINGS):
        path = folder / f"set{number}.toml"
        path.write_text(SAME_IDS + grading + "\n", encoding="utf-8")
        for exercise_id, question_id in (("1", "a"), ("1", "b"), ("1", "c"), ("2", "a")):
            found.append(answer_key(path, exercise_id, question_id))
    for student in ("ada", "bo", "cy"):  # the synthetic class's set, other students' variants
        for exercise_id, question_id in (("1", "a"), ("1", "c"), ("1", "f"), ("2", "a"), ("3", "a")):
            found.append(answer_key(ROOT / "exercises" / "homework-variants.toml", exercise_id, question_id,
                                    student))
    for key in found:  # the findings a drawn key comes with: a right answer to a part without any is found again
        for part in key.parts:
            part_too_close(key, part)
    yield found
    clear_key_caches()


def _answers(value) -> list[str]:
    """Right answers in every form and on both edges of the usual tolerances, blank and unreadable ones."""
    right = rational_value(value)
    texts = ["", "   ", "abc", "1/0", "50%%", f"{right.numerator}/{right.denominator}"]
    texts += [exact.decimal_text(right, d, strip=False) for d in range(1, 7)]
    texts += [exact.decimal_text(right * 100, d) + "%" for d in (0, 1, 2)]
    for share in (F(1, 100), F(1, 200), F(1, 5)):  # exactly on the relative edge, and just past it
        for edge in (right * (1 + share), right * (1 - share), right + F(4, 1000), right - F(4, 1000)):
            texts += [exact.decimal_text(edge, 12), f"{edge.numerator}/{edge.denominator}"]
    return texts


def test_feedback_found_again_is_graded_afresh_across_keys_that_share_ids(keys):
    """Every (key, part, answer, exact_values) graded in a shuffled order twice over, with one table shared by all
    keys, gives exactly what grading it afresh gives; and the table was really used across keys."""
    cases = []
    for key in keys:
        for part in key.parts:
            if part.result is None:
                continue
            ref = None if len(key.parts) == 1 else part.number
            cases += [(key, part, ref, text, shown) for text in _answers(part.value) for shown in (True, False)]
    order = cases * 2
    random.Random(40).shuffle(order)
    feedback._forget_answered()
    found_again = 0
    verdicts = set()
    for key, part, ref, text, shown in order:
        before = len(feedback._ANSWERED)
        got = grade_reference(key, ref, text, exact_values=shown)[0]
        found_again += len(feedback._ANSWERED) == before and got.status in ("correct", "invalid")
        fresh = kept(grade_part(key, part, text, exact_values=shown))
        assert got == fresh, (key.path.name, key.question.id, part.name, text, shown)
        verdicts.add(got.status)
    correct_found = sum(entry.status == "correct" for entry in feedback._ANSWERED.values())
    assert verdicts == {"correct", "wrong", "invalid"} and found_again > len(order) // 4 and correct_found > 100


def test_same_ids_and_answer_under_another_tolerance_are_not_found_again(keys):
    """'0.33' to precision 1/3 is right under a 1% tolerance (on its very edge) and wrong under 0.5% with no
    rounding accepted: the same ids, value and text, so only the tolerance in the lookup keeps them apart."""
    by_grading = {}
    for key in keys:
        if key.path.name.startswith("set") and key.question.id == "a" and key.exercise.id == "1":
            by_grading[key.path.name] = key
    loose, strict = by_grading["set0.toml"], by_grading["set1.toml"]
    assert loose.parts[0].value == strict.parts[0].value == F(1, 3)
    assert feedback._known_clear(loose, loose.parts[0]) and feedback._known_clear(strict, strict.parts[0])
    feedback._forget_answered()
    for first, second in ((loose, strict), (strict, loose)):
        feedback._forget_answered()
        graded = [grade_reference(key, None, "0.33")[0].status for key in (first, second)]
        assert len(feedback._ANSWERED) == 1 and graded == (["correct", "wrong"] if first is loose else ["wrong", "correct"])
