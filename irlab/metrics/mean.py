"""Averaging a metric over queries (MAP, MRR, mean nDCG…) as one more traced step."""

from __future__ import annotations

from ..document import Table
from ..errors import InputTypeError, ParameterError
from ..metric import Result
from ..trace import Traced, mean

MEAN_NAMES = {"ap": "MAP", "rr": "MRR"}


def mean_over_queries(results, symbol: str | None = None, labels=None) -> Result:
    """The arithmetic mean of one metric over several queries, each query's explanation kept as a section.

    >>> from irlab import Ranking, average_precision
    >>> runs = [Ranking.parse("RNNRR", relevant=5), Ranking.parse("NR", relevant=1)]
    >>> mean_over_queries([average_precision(r) for r in runs]).value
    Fraction(23, 50)
    """
    if isinstance(results, (str, bytes)) or not hasattr(results, "__iter__"):
        raise InputTypeError(f"mean_over_queries takes a list of metric results, got {type(results).__name__}")
    results = list(results)
    for position, result in enumerate(results, 1):
        if not isinstance(result, Result):
            raise InputTypeError(f"mean_over_queries takes metric results (e.g. [average_precision(r) for r in rankings]); "
                                 f"item {position} is {type(result).__name__} {result!r:.40}")
    if not results:
        raise ParameterError("a mean over queries needs at least one query")
    metrics = {r.metric for r in results}
    if len(metrics) != 1:
        raise ParameterError(f"cannot average different metrics together: {', '.join(sorted(metrics))}")
    metric = results[0].metric
    # without a cut-off a list's symbol names its own length (α-DCG@2, α-DCG@3): the mean then names none
    base = results[0].symbol if len({r.symbol for r in results}) == 1 else results[0].symbol.split("@")[0]
    symbol = symbol or MEAN_NAMES.get(metric, f"mean {base}")
    labels = list(labels) if labels else [f"q{i}" for i in range(1, len(results) + 1)]
    leaves = [Traced(r.value, f"{r.symbol}({label})", origin=r.traced) for r, label in zip(results, labels)]
    value = mean(leaves, symbol, f"Mean over {len(results)} queries")
    table = Table(("query", base), tuple((label, r.value) for label, r in zip(labels, results)), "Per query")
    sections = [r.section(f"Query {label}: {r.title}") for label, r in zip(labels, results)]
    conventions = {}
    for r in results:
        conventions.update(r.conventions)
    return Result(metric, f"{results[0].title}, mean over queries ({symbol})", value, conventions=conventions,
                  parameters=results[0].parameters, tables=[table], sections=sections)
