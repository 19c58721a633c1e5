"""Where the literature disagrees, irlab names the choice. Every convention is defined here, once, as data.

Each :class:`Convention` has choices with a formula and a reference; the first-listed default follows
IIR (Manning, Raghavan & Schütze 2008) and trec_eval unless the two disagree, in which case the docstring
of the convention says which one wins and why.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from .errors import InputTypeError, ParameterError


@dataclass(frozen=True)
class Choice:
    key: str
    summary: str
    formula: str  # plain-text definition of the choice
    reference: str
    aliases: tuple[str, ...] = ()  # shorter names a user may type (--ties average)


@dataclass(frozen=True)
class Convention:
    name: str  # also the CLI option: --ap-denominator
    question: str
    choices: tuple[Choice, ...]
    default: str

    def choice(self, key: str | None) -> Choice:
        found = self._by_key.get(self.default if key is None else key) if key is None or type(key) is str else None
        if found is not None:  # a key as written in this module (metrics ask on every computation)
            return found
        if key is not None and not isinstance(key, str):
            keys = ", ".join(repr(c.key) for c in self.choices)
            raise InputTypeError(f"{self.name} is one of {keys}, got {type(key).__name__} {key!r:.40}")
        key = self.default if key is None else key.strip().lower().replace("_", "-")
        for choice in self.choices:
            if choice.key == key or key in choice.aliases:
                return choice
        keys = ", ".join(c.key for c in self.choices)
        raise ParameterError(f"unknown {self.name} {key!r}; choose one of {keys}")

    @cached_property
    def _by_key(self) -> dict:
        """Each choice under its key and aliases, the first choice naming one winning as :meth:`choice`'s search
        does; only names that read as themselves (lower case, '-', no spaces), so one found is what that search
        finds."""
        by_key = {}
        for choice in self.choices:
            for name in (choice.key, *choice.aliases):
                if name == name.strip().lower().replace("_", "-"):
                    by_key.setdefault(name, choice)
        return by_key

    @property
    def option(self) -> str:
        return "--" + self.name.replace("_", "-")


AP_DENOMINATOR = Convention(
    "ap_denominator",
    "What does average precision divide the sum of precisions by?",
    (
        Choice("relevant", "all R relevant documents of the query", "D = R", "IIR 8.4; trec_eval map"),
        Choice("retrieved", "the relevant documents retrieved (within the cut-off)", "D = number of relevant retrieved",
               "used by some textbooks and libraries; overestimates AP when relevant documents are missed"),
        Choice("min-relevant-k", "min(R, k), the most relevant documents k ranks can hold", "D = min(R, k)",
               "AP@K in recommender-system evaluation"),
    ),
    "relevant",
)

PRECISION_DENOMINATOR = Convention(
    "precision_denominator",
    "When fewer than k documents are retrieved, what does P@k divide by?",
    (
        Choice("k", "the cut-off k, missing ranks counting as non-relevant", "P@k = hits@k / k", "IIR 8.4; trec_eval P_k"),
        Choice("retrieved", "the number of documents actually retrieved up to k", "P@k = hits@k / min(k, n)",
               "set-based precision of the truncated list"),
    ),
    "k",
)

RECALL_DENOMINATOR = Convention(
    "recall_denominator",
    "What does recall at a cut-off divide by?",
    (
        Choice("relevant", "all R relevant documents", "Rec@k = hits@k / R", "IIR 8.3; trec_eval recall_k"),
        Choice("min-relevant-k", "min(R, k), so that a perfect top-k scores 1", "Rec@k = hits@k / min(R, k)",
               "capped recall R_cap@k of BEIR (Thakur et al. 2021)"),
    ),
    "relevant",
)

GAIN = Convention(
    "gain",
    "How does a relevance grade g become a gain?",
    (
        Choice("exp", "exponential gain, favouring highly relevant documents", "gain(g) = 2^g - 1",
               "Burges et al. 2005; IIR 8.4 (NDCG)"),
        Choice("linear", "the grade itself", "gain(g) = g", "Järvelin & Kekäläinen 2002; trec_eval ndcg"),
    ),
    "exp",
)

DISCOUNT = Convention(
    "discount",
    "How is the gain at rank i discounted?",
    (
        Choice("log2-rank-plus-1", "divide by log2(i + 1) at every rank", "discount(i) = 1 / log2(i + 1)",
               "Burges et al. 2005; IIR 8.4; trec_eval ndcg"),
        Choice("log2-rank", "no discount at rank 1, then divide by log2(i)", "discount(1) = 1, discount(i) = 1 / log2(i) for i >= 2",
               "Järvelin & Kekäläinen 2002, log base b = 2 (DCG = g_1 + Σ_{i>=2} g_i / log2 i)"),
        Choice("reciprocal-rank", "divide by the rank itself, a steeper discount than any logarithm",
               "discount(i) = 1 / i", "TF-Ranking DCGMetric and NDCGMetric given the rank discount 1/rank; the discount "
               "of reciprocal rank"),
    ),
    "log2-rank-plus-1",
)
"""With ``log_base = b`` (dcg, idcg, ndcg; scikit-learn's ``dcg_score(log_base=b)``) the logarithms are taken in base b:
1 / log_b(i + 1), and for Järvelin & Kekäläinen no discount below rank b, then 1 / log_b(i). nDCG does not depend on b
for the log(i + 1) discount (every term scales by log2(b), so the ratio cancels); DCG does."""

INTERPOLATION = Convention(
    "interpolation",
    "Which ranks count when precision is interpolated at recall level r?",
    (
        Choice("book", "every rank whose recall reaches r", "p_interp(r) = max{ P@k : Rec@k >= r }", "IIR 8.4 (eq. 8.7)"),
        Choice("trec-eval", "ranks from the one holding the round(r·R)-th relevant document on (round half up)",
               "p_interp(r) = max{ P@k : rel_k and hits@k >= round(r·R) }", "trec_eval 10.0 iprec_at_recall (lround)"),
        Choice("trec-eval-9", "ranks from the one holding the (long)(r·R + 0.9)-th relevant document on, r·R in "
               "double precision (0.7 · 3 + 0.9 truncates to 2)",
               "p_interp(r) = max{ P@k : hits@k >= (long)(r·R + 0.9) }",
               "trec_eval 9.0 m_iprec_at_recall.c, as in pytrec_eval and ir_measures"),
    ),
    "book",
)

ERR_PROBABILITY = Convention(
    "err_probability",
    "How does ERR turn the grade g_j at rank j into the probability Pr(j) that the user stops there?",
    (
        Choice("exponential", "Chapelle et al.'s exponential mapping of the grade, relative to the top grade gmax",
               "Pr(j) = (2^g_j - 1) / 2^gmax", "Chapelle, Metzler, Zhang & Grinspan 2009 (CIKM), §4, R(g)"),
        Choice("ntcireval", "NTCIREVAL's linear mapping: the grade's gain over the top grade's gain plus one "
               "(gain = grade unless a gain table says otherwise)", "Pr(j) = gain(g_j) / (gain(gmax) + 1)",
               "NTCIREVAL ERR and nERR (Sakai); pyNTCIREVAL GradeMetric._err_grade, g / (maxgrade + 1)"),
    ),
    "exponential",
)

F_WEIGHT = Convention(
    "f_weight",
    "What does the F-measure's parameter weigh: β, or the weight β² of recall in the harmonic mean?",
    (
        Choice("beta", "β: recall counts β times as much as precision, weight β² in the harmonic mean",
               "F_β = (1 + β²) · P · Rec / (β² · P + Rec)",
               "IIR 8.3 (eq. 8.5); van Rijsbergen 1979; scikit-learn fbeta_score"),
        Choice("beta-squared", "the parameter x is the weight itself (x = β²), so x = 2 gives F_√2, not F_2",
               "F(x) = (1 + x) · P · Rec / (x · P + Rec)",
               "trec_eval set_F.x (m_set_F.c); pytrec_eval and ir_measures SetF(beta=x) pass it on"),
    ),
    "beta",
)

KAPPA_MARGINALS = Convention(
    "kappa_marginals",
    "How is the chance agreement P(E) estimated?",
    (
        Choice("pooled", "from the two judges' answers pooled together", "P(E) = P(rel)^2 + P(nonrel)^2, P(rel) = (rel_1 + rel_2) / 2n",
               "IIR 8.5 (Table 8.2); Scott 1955 (pi)"),
        Choice("per-judge", "from each judge's own proportions", "P(E) = P_1(rel)·P_2(rel) + P_1(nonrel)·P_2(nonrel)", "Cohen 1960"),
    ),
    "pooled",
)

ALTERNATIVE = Convention(
    "alternative",
    "Which alternative hypothesis does a paired significance test weigh against H0 (no difference)?",
    (
        Choice("two-sided", "the two systems differ, in either direction", "p = P(|statistic| >= |observed|)",
               "Smucker, Allan & Carterette 2007; scipy.stats"),
        Choice("greater", "the first system is better than the second (d = first - second > 0)", "p = P(statistic >= observed)",
               "Croft, Metzler & Strohman 2010 §8.6.1 (one-sided tests)"),
        Choice("less", "the first system is worse than the second (d = first - second < 0)", "p = P(statistic <= observed)", "scipy.stats"),
    ),
    "two-sided",
)

MULTIPLE_COMPARISONS = Convention(
    "correction",
    "How are the p-values of several pairwise comparisons corrected?",
    (
        Choice("holm", "Holm's step-down method, uniformly more powerful than Bonferroni",
               "p_(i) adjusted = max_{j<=i} min(1, (m - j + 1) · p_(j)), p sorted ascending", "Holm 1979"),
        Choice("bonferroni", "multiply every p-value by the number of comparisons m", "p adjusted = min(1, m · p)",
               "Dunn 1961; Croft, Metzler & Strohman 2010 §8.6.1"),
        Choice("none", "no correction (the family-wise error rate grows with m)", "p adjusted = p", "—"),
    ),
    "holm",
)

WILCOXON_METHOD = Convention(
    "wilcoxon_method",
    "How is the p-value of Wilcoxon's signed-rank test computed?",
    (
        Choice("exact", "enumerate the 2^n equally likely sign patterns of the ranks (tied ranks as they are): an exact "
               "fraction (above 100 non-zero differences, the normal approximation)",
               "p = #{sign patterns with W+ at least as extreme} / 2^n",
               "Wilcoxon 1945; R wilcox.test(exact = TRUE) and scipy.stats.wilcoxon(method='exact'), both without ties"),
        Choice("normal", "the normal approximation of W+, its variance corrected for tied ranks",
               "z = (W+ - μ - c) / σ, μ = n(n+1)/4, σ² = (n(n+1)(2n+1) - Σ (t³ - t)/2) / 24",
               "R wilcox.test(exact = FALSE); scipy.stats.wilcoxon(method='asymptotic')",
               aliases=("approx", "asymptotic")),
    ),
    "exact",
)

CONTINUITY_CORRECTION = Convention(
    "continuity_correction",
    "Does the normal approximation of Wilcoxon's p-value move W+ half a unit towards its mean?",
    (
        Choice("off", "no correction", "c = 0", "scipy.stats.wilcoxon(correction=False), its default"),
        Choice("on", "W+ moves 1/2 towards its mean: c = sign(W+ - μ)/2 two-sided, 1/2 for 'greater', -1/2 for 'less'",
               "z = (W+ - μ - c) / σ, |c| = 1/2", "R wilcox.test(correct = TRUE), its default; "
               "scipy.stats.wilcoxon(correction=True)"),
    ),
    "off",
)
"""Off by default: the exact p-value needs none, and irlab's approximation above 100 differences has always been
scipy's default one; R's users ask for ``on``."""

ZERO_METHOD = Convention(
    "zero_method",
    "What does Wilcoxon's signed-rank test do with topics whose difference is 0?",
    (
        Choice("drop", "drop them before ranking: n counts the non-zero differences", "rank |d_i| over d_i != 0",
               "Wilcoxon 1945; R wilcox.test; scipy.stats.wilcoxon(zero_method='wilcox'), its default",
               aliases=("wilcox",)),
        Choice("pratt", "rank them with the others (they hold the smallest ranks), then leave their ranks out of W+ "
               "and W-", "rank every |d_i|; W+ and W- over d_i != 0", "Pratt 1959; scipy.stats.wilcoxon(zero_method='pratt')"),
        Choice("zsplit", "rank them with the others and give half of their rank sum to each of W+ and W-",
               "W+ = Σ_{d_i > 0} rank_i + (1/2) Σ_{d_i = 0} rank_i", "scipy.stats.wilcoxon(zero_method='zsplit')"),
    ),
    "drop",
)
"""With pratt or zsplit the exact p-value is conditional on the zeros: only the signs of the non-zero differences
are enumerated (Pratt 1959); scipy computes no exact p-value when there are zeros."""

EMPTY_RANKING = Convention(
    "empty_ranking",
    "What is a metric's value for a ranking with no documents (a system that returned nothing)?",
    (
        Choice("refuse", "refuse it: in an exercise an empty list is more often a slip than a question",
               "no value; the exercise or the command names the empty ranking", "irlab's default"),
        Choice("zero", "the system retrieved nothing: the metric on no documents (hits 0, AP 0, nDCG 0); a quotient "
               "over the documents retrieved (precision without k, F, AUC) is 0; the query stays in the mean",
               "metric(empty ranking) = 0", "trec_eval -c (irlab eval -c); Spark RankingMetrics; ir_measures"),
    ),
    "refuse",
)
"""Refuse by default: a teacher who writes "" most likely forgot the ranking; one who means "the system returned
nothing" says so with empty_ranking = zero (and may write the ranking as "-")."""

GMAP_FLOOR = Convention(
    "gmap_floor",
    "What does GMAP do with a query whose average precision is 0?",
    (
        Choice("epsilon", "raise every AP below 0.00001 to 0.00001, so one failed query does not zero the mean",
               "GMAP = (Π max(AP_q, 0.00001))^(1/n)", "trec_eval gm_map (MIN_GEO_MEAN); Robertson 2006"),
        Choice("none", "the plain geometric mean: 0 as soon as one AP is 0", "GMAP = (Π AP_q)^(1/n)", "—"),
    ),
    "epsilon",
)

TAU_VARIANT = Convention(
    "tau_variant",
    "Kendall's tau of two score lists: how do pairs tied in x or in y enter the denominator?",
    (
        Choice("b", "ties shrink the denominator: pairs tied in x or in y leave it, so tau-b is ±1 when both lists order "
               "every pair alike, ties included", "τ_b = (C - D) / √((n_0 - n_1)(n_0 - n_2))",
               "Kendall 1945; scipy.stats.kendalltau (default, variant='b')"),
        Choice("a", "every pair counts in the denominator, tied or not", "τ_a = (C - D) / (n(n - 1)/2)", "Kendall 1938"),
        Choice("c", "Stuart's tau-c for an m × m table, m the fewer distinct values", "τ_c = 2m(C - D) / (n²(m - 1))",
               "Stuart 1953; scipy.stats.kendalltau(variant='c')"),
    ),
    "b",
)

TIES = Convention(
    "ties",
    "Documents with equal scores: in which order are they ranked?",
    (
        Choice("docno-descending", "by score, equal scores by document id in descending strcmp order",
               "sort by (score desc, docno desc)", "trec_eval 10.0 and 9.0 (form_res_rels.c)"),
        Choice("input-order", "by score, equal scores in the order they were given (a stable sort)",
               "stable sort by score desc", "ranx (Run: scores only); torch.argsort / tf.math.top_k give no order",
               aliases=("order",)),
        Choice("tie-averaged", "every order of the tied documents equally likely: the metric's mean over those orders "
               "(for DCG each tied rank gets the group's mean gain; for P@k a group split by k adds its expected "
               "hits)",
               "mean over every order of each tied group; DCG = Σ_groups mean gain(group) · Σ_{i in group} discount(i)",
               "McSherry & Najork 2008 (ECIR); scikit-learn ndcg_score/dcg_score (ignore_ties=False); torchmetrics nDCG",
               aliases=("average",)),
        Choice("one-threshold", "tied documents enter together, as one threshold of the precision-recall curve",
               "AP = Σ_thresholds (R_t - R_{t-1}) · P_t", "scikit-learn average_precision_score",
               aliases=("threshold",)),
    ),
    "docno-descending",
)
"""As a metric option (precision, rr, ap, dcg, ndcg given the scores of a ranking, ``--scores``), the ranking is read
in the order written: docno-descending and input-order both evaluate that order (it is how trec_eval, or ranx, put the
tied documents); tie-averaged is the expected value over every order of each tied group (McSherry & Najork 2008, ECIR,
LNCS 4956 pp. 414-421: for AP not scikit-learn's value); one-threshold is scikit-learn's average_precision_score only."""

JUDGMENTS_SEEN = Convention(
    "judgments_seen",
    "Which judgments does the tool know: every judged document, or only the scored list it was given?",
    (
        Choice("qrels", "every judged document: R and the ideal ranking include relevant documents not retrieved",
               "R = relevant judged documents (qrels)", "trec_eval; ranx Qrels; RecBole (all test items)"),
        Choice("list", "only the labels passed with the scores: R = relevant documents in the list",
               "R = relevant labels given", "scikit-learn; torchmetrics; TF-Ranking (y_true of the list)"),
    ),
    "qrels",
)

NON_POSITIVE_SCORES = Convention(
    "non_positive_scores",
    "Is a document the system scored 0 or below retrieved?",
    (
        Choice("retrieved", "every scored document is ranked, whatever its score", "rank every document by score",
               "trec_eval; ranx; scikit-learn; torchmetrics before PR #3160 and after its revert"),
        Choice("not-retrieved", "a score <= 0 means 'not retrieved': such a document cannot count as a hit "
               "(nDCG: all of them tie at the bottom)", "hits only among documents scored > 0",
               "torchmetrics PR #3160 (July 2025; reported in 1.9.0) in functional/retrieval precision.py, "
               "reciprocal_rank.py, average_precision.py (mask preds > 0) and ndcg.py (preds <= 0 set to -inf)"),
    ),
    "retrieved",
)

SPEARMAN_TIES = Convention(
    "spearman_ties",
    "Spearman's rho with tied values: Pearson's correlation of the mid-ranks, or the no-ties shortcut?",
    (
        Choice("mid-rank-pearson", "rank each list (ties share the mean of their ranks) and take Pearson's correlation",
               "ρ = Σ (r_i - r̄)(s_i - r̄) / √(Σ (r_i - r̄)² Σ (s_i - r̄)²)",
               "Kendall 1948; scipy.stats.spearmanr; pandas corr(method='spearman')"),
        Choice("no-ties-formula", "1 - 6 Σd² / (n(n² - 1)) on the mid-ranks, exact only without ties",
               "ρ = 1 - 6 Σ d_i² / (n(n² - 1))", "Spearman 1904; the shortcut of many textbooks"),
    ),
    "mid-rank-pearson",
)
DIVERSITY_NORMALISATION = Convention(
    "diversity_normalisation",
    "Are α-DCG and ERR-IA reported as the papers' sums, or divided by an ideal-ideal list as ndeval reports them?",
    (
        Choice("ndeval", "divided by the same sum for an 'ideal ideal' list whose every document is relevant to every "
               "subtopic (collection-independent normalisation)",
               "α-DCG@k / Σ_{i<=k} S(1-α)^(i-1) / log2(i+1);  Σ_{i<=k} g_i / i / Σ_{i<=k} S(1-α)^(i-1) / i",
               "ndeval 4.5 (TREC Web track 2009-2014) alpha-DCG@k and ERR-IA@k"),
        Choice("raw", "the papers' sums", "α-DCG@k = Σ_{i<=k} g_i / log2(i+1);  ERR-IA@k = (α/S) Σ_{i<=k} g_i / i",
               "Clarke et al. 2008 (SIGIR); Chapelle et al. 2011 (IRJ 14(6)), P(s) = 1/S"),
    ),
    "ndeval",
)
"""α-nDCG and nERR-IA divide by the greedy ideal ranking's value, so they are the same under both choices."""

# ir_measures' rules where they differ from trec_eval's defaults: how a whole run is evaluated (irlab eval's options,
# irlab.evaluate's arguments), named in the explorer's rows and in the explanations of frames and experiments
MISSING_TOPICS = Convention(
    "missing_topics",
    "A topic of the qrels that the run does not answer: does it count in the mean?",
    (
        Choice("skip", "left out: the mean is over the topics the run answers", "mean over the run's judged topics",
               "trec_eval without -c (irlab eval's default)"),
        Choice("zero", "it counts 0, as an empty ranking", "mean over every qrels topic, a missing one scoring 0",
               "trec_eval -c; ir_measures (measure.DEFAULT); PyTerrier's pt.Experiment; irlab.evaluate(complete=True)"),
    ),
    "skip",
)

JUDGED_ONLY = Convention(
    "judged_only",
    "Documents of the run that the qrels do not judge: ranked as non-relevant, or removed first?",
    (
        Choice("kept", "kept in place and counted as non-relevant", "rank every retrieved document",
               "trec_eval; ir_measures (judged_only=False, its default)"),
        Choice("removed", "removed before evaluating, so the judged documents below them move up",
               "rank only the judged documents", "trec_eval -J; ir_measures judged_only=True (condensed lists, "
               "Sakai 2007)"),
    ),
    "kept",
)

ERR_TOP_GRADE = Convention(
    "err_top_grade",
    "ERR's stopping probability Pr(g) = (2^g - 1) / 2^gmax: which grade is gmax?",
    (
        Choice("topic", "the highest grade judged for the topic (or the scale's top grade when given)",
               "gmax = max grade in the topic's qrels", "Chapelle, Metzler, Zhang & Grinspan 2009; irlab explain err"),
        Choice("gdeval-4", "fixed at 4 whatever the qrels hold (gdeval refuses grades above 4; irlab eval widens "
               "the scale to the top grade of the qrels there)", "gmax = 4",
               "gdeval.pl MAX_JUDGMENT (TREC Web 2010-2014); ir_measures ERR@k, which runs gdeval"),
    ),
    "topic",
)

TIE_DOCNO_ORDER = Convention(
    "tie_docno_order",
    "Documents of a run with equal scores: which docno is ranked first?",
    (
        Choice("descending", "the larger docno first (strcmp order)", "sort by (score desc, docno desc)",
               "trec_eval 9 and 10; pytrec_eval, hence ir_measures' AP, P, R, nDCG, RR"),
        Choice("ascending", "the smaller docno first", "sort by (score desc, docno asc)",
               "ir_measures' Judged@k and MS MARCO RR@k; pyndeval (ir_measures' alpha_nDCG, ERR_IA)"),
    ),
    "descending",
)
"""Only tied documents that straddle a cut-off (or, for the diversity measures, any tie) change a value."""

RUN_EVALUATION = (MISSING_TOPICS, JUDGED_ONLY, ERR_TOP_GRADE, TIE_DOCNO_ORDER)

# conventions only the explorer compares (irlab computes both sides in one explanation)
COMPARED_ONLY = (SPEARMAN_TIES,)

# how scores become a ranking, and what a library is told: used by irlab conventions (irlab/explorer.py); ties is also a
# metric option (in ALL) for a ranking given with its scores (--scores), the others are not (irlab explain takes a
# ranking, already ordered)
RANKING_FROM_SCORES = (TIES, JUDGMENTS_SEEN, NON_POSITIVE_SCORES)

LIST_MEAN = Convention(
    "list_mean",
    "How are ARP and OPA averaged over several lists (queries)?",
    (
        Choice("per-list", "each list's value, then their arithmetic mean: every list weighs the same",
               "mean = (1/Q) Σ_q value_q", "irlab's mean over queries, as MAP and trec_eval average"),
        Choice("pooled", "the lists' numerators summed over their denominators summed: a list weighs by its label "
               "mass Σ y (ARP) or its pairs with different labels (OPA)",
               "ARP = Σ_q Σ_i rank_i y_i / Σ_q Σ_i y_i;  OPA = Σ_q C_q / Σ_q P_q",
               "TF-Ranking ARPMetric and OPAMetric over a batch (their ragged examples: 1.75 and 0.5)"),
    ),
    "per-list",
)
"""Per list by default, as every other mean over queries in irlab; pooled reproduces TF-Ranking's batch value."""

ALL = (AP_DENOMINATOR, PRECISION_DENOMINATOR, RECALL_DENOMINATOR, F_WEIGHT, GAIN, DISCOUNT, INTERPOLATION, KAPPA_MARGINALS,
       ALTERNATIVE, WILCOXON_METHOD, CONTINUITY_CORRECTION, ZERO_METHOD, MULTIPLE_COMPARISONS, GMAP_FLOOR, TAU_VARIANT, ERR_PROBABILITY, TIES, DIVERSITY_NORMALISATION,
       EMPTY_RANKING, LIST_MEAN)
BY_NAME = {convention.name: convention for convention in ALL}
