"""irlab.plots: the plotted numbers are irlab's exact values, the figures read well in print, the bytes are stable."""

import base64
import doctest
import subprocess
import sys
from fractions import Fraction

import pytest

matplotlib = pytest.importorskip("matplotlib")

from matplotlib.colors import to_rgba  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402
from matplotlib.text import Text  # noqa: E402

from irlab import Ranking, cohen_kappa, dcg, idcg, interpolated_precision  # noqa: E402
from irlab import plots  # noqa: E402
from irlab.errors import ParameterError  # noqa: E402
from irlab.exact import to_float, value_text  # noqa: E402
from irlab.plots import (  # noqa: E402
    dcg_curves, figure_data_uri, figure_png, kappa_table, precision_recall_curve, save_figure, topic_bars,
)

SEED_JUDGE1 = "0,0,1,1,1,1,1,1,0,0,0,0"
SEED_JUDGE2 = "0,0,1,1,0,0,0,0,1,1,1,1"


def line(ax, gid):
    [found] = [artist for artist in ax.lines if artist.get_gid() == gid]
    return found


def floats(values):
    return [float(v) for v in values]


def all_figures():
    return [
        precision_recall_curve(Ranking.parse("RNNRR", relevant=5)),
        dcg_curves(Ranking.parse("3,2,0,1")),
        topic_bars({"401": 0.5, "402": 0.25}, "AP"),
        kappa_table(SEED_JUDGE1, SEED_JUDGE2),
    ]


# lazy import ----------------------------------------------------------------------------------------

def test_importing_irlab_and_irlab_plots_does_not_import_matplotlib():
    code = "import sys, irlab, irlab.plots; print('matplotlib' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["False"]


def test_doctests_run():
    failures, attempted = doctest.testmod(plots, optionflags=doctest.ELLIPSIS)
    assert attempted > 10 and failures == 0


# 1. precision–recall --------------------------------------------------------------------------------

def test_pr_curve_points_are_irlabs_values():
    ranking = Ranking.parse("RNNRR", relevant=5)
    fig = precision_recall_curve(ranking)
    assert isinstance(fig, Figure)
    [ax] = fig.axes
    assert (ax.get_xlabel(), ax.get_ylabel()) == ("Recall", "Precision")
    assert ax.get_title()
    assert ax.get_xlim() == (0, 1.05) and ax.get_ylim() == (0, 1.05)
    points = line(ax, "irlab-pr-points")
    assert list(zip(floats(points.get_xdata()), floats(points.get_ydata()))) == [
        (0.2, 1.0), (0.2, 0.5), (0.2, 1 / 3), (0.4, 0.5), (0.6, 0.6)]
    eleven = line(ax, "irlab-pr-eleven")
    assert floats(eleven.get_xdata()) == [i / 10 for i in range(11)]
    assert floats(eleven.get_ydata()) == [1, 1, 1, 0.6, 0.6, 0.6, 0.6, 0, 0, 0, 0]
    envelope = line(ax, "irlab-pr-interpolated")
    assert envelope.get_drawstyle() == "steps-pre"
    assert floats(envelope.get_xdata()) == [0, 0.2, 0.4, 0.6, 1]
    assert floats(envelope.get_ydata()) == [1, 1, 0.6, 0.6, 0]
    assert [t.get_text() for t in ax.get_legend().get_texts()] == [
        "precision at each rank k", "interpolated precision (book)", "11 standard recall levels"]


def step_value(envelope, r: float) -> float:
    """The value the drawn step line shows at recall r."""
    xs, ys = floats(envelope.get_xdata()), floats(envelope.get_ydata())
    if envelope.get_drawstyle() == "steps-pre":  # y[i] holds on (x[i-1], x[i]]
        return next(y for x, y in zip(xs, ys) if x >= r)
    assert envelope.get_drawstyle() == "steps-post"  # y[i] holds on [x[i], x[i+1])
    return [y for x, y in zip(xs, ys) if x <= r][-1]


@pytest.mark.parametrize("interpolation", ["book", "trec-eval"])
@pytest.mark.parametrize("text, relevant", [("RNNRR", 5), ("NRNNRNNNNR", 3), ("RRNNNNNNRR", 8), ("NNRN", 1)])
def test_pr_envelope_is_irlabs_interpolated_precision_at_every_recall(text, relevant, interpolation):
    ranking = Ranking.parse(text, relevant=relevant)
    ax = precision_recall_curve(ranking, interpolation=interpolation).axes[0]
    envelope = line(ax, "irlab-pr-interpolated")
    for ys in (envelope.get_ydata(), line(ax, "irlab-pr-eleven").get_ydata()):
        assert all(0 <= y <= 1 for y in ys)
    for j in range(201):  # the drawn step function agrees with irlab at every recall on a fine grid
        level = Fraction(j, 200)
        expected = float(interpolated_precision(ranking, level, interpolation))
        assert step_value(envelope, float(level)) == expected, (j, level)
    eleven = line(ax, "irlab-pr-eleven")
    assert floats(eleven.get_ydata()) == [
        float(interpolated_precision(ranking, Fraction(i, 10), interpolation)) for i in range(11)]


def test_pr_trec_eval_differs_from_book_where_rounding_differs():
    ranking = Ranking.parse("NRNNRNNNNR", relevant=3)  # r = 0.4: ceil(1.2) = 2 but round(1.2) = 1
    book = line(precision_recall_curve(ranking).axes[0], "irlab-pr-eleven").get_ydata()
    trec = line(precision_recall_curve(ranking, interpolation="trec-eval").axes[0], "irlab-pr-eleven").get_ydata()
    assert (float(book[4]), float(trec[4])) == (0.4, 0.5)


def test_pr_curve_of_a_long_ranking_matches_irlab():
    import random

    rng = random.Random(3)
    ranking = Ranking.parse("".join(rng.choice("RNNN") for _ in range(150)), relevant=50)
    ax = precision_recall_curve(ranking).axes[0]
    envelope = line(ax, "irlab-pr-interpolated")
    assert len(ax.texts) == 0  # no rank labels beyond 20 documents
    levels = sorted({Fraction(ranking.hits(k), 50) for k in range(1, 151)} | {Fraction(0), Fraction(1)})
    assert floats(envelope.get_xdata()) == floats(levels)
    assert floats(envelope.get_ydata()) == [float(interpolated_precision(ranking, level)) for level in levels]


def test_pr_curve_needs_relevant_documents():
    with pytest.raises(ParameterError):
        precision_recall_curve(Ranking.parse("NN", relevant=0))


# 2. DCG and IDCG ------------------------------------------------------------------------------------

@pytest.mark.parametrize("options", [{}, {"gain": "linear", "discount": "log2-rank"}, {"k": 3}, {"k": 6}])
def test_dcg_curves_are_irlabs_dcg_and_idcg(options):
    ranking = Ranking.parse("3,2,0,1")
    fig = dcg_curves(ranking, **options)
    [ax] = fig.axes
    assert (ax.get_xlabel(), ax.get_ylabel()) == ("Rank i", "DCG") and ax.get_title()
    conventions = {key: options[key] for key in ("gain", "discount") if key in options}
    depth = options.get("k", 4)
    ranks = list(range(1, depth + 1))
    for gid, metric in (("irlab-dcg", dcg), ("irlab-idcg", idcg)):
        drawn = line(ax, gid)
        assert floats(drawn.get_xdata()) == ranks
        assert floats(drawn.get_ydata()) == [float(metric(ranking, k=i, **conventions)) for i in ranks]


def test_dcg_curve_seed_values():
    ax = dcg_curves(Ranking.parse("3,2,0,1")).axes[0]
    assert [round(y, 4) for y in floats(line(ax, "irlab-dcg").get_ydata())] == [7, 8.8928, 8.8928, 9.3235]
    assert [round(y, 4) for y in floats(line(ax, "irlab-idcg").get_ydata())] == [7, 8.8928, 9.3928, 9.3928]


def test_dcg_curves_idcg_uses_unretrieved_grades():
    ranking = Ranking.parse("0,1", unretrieved=[2])
    ax = dcg_curves(ranking).axes[0]
    assert floats(line(ax, "irlab-idcg").get_ydata()) == [float(idcg(ranking, k=i)) for i in (1, 2)]
    assert float(line(ax, "irlab-idcg").get_ydata()[0]) == 3


# 3. per-topic bars ----------------------------------------------------------------------------------

def test_topic_bars_heights_order_and_mean():
    values = {"q3": 0.75, "q1": 0.25, "q2": 0.5, "q10": 0.1}
    fig = topic_bars(values, "AP")
    [ax] = fig.axes
    assert (ax.get_xlabel(), ax.get_ylabel()) == ("Topic", "AP") and ax.get_title()
    assert [t.get_text() for t in ax.get_xticklabels()] == ["q1", "q10", "q2", "q3"]  # sorted as strings
    assert [float(p.get_height()) for p in ax.patches] == [0.25, 0.1, 0.5, 0.75]
    mean = line(ax, "irlab-topic-mean")
    assert floats(mean.get_ydata()) == [0.4, 0.4]
    assert mean.get_label() == "mean = 0.4000"
    assert "mean = 0.4000" in [t.get_text() for t in ax.get_legend().get_texts()]


def test_topic_bars_accept_exact_values_and_results():
    from irlab import average_precision

    runs = {"401": Ranking.parse("RNNRR", relevant=5), "402": Ranking.parse("NR", relevant=1)}
    results = {topic: average_precision(r) for topic, r in runs.items()}
    ax = topic_bars(results, "AP").axes[0]
    assert [float(p.get_height()) for p in ax.patches] == [0.42, 0.5]
    assert float(line(ax, "irlab-topic-mean").get_ydata()[0]) == float(Fraction(23, 50))
    ax = topic_bars({1: Fraction(1, 3), 2: Fraction(2, 3)}, "P@3").axes[0]
    assert [float(p.get_height()) for p in ax.patches] == [1 / 3, 2 / 3]
    assert float(line(ax, "irlab-topic-mean").get_ydata()[0]) == 0.5


def test_topic_bars_accept_numpy_and_sympy_values():
    import numpy

    from irlab import ndcg

    ax = topic_bars({"a": numpy.float64(0.25), "b": numpy.int64(1)}, "P@1").axes[0]
    assert [float(p.get_height()) for p in ax.patches] == [0.25, 1.0]
    assert float(line(ax, "irlab-topic-mean").get_ydata()[0]) == 0.625
    value = ndcg(Ranking.parse("0,1")).value  # a sympy expression: 1/log2(3)
    ax = topic_bars({"a": value, "b": 1}, "nDCG").axes[0]
    assert float(ax.patches[0].get_height()) == to_float(value)
    assert float(line(ax, "irlab-topic-mean").get_ydata()[0]) == pytest.approx((to_float(value) + 1) / 2, abs=1e-15)


def test_topic_bars_measures_above_one_and_bad_input():
    ax = topic_bars({"a": 7.0, "b": 9.3}, "DCG").axes[0]
    assert ax.get_ylim()[1] >= 9.3
    ax = topic_bars({"a": -0.5, "b": 1.0}, "Spearman rho").axes[0]
    low, high = ax.get_ylim()
    assert low <= -0.5 and high >= 1 and float(line(ax, "irlab-topic-mean").get_ydata()[0]) == 0.25
    with pytest.raises(ParameterError):
        topic_bars({}, "AP")
    with pytest.raises(ParameterError):
        topic_bars({"a": 1}, "")
    with pytest.raises(ParameterError):
        topic_bars({"a": "high"}, "AP")


# 4. kappa --------------------------------------------------------------------------------------------

def table_texts(ax):
    [table] = ax.tables
    return {key: cell.get_text().get_text() for key, cell in table.get_celld().items()}


def test_kappa_table_seed_example():
    fig = kappa_table(SEED_JUDGE1, SEED_JUDGE2)
    [ax] = fig.axes
    cells = table_texts(ax)
    # rows: judge 1 relevant / non-relevant / total; columns: judge 2 relevant / non-relevant / total
    assert [[cells[row, column] for column in range(3)] for row in (1, 2, 3)] == [
        ["2", "4", "6"], ["4", "2", "6"], ["6", "6", "12"]]
    assert cells[1, -1].replace("\n", " ") == "judge 1: relevant"
    assert cells[0, 0].replace("\n", " ") == "judge 2: relevant"
    caption = ax.texts[0].get_text()
    assert "P(A) = 1/3" in caption and "P(E) = 1/2" in caption and "κ = -1/3" in caption
    assert cohen_kappa(SEED_JUDGE1, SEED_JUDGE2).value == Fraction(-1, 3)
    assert ax.get_title()


def test_kappa_table_marginals_convention():
    result = cohen_kappa("1,1,0,0", "1,0,0,0", kappa_marginals="per-judge")
    caption = kappa_table("1,1,0,0", "1,0,0,0", kappa_marginals="per-judge").axes[0].texts[0].get_text()
    assert f"κ = {value_text(result.value)}" in caption and "per-judge" in caption
    pooled = kappa_table("1,1,0,0", "1,0,0,0").axes[0].texts[0].get_text()
    assert f"κ = {value_text(Fraction(7, 15))}" in pooled and "pooled" in pooled


# drawing into an existing Axes, print style -----------------------------------------------------------

def test_ax_argument_draws_into_the_given_axes():
    fig = Figure(figsize=(12, 8))
    axes = fig.subplots(2, 2).ravel()
    calls = [
        lambda ax: precision_recall_curve(Ranking.parse("RNNRR", relevant=5), ax=ax),
        lambda ax: dcg_curves(Ranking.parse("3,2,0,1"), ax=ax),
        lambda ax: topic_bars({"a": 0.5}, "AP", ax=ax),
        lambda ax: kappa_table(SEED_JUDGE1, SEED_JUDGE2, ax=ax),
    ]
    for ax, call in zip(axes, calls):
        assert call(ax) is fig
    assert len(fig.axes) == 4 and len(axes[0].lines) == 3 and len(axes[3].tables) == 1


def test_every_figure_is_6x4_titled_grey_and_legible():
    for fig in all_figures():
        assert tuple(fig.get_size_inches()) == (6, 4)
        fig.canvas.draw()
        texts = [t for t in fig.findobj(Text) if t.get_visible() and t.get_text().strip()]
        assert texts and all(t.get_fontsize() >= 9 for t in texts), [
            (t.get_text(), t.get_fontsize()) for t in texts if t.get_fontsize() < 9]
        ax = fig.axes[0]
        assert ax.get_title()
        if ax.axison:
            assert ax.get_xlabel() and ax.get_ylabel()
        colours = []
        for drawn in ax.lines:
            colours += [drawn.get_color(), drawn.get_markerfacecolor(), drawn.get_markeredgecolor()]
        colours += [c for p in ax.patches for c in (p.get_facecolor(), p.get_edgecolor())]
        for colour in colours:
            red, green, blue, _ = to_rgba(colour)
            assert red == green == blue, colour  # black, white and greys only


def test_lines_differ_by_style_not_only_colour():
    ax = precision_recall_curve(Ranking.parse("RNNRR", relevant=5)).axes[0]
    styles = {(l.get_linestyle(), l.get_marker(), l.get_drawstyle()) for l in ax.lines}
    assert len(styles) == 3
    ax = dcg_curves(Ranking.parse("3,2,0,1")).axes[0]
    assert {(l.get_linestyle(), l.get_marker()) for l in ax.lines} == {("-", "o"), ("--", "s")}


def test_figures_do_not_share_state():
    first = precision_recall_curve(Ranking.parse("RNNRR", relevant=5))
    second = precision_recall_curve(Ranking.parse("RNNRR", relevant=5))
    assert first is not second and first.axes[0] is not second.axes[0]
    assert len(first.axes[0].lines) == len(second.axes[0].lines) == 3


# output ----------------------------------------------------------------------------------------------

def test_png_bytes_are_deterministic():
    fig = precision_recall_curve(Ranking.parse("RNNRR", relevant=5))
    png = figure_png(fig)
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    assert figure_png(fig) == png  # the same figure twice
    assert figure_png(precision_recall_curve(Ranking.parse("RNNRR", relevant=5))) == png  # built again
    assert b"Software" not in png and b"matplotlib" not in png
    assert figure_png(fig, dpi=50) != png


def test_data_uri_is_the_png():
    fig = kappa_table(SEED_JUDGE1, SEED_JUDGE2)
    uri = figure_data_uri(fig)
    prefix = "data:image/png;base64,"
    assert uri.startswith(prefix)
    assert base64.b64decode(uri[len(prefix):]) == figure_png(fig)


@pytest.mark.parametrize("suffix, magic", [(".png", b"\x89PNG"), (".pdf", b"%PDF"), (".svg", b"<?xml")])
def test_save_figure_formats_are_deterministic(tmp_path, suffix, magic):
    fig = dcg_curves(Ranking.parse("3,2,0,1"))
    first = save_figure(fig, tmp_path / f"a{suffix}")
    second = save_figure(dcg_curves(Ranking.parse("3,2,0,1")), str(tmp_path / f"b{suffix.upper()}"))
    assert first == tmp_path / f"a{suffix}"
    data = first.read_bytes()
    assert data.startswith(magic) and data == second.read_bytes()
    assert b"CreationDate" not in data and b"<dc:date>" not in data


def test_save_figure_unknown_suffix(tmp_path):
    with pytest.raises(ParameterError, match="png, .pdf or .svg"):
        save_figure(topic_bars({"a": 0.5}, "AP"), tmp_path / "figure.jpg")
    assert not (tmp_path / "figure.jpg").exists()


def test_exact_values_convert_like_irlab():
    ranking = Ranking.parse("3,2,0,1")
    drawn = floats(line(dcg_curves(ranking).axes[0], "irlab-dcg").get_ydata())
    assert drawn == [to_float(dcg(ranking, k=i).value) for i in range(1, 5)]


def test_rank_labels_at_one_recall_do_not_pile_up():
    from irlab import Ranking
    from irlab.plots import precision_recall_curve

    fig = precision_recall_curve(Ranking.parse("RRNNNNNNRRNRNNNRNNNN", relevant=8))
    labels = [t.get_text() for t in fig.axes[0].texts]
    # runs at one recall: 1 | 2, 3–8 | 9 | 10, 11 | 12, 13–15 | 16, 17–20
    assert labels == ["1", "2", "3–8", "9", "10", "11", "12", "13–15", "16", "17–20"]
