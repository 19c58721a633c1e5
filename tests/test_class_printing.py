"""irlab sheet SET --roster R --out DIR --format pdf: a PDF sheet and key per student and the class's sheets and keys
in two PDFs to print double-sided (every student's pages start on an odd page), checked with pdflatex's log,
pdfinfo and pdftotext."""

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import pdflatex_available
from irlab.homework.sheets import write_class_sheets
from irlab.printable import PrintError
from irlab.tex_engine import engine, fallback_fonts

EXERCISES = Path(__file__).resolve().parents[1] / "exercises"
BOOK = EXERCISES / "chapter8-book.toml"  # a sheet of one page, a key of three or four (by the variant drawn)
VARIANTS = EXERCISES / "homework-variants.toml"
ROSTER = EXERCISES / "sample-roster.csv"  # s001 Ann Lee, s002 Bo Yu, s003 Cy Ng
needs_latex = pytest.mark.skipif(not (pdflatex_available() and shutil.which("pdftotext") and shutil.which("pdfinfo")),
                                 reason="pdflatex/pdftotext not installed (CI installs texlive and poppler-utils)")
NAMES = {"s001": "Ann Lee", "s002": "Bo Yu", "s003": "Cy Ng"}


def pages(pdf) -> int:
    info = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True, check=True).stdout
    return int(re.search(r"^Pages:\s+(\d+)", info, re.M).group(1))


def page_text(pdf, page: int) -> str:
    return subprocess.run(["pdftotext", "-f", str(page), "-l", str(page), "-layout", str(pdf), "-"],
                          capture_output=True, text=True, check=True).stdout


def overfull(tex: Path, tmp_path) -> list[float]:
    """The overfull boxes (pt) the engine reports on ``tex`` (pdflatex or, beyond ASCII, lualatex), compiled in a
    directory of its own."""
    build = tmp_path / f"build-{tex.stem}"
    build.mkdir()
    shutil.copy(tex, build / tex.name)
    subprocess.run([engine(tex.read_text(encoding="utf-8")), "-interaction=nonstopmode", "-halt-on-error", tex.name], cwd=build,
                   capture_output=True, check=True, timeout=300)
    log = (build / tex.with_suffix(".log").name).read_text(errors="replace")
    return [float(x) for x in re.findall(r"Overfull \\[hv]box \(([\d.]+)pt too", log)]


def standalone_pages(tex: Path, tmp_path) -> int:
    """The pages ``tex`` makes compiled on its own by its engine, in a directory of its own."""
    build = tmp_path / f"alone-{tex.stem}"
    build.mkdir()
    shutil.copy(tex, build / tex.name)
    subprocess.run([engine(tex.read_text(encoding="utf-8")), "-interaction=nonstopmode", "-halt-on-error", tex.name],
                   cwd=build, capture_output=True, check=True, timeout=300)
    return pages(build / tex.with_suffix(".pdf").name)


@pytest.fixture(scope="module")
def book_class(tmp_path_factory):
    """chapter8-book's class in PDF (run once: 8 pdflatex runs)."""
    from irlab.cli import main
    out = tmp_path_factory.mktemp("class") / "sheets"
    assert main(["sheet", str(BOOK), "--roster", str(ROSTER), "--out", str(out), "--seed", "2026",
                 "--format", "pdf"]) == 0
    return out


@needs_latex
def test_every_student_gets_a_pdf_sheet_and_key_and_the_manifest_lists_them(book_class, tmp_path):
    out = book_class
    assert sorted(p.name for p in out.iterdir()) == sorted(
        ["manifest.json", "class-sheets.pdf", "class-sheets.tex", "class-keys.pdf", "class-keys.tex"]
        + [f"{s}{k}.{e}" for s in NAMES for k in ("", "-key") for e in ("pdf", "tex")])
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["class"] == {"sheets": "class-sheets.pdf", "keys": "class-keys.pdf",
                                 "sheets_source": "class-sheets.tex", "keys_source": "class-keys.tex"}
    first = manifest["students"][0]
    assert (first["id"], first["name"], first["sheet"], first["key"], first["sheet_source"], first["key_source"]) == (
        "s001", "Ann Lee", "s001.pdf", "s001-key.pdf", "s001.tex", "s001-key.tex")
    for student in NAMES:  # a sheet of one page, a key of three or four (exercise 8.9 of the student's variant)
        assert pages(out / f"{student}.pdf") == 1
        key = out / f"{student}-key.pdf"
        # the key cut from the class's PDF has the pages its own source makes, compiled alone, and ends with the
        # last question's answer: no page lost or gained in the cutting
        assert pages(key) == standalone_pages(out / f"{student}-key.tex", tmp_path) in (3, 4)
        last = page_text(key, pages(key))
        assert "Largest error of the top-list estimate" in last and "Answer: error =" in last
        sheet = page_text(out / f"{student}.pdf", 1)
        code = next(s["code"] for s in manifest["students"] if s["id"] == student)
        assert f"{NAMES[student]} ({student}), variant code {code}" in sheet
        assert f"Answer key of {NAMES[student]} ({student}), variant code {code}" in page_text(
            out / f"{student}-key.pdf", 1)


@needs_latex
def test_class_pdfs_are_duplex_safe_each_student_starting_on_an_odd_page(book_class):
    sheets, keys = book_class / "class-sheets.pdf", book_class / "class-keys.pdf"
    # three one-page sheets: pages 1, 3, 5, a blank page after each but the last; a key of an odd number of pages
    # is padded by a blank page too, one of an even number is not
    assert pages(sheets) == 5
    lengths = [pages(book_class / f"{student}-key.pdf") for student in NAMES]
    starts = [1 + sum(n + n % 2 for n in lengths[:i]) for i in range(len(lengths))]
    assert pages(keys) == starts[-1] + lengths[-1] - 1
    for start, length in zip(starts[:-1], lengths):
        if length % 2:
            assert page_text(keys, start + length).strip() == ""
    for number, student in zip((1, 3, 5), NAMES):
        text = page_text(sheets, number)
        assert f"{NAMES[student]} ({student})" in text and text.count("variant code") == 1
    for blank in (2, 4):
        assert page_text(sheets, blank).strip() == ""
    for start, length, student in zip(starts, lengths, NAMES):
        for page in range(start, start + length):  # every page of the key says whose it is, numbered from 1
            text = page_text(keys, page)
            assert f"Answer key of {NAMES[student]} ({student})" in text
            assert re.search(rf"\b{page - start + 1}\s*$", text.splitlines()[0])


@needs_latex
def test_every_roster_name_is_in_the_merged_pdfs_and_nothing_overflows(book_class, tmp_path):
    for merged in ("class-sheets.pdf", "class-keys.pdf"):
        text = subprocess.run(["pdftotext", str(book_class / merged), "-"], capture_output=True, text=True,
                              check=True).stdout
        for student, name in NAMES.items():
            assert f"{name} ({student})" in text
    for tex in ("class-sheets.tex", "class-keys.tex", "s001.tex", "s002-key.tex"):
        assert [pt for pt in overfull(book_class / tex, tmp_path) if pt > 1] == [], tex


@needs_latex
def test_a_second_run_replaces_the_class_files_and_a_foreign_file_is_kept(tmp_path, cli):
    out = tmp_path / "sheets"
    args = ("sheet", str(VARIANTS), "--roster", str(ROSTER), "--out", str(out), "--seed", "1", "--format", "pdf")
    first = cli(*args)
    assert first.returncode == 0, first.stderr
    assert f"{out / 'class-sheets.pdf'} and {out / 'class-keys.pdf'}" in first.stderr
    sheet = (out / "class-sheets.pdf").read_bytes()
    assert cli(*args).returncode == 0  # listed in the manifest: replaced, with the same bytes (deterministic)
    assert (out / "class-sheets.pdf").read_bytes() == sheet
    manifest = json.loads((out / "manifest.json").read_text())
    del manifest["class"]  # a manifest of an earlier irlab that wrote no class files
    (out / "manifest.json").write_text(json.dumps(manifest))
    again = cli(*args)
    assert again.returncode == 2
    assert "class-sheets.pdf: cannot write: the file exists and is not a sheet that" in again.stderr
    # every student's pages on an odd page here too, whatever the lengths
    lengths = [pages(out / f"{s}.pdf") for s in NAMES]
    starts = [1 + sum(n + n % 2 for n in lengths[:i]) for i in range(3)]
    assert pages(out / "class-sheets.pdf") == starts[-1] + lengths[-1] - 1
    for start, student in zip(starts, NAMES):
        assert f"{NAMES[student]} ({student})" in page_text(out / "class-sheets.pdf", start)


def test_a_roster_id_that_would_write_a_class_file_is_refused(tmp_path, cli):
    roster = tmp_path / "roster.csv"
    roster.write_text("id,name\ns001,Ann\nCLASS-sheets,Someone\n")
    done = cli("sheet", str(BOOK), "--roster", str(roster), "--out", str(tmp_path / "out"), "--format", "pdf")
    assert done.returncode == 2
    assert "roster.csv:3:" in done.stderr and "CLASS-sheets.pdf" in done.stderr and "a file of the whole class" in done.stderr
    assert not (tmp_path / "out").exists()
    # with another format no class file is written, so the id is a student like any other
    assert cli("sheet", str(BOOK), "--roster", str(roster), "--out", str(tmp_path / "txt")).returncode == 0
    assert (tmp_path / "txt" / "CLASS-sheets.txt").exists()


def test_format_pdf_is_for_a_class_and_pdf_is_for_one_student(tmp_path, cli):
    one = cli("sheet", str(BOOK), "--student", "s001", "--format", "pdf")
    assert one.returncode == 2 and "use --pdf FILE" in one.stderr
    both = cli("sheet", str(BOOK), "--roster", str(ROSTER), "--out", str(tmp_path / "o"), "--pdf", str(tmp_path / "x.pdf"))
    assert both.returncode == 2 and "--format pdf" in both.stderr


def test_without_pdflatex_nothing_is_written(tmp_path, monkeypatch):
    monkeypatch.setattr(shutil, "which", lambda name: None)
    with pytest.raises(PrintError, match="pdflatex was not found: install .*Nothing was written"):
        write_class_sheets(BOOK, ROSTER, tmp_path / "out", 2026, "pdf")
    assert not (tmp_path / "out").exists()


@needs_latex
def test_hostile_and_long_roster_names_are_text_in_the_header(tmp_path):
    roster = tmp_path / "roster.csv"
    long = "Maximiliane Theodora " * 8
    roster.write_text('id,name\nh1,"\\input{/etc/passwd} $x^2$ & 100% #1 {"\n'
                      f"h2,{long}\nh3,Zoë Ðorđević 日本\n", encoding="utf-8")
    out = tmp_path / "out"
    write_class_sheets(BOOK, roster, out, 2026, "pdf")
    text = subprocess.run(["pdftotext", str(out / "class-sheets.pdf"), "-"], capture_output=True, text=True,
                          check=True).stdout
    assert "\\input{/etc/passwd} $x" in text and "2$ & 100% #1 { (h1), variant code" in text  # ^: a circumflex
    assert "Maximiliane Theodora Maximiliane Theo... (h2), variant code" in text  # cut, the id and code kept
    assert "(h3), variant code" in text
    assert [pt for pt in overfull(out / "class-sheets.tex", tmp_path) if pt > 1] == []



# names in every script -------------------------------------------------------------------------

SCRIPTS = Path(__file__).resolve().parent / "data" / "roster-ten-scripts.csv"  # 40 names: Polish ... Hungarian
needs_lualatex = pytest.mark.skipif(not (shutil.which("lualatex") and shutil.which("pdftotext")),
                                    reason="lualatex/pdftotext not installed (.ci/run installs texlive-luatex)")


def roster_names(path) -> dict:
    import csv
    with open(path, encoding="utf-8") as file:
        return {row["id"]: row["name"] for row in csv.DictReader(file)}


def pdf_text(pdf) -> str:
    """pdftotext's text, composed (pdflatex's accents come out as a letter and a combining mark)."""
    import unicodedata
    text = subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True, check=True).stdout
    return unicodedata.normalize("NFC", text)


@pytest.fixture(scope="module")
def world_class(tmp_path_factory):
    """The 40 names of ten scripts printed as a class's sheets and keys (two LuaLaTeX runs, each student cut)."""
    out = tmp_path_factory.mktemp("world") / "sheets"
    done = subprocess.run([sys.executable, "-m", "irlab", "sheet", str(BOOK), "--roster", str(SCRIPTS), "--out",
                           str(out), "--seed", "2026", "--format", "pdf"], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return out, done.stderr


@needs_lualatex
def test_forty_names_of_ten_scripts_print_as_written(world_class):
    out, stderr = world_class
    names = roster_names(SCRIPTS)
    assert len(names) == 40 and "warning" not in stderr
    for merged in ("class-sheets.pdf", "class-keys.pdf"):
        text = pdf_text(out / merged)
        assert [name for student, name in names.items() if f"{name} ({student})" not in text] == []
    for student, name in names.items():  # each student's own PDFs, cut from the class's
        assert f"{name} ({student}), variant code" in pdf_text(out / f"{student}.pdf")
        assert f"Answer key of {name} ({student})" in pdf_text(out / f"{student}-key.pdf")
    assert "<U+" not in pdf_text(out / "class-sheets.pdf")


@needs_lualatex
def test_a_student_pdf_cut_from_the_class_is_the_pdf_of_its_own(world_class, tmp_path):
    """The cut pages equal a run of the student's own source (its .tex, kept beside it)."""
    out, _ = world_class
    for student in ("g01", "v02"):
        own = tmp_path / student
        own.mkdir()
        shutil.copy(out / f"{student}.tex", own / "own.tex")
        subprocess.run(["lualatex", "-interaction=nonstopmode", "-halt-on-error", "own.tex"], cwd=own,
                       capture_output=True, check=True, timeout=300)
        assert pdf_text(own / "own.pdf") == pdf_text(out / f"{student}.pdf")
        assert pages(own / "own.pdf") == pages(out / f"{student}.pdf")


@needs_lualatex
def test_a_name_no_installed_font_has_is_named_in_a_warning(tmp_path):
    roster = tmp_path / "roster.csv"
    roster.write_text("id,name\nk01,Tanaka 田中\nx01,Esc\x1bape Ünal\n", encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "irlab", "sheet", str(BOOK), "--roster", str(roster), "--out",
                           str(tmp_path / "out"), "--format", "pdf"], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    text = pdf_text(tmp_path / "out" / "class-sheets.pdf")
    assert "Esc<U+001B>ape Ünal (x01)" in text  # a control character keeps its visible code
    if fallback_fonts({"田", "中"}):  # a CJK font is installed: the name prints
        assert "Tanaka 田中 (k01)" in text and "warning" not in done.stderr
    else:  # once for the student's sheet and once for the key, never a silent code in the PDF
        for kind in ("sheet", "answer key"):
            assert (f"irlab: warning: no installed font has 田, 中 (U+7530, U+4E2D), in the {kind} of Tanaka 田中 "
                    f"(k01)") in done.stderr
        assert done.stderr.count("warning") == 2 and "<U+7530>" not in text and "Tanaka" in text
