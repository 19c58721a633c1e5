"""irlab: information-retrieval evaluation, computed exactly and explained step by step.

>>> from irlab import Ranking, average_precision
>>> result = average_precision(Ranking.parse("RNNRR", relevant=5))
>>> result.value, float(result)
(Fraction(21, 50), 0.42)

sympy and matplotlib are imported only when a value needs a logarithm or a plot is drawn.
"""

from .errors import InputFileError, InputTypeError, IrlabError, LimitError, OutputFileError, ParameterError, RankingError

# the metrics and Ranking are bound on first use (PEP 562's module __getattr__): the ``irlab`` command lives in this
# package, so ``irlab eval`` ran this file and loaded irlab.metrics with the document model, ~50 ms of its start-up
# for names it never calls; ``from irlab import ndcg``, ``irlab.ndcg``, ``dir(irlab)`` and ``import *`` are unchanged
_FROM_METRICS = (
    "METRICS", "average_precision", "cohen_kappa", "cumulative_gain", "dcg", "eleven_point_average",
    "expected_reciprocal_rank", "f_measure", "get_metric", "hits", "idcg", "interpolated_precision", "kendall_tau",
    "kendall_tau_distance", "mean_over_queries", "ndcg", "normalized_err", "precision", "precision_at_recall",
    "precision_recall_points", "r_precision", "recall", "reciprocal_rank", "spearman_rho", "spearman_rho_scores",
    "success", "inst", "insq", "q_measure", "rank_biased_precision", "roc_auc", "sdcg", "user_model")
_FROM_DIVERSITY = ("IntentRanking", "alpha_dcg", "alpha_ndcg", "err_ia", "nerr_ia", "precision_ia", "subtopic_recall")
# the ranking metrics as the package exports them: a notebook may pass "RNNRR" where a Ranking is expected; so do the
# graduate course's (user models, Q-measure, AUC); the diversity metrics read their intent ranking as text themselves
# (alpha_ndcg("1+2 - 2 3"))
_ACCEPTING_TEXT = (
    "average_precision", "cumulative_gain", "dcg", "eleven_point_average", "expected_reciprocal_rank", "f_measure",
    "hits", "idcg", "interpolated_precision", "ndcg", "normalized_err", "precision", "precision_at_recall",
    "precision_recall_points", "r_precision", "recall", "reciprocal_rank", "success",
    "inst", "insq", "q_measure", "rank_biased_precision", "roc_auc", "sdcg", "user_model")
_ON_FIRST_USE = frozenset(_FROM_METRICS + _FROM_DIVERSITY + ("Ranking", "accepting_text"))
# the modules ``import irlab`` used to bind as attributes on the way (irlab.metrics.precision after a bare import)
_SUBMODULES = frozenset(("conventions", "display", "document", "escape", "exact", "limits", "metric", "metrics",
                         "ranking", "trace"))


def _bind_metrics() -> None:
    """Bind every name of _ON_FIRST_USE in this module, as the eager imports bound them."""
    # deferred: irlab.metrics loads the document model and every metric, which irlab eval never uses
    from . import metrics, ranking
    from .metrics import diversity, empty

    names = {name: getattr(metrics, name) for name in _FROM_METRICS}
    names.update({name: getattr(diversity, name) for name in _FROM_DIVERSITY})
    names.update({name: empty.accepting_text(names[name]) for name in _ACCEPTING_TEXT})
    globals().update(names, Ranking=ranking.Ranking, accepting_text=empty.accepting_text)


def __getattr__(name):
    if name in _ON_FIRST_USE:
        _bind_metrics()
        return globals()[name]
    if name in _SUBMODULES:
        import importlib

        return importlib.import_module(f"{__name__}.{name}")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | _ON_FIRST_USE | _SUBMODULES)


def check(exercise_file, exercise_id, question_id, answer, student=None, seed=None):
    """Check a student's answer in a notebook: feedback that names the likely mistake (see irlab.homework.check)."""
    # deferred: irlab.homework (exercise sets, TOML, solvers, renderers, grading) adds ~25 ms to import irlab's ~48 ms
    from .homework import check as _check

    return _check(exercise_file, exercise_id, question_id, answer, student=student, seed=seed)


def assert_answer(exercise_file, exercise_id, question_id, answer, student=None, seed=None):
    """Like :func:`check`, but raises AssertionError with the feedback (for nbgrader/otter-grader test cells)."""
    # deferred: irlab.homework adds ~25 ms to import irlab's ~48 ms (see check)
    from .homework import assert_answer as _assert_answer

    return _assert_answer(exercise_file, exercise_id, question_id, answer, student=student, seed=seed)


def evaluate(run, qrels, measures=("AP", "nDCG@10"), **options):
    """Evaluate a run on qrels given as DataFrames (PyTerrier's or ir_measures' columns), dicts of dicts or
    records, with ir_measures names (nDCG@10, AP(rel=2)) or trec_eval's: see irlab.frames.evaluate."""
    # deferred: irlab.frames loads numpy (and pandas when frames are returned); import irlab loads neither
    from .frames import evaluate as _evaluate

    return _evaluate(run, qrels, measures, **options)


def explain(measure, run, qrels, *, topic, **options):
    """One topic of a run frame explained step by step, as `irlab explain --qrels --run --topic`: see
    irlab.frames.explain."""
    # deferred: irlab.frames loads numpy and the batch evaluator's readers
    from .frames import explain as _explain

    return _explain(measure, run, qrels, topic=topic, **options)

def explain_experiment(table=None, perquery=None, **options):
    """pt.Experiment's significance columns (+, -, p-value, reject, p-value corrected) reproduced from its per-topic
    values and every test explained, as irlab compare explains it: see irlab.experiment.explain_experiment."""
    # deferred: irlab.experiment loads numpy and scipy
    from .experiment import explain_experiment as _explain_experiment

    return _explain_experiment(table, perquery, **options)


def ir_measure(metric, **options):
    """irlab's metric (q-measure, ap with ties='tie-averaged', alpha-ndcg ...) as an ir_measures measure that
    pt.Experiment and ir_measures.calc_aggregate take: see irlab.custom_measures.ir_measure."""
    # deferred: ir_measures is PyTerrier's evaluator, loaded only here
    from .custom_measures import ir_measure as _ir_measure

    return _ir_measure(metric, **options)

__version__ = "0.1.0"

__all__ = [
    "Ranking", "check", "assert_answer", "evaluate", "explain", "explain_experiment", "ir_measure", "IrlabError", "RankingError", "ParameterError", "InputFileError", "InputTypeError",
    "LimitError", "OutputFileError", "METRICS", "get_metric",
    "average_precision", "cohen_kappa", "cumulative_gain", "dcg", "eleven_point_average", "expected_reciprocal_rank",
    "f_measure", "hits", "idcg", "interpolated_precision", "kendall_tau", "kendall_tau_distance", "mean_over_queries", "ndcg",
    "normalized_err", "precision", "precision_at_recall", "precision_recall_points", "r_precision", "recall",
    "reciprocal_rank", "spearman_rho", "spearman_rho_scores", "success",
    "inst", "insq", "q_measure", "rank_biased_precision", "roc_auc", "sdcg", "user_model",
    "IntentRanking", "alpha_dcg", "alpha_ndcg", "err_ia", "nerr_ia", "precision_ia", "subtopic_recall",
]
