"""The LMS banks against Moodle's own code: what irlab's grader takes as right, Moodle takes as right.

The oracle is ../shared/oracles/moodle (Moodle 4.5.6's importer and qtype_numerical's answer processor, run by PHP;
see its README), driven by tests/moodle_numerical.php, which imports a bank and grades typed responses as Moodle
does. For every numerical question of the bank of every shipped set (exercises/*.toml, as ``irlab quiz SET
--format moodle`` writes it, and with the README's ``--variants 3 --seed 2026``), the responses tried are the right
value written to 0 … the bank's decimals, as a decimal and as a percentage ('0.4545', '45.45%'), each right
rounding likewise ('0.05', '5%'), each of these digits followed by a % sign ('0.4545%', '0.05%': a named mistake
to irlab), and each answer's typical response (a named mistake's: '45.4545', '0.4545%', '0.4745'):

- a response irlab's grader calls right is right in Moodle (full marks), and one it calls wrong is not, unless it
  is the same number as one irlab calls right ('0.3' for 0.2958, refused as rounded to 1 decimal, is 0.30, which
  irlab takes: Moodle reads numbers, not digits) or the question asks for the exact fraction (no LMS takes one);
- a named mistake's typical response meets that mistake's answer in Moodle, whose feedback is irlab's word on it;
- no two answers' intervals, as Moodle stores them, meet; every multiple-choice option has its own feedback.

The GIFT bank (no units) is checked the same way for the responses Moodle's number box takes there (no '%'), and its
feedback, like the Canvas bank's, never asks for a percentage. Needs ``php`` with the xml and mbstring extensions
(Debian: php-cli php-xml php-mbstring; .ci/run installs them); skipped, saying why, without.
"""

from __future__ import annotations

import html
import json
import re
import shutil
import subprocess
from fractions import Fraction
from pathlib import Path

import pytest

from irlab.exact import decimal_text
from irlab.homework.answers import parse_answer, rational_value
from irlab.homework.feedback import grade_part
from irlab.homework.key import answer_key
from irlab.lms.build import build_bank
from irlab.lms.gift import write_gift
from irlab.lms.moodle import write_moodle
from irlab.lms.qti import mistakes_html

ROOT = Path(__file__).resolve().parent.parent
ORACLE = ROOT.parent / "shared" / "oracles" / "moodle"
GRADER = Path(__file__).resolve().parent / "moodle_numerical.php"
SETS = sorted((ROOT / "exercises").glob("*.toml"))
RUNS = [(1, None), (3, "2026")]  # irlab quiz's default, and the README's --variants 3 --seed 2026


def _missing() -> str | None:
    php = shutil.which("php")
    if php is None:
        return "php is not installed (Debian: php-cli php-xml php-mbstring; .ci/run installs them)"
    if not (ORACLE / "stubs.php").is_file():
        return f"the Moodle oracle is not at {ORACLE} (../shared/oracles/moodle, kept beside the repository)"
    probe = subprocess.run([php, "-r", "exit(function_exists('xml_parser_create') && function_exists('mb_strlen') "
                                       "? 0 : 1);"], capture_output=True)
    if probe.returncode != 0:
        return "php lacks the xml or mbstring extension (Debian: php-xml php-mbstring)"
    return None


pytestmark = pytest.mark.skipif(_missing() is not None, reason=str(_missing()))


def _moodle(bank_file: Path, responses: dict) -> dict:
    """tests/moodle_numerical.php's answer: the bank as Moodle imports it and each response as Moodle grades it."""
    wanted = bank_file.with_suffix(".responses.json")
    wanted.write_text(json.dumps(responses))
    done = subprocess.run(["php", "-d", "error_reporting=E_ALL", "-d", "display_errors=stderr", str(GRADER),
                           str(ORACLE), str(bank_file), str(wanted)], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout)


def _import_verdict(bank_file: Path) -> dict:
    done = subprocess.run([str(ORACLE / "run.sh"), str(bank_file), "--full"], capture_output=True, text=True,
                          timeout=600)
    return json.loads(done.stdout)


def _key_part(bank, question):
    key = answer_key(SETS[0].parent / f"{bank.set_id}.toml", question.exercise, question.question, question.student,
                     bank.seed)
    return key, key.parts[int(question.part) - 1] if question.part else key.parts[0]


def _tried(question, right: Fraction, percent_sign: bool) -> list[str]:
    """The responses tried (see the module's docstring); without ``percent_sign``, none with a % sign."""
    tried = []
    for decimals in range(question.decimals + 1):
        tried.append(decimal_text(right, decimals, strip=False, scientific=False))
        if percent_sign:
            tried.append(decimal_text(right * 100, max(decimals - 2, 0), strip=False, scientific=False) + "%")
            tried.append(tried[-2] + "%")  # the digits of the fraction of 1 with a % sign: a named mistake
    for answer in question.answers:
        if percent_sign or not answer.needs_percent_sign:
            tried.append(answer.response)
        if percent_sign and answer.mistake is None:  # a right rounding, '0.05', as a percentage: '5%'
            places = len(answer.response.partition(".")[2])
            tried.append(decimal_text(answer.value * 100, max(places - 2, 0), strip=False, scientific=False) + "%")
            tried.append(answer.response + "%")  # and with a % sign after its digits: a named mistake
    return list(dict.fromkeys(tried))


def _check(bank, bank_file: Path, percent_sign: bool) -> tuple[list[str], dict]:
    """Mismatches between irlab's grader and Moodle's, and the counts checked."""
    numerical = [q for q in bank.questions if q.kind == "numerical"]
    keys = {q.name: _key_part(bank, q) for q in numerical}
    tried = {q.name: _tried(q, rational_value(keys[q.name][1].value), percent_sign) for q in numerical}
    moodle = _moodle(bank_file, tried)
    assert moodle["import_errors"] == []
    mismatches, responses, same_number = [], 0, []
    for question in numerical:
        key, part = keys[question.name]
        graded = moodle["questions"][question.name]
        answers = graded["answers"]
        spans = sorted((a["value"] - float(a["tolerance"]), a["value"] + float(a["tolerance"])) for a in answers)
        for (_, high), (low, _) in zip(spans, spans[1:]):
            if high >= low:
                mismatches.append(f"{question.name}: the stored intervals meet ({spans})")
        typical = {a.response: a for a in question.answers if percent_sign or not a.needs_percent_sign}
        verdicts = {result["response"]: grade_part(key, part, result["response"]) for result in graded["responses"]}
        # Moodle reads a number, not its digits: 0.3 is 0.30, which irlab takes as 29/98 rounded to 2 decimals
        right_numbers = {parse_answer(text).value for text, told in verdicts.items() if told.correct}
        for result in graded["responses"]:
            responses += 1
            response = result["response"]
            irlab = verdicts[response]
            right_in_moodle = result["invalid"] is None and result["fraction"] == 1
            if right_in_moodle and not irlab.correct and parse_answer(response).value in right_numbers:
                same_number.append(response)
            # a question asking for the exact fraction: irlab takes only that, no LMS takes it (the bank says so)
            elif irlab.correct != right_in_moodle and key.tolerance.form != "fraction":
                said = "right" if irlab.correct else "wrong"
                mismatches.append(f"{question.name}: {response!r} is {said} for irlab, "
                                  f"{'right' if right_in_moodle else 'not right'} in Moodle ({result})")
            answer = typical.get(response)
            if answer is None or answer.mistake is None:
                continue
            told = grade_part(key, part, response, fractions=False, percent_sign=percent_sign)
            met = answers[result["answer"]]["feedback"] if result["answer"] is not None else None
            if answer.mistake not in told.mistakes:
                mismatches.append(f"{question.name}: irlab does not name {answer.mistake} for {response!r}")
            if met is None or html.unescape(met.replace("<br>\n", "\n")) != told.message:
                mismatches.append(f"{question.name}: {response!r} ({answer.mistake}) meets {met!r} in Moodle; irlab "
                                  f"says {told.message!r}")
    return mismatches, {"questions": len(numerical), "responses": responses, "same number": len(same_number)}


CHECKED: dict = {}


@pytest.fixture(scope="module", params=[(s, v, seed) for s in SETS for v, seed in RUNS],
                ids=lambda p: f"{p[0].stem}-{p[1]}v")
def built(request, tmp_path_factory):
    set_file, variants, seed = request.param
    return build_bank(set_file, variants, seed), tmp_path_factory.mktemp(f"{set_file.stem}-{variants}")


def test_moodle_takes_what_irlab_takes(built):
    bank, folder = built
    bank_file = folder / "bank.xml"
    bank_file.write_text(write_moodle(bank), encoding="utf-8")
    imported = _import_verdict(bank_file)
    assert imported["verdict"] == "OK", imported["verdict"]
    for question in imported["questions"]:
        if question["qtype"] == "numerical":
            assert [u["unit"] for u in question["units"]][1:] == ["%"]
            assert (question["showunits"], question["unitgradingtype"], float(question["unitpenalty"])) == ("0", "0", 0)
        if question["qtype"] == "multichoice":  # every option its own feedback
            assert all(answer["feedback"].strip() for answer in question["answers"]), question["name"]
    mismatches, counts = _check(bank, bank_file, percent_sign=True)
    CHECKED[("moodle", bank.set_id, bank.variants, bank.seed)] = {**counts, "mismatches": len(mismatches)}
    assert mismatches == [], "\n".join(mismatches)


def test_gift_and_canvas_ask_for_nothing_their_box_refuses(built):
    bank, folder = built
    bank_file = folder / "bank.gift"
    bank_file.write_text(write_gift(bank), encoding="utf-8")
    mismatches, counts = _check(bank, bank_file, percent_sign=False)
    CHECKED[("gift", bank.set_id, bank.variants, bank.seed)] = {**counts, "mismatches": len(mismatches)}
    assert mismatches == []
    graded = _moodle(bank_file, {q.name: ["45%"] for q in bank.questions if q.kind == "numerical"})
    for question in graded["questions"].values():  # Moodle refuses a % sign in GIFT's unitless questions...
        assert question["responses"][0]["invalid"] == "invalidnumbernounit"
        for answer in question["answers"]:  # ...so no feedback asks for one, nor for a fraction like 5/11
            assert not re.search(r"\d\s*%|write \d+/\d+", answer["feedback"]), answer["feedback"]
    for question in bank.questions:
        if question.kind == "numerical":
            assert not re.search(r"\d\s*%|write \d+/\d+", mistakes_html(question))
