"""A ranking playground for class: change a ranking with buttons and sliders and watch the explanation follow.

Toggle a document's judgment, move it up or down, change the cut-off k, the relevant documents the system missed
(they make R), the measure, the gain or the discount (IIR 8.4; Järvelin & Kekäläinen 2002; Burges et al. 2005):
the explanation — table, steps and exact value — is recomputed at every change, so a student explores a measure
without editing and re-running a cell.

:class:`PlaygroundState` is the logic (plain Python, tested on its own); :class:`RankingPlayground` puts
ipywidgets controls around it (``pip install ipywidgets``, part of the ``[test]`` and ``[playground]`` extras).

Examples
--------
>>> state = PlaygroundState([1, 0, 1, 0], measure="AP")
>>> state.result()
<Result AP = 5/6 ≈ 0.8333>
>>> state.move(3, -1)   # the relevant document at rank 3 goes up to rank 2
>>> state.grades, state.result()
([1, 1, 0, 0], <Result AP = 1>)
>>> state.toggle(4)     # rank 4 becomes relevant: AP = (1/1 + 2/2 + 3/4) / 3
>>> state.result()
<Result AP = 11/12 ≈ 0.9167>
>>> state.missed = "1"  # one relevant document was never retrieved: R = 4
>>> state.result()
<Result AP = 11/16 = 0.6875>
"""

from __future__ import annotations

from dataclasses import dataclass, field
from html import escape

from . import metrics
from .conventions import DISCOUNT, GAIN
from .errors import IrlabError, ParameterError
from .ranking import Ranking

# measure name -> (irlab.metrics function name, takes a cut-off k, takes gain and discount)
MEASURES = {
    "P@k": ("precision", True, False),
    "R@k": ("recall", True, False),
    "AP": ("average_precision", True, False),
    "RR": ("reciprocal_rank", True, False),
    "DCG": ("dcg", True, True),
    "nDCG": ("ndcg", True, True),
}


def _measure_function(measure: str):
    if measure not in MEASURES:
        raise ParameterError(f"measure must be one of {', '.join(MEASURES)}, got {measure!r}")
    return getattr(metrics, MEASURES[measure][0])


@dataclass
class PlaygroundState:
    """A ranking's judgments (grades in rank order) and the choices that turn it into one measure's value.

    ``k`` None means the whole list; ``missed`` holds the grades of the relevant documents the system never
    retrieved, written like "1, 2" (they count in R and in the ideal ranking of nDCG).
    """

    grades: list[int]
    measure: str = "nDCG"
    k: int | None = None
    missed: str = ""
    gain: str = GAIN.default
    discount: str = DISCOUNT.default
    max_grade: int | None = None
    _top: int = field(init=False, repr=False)

    def __post_init__(self):
        self.grades = [int(g) for g in self.grades]
        if not self.grades:
            raise ParameterError("the playground needs a ranking of at least one document")
        self._top = self.max_grade if self.max_grade is not None else max(1, *self.grades)
        _measure_function(self.measure)

    def toggle(self, rank: int) -> None:
        """The judgment at ``rank`` (1-based) goes to the next grade: 0 → 1 → … → the highest grade → 0."""
        index = self._index(rank)
        self.grades[index] = (self.grades[index] + 1) % (self._top + 1)

    def move(self, rank: int, step: int) -> None:
        """Move the document at ``rank`` by ``step`` places (-1: up, +1: down); nothing happens past either end."""
        index = self._index(rank)
        target = index + step
        if 0 <= target < len(self.grades):
            self.grades[index], self.grades[target] = self.grades[target], self.grades[index]

    def ranking(self):
        missed = [part.strip() for part in self.missed.replace(";", ",").split(",") if part.strip()]
        try:
            unretrieved = tuple(int(part) for part in missed)
        except ValueError:
            raise ParameterError(f"missed relevant documents are grades separated by commas, like '1, 2'; got "
                                 f"{self.missed!r}") from None
        if any(grade <= 0 for grade in unretrieved):
            raise ParameterError(f"a missed relevant document has a grade of at least 1; got {self.missed!r}")
        if unretrieved:
            return Ranking.from_grades(self.grades, unretrieved=unretrieved)
        return Ranking.from_grades(self.grades)

    def result(self):
        """The chosen measure's explained :class:`~irlab.metric.Result` for the current state."""
        _, takes_k, takes_gain = MEASURES[self.measure] if self.measure in MEASURES else (None, False, False)
        function = _measure_function(self.measure)
        options = {}
        if takes_k and self.k is not None and self.k < len(self.grades):
            options["k"] = self.k
        if takes_gain:
            options.update(gain=self.gain, discount=self.discount)
        return function(self.ranking(), **options)

    def summary(self) -> str:
        """One line: the ranking and the value, or the message that explains why there is none."""
        written = ",".join(str(g) for g in self.grades)
        try:
            return f"ranking {written}: {self.result()!r}"
        except IrlabError as error:
            return f"ranking {written}: {error}"

    def _index(self, rank: int) -> int:
        if isinstance(rank, bool) or not isinstance(rank, int) or not 1 <= rank <= len(self.grades):
            raise ParameterError(f"rank must be between 1 and {len(self.grades)}, got {rank!r}")
        return rank - 1


class RankingPlayground:
    """ipywidgets controls around a :class:`PlaygroundState`; display it in a notebook cell.

    The controls are attributes, so a test (or a lesson) drives them like a student would: ``measure``, ``k``,
    ``missed``, ``gain``, ``discount`` (their ``.value``), and per rank ``judgment_buttons``, ``up_buttons``,
    ``down_buttons`` (``.click()``). ``view`` is the HTML explanation, ``status`` the one-line summary.
    """

    def __init__(self, grades, measure="nDCG", k=None, missed="", gain=None, discount=None, max_grade=None):
        try:
            import ipywidgets as widgets  # deferred: ipywidgets is optional (the [playground] extra) and heavy
        except ImportError:
            raise IrlabError("the playground needs ipywidgets: python3 -m pip install ipywidgets "
                             "(or the [playground] extra of irlab)") from None
        self.state = PlaygroundState(list(grades), measure=measure, k=k, missed=missed,
                                     gain=gain or GAIN.default, discount=discount or DISCOUNT.default,
                                     max_grade=max_grade)
        size = len(self.state.grades)
        self.measure = widgets.Dropdown(options=list(MEASURES), value=measure, description="measure")
        self.k = widgets.IntSlider(value=k or size, min=1, max=size, description="k")
        self.missed = widgets.Text(value=missed, description="missed", placeholder="grades, e.g. 1, 2",
                                   tooltip="grades of the relevant documents the system did not retrieve")
        self.gain = widgets.Dropdown(options=[c.key for c in GAIN.choices], value=self.state.gain, description="gain")
        self.discount = widgets.Dropdown(options=[c.key for c in DISCOUNT.choices], value=self.state.discount,
                                         description="discount")
        self.judgment_buttons, self.up_buttons, self.down_buttons, rows = [], [], [], []
        for rank in range(1, size + 1):
            judgment = widgets.Button(layout=widgets.Layout(width="4em"), tooltip="toggle the judgment")
            up = widgets.Button(description="↑", layout=widgets.Layout(width="3em"), tooltip="move up")
            down = widgets.Button(description="↓", layout=widgets.Layout(width="3em"), tooltip="move down")
            judgment.on_click(lambda _, rank=rank: self._change(self.state.toggle, rank))
            up.on_click(lambda _, rank=rank: self._change(self.state.move, rank, -1))
            down.on_click(lambda _, rank=rank: self._change(self.state.move, rank, 1))
            self.judgment_buttons.append(judgment)
            self.up_buttons.append(up)
            self.down_buttons.append(down)
            rows.append(widgets.HBox([widgets.Label(f"rank {rank}", layout=widgets.Layout(width="4.5em")),
                                      judgment, up, down]))
        self.view = widgets.HTML()
        self.status = widgets.Label()
        for control in (self.measure, self.k, self.missed, self.gain, self.discount):
            control.observe(lambda _: self._change(None), names="value")
        controls = widgets.VBox([self.measure, self.k, self.missed, self.gain, self.discount])
        self.widget = widgets.HBox([widgets.VBox(rows), controls, widgets.VBox([self.status, self.view])])
        self._refresh()

    def _change(self, action, *args):
        if action is not None:
            action(*args)
        state = self.state
        state.measure, state.missed = self.measure.value, self.missed.value
        state.k = self.k.value if self.k.value < len(state.grades) else None
        state.gain, state.discount = self.gain.value, self.discount.value
        self._refresh()

    def _refresh(self):
        takes_gain = MEASURES[self.state.measure][2]
        self.gain.disabled = self.discount.disabled = not takes_gain
        for button, grade in zip(self.judgment_buttons, self.state.grades):
            button.description = "R" if self._top == 1 and grade else ("N" if self._top == 1 else str(grade))
        self.status.value = self.state.summary()
        try:
            self.view.value = self.state.result()._repr_html_()
        except IrlabError as error:
            self.view.value = f"<p class='error'>{escape(str(error))}</p>"

    @property
    def _top(self) -> int:
        return self.state._top

    def __repr__(self) -> str:
        return f"<RankingPlayground {self.state.summary()}>"

    def _repr_mimebundle_(self, **kwargs):
        # the widget for Jupyter; the one-line summary as text, so a stored output stays the same at every run
        bundle = self.widget._repr_mimebundle_(**kwargs)
        data = bundle[0] if isinstance(bundle, tuple) else bundle
        data["text/plain"] = repr(self)
        return bundle
