"""A real browser checks the HTML: headless Chromium renders every <math> element to a box of non-zero size and the
page does not overflow horizontally at 800 px. Skipped with a message where Chromium is not installed."""

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
EXERCISES = Path(__file__).resolve().parents[1] / "exercises"

# measures the page after layout and writes the numbers into the DOM that --dump-dom prints
PROBE = """<script>
window.addEventListener('load', () => {
  const width = document.documentElement.clientWidth;
  const maths = [...document.querySelectorAll('math')];
  const empty = maths.filter(m => { const r = m.getBoundingClientRect(); return !(r.width > 0 && r.height > 0); });
  const out = document.createElement('pre');
  out.id = 'irlab-probe';
  out.textContent = JSON.stringify({maths: maths.length, empty: empty.length,
    scrollWidth: document.documentElement.scrollWidth, clientWidth: width,
    mfrac: document.querySelector('mfrac') ? document.querySelector('mfrac').getBoundingClientRect().height : 0,
    formulas: document.querySelectorAll('.formula').length,
    scrollbars: [...document.querySelectorAll('.formula')].filter(e => e.scrollHeight > e.clientHeight
      && ['auto', 'scroll'].includes(getComputedStyle(e).overflowY)).length});
  document.body.appendChild(out);
});
</script>"""

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="Chromium is not installed (Debian: apt-get install chromium)")


def measure(html: str, tmp_path) -> dict:
    page = tmp_path / "page.html"
    page.write_text(html.replace("</body>", PROBE + "</body>"), encoding="utf-8")
    done = subprocess.run(
        [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run", f"--user-data-dir={tmp_path / 'profile'}",
         "--window-size=800,600", "--virtual-time-budget=10000", "--dump-dom", page.as_uri()],
        capture_output=True, text=True, timeout=120)
    found = re.search(r'<pre id="irlab-probe">([^<]*)</pre>', done.stdout)
    assert found, f"Chromium printed no measurements: {done.stderr[-500:]}"
    return json.loads(found.group(1).replace("&quot;", '"'))


def pages():
    from irlab.cli import build_parser
    from irlab.cli.explain import explain_document
    from irlab.printable import solution_document

    for arguments in (["11pt", "RNRNNNNNRR", "--relevant", "4"], ["ndcg", "3,2,0,1,2,0,1,3,2,1,0,2,1,0,0,2,3,1,0,1"],
                      ["kappa", "--judge1", "1100110", "--judge2", "1000111"], ["f", "RNNRR", "--relevant", "8", "--beta", "0.5"],
                      ["ndcg", ",".join(str((7 * i) % 4) for i in range(1, 81))]):
        document, _ = explain_document(build_parser().parse_args(["explain", *arguments]))
        yield arguments[0], document
    yield "chapter8-book.toml", solution_document(EXERCISES / "chapter8-book.toml")


def test_math_is_typeset_and_the_page_fits_800_px(tmp_path):
    """Four explanations and a solved set on one page (one browser start keeps the suite fast)."""
    from irlab.document import Document, Section

    document = Document("Browser check", [Section(name, doc.blocks) for name, doc in pages()])
    numbers = measure(document.render("html", standalone=True), tmp_path)
    assert numbers["maths"] > 5
    assert numbers["empty"] == 0, numbers  # every <math> has a rendered box: the browser typeset it
    assert numbers["mfrac"] > 20, numbers  # a fraction is two stacked lines, taller than one line of text
    assert numbers["scrollWidth"] <= numbers["clientWidth"], numbers  # no horizontal overflow at 800 px
    # a displayed nDCG quotient beside no vertical scrollbar (overflow-x alone made overflow-y 'auto')
    assert numbers["formulas"] > 0 and numbers["scrollbars"] == 0, numbers
