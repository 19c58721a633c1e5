"""A ranking with no documents (a system that returned nothing), scored by the ``empty_ranking`` convention.

``refuse`` (the default) names the empty ranking; ``zero`` computes the metric on no documents, as trec_eval -c, Spark
and ir_measures do for a query the run left empty: hits, AP and nDCG are 0 by their own steps, and a quotient over the
documents retrieved (precision without a cut-off, F, ROC AUC), which has no value on no documents, is 0 by the
convention. The explanation names the convention either way.

>>> from irlab.ranking import Ranking
>>> ap = scoring_empty(__import__("irlab.metrics", fromlist=["average_precision"]).average_precision, "ap")
>>> ap(Ranking.parse("-", relevant=3), empty_ranking="zero").value
0
"""

from __future__ import annotations

from functools import wraps

from .. import conventions as conv
from ..document import Note
from ..errors import RankingError
from ..ranking import as_ranking
from ..metric import Result
from ..trace import Traced

# metrics whose quotient divides by the documents retrieved: on no documents they have no value of their own
ZERO_BY_CONVENTION = {"precision": "P", "f": "F1", "auc": "AUC"}


def refusal(metric: str) -> RankingError:
    return RankingError(f"the ranking is empty: the system returned no document, so {metric} has no ranking to score; "
                        "give at least one judged document, or score it 0 as trec_eval -c, Spark and ir_measures do "
                        "with empty_ranking = zero (irlab explain --empty-ranking zero)")


def scoring_empty(compute, name: str):
    """``compute`` taking the ``empty_ranking`` convention: a non-empty ranking is computed as before."""

    @wraps(compute)
    def scored(ranking, *args, empty_ranking=None, **options):
        choice = conv.EMPTY_RANKING.choice(empty_ranking)
        if not getattr(ranking, "is_empty", False):
            return compute(ranking, *args, **options)
        if choice.key == "refuse":
            raise refusal(name)
        if name in ZERO_BY_CONVENTION and not (name == "precision" and options.get("k") is not None):
            symbol = ZERO_BY_CONVENTION[name]
            result = Result(name, f"{name} of an empty ranking", Traced(0, symbol, "No document retrieved: 0 by the "
                            "empty_ranking convention"), ranking=ranking)
        else:
            result = compute(ranking, *args, **options)
        result.conventions["empty_ranking"] = choice
        result.notes.insert(0, Note("assumption", "the system returned no document for this query: it is scored as "
                                                  "trec_eval -c, Spark and ir_measures score it, and kept in the mean"))
        return result

    return scored


def accepting_text(metric):
    """``metric`` as the public API offers it: its ranking may also be written as text (``irlab.precision("RNR")``)."""
    scored = scoring_empty(metric, metric.__name__)

    @wraps(metric)
    def checked(ranking, *args, **options):
        return scored(as_ranking(ranking), *args, **options)

    return checked
