"""Set-based metrics on the top of a ranking: hits, success, precision, recall and the F-measure."""

from __future__ import annotations

from .. import conventions as conv
from ..document import Formula, Note
from ..errors import ParameterError
from ..limits import MAX_BETA
from ..metric import Cut, Result, check_fraction
from ..trace import Traced, call, minimum
from .common import rank_table, ranking_notes, relevant_leaf
from .counts import f_of_counts, precision_of_counts, recall_of_counts
from .fbeta import f_of_nodes, set_f_formula
from .ties import (AVERAGED, AVERAGED_PRECISION_NOTE, expected_hits, expected_relevance_table, split_group, tie_choice,
                   tie_notes, with_tie_columns)

# the formulas a result shows, built once (every precision or recall answer of a class shows one)
PRECISION_FORMULA = Formula("P = hits / n", r"P = \frac{\mathrm{hits}}{n}")
PRECISION_OF_RETRIEVED_FORMULA = Formula("P@k = hits@k / n@k, n@k = min(k, n)",
                                         r"P@k = \frac{\mathrm{hits}@k}{n@k}, \quad n@k = \min(k, n)")
RECALL_FORMULA = Formula("Rec = hits / R", r"\mathrm{Rec} = \frac{\mathrm{hits}}{R}")


def _hits_leaf(ranking, cut: Cut) -> Traced:
    return Traced(ranking.hits(cut.depth), f"hits{cut.suffix}", f"Relevant documents in the top {cut.depth}"
                  if cut.k is not None else "Relevant documents retrieved")


def hits(ranking, k=None) -> Result:
    """Number of relevant documents among the first k retrieved (all retrieved without k).

    hits@k = Σ_{i<=k} rel_i

    >>> from irlab import Ranking
    >>> hits(Ranking.parse("RNNRR"), k=3).value
    1
    """
    cut = Cut.of(ranking, k)
    count = _hits_leaf(ranking, cut)
    return Result("hits", "Hits", count, ranking=ranking, parameters={"k": cut.k},
                  tables=[rank_table(ranking, cut.depth)])


def success(ranking, k=None) -> Result:
    """Success@k (accuracy@k, hit@k): 1 if at least one relevant document is in the top k, else 0.

    success@k = [hits@k > 0]   (trec_eval success_k)
    """
    cut = Cut.of(ranking, k)
    count = _hits_leaf(ranking, cut)
    value = call("indicator", [count], 1 if count.value > 0 else 0, f"success{cut.suffix}", "At least one relevant document")
    return Result("success", "Success (hit rate)", value, ranking=ranking, parameters={"k": cut.k},
                  tables=[rank_table(ranking, cut.depth)])


def precision(ranking, k=None, precision_denominator=None, ties=None) -> Result:
    """Precision of the top k (all retrieved without k): relevant retrieved / retrieved.

    P@k = hits@k / k   (IIR 8.3-8.4; trec_eval P_k divides by k even when fewer were retrieved)

    A ranking given with its scores may have ties: ``ties`` reads it in the order written (the default) or, with
    tie-averaged, takes the mean over every order of each tied group (McSherry & Najork 2008): a group of n ranks
    s+1 … s+n holding r relevant documents that the cut-off k splits adds r · (k - s) / n expected hits.

    >>> from irlab import Ranking
    >>> precision(Ranking.parse("RNNRR"), k=4).value
    Fraction(1, 2)
    >>> precision(Ranking.parse("RNRN", scores="0.9,0.5,0.5,0.1"), k=2, ties="tie-averaged").value  # (1 + 1/2) / 2
    Fraction(3, 4)
    """
    if hasattr(ranking, "tp"):  # counts (tp, fp, fn, tn) rather than a ranking
        if ties is not None:  # refused rather than ignored: counts have no ranks, so nothing can tie
            raise ParameterError("ties applies to a ranking given with its scores (--scores); counts (tp, fp, fn, tn) "
                                 "have no ranks to tie")
        return precision_of_counts(ranking, k)
    cut = Cut.of(ranking, k)
    tie = tie_choice(ranking, ties, "precision")
    notes = []
    conventions = {}
    # the formula shown is the one computed: P = hits / n without a cut-off, P@k = hits@k / n@k when dividing by
    # the documents actually retrieved
    formula = PRECISION_FORMULA
    if cut.k is None:
        denominator = Traced(ranking.retrieved, "n", "Documents retrieved")
    else:
        choice = conv.PRECISION_DENOMINATOR.choice(precision_denominator)
        conventions["precision_denominator"] = choice
        formula = None  # the declared P@k = hits@k / k
        if choice.key == "k":
            denominator = Traced(cut.k, "k", "Cut-off")
            if cut.k > ranking.retrieved:
                notes.append(Note("warning", f"only {ranking.retrieved} documents were retrieved; the missing ranks "
                                             f"{ranking.retrieved + 1}..{cut.k} count as non-relevant"))
        else:
            denominator = Traced(cut.depth, "n@k", "Documents retrieved in the top k")
            formula = PRECISION_OF_RETRIEVED_FORMULA
    hits_node, table = _hits_leaf(ranking, cut), rank_table(ranking, cut.depth)
    if tie is not None:
        conventions["ties"] = tie
        notes += tie_notes(ranking, tie, cut.depth)
        table = with_tie_columns(table, ranking, cut.depth)
        split = split_group(ranking, cut.depth) if tie.key == AVERAGED else None
        if tie.key == AVERAGED and any(last > first for first, last in ranking.tied_groups(cut.depth)):
            notes.append(Note("reading", AVERAGED_PRECISION_NOTE))
            table = expected_relevance_table(ranking, cut.depth)
        if split:  # only a group the cut-off splits makes hits@k depend on the order
            hits_node = expected_hits(ranking, cut.depth, split, cut.suffix)
            over = denominator.symbol  # k, or n@k with precision_denominator = retrieved
            formula = Formula(f"P@k = E(hits@k) / {over}", rf"P@k = \frac{{E(\mathrm{{hits}}@k)}}{{{over}}}")
    value = (hits_node / denominator).named(f"P{cut.suffix}", "Precision")
    return Result("precision", "Precision", value, formula=formula, ranking=ranking, conventions=conventions,
                  parameters={"k": cut.k}, notes=notes, tables=[table])


def recall(ranking, k=None, recall_denominator=None) -> Result:
    """Recall of the top k: relevant retrieved / relevant in the collection.

    Rec@k = hits@k / R   (IIR 8.3; capped recall divides by min(R, k) instead)

    >>> from irlab import Ranking
    >>> recall(Ranking.parse("RNNRR", relevant=5)).value
    Fraction(3, 5)
    """
    if hasattr(ranking, "tp"):  # counts (tp, fp, fn, tn) rather than a ranking
        return recall_of_counts(ranking, k)
    cut = Cut.of(ranking, k)
    notes = ranking_notes(ranking)
    relevant = relevant_leaf(ranking)
    conventions = {}
    denominator = relevant
    formula = None if cut.k is not None else RECALL_FORMULA
    if cut.k is not None:
        choice = conv.RECALL_DENOMINATOR.choice(recall_denominator)
        conventions["recall_denominator"] = choice
        if choice.key == "min-relevant-k":
            denominator = minimum([relevant, Traced(cut.k, "k")], "D", "Denominator min(R, k)")
            formula = Formula("Rec@k = hits@k / min(R, k)", r"\mathrm{Rec}@k = \frac{\mathrm{hits}@k}{\min(R, k)}")
    hits_node = _hits_leaf(ranking, cut)
    if denominator.value == 0:
        notes.append(Note("warning", "there are no relevant documents: recall is undefined and reported as 0"))
        value = Traced(0, f"Rec{cut.suffix}", "Recall")
    else:
        value = (hits_node / denominator).named(f"Rec{cut.suffix}", "Recall")
    return Result("recall", "Recall", value, formula=formula, ranking=ranking, conventions=conventions,
                  parameters={"k": cut.k}, notes=notes, tables=[rank_table(ranking, cut.depth)])


def f_measure(ranking, k=None, beta=1, precision_denominator=None, recall_denominator=None, f_weight=None) -> Result:
    """F-measure: the weighted harmonic mean of precision and recall (F1 for beta = 1).

    F_β = (1 + β²) · P · Rec / (β² · P + Rec)   (IIR 8.3, eq. 8.5)

    With ``f_weight="beta-squared"`` the parameter is the weight x = β² itself, as trec_eval's ``set_F.x`` reads it:
    F(x) = (1 + x) · P · Rec / (x · P + Rec), so ``set_F.2`` is F_√2, not F_2.

    >>> from irlab import Ranking
    >>> f_measure(Ranking.parse("RNNRR", relevant=5)).value
    Fraction(3, 5)
    >>> f_measure(Ranking.parse("RNNRR", relevant=5), beta=2, f_weight="beta-squared").value  # trec_eval set_F.2
    Fraction(3, 5)
    """
    if hasattr(ranking, "tp"):  # counts (tp, fp, fn, tn) rather than a ranking
        return f_of_counts(ranking, k, beta, f_weight)
    weight = conv.F_WEIGHT.choice(f_weight)
    beta = check_fraction(beta, "beta", 0, MAX_BETA, low_open=True)
    p = precision(ranking, k, precision_denominator)
    r = recall(ranking, k, recall_denominator)
    p_node, r_node = p.traced, r.traced
    p_node.symbol, r_node.symbol = "P", "Rec"  # R is the number of relevant documents
    squared = weight.key == "beta-squared"
    value, zero = f_of_nodes(p_node, r_node, beta, squared)
    notes = list(r.notes) + [n for n in p.notes if n not in r.notes] + zero
    conventions = {**p.conventions, **r.conventions}
    if f_weight is not None or squared:
        conventions["f_weight"] = weight
    formula = set_f_formula("Rec", r"\mathrm{Rec}") if squared else None
    return Result("f", "F-measure", value, ranking=ranking, formula=formula,
                  conventions=conventions, parameters={"k": p.parameters.get("k"), "beta": beta},
                  notes=notes, tables=p.tables)
