"""Expected reciprocal rank: a cascade user who stops at the first satisfying document."""

from __future__ import annotations

import math
from fractions import Fraction

from .. import conventions as conv
from .. import exact
from ..document import Formula, Note, Table
from ..errors import LimitError, ParameterError
from ..limits import MAX_EXACT_DIGITS, MAX_GRADE, MAX_LINEAR_GRADE, check_at_most, check_exact_digits
from ..metric import Cut, Result, check_cutoff
from ..trace import Traced, total
from .common import ideal_grades
from .dcg import parse_gains

ERR_FORMULA = Formula(
    "ERR@k = Σ_{j=1..k} Disp(1, j-1) · Pr(j) / j,  Pr(j) = (2^g_j - 1) / 2^gmax,  Disp(1, j) = Π_{i<=j} (1 - Pr(i))",
    r"\mathrm{ERR}@k = \sum_{j=1}^{k} \frac{\mathrm{Disp}(1,j-1)\cdot \Pr(j)}{j}, \quad "
    r"\Pr(j) = \frac{2^{g_j}-1}{2^{g_{\max}}}, \quad \mathrm{Disp}(1,j) = \prod_{i=1}^{j} (1 - \Pr(i))",
)
NTCIREVAL_FORMULA = Formula(
    "ERR@k = Σ_{j=1..k} Disp(1, j-1) · Pr(j) / j,  Pr(j) = gain(g_j) / (gain(gmax) + 1),  "
    "Disp(1, j) = Π_{i<=j} (1 - Pr(i))",
    r"\mathrm{ERR}@k = \sum_{j=1}^{k} \frac{\mathrm{Disp}(1,j-1)\cdot \Pr(j)}{j}, \quad "
    r"\Pr(j) = \frac{\mathrm{gain}(g_j)}{\mathrm{gain}(g_{\max}) + 1}, \quad \mathrm{Disp}(1,j) = \prod_{i=1}^{j} (1 - \Pr(i))",
)


def _max_grade(ranking, max_grade):
    grades, _ = ideal_grades(ranking)
    observed = max([*ranking.grades, *grades, 0])
    if max_grade is None:
        return observed, f"gmax = {observed}, the highest judged grade"
    if isinstance(max_grade, bool) or not isinstance(max_grade, int) or max_grade < observed:
        raise ParameterError(f"max grade must be an integer >= the highest judged grade {observed}, got {max_grade!r}")
    return max_grade, f"gmax = {max_grade}, the top of the grade scale (given)"


class _StopRule:
    """Pr(g) = numerator(g) / scale on integers, so that Disp_j = d_j / scale^j keeps integer numerators d_j;
    ``gains`` are the gains shown in the table (NTCIREVAL's rule), None for Chapelle's."""

    def __init__(self, numerators: dict, scale: int, gains: dict | None = None):
        self.numerators, self.scale, self.gains = numerators, scale, gains

    def numerator(self, grade: int) -> int:
        return self.numerators[grade]


def _exponential_rule(grades, gmax) -> _StopRule:
    if gmax > MAX_GRADE:
        raise LimitError(f"max grade gmax is at most {MAX_GRADE} with ERR's exponential Pr(j) = (2^g_j - 1) / 2^gmax "
                         f"(irlab's limit; --err-probability ntcireval takes grades up to {MAX_LINEAR_GRADE:,}), "
                         f"got {gmax:,}")
    return _StopRule({g: 2**g - 1 for g in set(grades)}, 2**gmax)


def _ntcireval_rule(grades, gmax, table) -> tuple[_StopRule, list[Note]]:
    """NTCIREVAL's Pr(g) = gain(g) / (gain(gmax) + 1), gain = grade unless the table says otherwise (grade 0: 0)."""
    check_at_most(gmax, MAX_LINEAR_GRADE, "max grade gmax")
    occurring = sorted(set(grades) | {gmax})

    def gain(grade):
        return 0 if grade == 0 else table.get(grade, grade)

    gains = {g: gain(g) for g in occurring}
    for grade in occurring:
        if grade > 0 and gains[grade] <= 0:
            raise ParameterError(f"gain table: the gain of grade {grade} is {exact.exact_text(gains[grade])}; ERR's "
                                 "ntcireval stopping probability needs a positive gain for every grade >= 1 "
                                 "(NTCIREVAL's -g values are positive)")
    for lower, higher in zip(occurring, occurring[1:]):
        if gains[lower] > gains[higher]:
            raise ParameterError(f"gain table: grade {lower} has gain {exact.exact_text(gains[lower])} but the higher "
                                 f"grade {higher} has {exact.exact_text(gains[higher])}; NTCIREVAL's gains rise with "
                                 "the grade (its -g values are in ascending order), so Pr(j) stays below 1")
    common = math.lcm(*(Fraction(value).denominator for value in gains.values()))  # every Pr over one integer scale
    numerators = {g: int(value * common) for g, value in gains.items()}
    scale = int((gains[gmax] + 1) * common)
    if table:
        listed = ", ".join(f"grade {g} → {exact.exact_text(v)}" for g, v in sorted(table.items()))
        text = f"gain table: {listed}; other grades: gain = grade"
    else:
        text = "gain of a grade = the grade (NTCIREVAL's default gain values 1, 2, 3 for L1, L2, L3)"
    return _StopRule(numerators, scale, gains=gains), [Note("convention", text)]


def _stop_rule(ranking, gmax, err_probability, gains):
    """The convention's choice, its rule for Pr and the notes that say which gains it uses."""
    choice = conv.ERR_PROBABILITY.choice(err_probability)
    table = parse_gains(gains)
    grades = [*ranking.grades, *ideal_grades(ranking)[0]]
    if choice.key == "ntcireval":
        rule, notes = _ntcireval_rule(grades, gmax, table)
        return choice, rule, notes
    if table:
        raise ParameterError("--gains applies to ERR with --err-probability ntcireval (Pr = gain / (gain(gmax) + 1)); "
                             "Chapelle et al.'s exponential Pr(j) = (2^g_j - 1) / 2^gmax takes the grade itself")
    return choice, _exponential_rule(grades, gmax), []


def _prime_factors(n: int, bound: int = 10**5) -> dict | None:
    """{p: e} with n = Π p^e, found by trial division; None when a factor above bound² may be composite."""
    factors, p = {}, 2
    while p * p <= n and p <= bound:
        while n % p == 0:
            factors[p] = factors.get(p, 0) + 1
            n //= p
        p += 1 if p == 2 else 2
    if n > 1:
        if n > bound * bound:
            return None
        factors[n] = factors.get(n, 0) + 1
    return factors


class _Quotients:
    """Disp_j = d_j / scale^j and c_j = d_{j-1} · a_j / (scale^j · j) in lowest terms, without a gcd of huge numbers.

    d_j = Π (scale - a_i) is built from small integers, so the primes of the scale are taken out of each factor as it
    comes: d_j = r_j · Π p^v_p with r_j free of them, and the quotient cancels those primes by counting. The rank j is
    small, so its gcd with the numerator is cheap. (Fraction's own gcd and long divisions made NTCIREVAL's ERR over
    10,000 ranks take seconds.) A scale 2^b (Chapelle's 2^gmax, NTCIREVAL's 3 + 1 = 4) takes exact.dyadic."""

    def __init__(self, rule: _StopRule):
        self.rule = rule
        scale = rule.scale
        self.bits = scale.bit_length() - 1 if scale & (scale - 1) == 0 else None
        self.factors = None if self.bits is not None else _prime_factors(scale)
        self.rest, self.valuations = 1, {p: 0 for p in self.factors or ()}
        self.plain = 1  # d_j itself, for the unfactored scales; for a dyadic one, d_j / 2^twos
        self.twos = 0  # the factors of two taken out of d_j (a grade 0 multiplies it by the whole scale 2^b)

    def _strip(self, n: int) -> tuple[int, dict]:
        counts = {}
        for p in self.valuations:
            count = 0
            while n % p == 0:
                n //= p
                count += 1
            counts[p] = count
        return n, counts

    def multiply(self, n: int) -> None:
        """d_j = d_{j-1} · n, for 0 < n <= scale."""
        if self.bits is not None:  # kept odd-sized: d_j grows only with the ranks that have a gain
            twos = (n & -n).bit_length() - 1
            self.plain *= n >> twos
            self.twos += twos
        elif not self.factors:
            self.plain *= n
        else:
            n, counts = self._strip(n)
            self.rest *= n
            for p, count in counts.items():
                self.valuations[p] += count

    def of(self, factor: int, rank: int, divisor: int = 1):
        """d · factor / (scale^rank · divisor), d the product so far, in lowest terms."""
        if factor == 0:
            return 0
        if self.bits is not None:
            twos = (divisor & -divisor).bit_length() - 1
            return exact.dyadic(self.plain * factor, self.bits * rank - self.twos + twos, divisor >> twos)
        if self.factors is None:  # a scale with a large factor not known to be prime: Fraction reduces it
            return exact.rational(Fraction(self.plain * factor, self.rule.scale**rank * divisor))
        factor, in_factor = self._strip(factor)
        divisor, in_divisor = self._strip(divisor)
        numerator, denominator = self.rest * factor, 1
        for p, e in self.factors.items():
            net = e * rank + in_divisor[p] - self.valuations[p] - in_factor[p]
            if net > 0:
                denominator *= p**net
            elif net < 0:
                numerator *= p**-net
        common = math.gcd(numerator, divisor)
        value = Fraction.__new__(Fraction)  # already in lowest terms: skip Fraction's gcd of the huge operands
        value._numerator, value._denominator = numerator // common, denominator * (divisor // common)
        return exact.rational(value)


def _check_digits(grades, depth, rule, symbol) -> None:
    """A LimitError naming MAX_EXACT_DIGITS before ERR is computed when Disp_j = Π_{i<=j} (1 - Pr(i)) would grow past
    it: each rank with a gain adds about log10(scale) digits (20,000 grades of 0-20 under Pr = (2^g - 1) / 2^20:
    some 114,000 digits)."""
    gained = sum(1 for grade in grades[:depth] if rule.numerator(grade))
    per_rank = math.log10(rule.scale)
    size = int(gained * per_rank) + 1
    if size > MAX_EXACT_DIGITS:
        fits, seen = 0, 0  # the deepest cut-off k whose products still fit
        for rank, grade in enumerate(grades[:depth], 1):
            seen += 1 if rule.numerator(grade) else 0
            if int(seen * per_rank) + 1 > MAX_EXACT_DIGITS:
                break
            fits = rank
        check_exact_digits(size, f"{symbol} over {depth:,} ranks ({gained:,} of them with a gain, each multiplying "
                                 f"Disp by a fraction over {rule.scale:,})", f"cut the ranking with --k {fits:,} or less")


def _err(grades, depth, rule, symbol, label, mark=""):
    # c_j = Disp_{j-1} · Pr(j) / j and Disp_j = Disp_{j-1} · (1 - Pr(j)), traced as written; the values are computed
    # on integers (Disp_j = d_j / scale^j) because Fraction arithmetic on them is quadratic over 10,000 ranks
    disp = Traced(1, f"Disp{mark}_0")
    quotients, scale = _Quotients(rule), rule.scale
    _check_digits(grades, depth, rule, symbol)
    contributions, rows = [], []
    for rank in range(1, depth + 1):
        grade = grades[rank - 1]
        gain = rule.numerator(grade)
        pr = Traced(Fraction(gain, scale), f"Pr{mark}_{rank}")
        weighted = Traced(quotients.of(gain, rank), op="mul", operands=(disp, pr))
        contribution = Traced(quotients.of(gain, rank, rank), op="div",
                              operands=(weighted, Traced(rank))).named(f"c{mark}_{rank}")
        shown_gain = () if rule.gains is None else (rule.gains[grade],)
        rows.append((rank, grade, *shown_gain, pr.value, disp.value, contribution.value))
        contributions.append(contribution)
        quotients.multiply(scale - gain)
        stay = Traced(Fraction(scale - gain, scale), op="sub", operands=(Traced(1), pr))
        disp = Traced(quotients.of(1, rank), op="mul", operands=(disp, stay)).named(f"Disp{mark}_{rank}")
    gain_column = () if rule.gains is None else ("gain",)
    table = Table(("rank", "grade", *gain_column, "Pr(j)", "Disp(1,j-1)", "contribution"), tuple(rows))
    return total(contributions, symbol, label), table


def _explained(choice, err_probability):
    """The convention in force, recorded when it was asked for (the default's formula already shows its rule), and
    the formula of the choice."""
    conventions = {} if err_probability is None else {"err_probability": choice}
    formula = NTCIREVAL_FORMULA if choice.key == "ntcireval" else ERR_FORMULA
    return conventions, formula


def expected_reciprocal_rank(ranking, k=None, max_grade=None, err_probability=None, gains=None) -> Result:
    """ERR@k (Chapelle et al. 2009), with Pr(j) = (2^g_j - 1) / 2^gmax as in Chapelle et al. 2009.

    ``err_probability="ntcireval"`` takes NTCIREVAL's Pr(j) = gain(g_j) / (gain(gmax) + 1) instead, the gain of a
    grade being the grade or the value ``gains`` gives it ('1=1,2=3,3=7').

    >>> from irlab import Ranking
    >>> expected_reciprocal_rank(Ranking.parse("2,1"), k=2).value
    Fraction(25, 32)
    >>> expected_reciprocal_rank(Ranking.parse("2,1"), k=2, err_probability="ntcireval").value  # 2/3 + (1/3)(1/3)/2
    Fraction(13, 18)
    """
    cut = Cut.of(ranking, k)
    gmax, gmax_text = _max_grade(ranking, max_grade)
    choice, rule, rule_notes = _stop_rule(ranking, gmax, err_probability, gains)
    conventions, formula = _explained(choice, err_probability)
    value, table = _err(ranking.grades, cut.depth, rule, f"ERR{cut.suffix}", "Expected reciprocal rank")
    return Result("err", "Expected reciprocal rank", value, formula=formula, ranking=ranking, conventions=conventions,
                  parameters={"k": cut.k, "max_grade": max_grade, "gains": _table_text(gains)},
                  notes=[Note("assumption", gmax_text), *rule_notes], tables=[table])


def normalized_err(ranking, k=None, max_grade=None, err_probability=None, gains=None) -> Result:
    """nERR@k = ERR@k / ERR*@k, ERR* being the ERR of the ideal ranking (Chapelle et al. 2009; Sakai & Song 2011).

    >>> from irlab import Ranking
    >>> normalized_err(Ranking.parse("2,1"), k=2).value
    1
    >>> normalized_err(Ranking.parse("1,2"), err_probability="ntcireval").value  # (1/3 + (2/3)(2/3)/2) / (13/18)
    Fraction(10, 13)
    """
    cut = Cut.of(ranking, k)
    gmax, gmax_text = _max_grade(ranking, max_grade)
    choice, rule, rule_notes = _stop_rule(ranking, gmax, err_probability, gains)
    conventions, formula = _explained(choice, err_probability)
    grades, notes = ideal_grades(ranking)
    ideal_depth = len(grades) if k is None else min(check_cutoff(k), len(grades))
    err_value, table = _err(ranking.grades, cut.depth, rule, f"ERR{cut.suffix}", "Expected reciprocal rank")
    ideal, ideal_table = _err(grades, ideal_depth, rule, f"ERR*{cut.suffix}", "ERR of the ideal ranking", mark="*")
    ideal_table = Table(ideal_table.columns, ideal_table.rows, "Ideal ranking (all judged grades, best first)")
    notes = [Note("assumption", gmax_text), *rule_notes, *notes]
    symbol = f"nERR{cut.suffix}"
    if ideal.value == 0:
        notes.append(Note("warning", "no judged document is relevant, so ERR* = 0: nERR is reported as 0"))
        value, support = Traced(0, symbol, "Normalised ERR"), [err_value]
    else:
        value, support = (err_value / ideal).named(symbol, "Normalised ERR"), []
    return Result("nerr", "Normalised expected reciprocal rank", value, formula=formula, ranking=ranking,
                  conventions=conventions, parameters={"k": cut.k, "max_grade": max_grade, "gains": _table_text(gains)},
                  notes=notes, tables=[table, ideal_table], support=support)


def _table_text(gains) -> str | None:
    table = parse_gains(gains)
    if not table:
        return None
    return ",".join(f"{grade}={exact.exact_text(value)}" for grade, value in sorted(table.items()))
