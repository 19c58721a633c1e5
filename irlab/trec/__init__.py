"""Batch TREC evaluation with trec_eval 10.0 semantics (vectorised with numpy).

>>> from irlab.trec import evaluate
>>> res = evaluate("qrels.txt", "run.txt", ["map", "P.10", "ndcg_cut.10"])  # doctest: +SKIP
>>> res.summary["map"], res.per_topic["301"]["P_10"]                        # doctest: +SKIP
"""

from irlab.trec.evaluate import EvalResult, TopicJudgments, evaluate, topic_judgments
from irlab.trec.measures import MEASURES, NICKNAMES, UNSUPPORTED, parse_measures
from irlab.trec.output import format_csv, format_json, format_result, format_text
from irlab.trec.readers import Qrels, Run, read_qrels, read_run

__all__ = [
    "evaluate", "EvalResult", "topic_judgments", "TopicJudgments",
    "read_qrels", "read_run", "Qrels", "Run",
    "format_text", "format_json", "format_csv", "format_result",
    "MEASURES", "NICKNAMES", "UNSUPPORTED", "parse_measures",
]
