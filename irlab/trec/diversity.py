"""``irlab eval --diversity``: ndeval 4.5's intent-aware measures of a run on TREC diversity qrels.

Diversity qrels (TREC Web track 2009-2012) have trec_eval's four columns, the second being the subtopic::

    topic subtopic docno judgment

A document is relevant to a subtopic when its judgment is at least the relevance level (``-l``, default 1, so
ndeval's "judgment > 1 counts as 1"); a subtopic no document is relevant to is ignored, as ndeval ignores it.  The
run is read as ndeval reads it: ordered by the rank column (ndeval's default) or, with ``traditional``, by score
and then docno, both descending (ndeval's ``-traditional``, trec_eval's order).

Measures (ndeval's names; every cut-off family at any k, ndeval's 5, 10 and 20 by default), with S the topic's
subtopics, g(i) = Σ_{s relevant to doc i} (1-α)^(docs above i relevant to s) the novelty-discounted gain at rank i:

* ``alpha-DCG@k``  Σ_{i<=k} g(i)/log2(i+1), divided by the same sum for an "ideal ideal" list whose every document
  is relevant to every subtopic (S(1-α)^(i-1) at rank i): ndeval's collection-independent normalisation;
* ``alpha-nDCG@k`` Σ_{i<=k} g(i)/log2(i+1) divided by the same sum for the greedy ideal ranking of the judged
  documents (Clarke et al., SIGIR 2008);
* ``ERR-IA@k`` / ``nERR-IA@k``  the same with the discount 1/i (Chapelle et al., CIKM 2009, as ndeval cites it);
* ``NRBP``  (1-(1-α)β)/S · Σ_i g(i) β^(i-1) over the whole run; ``nNRBP`` divided by the greedy ideal's
  (Clarke, Kolla & Vechtomova, ICTIR 2009);
* ``MAP-IA``  the mean over subtopics of each subtopic's average precision; ``P-IA@k`` the mean over subtopics of
  P@k (Agrawal et al., WSDM 2009); ``strec@k`` the share of subtopics covered by the top k (Zhai et al. 2003).

The greedy ideal is ndeval's: at each rank the judged document of largest gain, ties going to the document whose
docno is largest by byte order (strcmp).  It is computed once per topic, only as deep as the measures read it, and
shared by every measure.  ``irlab explain alpha-ndcg --qrels Q --run R --topic T --k 5`` (and err-ia, nerr-ia, ...)
works one topic's value out exactly, step by step.

Values equal ndeval 4.5 (``tests/test_eval_diversity.py`` compares them with pyndeval, the same C code, and with
the exact :mod:`irlab.metrics.diversity`), with these differences, on purpose:

* any topic, subtopic and docno are accepted (ndeval reads topics and subtopics as natural numbers and strips a
  run topic's prefix such as ``wt09-``); topics are matched as written, and a note names a run topic ndeval
  would have matched;
* ndeval stops at 20 ranks; any cut-off up to ``MAX_RANKS`` is accepted here;
* at k = 1 ndeval forgets to divide alpha-DCG and ERR-IA by the ideal ideal list (it prints them only at 5, 10
  and 20, where it does); irlab divides at every k;
* a run topic without judgments is not printed (ndeval prints a line of zeros for it; neither counts it in the
  mean); bad lines, a repeated judgment, docno or rank are errors naming the file and line;
* ndeval's greedy ideal is quadratic: a topic's relevant documents times the distinct subtopic sets they cover is
  bounded (MAX_IDEAL_WORK, with MAX_SUBTOPICS), so that hostile qrels end in an error, not in minutes.

Like ndeval, a topic in the qrels but not in the run counts only with ``complete`` (ndeval's ``-c``), as 0; a
judged topic with no relevant document has every measure 0 and nNRBP 0/0 (printed ``-nan``, as ndeval does).
"""

from __future__ import annotations

import math
import os
import re
from collections import Counter
from dataclasses import dataclass
from itertools import chain, compress, count, islice, repeat
from operator import lt, ne

import numpy as np

from irlab.errors import InputFileError, IrlabError, ParameterError
from irlab.limits import MAX_IDEAL_WORK, MAX_RANKS, MAX_SUBTOPICS, check_at_most
from irlab.trec.context import EvalResult
from irlab.trec.diversity_arrays import evaluate_in_arrays
from irlab.trec.diversity_base import (DIGITS, FLOAT_TOKEN, DiversityLines, DiversityQrels, DiversityRun, TopicIntents,
                                       beta_powers, dcg_discount, dcg_term, err_term, finite_scores, id_text, ideal_ideal,
                                       natural_number, natural_numbers, shown_id, subtopic_order)
from irlab.trec.readers import listed

__all__ = ["NDEVAL_MEASURES", "FAMILIES", "DiversityQrels", "DiversityRun", "TopicIntents", "Measure",
           "read_diversity_qrels", "read_diversity_run", "read_diversity_topic", "parse_diversity_measures", "greedy_ideal",
           "topic_values", "evaluate_diversity"]

CUTOFF_FAMILIES = ("ERR-IA", "nERR-IA", "alpha-DCG", "alpha-nDCG", "P-IA", "strec")
WHOLE_RUN_FAMILIES = ("NRBP", "nNRBP", "MAP-IA")
FAMILIES = CUTOFF_FAMILIES + WHOLE_RUN_FAMILIES
NDEVAL_CUTOFFS = (5, 10, 20)
# ndeval 4.5's columns, in the order it prints them
NDEVAL_MEASURES = tuple(
    [f"{family}@{k}" for family in ("ERR-IA", "nERR-IA", "alpha-DCG", "alpha-nDCG") for k in NDEVAL_CUTOFFS]
    + ["NRBP", "nNRBP", "MAP-IA"]
    + [f"{family}@{k}" for family in ("P-IA", "strec") for k in NDEVAL_CUTOFFS])
NICKNAMES = ("all", "ndeval")   # -m all, -m ndeval: ndeval's 21 columns (the default)


# --------------------------------------------------------------------------
# reading into per-topic objects (irlab.trec.diversity_base splits the lines; evaluate_diversity reads plain files
# into arrays first, irlab.trec.diversity_arrays)


def _topic_spans(topics):
    """topic -> [(start, stop)]: the runs of consecutive rows of each topic, in row order (a file usually holds
    each topic in one run, found by comparing neighbours in bulk)."""
    cuts = [0, *compress(count(1), map(ne, topics, islice(topics, 1, None))), len(topics)]
    spans = {}
    for start, stop in zip(cuts, cuts[1:]):
        spans.setdefault(topics[start], []).append((start, stop))
    return spans


def _rows(column, spans):
    if len(spans) == 1:
        start, stop = spans[0]
        return column[start:stop]
    return [x for start, stop in spans for x in column[start:stop]]


def read_diversity_qrels(path, *, relevance_level: int = 1) -> DiversityQrels:
    """Read TREC diversity qrels (``topic subtopic docno judgment``; gzip or plain).

    A judgment is a whole number >= 0 (ndeval's reading: a negative one is an error); a document is relevant to the
    subtopic when its judgment is at least ``relevance_level``.  The same (topic, subtopic, docno) twice is an
    error naming both lines."""
    if isinstance(path, DiversityQrels):
        return path
    path = os.fspath(path)
    level = _level(relevance_level)
    topics, subtopics, docnos, grades, linenos = [], [], [], [], []
    lines = DiversityLines(path, 4, "qrels", (0, 1, 2))
    try:
        for buf in lines.chunks():
            read = lines.bulk(buf)
            numbers = (lines.numbers(3, True) or natural_numbers(read[0][3::4])) if read else None
            if numbers is not None:
                tokens, where, counts = read
                lines.commit(tokens, counts)
                topics += tokens[0::4]
                subtopics += tokens[1::4]
                docnos += tokens[2::4]
                grades += numbers
                linenos.append(where)
                continue
            where = []
            linenos.append(where)   # made an array below
            for lineno, (topic, subtopic, docno, judgment) in lines.one_by_one(buf):
                grades.append(natural_number(path, lineno, judgment, "judgment",
                                       "a diversity judgment is a whole number >= 0 (ndeval 4.5 reads it so)"))
                topics.append(topic)
                subtopics.append(subtopic)
                docnos.append(docno)
                where.append(lineno)
            linenos[-1] = np.array(where, dtype=np.int64)
    except IrlabError:
        # a judgment repeated before the line at fault is the first error, as when the file is read in order
        _check_repeats(path, topics, subtopics, docnos, linenos)
        raise
    lines.finish()
    result, repeated = {}, False
    for topic, spans in sorted(_topic_spans(topics).items()):
        judged, relevant_to, judgments = set(), {}, set()
        for start, stop in spans:
            judged.update(docnos[start:stop])
            judgments.update(zip(subtopics[start:stop], docnos[start:stop]))   # a topic's (subtopic, docno) pairs
            relevant = compress(zip(docnos[start:stop], subtopics[start:stop]),
                                map(level.__le__, grades[start:stop]))
            for docno, subtopic in relevant:
                relevant_to.setdefault(docno, []).append(subtopic)
        repeated = repeated or len(judgments) < sum(stop - start for start, stop in spans)
        result[topic] = _topic_intents(relevant_to, judged)
    if repeated:   # the first repeated judgment in file order, naming both lines
        _check_repeats(path, topics, subtopics, docnos, linenos)
    for topic, intents in result.items():   # after the repeats, as they are errors of the file's lines
        _check_topic_size(path, topic, intents)
    return DiversityQrels(path, result, level)


def _check_repeats(path, topics, subtopics, docnos, linenos):
    """The first (topic, subtopic, docno) judged twice, as an error naming both lines."""
    # ids hold no whitespace, so joined by a space they are one key (bytes: quicker to hash than tuples)
    if len(set(map(b" ".join, zip(topics, subtopics, docnos)))) == len(topics):
        return
    first = {}
    for row, key in enumerate(zip(topics, subtopics, docnos)):
        if key in first:
            where = np.concatenate([np.asarray(part, dtype=np.int64) for part in linenos])
            topic, subtopic, docno = key
            raise InputFileError(path, int(where[row]), f"docno {shown_id(docno)} is judged twice for topic "
                                                        f"{shown_id(topic)}, subtopic {shown_id(subtopic)} (first on "
                                                        f"line {int(where[first[key]])})")
        first[key] = row



def _check_topic_size(path, topic, intents):
    """The bounds that keep the greedy ideal ranking (quadratic, as ndeval's) within seconds."""
    where = f"topic {shown_id(topic)}"
    if len(intents.subtopics) > MAX_SUBTOPICS:
        raise InputFileError(path, None, f"{where} has {len(intents.subtopics):,} subtopics with a relevant document; "
                                         f"a topic has at most {MAX_SUBTOPICS:,} (irlab's limit MAX_SUBTOPICS)")
    sets = len(set(intents.relevant.values()))
    if len(intents.relevant) * sets > MAX_IDEAL_WORK:
        raise InputFileError(path, None, f"{where} has {len(intents.relevant):,} relevant documents covering {sets:,} "
                                         f"different sets of subtopics: their product is at most {MAX_IDEAL_WORK:,} "
                                         "(irlab's limit MAX_IDEAL_WORK, the work of the greedy ideal ranking; a TREC "
                                         "topic needs a few thousand)")


def _topic_intents(relevant_to, judged) -> TopicIntents:
    """``relevant_to``: docno -> the subtopics it is relevant to, in file order (each once: a judgment repeated is an
    error before this)."""
    documents = Counter(chain.from_iterable(relevant_to.values()))   # subtopic -> its relevant documents
    subtopics = subtopic_order(list(documents))
    index = {subtopic: i for i, subtopic in enumerate(subtopics)}
    indices = {}   # the same subtopics in the same order (most documents share a few): indexed and sorted once
    relevant = {}
    for docno, names in relevant_to.items():
        names = tuple(names)
        ix = indices.get(names)
        if ix is None:
            ix = indices[names] = tuple(sorted(map(index.__getitem__, names)))
        relevant[docno] = ix
    return TopicIntents(tuple(id_text(s) for s in subtopics), relevant, frozenset(judged),
                        tuple(documents[s] for s in subtopics))


def _level(relevance_level):
    if isinstance(relevance_level, bool) or not isinstance(relevance_level, int):
        raise ParameterError(f"the relevance level (-l) must be a whole number, got {relevance_level!r}")
    if relevance_level < 0:
        raise ParameterError(f"the relevance level (-l) must be >= 0 (diversity judgments are), got {relevance_level}")
    return relevance_level


def read_diversity_run(path, *, traditional: bool = False) -> DiversityRun:
    """Read a TREC run (``topic Q0 docno rank score runid``; gzip or plain) as ndeval 4.5 reads it.

    Each topic is ordered by its rank column (a whole number >= 0; the same rank twice in a topic is an error) or,
    with ``traditional``, by score then docno, both descending.  The score must be a finite number either way;
    the same docno twice in a topic is an error; the run id is the first line's, as in ndeval."""
    if isinstance(path, DiversityRun):
        return path
    path = os.fspath(path)
    topics, docnos, ranks, scores, linenos = [], [], [], [], []
    lines = DiversityLines(path, 6, "run", (0, 2))
    for buf in lines.chunks():
        read = lines.bulk(buf)
        numbers = (lines.numbers(3, True) or natural_numbers(read[0][3::6])) if read else None
        values = (lines.numbers(4, False) or finite_scores(read[0][4::6])) if numbers is not None else None
        if values is not None:
            tokens, where, counts = read
            lines.commit(tokens, counts)
            topics += tokens[0::6]
            docnos += tokens[2::6]
            ranks += numbers
            scores += values
            linenos.append(where)
            continue
        where = []
        for lineno, toks in lines.one_by_one(buf):
            ranks.append(natural_number(path, lineno, toks[3], "rank",
                                        "ndeval reads the rank column as a whole number >= 0"))
            score = toks[4]
            if not FLOAT_TOKEN.match(score) or not math.isfinite(float(score)):
                raise InputFileError(path, lineno, f"score {shown_id(score)} is not a finite number")
            scores.append(float(score))
            topics.append(toks[0])
            docnos.append(toks[2])
            where.append(lineno)
        linenos.append(np.array(where, dtype=np.int64))
    lines.finish()
    runid = id_text(lines.first[5])
    ranked = {}
    for topic, spans in sorted(_topic_spans(topics).items()):
        ranked[topic] = _ordered(_rows(docnos, spans), _rows(ranks, spans), _rows(scores, spans), traditional)
        if ranked[topic] is None:   # a docno or a rank repeated: the line-by-line ordering names both lines
            where = np.concatenate(linenos)
            rows = list(zip(_rows(ranks, spans), _rows(scores, spans), _rows(docnos, spans),
                            (int(where[i]) for i in _rows(range(len(topics)), spans))))
            ranked[topic] = _ranked(path, topic, rows, traditional)
    return DiversityRun(path, runid, ranked, traditional)


def _ordered(docnos, ranks, scores, traditional):
    """A topic's docnos in ndeval's order, or None when a docno or (ordering by rank) a rank is repeated."""
    if len(set(docnos)) != len(docnos):
        return None
    if traditional:   # ndeval's resultCompareByScore: score, then docno, both descending
        return tuple(docno for _, docno in sorted(zip(scores, docnos), reverse=True))
    if all(map(lt, ranks, islice(ranks, 1, None))):   # already in rank order, as runs usually are
        return tuple(docnos)
    if len(set(ranks)) != len(ranks):
        return None
    return tuple(docno for _, docno in sorted(zip(ranks, docnos)))



def _ranked(path, topic, rows, traditional):
    seen = {}
    for _, _, docno, lineno in rows:
        if docno in seen:
            raise InputFileError(path, lineno, f"duplicate docno {shown_id(docno)} for topic {shown_id(topic)} in run "
                                               f"(first on line {seen[docno]})")
        seen[docno] = lineno
    if traditional:   # ndeval's resultCompareByScore: score, then docno, both descending
        rows = sorted(rows, key=lambda row: (row[1], row[2]), reverse=True)
    else:
        rows = sorted(rows, key=lambda row: row[0])
        for before, after in zip(rows, rows[1:]):
            if before[0] == after[0]:
                first, second = sorted((before[3], after[3]))
                raise InputFileError(path, second, f"duplicate rank {after[0]} for topic {shown_id(topic)} in run "
                                                   f"(first on line {first}); ndeval orders a topic by its ranks "
                                                   "(--traditional orders it by score)")
    return tuple(row[2] for row in rows)


def read_diversity_topic(qrels, run, topic, *, depth=None, relevance_level: int = 1) -> IntentRanking:
    """One topic of TREC diversity qrels (``topic subtopic docno judgment``) and a run (``topic Q0 docno rank score
    runid``), gzip or plain, as an exact IntentRanking: ``irlab explain alpha-ndcg --qrels Q --run R --topic T``.

    The files are read by :func:`read_diversity_qrels` and :func:`read_diversity_run`, so with the bounds and
    errors of ``irlab eval --diversity`` and its values; the run is ordered by its rank column (ndeval's default),
    ``depth`` keeps its top M (ndeval -M), a judgment >= ``relevance_level`` is relevant, a retrieved document
    without a judgment is unjudged.  The topic's docnos and subtopics must be UTF-8 text, as explanations show
    them (``irlab eval --diversity`` takes any bytes).

    >>> import tempfile, os
    >>> folder = tempfile.mkdtemp()
    >>> with open(os.path.join(folder, "qrels"), "w") as f:
    ...     _ = f.write("7 1 a 1\\n7 2 a 1\\n7 2 b 0\\n")
    >>> with open(os.path.join(folder, "run"), "w") as f:
    ...     _ = f.write("7 Q0 b 1 0.2 r\\n7 Q0 x 2 0.1 r\\n7 Q0 a 3 0.9 r\\n")
    >>> ranking = read_diversity_topic(os.path.join(folder, "qrels"), os.path.join(folder, "run"), "7")
    >>> ranking.docnos, [ranking.label(rank) for rank in (1, 2, 3)]
    (('b', 'x', 'a'), ['-', '?', '1+2'])
    """
    name = str(topic).strip()
    if not name:
        raise ParameterError("--topic names the topic to explain (the qrels' first column)")
    if depth is not None and (isinstance(depth, bool) or not isinstance(depth, int) or depth < 1):
        raise ParameterError(f"the run depth must be a whole number >= 1, got {depth!r}")
    judged = read_diversity_qrels(qrels, relevance_level=relevance_level)
    ranked = read_diversity_run(run)
    key = name.encode("utf-8")
    if key not in judged.topics:
        raise InputFileError(judged.path, None, f"topic {name} has no judgments in these diversity qrels")
    if key not in ranked.topics:
        raise InputFileError(ranked.path, None, f"topic {name} has no retrieved documents in this run")
    intents, docnos = judged.topics[key], ranked.topics[key][:depth]
    for path, ids, what in ((judged.path, intents.judged, "docno"), (ranked.path, docnos, "docno"),
                            (judged.path, [s.encode("utf-8", "surrogateescape") for s in intents.subtopics], "subtopic")):
        for value in ids:
            _utf8(path, name, value, what)
    judgments = {id_text(docno): {intents.subtopics[index]: 1 for index in intents.relevant.get(docno, ())}
                 for docno in intents.judged}
    remarks = [f"topic {name} of {ranked.path} judged by the diversity qrels {judged.path}: documents in the order "
               "of the run's rank column (ndeval's default)" + (f", cut at depth {depth}" if depth else "")]
    if judged.relevance_level != 1:
        remarks.append(f"a judgment >= {judged.relevance_level} is relevant to its subtopic")
    # deferred: irlab.metrics (every metric and the document model) is for explanations; irlab eval never loads it
    from irlab.metrics.diversity import IntentRanking

    return IntentRanking.from_qrels([id_text(d) for d in docnos], judgments, remarks=tuple(remarks))


def _utf8(path, topic, value: bytes, what: str) -> None:
    try:
        value.decode("utf-8")
    except UnicodeDecodeError:
        shown = value.decode("utf-8", "backslashreplace")[:60]
        raise InputFileError(path, None, f"topic {topic}: {what} {shown} is not UTF-8 text, which an explanation "
                                         "must show (irlab eval --diversity evaluates such files)") from None


# --------------------------------------------------------------------------
# measures


@dataclass(frozen=True)
class Measure:
    column: str     # the name printed: alpha-nDCG@20, NRBP
    family: str     # alpha-nDCG, NRBP
    k: int | None   # the cut-off, None for a measure of the whole run


def parse_diversity_measures(specs=None) -> list:
    """The measures named by ``-m`` specifications, in the order given, each once.

    A spec is a family with cut-offs (``alpha-nDCG@20``, ``ERR-IA@5,10``), a family alone (its ndeval cut-offs 5,
    10 and 20), a whole-run measure (``NRBP``, ``nNRBP``, ``MAP-IA``) or ``all``/``ndeval``: ndeval's 21 columns,
    the default; one spec may list several, separated by commas (``alpha-nDCG@5,10,NRBP``).  Names are matched
    without regard to case.

    >>> [m.column for m in parse_diversity_measures(["alpha-nDCG@5,10,nrbp", "P-IA"])]
    ['alpha-nDCG@5', 'alpha-nDCG@10', 'NRBP', 'P-IA@5', 'P-IA@10', 'P-IA@20']
    """
    specs = list(specs) if specs else ["ndeval"]
    by_lower = {family.lower(): family for family in FAMILIES}
    chosen = {}
    for text in _split_specs(specs):
        if not text:
            raise ParameterError("empty diversity measure name in -m (measures are separated by single commas)")
        name, at, cutoffs = text.partition("@")
        if not at and name.lower() in NICKNAMES:
            for column in NDEVAL_MEASURES:
                family, _, k = column.partition("@")
                chosen.setdefault(column, Measure(column, family, int(k) if k else None))
            continue
        family = by_lower.get(name.strip().lower())
        if family is None:
            raise ParameterError(f"unknown diversity measure {text!r}: the measures are {', '.join(FAMILIES)} "
                                 f"(a cut-off family as NAME@K or NAME@K1,K2), or {' or '.join(NICKNAMES)}")
        if family in WHOLE_RUN_FAMILIES:
            if at:
                raise ParameterError(f"{family} is a measure of the whole run and takes no cut-off (got {text!r})")
            chosen.setdefault(family, Measure(family, family, None))
            continue
        for k in _cutoffs(text, cutoffs) if at else NDEVAL_CUTOFFS:
            column = f"{family}@{k}"
            chosen.setdefault(column, Measure(column, family, k))
    return list(chosen.values())


def _split_specs(specs):
    """Each -m value split at its commas into measures: a part that is a number is one more cut-off of the measure
    before it ('alpha-nDCG@5,10,NRBP' is alpha-nDCG@5,10 and NRBP)."""
    for spec in specs:
        parts = [part.strip() for part in str(spec).split(",")]
        current = None
        for part in parts:
            if current is not None and "@" in current and re.fullmatch(r"[0-9]+", part, re.ASCII):
                current += "," + part
                continue
            if current is not None:
                yield current
            current = part
        if current is not None:
            yield current


def _cutoffs(spec, text):
    values = []
    for part in text.split(","):
        part = part.strip()
        if not re.fullmatch(r"[0-9]{1,15}", part, re.ASCII) or int(part) < 1:
            raise ParameterError(f"measure {spec!r}: a cut-off is a whole number >= 1, got {part!r}")
        values.append(check_at_most(int(part), MAX_RANKS, f"a diversity cut-off (measure {spec!r})"))
    return values


def _check_unit(value, what):
    v = float(value)
    if not 0.0 <= v <= 1.0:   # also refuses nan
        raise ParameterError(f"{what} must be between 0 and 1, got {value}")
    return v


def greedy_ideal(topic: TopicIntents, alpha: float, depth: int | None = None) -> list:
    """ndeval's greedy ideal ranking of the relevant documents: [(docno, gain)] best first, the first ``depth``
    ranks of it (all by default: the greedy choice at a rank never depends on the ranks below it)."""
    return list(islice(_greedy_ranks(topic, alpha), depth))


def _greedy_ranks(topic: TopicIntents, alpha: float):
    """The greedy ideal ranking's (docno, gain), best first, each computed when it is asked for.

    At each rank the document whose gain Σ_{s} (1-α)^(documents above relevant to s) is largest, ties going to the
    largest docno (byte order, as ndeval's strcmp).  Gains are summed in subtopic order as ndeval sums them, so
    float ties are ndeval's.  Documents relevant to the same subtopics always tie, so they are grouped and ranked
    by docno within a group.  Each group's key (its gain, its next docno) is kept exact: a pick changes only
    the gains of the groups sharing a subtopic with it, which are re-summed, and max() over the keys
    (a few dozen groups) finds the next rank; the work stays within relevant documents times groups
    (MAX_IDEAL_WORK)."""
    keep = 1.0 - alpha
    gains = [1.0] * len(topic.subtopics)
    by_subtopics = {}
    for docno, subtopics in topic.relevant.items():
        by_subtopics.setdefault(subtopics, []).append(docno)
    names = list(by_subtopics)   # group g: the documents relevant to exactly the subtopics names[g]
    members = [sorted(by_subtopics[subtopics], reverse=True) for subtopics in names]
    heads = [0] * len(names)
    masks = [sum(1 << s for s in subtopics) for subtopics in names]
    sharing = {}   # group -> the groups sharing a subtopic with it (itself included), found at its first pick

    def key(g):
        if heads[g] == len(members[g]):
            return _EXHAUSTED, b"", g   # below every group with a document left (gains are >= 0)
        total = 0.0
        for s in names[g]:
            total += gains[s]
        return total, members[g][heads[g]], g   # a tie in gain: the larger docno (bytes compare as strcmp)

    keys = [key(g) for g in range(len(names))]
    for _ in range(len(topic.relevant)):
        best = max(keys)
        g = best[2]
        yield best[1], best[0]
        for s in names[g]:
            gains[s] *= keep
        heads[g] += 1
        if g not in sharing:
            sharing[g] = [h for h, mask in enumerate(masks) if mask & masks[g]]
        for h in sharing[g]:   # key(h), written out: this loop is most of the ideal's time
            at = heads[h]
            if at == len(members[h]):
                keys[h] = _EXHAUSTED, b"", h
                continue
            total = 0.0
            for s in names[h]:
                total += gains[s]
            keys[h] = total, members[h][at], h


_EXHAUSTED = -1.0   # a key's gain for a group without documents left: below every gain


class _Curves:
    """The per-rank quantities of one list (the run, or the greedy ideal) that the measures read, as ndeval computes
    them: gains in subtopic order, cumulative sums, then the ideal-ideal division."""

    def __init__(self, subtopic_lists, n_subtopics, alpha, beta, depth, whole):
        keep = 1.0 - alpha
        gains = [1.0] * n_subtopics
        dcg, err, pairs, covered = [], [], [], []
        nrbp, decay = 0.0, 1.0
        seen = [0] * n_subtopics
        count = covered_count = 0
        found = [0] * n_subtopics            # MAP-IA: relevant documents of each subtopic so far
        precision_sums = [0.0] * n_subtopics
        head = min(depth, len(subtopic_lists))
        for i in range(head):   # the ranks the cut-offs read
            subtopics = subtopic_lists[i]
            score = 0.0
            for s in subtopics:
                score += gains[s]
                gains[s] *= keep
            dcg.append(score * dcg_discount(i))
            err.append(score / (i + 1.0))
            count += len(subtopics)
            for s in subtopics:
                if not seen[s]:
                    seen[s] = 1
                    covered_count += 1
            pairs.append(count)
            covered.append(covered_count)
            nrbp += score * decay
            decay *= beta
            for s in subtopics:
                found[s] += 1
                precision_sums[s] += found[s] / (i + 1.0)
        if whole:   # below them only NRBP and MAP-IA, which a document relevant to nothing leaves exactly as they are
            tail = len(subtopic_lists)
            decays = beta_powers(beta, 1 << (tail - 1).bit_length()) if tail else ()
            for i in compress(range(head, tail), islice(subtopic_lists, head, tail)):
                subtopics = subtopic_lists[i]
                score = 0.0
                for s in subtopics:
                    score += gains[s]
                    gains[s] *= keep
                nrbp += score * decays[i]
                for s in subtopics:
                    found[s] += 1
                    precision_sums[s] += found[s] / (i + 1.0)
        self.dcg, self.err = _running(dcg), _running(err)
        self.pairs, self.covered = pairs, covered
        self.nrbp = nrbp * ((1.0 - keep * beta) / n_subtopics) if n_subtopics else 0.0   # ndeval's nrbp *= (...)/S
        self.precision_sums = precision_sums

    def at(self, values, k):
        """A cumulative value at cut-off k (1-based): the list's last when it is shorter."""
        if not values:
            return 0.0
        return values[min(k, len(values)) - 1]


def _running(values):
    total, out = 0.0, []
    for v in values:
        total += v
        out.append(total)
    return out


def topic_values(topic: TopicIntents, ranked, measures, *, alpha=0.5, beta=0.5, ideal=None) -> dict:
    """{column: value} of one topic: ``ranked`` docnos in rank order (already cut to the run depth),
    ``measures`` from :func:`parse_diversity_measures`; ``ideal`` the greedy ideal when already computed."""
    alpha, beta = _check_unit(alpha, "alpha"), _check_unit(beta, "beta")
    n = len(topic.subtopics)
    if n == 0:   # nothing relevant: every measure 0, and nNRBP ndeval's 0/0
        return {m.column: (math.nan if m.family == "nNRBP" else 0.0) for m in measures}
    depth = max((m.k for m in measures if m.k is not None), default=0)
    whole = any(m.k is None for m in measures)
    relevant = topic.relevant
    run = _Curves(list(map(relevant.get, ranked, repeat((), len(ranked)))), n, alpha, beta, depth, whole)
    needs_ideal = any(m.family in ("alpha-nDCG", "nERR-IA", "nNRBP") for m in measures)
    best = None
    if needs_ideal:
        # the ideal's ranks that count: the cut-offs, and for nNRBP those whose term can still change its sum
        if ideal is None:
            ranks = _greedy_ranks(topic, alpha)
            ideal = list(islice(ranks, depth))
            if whole:
                ideal += _ranks_nrbp_reads(ideal, ranks, beta)
        best = _Curves([relevant[d] for d, _ in ideal], n, alpha, beta, depth, whole)
    out = {}
    for m in measures:
        out[m.column] = _value(m, run, best, topic, n, alpha)
    return out


def _ranks_nrbp_reads(ideal, ranks, beta):
    """The ranks after ``ideal`` (the greedy ideal's first ranks) from ``ranks`` (the ones below) that can still
    change NRBP's float sum Σ_i g(i) β^(i-1), summed here as :class:`_Curves` sums it (ndeval sums the whole list).

    The greedy ideal's gains never increase down the list (a gain only loses its subtopics' shares), nor does
    β^(i-1): once the last gain times the next β^(i-1) is below half the spacing of floats above the sum, every
    later term rounds away and leaves the sum exactly as it is.  With β = 0.5 and 5 subtopics that is about 32
    ranks instead of every relevant document."""
    total, decay, last = 0.0, 1.0, None
    for _, gain in ideal:
        total += gain * decay
        decay *= beta
        last = gain
    more = []
    for docno, gain in ranks:
        if last is not None and last * decay < math.ulp(total) / 2:
            break
        more.append((docno, gain))
        total += gain * decay
        decay *= beta
        last = gain
    return more


def _value(m, run, best, topic, n, alpha):
    k, family = m.k, m.family
    if family in ("alpha-DCG", "alpha-nDCG"):
        normaliser = ideal_ideal(n, alpha, k, dcg_term)
        value = run.at(run.dcg, k) / normaliser
        if family == "alpha-DCG" or value == 0.0:
            return value
        return value / (best.at(best.dcg, k) / normaliser)   # ndeval divides the two normalised values
    if family in ("ERR-IA", "nERR-IA"):
        normaliser = ideal_ideal(n, alpha, k, err_term)
        value = run.at(run.err, k) / normaliser
        if family == "ERR-IA" or value == 0.0:
            return value
        return value / (best.at(best.err, k) / normaliser)
    if family == "P-IA":
        return run.at(run.pairs, k) / (k * n)
    if family == "strec":
        return run.at(run.covered, k) / n
    if family == "NRBP":
        return run.nrbp
    if family == "nNRBP":
        return run.nrbp / best.nrbp if best.nrbp else math.nan   # 0/0 (α = 0 and β = 1): ndeval's nan
    if family == "MAP-IA":
        total = 0.0
        for s, relevant_docs in enumerate(topic.per_subtopic):
            total += run.precision_sums[s] / relevant_docs
        return total / n
    raise ParameterError(f"unknown diversity measure {m.column!r}")


# --------------------------------------------------------------------------
# a run


def evaluate_diversity(qrels, run, measures=None, *, alpha=0.5, beta=0.5, traditional=False, depth=None,
                       complete=False, relevance_level=1, notes=None) -> EvalResult:
    """Evaluate ``run`` on diversity ``qrels`` (paths, or what the readers return) as ndeval 4.5 does.

    ``measures``: ``-m`` specifications (default: ndeval's 21 columns); ``alpha`` (redundancy intolerance) and
    ``beta`` (NRBP's patience) in [0, 1], default 0.5 as ndeval; ``traditional`` orders the run by score, not by
    rank; ``depth`` keeps the top ``depth`` documents of each topic (ndeval's -M); ``complete`` averages over
    every qrels topic, one missing from the run counting 0 (ndeval's -c).  The mean is over the topics in both
    files otherwise.  ``notes``, a list, receives sentences about topics the files do not share.

    >>> import tempfile, os
    >>> folder = tempfile.mkdtemp()
    >>> with open(os.path.join(folder, "qrels"), "w") as f:
    ...     _ = f.write("1 1 d1 1\\n1 2 d2 1\\n1 2 d3 1\\n")
    >>> with open(os.path.join(folder, "run"), "w") as f:
    ...     _ = f.write("1 Q0 d2 1 3 r\\n1 Q0 d3 2 2 r\\n1 Q0 d1 3 1 r\\n")
    >>> result = evaluate_diversity(os.path.join(folder, "qrels"), os.path.join(folder, "run"), ["strec@1,3"])
    >>> result.summary
    {'strec@1': 0.5, 'strec@3': 1.0}
    """
    alpha, beta = _check_unit(alpha, "alpha (--alpha)"), _check_unit(beta, "beta (--beta)")
    plan = parse_diversity_measures(measures)
    if depth is not None:
        if isinstance(depth, bool) or not isinstance(depth, int) or depth < 0:
            raise ParameterError(f"the run depth (-M) must be a whole number >= 0, got {depth!r}")
    level = _level(relevance_level)
    fast = None
    if not isinstance(qrels, DiversityQrels) and not isinstance(run, DiversityRun):
        fast = evaluate_in_arrays(os.fspath(qrels), os.fspath(run), plan, alpha=alpha, beta=beta,
                                  traditional=traditional, depth=depth, complete=complete, relevance_level=level,
                                  max_ideal_work=MAX_IDEAL_WORK)
    if fast is not None:   # the same values, from arrays (None: the files need the per-topic reading)
        per_topic, qrels, run, empty, left = fast
        for topic, (intents, docnos) in left.items():
            per_topic[topic] = topic_values(intents, docnos, plan, alpha=alpha, beta=beta)
    else:
        qrels = read_diversity_qrels(qrels, relevance_level=relevance_level)
        run = read_diversity_run(run, traditional=traditional)
        empty = [t for t in qrels.topics if t in run.topics and not qrels.topics[t].subtopics]
    shared = [t for t in qrels.topics if t in run.topics]
    evaluated = list(qrels.topics) if complete else shared
    if not shared and not complete:
        raise IrlabError(f"no topic has both judgments ({qrels.path}) and results ({run.path})")
    if notes is not None:
        notes.extend(coverage_notes(qrels, run, complete=complete))
        if alpha == 0.0 and beta == 1.0 and any(m.family in ("NRBP", "nNRBP") for m in plan):
            notes.append("with alpha 0 and beta 1, NRBP's factor 1 - (1 - alpha) beta is 0: NRBP is 0 and nNRBP 0/0, "
                         "printed -nan as ndeval prints it")
        if empty:
            notes.append(f"{_count(len(empty), 'topic')} of {qrels.path} {'has' if len(empty) == 1 else 'have'} no "
                         f"document judged relevant (judgment >= {qrels.relevance_level}): every measure is 0 but "
                         f"nNRBP, 0/0, printed -nan as ndeval prints it (and so is nNRBP's mean): "
                         f"{listed(map(id_text, empty), 5)}")
    if fast is None:
        per_topic = {}
        for topic in evaluated:
            if topic in run.topics:
                ranked = run.topics[topic] if depth is None else run.topics[topic][:depth]
                per_topic[id_text(topic)] = topic_values(qrels.topics[topic], ranked, plan, alpha=alpha, beta=beta)
            else:   # -c: ndeval adds nothing for it and divides by every qrels topic
                per_topic[id_text(topic)] = {m.column: 0.0 for m in plan}
    columns = [m.column for m in plan]
    summary = {}
    for column in columns:
        total = 0.0
        for values in per_topic.values():
            total += values[column]
        summary[column] = total / len(per_topic) if per_topic else math.nan
    return EvalResult(per_topic, summary, columns, run.runid, frozenset(), tuple(columns))


def _ndeval_topic(topic: bytes):
    """The topic number ndeval reads from a run's topic id ('wt09-51' -> 51, '051' -> 51), or None."""
    if topic[:1].isdigit():
        return int(topic) if DIGITS.match(topic) else None
    _, dash, rest = topic.partition(b"-")
    return int(rest) if dash and DIGITS.match(rest) else None


def coverage_notes(qrels: DiversityQrels, run: DiversityRun, *, complete=False, shown=5) -> list:
    """Sentences for stderr about the topics the two files do not share, and what ndeval would do with them."""
    notes = []
    unrun = [t for t in qrels.topics if t not in run.topics]
    if unrun and not complete:
        notes.append(f"{_count(len(unrun), 'qrels topic')} {'has' if len(unrun) == 1 else 'have'} no results in "
                     f"{run.path}: {listed(map(id_text, unrun), shown)}; the mean is over the topics both files share, "
                     "as ndeval's; -c counts each missing topic as 0")
    unjudged = [t for t in run.topics if t not in qrels.topics]
    if unjudged:
        notes.append(f"{_count(len(unjudged), 'run topic')} {'has' if len(unjudged) == 1 else 'have'} no judgments "
                     f"in {qrels.path} and {'is' if len(unjudged) == 1 else 'are'} not evaluated (ndeval prints a "
                     f"line of zeros for each and leaves it out of the mean): {listed(map(id_text, unjudged), shown)}")
        numbers = {}
        for t in qrels.topics:
            if DIGITS.match(t):
                numbers.setdefault(int(t), t)
        matched = [(t, numbers[_ndeval_topic(t)]) for t in unjudged if _ndeval_topic(t) in numbers]
        if matched:
            pairs = listed((f"{id_text(r)} as {id_text(q)}" for r, q in matched), shown)
            notes.append(f"ndeval would read run topics as numbers ({pairs}); irlab matches topic ids as written: "
                         "rename them in the run to evaluate them")
    return notes


def _count(n, noun):
    return f"{n} {noun}{'s' * (n != 1)}"
