"""Novelty and diversity: α-nDCG, ERR-IA and their kin, on a ranking judged per subtopic (intent).

A query may mean several things (its subtopics, or intents); a document is judged relevant to each subtopic
separately. A second document about a subtopic already covered tells the user less: with α the probability
that a document judged relevant to a subtopic satisfies it (Clarke et al. 2008: the judged nugget is really
there; Chapelle et al. 2011: the user is satisfied), a subtopic covered c times is still wanted with probability
(1-α)^c, and the gain at rank i is

    g_i = Σ_{s ∈ subtopics(d_i)} (1 - α)^{c_s(i)},   c_s(i) = #{j < i : d_j relevant to s}

and the metrics discount it by rank:

* α-DCG@k = Σ_{i<=k} g_i / log2(i + 1) (Clarke, Kolla, Cormack, Vechtomova, Ashkan, Büttcher & MacKinnon 2008,
  SIGIR, "Novelty and diversity in information retrieval evaluation", §4–5), α-nDCG@k = α-DCG@k / α-DCG@k of
  the ideal ranking. The ideal ranking is NP-hard to find (§5); as ndeval, irlab builds it greedily over every
  judged relevant document: at each rank the document with the largest current gain, ties to the largest docno
  (C's strcmp order, which is Python's order of the strings).
* ERR-IA@k = Σ_s P(s) · ERR_s@k, the intent-aware ERR (Agrawal, Gollapudi, Halverson & Ieong 2009, WSDM;
  Chapelle, Ji, Liao, Velipasaoglu, Lai & Wu 2011, "Intent-based diversification of web search results: metrics
  and algorithms", Information Retrieval 14(6), 572-592, doi:10.1007/s10791-011-9167-7), with
  uniform P(s) = 1/S and satisfaction probability α for a relevant document: ERR_s@k = Σ_i (1/i) · α · (1-α)^{c_s(i)}
  over the documents relevant to s, so ERR-IA@k = (α / S) · Σ_{i<=k} g_i / i. nERR-IA@k divides by the same sum
  for the greedy ideal ranking (the factor α / S cancels).
* strec@k (subtopic recall; Zhai, Cohen & Lafferty 2003, SIGIR): the share of the S subtopics covered in the
  top k. P-IA@k (intent-aware precision; Agrawal et al. 2009): Σ_s P(s) · P_s@k = Σ_{i<=k} #subtopics(d_i) / (k · S).

**What ndeval computes.** ndeval 4.5 (TREC Web track 2009–2014; its source in pyndeval 0.0.8) reads judgments as
binary (grade >= 1), ignores the subtopics that no document is relevant to (S counts the others), and reports
"alpha-DCG@k" and "ERR-IA@k" *divided* by the same sum for an "ideal ideal" list in which every document is
relevant to every subtopic (gain S · (1-α)^{i-1} at rank i: its collection-independent normalisation). The
convention ``diversity_normalisation`` names the choice: ``ndeval`` (the default, so that irlab's values are
ndeval's) or ``raw`` (the papers' sums: α-DCG as Clarke et al. write it, ERR-IA as Chapelle et al. define it).
The ratios α-nDCG and nERR-IA are the same under both. Where irlab and ndeval 4.5 differ, irlab says so:

* ndeval stores 20 cut-offs (its DEPTH); irlab takes any k, and k left out means the whole list (k = n).
* ndeval leaves its rank-1 values unnormalised (its normalising loop starts at the second rank), so its
  alpha-DCG@1 and ERR-IA@1 are the raw sums; irlab divides at every k.
* ndeval orders a run by its rank column (or with -traditional by score, ties by docno descending, as trec_eval);
  pyndeval sorts by score descending, ties by docno *ascending*. ``irlab.trec.diversity.read_diversity_topic``
  (one topic of TREC files, read as ``irlab eval --diversity`` reads them) orders by the rank column, as ndeval;
  an IntentRanking is already in rank order.
* With α given as an exact fraction irlab compares the ideal ranking's gains exactly; ndeval compares doubles,
  which agree whenever 1 - α is a short binary fraction (1/2, 1/4, 3/4).

An unjudged retrieved document counts as relevant to no subtopic (as ndeval counts it), and the explanation says so.

>>> ranking = IntentRanking.parse("1+2 - 2 3 ?", unretrieved="3 1+4")
>>> round(alpha_ndcg(ranking, k=5).decimal, 4)
0.6953
>>> err_ia(ranking, k=5, diversity_normalisation="raw").value
Fraction(29, 96)
>>> ideal_intent_order(ranking, Fraction(1, 2))  # d1 and u2 both gain 2 at rank 1: u2, the larger docno
('u2', 'd1', 'u1', 'd4', 'd3')
"""

from __future__ import annotations

import heapq
import re
from dataclasses import dataclass
from fractions import Fraction

from .. import conventions as conv
from .. import exact
from ..document import Formula, Note, Table
from ..errors import InputTypeError, LimitError, ParameterError
from ..limits import MAX_DIGITS, MAX_GRADE, MAX_QUERIES, MAX_LOG_RUNNING, MAX_LOG_TERMS, MAX_RANKS, MAX_SUBTOPICS, MAX_TEXT, check_at_most, check_exact_digits, power_digits
from ..metric import Result, check_cutoff, check_fraction
from ..trace import Traced, log, total
from .mean import mean_over_queries

DEFAULT_ALPHA = Fraction(1, 2)  # ndeval's ALPHA
SUBTOPIC_ID = re.compile(r"[A-Za-z0-9_.]+\Z")
SHOWN_SUBTOPIC_COLUMNS = 6  # up to this many subtopics, the table has a column c_s per subtopic

CLARKE = "Clarke et al. 2008 (SIGIR, 'Novelty and diversity in information retrieval evaluation', pp. 659-666)"
CHAPELLE = ("Chapelle, Ji, Liao, Velipasaoglu, Lai & Wu 2011 (Information Retrieval 14(6), 572-592, 'Intent-based "
            "diversification of web search results: metrics and algorithms', doi:10.1007/s10791-011-9167-7); "
            "Agrawal, Gollapudi, Halverson & Ieong 2009 (WSDM, intent-aware metrics)")
NDEVAL = "ndeval 4.5 (TREC Web track)"


def _natural(subtopic: str):
    """Subtopic ids in natural order: 2 before 10, numbers before names."""
    return (0, int(subtopic), subtopic) if subtopic.isdigit() else (1, 0, subtopic)


@dataclass(frozen=True)
class IntentRanking:
    """A ranking judged per subtopic (intent): for each retrieved rank, the subtopics its document is relevant to.

    ``retrieved``: rank i -> the subtopics the document at rank i is relevant to (empty: none).
    ``pool``: every judged document relevant to at least one subtopic, as (docno, its subtopics), the retrieved
    ones included: the material of the ideal ranking. ``subtopics``: the topic's subtopics that have at least one
    relevant document (S of them). ``docnos``: the retrieved documents' docnos, when known. ``unjudged``: the ranks
    whose document has no judgment (counted as relevant to no subtopic).

    >>> IntentRanking.parse("1+2 - ?").subtopics
    ('1', '2')
    """

    retrieved: tuple[frozenset[str], ...]
    pool: tuple[tuple[str, frozenset[str]], ...]
    subtopics: tuple[str, ...]
    docnos: tuple[str, ...] | None = None
    unjudged: tuple[int, ...] = ()
    remarks: tuple[str, ...] = ()  # how the ranking was obtained (a TREC topic), stated by every result on it
    text: str | None = None  # the written form, when it was parsed
    warnings: tuple[str, ...] = ()  # how a written form that looks like another metric's was read, stated likewise
    # graded per-subtopic labels (TF-Ranking's AlphaDCGMetric): (docno, ((subtopic, grade), …)) for the documents with
    # a grade other than 1 ('1:2+3' written); empty: binary judgments, as Clarke et al. 2008 and ndeval read them
    grades: tuple[tuple[str, tuple[tuple[str, int], ...]], ...] = ()

    def __post_init__(self):
        for name in ("retrieved", "pool", "subtopics", "unjudged", "remarks", "warnings", "grades"):
            if not isinstance(getattr(self, name), tuple):
                raise InputTypeError(f"IntentRanking.{name} is a tuple, got {type(getattr(self, name)).__name__}")
        check_at_most(len(self.retrieved), MAX_RANKS, "the retrieved documents of one ranking")
        check_at_most(len(self.pool), MAX_RANKS, "the judged relevant documents of one topic")
        check_at_most(len(self.subtopics), MAX_SUBTOPICS, "the subtopics of one topic")
        known = set(self.subtopics)
        if len(known) != len(self.subtopics):
            raise ParameterError("IntentRanking.subtopics lists a subtopic twice")
        docnos = set()
        for entry in self.pool:
            if not (isinstance(entry, tuple) and len(entry) == 2 and isinstance(entry[0], str)
                    and isinstance(entry[1], frozenset)):
                raise InputTypeError("IntentRanking.pool holds (docno, frozenset of subtopics) pairs")
            docno, relevant = entry
            if not relevant:
                raise ParameterError(f"pool document {docno!r:.40} is relevant to no subtopic; the pool holds only "
                                     "documents relevant to at least one")
            if docno in docnos:
                raise ParameterError(f"pool document {docno!r:.40} is listed twice")
            docnos.add(docno)
            if not relevant <= known:
                raise ParameterError(f"pool document {docno!r:.40} is relevant to a subtopic not in subtopics")
        for rank, relevant in enumerate(self.retrieved, 1):
            if not isinstance(relevant, frozenset):
                raise InputTypeError(f"IntentRanking.retrieved holds frozensets of subtopics; rank {rank} is "
                                     f"{type(relevant).__name__}")
            if not relevant <= known:
                raise ParameterError(f"the document at rank {rank} is relevant to a subtopic not in subtopics")
        if self.docnos is not None:
            if not isinstance(self.docnos, tuple) or len(self.docnos) != len(self.retrieved):
                raise ParameterError("IntentRanking.docnos gives one docno per retrieved rank")
            if len(set(self.docnos)) != len(self.docnos):
                raise ParameterError("IntentRanking.docnos lists a document twice")
            pooled = dict(self.pool)
            for docno, relevant in zip(self.docnos, self.retrieved):
                if relevant and pooled.get(docno) != relevant:
                    raise ParameterError(f"retrieved document {docno!r:.40} is relevant but not in the pool with "
                                         "the same subtopics")
        for rank in self.unjudged:
            if isinstance(rank, bool) or not isinstance(rank, int) or not 1 <= rank <= len(self.retrieved):
                raise ParameterError(f"IntentRanking.unjudged holds ranks 1..{len(self.retrieved)}, got {rank!r:.40}")
            if self.retrieved[rank - 1]:
                raise ParameterError(f"rank {rank} is unjudged but relevant to a subtopic")
        relevant_to = dict(self.pool)
        for docno, graded in self.grades:
            if docno not in relevant_to or {s for s, _ in graded} - relevant_to[docno]:
                raise ParameterError(f"document {docno!r:.40} has a grade for a subtopic it is not relevant to")
            for subtopic, grade in graded:
                if isinstance(grade, bool) or not isinstance(grade, int) or not 1 <= grade <= MAX_GRADE:
                    raise ParameterError(f"document {docno!r:.40}'s grade for subtopic {subtopic} is an integer 1 … "
                                         f"{MAX_GRADE} (irlab's limit MAX_GRADE), got {grade!r:.40}")

    # -- building one ----------------------------------------------------------------------------------------------
    @classmethod
    def parse(cls, text, unretrieved=None) -> "IntentRanking":
        """The written form: documents separated by spaces or commas, each ``-`` (judged, relevant to no
        subtopic), ``?`` (unjudged) or its subtopic ids joined by ``+`` (ids: letters, digits, ``_``, ``.``).
        ``unretrieved`` lists the judged relevant documents not retrieved, in the same form (subtopics only).
        Retrieved documents get the docnos d1, d2, … and unretrieved ones u1, u2, …, for the ideal's tie rule.

        A subtopic may carry a grade, ``1:2`` (subtopic 1, grade 2; integers 1 … MAX_GRADE, 1 when left out): the
        graded per-subtopic labels of TF-Ranking's AlphaDCGMetric, read by ``alpha_dcg`` alone (the other metrics,
        as Clarke et al. 2008 and ndeval, judge a document relevant to a subtopic or not, and refuse grades).

        Written forms of the other metrics are not guessed at: an R/N string ('RNR') is refused, and a list
        written with commas and no '+', '-' or '?' ('3,0,2,1', perhaps a grade list) or a subtopic named 0 is
        read as subtopics with a warning that says how (``warnings``).

        >>> [(docno, sorted(subtopics)) for docno, subtopics in IntentRanking.parse("a+b, -, b", unretrieved="c").pool]
        [('d1', ['a', 'b']), ('d3', ['b']), ('u1', ['c'])]
        """
        tokens = _tokens(text, "intent ranking")
        if not tokens:
            raise ParameterError("an intent ranking needs at least one document: '1+2 - 2 ?' (subtopics joined by "
                                 "'+', '-' relevant to none, '?' unjudged)")
        source = text if isinstance(text, str) else " ".join(tokens)  # _tokens took a list of documents too
        _refuse_rn_string(source)
        missed = _tokens(unretrieved, "--unretrieved (unretrieved_intents)") if unretrieved is not None else []
        retrieved, unjudged, grades = [], [], []
        for rank, token in enumerate(tokens, 1):
            if token == "?":
                unjudged.append(rank)
                retrieved.append(frozenset())
            elif token == "-":
                retrieved.append(frozenset())
            else:
                relevant, graded = _subtopics_of(token, f"document {rank} ({token[:40]!r})")
                retrieved.append(relevant)
                grades += [(f"d{rank}", graded)] if graded else []
        pool = [(f"d{rank}", relevant) for rank, relevant in enumerate(retrieved, 1) if relevant]
        for number, token in enumerate(missed, 1):
            if token in ("-", "?"):
                raise ParameterError(f"unretrieved document {number} is {token!r}: list only the judged relevant "
                                     "documents that were not retrieved, each by its subtopics ('3 1+4')")
            relevant, graded = _subtopics_of(token, f"unretrieved document {number} ({token[:40]!r})")
            pool.append((f"u{number}", relevant))
            grades += [(f"u{number}", graded)] if graded else []
        subtopics = sorted({s for _, relevant in pool for s in relevant}, key=_natural)
        written = " ".join(tokens) + (f" (not retrieved: {' '.join(missed)})" if missed else "")
        return cls(tuple(retrieved), tuple(pool), tuple(subtopics), tuple(f"d{i}" for i in range(1, len(tokens) + 1)),
                   tuple(unjudged), text=written, warnings=_other_format_warnings(source, tokens, subtopics),
                   grades=tuple(grades))

    @classmethod
    def from_qrels(cls, docnos, judgments, *, relevance_level: int = 1, remarks=()) -> "IntentRanking":
        """A run's docnos (in rank order) judged by one topic's diversity qrels ``{docno: {subtopic: grade}}``.

        A grade >= ``relevance_level`` is relevant (ndeval: binary, 1 and above); a retrieved docno absent from
        the judgments is unjudged; subtopics without a relevant document are left out (ndeval's actualSubtopics).

        >>> IntentRanking.from_qrels(["a", "x"], {"a": {"1": 1, "2": 0}, "b": {"2": 2}}).label(1)
        '1'
        """
        relevant = {}
        for docno, grades in judgments.items():
            subtopics = frozenset(str(s) for s, grade in grades.items() if grade >= relevance_level)
            if subtopics:
                relevant[str(docno)] = subtopics
        docnos = tuple(str(d) for d in docnos)
        retrieved = tuple(relevant.get(docno, frozenset()) for docno in docnos)
        unjudged = tuple(rank for rank, docno in enumerate(docnos, 1) if docno not in judgments)
        subtopics = sorted({s for found in relevant.values() for s in found}, key=_natural)
        return cls(retrieved, tuple(sorted(relevant.items())), tuple(subtopics), docnos, unjudged, tuple(remarks))

    # -- what a reader is told -------------------------------------------------------------------------------------
    @property
    def handwritten(self) -> bool:
        return self.text is not None

    def describe(self) -> str:
        what = f"intent ranking {self.text}" if self.text else "ranking judged per subtopic"
        graded = ", graded per subtopic (subtopic:grade)" if self.grades else ""
        return (f"{what}: {len(self.retrieved)} retrieved, S = {len(self.subtopics)} subtopics with a relevant "
                f"document ({', '.join(self.subtopics) or 'none'}), {len(self.pool)} judged relevant documents "
                f"in the pool of the ideal ranking{graded}")

    def grade_of(self, docno) -> dict:
        """The grades of a document's subtopics, {subtopic: grade}: 1 unless written otherwise ('1:2')."""
        return dict(dict(self.grades).get(docno, ())) if docno is not None else {}

    def label(self, rank: int) -> str:
        """The judgment at a rank as written: its subtopics joined by '+', '-' or '?'."""
        relevant = self.retrieved[rank - 1]
        if relevant:
            graded = self.grade_of(self.docnos[rank - 1] if self.docnos is not None else None)
            return "+".join(f"{s}:{graded[s]}" if s in graded else s for s in sorted(relevant, key=_natural))
        return "?" if rank in self.unjudged else "-"


def _tokens(text, what: str) -> list[str]:
    if isinstance(text, (list, tuple)):
        text = " ".join(str(t) for t in text)
    if not isinstance(text, str):
        raise InputTypeError(f"{what} is text such as '1+2 - 2 ?', got {type(text).__name__}")
    if len(text) > MAX_TEXT:
        raise ParameterError(f"{what} is at most {MAX_TEXT:,} characters (irlab's limit MAX_TEXT)")
    return text.replace(",", " ").split()


RN_LETTERS = frozenset("RNUrnu")  # the letters of an R/N string (irlab explain ap RNNR): relevant, not, unjudged
HOW_TO_WRITE = ("each document is written as its subtopics joined by '+' ('1+2': relevant to subtopics 1 and 2), "
                "'-' (relevant to none) or '?' (unjudged), e.g. '1+2 - 2 3'")
SHOWN_READING = 6  # documents spelled out in the warning on a comma-separated list


def _refuse_rn_string(text: str) -> None:
    """An R/N string has no subtopics: 'RNR' would be one document relevant to a subtopic named RNR. Refused when
    every token is made of R, N and U and one has two letters or more ('RNR', 'rn nr') or they are split by '|'
    ('r n | r'); single letters alone ('R N R') could be subtopics named so, and get a warning instead."""
    parts = text.replace(",", " ").replace("|", " ").split()
    if parts and all(set(part) <= RN_LETTERS for part in parts) and (
            "|" in text or any(len(part) > 1 for part in parts)):
        raise ParameterError(f"{text.strip()[:40]!r} is an R/N string (one letter per document), which has no "
                             f"subtopics: diversity metrics read each document's subtopics; {HOW_TO_WRITE}")


def _other_format_warnings(text: str, tokens, subtopics) -> tuple[str, ...]:
    """How a written form that may be another metric's was read: a comma-separated list of single subtopics (a grade
    list such as '3,0,2,1'?), single letters R, N, U (an R/N string?) or a subtopic named 0 (0 for 'none'?)."""
    if "," in text and not any(mark in text for mark in "+-?"):
        shown = ", ".join(f"d{rank} to subtopic {token}" for rank, token in enumerate(tokens[:SHOWN_READING], 1))
        more = f", … ({len(tokens)} documents)" if len(tokens) > SHOWN_READING else ""
        return (f"{text.strip()[:40]!r} has commas and no '+', '-' or '?', like a list of grades: it is read as "
                f"{len(tokens)} document{'s' if len(tokens) > 1 else ''}, each relevant to the one subtopic written "
                f"({shown}{more}). Diversity metrics read each document's subtopics, not a grade: {HOW_TO_WRITE}",)
    if all(token in RN_LETTERS for token in tokens):
        return (f"every document is written R, N or U: read as documents relevant to subtopics named "
                f"{', '.join(sorted({t for t in tokens}))}, not as an R/N string; {HOW_TO_WRITE}",)
    if "0" in subtopics:
        return ("a document is relevant to a subtopic named 0 (TREC numbers subtopics from 1): if 0 meant 'relevant "
                "to no subtopic', write '-'",)
    return ()


def _subtopics_of(token: str, where: str) -> tuple[frozenset, tuple]:
    """A document's subtopics, and the grades written other than 1 as sorted (subtopic, grade) pairs ('1:2+3')."""
    parts, grades = [], []
    for written in token.split("+"):
        part, colon, grade = written.partition(":")
        if not SUBTOPIC_ID.match(part):
            raise ParameterError(f"{where}: {part[:40]!r} is not a subtopic id (letters, digits, '_', '.'); write "
                                 "a document as its subtopics joined by '+' (1+3), '-' (relevant to none) or '?' "
                                 "(unjudged)")
        if colon:
            if not (grade.isdigit() and len(grade) <= 3 and 1 <= int(grade) <= MAX_GRADE):
                raise ParameterError(f"{where}: the grade of subtopic {part[:40]} is an integer 1 … {MAX_GRADE} "
                                     f"(irlab's limit MAX_GRADE), got {grade[:40]!r}; leave a subtopic out for 0")
            if int(grade) != 1:
                grades.append((part, int(grade)))
        parts.append(part)
    if len(set(parts)) != len(parts):
        raise ParameterError(f"{where}: a subtopic is listed twice")
    return frozenset(parts), tuple(sorted(grades, key=lambda pair: _natural(pair[0])))


# -- exact gains and the greedy ideal ------------------------------------------------------------------------------

def check_alpha(alpha) -> Fraction:
    """α in (0, 1], exact; 1/2 (ndeval's default) when not given."""
    if alpha is None:
        return DEFAULT_ALPHA
    try:
        value = check_fraction(alpha, "alpha α (the chance a relevant document satisfies)", 0, 1, low_open=True)
    except ParameterError as error:
        raise ParameterError(f"{error}; α = 0 would make every repeat of a subtopic count in full (and ERR-IA's "
                             "satisfaction probability 0), α = 1 counts each subtopic once") from None
    return Fraction(value)


def _gains(sets, alpha, subtopics, grades=None):
    """Per rank: the counts c_s before it (for the document's subtopics) and the gain Σ_s (1-α)^{c_s}.

    With graded labels (``grades``: per rank {subtopic: grade}, 1 where absent) TF-Ranking's gain
    Σ_s y_s · (1-α)^{c_s}, c_s the sum of the labels y_s above; binary labels give Clarke et al.'s counts."""
    keep = 1 - alpha
    seen = dict.fromkeys(subtopics, 0)
    powers = [Fraction(1)]
    rows = []
    for rank, relevant in enumerate(sets):
        label = grades[rank] if grades else {}
        counts = {s: seen[s] for s in relevant}
        while len(powers) <= max(counts.values(), default=0):
            powers.append(powers[-1] * keep)
        rows.append((counts, sum((label.get(s, 1) * powers[c] for s, c in counts.items()), Fraction(0))))
        for s in relevant:
            seen[s] += label.get(s, 1)
    return rows


class _Largest:
    """A heap key: the largest gain first, ties to the largest docno (ndeval's strcmp rule)."""

    __slots__ = ("gain", "docno")

    def __init__(self, gain, docno):
        self.gain, self.docno = gain, docno

    def __lt__(self, other):
        return (self.gain, self.docno) > (other.gain, other.docno)


def _greedy(ranking: IntentRanking, alpha: Fraction, depth: int | None = None):
    """The greedy ideal order over the pool: (docno, subtopics) pairs, ``depth`` of them (all by default).

    Gains only shrink as subtopics are covered, so a stale heap key is an upper bound: the top document is taken
    when its fresh gain still beats every other key (lazy greedy), giving exactly ndeval's quadratic choice.
    """
    keep = 1 - alpha
    seen = dict.fromkeys(ranking.subtopics, 0)

    def gain(relevant):
        return sum((keep ** seen[s] for s in relevant), Fraction(0))

    subtopics_of = dict(ranking.pool)
    heap = [_Largest(Fraction(len(relevant)), docno) for docno, relevant in ranking.pool]
    heapq.heapify(heap)
    order = []
    limit = len(heap) if depth is None else min(depth, len(heap))
    while len(order) < limit:
        top = heapq.heappop(heap)
        fresh = gain(subtopics_of[top.docno])
        if fresh != top.gain and heap and not _Largest(fresh, top.docno) < heap[0]:
            heapq.heappush(heap, _Largest(fresh, top.docno))
            continue
        order.append((top.docno, subtopics_of[top.docno]))
        for s in subtopics_of[top.docno]:
            seen[s] += 1
    return order


def ideal_intent_order(ranking: IntentRanking, alpha) -> tuple[str, ...]:
    """The docnos of the greedy ideal ranking: at each rank the pool document with the largest current gain
    Σ_s (1-α)^{c_s}, ties to the largest docno (ndeval 4.5's idealResult).

    >>> ideal_intent_order(IntentRanking.parse("1 2 1+2"), Fraction(1, 2))
    ('d3', 'd2', 'd1')
    """
    return tuple(docno for docno, _ in _greedy(_checked(ranking), check_alpha(alpha)))


def _checked(ranking) -> IntentRanking:
    """The intent ranking a metric was given; text is parsed, as irlab.precision("RNR") reads its ranking."""
    if isinstance(ranking, str):
        return IntentRanking.parse(ranking)
    if not isinstance(ranking, IntentRanking):
        raise InputTypeError(f"diversity metrics take an IntentRanking (IntentRanking.parse('1+2 - 2')), got "
                             f"{type(ranking).__name__}")
    return ranking


# -- the metrics ----------------------------------------------------------------------------------------------------

# the Formula line under diversity_normalisation = ndeval, the one whose value the Result shows (raw: the declaration's,
# the papers' sums); g_i's definition is repeated so that the line reads alone
_GAIN_TEXT = "g_i = Σ_{s ∈ d_i} (1-α)^c_s(i)"
_GAIN_LATEX = r"g_i = \sum_{s \in d_i} (1-\alpha)^{c_s(i)}"
NDEVAL_FORMULAS = {
    "alpha-dcg": Formula(
        "α-DCG@k = (Σ_{i<=k} g_i / log2(i+1)) / (Σ_{i<=k} S · (1-α)^(i-1) / log2(i+1)), " + _GAIN_TEXT,
        r"\alpha\text{-DCG}@k = \frac{\sum_{i=1}^{k} g_i / \log_2(i+1)}{\sum_{i=1}^{k} S\,(1-\alpha)^{i-1} / \log_2(i+1)}, \quad "
        + _GAIN_LATEX),
    "err-ia": Formula(
        "ERR-IA@k = (Σ_{i<=k} g_i / i) / (Σ_{i<=k} S · (1-α)^(i-1) / i), " + _GAIN_TEXT,
        r"\mathrm{ERR\text{-}IA}@k = \frac{\sum_{i=1}^{k} g_i / i}{\sum_{i=1}^{k} S\,(1-\alpha)^{i-1} / i}, \quad "
        + _GAIN_LATEX),
}

GRADED_FORMULA = Formula(
    "α-DCG@k = Σ_{i<=k} g_i / log2(i+1), g_i = Σ_s y_{i,s} · (1-α)^c_s(i), c_s(i) = Σ_{j<i} y_{j,s}",
    r"\alpha\text{-DCG}@k = \sum_{i=1}^{k} \frac{g_i}{\log_2(i+1)}, \quad g_i = \sum_s y_{i,s}\,"
    r"(1-\alpha)^{c_s(i)}, \quad c_s(i) = \sum_{j<i} y_{j,s}")
GRADED_NOTE = ("graded per-subtopic labels: α-DCG as TF-Ranking's AlphaDCGMetric defines it (a grade y multiplies its "
               "subtopic's gain and adds y to that subtopic's count), the raw sum (diversity_normalisation = raw: "
               "ndeval reads binary judgments only)")

NORMALISATION_NOTE = {
    "alpha-dcg": "α-DCG@k is divided by the α-DCG@k of an \"ideal ideal\" list whose every document is relevant to "
                 "every subtopic (gain S · (1-α)^(i-1) at rank i), as ndeval's alpha-DCG@k",
    "err-ia": "ERR-IA@k is Σ g_i / i divided by the same sum for an \"ideal ideal\" list whose every document is "
              "relevant to every subtopic (gain S · (1-α)^(i-1) at rank i), as ndeval's ERR-IA@k; it equals Chapelle "
              "et al.'s (α / S) · Σ g_i / i divided by that list's value",
}


@dataclass
class _Setup:
    ranking: IntentRanking
    alpha: Fraction
    k: int | None
    depth: int  # ranks of the run that count: min(k, n)
    cutoff: int  # the k of the formulas: k, or n when k is not given
    suffix: str
    notes: list


GRADED_ONLY_ALPHA_DCG = ("graded per-subtopic labels ('1:2') are read by alpha-dcg alone, as TF-Ranking's "
                         "AlphaDCGMetric defines them; {metric}, as Clarke et al. 2008 and ndeval, judges a document "
                         "relevant to a subtopic or not: write its subtopics without grades")


def _setup(ranking, k, alpha, metric=None) -> _Setup:
    """The checked inputs of a metric; ``metric`` names one that refuses graded labels (all but α-DCG)."""
    ranking = _checked(ranking)
    if ranking.grades and metric is not None:
        raise ParameterError(GRADED_ONLY_ALPHA_DCG.format(metric=metric))
    alpha_value = check_alpha(alpha)
    k = check_cutoff(k)
    n = len(ranking.retrieved)
    cutoff = n if k is None else k
    depth = min(cutoff, n)
    _check_powers(alpha_value, cutoff)
    notes = [Note("warning", warning) for warning in ranking.warnings]
    notes += [Note("assumption", remark) for remark in ranking.remarks]
    if ranking.handwritten:
        notes.append(Note("assumption", "documents written by hand are named d1, d2, … (retrieved) and u1, u2, … "
                                        "(not retrieved); the names only break ties in the ideal ranking"))
    unjudged = [rank for rank in ranking.unjudged if rank <= depth]
    if unjudged:
        notes.append(Note("assumption", f"unjudged documents (rank {', '.join(map(str, unjudged))}) count as relevant "
                                        "to no subtopic, as ndeval counts them"))
    if k is None:
        notes.append(Note("convention", f"no cut-off given: k = n = {n}, the length of the list"))
    elif k > n:
        notes.append(Note("convention", f"the list has n = {n} documents, fewer than k = {k}: ranks {n + 1}..{k} "
                                        "have gain 0 (the ideal rankings still fill k ranks)"))
    if k is not None and k > 20:
        notes.append(Note("convention", "ndeval stores cut-offs up to 20 (its DEPTH); irlab computes any k the same way"))
    return _Setup(ranking, alpha_value, k, depth, cutoff, f"@{cutoff}", notes)


def _check_powers(alpha: Fraction, cutoff: int) -> None:
    """A LimitError naming MAX_EXACT_DIGITS, before any gain is computed, when (1-α)^(i-1) over the k ranks (the
    "ideal ideal" list's gains, and a subtopic seen at every rank) would be too long to compute exactly."""
    keep = 1 - alpha
    base = max(keep.numerator, keep.denominator)
    written = exact.decimal_text(alpha, MAX_DIGITS) if exact.is_terminating(alpha, MAX_DIGITS) else exact.exact_text(alpha)
    check_exact_digits(power_digits(base, cutoff), f"(1-α)^(i-1) at α = {written} over k = {cutoff:,} ranks",
                       "give α fewer digits (ndeval's 0.5) or a smaller cut-off (--k)")


def _refuse_logarithms(count: int, limit: int, name: str, what: str) -> None:
    raise LimitError(f"{what} holds {count:,} logarithms, kept exact in sympy; irlab takes at most {limit:,} there (its "
                     f"limit {name}; ndeval's cut-offs go to 20): give a cut-off (--k 20), or evaluate whole TREC runs "
                     "with irlab eval --diversity")


def _alpha_leaf(setup) -> Traced:
    return Traced(setup.alpha, "α", "α, the chance that a relevant document satisfies the user's interest in its "
                                    "subtopic: a subtopic seen c times is still of interest with chance (1-α)^c, "
                                    "its gain at the next document")


def _count_columns(ranking):
    if len(ranking.subtopics) <= SHOWN_SUBTOPIC_COLUMNS:
        return tuple(f"c_{s}" for s in ranking.subtopics), True
    return ("c_s of its subtopics",), False


def _count_cells(ranking, counts, per_subtopic):
    if per_subtopic:
        return tuple(counts.get(s, "") for s in ranking.subtopics)
    return (", ".join(f"c_{s} = {counts[s]}" for s in sorted(counts, key=_natural)) or "",)


def _terms_text(counts, alpha, grades=None) -> str:
    """(1-α)^c per subtopic of the document, as values: '1 + 1/2' (graded: 'y · (1-α)^c', '2·1/2 + 1')."""
    if not counts:
        return "0"
    keep = 1 - alpha
    grades = grades or {}
    return " + ".join((f"{grades[s]}·" if grades.get(s, 1) != 1 else "") + exact.exact_text(keep ** counts[s])
                      for s in sorted(counts, key=_natural))


def _rows(setup, sets, docnos, labels, discount, mark=""):
    """The per-rank table of a list and the traced terms g_i · discount(i) (discount: 'log' or 'rank')."""
    ranking = setup.ranking
    count_names, per_subtopic = _count_columns(ranking)
    if discount == "log" and len(sets) > MAX_LOG_RUNNING:  # its cumulative column re-adds logarithms at every rank
        _refuse_logarithms(len(sets), MAX_LOG_RUNNING, "MAX_LOG_RUNNING", f"α-DCG's cumulative Σ g_i / log2(i+1) "
                           f"over {len(sets):,} ranks{' of the ideal ranking' if mark else ''}")
    grades = [ranking.grade_of(docno) for docno in docnos] if ranking.grades and docnos is not None else None
    if grades:  # c_s sums grades, so (1-α)^c_s may have more factors than ranks: bounded as _check_powers bounds them
        _check_powers(setup.alpha, sum(sum(g.get(s, 1) for s in relevant) for g, relevant in zip(grades, sets)))
    gains = _gains(sets, setup.alpha, ranking.subtopics, grades)
    rows, terms, running = [], [], 0
    for rank, (counts, gain) in enumerate(gains, 1):
        leaf = Traced(gain, f"g{mark}_{rank}")
        term = leaf / (log(rank + 1) if discount == "log" else Traced(rank))
        terms.append(term)
        running = exact.add(running, term.value)
        doc = (docnos[rank - 1],) if docnos is not None else ()
        rows.append((rank, *doc, labels[rank - 1], *_count_cells(ranking, counts, per_subtopic),
                     _terms_text(counts, setup.alpha, grades[rank - 1] if grades else {}), gain, term, running))  # the term as written: (1/2)/log2(6)
    divisor = "log2(i+1)" if discount == "log" else "i"
    columns = ("rank i", *(("docno",) if docnos is not None else ()), "subtopics", *count_names,
               "(1-α)^c_s", "gain g_i", f"g_i / {divisor}", "cumulative")
    return rows, columns, terms


def _run_table(setup, discount, caption):
    ranking = setup.ranking
    sets = ranking.retrieved[: setup.depth]
    docnos = ranking.docnos[: setup.depth] if ranking.docnos is not None else None
    labels = [ranking.label(rank) for rank in range(1, setup.depth + 1)]
    rows, columns, terms = _rows(setup, sets, docnos, labels, discount)
    return Table(columns, tuple(rows), caption), terms


def _ideal_table(setup, discount):
    order = _greedy(setup.ranking, setup.alpha, setup.cutoff)
    sets = [relevant for _, relevant in order]
    labels = ["+".join(sorted(relevant, key=_natural)) for relevant in sets]
    rows, columns, terms = _rows(setup, sets, [docno for docno, _ in order], labels, discount, "*")
    caption = ("Greedy ideal ranking: at each rank the judged relevant document with the largest gain, ties to the "
               "largest docno (ndeval)")
    return Table(columns, tuple(rows), caption), terms


def _ideal_ideal(setup, discount, symbol, label):
    """S · (1-α)^(i-1) · discount(i) summed over the k ranks of a list relevant to every subtopic."""
    S = Traced(len(setup.ranking.subtopics), "S", "Subtopics with at least one relevant document")
    keep = 1 - setup.alpha
    if discount == "log" and setup.cutoff > MAX_LOG_TERMS:
        _refuse_logarithms(setup.cutoff, MAX_LOG_TERMS, "MAX_LOG_TERMS", f"the \"ideal ideal\" α-DCG{setup.suffix}, "
                           f"a sum of S (1-α)^(i-1) / log2(i+1) over k = {setup.cutoff:,} ranks")
    terms = []
    for rank in range(1, setup.cutoff + 1):
        gain = Traced(len(setup.ranking.subtopics) * keep ** (rank - 1))
        terms.append(gain / (log(rank + 1) if discount == "log" else Traced(rank)))
    return total(terms, symbol, label), S


def _zero_subtopics(setup, metric, title, symbol, parameters, conventions=None):
    setup.notes.append(Note("warning", "no subtopic has a relevant document (S = 0): the value is reported as 0, as "
                                       "ndeval reports it"))
    return Result(metric, title, Traced(0, symbol, title), context=setup.ranking.describe(), notes=setup.notes,
                  parameters=parameters, conventions=conventions)


def _beats_greedy(setup, value, name):
    if exact.to_float(value.value) > 1:
        setup.notes.append(Note("warning", f"{name} > 1: this ranking beats the greedy ideal ranking. Finding the best "
                                           "ranking is NP-hard (Clarke et al. 2008), so the ideal is built greedily, "
                                           "as ndeval builds it, and a ranking may do better"))


def _parameters(setup) -> dict:
    return {"k": setup.k, "alpha": setup.alpha}


def _normalisation(choice):
    return {"diversity_normalisation": conv.DIVERSITY_NORMALISATION.choice(choice)}


def _formula(metric, choices):
    """The formula of the value computed: ndeval's quotient, or None for the declaration's (the papers' raw sum)."""
    return NDEVAL_FORMULAS[metric] if choices["diversity_normalisation"].key == "ndeval" else None


def alpha_dcg(ranking: IntentRanking, k=None, alpha=None, diversity_normalisation=None) -> Result:
    """α-DCG@k = Σ_{i<=k} g_i / log2(i + 1), g_i = Σ_{s ∈ d_i} (1-α)^{c_s(i)} (Clarke et al. 2008).

    By default (diversity_normalisation ``ndeval``) divided by the α-DCG@k of the ideal-ideal list (gain
    S · (1-α)^(i-1) at rank i), as ndeval's alpha-DCG@k; ``raw`` gives the paper's sum.

    Graded per-subtopic labels y_{i,s} ('2:2 1+2'): TF-Ranking's AlphaDCGMetric, g_i = Σ_s y_{i,s} · (1-α)^{c_s(i)},
    c_s(i) = Σ_{j<i} y_{j,s}, the raw sum: ndeval's normalisation assumes binary judgments, so with grades irlab
    takes ``raw`` when no normalisation is named and refuses ``ndeval``.

    >>> alpha_dcg(IntentRanking.parse("1 1"), diversity_normalisation="raw").value  # 1 + (1/2) / log2(3)
    1 + 1/(2*log2(3))
    >>> round(float(alpha_dcg(IntentRanking.parse("2:2 1 1+2"))), 6)  # TF-Ranking's ragged example, its 2nd list
    3.00593
    """
    setup = _setup(ranking, k, alpha)
    graded = bool(setup.ranking.grades)
    if graded and diversity_normalisation is None:
        diversity_normalisation = "raw"
        setup.notes.append(Note("convention", GRADED_NOTE))
    choices = _normalisation(diversity_normalisation)
    if graded and choices["diversity_normalisation"].key != "raw":
        raise ParameterError("graded per-subtopic labels ('1:2') give TF-Ranking's α-DCG, the raw sum: ndeval reads "
                             "binary judgments and divides by a list relevant to every subtopic, which grades do not "
                             "define; ask for diversity_normalisation = raw, or write the subtopics without grades")
    symbol = f"α-DCG{setup.suffix}"
    if not setup.ranking.subtopics:
        return _zero_subtopics(setup, "alpha-dcg", "α-DCG", symbol, _parameters(setup), choices)
    caption = ("Ranking: gain g_i = Σ_s y_s · (1-α)^c_s over the document's subtopics, y_s its grade for s and c_s "
               "the sum of the grades for s above it" if graded else
               "Ranking: gain g_i = Σ_s (1-α)^c_s over the document's subtopics, c_s the documents above it relevant to s")
    table, terms = _run_table(setup, "log", caption)
    raw = total(terms, symbol if choices["diversity_normalisation"].key == "raw" else f"α-DCG_raw{setup.suffix}",
                "Sum of the discounted gains (TF-Ranking's AlphaDCGMetric)" if graded else
                "Sum of the discounted gains (Clarke et al. 2008)")
    support = [_alpha_leaf(setup)]
    if choices["diversity_normalisation"].key == "raw":
        value = raw
    else:
        ideal, S = _ideal_ideal(setup, "log", f"IIDCG{setup.suffix}",
                                "α-DCG of the ideal-ideal list: every document relevant to all S subtopics")
        support.append(S)
        value = (raw / ideal).named(symbol, "α-DCG, normalised as ndeval (collection-independent)")
        setup.notes.append(Note("reading", NORMALISATION_NOTE["alpha-dcg"]))
    return Result("alpha-dcg", "α-DCG (novelty- and diversity-aware DCG)", value, context=setup.ranking.describe(),
                  notes=setup.notes, tables=[table], conventions=choices, parameters=_parameters(setup),
                  support=support, formula=GRADED_FORMULA if graded else _formula("alpha-dcg", choices))


def alpha_ndcg(ranking: IntentRanking, k=None, alpha=None) -> Result:
    """α-nDCG@k = α-DCG@k / α-DCG@k of the greedy ideal ranking (Clarke et al. 2008; ndeval's alpha-nDCG@k).

    0 when the run's α-DCG@k is 0 (ndeval). The normalisation convention cancels in the ratio.

    >>> round(alpha_ndcg(IntentRanking.parse("1 2 1+2")).decimal, 4)
    0.8306
    >>> alpha_ndcg(IntentRanking.parse("1+2 2 1")).value
    1
    """
    setup = _setup(ranking, k, alpha, metric="alpha-ndcg")
    symbol = f"α-nDCG{setup.suffix}"
    title = "α-nDCG (novelty- and diversity-aware nDCG)"
    if not setup.ranking.subtopics:
        return _zero_subtopics(setup, "alpha-ndcg", title, symbol, _parameters(setup))
    table, terms = _run_table(setup, "log", "Ranking: gain g_i = Σ_s (1-α)^c_s over the document's subtopics, "
                                            "c_s the documents above it relevant to s")
    gained = total(terms, f"α-DCG{setup.suffix}", "α-DCG of the ranking")
    ideal_table, ideal_terms = _ideal_table(setup, "log")
    ideal = total(ideal_terms, f"α-IDCG{setup.suffix}", "α-DCG of the greedy ideal ranking")
    support = [_alpha_leaf(setup)]
    if gained.value == 0:
        setup.notes.append(Note("warning", "the ranking's α-DCG is 0: α-nDCG is reported as 0, as ndeval reports it"))
        value, support = Traced(0, symbol, "α-nDCG"), support + [gained, ideal]
    else:
        value = (gained / ideal).named(symbol, "α-nDCG")
        _beats_greedy(setup, value, "α-nDCG")
    ratio = (gained, ideal) if exact.is_symbolic(value.value) else ()
    return Result("alpha-ndcg", title, value, context=setup.ranking.describe(), notes=setup.notes,
                  tables=[table, ideal_table], parameters=_parameters(setup), support=support, ratio=ratio)


def err_ia(ranking: IntentRanking, k=None, alpha=None, diversity_normalisation=None) -> Result:
    """ERR-IA@k, intent-aware ERR with P(s) = 1/S and satisfaction probability α (Chapelle et al. 2011).

    ``raw``: (α / S) · Σ_{i<=k} g_i / i, the paper's value. ``ndeval`` (default): Σ_{i<=k} g_i / i divided by
    the same sum for the ideal-ideal list, Σ_{i<=k} S · (1-α)^(i-1) / i, as ndeval's ERR-IA@k.

    >>> err_ia(IntentRanking.parse("1 2"), diversity_normalisation="raw").value  # (1/2)/2 · (1 + 1/2)
    Fraction(3, 8)
    """
    setup = _setup(ranking, k, alpha, metric="err-ia")
    choices = _normalisation(diversity_normalisation)
    symbol = f"ERR-IA{setup.suffix}"
    title = "ERR-IA (intent-aware expected reciprocal rank)"
    if not setup.ranking.subtopics:
        return _zero_subtopics(setup, "err-ia", title, symbol, _parameters(setup), choices)
    table, terms = _run_table(setup, "rank", "Ranking: gain g_i = Σ_s (1-α)^c_s; a user after subtopic s is "
                                             "satisfied by a document relevant to s with probability α")
    summed = total(terms, f"E{setup.suffix}", "Sum of g_i / i over the ranks")
    a = _alpha_leaf(setup)
    S = Traced(len(setup.ranking.subtopics), "S", "Subtopics with at least one relevant document")
    if choices["diversity_normalisation"].key == "raw":
        value = (a / S * summed).named(symbol, "ERR-IA: (α / S) · Σ g_i / i")
        support = []
    else:
        ideal, S = _ideal_ideal(setup, "rank", f"E_II{setup.suffix}",
                                "Σ g_i / i of the ideal-ideal list: every document relevant to all S subtopics")
        value = (summed / ideal).named(symbol, "ERR-IA, normalised as ndeval (collection-independent)")
        support = [a, S]
        setup.notes.append(Note("reading", NORMALISATION_NOTE["err-ia"]))
    return Result("err-ia", title, value, context=setup.ranking.describe(), notes=setup.notes, tables=[table],
                  conventions=choices, parameters=_parameters(setup), support=support, formula=_formula("err-ia", choices))


def nerr_ia(ranking: IntentRanking, k=None, alpha=None) -> Result:
    """nERR-IA@k = ERR-IA@k / ERR-IA@k of the greedy ideal ranking = Σ g_i / i over Σ g*_i / i (ndeval nERR-IA@k).

    >>> nerr_ia(IntentRanking.parse("2 1+2")).value  # (1 + 1/2 · 3/2) / (2 + 1/2 · 1/2)
    Fraction(7, 9)
    """
    setup = _setup(ranking, k, alpha, metric="nerr-ia")
    symbol = f"nERR-IA{setup.suffix}"
    title = "nERR-IA (intent-aware ERR over that of the ideal ranking)"
    if not setup.ranking.subtopics:
        return _zero_subtopics(setup, "nerr-ia", title, symbol, _parameters(setup))
    table, terms = _run_table(setup, "rank", "Ranking: gain g_i = Σ_s (1-α)^c_s over the document's subtopics")
    summed = total(terms, f"E{setup.suffix}", "Σ g_i / i of the ranking")
    ideal_table, ideal_terms = _ideal_table(setup, "rank")
    ideal = total(ideal_terms, f"E*{setup.suffix}", "Σ g*_i / i of the greedy ideal ranking")
    support = [_alpha_leaf(setup)]
    if summed.value == 0:
        setup.notes.append(Note("warning", "no retrieved document is relevant: nERR-IA is reported as 0, as ndeval "
                                           "reports it"))
        value, support = Traced(0, symbol, "nERR-IA"), support + [summed, ideal]
    else:
        value = (summed / ideal).named(symbol, "nERR-IA (the factor α / S of ERR-IA cancels)")
        _beats_greedy(setup, value, "nERR-IA")
    return Result("nerr-ia", title, value, context=setup.ranking.describe(), notes=setup.notes,
                  tables=[table, ideal_table], parameters=_parameters(setup), support=support)


def subtopic_recall(ranking: IntentRanking, k=None) -> Result:
    """strec@k = #(subtopics covered by the top k) / S (Zhai, Cohen & Lafferty 2003; ndeval strec@k).

    >>> subtopic_recall(IntentRanking.parse("1 - 1", unretrieved="2"), k=2).value
    Fraction(1, 2)
    """
    setup = _setup(ranking, k, None, metric="strec")
    symbol = f"strec{setup.suffix}"
    title = "Subtopic recall"
    if not setup.ranking.subtopics:
        return _zero_subtopics(setup, "strec", title, symbol, {"k": setup.k})
    covered, rows = set(), []
    for rank in range(1, setup.depth + 1):
        new = setup.ranking.retrieved[rank - 1] - covered
        covered |= new
        doc = (setup.ranking.docnos[rank - 1],) if setup.ranking.docnos is not None else ()
        rows.append((rank, *doc, setup.ranking.label(rank), "+".join(sorted(new, key=_natural)) or "", len(covered)))
    columns = ("rank i", *(("docno",) if setup.ranking.docnos is not None else ()), "subtopics", "new subtopics",
               "covered so far")
    found = Traced(len(covered), "covered", f"Subtopics covered by the top {setup.cutoff}")
    S = Traced(len(setup.ranking.subtopics), "S", "Subtopics with at least one relevant document")
    value = (found / S).named(symbol, "Subtopic recall")
    return Result("strec", title, value, context=setup.ranking.describe(), notes=setup.notes,
                  tables=[Table(columns, tuple(rows))], parameters={"k": setup.k})


def precision_ia(ranking: IntentRanking, k=None) -> Result:
    """P-IA@k = Σ_s (1/S) · P_s@k = Σ_{i<=k} #subtopics(d_i) / (k · S) (Agrawal et al. 2009; ndeval P-IA@k).

    >>> precision_ia(IntentRanking.parse("1+2 - 1"), k=4).value  # 3 / (4 · 2)
    Fraction(3, 8)
    """
    setup = _setup(ranking, k, None, metric="p-ia")
    symbol = f"P-IA{setup.suffix}"
    title = "Intent-aware precision"
    if not setup.ranking.subtopics:
        return _zero_subtopics(setup, "p-ia", title, symbol, {"k": setup.k})
    if setup.cutoff == 0:
        setup.notes.append(Note("warning", "an empty list with no cut-off: P-IA is reported as 0"))
        return Result("p-ia", title, Traced(0, symbol, title), context=setup.ranking.describe(), notes=setup.notes,
                      parameters={"k": setup.k})
    rows, so_far, leaves = [], 0, []
    for rank in range(1, setup.depth + 1):
        relevant = setup.ranking.retrieved[rank - 1]
        so_far += len(relevant)
        if relevant:
            leaves.append(Traced(len(relevant), f"m_{rank}"))
        doc = (setup.ranking.docnos[rank - 1],) if setup.ranking.docnos is not None else ()
        rows.append((rank, *doc, setup.ranking.label(rank), len(relevant), so_far))
    columns = ("rank i", *(("docno",) if setup.ranking.docnos is not None else ()), "subtopics",
               "m_i (subtopics it is relevant to)", "Σ m_i so far")
    pairs = total(leaves, "M", f"Relevant (document, subtopic) pairs in the top {setup.cutoff}")
    S = Traced(len(setup.ranking.subtopics), "S", "Subtopics with at least one relevant document")
    value = (pairs / (Traced(setup.cutoff, "k") * S)).named(symbol, "Intent-aware precision")
    return Result("p-ia", title, value, context=setup.ranking.describe(), notes=setup.notes,
                  tables=[Table(columns, tuple(rows))], parameters={"k": setup.k})


# -- several queries ----------------------------------------------------------------------------------------------------

BY_NAME = {"alpha-ndcg": alpha_ndcg, "alpha-dcg": alpha_dcg, "err-ia": err_ia, "nerr-ia": nerr_ia,
           "strec": subtopic_recall, "p-ia": precision_ia}
MEAN_NOTE = ("each query's value, then their arithmetic mean over the queries, every query weighing the same: "
             "ndeval's amean row and TF-Ranking's mean over lists")


def intent_mean(metric, rankings, labels=None, **options) -> Result:
    """An intent-aware metric over several queries: each query's value explained, then the mean (ndeval's amean).

    ``metric``: a name (``alpha-ndcg``, ``alpha-dcg``, ``err-ia``, ``nerr-ia``, ``strec``, ``p-ia``) or one of
    the functions; ``rankings``: IntentRankings or their written forms; ``options``: the metric's own (k, alpha…).

    >>> intent_mean("p-ia", ["1+2 -", "1 1"], k=2).value  # (2 / (2 · 2) + 2 / (2 · 1)) / 2
    Fraction(3, 4)
    """
    compute = BY_NAME.get(metric) if isinstance(metric, str) else metric
    if compute not in BY_NAME.values():
        raise ParameterError(f"intent_mean averages one of {', '.join(BY_NAME)}, got {str(metric)[:40]!r}")
    if isinstance(rankings, (str, IntentRanking)) or not hasattr(rankings, "__iter__"):
        raise InputTypeError("intent_mean takes a list of rankings judged per subtopic, one per query, "
                             f"got {type(rankings).__name__}")
    rankings = list(rankings)
    check_at_most(len(rankings), MAX_QUERIES, "the queries of one mean")
    rankings = [_checked(r) for r in rankings]
    if compute is alpha_dcg and options.get("diversity_normalisation") is None and any(r.grades for r in rankings):
        options = {**options, "diversity_normalisation": "raw"}  # one graded query makes every query's sum raw
    results = [compute(r, **options) for r in rankings]
    result = mean_over_queries(results, labels=labels)
    result.formula = results[0].formula if all(r.formula == results[0].formula for r in results) else None
    if compute is alpha_dcg and any(r.grades for r in rankings):
        result.formula = GRADED_FORMULA  # binary labels are grades 1: the graded definition covers every query
    result.notes.append(Note("convention", MEAN_NOTE))
    return result
