"""ir_measures' diversity names (``alpha_nDCG@20``, ``ERR_IA@20``, ``NRBP`` ...) routed to irlab's ndeval
(:mod:`irlab.trec.diversity`), the tool ir_measures runs for them (pyndeval, ndeval 4.5's C code).

They read TREC diversity qrels, ``topic subtopic docno judgment``: the second column names the subtopic (intent),
where plain qrels hold an unused iteration (0). Qrels in which no topic has two subtopics with a relevant
document are refused, naming the file they need (ir_measures only warns and computes a meaningless value).
As every ir_measures name in irlab, a topic is ranked as trec_eval ranks it (score descending, docno descending:
ndeval's -traditional); pyndeval breaks ties by docno ascending, which changes a value only where tied
documents straddle a cut-off or differ in gain.
"""

from __future__ import annotations

import os

from irlab.errors import InputFileError, ParameterError
from irlab.measure_names import DIVERSITY
from irlab.trec.context import EvalResult
from irlab.trec.diversity import DiversityRun, evaluate_diversity, read_diversity_qrels, read_diversity_run

__all__ = ["NDEVAL_NAMES", "is_diversity", "check_diversity_names", "evaluate_diversity_names"]

# ir_measures' diversity measures -> ndeval's names
NDEVAL_NAMES = {"alpha_nDCG": "alpha-nDCG", "alpha_DCG": "alpha-DCG", "ERR_IA": "ERR-IA", "nERR_IA": "nERR-IA",
                "P_IA": "P-IA", "StRecall": "strec", "NRBP": "NRBP", "nNRBP": "nNRBP", "AP_IA": "MAP-IA"}
_WHOLE_RUN = ("NRBP", "nNRBP", "AP_IA")
_NEEDS = "diversity qrels (topic subtopic docno judgment, the subtopic in the second column)"


def is_diversity(name) -> bool:
    return name.measure in DIVERSITY


def _unit(name, key):
    value = float(name.param(key, 0.5))
    if not 0 <= value <= 1:
        raise ParameterError(f"measure {name.text!r}: {key} is between 0 and 1, got {name.param(key)}")
    return value


def _column(name):
    """(ndeval's column, (relevance level or None, alpha, beta)) of one name."""
    m = name.measure
    if name.param("judged_only", False):
        raise ParameterError(f"measure {name.text!r}: judged_only=True is no measure of ndeval (ir_measures' "
                             "pyndeval path fails on it); leave it out")
    key = (name.param("rel") if name.has("rel") else None, _unit(name, "alpha"), _unit(name, "beta"))
    if m in _WHOLE_RUN:
        return NDEVAL_NAMES[m], key
    k = name.param("cutoff")
    if k is None:
        raise ParameterError(f"measure {name.text!r} needs a cut-off, e.g. {name.text}@20 (as ndeval's and "
                             "ir_measures' do)")
    return f"{NDEVAL_NAMES[m]}@{k}", key


def check_diversity_names(names, others=()) -> None:
    """A ParameterError for diversity names that cannot be computed, or asked beside other measures."""
    if others:
        raise ParameterError(f"{names[0].text} is a diversity measure, read from {_NEEDS}; "
                             f"{', '.join(map(str, others))} read plain qrels: ask for them in a separate call")
    for name in names:
        _column(name)


def _diversity_qrels(qrels, level, names, read):
    """The diversity qrels at ``level`` (``read``: level -> those already read), checked to be diversity qrels:
    some topic has two subtopics with a document judged 1 or more (whatever the level asked)."""
    if not isinstance(qrels, (str, os.PathLike)):
        raise ParameterError(f"{names[0].text} is a diversity measure: it needs {_NEEDS} as a file path, not "
                             f"{type(qrels).__name__}")
    for wanted in dict.fromkeys((min(level, 1), level)):
        if wanted not in read:
            try:
                read[wanted] = read_diversity_qrels(qrels, relevance_level=wanted)
            except InputFileError as exc:   # plain qrels, most likely: say what the measure reads
                raise InputFileError(exc.path, exc.line, f"{exc.problem}; {names[0].text} is a diversity measure "
                                                         f"and reads {_NEEDS}") from None
    if not any(len(topic.subtopics) > 1 for topic in read[min(level, 1)].topics.values()):
        raise ParameterError(f"{names[0].text} is a diversity measure and needs {_NEEDS}; no topic of "
                             f"{os.fspath(qrels)} has two subtopics with a relevant document (plain qrels?)")
    return read[level]


def evaluate_diversity_names(names, qrels, run, *, relevance_level=1, depth=None, complete=False,
                             notes=None) -> EvalResult:
    """The diversity ``names`` (MeasureName) of ``run`` (a path or a DiversityRun) on the diversity ``qrels``
    file, as ndeval computes them, each a column named as written; a name's ``rel`` overrides
    ``relevance_level``, and names with other alpha or beta are computed in their own pass."""
    check_diversity_names(names)
    groups = {}
    for name in names:
        column, (rel, alpha, beta) = _column(name)
        groups.setdefault((relevance_level if rel is None else rel, alpha, beta), []).append((name, column))
    run = run if isinstance(run, DiversityRun) else read_diversity_run(run, traditional=True)
    per_topic, summary, runid, read = {}, {}, run.runid, {}
    for i, ((level, alpha, beta), items) in enumerate(groups.items()):
        got = evaluate_diversity(_diversity_qrels(qrels, level, names, read), run, [column for _, column in items],
                                 alpha=alpha, beta=beta, traditional=True, depth=depth, complete=complete,
                                 relevance_level=level, notes=notes if i == 0 else None)
        for name, column in items:
            for topic, values in got.per_topic.items():
                per_topic.setdefault(topic, {})[name.text] = values[column]
            summary[name.text] = got.summary[column]
    columns = list(dict.fromkeys(name.text for name in names))
    return EvalResult(per_topic, summary, columns, runid, frozenset(), tuple(columns))
