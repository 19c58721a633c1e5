"""Paired significance tests between two systems over the same topics, each explained step by step.

Two systems A and B are scored on the same n topics; d_i = A_i - B_i. Every test asks whether the
differences could plausibly come from a world where A and B are equally good (H0), and answers with a
p-value (Croft, Metzler & Strohman 2010 §8.6; Smucker, Allan & Carterette 2007):

- the sign test counts the topics A wins and loses: its p-value is an exact binomial tail (a fraction);
- the randomisation (permutation) test flips the sign of every difference in all 2^n ways (exact, up to
  20 topics) or in a seeded sample of ways (above), and counts the mean differences as extreme as the one seen;
- Wilcoxon's signed-rank test ranks |d_i| and enumerates the 2^n sign patterns of the ranks (exact up to
  100 topics) or reads it off the normal approximation (with or without continuity correction, as R and scipy);
- the paired t-test divides the mean difference by its standard error (exact, a square root) and reads
  the p-value off Student's t distribution (scipy.stats, a floating-point number);
- the bootstrap resamples the topics (seeded) for a percentile confidence interval of the mean difference.

The tests need scipy only for the t distribution (``pip install irlab[stats]``); Wilcoxon's normal tail is math.erfc.

>>> a, b = "0.5,0.4,0.7,0.3,0.6", "0.3,0.4,0.5,0.2,0.1"
>>> sign_test(a, b).value, permutation_test(a, b).value, wilcoxon_test(a, b).value
(Fraction(1, 8), Fraction(1, 8), Fraction(1, 8))
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

from .. import conventions as conv
from .. import exact
from ..document import Note, Table
from ..errors import LimitError, ParameterError, RankingError
from ..limits import MAX_SAMPLED_WORK, MAX_TOPICS
from ..metric import Result, check_fraction
from ..trace import Traced, call, mean, minimum, total
from ..trace import steps as traced_steps
from .scores import average_ranks, read_scores, traced_sqrt

EXACT_PERMUTATION_LIMIT = 20  # 2^20 sign assignments: enumerated exactly; above, a seeded sample
EXACT_WILCOXON_LIMIT = 100  # the signed-rank distribution is enumerated exactly up to this many non-zero differences
DEFAULT_SAMPLES = 10000
DEFAULT_ALPHA = Fraction(1, 20)


def _scipy_stats():
    try:
        import scipy.stats  # deferred: scipy is heavy and optional (irlab[stats]); two tests need it
    except ImportError:  # pragma: no cover - depends on the environment
        raise ParameterError("this test reads its p-value off a continuous distribution with scipy.stats, "
                             "which is not installed: pip install 'irlab[stats]'") from None
    return scipy.stats


# inputs ----------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Paired:
    """The per-topic scores of two systems on the same topics, and their differences d = A - B."""

    topics: tuple[str, ...]
    a: tuple
    b: tuple
    names: tuple[str, str] = ("A", "B")

    @property
    def differences(self) -> tuple:
        return tuple(exact.sub(x, y) for x, y in zip(self.a, self.b))

    @property
    def n(self) -> int:
        return len(self.topics)

    def table(self, ranks=None) -> Table:
        first, second = self.names
        columns = ["topic", first, second, f"d = {first} - {second}", "sign"]
        if ranks is not None:
            columns.append("rank of |d|")
        rows = []
        for i, (topic, x, y, d) in enumerate(zip(self.topics, self.a, self.b, self.differences)):
            row = [topic, _cell(x), _cell(y), _cell(d), "+" if d > 0 else "-" if d < 0 else "0 (tie)"]
            if ranks is not None:
                row.append("dropped" if ranks[i] is None else _cell(ranks[i]))
            rows.append(tuple(row))
        return Table(tuple(columns), tuple(rows), "Per-topic differences")


def _cell(value):
    """A value for a table: its decimal when that is exact (0.2805), else the exact value with its decimal."""
    return exact.decimal_text(value) if exact.is_terminating(value) else value


def paired(a, b, names=("A", "B")) -> Paired:
    """Two systems' scores on the same topics: two sequences (or '0.5,0.25' strings) or two dicts topic -> score."""
    if isinstance(a, Paired):
        return a
    if isinstance(a, dict) or isinstance(b, dict):
        if not (isinstance(a, dict) and isinstance(b, dict)):
            raise RankingError("give both systems' scores as topic -> score mappings, or both as lists")
        only_a, only_b = sorted(set(a) - set(b), key=str), sorted(set(b) - set(a), key=str)
        if only_a or only_b:
            parts = [f"only {names[0]} has topics {', '.join(map(str, only_a))}" if only_a else "",
                     f"only {names[1]} has topics {', '.join(map(str, only_b))}" if only_b else ""]
            raise RankingError("a paired test needs both systems on the same topics: " + "; ".join(p for p in parts if p))
        _check_topics(len(a))
        topics = tuple(sorted(a, key=_topic_key))
        xs = read_scores([a[t] for t in topics], f"system {names[0]}")
        ys = read_scores([b[t] for t in topics], f"system {names[1]}")
        return Paired(tuple(str(t) for t in topics), tuple(xs), tuple(ys), tuple(names))
    xs, ys = read_scores(a, f"system {names[0]}"), read_scores(b, f"system {names[1]}")
    _check_topics(max(len(xs), len(ys)))
    if len(xs) != len(ys):
        raise RankingError(f"a paired test needs one score per topic for both systems: {names[0]} has {len(xs)} "
                           f"scores, {names[1]} has {len(ys)}")
    return Paired(tuple(str(i) for i in range(1, len(xs) + 1)), tuple(xs), tuple(ys), tuple(names))


def _check_topics(n: int) -> None:
    if n > MAX_TOPICS:
        raise LimitError(f"a paired test takes at most {MAX_TOPICS:,} topics (irlab's limit MAX_TOPICS; TREC's largest "
                         f"judged query sets have 10,000), got {n:,}: test a sample of the topics, or split them")


def _topic_key(topic):
    text = str(topic)
    return (0, int(text), text) if text.isdigit() else (1, 0, text)


def alpha_value(alpha):
    """The significance level α, exact and checked in (0, 1]; None is the default level (DEFAULT_ALPHA)."""
    return check_fraction(DEFAULT_ALPHA if alpha is None else alpha, "significance level α", 0, 1, low_open=True)


def _conclusion(p, alpha, choice, what, names=("A", "B")) -> Note:
    """The decision at α, and what it does and does not mean."""
    p_text = exact.decimal_text(p)
    alpha_text = exact.decimal_text(alpha)
    first, second = names
    side = {"two-sided": f"{first} and {second} differ", "greater": f"{first} is better than {second}",
            "less": f"{first} is worse than {second}"}[choice.key]
    if exact.to_float(p) <= exact.to_float(alpha):
        return Note("reading", f"p = {p_text} <= alpha = {alpha_text}: reject H0 ({what}); the data support '{side}' "
                               f"at the {alpha_text} level. A small p says the difference is unlikely to be chance, "
                               "not that it is large: look at the mean difference too.")
    return Note("reading", f"p = {p_text} > alpha = {alpha_text}: H0 ({what}) is not rejected. This is no evidence "
                           f"that {first} and {second} are equally good, only that these topics do not show a difference.")


def _result(metric, title, p, pairs, choice, alpha, what, *, tables=(), notes=(), support=(), ranks=None,
            quantity="p", conventions=None):
    """The test explained, answering ``quantity`` (a key of QUANTITIES[metric]): the p-value, or a statistic whose
    steps are the same, with the p-value and the decision still shown after it."""
    context = (f"Systems {pairs.names[0]} and {pairs.names[1]} on {pairs.n} topics; "
               f"d = {pairs.names[0]} - {pairs.names[1]}; H0: {what}; alternative: {choice.summary}.")
    notes = list(notes) + [_conclusion(p.value, alpha, choice, what, pairs.names)]
    answer, support = p, list(support)
    if quantity != "p":
        worked = {node.symbol: node for node in traced_steps(*support, p)}
        answer = next(worked[symbol] for symbol in QUANTITIES[metric][quantity].split("|") if symbol in worked)
        support.append(p)  # the p-value and its decision are still worked out, after the answer's own steps
    return Result(metric, title, answer, context=context, conventions={"alternative": choice, **(conventions or {})},
                  parameters={"alpha": alpha, "quantity": None if quantity == "p" else quantity},
                  tables=[pairs.table(ranks)] + list(tables), notes=notes, support=support)


# what each test can answer: quantity -> the symbol of its step (the p-value by default; 'T|W+': T where there is
# one, two-sided, else W+, as scipy's statistic); exercise sets ask with quantity = "w-plus", irlab explain --quantity
QUANTITIES = {
    "t-test": {"p": "p", "statistic": "t", "t": "t", "df": "df", "mean-difference": "d_mean", "effect-size": "d_z"},
    "wilcoxon": {"p": "p", "statistic": "T|W+", "w-plus": "W+", "w-minus": "W-", "w": "w", "z": "z"},
    "sign-test": {"p": "p", "statistic": "n+", "n-plus": "n+", "n-minus": "n-", "n": "n"},
}
QUANTITY_ALIASES = {"v": "w-plus", "w+": "w-plus", "w-": "w-minus", "p-value": "p", "k": "n-plus"}  # R's V, scipy's k


def quantity_key(metric: str, quantity) -> str:
    """The quantity ``metric`` is asked for, checked: a key of QUANTITIES[metric] (or an alias such as R's 'V')."""
    if quantity is None:
        return "p"
    known = QUANTITIES[metric]
    if not isinstance(quantity, str):
        raise ParameterError(f"quantity is one of {', '.join(known)}, got {type(quantity).__name__} {quantity!r:.40}")
    key = quantity.strip().lower().replace("_", "-")
    key = QUANTITY_ALIASES.get(key, key)
    if key not in known:
        raise ParameterError(f"{metric} answers quantity {', '.join(known)}; got {quantity!r:.40}")
    return key


# the sign test ---------------------------------------------------------------------------------------

def sign_test(a, b, alternative=None, *, alpha=None, names=("A", "B"), quantity=None) -> Result:
    """Sign test: how many topics does A win? Under H0 each non-tied topic is a fair coin.

    n+ topics have d > 0 and n- have d < 0 (ties are dropped), n = n+ + n-; with X ~ Binomial(n, 1/2),
    p = P(X >= n+) for 'greater', P(X <= n+) for 'less', and min(1, 2 · P(X <= min(n+, n-))) two-sided,
    an exact fraction Σ C(n, i) / 2^n.

    Reference: Croft, Metzler & Strohman 2010 §8.6.1; scipy.stats.binomtest.

    >>> sign_test("0.5,0.4,0.7,0.3,0.6", "0.3,0.4,0.5,0.2,0.1", "greater").value
    Fraction(1, 16)
    """
    pairs, choice, alpha, d = _test_inputs(a, b, names, alternative, alpha)
    quantity = quantity_key("sign-test", quantity)
    wins, losses = sum(1 for x in d if x > 0), sum(1 for x in d if x < 0)
    n = wins + losses
    if n == 0:
        raise ParameterError("the sign test needs at least one topic where the systems differ; every topic is a tie")
    n_plus = Traced(wins, "n+", f"Topics where {pairs.names[0]} is better (d > 0)")
    n_minus = Traced(losses, "n-", f"Topics where {pairs.names[1]} is better (d < 0)")
    n_node = (n_plus + n_minus).named("n", "Topics that are not tied")
    if choice.key == "greater":
        tail = range(wins, n + 1)
        tail_text = f"P(X >= n+) = P(X >= {wins})"
    elif choice.key == "less":
        tail = range(0, wins + 1)
        tail_text = f"P(X <= n+) = P(X <= {wins})"
    else:
        smaller = min(wins, losses)
        tail = range(0, smaller + 1)
        tail_text = f"P(X <= min(n+, n-)) = P(X <= {smaller})"
    if len(tail) <= 12:
        terms = [Traced(math.comb(n, i), f"C({n},{i})") for i in tail]
        count = total(terms, "C", "Sign patterns at least as extreme (binomial coefficients)")
    else:  # too many terms to write out: their sum, with its range
        count = Traced(_binomial_sum(n, tail), "C",
                       f"Sign patterns at least as extreme: Σ C({n}, i) for i = {tail.start} … {tail.stop - 1}")
    patterns = (2 ** n_node).named("2^n", "Equally likely win/loss patterns under H0")
    if choice.key == "two-sided":
        one_tail = (count / patterns).named("P_tail", f"Binomial tail {tail_text}, X ~ Binomial(n, 1/2)")
        p = minimum([1, 2 * one_tail]).named("p", "p-value (both tails)")
    else:
        p = (count / patterns).named("p", f"p-value: the binomial tail {tail_text}, X ~ Binomial(n, 1/2)")
    tables = [Table(("i", "C(n, i)", "P(X = i)"),
                    tuple((i, math.comb(n, i), Fraction(math.comb(n, i), 2 ** n)) for i in tail),
                    f"The binomial tail, X ~ Binomial({n}, 1/2)")] if len(tail) <= 12 else []
    tied = pairs.n - n
    notes = [Note("assumption", f"{tied} tied topic{'s' * (tied != 1)} dropped")] if tied else []
    return _result("sign-test", "Sign test", p, pairs, choice, alpha,
                   "each non-tied topic is equally likely to favour either system",
                   tables=tables, notes=notes, support=[n_node], quantity=quantity)


def _binomial_sum(n: int, tail: range) -> int:
    """Σ C(n, i) for i in ``tail``, each coefficient from the one before, C(n, i + 1) = C(n, i) · (n - i) / (i + 1):
    one multiplication and one division by small numbers a term, where math.comb would start over each time."""
    term, count = math.comb(n, tail.start), 0
    for i in tail:
        count += term
        term = term * (n - i) // (i + 1)
    return count


def _block_rows(n: int) -> int:
    """Samples drawn at once: a block of rows x n topics stays near 2^21 numbers (16 MB of int64), whatever n."""
    return max(1, min(4096, (1 << 21) // max(n, 1)))


def check_sampling(samples: int, n: int, what: str) -> None:
    """A LimitError naming MAX_SAMPLED_WORK when ``samples`` draws over ``n`` topics are more than it allows."""
    if samples * n > MAX_SAMPLED_WORK:
        raise LimitError(f"{what}: {samples:,} samples over {n:,} topics are {samples * n:,} draws; irlab draws at "
                         f"most {MAX_SAMPLED_WORK:,} (its limit MAX_SAMPLED_WORK, {DEFAULT_SAMPLES:,} samples over "
                         f"{MAX_TOPICS:,} topics): ask for at most {max(1, MAX_SAMPLED_WORK // n):,} samples")


# the randomisation (permutation) test -----------------------------------------------------------------

def _scaled(values):
    """Integers proportional to ``values`` (their common denominator), so sums can be compared exactly."""
    scale = math.lcm(*(Fraction(v).denominator for v in values))
    return [int(Fraction(v) * scale) for v in values], scale


def _sum_distribution(weights) -> dict[int, int]:
    """How many of the 2^n sign assignments give each value of Σ s_i w_i (s_i = ±1)."""
    counts = {0: 1}
    for w in weights:
        shifted = {}
        for s, c in counts.items():
            shifted[s + w] = shifted.get(s + w, 0) + c
            shifted[s - w] = shifted.get(s - w, 0) + c
        counts = shifted
    return counts


def _as_extreme(value, observed, choice) -> bool:
    if choice.key == "greater":
        return value >= observed
    if choice.key == "less":
        return value <= observed
    return abs(value) >= abs(observed)


def permutation_test(a, b, alternative=None, *, alpha=None, samples=None, seed=0, names=("A", "B")) -> Result:
    """Randomisation (permutation) test of the mean difference: under H0 the sign of every d_i is a coin flip.

    p = m / 2^n, m = the number of the 2^n sign assignments s whose mean Σ s_i d_i / n is at least as extreme as
    the observed mean d_mean (|·| two-sided), counted exactly by enumerating the distribution of the signed sums.
    Above 20 topics (or with ``samples``) a seeded sample of assignments estimates p = (1 + m) / (1 + samples),
    which never reports 0 (Phipson & Smyth 2010).

    Reference: Fisher 1935; Croft, Metzler & Strohman 2010 §8.6.1; Smucker, Allan & Carterette 2007.

    >>> permutation_test("0.5,0.4,0.7,0.3,0.6", "0.3,0.4,0.5,0.2,0.1", "greater").value
    Fraction(1, 16)
    """
    pairs, choice, alpha, d = _test_inputs(a, b, names, alternative, alpha)
    n = pairs.n
    observed = mean(d, "d_mean", "Observed mean difference")
    weights, scale = _scaled(d)
    observed_sum = sum(weights)
    if samples is None and n <= EXACT_PERMUTATION_LIMIT:
        distribution = _sum_distribution(weights)
        extreme = sum(c for s, c in distribution.items() if _as_extreme(s, observed_sum, choice))
        m = Traced(extreme, "m", "Sign assignments whose mean difference is at least as extreme as d_mean")
        all_assignments = Traced(2 ** n, "2^n", "Equally likely sign assignments under H0 (all enumerated)")
        p = (m / all_assignments).named("p", "p-value")
        tables = []
        if len(distribution) <= 33:
            rows = [(Fraction(s, scale * n), c, "yes" if _as_extreme(s, observed_sum, choice) else "")
                    for s, c in sorted(distribution.items())]
            tables.append(Table(("mean difference", "sign assignments", "as extreme as d_mean"), tuple(rows),
                                "Null distribution of the mean difference (every sign assignment)"))
        notes = [Note("assumption", f"exact: all 2^{n} = {2 ** n} sign assignments enumerated")]
    else:
        samples = DEFAULT_SAMPLES if samples is None else samples
        if isinstance(samples, bool) or not isinstance(samples, int) or samples < 1:
            raise ParameterError(f"the number of samples must be a positive integer, got {samples!r}")
        check_sampling(samples, n, "the permutation test")
        extreme = _sampled_extreme(weights, observed_sum, choice, samples, seed)
        m = Traced(extreme, "m", f"Sampled sign assignments (of {samples}, seed {seed}) at least as extreme as d_mean")
        drawn = Traced(samples, "B", "Sign assignments sampled")
        p = ((1 + m) / (1 + drawn)).named("p", "p-value (estimated from the sample)")
        tables = []
        notes = [Note("assumption", f"{n} topics: 2^{n} assignments are too many to enumerate, so {samples} were "
                                    f"sampled with seed {seed}; p = (1 + m) / (1 + B) (Phipson & Smyth 2010)")]
    return _result("permutation-test", "Randomisation (permutation) test", p, pairs, choice, alpha,
                   "the sign of each difference is as likely + as -", tables=tables, notes=notes, support=[observed])


def _sampled_extreme(weights, observed_sum, choice, samples, seed) -> int:
    import numpy as np  # deferred: `import irlab` loads no numpy; only a sampled test needs it

    rng = np.random.default_rng(seed)
    n = len(weights)
    fits = max((abs(w) for w in weights), default=0) * n < 2**62
    vector = np.array(weights, dtype=np.int64 if fits else object)
    extreme, done = 0, 0
    while done < samples:  # in blocks, so memory stays small however many samples are asked for
        block = min(samples - done, _block_rows(n))
        signs = rng.integers(0, 2, size=(block, n), dtype=np.int64) * 2 - 1
        sums = (signs.astype(object) if not fits else signs) @ vector
        extreme += sum(1 for s in sums.tolist() if _as_extreme(s, observed_sum, choice))
        done += block
    return extreme


# Wilcoxon's signed-rank test --------------------------------------------------------------------------

def _rank_sum_counts(doubled_ranks) -> list[int]:
    """counts[s] = the number of subsets of the ranks whose doubled sum is s (each subset = one sign pattern)."""
    counts = [1] + [0] * sum(doubled_ranks)
    reach = 0
    for r in doubled_ranks:
        for s in range(reach, -1, -1):
            if counts[s]:
                counts[s + r] += counts[s]
        reach += r
    return counts


def wilcoxon_test(a, b, alternative=None, *, alpha=None, names=("A", "B"), quantity=None, wilcoxon_method=None,
                  continuity_correction=None, zero_method=None) -> Result:
    """Wilcoxon signed-rank test: rank |d_i| (zeros dropped, ties share their mean rank) and sum the ranks of d > 0.

    W+ = Σ_{d_i > 0} rank_i (R's V) and W- = Σ_{d_i < 0} rank_i. Under H0 each rank is as likely to carry + as -,
    so the 2^n sign patterns of the ranks give W+'s null distribution, enumerated exactly (p a fraction) up to
    100 non-zero differences; p = P(W+ >= w+) for 'greater', P(W+ <= w+) for 'less', and
    min(1, 2 · P(W+ <= min(w+, w-))) two-sided. With ``wilcoxon_method='normal'`` (and above 100 differences) p is
    read off the normal approximation z = (W+ - μ - c) / σ, σ corrected for tied ranks, c the continuity correction
    (``continuity_correction``: off as scipy, on as R). ``zero_method`` drops zero differences (R, scipy's 'wilcox')
    or ranks them ('pratt', 'zsplit'). Croft, Metzler & Strohman (2010, §8.6.1) state the test with the signed-rank
    sum w = Σ sign(d_i) · rank_i = W+ - W- instead, shown as a step. ``quantity`` picks the answer: p (default),
    w-plus (V), w-minus, statistic (scipy's: T = min(W+, W-) two-sided, else W+), w, or z.

    Reference: Wilcoxon 1945; Pratt 1959; Croft, Metzler & Strohman 2010 §8.6.1; R wilcox.test;
    scipy.stats.wilcoxon.

    >>> wilcoxon_test("0.5,0.4,0.7,0.3,0.6", "0.3,0.4,0.5,0.2,0.1", "greater").value
    Fraction(1, 16)
    """
    pairs, choice, alpha, d = _test_inputs(a, b, names, alternative, alpha)
    quantity = quantity_key("wilcoxon", quantity)
    method = conv.WILCOXON_METHOD.choice(wilcoxon_method)
    correction = conv.CONTINUITY_CORRECTION.choice(continuity_correction)
    zeros = conv.ZERO_METHOD.choice(zero_method)
    kept = [i for i, x in enumerate(d) if x != 0]
    if not kept:
        raise ParameterError("the signed-rank test needs at least one topic where the systems differ; every topic is a tie")
    ranked = kept if zeros.key == "drop" else list(range(pairs.n))  # pratt and zsplit rank the zeros too
    ranks = [None] * pairs.n
    for i, r in zip(ranked, average_ranks([abs(d[i]) for i in ranked])):
        ranks[i] = r
    n = len(kept)
    positive = total([Traced(ranks[i]) for i in kept if d[i] > 0], "W+", "Sum of the ranks of the positive differences")
    negative = total([Traced(ranks[i]) for i in kept if d[i] < 0], "W-", "Sum of the ranks of the negative differences")
    w_plus, w_minus = positive, negative
    if zeros.key == "zsplit" and n < pairs.n:
        half = (total([Traced(ranks[i]) for i in range(pairs.n) if d[i] == 0]) / 2).named(
            "Z/2", "Half the sum of the ranks of the zero differences (zsplit)")
        positive.named("W+_d", "Sum of the ranks of the positive differences")
        negative.named("W-_d", "Sum of the ranks of the negative differences")
        w_plus = (positive + half).named("W+", "W+ with half the zero differences' ranks")
        w_minus = (negative + half).named("W-", "W- with half the zero differences' ranks")
    signed_sum = (w_plus - w_minus).named("w", "Signed-rank sum w = Σ sign(d_i) · rank_i = W+ - W- "
                                               "(Croft, Metzler & Strohman 2010 §8.6.1)")
    statistic = minimum([w_plus, w_minus], "T", "Test statistic: the smaller rank sum") \
        if choice.key == "two-sided" else w_plus
    notes = []
    if n < pairs.n:
        notes.append(Note("assumption", {
            "drop": f"{pairs.n - n} zero difference(s) dropped before ranking (Wilcoxon 1945)",
            "pratt": f"{pairs.n - n} zero difference(s) ranked with the others, their ranks then left out of W+ and W- "
                     "(Pratt 1959)",
            "zsplit": f"{pairs.n - n} zero difference(s) ranked with the others, half their rank sum given to each of "
                      "W+ and W-"}[zeros.key]))
    if len({ranks[i] for i in kept}) < n:
        notes.append(Note("assumption", "tied |d| share the mean of their ranks"
                          + ("; the exact null distribution is enumerated for these tied ranks"
                             if method.key == "exact" else "")))
    conventions = {"wilcoxon_method": method, "zero_method": zeros}
    if method.key == "exact" and n <= EXACT_WILCOXON_LIMIT:
        p = _wilcoxon_exact_p(positive, negative, [ranks[i] for i in kept], choice, n < pairs.n)
    else:
        if method.key == "exact":
            notes.append(Note("assumption", f"{n} non-zero differences: too many to enumerate (irlab enumerates up to "
                                            f"{EXACT_WILCOXON_LIMIT}), so the p-value is the normal approximation"))
        conventions["continuity_correction"] = correction
        p = _wilcoxon_normal_p(w_plus, pairs, d, ranks, zeros, correction, choice)
    if quantity == "z" and "continuity_correction" not in conventions:
        raise ParameterError("z is the statistic of the normal approximation: ask for it with wilcoxon_method = normal "
                             "(--wilcoxon-method normal)")
    return _result("wilcoxon", "Wilcoxon signed-rank test", p, pairs, choice, alpha,
                   "the differences are symmetric around 0", notes=notes, support=[signed_sum, statistic],
                   ranks=ranks, quantity=quantity, conventions=conventions)


def _wilcoxon_exact_p(positive, negative, kept_ranks, choice, conditional) -> Traced:
    """p from the 2^n sign patterns of the non-zero differences' ranks (those patterns only, given the zeros)."""
    doubled = [int(2 * r) for r in kept_ranks]
    counts = _rank_sum_counts(doubled)
    target = int(2 * positive.value)
    if choice.key == "greater":
        extreme = sum(counts[target:])
    elif choice.key == "less":
        extreme = sum(counts[:target + 1])
    else:
        extreme = sum(counts[:int(2 * min(positive.value, negative.value)) + 1])
    tail_text = {"greater": "P(W+ >= w+)", "less": "P(W+ <= w+)", "two-sided": "P(W+ <= T)"}[choice.key]
    m = Traced(extreme, "m", f"Sign patterns of the ranks with {tail_text.replace('P(', '').rstrip(')')}"
               + (" (the zero differences' ranks held fixed)" if conditional else ""))
    patterns = Traced(2 ** len(kept_ranks), "2^n", "Equally likely sign patterns of the ranks under H0")
    if choice.key == "two-sided":
        tail = (m / patterns).named("P_tail", f"Exact tail {tail_text}")
        return minimum([1, 2 * tail]).named("p", "p-value (both tails)")
    return (m / patterns).named("p", f"p-value: the exact tail {tail_text}")


def _wilcoxon_normal_p(w_plus, pairs, d, ranks, zeros, correction, choice) -> Traced:
    """p from the normal approximation of W+: mean and variance of W+ under H0 over the ranked differences, the
    variance less Σ (t³ - t)/48 for each group of t tied |d| (R wilcox.test, scipy.stats.wilcoxon)."""
    ranked = [i for i in range(pairs.n) if ranks[i] is not None]
    count = len(ranked)
    zero_count = sum(1 for i in ranked if d[i] == 0) if zeros.key == "pratt" else 0
    groups = {}
    for i in ranked:
        if not (zeros.key == "pratt" and d[i] == 0):  # pratt: the zeros' ranks are not part of the statistic
            groups[abs(d[i])] = groups.get(abs(d[i]), 0) + 1
    ties = sum(t ** 3 - t for t in groups.values())
    mu_value = Fraction(count * (count + 1) - zero_count * (zero_count + 1), 4)
    mu = Traced(mu_value, "μ", "Mean of W+ under H0: n(n+1)/4" + (" less n0(n0+1)/4 for the n0 ranked zeros (pratt)"
                                                               if zero_count else ""))
    variance = Traced(Fraction(count * (count + 1) * (2 * count + 1) - zero_count * (zero_count + 1) * (2 * zero_count + 1)
                               - Fraction(ties, 2), 24), "σ²",
                      "Variance of W+ under H0: (n(n+1)(2n+1) - Σ (t³ - t)/2) / 24, t the size of each group of tied |d|"
                      + (", less n0(n0+1)(2n0+1)/24 for the zeros (pratt)" if zero_count else ""))
    sigma = traced_sqrt(variance, "σ", "Standard deviation of W+ under H0")
    shift = w_plus - mu
    if correction.key == "on":
        sign = {"greater": 1, "less": -1}.get(choice.key, (w_plus.value > mu_value) - (w_plus.value < mu_value))
        c = Traced(Fraction(sign, 2), "c", "Continuity correction: W+ moves 1/2 towards its mean")
        shift = shift - c
    z = (shift / sigma).named("z", "Normal score of W+")
    z_float = exact.to_float(z.value)
    standard = "Φ the standard normal distribution function, from the complementary error function"
    if choice.key == "greater":
        return call("Φ", [-z], _float(_normal_sf(z_float)), "p", f"p-value: P(Z >= z) = Φ(-z), {standard}")
    if choice.key == "less":
        return call("Φ", [z], _float(_normal_sf(-z_float)), "p", f"p-value: P(Z <= z) = Φ(z), {standard}")
    tail = call("Φ", [-z if z_float > 0 else z], _float(_normal_sf(abs(z_float))), "P_tail",
                f"One tail: P(Z >= |z|) = Φ(-|z|), {standard}")
    return (2 * tail).named("p", "p-value (both tails)")


def _normal_sf(z: float) -> float:
    """P(Z >= z) for a standard normal Z, from the complementary error function (accurate far into the tail)."""
    return 0.5 * math.erfc(z / math.sqrt(2))


def _float(value):
    """A p-value read off a continuous distribution: a floating-point number, marked as such (a sympy Float)."""
    import sympy  # deferred: sympy is heavy; only a p-value read off a continuous distribution needs it

    return sympy.Float(float(value), 15)


# the paired t-test ------------------------------------------------------------------------------------

def t_test(a, b, alternative=None, *, alpha=None, names=("A", "B"), quantity=None) -> Result:
    """Paired t-test: t = d_mean / (s / √n) with n - 1 degrees of freedom.

    d_mean = Σ d_i / n, s² = Σ (d_i - d_mean)² / (n - 1); t is exact (a square root), the p-value is read off Student's t
    distribution by scipy.stats (a floating-point number): p = P(T >= t) for 'greater', P(T <= t) for 'less',
    2 · P(T >= |t|) two-sided. Also Cohen's effect size d_z = d_mean / s.

    Reference: Student 1908; Croft, Metzler & Strohman 2010 §8.6.1; scipy.stats.ttest_rel.

    >>> steps = {s.symbol: s.value for s in t_test("0.5,0.4,0.7,0.3,0.6", "0.3,0.4,0.5,0.2,0.1").steps}
    >>> steps["s²"], steps["t"], round(float(steps["p"]), 4)
    (Fraction(7, 200), 2*sqrt(70)/7, 0.0751)
    """
    pairs, choice, alpha, d = _test_inputs(a, b, names, alternative, alpha)
    quantity = quantity_key("t-test", quantity)
    n = pairs.n
    if n < 2:
        raise ParameterError("the t-test needs at least two topics (it estimates the spread of the differences)")
    d_mean = mean(d, "d_mean", "Mean difference")
    n_node = Traced(n, "n", "Topics")
    squares = total([(Traced(x) - d_mean) ** 2 for x in d], "SS", "Sum of squared deviations Σ (d_i - d_mean)²")
    variance = (squares / (n_node - 1)).named("s²", "Sample variance of the differences")
    if variance.value == 0:
        raise ParameterError("the t-test is undefined: every topic has the same difference, so s = 0")
    standard_error = traced_sqrt(variance / n_node, "SE", "Standard error of the mean difference √(s² / n)")
    t = (d_mean / standard_error).named("t", "t statistic")
    df = (n_node - 1).named("df", "Degrees of freedom")
    effect = (d_mean / traced_sqrt(variance, "s", "Standard deviation of the differences")).named(
        "d_z", "Effect size (Cohen's d_z = d_mean / s)")
    stats = _scipy_stats()
    t_float = exact.to_float(t.value)
    distribution = f"T ~ Student's t with df = {n - 1} (scipy.stats.t.sf)"
    if choice.key == "greater":
        p = Traced(_float(stats.t.sf(t_float, n - 1)), "p", f"p-value: P(T >= t), {distribution}")
    elif choice.key == "less":
        p = Traced(_float(stats.t.sf(-t_float, n - 1)), "p", f"p-value: P(T <= t), {distribution}")
    else:
        tail = Traced(_float(stats.t.sf(abs(t_float), n - 1)), "P_tail", f"One tail: P(T >= |t|), {distribution}")
        p = (2 * tail).named("p", "p-value (both tails)")
    support = [effect, df]
    notes = [Note("assumption", "the t-test assumes the differences are roughly normal; with few topics, "
                                "prefer the randomisation test (Smucker, Allan & Carterette 2007)")]
    return _result("t-test", "Paired t-test", p, pairs, choice, alpha, "the mean difference is 0",
                   notes=notes, support=[*support, t], quantity=quantity)


# bootstrap confidence interval ------------------------------------------------------------------------

def bootstrap_interval(a, b, *, alpha=None, samples=None, seed=0, names=("A", "B")) -> Result:
    """Percentile bootstrap confidence interval of the mean difference, at confidence level 1 - α.

    B resamples of the n topics, drawn with replacement (seeded); the interval runs from the ⌊B·α/2⌋-th to the
    ⌈B·(1 - α/2)⌉-th of the B resampled mean differences in ascending order (order statistics, so every bound
    is an exact mean of n differences). An interval without 0 agrees with a two-sided test rejecting at α.

    Reference: Efron & Tibshirani 1993 (ch. 13); Sakai 2006.

    >>> result = bootstrap_interval("0.5,0.4,0.7,0.3,0.6", "0.3,0.4,0.5,0.2,0.1", seed=0)
    >>> result.value, [step.value for step in result.steps if step.symbol.startswith("CI")]
    (Fraction(1, 5), [Fraction(2, 25), Fraction(9, 25)])
    """
    import numpy as np  # deferred: `import irlab` loads no numpy; only the bootstrap needs it

    pairs = paired(a, b, names)
    alpha = alpha_value(alpha)
    samples = DEFAULT_SAMPLES if samples is None else samples
    if isinstance(samples, bool) or not isinstance(samples, int) or samples < 1:
        raise ParameterError(f"the number of bootstrap samples must be a positive integer, got {samples!r}")
    d = pairs.differences
    n = pairs.n
    check_sampling(samples, n, "the bootstrap")
    weights, scale = _scaled(d)
    fits = max((abs(w) for w in weights), default=0) * n < 2**62
    vector = np.array(weights, dtype=np.int64 if fits else object)
    rng = np.random.default_rng(seed)
    sums = []
    for start in range(0, samples, _block_rows(n)):
        block = min(samples - start, _block_rows(n))
        picks = rng.integers(0, n, size=(block, n))
        sums += vector[picks].sum(axis=1).tolist()
    sums.sort()
    low_index = max(int(math.floor(samples * alpha / 2)), 1)
    high_index = min(int(math.ceil(samples * (1 - alpha / 2))), samples)
    low = Traced(Fraction(int(sums[low_index - 1]), scale * n), "CI_low",
                 f"Lower bound: the {low_index}-th smallest of the {samples} resampled means")
    high = Traced(Fraction(int(sums[high_index - 1]), scale * n), "CI_high",
                  f"Upper bound: the {high_index}-th smallest of the {samples} resampled means")
    d_mean = mean(d, "d_mean", "Mean difference (the point estimate)")
    level = 1 - alpha
    covers = low.value <= 0 <= high.value
    reading = (f"the {exact.decimal_text(level * 100)}% interval [{exact.decimal_text(low.value)}, "
               f"{exact.decimal_text(high.value)}] " +
               ("contains 0: no difference shown at this level" if covers else "excludes 0: a difference at this level"))
    context = (f"Systems {pairs.names[0]} and {pairs.names[1]} on {pairs.n} topics; d = {pairs.names[0]} - "
               f"{pairs.names[1]}; {samples} bootstrap resamples of the topics, seed {seed}.")
    return Result("bootstrap", "Bootstrap confidence interval of the mean difference", d_mean, context=context,
                  parameters={"alpha": alpha}, tables=[pairs.table()], support=[low, high],
                  notes=[Note("reading", reading)])


# several tests at once, and several systems --------------------------------------------------------------

TESTS = {
    "t": t_test,
    "wilcoxon": wilcoxon_test,
    "sign": sign_test,
    "permutation": permutation_test,
}


def run_test(name, pairs, alternative=None, *, alpha=None, samples=None, seed=0) -> Result:
    if name not in TESTS:
        raise ParameterError(f"unknown test {name!r}; choose one of {', '.join(TESTS)}, bootstrap")
    if name == "permutation":
        return permutation_test(pairs, None, alternative, alpha=alpha, samples=samples, seed=seed)
    return TESTS[name](pairs, None, alternative, alpha=alpha)


STATISTICS = {"t-test": "t", "wilcoxon": "T", "sign-test": "n+", "permutation-test": "d_mean", "bootstrap": "d_mean"}


def statistic_text(result: Result) -> str:
    """The test's statistic as 'symbol = value' for a summary table (W+ for a one-sided Wilcoxon test)."""
    wanted = STATISTICS.get(result.metric)
    steps = {step.symbol: step for step in result.steps}
    step = steps.get(wanted) or (steps.get("W+") if result.metric == "wilcoxon" else None)
    return f"{step.symbol} = {exact.decimal_text(step.value)}" if step else ""


def adjust(p_values, correction=None) -> list:
    """p-values corrected for m comparisons: Holm's step-down (default), Bonferroni's, or none; exact when p is.

    >>> adjust([Fraction(1, 100), Fraction(4, 100), Fraction(3, 100)])
    [Fraction(3, 100), Fraction(3, 50), Fraction(3, 50)]
    >>> [round(p, 10) for p in adjust([0.01, 0.04, 0.03])]
    [0.03, 0.06, 0.06]
    """
    choice = conv.MULTIPLE_COMPARISONS.choice(correction)
    m = len(p_values)
    if choice.key == "none":
        return list(p_values)
    if any(isinstance(p, float) for p in p_values):
        # p-values of a continuous distribution (scipy) are doubles: corrected as doubles
        mul, maximum, value_of = (lambda a, b: a * float(b)), max, float
    else:
        mul, maximum, value_of = exact.mul, exact.maximum, exact.to_float
    if choice.key == "bonferroni":
        return [_clip(mul(m, p), value_of) for p in p_values]
    order = sorted(range(m), key=lambda i: value_of(p_values[i]))
    adjusted, running = [None] * m, 0
    for position, i in enumerate(order):
        running = maximum([running, _clip(mul(m - position, p_values[i]), value_of)])
        adjusted[i] = running
    return adjusted


def _test_inputs(a, b, names, alternative, alpha):
    """What every paired test starts from: the pairs, the alternative, the level and the differences d."""
    pairs = paired(a, b, names)
    return pairs, conv.ALTERNATIVE.choice(alternative), alpha_value(alpha), pairs.differences


def _clip(value, value_of=None):
    return 1 if (value_of or exact.to_float)(value) >= 1 else value
