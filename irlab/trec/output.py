"""Formatting of :class:`~irlab.trec.evaluate.EvalResult` as trec_eval text,
JSON or CSV."""

from __future__ import annotations

import io
import json
import math

from irlab import spreadsheet
from irlab.trec.evaluate import EvalResult

__all__ = ["format_text", "format_json", "format_csv", "format_result"]


def _fmt(col, value, integer_cols):
    if col.startswith("relstring"):
        return f"'{value}'"
    if col == "runid":
        return str(value)
    if col in integer_cols:
        return str(int(value))
    if value != value:
        return "  -nan"   # trec_eval's printf of 0.0 / 0.0 (x86's default NaN is negative)
    return "%6.4f" % value


def _rows(result: EvalResult, per_topic: bool, summary: bool = True):
    """(measure, topic, value) in trec_eval's order: per-topic lines (with -q), then the ``all`` lines
    (unless ``summary`` is False: trec_eval -n)."""
    if per_topic:
        topic_cols = [c for c in result.columns if c in set(result.topic_columns)]
        for topic, vals in result.per_topic.items():
            for col in topic_cols:
                if col in vals:
                    yield col, topic, vals[col]
    if not summary:
        return
    for col in result.columns:
        if col in result.summary:
            yield col, "all", result.summary[col]


def text_lines(result: EvalResult, *, per_topic: bool = False, summary: bool = True):
    """trec_eval's output, line by line (``%-22s\\t%s\\t%6.4f``)."""
    for col, topic, value in _rows(result, per_topic, summary):
        yield "%-22s\t%s\t%s" % (col, topic, _fmt(col, value, result.integer_columns))


def format_text(result: EvalResult, *, per_topic: bool = False, summary: bool = True) -> str:
    return "".join(line + "\n" for line in text_lines(result, per_topic=per_topic, summary=summary))


def _jsonable(v):
    if isinstance(v, float) and not math.isfinite(v):
        return None
    return v


def format_json(result: EvalResult, *, per_topic: bool = False, summary: bool = True) -> str:
    doc = {"runid": result.runid, "measures": result.columns}
    if summary:
        doc["summary"] = {k: _jsonable(v) for k, v in result.summary.items()}
    if per_topic:
        doc["per_topic"] = {t: {k: _jsonable(v) for k, v in vals.items()}
                            for t, vals in result.per_topic.items()}
    return json.dumps(doc, indent=1) + "\n"


def format_csv(result: EvalResult, *, per_topic: bool = False, summary: bool = True) -> str:
    """Long format: ``measure,topic,value`` (the same rows as the text output); a topic id or run id from the
    files never reads as a spreadsheet formula (:mod:`irlab.spreadsheet`)."""
    buf = io.StringIO()
    w = spreadsheet.writer(buf)
    w.writerow(["measure", "topic", "value"])
    ints = result.integer_columns
    for col, topic, v in _rows(result, per_topic, summary):
        w.writerow([col, topic, v if isinstance(v, str) or col in ints else repr(float(v))])
    return buf.getvalue()


def format_result(result: EvalResult, fmt: str = "text", *, per_topic: bool = False,
                  summary: bool = True) -> str:
    formats = {"text": format_text, "json": format_json, "csv": format_csv}
    if fmt in formats:
        return formats[fmt](result, per_topic=per_topic, summary=summary)
    raise ValueError(f"unknown output format {fmt!r} (text, json or csv)")
