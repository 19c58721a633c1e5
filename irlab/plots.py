r"""Plots for teaching: precision–recall curves, DCG against IDCG, per-topic bars and the kappa table.

Every plotted number is one irlab computed exactly (a Fraction or a sympy expression), converted to a
float only when drawn, so a figure always agrees with the explanation printed next to it.

The figures are built for print: black and grey only, lines told apart by marker and line style,
text at 9 pt or more, a fixed 6 x 4 inch size, and axis labels and a title always set. matplotlib is
imported only when a function here is called (``import irlab.plots`` stays light), and each figure is
a fresh ``matplotlib.figure.Figure`` on an Agg canvas: no pyplot state, no display needed.

Every drawing function returns the Figure; pass ``ax=`` to draw into an existing Axes instead (the
function then returns ``ax.figure``).

>>> from irlab import Ranking
>>> from irlab.plots import precision_recall_curve, figure_png
>>> fig = precision_recall_curve(Ranking.parse("RNNRR", relevant=5))
>>> figure_png(fig)[:8]
b'\x89PNG\r\n\x1a\n'
"""

from __future__ import annotations

import base64
import io
import math
import numbers
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING

from . import conventions as conv
from . import exact
from .errors import ParameterError
from .metric import Result, check_cutoff
from .metrics import cohen_kappa, dcg, idcg, interpolated_precision, precision_recall_points
from .outputs import write_file

if TYPE_CHECKING:  # pragma: no cover - typing only, never imported at run time
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

__all__ = [
    "precision_recall_curve", "dcg_curves", "topic_bars", "kappa_table", "difference_bars",
    "figure_png", "figure_data_uri", "save_figure",
]

FIGSIZE = (6.0, 4.0)  # inches
TITLE_SIZE = 11
LABEL_SIZE = 10
SMALL_SIZE = 9  # the smallest text on any figure
BLACK, DARK_GREY, GREY, LIGHT_GREY = "black", "0.35", "0.55", "0.85"

# Fixed settings while a figure is built, so a user's global style cannot change sizes or fonts of
# the artists created here (text and lines copy rcParams when they are created).
_STYLE = {
    "font.size": LABEL_SIZE,
    "axes.titlesize": TITLE_SIZE,
    "axes.labelsize": LABEL_SIZE,
    "xtick.labelsize": SMALL_SIZE,
    "ytick.labelsize": SMALL_SIZE,
    "legend.fontsize": SMALL_SIZE,
    "axes.edgecolor": BLACK,
    "axes.labelcolor": BLACK,
    "xtick.color": BLACK,
    "ytick.color": BLACK,
    "text.color": BLACK,
    "axes.facecolor": "white",
    "figure.facecolor": "white",
    "savefig.facecolor": "white",
    "axes.unicode_minus": True,
}
_SVG_SALT = "irlab"
_PDF_METADATA = {"CreationDate": None, "ModDate": None, "Producer": None, "Creator": None}
_FORMATS = {".png": "png", ".pdf": "pdf", ".svg": "svg"}


# shared helpers ---------------------------------------------------------------------------------

def _style():
    import matplotlib  # deferred: matplotlib is heavy; `import irlab.plots` stays light until a figure is drawn

    return matplotlib.rc_context(_STYLE)


def _canvas(ax, layout="constrained") -> tuple["Figure", "Axes"]:
    """A new 6 x 4 in Figure on an Agg canvas with one Axes, or the figure of the Axes given."""
    if ax is not None:
        return ax.figure, ax
    from matplotlib.backends.backend_agg import FigureCanvasAgg  # deferred: matplotlib is heavy (see _style)
    from matplotlib.figure import Figure

    fig = Figure(figsize=FIGSIZE, dpi=100, layout=layout)
    FigureCanvasAgg(fig)
    return fig, fig.add_subplot()


def _finish(ax, xlabel: str, ylabel: str, title: str) -> None:
    ax.set_xlabel(xlabel, fontsize=LABEL_SIZE)
    ax.set_ylabel(ylabel, fontsize=LABEL_SIZE)
    ax.set_title(title, fontsize=TITLE_SIZE)
    ax.tick_params(labelsize=SMALL_SIZE, colors=BLACK)


def _legend(ax, **options):
    return ax.legend(fontsize=SMALL_SIZE, frameon=True, framealpha=1.0, edgecolor=GREY, **options)


def _is_exact(value) -> bool:
    """An int, a Fraction or a sympy expression: what irlab computes (bool and numpy scalars are not)."""
    if type(value) is bool:
        return False
    return isinstance(value, (int, Fraction)) or hasattr(value, "free_symbols")


def _as_float(value) -> float:
    """A float for an exact irlab value (int, Fraction, sympy), a Result, or any real number (numpy too)."""
    if isinstance(value, Result):
        return float(value)
    if _is_exact(value):
        return exact.to_float(value)
    if isinstance(value, numbers.Real):
        return float(value)
    raise ParameterError(f"cannot plot {value!r}: expected a number")


def _short(text: str, limit: int = 40) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


# 1. precision–recall ----------------------------------------------------------------------------

def _envelope_levels(ranking, key: str) -> list[Fraction]:
    """Recall levels at which the interpolated precision is evaluated to draw its step line.

    book:      p_interp is constant on (r_{i-1}, r_i] between the recall values r_i the list reaches, so it
               is evaluated at 0, at every distinct recall value and at 1 (drawn 'steps-pre').
    trec-eval: round(r·R) changes at r = (m - 1/2) / R, so p_interp is constant on [(m - 1/2)/R, (m + 1/2)/R);
               it is evaluated at 0, at those break points and at 1 (drawn 'steps-post').
    """
    R = ranking.total_relevant
    levels = {Fraction(0), Fraction(1)}
    if key == "trec-eval":
        last = min(R, ranking.relevant_retrieved + 1)
        levels.update(Fraction(2 * m - 1, 2 * R) for m in range(1, last + 1))
    else:
        levels.update(Fraction(ranking.hits(k), R) for k in range(1, ranking.retrieved + 1))
    return sorted(levels)


def precision_recall_curve(ranking, interpolation=None, title=None, ax=None) -> "Figure":
    """The precision–recall curve of one ranking: saw-tooth, interpolated envelope and the 11 standard points.

    * grey dashed line, open circles: (recall@k, precision@k) at every rank k (``precision_recall_points``),
      each point labelled with its rank when the list has at most 20 documents;
    * black step line: the interpolated precision p_interp(r) = max_{r' >= r} p(r'), every value of it
      from irlab's ``interpolated_precision`` with the chosen ``interpolation`` convention
      ('book', the default, or 'trec-eval');
    * black squares: p_interp at the 11 standard recall levels 0, 0.1, …, 1 (same convention).

    >>> from irlab import Ranking
    >>> fig = precision_recall_curve(Ranking.parse("RNNRR", relevant=5))
    >>> ax = fig.axes[0]
    >>> ax.get_xlabel(), ax.get_ylabel()
    ('Recall', 'Precision')
    >>> [round(float(y), 4) for y in ax.lines[2].get_ydata()]
    [1.0, 1.0, 1.0, 0.6, 0.6, 0.6, 0.6, 0.0, 0.0, 0.0, 0.0]
    """
    points = precision_recall_points(ranking)  # raises ParameterError when R = 0
    choice = conv.INTERPOLATION.choice(interpolation)
    levels = _envelope_levels(ranking, choice.key)
    envelope = [_as_float(interpolated_precision(ranking, level, choice.key)) for level in levels]
    standard = [Fraction(i, 10) for i in range(11)]
    eleven = [_as_float(interpolated_precision(ranking, level, choice.key)) for level in standard]
    recalls = [float(recall) for _, recall, _ in points]
    precisions = [float(precision) for _, _, precision in points]
    R = ranking.total_relevant
    with _style():
        fig, ax = _canvas(ax)
        n = ranking.retrieved
        marker_size = 8 if n <= 20 else 5 if n <= 100 else 3  # long lists: small markers, the line shows the shape
        ax.plot(recalls, precisions, color=GREY, linestyle="--", linewidth=1.0, marker="o", markersize=marker_size,
                markerfacecolor="white", markeredgecolor=BLACK, markeredgewidth=1.0, zorder=3, clip_on=False,
                label="precision at each rank k", gid="irlab-pr-points")
        ax.plot([float(level) for level in levels], envelope, color=BLACK, linestyle="-", linewidth=1.8,
                drawstyle="steps-post" if choice.key == "trec-eval" else "steps-pre", zorder=2,
                label=f"interpolated precision ({choice.key})", gid="irlab-pr-interpolated")
        ax.plot([float(level) for level in standard], eleven, color=BLACK, linestyle="none", marker="s",
                markersize=4.5, markerfacecolor=BLACK, markeredgecolor=BLACK, zorder=4, clip_on=False,
                label="11 standard recall levels", gid="irlab-pr-eleven")
        if ranking.retrieved <= 20:
            # ranks at the same recall stack up at one x: the first of a run is labelled, the rest as one range
            # ('12–20') at the lowest point, so labels never sit on top of each other
            runs = []
            for (rank, recall, _), x, y in zip(points, recalls, precisions):
                if runs and runs[-1][0] == recall:
                    runs[-1][1].append((rank, x, y))
                else:
                    runs.append((recall, [(rank, x, y)]))
            for _, run in runs:
                rank, x, y = run[0]
                ax.annotate(str(rank), (x, y), xytext=(5, 3), textcoords="offset points", fontsize=SMALL_SIZE,
                            color=DARK_GREY, zorder=5)
                if len(run) > 1:
                    first, last = run[1], run[-1]
                    text = str(first[0]) if len(run) == 2 else f"{first[0]}–{last[0]}"
                    ax.annotate(text, (last[1], last[2]), xytext=(5, -9), textcoords="offset points",
                                fontsize=SMALL_SIZE, color=DARK_GREY, zorder=5)
        ax.set_xlim(0, 1.05)
        ax.set_ylim(0, 1.05)
        ax.set_xticks([i / 10 for i in range(11)])
        ax.set_yticks([i / 10 for i in range(0, 11, 2)])
        ax.grid(True, color=LIGHT_GREY, linestyle=":", linewidth=0.8)
        ax.set_axisbelow(True)
        _finish(ax, "Recall", "Precision",
                title or f"Precision–recall curve: {_short(ranking.written(), 28)} (R = {R})")
        _legend(ax, loc="best")
    return fig


# 2. DCG against IDCG ----------------------------------------------------------------------------

def dcg_curves(ranking, k=None, gain=None, discount=None, title=None, ax=None) -> "Figure":
    """DCG@i of the ranking and IDCG@i of the ideal ranking for i = 1..k, as two lines over the rank i.

    ``k`` defaults to the length of the ranking; ``gain`` ('exp' or 'linear') and ``discount``
    ('log2-rank-plus-1' or 'log2-rank') are irlab's conventions, and every plotted value is
    ``dcg(ranking, k=i, ...)`` or ``idcg(ranking, k=i, ...)`` converted to a float. The gap between the
    curves is what nDCG@i = DCG@i / IDCG@i measures (Järvelin & Kekäläinen 2002).

    >>> from irlab import Ranking
    >>> fig = dcg_curves(Ranking.parse("3,2,0,1"))
    >>> ax = fig.axes[0]
    >>> ax.get_xlabel(), ax.get_ylabel()
    ('Rank i', 'DCG')
    >>> [round(float(y), 4) for y in ax.lines[0].get_ydata()]
    [7.0, 8.8928, 8.8928, 9.3235]
    """
    depth = check_cutoff(k) or ranking.retrieved
    ranks = list(range(1, depth + 1))
    gained = [dcg(ranking, k=i, gain=gain, discount=discount) for i in ranks]
    ideal = [idcg(ranking, k=i, gain=gain, discount=discount) for i in ranks]
    choices = gained[0].conventions
    with _style():
        fig, ax = _canvas(ax)
        ax.plot(ranks, [_as_float(r.value) for r in gained], color=BLACK, linestyle="-", linewidth=1.6,
                marker="o", markersize=5.5, markerfacecolor=BLACK, zorder=3, label="DCG@i of the ranking",
                gid="irlab-dcg")
        ax.plot(ranks, [_as_float(r.value) for r in ideal], color=DARK_GREY, linestyle="--", linewidth=1.6,
                marker="s", markersize=9, markerfacecolor="white", markeredgecolor=DARK_GREY, zorder=2,
                label="IDCG@i of the ideal ranking", gid="irlab-idcg")
        if depth <= 20:
            ax.set_xticks(ranks)
        else:
            from matplotlib.ticker import MaxNLocator  # deferred: matplotlib is heavy (see _style)

            ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.set_xlim(0.5, depth + 0.5)
        top = max([_as_float(r.value) for r in gained + ideal] + [0.0])
        ax.set_ylim(0, top * 1.12 if top > 0 else 1)
        ax.grid(True, axis="y", color=LIGHT_GREY, linestyle=":", linewidth=0.8)
        ax.set_axisbelow(True)
        conventions = f"{choices['gain'].formula}; {choices['discount'].formula}"
        _finish(ax, "Rank i", "DCG",
                title or f"DCG and IDCG by rank: {_short(ranking.written(), 32)}\n{conventions}")
        _legend(ax, loc="lower right")
    return fig


# 3. per-topic bars ------------------------------------------------------------------------------

def _mean(values: list) -> float:
    """The mean, exact when every value is exact (int, Fraction, sympy, Result), else a float sum."""
    values = [v.value if isinstance(v, Result) else v for v in values]
    if all(_is_exact(v) for v in values):
        total = 0
        for v in values:
            total = exact.add(total, v)
        return exact.to_float(exact.div(total, len(values)))
    return math.fsum(_as_float(v) for v in values) / len(values)


def topic_bars(values, measure, title=None, ax=None) -> "Figure":
    """One bar per topic (sorted by the topic written as a string) and a labelled line at the mean.

    ``values`` maps topic -> value of ``measure`` for one run: floats, exact irlab values or Results.
    The mean line is the arithmetic mean over the topics shown (computed exactly when the values are exact).

    >>> fig = topic_bars({"402": 0.5, "401": 0.25, "403": 0.75}, "AP")
    >>> ax = fig.axes[0]
    >>> [t.get_text() for t in ax.get_xticklabels()], [float(p.get_height()) for p in ax.patches]
    (['401', '402', '403'], [0.25, 0.5, 0.75])
    >>> ax.get_ylabel(), float(ax.lines[0].get_ydata()[0])
    ('AP', 0.5)
    """
    items = sorted(dict(values).items(), key=lambda item: str(item[0]))
    if not items:
        raise ParameterError("topic_bars needs at least one topic")
    if not isinstance(measure, str) or not measure.strip():
        raise ParameterError("topic_bars needs the name of the measure, e.g. 'AP'")
    topics = [str(topic) for topic, _ in items]
    heights = [_as_float(value) for _, value in items]
    mean = _mean([value for _, value in items])
    positions = list(range(len(topics)))
    with _style():
        fig, ax = _canvas(ax)
        ax.bar(positions, heights, width=0.7, color=LIGHT_GREY, edgecolor=BLACK, linewidth=0.8,
               label=f"{measure} per topic", gid="irlab-topic-bars")
        ax.axhline(mean, color=BLACK, linestyle="--", linewidth=1.4, label=f"mean = {mean:.4f}",
                   gid="irlab-topic-mean")
        ax.set_xticks(positions)
        rotate = len(topics) > 8 or max(len(t) for t in topics) > 6
        ax.set_xticklabels(topics, rotation=90 if rotate else 0, fontsize=SMALL_SIZE)
        if len(topics) > 40:  # keep the labels legible: show every n-th
            step = math.ceil(len(topics) / 40)
            for index, label in enumerate(ax.get_xticklabels()):
                label.set_visible(index % step == 0)
        ax.set_xlim(-0.6, len(topics) - 0.4)
        # a band above the bars keeps the legend clear of them
        low, high = min(heights + [0.0]), max(heights + [mean, 0.0])
        if low >= 0 and high <= 1:
            ax.set_ylim(0, 1.2)
            ax.set_yticks([i / 10 for i in range(0, 11, 2)])
        else:
            ax.set_ylim(low * 1.1, high * 1.25 if high > 0 else 1)
        ax.axhline(0, color=BLACK, linewidth=0.8)
        ax.grid(True, axis="y", color=LIGHT_GREY, linestyle=":", linewidth=0.8)
        ax.set_axisbelow(True)
        _finish(ax, "Topic", measure, title or f"{measure} per topic ({len(topics)} topics)")
        _legend(ax, loc="upper right", ncols=2)
    return fig


def score_histogram(scores, max_score, title=None, ax=None) -> "Figure":
    """How many students earned each score, from 0 to ``max_score``.

    Whole-number scores (one point per question) get one bar per score, 0, 1, …, ``max_score``: 4 and 5 points
    are two bars. Scores with fractions of a point (partial credit) fall in bins of width 1 point: a score s in
    the bin [i, i + 1) with i = floor(s), the full mark in the last bin. Used by the homework class report.

    >>> fig = score_histogram([0, 4, 5, 5], 5)
    >>> [int(p.get_height()) for p in fig.axes[0].patches]
    [1, 0, 0, 0, 1, 2]
    >>> fig = score_histogram([0, 1.5, 2, 2, 3], 3)
    >>> [int(p.get_height()) for p in fig.axes[0].patches]
    [1, 1, 3]
    """
    if not isinstance(max_score, int) or max_score < 1:
        raise ParameterError(f"score_histogram needs a whole maximum score >= 1, got {max_score!r}")
    values = [_as_float(score) for score in scores]
    for value in values:
        if value < 0 or value > max_score:
            raise ParameterError(f"score {value:g} is outside 0..{max_score}")
    if all(_is_whole(score) for score in scores):  # one bar per score
        bins = [0] * (max_score + 1)
        for value in values:
            bins[int(value)] += 1
        labels = [str(i) for i in range(max_score + 1)]
    else:
        bins = [0] * max_score
        for value in values:
            bins[min(int(math.floor(value)), max_score - 1)] += 1
        labels = [f"{i}–{i + 1}" if i < max_score - 1 else f"{i}–{max_score}" for i in range(max_score)]
    with _style():
        fig, ax = _canvas(ax)
        ax.bar(range(len(bins)), bins, width=0.8, color=LIGHT_GREY, edgecolor=BLACK, linewidth=0.8,
               gid="irlab-score-histogram")
        ax.set_xticks(range(len(bins)))
        ax.set_xticklabels(labels, fontsize=SMALL_SIZE, rotation=90 if len(bins) > 12 else 0)
        ax.yaxis.get_major_locator().set_params(integer=True)
        ax.grid(True, axis="y", color=LIGHT_GREY, linestyle=":", linewidth=0.8)
        ax.set_axisbelow(True)
        _finish(ax, f"Score (points of {max_score})", "Students", title or f"Score distribution ({sum(bins)} students)")
    return fig


def _is_whole(score) -> bool:
    """A whole number of points: exactly for ints and fractions, by its value for a float or a sympy number."""
    if isinstance(score, numbers.Rational):
        return score.denominator == 1
    return _as_float(score).is_integer()


# 4. the kappa contingency table -----------------------------------------------------------------

def _step(result: Result, symbol: str):
    for step in result.steps:
        if step.symbol == symbol:
            return step.value
    raise KeyError(symbol)  # pragma: no cover - cohen_kappa always names P(A) and P(E)


def kappa_table(judge1, judge2, title=None, kappa_marginals=None, ax=None) -> "Figure":
    """Two judges' 0/1 judgments as a 2 x 2 contingency table with totals, and P(A), P(E), κ beneath.

    Counts, P(A), P(E) and κ all come from irlab's ``cohen_kappa`` (``kappa_marginals`` 'pooled', the
    default as in IIR 8.5, or 'per-judge' for Cohen's own estimate of P(E)).

    >>> fig = kappa_table("0,0,1,1,1,1,1,1,0,0,0,0", "0,0,1,1,0,0,0,0,1,1,1,1")
    >>> cells = fig.axes[0].tables[0].get_celld()
    >>> [cells[1, 0].get_text().get_text(), cells[1, 1].get_text().get_text()]
    ['2', '4']
    >>> "κ = -1/3" in fig.axes[0].texts[0].get_text()
    True
    """
    result = cohen_kappa(judge1, judge2, kappa_marginals=kappa_marginals)
    contingency = result.tables[0]
    choice = result.conventions["kappa_marginals"]
    p_agree, p_chance = _step(result, "P(A)"), _step(result, "P(E)")
    columns = [str(c).replace(": ", ":\n") for c in contingency.columns[1:]]  # 'judge 2:\nrelevant'
    row_labels = [str(row[0]).replace(": ", ":\n") for row in contingency.rows]
    cells = [[exact.exact_text(cell) for cell in row[1:]] for row in contingency.rows]
    size = contingency.rows[-1][-1]
    caption = (f"P(A) = {exact.value_text(p_agree)}    P(E) = {exact.value_text(p_chance)}    "
               f"κ = {exact.value_text(result.value)}\n"
               f"P(E) from {choice.key} marginals: {choice.formula}")
    with _style():
        # no constrained layout: a table's extent is only known once drawn, so the layout would shift
        # between the first and the second rendering; the Axes fills the figure and places everything itself
        created = ax is None
        fig, ax = _canvas(ax, layout=None)
        if created:
            fig.subplots_adjust(left=0.02, right=0.98, bottom=0.02, top=0.9)
        ax.set_axis_off()
        table = ax.table(cellText=cells, rowLabels=row_labels, colLabels=columns, cellLoc="center",
                         rowLoc="right", colLoc="center", bbox=[0.22, 0.3, 0.76, 0.56])
        table.auto_set_font_size(False)
        table.set_fontsize(LABEL_SIZE)
        table.set_gid("irlab-kappa-table")
        for (row, column), cell in table.get_celld().items():
            cell.set_edgecolor(BLACK)
            cell.set_linewidth(0.8)
            if row == 0 or column == -1:
                cell.get_text().set_fontweight("bold")
            if row == len(cells) or column == len(columns) - 1:
                cell.set_facecolor("0.92")  # the totals
        ax.text(0.5, 0.16, caption, transform=ax.transAxes, ha="center", va="center", fontsize=LABEL_SIZE,
                linespacing=1.6, gid="irlab-kappa-caption")
        ax.set_title(title or f"Cohen's kappa: two judges, {size} documents", fontsize=TITLE_SIZE)
    return fig


def difference_bars(differences, measure, names=("A", "B"), title=None, ax=None, threshold=None) -> "Figure":
    """Per-topic differences d = A - B of two systems, largest first, with the zero line and the mean difference.

    The usual picture beside a paired significance test (Croft, Metzler & Strohman 2010 §8.6): how many topics
    each system wins, and by how much. ``differences`` maps topic -> d (exact values, Results or floats).
    ``threshold``: draw and label only the topics with |d| above it (the per-topic ΔAP chart of courses); the mean
    line and the win/loss counts still take every topic.

    >>> fig = difference_bars({"401": 0.25, "402": -0.5, "403": 0.75}, "AP")
    >>> ax = fig.axes[0]
    >>> [t.get_text() for t in ax.get_xticklabels()], [float(p.get_height()) for p in ax.patches]
    (['403', '401', '402'], [0.75, 0.25, -0.5])
    """
    items = sorted(dict(differences).items(), key=lambda item: (-_as_float(item[1]), str(item[0])))
    if not items:
        raise ParameterError("difference_bars needs at least one topic")
    first, second = names
    mean = _mean([value for _, value in items])
    wins, losses = sum(_as_float(v) > 0 for _, v in items), sum(_as_float(v) < 0 for _, v in items)
    hidden = 0
    if threshold is not None:
        shown = [(t, v) for t, v in items if abs(_as_float(v)) > threshold]
        hidden, items = len(items) - len(shown), shown
    topics = [str(topic) for topic, _ in items]
    heights = [_as_float(value) for _, value in items]
    positions = list(range(len(topics)))
    with _style():
        fig, ax = _canvas(ax)
        colours = [DARK_GREY if h > 0 else "white" for h in heights]
        ax.bar(positions, heights, width=0.7, color=colours, edgecolor=BLACK, linewidth=0.8,
               gid="irlab-difference-bars")
        ax.axhline(0, color=BLACK, linewidth=0.8)
        ax.axhline(mean, color=BLACK, linestyle="--", linewidth=1.4, label=f"mean difference = {mean:.4f}",
                   gid="irlab-difference-mean")
        ax.set_xticks(positions)
        rotate = len(topics) > 8 or max((len(t) for t in topics), default=0) > 6
        ax.set_xticklabels(topics, rotation=90 if rotate else 0, fontsize=SMALL_SIZE)
        if len(topics) > 40:
            step = math.ceil(len(topics) / 40)
            for index, label in enumerate(ax.get_xticklabels()):
                label.set_visible(index % step == 0)
        ax.set_xlim(-0.6, max(len(topics), 1) - 0.4)
        ax.grid(True, axis="y", color=LIGHT_GREY, linestyle=":", linewidth=0.8)
        ax.set_axisbelow(True)
        left_out = f"; {hidden} with |Δ| <= {threshold} not drawn" if threshold is not None else ""
        _finish(ax, f"Topic (sorted by difference): {first} better on {wins}, {second} on {losses}{left_out}",
                f"{measure}({first}) - {measure}({second})",
                title or f"Per-topic differences in {measure} ({len(topics) + hidden} topics)")
        _legend(ax, loc="upper right")
    return fig


# 5. output --------------------------------------------------------------------------------------

def _figure_bytes(fig, fmt: str, dpi: int = 100) -> bytes:
    """The figure rendered as png, pdf or svg, byte-for-byte the same on every run (no dates, no versions)."""
    import matplotlib  # deferred: matplotlib is heavy (see _style)

    buffer = io.BytesIO()
    # lay the figure out once first: artists whose size is known only after a draw (tables, constrained
    # layout) then render the same on the first and every later call
    fig.draw_without_rendering()
    if fmt == "png":
        fig.savefig(buffer, format="png", dpi=dpi, metadata={"Software": None})
    elif fmt == "pdf":
        fig.savefig(buffer, format="pdf", dpi=dpi, metadata=dict(_PDF_METADATA))
    elif fmt == "svg":
        with matplotlib.rc_context({"svg.hashsalt": _SVG_SALT}):
            fig.savefig(buffer, format="svg", dpi=dpi, metadata={"Date": None})
    else:
        raise ParameterError(f"unknown figure format {fmt!r}; choose png, pdf or svg")
    return buffer.getvalue()


def figure_png(fig, dpi: int = 100) -> bytes:
    r"""The figure as PNG bytes, identical for identical figures (no software or date in the file).

    >>> fig = topic_bars({"q1": 0.5}, "AP")
    >>> png = figure_png(fig)
    >>> png[:8], png == figure_png(fig)
    (b'\x89PNG\r\n\x1a\n', True)
    """
    return _figure_bytes(fig, "png", dpi)


def figure_data_uri(fig, dpi: int = 100) -> str:
    """The figure as a ``data:image/png;base64,...`` URI, for HTML (``<img src="...">``) and notebooks.

    >>> figure_data_uri(topic_bars({"q1": 0.5}, "AP")).startswith("data:image/png;base64,iVBORw0KGgo")
    True
    """
    return "data:image/png;base64," + base64.b64encode(figure_png(fig, dpi)).decode("ascii")


def save_figure(fig, path, dpi: int = 100) -> Path:
    """Write the figure to ``path`` in the format its suffix names (.png, .pdf or .svg); returns the path.

    The file is deterministic: the same figure gives the same bytes on every run.

    >>> import tempfile, pathlib
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     saved = save_figure(topic_bars({"q1": 0.5}, "AP"), pathlib.Path(folder) / "ap.svg")
    ...     saved.read_text().startswith("<?xml")
    True
    """
    path = Path(path)
    fmt = _FORMATS.get(path.suffix.lower())
    if fmt is None:
        raise ParameterError(f"cannot tell the figure format of {str(path)!r}: name it .png, .pdf or .svg")
    return write_file(path, _figure_bytes(fig, fmt, dpi))  # whole or not at all, never through a link
