"""Every relative link of README.md, docs/architecture.md and the site's pages (docs/site/*.md) points at a file of
the repository and, with a ``#fragment``, at a heading of that file: the links work on GitHub, where Markdown files
are read in place, as on the site (Sphinx -W, in tests/test_site.py, fails on a link to a document it does not
build). And the README routes to every page of the guide."""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SITE = ROOT / "docs" / "site"
FILES = [ROOT / "README.md", ROOT / "docs" / "architecture.md", *sorted(SITE.glob("*.md"))]  # all on the site
LINK = re.compile(r"(?<!!)\[([^\]]+)\]\(([^)\s]+)\)")


def prose(text: str) -> str:
    """The text outside fenced code blocks and code spans, where a link is a link."""
    text = re.sub(r"^```.*?^```", "", text, flags=re.S | re.M)
    return re.sub(r"`[^`\n]*`", "", text)


def slug(heading: str) -> str:
    """GitHub's anchor of a heading (and MyST's, myst_heading_anchors): lowercase, spaces to '-', keep word
    characters and '-'; Markdown's code and emphasis marks are not part of the title's text."""
    title = re.sub(r"[`*]", "", heading.strip())
    title = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", title)
    return re.sub(r"[^\w\- ]", "", title.lower().replace(" ", "-"))


def anchors(path: Path) -> set:
    text = re.sub(r"^```.*?^```", "", path.read_text(encoding="utf-8"), flags=re.S | re.M)
    return {slug(line.lstrip("#")) for line in text.split("\n") if re.match(r"#{1,6} ", line)}


def links(path: Path) -> list:
    """(line, target) of every relative link of a file."""
    found = []
    for number, line in enumerate(prose(path.read_text(encoding="utf-8")).split("\n"), 1):
        for _, target in LINK.findall(line):
            if not re.match(r"[a-z]+:", target):  # https:, mailto: are not checked here
                found.append((number, target))
    return found


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_relative_link_reaches_a_file_and_heading(path):
    broken = []
    for _, target in links(path):
        name, _, fragment = target.partition("#")
        goal = (path.parent / name).resolve() if name else path
        if not goal.exists():
            broken.append(f"{target}: no such file")
        elif fragment and goal.suffix == ".md" and fragment not in anchors(goal):
            broken.append(f"{target}: no heading #{fragment} in {goal.relative_to(ROOT)}")
    assert not broken, f"{path.relative_to(ROOT)}: " + "; ".join(broken)


def test_the_readme_links_every_page_of_the_guide():
    linked = {(ROOT / target.partition("#")[0]).resolve() for _, target in links(ROOT / "README.md")}
    pages = {page.resolve() for page in SITE.glob("*.md") if page.stem not in ("index",)}
    assert not sorted(p.name for p in pages - linked), "README.md should link these pages of docs/site/"


def test_the_checker_finds_broken_links_and_anchors(tmp_path):
    (tmp_path / "a.md").write_text("# A page\n\n## Where irlab differs from trec_eval 10.0, and why\n", encoding="utf-8")
    page = tmp_path / "b.md"
    page.write_text("[ok](a.md#where-irlab-differs-from-trec_eval-100-and-why) [no](c.md) `[code](x.md)`\n"
                    "```\n[fenced](y.md)\n```\n[web](https://example.org) ![img](z.png)\n", encoding="utf-8")
    assert links(page) == [(1, "a.md#where-irlab-differs-from-trec_eval-100-and-why"), (1, "c.md")]
    assert "where-irlab-differs-from-trec_eval-100-and-why" in anchors(tmp_path / "a.md")
    assert slug("`irlab eval` and *pandas*") == "irlab-eval-and-pandas"
