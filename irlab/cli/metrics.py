"""``irlab metrics``: every metric with its formula, parameters, conventions and reference.

    irlab metrics [--format text|markdown|json]
"""

from __future__ import annotations

import json
import sys

from .. import conventions as conv
from ..metrics import METRICS
from .options import add_format


def add_parser(commands) -> None:
    listing = commands.add_parser("metrics", help="list every metric with its formula and conventions")
    add_format(listing, ("text", "markdown", "json"))
    listing.set_defaults(handler=run)


def run(args) -> int:
    sys.stdout.write(list_metrics(args.format))
    return 0


def list_metrics(fmt: str) -> str:
    if fmt == "json":
        data = [
            {
                "name": m.name, "title": m.title, "formula": m.formula_text, "latex": m.formula_latex,
                "aliases": list(m.aliases), "reference": m.reference,
                "parameters": [{"name": p.name, "type": p.kind, "description": p.description} for p in m.parameters],
                "conventions": {c.name: {"default": c.default, "choices": [ch.key for ch in c.choices]} for c in m.conventions},
            }
            for m in METRICS
        ]
        return json.dumps(data, indent=2, ensure_ascii=False) + "\n"
    lines = []
    for m in METRICS:
        if fmt == "markdown":
            lines.append(f"- **{m.name}** — {m.title}: ${m.formula_latex}$ ({m.reference})")
        else:
            aliases = f" (also: {', '.join(m.aliases)})" if m.aliases else ""
            lines.append(f"{m.name:<15} {m.title}{aliases}")
            lines.append(f"{'':<15} {m.formula_text}")
            for p in m.parameters:
                lines.append(f"{'':<15} --{p.name.replace('_', '-')}: {p.description}")
            for c in m.conventions:
                keys = " | ".join(f"{ch.key}{' (default)' if ch.key == c.default else ''}" for ch in c.choices)
                lines.append(f"{'':<15} {c.option}: {keys}")
            lines.append(f"{'':<15} reference: {m.reference}")
    if fmt != "markdown":
        lines += ["", "Conventions:"]
        for c in conv.ALL:
            lines.append(f"  {c.option}: {c.question}")
            for ch in c.choices:
                lines.append(f"    {ch.key:<18} {ch.formula}  [{ch.reference}]")
    return "\n".join(lines) + "\n"
