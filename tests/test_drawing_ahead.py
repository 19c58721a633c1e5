"""Variants drawn ahead in a second process (irlab.homework.drawing_ahead): the same variants, keys and reports as
drawn in one process, the verdicts really taken from the worker, and an error in a draw reported as before."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from irlab.errors import IrlabError
from irlab.homework import drawing, drawing_ahead
from irlab.homework.drawing import clear_drawing_caches, drawn_verdicts, remember_verdicts, variant_set
from irlab.homework.grading import clear_caches
from irlab.lms.responses import grade

ROOT = Path(__file__).resolve().parents[1]
SET = ROOT / "exercises" / "homework-variants.toml"
CLASS = drawing_ahead.MIN_STUDENTS + 2 * drawing_ahead.CHUNK + 5  # a worker starts; the last chunk is partial


@pytest.fixture
def fresh():
    clear_caches()
    clear_drawing_caches()
    yield
    clear_caches()
    clear_drawing_caches()


def _answers(path: Path, students: int) -> Path:
    """A class's answers: every question answered, some right by chance, some blank."""
    rng = random.Random(7)
    rows = ["student,exercise,question,answer"]
    for number in range(students):
        for exercise, questions in (("1", "abcdef"), ("2", "ab"), ("3", "ab")):
            for question in questions:
                answer = rng.choice(["0.5", "1/3", "", "0.25", "40%", "0,6"])
                if exercise == "3" and question == "b":
                    answer = f"{answer}; 0.5; 0.5" if answer else ""
                rows.append(f"Student{number:03d},{exercise},{question},{answer}")
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    return path


def _reports(answers: Path, seed: str) -> dict:
    clear_caches()
    report = grade(SET, answers, seed)
    return {fmt: report.render(fmt) for fmt in ("csv", "json", "text", "markdown")}


def _screens(monkeypatch) -> list:
    calls = []
    real = drawing.screen
    monkeypatch.setattr(drawing, "screen", lambda *args: calls.append(args[0].id) or real(*args))
    return calls


@pytest.mark.skipif(not drawing_ahead._can_fork() or drawing_ahead._cores() < 2, reason="needs fork and two cores")
def test_a_class_graded_with_the_worker_gets_every_byte_of_its_report_as_without(fresh, tmp_path, monkeypatch):
    answers = _answers(tmp_path / "answers.csv", CLASS)
    started = []
    real_ahead = drawing_ahead._Ahead
    monkeypatch.setattr(drawing_ahead, "_Ahead", lambda *args: started.append(args[1]) or real_ahead(*args))
    with_worker = _reports(answers, "2026")
    assert len(started) == 1 and len(started[0]) == CLASS  # the worker really ran, for every student
    monkeypatch.setattr(drawing_ahead, "_ENABLED", False)
    clear_drawing_caches()
    assert _reports(answers, "2026") == with_worker
    assert f"Student{CLASS - 1:03d}" in with_worker["csv"]


def test_the_verdicts_drawn_elsewhere_leave_nothing_to_judge_and_give_the_same_variants(fresh, monkeypatch):
    students = [f"s{n:03d}" for n in range(40)]
    verdicts = drawn_verdicts(str(SET), students, "x")
    drawn = [variant_set(SET, s, "x") for s in students]
    assert len(verdicts) >= 3 * len(students)  # one verdict a draw, at least one draw an exercise
    assert any(problem is not None for _, _, (problem, _) in verdicts)  # refused draws are remembered too
    clear_drawing_caches()
    calls = _screens(monkeypatch)
    remember_verdicts(SET, verdicts)
    again = [variant_set(SET, s, "x") for s in students]
    assert calls == []  # every draw's verdict was known
    assert [[(e.parameters, e.refused_draws) for e in v.exercises] for v in again] == \
           [[(e.parameters, e.refused_draws) for e in v.exercises] for v in drawn]


@pytest.mark.skipif(not drawing_ahead._can_fork() or drawing_ahead._cores() < 2, reason="needs fork and two cores")
def test_chunks_the_worker_drew_are_not_judged_here(fresh, monkeypatch):
    students = [f"s{n:03d}" for n in range(3 * drawing_ahead.CHUNK)]
    ahead = drawing_ahead._Ahead(str(SET), students, "y")
    try:
        ahead._worker.join(120)  # every chunk claimed by the worker (nothing asked here yet)
        calls = _screens(monkeypatch)
        for student in students:
            ahead.before(student)
            variant_set(SET, student, "y")
        assert calls == []
    finally:
        ahead.close()


@pytest.mark.skipif(not drawing_ahead._can_fork() or drawing_ahead._cores() < 2, reason="needs fork and two cores")
def test_a_draw_that_fails_in_the_worker_fails_here_with_the_same_words(fresh, tmp_path, monkeypatch):
    bad = tmp_path / "narrow.toml"
    bad.write_text(SET.read_text(encoding="utf-8").replace("relevant = [5, 9]", "relevant = [1, 2]"), encoding="utf-8")
    answers = _answers(tmp_path / "answers.csv", CLASS)
    messages = []
    for enabled in (True, False):
        monkeypatch.setattr(drawing_ahead, "_ENABLED", enabled)
        clear_caches()
        clear_drawing_caches()
        with pytest.raises(IrlabError) as error:
            grade(bad, answers, "2026")
        messages.append(str(error.value))
    assert messages[0] == messages[1] and "gave no consistent variant" in messages[0]
