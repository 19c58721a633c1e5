"""The exercise-set format as data: every key of every table, with its type, range, default and the solvers that take it.

One description serves three purposes: :func:`check_set` validates a set when it is loaded (``solve``, ``sheet``
and ``grade`` alike), the "allowed keys" of an error message list only the keys that apply to that solver, and
:func:`readme_table` writes the key table of ``exercises/README.md`` (a test keeps it current; regenerate with
``python3 -m irlab.schema --write exercises/README.md``).

>>> [key.name for key in keys() if key.table == "stated"]
['length', 'relevant_shown', 'relevant', 'collection']
"""

from __future__ import annotations

import re
import string
import sys
from collections import Counter
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any, Callable

from . import limits
from .answer_options import OPTION_KEYS, AnswerOptionError, Tolerance, option_number
from .errors import IrlabError
from .escape import CONTROL_CHARACTER, control_name
from .exact import parse_number
from .metrics import METRICS, get_metric
from .metrics.weighted_kappa import parse_categories
from .metrics.dcg import parse_gains
from .metrics.pairs import READS_SCORES
from .metrics.significance import QUANTITIES, QUANTITY_ALIASES
from .metrics.diversity import IntentRanking
from .outputs import write_text
from .ranking import Ranking, parse_ids, read_scores

ALL = None  # a key that every solver takes

# tables: where a key lives, as the README names it
TABLES = {
    "set": "top level",
    "grading": "[grading]",
    "exercise": "[[exercise]]",
    "parameters": "[exercise.parameters]",
    "stated": "[exercise.stated]",
    "variants": "[exercise.variants]",
    "question": "[[exercise.question]]",
}

SOLVERS = {
    "map-bounds": "highest/lowest possible AP of a full ranking whose top is known (answer = highest|lowest|bounds|error)",
    "aggregate": "relevance aggregated over judges (rule = all|any|majority), then precision, recall, F",
    "f-macro-micro": "F-measure over several queries, macro and micro averaged",
    "pr-averages": "precision, recall and F over several queries (counts or rankings), micro and macro averaged",
    "compare-systems": "a metric (option metric, default ap) of every system in parameters.systems, and the "
                       "difference of the first two",
    "pool": "the pool of depth k (option depth) over parameters.runs: its size and each run's unique contributions",
    "free-text": "a question answered in words (or by picking one of choices): space on the sheet, the model_answer "
                 "in the key, not graded automatically, except with correct: then a choice graded by its letters",
}
MISMATCH_ACTIONS = {
    "refuse": "refuse to solve",
    "truncate": "solve with the list cut to the stated length",
    "data": "solve with the data as given",
}
MAP_BOUNDS_ANSWERS = ("highest", "lowest", "bounds", "error", "all")
AGGREGATION_RULES = ("all", "any", "majority")


@dataclass(frozen=True)
class Key:
    """One key of an exercise set: where it lives, what it holds, who reads it."""

    table: str  # a key of TABLES
    name: str
    kind: str  # how the README names its type
    description: str
    default: Any = None  # None: no default (optional, or required when ``required``)
    required: bool = False
    solvers: tuple[str, ...] | None = ALL  # the question solvers that take it (questions and parameters)
    check: Callable | None = None  # check(value, problem) -> None; problem(text) raises the located error
    placeholder: bool = False  # may be written "{name}" to take a parameter's value (k = "{length}")
    range: str = ""  # the allowed values, as the README says them
    by_solver: tuple = ()  # (solver, check) pairs for a solver whose range differs (q-measure's β may be 0)


# value checks: each takes the value and ``problem``, a function that raises the located error ---------------

def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _integer(low, high=None):
    def check(value, problem):
        if not _is_int(value):
            problem(f"must be an integer, got {_shown(value)}")
        if value < low or (high is not None and value > high):
            problem(f"must be an integer in [{low}, {high:,}], got {value:,}" if high is not None
                    else f"must be an integer >= {low}, got {value:,}")
    return check


def _number(low, high, *, low_open=False, high_open=False):
    """A number in [low, high] (either end open, or None for no bound), read exactly as the solvers read it."""

    def check(value, problem):
        if isinstance(value, bool) or not isinstance(value, (int, float, str)):
            problem(f"must be a number such as 0.25, \"1/4\" or \"25%\", got {_shown(value)}")
        try:
            number = parse_number(value) if isinstance(value, str) else Fraction(repr(value) if isinstance(value, float) else value)
        except (ValueError, OverflowError):
            problem(f"must be a number such as 0.25, \"1/4\" or \"25%\", got {_shown(value)}")
        too_low = low is not None and (number <= low if low_open else number < low)
        too_high = high is not None and (number >= high if high_open else number > high)
        if too_low or too_high:
            problem(f"must lie in {'(' if low_open or low is None else '['}{low if low is not None else '-∞'}, "
                    f"{high if high is not None else '∞'}{']' if high is not None and not high_open else ')'}, "
                    f"got {_shown(value)}")
        bound = 10**limits.MAX_DIGITS
        if abs(number.numerator) >= bound or number.denominator >= bound:
            problem(f"has more than {limits.MAX_DIGITS} digits (irlab's limit), got {_shown(value)}")
    return check


def _gain_table(value, problem):
    if not isinstance(value, (str, dict)):
        problem(f'must be a gain table such as "1=1,2=5" or {{ 1 = 1, 2 = 5 }}, got {_shown(value)}')
    try:
        parse_gains(value)
    except IrlabError as error:
        problem(str(error))


def _choice(choices):
    def check(value, problem):
        if not isinstance(value, str) or value.strip().lower().replace("_", "-") not in choices:
            problem(f"must be one of {', '.join(choices)}, got {_shown(value)}")
    return check


def _boolean(value, problem):
    if not isinstance(value, bool):
        problem(f"must be true or false, got {_shown(value)}")


def _text(value, problem):
    if not isinstance(value, str):
        problem(f"must be text, got {_shown(value)}")


def _texts(value, problem):
    if not isinstance(value, list) or len(value) < 2 or not all(isinstance(v, str) and v.strip() for v in value):
        problem(f"must be a list of at least two non-empty texts, got {_shown(value)}")


def _option_letters(value, problem):
    items = value if isinstance(value, list) else [value]
    if not items or not all(isinstance(v, str) and v.strip() for v in items):
        problem(f"must name the right option(s) by letter, such as \"b\" or [\"a\", \"c\"], got {_shown(value)}")


def _levels(value, problem):
    items = value if isinstance(value, list) else value.split(",") if isinstance(value, str) else None
    if not items or not all(str(item).strip() for item in items):
        problem(f"must be recall levels such as [0.2, 0.5, 0.8], got {_shown(value)}")
    for item in items:
        _number(0, 1)(item.strip() if isinstance(item, str) else item, problem)


def _identifier(value, problem):
    if not (isinstance(value, str) or _is_int(value)) or not str(value).strip():
        problem(f"must be a non-empty text or integer id, got {_shown(value)}")


def _names(what: str):
    """A table keyed by names (systems, runs): each name is shown in every formula that uses it, so it holds no
    control character (which no instructor means to type, and which would reach a page as '<U+001B>') and is at
    most MAX_NAME characters. A backslash, a brace or a letter outside ASCII is a name like any other."""
    def check(value, problem):
        for name in value if isinstance(value, dict) else ():
            control = CONTROL_CHARACTER.search(name) or re.search("[\t\n]", name)  # a tab or a line break too
            if control:
                problem(f"the {what} name {_shown(name)} holds the control character {control_name(control.group())}; "
                        "write the name without it")
            if len(name) > limits.MAX_NAME:
                problem(f"the {what} name {_shown(name)} has {len(name):,} characters; a name is at most "
                        f"{limits.MAX_NAME:,} (irlab's limit MAX_NAME)")
    return check


def _ranking(value, problem):
    if not isinstance(value, (str, list)):
        problem(f"must be an R/N string (\"RNNRR\") or a list of grades ([3, 2, 0, 1]), got {_shown(value)}")
    try:
        Ranking.parse(value) if isinstance(value, str) else Ranking.from_grades(value)
    except IrlabError as error:
        problem(str(error))


def _rankings(value, problem):
    if not isinstance(value, list) or not value:
        problem(f"must be a list of rankings ([\"RNNRR\", \"NRN\"] or [[3, 0], [1, 2]]), got {_shown(value)}")
    if len(value) > limits.MAX_QUERIES:
        problem(f"has {len(value):,} rankings; irlab's limit is {limits.MAX_QUERIES:,}")
    for position, item in enumerate(value, 1):
        _ranking(item, lambda text: problem(f"ranking {position}: {text}"))


def _scores(value, problem):
    """The score at each rank, never increasing ([0.9, 0.8, 0.8] or "0.9,0.8,0.8"); with rankings, one list each.
    Their number is checked against the ranking when it is read."""
    if isinstance(value, list) and value and all(isinstance(item, list) for item in value):
        for position, item in enumerate(value, 1):
            _scores(item, lambda text: problem(f"list {position}: {text}"))
        return
    if not isinstance(value, (str, list)) or not value:
        problem(f"must be the score at each rank, such as [0.9, 0.8, 0.8, 0.1] or \"0.9,0.8,0.8,0.1\", got {_shown(value)}")
    try:
        read_scores(value, None)
    except IrlabError as error:
        problem(str(error))


def _count_or_counts(low, high):
    single = _integer(low, high)

    def check(value, problem):
        if isinstance(value, list):
            if not value:
                problem("an empty list: give one value per ranking")
            for position, item in enumerate(value, 1):
                single(item, lambda text: problem(f"item {position}: {text}"))
        else:
            single(value, problem)
    return check


def _grades(value, problem):
    """Grades of judged documents not retrieved: [2, 1], or one list per ranking."""
    if not isinstance(value, list):
        problem(f"must be a list of grades such as [2, 1], got {_shown(value)}")
    if len(value) > limits.MAX_RANKS:
        problem(f"has {len(value):,} grades; irlab's limit is {limits.MAX_RANKS:,}")
    nested = bool(value) and all(isinstance(item, list) for item in value)
    if not nested and any(isinstance(item, list) for item in value):
        problem(f"mixes lists and single grades, got {_shown(value)}: give one list of grades per ranking, such as "
                "[[2, 1], []], or one list of grades such as [2, 1]")
    for position, item in enumerate(value, 1):
        if nested:
            _grades(item, lambda text: problem(f"list {position}: {text}"))
        else:
            _integer(0, limits.MAX_LINEAR_GRADE)(item, lambda text: problem(f"item {position}: {text}"))


def _judgments(value, problem):
    if not isinstance(value, list) or not value or not all(isinstance(row, list) for row in value):
        problem(f"must be a list of rows [document, judge 1, judge 2, …], got {_shown(value)}")
    if len(value) > limits.MAX_RANKS:
        problem(f"has {len(value):,} rows; irlab's limit is {limits.MAX_RANKS:,}")
    width = len(value[0])
    for number, row in enumerate(value, 1):
        if len(row) != width or width < 2:
            problem(f"row {number} has {len(row)} entries; every row needs the same number, at least a document and a judge")
        if not (isinstance(row[0], str) or _is_int(row[0])):
            problem(f"row {number}: the document id must be text or an integer, got {_shown(row[0])}")
        for judge, flag in enumerate(row[1:], 1):
            if not _is_int(flag) or flag not in (0, 1):
                problem(f"row {number}, judge {judge}: must be 0 or 1, got {_shown(flag)}")


def _documents(value, problem):
    if not isinstance(value, list) or not all(isinstance(d, str) or _is_int(d) for d in value):
        problem(f"must be a list of document ids such as [4, 5, 6], got {_shown(value)}")
    if len(value) > limits.MAX_RANKS:
        problem(f"has {len(value):,} documents; irlab's limit is {limits.MAX_RANKS:,}")


def _column(value, problem):
    if not isinstance(value, (str, list)):
        problem(f"must be a judge's 0/1 column or column of categories such as \"0,1,1\" or [0, 2, 1], got {_shown(value)}")
    try:  # kappa's 0/1 or cohen-kappa's categories; kappa names a category other than 0/1 when it solves
        parse_categories(value, "the column")
    except IrlabError as error:
        problem(str(error))


def _per_query_texts(value, problem, wanted: str, allow_empty=False):
    """One written form, or a list of them (one per query, up to MAX_QUERIES): the texts to check, numbered."""
    if isinstance(value, str):
        return [(None, value)]
    if not isinstance(value, list) or not (value or allow_empty) or not all(isinstance(v, str) for v in value):
        problem(f"must be {wanted}, or a list of them (one per query), got {_shown(value)}")
    if len(value) > limits.MAX_QUERIES:
        problem(f"lists {len(value):,} queries; at most {limits.MAX_QUERIES:,} (irlab's limit MAX_QUERIES)")
    return list(enumerate(value, 1))


def _intents(value, problem):
    """An intent ranking as written: '1+2 - 2 3 ?' (subtopics joined by '+', '-' relevant to none, '?' unjudged);
    a list of them for several queries."""
    for number, text in _per_query_texts(value, problem, "a ranking judged per subtopic such as \"1+2 - 2 3 ?\""):
        try:
            IntentRanking.parse(text)
        except IrlabError as error:
            problem(f"query {number}: {error}" if number else str(error))


def _unretrieved_intents(value, problem):
    for number, text in _per_query_texts(value, problem, "the judged relevant documents not retrieved, by their "
                                                         "subtopics, such as \"3 1+4\"", allow_empty=True):
        try:
            IntentRanking.parse("-", unretrieved=text)
        except IrlabError as error:
            problem(f"query {number}: {error}" if number else str(error))


def _ids(value, problem):
    if not isinstance(value, (str, list)):
        problem(f"must be a ranking of document ids such as \"d1,d2,d3\" or [\"d1\", \"d2\"], got {_shown(value)}")
    try:
        parse_ids(value, "the ranking of ids")
    except IrlabError as error:
        problem(str(error))


def _metric_name(value, problem):
    try:
        get_metric(value)
    except IrlabError as error:
        problem(str(error))


def _shown(value) -> str:
    text = repr(value)
    if isinstance(value, bool):
        text = "true" if value else "false"
    return text if len(text) <= 40 else text[:40] + "…"


# the keys ----------------------------------------------------------------------------------------------------

def _metric_keys() -> list[Key]:
    """Question keys that are metric parameters or conventions, with the metrics that declare them."""
    ranges = {  # name -> (check, range as the README says it)
        "k": (_integer(1, limits.MAX_CUTOFF), f"integer 1 … {limits.MAX_CUTOFF:,}"),
        "max_grade": (_integer(0, limits.MAX_LINEAR_GRADE), f"integer 0 … {limits.MAX_LINEAR_GRADE:,} (0 … "
                      f"{limits.MAX_GRADE} with the exponential err_probability)"),
        "recall_level": (_number(0, 1), "number in [0, 1] (0.25, \"1/4\", \"25%\")"),
        "levels": (_levels, "recall levels in [0, 1]: [0.2, 0.5, 0.8] or \"0.2, 0.5, 0.8\""),
        "beta": (_number(0, limits.MAX_BETA, low_open=True),
                 f"number in (0, {limits.MAX_BETA}]; q-measure: [0, {limits.MAX_BETA}] (β = 0 gives AP)"),
        "gains": (_gain_table, 'a gain per grade: "1=1,2=5" or { 1 = 1, 2 = 5 }'),
        "log_base": (_integer(2, 10**6), "integer 2 … 1,000,000"),
        "persistence": (_number(0, 1, low_open=True, high_open=True), "number in (0, 1) (0.8, \"4/5\", \"80%\")"),
        "weights": (_choice(("linear", "quadratic")), "linear \\| quadratic"),
        "alpha": (_number(0, 1, low_open=True), "number in (0, 1] (0.5, \"1/2\")"),
    }
    quantities = {name: tuple(known) + tuple(a for a, key in QUANTITY_ALIASES.items() if key in known)
                  for name, known in QUANTITIES.items()}
    ranges["quantity"] = (_choice(tuple(dict.fromkeys(q for known in quantities.values() for q in known))),
                          "; ".join(name + ": " + " \\| ".join(known) for name, known in QUANTITIES.items()))
    keys, seen = [], {}
    for metric in METRICS:
        for parameter in metric.parameters:
            seen.setdefault(("p", parameter.name), (parameter, []))[1].append(metric.name)
        for convention in metric.conventions:
            seen.setdefault(("c", convention.name), (convention, []))[1].append(metric.name)
    also = {"k": ("compare-systems",), "beta": ("compare-systems",)}  # options the solver passes to its metric
    # F's β > 0 (F_0 would ignore recall); Q-measure's β weighs the gain, and β = 0 is AP (Sakai 2004, §2)
    by_solver = {"beta": (("q-measure", _number(0, limits.MAX_BETA)),),
                 "quantity": tuple((name, _choice(known)) for name, known in quantities.items())}
    for (sort, name), (declared, metrics) in seen.items():
        metrics = metrics + list(also.get(name, ()))
        if sort == "p":
            check, shown = ranges.get(name, (_number(None, None) if declared.kind == "number" else _integer(0), declared.kind))
            keys.append(Key("question", name, "integer" if declared.kind == "int" else declared.kind, declared.description,
                            declared.default, solvers=tuple(metrics), check=check, placeholder=True, range=shown,
                            by_solver=by_solver.get(name, ())))
        else:
            choices = tuple(c.key for c in declared.choices)
            aliases = tuple(alias for c in declared.choices for alias in c.aliases)  # ties = "average"
            shown = [c.key + (f" ({', '.join(c.aliases)})" if c.aliases else "") for c in declared.choices]
            keys.append(Key("question", name, "choice", declared.question, declared.default, solvers=tuple(metrics),
                            check=_choice(choices + aliases), range=" \\| ".join(shown)))
    return keys


def _grading_check(name: str):
    """The answer-checking options are read by irlab.answer_options; its own check runs here, at load time."""

    def check(value, problem):
        try:
            if name == "mistake_credit":
                option_number({name: value}, name, 0, 0, 1)
            else:
                Tolerance.of({name: value})
        except AnswerOptionError as error:
            problem(error.problem)
    return check


def _grading_keys(table: str) -> list[Key]:
    """The answer-checking options (read by irlab.answer_options), per question or as the set's [grading] defaults."""
    what = {
        "tolerance": ("number", "relative tolerance of a right answer", "1/100"),
        "abs_tolerance": ("number", "absolute tolerance of a right answer (so 0 can be matched)", "1e-8"),
        "decimals": ("integer", "right when within half a unit of this decimal place", None),
        "form": ("choice", "the form an answer must take (fraction: the exact value)", "any"),
        "accept_rounded": ("boolean", "the value correctly rounded to the decimals the answer shows is right", True),
        "min_decimals": ("integer", "decimals a rounded answer must show at least", 2),
        "near_tolerance": ("number", "relative distance of a near miss (rounded too early)", "5/100"),
        "rounding_credit": ("number", "share of the credit for a near miss", 0),
        "mistake_credit": ("number", "share of the credit for an answer that matches a named mistake", 0),
    }
    keys = []
    for name, expected in OPTION_KEYS.items():
        kind, description, default = what.get(name, ("option", name.replace("_", " "), None))
        keys.append(Key(table, name, kind, description, default, check=_grading_check(name), range=expected))
    return keys


def _keys() -> tuple[Key, ...]:
    ranking_solvers = tuple(m.name for m in METRICS if m.inputs == "ranking") + ("map-bounds", "f-macro-micro")
    intent_solvers = tuple(m.name for m in METRICS if m.inputs == "intents")  # alpha-ndcg, err-ia, …
    paired = tuple(m.name for m in METRICS if m.inputs == "paired-values")
    count = limits.MAX_RANKS
    return (
        Key("set", "title", "text", "the set's title", required=True, check=_text),
        Key("set", "id", "text", "the set's id (seeds the personal variants)", "the file name", check=_identifier),
        Key("set", "source", "text", "where the exercises come from", check=_text),
        Key("set", "description", "text", "a description for the reader", check=_text),
        Key("set", "exercise", "tables", "the exercises, one [[exercise]] table each", required=True),
        Key("set", "grading", "table", "defaults for every question's answer-checking options (keys below)"),
        Key("set", "working_space", "boolean", "students' sheets print, under every question answered from a ranking, "
            "the blank rank table the worked solution fills (rank and judgment given), and under every computed "
            "question a framed answer box", False, check=_boolean, range="true \\| false"),
        *_grading_keys("grading"),
        Key("exercise", "id", "text", "unique in the set, e.g. \"8/1\"", required=True, check=_identifier),
        Key("exercise", "title", "text", "the exercise's title", "Exercise {id}", check=_text),
        Key("exercise", "statement", "text", "the statement; {name} is a parameter's value, {{ and }} are braces",
            required=True, check=_text),
        Key("exercise", "parameters", "table", "the data (keys below)"),
        Key("exercise", "stated", "table", "counts the statement claims, checked against the data (keys below)"),
        Key("exercise", "on_mismatch", "choice", "what to do when [exercise.stated] disagrees with the data", "refuse",
            check=_choice(tuple(MISMATCH_ACTIONS)), range=" \\| ".join(MISMATCH_ACTIONS)),
        Key("exercise", "variants", "table", "personal variants: how each parameter is drawn (homework)"),
        Key("exercise", "question", "tables", "the questions, one [[exercise.question]] table each", required=True),
        Key("parameters", "ranking", "ranking", "the ranked list: an R/N string (U unjudged, S pooled but sampled out) "
            "or a list of grades",
            solvers=ranking_solvers, check=_ranking, range="\"NRRNR\" or [3, 2, 0, 1]"),
        Key("parameters", "rankings", "rankings", "several queries' rankings (not together with ranking)",
            solvers=ranking_solvers, check=_rankings, range=f"1 … {limits.MAX_QUERIES} rankings"),
        Key("parameters", "relevant", "integer", "R, the relevant documents (a list, one per ranking, with rankings)",
            "the relevant documents retrieved", solvers=ranking_solvers, check=_count_or_counts(0, limits.MAX_RELEVANT),
            range=f"integer 0 … {limits.MAX_RELEVANT:,}"),
        Key("parameters", "unretrieved", "grades", "grades of judged documents not retrieved (for IDCG and R)", "[]",
            solvers=ranking_solvers, check=_grades, range=f"grades 0 … {limits.MAX_LINEAR_GRADE:,} (0 … {limits.MAX_GRADE} "
            "with exponential gain)"),
        Key("parameters", "collection", "integer", "N, the documents in the collection (a list, one per ranking, with "
            "rankings)", solvers=ranking_solvers, check=_count_or_counts(1, limits.MAX_COLLECTION),
            range=f"integer 1 … {limits.MAX_COLLECTION:,}"),
        Key("parameters", "threshold", "integer", "a grade >= threshold is relevant", 1, solvers=ranking_solvers,
            check=_integer(1, limits.MAX_GRADE), range=f"integer 1 … {limits.MAX_GRADE}"),
        Key("parameters", "scores", "scores", "the system's score at each rank, in rank order (never increasing): equal "
            "scores are ties, resolved by the question option ties (one list per ranking with rankings)",
            solvers=tuple(m.name for m in METRICS if any(c.name == "ties" for c in m.conventions)) + READS_SCORES,
            check=_scores,
            range="[0.9, 0.8, 0.8, 0.1] or \"0.9,0.8,0.8,0.1\""),
        Key("parameters", "judgments", "judgments", "rows: document id, judge 1, judge 2 (, judge 3 …), judgments 0/1",
            solvers=("kappa", "aggregate"), check=_judgments, range=f"up to {count:,} rows"),
        Key("parameters", "retrieved", "documents", "the documents a system returned (ids of judgment rows)",
            solvers=("aggregate",), check=_documents, range=f"up to {count:,} ids"),
        Key("parameters", "judge1", "column", "the first judge's judgments: 0/1 (kappa) or categories, grades or labels "
            "(cohen-kappa, weighted-kappa: grades)", solvers=("kappa", "cohen-kappa", "weighted-kappa"), check=_column,
            range="\"0,1,1\" or [0, 1, 1]"),
        Key("parameters", "judge2", "column", "the second judge's judgments, as judge1",
            solvers=("kappa", "cohen-kappa", "weighted-kappa"), check=_column,
            range="\"0,1,1\" or [0, 1, 1]"),
        Key("parameters", "intents", "intents", "a ranking judged per subtopic: each document its subtopics joined by "
            "'+' (a grade for alpha-dcg: '1:2'), '-' (relevant to none) or '?' (unjudged); written documents are named "
            "d1, d2, …; a list of them for several queries (each query's value, then the mean)", required=False,
            solvers=intent_solvers, check=_intents, range="\"1+2 - 2 3 ?\" or [\"1+2 -\", \"2 1\"]"),
        Key("parameters", "unretrieved_intents", "intents", "the judged relevant documents not retrieved, by their "
            "subtopics (named u1, u2, …; they join the ideal ranking); a list, one per query, with several queries",
            "\"\"", solvers=intent_solvers, check=_unretrieved_intents, range="\"3 1+4\" or [\"3\", \"\"]"),
        Key("parameters", "a", "ids", "the first ranking of document ids", solvers=("kendall", "spearman"), check=_ids,
            range="\"d1,d2,d3\" or [\"d1\", \"d2\"]"),
        Key("parameters", "b", "ids", "the second ranking of document ids", solvers=("kendall", "spearman"), check=_ids,
            range="\"d3,d1,d2\""),
        Key("parameters", "counts", "counts", "{ tp = 20, fp = 40, fn = 60, tn = 880 } (or one table per query) "
            "instead of a ranking", solvers=("precision", "recall", "f", "set-accuracy", "fallout", "e-measure",
                                             "pr-averages"), range="tp, fp, fn (, tn or n)"),
        Key("parameters", "judges_table", "counts", "the two judges' 2x2 table: yes-yes, yes-no, no-yes, no-no",
            solvers=("kappa",), range="[300, 20, 10, 70]"),
        Key("parameters", "judges", "columns", "one column per judge: categories, 0/1 or integer grades (pairwise-kappa: "
            "0/1)", solvers=("fleiss", "pairwise-kappa"),
            range="[\"1,1,0\", \"1,0,0\", \"1,1,1\"]"),
        Key("parameters", "systems", "table", "per system, its rankings (one per query) or its per-topic scores",
            solvers=("compare-systems", *paired), check=_names("system"), range="{ A = [...], B = [...] }"),
        Key("parameters", "runs", "table", "per run, its ranked document ids (pooling)", solvers=("pool",),
            check=_names("run"), range="{ A = \"d1,d2,d3\", B = \"d2,d4,d1\" }"),
        Key("stated", "length", "integer", "documents in the list", check=_integer(1, count), range=f"integer 1 … {count:,}"),
        Key("stated", "relevant_shown", "integer", "relevant documents in the list", check=_integer(0, count),
            range=f"integer 0 … {count:,}"),
        Key("stated", "relevant", "integer", "R", check=_integer(0, limits.MAX_RELEVANT),
            range=f"integer 0 … {limits.MAX_RELEVANT:,}"),
        Key("stated", "collection", "integer", "N", check=_integer(1, limits.MAX_COLLECTION),
            range=f"integer 1 … {limits.MAX_COLLECTION:,}"),
        Key("question", "id", "text", "unique in the exercise, e.g. \"a\"", required=True, check=_identifier),
        Key("question", "text", "text", "the question; the statement's placeholders work here too", "", check=_text),
        Key("question", "solver", "choice", "a metric of `irlab metrics`, or " + " \\| ".join(SOLVERS),
            required=True, range="a metric name or a solver"),
        Key("question", "answer", "choice", "which bounds to ask for", "bounds", solvers=("map-bounds",),
            check=_choice(MAP_BOUNDS_ANSWERS), range=" \\| ".join(MAP_BOUNDS_ANSWERS)),
        Key("question", "rule", "choice", "how the judges' votes are aggregated", "all", solvers=("aggregate",),
            check=_choice(AGGREGATION_RULES), range=" \\| ".join(AGGREGATION_RULES)),
        Key("question", "metric", "choice", "the metric computed per system and query", "ap",
            solvers=("compare-systems", *paired), check=_metric_name, range="a metric name"),
        Key("question", "depth", "integer", "the pool depth k: every run's top k is judged", None, solvers=("pool",),
            check=_integer(1, limits.MAX_CUTOFF), range=f"integer 1 … {limits.MAX_CUTOFF:,}"),
        Key("question", "model_answer", "text", "the answer the key shows (required for free-text without correct)", None,
            solvers=("free-text",), check=_text, range="text"),
        Key("question", "lines", "integer", "lines left on the sheet for the answer", 4, solvers=("free-text",),
            check=_integer(1, 40), range="integer 1 … 40"),
        Key("question", "choices", "texts", "options the student picks from (shown on the sheet)", None,
            solvers=("free-text",), check=_texts, range="[\"yes\", \"no\"]"),
        Key("question", "correct", "letters", "the right option(s) of choices, by letter ((a) is the first): the "
            "homework checker grades the letters a student names (case, spaces and order do not matter); the sheet says "
            "'(one answer)' or '(choose all that apply)'", None,
            solvers=("free-text",), check=_option_letters, range="\"b\" or [\"a\", \"c\"]"),
        Key("question", "both_denominators", "boolean", "also show AP divided by the relevant documents retrieved", False,
            solvers=("ap",), check=_boolean, range="true \\| false"),
        Key("question", "working_space", "boolean", "this question's working space on students' sheets (the blank "
            "rank table and an answer box); overrides the set's working_space", None, check=_boolean,
            range="true \\| false"),
        Key("question", "allow_degenerate", "boolean", "personal variants keep a draw whose answer to this question is "
            "0 or 1 or lies within the tolerance of a named mistake (refused and drawn again by default)", False,
            check=_boolean, range="true \\| false"),
        *_metric_keys(),
        *_grading_keys("question"),
    )


_CACHE: dict = {}


def keys() -> tuple[Key, ...]:
    """Every key of the format, in README order (built on first use: the metric declarations are read then)."""
    if "keys" not in _CACHE:
        _CACHE["keys"] = _keys()
    return _CACHE["keys"]


def table_keys(table: str, solver: str | None = None) -> dict[str, Key]:
    """The keys of ``table``; for questions and parameters, only those ``solver`` takes (when given)."""
    return {k.name: k for k in keys() if k.table == table and (solver is None or k.solvers is ALL or solver in k.solvers)}


# checking ----------------------------------------------------------------------------------------------------

_NAMES = {"set": "the set", "exercise": "the exercise", "question": "the question"}


def check_table(table, name: str, problem, solver: str | None = None, skip=()) -> None:
    """Check every key of ``table`` (one of TABLES) against the schema; ``problem(text, key)`` raises.

    Unknown keys are named with the keys that apply (to ``solver``, for a question or the parameters).
    """
    if not isinstance(table, dict):
        problem(f"{TABLES[name]} must be a table, got {_shown(table)}", None)
    allowed = table_keys(name, solver)
    for key, value in table.items():
        if key in skip:
            continue
        if key not in allowed:
            everywhere = table_keys(name)
            if key in everywhere and solver is not None:
                takers = ", ".join(everywhere[key].solvers)
                problem(f"does not apply to {solver} (only to {takers}); the keys for {solver}: "
                        f"{', '.join(sorted(allowed))}", key)
            problem(f"unknown key in {_NAMES.get(name, TABLES[name])} (allowed{' for ' + solver if solver else ''}: "
                    f"{', '.join(sorted(allowed))})", key)
        spec = allowed[key]
        if spec.placeholder and names_a_parameter(value):
            continue  # "{length}": checked when the parameter's value takes its place
        check = dict(spec.by_solver).get(solver, spec.check)
        if check is not None:
            check(value, lambda text, key=key: problem(text, key))
    for key, spec in allowed.items():
        if spec.required and key not in table:
            problem("missing", key)


def names_a_parameter(value) -> bool:
    """Whether an option's value is written "{name}" (k = "{length}"): the named parameter's value takes its place."""
    return isinstance(value, str) and value.startswith("{") and value.endswith("}")


def placeholders(template: str, problem) -> list[str]:
    """The names a text template uses ({ranking}); ``{{``/``}}`` are braces; anything else is refused."""
    names = []
    try:
        parsed = list(string.Formatter().parse(template))
    except ValueError as error:
        problem(f"the text has an unmatched brace ({error}); write {{{{ and }}}} for braces that are not placeholders")
    for _, field, spec, conversion in parsed:
        if field is None:
            continue
        if not field.isidentifier() or spec or conversion:
            written = "{" + field + (f"!{conversion}" if conversion else "") + (f":{spec}" if spec else "") + "}"
            problem(f"{written} is not a placeholder: write a parameter's name alone, such as {{ranking}}, and "
                    "{{ and }} for braces")
        names.append(field)
    return names


def fill(template: str, values: dict, problem) -> str:
    """The template with its placeholders replaced by ``values``; an unknown name is refused, naming the known ones."""
    names = placeholders(template, problem)
    for name in names:
        if name not in values:
            problem(f"the text uses {{{name}}}, which is not a parameter (known: {', '.join(sorted(values))}); "
                    "write {{ and }} for braces that are not placeholders")
    # each placeholder's size times its repeats, counted before the text is built
    uses = Counter(names)
    filled = len(template) + sum(len(str(values[name])) * count for name, count in uses.items())
    if filled > limits.MAX_FILLED_TEXT:
        largest = max(uses, key=lambda name: len(str(values[name])) * uses[name])
        problem(f"the text would be {filled:,} characters once its placeholders are filled ({{{largest}}}, "
                f"{len(str(values[largest])):,} characters, is used {uses[largest]:,} times); a filled text "
                f"is at most {limits.MAX_FILLED_TEXT:,} characters (irlab's limit MAX_FILLED_TEXT): name each "
                "parameter once or a few times")
    return template.format_map(values)


# variants -----------------------------------------------------------------------------------------------------

VARIANT_KEYS = ("ranking", "rankings", "unretrieved", "judgments", "retrieved", "relevant", "collection", "threshold")
_VARIANT_BOUNDS = {"grades": limits.MAX_GRADE, "threshold": limits.MAX_GRADE, "judges": 100,
                   "collection": limits.MAX_COLLECTION, "relevant": limits.MAX_RELEVANT}
_VARIANT_LOWEST = {"threshold": 1}  # a grade >= 0 would make every document relevant: threshold starts at 1


def check_variants(spec, problem) -> None:
    """[exercise.variants]: known parameters, and every number a draw can produce within irlab's limits.

    The shapes ({ length = [5, 8], relevant = [2, 4] }, { choose = [...] }) are read by irlab.homework.variants;
    here every integer is bounded before anything is drawn, so no variant can ask for 10^8 documents.
    """
    if not isinstance(spec, dict):
        problem(f"[exercise.variants] must be a table, got {_shown(spec)}", "variants")
    for key, value in spec.items():
        if key not in VARIANT_KEYS:
            problem(f"unknown key in [exercise.variants] (allowed: {', '.join(sorted(VARIANT_KEYS))})", f"variants.{key}")
        _check_draw(value, key, key, problem)


def _check_draw(value, path: str, leaf: str, problem) -> None:
    where = f"variants.{path}"
    if isinstance(value, dict):
        if "choose" in value:
            choices = value["choose"]
            if set(value) != {"choose"} or not isinstance(choices, list) or not choices:
                problem("a choice is written { choose = [v1, v2, ...] }", where)
            parameter = table_keys("parameters").get(leaf)
            for position, choice in enumerate(choices, 1):
                if parameter is not None and parameter.check is not None:
                    parameter.check(choice, lambda text: problem(f"choice {position}: {text}", where))
            return
        for name, inner in value.items():
            _check_draw(inner, f"{path}.{name}", name, problem)
    elif isinstance(value, list):
        for inner in value:
            _check_draw(inner, path, leaf, problem)
    elif _is_int(value):
        bound = _VARIANT_BOUNDS.get(leaf, limits.MAX_QUERIES if path == "rankings.count" else limits.MAX_RANKS)
        lowest = _VARIANT_LOWEST.get(path, 0)
        if not lowest <= value <= bound:
            problem(f"must be an integer in [{lowest}, {bound:,}] (irlab's limit), got {value:,}", where)
    else:
        problem(f"must be an integer, a range [low, high] or a table, got {_shown(value)}", where)


# the README table --------------------------------------------------------------------------------------------

BEGIN = "<!-- keys -->"  # the block up to END is generated: python3 -m irlab.schema --write exercises/README.md
END = "<!-- end of keys -->"


def readme_table() -> str:
    """The Markdown table of every key, grouped by table (the block between BEGIN and END in exercises/README.md)."""
    lines = [BEGIN, "", "| table | key | type | values | default | solvers | what |", "|---|---|---|---|---|---|---|"]
    for key in keys():
        default = "required" if key.required else ("" if key.default in (None, "") else f"`{_toml(key.default)}`")
        solvers = ("all" if key.table in ("question", "parameters") else "") if key.solvers is ALL else ", ".join(key.solvers)
        if key.solvers is not ALL and "map-bounds" in key.solvers:  # the ranking inputs: not a list that grows
            solvers = "every ranking metric, map-bounds, f-macro-micro"
        placeholder = " (or \"{name}\")" if key.placeholder else ""
        lines.append(f"| {TABLES[key.table]} | `{key.name}` | {key.kind} | {key.range}{placeholder} | {default} | "
                     f"{solvers} | {key.description} |")
    lines += ["", END]
    return "\n".join(lines)


def _toml(value) -> str:
    return ("true" if value else "false") if isinstance(value, bool) else str(value)


def write_readme(path) -> bool:
    """Replace the generated block of ``path`` with :func:`readme_table`; True when the file changed."""
    path = Path(path)
    text = path.read_text(encoding="utf-8")
    start, stop = text.index(BEGIN), text.index(END) + len(END)
    updated = text[:start] + readme_table() + text[stop:]
    if updated != text:
        write_text(path, updated)
    return updated != text


if __name__ == "__main__":
    if sys.argv[1:2] == ["--write"] and len(sys.argv) == 3:
        print("updated" if write_readme(sys.argv[2]) else "already current", sys.argv[2])
    else:
        print(readme_table())
