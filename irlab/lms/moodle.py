"""A question bank as Moodle XML (docs.moodle.org, "Moodle XML format"), for Moodle's question bank import.

Before each category's questions a ``<question type="category">`` names ``$course$/top/irlab/SET/QUESTION``; a
quiz then draws one random question (one variant) from each category. A numerical question has the right value
(100 %) and each named mistake irlab's diagnosis knows (the set's ``mistake_credit``, usually 0 %) as answers, each
with its absolute tolerance and irlab's feedback; the worked solution is the general feedback. A choice question is
``multichoice``; a free-text question is an ``essay`` whose grader information is the model answer.

What an LMS cannot take is made to fit, and said here:

- a value is a decimal: the exact one when it has at most 15 decimals, else rounded to a thousandth of its margin
  (1/3 with margin 0.001 is 0.333333), so the interval an LMS accepts moves by at most 0.1 % of its width;
- a grade is one of Moodle's grade options (its import refuses any other fraction): 100, 90, 83.33333, 80, 75, 70,
  66.66667, 60, 50, 40, 33.33333, 30, 25, 20, 16.66667, 14.28571, 12.5, 11.11111, 10, 5, 0 % and their negatives;
  a credit between them is written as the nearest one (the lower on a tie), and the bank's notes say so;
- a choice question with several right options splits 100 % among them and gives each wrong option minus 100 %
  split among the wrong ones, so that ticking every box scores 0;
- every text is written as irlab shows it: a control character as the text ``<U+001B>``; plain text (names,
  feedback, options) is HTML-escaped; HTML text sits in CDATA, a ``]]>`` in it split across two CDATA sections.
"""

from __future__ import annotations

import re
from fractions import Fraction
from html import escape as html_escape
from xml.sax.saxutils import escape as xml_escape

from irlab.exact import decimal_text as exact_decimal_text
from irlab.escape import CONTROL_CHARACTER, XML_NONCHARACTER, control_name, visible_in_xml
from irlab.lms.bank import Bank, BankQuestion, NumericAnswer

# Moodle's grade options (question_bank::fraction_options): the only fractions its import accepts
GRADE_OPTIONS = tuple(Fraction(n, d) for n, d in (
    (1, 1), (9, 10), (5, 6), (4, 5), (3, 4), (7, 10), (2, 3), (3, 5), (1, 2), (2, 5), (1, 3), (3, 10), (1, 4),
    (1, 5), (1, 6), (1, 7), (1, 8), (1, 9), (1, 10), (1, 20), (0, 1)))

MAX_EXACT_PLACES = 15  # a finite decimal up to this many places is written exactly

clean = visible_in_xml  # text as every LMS writer writes it: control characters (and U+FFFE, U+FFFF) as <U+001B>


def clean_html(html: str) -> str:
    """HTML with each control character (and U+FFFE, U+FFFF) shown as the text ``<U+001B>`` (escaped as HTML)."""
    shown = CONTROL_CHARACTER.sub(lambda m: f"&lt;{control_name(m.group())}&gt;", html.replace("\r\n", "\n"))
    return XML_NONCHARACTER.sub(lambda m: f"&lt;{control_name(m.group())}&gt;", shown)


def plain_html(text: str) -> str:
    """Plain text (a name, irlab's feedback, an option) as HTML: escaped, line ends as ``<br>``."""
    return html_escape(clean(text), quote=False).replace("\n", "<br>\n")


# numbers -----------------------------------------------------------------------------------------------

def _finite_places(x: Fraction) -> int | None:
    """The number of decimals of ``x`` when its decimal expansion ends, else None."""
    d, twos, fives = x.denominator, 0, 0
    while d % 2 == 0:
        d, twos = d // 2, twos + 1
    while d % 5 == 0:
        d, fives = d // 5, fives + 1
    return max(twos, fives) if d == 1 else None


def decimal_text(x: Fraction, places: int) -> str:
    """``x`` rounded (half away from zero) to ``places`` decimals, trailing zeros dropped, never in e-notation:
    ``0.42``, ``3``, ``-0.3333333`` (irlab.exact.decimal_text, as a Moodle number field takes it)."""
    return exact_decimal_text(x, places, scientific=False)


def _places_within(margin: Fraction, at_least: int) -> int:
    """Decimals enough that rounding moves a number by at most a thousandth of ``margin``."""
    if margin <= 0:
        return MAX_EXACT_PLACES
    places = max(at_least, 0)
    while Fraction(1, 2 * 10 ** places) > margin / 1000:
        places += 1
    return places


def exact_or_rounded(x: Fraction, margin: Fraction, at_least: int = 0) -> str:
    """``x`` exactly when it is a decimal of at most 15 places, else to a thousandth of ``margin``."""
    exact = _finite_places(x)
    if exact is not None and exact <= MAX_EXACT_PLACES:
        return decimal_text(x, exact)
    return decimal_text(x, _places_within(margin, at_least))


def answer_numbers(answer: NumericAnswer, decimals: int = 0) -> tuple[str, str]:
    """(value, tolerance) of a numerical answer as an LMS reads them, rounded (if at all) to at least ``decimals``."""
    return (exact_or_rounded(answer.value, answer.margin, decimals),
            exact_or_rounded(answer.margin, answer.margin, decimals))


# grades ------------------------------------------------------------------------------------------------

def grade_option(credit: Fraction) -> Fraction:
    """The Moodle grade option nearest ``credit`` (-1 … 1), the lower one on a tie."""
    options = sorted({*GRADE_OPTIONS, *(-g for g in GRADE_OPTIONS)})
    return min(options, key=lambda g: (abs(g - credit), g))


def percent_text(grade: Fraction) -> str:
    """A grade option as Moodle writes its percentage: ``100``, ``83.33333``, ``-50``."""
    return decimal_text(grade * 100, 5)


def graded(bank: Bank, credit: Fraction, what: str) -> str:
    """``credit`` as the percentage of a Moodle grade option; a credit that is none is noted in the bank."""
    grade = grade_option(credit)
    if grade != credit:
        note = (f"{what}: a credit of {decimal_text(credit * 100, 5)} % is not one of Moodle's grade options; "
                f"written as {percent_text(grade)} %")
        if note not in bank.notes:
            bank.notes.append(note)
    return percent_text(grade)


def choice_credits(question: BankQuestion) -> list[Fraction]:
    """The credit of each option of a choice question (see the module's rules), before Moodle's rounding."""
    right = sum(choice.correct for choice in question.choices)
    wrong = len(question.choices) - right
    if question.single or right == 0:
        return [Fraction(1) if choice.correct else Fraction(0) for choice in question.choices]
    return [Fraction(1, right) if choice.correct else Fraction(-1, wrong) for choice in question.choices]


# XML ---------------------------------------------------------------------------------------------------

def cdata(html: str) -> str:
    """HTML in CDATA, a ``]]>`` in it split across two sections."""
    return "<![CDATA[" + clean_html(html).replace("]]>", "]]]]><![CDATA[>") + "]]>"


def _text(html: str) -> str:
    return f"<text>{cdata(html)}</text>" if html else "<text></text>"


def _plain(text: str) -> str:
    return f"<text>{xml_escape(clean(text))}</text>"


def _comment(text: str) -> str:
    """Text for an XML comment, which may hold no '--' (nor end in '-')."""
    return re.sub("-(?=-)", "- ", clean(text).replace("\n", " ")).rstrip("-")


def _category(name: str) -> list[str]:
    return ['  <question type="category">',
            f"    <category>{_plain('$course$/top/' + name)}</category>",
            "  </question>"]


def _head(q: BankQuestion) -> list[str]:
    return [f'  <question type="{q.kind}">',
            f"    <name>{_plain(q.name)}</name>",
            f'    <questiontext format="html">{_text(q.text_html)}</questiontext>',
            f'    <generalfeedback format="html">{_text(q.solution_html)}</generalfeedback>',
            "    <defaultgrade>1</defaultgrade>",
            "    <penalty>0.3333333</penalty>",
            "    <hidden>0</hidden>"]


# The % unit. irlab reads "60%" as 0.6, and so does Moodle once the question has the unit '%' with multiplier 100:
# its answer processor (qtype_numerical_answer_processor::apply_units) divides a number followed by a unit by the
# unit's multiplier (a unit's value is the answer's times its multiplier). The unit is optional (unitgradingtype 0,
# no penalty) and typed in the answer box (showunits 0, "text input"; with units not shown Moodle refuses "60%" as
# "Do not include a unit"). Moodle calls its first unit the base unit (multiplier 1) and writes it after the right
# answer ("The correct answer is: 0.6 = 60 %"); it has to have a name, so the name says the value as a percentage.
PERCENT_MULTIPLIER = 100


def percent_unit(q: BankQuestion) -> str:
    """The base unit's name: the right value as a percentage, '= 60 %' (see above)."""
    value, _ = answer_numbers(q.answers[0], q.decimals)
    return f"= {decimal_text(Fraction(value) * PERCENT_MULTIPLIER, MAX_EXACT_PLACES)} %"


def _interval(answer: NumericAnswer, decimals: int) -> tuple[Fraction, Fraction]:
    """The interval Moodle keeps for an answer, from the numbers written (a hair wider: Moodle widens by 1e-14)."""
    value, tolerance = (Fraction(text) for text in answer_numbers(answer, decimals))
    hair = Fraction(1, 10**12) * max(abs(value), tolerance, 1)
    return value - tolerance - hair, value + tolerance + hair


def moodle_order(q: BankQuestion) -> list[NumericAnswer]:
    """The answers in the order Moodle should try them. Moodle gives a response the first answer whose interval
    holds the response's value in the answers' unit or, failing that, the number as typed without its unit
    (qtype_numerical_question::get_matching_answer, answer by answer). So "0.6%" would meet the right value 0.6
    before the mistake 0.006 that irlab names, were 0.6 tried first. An answer B goes before an answer A whenever
    a number typed with '%' could fall in A's interval as typed and in B's as read (A meets 100 × B): the bank's
    order otherwise (the right value first)."""
    answers = list(q.answers)
    spans = [_interval(answer, q.decimals) for answer in answers]
    scaled = [(low * PERCENT_MULTIPLIER, high * PERCENT_MULTIPLIER) for low, high in spans]
    before = {i: {j for j in range(len(answers)) if j != i and spans[i][0] <= scaled[j][1]
                  and scaled[j][0] <= spans[i][1]} for i in range(len(answers))}
    order, left = [], list(range(len(answers)))
    while left:  # the first answer in the bank's order whose predecessors are placed (on a cycle: the first left)
        ready = next((i for i in left if not before[i] & set(left)), left[0])
        order.append(ready)
        left.remove(ready)
    return [answers[i] for i in order]


def _numerical(bank: Bank, q: BankQuestion) -> list[str]:
    lines = _head(q)
    for answer in moodle_order(q):
        value, tolerance = answer_numbers(answer, q.decimals)
        fraction = graded(bank, answer.credit, q.name if answer.mistake is None else f"{q.name} ({answer.mistake})")
        feedback = plain_html(answer.feedback_for(percent_sign=True))
        lines += [f'    <answer fraction="{fraction}">',
                  f"      <text>{value}</text>",
                  f"      <tolerance>{tolerance}</tolerance>",
                  f'      <feedback format="html">{_text(feedback)}</feedback>',
                  "    </answer>"]
    lines += ["    <units>",
              "      <unit>", "        <multiplier>1</multiplier>",
              f"        <unit_name>{xml_escape(percent_unit(q))}</unit_name>", "      </unit>",
              "      <unit>", f"        <multiplier>{PERCENT_MULTIPLIER}</multiplier>",
              "        <unit_name>%</unit_name>", "      </unit>",
              "    </units>",
              "    <unitgradingtype>0</unitgradingtype>", "    <unitpenalty>0</unitpenalty>",
              "    <showunits>0</showunits>", "    <unitsleft>0</unitsleft>"]
    return lines


def _multichoice(bank: Bank, q: BankQuestion) -> list[str]:
    lines = _head(q) + [f"    <single>{'true' if q.single else 'false'}</single>",
                        "    <shuffleanswers>true</shuffleanswers>",
                        "    <answernumbering>abc</answernumbering>"]
    for choice, credit in zip(q.choices, choice_credits(q)):
        lines += [f'    <answer fraction="{graded(bank, credit, q.name)}" format="html">',
                  f"      {_text(plain_html(choice.text))}",
                  f'      <feedback format="html">{_text(plain_html(choice.feedback))}</feedback>',
                  "    </answer>"]
    return lines


def _essay(q: BankQuestion) -> list[str]:
    return _head(q) + ["    <responseformat>editor</responseformat>",
                       "    <responserequired>1</responserequired>",
                       "    <responsefieldlines>10</responsefieldlines>",
                       "    <attachments>0</attachments>",
                       "    <attachmentsrequired>0</attachmentsrequired>",
                       f'    <graderinfo format="html">{_text(plain_html(q.model_answer))}</graderinfo>',
                       '    <responsetemplate format="html"><text></text></responsetemplate>']


def write_moodle(bank: Bank) -> str:
    """The bank as a Moodle XML file (UTF-8 text). Rounded grades are added to ``bank.notes``."""
    about = f"{bank.title}: irlab question bank of set {bank.set_id}, {bank.variants} variants, seed {bank.seed}"
    lines = ['<?xml version="1.0" encoding="UTF-8"?>', f"<!-- {_comment(about)} -->", "<quiz>"]
    category = None
    for q in bank.questions:
        if q.category != category:
            category = q.category
            lines += _category(category)
        if q.kind == "numerical":
            lines += _numerical(bank, q)
        elif q.kind == "multichoice":
            lines += _multichoice(bank, q)
        elif q.kind == "essay":
            lines += _essay(q)
        else:
            raise ValueError(f"unknown question kind {q.kind!r} in {q.name}")
        lines.append("  </question>")
    lines.append("</quiz>")
    return "\n".join(lines) + "\n"
