"""The site's metric list (docs/site/metrics.md) is `irlab metrics --format markdown`, and its convention table
(docs/site/conventions.md) is made from irlab.conventions.ALL, so neither can drift from the declarations."""

from pathlib import Path

from irlab.cli import main

SITE = Path(__file__).resolve().parents[1] / "docs" / "site"


def generated_block(page: Path) -> str:
    """The text between a page's ``<!-- generated: … -->`` and ``<!-- end generated -->`` markers."""
    text = page.read_text(encoding="utf-8")
    start = text.index("\n", text.index("<!-- generated: ")) + 1
    return text[start: text.index("<!-- end generated -->")].strip()


def test_site_metric_list_is_generated(capsys):
    assert main(["metrics", "--format", "markdown"]) == 0
    generated = capsys.readouterr().out.strip()
    assert generated.count("\n- **") >= 40  # one bullet per metric
    assert generated_block(SITE / "metrics.md") == generated, \
        "docs/site/metrics.md's list is stale: paste `irlab metrics --format markdown` between its markers"


def convention_table() -> str:
    """The table of conventions, one row per convention of irlab.conventions.ALL, default choice first."""
    from irlab import conventions as conv

    def cell(text):
        return text.replace("|", "\\|")

    rows = ["| convention (CLI option) | choices (default first) |", "|---|---|"]
    for convention in conv.ALL:
        choices = sorted(convention.choices, key=lambda choice: choice.key != convention.default)
        described = "; ".join(f"`{c.key}`: {cell(c.formula)} ({cell(c.reference)})" for c in choices)
        rows.append(f"| `{convention.option}` — {cell(convention.question)} | {described} |")
    return "\n".join(rows)


def test_site_convention_table_is_generated():
    assert generated_block(SITE / "conventions.md") == convention_table(), \
        "docs/site/conventions.md's table is stale: regenerate it from irlab.conventions.ALL (between its markers)"
