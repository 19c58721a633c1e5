"""Exercise sets as data: TOML files in ``exercises/`` read, checked and solved step by step.

A set has a title and exercises; an exercise has an id, a statement template, its parameters, the counts
its statement claims (``[exercise.stated]``, checked against the data) and questions; a question names a
metric or a solver and its options. See ``exercises/README.md`` for the format.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path

from . import conventions as conv
from .document import Answer as AnswerBlock
from .document import Document, Note, Paragraph, Section, Table
from .errors import InputFileError, IrlabError
from .ranking import Ranking

SET_KEYS = {"id", "title", "source", "description", "exercise", "grading"}
EXERCISE_KEYS = {"id", "title", "statement", "parameters", "stated", "on_mismatch", "question", "variants"}
PARAMETER_KEYS = {"ranking", "rankings", "relevant", "unretrieved", "collection", "threshold", "judgments",
                  "retrieved", "judge1", "judge2", "a", "b",
                  "counts", "judges_table", "judges", "systems"}  # read by irlab/solvers/extended.py
STATED_KEYS = {"length", "relevant_shown", "relevant", "collection"}
QUESTION_KEYS = {"id", "text", "solver", "answer", "both_denominators", "rule", "tolerance", "decimals", "form",
                 "mistake_credit", "abs_tolerance", "accept_rounded", "min_decimals", "near_tolerance", "rounding_credit"}
MISMATCH_ACTIONS = {
    "refuse": "refuse to solve",
    "truncate": "solve with the list cut to the stated length",
    "data": "solve with the data as given",
}
SOLVERS = {
    "map-bounds": "highest/lowest possible AP of a full ranking whose top is known (answer = highest|lowest|bounds|error)",
    "aggregate": "relevance aggregated over judges (rule = all|any|majority), then precision, recall, F",
    "f-macro-micro": "F-measure over several queries, macro and micro averaged",
    "pr-averages": "precision, recall and F over several queries (counts or rankings), micro and macro averaged; "
                   "macro F both as F(macro P, macro R) and as the mean of the per-query F",
    "compare-systems": "a metric (option metric, default ap) of every system in parameters.systems, and the "
                       "difference of the first two",
}
SOLVER_OPTIONS = {"compare-systems": {"metric", "k", "beta"}}  # options of a solver beyond QUESTION_KEYS


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


@dataclass
class ExerciseSet:
    path: Path
    id: str
    title: str
    source: str
    exercises: list[Exercise]

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


def _check_keys(table, allowed, where: Where, what: str):
    if not isinstance(table, dict):
        raise where.error(f"{what} must be a table")
    for key in table:
        if key not in allowed:
            raise where.error(f"unknown key in {what} (allowed: {', '.join(sorted(allowed))})", key)


def _require(table, key, kind, where: Where):
    if key not in table:
        raise where.error("missing", key)
    value = table[key]
    if not isinstance(value, kind):
        raise where.error(f"must be {kind.__name__ if isinstance(kind, type) else 'text'}, got {value!r}", key)
    return value


def load(path) -> ExerciseSet:
    """Read and validate an exercise set; every problem raises InputFileError naming file, exercise and key."""
    path = Path(path)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise InputFileError(path, None, "no such file") from None
    except tomllib.TOMLDecodeError as error:
        message = str(error)
        line = None
        if "(at line " in message:
            line = int(message.split("(at line ")[1].split(",")[0])
            message = message.split(" (at line ")[0]
        raise InputFileError(path, line, f"not valid TOML: {message}") from None
    where = Where(path)
    _check_keys(data, SET_KEYS, where, "the set")
    title = _require(data, "title", str, where)
    exercises_data = data.get("exercise")
    if not isinstance(exercises_data, list) or not exercises_data:
        raise where.error("the set has no [[exercise]] tables", "exercise")
    exercises, seen = [], set()
    for number, item in enumerate(exercises_data, 1):
        exercise = _load_exercise(item, Where(path, f"#{number}"), path)
        if exercise.id in seen:
            raise Where(path, exercise.id).error("exercise id used twice", "id")
        seen.add(exercise.id)
        exercises.append(exercise)
    return ExerciseSet(path, str(data.get("id", path.stem)), title, str(data.get("source", "")), exercises)


def _load_exercise(item, where, path) -> Exercise:
    if not isinstance(item, dict):
        raise where.error("must be a table")
    exercise_id = str(_require(item, "id", (str, int), where))
    where = Where(path, exercise_id)
    _check_keys(item, EXERCISE_KEYS, where, "the exercise")
    statement = _require(item, "statement", str, where)
    parameters = item.get("parameters", {})
    _check_keys(parameters, PARAMETER_KEYS, where, "[exercise.parameters]")
    stated = item.get("stated", {})
    _check_keys(stated, STATED_KEYS, where, "[exercise.stated]")
    for key, value in stated.items():
        if isinstance(value, bool) or not isinstance(value, int):
            raise where.error(f"stated counts are integers, got {value!r}", f"stated.{key}")
    on_mismatch = item.get("on_mismatch", "refuse")
    if on_mismatch not in MISMATCH_ACTIONS:
        raise where.error(f"must be one of {', '.join(MISMATCH_ACTIONS)}, got {on_mismatch!r}", "on_mismatch")
    questions_data = item.get("question")
    if not isinstance(questions_data, list) or not questions_data:
        raise where.error("the exercise has no [[exercise.question]] tables", "question")
    questions = []
    for number, q in enumerate(questions_data, 1):
        qwhere = Where(path, exercise_id, f"#{number}")
        if not isinstance(q, dict):
            raise qwhere.error("must be a table")
        qid = str(_require(q, "id", (str, int), qwhere))
        qwhere = Where(path, exercise_id, qid)
        solver = _require(q, "solver", str, qwhere)
        allowed = QUESTION_KEYS | _solver_options(solver, qwhere)
        _check_keys(q, allowed, qwhere, "the question")
        options = {k: v for k, v in q.items() if k not in {"id", "text", "solver"}}
        questions.append(Question(qid, str(q.get("text", "")), solver, options))
    return Exercise(exercise_id, str(item.get("title", f"Exercise {exercise_id}")), statement, dict(parameters),
                    dict(stated), on_mismatch, questions, dict(item.get("variants", {})))


def _solver_options(solver: str, where: Where) -> set[str]:
    from .metrics import get_metric

    if solver in SOLVERS:
        return SOLVER_OPTIONS.get(solver, set())
    try:
        metric = get_metric(solver)
    except IrlabError:
        known = ", ".join(sorted(SOLVERS))
        raise where.error(f"unknown solver {solver!r}: use a metric name (irlab metrics) or one of {known}", "solver") from None
    extra = {"metric"} if metric.inputs == "paired-values" else set()  # the per-query metric of systems' rankings
    return {p.name for p in metric.parameters} | {c.name for c in metric.conventions} | extra


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

def _exact_option(value):
    """TOML numbers become exact: 0.33 means 33/100, not the nearest binary float."""
    if isinstance(value, float):
        return Fraction(str(value))
    return value


def _ranking_known(params) -> dict:
    return {key: params[key] for key in ("collection", "threshold") if key in params}


def _rankings(params, where: Where) -> list[Ranking]:
    """The exercise's ranking(s) with what is known about them (R per query for several rankings)."""
    if "rankings" in params:
        texts = params["rankings"]
        relevant = params.get("relevant")
        relevant = relevant if isinstance(relevant, list) else [relevant] * len(texts)
        unretrieved = params.get("unretrieved") or [()] * len(texts)
        if len(relevant) != len(texts) or len(unretrieved) != len(texts):
            raise where.error(f"give one value per ranking ({len(texts)} rankings)", "relevant")
        return [_parse_ranking(t, {"relevant": r, "unretrieved": tuple(u), **_ranking_known(params)})
                for t, r, u in zip(texts, relevant, unretrieved)]
    if "ranking" not in params:
        raise where.error("this question needs a ranking (parameters.ranking or parameters.rankings)", "parameters.ranking")
    known = {"relevant": params.get("relevant"), "unretrieved": tuple(params.get("unretrieved", ())), **_ranking_known(params)}
    return [_parse_ranking(params["ranking"], known)]


def _parse_ranking(text, known):
    if isinstance(text, list):
        return Ranking.from_grades(text, **known)
    return Ranking.parse(str(text), **known)


def _judge_columns(params, where):
    from .solvers import judgments_columns

    if "judgments" in params:
        _, columns = judgments_columns(params["judgments"])
        if len(columns) != 2:
            raise where.error("kappa compares exactly two judges", "parameters.judgments")
        return columns
    if "judge1" in params and "judge2" in params:
        return params["judge1"], params["judge2"]
    raise where.error("kappa needs parameters.judgments (rows: doc, judge 1, judge 2) or judge1/judge2", "parameters")


def question_inputs(params: dict, question: Question, where: Where) -> tuple[list[Ranking], tuple | None]:
    """The rankings and, for kappa, the two judges' columns a question is computed on (for figures)."""
    rankings = _rankings(params, where) if "ranking" in params or "rankings" in params else []
    judges = _judge_columns(params, where) if question.solver == "kappa" else None
    return rankings, judges


def solve_question(params: dict, question: Question, where: Where):
    """Solve one question; returns a :class:`irlab.solvers.Solution`."""
    from .metrics import get_metric, mean_over_queries
    from .solvers import Answer, Solution, aggregate_relevance, f_macro_micro, map_bounds

    options = {k: _exact_option(v) for k, v in _resolve_options(question.options, params, where).items()}
    from .solvers.extended import solve_extended

    extended = solve_extended(question.solver, params, options, where)
    if extended is not None:
        return extended
    if question.solver == "map-bounds":
        (ranking,) = _rankings(params, where)
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
        return f_macro_micro(_rankings(params, where))
    metric = get_metric(question.solver)
    metric_options = {k: options[k] for k in options if k in {p.name for p in metric.parameters} | {c.name for c in metric.conventions}}
    if metric.inputs == "judges":
        first, second = _judge_columns(params, where)
        return Solution([Answer(metric.title, metric.compute(first, second, **metric_options))])
    if metric.inputs == "rankings-of-ids":
        return Solution([Answer(metric.title, metric.compute(params["a"], params["b"], **metric_options))])
    rankings = _rankings(params, where)
    results = [metric.compute(r, **metric_options) for r in rankings]
    result = results[0] if len(results) == 1 else mean_over_queries(results, metric.averaged_as)
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
    values = {key: (", ".join(map(str, v)) if isinstance(v, list) and key != "rankings" else v) for key, v in params.items()}
    if "rankings" in params:
        values["rankings"] = " and ".join(str(r) for r in params["rankings"])
    written = exercise.parameters.get("ranking")
    if isinstance(written, (str, list)):  # an R/N string or a list of grades
        shown = _parse_ranking(written, {k: params[k] for k in ("threshold",) if k in params})
        values.setdefault("length", shown.retrieved)
        values.setdefault("relevant_shown", shown.relevant_retrieved)
        if isinstance(written, str):
            values["ranking"] = written
    values.update(exercise.stated)
    return values


def _fill(template: str, values: dict, where: Where, key: str) -> str:
    try:
        return template.strip().format_map(values)
    except KeyError as missing:
        raise where.error(f"the text uses {{{missing.args[0]}}}, which is not a parameter", key) from None
    except (ValueError, IndexError) as error:
        raise where.error(f"the text template is malformed: {error}", key) from None


def statement_text(exercise: Exercise, params: dict, path) -> str:
    """The statement with its placeholders ({ranking}, {relevant}, {length}, …) filled."""
    return _fill(exercise.statement, exercise_values(exercise, params), Where(path, exercise.id), "statement")


def question_text(exercise: Exercise, question: Question, path) -> str:
    """The question's text with the same placeholders as the statement ("the first {length} results")."""
    where = Where(path, exercise.id, question.id)
    return _fill(question.text, exercise_values(exercise, exercise.parameters), where, "text")


def _option_values(params: dict) -> dict:
    """What an option written as "{name}" may refer to: the parameters and the counts of the data itself."""
    values = dict(params)
    if isinstance(params.get("ranking"), (str, list)):
        data = _parse_ranking(params["ranking"], {})
        values.update(length=data.retrieved, relevant_shown=data.relevant_retrieved)
    return values


def resolve_question(question: Question, params: dict, where: Where | None = None) -> Question:
    """The question with its "{name}" options replaced by the parameters' values (k = "{length}" -> k = 20)."""
    from dataclasses import replace

    return replace(question, options=_resolve_options(question.options, params, where or Where("exercise")))


def _resolve_options(options: dict, params: dict, where: Where) -> dict:
    """Options written "{name}" (e.g. k = "{length}") take that parameter's value, so variants can change them."""
    resolved = {}
    for key, value in options.items():
        if isinstance(value, str) and value.startswith("{") and value.endswith("}"):
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
    """The statement as paragraphs, followed by the judges' table when the statement does not print it itself."""
    statement = _in_context(Where(path, exercise.id), statement_text, exercise, exercise.parameters, path)
    blocks = [Paragraph(part.strip()) for part in statement.split("\n\n") if part.strip()]
    table = exercise.parameters.get("judgments")
    if isinstance(table, list) and table and "{judgments}" not in exercise.statement:
        columns = ("document", *(f"judge {i}" for i in range(1, len(table[0]))))
        blocks.append(Table(columns, tuple(tuple(row) for row in table), "Relevance judgments (0 = non-relevant, 1 = relevant)"))
    return blocks


def solve_exercise(exercise: Exercise, path, decorate=None) -> Section:
    """The exercise solved question by question.

    ``decorate(params, question, where, section)``, if given, may return the question's section with more in it
    (printable solutions add figures this way); ``params`` are the parameters the question was solved with.
    """
    where = Where(path, exercise.id)
    params, notes = _in_context(where, check_consistency, exercise, path)
    blocks = statement_blocks(exercise, path) + notes
    for question in exercise.questions:
        where = Where(path, exercise.id, question.id)
        solution = _in_context(where, solve_question, params, question, where)
        section = _question_section(exercise, question, solution, path)
        blocks.append(decorate(params, question, where, section) if decorate else section)
    return Section(exercise_title(exercise), tuple(blocks), {"exercise": exercise.id})


def _question_section(exercise, question, solution, path) -> Section:
    from . import exact

    blocks = list(solution.notes)
    if len(solution.answers) == 1:
        blocks += solution.answers[0].result.blocks()[:-1]  # the closing Answer block is replaced below
    else:
        blocks += [answer.result.section(answer.label) for answer in solution.answers]
    answers = []
    for answer in solution.answers:
        label = "Answer" if answer.primary and len(solution.primary) == 1 else answer.label
        blocks.append(AnswerBlock(label, answer.result.symbol, answer.value))
        answers.append({"label": answer.label, "primary": answer.primary, "symbol": answer.result.symbol,
                        "value": exact.exact_text(answer.value), "decimal": exact.to_float(answer.value)})
    first = solution.primary[0] if solution.primary else solution.answers[0]
    meta = {**first.result.meta(), "exercise": exercise.id, "question": question.id, "answers": answers}
    text = question_text(exercise, question, path)
    title = f"{question.id}) {text}" if text else f"{question.id})"
    return Section(title, tuple(blocks), meta)


def solve(path, exercise_id: str | None = None, decorate=None) -> Document:
    """Solve a whole exercise set (or one exercise) into a document with every step (see :func:`solve_exercise`)."""
    exercise_set = load(path)
    exercises = [exercise_set.exercise(exercise_id)] if exercise_id else exercise_set.exercises
    blocks = [Paragraph(exercise_set.source)] if exercise_set.source else []
    blocks += [solve_exercise(exercise, exercise_set.path, decorate) for exercise in exercises]
    return Document(exercise_set.title, blocks, {"set": exercise_set.id, "file": str(exercise_set.path)})
