"""The course site (docs/site/build.py): Sphinx + myst-nb build it with warnings as errors, and headless Chromium,
with the network blocked, finds the math typeset by the site's own MathJax and the lessons' figures loaded."""

import importlib.util
import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")

# Sphinx's and myst-nb's notices about their own future APIs, not about the site
pytestmark = [pytest.mark.filterwarnings("ignore::DeprecationWarning"),
              pytest.mark.filterwarnings("ignore::PendingDeprecationWarning")]

for module in ("sphinx", "myst_nb"):
    pytest.importorskip(module, reason="the course site is built with Sphinx and myst-nb (the [test] extra)")

# after MathJax has typeset the page: how many formulas it rendered, and which images loaded
PROBE = """<script>
window.addEventListener('load', () => {
  const ready = (window.MathJax && MathJax.startup && MathJax.startup.promise) || Promise.resolve();
  ready.then(() => {
    const images = [...document.querySelectorAll('img')];
    const out = document.createElement('pre');
    out.id = 'irlab-probe';
    out.textContent = JSON.stringify({
      mathjax: !!(window.MathJax && MathJax.startup),
      typeset: document.querySelectorAll('mjx-container').length,
      raw: [...document.querySelectorAll('.math')].filter(m => !m.querySelector('mjx-container')).length,
      images: images.length,
      broken: images.filter(i => !(i.complete && i.naturalWidth > 0)).map(i => i.getAttribute('src'))});
    document.body.appendChild(out);
  });
});
</script>"""


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    spec = importlib.util.spec_from_file_location("irlab_site_build", ROOT / "docs" / "site" / "build.py")
    build = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(build)
    output = tmp_path_factory.mktemp("site")
    assert build.main([str(output)]) == 0, "sphinx-build -W reported warnings or errors: python3 docs/site/build.py"
    return output


def test_site_has_every_part(site):
    index = (site / "docs" / "site" / "index.html").read_text(encoding="utf-8")
    lessons = sorted(p.stem for p in (ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
    assert len(lessons) >= 11
    for lesson in lessons:
        assert f"notebooks/{lesson}.html" in index
        assert (site / "notebooks" / f"{lesson}.html").is_file()
    for part in ("README.html", "docs/site/api.html", "docs/site/_generated/chapter8-book.html",
                 "exercises/README.html"):
        assert (site / part).is_file(), part
    # the guide's pages (the reference moved from the README), each in the index and linked from the README's page
    readme = (site / "README.html").read_text(encoding="utf-8")
    for page in sorted((ROOT / "docs" / "site").glob("*.md")):
        if page.stem != "index":
            assert (site / "docs" / "site" / f"{page.stem}.html").is_file(), page.name
            assert f'href="{page.stem}.html"' in index and f'href="docs/site/{page.stem}.html"' in readme, page.name
    assert (site / "docs" / "architecture.html").is_file()
    api = (site / "docs" / "site" / "api.html").read_text(encoding="utf-8")
    assert 'id="irlab.average_precision"' in api and "Järvelin" in api
    for name in ("irlab.evaluate", "irlab.explain", "irlab.explain_experiment", "irlab.check", "irlab.trec.evaluate",
                 "irlab.homework.grade", "irlab.compare.comparison_document", "irlab.metrics.significance.t_test",
                 "irlab.solvers.pooling.trec_pool", "irlab.plots.precision_recall_curve"):
        assert f'id="{name}"' in api, name
    # a docstring's |d_i| is an absolute value, shown as written (not a reStructuredText substitution)
    assert "rank |d_i| (zeros dropped" in api
    solved = (site / "docs" / "site" / "_generated" / "chapter8-book.html").read_text(encoding="utf-8")
    # IIR Exercise 8.9, RRNNNNNNRNRNNNRNNNNR with R = 8: AP = (1 + 1 + 3/9 + 4/11 + 5/15 + 6/20) / 8 = 1099/2640
    assert r"\frac{1099}{2640}" in solved
    # the lesson's stored outputs are on the page: irlab's explanation of P = 3/8 (lesson 1)
    lesson = (site / "notebooks" / "01_set_based_evaluation.html").read_text(encoding="utf-8")
    assert "3/8" in lesson and "_static/mathjax/" in lesson
    assert not re.search(r"<script[^>]+src=\"https?://", lesson), "the site loads a script from the network"


def probe(page: Path, profile: Path) -> dict:
    page.write_text(page.read_text(encoding="utf-8").replace("</body>", PROBE + "</body>"), encoding="utf-8")
    done = subprocess.run(
        [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run", f"--user-data-dir={profile}",
         "--host-resolver-rules=MAP * ~NOTFOUND", "--allow-file-access-from-files",
         "--virtual-time-budget=20000", "--dump-dom", page.as_uri()],
        capture_output=True, text=True, timeout=120)
    found = re.search(r'<pre id="irlab-probe">([^<]*)</pre>', done.stdout)
    assert found, f"Chromium printed no measurements for {page.name}: {done.stderr[-500:]}"
    return json.loads(found.group(1).replace("&quot;", '"'))


@pytest.mark.skipif(CHROMIUM is None, reason="skips the browser check of the site: Chromium is not installed "
                    "(Debian: apt-get install chromium)")
def test_math_is_typeset_and_figures_load_offline(site, tmp_path):
    lesson = probe(site / "notebooks" / "01_set_based_evaluation.html", tmp_path / "profile")
    assert lesson["mathjax"] and lesson["typeset"] >= 10 and lesson["raw"] == 0, lesson
    assert lesson["images"] >= 1 and lesson["broken"] == [], lesson
    index = probe(site / "docs" / "site" / "index.html", tmp_path / "profile")
    assert index["broken"] == [], index
