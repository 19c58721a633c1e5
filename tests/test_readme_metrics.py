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
