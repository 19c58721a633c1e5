"""Pooling: the documents assessors judge are the union of every run's top k (IIR 8.5; Voorhees & Harman 2005).

For runs r_1 … r_m and a depth k:

    pool = ∪_j top_k(r_j),   pool size |pool|,
    judged from run j = |top_k(r_j)|,   unique contributions of run j = |top_k(r_j) \\ ∪_{i≠j} top_k(r_i)|

A run whose unique contributions are many would lose most if it were left out of the pool (Zobel 1998).

>>> solution = pool({"A": "d1,d2,d3,d4", "B": "d2,d5,d1,d6"}, depth=3)
>>> [str(a.value) for a in solution.answers]
['4', '1', '1']
"""

from __future__ import annotations

from ..document import Note, Table
from ..errors import ParameterError, RankingError
from ..metric import Result, check_cutoff
from ..ranking import parse_ids
from ..trace import Traced
from . import Answer, Solution


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
    size = Traced(len(members), "|pool|", f"Documents in the pool: the union of every run's top {k}")
    rows, answers = [], [Answer(f"Pool size at depth {k}", Result("pool", "Pool size", size, context=_context(tops, k)))]
    for name, top in tops.items():
        others = {d for other, t in tops.items() if other != name for d in t}
        unique = [d for d in top if d not in others]
        judged = len(top)
        rows.append((name, judged, len(unique), ", ".join(unique) or "—"))
        value = Traced(len(unique), f"unique({name})", f"Documents only run {name} puts in its top {k}")
        answers.append(Answer(f"Unique contributions of run {name}", Result("pool", f"Unique contributions of {name}",
                                                                             value, context=_context(tops, k))))
    table = Table(("run", f"documents judged (top {k})", "unique contributions", "which"), tuple(rows),
                  f"Pool of depth {k}")
    notes = [table, Note("reading", f"the assessors judge the {len(members)} pooled documents; a document outside "
                                    "the pool counts as non-relevant (IIR 8.5)")]
    if relevant is not None:
        relevant_ids = set(parse_ids(relevant, "relevant") if isinstance(relevant, str) else map(str, relevant))
        found = [d for d in members if d in relevant_ids]
        value = Traced(len(found), "found", "Relevant documents in the pool")
        answers.append(Answer("Relevant documents the pool finds", Result(
            "pool", "Relevant documents in the pool", value, context=_context(tops, k),
            notes=[Note("reading", f"{len(relevant_ids) - len(found)} relevant document(s) stay outside the pool "
                                   "and would be judged non-relevant")])))
    return Solution(answers, notes)


def _context(tops, k) -> str:
    return "; ".join(f"run {name}: top {k} = {', '.join(top)}" for name, top in tops.items())


def trec_pool(run_paths, depth, topic) -> Solution:
    """The depth-k pool of TREC run files for one topic (each run ranked as trec_eval ranks it)."""
    from ..trec import read_run

    runs = {}
    for path in run_paths:
        run = read_run(path)
        ranked = _topic_order(run, str(topic))
        if not ranked:
            raise RankingError(f"{path} has no documents for topic {topic}")
        runs[run.runid if run.runid not in runs else str(path)] = ranked
    return pool(runs, depth)


def _topic_order(run, topic) -> list[str]:
    """A run's documents for ``topic`` by score descending, ties by docno descending (trec_eval's order)."""
    names = run.topic_names
    if topic not in names:
        return []
    mask = run.topic_idx == names.index(topic)
    docnos = [d.decode() if isinstance(d, bytes) else str(d) for d in run.docno[mask].tolist()]
    scores = run.score[mask].tolist()
    order = sorted(range(len(docnos)), key=lambda i: (-scores[i], tuple(-b for b in docnos[i].encode())))
    return [docnos[i] for i in order]
