"""The bridge from a research run back to the textbook: one topic of TREC files as a Ranking.

>>> # irlab explain ap --qrels qrels.test --run results.test --topic 302
"""

from __future__ import annotations

from .conventions import BY_NAME
from .document import Note
from .errors import RankingError
from .ranking import Ranking
from .trec.evaluate import topic_judgments  # loads numpy: irlab/__init__ does not import this module


def topic_ranking(qrels, run, topic, *, threshold: int = 1, depth: int | None = None,
                  with_scores: bool = False) -> tuple[Ranking, list[Note]]:
    """The topic's ranking in trec_eval's order (score descending, ties by docno descending), judged by the qrels;
    ``with_scores``: carrying the run's scores, for a tie convention other than trec_eval's order (--ties average).

    Unjudged and negatively judged documents count as non-relevant (grade 0), as trec_eval counts them for
    P, AP and nDCG; the judged documents not retrieved give R and the ideal ranking. These assumptions are
    returned as notes and also travel with the ranking (``ranking.remarks``), so every result computed on it
    states them.
    """
    judged = topic_judgments(qrels, run, topic, relevance_level=threshold, depth=depth)
    run, qrels = getattr(run, "path", run), getattr(qrels, "path", qrels)   # already read (irlab.frames): named
    if not judged.ranked:
        raise RankingError(f"topic {topic} has no retrieved documents in {run}")
    unjudged = sum(1 for g in judged.grades if g is None)
    negative = sum(1 for g in judged.grades if g is not None and g < 0)
    grades = tuple(max(g, 0) if g is not None else 0 for g in judged.grades)
    unjudged_ranks = tuple(rank for rank, g in enumerate(judged.grades, 1) if g is None or g < 0)  # bpref skips them
    unretrieved = tuple(g for g in judged.unretrieved if g > 0)
    nonrelevant_unretrieved = sum(1 for g in judged.unretrieved if 0 <= g < threshold)
    remarks = [f"topic {judged.topic} of {run} judged by {qrels}: documents ranked as trec_eval ranks them (score "
               "descending, ties by docno descending)" + (f"; cut at depth {depth}" if depth else "")]
    if unjudged or negative:
        parts = [f"unjudged ({unjudged})"] if unjudged else []
        parts += [f"judged with a negative grade ({negative})"] if negative else []
        remarks.append(f"retrieved documents that are {' or '.join(parts)} count as non-relevant (grade 0), as in trec_eval")
    relevant = None
    if not unretrieved:  # the qrels judge no relevant document outside the run: R is the relevant retrieved, not assumed
        relevant = sum(1 for g in grades if g >= threshold)
    ranking = Ranking.from_grades(grades, unretrieved=unretrieved, relevant=relevant, threshold=threshold,
                                  ids=tuple(judged.ranked),
                                  text=f"topic {judged.topic}", remarks=tuple(remarks), unjudged=unjudged_ranks,
                                  nonrelevant_unretrieved=nonrelevant_unretrieved,
                                  sampled_out=tuple(rank for rank, g in enumerate(judged.grades, 1)
                                                    if g is not None and g < 0),  # in the pool, not judged (infAP)
                                  **({"scores": list(judged.scores)} if with_scores else {}))
    return ranking, [Note("assumption", remark) for remark in remarks]


# where trec_eval 10.0 computes differently from the textbook defaults: (convention, trec_eval's choice, measure)
TREC_EVAL_CHOICES = (
    ("gain", "linear", "ndcg"),
    ("interpolation", "trec-eval", "iprec_at_recall and 11pt_avg"),
)


def trec_eval_options(options: dict) -> list[Note]:
    """Switch every convention the user left unset to trec_eval's choice, so explain and eval agree on a topic.

    Returns one note per switched convention saying so and how to ask for the textbook's choice instead.

    >>> options = {"interpolation": None}
    >>> [note.text[:40] for note in trec_eval_options(options)], options
    (['interpolation = trec-eval here, as trec_'], {'interpolation': 'trec-eval'})
    """
    notes = []
    for name, choice, measure in TREC_EVAL_CHOICES:
        if name in options and options[name] is None:
            options[name] = choice
            default = BY_NAME[name].default
            notes.append(Note("convention", f"{name} = {choice} here, as trec_eval computes {measure}, so that this "
                                            f"explanation and irlab eval agree (pass {BY_NAME[name].option} {default} "
                                            "for the textbook's choice)"))
    return notes
