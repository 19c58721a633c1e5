"""The assignment as data: one TOML file declares the collection, the output layout, each column's measure and
settings, the tolerance, the points, and any bugs a course adds to the catalogue.

    title = "TTDS coursework: ir_eval.csv"
    layout = "csv"                    # or "trec-eval": 'measure  topic  value' lines, one file per system
    submission = "ir_eval.csv"        # the file the student hands in (trec-eval: a pattern with {system})
    decimals = 3                      # tolerance defaults to half a unit of the last one
    qrels = "ttds/qrels.txt"          # paths relative to this file
    [runs]                            # system label -> TREC run file
    1 = "ttds/system1.run"
    [settings]                        # irlab convention names (irlab conventions --bugs lists the rest)
    discount = "log2-rank"
    [[measure]]
    column = "nDCG@10"                # the CSV header, or trec_eval's measure name
    metric = "ndcg"
    k = 10
    points = 2
    [[bug]]                           # optional: a course's own bug, with the catalogue's fields
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

from ..errors import InputFileError, ParameterError
from ..exercise_set import read_toml
from ..limits import MAX_CUTOFF
from .catalogue import BUGS, DEFAULTS, MEAN, METRIC_SETTINGS, METRICS_WITH_K, SETTINGS, Bug, check_setting
from .collection import Collection

LAYOUTS = ("csv", "trec-eval")
TOP_KEYS = {"title", "layout", "submission", "decimals", "tolerance", "qrels", "runs", "settings", "csv", "trec_eval",
            "measure", "bug", "visibility"}
MEASURE_KEYS = {"column", "metric", "k", "points", "settings"}
BUG_KEYS = {"name", "title", "computes", "reference", "measures", "settings"}
VISIBILITIES = ("visible", "hidden", "after_due_date", "after_published")  # Gradescope's test visibilities


@dataclass(frozen=True, eq=False)  # one object per column: compared (and hashed) by identity, its settings a dict
class Measure:
    column: str
    metric: str
    k: int | None
    points: Fraction
    settings: dict  # every setting, the assignment's and this measure's own


@dataclass(frozen=True)
class Assignment:
    path: str
    title: str
    layout: str
    submission: str
    decimals: int
    tolerance: Fraction
    collection: Collection
    measures: tuple[Measure, ...]
    bugs: tuple[Bug, ...]
    system_column: str
    topic_column: str
    mean_label: str
    visibility: str

    @property
    def max_score(self) -> Fraction:
        return sum((m.points for m in self.measures), Fraction(0))


def _fail(path, problem):
    raise InputFileError(path, None, problem)


def _text(path, table: dict, key: str, where: str, default=None) -> str:
    value = table.get(key, default)
    if not isinstance(value, str) or not value.strip():
        _fail(path, f"{where}{key} must be non-empty text, got {value!r:.40}")
    return value


def _unknown(path, table: dict, allowed: set, where: str) -> None:
    extra = sorted(set(table) - allowed)
    if extra:
        _fail(path, f"{where}unknown key {extra[0]!r}; the keys are {', '.join(sorted(allowed))}")


def _settings(path, table, where: str) -> dict:
    if not isinstance(table, dict):
        _fail(path, f"{where}settings must be a table")
    try:
        return {name: check_setting(name, choice, f"{where}settings") for name, choice in table.items()}
    except ParameterError as error:
        raise InputFileError(path, None, str(error)) from None


def _number(path, value, what: str, low, high) -> Fraction:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not low <= value <= high:
        _fail(path, f"{what} must be a number from {low} to {high}, got {value!r:.40}")
    return Fraction(str(value)) if isinstance(value, float) else Fraction(value)


def _measure(path, n: int, table, settings: dict) -> Measure:
    where = f"measure {n}: "
    if not isinstance(table, dict):
        _fail(path, f"{where}must be a table ([[measure]])")
    _unknown(path, table, MEASURE_KEYS, where)
    metric = _text(path, table, "metric", where)
    if metric not in METRIC_SETTINGS:
        _fail(path, f"{where}metric is one of {', '.join(METRIC_SETTINGS)}, got {metric!r:.40}")
    k = table.get("k")
    if metric in METRICS_WITH_K:
        if isinstance(k, bool) or not isinstance(k, int) or not 1 <= k <= MAX_CUTOFF:
            _fail(path, f"{where}{metric} needs a cut-off k, a whole number from 1, got {k!r:.40}")
    elif k is not None:
        _fail(path, f"{where}{metric} takes no cut-off k")
    points = _number(path, table.get("points", 1), f"{where}points", 0, 10**6)
    own = _settings(path, table.get("settings", {}), where)
    return Measure(_text(path, table, "column", where), metric, k, points, {**settings, **own})


def _bug(path, n: int, table) -> Bug:
    where = f"bug {n}: "
    if not isinstance(table, dict):
        _fail(path, f"{where}must be a table ([[bug]])")
    _unknown(path, table, BUG_KEYS, where)
    measures = table.get("measures")
    known = set(METRIC_SETTINGS) | {MEAN}
    if not isinstance(measures, list) or not measures or not all(m in known for m in measures):
        _fail(path, f"{where}measures is a list of {', '.join(sorted(known))}, got {measures!r:.60}")
    overrides = _settings(path, table.get("settings", {}), where)
    if not overrides:
        _fail(path, f"{where}settings must name at least one setting the bug changes")
    return Bug(_text(path, table, "name", where), _text(path, table, "title", where),
               _text(path, table, "computes", where), _text(path, table, "reference", where),
               tuple(measures), tuple(overrides.items()))


def read_assignment(path) -> Assignment:
    """Read and check an assignment file; every problem is an InputFileError naming the file and the key."""
    path = Path(path)
    data = read_toml(path)
    _unknown(path, data, TOP_KEYS, "")
    layout = _text(path, data, "layout", "", "csv")
    if layout not in LAYOUTS:
        _fail(path, f"layout is one of {', '.join(LAYOUTS)}, got {layout!r:.40}")
    decimals = data.get("decimals", 3)
    if isinstance(decimals, bool) or not isinstance(decimals, int) or not 0 <= decimals <= 12:
        _fail(path, f"decimals must be a whole number from 0 to 12, got {decimals!r:.40}")
    half_unit = Fraction(1, 2 * 10**decimals)
    tolerance = _number(path, data["tolerance"], "tolerance", 0, 1) if "tolerance" in data else half_unit
    runs = data.get("runs")
    if not isinstance(runs, dict) or not runs or not all(isinstance(v, str) for v in runs.values()):
        _fail(path, "runs must be a table of system label = run file")
    base = path.parent
    collection = Collection(str(base / _text(path, data, "qrels", "")),
                            tuple((str(label), str(base / run)) for label, run in runs.items()))
    settings = {**DEFAULTS, **_settings(path, data.get("settings", {}), "")}
    measures = data.get("measure")
    if not isinstance(measures, list) or not measures:
        _fail(path, "declare at least one [[measure]]")
    measures = tuple(_measure(path, n, table, settings) for n, table in enumerate(measures, 1))
    columns = [m.column for m in measures]
    if len(set(columns)) != len(columns):
        _fail(path, f"two measures share the column {next(c for c in columns if columns.count(c) > 1)!r}")
    extra = data.get("bug", [])
    if not isinstance(extra, list):
        _fail(path, "bug must be an array of tables ([[bug]])")
    bugs = BUGS + tuple(_bug(path, n, table) for n, table in enumerate(extra, 1))
    names = [b.name for b in bugs]
    if len(set(names)) != len(names):
        _fail(path, f"the bug name {next(n for n in names if names.count(n) > 1)!r} is already in the catalogue")
    table = data.get("csv" if layout == "csv" else "trec_eval", {})
    if not isinstance(table, dict):
        _fail(path, f"{'csv' if layout == 'csv' else 'trec_eval'} must be a table")
    visibility = _text(path, data, "visibility", "", "visible")
    if visibility not in VISIBILITIES:
        _fail(path, f"visibility is one of {', '.join(VISIBILITIES)}, got {visibility!r:.40}")
    default_submission = "ir_eval.csv" if layout == "csv" else "{system}.eval"
    submission = _text(path, data, "submission", "", default_submission)
    if layout == "trec-eval" and "{system}" not in submission:
        _fail(path, "a trec-eval submission is one file per system: its name must contain {system}")
    return Assignment(
        str(path), _text(path, data, "title", "", path.stem), layout, submission, decimals, tolerance, collection,
        measures, bugs, str(table.get("system_column", "system_number")), str(table.get("topic_column", "query_number")),
        str(table.get("mean_label", "mean" if layout == "csv" else "all")), visibility)


__all__ = ["Assignment", "Measure", "read_assignment", "SETTINGS", "LAYOUTS"]
