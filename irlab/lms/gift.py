r"""A question bank as GIFT (docs.moodle.org, "GIFT format"), the plain-text question format Moodle imports.

Each category is a ``$CATEGORY: $course$/top/irlab/SET/QUESTION`` line, as in the Moodle XML; each question is
one line, ``::name::[html]statement {…}``, blank lines between questions:

- numerical: ``{#=0.42:0.0042#feedback =%0%0.4745:0.0001#feedback ####general feedback}``, the right value first,
  then each named mistake with the set's ``mistake_credit`` (rounded to a Moodle grade option, as in the XML).
  GIFT cannot give a numerical question units, and Moodle refuses "60%" in one without: the feedback asks for the
  decimal only ("write 0.6", not "60% or 0.6"), and the mistake met only by typing a % sign ("0.6%") is left out;
- multiple choice: ``{=right#fb ~wrong#fb ####…}``, or ``{~%50%a ~%50%b ~%-100%c ####…}`` when several are right;
- essay: ``{####…}``; GIFT has no grader information, so the model answer follows the worked solution in the
  general feedback.

Every text is HTML (``[html]``): plain text (names, feedback, options) HTML-escaped, control characters shown as
``<U+001B>``, then the GIFT specials ``\ ~ = # { } :`` escaped by a backslash and a line end written ``\n``, as
Moodle's own GIFT export does, so that no text can end a question, an answer or a feedback early.
"""

from __future__ import annotations

import re

from irlab.lms.bank import Bank, BankQuestion
from irlab.lms.moodle import answer_numbers, choice_credits, clean, clean_html, graded, plain_html

_SPECIAL = re.compile(r"[\\~=#{}:]")


def gift_escape(text: str) -> str:
    """``text`` for any place in GIFT: specials backslash-escaped, line ends as ``\\n``; controls made visible by
    the caller (``clean`` for plain text, ``clean_html`` for HTML)."""
    return _SPECIAL.sub(lambda m: "\\" + m.group(), clean(text)).replace("\n", "\\n")


def _html(html: str) -> str:
    return gift_escape(clean_html(html))


def _feedback(html: str) -> str:
    return f"#{_html(html)}" if html else ""


def _general(q: BankQuestion) -> str:
    general = q.solution_html
    if q.kind == "essay" and q.model_answer:
        general += ("\n" if general else "") + "<p>Model answer: " + plain_html(q.model_answer) + "</p>"
    return f" ####{_html(general)}" if general else ""


def _numerical(bank: Bank, q: BankQuestion) -> str:
    answers = []
    for answer in q.answers:
        if answer.needs_percent_sign:  # GIFT has no units: Moodle refuses '0.4286%' in such a question
            continue
        value, tolerance = answer_numbers(answer, q.decimals)
        percent = graded(bank, answer.credit, q.name if answer.mistake is None else f"{q.name} ({answer.mistake})")
        weight = "" if percent == "100" else f"%{percent}%"
        feedback = plain_html(answer.feedback_for(percent_sign=False))
        answers.append(f"={weight}{value}:{tolerance}{_feedback(feedback)}")
    return "#" + " ".join(answers)


def _multichoice(bank: Bank, q: BankQuestion) -> str:
    several = not q.single and sum(choice.correct for choice in q.choices) > 1
    options = []
    for choice, credit in zip(q.choices, choice_credits(q)):
        text = _html(plain_html(choice.text))
        start = len(text) - len(text.lstrip())  # Moodle trims an answer before it looks for a weight
        if text[start:].startswith("%"):  # GIFT would read a leading '%…%' as a weight: write the '%' as its entity
            text = text[:start] + "&percnt;" + text[start + 1:]
        if several:
            options.append(f"~%{graded(bank, credit, q.name)}%{text}")
        else:
            options.append(("=" if choice.correct else "~") + text)
        options[-1] += _feedback(plain_html(choice.feedback))
    return " ".join(options)


def write_gift(bank: Bank) -> str:
    """The bank as a GIFT file. Rounded grades are added to ``bank.notes``."""
    about = clean(f"{bank.title}: irlab question bank of set {bank.set_id}, {bank.variants} variants, "
                  f"seed {bank.seed}").replace("\n", " ")
    blocks = [f"// {about}"]
    category = None
    for q in bank.questions:
        if q.category != category:
            category = q.category
            blocks.append("$CATEGORY: $course$/top/" + clean(category).replace("\n", " "))
        if q.kind == "numerical":
            answer = _numerical(bank, q)
        elif q.kind == "multichoice":
            answer = _multichoice(bank, q)
        elif q.kind == "essay":
            answer = ""
        else:
            raise ValueError(f"unknown question kind {q.kind!r} in {q.name}")
        blocks.append(f"::{gift_escape(q.name)}::[html]{_html(q.text_html)} {{{answer}{_general(q)}}}")
    return "\n\n".join(blocks) + "\n"
