"""Personal variants of an exercise set: new parameters per student, drawn from ranges the exercise declares.

An exercise opts in with an ``[exercise.variants]`` table (format in ``exercises/README.md``)::

    [exercise.variants]
    ranking = { length = [15, 20], relevant = [4, 7] }   # an R/N list: its length and number of R's
    relevant = [6, 10]                                   # R, drawn in [6, 10]
    collection = { choose = [1000, 10000] }              # N, one of these values

The same set, exercise, student and seed always give the same variant: the random generator is seeded with
the SHA-256 of those four texts (the student id normalised: ``Alice`` and ``alice`` get the same sheet) (never Python's ``hash()``, which changes between runs). A draw is issued only
when it is consistent — R at least the relevant documents shown, N at least the list plus the relevant
documents missing from it, and every question of the exercise solvable — and worth solving: no computed answer
0 or 1 and none within the tolerance of a named mistake (:mod:`irlab.homework.degenerate`; a question opts out
with ``allow_degenerate = true``); otherwise the next attempt number is mixed into the seed, so the retry is just
as deterministic. The issued exercise's ``refused_draws`` says why each earlier draw was refused.

The sheets and answer keys of a variant are :mod:`irlab.homework.variants`; this module draws the variant, and
the answer key (:mod:`irlab.homework.key`) and the diagnosis of mistakes build on it.
"""

from __future__ import annotations

import hashlib
import random
import weakref
from collections import OrderedDict
from functools import lru_cache, partial
from pathlib import Path

from .. import limits
from ..errors import IrlabError
from ..exercise_set import (Exercise, ExerciseSet, Where, check_consistency, copied, load, solve_question,
                            statement_text)
from ..limits import MAX_VARIANT_DRAWS
from ..ranking import Ranking, remembered
from ..schema import placeholders
from .degenerate import OPT_OUT, degenerate_reason, draw_keys
from .identity import normalise_student
from .key_build import file_stamp, grading_defaults_cached
from .screening import screen

MAX_ATTEMPTS = MAX_VARIANT_DRAWS  # the name the package has always offered (irlab.homework.variants)
SCALAR_KEYS = {"relevant", "collection", "threshold"}
RANKING_KEYS = {"length", "relevant", "grades", "count"}
VARIANT_KEYS = {"ranking", "rankings", "unretrieved", "judgments", "retrieved"} | SCALAR_KEYS


# drawing ---------------------------------------------------------------------------------------

def variant_rng(set_id: str, exercise_id: str, student: str, seed, attempt: int = 0) -> random.Random:
    """A random generator that depends only on the set, the exercise, the student, the seed and the attempt."""
    text = "\x1f".join([str(set_id), str(exercise_id), str(student), "" if seed is None else str(seed), str(attempt)])
    digest = hashlib.sha256(text.encode("utf-8")).digest()
    return random.Random(int.from_bytes(digest[:16], "big"))


def _range(value, where: Where, key: str) -> tuple[int, int]:
    if isinstance(value, int) and not isinstance(value, bool):
        return value, value
    if (isinstance(value, list) and len(value) == 2 and all(isinstance(v, int) and not isinstance(v, bool) for v in value)
            and value[0] <= value[1]):
        return value[0], value[1]
    raise where.error(f"must be an integer or a range [low, high] of integers with low <= high, got {value!r}",
                      f"variants.{key}")


# rng.randint(low, high) is low + rng._randbelow(high - low + 1) (random.py's randrange, Python 3.2 on): a draw's
# grades and judgments are a few dozen integers each, drawn here without randint's two layers of checks, the same
# numbers from the same generator (low <= high holds: _range checks it).
def _scalar(rng: random.Random, value, where: Where, key: str) -> int:
    if isinstance(value, dict):
        if set(value) != {"choose"} or not isinstance(value["choose"], list) or not value["choose"]:
            raise where.error("a choice is written { choose = [v1, v2, ...] }", f"variants.{key}")
        return rng.choice(value["choose"])
    low, high = _range(value, where, key)
    return low + rng._randbelow(high - low + 1)


def _table(value, allowed: set[str], where: Where, key: str) -> dict:
    if not isinstance(value, dict):
        raise where.error(f"must be a table such as {{ length = [5, 8], relevant = [2, 4] }}, got {value!r}",
                          f"variants.{key}")
    for name in value:
        if name not in allowed:
            raise where.error(f"unknown key {name!r} (allowed: {', '.join(sorted(allowed))})", f"variants.{key}")
    return value


def _ranking(rng, spec, where, key):
    """An R/N string (``relevant`` = number of R's) or a list of grades (``grades`` = [low, high])."""
    spec = _table(spec, RANKING_KEYS, where, key)
    if "length" not in spec:
        raise where.error("give the list length, e.g. length = [15, 20]", f"variants.{key}")
    length = _scalar(rng, spec["length"], where, f"{key}.length")
    if length < 1:
        raise where.error("the list length must be at least 1", f"variants.{key}.length")
    if "grades" in spec:
        low, high = _range(spec["grades"], where, f"{key}.grades")
        below, width = rng._randbelow, high - low + 1
        return [low + below(width) for _ in range(length)]
    shown = _scalar(rng, spec.get("relevant", [0, length]), where, f"{key}.relevant")
    shown = max(0, min(shown, length))
    positions = set(rng.sample(range(length), shown))
    return "".join("R" if i in positions else "N" for i in range(length))


def _judgments(rng, spec, where, key):
    spec = _table(spec, {"documents", "judges"}, where, key)
    documents = _scalar(rng, spec.get("documents", [10, 14]), where, f"{key}.documents")
    judges = _scalar(rng, spec.get("judges", 2), where, f"{key}.judges")
    below = rng._randbelow  # randint(0, 1): row by row, judge by judge
    return [[doc, *[below(2) for _ in range(judges)]] for doc in range(1, documents + 1)]


def draw_parameters(exercise: Exercise, rng: random.Random, path) -> dict:
    """New parameters for ``exercise``: its own, with every key of ``[exercise.variants]`` drawn anew."""
    where = Where(path, exercise.id)
    spec = exercise.variants
    for key in spec:
        if key not in VARIANT_KEYS:
            raise where.error(f"unknown key in [exercise.variants] (allowed: {', '.join(sorted(VARIANT_KEYS))})",
                              f"variants.{key}")
    params = dict(exercise.parameters)
    if "ranking" in spec:
        params["ranking"] = _ranking(rng, spec["ranking"], where, "ranking")
    if "rankings" in spec:
        rspec = _table(spec["rankings"], RANKING_KEYS, where, "rankings")
        count = _scalar(rng, rspec.get("count", len(exercise.parameters.get("rankings", [])) or 2), where, "rankings.count")
        single = {k: v for k, v in rspec.items() if k != "count"}
        params["rankings"] = [_ranking(rng, single, where, "rankings") for _ in range(count)]
    if "unretrieved" in spec:
        uspec = _table(spec["unretrieved"], {"length", "grades"}, where, "unretrieved")
        length = _scalar(rng, uspec.get("length", [0, 3]), where, "unretrieved.length")
        low, high = _range(uspec.get("grades", [0, 1]), where, "unretrieved.grades")
        below, width = rng._randbelow, high - low + 1
        params["unretrieved"] = [low + below(width) for _ in range(length)]
        if "rankings" in params:
            params["unretrieved"] = [[low + below(width) for _ in range(length)] for _ in params["rankings"]]
    for key in ("relevant", "collection", "threshold"):
        if key not in spec:
            continue
        value = spec[key]
        if isinstance(value, list) and value and all(isinstance(v, (list, dict)) for v in value):
            params[key] = [_scalar(rng, v, where, f"{key}[{i}]") for i, v in enumerate(value)]  # one per query
        else:
            params[key] = _scalar(rng, value, where, key)
    if "judgments" in spec:
        params["judgments"] = _judgments(rng, spec["judgments"], where, "judgments")
    if "retrieved" in spec:
        rspec = _table(spec["retrieved"], {"count"}, where, "retrieved")
        documents = [row[0] for row in params.get("judgments", [])]
        if not documents:
            raise where.error("drawing a retrieved set needs parameters.judgments", "variants.retrieved")
        count = _scalar(rng, rspec.get("count", [1, len(documents)]), where, "retrieved.count")
        params["retrieved"] = sorted(rng.sample(documents, max(1, min(count, len(documents)))))
    return params


def _stated(exercise: Exercise, params: dict) -> dict:
    """The counts the statement claims, recomputed from the variant so they agree with its data."""
    stated = {}
    ranking = params.get("ranking")
    parsed = None
    for key in exercise.stated:
        if key in ("length", "relevant_shown") and isinstance(ranking, str):
            if parsed is None:  # once for both counts
                parsed = Ranking.parse(ranking)
            stated[key] = parsed.retrieved if key == "length" else parsed.relevant_retrieved
        elif key in params:
            stated[key] = params[key]
    return stated


def _count_problem(params: dict) -> str | None:
    """Why the drawn counts cannot go together (R below the relevant documents shown, N too small), or None."""
    rankings = [params["ranking"]] if "ranking" in params else list(params.get("rankings", []))
    relevant = params.get("relevant")
    relevants = relevant if isinstance(relevant, list) else [relevant] * len(rankings)
    for text, r in zip(rankings, relevants):
        parsed = remembered(text, {}) if isinstance(text, (str, list)) else Ranking.from_grades(text)  # read once
        if r is not None and r < parsed.relevant_retrieved:
            return f"R = {r} is less than the {parsed.relevant_retrieved} relevant documents shown"
        if r == 0 or (r is None and parsed.relevant_retrieved == 0 and "unretrieved" not in params):
            return "no relevant document"
        if "collection" in params and params["collection"] < parsed.retrieved + (r or 0) - parsed.relevant_retrieved:
            return f"N = {params['collection']} cannot hold the list and the relevant documents missing from it"
    return None


def _check_statement(exercise: Exercise, candidate: Exercise, params_text: str, path) -> None:
    """What ``statement_text(candidate, ...)`` would raise for a drawn variant (the template is the author's: no retry
    helps), without filling the statement when no drawn value can make it fail.

    The statement is filled for the exercise's first draw. Every later draw fills the same placeholders (the
    template's) from the same names (a draw sets the keys its variants name, a ranking of the same kind, text or
    grades, and so the same stated counts), so of statement_text's checks only two can tell draws apart: reading the
    ranking with its threshold (without one, the reading _read_alike repeats), and the filled length (at most
    MAX_FILLED_TEXT). A value is shown in at most twice the characters of its repr (exercise_set._shown_parameter;
    length and relevant_shown in at most 5 digits), and the parameters' repr holds every value's, so the filled text
    is at most the template plus its placeholders times (2 len(repr(params)) + 8) characters; beyond that, or with a
    threshold, the statement is filled as before."""
    uses = _TEMPLATE_USES.get(id(exercise))
    params = candidate.parameters
    if (uses is not None and uses[0] is exercise and "threshold" not in params
            and len(exercise.statement) + uses[1] * (2 * len(params_text) + 8) <= limits.MAX_FILLED_TEXT
            and _read_alike(params.get("ranking"))):
        return
    statement_text(candidate, params, path)
    if uses is None or uses[0] is not exercise:  # filled once, so its placeholders parse (no problem to report)
        _TEMPLATE_USES[id(exercise)] = (exercise, len(placeholders(exercise.statement.strip(), None)))
        if len(_TEMPLATE_USES) > _TEMPLATE_USES_SIZE:
            _TEMPLATE_USES.popitem(last=False)


def _read_alike(ranking) -> bool:
    """True when the statement reads ``ranking`` (without a threshold) without an error (a ranking not written as
    text or grades is not read)."""
    if not isinstance(ranking, (str, list)):
        return True
    try:
        remembered(ranking, {})
    except IrlabError:
        return False
    return True


# How many placeholders each exercise's statement fills, by the exercise as loaded, once one draw of it was filled.
_TEMPLATE_USES: OrderedDict = OrderedDict()
_TEMPLATE_USES_SIZE = 256  # exercises: those of the sets drawn from lately (_loaded keeps 16 sets)


def _inconsistency(candidate: Exercise, path, solved: dict | None = None) -> str | None:
    """Why a drawn variant (``candidate``: the exercise with the drawn parameters, its counts checked) cannot be
    issued, or None when every question solves (then ``solved``, when given, receives the parameters solved with
    and each question's solution)."""
    try:
        solved_params, notes = check_consistency(candidate, path)
        if notes:
            return "; ".join(note.text for note in notes)
        solutions = {question.id: solve_once(solved_params, question, Where(path, candidate.id, question.id))
                     for question in candidate.questions}
    except (IrlabError, ZeroDivisionError) as error:
        return str(error)
    if solved is not None:
        solved.update(params=solved_params, solutions=solutions)
    return None


def variant_exercise(exercise: Exercise, set_id: str, student: str, seed, path, grading=None) -> Exercise:
    """The student's own version of ``exercise`` (the exercise itself when it declares no variants): the first draw
    that is consistent and worth solving (:mod:`irlab.homework.degenerate`); ``refused_draws`` says why each draw
    before it was refused. ``grading``: a function giving the set's [grading] table (see screening.screen)."""
    if not exercise.variants:
        return exercise
    refused: list[str] = []
    degenerate = False
    for attempt in range(MAX_ATTEMPTS):
        rng = variant_rng(set_id, exercise.id, student, seed, attempt)
        params = draw_parameters(exercise, rng, path)
        params_text = repr(params)
        known = _known_verdict(exercise, path, params_text)
        if known is not None and known[0] is not None:  # another student drew these parameters: refused then
            problem, degenerate = known
            refused.append(problem)
            continue
        problem, degenerate = (None, False) if known else (_count_problem(params), False)
        if problem is None:
            candidate = copied(exercise, parameters=params, stated=_stated(exercise, params))
            if not known:  # (a known draw's counts and statement were checked when it was judged)
                _check_statement(exercise, candidate, params_text, path)  # a broken template: no retry helps
            # issued to another student before, or judged on plain values: nothing to solve here (the answer key
            # solves the issued draw when it is needed)
            verdict = known or screen(candidate, path, grading)
            if verdict is not None:
                problem, degenerate = verdict
            else:
                problem, degenerate, keys, solved = _judged_exactly(candidate, path, refused)
        if known is None:
            _remember_verdict(exercise, path, params_text, (problem, degenerate))
        if problem is None:
            issued = copied(candidate, on_mismatch="refuse", refused_draws=tuple(refused))
            _WORTH_SOLVING[id(issued)] = issued
            if verdict is None:  # judged exactly: the answer key reuses its solutions and named mistakes
                _ISSUED[id(issued)] = (issued, solved["params"], solved["solutions"], keys)
                if len(_ISSUED) > _ISSUED_SIZE:
                    _ISSUED.popitem(last=False)
            return issued
        refused.append(problem)
    hint = (f", or let the question keep draws not worth solving ({OPT_OUT} = true)" if degenerate else "")
    raise Where(path, exercise.id).error(f"[exercise.variants] gave no consistent variant in {MAX_ATTEMPTS} draws "
                                          f"(last problem: {refused[-1]}); widen the ranges{hint}")


def _judged_exactly(candidate: Exercise, path, refused: list[str]) -> tuple[str | None, bool, dict, dict]:
    """(why refused or None, whether degenerate, the answer keys, the solutions) from the explained solvers; the keys
    are those of the exercise as it would be issued after the ``refused`` draws."""
    solved: dict = {}
    problem = _inconsistency(candidate, path, solved)
    if problem is not None:
        return problem, False, {}, solved
    issued = copied(candidate, on_mismatch="refuse", refused_draws=tuple(refused))
    keys = draw_keys(path, issued, solved["params"], solved["solutions"])
    problem = degenerate_reason(keys)
    return problem, problem is not None, keys, solved


# Verdicts on drawn parameters, shared by the students who draw the same ones (a third of a large class's draws of
# a short ranking repeat one drawn before): (why refused or None, whether for being degenerate), by the exercise as
# loaded and the parameters' repr. A verdict depends on nothing else, so a repeated draw is judged as before.
_VERDICTS: OrderedDict = OrderedDict()
_VERDICTS_SIZE = 65536  # a short text each: a few MiB, enough for every draw of a 12,500-student class's exercises


def _known_verdict(exercise: Exercise, path, params_text: str) -> tuple[str | None, bool] | None:
    entry = _VERDICTS.get((id(exercise), str(path), params_text))
    if entry is None or entry[0] is not exercise:  # a new exercise object may reuse a forgotten one's id
        return None
    return entry[1]


def _remember_verdict(exercise: Exercise, path, params_text: str, verdict: tuple[str | None, bool]) -> None:
    _VERDICTS[(id(exercise), str(path), params_text)] = (exercise, verdict)
    if len(_VERDICTS) > _VERDICTS_SIZE:
        _VERDICTS.popitem(last=False)


# Every variant exercise issued and still in use, by id: each was judged worth solving (whoever judged it), so none
# of its judged questions has a named mistake within the tolerance; the findings need not be computed again.
_WORTH_SOLVING: weakref.WeakValueDictionary = weakref.WeakValueDictionary()


def judged_worth_solving(exercise: Exercise, question) -> bool:
    """True when ``question`` of a variant this module issued was judged when it was drawn: it is computed, does not
    opt out (``allow_degenerate``), and so has no named mistake within the tolerance of its right value."""
    return (_WORTH_SOLVING.get(id(exercise)) is exercise and question.solver != "free-text"
            and not question.options.get(OPT_OUT))


# The draws issued last, by exercise object: their parameters and solutions, as the consistency check found them
# (the issued exercise agrees with its statement, so check_consistency would return the same parameters).
_ISSUED: OrderedDict = OrderedDict()
_ISSUED_SIZE = 64  # grading needs the current student's draws only


def issued_solutions(exercise: Exercise) -> tuple[dict, dict] | None:
    """(parameters, {question id: solution}) of a variant exercise just issued, or None (then solve it)."""
    entry = _ISSUED.get(id(exercise))
    return (entry[1], entry[2]) if entry is not None and entry[0] is exercise else None


def issued_key(exercise: Exercise, question_id: str):
    """The answer key (:class:`irlab.homework.key.Key`) the drawing built for a question of a variant just issued,
    its named mistakes already re-solved when the draw was judged; or None (then build it)."""
    entry = _ISSUED.get(id(exercise))
    return entry[3].get(question_id) if entry is not None and entry[0] is exercise else None


# Solutions of the draws just checked: the answer key of the issued draw reuses them instead of solving again.
_SOLVED: OrderedDict = OrderedDict()
_SOLVED_SIZE = 512


def solve_once(params: dict, question, where: Where):
    """``solve_question``, remembered for the last few hundred (question, parameters): a variant's questions are
    solved when the draw is checked and again for its answer key."""
    key = (str(where.path), where.exercise, question.id, question.solver, repr(question.options), repr(params))
    if key in _SOLVED:
        _SOLVED.move_to_end(key)
        return _SOLVED[key]
    solution = solve_question(params, question, where)
    _SOLVED[key] = solution
    if len(_SOLVED) > _SOLVED_SIZE:
        _SOLVED.popitem(last=False)
    return solution


@lru_cache(maxsize=16)
def _loaded(path: str, stamp) -> ExerciseSet:
    """The set as written, read once per file version (variants are drawn from it for every student)."""
    return load(path)


@lru_cache(maxsize=256)  # grading handles one student at a time: a small cache keeps memory flat for large classes
def _variant_set_cached(path: str, stamp, student, seed) -> ExerciseSet:
    exercise_set = _loaded(path, stamp)
    if student is None:
        return exercise_set
    grading = partial(grading_defaults_cached, path, stamp)  # the version drawn from, without a stat per screen
    exercises = [variant_exercise(e, exercise_set.id, student, seed, exercise_set.path, grading)
                 for e in exercise_set.exercises]
    return copied(exercise_set, exercises=exercises)


def stamped_variant_set(path: str, stamp, student: str | None, seed: str | None) -> ExerciseSet:
    """:func:`variant_set` of the set file version ``stamp`` (:func:`file_stamp`) for a ``student`` id already
    normalised: a class's grading stamps its set once, not once for each of its students' questions."""
    return _variant_set_cached(path, stamp, student, seed)


def variant_set(path, student: str | None = None, seed=None) -> ExerciseSet:
    """The exercise set as ``student`` gets it with ``seed`` (the set as written when student is None)."""
    path = Path(path)
    return _variant_set_cached(str(path), file_stamp(path), None if student is None else normalise_student(student),
                               None if seed is None else str(seed))


def clear_drawing_caches() -> None:
    """Forget every set loaded, variant drawn and solution remembered in this module."""
    _loaded.cache_clear()
    _variant_set_cached.cache_clear()
    _SOLVED.clear()
    _ISSUED.clear()
    _WORTH_SOLVING.clear()
    _VERDICTS.clear()
    _TEMPLATE_USES.clear()
