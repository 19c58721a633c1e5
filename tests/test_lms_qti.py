"""The Canvas QTI writer, read back independently: zipfile + defusedxml, compared element by element with what
text2qti (a writer of Canvas QTI) writes for the same kinds of question."""

from __future__ import annotations

import html
import io
import re
import zipfile
from fractions import Fraction
from html.parser import HTMLParser
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from irlab.lms.build import build_bank
from irlab.lms.bank import Bank, BankQuestion, Choice, NumericAnswer
from irlab.lms.qti import clean, write_qti

ElementTree = pytest.importorskip("defusedxml.ElementTree")

ROOT = Path(__file__).resolve().parents[1]
HOSTILE = ["=cmd|' /C calc'!A0", "<script>alert(1)</script>", "a & b < c > d \"q\" 'q'", "\x1b[31mred\x07",
           "\x00nul", "]]>", "&amp;", "\\( x \\)", "@SUM(1)", "+1", "-1", "\ud800", "\ufffe"]


def local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]


def tree(data: bytes):
    return ElementTree.fromstring(data)


def find(element, name):
    return [e for e in element.iter() if local(e.tag) == name]


def read_zip(data: bytes):
    """(manifest root, assessment root, meta root) of a QTI zip, following the manifest's hrefs."""
    archive = zipfile.ZipFile(io.BytesIO(data))
    assert archive.testzip() is None
    manifest = tree(archive.read("imsmanifest.xml"))
    hrefs = [f.get("href") for f in find(manifest, "file")]
    assert set(hrefs) <= set(archive.namelist())
    assessment = next(h for h in hrefs if not h.endswith("assessment_meta.xml"))
    meta = next(h for h in hrefs if h.endswith("assessment_meta.xml"))
    kinds = {r.get("type") for r in find(manifest, "resource")}
    assert "imsqti_xmlv1p2" in kinds
    return manifest, tree(archive.read(assessment)), tree(archive.read(meta))


def metadata(item) -> dict:
    return {local(f[0].tag) and f[0].text: f[1].text or "" for f in find(item, "qtimetadatafield")}


def feedbacks(item) -> dict:
    return {f.get("ident"): find(f, "mattext")[0].text for f in find(item, "itemfeedback")}


def sections(assessment):
    root = [s for s in find(assessment, "section") if s.get("ident") == "root_section"][0]
    return [s for s in root if local(s.tag) == "section"]


def _numerical(name, code, value, margin, mistakes=(), credit=Fraction(0)):
    answers = [NumericAnswer(Fraction(value), Fraction(margin), Fraction(1), f"Correct: {value}")]
    answers += [NumericAnswer(Fraction(v), Fraction(margin), credit, text, f"m{i}")
                for i, (v, text) in enumerate(mistakes)]
    return BankQuestion(f"set 1a [{code}]", "irlab/set/1a", "numerical", f"What is P? ({code})",
                        f"<p>What is P? ({code})</p>", "<p>\\( P = \\frac{3}{7} \\)</p>", "set", "1", "a", None,
                        code, "variant-1", answers=tuple(answers), decimals=4)


def hand_bank(title="Week 3 & <quiz>", feedback="you divided by 3, not by R = 5", choice="yes <b>", model="An answer"):
    questions = [
        _numerical("1a", "AAA-111", Fraction(3, 7), Fraction(1, 200), [(Fraction(3, 5), feedback),
                                                                     (Fraction(7, 3), "you swapped them")]),
        _numerical("1a", "BBB-222", Fraction(2, 5), Fraction(1, 200), [(Fraction(2, 3), feedback)]),
        _numerical("1a", "CCC-333", Fraction(1, 3), 0),
        BankQuestion("set 1b [AAA-111]", "irlab/set/1b", "multichoice", "Pick", "<p>Pick</p>", "<p>sol</p>", "set",
                     "1", "b", None, "AAA-111", "variant-1",
                     choices=(Choice(choice, True, "right: " + feedback), Choice("no", False, "no fb"))),
        BankQuestion("set 1c [AAA-111]", "irlab/set/1c", "multichoice", "All", "<p>All</p>", "", "set", "1", "c",
                     None, "AAA-111", "variant-1", single=False,
                     choices=(Choice("a", True), Choice("b", False), Choice("c", True))),
        BankQuestion("set 1d [AAA-111]", "irlab/set/1d", "essay", "Why?", "<p>Why?</p>", "<p>Because.</p>", "set",
                     "1", "d", None, "AAA-111", "variant-1", model_answer=model),
    ]
    return Bank("set", title, "7", 2, questions)


# --- text2qti's structure for the same kinds of question ------------------------------------------------------

TEXT2QTI_QUIZ = """Quiz title: Demo

1.  What is 3/7?
... The worked solution
+   Right
-   Wrong
=   0.4286 +- 0.005

2.  Pick one
*a) yes
... yes fb
b) no
... no fb

3.  Pick all
[*] a
[ ] b
[*] c

4.  Why?
____
"""


def paths(element, prefix=""):
    """Every element path of an item (tags only, attributes' names on the way)."""
    here = f"{prefix}/{local(element.tag)}"
    found = {here} | {f"{here}@{name}" for name in element.attrib if not name.startswith("{")}
    for child in element:
        found |= paths(child, here)
    return found


@pytest.fixture(scope="module")
def text2qti_items():
    pytest.importorskip("text2qti")
    from text2qti.config import Config
    from text2qti.qti import QTI
    from text2qti.quiz import Quiz

    data = QTI(Quiz(TEXT2QTI_QUIZ, config=Config(), source_name="demo.md")).zip_bytes()
    archive = zipfile.ZipFile(io.BytesIO(data))
    assert "imsmanifest.xml" in archive.namelist()
    name = next(n for n in archive.namelist() if n.endswith(".xml") and "/" in n and "meta" not in n)
    return {metadata(item)["question_type"]: item for item in find(tree(archive.read(name)), "item")}


def test_every_element_canvas_needs_as_text2qti_writes_it(text2qti_items):
    _, assessment, _ = read_zip(write_qti(hand_bank()))
    ours = {metadata(item)["question_type"]: item for item in find(assessment, "item")}
    assert set(ours) == set(text2qti_items) == {"numerical_question", "multiple_choice_question",
                                                "multiple_answers_question", "essay_question"}
    for kind, theirs in text2qti_items.items():
        missing = paths(theirs) - paths(ours[kind])
        assert not missing, (kind, sorted(missing))
        assert set(metadata(ours[kind])) == set(metadata(theirs))


def test_manifest_and_quiz_meta():
    manifest, assessment, meta = read_zip(write_qti(hand_bank()))
    assert local(manifest.tag) == "manifest" and local(meta.tag) == "quiz"
    assert assessment.find("{*}assessment").get("title") == "Week 3 & <quiz>"
    assert meta.find("{*}title").text == "Week 3 & <quiz>"
    assert meta.find("{*}points_possible").text == "4.0"  # one point per group drawn


def test_one_group_per_question_drawing_one_variant():
    bank = hand_bank()
    _, assessment, _ = read_zip(write_qti(bank))
    groups = sections(assessment)
    assert [g.get("title") for g in groups] == ["irlab/set/1a", "irlab/set/1b", "irlab/set/1c", "irlab/set/1d"]
    for group in groups:
        assert [e.text for e in find(group, "selection_number")] == ["1"]
        assert [e.text for e in find(group, "points_per_item")] == ["1"]
    assert [i.get("title") for i in find(groups[0], "item")] == [q.name for q in bank.questions[:3]]
    assert len({i.get("ident") for i in find(assessment, "item")}) == len(bank.questions)


def canvas_ranges(item):
    """The intervals Canvas accepts, read as Canvas's importer reads them: one scoring condition per right answer (the
    right value with its margin, then each correct rounding), each the exact value and upper - exact."""
    ranges = []
    for condition in [c for c in find(item, "respcondition") if find(c, "setvar")]:
        (setvar,) = find(condition, "setvar")
        assert setvar.text == "100" and setvar.get("varname") == "SCORE"  # every answer of a Canvas numerical is right
        exact = Fraction(find(condition, "varequal")[0].text)
        lower = Fraction(find(condition, "vargte")[0].text)
        upper = Fraction(find(condition, "varlte")[0].text)
        assert exact - lower == upper - exact
        ranges.append((exact, lower, upper))
    return ranges


def canvas_range(item):
    """The interval of the right value (the first scoring condition)."""
    return canvas_ranges(item)[0]


def check_numerical(item, question):
    meta = metadata(item)
    assert meta["question_type"] == "numerical_question" and meta["points_possible"] == "1"
    rights = [answer for answer in question.answers if answer.mistake is None]
    right = rights[0]
    ranges = canvas_ranges(item)
    assert len(ranges) == len(rights)
    for answer, (_, lower, upper) in zip(rights, ranges):
        assert lower <= answer.value - answer.margin and answer.value + answer.margin <= upper
        if answer.margin:
            assert (upper - lower) - 2 * answer.margin <= answer.margin / 10
    shown = feedbacks(item)
    assert shown.get("general_fb", "") == question.solution_html
    correct_fb = [c for c in find(item, "displayfeedback") if c.get("linkrefid") == "correct_fb"]
    assert correct_fb and html.unescape(shown["correct_fb"]).count(right.feedback.split(":")[0])
    incorrect = html.unescape(shown.get("general_incorrect_fb", ""))
    # a Canvas number takes no % sign: the mistake met only by typing one ('0.4545%') is not listed, and the others'
    # feedback asks for no percentage ("write 0.4545", not "45.45% or 0.4545")
    mistakes = [answer for answer in question.answers if answer.mistake is not None and not answer.needs_percent_sign]
    for mistake in mistakes:
        assert mistake.feedback_for(percent_sign=False).strip() in incorrect.replace("<br/>", "\n")
    assert not re.search(r"\d%", incorrect)
    assert bool(incorrect) == bool(mistakes)


def test_numerical_bounds_and_feedback_per_mistake():
    bank = hand_bank()
    _, assessment, _ = read_zip(write_qti(bank))
    items = find(assessment, "item")
    for item, question in zip(items, bank.questions[:3]):
        check_numerical(item, question)
    incorrect = html.unescape(feedbacks(items[0])["general_incorrect_fb"])
    assert "0.6000: you divided by 3, not by R = 5" in incorrect and "2.3333: you swapped them" in incorrect
    exact, lower, upper = canvas_range(items[2])  # 1/3 with no margin: its rounding, and nothing else
    assert lower <= Fraction(1, 3) <= upper and upper - lower < Fraction(1, 10**11)


def test_choices_and_essay():
    bank = hand_bank()
    _, assessment, _ = read_zip(write_qti(bank))
    single, multiple, essay = find(assessment, "item")[3:]
    labels = [label.get("ident") for label in find(single, "response_label")]
    scoring = [c for c in find(single, "respcondition") if find(c, "setvar")]
    assert [v.text for v in find(scoring[0], "varequal")] == [labels[0]]
    assert html.unescape(feedbacks(single)[labels[0] + "_fb"]) == "<p>right: you divided by 3, not by R = 5</p>"
    assert find(multiple, "response_lid")[0].get("rcardinality") == "Multiple"
    (both,) = find(multiple, "and")
    labels = [label.get("ident") for label in find(multiple, "response_label")]
    assert [v.text for v in both if local(v.tag) == "varequal"] == [labels[0], labels[2]]
    assert [v.text for v in find(both, "not")[0]] == [labels[1]]
    assert metadata(essay)["question_type"] == "essay_question"
    assert "Model answer" in feedbacks(essay)["general_fb"] and "An answer" in feedbacks(essay)["general_fb"]


def test_same_bank_same_bytes():
    assert write_qti(hand_bank()) == write_qti(hand_bank())


class _Text(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.text, self.tags = [], set()

    def handle_starttag(self, tag, attrs):
        self.tags.add(tag)

    def handle_data(self, data):
        self.text.append(data)


def html_to_text(fragment: str) -> tuple[str, set]:
    parser = _Text()
    parser.feed(fragment)
    parser.close()
    return "".join(parser.text), parser.tags


hostile = st.one_of(st.sampled_from(HOSTILE),
                    st.text(st.characters(blacklist_characters="\n\r", blacklist_categories=("Cs",)), max_size=30),
                    st.lists(st.sampled_from(HOSTILE + ["x", " ", "é", "\t"]), max_size=6).map("".join))


@settings(max_examples=60, deadline=None)
@given(title=hostile, feedback=hostile, choice=hostile, model=hostile)
def test_hostile_text_stays_text(title, feedback, choice, model):
    feedback, choice, model = (s if s.strip() else "x" + s for s in (feedback, choice, model))
    bank = hand_bank(title, feedback, choice, model)
    manifest, assessment, meta = read_zip(write_qti(bank))
    assert assessment.find("{*}assessment").get("title") == clean(title or "set")
    assert meta.find("{*}title").text == clean(title or "set")
    single = find(assessment, "item")[3]
    text, tags = html_to_text(find(find(single, "response_label")[0], "mattext")[0].text)
    assert tags <= {"p"} and text == clean(choice).strip()
    text, tags = html_to_text(feedbacks(find(assessment, "item")[1])["general_incorrect_fb"])
    assert tags <= {"p", "ul", "li", "br"} and clean(feedback).strip() in text
    text, tags = html_to_text(feedbacks(find(assessment, "item")[5])["general_fb"])
    assert clean(model).strip() in text


def test_real_bank_of_homework_variants():
    bank = build_bank(ROOT / "exercises" / "homework-variants.toml", 3, seed="s1")
    _, assessment, _ = read_zip(write_qti(bank))
    groups = sections(assessment)
    by_name = {q.name: q for q in bank.questions}
    assert len(groups) == len({q.category for q in bank.questions})
    mistakes = 0
    for group in groups:
        items = find(group, "item")
        assert [e.text for e in find(group, "selection_number")] == ["1"]
        assert len(items) == 3, group.get("title")
        for item in items:
            question = by_name[item.get("title")]
            assert question.category == group.get("title")
            if question.kind == "numerical":
                check_numerical(item, question)
                mistakes += sum(1 for answer in question.answers if answer.mistake is not None)
    assert mistakes > 0


def test_a_qti_bank_must_be_named_zip(tmp_path, capsys):
    from irlab.cli import main

    target = tmp_path / "bank.xml"
    assert main(["quiz", str(ROOT / "exercises" / "homework-variants.toml"), "--format", "qti", "-o", str(target)]) == 2
    assert "a Canvas QTI bank is a .zip package" in capsys.readouterr().err and not target.exists()
    assert main(["quiz", str(ROOT / "exercises" / "homework-variants.toml"), "--format", "qti", "-o",
                 str(tmp_path / "bank.ZIP")]) == 0
