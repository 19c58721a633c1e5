r"""A question bank as a Canvas QTI 1.2 zip (Canvas: Import existing content → "QTI .zip file").

The zip holds ``imsmanifest.xml`` and one assessment (a Canvas quiz, whose questions Canvas also files in a
question bank of the quiz's name): ``<id>/<id>.xml`` in QTI 1.2 with Canvas's item metadata (``question_type``,
``points_possible``) and ``<id>/assessment_meta.xml`` (the quiz's title and settings), laid out as text2qti 0.8
writes them. Each question (and part) is one ``<section>`` with ``<selection_number>1</selection_number>``: a
Canvas question group from which the quiz draws one variant per student.

A numerical question is Canvas's ``numerical_question``: the right value as an exact answer with a margin
(``<varequal>`` or ``<vargte>``/``<varlte>`` bounds holding the tolerance's interval, ``SCORE`` set to 100) and irlab's
feedback for it, then one more such condition for each correct rounding irlab accepts outside that interval (0.05
for 29/624 ≈ 0.0465: irlab accepts an answer correctly rounded to 2 decimals); the worked solution is the general
feedback (``general_fb``, HTML with ``\( … \)`` math, which Canvas renders).

The named mistakes are NOT extra answers, unlike the Moodle XML and GIFT banks: in Canvas every answer of a
numerical question is a right answer. Its QTI importer gives each ``<respcondition>`` of a numerical item the
weight 100 whatever its ``<setvar>`` says, and its grader (``Quizzes::QuizQuestion::NumericalQuestion``) scores a
response right when it matches any answer. A mistake written as an answer with 0 % would therefore earn full
marks. So the mistakes irlab's diagnosis knows go, each with its value and irlab's feedback, into the question's
incorrect-answer feedback (``general_incorrect_fb``), which Canvas shows with any wrong response; a mistake's
partial credit (``mistake_credit``) cannot be given by Canvas and is left to ``irlab grade`` on Canvas's Student
Analysis export (:func:`canvas_notes` says so for the instructor).

Why not text2qti itself: it writes one answer per numerical question with only the question's correct/incorrect
feedback (no per-answer feedback, no way to list a mistake's value beside its diagnosis), reads its own Markdown
(so irlab's text would need escaping for text2qti's syntax, then for HTML), and stamps today's date in the
manifest; this writer is byte-for-byte reproducible (same bank, same zip).

Text: every plain text (the title, feedback, choices, the model answer) is HTML-escaped, so markup in a set or an
answer stays text; the statement and solution arrive as HTML from the bank's builder. No control character
reaches the XML (XML 1.0 forbids them): each is written as ``<U+001B>`` (:func:`irlab.escape.visible_controls`).
"""

from __future__ import annotations

import hashlib
import html
import io
import re
import zipfile
from fractions import Fraction
from xml.etree import ElementTree as ET

from ..escape import visible_in_xml
from ..exact import decimal_text as exact_decimal_text
from .bank import Bank, BankQuestion, NumericAnswer

QTI_NS = "http://www.imsglobal.org/xsd/ims_qtiasiv1p2"
CANVAS_NS = "http://canvas.instructure.com/xsd/cccv1p0"
MANIFEST_NS = "http://www.imsglobal.org/xsd/imsccv1p1/imscp_v1p1"
QUESTION_TYPES = {"numerical": "numerical_question", "essay": "essay_question"}
POINTS = 1  # points of every question (and so of every group's drawn item)
_MAX_DECIMALS = 12
_ZIP_TIME = (1980, 1, 1, 0, 0, 0)  # fixed, so that the same bank gives the same bytes

clean = visible_in_xml  # every character XML 1.0 cannot carry written as '<U+001B>', as the other LMS writers do


def html_text(text: str) -> str:
    """Plain text as HTML: escaped, paragraphs kept, line breaks as <br/>."""
    paragraphs = [p for p in re.split(r"\n\s*\n", clean(text).strip()) if p.strip()]
    return "".join(f"<p>{html.escape(p.strip()).replace(chr(10), '<br/>')}</p>" for p in paragraphs)


def decimal_text(value: Fraction, decimals: int) -> str:
    """``value`` rounded half away from zero to exactly ``decimals`` places, never in e-notation (Canvas's bounds)."""
    return exact_decimal_text(value, decimals, strip=False, scientific=False)


def answer_bounds(answer: NumericAnswer, shown: int = 4) -> tuple[str, str, str]:
    """(exact, lower, upper) as Canvas reads them: decimals with the same number of places, the exact value rounded
    to them and the bounds symmetric about it (Canvas keeps the exact value and upper − exact as the margin), so
    that [lower, upper] holds every value within ``answer.margin`` of the exact value and at most two units of the
    last place more."""
    decimals = max(0, shown)
    if answer.margin > 0:
        while decimals < _MAX_DECIMALS and Fraction(1, 10**decimals) > answer.margin / 100:
            decimals += 1
    value = answer.value
    while decimals < _MAX_DECIMALS and (value * 10**decimals).denominator != 1 and answer.margin == 0:
        decimals += 1  # an exact answer: as many places as it has, up to the limit
    unit = Fraction(1, 10**decimals)
    exact = Fraction(decimal_text(value, decimals))
    needed = answer.margin + abs(value - exact)
    margin = -(-needed // unit) * unit  # rounded up to the last place
    return (decimal_text(exact, decimals), decimal_text(exact - margin, decimals),
            decimal_text(exact + margin, decimals))


def _ident(*parts: str) -> str:
    return hashlib.sha256("\x1f".join(parts).encode("utf-8", "surrogatepass")).hexdigest()[:32]


def _sub(parent, tag: str, text: str | None = None, **attrs) -> ET.Element:
    element = ET.SubElement(parent, tag, {k.rstrip("_"): v for k, v in attrs.items()})
    if text is not None:
        element.text = text
    return element


def _field(metadata, label: str, entry: str) -> None:
    field = _sub(metadata, "qtimetadatafield")
    _sub(field, "fieldlabel", label)
    _sub(field, "fieldentry", entry)


def _material(parent, html_content: str) -> None:
    _sub(_sub(parent, "material"), "mattext", clean(html_content), texttype="text/html")


def _feedback(item, ident: str, html_content: str) -> None:
    _material(_sub(_sub(item, "itemfeedback", ident=ident), "flow_mat"), html_content)


def _show(parent, continue_: str, ident: str) -> ET.Element:
    condition = _sub(parent, "respcondition", continue_=continue_)
    _sub(_sub(condition, "conditionvar"), "other")
    _sub(condition, "displayfeedback", feedbacktype="Response", linkrefid=ident)
    return condition


def question_type(question: BankQuestion) -> str:
    if question.kind == "multichoice":
        return "multiple_choice_question" if question.single else "multiple_answers_question"
    return QUESTION_TYPES[question.kind]


def mistakes_html(question: BankQuestion) -> str:
    """The named mistakes of a numerical question as the incorrect-answer feedback: each value and irlab's word."""
    # a Canvas numerical answer is a number, never '0.4286%': the feedback asks for decimals, and the mistake met
    # only by typing a % sign is not listed
    mistakes = [answer for answer in question.answers if answer.mistake is not None and not answer.needs_percent_sign]
    if not mistakes:
        return ""
    items = "".join(f"<li>{html.escape(decimal_text(m.value, question.decimals))}: "
                    f"{html.escape(clean(m.feedback_for(percent_sign=False))).replace(chr(10), '<br/>')}</li>"
                    for m in mistakes)
    return f"<p>Mistakes irlab recognises for this question:</p><ul>{items}</ul>"


def _item(section, question: BankQuestion, index: int) -> None:
    ident = "irlab_question_" + _ident(str(index), question.name)
    item = _sub(section, "item", ident=ident, title=clean(question.name))
    metadata = _sub(_sub(item, "itemmetadata"), "qtimetadata")
    _field(metadata, "question_type", question_type(question))
    _field(metadata, "points_possible", str(POINTS))
    choice_ids = [f"{ident}_choice_{i + 1}" for i in range(len(question.choices))]
    rights = sum(1 for answer in question.answers if answer.mistake is None)
    answer_ids = {"numerical": [f"{ident}_answer_{i + 1}" for i in range(rights)],
                  "multichoice": choice_ids}.get(question.kind, [])
    _field(metadata, "original_answer_ids", ",".join(answer_ids))
    _field(metadata, "assessment_question_identifierref", ident + "_ref")

    presentation = _sub(item, "presentation")
    _material(presentation, question.text_html)  # it ends with the question's name (irlab.lms.build._texts)
    general = question.solution_html
    if question.kind == "essay" and question.model_answer.strip():
        general += "<p>Model answer:</p>" + html_text(question.model_answer)
    if question.kind == "multichoice":
        response = _sub(presentation, "response_lid", ident="response1",
                        rcardinality="Single" if question.single else "Multiple")
        render = _sub(response, "render_choice")
        for choice_id, choice in zip(choice_ids, question.choices):
            _material(_sub(render, "response_label", ident=choice_id), html_text(choice.text))
    else:
        response = _sub(presentation, "response_str", ident="response1", rcardinality="Single")
        if question.kind == "numerical":
            _sub(_sub(response, "render_fib", fibtype="Decimal"), "response_label", ident="answer1")
        else:
            _sub(_sub(response, "render_fib"), "response_label", ident="answer1", rshuffle="No")

    processing = _sub(item, "resprocessing")
    _sub(_sub(processing, "outcomes"), "decvar", maxvalue="100", minvalue="0", varname="SCORE", vartype="Decimal")
    feedbacks: list[tuple[str, str]] = []
    if general.strip():
        _show(processing, "Yes", "general_fb")
        feedbacks.append(("general_fb", general))
    if question.kind == "numerical":
        # one condition per right answer: the right value with its margin, then each correct rounding outside it
        rights = [answer for answer in question.answers if answer.mistake is None]
        for number, right in enumerate(rights):
            exact, lower, upper = answer_bounds(right, question.decimals)
            condition = _sub(processing, "respcondition", continue_="No")
            alternatives = _sub(_sub(condition, "conditionvar"), "or")
            _sub(alternatives, "varequal", exact, respident="response1")
            bounds = _sub(alternatives, "and")
            _sub(bounds, "vargte", lower, respident="response1")
            _sub(bounds, "varlte", upper, respident="response1")
            _sub(condition, "setvar", "100", action="Set", varname="SCORE")
            if right.feedback.strip():
                label = "correct_fb" if number == 0 else f"correct_fb_{number + 1}"
                _sub(condition, "displayfeedback", feedbacktype="Response", linkrefid=label)
                feedbacks.append((label, html_text(right.feedback)))
        wrong = mistakes_html(question)
        if wrong:
            _show(processing, "Yes", "general_incorrect_fb")
            feedbacks.append(("general_incorrect_fb", wrong))
    elif question.kind == "multichoice":
        for choice_id, choice in zip(choice_ids, question.choices):
            if choice.feedback.strip():
                condition = _sub(processing, "respcondition", continue_="Yes")
                _sub(_sub(condition, "conditionvar"), "varequal", choice_id, respident="response1")
                _sub(condition, "displayfeedback", feedbacktype="Response", linkrefid=choice_id + "_fb")
                feedbacks.append((choice_id + "_fb", html_text(choice.feedback)))
        condition = _sub(processing, "respcondition", continue_="No")
        variables = _sub(condition, "conditionvar")
        if question.single:
            for choice_id, choice in zip(choice_ids, question.choices):
                if choice.correct:
                    _sub(variables, "varequal", choice_id, respident="response1")
                    break
        else:
            every = _sub(variables, "and")
            for choice_id, choice in zip(choice_ids, question.choices):
                target = every if choice.correct else _sub(every, "not")
                _sub(target, "varequal", choice_id, respident="response1")
        _sub(condition, "setvar", "100", action="Set", varname="SCORE")
    else:
        _sub(_sub(_sub(processing, "respcondition", continue_="No"), "conditionvar"), "other")
    for feedback_id, content in feedbacks:
        _feedback(item, feedback_id, content)


def _groups(bank: Bank) -> list[tuple[str, list[BankQuestion]]]:
    groups: dict[str, list[BankQuestion]] = {}
    for question in bank.questions:
        groups.setdefault(question.category, []).append(question)
    return list(groups.items())


def assessment_xml(bank: Bank, ident: str) -> bytes:
    root = ET.Element("questestinterop", {
        "xmlns": QTI_NS, "xmlns:xsi": "http://www.w3.org/2001/XMLSchema-instance",
        "xsi:schemaLocation": f"{QTI_NS} http://www.imsglobal.org/xsd/ims_qtiasiv1p2p1.xsd"})
    assessment = _sub(root, "assessment", ident=ident, title=clean(bank.title or bank.set_id))
    _field(_sub(assessment, "qtimetadata"), "cc_maxattempts", "1")
    top = _sub(assessment, "section", ident="root_section")
    index = 0
    for category, questions in _groups(bank):
        section = _sub(top, "section", ident="irlab_group_" + _ident(category), title=clean(category))
        selection = _sub(_sub(section, "selection_ordering"), "selection")
        _sub(selection, "selection_number", "1")
        _sub(_sub(selection, "selection_extension"), "points_per_item", str(POINTS))
        for question in questions:
            index += 1
            _item(section, question, index)
    return _document(root)


def meta_xml(bank: Bank, ident: str) -> bytes:
    root = ET.Element("quiz", {
        "identifier": ident, "xmlns": CANVAS_NS, "xmlns:xsi": "http://www.w3.org/2001/XMLSchema-instance",
        "xsi:schemaLocation": f"{CANVAS_NS} https://canvas.instructure.com/xsd/cccv1p0.xsd"})
    _sub(root, "title", clean(bank.title or bank.set_id))
    seed = "" if bank.seed is None else f", seed {bank.seed}"
    _sub(root, "description", html_text(f"irlab exercise set {bank.set_id}: {bank.variants} variant(s) of each "
                                        f"question{seed}; each student draws one variant of each question."))
    for tag, value in (("shuffle_answers", "false"), ("scoring_policy", "keep_highest"), ("quiz_type", "assignment"),
                       ("points_possible", f"{float(POINTS * len(_groups(bank)))}"),
                       ("show_correct_answers", "true"), ("allowed_attempts", "1"),
                       ("one_question_at_a_time", "false"), ("cant_go_back", "false"), ("available", "false")):
        _sub(root, tag, value)
    return _document(root)


def manifest_xml(bank: Bank, ident: str) -> bytes:
    root = ET.Element("manifest", {
        "identifier": ident + "_manifest", "xmlns": MANIFEST_NS, "xmlns:imsmd": "http://www.imsglobal.org/xsd/imsmd_v1p2"})
    metadata = _sub(root, "metadata")
    _sub(metadata, "schema", "IMS Content")
    _sub(metadata, "schemaversion", "1.1.3")
    title = _sub(_sub(_sub(metadata, "imsmd:lom"), "imsmd:general"), "imsmd:title")
    _sub(title, "imsmd:string", clean(bank.title or bank.set_id))
    _sub(root, "organizations")
    resources = _sub(root, "resources")
    resource = _sub(resources, "resource", identifier=ident, type="imsqti_xmlv1p2")
    _sub(resource, "file", href=f"{ident}/{ident}.xml")
    _sub(resource, "dependency", identifierref=ident + "_dependency")
    meta = _sub(resources, "resource", identifier=ident + "_dependency",
                type="associatedcontent/imscc_xmlv1p1/learning-application-resource",
                href=f"{ident}/assessment_meta.xml")
    _sub(meta, "file", href=f"{ident}/assessment_meta.xml")
    return _document(root)


def _document(root) -> bytes:
    ET.indent(root)
    return b'<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="utf-8") + b"\n"


def write_qti(bank: Bank) -> bytes:
    """The bank as a QTI 1.2 zip that Canvas imports as one quiz with a question group per question."""
    ident = "irlab_assessment_" + _ident(bank.set_id, str(bank.seed), str(bank.variants),
                                         *(q.name for q in bank.questions))
    files = {"imsmanifest.xml": manifest_xml(bank, ident),
             f"{ident}/{ident}.xml": assessment_xml(bank, ident),
             f"{ident}/assessment_meta.xml": meta_xml(bank, ident)}
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, content in files.items():
            info = zipfile.ZipInfo(name, _ZIP_TIME)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            archive.writestr(info, content)
    return buffer.getvalue()


def canvas_notes(bank: Bank) -> list[str]:
    """What the instructor should know of the Canvas bank beyond the bank's own notes."""
    numeric = [q for q in bank.questions if q.kind == "numerical" and len(q.answers) > 1]
    if not numeric:
        return []
    credit = {a.credit for q in numeric for a in q.answers[1:]}
    note = (f"Canvas: the named mistakes of {len(numeric)} numerical question(s) are listed in the incorrect-answer "
            "feedback, not as answers (every answer of a Canvas numerical question is a right answer)")
    if any(c > 0 for c in credit):
        note += "; their partial credit is given only by irlab grade on Canvas's Student Analysis export"
    return [note]
