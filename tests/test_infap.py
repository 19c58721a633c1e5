"""infAP explained: hand-computed values, and the same numbers as trec_eval 10.0 and irlab's batch evaluator."""

import json
import random
from fractions import Fraction

import pytest

import trec_eval_oracle
from irlab import Ranking
from irlab.errors import RankingError
from irlab.metrics import get_metric, infap
from irlab.topic_ranking import topic_ranking
from irlab.trec import evaluate


def value(text, **known):
    return infap(Ranking.parse(text, **known)).value


def test_hand_computed_values():
    # RSNUR, R = 3: E[P@1] = 1; at rank 5 the pool above holds R, S, N (d = 3; the U is outside the pool), one
    # judged relevant and one judged non-relevant: 1/5 + 4/5 · 3/4 · (1 + eps)/(2 + 2 eps) = 1/5 + 3/10 = 1/2
    assert value("RSNUR", relevant=3) == Fraction(1, 2)  # (1 + 1/2) / 3
    # NR: 1/2 + 1/2 · 1/1 · eps/(1 + 2 eps) with eps = 1/100000, i.e. 1/2 + 1/200004
    assert value("NR") == Fraction(1, 2) + Fraction(1, 200004) == Fraction(100003, 200004)
    # SR: nothing judged above rank 2, so the sampled-out document counts half: 1/2 + 1/2 · 1 · eps/(2 eps) = 3/4
    assert value("SR") == Fraction(3, 4)
    # UR: the document above is outside the pool, so it counts as non-relevant: E[P@2] = 1/2
    assert value("UR") == Fraction(1, 2)
    # URNR, R = 2: E[P@2] = 1/2; E[P@4] = 1/4 + 3/4 · 2/3 · 1/2 = 1/2
    assert value("URNR", relevant=2) == Fraction(1, 2)
    # everything judged and r_k = n_k: the same as AP, (1 + 2/3) / 2
    assert value("RNRN") == Fraction(5, 6) == get_metric("ap").compute(Ranking.parse("RNRN")).value
    # graded judgments with threshold 2: grade 1 is judged non-relevant
    assert infap(Ranking.parse("1,2", threshold=2)).value == Fraction(100003, 200004)


def test_no_relevant_documents_give_zero():
    result = infap(Ranking.parse("NSU"))
    assert result.value == 0 and "reported as 0" in result.render("text")


def test_the_table_sorts_every_document_into_its_kind():
    result = infap(Ranking.parse("RSNUR", relevant=3))
    (table,) = result.tables
    assert [row[1:3] for row in table.rows] == [("R", "judged relevant"), ("S", "in the pool, sampled out (not judged)"),
                                                 ("N", "judged non-relevant"), ("U", "not in the pool"),
                                                 ("R", "judged relevant")]
    # rank 5: 4 ranked above, 3 of them pooled, 1 judged relevant, 1 judged non-relevant, E[P@5] = 1/2
    assert table.rows[4][3:] == (4, 3, 1, 1, Fraction(1, 2))


@pytest.mark.parametrize("fmt", ["text", "markdown", "latex", "html", "json"])
def test_renders_in_every_format(fmt):
    out = get_metric("infAP").compute(Ranking.parse("RSNUR", relevant=3)).render(fmt)
    if fmt == "json":
        data = json.loads(out)
        assert data["value"] == "1/2" and data["tables"][0]["rows"][1][2] == "in the pool, sampled out (not judged)"
    else:
        assert "infAP" in out and "sampled out" in out
    if fmt == "text":
        assert "E[P@5] = 1 / k + (k - 1) / k · d_k / (k - 1)" in out
        assert "= 1 / 5 + (5 - 1) / 5 · 3 / (5 - 1) · (1 + 1/100000) / (1 + 1 + 2 · (1/100000))" in out


def test_explain_on_the_command_line(cli):
    done = cli("explain", "infap", "RSNUR", "--relevant", "3")
    assert done.returncode == 0 and "Result: infAP = 1/2 = 0.5" in done.stdout
    done = cli("explain", "infap", "RXNR")
    assert done.returncode == 2 and "S for in the pool but sampled out" in done.stderr


def test_sampled_out_ranks_must_be_unjudged():
    with pytest.raises(RankingError, match="sampled-out"):
        Ranking((1, 0), sampled_out=(2,))


# TREC files: qrels grade -1 marks a pooled document that was not judged ---------------------------------------

def _collection(seed):
    """Qrels with grades -1..2 and a run with tied scores, for 6 topics (some documents absent from the qrels)."""
    rng = random.Random(seed)
    qrels, run = [], []
    for topic in range(401, 407):
        docs = [f"d{i:02d}" for i in range(rng.randint(8, 25))]
        for doc in docs:
            if rng.random() < 0.7:  # in the pool
                qrels.append(f"{topic} 0 {doc} {rng.choice([-1, -2, 0, 0, 1, 2])}")  # any negative grade: pooled, not judged
        ranked = rng.sample(docs, rng.randint(1, len(docs)))
        for rank, doc in enumerate(ranked, 1):
            run.append(f"{topic} Q0 {doc} {rank} {rng.choice([1, 2, 2.5, 3])} sys")
    return "\n".join(qrels) + "\n", "\n".join(run) + "\n"


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("level", [1, 2])
def test_explained_infap_equals_trec_eval_and_the_batch_evaluator(trec_eval_binary, tmp_path, seed, level):
    qrels_text, run_text = _collection(seed)
    qrels, run = tmp_path / "qrels", tmp_path / "run"
    qrels.write_text(qrels_text)
    run.write_text(run_text)
    done = trec_eval_oracle.run(trec_eval_binary, ["-q", "-l", str(level), "-m", "infAP", qrels, run])
    assert done.returncode == 0, done.stderr
    printed = {fields[1]: fields[2] for fields in (line.split() for line in done.stdout.decode().splitlines())
               if fields[1] != "all"}
    batch = evaluate(str(qrels), str(run), ["infAP"], relevance_level=level).per_topic
    assert printed and set(printed) == set(batch)
    for topic, shown in printed.items():
        ranking, _ = topic_ranking(str(qrels), str(run), topic, threshold=level)
        exact = infap(ranking).value
        assert f"{float(exact):.4f}" == shown, (topic, exact)
        assert abs(float(exact) - batch[topic]["infAP"]) < 1e-12


def test_the_exercise_in_chapter8_systems():
    from pathlib import Path

    from irlab.exercise_set import Where, load, solve_question

    path = Path(__file__).resolve().parents[1] / "exercises" / "chapter8-systems.toml"
    exercise = load(path).exercise("infap")
    values = [solve_question(dict(exercise.parameters), q, Where(path, "infap", q.id)).answers[0].value
              for q in exercise.questions]
    # AP = (1 + 2/5) / 3 (S and U count as non-relevant); bpref = (1 + 0) / 3 (the N above rank 5 costs it all,
    # min(R, N) = 1); infAP = (1 + 1/2) / 3
    assert values == [Fraction(7, 15), Fraction(1, 3), Fraction(1, 2)]


def test_a_student_reads_what_S_U_and_the_symbols_mean():
    text = infap(Ranking.parse("RSNUR", relevant=3)).render("text")
    assert ("2 unjudged documents (1 U, outside the pool; 1 S, in the pool but sampled out) count as non-relevant, "
            "as in trec_eval; bpref skips them; infAP counts only U as non-relevant and estimates S") in text
    assert "d_k counts the pooled documents (R, N and S), r_k and n_k the judged relevant (R) and non-relevant (N)" in text
    assert "E[P@1] = 1 (Yilmaz & Aslam 2006; trec_eval infAP)" in text
    # the sum is Σ, not S: S is the letter of a sampled-out document in the same explanation
    assert "Σ = E[P@1] + E[P@5] = 1 + 1/2 = 3/2" in text and "infAP = Σ / R = (3/2) / 3 = 1/2" in text
    assert "S = " not in text
    assert "Formula: infAP = (1/R) · Σ_{judged relevant k} E[P@k], E[P@1] = 1" in text
    latex = infap(Ranking.parse("RSNUR", relevant=3)).render("latex")
    assert r"\sum_{k\ \text{judged relevant}}" in latex and r"\frac{d_k}{k-1}" in latex


def test_the_unjudged_remark_counts_each_kind():
    def remark(text):
        return next(r for r in Ranking.parse(text, relevant=3).remarks if "unjudged" in r)
    assert remark("RUN") == "1 unjudged document (U) counts as non-relevant, as in trec_eval; bpref skips it"
    assert remark("RUUN").startswith("2 unjudged documents (U) count as non-relevant")
    assert remark("RSN").startswith("1 unjudged document (1 S, in the pool but sampled out) counts as non-relevant")


def test_the_table_fits_a_printed_page():
    result = infap(Ranking.parse("RSNUR", relevant=3))
    (table,) = result.tables
    assert table.columns[3:7] == ("k - 1", "d_k", "r_k", "n_k")  # symbols, explained by the caption
    assert "above rank k: d_k pooled documents (R, N or S), r_k judged relevant, n_k judged non-relevant" in table.caption
    assert r"\resizebox" not in result.render("latex")


def test_a_wrong_letter_names_every_kind():
    with pytest.raises(RankingError, match=r"U for unjudged \(not in the pool\), S for in the pool but sampled out"):
        Ranking.parse("RXS")
