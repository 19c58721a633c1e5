"""The F-measure from a traced precision and recall: shared by the rankings (set_based) and the counts (counts)."""

from __future__ import annotations

from .. import exact
from ..document import Formula, Note
from ..trace import Traced


def f_symbol(beta) -> str:
    """'F1', 'F_0.5' for β = 1/2: a subscript that cannot be read as a division; 'F_β' when β has no short decimal."""
    if beta == 1:
        return "F1"
    return f"F_{exact.decimal_text(beta)}" if exact.is_terminating(beta, 3) else "F_β"


def f_of_nodes(p: Traced, r: Traced, beta, squared: bool = False,
               beta_label: str | None = "Weight of recall against precision") -> tuple[Traced, list]:
    """F from traced precision and recall, and the notes it needs: F_β = (1 + β²)·P·R / (β²·P + R) (IIR eq. 8.5),
    or with ``squared`` trec_eval's set_F, whose parameter is the weight x = β² itself: (1 + x)·P·R / (x·P + R)."""
    symbol = f"F(x={exact.decimal_text(beta)})" if squared and beta != 1 else f_symbol(beta)
    if p.value + r.value == 0:
        return Traced(0, symbol, "F-measure"), [Note("warning", "precision and recall are both 0: F is reported as 0")]
    if beta == 1:
        return ((2 * p * r) / (p + r)).named(symbol, "F-measure (harmonic mean of P and Rec)"), []
    if squared:
        x = Traced(beta, "x", "Weight of recall (β² in IIR's terms)")
        return (((1 + x) * p * r) / (x * p + r)).named(symbol, "F-measure"), []
    b = Traced(beta, "β", beta_label)
    return (((1 + b**2) * p * r) / (b**2 * p + r)).named(symbol, "F-measure"), []


def set_f_formula(recall: str, recall_latex: str) -> Formula:
    """trec_eval's set_F written with the recall symbol of the explanation (Rec for rankings, R for counts)."""
    return Formula(f"F(x) = (1 + x) · P · {recall} / (x · P + {recall})",
                   rf"F(x) = \frac{{(1+x)\, P \cdot {recall_latex}}}{{x P + {recall_latex}}}")
