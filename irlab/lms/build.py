"""An exercise set as a question bank (:class:`irlab.lms.bank.Bank`): its variants drawn as ``irlab sheet`` draws them,
each numerical part with its exact value and margin and one answer per named mistake with irlab's own feedback,
choice questions as multiple choice, free-text ones as essays, each with its worked solution."""

from __future__ import annotations

from fractions import Fraction

from .. import exact
from ..document import Document, Paragraph, Section, StatementTable, Table
from ..errors import ParameterError
from ..exercise_set import question_text, solve_exercise, statement_blocks
from ..homework.answers import parse_answer, rational_value
from ..homework.diagnosis import mistaken_values, part_too_close
from ..homework.drawing import variant_set
from ..homework.feedback import grade_part
from ..homework.identity import variant_code
from ..homework.key import answer_key
from ..limits import MAX_QUIZ_VARIANTS, check_at_most
from ..render.common import cell_text
from ..solvers.choices import correct_letters, letter_of
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
        # 5/256 rounds to 0.02 at 2 decimals and to 0.020 at 3: one number, so one answer (an LMS compares numbers;
        # two equal answers would be two meeting intervals with two feedback texts)
        if (rounded != 0 or value == 0) and all(rounded != earlier for earlier, _ in found):
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
    answer and its roundings'), with irlab's feedback on its typical response (:func:`_typical_response`); no two
    of their intervals meet (:func:`_kept_apart`)."""
    right = rights[0].value
    # a mistake may have several values (k - 1 and k + 1): only the values near the right one are left out
    too_close = {(finding.mistake.name, _value_of(finding.mistaken)) for finding in part_too_close(key, part)}
    found, seen, left_out = [], set(), []
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
        if _typical_response(key, part, mistake, wrong, wrong_margin) is None:
            continue  # irlab's diagnosis does not name it at any precision: no answer for it
        seen.add(exact.decimal_text(wrong, _MAX_SHOWN))
        found.append((mistake, wrong, wrong_margin))
    for mistake, what in left_out:
        notes.append(f"{name}: the named mistake {mistake} ({what}) lies within the margin of the right value "
                     f"{exact.decimal_text(right, _MAX_SHOWN)}; it is left out of the bank (an LMS cannot tell the "
                     "two apart)")
    margins = _kept_apart([wrong for _, wrong, _ in found], [margin for _, _, margin in found])
    answers, narrowed = [], []
    for (mistake, wrong, margin), kept in zip(found, margins):
        shown = f"{mistake.name} ({exact.decimal_text(wrong, _MAX_SHOWN)})"
        response = _typical_response(key, part, mistake, wrong, kept)
        if response is None:  # narrowed below every precision at which irlab names it
            notes.append(f"{name}: the named mistake {shown} lies too near another mistake's value to keep an "
                         "interval of its own; it is left out of the bank")
            continue
        if kept != margin:
            narrowed.append(f"{shown} ± {exact.decimal_text(margin, 6)} to ± {exact.decimal_text(kept, 6)}")
        told = grade_part(key, part, response, fractions=False)
        plain = grade_part(key, part, response, fractions=False, percent_sign=False).message
        answers.append(NumericAnswer(wrong, kept, key.mistake_credit, told.message, mistake.name, response,
                                     None if plain == told.message else plain))
    if narrowed:
        notes.append(f"{name}: named mistakes whose intervals met are narrowed so that no answer meets two (one "
                     f"between them goes to the nearer value): {'; '.join(narrowed)}")
    return answers


def _roundings_with_percent_sign(key, part, answers: list) -> list:
    """A right rounding outside the tolerance (0.05 for 0.0465) typed with a % sign, '0.05%', is a fraction of 1
    followed by a % sign to irlab, as '0.0465%' is; Moodle would give it the rounding's credit (it tries the number
    as typed when no answer holds it as read), so it is an answer of its own: the rounding over 100, no margin,
    irlab's feedback. Only where no other answer holds that value."""
    found = []
    for rounding in [answer for answer in answers[1:] if answer.mistake is None]:
        response, value = rounding.response + "%", rounding.value / 100
        if any(abs(value - other.value) <= other.margin for other in answers):
            continue
        told = grade_part(key, part, response, fractions=False)
        if told.status == "wrong" and told.mistake is not None:
            found.append(NumericAnswer(value, Fraction(0), key.mistake_credit, told.message, told.mistake, response))
    return found


# Overlapping mistakes. An LMS gives a response the feedback of the first answer whose interval holds it (Moodle
# does), so two named mistakes whose intervals meet would hand the second one's answers the first one's feedback.
# irlab names the nearest mistake within the tolerance; the bank narrows the two intervals to match: the boundary
# is the midpoint, or the edge of the narrower interval when that lies beyond it (a narrow, more specific interval
# inside a wide one keeps all of it). A narrowed margin loses 1 % more, so that writing it with the bank's rounding
# (a thousandth of the margin) cannot make the two meet again.
_NARROWED = Fraction(99, 100)


def _kept_apart(values: list, margins: list) -> list:
    """The margins (as above) under which no two of these answers' intervals meet."""
    kept = []
    for i, (value, margin) in enumerate(zip(values, margins)):
        bound = margin
        for j, (other, other_margin) in enumerate(zip(values, margins)):
            distance = abs(value - other)
            if j != i and distance < margin + other_margin:
                bound = min(bound, max(distance / 2, distance - other_margin))
        kept.append(margin if bound == margin else bound * _NARROWED)
    return kept


def _typical_response(key, part, mistake, wrong: Fraction, margin: Fraction) -> str | None:
    """What a student who made ``mistake`` types, to the fewest decimals (at least 4) at which irlab names it and
    the typed value lies well inside ``margin`` (half of it): the mistaken value ('0.4745', '42.8571' for a
    percentage without its sign) or, for a fraction of 1 followed by a % sign, the right value and '%' ('0.4286%',
    which an LMS with a % unit reads as 0.004286, as irlab does)."""
    with_sign = mistake.scale == Fraction(1, 100)
    for decimals in range(_MIN_SHOWN, _MAX_SHOWN + 1):
        shown = _value_of(part.value) if with_sign else wrong
        response = exact.decimal_text(shown, decimals, scientific=False) + ("%" if with_sign else "")
        typed = parse_answer(response).value
        if typed is None or abs(typed - wrong) > margin / 2:
            continue
        told = grade_part(key, part, response, fractions=False)
        if told.status == "wrong" and mistake.name in told.mistakes:
            return response
    return None


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
        refused = 0
        for number in range(1, count + 1):
            student = variant_student(number)
            exercise_set = variant_set(set_file, student, seed)
            exercise = exercise_set.exercise(written_exercise.id)
            refused += len(exercise.refused_draws)
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
                        options = _choices(choices, right)
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
                    answers = [NumericAnswer(right, margin, Fraction(1), feedback,
                                             response=exact.decimal_text(right, decimals, scientific=False))]
                    for rounded, places in _roundings(right, margin, tolerance):
                        typed = exact.decimal_text(rounded, places, strip=False, scientific=False)  # '0.30'
                        answers.append(NumericAnswer(rounded, Fraction(0), Fraction(1),
                                                     grade_text(key, part, rounded, places), response=typed))
                    answers += _mistake_answers(key, part, answers, name, bank.notes)
                    answers += _roundings_with_percent_sign(key, part, answers)
                    group.append(BankQuestion(name, category, "numerical", text, text_html, answers=tuple(answers),
                                              decimals=decimals, part=part_id, **common))
                made.append(group)
        if refused:
            bank.notes.append(f"{written.id} exercise {written_exercise.id}: {refused} draws refused on the way to "
                              f"its {count} variants (inconsistent, or not worth solving: an answer 0 or 1, or a named "
                              "mistake within the tolerance); the seed reproduces the same variants")
        for question in written_exercise.questions:  # category by category: every variant of a question together
            groups = per_question.get(question.id, [])
            for index in range(max((len(g) for g in groups), default=0)):
                bank.questions += [g[index] for g in groups if index < len(g)]
    return bank


def _choices(choices: list, right: frozenset) -> tuple:
    """The options of a choice question, each with its own feedback, naming the option by its text (an LMS
    shuffles the options, so their letters differ from the sheet's) and, as irlab's grader does, saying how many
    options are right but not which."""
    options = []
    for index, choice in enumerate(choices):
        text, picked = str(choice), letter_of(index) in right
        quoted = f"\u201c{text}\u201d"
        if len(right) == 1:
            said = (f"Correct: {quoted}." if picked
                    else f"Not quite: {quoted} is not the right option (exactly one option is right).")
        else:
            said = (f"{quoted} is one of the right options (several are right: pick every one of them, and no "
                    "other)." if picked else f"Not quite: {quoted} is not one of the right options.")
        options.append(Choice(text, picked, said))
    return tuple(options)


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
