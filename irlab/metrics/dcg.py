"""Cumulated gain: CG, DCG, the ideal DCG and nDCG, with gain and discount as named conventions."""

from __future__ import annotations

from functools import lru_cache

from .. import conventions as conv
from ..document import Formula, Note, Table
from ..metric import Cut, Result, check_cutoff
from .. import exact
from ..errors import InputTypeError, ParameterError
from ..errors import LimitError
from ..limits import MAX_GRADE, MAX_LINEAR_GRADE, check_at_most
from ..trace import Traced, made, made_leaf, total
from .common import ideal_grades, rank_table
from .ties import AVERAGED, AVERAGED_DCG_NOTE, averaged_dcg, averaged_dcg_table, tie_choice, tie_notes, with_tie_columns

DCG_FORMULA = Formula(
    "DCG@k = Σ_{i=1..k} gain(g_i) · discount(i)",
    r"\mathrm{DCG}@k = \sum_{i=1}^{k} \mathrm{gain}(g_i) \cdot \mathrm{discount}(i)",
)

NDCG_FORMULA = Formula(DCG_FORMULA.text + ";  nDCG@k = DCG@k / IDCG@k",
                       DCG_FORMULA.latex + r", \qquad \mathrm{nDCG}@k = \frac{\mathrm{DCG}@k}{\mathrm{IDCG}@k}")


def gain_of(grade: int, gain: str, gains: dict | None = None):
    """The gain of a grade: from the gain table when it lists the grade (trec_eval ndcg.l=g), else by the convention."""
    if gains and grade in gains:
        return gains[grade]
    if gain == "exp":
        check_at_most(grade, MAX_GRADE, "with exponential gain 2^g - 1 (--gain exp; --gain linear takes larger ones), a grade")
        return 2**grade - 1
    return grade


def parse_gains(gains) -> dict:
    """A gain per grade, as trec_eval's ``ndcg.1=3.5,2=9`` parameters: '1=3.5,2=9' or {1: 3.5, 2: 9}, exact.

    Grades the table does not list keep the gain convention's value. Gains may be 0 or negative (trec_eval allows
    both); the ideal ranking then holds the documents with a positive gain, highest gain first.

    >>> parse_gains("1=3.5, 2=9")
    {1: Fraction(7, 2), 2: 9}
    """
    if gains is None:
        return {}
    if isinstance(gains, str):
        pairs = []
        for part in gains.replace(";", ",").split(","):
            if not part.strip():
                continue
            if "=" not in part:
                raise ParameterError(f"gain table entry {part.strip()[:40]!r} is not grade=gain (write '1=1,2=3')")
            pairs.append(tuple(piece.strip() for piece in part.split("=", 1)))
    elif isinstance(gains, dict):
        pairs = list(gains.items())
    else:
        raise InputTypeError(f"gains is a table such as '1=1,2=3' or {{1: 1, 2: 3}}, got {type(gains).__name__}")
    table = {}
    for grade, gain in pairs:
        try:
            grade_value = int(grade) if isinstance(grade, int) or str(grade).lstrip("+").isdigit() else None
        except ValueError:
            grade_value = None
        if grade_value is None or isinstance(grade, bool):
            raise ParameterError(f"gain table: {str(grade)[:40]!r} is not a grade (a whole number >= 0)")
        try:
            value = exact.parse_number(repr(gain) if isinstance(gain, float) else str(gain))
        except ValueError:
            raise ParameterError(f"gain table: the gain of grade {grade_value} ({str(gain)[:40]!r}) is not a number") from None
        if grade_value in table:
            raise ParameterError(f"gain table: grade {grade_value} is given twice")
        if grade_value == 0 and value != 0:
            raise ParameterError("gain table: a gain for grade 0 would count the judged non-relevant documents in the "
                                 "ideal ranking, which a ranking does not list; use irlab eval -m ndcg.0=… on qrels")
        table[grade_value] = value
    return table


def check_log_base(log_base) -> int:
    """The base of the discount's logarithm: an integer >= 2 (scikit-learn dcg_score's log_base; 2 by default)."""
    if log_base is None:
        return 2
    text = str(log_base).strip()
    if isinstance(log_base, bool) or not text.lstrip("+").isdigit() or int(text) < 2 or len(text) > 6:
        raise ParameterError(f"log base must be a whole number >= 2 (2, 10, …), got {text[:40]!r}; irlab keeps "
                             "logarithms exact, and log_e(i + 1) = ln 2 · log2(i + 1) scales DCG without changing nDCG")
    return int(text)


def _term(gain_leaf: Traced, rank: int, discount: str, base: int = 2) -> Traced:
    """gain · discount at ``rank``, written the way the convention's formula writes it: gain_leaf itself where the
    convention does not discount, else gain_leaf / divisor (the rank, or log(rank [+ 1]) as a log2/logb call)."""
    divided = _divided(gain_leaf.value, rank, discount, base)
    return gain_leaf if divided is None else made(divided[1], "div", (gain_leaf, divided[0]))


@lru_cache(maxsize=4096)  # every DCG and IDCG of a class divides the same few gains by the same few discounts
def _divided(gain, rank: int, discount: str, base: int):
    """None where ``discount`` leaves ``rank`` undiscounted, else (divisor node, gain / divisor): what '/' by
    trace.log (or by the rank) would build. The divisor node is shared by every term with that divisor: it is
    unnamed and nothing names or changes it, and a trace is read, never written, once built."""
    if discount == "reciprocal-rank":
        return None if rank == 1 else (_divisor(rank, base, False), exact.div(gain, rank))
    if discount == "log2-rank" and rank < base:  # Järvelin & Kekäläinen: no discount below rank b
        return None
    divisor = _divisor(rank if discount == "log2-rank" else rank + 1, base, True)
    return divisor, exact.div(gain, divisor.value)


@lru_cache(maxsize=1024)
def _divisor(n: int, base: int, logarithm: bool) -> Traced:
    """The node of n, or of log_base(n) as trace.log writes it (a log2 or logb call of the leaf n)."""
    if not logarithm:
        return made_leaf(n)
    if base == 2:
        return made(exact.log2(n), "call", (made_leaf(n),), "log2")
    return made(exact.log(n, base), "call", (made_leaf(n),), f"log{base}")


def _dcg(grades, depth, gain, discount, symbol, label, gain_symbol, gains=None, base=2):
    terms = []
    for rank in range(1, depth + 1):
        leaf = made_leaf(gain_of(grades[rank - 1], gain, gains), f"{gain_symbol}_{rank}")
        terms.append(_term(leaf, rank, discount, base))
    return total(terms, symbol, label), terms


@lru_cache(maxsize=4096)  # a class's rankings and ideal rankings cut at k repeat (DCG@3 of grades 0-3: 64 of them)
def _dcg_value(grades: tuple, gain, discount, base=2):
    """The value of :func:`_dcg`'s sum of ``grades`` (the ranks it sums; no gain table) without its nodes:
    trace.total's exact.total of the values of the same terms, each the gain itself or _divided's quotient as _term
    takes it (an empty sum is 0 either way)."""
    values = []
    for rank, grade in enumerate(grades, 1):
        gain_value = gain_of(grade, gain)
        divided = _divided(gain_value, rank, discount, base)
        values.append(gain_value if divided is None else divided[1])
    return exact.total(values)


def _conventions(gain, discount):
    return {"gain": conv.GAIN.choice(gain), "discount": conv.DISCOUNT.choice(discount)}


def _checked(ranking, gain, discount, gains, log_base):
    """The conventions, the gain table and the log base of a DCG, IDCG or nDCG, checked (the grades too)."""
    choices = _conventions(gain, discount)
    table, base = parse_gains(gains), check_log_base(log_base)
    _check_exponential_grades(ranking, choices, table)
    return choices, table, base


def _check_exponential_grades(ranking, choices, table) -> None:
    """2^g - 1 is bounded (MAX_GRADE); a grade the gain table lists, or any grade with linear gain, is not."""
    if choices["gain"].key != "exp":
        return
    for where, grades in (("ranking", ranking.grades), ("unretrieved", ranking.unretrieved)):
        for position, grade in enumerate(grades, 1):
            if grade > MAX_GRADE and grade not in table:
                raise LimitError(f"a grade ({where}, item {position}) is at most {MAX_GRADE} with exponential gain "
                                 f"2^g - 1 (irlab's limit; --gain linear or a gain table takes grades up to "
                                 f"{MAX_LINEAR_GRADE:,}), got {grade:,}")


def _discount_text(discount: str, base: int) -> str:
    log = "log2" if base == 2 else f"log{base}"
    if discount == "reciprocal-rank":
        return "divided by i"
    if discount == "log2-rank":
        return f"divided by {log}(i)" + ("" if base == 2 else f" from rank {base} on")
    return f"divided by {log}(i+1)"


def _gain_header(choices, gains) -> str:
    if gains:
        return "gain (table)"
    return "gain 2^g - 1" if choices["gain"].key == "exp" else "gain g"


def _gain_table(ranking, grades, depth, terms, choices, ideal=False, gains=None, base=2) -> Table:
    gain_header = _gain_header(choices, gains)
    rows = []
    graded = ideal or not ranking.binary
    for rank, grade, term in zip(range(1, depth + 1), grades, terms):
        judgment = str(grade) if graded else ranking.symbol(rank)
        if term.is_leaf:  # log2-rank leaves rank 1 undiscounted
            rows.append((rank, judgment, term.value, "none", term))
        else:  # the gain leaf over its divisor
            rows.append((rank, judgment, term.operands[0].value, term.operands[1], term))
    caption = "Ideal ranking (all judged grades, best first)" if ideal else "Ranking"
    if ideal and gains:
        caption = "Ideal ranking (the judged documents with a positive gain, highest gain first)"
    return Table(("rank", "grade", gain_header, _discount_text(choices["discount"].key, base), "term"), tuple(rows),
                 caption)


def _gain_notes(gains, choices, base) -> list:
    notes = []
    if gains:
        listed = ", ".join(f"grade {grade} → {exact.exact_text(value)}" for grade, value in sorted(gains.items()))
        notes.append(Note("convention", f"gain table: {listed} (as trec_eval's ndcg.l=g parameters); other grades: "
                                        f"{choices['gain'].formula}"))
    if base != 2:
        notes.append(Note("convention", f"logarithms in base {base} (scikit-learn dcg_score log_base={base}): "
                                        f"log{base}(x) = log2(x) / log2({base}); nDCG with the log(i + 1) discount does "
                                        "not depend on the base, DCG does"))
    return notes


def cumulative_gain(ranking, k=None) -> Result:
    """CG@k = Σ_{i<=k} g_i, the plain sum of grades (Järvelin & Kekäläinen 2002): no discount for rank.

    >>> from irlab import Ranking
    >>> cumulative_gain(Ranking.parse("3,2,0,1"), k=3).value
    5
    """
    cut = Cut.of(ranking, k)
    leaves = [Traced(g, f"g_{i}") for i, g in enumerate(ranking.grades[: cut.depth], 1)]
    value = total(leaves, f"CG{cut.suffix}", "Cumulative gain")
    formula = Formula("CG@k = Σ_{i=1..k} g_i", r"\mathrm{CG}@k = \sum_{i=1}^{k} g_i")
    return Result("cg", "Cumulative gain", value, formula=formula, ranking=ranking,
                  parameters={"k": cut.k}, tables=[rank_table(ranking, cut.depth, {"grade": list(ranking.grades[: cut.depth])})])


def _ranking_dcg(ranking, cut, choices, gains, base, tie):
    """The DCG of the ranking as given, or with tied groups' gains averaged (ties = tie-averaged): value, table, notes."""
    gain_key, discount_key = choices["gain"].key, choices["discount"].key
    label = "Discounted cumulative gain"
    if tie is not None and tie.key == AVERAGED:
        every_gain = [gain_of(g, gain_key, gains) for g in ranking.grades]
        value, rows = averaged_dcg(ranking, cut.depth, every_gain, lambda leaf, rank: _term(leaf, rank, discount_key, base),
                                   f"DCG{cut.suffix}", label)
        notes = tie_notes(ranking, tie, cut.depth)
        if any(last > first for first, last in ranking.tied_groups(cut.depth)):
            notes.append(Note("reading", AVERAGED_DCG_NOTE))
        return value, averaged_dcg_table(rows, _gain_header(choices, gains), _discount_text(discount_key, base)), notes
    value, terms = _dcg(ranking.grades, cut.depth, gain_key, discount_key, f"DCG{cut.suffix}", label, "G", gains, base)
    table = _gain_table(ranking, ranking.grades, cut.depth, terms, choices, gains=gains, base=base)
    if tie is None:
        return value, table, []
    return value, with_tie_columns(table, ranking, cut.depth), tie_notes(ranking, tie, cut.depth)


def _with_ties(choices, tie) -> dict:
    return choices if tie is None else {**choices, "ties": tie}


def dcg(ranking, k=None, gain=None, discount=None, gains=None, log_base=None, ties=None) -> Result:
    """DCG@k = Σ_{i<=k} gain(g_i) · discount(i); by default gain 2^g - 1 and discount 1 / log2(i + 1).

    ``gains`` is a gain per grade ('1=1,2=5', trec_eval's ndcg.l=g); ``log_base`` the base of the logarithm
    (scikit-learn's dcg_score log_base); ``ties`` the tie convention of a ranking given with its scores (tie-averaged:
    each tied group's mean gain, McSherry & Najork 2008, scikit-learn dcg_score). References: Järvelin & Kekäläinen
    2002; Burges et al. 2005; IIR 8.4.

    >>> from irlab import Ranking
    >>> dcg(Ranking.parse("3,2,0,1"), k=1).value
    7
    >>> dcg(Ranking.parse("3,2,0,1"), k=1, gains="3=10").value
    10
    """
    cut = Cut.of(ranking, k)
    choices, table, base = _checked(ranking, gain, discount, gains, log_base)
    tie = tie_choice(ranking, ties, "dcg")
    value, gain_table, tie_notes_ = _ranking_dcg(ranking, cut, choices, table, base, tie)
    return Result("dcg", "Discounted cumulative gain", value, formula=DCG_FORMULA, ranking=ranking,
                  conventions=_with_ties(choices, tie), parameters=_parameters(cut.k, table, base),
                  notes=_gain_notes(table, choices, base) + tie_notes_, tables=[gain_table])


def _parameters(k, table, base) -> dict:
    parameters = {"k": k}
    if table:
        parameters["gains"] = ",".join(f"{grade}={exact.exact_text(value)}" for grade, value in sorted(table.items()))
    if base != 2:
        parameters["log_base"] = base
    return parameters


def _ideal_cut(ranking, k, choices, gains=None):
    """The ideal ranking's grades, the ranks of it IDCG@k sums, the symbol's suffix and the notes on it."""
    grades, notes = ideal_grades(ranking)
    if gains:  # trec_eval's setup_gains: the ideal ranking orders judged documents by gain, positive gains only
        gain_key = choices["gain"].key
        grades = sorted((g for g in grades if gain_of(g, gain_key, gains) > 0),
                        key=lambda g: (gain_of(g, gain_key, gains), g), reverse=True)
    k = check_cutoff(k)
    depth = len(grades) if k is None else min(k, len(grades))
    return grades, depth, f"@{k}" if k is not None else "", notes


def _ideal(ranking, k, choices, gains=None, base=2):
    grades, depth, suffix, notes = _ideal_cut(ranking, k, choices, gains)
    value, terms = _dcg(grades, depth, choices["gain"].key, choices["discount"].key,
                        f"IDCG{suffix}", "Ideal discounted cumulative gain", "G*", gains, base)
    table = _gain_table(ranking, grades, depth, terms, choices, ideal=True, gains=gains, base=base)
    return value, table, notes


def idcg(ranking, k=None, gain=None, discount=None, gains=None, log_base=None) -> Result:
    """IDCG@k: the DCG of the ideal ranking, every judged grade (retrieved or not) sorted best first.

    >>> from irlab import Ranking
    >>> idcg(Ranking.parse("0,1", unretrieved=[2]), k=1).value
    3
    """
    choices, table, base = _checked(ranking, gain, discount, gains, log_base)
    value, ideal_table, notes = _ideal(ranking, k, choices, table, base)
    return Result("idcg", "Ideal discounted cumulative gain", value, formula=DCG_FORMULA, ranking=ranking,
                  conventions=choices, parameters=_parameters(check_cutoff(k), table, base),
                  notes=notes + _gain_notes(table, choices, base), tables=[ideal_table])


def ndcg(ranking, k=None, gain=None, discount=None, gains=None, log_base=None, ties=None) -> Result:
    """nDCG@k = DCG@k / IDCG@k (0 when no document is relevant, as trec_eval reports it).

    >>> from irlab import Ranking
    >>> ndcg(Ranking.parse("RNNRR", relevant=3)).value == 1
    False
    >>> ndcg(Ranking.parse("1,2"), gain="linear", gains="1=4,2=1").value  # the table makes grade 1 the best
    1
    """
    cut = Cut.of(ranking, k)
    choices, table, base = _checked(ranking, gain, discount, gains, log_base)
    tie = tie_choice(ranking, ties, "ndcg")
    gained, gain_table, tie_notes_ = _ranking_dcg(ranking, cut, choices, table, base, tie)
    ideal, ideal_table, notes = _ideal(ranking, k, choices, table, base)
    notes += _gain_notes(table, choices, base) + tie_notes_
    symbol = f"nDCG{cut.suffix}"
    if _no_ideal_gain(ideal.value, table):
        notes.append(Note("warning", "no judged document has a positive gain, so IDCG = 0: nDCG is reported as 0"))
        value = Traced(0, symbol, "Normalised DCG")
        support = [gained]
    else:
        value = (gained / ideal).named(symbol, "Normalised DCG")
        support = []
    # an exact nDCG with logarithms is a fraction of sums: the answer reads DCG / IDCG with both values first
    ratio = (gained, ideal) if exact.is_symbolic(value.value) else ()
    return Result("ndcg", "Normalised discounted cumulative gain", value, formula=NDCG_FORMULA, ranking=ranking,
                  conventions=_with_ties(choices, tie), parameters=_parameters(cut.k, table, base), notes=notes,
                  support=support, ratio=ratio, tables=[gain_table, ideal_table])


def _no_ideal_gain(ideal, table) -> bool:
    """Whether IDCG (its value) is 0 (or, with a gain table, not positive): nDCG is then reported as 0."""
    return exact.is_zero(ideal) or bool(table and exact.to_float(ideal) <= 0)


# The exact value alone ------------------------------------------------------------------------------------------
# Grading a class reads most answer keys' values only (irlab.homework.plain_key); these give the value dcg(), idcg()
# and ndcg() give — the very same sympy tree, from the same helpers and caches — without the nodes, tables and notes
# of its explanation. They raise what those raise for bad input, and give None where the value is not proven the
# same (a gain table; a ranking with scores, whose ties may average gains): the caller computes the Result then.
# tests/test_dcg_value.py compares them with the explained functions' values.

def dcg_value(ranking, k=None, gain=None, discount=None, gains=None, log_base=None, ties=None):
    """:func:`dcg`'s exact value, or None (see above)."""
    cut = Cut.of(ranking, k)
    choices, table, base = _checked(ranking, gain, discount, gains, log_base)
    if table or tie_choice(ranking, ties, "dcg") is not None:
        return None
    return _dcg_value(tuple(ranking.grades[:cut.depth]), choices["gain"].key, choices["discount"].key, base)


def idcg_value(ranking, k=None, gain=None, discount=None, gains=None, log_base=None):
    """:func:`idcg`'s exact value, or None (see above)."""
    choices, table, base = _checked(ranking, gain, discount, gains, log_base)
    if table:
        return None
    grades, depth, _, _ = _ideal_cut(ranking, k, choices)
    return _dcg_value(tuple(grades[:depth]), choices["gain"].key, choices["discount"].key, base)


def ndcg_value(ranking, k=None, gain=None, discount=None, gains=None, log_base=None, ties=None):
    """:func:`ndcg`'s exact value, or None (see above): DCG / IDCG as Traced's '/' divides them, 0 when IDCG = 0."""
    cut = Cut.of(ranking, k)
    choices, table, base = _checked(ranking, gain, discount, gains, log_base)
    if table or tie_choice(ranking, ties, "ndcg") is not None:
        return None
    gain_key, discount_key = choices["gain"].key, choices["discount"].key
    gained = _dcg_value(tuple(ranking.grades[:cut.depth]), gain_key, discount_key, base)
    grades, depth, _, _ = _ideal_cut(ranking, k, choices)
    ideal = _dcg_value(tuple(grades[:depth]), gain_key, discount_key, base)
    return 0 if _no_ideal_gain(ideal, table) else exact.div(gained, ideal)  # as Traced's '/' divides them


VALUE_ONLY = {"dcg": dcg_value, "idcg": idcg_value, "ndcg": ndcg_value}  # by the metric's name
