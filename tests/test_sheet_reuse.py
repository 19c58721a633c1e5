"""A class's sheets compute each variant's work once (issue 34, item 2), and the memos that make it so change nothing.

The named mistakes within the tolerance of a right value are found once per variant's question part (the drawing's
check, the sheet's warning and the key's grading notes share them); the answer key reuses the solutions the drawing
made; the manifest's refused draws are the drawing's own; a ranking read once serves every question, but a grade
written True or 1.0 is still refused as it was.
"""

from __future__ import annotations

import json
from collections import Counter
from fractions import Fraction
from pathlib import Path

import pytest

from irlab.document import Document
from irlab.errors import IrlabError, RankingError
from irlab.exact import display_text, log2
from irlab.exercise_inputs import parse_ranking
from irlab.exercise_set import solve_exercise
from irlab.homework import diagnosis, drawing, screening
from irlab.homework.drawing import clear_drawing_caches, variant_set
from irlab.homework.key import clear_key_caches
from irlab.homework.sheets import write_class_sheets
from irlab.homework.variants import answer_key_document, sheet_document
from irlab.ranking import Ranking
from irlab.render.common import _with_decimal, value_text

SET = Path(__file__).resolve().parents[1] / "exercises" / "homework-variants.toml"
STUDENTS = ("s0000", "s0001", "s0002")


@pytest.fixture
def fresh():
    clear_drawing_caches()
    clear_key_caches()
    yield
    clear_drawing_caches()
    clear_key_caches()


def test_each_part_of_each_variant_is_checked_for_too_close_mistakes_once(fresh, monkeypatch):
    # checked when the draw is judged: on plain values by the screen, or exactly (then never a second time)
    screened, exactly = Counter(), Counter()
    real_screen, real_exact = screening._closest_mistake, diagnosis._part_too_close

    def screen_spy(path, question, params, index, *rest):
        screened[(question.id, index, repr(params))] += 1
        return real_screen(path, question, params, index, *rest)

    def exact_spy(key, part):
        exactly[(key.question.id, part.index, repr(key.params))] += 1
        return real_exact(key, part)

    monkeypatch.setattr(screening, "_closest_mistake", screen_spy)
    monkeypatch.setattr(diagnosis, "_part_too_close", exact_spy)
    for student in STUDENTS:
        sheet_document(SET, student, "2026")
        answer_key_document(SET, student, "2026")
    issued = {(q.id, repr(e.parameters)) for student in STUDENTS for e in variant_set(SET, student, "2026").exercises
              for q in e.questions if q.solver != "free-text"}
    checked = {(question, params) for question, _, params in screened} | {(q, p) for q, _, p in exactly}
    assert checked >= issued  # every question of every variant was checked
    assert not exactly or max(exactly.values()) == 1  # and no part of any draw twice exactly
    assert screened and max(screened.values()) == 1  # nor on plain values


def test_the_answer_key_is_the_one_solved_afresh(fresh):
    for student in STUDENTS:
        document = answer_key_document(SET, student, "2026")
        drawn = variant_set(SET, student, "2026")
        afresh = [solve_exercise(exercise, drawn.path) for exercise in drawn.exercises]  # solve_question each time
        for fmt in ("text", "json", "latex"):
            assert (Document("key", list(document.blocks[1:1 + len(afresh)])).render(fmt)
                    == Document("key", afresh).render(fmt))


def test_the_manifest_lists_the_draws_refused_before_each_variant(fresh, tmp_path):
    roster = tmp_path / "roster.csv"
    roster.write_text("id\n" + "\n".join(STUDENTS) + "\n", encoding="utf-8")
    calls = Counter()
    real = drawing.variant_exercise

    def spy(exercise, set_id, student, seed, *rest):  # (path and, since dea5237, the set's grading table)
        calls[(exercise.id, student)] += 1
        return real(exercise, set_id, student, seed, *rest)

    drawing.variant_exercise = spy
    try:
        _, manifest = write_class_sheets(SET, roster, tmp_path / "out", "2026")
    finally:
        drawing.variant_exercise = real
    assert set(calls.values()) == {1}  # each student's exercise drawn once
    listed = {entry["id"]: entry["refused_draws"] for entry in json.loads(manifest.read_text())["students"]}
    clear_drawing_caches()
    for student in STUDENTS:
        drawn = {e.id: len(e.refused_draws) for e in variant_set(SET, student, "2026").exercises if e.variants}
        assert listed[student] == drawn
    assert sum(sum(counts.values()) for counts in listed.values()) > 0  # the seed has refused draws to list


def test_a_ranking_read_once_is_the_one_read_afresh():
    known = {"relevant": 5, "unretrieved": (), "collection": 200}
    assert parse_ranking("RNRNN", known) == Ranking.parse("RNRNN", **known)
    assert parse_ranking("RNRNN", known) is parse_ranking("RNRNN", dict(known))  # read once
    assert parse_ranking([3, 0, 1], {"unretrieved": (2,)}) == Ranking.from_grades([3, 0, 1], unretrieved=(2,))
    parse_ranking([1, 0], {})
    for grades in ([True, 0], [1.0, 0]):  # equal to [1, 0] as keys go, and refused as before
        with pytest.raises(RankingError, match="must be an integer"):
            parse_ranking(grades, {})
    parse_ranking([1, 0], {"relevant": 1})
    with pytest.raises(IrlabError, match="R must be an integer"):
        parse_ranking([1, 0], {"relevant": True})  # R written True is no count either


def test_a_value_written_from_the_memo_is_the_one_written_afresh():
    for value in (Fraction(1, 2), Fraction(1, 3), 1, 7, Fraction(7, 2), log2(3), 1 / log2(6)):
        assert value_text(value) == value_text(value) == _with_decimal(value, display_text(value), "≈")
    assert value_text(1) == "1" and value_text(Fraction(1, 3)) == "1/3 ≈ 0.3333"
    assert value_text(1 / log2(3)) == "1/log2(3) ≈ 0.6309"
    assert value_text(Fraction(1, 2), "0.5") == "0.5" and value_text(Fraction(1, 2)) == "1/2 = 0.5"
