"""Adversarial review of drawing's shortcuts: a later draw's statement check skipped (drawing._check_statement),
integers drawn with _randbelow instead of randint, and Exercises copied by copied() instead of dataclasses.replace.

Reference: the same students' variants drawn with every draw's statement filled (statement_text, as before the
shortcut), for sets whose later draws cross MAX_FILLED_TEXT one way or the other (long R/N rankings named three
times, lists of grades with unretrieved grades, several rankings with an R per query, judgment tables named twice,
a threshold, non-ASCII text): the same variants and the same refusals, word for word."""

import dataclasses
import random

import pytest

from irlab import limits
from irlab.exercise_set import Exercise, ExerciseSet, copied, load, statement_text
from irlab.homework import drawing

HEAD = 'id = "{name}"\ntitle = "t"\n[[exercise]]\nid = "1"\ntitle = "x"\n'
SETS = {
    "rn": '''statement = """Liste \u00e9\u2026 {ranking} ({length} docs, {relevant_shown} rel) again {ranking} and {ranking} R={relevant}"""
[exercise.parameters]
ranking = "RNRRNNRNNR"
relevant = 7
[exercise.stated]
length = 10
relevant_shown = 5
[exercise.variants]
ranking = { length = [5, 150], relevant = [1, 5] }
relevant = [5, 9]
[[exercise.question]]
id = "a"
solver = "precision"
''',
    "grades": '''statement = """Grades {ranking}; not retrieved {unretrieved}."""
[exercise.parameters]
ranking = [3, 2, 0, 1, 2]
unretrieved = [3, 1]
[exercise.variants]
ranking = { length = [3, 120], grades = [0, 3] }
unretrieved = { length = [0, 60], grades = [1, 3] }
[[exercise.question]]
id = "a"
solver = "ndcg"
k = 5
''',
    "threshold": '''statement = """Grades {ranking}, threshold {threshold}, {length} ranks, {relevant_shown} relevant."""
[exercise.parameters]
ranking = [3, 2, 0, 1, 2]
threshold = 2
[exercise.variants]
ranking = { length = [3, 60], grades = [0, 3] }
threshold = [1, 3]
[[exercise.question]]
id = "a"
solver = "precision"
''',
    "rankings": '''statement = """Rankings {rankings}; R per query {relevant}."""
[exercise.parameters]
rankings = ["RNR", "NRR"]
relevant = [3, 4]
[exercise.variants]
rankings = { count = [1, 8], length = [3, 40], relevant = [1, 3] }
relevant = [[3, 6], [3, 6], [3, 6], [3, 6], [3, 6], [3, 6], [3, 6], [3, 6]]
[[exercise.question]]
id = "a"
solver = "map"
''',
    "judgments": '''statement = """Judgments {judgments}; retrieved {retrieved}; again {judgments}."""
[exercise.parameters]
judgments = [[1, 1, 1], [2, 1, 0], [3, 0, 0], [4, 1, 1], [5, 0, 1], [6, 0, 0], [7, 1, 1], [8, 0, 0], [9, 1, 0], [10, 0, 0]]
retrieved = [1, 2, 4, 5]
[exercise.variants]
judgments = { documents = [6, 60], judges = 2 }
retrieved = { count = [3, 6] }
[[exercise.question]]
id = "a"
solver = "kappa"
''',
}
STUDENTS = 24


def _variants(path):
    drawing.clear_drawing_caches()
    outcomes = []
    for student in range(STUDENTS):
        try:
            exercise = drawing.variant_set(path, f"s{student}").exercises[0]
            outcomes.append((exercise.parameters, exercise.stated, exercise.refused_draws))
        except Exception as error:  # noqa: BLE001 - the refusal itself is compared
            outcomes.append((type(error).__name__, str(error)))
    return outcomes


@pytest.mark.parametrize("name", sorted(SETS))
@pytest.mark.parametrize("bound", [200, 300, 420, 600, 1000])
def test_later_draws_are_refused_and_issued_as_when_every_statement_is_filled(tmp_path, monkeypatch, name, bound):
    path = tmp_path / f"{name}.toml"
    path.write_text(HEAD.format(name=name) + SETS[name], encoding="utf-8")
    monkeypatch.setattr(limits, "MAX_FILLED_TEXT", bound)  # read at call time by schema.fill and the drawing
    shortcut = _variants(path)
    monkeypatch.setattr(drawing, "_check_statement",
                        lambda exercise, candidate, text, where: statement_text(candidate, candidate.parameters, where))
    filled = _variants(path)
    assert shortcut == filled
    refused = sum(len(outcome) == 2 for outcome in filled)
    if (name, bound) in {("rn", 420), ("grades", 420), ("judgments", 1000), ("rankings", 300), ("threshold", 200)}:
        assert 0 < refused < STUDENTS  # some students' draws pass and some do not: the shortcut's edge is crossed


@pytest.mark.parametrize("low, high", [(-5, -5), (-7, 3), (-2**40, 2**40), (0, 2**70), (3, 3), (-1, 0)])
def test_randbelow_draws_what_randint_draws_for_any_range(low, high):
    ours, theirs = random.Random(low ^ high), random.Random(low ^ high)
    assert [low + ours._randbelow(high - low + 1) for _ in range(300)] == [theirs.randint(low, high) for _ in range(300)]


def test_changed_copies_as_dataclasses_replace_does(tmp_path):
    # copied skips replace's per-field bookkeeping: sound only while neither class validates or derives a field
    for cls in (Exercise, ExerciseSet):
        assert not hasattr(cls, "__post_init__")
        assert all(f.init for f in dataclasses.fields(cls))
    path = tmp_path / "rn.toml"
    path.write_text(HEAD.format(name="rn") + SETS["rn"], encoding="utf-8")
    written = load(path)
    exercise = written.exercises[0]
    changes = {"parameters": {"ranking": "RN"}, "refused_draws": ("x",), "on_mismatch": "refuse"}
    assert copied(exercise, **changes) == dataclasses.replace(exercise, **changes)
    assert copied(written, exercises=[]) == dataclasses.replace(written, exercises=[])
