"""The assignment's collection: the qrels and one run per system, read by irlab's TREC readers (bounded, errors
naming file:line), kept per topic in the run file's order so that every tie order can be rebuilt."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from ..ranking import Ranking


def _text(b) -> str:
    return b.decode("utf-8", errors="surrogateescape")


@dataclass(frozen=True)
class TopicRun:
    """One system's answer to one topic: (docno, score) in file order, and the topic's judgments."""

    topic: str
    rows: tuple  # ((docno bytes, score float), ...) in the run file's order
    judged: dict  # docno bytes -> grade

    def order(self, ties: str) -> list:
        """The docnos ranked by score descending, equal scores in the order ``ties`` names."""
        rows = list(self.rows)
        if ties == "docno-descending":
            rows.sort(key=lambda row: row[0], reverse=True)
        elif ties == "docno-ascending":
            rows.sort(key=lambda row: row[0])
        rows.sort(key=lambda row: -row[1])  # stable: equal scores keep the order above
        return [docno for docno, _ in rows]

    def ranking(self, ties: str, judgments_seen: str) -> Ranking | None:
        """The ranking judged by the qrels (unjudged or negative grades count 0, as in trec_eval); with
        ``judgments_seen = list`` only the retrieved documents are known (R and the ideal come from them)."""
        if not self.rows:
            return None
        ranked = self.order(ties)
        grades = tuple(max(self.judged.get(d, 0), 0) for d in ranked)
        if judgments_seen == "list":
            return Ranking.from_grades(grades, relevant=sum(1 for g in grades if g >= 1))
        seen = set(ranked)
        unretrieved = tuple(sorted((g for d, g in self.judged.items() if d not in seen and g > 0), reverse=True))
        return Ranking.from_grades(grades, unretrieved=unretrieved,
                                   relevant=sum(1 for g in grades if g >= 1) + len(unretrieved))


@dataclass(frozen=True)
class Collection:
    qrels_path: str
    run_paths: tuple  # ((system label, path), ...)

    @cached_property
    def _qrels(self):
        from ..trec.readers import read_qrels  # deferred: the TREC readers load numpy, needed only once a file is read

        qrels = read_qrels(self.qrels_path)
        judged: dict = {}
        for t, d, g in zip(qrels.topic_idx.tolist(), qrels.docno.tolist(), qrels.grade.tolist()):
            judged.setdefault(_text(qrels.topics[t]), {})[d] = int(g)
        return judged

    @cached_property
    def topics(self) -> tuple[str, ...]:
        """The judged topics, in numeric order when they are numbers (1, 2, 10), else text order."""
        return tuple(sorted(self._qrels, key=lambda t: (0, int(t), t) if t.isdigit() else (1, 0, t)))

    @property
    def systems(self) -> tuple[str, ...]:
        return tuple(label for label, _ in self.run_paths)

    @cached_property
    def _runs(self) -> dict:
        from ..trec.readers import read_run  # deferred: the TREC readers load numpy, needed only once a file is read

        runs = {}
        for label, path in self.run_paths:
            run = read_run(path)
            rows: dict = {}
            for t, d, s in zip(run.topic_idx.tolist(), run.docno.tolist(), run.score.tolist()):
                rows.setdefault(_text(run.topics[t]), []).append((d, float(s)))
            runs[label] = rows
        return runs

    def topic_run(self, system: str, topic: str) -> TopicRun:
        return TopicRun(topic, tuple(self._runs[system].get(topic, ())), self._qrels.get(topic, {}))

    def path_of(self, system: str) -> str:
        return dict(self.run_paths)[system]
