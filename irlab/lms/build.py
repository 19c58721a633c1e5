"""An exercise set as a question bank (:class:`irlab.lms.bank.Bank`): its variants drawn as ``irlab sheet`` draws them,
each numerical part with its exact value and margin and one answer per named mistake with irlab's own feedback,
choice questions as multiple choice, free-text ones as essays, each with its worked solution."""

from __future__ import annotations

from fractions import Fraction

from .. import exact
from ..document import Document, Paragraph, Section, StatementTable, Table
from ..errors import ParameterError
from ..exercise_set import question_text, solve_exercise, statement_blocks
from ..homework.answers import rational_value
from ..homework.diagnosis import mistaken_values, part_too_close
from ..homework.drawing import variant_set
from ..homework.feedback import grade_part
from ..homework.identity import variant_code
from ..homework.key import answer_key
from ..limits import MAX_QUIZ_VARIANTS, check_at_most
from ..render.common import cell_text
from ..solvers.choices import correct_letters
from .bank import Bank, BankQuestion, Choice, NumericAnswer, category_name, question_name, variant_student

# building a bank from an exercise set ----------------------------------------------------------------------------
#
# Margins. irlab's grader accepts an answer within max(rtol·|x|, atol) of the exact value x (or, with ``decimals = d``,
# within half a unit of the d-th decimal), and also the exact value correctly rounded to at least ``min_decimals``
# decimals (0.07 for 1/15, outside 1 %). An LMS has one interval per answer, so the right value is one answer with the
# tolerance's interval, and each correct rounding outside it (to min_decimals, min_decimals + 1, … decimals, until a
# rounding falls inside) is another right answer of its own, with no margin: the LMS then accepts what irlab
# accepts, and not the values between a rounding and the interval that irlab calls wrong. A question asking for the
# exact fraction cannot be checked for its form by an LMS: its margin is half a unit of the last decimal the bank
# shows, and a note says so. A named mistake's answer gets its tolerance's interval; a mistake whose interval meets
# a right answer's (or that irlab.homework.diagnosis.too_close finds) is left out and named in the bank's notes.

_MIN_SHOWN, _MAX_SHOWN = 4, 12  # decimals the bank shows a value with


def _margin(value: Fraction, tolerance, shown: int | None = None) -> Fraction:
    """The absolute margin (see above) around ``value`` under ``tolerance``; ``shown``: decimals of a fraction-form
    question's value."""
    if tolerance.form == "fraction":
        return Fraction(1, 2 * 10 ** (shown or _MIN_SHOWN))
    if tolerance.decimals is not None:
        return Fraction(1, 2 * 10**tolerance.decimals)
    return max(tolerance.rtol * abs(value), tolerance.atol)


def _roundings(value: Fraction, margin: Fraction, tolerance) -> list[tuple[Fraction, int]]:
    """The correct roundings of ``value`` irlab accepts that lie outside ``margin``: (rounded value, decimals)."""
    if tolerance.form == "fraction" or tolerance.decimals is not None or not tolerance.accept_rounded:
        return []
    found = []
    for decimals in range(tolerance.min_decimals, _MAX_SHOWN + 1):
        rounded = _rounded(value, decimals)
        if abs(rounded - value) <= margin:
            break  # this rounding and every finer one lie inside the interval
        if rounded != 0 or value == 0:
            found.append((rounded, decimals))
    return found


def _rounded(value: Fraction, decimals: int) -> Fraction:
    scaled = abs(value) * 10**decimals
    whole = int(scaled + Fraction(1, 2))
    return Fraction(whole if value >= 0 else -whole, 10**decimals)


def _shown_decimals(margin: Fraction, tolerance) -> int:
    """Decimals that show a value to a tenth of its margin (at least 4, at most 12, at least the required ones)."""
    decimals = max(_MIN_SHOWN, tolerance.decimals or 0)
    while decimals < _MAX_SHOWN and margin > 0 and Fraction(1, 2 * 10**decimals) > margin / 10:
        decimals += 1
    return decimals


def _value_of(value) -> Fraction:
    """An exact value as a Fraction (a logarithmic value: its double, as the grader reads it)."""
    return rational_value(value)


def _statement(exercise, path) -> tuple[list, str]:
    """The statement's blocks as the sheet shows them (the variant's data included) and as plain text."""
    blocks = statement_blocks(exercise, path)
    lines = []
    for block in blocks:
        if isinstance(block, Table):
            rows = [block.columns, *block.rows]
            lines.append("\n".join(([block.caption + ":"] if block.caption else [])
                                   + [" | ".join(cell_text(cell) for cell in row) for row in rows]))
        elif isinstance(block, Paragraph):
            lines.append(block.text)
    return blocks, "\n\n".join(lines)


def _solutions(exercise, path) -> dict:
    """question id -> the blocks of its worked solution: the exercise's shared rank table (when it has one) and
    the question's own section, nothing else of the exercise."""
    solved = solve_exercise(exercise, path)
    shared = [b for b in solved.blocks if isinstance(b, Table) and not isinstance(b, StatementTable)]
    return {b.meta["question"]: [*shared, b] for b in solved.blocks
            if isinstance(b, Section) and "question" in b.meta}


def _html(blocks) -> str:

    return Document("", blocks).render("html", math="mathjax", bare=True)


def _mistake_answers(key, part, rights: list, name: str, notes: list) -> list:
    """One NumericAnswer per named mistake whose value differs from the right ones (``rights``: the right value's
    answer and its roundings'), with irlab's feedback for it."""
    right = rights[0].value
    # a mistake may have several values (k - 1 and k + 1): only the values near the right one are left out
    too_close = {(finding.mistake.name, _value_of(finding.mistaken)) for finding in part_too_close(key, part)}
    answers, seen, left_out = [], set(), []
    for mistake, value in mistaken_values(part.value, key.mistaken(part)):
        if isinstance(value, tuple):  # an answer-scale mistake: the right value times its scale
            value = exact.mul(part.value, value[0])
        wrong = _value_of(value)
        if wrong == right or exact.decimal_text(wrong, _MAX_SHOWN) in seen:
            continue
        wrong_margin = _margin(wrong, key.tolerance)
        meets = any(abs(wrong - other.value) <= other.margin + wrong_margin for other in rights)
        if (mistake.name, wrong) in too_close or meets:
            if mistake.name not in {m for m, _ in left_out}:
                left_out.append((mistake.name, f"{mistake.title}, {exact.decimal_text(wrong, _MAX_SHOWN)}"))
            continue
        feedback = None
        for decimals in range(_MIN_SHOWN, _MAX_SHOWN + 1):  # the fewest decimals at which irlab names it
            told = grade_part(key, part, exact.decimal_text(wrong, decimals))
            if told.status == "wrong" and mistake.name in told.mistakes:
                feedback = told.message
                break
        if feedback is None:  # irlab's diagnosis does not name it at any precision: no answer for it
            continue
        seen.add(exact.decimal_text(wrong, _MAX_SHOWN))
        answers.append(NumericAnswer(wrong, wrong_margin, key.mistake_credit, feedback, mistake.name))
    for mistake, what in left_out:
        notes.append(f"{name}: the named mistake {mistake} ({what}) lies within the margin of the right value "
                     f"{exact.decimal_text(right, _MAX_SHOWN)}; it is left out of the bank (an LMS cannot tell the "
                     "two apart)")
    return answers


def build_bank(set_file, variants: int, seed=None, exercises=None) -> Bank:
    """The question bank of an exercise set: ``variants`` variants of every question drawn as ``irlab sheet`` draws
    them (variant i is the sheet of :func:`variant_student` (i) with ``seed``), one bank question per part.

    A numerical part's answers are the exact value with its margin (see above) and one answer per named mistake
    irlab's diagnosis knows, whose feedback is what irlab says for that value and whose credit the question's
    ``mistake_credit``. A choice question becomes a multiple-choice question, a free-text one an essay with its
    model answer. An exercise without ``[exercise.variants]`` has one variant, whatever ``variants`` is (a note
    says so). ``exercises``: the ids of the exercises to include (all by default)."""
    if isinstance(variants, bool) or not isinstance(variants, int) or variants < 1:
        raise ParameterError(f"the number of variants must be a whole number >= 1, got {variants!r}")
    check_at_most(variants, MAX_QUIZ_VARIANTS, "the number of variants (MAX_QUIZ_VARIANTS)")
    seed = None if seed is None else str(seed)
    written = variant_set(set_file)
    if isinstance(exercises, str):
        exercises = [exercises]
    chosen = [written.exercise(str(e)) for e in exercises] if exercises else list(written.exercises)
    varied = [e for e in chosen if e.variants]
    bank = Bank(written.id, written.title, seed, variants if varied else 1)
    if not varied:
        bank.notes.append(f"the set {written.id} declares no [exercise.variants]: every variant would be the same "
                          f"sheet, so the bank has one variant of each question (not {variants})"
                          if variants > 1 else f"the set {written.id} declares no [exercise.variants]")
    for written_exercise in chosen:
        count = variants if written_exercise.variants else 1
        if varied and count < variants:
            bank.notes.append(f"exercise {written_exercise.id} declares no [exercise.variants]: one variant of its "
                              "questions")
        per_question: dict = {}
        fraction_noted = set()
        for number in range(1, count + 1):
            student = variant_student(number)
            exercise_set = variant_set(set_file, student, seed)
            exercise = exercise_set.exercise(written_exercise.id)
            code = variant_code(exercise_set.id, student, seed)
            statement_blocks, statement = _statement(exercise, exercise_set.path)
            solutions = _solutions(exercise, exercise_set.path)
            for question in exercise.questions:
                asked = question_text(exercise, question, exercise_set.path)
                solution_html = _html(solutions.get(question.id, []))
                common = dict(set_id=exercise_set.id, exercise=exercise.id, question=question.id, code=code,
                              student=student, solution_html=solution_html)
                made = per_question.setdefault(question.id, [])
                if question.solver == "free-text":
                    choices = question.options.get("choices") or []
                    name = question_name(exercise_set.id, exercise.id, question.id, None, code)
                    category = category_name(exercise_set.id, exercise.id, question.id, None)
                    text, text_html = _texts(statement, statement_blocks, asked, name)
                    if question.options.get("correct") is not None:
                        right = correct_letters(question.options["correct"], len(choices))
                        options = tuple(Choice(str(choice), chr(97 + i) in right) for i, choice in enumerate(choices))
                        made.append([BankQuestion(name, category, "multichoice", text, text_html, choices=options,
                                                  single=len(right) == 1, part=None, **common)])
                    else:
                        model = str(question.options.get("model_answer") or "").strip()
                        made.append([BankQuestion(name, category, "essay", text, text_html, model_answer=model,
                                                  part=None, **common)])
                    continue
                key = answer_key(set_file, exercise.id, question.id, student, seed)
                several = len(key.parts) > 1
                group = []
                for part in key.parts:
                    part_id = part.number if several else None
                    name = question_name(exercise_set.id, exercise.id, question.id, part_id, code)
                    category = category_name(exercise_set.id, exercise.id, question.id, part_id)
                    ask = f"{asked} (Answer here: {part.label}.)" if several else asked
                    text, text_html = _texts(statement, statement_blocks, ask, name)
                    right = _value_of(part.value)
                    tolerance = key.tolerance
                    margin = _margin(right, tolerance)
                    decimals = _MIN_SHOWN if tolerance.form == "fraction" else _shown_decimals(margin, tolerance)
                    if tolerance.form == "fraction":
                        if category not in fraction_noted:
                            fraction_noted.add(category)
                            bank.notes.append(f"{category}: the question asks for the exact fraction, which an LMS "
                                              f"cannot check; the bank accepts its decimal to {decimals} places")
                    feedback = grade_text(key, part, right, decimals)
                    answers = [NumericAnswer(right, margin, Fraction(1), feedback)]
                    answers += [NumericAnswer(rounded, Fraction(0), Fraction(1), grade_text(key, part, rounded, places))
                                for rounded, places in _roundings(right, margin, tolerance)]
                    answers += _mistake_answers(key, part, answers, name, bank.notes)
                    group.append(BankQuestion(name, category, "numerical", text, text_html, answers=tuple(answers),
                                              decimals=decimals, part=part_id, **common))
                made.append(group)
        for question in written_exercise.questions:  # category by category: every variant of a question together
            groups = per_question.get(question.id, [])
            for index in range(max((len(g) for g in groups), default=0)):
                bank.questions += [g[index] for g in groups if index < len(g)]
    return bank


def grade_text(key, part, right: Fraction, decimals: int) -> str:
    """irlab's feedback for the right value written to ``decimals`` places ("Correct: 0.4286 (P = 3/7 ≈ …)"); as the
    exact fraction when the question asks for one."""
    written = exact.exact_text(part.value) if key.tolerance.form == "fraction" else exact.decimal_text(right, decimals)
    return grade_part(key, part, written).message


def _texts(statement: str, blocks, asked: str, name: str) -> tuple[str, str]:
    """The question's statement (data included), what it asks and, last, its name (set, exercise, question, variant
    code), as plain text and as HTML (math as \\( … \\)). The name is in the text because the LMS's response
    exports (Moodle's Responses report, Canvas's Student Analysis) show a question's text, not its name: irlab grade
    finds the variant there, as a paper sheet's variant code."""
    said = f"Variant: {name}"
    text = f"{statement}\n\n{asked}\n\n{said}" if statement else f"{asked}\n\n{said}"
    return text, _html([*blocks, Paragraph(asked), Paragraph(said)])
