"""What a student and a teacher read: the per-student report (text, Markdown, HTML), Gradescope's results.json, and
a class CSV (every cell through irlab's formula-safe writer).

Gradescope's format (https://gradescope-autograders.readthedocs.io/en/latest/specs/): a top-level ``score``,
``output`` and ``tests``, each test with ``name``, ``score``, ``max_score``, ``output``, ``visibility`` (visible,
hidden, after_due_date, after_published) and ``status`` (passed or failed). One test per measure; a submission that
is not in the declared layout also gets a "Submission layout" test worth 0 points that says what was wrong.
"""

from __future__ import annotations

import html
import json
from fractions import Fraction

from .. import exact
from ..spreadsheet import writer
from .catalogue import METRIC_RANGE, reference_text
from .check import Finding, Outcome, Verdict, unit_name
from .compute import ABSENT, printed

SHOWN_CELLS = 3  # cells of a finding shown with their numbers; the others are listed by place


def number(value: Fraction) -> str:
    return exact.decimal_text(value, 4)


def _value(value, decimals: int) -> str:
    """A reference or bug value: exact and decimal when rational (7/17 ≈ 0.4118), the decimal for an nDCG."""
    if value is ABSENT:
        return "no row"
    if exact.is_symbolic(value):
        return "≈ " + exact.decimal_text(value, decimals + 1, strip=False)
    return exact.value_text(value)


def _given(verdict: Verdict) -> str:
    return "no row" if verdict.given is None else verdict.given.text


def _places(verdicts) -> list[str]:
    """The cells, grouped by system and column: 'system 1, nDCG@10: topics 1, 2, 5 and the mean'."""
    groups: dict = {}
    for v in verdicts:
        groups.setdefault((v.cell.system, v.cell.measure.column), []).append(v.cell.topic)
    lines = []
    for (system, column), topics in groups.items():
        named = [t for t in topics if t is not None]
        parts = ([f"topic{'s' if len(named) > 1 else ''} {', '.join(named)}"] if named else []) + \
                (["the mean"] if None in topics else [])
        lines.append(f"system {system}, {column}: {' and '.join(parts)}")
    return lines


def _bug_value(outcome: Outcome, bugs: tuple, verdict: Verdict):
    checker = outcome.checker
    return checker.value(verdict.cell, checker._settings(verdict.cell, bugs))


def _title(bugs: tuple) -> str:
    return " together with ".join(b.title for b in bugs)


def finding_lines(outcome: Outcome, finding: Finding) -> tuple[str, list[str]]:
    """(heading, lines) of one finding."""
    decimals = outcome.assignment.decimals
    cells = len(finding.verdicts)
    plural = "s" if cells != 1 else ""
    if finding.kind == "no-number":
        return (f"no-number: no number for {cells} cell{plural}",
                ["Your file has no readable number for these cells: " + "; ".join(_places(finding.verdicts)) + "."])
    if finding.kind == "impossible":
        lines = [f"{v.cell.label}: you wrote {_given(v)}, which no {v.cell.measure.column} can be: it lies between "
                 f"{METRIC_RANGE[v.cell.measure.metric][0]} and {METRIC_RANGE[v.cell.measure.metric][1]}; the "
                 f"assignment's value is {_value(v.reference, decimals)}" for v in finding.verdicts[:SHOWN_CELLS]]
        return f"impossible: numbers outside the measure's range ({cells} cell{plural})", lines + _rest(finding)
    if not finding.explanations:
        lines = ["No bug of the catalogue, alone or paired with another, reproduces these numbers. Compare your "
                 "computation with the reference's worked steps:"]
        for v in finding.verdicts[:SHOWN_CELLS]:
            lines.append(f"{v.cell.label}: you wrote {_given(v)}; the reference is {_value(v.reference, decimals)}"
                         f" — {_explain_command(outcome, v)}")
        return f"no-known-cause: wrong, no known cause ({cells} cell{plural})", lines + _rest(finding)
    lines = []
    if any(len(unit) > 1 for unit in finding.units):
        lines.append("Several explanations give exactly these numbers (here they cannot be told apart; your code can):")
    measures = tuple(dict.fromkeys(v.cell.measure for v in finding.verdicts))
    named = dict.fromkeys(b for unit in finding.units for bugs in unit for b in bugs)
    lines += [f"{b.name}: your evaluator computes {b.computes}; {reference_text(b, measures, decimals)}."
              for b in named]
    partners = finding.partners or (None,) * cells
    for partner in sorted(dict.fromkeys(partners), key=lambda p: p is not None):  # alone first
        mine = tuple(v for v, p in zip(finding.verdicts, partners) if p == partner)
        if partner is None:
            lines.append("Recomputing these cells that way gives your numbers:" if len(mine) > 1 else
                         "Recomputing this cell that way gives your number:")
        else:
            at = next((n for n, f in enumerate(outcome.findings, 1) if partner in f.units), None)
            lines.append(f"Together with {unit_name(partner)}" + (f" (finding {at})" if at else "") +
                         f", recomputing {'these cells' if len(mine) > 1 else 'this cell'} with both gives your "
                         f"number{'s' if len(mine) > 1 else ''}:")
        first = tuple(b for unit in finding.units + ((partner,) if partner else ()) for b in unit[0])
        used = set(finding.explanations) | ({bugs + x for bugs in finding.explanations for x in partner} |
                                            {x + bugs for bugs in finding.explanations for x in partner}
                                            if partner else set())
        for v in mine[:SHOWN_CELLS]:
            mistaken = _bug_value(outcome, first, v)
            rounding = outcome.checker._settings(v.cell, first)["rounding"]
            shown = _value(mistaken, decimals)
            if mistaken is not ABSENT and rounding != v.cell.measure.settings["rounding"]:  # the bug is the printing
                shown = f"{number(printed(mistaken, decimals, rounding))} ({shown} printed that way)"
            wrote = ("you wrote no row, as that way leaves it out" if mistaken is ABSENT else
                     f"you wrote {_given(v)}, and that way it is {shown}")
            also = [" + ".join(b.name for b in bugs) for bugs in v.explanations if bugs not in used]
            lines.append(f"{v.cell.label}: {wrote}; the assignment's value is {_value(v.reference, decimals)}"
                         + (f" (also reproduced by {', '.join(also)})" if also else ""))
        if mine[SHOWN_CELLS:]:
            lines.append("The other cells: " + "; ".join(_places(mine[SHOWN_CELLS:])) + ".")
    heading = " together with ".join(" or ".join(_title(bugs) for bugs in unit) for unit in finding.units)
    return f"{finding.name}: {heading} ({cells} cell{plural})", lines


def _rest(finding: Finding) -> list[str]:
    rest = finding.verdicts[SHOWN_CELLS:]
    return ["The other cells: " + "; ".join(_places(rest)) + "."] if rest else []


def _explain_command(outcome: Outcome, verdict: Verdict) -> str:
    cell = verdict.cell
    if cell.topic is None:
        return "the mean of the topics' values above"
    collection = outcome.assignment.collection
    k = f" --k {cell.measure.k}" if cell.measure.k else ""
    return (f"irlab explain {cell.measure.metric}{k} --qrels {collection.qrels_path} --run "
            f"{collection.path_of(cell.system)} --topic {cell.topic}")


def measure_rows(outcome: Outcome) -> list[tuple[str, int, int, Fraction, Fraction]]:
    return [(m.column, *outcome.measure_score(m), m.points) for m in outcome.assignment.measures]


def layout_lines(outcome: Outcome) -> list[str]:
    sub = outcome.submission
    lines = [str(p) for p in sub.problems]
    if sub.problem_count > len(sub.problems):
        lines.append(f"… and {sub.problem_count - len(sub.problems)} more")
    return lines


def summary(outcome: Outcome) -> str:
    right = sum(v.right for v in outcome.verdicts)
    return (f"Score {number(outcome.score)} / {number(outcome.assignment.max_score)}: {right} of "
            f"{len(outcome.verdicts)} numbers right.")


def sections(outcome: Outcome, student: str) -> list[tuple[str, list[str]]]:
    """The report as (heading, lines) sections, rendered by every format."""
    a = outcome.assignment
    rows = [f"{column}: {right}/{cells} right, {number(score)} of {number(points)} points"
            for column, right, cells, score, points in measure_rows(outcome)]
    out = [(f"{a.title} — {student}", [summary(outcome)]), ("Per measure", rows)]
    if outcome.submission.problems:
        out.append(("Not in the declared layout (the cells that could be read are graded)", layout_lines(outcome)))
    for n, finding in enumerate(outcome.findings, 1):
        heading, lines = finding_lines(outcome, finding)
        out.append((f"Finding {n}. {heading}", lines))
    if not outcome.findings and not outcome.submission.problems:
        out.append(("Findings", ["Every number is right."]))
    return out


def render(outcome: Outcome, student: str, fmt: str = "text") -> str:
    parts = sections(outcome, student)
    if fmt == "markdown":
        blocks = [f"# {parts[0][0]}\n\n{parts[0][1][0]}"]
        blocks += [f"## {h}\n\n" + "\n".join(f"- {line}" for line in lines) for h, lines in parts[1:]]
        return "\n\n".join(blocks) + "\n"
    if fmt == "html":
        e = html.escape
        body = [f"<h1>{e(parts[0][0])}</h1>\n<p>{e(parts[0][1][0])}</p>"]
        body += [f"<h2>{e(h)}</h2>\n<ul>\n" + "".join(f"<li>{e(line)}</li>\n" for line in lines) + "</ul>"
                 for h, lines in parts[1:]]
        return ("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>" + e(parts[0][0]) + "</title></head>"
                "<body>\n" + "\n".join(body) + "\n</body></html>\n")
    blocks = [f"{parts[0][0]}\n{parts[0][1][0]}"]
    blocks += [f"{h}\n" + "\n".join(f"  {line}" for line in lines) for h, lines in parts[1:]]
    return "\n\n".join(blocks) + "\n"


def gradescope(outcome: Outcome) -> dict:
    """Gradescope's results.json: one test per measure, the findings that touch it as its output."""
    a = outcome.assignment
    tests = []
    if outcome.submission.problems:
        tests.append({"name": "Submission layout", "score": 0, "max_score": 0, "status": "failed",
                      "visibility": a.visibility, "output": "\n".join(layout_lines(outcome))})
    for column, right, cells, score, points in measure_rows(outcome):
        texts = []
        for finding in outcome.findings:
            mine = [v for v in finding.verdicts if v.cell.measure.column == column]
            if mine:
                heading, lines = finding_lines(outcome, finding.only(lambda v: v.cell.measure.column == column))
                texts.append(heading + "\n" + "\n".join(lines))
        tests.append({"name": column, "score": float(score), "max_score": float(points),
                      "status": "passed" if right == cells else "failed", "visibility": a.visibility,
                      "output": f"{right} of {cells} numbers right." + ("\n\n" + "\n\n".join(texts) if texts else "")})
    return {"score": float(outcome.score), "output": summary(outcome), "visibility": a.visibility,
            "stdout_visibility": "hidden", "tests": tests}


def gradescope_json(outcome: Outcome) -> str:
    return json.dumps(gradescope(outcome), indent=2, ensure_ascii=False) + "\n"


def write_class_csv(stream, outcomes: list[tuple[str, Outcome]]) -> None:
    """One row per student: score, each measure's points, and the names of the findings."""
    if not outcomes:
        return
    assignment = outcomes[0][1].assignment
    out = writer(stream)
    out.writerow(["student", "score", "max_score", *(m.column for m in assignment.measures), "findings",
                  "layout problems"])
    for student, outcome in outcomes:
        out.writerow([student, float(outcome.score), float(assignment.max_score),
                      *(float(outcome.measure_score(m)[2]) for m in assignment.measures),
                      "; ".join(f"{f.name} ({len(f.verdicts)})" for f in outcome.findings),
                      outcome.submission.problem_count])
