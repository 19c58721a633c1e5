"""Personal variants of an exercise set as students and teachers get them: each student's sheet and its answer key.

The variants are drawn by :mod:`irlab.homework.drawing` (new parameters per student, from the ranges an exercise
declares in ``[exercise.variants]``); its functions are offered here too (``variant_set``, ``variant_exercise``,
``draw_parameters``, ``variant_rng``), as this module has always offered them. A sheet tells each question's parts
(:mod:`irlab.homework.key`); a sheet warns the instructor, and a key ends with a note, about a named mistake within
the tolerance of a right value (:mod:`irlab.homework.diagnosis`).
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from ..document import AnswerBox, Document, Paragraph, Section, Table, WorkingTable
from ..errors import IrlabError
from ..messages import say
from ..exercise_set import (Exercise, ExerciseSet, Where, exercise_title, question_text, read_toml, solve_exercise,
                            statement_blocks)
from ..solvers.choices import correct_letters, instruction
from .findings import question_findings, set_too_close
from .drawing import (MAX_ATTEMPTS, draw_parameters, issued_solutions, solve_once, variant_exercise, variant_rng,
                      variant_set)
from .identity import variant_code
from .key import answer_key
from .key_build import file_stamp

__all__ = ["sheet_document", "answer_key_document",
           # drawn by irlab.homework.drawing, offered here as before
           "variant_set", "variant_exercise", "draw_parameters", "variant_rng", "issued_solutions", "solve_once",
           "MAX_ATTEMPTS"]

# sheets and answer keys ------------------------------------------------------------------------

def _who(exercise_set: ExerciseSet, student, seed, key: bool = False) -> str:
    if student is None:
        return "The exercise set as written (no personal variant)."
    return (f"Student: {student}" + (f" (variant seed {seed})" if seed is not None else "")
            + f". Variant code: {variant_code(exercise_set.id, student, seed)} "
            + ("(the code on this student's answers)." if key else "(copy it into your answers)."))


def _variant_meta(exercise_set: ExerciseSet, student, seed) -> dict:
    return {"set": exercise_set.id, "file": str(exercise_set.path), "student": student,
            "seed": None if seed is None else str(seed),
            "code": None if student is None else variant_code(exercise_set.id, student, seed),
            "variant": {e.id: e.parameters for e in exercise_set.exercises}}


def _parts_hint(path, exercise: Exercise, question, student, seed) -> str | None:
    """How to address the answers of a question that asks for several values (see irlab.homework.key)."""
    parts = answer_key(path, exercise.id, question.id, student, seed).parts
    if len(parts) < 2:
        return None
    listed = "; ".join(f"{question.id}.{p.number} = {p.label}" for p in parts)
    return f"(Answer each value: {listed}.)"


def _choice_instruction(path, exercise: Exercise, question) -> str:
    """'one answer' or 'choose all that apply', from the question's right options."""
    try:
        right = correct_letters(question.options["correct"], len(question.options.get("choices") or ()))
    except IrlabError as error:
        raise Where(path, exercise.id, question.id).error(str(error), "correct") from None
    return instruction(right)


# working space: the worked solution's rank tables with only the ranking filled in, and an answer box ------------

GIVEN_COLUMNS = ("rank", "document", "judgment", "grade")  # what the ranking itself says: filled in on the sheet
ANSWER_BOX = "Your answer (the value, and how you got it):"


def _working_space(exercise: Exercise, default: bool) -> dict:
    """Question id -> whether its sheet shows working space: the question's working_space, else the set's."""
    return {q.id: bool(q.options.get("working_space", default)) for q in exercise.questions}


def _is_rank_table(block) -> bool:
    return isinstance(block, Table) and bool(block.columns) and block.columns[0] == "rank"


def _rank_tables(blocks) -> list:
    """The rank tables in ``blocks`` (sections included), in reading order."""
    found = []
    for block in blocks:
        if _is_rank_table(block):
            found.append(block)
        elif isinstance(block, Section):
            found += _rank_tables(block.blocks)
    return found


def blank_rank_table(table: Table) -> WorkingTable:
    """``table`` as the student gets it: the ranking's own cells (rank, document, judgment or grade) filled, every
    computed cell empty; an ideal ranking (the grades sorted) keeps only its ranks."""
    ideal = (table.caption or "").startswith("Ideal")
    given = [name == "rank" or (name in GIVEN_COLUMNS and not ideal) for name in table.columns]
    rows = tuple(tuple(cell if keep else "" for cell, keep in zip(row, given)) for row in table.rows)
    caption = f"{table.caption or 'Rank table'}, to fill in"
    return WorkingTable(table.columns, rows, caption, table.names)


def _working_tables(exercise: Exercise, path) -> tuple[list, dict, set]:
    """The rank tables of the exercise's worked solution, blanked: those shared by its questions (printed once, after
    the statement), and per question id those of its own; only questions answered from a ranking have any."""
    uses_ranking = {}

    def look(params, question, where, section):  # each question's section before the rank tables are gathered
        uses_ranking[question.id] = bool(_rank_tables([section]))
        return section

    solved = solve_exercise(exercise, path, decorate=look, solve=solve_once)
    shared = [block for block in solved.blocks if _is_rank_table(block)]
    own = {}
    for block in solved.blocks:
        if isinstance(block, Section) and "question" in block.meta:
            own[block.meta["question"]] = [blank_rank_table(t) for t in _rank_tables(block.blocks)]
    users = {qid for qid, uses in uses_ranking.items() if uses and not own.get(qid)}
    return [blank_rank_table(t) for t in shared], own, users


def _working_space_default(path) -> bool:
    """The set's working_space (the default of its questions), read once per version of the file."""
    path = Path(path)
    return _working_space_cached(str(path), file_stamp(path))


@lru_cache(maxsize=16)
def _working_space_cached(path: str, stamp) -> bool:
    return bool(read_toml(path).get("working_space", False))


def sheet_document(path, student: str | None, seed=None, exercise_id: str | None = None) -> Document:
    """The student's exercise sheet: statements and questions with their own numbers, no answers.

    With working_space (the set's or a question's), a question answered from a ranking also gets the blank rank
    table its worked solution fills, and every computed question a framed answer box instead of the answer line."""
    exercise_set = variant_set(path, student, seed)
    exercises = [exercise_set.exercise(exercise_id)] if exercise_id else exercise_set.exercises
    blocks = [Paragraph(_who(exercise_set, student, seed))]
    space = _working_space_default(exercise_set.path)
    for exercise in exercises:
        inner = statement_blocks(exercise, exercise_set.path)
        working = _working_space(exercise, space)
        if any(working.values()):
            shared, own, users = _working_tables(exercise, exercise_set.path)
            if any(working[qid] for qid in users):
                inner += shared
        for question in exercise.questions:
            text = question_text(exercise, question, exercise_set.path)
            graded_choice = question.solver == "free-text" and "correct" in question.options
            if graded_choice:  # say whether one option or several are to be picked
                told = _choice_instruction(exercise_set.path, exercise, question)
                text = f"{text} ({told})" if text else f"({told})"
                letters = "letter" if told == "one answer" else "letters"
            inner.append(Paragraph(f"{question.id}) {text}" if text else f"{question.id})"))
            if question.solver == "free-text":  # room to answer in words, or the options to pick from
                choices = question.options.get("choices") or []
                inner += [Paragraph(f"({chr(97 + i)}) {choice}" if graded_choice else f"( ) {choice}")
                          for i, choice in enumerate(choices)]
                inner += [Paragraph("_" * 72) for _ in range(0 if choices else question.options.get("lines", 4))]
            hint = _parts_hint(path, exercise, question, student, seed)
            if hint:
                inner.append(Paragraph(hint))
            if question.solver != "free-text" and working[question.id]:  # the table to fill, a box to answer in
                inner += own.get(question.id, [])
                inner.append(AnswerBox(ANSWER_BOX + "\n\n" + "\n\n".join("_" * 72 for _ in range(4)), 4))
            elif question.solver != "free-text":  # room to write the answer
                inner.append(Paragraph("Your answer: " + "_" * 40))
            elif graded_choice:  # the letters of the options picked
                inner.append(Paragraph(f"Your answer ({letters}): " + "_" * 20))
        blocks.append(Section(exercise_title(exercise), tuple(inner), {"exercise": exercise.id}))
    meta = _variant_meta(exercise_set, student, seed)
    meta["questions"] = [{"exercise": e.id, "question": q.id, "text": question_text(e, q, exercise_set.path)}
                         for e in exercises for q in e.questions]
    _warn_instructor(path, student, seed, exercise_id)
    return Document(exercise_set.title, blocks, meta)


_WARNED: set = set()  # (set file, exercise, question, mistake) already warned about in this process


def _warn_instructor(path, student, seed, exercise_id) -> None:
    """On stderr, never on the sheet: each named mistake within the tolerance of a question's right value, once per
    question and mistake (a class's sheets repeat it for the students whose variants have it; their keys say so)."""
    for exercise, _, found in question_findings(path, student, seed, exercise_id):
        if isinstance(found, IrlabError):
            raise found
        for finding in found:
            seen = (str(Path(path).resolve()), finding.where, finding.mistake.name)
            if seen in _WARNED:
                continue
            _WARNED.add(seen)
            whose = (f" (in student {student}'s variant; other students' answer keys say whether theirs has it)"
                     if student is not None and exercise.variants else "")
            say(f"irlab: warning: {finding.text()}{whose}")


def answer_key_document(path, student: str | None, seed=None, exercise_id: str | None = None) -> Document:
    """The answer key of the student's sheet: every question of the variant solved step by step."""
    exercise_set = variant_set(path, student, seed)
    exercises = [exercise_set.exercise(exercise_id)] if exercise_id else exercise_set.exercises
    blocks = [Paragraph(f"Answer key. {_who(exercise_set, student, seed, key=True)}")]
    # solve_once: the variant's questions were solved when it was drawn (the same parameters, the same solutions)
    blocks += [solve_exercise(exercise, exercise_set.path, solve=solve_once) for exercise in exercises]
    blocks += _grading_notes(path, student, seed, exercise_id)
    return Document(f"{exercise_set.title} — answer key", blocks, _variant_meta(exercise_set, student, seed))


def _grading_notes(path, student, seed, exercise_id) -> list:
    """A last section of the key for the grader, when a named mistake lies within the tolerance of a right value."""
    notes = [Paragraph(finding.text()) for finding in set_too_close(path, student, seed, exercise_id)]
    return [Section("Grading notes", tuple(notes))] if notes else []
