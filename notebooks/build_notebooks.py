"""Build the classroom notebooks of notebooks/ from the lessons written below, then execute them.

    python3 notebooks/build_notebooks.py              # write and execute every notebook of this script
    python3 notebooks/build_notebooks.py 03 04        # only the notebooks whose names start with 03 or 04
    python3 notebooks/build_notebooks.py --no-execute # write them without outputs

The notebooks are generated so that a regeneration is reproducible: fixed cell ids, kernelspec ``python3``,
no execution timings in the metadata. They execute with the kernel's working directory set to notebooks/
(as nbval and ``jupyter nbconvert --execute`` do), so paths in them are relative to notebooks/.
Edit a lesson here, run this script, then ``python3 -m pytest notebooks`` (nbval compares the stored outputs).
"""

from __future__ import annotations

import sys
from pathlib import Path
from textwrap import dedent

import nbformat

HERE = Path(__file__).resolve().parent
KERNELSPEC = {"name": "python3", "display_name": "Python 3 (ipykernel)", "language": "python"}

SETUP = """\
%matplotlib inline
%config InlineBackend.figure_format = 'png'
"""


def md(text: str):
    return ("markdown", dedent(text).strip("\n"))


def code(text: str):
    return ("code", dedent(text).strip("\n"))


def setup(text: str):
    """The first code cell of a lesson: inline PNG figures, then the lesson's imports."""
    return ("code", SETUP + dedent(text).strip("\n"))


LESSONS: dict[str, list] = {}


def lesson(name):
    def register(function):
        LESSONS[name] = function()
        return function
    return register


# ------------------------------------------------------------------------------------------------
# 01 set-based evaluation
# ------------------------------------------------------------------------------------------------

@lesson("01_set_based_evaluation")
def _():
    return [
        md(r"""
        # 1. Set-based evaluation: precision, recall and F

        *Unit: evaluation in information retrieval (IIR chapter 8). Notebook 1 of the unit.*

        A system answers a query with a **set** of documents. Someone (an *assessor*) has judged which documents of
        the collection are **relevant** to the information need behind the query. How good is the answer?

        In this notebook you will

        * define **precision** and **recall** from the four cells of the contingency table,
        * see why **accuracy** is useless in IR,
        * combine precision and recall into the **F-measure** (and weigh them with $\beta$),
        * watch precision and recall **trade off** as a system returns more documents.

        Every number is computed by [irlab](../README.md) *exactly* (as a fraction) and explained step by step.
        """),
        setup("""\
        from fractions import Fraction

        from irlab import Ranking, f_measure, precision, recall
        """),
        md(r"""
        ## The contingency table

        For one query, every document of the collection falls into one of four cells:

        |                 | relevant              | non-relevant          |
        |-----------------|-----------------------|-----------------------|
        | **retrieved**   | true positives $tp$   | false positives $fp$  |
        | **not retrieved** | false negatives $fn$ | true negatives $tn$   |

        $$P = \frac{tp}{tp + fp} = \frac{\text{relevant retrieved}}{\text{retrieved}}
        \qquad
        R = \frac{tp}{tp + fn} = \frac{\text{relevant retrieved}}{\text{relevant}}$$

        **Precision** asks: of what I was shown, how much is useful? **Recall** asks: of what is useful, how much
        was I shown? A web searcher looking at one page of results cares about precision; a patent lawyer or a
        systematic reviewer who must not miss anything cares about recall.

        ### Our running example

        A system returns 8 documents; we write R for a relevant and N for a non-relevant one, in the order the
        system returned them. The assessors know of **6** relevant documents for this query in the whole collection.
        """),
        code("""\
        answer = Ranking.parse("RNRNNRNN", relevant=6)
        answer.retrieved, answer.relevant_retrieved, answer.total_relevant
        """),
        md(r"""
        So $tp = 3$, $fp = 8 - 3 = 5$ and $fn = 6 - 3 = 3$. irlab shows the computation — the table, the formula,
        the substitution and the exact result. (In Jupyter a result displays as a formatted explanation;
        `print(result)` gives the plain-text version.)
        """),
        code("""\
        precision(answer)
        """),
        code("""\
        recall(answer)
        """),
        md(r"""
        A result is an object: `.value` is the exact value (a `Fraction`), `float(...)` its decimal.
        Exact values matter in teaching: $\frac{1}{3}$ is not $0.3333$, and a sum of rounded numbers drifts.
        """),
        code("""\
        p, r = precision(answer), recall(answer)
        p.value, r.value, float(p), float(r)
        """),
        md(r"""
        **Pitfall — recall needs $R$.** Precision only needs the judgments of what was retrieved, but recall needs
        the number of relevant documents in the *whole collection*, which nobody knows exactly for a large
        collection (TREC estimates it by *pooling* the top of many systems). If you do not give $R$, irlab assumes
        that the relevant documents retrieved are all there are — and says so:
        """),
        code("""\
        print(recall(Ranking.parse("RNRNNRNN")))
        """),
        md(r"""
        ## Why not accuracy?

        Accuracy $= \frac{tp + tn}{N}$ is the share of *correct decisions*. In IR almost every document is
        non-relevant, so $tn$ dwarfs everything else. Suppose the collection has $N = 10\,000$ documents:
        """),
        code("""\
        N = 10_000
        tp, fp, fn = 3, 5, 3
        tn = N - tp - fp - fn
        accuracy_of_our_system = Fraction(tp + tn, N)
        accuracy_of_returning_nothing = Fraction(0 + (N - 6), N)   # tp = 0, tn = every non-relevant document
        accuracy_of_our_system, float(accuracy_of_our_system), float(accuracy_of_returning_nothing)
        """),
        md(r"""
        A system that returns *nothing* is 99.94 % accurate. Precision and recall ignore $tn$ and look only at what
        matters: the relevant documents and what was retrieved.

        ## The F-measure

        One number is handy for comparing systems. The **F-measure** is the *weighted harmonic mean* of precision
        and recall (IIR eq. 8.5):

        $$F_\beta = \frac{(1+\beta^2)\,P\,R}{\beta^2 P + R}, \qquad F_1 = \frac{2PR}{P+R}.$$

        $\beta > 1$ weighs recall more, $\beta < 1$ precision more.
        """),
        code("""\
        f_measure(answer)
        """),
        md(r"""
        **Why the harmonic mean?** A system can get recall 1 by returning the whole collection. Its precision is
        then tiny, but the *arithmetic* mean would still be above $\frac12$. The harmonic mean stays close to the
        smaller of the two values, so you cannot cheat by maximising only one of them.
        """),
        code("""\
        # return all 10,000 documents: every one of the 6 relevant documents is found
        P_all, R_all = Fraction(6, 10_000), Fraction(1)
        arithmetic = (P_all + R_all) / 2
        harmonic = 2 * P_all * R_all / (P_all + R_all)
        arithmetic, float(arithmetic), harmonic, float(harmonic)
        """),
        md(r"""
        Weighting with $\beta$: the same answer scored by a recall-oriented user ($\beta = 2$) and a
        precision-oriented one ($\beta = \frac12$).
        """),
        code("""\
        for beta in (Fraction(1, 2), 1, 2):
            f = f_measure(answer, beta=beta)
            print(f"beta = {beta}: {f.symbol} = {f.value} ≈ {float(f):.4f}")
        """),
        md(r"""
        **Try it.** Change the ranking and $R$ below (e.g. `"RRRNNNNN"`, or `relevant=3`) and re-run the cell.
        When is $F_1$ equal to $P$? (Answer: when $P = R$.)
        """),
        code("""\
        mine = Ranking.parse("RRNNRNNN", relevant=6)     # ← change me
        print(f_measure(mine))
        """),
        md(r"""
        ### Check yourself

        A system returns `NRRNR` and there are 4 relevant documents. Compute $P$, $R$ and $F_1$ **by hand** as
        fractions, write them below and run the cell: the `assert` compares them with irlab.
        """),
        code("""\
        exercise = Ranking.parse("NRRNR", relevant=4)
        my_P, my_R, my_F1 = Fraction(3, 5), Fraction(3, 4), Fraction(2, 3)   # ← your answers

        assert my_P == precision(exercise).value, "precision: relevant retrieved / retrieved"
        assert my_R == recall(exercise).value, "recall: relevant retrieved / relevant"
        assert my_F1 == f_measure(exercise).value, "F1 = 2 · P · Rec / (P + Rec)"
        print("All three correct.")
        """),
        md(r"""
        ## The precision/recall trade-off

        A ranked system does not return a fixed set: the user decides how far down to read. Cutting the list
        after $k$ documents gives a set, and so a precision $P@k$ and a recall $\mathrm{Rec}@k$ for every $k$.
        Going deeper can only keep or raise recall, while precision usually falls: this is the **trade-off**.

        A longer ranking (20 documents, 8 relevant in the collection):
        """),
        code("""\
        long_list = Ranking.parse("RRNRNNRNNRNNNRNNNNRN", relevant=8)
        ks = range(1, long_list.retrieved + 1)
        P_at = [precision(long_list, k=k).value for k in ks]
        R_at = [recall(long_list, k=k).value for k in ks]
        F_at = [f_measure(long_list, k=k).value for k in ks]
        for k in (1, 5, 10, 20):
            print(f"k = {k:2}:  P@k = {str(P_at[k - 1]):>5}   Rec@k = {str(R_at[k - 1]):>4}   F1@k = {F_at[k - 1]}")
        """),
        md(r"""
        Plotted over $k$ (the values are irlab's exact fractions, converted to floats only for drawing):
        """),
        code("""\
        from matplotlib.figure import Figure

        fig = Figure(figsize=(6, 3.5), dpi=100, layout="constrained")
        ax = fig.add_subplot()
        ax.plot(list(ks), [float(v) for v in P_at], "o-", color="black", label="precision P@k")
        ax.plot(list(ks), [float(v) for v in R_at], "s--", color="0.45", label="recall Rec@k")
        ax.plot(list(ks), [float(v) for v in F_at], ":", color="0.2", label="F1@k")
        ax.set_xlabel("cut-off k (documents read)")
        ax.set_ylabel("value")
        ax.set_xticks(list(ks))
        ax.set_ylim(0, 1.2)
        ax.set_yticks([0, 0.2, 0.4, 0.6, 0.8, 1])
        ax.set_title("Precision falls, recall rises as k grows")
        ax.legend(loc="upper center", ncols=3, frameon=False)
        fig
        """),
        md(r"""
        Notice the **saw-tooth**: precision jumps up at every relevant document and decays over the non-relevant
        ones, while recall climbs in steps and never goes down. $F_1$ peaks somewhere in the middle — here:
        """),
        code("""\
        best = max(ks, key=lambda k: F_at[k - 1])
        best, F_at[best - 1]
        """),
        md(r"""
        **Try it.** Put all relevant documents at the top (`"RRRRRRNNNNNNNNNNNNNN"`) and re-run the last three
        cells: what does the trade-off look like for a perfect ranking?

        ## Summary

        * $P = \frac{tp}{tp+fp}$, $\mathrm{Rec} = \frac{tp}{tp+fn}$; both ignore the huge $tn$, unlike accuracy.
        * Recall needs the number of relevant documents $R$ of the collection — an estimate in practice.
        * $F_\beta$ is the weighted harmonic mean; it punishes a system that is good at only one of the two.
        * Reading deeper trades precision for recall. **Next:** [ranked evaluation](02_ranked_evaluation.ipynb),
          where the *order* of the documents counts.
        """),
    ]


# ------------------------------------------------------------------------------------------------
# 02 ranked evaluation
# ------------------------------------------------------------------------------------------------

@lesson("02_ranked_evaluation")
def _():
    return [
        md(r"""
        # 2. Ranked evaluation: P@k, Rec@k, R-precision, RR and AP

        Set-based measures ignore the order of the results, but users read from the top. This notebook covers the
        measures of a **ranked** list:

        * precision and recall at a cut-off, $P@k$ and $\mathrm{Rec}@k$ — and the two ways to divide recall at $k$,
        * **R-precision**,
        * **reciprocal rank** (RR) and its mean **MRR**,
        * **average precision** (AP) and its mean **MAP** — and the three denominators found in the literature.
        """),
        setup("""\
        from fractions import Fraction

        from irlab import (Ranking, average_precision, mean_over_queries, precision, r_precision, recall,
                           reciprocal_rank)
        """),
        md(r"""
        ## Precision and recall at $k$

        $$P@k = \frac{\mathrm{hits}@k}{k} \qquad \mathrm{Rec}@k = \frac{\mathrm{hits}@k}{R}$$

        where $\mathrm{hits}@k$ is the number of relevant documents among the first $k$. Our example: the list
        `RNNRR` for a query with $R = 5$ relevant documents.
        """),
        code("""\
        ranking = Ranking.parse("RNNRR", relevant=5)
        precision(ranking, k=3)
        """),
        md(r"""
        **Pitfall — a list shorter than $k$.** If the system returned only 5 documents, what is $P@10$? IIR and
        trec_eval count the missing ranks as non-relevant and divide by $k$; others divide by the number actually
        retrieved. irlab names this choice (`precision_denominator`) and prints it with every result:
        """),
        code("""\
        for choice in ("k", "retrieved"):
            p10 = precision(ranking, k=10, precision_denominator=choice)
            print(f"precision_denominator = {choice!r:12} P@10 = {p10.value}")
        """),
        md(r"""
        ### $\mathrm{Rec}@k$: divide by $R$ or by $\min(R, k)$?

        With $R = 10$ relevant documents and $k = 3$, even a perfect top 3 has $\mathrm{Rec}@3 = \frac{3}{10}$.
        Capped recall (BEIR's R_cap, Thakur et al. 2021) therefore divide by $\min(R, k)$, so that a perfect top $k$
        scores 1. Both are in use; irlab's default follows IIR and trec_eval ($\div R$).
        """),
        code("""\
        perfect_top = Ranking.parse("RRRNN", relevant=10)
        by_R = recall(perfect_top, k=3)
        by_min = recall(perfect_top, k=3, recall_denominator="min-relevant-k")
        print(f"Rec@3 = hits@3 / R          = {by_R.value}")
        print(f"Rec@3 = hits@3 / min(R, k)  = {by_min.value}")
        """),
        code("""\
        by_min
        """),
        md(r"""
        ## R-precision

        Which $k$ should we choose? **R-precision** lets the query decide: $k = R$.

        $$\text{R-prec} = \frac{\mathrm{hits}@R}{R}$$

        At $k = R$ precision and recall are equal (both are $\mathrm{hits}@R / R$), and a perfect ranking scores 1
        whatever $R$ is — a query with 3 relevant documents and one with 300 are on the same scale.
        """),
        code("""\
        r_precision(ranking)
        """),
        md(r"""
        ## Reciprocal rank and MRR

        For known-item search or question answering, only the **first** relevant document matters:

        $$\mathrm{RR} = \frac{1}{\mathrm{rank}_1}, \qquad \mathrm{MRR} = \frac{1}{|Q|}\sum_{q \in Q} \mathrm{RR}_q$$

        (RR is 0 when nothing relevant is retrieved, or nothing within the cut-off for $\mathrm{RR}@k$.)
        """),
        code("""\
        queries = [Ranking.parse("NNRNR"), Ranking.parse("RNNNN"), Ranking.parse("NNNNN")]
        rrs = [reciprocal_rank(q) for q in queries]
        [rr.value for rr in rrs]
        """),
        code("""\
        mean_over_queries(rrs)
        """),
        md(r"""
        **Pitfall.** RR is very coarse: moving the first relevant document from rank 1 to rank 2 halves the score,
        from rank 10 to 11 changes it by less than 0.01.

        ## Average precision

        AP rewards putting *every* relevant document high. Take the precision at each rank where a relevant
        document appears, sum, and divide by the number of relevant documents:

        $$\mathrm{AP} = \frac{1}{R}\sum_{k=1}^{n} rel_k \cdot P@k$$

        A relevant document that is never retrieved contributes a precision of 0 — it still counts in $R$.
        """),
        code("""\
        average_precision(ranking)
        """),
        md(r"""
        ### The AP denominator: three conventions

        The sum of precisions is uncontroversial; what it is divided by is not:

        | `ap_denominator` | $D$ | used by |
        |---|---|---|
        | `relevant` | $R$, all relevant documents | IIR 8.4, trec_eval `map` |
        | `retrieved` | relevant documents retrieved | some textbooks and libraries |
        | `min-relevant-k` | $\min(R, k)$ | "AP@K" in recommender systems |

        Side by side, for our ranking (cut at $k = 5$ and at $k = 3$):
        """),
        code("""\
        print(f"{'ap_denominator':16} {'AP@5':>8} {'AP@3':>8}")
        for choice in ("relevant", "retrieved", "min-relevant-k"):
            at5 = average_precision(ranking, k=5, ap_denominator=choice).value
            at3 = average_precision(ranking, k=3, ap_denominator=choice).value
            print(f"{choice:16} {str(at5):>8} {str(at3):>8}")
        """),
        md(r"""
        Dividing by the relevant documents *retrieved* gives `RNN` (one hit at rank 1, then nothing) a perfect
        AP@3 = 1: it **ignores the relevant documents the system missed**. That is why IIR and trec_eval divide
        by $R$. Always report which convention you used — irlab prints it in every explanation:
        """),
        code("""\
        print(average_precision(ranking, k=3, ap_denominator="retrieved"))
        """),
        md(r"""
        ### MAP

        MAP is the mean of AP over the queries of a test collection — every query weighs the same, however many
        relevant documents it has. Seed sheet 8/3: two queries with 10 and 20 relevant documents.
        """),
        code("""\
        q1 = Ranking.parse("NRNRRN", relevant=10)
        q2 = Ranking.parse("NNRRR", relevant=20)
        MAP = mean_over_queries([average_precision(q1), average_precision(q2)])
        MAP
        """),
        md(r"""
        ### Check yourself

        For `NRRNR` with $R = 4$, compute AP (divide by $R$) by hand. Hint: the relevant documents sit at
        ranks 2, 3 and 5.
        """),
        code("""\
        my_AP = (Fraction(1, 2) + Fraction(2, 3) + Fraction(3, 5)) / 4   # ← your answer
        assert my_AP == average_precision(Ranking.parse("NRRNR", relevant=4)).value, "look at P@2, P@3, P@5"
        print("Correct:", my_AP)
        """),
        md(r"""
        **Try it.** Swap two documents of `ranking` (e.g. `"RNRNR"`, `"NRNRR"`) and compare AP, RR and R-precision.
        Which measure reacts to which swap? (Why does R-precision never change here?)
        """),
        code("""\
        for written in ("RNNRR", "RNRNR", "NRNRR"):          # ← add your own
            q = Ranking.parse(written, relevant=5)
            print(f"{written}:  AP = {str(average_precision(q).value):6} RR = {str(reciprocal_rank(q).value):4} "
                  f"R-prec = {r_precision(q).value}")
        """),
        md(r"""
        ## Summary

        * $P@k$ and $\mathrm{Rec}@k$ evaluate the set a user sees when reading $k$ documents; watch the denominators
          (short lists for $P@k$, $R$ vs $\min(R, k)$ for $\mathrm{Rec}@k$).
        * R-precision picks $k = R$ per query; RR looks only at the first relevant document.
        * AP averages the precision at the relevant documents and divides by $R$ (IIR, trec_eval): a missed relevant
          document costs. **Next:** [interpolation and precision–recall curves](03_interpolation.ipynb).
        """),
    ]


# ------------------------------------------------------------------------------------------------
# 03 interpolation
# ------------------------------------------------------------------------------------------------

@lesson("03_interpolation")
def _():
    return [
        md(r"""
        # 3. Precision–recall curves and interpolated precision

        Every rank $k$ of a ranking gives a point $(\mathrm{Rec}@k, P@k)$. Joined up, they form a **precision–recall curve**.
        Raw curves are saw-tooth shaped and hard to average over queries, so IR smooths them by **interpolation**
        and summarises them by the **11-point average**. Two versions of interpolation are in use — they differ in
        how they round — and we compare them.
        """),
        setup("""\
        from fractions import Fraction

        from irlab import (Ranking, eleven_point_average, interpolated_precision, precision_at_recall,
                           precision_recall_points)
        from irlab.plots import precision_recall_curve
        """),
        md(r"""
        ## The raw points

        Our ranking: `RNNRNRNNNN`, $R = 4$ relevant documents (one of them never retrieved).
        `precision_recall_points` lists $(k, \mathrm{Rec}@k, P@k)$ exactly:
        """),
        code("""\
        ranking = Ranking.parse("RNNRNRNNNN", relevant=4)
        for k, rec, prec in precision_recall_points(ranking):
            print(f"k = {k:2}  recall = {str(rec):4}  precision = {prec}")
        """),
        md(r"""
        Precision **at a recall level** $r$ (non-interpolated) is the precision at the first rank where recall
        reaches $r$ (seed sheet 8/1 c):
        """),
        code("""\
        precision_at_recall(ranking, "50%")
        """),
        md(r"""
        ## Interpolated precision

        Precision is not monotone in recall: it drops to $\frac25$ at rank 5 (recall $\frac12$) and climbs back
        to $\frac12$ at rank 6 (recall $\frac34$) — more recall *and* more precision. IIR (eq. 8.7) interpolates:

        $$p_{\mathrm{interp}}(r) = \max_{r' \ge r} p(r')$$

        the highest precision at any recall level *at least* $r$. The justification: a user who wants recall $r$
        would happily read further if that also raised precision. The result is a non-increasing step function.
        """),
        code("""\
        interpolated_precision(ranking, "25%")
        """),
        md(r"""
        ### Book vs trec_eval

        The book takes every rank whose recall is **at least** $r$, i.e. whose hits reach $\lceil r \cdot R\rceil$.
        trec_eval 10.0 (`iprec_at_recall`) instead **rounds** $r \cdot R$ to the nearest integer (half up). With
        $R = 4$ the standard levels fall between whole documents ($0.3 \cdot 4 = 1.2$, $0.8 \cdot 4 = 3.2$) and the
        two rules disagree:
        """),
        code("""\
        print(f"{'r':>4} {'r·R':>5} {'book':>6} {'trec-eval':>10}")
        for i in range(11):
            level = Fraction(i, 10)
            book = interpolated_precision(ranking, level).value
            trec = interpolated_precision(ranking, level, interpolation="trec-eval").value
            mark = "   <- differ" if book != trec else ""
            print(f"{float(level):4.1f} {float(level * 4):5.1f} {str(book):>6} {str(trec):>10}{mark}")
        """),
        md(r"""
        At $r = 0.8$ the book says 0: recall 0.8 needs $\lceil 3.2 \rceil = 4$ relevant documents and the system
        found only 3. trec_eval rounds 3.2 down to 3 and reports $\frac12$. The step-by-step explanation shows the
        rounding:
        """),
        code("""\
        print(interpolated_precision(ranking, "80%", interpolation="trec-eval"))
        """),
        md(r"""
        ## The curve

        `irlab.plots.precision_recall_curve` draws the raw points (labelled with their rank), the interpolated step
        function and the 11 standard points — every plotted value is one of irlab's exact values. Left the book's
        rule, right trec_eval's:
        """),
        code("""\
        from matplotlib.figure import Figure

        fig = Figure(figsize=(11, 4), dpi=80, layout="constrained")
        left, right = fig.subplots(1, 2)
        precision_recall_curve(ranking, ax=left, title="book (IIR eq. 8.7)")
        precision_recall_curve(ranking, interpolation="trec-eval", ax=right, title="trec_eval 10.0 (rounded)")
        fig
        """),
        md(r"""
        ## The 11-point interpolated average

        $$\mathrm{11pt} = \frac{1}{11}\sum_{r \in \{0, 0.1, \dots, 1\}} p_{\mathrm{interp}}(r)$$

        One number per query that looks at the whole curve; averaged over queries it gives the classic averaged
        11-point precision–recall graph (IIR Table 8.1 and Figure 8.3).
        """),
        code("""\
        eleven_point_average(ranking)
        """),
        code("""\
        book = eleven_point_average(ranking).value
        trec = eleven_point_average(ranking, interpolation="trec-eval").value
        book, trec, float(trec - book)
        """),
        md(r"""
        The rounding alone moves the 11-point average by 0.09 for this query. When you compare numbers with a
        paper or with trec_eval, make sure you use the same rule.

        **Try it.** Set $R = 5$ below: $r \cdot R$ is then a multiple of $\frac12$, and rounding half up gives the
        same as rounding up — do the two rules still differ?
        """),
        code("""\
        mine = Ranking.parse("RNNRNRNNNN", relevant=5)          # ← change R or the list
        print(eleven_point_average(mine).value, eleven_point_average(mine, interpolation="trec-eval").value)
        """),
        md(r"""
        ### Check yourself

        For `RNNRR` with $R = 5$, what is the interpolated precision at recall 0.4 (book rule)?
        """),
        code("""\
        my_answer = Fraction(3, 5)          # ← your answer
        assert my_answer == interpolated_precision(Ranking.parse("RNNRR", relevant=5), "40%").value
        print("Correct.")
        """),
        md(r"""
        A last plot: a longer ranking (IIR Exercise 8.9's list) — note the sawtooth and its envelope.
        """),
        code("""\
        precision_recall_curve(Ranking.parse("RRNNNNNNRNRNNNRNNNNR", relevant=8))
        """),
        md(r"""
        ## Summary

        * The raw precision–recall curve is a saw-tooth; $p_{\mathrm{interp}}(r) = \max_{r' \ge r} p(r')$ makes it
          non-increasing.
        * The book counts the ranks with recall $\ge r$; trec_eval rounds $r \cdot R$ — results differ when
          $r \cdot R$ is not a whole number.
        * The 11-point average summarises the interpolated curve. **Next:**
          [graded relevance](04_graded_relevance.ipynb).
        """),
    ]


# ------------------------------------------------------------------------------------------------
# 04 graded relevance
# ------------------------------------------------------------------------------------------------

@lesson("04_graded_relevance")
def _():
    return [
        md(r"""
        # 4. Graded relevance: CG, DCG, nDCG and ERR

        Binary judgments treat a perfect answer and a marginally useful one alike. With **graded** judgments
        (say 0 = non-relevant, 1 = partially, 2 = relevant, 3 = highly relevant) we want measures that

        1. reward highly relevant documents more than partially relevant ones, and
        2. reward them more the earlier they appear.

        That is **discounted cumulative gain** (Järvelin & Kekäläinen 2002). Its normalised version nDCG is the
        standard measure of web search; **ERR** models a user who stops once satisfied.
        """),
        setup("""\
        from irlab import (Ranking, cumulative_gain, dcg, expected_reciprocal_rank, idcg, ndcg,
                           normalized_err)
        from irlab.exact import to_float
        from irlab.plots import dcg_curves
        """),
        md(r"""
        Our ranking: the system returned four documents with grades 3, 2, 0, 1. One more judged document with
        grade 2 was **not** retrieved — it matters for the ideal ranking.
        """),
        code("""\
        ranking = Ranking.parse("3,2,0,1", unretrieved=[2])
        ranking.grades, ranking.unretrieved
        """),
        md(r"""
        ## Cumulative gain

        $$\mathrm{CG}@k = \sum_{i=1}^{k} g_i$$

        CG ignores the order inside the top $k$: `3,2,0,1` and `0,1,2,3` have the same CG@4.
        """),
        code("""\
        cumulative_gain(ranking).value, cumulative_gain(Ranking.parse("0,1,2,3")).value
        """),
        md(r"""
        ## Discounted cumulative gain

        $$\mathrm{DCG}@k = \sum_{i=1}^{k} \mathrm{gain}(g_i)\cdot\mathrm{discount}(i)$$

        The gain and the discount come in two flavours each — irlab's default is the one of IIR 8.4 and of
        Burges et al. (2005): exponential gain $2^{g}-1$ and discount $1/\log_2(i+1)$.

        The values contain logarithms, and irlab keeps them **exact**: $\log_2 3$ stays a symbol (a sympy
        expression); the decimal is computed only for display.
        """),
        code("""\
        dcg(ranking)
        """),
        code("""\
        d = dcg(ranking)
        d.value, to_float(d.value)
        """),
        md(r"""
        Exactness pays off: two DCG values that are mathematically equal *are* equal, with no rounding.
        For instance DCG@2 of `3,2` with linear gain is $3 + 2/\log_2 3$, exactly:
        """),
        code("""\
        import sympy

        value = dcg(Ranking.parse("3,2"), gain="linear").value
        log2_3 = sympy.Symbol("log2(3)", positive=True)
        value, value == 3 + 2 / log2_3
        """),
        md(r"""
        ## Ideal DCG and nDCG

        DCG grows with the number and grades of the relevant documents, so it cannot be compared across
        queries. Divide by the DCG of the **ideal** ranking — all judged documents, best first (here
        `3,2,2,1`, using the unretrieved grade-2 document):

        $$\mathrm{nDCG}@k = \frac{\mathrm{DCG}@k}{\mathrm{IDCG}@k} \in [0, 1]$$
        """),
        code("""\
        idcg(ranking)
        """),
        code("""\
        n = ndcg(ranking)
        print(n.value, "≈", round(float(n), 4))
        """),
        md(r"""
        **Pitfall.** Computing IDCG from the *retrieved* documents only (here `3,2,1,0`) rewards a system for
        not retrieving relevant documents. irlab builds the ideal ranking from every judged grade; pass the
        grades of judged-but-unretrieved documents as `unretrieved`.

        ### DCG against IDCG, rank by rank

        `irlab.plots.dcg_curves` plots $\mathrm{DCG}@i$ and $\mathrm{IDCG}@i$; nDCG@i is their ratio. The gap
        opens at rank 3, where the system put a non-relevant document and the ideal ranking a grade-2 one.
        """),
        code("""\
        dcg_curves(ranking)
        """),
        md(r"""
        ## Gain and discount conventions side by side

        | gain | formula | used by |
        |---|---|---|
        | `exp` | $2^g - 1$ | Burges et al. 2005, IIR 8.4 |
        | `linear` | $g$ | Järvelin & Kekäläinen 2002, trec_eval |

        | discount | formula | used by |
        |---|---|---|
        | `log2-rank-plus-1` | $1/\log_2(i+1)$ | Burges et al. 2005, IIR, trec_eval |
        | `log2-rank` | $1$ at rank 1, then $1/\log_2 i$ | Järvelin & Kekäläinen ($b = 2$) |

        Järvelin & Kekäläinen's formula $\mathrm{DCG} = rel_1 + \sum_{i \ge 2} \frac{rel_i}{\log_2 i}$ is `gain="linear"`
        with `discount="log2-rank"`: the first two ranks are **not** discounted at all.
        """),
        code("""\
        print(f"{'gain':7} {'discount':17} {'DCG':>8} {'nDCG':>8}   exact nDCG")
        for gain in ("exp", "linear"):
            for discount in ("log2-rank-plus-1", "log2-rank"):
                d = dcg(ranking, gain=gain, discount=discount)
                n = ndcg(ranking, gain=gain, discount=discount)
                print(f"{gain:7} {discount:17} {float(d):8.4f} {float(n):8.4f}   {n.value}")
        """),
        md(r"""
        The same ranking scores between 0.81 and 0.86 depending on the conventions — enough to reverse a
        comparison between two systems. Järvelin & Kekäläinen's form, explained:
        """),
        code("""\
        print(dcg(ranking, gain="linear", discount="log2-rank"))
        """),
        md(r"""
        ### nDCG at a cut-off

        $\mathrm{nDCG}@k$ compares the top $k$ of the ranking with the top $k$ of the ideal ranking:
        """),
        code("""\
        for k in (1, 2, 3, 4):
            n = ndcg(ranking, k=k)
            print(f"nDCG@{k} = {n.value}  ≈ {float(n):.4f}")
        """),
        md(r"""
        ## Expected reciprocal rank

        nDCG adds up gains independently. **ERR** (Chapelle et al. 2009) models a *cascade*: the user reads
        down the list and stops at rank $j$ when satisfied, with probability
        $\Pr(j) = \frac{2^{g_j} - 1}{2^{g_{\max}}}$. ERR is the expected reciprocal rank of the stopping point:

        $$\mathrm{ERR} = \sum_{j} \frac{1}{j}\,\Pr(j)\prod_{i<j}\bigl(1-\Pr(i)\bigr)$$

        A grade-3 document at rank 1 satisfies most users, so whatever follows matters little. ERR has no
        logarithms: its value is an exact fraction.
        """),
        code("""\
        expected_reciprocal_rank(ranking)
        """),
        code("""\
        e, ne = expected_reciprocal_rank(ranking), normalized_err(ranking)
        e.value, ne.value, round(float(ne), 4)
        """),
        md(r"""
        **Try it.** Move the grade-3 document down (e.g. `"0,2,3,1"`) and compare how much nDCG and ERR drop.
        """),
        code("""\
        mine = Ranking.parse("0,2,3,1", unretrieved=[2])     # ← change me
        print(f"nDCG = {float(ndcg(mine)):.4f}   ERR = {float(expected_reciprocal_rank(mine)):.4f}   "
              f"nERR = {float(normalized_err(mine)):.4f}")
        """),
        md(r"""
        ### Check yourself

        With linear gain and the discount $1/\log_2(i+1)$, what is DCG@2 of `2,0`, and DCG@3 of `0,0,1`?
        (Both are whole numbers or simple fractions: $\log_2 2 = 1$, $\log_2 4 = 2$.)
        """),
        code("""\
        from fractions import Fraction

        my_dcg_a, my_dcg_b = 2, Fraction(1, 2)          # ← your answers
        assert my_dcg_a == dcg(Ranking.parse("2,0"), gain="linear").value
        assert my_dcg_b == dcg(Ranking.parse("0,0,1"), gain="linear").value
        print("Correct.")
        """),
        md(r"""
        ## Summary

        * DCG sums gains discounted by rank; nDCG divides by the DCG of the ideal ranking of **all** judged
          documents.
        * Gain (`exp`/`linear`) and discount (`log2-rank-plus-1`/`log2-rank`) are conventions — Järvelin & Kekäläinen's
          $rel_1 + \sum_{i\ge2} rel_i/\log_2 i$ is linear gain with the `log2-rank` discount. Report yours.
        * Values with $\log_2$ stay exact (sympy); decimals are for reading only.
        * ERR models a user who stops when satisfied. **Next:** [assessor agreement](05_assessor_agreement.ipynb).
        """),
    ]


# ------------------------------------------------------------------------------------------------
# 05 assessor agreement
# ------------------------------------------------------------------------------------------------

@lesson("05_assessor_agreement")
def _():
    return [
        md(r"""
        # 5. Assessor agreement: Cohen's kappa and aggregated judgments

        All the measures so far trust the relevance judgments. But relevance is a human judgment, and two
        assessors often disagree. How much do they agree — beyond what chance would give? And when several
        judges disagree, what counts as relevant?
        """),
        setup("""\
        from fractions import Fraction

        from irlab import cohen_kappa
        from irlab.plots import kappa_table
        from irlab.solvers import aggregate_relevance
        """),
        md(r"""
        ## Observed agreement is not enough

        Two judges each label the same documents relevant (1) or non-relevant (0). The observed agreement $P(A)$
        is the share of documents on which they agree. But if most documents are non-relevant, two judges who
        answer at random with the right proportions already agree most of the time. **Kappa** corrects for the
        agreement expected by chance, $P(E)$:

        $$\kappa = \frac{P(A) - P(E)}{1 - P(E)}$$

        $\kappa = 1$: perfect agreement; $\kappa = 0$: no better than chance; negative: worse than chance.

        ## IIR Table 8.2

        400 documents, judged by two assessors:

        |                     | judge 2: relevant | judge 2: non-relevant | total |
        |---------------------|---:|---:|---:|
        | judge 1: relevant     | 300 | 20 | 320 |
        | judge 1: non-relevant | 10  | 70 | 80  |
        | total                 | 310 | 90 | 400 |

        We rebuild the two columns of judgments from the four counts:
        """),
        code("""\
        counts = {(1, 1): 300, (1, 0): 20, (0, 1): 10, (0, 0): 70}
        judge1 = [a for (a, b), n in counts.items() for _ in range(n)]
        judge2 = [b for (a, b), n in counts.items() for _ in range(n)]
        len(judge1), sum(judge1), sum(judge2)
        """),
        code("""\
        kappa = cohen_kappa(judge1, judge2)
        # the explanation starts with both judges' 400 answers on one line; we skip that line here
        print("\\n".join(line for line in str(kappa).splitlines() if not line.startswith("Judge 1:")))
        """),
        md(r"""
        $P(A) = \frac{370}{400}$, and with the **pooled** marginals of IIR 8.5 —
        $P(\text{rel}) = \frac{320 + 310}{800}$ — the chance agreement is $P(E) = 0.665$ and
        $\kappa = \frac{277}{357} \approx 0.776$: "fair agreement" on IIR's reading scale.
        """),
        code("""\
        assert kappa.value == Fraction(277, 357)
        kappa.value, round(float(kappa), 3)
        """),
        md(r"""
        ### Pooled or per-judge marginals?

        IIR pools the two judges' answers to estimate $P(\text{rel})$ (strictly speaking that is Scott's $\pi$).
        Cohen's original kappa uses each judge's own proportions:
        $P(E) = P_1(\text{rel})P_2(\text{rel}) + P_1(\text{non})P_2(\text{non})$. The two agree when the judges
        have similar marginals, as here:
        """),
        code("""\
        for marginals in ("pooled", "per-judge"):
            k = cohen_kappa(judge1, judge2, kappa_marginals=marginals)
            print(f"{marginals:9}  kappa = {str(k.value):7} ≈ {float(k):.4f}")
        """),
        md(r"""
        The kappa table as a figure (counts, $P(A)$, $P(E)$ and $\kappa$, all from the same exact computation):
        """),
        code("""\
        kappa_table(judge1, judge2, title="IIR Table 8.2: two judges, 400 documents")
        """),
        md(r"""
        ### Reading kappa

        IIR 8.5 (after Carletta 1996): above 0.8 good agreement, 0.67–0.8 fair, below 0.67 dubious. Real TREC
        assessors typically land in the "fair" range — relevance is subjective. Luckily, Voorhees (2000) showed
        that *system rankings* are fairly stable when the judgments change (notebook 6 measures such stability).

        **Pitfall — kappa with skewed marginals.** When almost everything is non-relevant, $P(E)$ is close to 1 and
        a handful of disagreements sends kappa down or even below 0, although $P(A)$ is high:
        """),
        code("""\
        skewed1 = [0] * 95 + [1, 1, 1, 0, 0]
        skewed2 = [0] * 95 + [1, 0, 0, 1, 1]
        k = cohen_kappa(skewed1, skewed2)
        observed = Fraction(sum(a == b for a, b in zip(skewed1, skewed2)), len(skewed1))
        print(f"P(A) = {observed} = {float(observed)},  kappa = {k.value} ≈ {float(k):.3f}")
        """),
        md(r"""
        ### Check yourself

        Seed sheet 8/4: twelve documents, judge 1 = `001111110000`, judge 2 = `001100001111`. Compute $P(A)$,
        $P(E)$ (pooled) and $\kappa$ by hand.
        """),
        code("""\
        j1, j2 = "001111110000", "001100001111"
        my_PA = Fraction(4, 12)
        my_PE = Fraction(1, 2) ** 2 + Fraction(1, 2) ** 2
        my_kappa = (my_PA - my_PE) / (1 - my_PE)          # ← or write your number directly
        assert my_kappa == cohen_kappa(j1, j2).value
        print("Correct: kappa =", my_kappa)
        """),
        md(r"""
        **Try it.** Change `counts` at the top of this section (e.g. make the judges disagree on 60 documents
        instead of 30) and re-run: how fast does kappa fall?

        ## Aggregating judgments

        With several judges we must decide what "relevant" means before computing precision and recall. Common
        rules: relevant if **all** judges say so (strict), if **any** judge does (lenient), or by **majority**.
        `irlab.solvers.aggregate_relevance` applies a rule and evaluates a retrieved set — here seed sheet 8/4,
        where a system returns documents 4–8:
        """),
        code("""\
        judgments = [  # document, judge 1, judge 2
            [1, 0, 0], [2, 0, 0], [3, 1, 1], [4, 1, 1], [5, 1, 0], [6, 1, 0],
            [7, 1, 0], [8, 1, 0], [9, 0, 1], [10, 0, 1], [11, 0, 1], [12, 0, 1],
        ]
        retrieved = [4, 5, 6, 7, 8]
        strict = aggregate_relevance(judgments, retrieved, rule="all")
        print(strict.notes[0].text)
        for answer in strict.answers:
            print(f"{answer.label:10} {answer.result.symbol:4} = {answer.value}")
        """),
        md(r"""
        The full explanation of one answer (the aggregated judgment table and the steps):
        """),
        code("""\
        strict.answers[2].result
        """),
        md(r"""
        The same system, three rules — the evaluation depends as much on the rule as on the system:
        """),
        code("""\
        three_judges = [[d, a, b, int(d % 3 == 0)] for d, a, b in judgments]   # a third judge
        for rule in ("all", "majority", "any"):
            p, r, f = (a.value for a in aggregate_relevance(three_judges, retrieved, rule=rule).answers)
            print(f"rule {rule!r:10}  P = {str(p):5} R = {str(r):5} F1 = {f}")
        """),
        md(r"""
        ## Summary

        * $\kappa = \frac{P(A)-P(E)}{1-P(E)}$ corrects observed agreement for chance; IIR pools the marginals,
          Cohen uses each judge's own — a named convention in irlab (`kappa_marginals`).
        * IIR Table 8.2 gives $\kappa = \frac{277}{357} \approx 0.776$ (pooled).
        * Before evaluating against several judges, fix an aggregation rule and report it.
          **Next:** [comparing rankings](06_comparing_rankings.ipynb).
        """),
    ]


# ------------------------------------------------------------------------------------------------
# 06 comparing rankings
# ------------------------------------------------------------------------------------------------

@lesson("06_comparing_rankings")
def _():
    return [
        md(r"""
        # 6. Comparing rankings: Kendall's tau distance and Spearman's rho

        Sometimes we compare two **orderings** rather than an ordering with judgments:

        * two evaluation measures (or two sets of judgments) rank the same systems — do they agree on which
          system is best? (Voorhees 2000 compared system rankings under different assessors this way);
        * two versions of a search engine rank the same documents — how different are their result lists?

        Two classic answers: **Kendall's tau** counts pairs in the wrong order; **Spearman's rho** correlates the
        rank numbers.
        """),
        setup("""\
        from fractions import Fraction

        from irlab import kendall_tau_distance, spearman_rho
        """),
        md(r"""
        ## Kendall tau distance

        Look at every pair of items. A pair is **discordant** if the two rankings put its items in different
        orders. With $K_d$ discordant pairs among $n$ items:

        $$K_n = \frac{K_d}{n(n-1)/2}$$

        the share of pairs ordered differently: 0 for identical rankings, 1 for one the reverse of the other.
        """),
        code("""\
        a = "d1,d2,d3,d4"
        b = "d2,d1,d4,d3"
        kendall_tau_distance(a, b)
        """),
        md(r"""
        Kendall's **correlation coefficient** is the same count on a $[-1, 1]$ scale: with no ties,
        $\tau = \frac{\text{concordant} - \text{discordant}}{n(n-1)/2} = 1 - 2K_n$.
        """),
        code("""\
        K_n = kendall_tau_distance(a, b).value
        tau = 1 - 2 * K_n
        K_n, tau
        """),
        md(r"""
        ### Comparing system rankings

        Five systems ranked by MAP and by P@10 (made-up numbers). Do the two measures tell the same story?
        """),
        code("""\
        by_map = "BM25+RM3,BM25,LM-Dir,TF-IDF,Boolean"
        by_p10 = "BM25,BM25+RM3,TF-IDF,LM-Dir,Boolean"
        k = kendall_tau_distance(by_map, by_p10)
        print(f"K_n = {k.value}, tau = {1 - 2 * k.value}")
        """),
        md(r"""
        Two swaps of neighbours out of 10 pairs: $K_n = \frac15$, $\tau = 0.6$. Voorhees (2000) considered
        $\tau \ge 0.9$ as "essentially the same ranking".

        ### At a cut-off $k$

        Result lists of two engines rarely contain the same documents. `kendall_tau_distance(a, b, k=...)`
        compares only the documents that are in the **top $k$ of both** lists — irlab states which documents were
        dropped, because that choice hides the differences in *which* documents were returned:
        """),
        code("""\
        engine1 = "d1,d2,d3,d4,d5,d6"
        engine2 = "d2,d1,d7,d3,d5,d8"
        kendall_tau_distance(engine1, engine2, k=4)
        """),
        md(r"""
        ## Spearman's rho

        Spearman's rho is the (Pearson) correlation of the rank numbers; for rankings without ties it reduces to

        $$\rho = 1 - \frac{6\sum_i d_i^2}{n(n^2-1)}$$

        with $d_i$ the difference of item $i$'s two ranks. Unlike Kendall's tau, a large displacement costs
        quadratically.
        """),
        code("""\
        spearman_rho(a, b)
        """),
        md(r"""
        ### Tau and rho are not the same scale

        Move one item from the top to the bottom, or swap two far-apart items: the two coefficients react
        differently.
        """),
        code("""\
        base = "d1,d2,d3,d4,d5,d6"
        variants = {
            "swap neighbours d1,d2": "d2,d1,d3,d4,d5,d6",
            "move d1 to the end":    "d2,d3,d4,d5,d6,d1",
            "swap d1 and d6":        "d6,d2,d3,d4,d5,d1",
            "reverse":               "d6,d5,d4,d3,d2,d1",
        }
        print(f"{'change':24} {'K_n':>6} {'tau':>6} {'rho':>7}")
        for name, other in variants.items():
            kn = kendall_tau_distance(base, other).value
            rho = spearman_rho(base, other).value
            print(f"{name:24} {str(kn):>6} {str(1 - 2 * kn):>6} {str(rho):>7}")
        """),
        md(r"""
        ### Check yourself

        Rankings `a,b,c,d` and `b,c,d,a`: how many discordant pairs, what is $K_n$, what is $\rho$?
        """),
        code("""\
        my_discordant = 3
        my_Kn = Fraction(my_discordant, 6)
        my_rho = 1 - Fraction(6 * (3**2 + 1 + 1 + 1), 4 * (4**2 - 1))     # ← your answers
        assert my_Kn == kendall_tau_distance("a,b,c,d", "b,c,d,a").value
        assert my_rho == spearman_rho("a,b,c,d", "b,c,d,a").value
        print("Correct:", my_Kn, my_rho)
        """),
        md(r"""
        **Try it.** Write two rankings of your own — e.g. your favourite films ordered by you and by a friend —
        and compare them.
        """),
        code("""\
        mine = "Alien,Brazil,Casablanca,Dune,Eraserhead"          # ← change me
        friend = "Casablanca,Alien,Dune,Brazil,Eraserhead"
        print(kendall_tau_distance(mine, friend).value, spearman_rho(mine, friend).value)
        """),
        md(r"""
        ## Summary

        * $K_n = K_d / \binom{n}{2}$ is the share of discordant pairs; Kendall's $\tau = 1 - 2K_n$.
        * At a cut-off, only the documents in both top-$k$ lists are compared — a convention to state.
        * Spearman's $\rho$ penalises large displacements more than $\tau$ does.
          **Next:** [the chapter-8 exercise sheet](07_chapter8_exercises.ipynb).
        """),
    ]


# ------------------------------------------------------------------------------------------------
# 07 chapter-8 exercises
# ------------------------------------------------------------------------------------------------

@lesson("07_chapter8_exercises")
def _():
    return [
        md(r"""
        # 7. The chapter-8 exercise sheet, solved

        The exercise sheet of this unit is data: [`exercises/chapter8-seed.toml`](../exercises/chapter8-seed.toml)
        holds the statements, the parameters and, for each question, the metric or solver that answers it
        (format: [exercises/README.md](../exercises/README.md)). `irlab.exercise_set.solve(path, exercise_id)`
        returns the solution as a document — every step of every answer. From a terminal:
        `irlab solve exercises/chapter8-seed.toml`.

        Work through each exercise on paper first, then compare with the solution below.
        """),
        setup("""\
        import json

        import sympy

        from irlab import (Ranking, average_precision, f_measure, interpolated_precision, precision,
                           precision_at_recall, reciprocal_rank)
        from irlab.exercise_set import load, solve
        from irlab.solvers import map_bounds
        from irlab.solvers.map_bounds import lowest_ap_in_n

        SHEET = "../exercises/chapter8-seed.toml"     # relative to notebooks/, the kernel's working directory
        BOOK = "../exercises/chapter8-book.toml"


        def answers(document):
            \"\"\"The answers of a solved set, one line each (read from the JSON rendering).\"\"\"
            def walk(section):
                for answer in section.get("answers", []):
                    yield f"{section['exercise']} {section['question']})", answer
                for child in section.get("sections", []):
                    yield from walk(child)
            for question, answer in walk(json.loads(document.render("json"))):
                kind = "" if answer["primary"] else f"   [{answer['label']}]"
                print(f"{question:9} {answer['symbol']} = {answer['value']}  ≈ {answer['decimal']:.4f}{kind}")
        """),
        md(r"""
        ## Exercise 8/1 — and an inconsistent statement

        The sheet says the list has **20** letters and **6** relevant documents, but the list printed on it has
        **21** letters and **7** R's. The TOML file records both what the statement *claims*
        (`[exercise.stated]`) and the data, and says what to do on a mismatch:
        """),
        code("""\
        exercise = load(SHEET).exercise("8/1")
        print("data:   ", exercise.parameters["ranking"], f"({len(exercise.parameters['ranking'])} letters)")
        print("stated: ", exercise.stated)
        print("on_mismatch =", exercise.on_mismatch)
        """),
        md(r"""
        With `on_mismatch = "truncate"` irlab **warns** and solves with the first 20 documents, which agree with
        the text (20 letters, 6 R's). (The default, `"refuse"`, would stop with an error; `"data"` would use the
        21 letters.) The warning is the first thing in the solution:
        """),
        code("""\
        solve(SHEET, "8/1")
        """),
        md(r"""
        Does the interpretation change the answers? Questions a, b, e and h name the cut-off 20, so the 21st
        letter cannot matter there; c, d and the MAP bounds f, g look at the whole list. Both readings, side by side:
        """),
        code("""\
        top20 = Ranking.parse("RRNNNNNNRRNRNNNRNNNN", relevant=8, collection=10_000)
        top21 = Ranking.parse("RRNNNNNNRRNRNNNRNNNNR", relevant=8, collection=10_000)
        print(f"{'question':22} {'first 20 (irlab)':>22} {'all 21 letters':>22}")
        for question, compute in [
            ("a) P@20", lambda r: precision(r, k=20)),
            ("b) F1@20", lambda r: f_measure(r, k=20)),
            ("c) P at 25% recall", lambda r: precision_at_recall(r, "25%")),
            ("d) P_interp at 33%", lambda r: interpolated_precision(r, "33%")),
            ("e) AP@20", lambda r: average_precision(r, k=20)),
            ("f) highest AP", lambda r: map_bounds(r).answers[0].result),
            ("g) lowest AP", lambda r: map_bounds(r).answers[1].result),
            ("h) RR@20", lambda r: reciprocal_rank(r, k=20)),
        ]:
            print(f"{question:22} {str(compute(top20).value):>22} {str(compute(top21).value):>22}")
        """),
        md(r"""
        Only the lowest MAP differs. The highest is the same because in the best case the two missing relevant
        documents sit at ranks 21 and 22 — and the 21-letter list puts one of them exactly at rank 21. (c and d do
        not change: the extra document comes after recall 25% and 33% are reached, with a lower precision.)

        ## The MAP bounds, and the lowest MAP as a function of $N$

        The system ranked all $N = 10\,000$ documents; we see the top 20, holding 6 of the $R = 8$ relevant ones.
        The two missing ones are somewhere in ranks $21..N$:

        * **highest AP**: they come right after the top — ranks 21 and 22;
        * **lowest AP**: they come last — ranks $N-1$ and $N$.

        $$\mathrm{AP}_{\min}(N) = \frac{1}{8}\Bigl(\underbrace{\tfrac11 + \tfrac22 + \tfrac39 + \tfrac4{10}
        + \tfrac5{12} + \tfrac6{16}}_{\text{top 20}} + \frac{7}{N-1} + \frac{8}{N}\Bigr)$$

        irlab's solver gives this as a sympy expression in $N$:
        """),
        code("""\
        expression, N = lowest_ap_in_n(top20)
        expression
        """),
        code("""\
        print(sympy.factor(expression))
        at_10000 = expression.subs(N, 10_000)
        limit = sympy.limit(expression, N, sympy.oo)
        print("N = 10000:", at_10000, "≈", float(at_10000))
        print("N → ∞:    ", limit, "≈", float(limit), " = AP of the top 20 alone (÷ R)")
        assert at_10000 == map_bounds(top20).answers[1].value
        assert limit == average_precision(top20).value
        """),
        md(r"""
        As the collection grows, the two missing documents contribute nothing, and the lowest MAP tends to the AP
        computed from the top 20 alone, $\frac{141}{320}$. With $N = 10\,000$ that estimate is already within
        $10^{-3}$ of the lowest value — but up to $\frac{23}{264} \approx 0.087$ below the highest.
        The solver's explanation of the lowest value (question g):
        """),
        code("""\
        map_bounds(top20).answers[1].result
        """),
        md(r"""
        ## Exercise 8/2
        """),
        code("""\
        solve(SHEET, "8/2")
        """),
        md(r"""
        ## Exercise 8/3 — macro and micro F, MAP over two queries

        The F-measure of a *system* over several queries can be averaged in two ways: **macro** (compute F per
        query, then average) or **micro** (pool the counts, then compute F). They differ whenever the queries
        differ in size.
        """),
        code("""\
        solve(SHEET, "8/3")
        """),
        md(r"""
        ## Exercise 8/4 — kappa and aggregated judgments
        """),
        code("""\
        solve(SHEET, "8/4")
        """),
        md(r"""
        ## All the answers at a glance
        """),
        code("""\
        answers(solve(SHEET))
        """),
        md(r"""
        ## IIR Exercise 8.9, the textbook's own list

        [`exercises/chapter8-book.toml`](../exercises/chapter8-book.toml) is IIR Exercise 8.9 with the book's
        20-letter list `RRNNNNNNRNRNNNRNNNNR` (6 relevant, consistent with its text). Same questions, plus the error
        of estimating MAP from the top 20:
        """),
        code("""\
        answers(solve(BOOK))
        """),
        md(r"""
        **Try it.** Copy `chapter8-seed.toml`, change the ranking or $R$ of an exercise, and solve your copy:
        `solve("my-sheet.toml")`. No code changes are needed — the sheet is data.

        ### Check yourself

        What is the AP@20 of Exercise 8/1 if one (wrongly) divides by the relevant documents *retrieved*?
        """),
        code("""\
        from fractions import Fraction

        my_answer = (1 + 1 + Fraction(3, 9) + Fraction(4, 10) + Fraction(5, 12) + Fraction(6, 16)) / 6   # ← yours
        assert my_answer == average_precision(top20, k=20, ap_denominator="retrieved").value
        print("Correct:", my_answer, "— irlab shows it as the 'alternative reading' of question e.")
        """),
        md(r"""
        ## Summary

        * Exercise sheets are data; `solve` explains every answer. Inconsistent statements are reported, never
          silently "fixed" — Exercise 8/1 is solved with the 20 letters its text describes.
        * The MAP of a partially seen ranking lies between two bounds; the lowest one, as a function of $N$,
          tends to the AP of the top list alone.

        Notebooks 8 (TREC runs) and 9 (homework) continue the unit.
        """),
    ]


# ------------------------------------------------------------------------------------------------
# 08 TREC runs
# ------------------------------------------------------------------------------------------------

@lesson("08_trec_runs")
def _():
    return [
        md(r"""
        # 8. Evaluating a real run: TREC qrels and run files

        *Unit: evaluation in information retrieval (IIR chapter 8). Notebook 8 of the unit.*

        So far every ranking was a short list of letters or grades typed by hand. Research systems are evaluated
        differently: a system writes a **run file** (its ranked answers to many topics) and the assessors' judgments
        come as a **qrels file**; a program — in IR almost always `trec_eval` — compares the two and prints one
        number per measure and topic. In this notebook you will

        * read a small qrels/run pair and see how `trec_eval` **orders** a run (ties!) and what it does with
          **unjudged** and **negatively judged** documents,
        * compute the **official measures** in `trec_eval`'s own output format, and a **per-topic table**,
        * plot the per-topic values — a mean hides how different topics are,
        * **explain one topic** step by step with the exact metrics of notebooks 2 and 4, and check that the
          batch evaluator and the exact computation agree.

        The files in [`data/`](data/) are synthetic and deliberately small: four judged topics, twenty retrieved
        documents per topic, graded judgments (0–3, one $-1$), unjudged documents and tied scores.
        """),
        setup("""\
        from pathlib import Path

        from IPython.display import Markdown

        from irlab import average_precision, ndcg, precision, reciprocal_rank
        from irlab.plots import topic_bars
        from irlab.topic_ranking import topic_ranking
        from irlab.trec import evaluate, format_result, read_qrels, read_run, topic_judgments

        QRELS, RUN = "data/qrels.txt", "data/run.txt"
        """),
        md(r"""
        ## The two files

        A **qrels** line is `topic iteration docno grade`. The iteration column is historical and ignored; the grade
        is an integer — 0 non-relevant, higher is better, and some collections use negative grades for documents
        the assessors saw but could not judge (spam, broken pages).
        """),
        code("""\
        qrels_lines = Path(QRELS).read_text().splitlines()
        print(len(qrels_lines), "judgments; those of topic 401:")
        print("\\n".join(line for line in qrels_lines if line.startswith("401 ")))
        """),
        md(r"""
        A **run** line is `topic Q0 docno rank score runid`: the system's answer, one line per retrieved document.
        `Q0` is a fixed placeholder; `runid` names the system.
        """),
        code("""\
        run_lines = Path(RUN).read_text().splitlines()
        print(len(run_lines), "lines; the first 12:")
        print("\\n".join(run_lines[:12]))
        """),
        md(r"""
        irlab reads both (plain or gzip-compressed) into arrays. Note which topics each file has:
        """),
        code("""\
        qrels, run = read_qrels(QRELS), read_run(RUN)
        print("qrels topics:", qrels.topic_names, " judgments:", len(qrels))
        print("run topics:  ", run.topic_names, " lines:", len(run), " runid:", run.runid)
        """),
        md(r"""
        Topic 404 was judged but the system returned nothing for it; topic 405 was answered but never judged. We come
        back to both below.

        ## How trec_eval reads a run

        **Pitfall 1 — the rank column is ignored.** `trec_eval` sorts each topic's documents itself: by **score
        descending**, and documents with the *same* score by **docno descending** (byte order). Look at ranks 3–4
        and 10–12 of topic 401 in the file: the system wrote tied scores and listed the tied documents in ascending
        docno order.
        """),
        code("""\
        for line in run_lines[2:4] + run_lines[9:12]:
            print(line)
        """),
        md(r"""
        `topic_judgments` shows the topic as `trec_eval` sees it: the documents in its order, each with its score
        and its grade in the qrels (`None` when the document is not in the qrels at all).
        """),
        code("""\
        judged = topic_judgments(QRELS, RUN, "401")
        print("rank  docno   score  grade")
        for rank, (docno, score, grade) in enumerate(zip(judged.ranked, judged.scores, judged.grades), 1):
            print(f"{rank:4}  {docno}  {score:5.2f}  {'unjudged' if grade is None else grade}")
        print("judged but not retrieved, grades:", judged.unretrieved)
        """),
        md(r"""
        The tie at 11.77 was broken in favour of `doc275` (grade 3), which moves *up* to rank 3; the tie at 7.73
        pushed the relevant `doc232` *down* to rank 12. The system's own rank column said the opposite both times.
        If the order of tied documents matters to you, give them distinct scores: `trec_eval` will not read your
        mind — and neither will any tool that wants to agree with it.

        **Pitfall 2 — what counts as relevant.** A document is relevant when its grade is at least the
        *relevance level* (`relevance_level=1` by default, `trec_eval -l`). So

        * `doc112` (grade $-1$) is judged but **non-relevant**;
        * `doc387` and `doc143` are **unjudged** — not in the qrels — and count as **non-relevant** too. With
          pooling, an unjudged document was ranked by no system deeply enough to be judged; a new system that
          finds many of them is penalised (measures such as `bpref` try to cope with that).
        * $R$ counts every judged relevant document of the topic, **retrieved or not**: topic 401 has 6 relevant
          documents retrieved and 2 more (grades 2 and 1) that the system missed, so $R = 8$.

        ## The official measures

        `evaluate` computes `trec_eval`'s measures with its exact semantics; `format_result` prints them in
        `trec_eval`'s text format. `"official"` is `trec_eval`'s default set:
        """),
        code("""\
        official = evaluate(QRELS, RUN, "official")
        print(format_result(official))
        """),
        md(r"""
        From the command line, `irlab eval data/qrels.txt data/run.txt` prints the same; `-m all_trec` asks for every
        measure and `-q` adds one line per topic (`irlab eval data/qrels.txt data/run.txt -m all_trec -q`).

        A few lines deserve a comment:

        * `num_q = 3`: topic **405** is not in the qrels, so it is skipped; topic **404** is not in the run, so it is
          skipped **as well**. A system that returns nothing for a hard topic is not punished for it!
        * `num_rel = 21` counts the relevant documents of the three evaluated topics only.
        * `P_100 = 0.0567` although the system retrieved only 20 documents per topic: $P@100$ divides by 100.
        * `gm_map` is the geometric mean of AP, which rewards improving the bad topics.

        **Pitfall 3 — missing topics.** `complete=True` (`trec_eval -c`) evaluates every judged topic, an empty
        ranking scoring 0. That is the fair comparison between systems; without it, MAP is a mean over a
        system-dependent set of topics.
        """),
        code("""\
        for complete in (False, True):
            result = evaluate(QRELS, RUN, ["map", "ndcg"], complete=complete)
            print(f"complete={complete!s:5}  topics {sorted(result.per_topic)}  "
                  f"MAP = {result.summary['map']:.4f}  nDCG = {result.summary['ndcg']:.4f}")
        """),
        md(r"""
        ## The per-topic table

        A mean over topics is a summary; the per-topic values are the data. `evaluate` returns them in
        `.per_topic` (topic → measure → value):
        """),
        code("""\
        measures = ["num_ret", "num_rel", "num_rel_ret", "map", "recip_rank", "P.10", "ndcg"]
        per_topic = evaluate(QRELS, RUN, measures)
        columns = [c for c in per_topic.columns if c != "runid"]

        def cell(column, value):
            return str(value) if column in per_topic.integer_columns else f"{value:.4f}"

        rows = ["| topic | " + " | ".join(columns) + " |", "|---" * (len(columns) + 1) + "|"]
        for topic, values in per_topic.per_topic.items():
            rows.append(f"| {topic} | " + " | ".join(cell(c, values[c]) for c in columns) + " |")
        rows.append("| **all** | " + " | ".join(cell(c, per_topic.summary[c]) for c in columns) + " |")
        Markdown("\\n".join(rows))
        """),
        md(r"""
        The same numbers in `trec_eval -q` format (per topic first, then `all`), here for two measures:
        """),
        code("""\
        print(format_result(evaluate(QRELS, RUN, ["map", "ndcg"]), per_topic=True))
        """),
        md(r"""
        `irlab.plots.topic_bars` draws one bar per topic and the mean as a dashed line. Topic 403 is easy, topic 402
        hard; a MAP of 0.51 describes neither.
        """),
        code("""\
        topic_bars({topic: values["map"] for topic, values in per_topic.per_topic.items()}, "AP")
        """),
        md(r"""
        ## Explaining one topic: from the run back to the textbook

        A batch evaluator prints 0.4226 and nothing else. `topic_ranking(qrels, run, topic)` turns one topic into
        the `Ranking` of the earlier notebooks — in `trec_eval`'s order, unjudged and negative grades set to 0, the
        judged documents not retrieved kept for $R$ and the ideal ranking — plus notes that say what was assumed
        (every result computed on that ranking repeats them).
        Every exact metric then explains the number:
        """),
        code("""\
        ranking, notes = topic_ranking(QRELS, RUN, "401")
        for note in notes:
            print(f"{note.kind}: {note.text}")
        print(ranking.retrieved, "retrieved;", ranking.relevant_retrieved, "relevant retrieved; R =", ranking.total_relevant)
        """),
        code("""\
        ap_401 = average_precision(ranking)
        ap_401
        """),
        md(r"""
        The table lists the documents by docno, so you can find each one in the files. The tie-break shows in the
        contributions: had `doc232` kept the system's rank 10, it would contribute $\frac{5}{10}$ instead of
        $\frac{5}{12}$.

        **nDCG the way trec_eval computes it.** `trec_eval`'s `ndcg` uses the grade itself as the gain
        (**linear** gain, $\mathrm{gain}(g) = g$), the $\frac{1}{\log_2(i+1)}$ discount, no cut-off, and an ideal
        ranking made of *all* judged grades of the topic — including the two relevant documents the system missed.
        irlab's default gain is the exponential $2^g - 1$ of Burges et al. and IIR (notebook 4), so pass
        `gain="linear"` to get `trec_eval`'s number (`irlab explain ndcg --qrels … --run … --topic …` does this for
        you, and says so).
        """),
        code("""\
        ndcg_401 = ndcg(ranking, gain="linear")
        ndcg_401
        """),
        code("""\
        batch = per_topic.per_topic["401"]
        print(f"AP    exact {ap_401.value} ≈ {float(ap_401):.10f}   batch {batch['map']:.10f}")
        print(f"nDCG  exact ≈ {float(ndcg_401):.10f}   batch {batch['ndcg']:.10f}")
        print(f"nDCG with the exponential gain ≈ {float(ndcg(ranking)):.10f}  (not what trec_eval reports)")
        """),
        md(r"""
        **Pitfall 4 — the gain convention.** With the exponential gain the same topic scores 0.5929 instead of
        0.6385. Papers rarely say which gain they used; when you compare your nDCG with a published one, check.

        ## Batch and exact agree — on every topic

        The batch evaluator computes with floating-point numpy arrays for speed; the exact metrics compute with
        fractions and symbolic logarithms. They are two independent implementations, so agreement on every topic and
        measure is a real check (irlab's test suite also compares the batch evaluator with `pytrec_eval`).
        """),
        code("""\
        print("topic  measure     exact            batch            |difference| < 1e-12")
        for topic, values in per_topic.per_topic.items():
            ranking_t, _ = topic_ranking(QRELS, RUN, topic)
            exact_values = {
                "map": average_precision(ranking_t),
                "recip_rank": reciprocal_rank(ranking_t),
                "P_10": precision(ranking_t, k=10),
                "ndcg": ndcg(ranking_t, gain="linear"),
            }
            for measure, result in exact_values.items():
                agree = abs(float(result) - values[measure]) < 1e-12
                print(f"{topic}    {measure:10}  {float(result):.12f}   {values[measure]:.12f}   {agree}")
                assert agree
        """),
        md(r"""
        The relevance level and the depth work the same way in both: `evaluate(..., relevance_level=2)` counts only
        grades 2 and 3 as relevant (`trec_eval -l 2`), and `topic_ranking(..., threshold=2)` builds the matching
        ranking; `depth=10` (`trec_eval -M 10`) keeps only each topic's top 10.
        """),
        code("""\
        strict = evaluate(QRELS, RUN, ["map"], relevance_level=2)
        for topic in strict.per_topic:
            ranking_t, _ = topic_ranking(QRELS, RUN, topic, threshold=2)
            ap = average_precision(ranking_t)
            print(f"topic {topic}: AP at level 2 = {ap.value} ≈ {float(ap):.4f}   batch {strict.per_topic[topic]['map']:.4f}")
        """),
        md(r"""
        From the command line, the explanation of one topic is
        `irlab explain ap --qrels data/qrels.txt --run data/run.txt --topic 401` (any metric name instead of `ap`;
        `--threshold` and `--k` as usual).

        **Try it.** Explain another topic: change `"401"` below to `"402"` or `"403"`, or pass `threshold=2`. Which
        rank of topic 402 contributes most to its AP?
        """),
        code("""\
        my_ranking, my_notes = topic_ranking(QRELS, RUN, "402")     # ← change me
        print(average_precision(my_ranking))
        """),
        md(r"""
        ### Check yourself

        From the per-topic listing of topic 402 (run `topic_judgments(QRELS, RUN, "402")`, or read the files),
        work out **by hand** its reciprocal rank and its $P@10$, as fractions. Remember the tie-break and that
        unjudged documents are non-relevant.
        """),
        code("""\
        from fractions import Fraction

        my_rr, my_p10 = Fraction(1, 2), Fraction(3, 10)   # ← your answers

        ranking_402, _ = topic_ranking(QRELS, RUN, "402")
        assert my_rr == reciprocal_rank(ranking_402).value, "RR = 1 / rank of the first relevant document"
        assert my_p10 == precision(ranking_402, k=10).value, "P@10 = relevant in the top 10 / 10"
        assert abs(float(my_p10) - per_topic.per_topic["402"]["P_10"]) < 1e-12
        print("Both correct, and trec_eval agrees.")
        """),
        md(r"""
        ## Summary

        * A run is ranked by **score descending, ties by docno descending**; the rank column is ignored.
        * Unjudged and negatively judged documents count as non-relevant; $R$ counts the judged relevant
          documents whether retrieved or not.
        * Topics missing from the run are skipped unless `complete=True` (`-c`); topics missing from the qrels are
          always skipped.
        * `trec_eval`'s `ndcg` uses the **linear** gain and all judged documents for the ideal ranking.
        * `topic_ranking` is the bridge from a batch number to an explanation; the exact and batch values agree.

        Notebook 9 turns to the classroom: personal homework variants and automatic checking of answers.
        """),
    ]


# ------------------------------------------------------------------------------------------------
# 09 homework checking
# ------------------------------------------------------------------------------------------------

@lesson("09_homework_checking")
def _():
    return [
        md(r"""
        # 9. Homework: personal variants, checked answers, a graded class

        *Unit: evaluation in information retrieval (IIR chapter 8). Notebook 9 of the unit.*

        Exercises with numbers have two weaknesses as homework: students copy each other's numbers, and a wrong
        number says nothing about *what* went wrong. irlab addresses both:

        * every student gets a **personal variant** of an exercise — same questions, their own ranking and $R$ —
          with a worked **answer key**;
        * an answer is **checked** against the student's variant, and a wrong one is **diagnosed**: irlab recomputes
          the question under every alternative convention and common slip (AP divided by the relevant documents
          retrieved, the cut-off one off, a percentage without its sign, …) and names the one that matches;
        * `assert_answer` turns a check into a test cell for nbgrader or otter-grader;
        * `grade` grades a whole class from a CSV file and lists the **most common mistakes** — what to re-teach.

        This notebook is written for both sides: students see what the feedback means, instructors see how to set
        it up. The exercise set is [`exercises/homework-variants.toml`](../exercises/homework-variants.toml) (its
        format: [`exercises/README.md`](../exercises/README.md), section *Homework*).
        """),
        setup("""\
        import irlab
        from irlab.homework import answer_key_document, grade, sheet_document, variant_set

        SET = "../exercises/homework-variants.toml"
        SEED = 2026          # one seed per course and term: the same student and seed always get the same sheet
        """),
        md(r"""
        ## One exercise, many variants

        Exercise 1 of the set, as written:
        """),
        code("""\
        sheet_document(SET, None, exercise_id="1")
        """),
        md(r"""
        Its data declares **ranges** instead of fixed numbers (`[exercise.variants]`): a ranked list of 8 to 12
        documents with 3 to 6 relevant ones, $R$ between 5 and 9, a collection of 200, 500 or 1000 documents. The
        questions never name a number that varies, so every variant makes sense. Student `s001`'s sheet:
        """),
        code("""\
        sheet_document(SET, "s001", SEED, exercise_id="1")
        """),
        md(r"""
        Each student's numbers are drawn by a random generator seeded with the SHA-256 of the set, the exercise, the
        student id and the seed — so they are **reproducible** (no list of variants to store), and different for
        every student:
        """),
        code("""\
        for student in ("s001", "s101", "s102", "s103", "s104", "s001"):
            parameters = variant_set(SET, student, SEED).exercise("1").parameters
            print(student, parameters)
        """),
        md(r"""
        A draw is issued only when it is **consistent**: $R$ at least the relevant documents shown, the collection
        large enough, every question solvable (no recall with $R = 0$). Otherwise the generator draws again, just as
        deterministically. The statement's counts ("the list contains 4 relevant documents") are recomputed from
        the variant, so text and data never disagree.

        The answer key is the worked solution of *that* variant — every step with exact values:
        """),
        code("""\
        answer_key_document(SET, "s001", SEED, exercise_id="1")
        """),
        md(r"""
        From the command line: `irlab sheet exercises/homework-variants.toml --student s001 --seed 2026` (add `--key`
        for the answer key, `--pdf s001.pdf` for printable PDFs of both).

        ## Checking one answer

        `irlab.check(file, exercise, question, answer, student=..., seed=...)` returns a `Feedback`, which displays in
        Jupyter (green bar: correct). Answers are text, as a student would type them: integers, fractions, decimals
        (`0.42`, `.42`, `0,42`) or percentages (`42%`); by default a value within a relative tolerance of 1 % is
        right.
        """),
        code("""\
        irlab.check(SET, "1", "d", "29/72", student="s001", seed=SEED)
        """),
        code("""\
        for answer in ("29/72", "0.4028", ".403", "0,4028", "40.28%", "0.41"):
            feedback = irlab.check(SET, "1", "d", answer, student="s001", seed=SEED)
            print(f"{answer:>7}: {feedback}")
        """),
        md(r"""
        `bool(feedback)` tells whether the answer is correct, `feedback.score` the credit (a fraction: a question
        with several parts, such as "P, R and F", gives partial credit per part).

        ## Reading the diagnosis

        The interesting case is a wrong answer. irlab does not just say "wrong": it re-solves the question under
        every mistake it knows — with its own solvers, on this student's variant — and says which one produces the
        student's number, and at which step of the worked solution the computations part ways.
        """),
        code("""\
        wrong = [
            ("d", "0.604"),   # AP: the sum of precisions divided by the relevant documents *retrieved*
            ("b", "0.75"),    # P@5 computed as P@4
            ("b", "60"),      # 60 %, written without the % sign
            ("e", "0.6"),     # a mistake irlab does not know
            ("b", "three fifths"),
        ]
        for question, answer in wrong:
            print(f"1{question} = {answer!r}:")
            print("   ", irlab.check(SET, "1", question, answer, student="s001", seed=SEED))
        """),
        md(r"""
        Read them as a teacher would:

        * **AP divided by the relevant documents retrieved** — the most frequent AP mistake, and not a silly one:
          some textbooks and libraries define AP that way (notebook 2 compares the three denominators). This
          exercise says "divide by all relevant documents", so the answer is wrong — and the feedback says *which*
          denominator was used.
        * **k off by one** — the student counted the top 4 (or 6) instead of the top 5.
        * **Percent without its sign** — 60 is right as a percentage, but "60" means sixty. Write `60%` or `0.6`.
        * **No known mistake** — irlab says so honestly rather than guessing, and points to the worked solution.
        * **Unreadable answers** are graded wrong with a message, never an error.

        **Pitfall — checking against the wrong variant.** An answer is only right for one variant. Checked without
        `student=`, the set is used as written (another ranking), and s001's correct answer is wrong there — and no
        known mistake explains it:
        """),
        code("""\
        irlab.check(SET, "1", "d", "29/72")
        """),
        md(r"""
        ## In an autograded notebook: `assert_answer`

        nbgrader and otter-grader run *test cells*: a cell that raises fails the test, and its message is shown to
        the student. `irlab.assert_answer` is `check` that raises `AssertionError` with the feedback as the message
        when the answer is wrong, and returns the feedback when it is right:
        """),
        code("""\
        irlab.assert_answer(SET, "1", "d", "29/72", student="s001", seed=SEED)   # correct: passes
        """),
        code("""\
        student_answer = "0.604"          # what the student wrote in the cell above the test
        try:
            irlab.assert_answer(SET, "1", "d", student_answer, student="s001", seed=SEED)
        except AssertionError as failure:
            print("The test fails with the message:")
            print(failure)
        """),
        md(r"""
        In a real test cell you would not catch the error — the failure *is* the test result; the `try` here only
        shows its message. With nbgrader, the student id usually comes from the notebook's metadata or an
        environment variable set by the course's tooling.

        ## Grading a class

        Answers come back as a CSV with the columns `student,exercise,question,answer` — from a form, a spreadsheet
        or an LMS export. [`data/class-answers.csv`](data/class-answers.csv) holds the answers of five students to
        Exercise 1 (each to their own variant):
        """),
        code("""\
        print(open("data/class-answers.csv").read())
        """),
        md(r"""
        `grade(set, answers, seed=...)` grades every row against the student's own variant (every question is worth
        one point, split between its parts). The report displays as tables: scores per student and per question,
        the most common mistakes, and every student's feedback.
        """),
        code("""\
        report = grade(SET, "data/class-answers.csv", seed=SEED)
        report.document()
        """),
        md(r"""
        The *most common mistakes* are the instructor's to-do list: two students divided AP by the relevant
        documents retrieved, two were off by one in $P@5$, two wrote percentages without the sign. That is worth
        five minutes of the next lecture. The one unexplained answer (s102, question e) is worth a look at the
        student's work; s102's `0.33` for question f is close but not exact, and that question asks for the exact
        fraction (`form = "fraction"` in the set). The summaries are also data:
        """),
        code("""\
        for mistake in report.mistake_summary():
            print(f"{mistake['mistake']:34} answers: {mistake['answers']}  students: {mistake['students']}  "
                  f"where: {', '.join(mistake['questions'])}")
        """),
        md(r"""
        For a grade book, `report.to_csv()` gives one row per student and question (score, answer, mistakes,
        feedback) and a total row per student; `report.to_json()` everything. The command line does the same:
        `irlab grade exercises/homework-variants.toml answers.csv --seed 2026 --format text` (or `csv`, `json`).
        """),
        code("""\
        print("\\n".join(report.to_csv().splitlines()[:8]))
        """),
        md(r"""
        The repository's [`exercises/sample-answers.csv`](../exercises/sample-answers.csv) holds two students' answers
        to IIR Exercise 8.9 (`chapter8-book.toml`); the same two mistakes top that class's list:
        """),
        code("""\
        sample = grade("../exercises/chapter8-book.toml", "../exercises/sample-answers.csv", seed=SEED)
        for mistake in sample.mistake_summary():
            print(f"{mistake['mistake']}: {mistake['answers']} answers, {mistake['students']} students, "
                  f"{', '.join(mistake['questions'])}")
        for student in sample.students:
            print(student.student, student.score, "of", student.max_score)
        """),
        md(r"""
        **Try it.** Pick a student id of your own (your initials), print your sheet with
        `sheet_document(SET, "me", SEED, exercise_id="1")`, answer question **a** and check it. Then make one of
        the mistakes on purpose and read the feedback.
        """),
        code("""\
        me = "s999"                                             # ← your id
        print(sheet_document(SET, me, SEED, exercise_id="1"))
        irlab.check(SET, "1", "a", "5/8", student=me, seed=SEED)   # ← your answer to question a
        """),
        md(r"""
        ### Check yourself

        Student `s103` got the ranking `NNNRRRRRN` with $R = 5$ relevant documents in the collection. Compute the
        average precision of the list **by hand** (divide by all relevant documents) and write it as a fraction or
        a decimal; the test cell below is what an autograder would run.
        """),
        code("""\
        my_ap = "657/1400"                                      # ← your answer
        irlab.assert_answer(SET, "1", "d", my_ap, student="s103", seed=SEED)
        """),
        md(r"""
        ## Summary

        * A personal variant is a pure function of set, exercise, student and seed: reproducible, consistent, with its
          own worked answer key.
        * `check` accepts answers as students write them and **names the mistake** behind a wrong one, or says that
          it knows none; `assert_answer` makes it an autograder test.
        * Always check against the student's own variant (`student=`, `seed=`).
        * `grade` turns a CSV of answers into scores, feedback and the class's most common mistakes.
        """),
    ]


# ------------------------------------------------------------------------------------------------

def build(name: str, cells) -> nbformat.NotebookNode:
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = dict(KERNELSPEC)
    nb.metadata["language_info"] = {"name": "python"}
    for number, (kind, source) in enumerate(cells, 1):
        cell = (nbformat.v4.new_markdown_cell if kind == "markdown" else nbformat.v4.new_code_cell)(source)
        cell["id"] = f"{name[:2]}-{number:02d}"
        nb.cells.append(cell)
    return nb


def execute(nb: nbformat.NotebookNode) -> None:
    from nbclient import NotebookClient

    from nbconvert.preprocessors import CoalesceStreamsPreprocessor

    client = NotebookClient(nb, timeout=300, kernel_name=KERNELSPEC["name"], record_timing=False,
                            resources={"metadata": {"path": str(HERE)}})
    client.execute()
    # a print() may reach the notebook in several chunks, depending on when the kernel flushes its output;
    # store each stream in one piece (nbval merges the chunks before comparing, so either way passes)
    CoalesceStreamsPreprocessor().preprocess(nb, {})


def main(argv: list[str]) -> int:
    run = "--no-execute" not in argv
    wanted = [a for a in argv if not a.startswith("--")]
    for name, cells in LESSONS.items():
        if wanted and not any(name.startswith(w) for w in wanted):
            continue
        nb = build(name, cells)
        if run:
            execute(nb)
        path = HERE / f"{name}.ipynb"
        nbformat.validate(nb)
        nbformat.write(nb, path)
        print(f"{path.relative_to(HERE.parent)}: {path.stat().st_size // 1024} KiB")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
