"""Every metric irlab explains, declared once: name, formula, parameters, conventions, reference.

The declarations drive ``irlab metrics`` (the list), ``irlab explain`` (the options) and the docs.
"""

from __future__ import annotations

from dataclasses import replace

from .. import conventions as conv
from ..errors import InputTypeError, ParameterError
from ..metric import Metric, Parameter, declare_formulas
from .agreement import cohen_kappa
from .average_precision import average_precision
from .dcg import cumulative_gain, dcg, idcg, ndcg
from .err import expected_reciprocal_rank, normalized_err
from .interpolation import eleven_point_average, interpolated_precision, precision_at_recall, precision_recall_points
from .empty import scoring_empty
from .mean import mean_over_queries
from .pairs import TF_RANKING, arp, mean_over_lists, opa
from .r_precision import r_precision
from .rank_correlation import kendall_tau, kendall_tau_distance, spearman_rho, spearman_rho_scores
from .reciprocal_rank import reciprocal_rank
from .set_based import f_measure, hits, precision, recall, success
from .significance import bootstrap_interval, permutation_test, sign_test, t_test, wilcoxon_test
from .counts import Counts, accuracy, break_even, e_measure, fallout, kappa_from_table
from .fleiss import fleiss_kappa, pairwise_kappa
from .weighted_kappa import cohen_kappa_categories, weighted_kappa
from .bpref import bpref
from .infap import infap
from .gmap import gmap
from .interpolation import k_point_average, three_point_average
from .rbp import rank_biased_precision
from .cwl import inst, insq, sdcg, user_model
from .auc import roc_auc
from .qmeasure import REFERENCE as Q_REFERENCE, q_measure
from .diversity import (CHAPELLE, CLARKE, IntentRanking, alpha_dcg, alpha_ndcg, err_ia, intent_mean, nerr_ia,
                        precision_ia, subtopic_recall)

K = Parameter("k", "int", "cut-off: only the first k ranks count")
BETA = Parameter("beta", "number", "weight of recall against precision (F1 for beta = 1)", 1)
RECALL_LEVEL = Parameter("recall_level", "number", "recall level r in [0, 1], e.g. 0.25 or 25%")
MAX_GRADE = Parameter("max_grade", "int", "top of the grade scale gmax (default: highest judged grade)")
GAINS = Parameter("gains", "gain-table", "a gain per grade, '1=1,2=5' (trec_eval ndcg.l=g); other grades follow --gain")
ERR_GAINS = Parameter("gains", "gain-table", "err/nerr with --err-probability ntcireval: a gain per grade, '1=1,2=3' "
                      "(default gain = grade, NTCIREVAL's 1, 2, 3)")
LOG_BASE = Parameter("log_base", "int", "base of the discount's logarithm (scikit-learn dcg_score log_base)", 2)

METRICS = (
    Metric("precision", "Precision (P@k with --k)", "P@k = hits@k / k", r"P@k = \frac{\mathrm{hits}@k}{k}",
           precision, "IIR 8.3-8.4; trec_eval P_k", parameters=(K,),
           conventions=(conv.PRECISION_DENOMINATOR, conv.TIES)),
    Metric("recall", "Recall (Rec@k with --k)", "Rec@k = hits@k / R", r"\mathrm{Rec}@k = \frac{\mathrm{hits}@k}{R}",
           recall, "IIR 8.3; trec_eval recall_k", parameters=(K,),
           conventions=(conv.RECALL_DENOMINATOR,)),
    Metric("f", "F-measure (F1 by default)", "F_β = (1 + β²) · P · Rec / (β² · P + Rec)",
           r"F_\beta = \frac{(1+\beta^2)\, P \cdot \mathrm{Rec}}{\beta^2 P + \mathrm{Rec}}", f_measure, "IIR 8.3 (eq. 8.5); van Rijsbergen 1979",
           parameters=(K, BETA), conventions=(conv.PRECISION_DENOMINATOR, conv.RECALL_DENOMINATOR, conv.F_WEIGHT),
           aliases=("f1",)),
    Metric("hits", "Hits: relevant documents retrieved", "hits@k = Σ_{i<=k} rel_i", r"\mathrm{hits}@k = \sum_{i=1}^{k} rel_i",
           hits, "IIR 8.3 (relevant retrieved); ranx hits", parameters=(K,)),
    Metric("success", "Success (hit rate, hit@k)", "success@k = [hits@k > 0]", r"\mathrm{success}@k = [\mathrm{hits}@k > 0]",
           success, "trec_eval success_k; ranx hit_rate", parameters=(K,), aliases=("hit",)),
    Metric("rprec", "R-precision", "R-prec = hits@R / R", r"\mathrm{R\text{-}prec} = \frac{\mathrm{hits}@R}{R}",
           r_precision, "IIR 8.4; trec_eval Rprec", aliases=("r-precision",)),
    Metric("rr", "Reciprocal rank (mean: MRR)", "RR@k = 1 / rank of the first relevant document",
           r"\mathrm{RR}@k = \frac{1}{\mathrm{rank}_1}", reciprocal_rank, "Voorhees 1999 (TREC-8 QA track); trec_eval recip_rank",
           parameters=(K,), conventions=(conv.TIES,), aliases=("mrr",), averaged_as="MRR"),
    Metric("ap", "Average precision (mean: MAP)", "AP@k = (1 / D) · Σ_{i<=k} rel_i · P@i",
           r"\mathrm{AP}@k = \frac{1}{D} \sum_{i=1}^{k} rel_i \cdot P@i", average_precision,
           "IIR 8.4; trec_eval map", parameters=(K,), conventions=(conv.AP_DENOMINATOR, conv.TIES),
           aliases=("map",), averaged_as="MAP"),
    Metric("prec-at-recall", "Precision at a recall level (non-interpolated)",
           "P(r) = P@k at the first rank k with Rec@k >= r", r"P(r) = P@k,\ k = \min\{k : \mathrm{Rec}@k \ge r\}",
           precision_at_recall, "IIR 8.4", parameters=(RECALL_LEVEL,)),
    Metric("iprec", "Interpolated precision at a recall level", "p_interp(r) = max_{r' >= r} p(r')",
           r"p_{\mathrm{interp}}(r) = \max_{r' \ge r} p(r')", interpolated_precision,
           "IIR 8.4 (eq. 8.7); trec_eval iprec_at_recall", parameters=(RECALL_LEVEL,),
           conventions=(conv.INTERPOLATION,)),
    Metric("11pt", "11-point interpolated average precision", "11pt = (1/11) · Σ_{r=0,0.1..1} p_interp(r)",
           r"\mathrm{11pt} = \frac{1}{11} \sum_{r \in \{0, 0.1, \dots, 1\}} p_{\mathrm{interp}}(r)", eleven_point_average,
           "IIR 8.4; trec_eval 11pt_avg", conventions=(conv.INTERPOLATION,)),
    Metric("cg", "Cumulative gain", "CG@k = Σ_{i<=k} g_i", r"\mathrm{CG}@k = \sum_{i=1}^{k} g_i", cumulative_gain,
           "Järvelin & Kekäläinen 2002", parameters=(K,)),
    Metric("dcg", "Discounted cumulative gain", "DCG@k = Σ_{i<=k} gain(g_i) · discount(i)",
           r"\mathrm{DCG}@k = \sum_{i=1}^{k} \mathrm{gain}(g_i)\,\mathrm{discount}(i)", dcg,
           "Järvelin & Kekäläinen 2002; Burges et al. 2005; IIR 8.4", parameters=(K, GAINS, LOG_BASE),
           conventions=(conv.GAIN, conv.DISCOUNT, conv.TIES)),
    Metric("idcg", "Ideal DCG (all judged grades, best first)", "IDCG@k = DCG@k of the ideal ranking",
           r"\mathrm{IDCG}@k = \mathrm{DCG}@k(\text{ideal ranking})", idcg, "Järvelin & Kekäläinen 2002; IIR 8.4",
           parameters=(K, GAINS, LOG_BASE), conventions=(conv.GAIN, conv.DISCOUNT)),
    Metric("ndcg", "Normalised DCG", "nDCG@k = DCG@k / IDCG@k", r"\mathrm{nDCG}@k = \frac{\mathrm{DCG}@k}{\mathrm{IDCG}@k}",
           ndcg, "Järvelin & Kekäläinen 2002; IIR 8.4; trec_eval ndcg, ndcg_cut", parameters=(K, GAINS, LOG_BASE),
           conventions=(conv.GAIN, conv.DISCOUNT, conv.TIES)),
    Metric("err", "Expected reciprocal rank", "ERR@k = Σ_{j<=k} Π_{i<j} (1 - Pr(i)) · Pr(j) / j, Pr(j) = (2^g_j - 1) / 2^gmax",
           r"\mathrm{ERR}@k = \sum_{j=1}^{k} \frac{\prod_{i<j}(1-\Pr(i)) \Pr(j)}{j}", expected_reciprocal_rank,
           "Chapelle et al. 2009", parameters=(K, MAX_GRADE, ERR_GAINS),
           conventions=(conv.ERR_PROBABILITY,)),
    Metric("nerr", "Normalised ERR", "nERR@k = ERR@k / ERR*@k", r"\mathrm{nERR}@k = \frac{\mathrm{ERR}@k}{\mathrm{ERR}^*@k}",
           normalized_err, "Chapelle et al. 2009 (normalised by the ideal ranking)",
           parameters=(K, MAX_GRADE, ERR_GAINS), conventions=(conv.ERR_PROBABILITY,)),
    Metric("kappa", "Cohen's kappa for two judges", "κ = (P(A) - P(E)) / (1 - P(E))",
           r"\kappa = \frac{P(A) - P(E)}{1 - P(E)}", cohen_kappa, "IIR 8.5; Cohen 1960; Scott 1955",
           inputs="judges", conventions=(conv.KAPPA_MARGINALS,)),
    Metric("kendall", "Normalised Kendall tau distance", "K_n = K_d / (n(n-1)/2)", r"K_n = \frac{K_d}{n(n-1)/2}",
           kendall_tau_distance, "Kendall 1938", inputs="rankings-of-ids", parameters=(K,)),
    Metric("spearman", "Spearman's rank correlation", "ρ = 1 - 6 Σ d_i² / (n(n² - 1))",
           r"\rho = 1 - \frac{6 \sum_i d_i^2}{n(n^2-1)}", spearman_rho, "Spearman 1904", inputs="rankings-of-ids"),
    Metric("kendall-tau", "Kendall's tau of two score lists, ties allowed (tau-b; tau-a, tau-c)",
           "τ_b = (C - D) / √((n_0 - n_1)(n_0 - n_2))", r"\tau_b = \frac{C - D}{\sqrt{(n_0 - n_1)(n_0 - n_2)}}", kendall_tau,
           "Kendall 1938, 1945; Stuart 1953; scipy.stats.kendalltau", inputs="paired-values",
           conventions=(conv.TAU_VARIANT,), aliases=("tau",)),
    Metric("spearman-scores", "Spearman's rho of two score lists, ties as mid-ranks",
           "ρ = Σ (r_i - r_mean)(s_i - r_mean) / √(Σ (r_i - r_mean)² · Σ (s_i - r_mean)²), r and s the mid-ranks",
           r"\rho = \frac{\sum_i (r_i - \bar r)(s_i - \bar r)}{\sqrt{\sum_i (r_i - \bar r)^2 \sum_i (s_i - \bar r)^2}}",
           spearman_rho_scores, "Spearman 1904; scipy.stats.spearmanr", inputs="paired-values"),
)

# set retrieval from the contingency table (a ranking's top k, or counts: --counts tp=20,fp=40,fn=60,tn=880)
METRICS += (
    Metric("set-accuracy", "Accuracy of set retrieval (tp + tn) / N", "accuracy = (tp + tn) / (tp + fp + fn + tn)",
           r"\mathrm{accuracy} = \frac{tp + tn}{tp + fp + fn + tn}", accuracy, "IIR 8.3", parameters=(K,),
           aliases=("accuracy",)),
    Metric("fallout", "Fall-out: share of the non-relevant documents retrieved", "fallout = fp / (fp + tn)",
           r"\mathrm{fallout} = \frac{fp}{fp + tn}", fallout, "Salton & McGill 1983; IIR 8.4 (ROC: 1 - specificity)",
           parameters=(K,), aliases=("fall-out",)),
    Metric("e-measure", "van Rijsbergen's E-measure E = 1 - F", "E_β = 1 - (1 + β²) · P · Rec / (β² · P + Rec)",
           r"E_\beta = 1 - \frac{(1+\beta^2)\, P \cdot \mathrm{Rec}}{\beta^2 P + \mathrm{Rec}}", e_measure,
           "van Rijsbergen 1979, ch. 7; IIR 8.3", parameters=(K, BETA), aliases=("e",)),
    Metric("break-even", "Precision/recall break-even point (= R-precision)", "BEP = P@k at the k where P@k = Rec@k, i.e. k = R",
           r"\mathrm{BEP} = P@R = \mathrm{Rec}@R", break_even, "IIR 8.4", aliases=("bep",)),
)

# agreement among more than two judges (--judges '1,1,0; 1,0,0; 1,1,1', one column per judge)
METRICS += (
    Metric("fleiss", "Fleiss' kappa for two or more judges", "κ = (P_avg - P_e) / (1 - P_e), P_e = Σ_j p_j²",
           r"\kappa = \frac{\bar P - P_e}{1 - P_e},\ P_e = \sum_j p_j^2", fleiss_kappa, "Fleiss 1971; IIR 8.5",
           inputs="many-judges", aliases=("fleiss-kappa",)),
    Metric("pairwise-kappa", "Average pairwise kappa (IIR 8.5)", "κ_avg = mean of Cohen's κ over every pair of judges",
           r"\kappa_{\mathrm{avg}} = \binom{n}{2}^{-1} \sum_{a<b} \kappa_{ab}", pairwise_kappa, "IIR 8.5; Cohen 1960",
           inputs="many-judges", conventions=(conv.KAPPA_MARGINALS,)),
)

# two judges, k categories (--judge1 0,2,1 --judge2 0,1,1): grades or labels; weighted kappa for grades
WEIGHTS = Parameter("weights", "choice", "weighted-kappa: disagreement weights, linear (grade distance / (k - 1)) or "
                    "quadratic (its square)", "quadratic")
METRICS += (
    Metric("cohen-kappa", "Cohen's kappa of two judges over k categories (grades or labels)",
           "κ = (P(A) - P(E)) / (1 - P(E)), P(E) = Σ_i n_1(i) · n_2(i) / n²",
           r"\kappa = \frac{P(A) - P(E)}{1 - P(E)},\ P(E) = \sum_i \frac{n_1(i)\, n_2(i)}{n^2}", cohen_kappa_categories,
           "Cohen 1960; scikit-learn cohen_kappa_score", inputs="judges"),
    Metric("weighted-kappa", "Weighted kappa of two judges' grades (linear or quadratic weights)",
           "κ_w = 1 - Σ w_ij · O_ij / Σ w_ij · E_ij, E_ij = n_1(i) · n_2(j) / n",
           r"\kappa_w = 1 - \frac{\sum_{ij} w_{ij} O_{ij}}{\sum_{ij} w_{ij} E_{ij}},\ E_{ij} = \frac{n_1(i)\, n_2(j)}{n}",
           weighted_kappa, "Cohen 1968; Fleiss & Cohen 1973; scikit-learn cohen_kappa_score(weights=…, labels=every grade)",
           inputs="judges", parameters=(WEIGHTS,)),
)

LEVELS = Parameter("levels", "levels", "kpt: the recall levels whose interpolated precisions are averaged",
                   "0.2, 0.5, 0.8")
PERSISTENCE = Parameter("persistence", "number", "RBP: probability p that the user reads on to the next rank", "9/10")


def _gmap_of_queries(*rankings, **options):
    return gmap(rankings, **options)


# incomplete judgments (U in an R/N string), user models and other averages
METRICS += (
    Metric("bpref", "bpref: judged documents only", "bpref = (1/R) · Σ_{relevant r} (1 - min(n_r, R) / min(R, N))",
           r"\mathrm{bpref} = \frac{1}{R} \sum_{r} \left(1 - \frac{\min(n_r, R)}{\min(R, N)}\right)", bpref,
           "Buckley & Voorhees 2004; trec_eval bpref"),
    Metric("infap", "Inferred AP: AP estimated from a judged random sample of the pool",
           "infAP = (1/R) · Σ_{judged relevant k} E[P@k], E[P@1] = 1, E[P@k] = 1/k + ((k-1)/k) · (d_k/(k-1)) · "
           "(r_k + eps)/(r_k + n_k + 2 eps) for k > 1",
           r"\mathrm{infAP} = \frac{1}{R} \sum_{k\ \text{judged relevant}} E[P@k], \quad E[P@1] = 1, \quad "
           r"E[P@k] = \frac{1}{k} + \frac{k-1}{k} \cdot \frac{d_k}{k-1} \cdot "
           r"\frac{r_k + \mathrm{eps}}{r_k + n_k + 2\,\mathrm{eps}} \ (k > 1)", infap,
           "Yilmaz & Aslam 2006; trec_eval infAP"),
    Metric("rbp", "Rank-biased precision (with its residual)", "RBP = (1 - p) · Σ_i r_i · p^(i-1)",
           r"\mathrm{RBP} = (1 - p) \sum_i r_i\, p^{i-1}", rank_biased_precision,
           "Moffat & Zobel 2008; trec_eval rbp", parameters=(PERSISTENCE,)),
    Metric("3pt", "3-point interpolated average precision (recall 0.2, 0.5, 0.8)",
           "3pt = (1/3) · Σ_{r in {0.2, 0.5, 0.8}} p_interp(r)",
           r"\mathrm{3pt} = \frac{1}{3} \sum_{r \in \{0.2, 0.5, 0.8\}} p_{\mathrm{interp}}(r)", three_point_average,
           "Salton & McGill 1983; IIR 8.4", conventions=(conv.INTERPOLATION,)),
    Metric("kpt", "k-point interpolated average precision at chosen recall levels",
           "kpt = (1/k) · Σ_{r in levels} p_interp(r)",
           r"\mathrm{kpt} = \frac{1}{k} \sum_{r \in \mathrm{levels}} p_{\mathrm{interp}}(r)", k_point_average,
           "Salton & McGill 1983; IIR 8.4", parameters=(LEVELS,), conventions=(conv.INTERPOLATION,)),
    Metric("gmap", "Geometric mean of AP over the queries", "GMAP = (Π_q max(AP_q, 0.00001))^(1/n)",
           r"\mathrm{GMAP} = \left(\prod_q \max(\mathrm{AP}_q, 10^{-5})\right)^{1/n}", _gmap_of_queries,
           "Robertson 2006; trec_eval gm_map", inputs="queries", conventions=(conv.GMAP_FLOOR, conv.AP_DENOMINATOR)),
)

# ROC AUC of a ranking: the share of (relevant, non-relevant) retrieved pairs in the right order
METRICS += (
    Metric("auc", "ROC AUC of a ranking: the share of (relevant, non-relevant) pairs in the right order",
           "AUC = C / (n_R · n_N), C = Σ_{relevant r} #(non-relevant ranked below r)",
           r"\mathrm{AUC} = \frac{C}{n_R \cdot n_N},\ C = \sum_{r\ \text{relevant}} \#\{\text{non-relevant below } r\}",
           roc_auc, "Bamber 1975; Hanley & McNeil 1982; Fawcett 2006 §7; scikit-learn roc_auc_score",
           aliases=("roc-auc",)),
)

# TF-Ranking's list metrics over graded labels (ties of scores as TF-Ranking counts them)
METRICS += (
    Metric("arp", "Average relevance position (ARP; lower is better)", "ARP = Σ_i rank_i · y_i / Σ_i y_i",
           r"\mathrm{ARP} = \frac{\sum_i \mathrm{rank}_i\, y_i}{\sum_i y_i}", arp, TF_RANKING.format("ARPMetric"),
           conventions=(conv.LIST_MEAN,)),
    Metric("opa", "Ordered-pair accuracy: pairs with different labels in the right order",
           "OPA = Σ_{i,j} I[s_i > s_j] · I[y_i > y_j] / Σ_{i,j} I[y_i > y_j]",
           r"\mathrm{OPA} = \frac{\sum_{i,j} I[s_i > s_j]\, I[y_i > y_j]}{\sum_{i,j} I[y_i > y_j]}", opa,
           TF_RANKING.format("OPAMetric"), conventions=(conv.LIST_MEAN,)),
)

# graded AP: Sakai's Q-measure, the blended ratio of precision and cumulative gain at the relevant ranks
Q_BETA = Parameter("beta", "number", "q-measure: weight of the gain in the blended ratio (0 gives AP)", 1)
Q_GAINS = Parameter("gains", "gain-table", "q-measure: a gain per relevant grade, '1=1,2=2,3=3' (default: gain = grade, "
                    "NTCIREVAL's 1, 2, 3 for L1, L2, L3)")
METRICS += (
    Metric("q-measure", "Sakai's Q-measure: graded AP through the blended ratio",
           "Q = (1/R) · Σ_{relevant r} (C(r) + β · cg(r)) / (r + β · cg*(r))",
           r"Q = \frac{1}{R} \sum_{r\ \text{relevant}} \frac{C(r) + \beta\, cg(r)}{r + \beta\, cg^*(r)}", q_measure,
           Q_REFERENCE + "; NTCIREVAL Q-measure", parameters=(K, Q_BETA, Q_GAINS), aliases=("q", "qmeasure")),
)

# C/W/L user models: a continuation C(i) after each rank, weights W(i), the expected rate of gain
TARGET = Parameter("target", "number", "inst/insq: T, the amount of gain the user wants (cwl-eval's T)", 1)
MAX_DEPTH = Parameter("max_depth", "int", "inst/insq/sdcg (and --user-model): n, the ranks read; beyond the list gain 0 "
                      "(cwl-eval --max_depth)", 1000)
SDCG_K = Parameter("k", "int", "sdcg: the ranks the discount 1/log2(i+1) is spread over (default: the list's length)")
METRICS += (
    Metric("inst", "INST: adaptive C/W/L user model with target T (expected rate of gain)",
           "INST = Σ_i W(i) · r_i, W(i) = Π_{j<i} C(j) / Σ_{k<=n} Π_{j<k} C(j), "
           "C(i) = ((i + T + T_i - 1) / (i + T + T_i))², T_i = T - Σ_{j<=i} r_j",
           r"\mathrm{INST} = \sum_{i=1}^{n} W(i)\, r_i,\ W(i) = \frac{\prod_{j<i} C(j)}{\sum_{k=1}^{n} \prod_{j<k} C(j)},\ "
           r"C(i) = \left(\frac{i + T + T_i - 1}{i + T + T_i}\right)^2,\ T_i = T - \sum_{j \le i} r_j", inst,
           "Moffat, Bailey, Scholer & Thomas 2015 (ADCS), 2017 (TOIS 35(3)); Azzopardi, Thomas & Moffat 2019; "
           "cwl-eval INST", parameters=(TARGET, MAX_DEPTH)),
    Metric("insq", "INSQ: C/W/L user model with target T (expected rate of gain)",
           "INSQ = Σ_i W(i) · r_i, W(i) = Π_{j<i} C(j) / Σ_{k<=n} Π_{j<k} C(j), C(i) = ((i + 2T - 1) / (i + 2T))²",
           r"\mathrm{INSQ} = \sum_{i=1}^{n} W(i)\, r_i,\ W(i) = \frac{\prod_{j<i} C(j)}{\sum_{k=1}^{n} \prod_{j<k} C(j)},\ "
           r"C(i) = \left(\frac{i + 2T - 1}{i + 2T}\right)^2", insq,
           "Moffat, Scholer & Thomas 2012 (ADCS); Moffat, Bailey, Scholer & Thomas 2017; Azzopardi, Thomas & Moffat "
           "2019; cwl-eval INSQ", parameters=(TARGET, MAX_DEPTH)),
    Metric("sdcg", "Scaled DCG@k: DCG with gains in [0, 1] over its largest value (C/W/L expected rate of gain)",
           "SDCG@k = Σ_{i<=k} r_i / log2(i+1) / Σ_{i<=k} 1 / log2(i+1) = Σ_i W(i) · r_i, "
           "C(i) = log2(i+1) / log2(i+2) for i < k, C(k) = 0",
           r"\mathrm{SDCG}@k = \frac{\sum_{i=1}^{k} r_i / \log_2(i+1)}{\sum_{i=1}^{k} 1 / \log_2(i+1)} = \sum_i W(i)\, r_i",
           sdcg, "Moffat, Bailey, Scholer & Thomas 2017 (TOIS 35(3)); Järvelin & Kekäläinen 2002; "
           "cwl-eval NDCGCWLMetric (SDCG-k@k)", parameters=(SDCG_K, MAX_DEPTH), aliases=("scaled-dcg",)),
)

# novelty and diversity: a ranking judged per subtopic ('1+2 - 2 ?', --unretrieved '3 1+4'), gains Σ_s (1-α)^c_s
ALPHA = Parameter("alpha", "number", "diversity: α, the chance a relevant document satisfies the user's interest in "
                  "its subtopic; a subtopic seen c times gains (1-α)^c (0 < α <= 1, ndeval's default 1/2)", "1/2")
DIV_NORM = (conv.DIVERSITY_NORMALISATION,)
METRICS += (
    Metric("alpha-ndcg", "α-nDCG: novelty- and diversity-aware nDCG over the greedy ideal ranking",
           "α-nDCG@k = α-DCG@k / α-DCG@k(greedy ideal), α-DCG@k = Σ_{i<=k} Σ_s (1-α)^c_s(i) / log2(i+1)",
           r"\alpha\text{-nDCG}@k = \frac{\alpha\text{-DCG}@k}{\alpha\text{-DCG}^*@k},\ "
           r"\alpha\text{-DCG}@k = \sum_{i=1}^{k} \frac{\sum_{s} (1-\alpha)^{c_s(i)}}{\log_2(i+1)}", alpha_ndcg,
           CLARKE + "; ndeval alpha-nDCG@k", inputs="intents", parameters=(K, ALPHA), aliases=("a-ndcg",)),
    Metric("alpha-dcg", "α-DCG: novelty-biased DCG (ndeval divides it by an ideal-ideal list)",
           "α-DCG@k = Σ_{i<=k} g_i / log2(i+1), g_i = Σ_{s ∈ d_i} (1-α)^c_s(i)",
           r"\alpha\text{-DCG}@k = \sum_{i=1}^{k} \frac{g_i}{\log_2(i+1)},\ g_i = \sum_{s \in d_i} (1-\alpha)^{c_s(i)}",
           alpha_dcg, CLARKE + "; ndeval alpha-DCG@k; graded per-subtopic labels ('1:2'): TF-Ranking AlphaDCGMetric",
           inputs="intents", parameters=(K, ALPHA), conventions=DIV_NORM),
    Metric("err-ia", "ERR-IA: intent-aware expected reciprocal rank (uniform intents, satisfaction α)",
           "ERR-IA@k = (α / S) · Σ_{i<=k} g_i / i, g_i = Σ_{s ∈ d_i} (1-α)^c_s(i)",
           r"\mathrm{ERR\text{-}IA}@k = \frac{\alpha}{S} \sum_{i=1}^{k} \frac{g_i}{i},\ g_i = \sum_{s \in d_i} (1-\alpha)^{c_s(i)}",
           err_ia, CHAPELLE + "; ndeval ERR-IA@k", inputs="intents", parameters=(K, ALPHA), conventions=DIV_NORM),
    Metric("nerr-ia", "nERR-IA: ERR-IA over that of the greedy ideal ranking",
           "nERR-IA@k = Σ_{i<=k} g_i / i / Σ_{i<=k} g*_i / i",
           r"\mathrm{nERR\text{-}IA}@k = \frac{\sum_{i=1}^{k} g_i / i}{\sum_{i=1}^{k} g^*_i / i}", nerr_ia,
           CHAPELLE + "; ndeval nERR-IA@k", inputs="intents", parameters=(K, ALPHA)),
    Metric("strec", "Subtopic recall: the share of the subtopics covered by the top k",
           "strec@k = |∪_{i<=k} subtopics(d_i)| / S", r"\mathrm{strec}@k = \frac{|\{s : s \in d_i,\ i \le k\}|}{S}",
           subtopic_recall, "Zhai, Cohen & Lafferty 2003 (SIGIR); ndeval strec@k", inputs="intents", parameters=(K,),
           aliases=("s-recall", "subtopic-recall")),
    Metric("p-ia", "Intent-aware precision: P@k averaged over the subtopics (uniform intents)",
           "P-IA@k = Σ_{i<=k} |subtopics(d_i)| / (k · S)", r"\mathrm{P\text{-}IA}@k = \frac{\sum_{i=1}^{k} |s(d_i)|}{k \cdot S}",
           precision_ia, "Agrawal, Gollapudi, Halverson & Ieong 2009 (WSDM); ndeval P-IA@k", inputs="intents",
           parameters=(K,), aliases=("precision-ia",)),
)

# paired significance tests: two systems' scores on the same topics (--a, --b); the answer is the p-value, or the
# statistic the question asks for (quantity: QUANTITIES of irlab.metrics.significance)
QUANTITY = Parameter("quantity", "choice", "paired tests: the answer, p (default) or a statistic: t-test t, df, "
                     "mean-difference, effect-size; wilcoxon w-plus (R's V), w-minus, w, statistic (scipy's), z "
                     "(normal approximation); sign-test n-plus, n-minus, n", "p")
WILCOXON_CONVENTIONS = (conv.ALTERNATIVE, conv.WILCOXON_METHOD, conv.CONTINUITY_CORRECTION, conv.ZERO_METHOD)
METRICS += (
    Metric("t-test", "Paired t-test (p-value)", "t = d_mean / (s / √n), df = n - 1",
           r"t = \frac{\bar d}{s / \sqrt{n}},\ \mathrm{df} = n - 1", t_test,
           "Student 1908; Croft, Metzler & Strohman 2010 §8.6.1; R t.test(paired = TRUE); scipy.stats.ttest_rel",
           inputs="paired-values", parameters=(QUANTITY,), conventions=(conv.ALTERNATIVE,)),
    Metric("wilcoxon", "Wilcoxon signed-rank test (p-value, exact up to 100 topics, or normal approximation)",
           "W+ = Σ_{d_i > 0} rank(|d_i|); p from the 2^n sign patterns of the ranks, or from z = (W+ - μ - c) / σ",
           r"W^{+} = \sum_{d_i > 0} \mathrm{rank}(|d_i|)", wilcoxon_test,
           "Wilcoxon 1945; Pratt 1959; Croft, Metzler & Strohman 2010 §8.6.1; R wilcox.test(paired = TRUE); "
           "scipy.stats.wilcoxon", inputs="paired-values", parameters=(QUANTITY,), conventions=WILCOXON_CONVENTIONS,
           aliases=("signed-rank",)),
    Metric("sign-test", "Sign test (exact binomial p-value)", "p = Σ C(n, i) / 2^n over the tail of n+ wins in n",
           r"p = \sum_{i \in \mathrm{tail}} \binom{n}{i} 2^{-n}", sign_test,
           "Croft, Metzler & Strohman 2010 §8.6.1; scipy.stats.binomtest", inputs="paired-values",
           parameters=(QUANTITY,), conventions=(conv.ALTERNATIVE,), aliases=("sign",)),
    Metric("permutation-test", "Randomisation (permutation) test of the mean difference (exact up to 20 topics)",
           "p = #{sign assignments s : mean(s_i d_i) at least as extreme as d_mean} / 2^n",
           r"p = \frac{\#\{s : \mathrm{mean}(s_i d_i) \text{ at least as extreme as } \bar d\}}{2^n}", permutation_test,
           "Fisher 1935; Smucker, Allan & Carterette 2007; Croft, Metzler & Strohman 2010 §8.6.1",
           inputs="paired-values", conventions=(conv.ALTERNATIVE,), aliases=("randomisation", "randomization")),
    Metric("bootstrap", "Bootstrap confidence interval of the mean difference", "CI = [d_mean*_(Bα/2), d_mean*_(B(1-α/2))]",
           r"\mathrm{CI} = [\bar d^*_{(B\alpha/2)}, \bar d^*_{(B(1-\alpha/2))}]", bootstrap_interval,
           "Efron & Tibshirani 1993; Sakai 2006", inputs="paired-values"),
)

# every metric of a ranking takes one that is empty, scored by the empty_ranking convention (irlab.metrics.empty)
METRICS = tuple(replace(m, compute=scoring_empty(m.compute, m.name), conventions=(*m.conventions, conv.EMPTY_RANKING))
                if m.inputs == "ranking" else m for m in METRICS)
REGISTRY = {m.name: m for m in METRICS}
ALIASES = {alias: m.name for m in METRICS for alias in m.aliases}
declare_formulas(REGISTRY.values())  # a result without a formula of its own shows its declaration's


def get_metric(name: str) -> Metric:
    if type(name) is str and name in REGISTRY:  # a canonical name, as a solver or a question names it
        return REGISTRY[name]
    if not isinstance(name, str):
        raise InputTypeError(f"a metric name is text such as 'ap' (`irlab metrics` lists them), got {type(name).__name__} {name!r:.40}")
    key = name.strip().lower()
    key = ALIASES.get(key, key)
    if key not in REGISTRY:
        raise ParameterError(f"unknown metric {name!r}; `irlab metrics` lists them: {', '.join(REGISTRY)}")
    return REGISTRY[key]


__all__ = [
    "METRICS", "REGISTRY", "get_metric", "average_precision", "cohen_kappa", "cumulative_gain", "dcg",
    "eleven_point_average", "expected_reciprocal_rank", "f_measure", "hits", "idcg", "interpolated_precision",
    "kendall_tau", "kendall_tau_distance", "mean_over_queries", "intent_mean", "mean_over_lists", "ndcg", "normalized_err", "precision", "precision_at_recall",
    "precision_recall_points", "r_precision", "recall", "reciprocal_rank", "spearman_rho", "spearman_rho_scores", "success",
    "t_test", "wilcoxon_test", "sign_test", "permutation_test", "bootstrap_interval",
    "inst", "insq", "sdcg", "user_model",
    "Counts", "accuracy", "fallout", "e_measure", "break_even", "kappa_from_table", "COUNTS_METRICS",
    "fleiss_kappa", "pairwise_kappa", "infap", "cohen_kappa_categories", "weighted_kappa", "roc_auc", "q_measure",
    "IntentRanking", "alpha_dcg", "alpha_ndcg", "err_ia", "nerr_ia", "subtopic_recall", "precision_ia",
]

# the metrics that also take counts (tp, fp, fn, tn) instead of a ranking
COUNTS_METRICS = ("precision", "recall", "f", "set-accuracy", "fallout", "e-measure")
