"""Exercise sets as data: TOML files in ``exercises/`` read, checked and solved step by step.

A set has a title and exercises; an exercise has an id, a statement template, its parameters, the counts
its statement claims (``[exercise.stated]``, checked against the data) and questions; a question names a
metric or a solver and its options. See ``exercises/README.md`` for the format.
"""

from __future__ import annotations

import re
import sys
import tomllib
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path

from . import conventions as conv
from . import exact, schema
from .display import exercise_set_document
from .document import Answer as AnswerBlock
from .document import (Document, Formula, Note, Paragraph, Section, StatementParagraph, StatementTable, Steps, Table,
                       gather_rank_tables)
from .errors import InputFileError, IrlabError
from .exercise_inputs import UNRETRIEVED_PER_RANKING, exercise_rankings, parse_ranking
from .limits import MAX_SET_BYTES, read_at_most
from .metrics import REGISTRY, get_metric, mean_over_queries
from .metrics.counts import mean_notes
from .metrics.diversity import IntentRanking, intent_mean
from .metrics.pairs import READS_SCORES, mean_over_lists
from .ranking import Ranking
from .solvers import Answer, Solution, aggregate_relevance, f_macro_micro, judgments_columns, map_bounds
from .solvers.extended import solve_extended

# the format itself (every key, its type, range, default and solvers) is data in irlab/schema.py
MISMATCH_ACTIONS = schema.MISMATCH_ACTIONS
SOLVERS = schema.SOLVERS


@dataclass
class Question:
    id: str
    text: str
    solver: str
    options: dict = field(default_factory=dict)


@dataclass
class Exercise:
    id: str
    title: str
    statement: str
    parameters: dict
    stated: dict
    on_mismatch: str
    questions: list[Question]
    variants: dict = field(default_factory=dict)
    refused_draws: tuple[str, ...] = ()  # a personal variant: why each draw before it was refused (irlab.homework.drawing)


@dataclass
class ExerciseSet:
    path: Path
    id: str
    title: str
    source: str
    exercises: list[Exercise]

    def _repr_html_(self) -> str:  # Jupyter: the exercises and their questions, typeset (irlab.display)
        return exercise_set_document(self).render("html")

    def exercise(self, exercise_id: str) -> Exercise:
        for exercise in self.exercises:
            if exercise.id == exercise_id:
                return exercise
        known = ", ".join(e.id for e in self.exercises)
        raise InputFileError(self.path, None, f"no exercise {exercise_id!r} (the set has {known})")


class Where:
    """A place in an exercise file (file, exercise, question); builds error messages that name it and the key."""

    def __init__(self, path, exercise=None, question=None):
        self.path, self.exercise, self.question = path, exercise, question

    def error(self, problem, key=None) -> InputFileError:
        parts = []
        if self.exercise is not None:
            parts.append(f"exercise {self.exercise}")
        if self.question is not None:
            parts.append(f"question {self.question}")
        if key is not None:
            parts.append(f"key '{key}'")
        prefix = ", ".join(parts)
        return InputFileError(self.path, None, f"{prefix}: {problem}" if prefix else problem)


def _problem(where: Where, prefix: str = ""):
    """A ``problem(text, key)`` for the schema's checks: raises the error located at ``where``."""

    def problem(text, key=None):
        raise where.error(text, f"{prefix}{key}" if key is not None and prefix else key)

    return problem


def _long_number_line(text: str) -> int | None:
    """The line of the first run of letters and digits longer than Python converts to an integer."""
    for match in re.finditer(r"[0-9A-Za-z_]+", text):
        if len(match.group()) > sys.get_int_max_str_digits():
            return text.count("\n", 0, match.start()) + 1
    return None


def read_toml(path) -> dict:
    """The TOML of the exercise set at ``path``, read the one guarded way that every reader of a set uses: at most
    MAX_SET_BYTES, UTF-8, and any problem (not TOML, an integer of more digits than Python converts, arrays nested
    deeper than its TOML reader follows) an InputFileError naming the file and, where known, the line."""
    path = Path(path)
    try:
        raw = read_at_most(path, MAX_SET_BYTES, "MAX_SET_BYTES", "an exercise set")
    except FileNotFoundError:
        raise InputFileError(path, None, "no such file") from None
    except IsADirectoryError:
        raise InputFileError(path, None, "is a directory, not an exercise set") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        line = raw[: error.start].count(b"\n") + 1
        raise InputFileError(path, line, f"not UTF-8 text (byte 0x{raw[error.start]:02x}); save the file as UTF-8") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        message = str(error)
        line = None
        if "(at line " in message:
            line = int(message.split("(at line ")[1].split(",")[0])
            message = message.split(" (at line ")[0]
        raise InputFileError(path, line, f"not valid TOML: {message}") from None
    except ValueError:  # an integer of more digits than Python converts (sys.get_int_max_str_digits)
        raise InputFileError(path, _long_number_line(text), "an integer of more than "
                             f"{sys.get_int_max_str_digits():,} digits, Python's limit (no exercise needs one)") from None
    except RecursionError:  # arrays or inline tables nested deeper than Python's TOML reader can follow
        raise InputFileError(path, None, "not a set irlab can read: arrays or inline tables nested too deeply "
                                         "for Python's TOML reader (an exercise set nests a few levels)") from None
    return data


def load(path) -> ExerciseSet:
    """Read and validate an exercise set; every problem raises InputFileError naming file, exercise, question and key.

    Every key is checked against irlab/schema.py (type, range, the solvers that take it) before anything is solved,
    so ``solve``, ``sheet`` and ``grade`` refuse a malformed set alike.
    """
    path = Path(path)
    data = read_toml(path)
    where = Where(path)
    schema.check_table(data, "set", _problem(where))
    schema.check_table(data.get("grading", {}), "grading", _problem(where, "grading."))
    exercises_data = data["exercise"]
    if not isinstance(exercises_data, list) or not exercises_data or not all(isinstance(e, dict) for e in exercises_data):
        raise where.error("the set needs [[exercise]] tables", "exercise")
    exercises, seen = [], set()
    for number, item in enumerate(exercises_data, 1):
        exercise = _load_exercise(item, Where(path, f"#{number}"), path)
        if exercise.id in seen:
            raise Where(path, exercise.id).error("exercise id used twice", "id")
        seen.add(exercise.id)
        exercises.append(exercise)
    return ExerciseSet(path, str(data.get("id", path.stem)), data["title"], str(data.get("source", "")), exercises)


def _load_exercise(item, where, path) -> Exercise:
    exercise_id = item.get("id")
    if "id" not in item:
        raise where.error("missing", "id")
    schema.table_keys("exercise")["id"].check(exercise_id, lambda text: _problem(where)(text, "id"))
    exercise_id = str(exercise_id).strip()
    where = Where(path, exercise_id)
    problem = _problem(where)
    schema.check_table(item, "exercise", problem)
    parameters = item.get("parameters", {})
    schema.check_table(parameters, "parameters", _problem(where, "parameters."))
    _check_parameters(parameters, where)
    stated = item.get("stated", {})
    schema.check_table(stated, "stated", _problem(where, "stated."))
    variants = item.get("variants", {})
    schema.check_variants(variants, problem)
    questions_data = item["question"]
    if not isinstance(questions_data, list) or not questions_data or not all(isinstance(q, dict) for q in questions_data):
        raise where.error("the exercise needs [[exercise.question]] tables", "question")
    available = set(parameters) | set(variants)
    known = _placeholder_names(parameters, variants, stated)
    _check_placeholders(item["statement"], known, where, "statement")
    questions, seen = [], set()
    for number, q in enumerate(questions_data, 1):
        qwhere = Where(path, exercise_id, f"#{number}")
        if "id" not in q:
            raise qwhere.error("missing", "id")
        schema.table_keys("question")["id"].check(q["id"], lambda text: _problem(qwhere)(text, "id"))
        qid = str(q["id"]).strip()
        qwhere = Where(path, exercise_id, qid)
        if qid in seen:
            raise qwhere.error("question id used twice in this exercise", "id")
        seen.add(qid)
        solver = _solver_name(q.get("solver"), qwhere)
        schema.check_table(q, "question", _problem(qwhere), solver=solver)
        _check_inputs(solver, available, qwhere)
        _check_placeholders(q.get("text", ""), known, qwhere, "text")
        for key, value in q.items():
            if schema.names_a_parameter(value) and value[1:-1] not in known:
                raise qwhere.error(f"{value} names no parameter (known: {', '.join(sorted(known))})", key)
        options = {k: v for k, v in q.items() if k not in {"id", "text", "solver"}}
        questions.append(Question(qid, str(q.get("text", "")), q["solver"], options))
    return Exercise(exercise_id, str(item.get("title", f"Exercise {exercise_id}")), item["statement"], dict(parameters),
                    dict(stated), item.get("on_mismatch", "refuse"), questions, dict(variants))


def _solver_name(solver, where: Where) -> str:
    """The solver's canonical name: one of SOLVERS or a metric's name (aliases such as map -> ap)."""
    if solver is None:
        raise where.error("missing", "solver")
    if isinstance(solver, str) and solver in SOLVERS:
        return solver
    if not isinstance(solver, str):
        raise where.error(f"must be text naming a metric or a solver, got {solver!r}", "solver")
    try:
        return get_metric(solver).name
    except IrlabError:
        known = ", ".join(sorted(SOLVERS))
        raise where.error(f"unknown solver {solver!r}: use a metric name (irlab metrics) or one of {known}", "solver") from None


def _check_parameters(parameters: dict, where: Where) -> None:
    """What the schema cannot say key by key: keys that exclude or need each other."""
    if "ranking" in parameters and "rankings" in parameters:
        raise where.error("give either ranking (one query) or rankings (several), not both: the statement would show "
                          "one and the answer use the other", "parameters.rankings")
    several = "rankings" in parameters
    for key in ("relevant", "unretrieved"):
        value = parameters.get(key)
        per_query = isinstance(value, list) and (key == "relevant" or (value and all(isinstance(v, list) for v in value)))
        if per_query and not several and "systems" not in parameters:  # systems: rankings per system and query
            raise where.error("a list of values (one per query) needs parameters.rankings", f"parameters.{key}")
        if several and per_query and len(value) != len(parameters["rankings"]):
            raise where.error(f"gives {len(value)} values for {len(parameters['rankings'])} rankings: one per ranking",
                              f"parameters.{key}")
        if several and key == "unretrieved" and value and not per_query:
            raise where.error(UNRETRIEVED_PER_RANKING, "parameters.unretrieved")


# the inputs each kind of solver reads: (any of these keys, what to say)
_INPUTS = {
    "ranking": ((("ranking",), ("rankings",), ("counts",), ("systems",)),
                "a ranking: parameters.ranking (or rankings for several queries)"),
    "map-bounds": ((("ranking",),), "parameters.ranking (one query; the bounds are per query), with relevant and collection"),
    "f-macro-micro": ((("rankings",), ("ranking",)), "parameters.rankings"),
    "aggregate": ((("judgments", "retrieved"),), "parameters.judgments and parameters.retrieved"),
    "judges": ((("judgments",), ("judge1", "judge2"), ("judges_table",)),
               "parameters.judgments (rows: doc, judge 1, judge 2) or judge1 and judge2"),
    "rankings-of-ids": ((("a", "b"),), "parameters.a and parameters.b, two rankings of the same document ids"),
}


def _check_inputs(solver: str, available: set, where: Where) -> None:
    """The parameters the solver reads are there (kendall needs a and b; map-bounds one ranking, not rankings)."""
    kind = solver if solver in _INPUTS else getattr(REGISTRY.get(solver), "inputs", None)
    if kind not in _INPUTS:
        return  # a solver whose inputs its own module checks
    alternatives, wanted = _INPUTS[kind]
    if not any(all(key in available for key in keys) for keys in alternatives):
        raise where.error(f"{solver} needs {wanted}", "solver")
    if solver == "map-bounds" and "collection" not in available:
        raise where.error("map-bounds needs parameters.collection (N: the system ranks the whole collection)", "solver")


def _placeholder_names(parameters: dict, variants: dict, stated: dict) -> set[str]:
    names = set(parameters) | set(variants) | set(stated)
    if "ranking" in names:
        names |= {"length", "relevant_shown"}
    return names


def _check_placeholders(template, known: set, where: Where, key: str) -> None:
    problem = _problem(where)
    for name in schema.placeholders(template, lambda text: problem(text, key)):
        if name not in known:
            problem(f"the text uses {{{name}}}, which is not a parameter (known: {', '.join(sorted(known))}); "
                    "write {{ and }} for braces that are not placeholders", key)


# consistency -----------------------------------------------------------------------------------

def check_consistency(exercise: Exercise, path) -> tuple[dict, list[Note]]:
    """Compare the statement's stated counts with the data; return the parameters to solve with and notes.

    Every mismatch is named in a warning note together with what was done about it.
    """
    where = Where(path, exercise.id)
    params = dict(exercise.parameters)
    stated = exercise.stated
    notes = []
    mismatches = []
    ranking = params.get("ranking")
    if isinstance(ranking, str):
        letters = Ranking.parse(ranking)
        if "length" in stated and stated["length"] != letters.retrieved:
            mismatches.append(f"the statement says the list has {stated['length']} documents but the data has {letters.retrieved}")
        if "relevant_shown" in stated and stated["relevant_shown"] != letters.relevant_retrieved:
            mismatches.append(f"the statement says the list contains {stated['relevant_shown']} relevant documents but "
                              f"the data has {letters.relevant_retrieved}")
    for key, label in (("relevant", "relevant documents R"), ("collection", "collection size N")):
        if key in stated and key in params and stated[key] != params[key]:
            mismatches.append(f"the statement says {label} = {stated[key]} but the parameters say {params[key]}")
    if not mismatches:
        return params, notes
    found = "; ".join(mismatches)
    action = exercise.on_mismatch
    if action == "refuse":
        raise where.error(f"the statement and the data disagree: {found}. Fix the data, or set on_mismatch to "
                          "'truncate' or 'data' to solve anyway")
    if action == "truncate":
        if "length" not in stated or not isinstance(ranking, str):
            raise where.error(f"the statement and the data disagree ({found}) and on_mismatch = 'truncate' needs a "
                              "stated length and a single ranking")
        if stated["length"] > Ranking.parse(ranking).retrieved:
            raise where.error(f"the statement and the data disagree ({found}); on_mismatch = 'truncate' cannot cut the "
                              f"list to {stated['length']} documents when it has only {Ranking.parse(ranking).retrieved}")
        cut = Ranking.parse(ranking).written()[: stated["length"]]
        shown = cut.count("R") if Ranking.parse(ranking).binary else None
        if "relevant_shown" in stated and shown is not None and shown != stated["relevant_shown"]:
            raise where.error(f"the statement and the data disagree ({found}), and cutting the list to "
                              f"{stated['length']} documents still leaves {shown} relevant, not {stated['relevant_shown']}")
        params["ranking"] = cut
        notes.append(Note("warning", f"Inconsistent exercise: {found}. Solved with the first {stated['length']} "
                                     f"documents, {cut}, which agrees with the statement."))
    else:
        notes.append(Note("warning", f"Inconsistent exercise: {found}. Solved with the data as given."))
    return params, notes


# solving ---------------------------------------------------------------------------------------

def exact_option(value):
    """TOML numbers become exact: 0.33 means 33/100, not the nearest binary float."""
    if isinstance(value, float):
        return Fraction(str(value))
    return value


def judge_columns(params, where):
    """The two judges' 0/1 columns kappa compares: from parameters.judgments (rows: doc, judge 1, judge 2) or
    parameters.judge1 and judge2."""
    if "judgments" in params:
        _, columns = judgments_columns(params["judgments"])
        if len(columns) != 2:
            raise where.error("kappa compares exactly two judges", "parameters.judgments")
        return columns
    if "judge1" in params and "judge2" in params:
        return params["judge1"], params["judge2"]
    raise where.error("kappa needs parameters.judgments (rows: doc, judge 1, judge 2) or judge1/judge2", "parameters")


def _intent_rankings(params, where) -> list:
    """The rankings judged per subtopic of the diversity metrics: parameters.intents (and unretrieved_intents),
    one written form or a list of them, one per query."""
    if "intents" not in params:
        raise where.error("a diversity metric needs parameters.intents, a ranking judged per subtopic such as "
                          "\"1+2 - 2 3 ?\"", "parameters")
    texts, missed = params["intents"], params.get("unretrieved_intents")
    if isinstance(texts, str):
        if isinstance(missed, list):
            raise where.error("a list (one per query) needs parameters.intents to be a list too",
                              "parameters.unretrieved_intents")
        return [IntentRanking.parse(texts, unretrieved=missed)]
    if isinstance(missed, str) and missed.strip():
        raise where.error(f"with {len(texts)} queries in parameters.intents, give one list entry per query (\"\" "
                          "for none), so that each query's unretrieved documents are its own",
                          "parameters.unretrieved_intents")
    missed = missed if isinstance(missed, list) else [None] * len(texts)
    if len(missed) != len(texts):
        raise where.error(f"gives {len(missed)} entries for {len(texts)} queries in parameters.intents: one per query",
                          "parameters.unretrieved_intents")
    return [IntentRanking.parse(text, unretrieved=unretrieved or None) for text, unretrieved in zip(texts, missed)]


def question_inputs(params: dict, question: Question, where: Where) -> tuple[list[Ranking], tuple | None]:
    """The rankings and, for kappa, the two judges' columns a question is computed on (for figures)."""
    rankings = exercise_rankings(params, where) if "ranking" in params or "rankings" in params else []
    judges = judge_columns(params, where) if question.solver == "kappa" else None
    return rankings, judges


def solver_options(question: Question, params: dict, where: Where) -> dict:
    """The question's options as its solver reads them: "{name}" placeholders filled, TOML numbers exact."""
    return {k: exact_option(v) for k, v in _resolve_options(question.options, params, where).items()}


def solve_question(params: dict, question: Question, where: Where):
    """Solve one question; returns a :class:`irlab.solvers.Solution`."""
    options = solver_options(question, params, where)
    extended = solve_extended(question.solver, params, options, where)
    if extended is not None:
        return extended
    if question.solver == "map-bounds":
        (ranking,) = exercise_rankings(params, where)
        solution = map_bounds(ranking)
        wanted = options.get("answer", "bounds")
        picks = {"highest": [0], "lowest": [1], "bounds": [0, 1], "error": [2], "all": [0, 1, 2]}
        if wanted not in picks:
            raise where.error(f"must be one of {', '.join(picks)}", "answer")
        solution.answers = [solution.answers[i] for i in picks[wanted]]
        return solution
    if question.solver == "aggregate":
        if "retrieved" not in params or "judgments" not in params:
            raise where.error("aggregation needs parameters.judgments and parameters.retrieved", "parameters")
        return aggregate_relevance(params["judgments"], params["retrieved"], options.get("rule", "all"))
    if question.solver == "f-macro-micro":
        return f_macro_micro(exercise_rankings(params, where))
    metric = get_metric(question.solver)
    metric_options = {k: options[k] for k in options if k in metric.option_names}
    if metric.inputs == "intents":
        rankings = _intent_rankings(params, where)
        if isinstance(params["intents"], str):
            return Solution([Answer(metric.title, metric.compute(rankings[0], **metric_options))])
        result = intent_mean(metric.name, rankings, **metric_options)
        return Solution([Answer(result.title, result)])
    if metric.inputs == "judges":
        first, second = judge_columns(params, where)
        return Solution([Answer(metric.title, metric.compute(first, second, **metric_options))])
    if metric.inputs == "rankings-of-ids":
        return Solution([Answer(metric.title, metric.compute(params["a"], params["b"], **metric_options))])
    rankings = exercise_rankings(params, where)
    results = [metric.compute(r, **metric_options) for r in rankings]
    if len(results) > 1 and metric.name in READS_SCORES:  # arp, opa: per list or pooled, as TF-Ranking (list_mean)
        result = mean_over_lists(results, metric_options.get("list_mean"))
    else:
        result = results[0] if len(results) == 1 else mean_over_queries(results, metric.averaged_as)
    if len(results) > 1:
        result.notes += mean_notes(metric.name)
    answers = [Answer(result.title, result)]
    if options.get("both_denominators") and metric.name == "ap":
        other_options = {**metric_options, "ap_denominator": "retrieved"}
        others = [metric.compute(r, **other_options) for r in rankings]
        other = others[0] if len(others) == 1 else mean_over_queries(others, metric.averaged_as)
        choice = conv.AP_DENOMINATOR.choice("retrieved")
        answers.append(Answer(f"Alternative reading: divide by {choice.summary}", other, primary=False))
    return Solution(answers)


def exercise_values(exercise: Exercise, params: dict) -> dict:
    """The values a statement or question text may name: the parameters, and length/relevant_shown (what the
    statement claims in [exercise.stated], else counted from the data)."""
    values = {key: _shown_parameter(key, value) for key, value in params.items()}
    written = exercise.parameters.get("ranking")
    if isinstance(written, (str, list)):  # an R/N string or a list of grades
        shown = parse_ranking(written, {k: params[k] for k in ("threshold",) if k in params})
        values.setdefault("length", shown.retrieved)
        values.setdefault("relevant_shown", shown.relevant_retrieved)
        if isinstance(written, str):
            values["ranking"] = written
    values.update(exercise.stated)
    return values


def _shown_parameter(key: str, value):
    """A parameter as a statement prints it: a list as '3, 2, 0', several rankings as 'RNR and NRR', counts as
    'tp = 20, fp = 40, fn = 60, tn = 880' (queries separated by ';'), systems and runs as 'A: …; B: …'. Never more
    than twice the characters of the value's repr (the drawing checks a draw's statement by that bound)."""
    if key == "counts":
        tables = value if isinstance(value, list) else [value]
        return "; ".join(", ".join(f"{name} = {count}" for name, count in table.items()) for table in tables)
    if key == "rankings":
        return " and ".join(str(ranking) for ranking in value)
    if isinstance(value, dict):  # systems (rankings or scores per system), runs (ids per run)
        def entry(item):  # a system's rankings are joined like {rankings}, its scores like any list
            return _shown_parameter("rankings" if key == "systems" and _rankings_of(item) else key, item)

        return "; ".join(f"{name}: {entry(item)}" for name, item in value.items())
    if isinstance(value, list):
        return ", ".join(map(str, value))
    return value


def _rankings_of(entry) -> bool:
    """A system's entry is its rankings (one per query: R/N strings or lists of grades), not its per-topic scores."""
    return isinstance(entry, list) and all(isinstance(item, (str, list)) for item in entry)


def _fill(template: str, values: dict, where: Where, key: str) -> str:
    return schema.fill(template.strip(), values, lambda text: _problem(where)(text, key))


def statement_text(exercise: Exercise, params: dict, path) -> str:
    """The statement with its placeholders ({ranking}, {relevant}, {length}, …) filled."""
    where = Where(path, exercise.id)
    return _fill(exercise.statement, _in_context(where, exercise_values, exercise, params), where, "statement")


def question_text(exercise: Exercise, question: Question, path) -> str:
    """The question's text with the same placeholders as the statement ("the first {length} results")."""
    where = Where(path, exercise.id, question.id)
    return _fill(question.text, exercise_values(exercise, exercise.parameters), where, "text")


def _option_values(params: dict) -> dict:
    """What an option written as "{name}" may refer to: the parameters and the counts of the data itself."""
    values = dict(params)
    if isinstance(params.get("ranking"), (str, list)):
        data = parse_ranking(params["ranking"], {})
        values.update(length=data.retrieved, relevant_shown=data.relevant_retrieved)
    return values


def resolve_question(question: Question, params: dict, where: Where | None = None) -> Question:
    """The question with its "{name}" options replaced by the parameters' values (k = "{length}" -> k = 20)."""
    return copied(question, options=_resolve_options(question.options, params, where or Where("exercise")))


def copied(record, **changes):
    """``dataclasses.replace(record, **changes)`` without its per-field bookkeeping, which costs more than the copy
    (a Question, Exercise or ExerciseSet has no __post_init__ or init=False field for it to honour): for every
    question resolved and every variant drawn."""
    return type(record)(**{**vars(record), **changes})


def _resolve_options(options: dict, params: dict, where: Where) -> dict:
    """Options written "{name}" (e.g. k = "{length}") take that parameter's value, so variants can change them."""
    resolved = {}
    for key, value in options.items():
        if schema.names_a_parameter(value):
            name = value[1:-1]
            values = _option_values(params)
            if name not in values:
                raise where.error(f"{value} names no parameter (known: {', '.join(sorted(values))})", key)
            value = values[name]
        resolved[key] = value
    return resolved


def _in_context(where: Where, work, *args):
    """Run ``work``; an input problem it finds is re-raised naming the file, exercise and question."""
    try:
        return work(*args)
    except InputFileError:
        raise
    except IrlabError as error:
        raise where.error(str(error)) from None


def exercise_title(exercise: Exercise) -> str:
    default = f"Exercise {exercise.id}"
    return f"{default}: {exercise.title}" if exercise.title != default else default


def statement_blocks(exercise: Exercise, path) -> list:
    """The statement as paragraphs, followed by the judges' table when the statement does not print it itself
    (statement blocks: an answers-only key keeps them)."""
    statement = _in_context(Where(path, exercise.id), statement_text, exercise, exercise.parameters, path)
    blocks = [StatementParagraph(part.strip()) for part in statement.split("\n\n") if part.strip()]
    table = exercise.parameters.get("judgments")
    if isinstance(table, list) and table and "{judgments}" not in exercise.statement:
        columns = ("document", *(f"judge {i}" for i in range(1, len(table[0]))))
        blocks.append(StatementTable(columns, tuple(tuple(row) for row in table),
                                     "Relevance judgments (0 = non-relevant, 1 = relevant)"))
    return blocks


def solve_exercise(exercise: Exercise, path, decorate=None, solve=solve_question) -> Section:
    """The exercise solved question by question.

    ``decorate(params, question, where, section)``, if given, may return the question's section with more in it
    (printable solutions add figures this way); ``params`` are the parameters the question was solved with.
    ``solve``: :func:`solve_question` or one that remembers its solutions (a variant's, solved when it was drawn).
    """
    where = Where(path, exercise.id)
    params, notes = _in_context(where, check_consistency, exercise, path)
    blocks = statement_blocks(exercise, path) + notes
    sections = []
    for question in exercise.questions:
        where = Where(path, exercise.id, question.id)
        solution = _in_context(where, solve, params, question, where)
        section = _question_section(exercise, question, solution, path)
        sections.append(decorate(params, question, where, section) if decorate else section)
    # one rank table per exercise, not one per question; with several queries it is the first query's
    caption = ("Rank table of query q1 (the questions refer to it)" if "rankings" in params
               else "Rank table (every question of this exercise refers to it)")
    shared, sections = gather_rank_tables(sections, caption, "Query q1's" if "rankings" in params else "The")
    if shared is not None and shared.columns[0] == "document":
        blocks, shared = _judgments_with_columns(blocks, shared)
    blocks += ([shared] if shared else []) + sections
    return Section(exercise_title(exercise), tuple(blocks), {"exercise": exercise.id})


def _question_section(exercise, question, solution, path) -> Section:
    blocks = list(solution.notes)
    if len(solution.answers) == 1:
        blocks += solution.answers[0].result.blocks()[:-1]  # the closing Answer block is replaced below
    else:
        blocks += _answer_sections(solution.answers)
    blocks = _queries_as_table([_without_results(block) if isinstance(block, Section) else block for block in blocks])
    answers = []
    for answer in solution.answers:
        label = "Answer" if answer.primary and len(solution.primary) == 1 else answer.label
        blocks.append(AnswerBlock.of(label, answer.result.traced, answer.result.symbol))
        answers.append({"label": answer.label, "primary": answer.primary, "symbol": answer.result.symbol,
                        "value": exact.exact_text(answer.value), "decimal": exact.to_float(answer.value)})
    if not solution.answers:  # a free-text question: the model answer is in the notes, nothing to compute
        meta = {"exercise": exercise.id, "question": question.id, "answers": [], "free_text": True}
        if solution.choice is not None:  # a choice question: its right options, graded by letter
            meta["correct"] = sorted(solution.choice)
    else:
        first = solution.primary[0] if solution.primary else solution.answers[0]
        meta = {**first.result.meta(), "exercise": exercise.id, "question": question.id, "answers": answers}
    text = question_text(exercise, question, path)
    title = f"{question.id}) {text}" if text else f"{question.id})"
    return Section(title, tuple(blocks), meta)


def _judgments_with_columns(blocks: list, shared: Table):
    """The statement's judgments table with the questions' columns added (relevant under each rule, retrieved), so
    the judgments are printed once; the shared table alone when the statement shows other judgments."""
    width = shared.columns.index([c for c in shared.columns if c.startswith("judge ")][-1]) + 1
    for position, block in enumerate(blocks):
        if (isinstance(block, Table) and block.columns == shared.columns[:width]
                and {tuple(map(str, row)) for row in block.rows} == {tuple(map(str, row[:width])) for row in shared.rows}):
            caption = f"{block.caption}, each rule's verdict and the retrieved set"
            merged = StatementTable(shared.columns, shared.rows, caption, given=block)
            return blocks[:position] + [merged] + blocks[position + 1:], None
    return blocks, Table(shared.columns, shared.rows, "Judgments (every question of this exercise refers to them)")


def _without_results(section: Section) -> Section:
    """A part of a question (one query of a mean) without its closing 'Result' line: its last step ends with the
    same value, and the question's answer follows."""
    blocks = [_without_results(b) if isinstance(b, Section) else b for b in section.blocks
              if not (isinstance(b, AnswerBlock) and b.label == "Result")]
    return Section(section.title, tuple(blocks), section.meta)


def _queries_as_table(blocks: list) -> list:
    """A mean over queries whose queries are worked the same way: one table with a row per query and a column per
    step (hits, n, P, R, Rec, F1 or S, R, AP) in place of a section per query; the formula and the first query's
    conventions are stated above it, and a query's own rank table is kept, captioned with the query."""
    out = [(_queries_as_table(list(b.blocks)) and Section(b.title, tuple(_queries_as_table(list(b.blocks))), b.meta))
           if isinstance(b, Section) else b for b in blocks]
    for position, table in enumerate(out):
        if not (isinstance(table, Table) and table.caption == "Per query" and table.columns[0] == "query"):
            continue
        labels = [row[0] for row in table.rows]
        parts = [next((b for b in out if isinstance(b, Section) and b.title.startswith(f"Query {label}: ")), None)
                 for label in labels]
        if any(part is None for part in parts):
            continue
        steps = [[b for b in part.blocks if isinstance(b, Steps)] for part in parts]
        if any(len(found) != 1 for found in steps):
            continue
        symbols = [tuple(step.symbol for step in found[0].steps) for found in steps]
        if len(set(symbols)) != 1:
            continue
        kept = []  # what a query shows besides its steps: its rank table, a pointer to the shared one
        for label, part in zip(labels, parts):
            for block in part.blocks:
                if isinstance(block, Table):
                    kept.append(Table(block.columns, block.rows, block.caption or f"Rank table of query {label}"))
                elif isinstance(block, (Paragraph, Note)) and not (isinstance(block, Paragraph) and block.text.startswith("Ranking ")):
                    kept.append(block)
        rows = tuple((label, *(step.value for step in found[0].steps)) for label, found in zip(labels, steps))
        merged = Table(("query", *symbols[0]), rows, "Per query (one column per step)")
        out = [b for b in out[:position] if not any(b is part for part in parts)] + kept + [merged] + \
              [b for b in out[position + 1:] if not any(b is part for part in parts)]
        break
    return out


def _stated_once(exercises: list[Section]) -> list[Section]:
    """Exercises in which a formula or convention an earlier exercise of the set already stated is not repeated:
    a solution introduces each definition once, as a textbook chapter does."""
    seen = set()

    def walk(blocks):
        out = []
        for block in blocks:
            if isinstance(block, Section):
                block = Section(block.title, tuple(walk(block.blocks)), block.meta)
            elif isinstance(block, Formula) or (isinstance(block, Note) and block.kind == "convention"):
                if block in seen:
                    continue
                seen.add(block)
            out.append(block)
        return out

    return walk(exercises)


def _answer_sections(answers) -> list[Section]:
    """One section per answer of a question, each ending with its last step: the answers are listed after them.

    The answers of one question are computed on the same data, so a step an earlier answer already showed (the
    sum S of the precisions, P and Rec before F) is not shown again; the later answer uses it by its symbol.
    """
    seen, sections = set(), []
    for answer in answers:
        blocks = []
        for block in answer.result.blocks()[:-1]:  # the closing Result is listed with the question's answers
            if isinstance(block, Steps):
                fresh = tuple(step for step in block.steps if _step_key(step) not in seen)
                seen.update(_step_key(step) for step in block.steps)
                if not fresh:
                    continue
                block = Steps(fresh)
            blocks.append(block)
        sections.append(Section(answer.label, tuple(blocks), answer.result.meta()))
    return sections


def _step_key(step):
    # the value itself, not its text: an exact value may have more digits than str() of an int allows
    return step.symbol, step.formula_text, step.substitution_text, step.value


def solve(path, exercise_id: str | None = None, decorate=None) -> Document:
    """Solve a whole exercise set (or one exercise) into a document with every step (see :func:`solve_exercise`)."""
    exercise_set = load(path)
    exercises = [exercise_set.exercise(exercise_id)] if exercise_id else exercise_set.exercises
    blocks = [Paragraph(exercise_set.source)] if exercise_set.source else []
    blocks += _stated_once([solve_exercise(exercise, exercise_set.path, decorate) for exercise in exercises])
    return Document(exercise_set.title, blocks, {"set": exercise_set.id, "file": str(exercise_set.path)})
