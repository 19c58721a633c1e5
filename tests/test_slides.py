"""--slides: a worked solution built up as on the board, as landscape PDF pages (one per reveal) or one HTML page
that the arrow keys advance. Checked with pdflatex, pdfinfo, pdftotext and headless Chromium where installed."""

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from irlab.slides import ROWS_PER_SLIDE, frames, slides_html, slides_latex

ROOT = Path(__file__).resolve().parents[1]
COMPARE = ROOT / "exercises" / "compare"
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
needs_latex = pytest.mark.skipif(not (shutil.which("pdflatex") and shutil.which("pdfinfo")),
                                 reason="pdflatex and poppler-utils are needed")


def document(*arguments):
    from irlab.cli import build_parser
    from irlab.cli.explain import explain_document

    return explain_document(build_parser().parse_args(["explain", *arguments]))[0]


def pdf_text(path) -> str:
    return subprocess.run(["pdftotext", "-layout", str(path), "-"], capture_output=True, text=True, check=True).stdout


def page_count(path) -> tuple[int, float, float]:
    info = subprocess.run(["pdfinfo", str(path)], capture_output=True, text=True, check=True).stdout
    pages = int(re.search(r"Pages:\s+(\d+)", info).group(1))
    width, height = map(float, re.search(r"Page size:\s+([\d.]+) x ([\d.]+)", info).groups())
    return pages, width, height


def test_frames_follow_the_board_order_and_split_a_long_table():
    doc = document("ap", "RNNRRNRNNRRNRNRRNNRRN", "--relevant", "12")  # 21 ranks: several slides of rows
    built = frames(doc)
    assert built[0].pieces[0][0] == "title"
    kinds = [piece[0] for frame in built[1:] for piece in frame.pieces]
    rows = [piece[1] for frame in built for piece in frame.pieces if piece[0] == "rows"]
    ranking = [t for t in rows if t.columns[0] == "rank"]
    # the rows continue on further slides in nearly equal parts (6, 5, 5, 5: at most 6 rows under this table's
    # two-line headings, and no short last slide), each with the whole header, and every rank once, in order
    assert [len(t.rows) for t in ranking] == [6, 5, 5, 5]
    assert all(t.columns == ranking[0].columns for t in ranking)
    assert [row[0] for t in ranking for row in t.rows] == list(range(1, 22))
    assert [t.caption for t in ranking] == ["Rows 1-6 of 21", "Rows 7-11 of 21", "Rows 12-16 of 21", "Rows 17-21 of 21"]
    # the board's order: data, the table, the formula, then the steps that apply it, the answer
    first = {kind: kinds.index(kind) for kind in ("rows", "steps")}
    formula = next(i for i, f in enumerate(built) if f.title.endswith("the formula"))
    steps = next(i for i, f in enumerate(built) if f.pieces[0][0] == "steps")
    assert kinds[0] == "blocks" and first["rows"] < first["steps"] and formula < steps
    assert "the answer" in built[-1].title or "the answer" in built[-2].title


@needs_latex
def test_pdf_is_landscape_one_page_per_reveal_in_board_order(cli, tmp_path):
    target = tmp_path / "ap.pdf"
    done = cli("explain", "ap", "RNNRR", "--relevant", "3", "--slides", str(target))
    assert done.returncode == 0 and done.stdout == ""
    (figure,) = [p.name for p in tmp_path.glob("figure-*.png")]  # the plot's file, named: none lies there unexplained
    assert done.stderr.strip() == (f"irlab: wrote slides {target} (LaTeX source: {target.with_suffix('.tex')}; "
                                   f"the figure it includes: {tmp_path / figure})")
    pages, width, height = page_count(target)
    assert width > height and abs(width / height - 16 / 9) < 0.01  # landscape 16:9
    reveals = sum(sum(len(p[1].rows) if p[0] == "rows" else len(p[1]) if p[0] == "steps" else 1
                      for p in frame.pieces) for frame in frames(document("ap", "RNNRR", "--relevant", "3")))
    assert pages == reveals
    # 1 title + data (paragraph, convention notes) + 5 rows + the steps one a page + formula + answer
    text = pdf_text(target)
    order = [text.index(marker) for marker in ("Ranking RNNRR", "contribution", "the formula",
                                                "Average precision: steps", "the answer")]
    assert order == sorted(order)
    pages_text = text.split("\f")[:-1]
    assert "Result" in pages_text[-2] and "Precision-recall curve" in pages_text[-1]  # the answer, then the figure
    log = subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error", target.with_suffix(".tex").name],
                         cwd=tmp_path, capture_output=True, text=True, timeout=300).stdout
    overfull = [float(m) for m in re.findall(r"Overfull \\[hv]box \(([\d.]+)pt too", log)]
    assert all(points <= 1 for points in overfull), overfull


@needs_latex
def test_rows_appear_one_page_at_a_time(tmp_path):
    from irlab.slides import write_slides

    target = write_slides(document("precision", "RNNRR", "--k", "5"), tmp_path / "p.pdf")
    pages = pdf_text(target).split("\f")
    table_pages = [page for page in pages if "rank" in page and "judgment" in page]
    counts = [len(re.findall(r"^\s*\d+\s+[RN]\b", page, re.M)) for page in table_pages]
    assert counts[:5] == [1, 2, 3, 4, 5]


@needs_latex
def test_solve_and_compare_write_slides(cli, tmp_path):
    done = cli("solve", str(ROOT / "exercises" / "chapter8-seed.toml"), "--slides", str(tmp_path / "s.pdf"))
    assert done.returncode == 0 and done.stdout == "" and "wrote slides" in done.stderr
    assert page_count(tmp_path / "s.pdf")[0] > 10
    done = cli("compare", str(COMPARE / "qrels.txt"), str(COMPARE / "baseline.txt"), str(COMPARE / "expansion.txt"),
               "--test", "sign", "--slides", str(tmp_path / "c.html"))
    assert done.returncode == 0 and done.stdout == ""
    page = (tmp_path / "c.html").read_text(encoding="utf-8")
    assert "<script src" not in page and "http" not in page.split("<body>")[1]  # nothing from elsewhere


def test_slides_option_refuses_other_suffixes_and_input_paths(cli, tmp_path):
    done = cli("explain", "ap", "RNNRR", "--slides", str(tmp_path / "talk.pptx"))
    assert done.returncode == 2 and "must end in .pdf" in done.stderr and not (tmp_path / "talk.pptx").exists()
    qrels = COMPARE / "qrels.txt"
    done = cli("compare", str(qrels), str(COMPARE / "baseline.txt"), str(COMPARE / "expansion.txt"),
               "--slides", str(qrels.with_suffix(".html")), "--html", str(qrels.with_suffix(".html")))
    assert done.returncode == 2 and "same file" in done.stderr


def test_html_escapes_and_counts_every_reveal():
    doc = document("ap", "RNNRR", "--relevant", "3")
    page = slides_html(doc)
    assert page.count('<section class="slide') == len(frames(doc))
    assert "<math" in page and "<script>" in page
    positions = sum(int(n) for n in re.findall(r'data-reveals="(\d+)"', page))
    assert positions == 1 + 3 + 5 + len([s for f in frames(doc) for p in f.pieces if p[0] == "steps" for s in p[1]]) + 2
    from irlab.document import Document, Paragraph

    hostile = slides_html(Document("<b>x</b>", [Paragraph("<script>alert(1)</script> & \x1b")]))
    assert "<script>alert" not in hostile and "&lt;U+001B&gt;" in hostile
    source = slides_latex(Document("T", [Paragraph(r"\input{/etc/passwd} 100% $x$")]))
    assert r"\input{/etc" not in source and r"\textbackslash{}input" in source and r"100\%" in source


PROBE = """<script>
window.addEventListener('load', () => {
  const seen = [];
  const total = Number(document.body.dataset.positions);
  for (let i = 0; i < total + 3; i++) {
    document.dispatchEvent(new KeyboardEvent('keydown', {key: 'ArrowRight', bubbles: true}));
    seen.push(Number(document.body.dataset.position));
  }
  const current = document.querySelector('.slide.current');
  const hidden = current.querySelectorAll('.reveal.hidden').length;
  document.dispatchEvent(new KeyboardEvent('keydown', {key: 'ArrowLeft', bubbles: true}));
  const back = Number(document.body.dataset.position);
  document.body.click();
  const out = document.createElement('pre');
  out.id = 'irlab-probe';
  out.textContent = JSON.stringify({total, seen, hidden, back, clicked: Number(document.body.dataset.position),
    last: current.querySelector('h2') ? current.querySelector('h2').textContent : ''});
  document.body.appendChild(out);
});
</script>"""


@pytest.mark.skipif(CHROMIUM is None, reason="Chromium is not installed (Debian: apt-get install chromium)")
def test_arrow_keys_reach_the_last_step_in_chromium(tmp_path):
    page = tmp_path / "talk.html"
    page.write_text(slides_html(document("ap", "RNNRR", "--relevant", "3")).replace("</body>", PROBE + "</body>"),
                    encoding="utf-8")
    done = subprocess.run(
        [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run", f"--user-data-dir={tmp_path / 'profile'}",
         "--window-size=1280,720", "--virtual-time-budget=10000", "--dump-dom", page.as_uri()],
        capture_output=True, text=True, timeout=120)
    found = re.search(r'<pre id="irlab-probe">([^<]*)</pre>', done.stdout)
    assert found, done.stderr[-500:]
    numbers = json.loads(found.group(1).replace("&quot;", '"'))
    total = numbers["total"]
    assert total > 10
    assert numbers["seen"] == list(range(2, total + 1)) + [total] * 4  # one reveal a press, stopping at the last
    assert numbers["hidden"] == 0 and numbers["last"] == frames(document("ap", "RNNRR", "--relevant", "3"))[-1].title
    assert numbers["back"] == total - 1 and numbers["clicked"] == total


LONG = "3,2,3,0,1,2,0,0,1,3,2,1,0,0,2,1,0,3,1,0"  # 20 grades: tables and steps longer than a slide


def compile_log(tex: Path, build: Path, engine: str = "pdflatex") -> str:
    """The log of ``tex`` compiled in ``build`` (with the figures beside it)."""
    build.mkdir()
    for path in tex.parent.iterdir():
        if path.suffix in (".tex", ".png"):
            shutil.copy(path, build / path.name)
    subprocess.run([engine, "-interaction=nonstopmode", "-halt-on-error", tex.name], cwd=build,
                   capture_output=True, timeout=300, check=True)
    return (build / tex.with_suffix(".log").name).read_text(errors="replace")


@needs_latex
def test_body_type_is_at_least_an_eighteenth_of_the_slide_height(tmp_path):
    from irlab.slides import write_slides

    target = write_slides(document("ndcg", "3,2,3,0,1,2"), tmp_path / "out" / "ndcg.pdf")
    _, width, height = page_count(target)
    assert abs(width / height - 16 / 9) < 0.01
    # the size TeX sets the body in, as the class and its options make it (not as irlab says it is)
    tex = target.with_suffix(".tex")
    source = tex.read_text()
    tex.write_text(source.replace("\\begin{document}", "\\makeatletter\\AtBeginDocument{\\typeout{irlab-body=\\f@size}}"
                                  "\\makeatother\n\\begin{document}", 1))
    body = float(re.search(r"irlab-body=([\d.]+)", compile_log(tex, tmp_path / "build")).group(1))
    height_tex_points = height * 72.27 / 72  # pdfinfo's points are PostScript points
    assert body / height_tex_points >= 1 / 18, (body, height_tex_points)  # 14.4 pt on 256 pt (90 mm)


@needs_latex
def test_a_long_ranking_is_split_across_slides_never_shrunk(tmp_path):
    from irlab.slides import ROWS_PER_SLIDE, write_slides

    doc = document("ndcg", LONG)
    source = slides_latex(doc)
    for shrinking in (r"\resizebox", r"\scalebox", r"\small", r"\footnotesize", r"\scriptsize", r"\tiny", r"\tfrac",
                      r"\textstyle", r"\fontsize"):
        assert shrinking not in source, shrinking  # nothing on a slide set below the body's size
    tables = [p[1] for f in frames(doc) for p in f.pieces if p[0] == "rows"]
    ranking = [t for t in tables if t.caption.startswith("Ranking")]
    assert 1 < len(ranking) and all(len(t.rows) <= ROWS_PER_SLIDE for t in tables)
    assert [row[0] for t in ranking for row in t.rows] == list(range(1, 21))  # every rank once, its header on each
    assert all(t.columns == ranking[0].columns for t in ranking)
    # a step taller than a slide goes on on the next one (continued), and nothing runs off a slide
    assert any(f.continued for f in frames(doc))
    target = write_slides(doc, tmp_path / "out" / "long.pdf")
    log = compile_log(target.with_suffix(".tex"), tmp_path / "build")
    assert [m for m in re.findall(r"Overfull \\[hv]box \(([\d.]+)pt too", log) if float(m) > 1] == []


@needs_latex
def test_the_formula_slide_comes_before_the_steps_that_use_it(tmp_path):
    from irlab.slides import write_slides

    target = write_slides(document("ndcg", "3,2,3,0,1,2"), tmp_path / "ndcg.pdf")
    pages = pdf_text(target).split("\f")
    formula = next(i for i, page in enumerate(pages) if re.search(r"nDCG@k\s*=", page))
    first_step = next(i for i, page in enumerate(pages) if "1. Discounted cumulative gain" in page)
    answer = next(i for i, page in enumerate(pages) if "Result:" in page)
    assert formula < first_step < answer


@pytest.mark.skipif(not (shutil.which("lualatex") and shutil.which("pdftotext")), reason="LuaLaTeX is needed")
def test_a_run_name_beyond_ascii_is_printed_as_written_by_lualatex(cli, tmp_path):
    from irlab.tex_engine import MARKER

    run = tmp_path / "run.txt"
    run.write_text((COMPARE / "expansion.txt").read_text().replace("expansion", "Łódź-größe"))
    target = tmp_path / "out" / "c.pdf"
    target.parent.mkdir()
    done = cli("compare", str(COMPARE / "qrels.txt"), str(COMPARE / "baseline.txt"), str(run),
               "--test", "sign", "--slides", str(target))
    assert done.returncode == 0 and "warning" not in done.stderr, done.stderr
    assert MARKER in target.with_suffix(".tex").read_text(encoding="utf-8")  # compiled by LuaLaTeX
    text = pdf_text(target)
    assert "Comparing baseline and Łódź-größe" in text and "<U+" not in text
    log = compile_log(target.with_suffix(".tex"), tmp_path / "build", "lualatex")
    assert [m for m in re.findall(r"Overfull \\[hv]box \(([\d.]+)pt too", log) if float(m) > 1] == []
