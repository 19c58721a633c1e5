"""Rankings: what a system returned, judged, with what is known about the documents it missed.

>>> r = Ranking.parse("RNNRR", relevant=5)
>>> r.retrieved, r.relevant_retrieved, r.total_relevant
(5, 3, 5)
>>> Ranking.parse("3,2,0,1").grades
(3, 2, 0, 1)

A ranking may carry the system's score at each rank, in rank order (never increasing); equal scores are ties, which
the ``ties`` convention of precision, rr, ap, dcg and ndcg resolves:

>>> Ranking.parse("RNRNR", scores="0.9,0.8,0.8,0.8,0.1").tied_groups()
((1, 1), (2, 4), (5, 5))
"""

from __future__ import annotations

import math
import re
from collections import OrderedDict
from dataclasses import dataclass, field, fields
from fractions import Fraction
from functools import cached_property

from .display import ranking_document
from . import exact
from .errors import InputTypeError, LimitError, ParameterError, RankingError
from .limits import MAX_COLLECTION, MAX_GRADE, MAX_LINEAR_GRADE, MAX_RANKS, MAX_RELEVANT, MAX_TEXT, check_at_most, check_digits

_SEPARATORS = " \t|,;"
_JUDGED_ONLY = frozenset("RrNn" + _SEPARATORS)
_DIGIT = re.compile(r"[0-9]")
_INTEGER = re.compile(r"-?[0-9]+")
_UNRETRIEVED = "unretrieved (grades of judged documents not retrieved)"
_UNRETRIEVED_COUNT = "the number of judged documents not retrieved"


@dataclass(frozen=True)
class Ranking:
    """Judgments of the retrieved documents in rank order, plus what is known about the rest.

    Its fields::

        grades        grade of the document at each rank (0 = non-relevant; R/N strings give 1/0)
        relevant      total number of relevant documents R for the query, if known
        unretrieved   grades of judged documents that were not retrieved (for IDCG and R)
        collection    collection size N, if known
        threshold     a grade >= threshold counts as relevant for binary metrics
        text          how the ranking was written, for display
        ids           the documents' ids in rank order, when known
        remarks       assumptions made in building the ranking (e.g. unjudged documents count as non-relevant)
        unjudged      ranks (1-based) of retrieved documents nobody judged ('U' in an R/N string): grade 0 for every
                      metric, as in trec_eval, except those that skip them (bpref)
        sampled_out   the unjudged ranks whose documents are in the pool but were not sampled for judging ('S' in an
                      R/N string; qrels grade -1): only infAP tells them from documents outside the pool
        nonrelevant_unretrieved  judged non-relevant documents that were not retrieved, when known (TREC qrels; bpref)
        scores        the system's score at each rank, exact, never increasing down the ranking, when given: equal
                      scores are tied documents (the ``ties`` convention)
    """

    grades: tuple[int, ...]
    relevant: int | None = None
    unretrieved: tuple[int, ...] = ()
    collection: int | None = None
    threshold: int = 1
    text: str | None = field(default=None, compare=False)
    binary: bool = field(default=False, compare=False)
    ids: tuple[str, ...] | None = field(default=None, compare=False)  # document ids, when known (TREC runs)
    remarks: tuple[str, ...] = field(default=(), compare=False)  # how the ranking was obtained, shown with every result
    unjudged: tuple[int, ...] = field(default=(), compare=False)  # ranks of unjudged documents (grade 0)
    nonrelevant_unretrieved: int | None = field(default=None, compare=False)  # judged non-relevant, not retrieved (bpref)
    sampled_out: tuple[int, ...] = field(default=(), compare=False)  # unjudged ranks in the pool (infAP)
    scores: tuple | None = None  # the score at each rank ('0.9,0.8,0.8' or a list), when given: ties are equal scores

    def __post_init__(self):
        object.__setattr__(self, "grades", _sequence(self.grades, "the grades of a Ranking"))
        if len(self.grades) > MAX_RANKS or not _plain_grades(self.grades):  # what is at fault, in this order:
            object.__setattr__(self, "unretrieved", _sequence(self.unretrieved, _UNRETRIEVED))  # not a list,
            check_at_most(len(self.grades), MAX_RANKS, "the length of a ranking")  # too many ranks,
            check_at_most(len(self.unretrieved), MAX_RANKS, _UNRETRIEVED_COUNT)  # too many unretrieved,
            for position, grade in enumerate(self.grades, 1):  # the first grade at fault, named by its rank
                _check_grade(grade, f"rank {position}")
        self._check_known()

    def _check_known(self):
        """The checks of what is known besides the grades, which passed theirs: the unretrieved grades, the
        threshold, R, the sampled-out ranks, the scores, the ids and N, in that order (:func:`_with_known` builds a
        ranking on another's grades with these checks alone)."""
        object.__setattr__(self, "unretrieved", _sequence(self.unretrieved, _UNRETRIEVED))
        check_at_most(len(self.unretrieved), MAX_RANKS, _UNRETRIEVED_COUNT)
        if not _plain_grades(self.unretrieved):
            for position, grade in enumerate(self.unretrieved, 1):
                _check_grade(grade, f"unretrieved document {position}")
        _check_count(self.threshold, "relevance threshold", 1, MAX_GRADE)
        if self.relevant is not None:
            _check_count(self.relevant, "number of relevant documents R", 0, MAX_RELEVANT)
            known = self.relevant_retrieved + self.relevant_unretrieved
            if self.relevant < self.relevant_retrieved:
                raise RankingError(
                    f"R = {self.relevant} relevant documents is smaller than the {self.relevant_retrieved} "
                    "relevant documents already retrieved"
                )
            if self.unretrieved and self.relevant != known:
                raise RankingError(
                    f"R = {self.relevant} disagrees with the judgments: {self.relevant_retrieved} relevant retrieved "
                    f"+ {self.relevant_unretrieved} relevant unretrieved = {known}"
                )
        if self.sampled_out and not set(self.sampled_out) <= set(self.unjudged):
            raise RankingError("every sampled-out rank (in the pool, not judged) must also be an unjudged rank")
        if self.scores is not None:
            object.__setattr__(self, "scores", read_scores(self.scores, len(self.grades)))
        if self.ids is not None and len(self.ids) != len(self.grades):
            raise RankingError(f"{len(self.ids)} document ids for {len(self.grades)} ranks")
        if self.collection is not None:
            _check_count(self.collection, "collection size N", 1, MAX_COLLECTION)
            if self.collection < self.retrieved:
                raise RankingError(
                    f"collection size N = {self.collection} is smaller than the {self.retrieved} documents retrieved"
                )
            needed = self.retrieved + self.total_relevant - self.relevant_retrieved
            if self.collection < needed:
                raise RankingError(
                    f"collection size N = {self.collection} cannot hold the {self.retrieved} retrieved documents "
                    f"and the {self.total_relevant - self.relevant_retrieved} relevant documents not retrieved"
                )

    # construction ------------------------------------------------------------------------------
    @classmethod
    def parse(cls, text: str, **known) -> "Ranking":
        """Read an R/N string ('RNNRR', 'r n n | r r') or a list of grades ('3,2,0,1', '1 0 0 1')."""
        if cls is Ranking and type(text) is str and len(text) <= REMEMBERED_TEXT:
            return remembered(text, known)  # a drawn variant's ranking is read by each check of it: share one
        return cls._parse(text, **known)

    @classmethod
    def _parse(cls, text: str, **known) -> "Ranking":
        if not isinstance(text, str):
            raise InputTypeError(f"a ranking must be written as text ('RNNRR' or '3,2,0,1'), got {type(text).__name__} "
                                 f"{_clip(text)}; Ranking.from_grades takes a list of grades")
        check_at_most(len(text), MAX_TEXT, "the length of a ranking as written (characters)")
        if text.strip() == "-":  # the system returned nothing, written as such (a metric's empty_ranking convention)
            return cls((), text="-", binary=True, **known)
        if _DIGIT.search(text):
            return cls.from_grades(_parse_grades(text, "ranking"), text=text.strip(), **known)
        return cls.from_string(text, **known)

    @classmethod
    def from_string(cls, text: str, **known) -> "Ranking":
        """An R/N string, U for an unjudged document, S for one in the pool but sampled out (unjudged too); case,
        spaces, commas and '|' separators are ignored."""
        if _JUDGED_ONLY.issuperset(text):  # R and N only (most rankings): one grade per letter
            return cls(tuple([1 if char in "Rr" else 0 for char in text if char not in _SEPARATORS]), text=text.strip(),
                       binary=True, **known)
        grades, unjudged, sampled_out = [], [], []
        for position, char in enumerate(text, 1):
            if char in _SEPARATORS:
                continue
            if char.upper() == "R":
                grades.append(1)
            elif char.upper() == "N":
                grades.append(0)
            elif char.upper() in "US":
                grades.append(0)
                unjudged.append(len(grades))
                if char.upper() == "S":
                    sampled_out.append(len(grades))
            else:
                raise RankingError(
                    f"ranking {text.strip()!r}: unexpected character {char!r} at position {position} "
                    "(write R for relevant, N for non-relevant, U for unjudged (not in the pool), S for in the pool but "
                    "sampled out)"
                )
        if unjudged:
            one, outside = len(unjudged) == 1, len(unjudged) - len(sampled_out)
            kinds = "; ".join(f"{count} {kind}" for count, kind in ((outside, "U, outside the pool"),
                                                                   (len(sampled_out), "S, in the pool but sampled out"))
                              if count) if sampled_out else "U"
            remark = (f"{len(unjudged)} unjudged document{'' if one else 's'} ({kinds}) count{'s' if one else ''} as "
                      f"non-relevant, as in trec_eval; bpref skips {'it' if one else 'them'}")
            if sampled_out:  # only infAP tells the two kinds apart
                remark += "; infAP counts only U as non-relevant and estimates S from the judged documents above it"
            known["remarks"] = tuple(known.get("remarks", ())) + (remark,)
        return cls(tuple(grades), text=text.strip(), binary=True, unjudged=tuple(unjudged),
                   sampled_out=tuple(sampled_out), **known)

    @classmethod
    def from_grades(cls, grades, **known) -> "Ranking":
        """Graded judgments in rank order, e.g. [3, 2, 0, 1]."""
        grades = _sequence(grades, "the grades given to Ranking.from_grades")
        known.setdefault("binary", _all_binary(grades + tuple(known.get("unretrieved") or ())))
        return cls(grades, **known)

    @classmethod
    def from_binary(cls, flags, **known) -> "Ranking":
        """Binary judgments in rank order: 1/True relevant, 0/False not."""
        grades = []
        for position, flag in enumerate(_sequence(flags, "the flags given to Ranking.from_binary"), 1):
            if flag not in (0, 1):
                raise RankingError(f"binary judgment at rank {position} must be 0 or 1, got {flag!r}")
            grades.append(int(flag))
        return cls(tuple(grades), binary=True, **known)

    # derived facts ----------------------------------------------------------------------------
    def is_relevant(self, grade: int) -> bool:
        return grade >= self.threshold

    @cached_property
    def relevance(self) -> tuple[bool, ...]:
        threshold = self.threshold  # is_relevant, without a call per rank
        return tuple(g >= threshold for g in self.grades)

    @cached_property
    def _hits_so_far(self) -> tuple[int, ...]:
        """Relevant documents in the top k, for k = 0..n (computed once: metrics ask for it at every rank)."""
        counts = [0]
        for relevant in self.relevance:
            counts.append(counts[-1] + relevant)
        return tuple(counts)

    @property
    def retrieved(self) -> int:
        return len(self.grades)

    @property
    def is_empty(self) -> bool:
        """No document retrieved: what a metric does with it is its empty_ranking convention."""
        return not self.grades

    @property
    def relevant_retrieved(self) -> int:
        return self.relevance.count(True)

    @property
    def relevant_unretrieved(self) -> int:
        return sum(1 for g in self.unretrieved if self.is_relevant(g))

    @property
    def relevant_is_assumed(self) -> bool:
        return self.relevant is None and not self.unretrieved

    @property
    def total_relevant(self) -> int:
        """R: as given, else relevant retrieved plus relevant unretrieved judgments."""
        if self.relevant is not None:
            return self.relevant
        return self.relevant_retrieved + self.relevant_unretrieved

    def hits(self, k: int | None = None) -> int:
        counts = self._hits_so_far  # metrics ask at every rank: one lookup, no property in between
        last = len(counts) - 1
        return counts[last if k is None or k > last else k]

    def tied_groups(self, depth: int | None = None) -> tuple[tuple[int, int], ...]:
        """The ranks (first, last) of each run of equal scores, 1-based, down to ``depth`` (a group the cut-off
        splits is kept whole: it is tied all the same); every rank alone when no scores were given."""
        depth = self.retrieved if depth is None else min(depth, self.retrieved)
        groups, first = [], 1
        for rank in range(2, self.retrieved + 2):
            if rank > self.retrieved or self.scores is None or self.scores[rank - 1] != self.scores[first - 1]:
                groups.append((first, rank - 1))
                if rank > depth:
                    break
                first = rank
        return tuple(groups)

    @property
    def has_ties(self) -> bool:
        return self.scores is not None and len(set(self.scores)) < len(self.scores)

    def symbol(self, rank: int) -> str:
        """How the judgment at ``rank`` (1-based) is written: R/N for binary rankings, the grade otherwise."""
        grade = self.grades[rank - 1]
        if rank in self.sampled_out:
            return "S"
        if rank in self.unjudged:
            return "U"
        if self.binary:
            return "R" if grade else "N"
        return str(grade)

    def written(self) -> str:
        if self.ids is not None and self.retrieved > 30:
            return self.text or f"of {self.retrieved} documents"
        if self.binary:
            return "".join(self.symbol(rank) for rank in range(1, self.retrieved + 1))
        return ",".join(str(g) for g in self.grades)

    def _repr_html_(self) -> str:  # Jupyter: the rank table, typeset (irlab.display)
        return ranking_document(self).render("html")

    def describe(self) -> str:
        """One line for the top of an explanation."""
        return self._description

    @cached_property
    def _description(self) -> str:  # every question on a shared (frozen) ranking starts with it
        parts = [] if self.is_empty else [f"{self.retrieved} retrieved", f"{self.relevant_retrieved} relevant retrieved"]
        if self.relevant is not None or self.unretrieved:
            parts.append(f"R = {self.total_relevant} relevant in total")
        if self.unretrieved and len(self.unretrieved) <= 10:
            parts.append("unretrieved grades " + ",".join(str(g) for g in self.unretrieved))
        elif self.unretrieved:
            parts.append(f"{len(self.unretrieved)} judged documents not retrieved")
        if self.collection is not None:
            parts.append(f"N = {self.collection} documents in the collection")
        if not self.binary and self.threshold != 1:
            parts.append(f"relevant means grade >= {self.threshold}")
        if self.scores is not None and self.retrieved <= 30:
            parts.append("scores " + ",".join(score_text(s) for s in self.scores))
        if self.is_empty:  # no written form to show: say what the list is instead of a blank name
            return "Empty ranking: no document retrieved" + (f" ({'; '.join(parts)})" if parts else "")
        return f"Ranking {self.written()} ({'; '.join(parts)})"

    def assumption(self) -> str | None:
        if self.relevant_is_assumed:
            return (
                f"R was not given: assuming the {self.relevant_retrieved} relevant documents retrieved are all the "
                f"relevant documents (R = {self.relevant_retrieved}); pass --relevant R otherwise"
            )
        return None


REMEMBERED_TEXT = 200  # characters: a ranking an exercise writes out is remembered, a TREC-sized one read afresh


def remembered(written, known: dict) -> Ranking:
    """The ranking ``written`` (an R/N or grades string, or a list of grades) with what is ``known`` about it, read
    once: an exercise's ranking is read by every check and question of it (and each named mistake re-solved), and
    a Ranking is frozen, so the same one serves them all. Keyed by the values and their types (1, True and 1.0 are
    told apart, as a ranking's checks tell them apart); a value that cannot be a key is read afresh. A text is
    parsed once whatever is known with it: the same ranking with R, N or the unretrieved grades is built on the
    text's own reading."""
    if known and any(type(known.get(name)) not in _UNCHANGING for name in _KEPT_AS_GIVEN):
        return _read(written, known)  # a list the caller may change later: the Ranking holds it, not a copy
    try:  # the text alone (the drawing's checks, a statement's counts) is its own key
        key = written if not known and type(written) is str else (typed_key(written), typed_key(known) if known else ())
        ranking = _REMEMBERED.get(key)
    except TypeError:
        return _read(written, known)
    if ranking is not None:
        _REMEMBERED.move_to_end(key)
        return ranking
    return _remember(key, read_known(written, known) if known else _read(written, known))


def read_known(written, known: dict) -> Ranking:
    """The ranking ``written`` with what is ``known``, as :func:`remembered` reads it but not itself remembered (for
    a caller that remembers it with more): built on the reading of ``written`` alone, which is remembered, when
    only R, N, the unretrieved grades, the threshold or the scores are known."""
    if (type(written) is str or type(written) is list) and _BUILT_ON_TEXT.issuperset(known):
        try:
            bare = remembered(written, {})
        except Exception:  # the full reading says what is wrong, in its order (a grade, or what is known, first)
            return _read(written, known)
        return _with_known(bare, written, known)
    return _read(written, known)


def _remember(key, ranking: Ranking) -> Ranking:
    _REMEMBERED[key] = ranking
    if len(_REMEMBERED) > REMEMBERED_SIZE:
        _REMEMBERED.popitem(last=False)
    return ranking


# what may be known with a text for its ranking to be built on the text's own reading (:func:`_with_known`)
_BUILT_ON_TEXT = frozenset({"relevant", "unretrieved", "collection", "threshold", "scores"})


def _with_known(bare: Ranking, written: str | list, known: dict) -> Ranking:
    """The ranking :func:`_read` reads from ``written`` (a text or a list of grades) with ``known`` (keys of
    _BUILT_ON_TEXT), built on ``bare``, its reading without: the same arguments to the constructor, so the same checks in the same order and the same
    refusals. What ``bare`` read (the grades, the text's U and S) passed every check that depends on it alone, so the
    reading with ``known`` can differ from ``bare`` only in what is known, checked here as it would be there."""
    binary = bare.binary
    if type(written) is list or _DIGIT.search(written):  # grades: binary also if every unretrieved grade is 0 or 1
        binary = _all_binary(bare.grades + tuple(known.get("unretrieved") or ()))
    ranking = object.__new__(Ranking)  # Ranking(bare's fields, binary=binary, **known), its grades not checked again
    values = vars(ranking)
    for name in _FIELDS:
        values[name] = getattr(bare, name)
    values["binary"] = binary
    values.update(known)
    if "threshold" not in known:  # the same grades at the same threshold: what bare worked out from them holds
        worked_out = vars(bare)
        values.update({name: worked_out[name] for name in _OF_GRADES if name in worked_out})
    ranking._check_known()
    return ranking


_OF_GRADES = ("relevance", "_hits_so_far")  # a Ranking's cached facts that depend on its grades and threshold alone


def _all_binary(judged: tuple) -> bool:
    """Every grade judged that is an int is 0 or 1: a ranking of grades so judged reads as R/N (from_grades)."""
    return all(g in (0, 1) for g in judged if isinstance(g, int))


_FIELDS = tuple(field.name for field in fields(Ranking))
# the fields a Ranking keeps as they are given (not copied into a tuple): shared only when they cannot change
_KEPT_AS_GIVEN = ("ids", "remarks", "unjudged", "sampled_out")
_UNCHANGING = frozenset({tuple, type(None)})

_REMEMBERED: OrderedDict = OrderedDict()  # (written, known) as keys -> the Ranking, least recently read forgotten first
REMEMBERED_SIZE = 2048  # a few KiB each: every ranking of the exercises a large class is drawing, checked and graded on


def _read(written, known: dict) -> Ranking:
    if isinstance(written, list):
        return Ranking.from_grades(written, **known)
    return Ranking._parse(str(written), **known)


_SCALARS = frozenset({int, float, bool, str, type(None)})


def typed_key(value):
    """A key for ``value`` that also tells 1 from True and 1.0 (which a ranking's checks tell apart), at any depth."""
    kind = type(value)
    if kind is str:
        return value
    if kind is dict:
        return dict, tuple((key, typed_key(item)) for key, item in value.items())
    if kind is list or kind is tuple:
        kinds = tuple(map(type, value))
        if _SCALARS.issuperset(kinds):  # a flat list of grades or scores: its items' types, then the items
            return kind, kinds, tuple(value)
        return kind, tuple(typed_key(item) for item in value)
    return kind, value


def as_ranking(value) -> Ranking:
    """What a metric accepts as its ranking: a Ranking, an R/N or grade string ('RNNRR', '3,2,0,1'), or a list of grades.

    >>> as_ranking("RNR").grades
    (1, 0, 1)
    """
    if isinstance(value, Ranking):
        return value
    if isinstance(value, str):
        return Ranking.parse(value)
    if isinstance(value, (list, tuple)):
        return Ranking.from_grades(value)
    raise InputTypeError(f"a metric takes a Ranking, e.g. Ranking.parse('RNNRR', relevant=5) (an R/N string or a list of "
                         f"grades also works), got {type(value).__name__} {_clip(value)}")


def score_text(score) -> str:
    """A score as written: its decimal when it has one (0.8), else exact (1/3)."""
    return exact.decimal_text(score, 12) if exact.is_terminating(score, 12) else exact.exact_text(score)


def parse_scores(scores, item: str = "the score at rank") -> tuple:
    """Exact scores from '0.9,0.8,0.8' (commas, semicolons, '|' or spaces) or a list of numbers, in the order given:
    the one reader of every --scores and a set's ``scores``. A value that is not a finite number of at most
    MAX_DIGITS digits (1e9999, inf) is a ParameterError or LimitError naming ``item`` and its position."""
    if isinstance(scores, str):
        check_at_most(len(scores), MAX_TEXT, "the length of the scores as written (characters)")
        items = [t for t in re.split(r"[\s,;|]+", scores.strip()) if t]
    elif isinstance(scores, (list, tuple)):
        items = list(scores)
    else:
        raise InputTypeError(f"scores must be text such as '0.9,0.8,0.8' or a list of numbers, got "
                             f"{type(scores).__name__} {_clip(scores)}")
    check_at_most(len(items), MAX_RANKS, "the number of scores")
    return tuple(_score(value, f"{item} {position}") for position, value in enumerate(items, 1))


def read_scores(scores, count: int | None) -> tuple:
    """One exact score per rank (:func:`parse_scores`), never increasing: else the rank at fault (``count`` ranks,
    when known)."""
    values = parse_scores(scores)
    if count is not None and len(values) != count:
        raise ParameterError(f"{len(values)} scores for {count} ranks: give one score per rank, in rank order")
    for rank in range(2, len(values) + 1):
        if values[rank - 1] > values[rank - 2]:
            raise ParameterError(
                f"the score at rank {rank} ({score_text(values[rank - 1])}) is higher than at rank {rank - 1} "
                f"({score_text(values[rank - 2])}): write the ranking in score order, highest first (trec_eval sorts by "
                "score, then by docno descending)")
    return tuple(values)


def _score(item, what: str):
    """``what`` ("the score at rank 2"), exact: 0.1 (the float or the text) is 1/10, so scores that print equal are
    tied."""
    if isinstance(item, bool) or not isinstance(item, (int, float, str, Fraction)):
        raise ParameterError(f"{what} must be a number, got {type(item).__name__} {_clip(item)}")
    if isinstance(item, float) and not math.isfinite(item):
        raise ParameterError(f"{what} must be a finite number, got {item!r}")
    try:  # parse_number reads at most MAX_NUMBER_TEXT characters and 3 exponent digits: 1e999999999 is never built
        value = exact.parse_number(item) if isinstance(item, str) else exact.rational(
            Fraction(repr(item)) if isinstance(item, float) else item)
    except (ValueError, OverflowError):
        raise ParameterError(f"{what} must be a finite number such as 0.8, got {_clip(item)}") from None
    check_digits(value, what)
    return value


def _clip(value, width: int = 40) -> str:
    shown = repr(value)
    return shown if len(shown) <= width else shown[:width] + "…"


def _sequence(value, what: str) -> tuple:
    """A list, tuple or other iterable of values (not text, not a single number) as a tuple."""
    if isinstance(value, (str, bytes)):
        raise InputTypeError(f"{what} must be a list of integer grades, got the text {_clip(value)} "
                             "(Ranking.parse reads an R/N string or '3,2,0,1')")
    if isinstance(value, (list, tuple)):
        return tuple(value)
    try:
        return tuple(value)
    except TypeError:
        raise InputTypeError(f"{what} must be a list of integer grades, got {type(value).__name__} {_clip(value)}") from None


def _check_count(value, what: str, low: int, high: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int):
        raise InputTypeError(f"{what} must be an integer >= {low}, got {type(value).__name__} {_clip(value)}")
    if value < low:
        raise RankingError(f"{what} must be an integer >= {low}, got {value}")
    check_at_most(value, high, what)


def _plain_grades(grades) -> bool:
    """Every grade an int from 0 to MAX_LINEAR_GRADE (what _check_grade lets pass), checked without naming each one."""
    return all(type(grade) is int and 0 <= grade <= MAX_LINEAR_GRADE for grade in grades)


def _check_grade(grade, where):
    if isinstance(grade, bool) or not isinstance(grade, int):
        raise RankingError(f"grade at {where} must be an integer, got {_clip(grade)}")
    if grade < 0:
        raise RankingError(f"negative grade {grade} at {where}: grades must be 0 (non-relevant) or more")
    check_at_most(grade, MAX_LINEAR_GRADE, f"the grade at {where}")


def _parse_grades(text: str, what: str) -> list[int]:
    grades = []
    tokens = [t for t in re.split(r"[\s,;|]+", text.strip()) if t]
    if not tokens:
        raise RankingError(f"the {what} is empty")
    shown = _clip(text.strip())
    for position, token in enumerate(tokens, 1):
        if not _INTEGER.fullmatch(token):  # ASCII digits only: '３' and '1_0' are not grades
            raise RankingError(f"{what} {shown}: item {position} {_clip(token)} is not an integer grade")
        if len(token.lstrip("-")) > 9:
            raise LimitError(f"a grade ({what}, item {position}) is at most {MAX_LINEAR_GRADE:,} (irlab's limit; no exercise "
                             f"needs more), got a {len(token.lstrip('-')):,}-digit number")
        grade = int(token)
        if grade < 0:
            raise RankingError(f"{what} {shown}: negative grade {grade} at position {position}")
        check_at_most(grade, MAX_LINEAR_GRADE, f"a grade ({what}, item {position})")
        grades.append(grade)
    return grades


def parse_grade_list(text: str, what: str = "grade list") -> tuple[int, ...]:
    """Comma/space separated non-negative integers ('' gives an empty tuple)."""
    if not isinstance(text, str):
        raise InputTypeError(f"{what} must be text such as '2,1', got {type(text).__name__} {_clip(text)}")
    check_at_most(len(text), MAX_TEXT, f"the length of {what} as written (characters)")
    if not text.strip():
        return ()
    return tuple(_parse_grades(text, what))


def parse_ids(text, what: str) -> tuple[str, ...]:
    """A ranking of document ids, 'd1,d2,d3' (commas or spaces) or a sequence; duplicates are an error."""
    if isinstance(text, str):
        check_at_most(len(text), MAX_TEXT, f"the length of {what} as written (characters)")
        ids = tuple(t for t in re.split(r"[\s,;|]+", text.strip()) if t)
    elif isinstance(text, (list, tuple)):
        ids = tuple(str(t) for t in text)
    else:
        raise InputTypeError(f"{what} must be text such as 'd1,d2,d3' or a list of ids, got {type(text).__name__} "
                             f"{_clip(text)}")
    check_at_most(len(ids), MAX_RANKS, f"the length of {what}")
    if not ids:
        raise RankingError(f"{what} is empty")
    seen = {}
    for position, doc in enumerate(ids, 1):
        if doc in seen:
            raise RankingError(f"{what}: id {doc!r} appears twice (positions {seen[doc]} and {position})")
        seen[doc] = position
    return ids
