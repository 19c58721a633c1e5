"""The README's metric list is `irlab metrics --format markdown`, so it cannot drift from the declarations."""

from pathlib import Path

from irlab.cli import main

README = Path(__file__).resolve().parents[1] / "README.md"


def test_readme_metric_list_is_generated(capsys):
    assert main(["metrics", "--format", "markdown"]) == 0
    generated = capsys.readouterr().out.strip()
    text = README.read_text(encoding="utf-8")
    listed = text[text.index("## Metrics\n\n") + len("## Metrics\n\n"): text.index("\n## Conventions")].strip()
    assert listed == generated, "README's metric list is stale: paste `irlab metrics --format markdown` under ## Metrics"


def convention_table() -> str:
    """The README's table of conventions, one row per convention of irlab.conventions.ALL, default choice first."""
    from irlab import conventions as conv

    def cell(text):
        return text.replace("|", "\\|")

    rows = ["| convention (CLI option) | choices (default first) |", "|---|---|"]
    for convention in conv.ALL:
        choices = sorted(convention.choices, key=lambda choice: choice.key != convention.default)
        described = "; ".join(f"`{c.key}`: {cell(c.formula)} ({cell(c.reference)})" for c in choices)
        rows.append(f"| `{convention.option}` — {cell(convention.question)} | {described} |")
    return "\n".join(rows)


def test_readme_convention_table_is_generated():
    text = README.read_text(encoding="utf-8")
    start = text.index("| convention (CLI option) |")
    listed = text[start: text.index("\n### Why do libraries disagree?")].strip()
    assert listed == convention_table(), "README's convention table is stale: regenerate it from irlab.conventions.ALL"
