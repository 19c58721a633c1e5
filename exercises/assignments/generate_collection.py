"""Generate the small collection of the example assignments (qrels + four system runs), reproducibly.

    python3 exercises/assignments/generate_collection.py      # rewrites exercises/assignments/collection/

Ten topics judged with grades 0-3 (TTDS's scale), four systems retrieving 60 documents each, with the shapes the
classic bugs need to show: scores with ties whose file order is neither docno order (ties-*), relevant documents no
run retrieved (ideal-from-run, r-from-run), a topic one system does not answer (missing-topic-dropped), a topic one
system answers with 6 documents (precision-over-retrieved, recall-over-retrieved). Document ids are numbers of
different lengths, as TTDS's are, so text order and number order differ.
"""

from __future__ import annotations

import random
from pathlib import Path

HERE = Path(__file__).resolve().parent / "collection"
SEED = 32
TOPICS = [str(t) for t in range(1, 11)]
SYSTEMS = ["1", "2", "3", "4"]
DEPTH = 60
MISSING = ("3", "7")  # system 3 has no line for topic 7
SHORT = ("2", "4", 6)  # system 2 retrieves 6 documents for topic 4


def judgments(rng: random.Random) -> dict:
    qrels = {}
    for topic in TOPICS:
        docs = rng.sample(range(1, 1500), 40)
        relevant = rng.randint(8, 24)
        qrels[topic] = {str(d): (rng.choice((1, 1, 2, 2, 3)) if i < relevant else 0) for i, d in enumerate(docs)}
    return qrels


def run(rng: random.Random, system: str, qrels: dict, quality: float) -> list[str]:
    lines = []
    for topic in TOPICS:
        if (system, topic) == MISSING:
            continue
        judged = qrels[topic]
        relevant = [d for d, g in judged.items() if g > 0]
        depth = SHORT[2] if (system, topic) == SHORT[:2] else DEPTH
        found = rng.sample(relevant, max(1, int(len(relevant) * quality)))  # the rest: relevant, never retrieved
        others = [str(d) for d in rng.sample(range(1, 3000), DEPTH * 2) if str(d) not in judged][:DEPTH]
        others += [d for d, g in judged.items() if g == 0]
        docs = found + rng.sample(others, DEPTH - len(found))
        # better systems put relevant documents higher: score = quality-weighted noise, two decimals (ties)
        scored = [(round(rng.random() + (quality if d in found else 0), 1), d) for d in docs]
        scored.sort(key=lambda pair: -pair[0])
        ordered = []
        for score in sorted({s for s, _ in scored}, reverse=True):  # equal scores in a random file order
            tied = [d for s, d in scored if s == score]
            rng.shuffle(tied)
            ordered += [(score, d) for d in tied]
        for rank, (score, doc) in enumerate(ordered[:depth], 1):
            lines.append(f"{topic} Q0 {doc} {rank} {score:.1f} system{system}")
    return lines


def main() -> None:
    rng = random.Random(SEED)
    qrels = judgments(rng)
    HERE.mkdir(exist_ok=True)
    with open(HERE / "qrels.txt", "w", encoding="utf-8") as out:
        for topic in TOPICS:
            for doc, grade in qrels[topic].items():
                out.write(f"{topic} 0 {doc} {grade}\n")
    for system, quality in zip(SYSTEMS, (0.9, 0.7, 0.5, 0.3)):
        with open(HERE / f"system{system}.run", "w", encoding="utf-8") as out:
            out.write("\n".join(run(rng, system, qrels, quality)) + "\n")


if __name__ == "__main__":
    main()
