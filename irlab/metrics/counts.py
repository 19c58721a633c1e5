"""Set retrieval from counts: the contingency table of IIR 8.3 (tp, fp, fn, tn) and what is computed from it.

Many textbook exercises give counts, not rankings ("20 relevant documents retrieved, 40 non-relevant, 60
relevant missed, 10,000 documents in all"). From the four cells of the contingency table:

- precision P = tp / (tp + fp), recall R = tp / (tp + fn), F_β (IIR 8.3, eq. 8.5);
- accuracy (tp + tn) / N and fall-out fp / (fp + tn) (IIR 8.3; Salton & McGill 1983 for fall-out);
- van Rijsbergen's E-measure E_β = 1 - F_β (van Rijsbergen 1979, ch. 7);

and from a ranking, the break-even point where precision equals recall (IIR 8.4), and Cohen's kappa from the
2 x 2 table of two judges (IIR Table 8.2) without writing out the judgments.

>>> counts = Counts.parse("tp=20, fp=40, fn=60, tn=880")
>>> precision_of_counts(counts).value, recall_of_counts(counts).value, accuracy(counts).value, fallout(counts).value
(Fraction(1, 3), Fraction(1, 4), Fraction(9, 10), Fraction(1, 23))
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from .. import conventions as conv
from .. import exact
from ..document import Formula, Note, Table
from ..errors import ParameterError, RankingError
from ..metric import Cut, Result, check_fraction
from ..trace import Traced
from .agreement import cohen_kappa
from .common import rank_table
from .fbeta import f_of_nodes, set_f_formula

_NAMES = ("tp", "fp", "fn", "tn")
_LABELS = {
    "tp": "Relevant documents retrieved (true positives)",
    "fp": "Non-relevant documents retrieved (false positives)",
    "fn": "Relevant documents not retrieved (false negatives)",
    "tn": "Non-relevant documents not retrieved (true negatives)",
}


@dataclass(frozen=True)
class Counts:
    """The cells of IIR's contingency table; ``tn`` may be unknown (None) when the collection size is not given."""

    tp: int
    fp: int
    fn: int
    tn: int | None = None
    source: str = "counts"

    def __post_init__(self):
        for name in _NAMES:
            value = getattr(self, name)
            if value is None and name == "tn":
                continue
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise RankingError(f"count {name} must be a non-negative integer, got {value!r}")

    @classmethod
    def parse(cls, data) -> "Counts":
        """From 'tp=20, fp=40, fn=60, tn=880', a mapping with those keys, a Counts, or a Ranking (its retrieved set)."""
        if isinstance(data, Counts):
            return data
        if hasattr(data, "grades"):  # a Ranking: the retrieved list as a set
            return cls.of_ranking(data)
        if isinstance(data, str):
            items = {}
            for part in (p for p in data.replace(";", ",").split(",") if p.strip()):
                key, sep, value = part.partition("=")
                if not sep:
                    raise RankingError(f"counts are written name=value (tp=20, fp=40, fn=60, tn=880), got {part.strip()!r}")
                items[key.strip().lower()] = value.strip()
            data = items
        if not isinstance(data, dict):
            raise RankingError(f"counts must be a mapping tp, fp, fn (and tn), got {data!r}")
        unknown = sorted(set(data) - set(_NAMES) - {"n"})
        if unknown:
            raise RankingError(f"unknown count(s) {', '.join(unknown)}; the counts are tp, fp, fn, tn (or n, the collection size)")
        missing = [name for name in ("tp", "fp", "fn") if name not in data]
        if missing:
            raise RankingError(f"counts need tp, fp and fn; missing {', '.join(missing)}")
        values = {}
        for name, value in data.items():
            try:
                values[name] = int(value) if not isinstance(value, bool) else None
            except (TypeError, ValueError):
                values[name] = None
            if values[name] is None or isinstance(value, float) and value != int(value):
                raise RankingError(f"count {name} must be a non-negative integer, got {value!r}")
        n = values.pop("n", None)
        if n is not None:
            tn = n - values["tp"] - values["fp"] - values["fn"]
            if "tn" in values and values["tn"] != tn:
                raise RankingError(f"n = {n} disagrees with tp + fp + fn + tn = {n - tn + values['tn']}")
            if tn < 0:
                raise RankingError(f"n = {n} is smaller than tp + fp + fn = {n - tn}")
            values["tn"] = tn
        return cls(values["tp"], values["fp"], values["fn"], values.get("tn"))

    @classmethod
    def of_ranking(cls, ranking, k=None) -> "Counts":
        """The retrieved top k of a ranking as a set: tp = hits@k, fp = k - hits@k, fn = R - hits@k, tn from N."""
        cut = Cut.of(ranking, k)
        tp = ranking.hits(cut.depth)
        fp = cut.depth - tp
        fn = ranking.total_relevant - tp
        tn = None if ranking.collection is None else ranking.collection - tp - fp - fn
        return cls(tp, fp, fn, tn, source=f"the top {cut.depth} of {ranking.describe()}")

    @property
    def n(self) -> int | None:
        return None if self.tn is None else self.tp + self.fp + self.fn + self.tn

    def describe(self) -> str:
        known = ", ".join(f"{name} = {getattr(self, name)}" for name in _NAMES if getattr(self, name) is not None)
        collection = f"; N = {self.n} documents" if self.n is not None else ""
        return f"Contingency table of {self.source}: {known}{collection}"

    def table(self) -> Table:
        tn = "?" if self.tn is None else self.tn
        total_not = "?" if self.tn is None else self.fn + self.tn
        return Table(("", "relevant", "non-relevant", "total"), (
            ("retrieved", self.tp, self.fp, self.tp + self.fp),
            ("not retrieved", self.fn, tn, total_not),
            ("total", self.tp + self.fn, "?" if self.tn is None else self.fp + self.tn, "?" if self.n is None else self.n),
        ), "Contingency table (IIR 8.3)")

    def leaf(self, name) -> Traced:
        value = getattr(self, name)
        if value is None:
            raise ParameterError(f"{name} is unknown: give tn (or n, the collection size)")
        return Traced(value, name, _LABELS[name])


def _counts(data, k=None) -> Counts:
    if hasattr(data, "grades"):
        return Counts.of_ranking(data, k)
    if k is not None:
        raise ParameterError("a cut-off k applies to a ranking, not to counts")
    return Counts.parse(data)


_FORMULAS = {
    "precision": Formula("P = tp / (tp + fp)", r"P = \frac{tp}{tp + fp}"),
    "recall": Formula("Rec = tp / (tp + fn)", r"\mathrm{Rec} = \frac{tp}{tp + fn}"),
    "f": Formula("F_β = (1 + β²) · P · Rec / (β² · P + Rec)", r"F_\beta = \frac{(1+\beta^2)\, P\, \mathrm{Rec}}{\beta^2 P + \mathrm{Rec}}"),
}


def _result(metric, title, value, counts, notes=(), parameters=None):
    return Result(metric, title, value, context=counts.describe(), tables=[counts.table()], notes=list(notes),
                  parameters=parameters, formula=_FORMULAS.get(metric))


def precision_of_counts(counts, k=None) -> Result:
    """Precision P = tp / (tp + fp) (IIR 8.3, eq. 8.1)."""
    counts = _counts(counts, k)
    retrieved = (counts.leaf("tp") + counts.leaf("fp")).named("n", "Documents retrieved")
    if retrieved.value == 0:
        return _result("precision", "Precision", Traced(0, "P", "Precision"), counts,
                       [Note("warning", "nothing was retrieved: precision is undefined and reported as 0")])
    return _result("precision", "Precision", (counts.leaf("tp") / retrieved).named("P", "Precision"), counts)


def recall_of_counts(counts, k=None) -> Result:
    """Recall R = tp / (tp + fn) (IIR 8.3, eq. 8.2)."""
    counts = _counts(counts, k)
    relevant = (counts.leaf("tp") + counts.leaf("fn")).named("R", "Relevant documents")
    if relevant.value == 0:
        return _result("recall", "Recall", Traced(0, "Rec", "Recall"), counts,
                       [Note("warning", "there are no relevant documents: recall is undefined and reported as 0")])
    return _result("recall", "Recall", (counts.leaf("tp") / relevant).named("Rec", "Recall"), counts)


def _f(counts, beta, squared=False):
    beta = check_fraction(beta, "beta", 0, None, low_open=True)
    p = precision_of_counts(counts).traced
    r = recall_of_counts(counts).traced
    value, notes = f_of_nodes(p, r, beta, squared, beta_label=None)
    return value, beta, notes


def f_of_counts(counts, k=None, beta=1, f_weight=None) -> Result:
    """F_β = (1 + β²) · P · R / (β² · P + R) from the counts (IIR 8.3, eq. 8.5); with ``f_weight="beta-squared"``
    the parameter is the weight x = β², as trec_eval's set_F reads it: (1 + x) · P · R / (x · P + R)."""
    weight = conv.F_WEIGHT.choice(f_weight)
    counts = _counts(counts, k)
    value, beta, notes = _f(counts, beta, squared=weight.key == "beta-squared")
    if weight.key == "beta-squared":
        return Result("f", "F-measure", value, context=counts.describe(), tables=[counts.table()], notes=list(notes),
                      parameters={"beta": beta}, conventions={"f_weight": weight}, formula=set_f_formula("R", "R"))
    return _result("f", "F-measure", value, counts, notes, {"beta": beta})


def e_measure(counts, k=None, beta=1) -> Result:
    """van Rijsbergen's effectiveness measure E_β = 1 - F_β (0 is best).

    E_β = 1 - (1 + β²) · P · R / (β² · P + R)   (van Rijsbergen 1979, ch. 7; IIR 8.3 defines F through it)

    >>> e_measure("tp=20, fp=40, fn=60").value
    Fraction(5, 7)
    """
    counts = _counts(counts, k)
    f, beta, notes = _f(counts, beta)
    value = (1 - f).named("E" if beta == 1 else f"E_{beta}", "E-measure")
    return _result("e-measure", "E-measure (van Rijsbergen)", value, counts, notes, {"beta": beta})


def accuracy(counts, k=None) -> Result:
    """Accuracy (tp + tn) / N: the share of documents the system classifies correctly (IIR 8.3).

    IIR 8.3 explains why it is a poor measure for retrieval: with 99.9% of the collection non-relevant,
    retrieving nothing is 99.9% accurate.

    >>> accuracy("tp=20, fp=40, fn=60, tn=880").value
    Fraction(9, 10)
    """
    counts = _counts(counts, k)
    n = (counts.leaf("tp") + counts.leaf("fp") + counts.leaf("fn") + counts.leaf("tn")).named("N", "Documents in the collection")
    value = ((counts.leaf("tp") + counts.leaf("tn")) / n).named("accuracy", "Accuracy")
    nothing = Fraction(counts.fp + counts.tn, n.value)
    notes = [Note("reading", f"retrieving nothing would score {exact.value_text(nothing)}: accuracy rewards "
                             "saying 'non-relevant' when almost every document is (IIR 8.3)")]
    return _result("set-accuracy", "Accuracy", value, counts, notes)


def fallout(counts, k=None) -> Result:
    """Fall-out fp / (fp + tn): the share of the non-relevant documents that were retrieved.

    fallout = fp / (fp + tn)   (Salton & McGill 1983; IIR 8.4 on ROC curves: fall-out = 1 - specificity)

    >>> fallout("tp=20, fp=40, fn=60, tn=880").value
    Fraction(1, 23)
    """
    counts = _counts(counts, k)
    nonrelevant = (counts.leaf("fp") + counts.leaf("tn")).named("nonrel", "Non-relevant documents in the collection")
    if nonrelevant.value == 0:
        raise ParameterError("fall-out is undefined: the collection has no non-relevant documents")
    value = (counts.leaf("fp") / nonrelevant).named("fallout", "Fall-out")
    return _result("fallout", "Fall-out", value, counts)


FALLOUT_MEAN = ("over several queries the mean is the macro average, each query's fall-out weighing the same; no "
                "micro average Σ fp / Σ (fp + tn) is shown: IIR (8.3, 8.4) gives no average of fall-out over queries, and "
                "pooling the counts would weigh each query by the size of its collection")


def mean_notes(metric: str) -> list[Note]:
    """What a mean over queries of ``metric`` should say about how it averages (fall-out: macro only)."""
    return [Note("convention", FALLOUT_MEAN)] if metric == "fallout" else []


def break_even(ranking) -> Result:
    """Precision/recall break-even point: the precision at the rank where precision equals recall (IIR 8.4).

    P@k = R@k  ⇔  hits@k / k = hits@k / R  ⇔  k = R (when hits@k > 0), so the break-even point is P@R, which is
    R-precision.

    >>> from irlab import Ranking
    >>> break_even(Ranking.parse("RNRRNN", relevant=4)).value
    Fraction(3, 4)
    """
    total = ranking.total_relevant
    if total == 0:
        raise ParameterError("the break-even point needs at least one relevant document")
    relevant = Traced(total, "R", "Relevant documents (the rank where P@k = R@k)")
    depth = min(total, ranking.retrieved)
    hits = Traced(ranking.hits(depth), "hits@R", f"Relevant documents in the top {total}")
    value = (hits / relevant).named("BEP", "Break-even point: P@R = R@R")
    notes = [Note("reading", "P@k = hits@k / k and R@k = hits@k / R are equal exactly at k = R: the break-even "
                             "point is R-precision (IIR 8.4)")]
    if ranking.retrieved < total:
        notes.append(Note("warning", f"only {ranking.retrieved} documents were retrieved; ranks {ranking.retrieved + 1}.."
                                     f"{total} count as non-relevant"))
    return Result("break-even", "Precision/recall break-even point", value, ranking=ranking, notes=notes,
                  tables=[rank_table(ranking, depth)])


def kappa_from_table(table, kappa_marginals=None) -> Result:
    """Cohen's kappa from the judges' 2 x 2 table: 'yes-yes, yes-no, no-yes, no-no' (IIR Table 8.2: 300,20,10,70).

    The first judge's answer picks the row, the second's the column.

    >>> kappa_from_table("300,20,10,70").value
    Fraction(277, 357)
    """
    return cohen_kappa(*table_columns(table), kappa_marginals=kappa_marginals)


def table_columns(table) -> tuple[list[int], list[int]]:
    """The two judges' 0/1 columns that a 2 x 2 table 'yes-yes, yes-no, no-yes, no-no' counts."""
    if isinstance(table, str):
        cells = [c for c in table.replace(";", ",").replace(" ", ",").split(",") if c]
    else:
        cells = [c for row in table for c in (row if isinstance(row, (list, tuple)) else [row])]
    if len(cells) != 4:
        raise RankingError(f"a judges' table has 4 cells (yes-yes, yes-no, no-yes, no-no), got {len(cells)}")
    values = []
    for cell in cells:
        try:
            value = int(cell) if not isinstance(cell, bool) else -1
        except (TypeError, ValueError):
            value = -1
        if value < 0:
            raise RankingError(f"a cell of the judges' table must be a non-negative integer, got {cell!r}")
        values.append(value)
    yes_yes, yes_no, no_yes, no_no = values
    first = [1] * (yes_yes + yes_no) + [0] * (no_yes + no_no)
    second = [1] * yes_yes + [0] * yes_no + [1] * no_yes + [0] * no_no
    if not first:
        raise RankingError("the judges' table is empty")
    return first, second


# the counts versions of the set-based metrics, for inputs given as counts rather than rankings
COUNTS_VERSIONS = {"precision": precision_of_counts, "recall": recall_of_counts, "f": f_of_counts}
