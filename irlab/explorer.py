"""Why do libraries give different numbers for the same ranking? Every tool's answer side by side.

Each widely used tool is a row of data: the irlab conventions (``irlab/conventions.py``) that reproduce it, the
document it was read from, and one sentence on why it differs from the reference row (trec_eval 10.0). The value in
each row is computed by irlab's own exact metric functions under those conventions, so a disagreement between two
libraries becomes a named choice with a formula and a reference.

Scores become a ranking through the ``ties`` convention: trec_eval breaks ties by document id (descending strcmp
order), ranx keeps the input order, scikit-learn's ``ndcg_score`` averages the gain over every order of the tied
documents (McSherry & Najork 2008) and its ``average_precision_score`` lets tied documents enter as one threshold.

>>> from irlab import exact
>>> from irlab.explorer import Case, explore
>>> comparison = explore("ndcg", Case.from_scores("0.9,0.5,0.5,0.1", "2,0,1,1"))
>>> [(row.tool.name, exact.decimal_text(value)) for row, value in comparison.values][5:6]
[('scikit-learn', '0.9569')]
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from itertools import groupby

from . import conventions as conv
from . import exact
from . import metrics as m
from .document import Displayable, Document, Note, Paragraph, Section, Table
from .errors import InputTypeError, LimitError, ParameterError, RankingError
from .limits import MAX_BETA, MAX_GRADE
from .metric import check_cutoff, check_fraction
from .metrics.agreement import parse_judgments
from .metrics.ties import AVERAGED, ORDERED, THRESHOLD
from .metrics.dcg import check_log_base, parse_gains
from .ranking import Ranking, parse_grade_list, parse_ids, parse_scores

# ------------------------------------------------------------------------------------------------
# the tools


@dataclass(frozen=True)
class Tool:
    name: str
    reference: str  # where its definitions are read: documentation or source file


TREC_EVAL_10 = Tool("trec_eval 10.0", "trec_eval 10.0, github.com/usnistgov/trec_eval (m_*.c, form_res_rels.c)")
TREC_EVAL_9 = Tool("trec_eval 9 (pytrec_eval)", "pytrec_eval-terrier, which compiles trec_eval 9.0.x (Van Gysel & de Rijke 2018)")
IR_MEASURES = Tool("ir_measures", "ir_measures (MacAvaney et al. 2022): P, R, AP, RR, nDCG, IPrec run through pytrec_eval")
RANX = Tool("ranx", "ranx (Bassani 2022), ranx/metrics/*.py; ranx docs 'Metrics'")
SKLEARN = Tool("scikit-learn", "scikit-learn sklearn/metrics/_ranking.py (ndcg_score, dcg_score, average_precision_score), "
                               "sklearn/metrics/_classification.py (cohen_kappa_score)")
TORCHMETRICS = Tool("torchmetrics", "torchmetrics src/torchmetrics/functional/retrieval/*.py (precision.py adaptive_k, "
                                    "average_precision.py, ndcg.py _tie_average_dcg)")
TORCHMETRICS_MASKED = Tool("torchmetrics (scores <= 0 masked)", "torchmetrics PR #3160 (July 2025, reported in 1.9.0; "
                            "later reverted, tests/unittests/retrieval/test_score_shift.py): functional/retrieval "
                            "precision.py, reciprocal_rank.py, average_precision.py, ndcg.py")
TF_RANKING = Tool("TF-Ranking", "tensorflow_ranking/python/metrics_impl.py (PrecisionMetric, MeanAveragePrecisionMetric, "
                                "NDCGMetric)")
TF_RANKING_RECIPROCAL = Tool("TF-Ranking (1/rank discount)", "tensorflow_ranking/python/keras/metrics.py "
                              "(DCGMetric, NDCGMetric: gain_fn and rank_discount_fn are parameters)")
RECBOLE = Tool("RecBole", "RecBole recbole/evaluator/metrics.py (Precision, Recall, MAP, MRR, NDCG)")
BEIR = Tool("BEIR (R_cap@k)", "BEIR (Thakur et al. 2021) beir/retrieval/custom_metrics.py (recall_cap)")
TEXTBOOK = Tool("textbook (IIR)", "Manning, Raghavan & Schütze 2008, §8.3-8.5")
JARVELIN = Tool("Järvelin & Kekäläinen 2002", "Järvelin & Kekäläinen 2002, ACM TOIS 20(4), §2.2 (log base b = 2)")
CHAPELLE = Tool("Chapelle et al. 2009", "Chapelle, Metzler, Zhang & Grinspan 2009 (ERR); irlab's batch ERR")
GDEVAL = Tool("gdeval (TREC Web track)", "gdeval.pl of the TREC 2010-2014 Web tracks (MAX_JUDGMENT = 4)")
SCIPY = Tool("scipy", "scipy.stats.kendalltau (variant 'b' by default, or 'c') and scipy.stats.spearmanr")
KENDALL_1938 = Tool("Kendall 1938 (tau-a)", "Kendall 1938, Biometrika 30(1/2): τ = (C - D) / (n(n - 1)/2)")
SPEARMAN_SHORTCUT = Tool("no-ties formula", "Spearman 1904: ρ = 1 - 6 Σd² / (n(n² - 1)), for rankings without ties")
COHEN = Tool("Cohen 1960", "Cohen 1960, Educational and Psychological Measurement 20(1)")


@dataclass(frozen=True)
class Row:
    """One tool's definition of one measure: the conventions that reproduce it, and why it differs."""

    tool: Tool
    conventions: tuple[tuple[str, str], ...]  # (irlab convention name, choice key)
    why: str  # one sentence: why the value differs from the reference row (the first)
    binary: bool = False  # the tool reads every grade >= 1 as plain "relevant" (RecBole)
    max_grade: int | None = None  # ERR's top grade fixed by the tool (gdeval: 4)
    always_cut: bool = False  # the tool always evaluates @k: without a k, k is the list's length (RecBole's topk)
    honours: tuple[str, ...] = ()  # user options the tool takes: "gains" (a gain per grade), "log_base"

    def choice(self, name: str) -> str | None:
        return dict(self.conventions).get(name)

    def convention_text(self) -> str:
        return ", ".join(f"{name}={key}" for name, key in self.conventions)


def _row(tool, why, binary=False, max_grade=None, honours=(), **choices):
    for name, key in choices.items():
        _convention(name).choice(key)  # every row names a real choice (checked when the module is imported)
    return Row(tool, tuple(choices.items()), why, binary, max_grade, always_cut=tool is RECBOLE, honours=honours)


def _convention(name):
    for convention in conv.ALL + conv.RANKING_FROM_SCORES + conv.COMPARED_ONLY + conv.RUN_EVALUATION:
        if convention.name == name:
            return convention
    raise KeyError(name)


Q, L = "qrels", "list"
DOCNO, INPUT = ORDERED  # the tie conventions' keys, as irlab.metrics.ties names them
REFERENCE_WHY = "reference row"
UNORDERED = " (its order among equal scores is not specified: irlab uses the input order)"
# ranx sorts with numba's np.argsort (quicksort): lists of up to 15 documents go through insertion sort, which keeps
# the input order; longer lists come out of the partitioning in no documented order
RANX_TIES = "equal scores keep their input order (numba's argsort; guaranteed only for lists of up to 15 documents)"

ROWS = {
    "precision": (
        _row(TREC_EVAL_10, REFERENCE_WHY, ties=DOCNO, judgments_seen=Q, precision_denominator="k"),
        _row(TREC_EVAL_9, "Same P_k definition (m_P.c) and tie order: equal.", ties=DOCNO, judgments_seen=Q,
             precision_denominator="k"),
        _row(IR_MEASURES, "P@k is trec_eval's P_k computed by pytrec_eval: equal.", ties=DOCNO, judgments_seen=Q,
             precision_denominator="k"),
        _row(RANX, "Divides by k like trec_eval, but " + RANX_TIES + ", not docno order.",
             ties=INPUT, judgments_seen=Q, precision_denominator="k"),
        _row(TORCHMETRICS, "retrieval_precision divides by k (adaptive_k=False) like trec_eval" + UNORDERED + ".",
             ties=INPUT, judgments_seen=L, precision_denominator="k"),
        _row(Tool("torchmetrics (adaptive_k=True)", TORCHMETRICS.reference),
             "With adaptive_k=True a list shorter than k is divided by its length, not by k" + UNORDERED + ".",
             ties=INPUT, judgments_seen=L, precision_denominator="retrieved"),
        _row(TORCHMETRICS_MASKED, "A document scored <= 0 counts as not retrieved, so it is never a hit; still "
             "divided by k" + UNORDERED + ".", ties=INPUT, judgments_seen=L, precision_denominator="k",
             non_positive_scores="not-retrieved"),
        _row(TF_RANKING, "PrecisionMetric divides by the valid items in the top k, so a list shorter than k is "
                         "divided by its length" + UNORDERED + ".",
             ties=INPUT, judgments_seen=L, precision_denominator="retrieved"),
        _row(RECBOLE, "Precision@k divides by k; graded labels count as relevant or not" + UNORDERED + ".",
             binary=True, ties=INPUT, judgments_seen=Q, precision_denominator="k"),
        _row(TEXTBOOK, "IIR's P@k divides by k (eq. 8.1 at a cut-off); a textbook ranking has no ties.",
             ties=DOCNO, judgments_seen=Q, precision_denominator="k"),
    ),
    "recall": (
        _row(TREC_EVAL_10, REFERENCE_WHY, ties=DOCNO, judgments_seen=Q, recall_denominator="relevant"),
        _row(TREC_EVAL_9, "Same recall_k (m_recall.c): equal.", ties=DOCNO, judgments_seen=Q, recall_denominator="relevant"),
        _row(IR_MEASURES, "R@k is trec_eval's recall_k through pytrec_eval: equal.", ties=DOCNO, judgments_seen=Q,
             recall_denominator="relevant"),
        _row(RANX, "Divides by R from the qrels like trec_eval; " + RANX_TIES + ".", ties=INPUT,
             judgments_seen=Q, recall_denominator="relevant"),
        _row(TORCHMETRICS, "retrieval_recall only sees the labels it is given, so R counts the relevant documents of "
                           "the list, not those it missed" + UNORDERED + ".",
             ties=INPUT, judgments_seen=L, recall_denominator="relevant"),
        _row(TF_RANKING, "RecallMetric divides by the relevant labels of the list it is given, not by R from "
                         "judgments" + UNORDERED + ".", ties=INPUT, judgments_seen=L, recall_denominator="relevant"),
        _row(RECBOLE, "Recall@k divides by every positive test item (R); graded labels are read as relevant or not"
                      + UNORDERED + ".", binary=True, ties=INPUT, judgments_seen=Q, recall_denominator="relevant"),
        _row(BEIR, "Capped recall divides by min(R, k), so that a perfect top k scores 1; results sorted by score "
                   "with Python's stable sort keep equal scores in input order.", ties=INPUT, judgments_seen=Q,
             recall_denominator="min-relevant-k"),
        _row(TEXTBOOK, "IIR's recall divides by all relevant documents (§8.3): equal for an untied ranking.",
             ties=DOCNO, judgments_seen=Q, recall_denominator="relevant"),
    ),
    "ap": (
        _row(TREC_EVAL_10, REFERENCE_WHY, ties=DOCNO, judgments_seen=Q, ap_denominator="relevant"),
        _row(TREC_EVAL_9, "Same map (m_map.c): equal.", ties=DOCNO, judgments_seen=Q, ap_denominator="relevant"),
        _row(IR_MEASURES, "AP is trec_eval's map through pytrec_eval: equal.", ties=DOCNO, judgments_seen=Q,
             ap_denominator="relevant"),
        _row(RANX, "Divides by R from the qrels like trec_eval; " + RANX_TIES + ".", ties=INPUT,
             judgments_seen=Q, ap_denominator="relevant"),
        _row(SKLEARN, "average_precision_score lets tied scores enter as one threshold and only knows the relevant "
                      "labels of the list, not R.", ties=THRESHOLD, judgments_seen=L, ap_denominator="relevant"),
        _row(TORCHMETRICS, "retrieval_average_precision divides by the relevant documents retrieved (within top_k), "
                           "not by R" + UNORDERED + ".", ties=INPUT, judgments_seen=L, ap_denominator="retrieved"),
        _row(TORCHMETRICS_MASKED, "Only the documents scored > 0 count: a relevant document scored <= 0 adds neither "
             "a precision nor to the denominator" + UNORDERED + ".", ties=INPUT, judgments_seen=L,
             ap_denominator="retrieved", non_positive_scores="not-retrieved"),
        _row(TF_RANKING, "MeanAveragePrecisionMetric divides by the relevant labels of the whole list (whatever topn), "
                         "which it takes for R" + UNORDERED + ".", ties=INPUT, judgments_seen=L,
             ap_denominator="relevant"),
        _row(RECBOLE, "MAP@k divides by min(R, k), the most relevant documents k ranks can hold" + UNORDERED + ".",
             binary=True, ties=INPUT, judgments_seen=Q, ap_denominator="min-relevant-k"),
        _row(TEXTBOOK, "IIR's AP divides by all R relevant documents (§8.4): equal for an untied ranking.",
             ties=DOCNO, judgments_seen=Q, ap_denominator="relevant"),
    ),
    "rr": (
        _row(TREC_EVAL_10, REFERENCE_WHY, ties=DOCNO, judgments_seen=Q),
        _row(TREC_EVAL_9, "Same recip_rank: equal.", ties=DOCNO, judgments_seen=Q),
        _row(IR_MEASURES, "RR is trec_eval's recip_rank through pytrec_eval: equal.", ties=DOCNO, judgments_seen=Q),
        _row(RANX, "Same definition; " + RANX_TIES + ", so a tie can move the first relevant "
                   "document.", ties=INPUT, judgments_seen=Q),
        _row(TORCHMETRICS, "retrieval_reciprocal_rank: same definition" + UNORDERED + ".", ties=INPUT, judgments_seen=L),
        _row(TORCHMETRICS_MASKED, "The first relevant document scored > 0 counts; one scored <= 0 is not retrieved"
             + UNORDERED + ".", ties=INPUT, judgments_seen=L, non_positive_scores="not-retrieved"),
        _row(TF_RANKING, "MRRMetric: same definition" + UNORDERED + ".", ties=INPUT, judgments_seen=L),
        _row(RECBOLE, "MRR@k: same definition on relevant / not relevant" + UNORDERED + ".", binary=True, ties=INPUT,
             judgments_seen=Q),
        _row(TEXTBOOK, "1 / rank of the first relevant document (Voorhees 1999): equal for an untied ranking.",
             ties=DOCNO, judgments_seen=Q),
    ),
    "ndcg": (
        _row(TREC_EVAL_10, REFERENCE_WHY, ties=DOCNO, judgments_seen=Q, gain="linear", discount="log2-rank-plus-1",
             honours=("gains",)),
        _row(TREC_EVAL_9, "Same ndcg / ndcg_cut (m_ndcg.c): equal.", ties=DOCNO, judgments_seen=Q, gain="linear",
             discount="log2-rank-plus-1", honours=("gains",)),
        _row(IR_MEASURES, "nDCG@k is trec_eval's ndcg_cut through pytrec_eval: equal. nDCG(gains=…) rewrites the "
                          "qrels' grades as the gains, so a negative gain counts as 0 (trec_eval reads a negative grade "
                          "as not relevant) and a fractional one is refused.", ties=DOCNO, judgments_seen=Q,
             gain="linear", discount="log2-rank-plus-1", honours=("gains-as-grades",)),
        _row(RANX, "ranx's ndcg (its 'jarvelin' flavour) uses the linear gain and 1/log2(i+1) like trec_eval; "
                   + RANX_TIES + ".", ties=INPUT, judgments_seen=Q, gain="linear",
             discount="log2-rank-plus-1"),
        _row(Tool("ranx (ndcg_burges)", RANX.reference), "ndcg_burges uses the exponential gain 2^g - 1 (Burges et al. "
             "2005); " + RANX_TIES + ".", ties=INPUT, judgments_seen=Q, gain="exp",
             discount="log2-rank-plus-1"),
        _row(SKLEARN, "ndcg_score averages the gain over every order of tied scores (ignore_ties=False) and builds the "
                      "ideal ranking from the list it is given only.", ties=AVERAGED, judgments_seen=L, gain="linear",
             discount="log2-rank-plus-1"),
        _row(TORCHMETRICS, "retrieval_normalized_dcg ports scikit-learn's tie averaging; the ideal ranking comes from "
                           "the list only.", ties=AVERAGED, judgments_seen=L, gain="linear",
             discount="log2-rank-plus-1"),
        _row(TORCHMETRICS_MASKED, "Scores <= 0 become -inf: those documents tie at the bottom and share their mean "
             "gain, while the ideal ranking keeps every label.", ties=AVERAGED, judgments_seen=L, gain="linear",
             discount="log2-rank-plus-1", non_positive_scores="not-retrieved"),
        _row(TF_RANKING, "NDCGMetric's default gain is 2^g - 1 and its ideal ranking comes from the list" + UNORDERED
             + ".", ties=INPUT, judgments_seen=L, gain="exp", discount="log2-rank-plus-1"),
        _row(TF_RANKING_RECIPROCAL, "DCGMetric and NDCGMetric take any rank discount; with 1/rank the gain at rank i is "
             "divided by i, a steeper discount than 1/log2(i + 1) from rank 2 on.", ties=INPUT, judgments_seen=L, gain="exp",
             discount="reciprocal-rank"),
        _row(RECBOLE, "NDCG@k is binary: every relevant item gains 1 and the ideal holds min(R, k) of them"
             + UNORDERED + ".", binary=True, ties=INPUT, judgments_seen=Q, gain="linear",
             discount="log2-rank-plus-1"),
        _row(TEXTBOOK, "IIR 8.4 (after Burges et al. 2005) uses the exponential gain 2^g - 1.", ties=DOCNO,
             judgments_seen=Q, gain="exp", discount="log2-rank-plus-1"),
        _row(JARVELIN, "The original DCG does not discount rank 1 and divides by log2(i) from rank 2 on.", ties=DOCNO,
             judgments_seen=Q, gain="linear", discount="log2-rank"),
    ),
    "dcg": (
        _row(TREC_EVAL_10, REFERENCE_WHY + " (trec_eval's dcg measure, m_ndcg.c)", ties=DOCNO, judgments_seen=Q,
             gain="linear", discount="log2-rank-plus-1", honours=("gains",)),
        _row(RANX, "ranx's dcg (its 'jarvelin' flavour) uses the linear gain and 1/log2(i+1) like trec_eval; "
                   + RANX_TIES + ".", ties=INPUT, judgments_seen=Q, gain="linear",
             discount="log2-rank-plus-1"),
        _row(Tool("ranx (dcg_burges)", RANX.reference), "dcg_burges uses the exponential gain 2^g - 1 (Burges et al. "
             "2005).", ties=INPUT, judgments_seen=Q, gain="exp", discount="log2-rank-plus-1"),
        _row(SKLEARN, "dcg_score averages the gain over every order of tied scores and divides by log_b(i + 1) with its "
                      "log_base b (2 by default): DCG in base b is log2(b) times DCG in base 2.", ties=AVERAGED,
             judgments_seen=L, gain="linear", discount="log2-rank-plus-1", honours=("log_base",)),
        _row(TF_RANKING, "DCGMetric's default gain is 2^g - 1" + UNORDERED + ".", ties=INPUT, judgments_seen=L,
             gain="exp", discount="log2-rank-plus-1"),
        _row(TF_RANKING_RECIPROCAL, "DCGMetric takes any rank discount; with 1/rank the gain at rank i is divided by i.", ties=INPUT,
             judgments_seen=L, gain="exp", discount="reciprocal-rank"),
        _row(TEXTBOOK, "IIR 8.4 (after Burges et al. 2005) uses the exponential gain 2^g - 1.", ties=DOCNO,
             judgments_seen=Q, gain="exp", discount="log2-rank-plus-1"),
        _row(JARVELIN, "The original DCG does not discount rank 1 and divides by log2(i) from rank 2 on.", ties=DOCNO,
             judgments_seen=Q, gain="linear", discount="log2-rank"),
    ),
    "f": (
        _row(TEXTBOOK, REFERENCE_WHY + " (IIR 8.3, eq. 8.5: β weighs recall, β² enters the harmonic mean)",
             judgments_seen=Q, f_weight="beta"),
        _row(SKLEARN, "fbeta_score(beta=β) uses β as IIR does (van Rijsbergen's F): equal.", judgments_seen=Q,
             f_weight="beta"),
        _row(TREC_EVAL_10, "set_F.x reads its parameter as the weight x = β² itself: set_F.2 is F_√2, not F_2.",
             judgments_seen=Q, f_weight="beta-squared"),
        _row(TREC_EVAL_9, "Same set_F (m_set_F.c): the parameter is the weight β².", judgments_seen=Q,
             f_weight="beta-squared"),
        _row(IR_MEASURES, "SetF(beta=x) passes x to trec_eval's set_F, which reads it as β²: SetF(beta=2) is F_√2.",
             judgments_seen=Q, f_weight="beta-squared"),
    ),
    "err": (
        _row(CHAPELLE, REFERENCE_WHY + " (gmax = the highest grade judged for the topic, as irlab's batch ERR)",
             ties=DOCNO, judgments_seen=Q, err_top_grade="topic"),
        _row(GDEVAL, "gdeval fixes the top grade at 4, so every stopping probability (2^g - 1)/2^gmax is smaller.",
             max_grade=4, ties=DOCNO, judgments_seen=Q, err_top_grade="gdeval-4"),
        _row(IR_MEASURES, "ERR@k runs gdeval: the top grade is 4, as in gdeval's row.", max_grade=4, ties=DOCNO,
             judgments_seen=Q, err_top_grade="gdeval-4"),
    ),
    "11pt": (
        _row(TREC_EVAL_10, REFERENCE_WHY, ties=DOCNO, judgments_seen=Q, interpolation="trec-eval"),
        _row(TREC_EVAL_9, "trec_eval 9 needs (long)(r·R + 0.9) relevant documents (in doubles), trec_eval 10 "
                          "round(r·R): they differ when r·R has a fraction below one half.", ties=DOCNO,
             judgments_seen=Q, interpolation="trec-eval-9"),
        _row(IR_MEASURES, "IPrec goes through pytrec_eval, hence trec_eval 9's rounding.", ties=DOCNO, judgments_seen=Q,
             interpolation="trec-eval-9"),
        _row(TEXTBOOK, "IIR's p_interp(r) takes every rank whose recall reaches r, i.e. ⌈r·R⌉ relevant documents "
                       "(eq. 8.7).", ties=DOCNO, judgments_seen=Q, interpolation="book"),
    ),
    "kappa": (
        _row(TEXTBOOK, REFERENCE_WHY + " (IIR 8.5 pools the two judges' answers, as Scott's pi)",
             kappa_marginals="pooled"),
        _row(SKLEARN, "cohen_kappa_score estimates chance agreement from each judge's own proportions.",
             kappa_marginals="per-judge"),
        _row(COHEN, "Cohen's kappa multiplies the two judges' own marginals.", kappa_marginals="per-judge"),
    ),
}
ROWS["tau"] = (
    _row(SCIPY, REFERENCE_WHY + " (kendalltau's default variant 'b')", tau_variant="b"),
    _row(Tool("scipy (variant='c')", SCIPY.reference), "Stuart's tau-c scales by the fewer distinct values m: it can "
         "reach ±1 for lists with different numbers of distinct values, where tau-b cannot.", tau_variant="c"),
    _row(KENDALL_1938, "Tau-a keeps every tied pair in the denominator, so ties pull it toward 0.", tau_variant="a"),
)
ROWS["spearman"] = (
    _row(SCIPY, REFERENCE_WHY + " (spearmanr: Pearson's correlation of the mid-ranks)", spearman_ties="mid-rank-pearson"),
    _row(SPEARMAN_SHORTCUT, "The shortcut assumes the ranks are 1 … n; ties shrink their spread, so with ties it is "
         "not the correlation of the mid-ranks.", spearman_ties="no-ties-formula"),
)
ROWS["iprec"] = ROWS["11pt"]

TITLES = {
    "precision": "Precision", "recall": "Recall", "ap": "Average precision", "rr": "Reciprocal rank",
    "ndcg": "nDCG", "dcg": "DCG", "f": "F-measure", "err": "Expected reciprocal rank", "11pt": "11-point interpolated average precision",
    "iprec": "Interpolated precision", "kappa": "Cohen's kappa", "tau": "Kendall's tau", "spearman": "Spearman's rho",
}
ALIASES = {"p": "precision", "map": "ap", "mrr": "rr", "recip_rank": "rr", "r": "recall", "11pt_avg": "11pt",
           "iprec_at_recall": "iprec", "set_f": "f", "f1": "f", "fbeta": "f", "kendall": "tau", "kendall-tau": "tau",
           "rho": "spearman"}
MEASURES = tuple(TITLES)
PAIRED = ("kappa", "tau", "spearman")  # two columns instead of a ranking: kappa's judges, tau's and rho's score lists
RANKED_MEASURES = ("precision", "recall", "ap", "rr", "ndcg", "err", "11pt")  # what `all` compares on one topic


# ------------------------------------------------------------------------------------------------
# what the tools are given


@dataclass(frozen=True)
class Case:
    """Documents with scores (or already in rank order), their grades, and what the judgments know beyond them.

    scores        the system's scores, exact; None when the documents are given in rank order
    docnos        document ids (trec_eval breaks ties by them); d1, d2, … zero-padded when not given
    unretrieved   grades of judged documents that were not retrieved (qrels-based tools see them)
    relevant      R when known without the grades of the missed documents (--relevant)
    """

    grades: tuple[int, ...]
    scores: tuple | None = None
    docnos: tuple[str, ...] = ()
    unretrieved: tuple[int, ...] = ()
    relevant: int | None = None
    threshold: int = 1
    source: str | None = None

    @classmethod
    def from_scores(cls, scores, grades, docnos=None, unretrieved=(), relevant=None, threshold=1) -> "Case":
        """``Case.from_scores("0.9,0.5,0.5,0.1", "2,0,1,1")``: one score and one grade per document."""
        grades = _grades(grades, "grades")
        scores = _scores(scores)
        if len(scores) != len(grades):
            raise RankingError(f"{len(scores)} scores for {len(grades)} grades: give one grade per scored document")
        return cls(grades, scores, _docnos(docnos, len(grades)), _grades(unretrieved, "unretrieved"), relevant,
                   threshold)

    @classmethod
    def from_ranking(cls, ranking) -> "Case":
        """A ranking already in order ('RNNRR' with relevant=5, or a Ranking): every tie convention agrees."""
        if isinstance(ranking, str):
            ranking = Ranking.parse(ranking)
        if not isinstance(ranking, Ranking):
            raise InputTypeError(f"a ranking such as Ranking.parse('RNNRR', relevant=5), got {type(ranking).__name__}")
        return cls(ranking.grades, None, ranking.ids or _docnos(None, ranking.retrieved), ranking.unretrieved,
                   ranking.relevant, ranking.threshold, ranking.written())

    def order(self, ties: str) -> list[int]:
        """Positions of the documents in rank order under a tie convention (tie-averaged and one-threshold rank
        by score alone: their computation treats each tie group as a whole)."""
        positions = list(range(len(self.grades)))
        if self.scores is None:
            return positions
        if ties == DOCNO:  # strcmp order of the ids, descending, then a stable sort by score
            positions.sort(key=lambda i: self.docnos[i].encode("utf-8", "surrogateescape"), reverse=True)
        positions.sort(key=lambda i: -self.scores[i])
        return positions

    @property
    def has_ties(self) -> bool:
        return self.scores is not None and len(set(self.scores)) < len(self.scores)

    def ranking(self, row: Row, ties: str | None = None) -> Ranking:
        """The ranking the row's tool evaluates: its tie order, the judgments it sees, binary if it reads them so."""
        order = self.order(ties or row.choice("ties") or DOCNO)
        flag = (lambda g: int(g >= self.threshold)) if row.binary else (lambda g: g)
        grades = tuple(flag(self.grades[i]) for i in order)
        ids = tuple(self.docnos[i] for i in order)
        threshold = 1 if row.binary else self.threshold
        if row.choice("judgments_seen") == L:
            return Ranking.from_grades(grades, ids=ids, threshold=threshold)
        unretrieved = tuple(flag(g) for g in self.unretrieved)
        return Ranking.from_grades(grades, ids=ids, unretrieved=unretrieved, relevant=self.relevant, threshold=threshold)

    def ties_text(self, shown: int = 4) -> str:
        """The groups of equal scores and the order each tie convention gives them (the first ``shown`` groups)."""
        groups = []
        for score, group in groupby(self.order(INPUT), key=lambda i: self.scores[i]):
            group = list(group)
            if len(group) > 1:
                by_docno = sorted(group, key=lambda i: self.docnos[i].encode("utf-8", "surrogateescape"), reverse=True)
                groups.append(f"score {_score_text(score)}: input order {' '.join(self.docnos[i] for i in group)}, "
                              f"docno-descending {' '.join(self.docnos[i] for i in by_docno)}")
        more = f" (and {len(groups) - shown} more groups)" if len(groups) > shown else ""
        return ("Equal scores — the order depends on the tie convention (tie-averaged: every order of a group equally "
                "likely): " + "; ".join(groups[:shown]) + more + ".")

    def describe(self) -> str:
        if self.scores is None:
            shown = self.source or ",".join(str(g) for g in self.grades)
            text = f"ranking {shown} in rank order"
            if self.unretrieved:
                text += f"; judged but not retrieved: grades {','.join(str(g) for g in self.unretrieved)}"
            return text + (f", R = {self.relevant}" if self.relevant is not None else "")
        shown = list(zip(self.docnos, self.scores, self.grades))
        pairs = ", ".join(f"{d}: {_score_text(s)} → {g}" for d, s, g in shown[:SHOWN_DOCUMENTS])
        if len(shown) > SHOWN_DOCUMENTS:
            pairs += f", … ({len(shown):,} documents in all)"
        text = f"scores → grades {pairs}"
        if self.unretrieved:
            text += f"; judged but not retrieved: grades {','.join(str(g) for g in self.unretrieved)}"
        if self.relevant is not None:
            text += f"; R = {self.relevant}"
        return text


# what each tool does with a query that has no relevant document (0/0 for recall, AP, nDCG): the rows show 0
EMPTY_QUERY_NOTE = (
    "No relevant document, so recall, AP and nDCG are 0/0, undefined. The rows show 0, as trec_eval reports it (and "
    "the topic still counts in the mean); torchmetrics decides with empty_target_action: 'neg' (the default) gives 0, "
    "'pos' gives 1, 'skip' leaves the query out of the mean and 'error' raises; scikit-learn's ndcg_score, "
    "average_precision_score and recall_score give 0 (with a warning), but label_ranking_average_precision_score "
    "gives 1; TF-Ranking's metrics give 0.")

SHOWN_DOCUMENTS = 12  # a TREC topic has 1,000 documents: the input line shows the first ones


def _score_text(score) -> str:
    return exact.decimal_text(score, 12) if exact.is_terminating(score, 12) else exact.exact_text(score)


def _grades(value, what) -> tuple[int, ...]:
    if value is None:
        return ()
    if isinstance(value, str):
        return parse_grade_list(value, what)
    return tuple(value)


def _scores(value) -> tuple:
    """The documents' scores in the order given, read as explain reads --scores (ranking.parse_scores): exact, so
    0.1 means 1/10 and scores that print equal are equal; a score that is not a finite number is refused."""
    if not isinstance(value, (str, list, tuple)):
        raise InputTypeError(f"scores must be text such as '0.9,0.5,0.5' or a list of numbers, got {type(value).__name__}")
    scores = parse_scores(value, "score")
    if not scores:
        raise RankingError("no scores given: write them as '0.9,0.5,0.5,0.1'")
    return scores


def _docnos(value, n: int) -> tuple[str, ...]:
    if value is None:
        width = len(str(n))
        return tuple(f"d{i:0{width}d}" for i in range(1, n + 1))
    ids = parse_ids(value, "the document ids (--docnos)")
    if len(ids) != n:
        raise RankingError(f"{len(ids)} document ids for {n} documents")
    return ids


# ------------------------------------------------------------------------------------------------
# the values, computed by irlab's exact metrics under each row's conventions


def _by_score(scores, grades, **known) -> Ranking:
    """The documents ranked by score (highest first; a tied group in any order: these conventions do not read it)."""
    order = sorted(range(len(grades)), key=lambda i: -scores[i])
    return Ranking.from_grades([grades[i] for i in order], scores=[scores[i] for i in order], **known)


def tie_averaged_dcg(scores, grades, k=None, gain="linear", discount="log2-rank-plus-1", log_base=2):
    """DCG averaged over every order of the tied documents (scikit-learn's ``dcg_score``, ``ignore_ties=False``):
    irlab's dcg with ties = tie-averaged (McSherry & Najork 2008), each group's mean gain times its discounts.

    >>> tie_averaged_dcg([2, 1, 1], [1, 0, 1])  # rank 1: gain 1; ranks 2-3 share the mean gain 1/2
    5/4 + 1/(2*log2(3))
    """
    ranking = _by_score(scores, grades)
    return m.dcg(ranking, k, gain=gain, discount=discount, log_base=log_base, ties=AVERAGED).value


def threshold_average_precision(scores, relevant) -> Fraction | int:
    """AP with tied scores as one threshold (scikit-learn's ``average_precision_score``): Σ_t (R_t - R_{t-1}) · P_t,
    irlab's ap with ties = one-threshold; the relevant labels given are all of R.

    >>> threshold_average_precision([3, 2, 2], [1, 0, 1])
    Fraction(5, 6)
    """
    if sum(relevant) == 0:
        return 0
    ranking = _by_score(scores, list(relevant), relevant=sum(relevant))
    return m.average_precision(ranking, ties=THRESHOLD).value


@dataclass(frozen=True)
class Options:
    """What the user set beyond the case: a gain table, a log base, F's β (each tool honours what it can take)."""

    gains: dict | None = None
    log_base: int = 2
    beta: object = 1

    def gains_for(self, row: Row) -> dict | None:
        """The gain table ``row``'s tool computes with: the user's, as the tool reads it, or None (its own gains)."""
        if not self.gains:
            return None
        if "gains" in row.honours:
            return self.gains
        if "gains-as-grades" in row.honours and _integer_gains(self.gains):  # ir_measures: gains become grades
            return {grade: max(gain, 0) for grade, gain in self.gains.items()}
        return None

    def log_base_for(self, row: Row) -> int:
        return self.log_base if "log_base" in row.honours else 2


def row_value(measure: str, row: Row, case: Case, k=None, recall_level=None, judges=None, options: Options = Options()):
    """The exact value of ``measure`` as ``row``'s tool computes it on ``case``."""
    ties = row.choice("ties")
    if row.choice("non_positive_scores") == "not-retrieved" and case is not None and case.scores is not None:
        case = _not_retrieved_below_zero(case, measure)
    gains, log_base = options.gains_for(row), options.log_base_for(row)
    if row.always_cut and k is None and case is not None:
        k = len(case.grades)
    if measure == "kappa":
        return m.cohen_kappa(judges[0], judges[1], kappa_marginals=row.choice("kappa_marginals")).value
    if measure == "tau":
        return m.kendall_tau(judges[0], judges[1], row.choice("tau_variant")).value
    if measure == "spearman":
        result = m.spearman_rho_scores(judges[0], judges[1])
        if row.choice("spearman_ties") == "mid-rank-pearson":
            return result.value
        return next(node.value for node in result.support if node.symbol == "ρ_no-ties")
    ranking = case.ranking(row)
    if measure == "precision":
        return m.precision(ranking, k, precision_denominator=row.choice("precision_denominator")).value
    if measure == "recall":
        return m.recall(ranking, k, recall_denominator=row.choice("recall_denominator")).value
    if measure == "ap":
        if ties == THRESHOLD and case.scores is not None:
            scores, grades = case.scores, case.grades
            if k is not None:  # scikit-learn has no cut-off: the top k documents by score, ties included
                kept = [i for i in case.order(INPUT)][:k]
                scores, grades = [case.scores[i] for i in kept], [case.grades[i] for i in kept]
            return threshold_average_precision(scores, [int(g >= case.threshold) for g in grades])
        return m.average_precision(ranking, k, ap_denominator=row.choice("ap_denominator")).value
    if measure == "rr":
        return m.reciprocal_rank(ranking, k).value
    if measure in ("ndcg", "dcg"):
        gain, discount = row.choice("gain"), row.choice("discount")
        if ties == AVERAGED and case.scores is not None:
            averaged = tie_averaged_dcg(case.scores, case.grades, k, gain, discount, log_base)
            if measure == "dcg":
                return averaged
            ideal = m.idcg(ranking, k, gain=gain, discount=discount, log_base=log_base).value
            if ideal == 0:
                return 0  # no relevant document: scikit-learn and torchmetrics report 0
            return exact.div(averaged, ideal)
        metric = m.ndcg if measure == "ndcg" else m.dcg
        return metric(ranking, k, gain=gain, discount=discount, gains=gains, log_base=log_base).value
    if measure == "f":
        return m.f_measure(ranking, k, options.beta, f_weight=row.choice("f_weight")).value
    if measure == "err":
        return m.expected_reciprocal_rank(ranking, k, max_grade=row.max_grade).value
    if measure == "11pt":
        return m.eleven_point_average(ranking, interpolation=row.choice("interpolation")).value
    if measure == "iprec":
        return m.interpolated_precision(ranking, recall_level, interpolation=row.choice("interpolation")).value
    raise ParameterError(f"unknown measure {measure!r}")


def _not_retrieved_below_zero(case: Case, measure: str) -> Case:
    """torchmetrics after PR #3160: a document scored <= 0 cannot be a hit (its label is masked to 0); for nDCG its
    score becomes -inf, so all of them tie at the bottom and share their mean gain, and the ideal keeps every label."""
    if measure == "ndcg":
        bottom = min(min(case.scores), 0) - 1
        return replace(case, scores=tuple(s if s > 0 else bottom for s in case.scores))
    return replace(case, grades=tuple(g if s > 0 else 0 for g, s in zip(case.grades, case.scores)))


def measure_name(name) -> str:
    if not isinstance(name, str):
        raise InputTypeError(f"a measure name such as 'ndcg', got {type(name).__name__}")
    key = name.strip().lower()
    key = ALIASES.get(key, key)
    if key not in TITLES:
        raise ParameterError(f"irlab conventions compares {', '.join(MEASURES)} (or all); got {name!r}")
    return key


# ------------------------------------------------------------------------------------------------
# the comparison, as a document


class Comparison(Displayable):
    """Every tool's value of one measure on one case, with the conventions that produce it and why it differs."""

    def __init__(self, measure, case, values, k=None, recall_level=None, judges=None, options: Options = Options()):
        self.measure, self.case, self.values = measure, case, values
        self.k, self.recall_level, self.judges, self.options = k, recall_level, judges, options

    @property
    def title(self) -> str:
        suffix = f"@{self.k}" if self.k is not None and self.measure not in ("11pt", "iprec", "kappa") else ""
        level = f" at recall {exact.exact_text(self.recall_level)}" if self.recall_level is not None else ""
        if self.measure == "f":
            level = f" with parameter {exact.exact_text(self.options.beta)}"
        return f"{TITLES[self.measure]}{suffix}{level}: why the libraries disagree"

    def table(self) -> Table:
        """Values side by side; each row names the conventions in which it departs from the reference row."""
        reference_row, reference = self.values[0]
        rows = []
        for row, value in self.values:
            same = "" if isinstance(value, NotComputed) or isinstance(reference, NotComputed) else \
                "=" if value == reference else "≠"
            if row is reference_row:
                choices = row.convention_text()
            else:
                changed = [(name, key) for name, key in row.conventions if reference_row.choice(name) != key]
                choices = ", ".join(f"{name}={key}" for name, key in changed) or "as the reference"
                if row.binary:
                    choices += " (grades read as relevant / not)"
                if row.max_grade is not None:
                    choices += f" (gmax = {row.max_grade})"
            rows.append((row.tool.name, value, same, choices))
        return Table(("tool", "value", "vs ref.", "irlab conventions"), tuple(rows),
                     f"Reference row: {reference_row.tool.name}")

    def option_notes(self) -> list:
        """Which tools take the gain table or the log base the user gave, and which cannot."""
        notes = []
        options = self.options
        for text, what, takes in (
                (options.gains and f"gain table {_gains_text(options.gains)}", "the gain table",
                 lambda row: options.gains_for(row) is not None),
                (options.log_base != 2 and f"log base {options.log_base}", "the log base",
                 lambda row: options.log_base_for(row) != 2)):
            if not text:
                continue
            taking = [row.tool.name for row, _ in self.values if takes(row)]
            notes.append(Note("reading", f"{text}: taken by {', '.join(taking) or 'no tool here'}; the other tools "
                                         f"cannot take {what} and keep their own."))
        if self.measure == "f":
            notes.append(Note("reading", f"The parameter {exact.exact_text(self.options.beta)} is β for IIR and "
                                         "scikit-learn, but the weight β² for trec_eval's set_F and ir_measures' SetF."))
        return notes

    def reasons(self) -> Table:
        return Table(("tool", "why it differs from the reference row"),
                     tuple((row.tool.name, row.why) for row, _ in self.values[1:]))

    def blocks(self) -> list:
        if self.measure == "kappa":
            blocks = [Paragraph(f"Judge 1: {','.join(map(str, self.judges[0]))}; judge 2: "
                                f"{','.join(map(str, self.judges[1]))}")]
        elif self.measure in PAIRED:
            x, y = (", ".join(_score_text(v) for v in column) for column in self.judges)
            blocks = [Paragraph(f"x: {x}; y: {y} (paired by position).")]
            tied = [name for name, column in zip("xy", self.judges) if len(set(column)) < len(column)]
            if tied:
                blocks.append(Note("reading", f"{' and '.join(tied)} {'has' if len(tied) == 1 else 'have'} tied values: "
                                              "this is where the definitions part."))
        else:
            blocks = [Paragraph(f"Input: {self.case.describe()}.")]
            if self.case.has_ties:
                blocks.append(Note("reading", self.case.ties_text()))
            if sum(1 for g in self.case.grades + self.case.unretrieved if g >= self.case.threshold) == 0 \
                    and not self.case.relevant:
                blocks.append(Note("warning", EMPTY_QUERY_NOTE))
        blocks += self.option_notes()
        blocks += [self.table(), self.reasons()]
        used = {name for row, _ in self.values for name, _ in row.conventions}
        for name in sorted(used):
            convention = _convention(name)
            keys = "; ".join(f"{c.key}: {c.formula} ({c.reference})" for c in convention.choices)
            blocks.append(Note("convention", f"{name} — {convention.question} {keys}"))
        sources = {}
        for row, _ in self.values:
            sources.setdefault(row.tool.reference, None)
        blocks.append(Paragraph("Sources: " + " · ".join(sources)))
        return blocks

    def meta(self) -> dict:
        return {
            "measure": self.measure,
            "k": self.k,
            "options": {"gains": _gains_text(self.options.gains) if self.options.gains else None,
                        "log_base": self.options.log_base, "beta": exact.exact_text(self.options.beta)},
            "rows": [{"tool": row.tool.name, **({"value": None, "decimal": None, "not_computed": str(value)}
                                                 if isinstance(value, NotComputed) else
                                                 {"value": exact.exact_text(value), "decimal": exact.to_float(value)}),
                      "conventions": dict(row.conventions), "why": row.why} for row, value in self.values],
        }

    def document(self) -> Document:
        return Document(self.title, self.blocks(), self.meta())

    def render(self, fmt: str = "text", **options) -> str:
        return self.document().render(fmt, **options)


def _integer_gains(gains) -> bool:
    return all(exact.rational(gain) == int(gain) for gain in gains.values())


def _gains_text(gains) -> str:
    return ",".join(f"{grade}={exact.exact_text(gain)}" for grade, gain in sorted(gains.items()))


def explore(measure, case: Case | None = None, k=None, recall_level=None, judges=None, gains=None, log_base=None,
            beta=None) -> Comparison:
    """Every tool's value of ``measure`` on ``case`` (or, for kappa, on two judges' columns).

    >>> comparison = explore("map", Case.from_ranking(Ranking.parse("RNNRR", relevant=5)))
    >>> [(row.tool.name, value) for row, value in comparison.values][4:6]
    [('scikit-learn', Fraction(7, 10)), ('torchmetrics', Fraction(7, 10))]
    """
    measure = measure_name(measure)
    k = check_cutoff(k)
    if measure == "iprec":
        if recall_level is None:
            raise ParameterError("iprec needs a recall level (--recall-level 0.7)")
        recall_level = check_fraction(recall_level, "recall level")
    if measure == "kappa":
        if judges is None or len(judges) != 2:
            raise ParameterError("kappa compares two judges: give --judge1 and --judge2 (0/1 columns)")
        judges = (parse_judgments(judges[0], "judge 1"), parse_judgments(judges[1], "judge 2"))
    elif measure in PAIRED:
        if judges is None or len(judges) != 2:
            raise ParameterError(f"{measure} compares two score lists of the same items: give --x and --y")
        judges = (_scores(judges[0]), _scores(judges[1]))
        if len(judges[0]) != len(judges[1]):
            raise RankingError(f"x has {len(judges[0])} values and y {len(judges[1])}: give one pair per item")
    elif not isinstance(case, Case):
        raise InputTypeError(f"explore needs a Case (Case.from_scores or Case.from_ranking), got {type(case).__name__}")
    options = _options(measure, gains, log_base, beta)
    values = [(row, _value_or_reason(measure, row, case, k, recall_level, judges, options)) for row in ROWS[measure]]
    return Comparison(measure, case, values, k, recall_level, judges, options)


class NotComputed(str):
    """A row irlab cannot compute on this case (a bound of irlab.limits), shown in its place with the reason."""


def _value_or_reason(measure, row, case, k, recall_level, judges, options):
    """The row's value, or why irlab does not compute it here: a grade above the exponential gain's bound, or above
    a tool's fixed grade scale, stops only the rows concerned, not the whole comparison (the user's own options are
    checked before any row)."""
    try:
        return row_value(measure, row, case, k, recall_level, judges, options)
    except LimitError as error:
        if "exponential" in str(error):  # the one bound a row's conventions can meet on a case the others take
            return NotComputed(f"not computed: 2^g of a grade above {MAX_GRADE} (irlab's bound)")
        return NotComputed(f"not computed: {error}")
    except ParameterError as error:  # a row's own fixed choice the case exceeds (a tool's grade scale gmax = 4)
        return NotComputed(f"not computed: {error}")


def _options(measure, gains, log_base, beta) -> Options:
    if gains is not None and measure not in ("ndcg", "dcg"):
        raise ParameterError(f"a gain table applies to ndcg and dcg, not {measure}")
    if log_base is not None and measure not in ("ndcg", "dcg"):
        raise ParameterError(f"a log base applies to ndcg and dcg, not {measure}")
    if beta is not None and measure != "f":
        raise ParameterError(f"beta applies to f, not {measure}")
    beta = 1 if beta is None else check_fraction(beta, "beta", 0, MAX_BETA, low_open=True)
    return Options(parse_gains(gains) or None, check_log_base(log_base), beta)


class Comparisons(Displayable):
    """Several comparisons on one case (``irlab conventions all``)."""

    def __init__(self, title, comparisons, notes=()):
        self.title, self.comparisons, self.notes = title, list(comparisons), list(notes)

    def document(self) -> Document:
        sections = [Section(c.title, tuple(c.blocks()), c.meta()) for c in self.comparisons]
        return Document(self.title, self.notes + sections, {"measures": [c.meta() for c in self.comparisons]})

    def render(self, fmt: str = "text", **options) -> str:
        return self.document().render(fmt, **options)


def topic_case(qrels, run, topic=None, threshold=1) -> tuple[Case, str]:
    """One topic of TREC files as a Case: the run's scores in file order, grades from the qrels (unjudged = 0)."""
    from .trec.evaluate import read_qrels, read_run  # deferred: irlab.trec loads numpy; only TREC files need it

    qrels_data, run_data = read_qrels(qrels), read_run(run)
    topics = [t.decode("utf-8", "surrogateescape") for t in run_data.topics.tolist()]
    if topic is None:
        if not topics:
            raise RankingError(f"{run} holds no topic")
        topic = topics[0]
    if topic not in topics:
        raise RankingError(f"topic {topic!r} is not in {run} (its topics: {', '.join(topics[:5])}"
                           f"{', …' if len(topics) > 5 else ''})")
    import numpy as np  # deferred: numpy is heavy; only TREC files need it

    rows = np.flatnonzero(run_data.topic_idx == topics.index(topic))
    docnos = [d.decode("utf-8", "surrogateescape") for d in run_data.docno[rows].tolist()]
    scores = [float(s) for s in run_data.score[rows].tolist()]
    judged = {}
    qtopics = [t.decode("utf-8", "surrogateescape") for t in qrels_data.topics.tolist()]
    if topic in qtopics:
        qrows = np.flatnonzero(qrels_data.topic_idx == qtopics.index(topic))
        judged = {d.decode("utf-8", "surrogateescape"): int(g)
                  for d, g in zip(qrels_data.docno[qrows].tolist(), qrels_data.grade[qrows].tolist())}
    grades = [max(judged.get(d, 0), 0) for d in docnos]
    retrieved = set(docnos)
    unretrieved = tuple(sorted((g for d, g in judged.items() if d not in retrieved and g > 0), reverse=True))
    case = Case(tuple(grades), tuple(exact.rational(Fraction(repr(s))) for s in scores), tuple(docnos), unretrieved, None,
                threshold)
    return case, topic


def explore_all(case: Case, k=None, title="Every measure: why the libraries disagree", notes=()) -> Comparisons:
    comparisons = [explore(measure, case, None if measure == "11pt" else k) for measure in RANKED_MEASURES]
    return Comparisons(title, comparisons, notes)
