"""Runs and qrels where notebooks keep them: pandas DataFrames in PyTerrier's columns (``qid, docno, score``;
``qid, docno, label``) or ir_measures' (``query_id, doc_id, score``; ``relevance``), dicts of dicts
(``{qid: {docno: score}}``, pytrec_eval's and ranx's), ir_measures' ``ScoredDoc``/``Qrel`` namedtuples or any
iterable of such records (ir_datasets' ``qrels_iter()``), and objects with ``to_dict()`` (ranx's Run and Qrels).

:func:`evaluate` computes ir_measures or trec_eval names on them with the batch evaluator (trec_eval 10.0's
semantics, :mod:`irlab.trec.named`); :func:`explain` explains one topic step by step, as ``irlab explain --qrels
--run --topic`` does. Topics are ranked as trec_eval ranks them (score descending, docno descending); a qrels topic
the run does not answer counts 0 (ir_measures' and PyTerrier's convention, trec_eval -c; ``complete=False``
leaves it out, as trec_eval without -c). Diversity names (``alpha_nDCG@20``, ``ERR_IA@20`` ...) read qrels with
subtopics: a frame or records with ir_measures' ``iteration`` column, or a diversity qrels file's path.

A frame's columns are converted in bulk (:func:`_ids`): a million rows in about a second, where a Python loop over
the rows took 13 s (benchmarks/README.md, bench_ir_measures.py).

pandas is needed only to return frames; numpy is loaded when this module is (``import irlab`` loads neither).
"""

from __future__ import annotations

import math
from collections import namedtuple

import numpy as np

from .conventions import ALL
from .errors import InputFileError, InputTypeError
from .limits import MAX_ID_BYTES
from .trec.diversity import DiversityRun
from .trec.diversity_names import is_diversity
from .trec.named import evaluate_specs, split_specs
from .trec.readers import Qrels, Run, pair_keys

__all__ = ["Metric", "Evaluation", "evaluate", "explain", "to_run", "to_qrels"]

#: ir_measures' per-topic record (ir_measures.Metric has the same fields)
Metric = namedtuple("Metric", ["query_id", "measure", "value"])

_RUN_COLUMNS = (("qid", "docno", "score"), ("query_id", "doc_id", "score"))
_QRELS_COLUMNS = (("qid", "docno", "label"), ("query_id", "doc_id", "relevance"))
_RUN_FIELDS = ("query_id", "doc_id", "score")
_QRELS_FIELDS = ("query_id", "doc_id", "relevance")


def _convention(obj) -> str:
    """'pyterrier' for a frame with a qid column, else 'ir_measures'."""
    columns = getattr(obj, "columns", None)
    return "pyterrier" if columns is not None and "qid" in list(columns) else "ir_measures"


def _triples(obj, what, columns, fields):
    """The columns (topics, docnos, values[, subtopics]) from a frame (numpy arrays), a dict of dicts, records or
    an object with to_dict() (lists)."""
    if hasattr(obj, "columns") and hasattr(obj, "__getitem__"):   # a pandas DataFrame
        names = list(obj.columns)
        for cols in columns:
            if all(c in names for c in cols):
                return tuple(obj[c].to_numpy() for c in cols)
        wanted = " or ".join(f"({', '.join(c)})" for c in columns)
        raise InputTypeError(f"the {what} frame needs the columns {wanted}; it has {', '.join(map(str, names))}")
    obj = _ranx_dict(obj)
    if isinstance(obj, dict):
        if len(fields) > 3:
            raise InputTypeError(f"a dict of dicts holds no subtopics: give the {what} as a frame or records with "
                                 f"the fields {', '.join(fields)}, or as a file path")
        topics, docnos, values = [], [], []
        for topic, docs in obj.items():
            if not isinstance(docs, dict):
                raise InputTypeError(f"a {what} dict maps each topic to {{docno: {fields[2]}}}; topic {topic!r} maps "
                                     f"to {type(docs).__name__}")
            for docno, value in docs.items():
                topics.append(topic)
                docnos.append(docno)
                values.append(value)
        return topics, docnos, values
    if isinstance(obj, (str, bytes)) or not hasattr(obj, "__iter__"):
        raise InputTypeError(f"the {what} is a DataFrame, a dict of dicts, records with {', '.join(fields)} or a "
                             f"file path (irlab.trec.evaluate), got {type(obj).__name__}")
    out = tuple([] for _ in fields)
    for record in obj:
        try:
            for column, field in zip(out, fields):
                column.append(getattr(record, field))
        except AttributeError:
            raise InputTypeError(f"each {what} record needs the fields {', '.join(fields)} (ir_measures' "
                                 f"{'ScoredDoc' if what == 'run' else 'Qrel'}), got {record!r:.80}") from None
    return out


def _ranx_dict(obj):
    """A ranx Run or Qrels (or anything with ``to_dict()``) as its dict of dicts; other objects as they are.

    ranx (AmenRa/ranx) keeps a Run's scores and a Qrels' judgments in numba typed dicts, ``run.run`` and
    ``qrels.qrels``, and ``to_dict()`` returns them as plain ``{qid: {docno: value}}``; irlab takes the objects by
    these attributes, without importing ranx."""
    if isinstance(obj, dict) or hasattr(obj, "columns"):
        return obj
    if callable(getattr(obj, "to_dict", None)):
        return obj.to_dict()
    for attribute in ("run", "qrels"):
        inner = getattr(obj, attribute, None)
        if inner is not None and hasattr(inner, "items"):
            return {topic: dict(docs.items()) for topic, docs in inner.items()}
    return obj


def _ids(values, what):
    """Ids as UTF-8 bytes in a numpy S array (the readers' representation); numbers are written as text.

    Converted and checked in bulk when every id is text or every id a whole number (a frame's column: a million
    ids in a fraction of a second), else one by one; a bad id is named either way."""
    encoded = _encoded(values)
    if encoded is None:
        return _ids_one_by_one(values, what)
    bad = _bad_ids(encoded)
    if len(bad):
        _ids_one_by_one([values[int(bad[0])]], what)
    return encoded


def _encoded(values):
    """The ids as an S array when they are all str or all whole numbers (not bools), else None."""
    dtype = getattr(values, "dtype", None)
    if dtype is not None and dtype.kind in "iu":
        return np.asarray(values).astype("S")
    if not len(values):
        return np.zeros(0, dtype="S1")
    kinds = set(map(type, values))
    if kinds <= {str, np.str_}:
        return _joined_text(values)
    if kinds <= {int, np.int64, np.int32}:
        try:
            return np.asarray(values, dtype=np.int64).astype("S")
        except OverflowError:
            return None
    return None


def _joined_text(values):
    """str ids as an S array, encoded at once: joined by line feeds into one UTF-8 buffer, cut at them and laid out
    in rows as wide as the longest (None when an id holds a line feed itself: _bad_ids names it one by one)."""
    try:
        text = "\n".join(values).encode("utf-8", errors="surrogateescape")
    except UnicodeEncodeError:   # a lone surrogate: named one by one
        return None
    buffer = np.frombuffer(text, dtype=np.uint8)
    breaks = buffer == 10
    ends = np.flatnonzero(breaks)
    if len(ends) != len(values) - 1:
        return None
    lengths = np.diff(np.concatenate(([-1], ends, [len(buffer)]))) - 1
    width = max(int(lengths.max()), 1)
    kept = buffer[~breaks]
    if (lengths == width).all():   # ids of one length (DOC-000123): the bytes are the rows already
        return kept.view(f"S{width}")
    rows = np.zeros((len(values), width), dtype=np.uint8)
    rows[np.arange(width) < lengths[:, None]] = kept
    return rows.view(f"S{width}").ravel()


_SEPARATORS = np.array([9, 10, 13, 32], dtype=np.uint8)   # tab, line feed, carriage return, space: no TREC id holds one


def _bad_ids(encoded):
    """Indices of the ids that are empty, longer than MAX_ID_BYTES or hold a separator."""
    width = encoded.dtype.itemsize
    rows = encoded.view(np.uint8).reshape(len(encoded), width)
    bad = (encoded == b"") | np.isin(rows, _SEPARATORS).any(axis=1)
    if width > MAX_ID_BYTES:
        bad |= rows[:, MAX_ID_BYTES] != 0
    return np.flatnonzero(bad)


def _ids_one_by_one(values, what):
    out = []
    for v in values:
        if isinstance(v, (bytes, np.bytes_)):
            b = bytes(v)
        elif isinstance(v, (str, int, np.integer)) and not isinstance(v, bool):
            try:
                b = str(v).encode("utf-8", errors="surrogateescape")
            except UnicodeEncodeError:
                raise InputTypeError(f"{what} {v!r:.60} is not text UTF-8 can write (a lone surrogate)") from None
        else:
            raise InputTypeError(f"a {what} is text (or a whole number), got {type(v).__name__} {v!r:.40}")
        if not b or len(b) > MAX_ID_BYTES or any(c in b for c in b" \t\n\r"):
            raise InputTypeError(f"{what} {v!r:.60} must be 1 to {MAX_ID_BYTES} bytes without spaces or line breaks "
                                 "(a TREC id)")
        out.append(b)
    return np.array(out, dtype=bytes) if out else np.zeros(0, dtype="S1")


def _indexed(topics):
    names = np.unique(topics)
    return names, np.searchsorted(names, topics).astype(np.int64)


def _no_duplicate_rows(topic_idx, docno, topics, what):
    """_no_duplicates' check without its order: the TREC readers' 64-bit key of each (topic, docno) sorted as
    integers (a run of a million rows in a tenth of the time byte strings take); only when two keys meet are the
    rows sorted and compared as bytes."""
    if len(docno) < 2:
        return
    key = pair_keys(topic_idx, docno)
    key.sort()
    if (key[1:] == key[:-1]).any():
        _no_duplicates(topic_idx, docno, topics, what)


def _no_duplicates(topic_idx, docno, topics, what):
    order = np.lexsort((docno, topic_idx))
    t, d = topic_idx[order], docno[order]
    same = np.flatnonzero((t[1:] == t[:-1]) & (d[1:] == d[:-1]))
    if len(same):
        i = order[same[0]]
        raise InputTypeError(f"docno {docno[i].decode(errors='replace')!r} is given twice for topic "
                             f"{topics[topic_idx[i]].decode(errors='replace')!r} in the {what}")
    return order


def to_run(run, runid="run"):
    """A run in any of the accepted forms as :class:`irlab.trec.readers.Run`."""

    if isinstance(run, Run):
        return run
    topics, docnos, scores = _triples(run, "run", _RUN_COLUMNS, _RUN_FIELDS)
    if not len(topics):
        raise InputTypeError("the run has no rows")
    try:
        score = np.array(scores, dtype=np.float64)
    except (TypeError, ValueError):
        raise InputTypeError("every score of the run must be a number") from None
    if len(score) and not np.isfinite(score).all():
        bad = scores[int(np.flatnonzero(~np.isfinite(score))[0])]
        raise InputTypeError(f"score {bad!r} of the run is not a finite number")
    names, idx = _indexed(_ids(topics, "topic id"))
    docno = _ids(docnos, "docno")
    _no_duplicate_rows(idx, docno, names, "run")
    name = getattr(run, "name", None)   # ranx's Run(run, name="bm25")
    return Run("the run", name if isinstance(name, str) and name and runid == "run" else runid, names, idx, docno,
               score)


def _grades(labels):
    """The relevance labels as int64 grades: whole numbers (ints, or floats such as 2.0)."""
    dtype = getattr(labels, "dtype", None)
    if dtype is not None and dtype.kind in "iu":
        return np.asarray(labels, dtype=np.int64)
    if dtype is not None and dtype.kind == "f":
        values = np.asarray(labels, dtype=np.float64)
        whole = np.isfinite(values) & (values == np.round(values)) & (np.abs(values) < 2.0**62)
        if whole.all():
            return values.astype(np.int64)
        labels = [float(values[int(np.flatnonzero(~whole)[0])])]   # named below
    grades = []
    for label in labels:
        if isinstance(label, bool) or not (isinstance(label, (int, np.integer)) or
                                           (isinstance(label, (float, np.floating)) and math.isfinite(label)
                                            and label == int(label))):
            raise InputTypeError(f"a relevance label is a whole number (a grade), got {label!r:.40}")
        grades.append(int(label))
    return np.array(grades, dtype=np.int64)


def to_qrels(qrels):
    """Qrels in any of the accepted forms as :class:`irlab.trec.readers.Qrels`."""

    if isinstance(qrels, Qrels):
        return qrels
    topics, docnos, labels = _triples(qrels, "qrels", _QRELS_COLUMNS, _QRELS_FIELDS)
    if not len(topics):
        raise InputTypeError("the qrels have no rows")
    grades = _grades(labels)
    names, idx = _indexed(_ids(topics, "topic id"))
    docno = _ids(docnos, "docno")
    order = _no_duplicates(idx, docno, names, "qrels")
    grade = grades
    return Qrels("the qrels", names, idx[order], docno[order], grade[order])


class Evaluation:
    """The values of :func:`evaluate`: ``aggregate`` (measure -> mean over the topics, or sum for counts),
    ``per_topic`` (topic -> measure -> value), as frames (:meth:`frame`) and as ir_measures' records
    (:meth:`metrics`). ``convention``: 'pyterrier' (columns qid, ...) or 'ir_measures' (query_id, ...)."""

    def __init__(self, result, measures, convention):
        self.result = result          # irlab.trec.EvalResult (columns named as written)
        self.measures = list(measures)
        self.convention = convention
        self.aggregate = {m: result.summary[m] for m in self.measures}
        self.per_topic = {t: {m: v[m] for m in self.measures} for t, v in result.per_topic.items()}

    def metrics(self):
        """Per-topic values as ``Metric(query_id, measure, value)``, topic by topic, measures in the order asked."""
        return [Metric(t, m, v) for t, values in self.per_topic.items() for m, v in values.items()]

    def frame(self, per_topic=False):
        """A pandas DataFrame: the aggregate (one row, a column per measure, as pt.Experiment's), or with
        ``per_topic`` one row per topic and measure (``qid, measure, value`` -- ``query_id`` in ir_measures')."""
        try:
            import pandas as pd  # deferred: pandas is an extra (irlab[pandas]); import irlab does not load it
        except ImportError:  # pragma: no cover - depends on the environment
            raise ImportError("Evaluation.frame() needs pandas: pip install irlab[pandas]") from None
        if not per_topic:
            return pd.DataFrame([self.aggregate], columns=self.measures)
        key = "qid" if self.convention == "pyterrier" else "query_id"
        return pd.DataFrame(self.metrics(), columns=["query_id", "measure", "value"]).rename(columns={"query_id": key})

    def __repr__(self):
        return "Evaluation(" + ", ".join(f"{m}={v:.4f}" if isinstance(v, float) else f"{m}={v}"
                                         for m, v in self.aggregate.items()) + ")"


def _diversity_run(run):
    """A Run in trec_eval's order (score descending, docno descending) as irlab's ndeval reads it."""
    names, docno_rank = np.unique(run.docno, return_inverse=True)
    order = np.lexsort((-docno_rank, -run.score, run.topic_idx))
    topics = {}
    for t, start, stop in _spans(run.topic_idx[order]):
        topics[bytes(run.topics[t])] = tuple(run.docno[order[start:stop]].tolist())
    return DiversityRun(run.path, run.runid, topics, traditional=True)


def _spans(sorted_idx):
    """(value, start, stop) of each run of equal values in ``sorted_idx``."""
    cuts = np.flatnonzero(np.diff(sorted_idx)) + 1
    starts = np.concatenate(([0], cuts))
    stops = np.concatenate((cuts, [len(sorted_idx)]))
    return zip(sorted_idx[starts].tolist(), starts.tolist(), stops.tolist())


def _diversity_qrels_file(qrels, folder):
    """Diversity qrels (topic, subtopic, docno, judgment) written as a TREC diversity qrels file in ``folder``:
    a frame or records with ir_measures' ``iteration`` (the subtopic), or a path as it is."""
    import os

    if isinstance(qrels, (str, os.PathLike)):
        return qrels
    columns = tuple(c + ("iteration",) for c in _QRELS_COLUMNS)
    topics, docnos, labels, subtopics = _triples(qrels, "diversity qrels", columns, _QRELS_FIELDS + ("iteration",))
    if not len(topics):
        raise InputTypeError("the qrels have no rows")
    grades = _grades(labels)
    if (grades < 0).any():
        raise InputTypeError(f"a diversity judgment is a whole number >= 0 (as ndeval reads it), got "
                             f"{int(grades[grades < 0][0])}")
    path = os.path.join(folder, "qrels")
    with open(path, "wb") as out:
        for row in zip(_ids(topics, "topic id"), _ids(subtopics, "subtopic id"), _ids(docnos, "docno"),
                       grades.tolist()):
            out.write(b"%s %s %s %d\n" % row)
    return path


def evaluate(run, qrels, measures=("AP", "nDCG@10"), *, complete=True, relevance_level=1, depth=None,
             judged_only=False) -> Evaluation:
    """``measures`` (ir_measures names such as nDCG@10 and AP(rel=2), or trec_eval's such as map and P.10) of
    ``run`` judged by ``qrels``, each in any accepted form (a PyTerrier or ir_measures DataFrame, a dict of dicts,
    records, ranx objects). ``complete``: a qrels topic the run does not answer counts 0 (ir_measures');
    ``relevance_level``, ``depth``, ``judged_only``: trec_eval's -l, -M and -J."""
    if isinstance(measures, str):
        measures = [measures]
    measures = list(measures)
    if not measures:
        raise InputTypeError("evaluate needs at least one measure, e.g. ['nDCG@10', 'AP']")
    if any(map(is_diversity, split_specs(measures)[1])):   # alpha_nDCG@20 ...: qrels with subtopics, by ndeval
        import tempfile

        with tempfile.TemporaryDirectory(prefix="irlab-") as folder:
            written = _diversity_qrels_file(qrels, folder)
            try:
                result = evaluate_specs(written, _diversity_run(to_run(run)), measures,
                                        relevance_level=relevance_level, depth=depth, complete=complete,
                                        judged_only=judged_only)
            except InputFileError as exc:   # a line of the file written from the frame: name the frame's row
                if exc.path != str(written) or written is qrels:
                    raise
                where = f"row {exc.line - 1} (from 0; line {exc.line} as a qrels file)" if exc.line else "rows"
                raise InputTypeError(f"the diversity qrels' {where}: {exc.problem}") from None
    else:
        result = evaluate_specs(to_qrels(qrels), to_run(run), measures, relevance_level=relevance_level,
                                depth=depth, complete=complete, judged_only=judged_only)
    columns = [c for c in result.columns if c != "runid"]
    return Evaluation(result, columns, _convention(run))


def explain(measure, run, qrels, *, topic, depth=None, **options):
    """One topic of ``run`` explained step by step for ``measure`` (an irlab metric such as 'ndcg', or an
    ir_measures name such as nDCG@10), as ``irlab explain MEASURE --qrels --run --topic`` explains it: the
    topic's ranking in trec_eval's order, R and the ideal ranking from the qrels, unjudged documents as
    non-relevant. ``options``: the metric's options by their Python names (k=10, threshold=2, persistence=0.8)."""
    from types import SimpleNamespace

    from .explanation import ALL_OPTIONS, explain_result  # deferred: the metrics and the printing layer, for one call

    args = SimpleNamespace(metric=measure, rankings=[], qrels=to_qrels(qrels), run=to_run(run), topic=str(topic),
                     depth=None if depth is None else str(depth), user_model=False, counts=None)
    for name in ALL_OPTIONS + tuple(c.name for c in ALL):
        if not hasattr(args, name):
            setattr(args, name, None)
    for name, value in options.items():
        if not hasattr(args, name) or name in ("metric", "rankings", "qrels", "run", "topic"):
            raise InputTypeError(f"explain has no option {name!r}; the options are those of irlab explain, e.g. "
                                 "k=10, threshold=2, persistence=0.8, gain='linear'")
        setattr(args, name, None if value is None else str(value))
    return explain_result(args)
