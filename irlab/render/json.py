"""JSON: one object per document; exact values as strings with every digit ("21/50"), decimals as numbers."""

from __future__ import annotations

import json as _json

from .. import exact
from .common import cell_value
from ..document import Answer, Figure, Formula, Note, Paragraph, Section, Steps, Table


def render_json(document, **_options) -> str:
    return _json.dumps(document_data(document.title, document.blocks, document.meta), indent=2, ensure_ascii=False) + "\n"


def _cell(cell):
    if cell is None or isinstance(cell, (str, bool)):
        return cell
    if isinstance(cell, int):
        return cell
    return exact.full_text(cell_value(cell))


def document_data(title, blocks, meta) -> dict:
    data = {**meta, "title": title, "notes": [], "formulas": [], "tables": [], "steps": [], "paragraphs": [], "figures": []}
    sections = []
    for block in blocks:
        if isinstance(block, Section):
            sections.append(document_data(block.title, block.blocks, block.meta))
        elif isinstance(block, Paragraph):
            data["paragraphs"].append(block.text)
        elif isinstance(block, Note):
            data["notes"].append({"kind": block.kind, "text": block.text})
        elif isinstance(block, Formula):
            data["formulas"].append({"text": block.text, "latex": block.latex, "caption": block.caption})
        elif isinstance(block, Table):
            rows = [[_cell(c) for c in row] for row in block.rows]
            data["tables"].append({"caption": block.caption, "columns": list(block.columns), "rows": rows})
        elif isinstance(block, Steps):
            data["steps"] += [_step(step) for step in block.steps]
        elif isinstance(block, Answer):
            data["answer"] = {"label": block.label, "symbol": block.symbol, **_number(block.value)}
        elif isinstance(block, Figure):
            data["figures"].append({"caption": block.caption, "name": block.name})
        else:
            raise TypeError(f"cannot render block {type(block).__name__}")
    if sections:
        data["sections"] = sections
    return {key: value for key, value in data.items() if value != [] or key == "steps"}


def _number(value) -> dict:
    return {"value": exact.full_text(value), "decimal": exact.to_float(value)}


def _step(step) -> dict:
    return {
        "label": step.label,
        "symbol": step.symbol,
        "formula": step.formula_text or step.symbol,
        "substitution": step.substitution_text,
        "latex": step.formula_latex,
        **_number(step.value),
        "note": step.note,
    }
