"""Pooling: the documents assessors judge are the union of every run's top k (IIR 8.5; Voorhees & Harman 2005).

For runs r_1 … r_m and a depth k:

    pool = ∪_j top_k(r_j),   pool size |pool|,
    judged from run j = |top_k(r_j)|,   unique contributions of run j = |top_k(r_j) \\ ∪_{i≠j} top_k(r_i)|

A run whose unique contributions are many would lose most if it were left out of the pool (Zobel 1998).

``pool`` solves the exercise shape (rankings of ids); ``pool_runs`` pools TREC run files over every topic, each
ranked as trec_eval ranks it, and is what ``irlab pool RUN... -k K [-o judging-list]`` prints and writes.

>>> solution = pool({"A": "d1,d2,d3,d4", "B": "d2,d5,d1,d6"}, depth=3)
>>> [str(a.value) for a in solution.answers]
['4', '1', '1']
"""

from __future__ import annotations

import io
import re
import string
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from .. import spreadsheet
from ..document import Answer as AnswerBlock
from ..document import Document, Note, Paragraph, Table
from ..errors import InputFileError, ParameterError, RankingError
from ..limits import MAX_LINE_BYTES
from ..metric import Result, check_cutoff
from ..ranking import parse_ids
from ..trace import Traced
from .solution import Answer, Solution


def _runs(runs) -> dict:
    if not isinstance(runs, dict) or not runs:
        raise RankingError("pooling needs runs: a mapping run name -> its ranked document ids ('d1,d2,d3')")
    parsed = {}
    for name, ids in runs.items():
        parsed[str(name)] = parse_ids(ids, f"run {name}")  # refuses an empty run and a repeated id
    return parsed


def pool(runs, depth, relevant=None) -> Solution:
    """The depth-k pool of several runs: its size, what each run adds, and what each run alone adds.

    ``runs`` maps a run's name to its ranked document ids; ``relevant`` (optional) lists the relevant documents,
    to count how many of them the pool finds.
    """
    k = check_cutoff(depth)
    if k is None:
        raise ParameterError("pooling needs a depth k")
    runs = _runs(runs)
    tops = {name: ranked[:k] for name, ranked in runs.items()}
    members = []
    for top in tops.values():
        members += [d for d in top if d not in members]
    size = Traced(len(members), "|pool|", f"Documents in the pool: the union of every run's top {k} "
                                          f"({', '.join(sorted(members, key=_natural))})")
    rows, answers = [], [Answer(f"Pool size at depth {k}", Result("pool", "Pool size", size, context=_context(tops, k)))]
    for name, top in tops.items():
        others = {d for other, t in tops.items() if other != name for d in t}
        unique = [d for d in top if d not in others]
        judged = len(top)
        rows.append((name, judged, len(unique), ", ".join(unique) or "—"))
        value = Traced(len(unique), f"unique({name})",
                       f"Documents only run {name} puts in its top {k} ({', '.join(unique) or 'none'})")
        answers.append(Answer(f"Unique contributions of run {name}", Result("pool", f"Unique contributions of {name}",
                                                                             value, context=_context(tops, k))))
    table = Table(("run", f"documents judged (top {k})", "unique contributions", "which"), tuple(rows),
                  f"Pool of depth {k}")
    notes = [table, Note("reading", f"the assessors judge the {len(members)} pooled documents "
                                    f"({', '.join(sorted(members, key=_natural))}); a document outside the pool counts "
                                    "as non-relevant "
                                    "(IIR 8.5)")]
    if relevant is not None:
        relevant_ids = set(parse_ids(relevant, "relevant") if isinstance(relevant, str) else map(str, relevant))
        found = [d for d in members if d in relevant_ids]
        value = Traced(len(found), "found", f"Relevant documents in the pool ({', '.join(sorted(found, key=_natural)) or 'none'})")
        answers.append(Answer("Relevant documents the pool finds", Result(
            "pool", "Relevant documents in the pool", value, context=_context(tops, k),
            notes=[Note("reading", _outside(sorted(relevant_ids - set(found), key=_natural)))])))
    return Solution(answers, notes)


def _natural(docno: str):
    """d2 before d10."""
    return [int(part) if part.isdigit() else part for part in re.split(r"(\d+)", docno)]


def _outside(missed) -> str:
    if not missed:
        return "every relevant document is in the pool"
    one = len(missed) == 1
    return (f"{len(missed)} relevant document{'' if one else 's'} ({', '.join(missed)}) "
            f"stay{'s' if one else ''} outside the pool and would be judged non-relevant")


def _context(tops, k) -> str:
    return "; ".join(f"run {name}: top {k} = {', '.join(top)}" for name, top in tops.items())


def trec_pool(run_paths, depth, topic) -> Solution:
    """The depth-k pool of TREC run files for one topic (each run ranked as trec_eval ranks it)."""
    from ..trec import read_run  # deferred: irlab.trec loads numpy; exercise sets import this module (solver pool) and need neither

    runs = {}
    for path in run_paths:
        run = read_run(path)
        ranked = ranked_by_topic(run).get(str(topic), [])
        if not ranked:
            raise RankingError(f"{path} has no documents for topic {topic}")
        runs[run.runid if run.runid not in runs else str(path)] = ranked
    return pool(runs, depth)


def ranked_by_topic(run) -> dict[str, list[str]]:
    """topic -> the run's docnos by score descending, ties by docno descending (trec_eval's order), every row once.

    One sort of the whole run: ascending by (topic descending, score, docno) is exactly the reverse of trec_eval's
    order within each topic, so the reversed sort is grouped by topic in trec_eval's order.
    """
    import numpy as np  # deferred: numpy is heavy; only pooling TREC run files needs it

    if len(run) == 0:
        return {}
    names = run.topic_names
    topic_rank = np.argsort(np.argsort(np.array([n.encode("utf-8", "surrogateescape") for n in names])))
    key = topic_rank[run.topic_idx]
    order = np.lexsort((run.docno, run.score, -key))[::-1]
    topics = run.topic_idx[order]
    docnos = [d.decode("utf-8", "surrogateescape") for d in run.docno[order].tolist()]
    bounds = np.flatnonzero(np.diff(topics)) + 1
    starts = [0, *bounds.tolist()]
    ends = [*bounds.tolist(), len(order)]
    return {names[int(topics[a])]: docnos[a:b] for a, b in zip(starts, ends)}


@dataclass
class RunPool:
    """One run's part in the pool: rows read, rows in its top k per topic, and what only it brought in."""

    label: str
    path: str
    runid: str
    rows: int
    rows_elsewhere: int = 0  # rows of topics left out of the pools (--topic)
    pooled: dict = field(default_factory=dict)  # topic -> its top-k docnos
    unique: dict = field(default_factory=dict)  # topic -> docnos in no other run's top k

    @property
    def in_top_k(self) -> int:
        return sum(len(top) for top in self.pooled.values())


@dataclass
class TrecPool:
    """Depth-k pools of several runs over every topic (or the chosen ones), and each run's contributions."""

    depth: int
    runs: list
    pools: dict  # topic -> pooled docnos, sorted by docno (the order assessors see them in)

    @property
    def size(self) -> int:
        return sum(len(docs) for docs in self.pools.values())

    def judging_list(self, fmt: str = "qrels") -> str:
        """The pooled documents to judge: qrels lines ``topic 0 docno -1`` (trec_eval reads -1 as "in the pool,
        not judged" until the assessor writes a grade), or a CSV with an empty relevance column (no topic or docno
        cell reads as a spreadsheet formula, and every apostrophe irlab adds is one ``irlab pool --to-qrels``
        removes: :func:`irlab.spreadsheet.reversible_id`, :mod:`irlab.solvers.judging`)."""
        if fmt == "csv":
            out = io.StringIO()
            writer = spreadsheet.writer(out)
            writer.writerow(("topic", "docno", "relevance"))
            writer.writerows((spreadsheet.reversible_id(topic, first=True), spreadsheet.reversible_id(doc), "")
                             for topic, docs in self.pools.items() for doc in docs)
            return out.getvalue()
        return "".join(f"{topic} 0 {doc} -1\n" for topic, docs in self.pools.items() for doc in docs)

    def document(self) -> Document:
        """The report: per topic the pool size and each run's unique contributions; per run every row accounted for."""
        k, labels = self.depth, [run.label for run in self.runs]
        rows = tuple((topic, len(docs), *(len(run.unique.get(topic, ())) for run in self.runs))
                     for topic, docs in self.pools.items())
        per_topic = Table(("topic", "pool size", *(f"unique: {label}" for label in labels)), rows,
                          f"Pool of depth {k} per topic, and the documents only one run brought in")
        run_rows = tuple((run.label, run.path, run.rows, run.in_top_k, run.rows - run.in_top_k - run.rows_elsewhere,
                          run.rows_elsewhere, sum(len(u) for u in run.unique.values())) for run in self.runs)
        # short headers, so that the table fits a printed page with the file names wrapped (the caption says more)
        per_run = Table(("run", "file", "rows read", f"in top {k}", f"below {k}", "other topics", "unique"), run_rows,
                        f"Every row of every run: in its top {k} (pooled), below depth {k}, or of a topic not pooled; "
                        f"unique: the run's pooled documents no other run has in its top {k}")
        runs, topics = len(self.runs), len(self.pools)
        blocks = [Paragraph(f"{runs} run{'s' * (runs != 1)}, depth k = {k}, {topics} topic{'s' * (topics != 1)}: "
                            f"{self.size} documents to judge."),
                  Note("reading", f"the pool of a topic is the union of every run's top {k} (score descending, ties "
                                  "by docno descending, as trec_eval ranks); a document outside the pool counts as "
                                  "non-relevant (IIR 8.5; Voorhees & Harman 2005)"),
                  Note("reading", "a unique contribution is a pooled document no other run has in its top "
                                  f"{k}: what the pool would lose without that run (Zobel 1998)"),
                  *self._missing_notes(), per_topic, *self._unique_documents(), per_run,
                  AnswerBlock("Documents to judge", "|pool|", self.size)]
        meta = {"depth": k, "size": self.size,
                "runs": [{"label": r.label, "file": r.path, "runid": r.runid, "rows": r.rows, "in_top_k": r.in_top_k,
                          "below_depth": r.rows - r.in_top_k - r.rows_elsewhere, "other_topics": r.rows_elsewhere,
                          "unique": sum(len(u) for u in r.unique.values())} for r in self.runs],
                "topics": {topic: {"pool": len(docs),
                                   "unique": {r.label: len(r.unique.get(topic, ())) for r in self.runs},
                                   "unique_documents": {r.label: list(r.unique.get(topic, ())) for r in self.runs}}
                           for topic, docs in self.pools.items()}}
        return Document(f"Pool of depth {k}", blocks, meta)


    SHOWN_TOPICS, SHOWN_DOCUMENTS = 20, 8  # the unique documents are listed in full in the JSON output

    def _unique_documents(self) -> list:
        """Which documents each run alone brought in, topic by topic (the first few; every one in the JSON)."""
        def listed(docs):
            docs = list(docs)
            more = len(docs) - self.SHOWN_DOCUMENTS
            return " ".join(docs[:self.SHOWN_DOCUMENTS]) + (f" … and {more} more" if more > 0 else "")

        topics = list(self.pools)[:self.SHOWN_TOPICS]
        rows = tuple((topic, run.label, listed(run.unique[topic])) for topic in topics for run in self.runs
                     if run.unique.get(topic))
        if not rows:
            return []
        caption = "The unique documents, by run and topic (what each run alone brought to the assessors)"
        if len(self.pools) > self.SHOWN_TOPICS:
            caption += f"; the first {self.SHOWN_TOPICS} of {len(self.pools)} topics, every one in --format json"
        return [Table(("topic", "run", "unique documents"), rows, caption)]

    def _missing_notes(self) -> list:
        """A warning for each run without documents for some pooled topic: its 0 there is not a pooled run's 0."""
        notes = []
        for run in self.runs:
            missing = [topic for topic in self.pools if topic not in run.pooled]
            if missing:
                shown = ", ".join(missing[:10]) + (" …" if len(missing) > 10 else "")
                one = len(missing) == 1
                topics = f"topic {shown}" if one else f"{len(missing)} of the pooled topics ({shown})"
                notes.append(Note("warning", f"run {run.label} has no documents for {topics}: it adds nothing to "
                                             f"{'that pool' if one else 'those pools'} (0 unique in the per-topic "
                                             "table)"))
        return notes


def _labels(paths, runids) -> list[str]:
    """Run ids when they are distinct and non-empty, else the file names, else A, B, C…"""
    if all(runids) and len(set(runids)) == len(runids):
        return list(runids)
    names = [Path(p).name for p in paths]
    if len(set(names)) == len(names):
        return names
    return list(string.ascii_uppercase[:len(paths)]) if len(paths) <= 26 else [f"S{i}" for i in range(1, len(paths) + 1)]


def _read_run(read_run, path):
    """A run file read; a qrels file given by mistake is named as one (a student pooling ``dir/*.txt``)."""
    try:
        return read_run(path)
    except InputFileError as error:
        if error.line is not None and _looks_like_qrels(path, error.line):
            raise InputFileError(path, error.line, f"{error.problem}: this is a qrels line (topic iteration docno "
                                                   "relevance); irlab pool takes run files only") from None
        raise


def _looks_like_qrels(path, line: int) -> bool:
    try:
        with open(path, "rb") as handle:  # a line read at most MAX_LINE_BYTES at a time (a file of NULs has none)
            for number, text in enumerate(iter(lambda: handle.readline(MAX_LINE_BYTES + 1), b""), 1):
                if number == line:
                    fields = text.split()
                    return len(fields) == 4 and all(f.lstrip(b"-").isdigit() for f in (fields[1], fields[3]))
    except OSError:
        pass
    return False


def pool_runs(run_paths, depth, topics=None) -> TrecPool:
    """Depth-k pools of TREC run files: per topic the union of every run's top k (trec_eval's order).

    ``topics`` (optional) limits the pools to these topics; every one must be in some run.
    """
    from ..trec import read_run  # deferred: irlab.trec loads numpy; exercise sets import this module (solver pool) and need neither

    k = check_cutoff(depth)
    if k is None:
        raise ParameterError("pooling needs a depth k")
    paths = [str(p) for p in run_paths]
    if not paths:
        raise ParameterError("pooling needs at least one run file")
    resolved = [Path(p).resolve() for p in paths]
    for i, path in enumerate(resolved):
        if path in resolved[:i]:
            raise ParameterError(f"run {paths[i]} is given twice; each run is pooled once")
    runs = [_read_run(read_run, p) for p in paths]
    ranked = [ranked_by_topic(run) for run in runs]
    wanted = None if topics is None else [str(t) for t in topics]
    every = sorted({t for r in ranked for t in r}, key=lambda t: t.encode("utf-8", "surrogateescape"))
    if wanted is not None:
        missing = [t for t in wanted if t not in every]
        if missing:
            shown = ", ".join(every[:10]) + (f" … ({len(every)} topics)" if len(every) > 10 else "")
            where = "is not in the run; its" if len(paths) == 1 else f"is in none of the {len(paths)} runs; their"
            raise ParameterError(f"topic {missing[0]} {where} topics are {shown}")
        every = [t for t in every if t in wanted]
    chosen = set(every)
    parts = [RunPool(label, path, run.runid, len(run), sum(len(d) for t, d in r.items() if t not in chosen))
             for label, path, run, r in zip(_labels(paths, [r.runid for r in runs]), paths, runs, ranked)]
    pools = {}
    for topic in every:
        tops = [r.get(topic, [])[:k] for r in ranked]
        runs_with = Counter(d for top in tops for d in top)  # a run has each docno once per topic (the reader checks)
        pools[topic] = sorted(runs_with, key=lambda d: d.encode("utf-8", "surrogateescape"))
        for part, top in zip(parts, tops):
            if top:
                part.pooled[topic] = top
                part.unique[topic] = [d for d in top if runs_with[d] == 1]
    return TrecPool(k, parts, pools)
