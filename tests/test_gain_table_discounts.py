"""A gain per grade (trec_eval ndcg.l=g), the discount's log base (scikit-learn dcg_score log_base), the 1/rank
discount and trec_eval set_F's weight: by hand, against the real trec_eval 10.0, scikit-learn and ir_measures."""

import math
import random
from fractions import Fraction

import pytest

from irlab import Ranking, exact
from irlab.errors import IrlabError
from irlab.metrics import dcg, f_measure, idcg, ndcg
from irlab.metrics.dcg import parse_gains

L3, L5 = math.log2(3), math.log2(5)


def close(value, expected, tolerance=1e-12):
    return abs(exact.to_float(value) - expected) < tolerance


# gain table -------------------------------------------------------------------------------------

def test_gain_table_by_hand():
    # grades 3,2,0,1; table 1=1, 2=5 and grade 3 by the linear convention (3): gains 3, 5, 0, 1
    ranking = Ranking.parse("3,2,0,1")
    got = ndcg(ranking, gain="linear", gains="1=1,2=5")
    dcg_value = 3 + 5 / L3 + 1 / L5
    ideal = 5 + 3 / L3 + 1 / 2  # the ideal ranking orders by gain: grade 2 (5) before grade 3 (3)
    assert close(got.value, dcg_value / ideal)
    assert close(idcg(ranking, gain="linear", gains="1=1,2=5").value, ideal)
    assert "grade 1 → 1, grade 2 → 5" in got.render("text")


def test_gain_table_keeps_unlisted_grades_on_the_convention():
    ranking = Ranking.parse("3,1")
    assert dcg(ranking, gains="1=4").value == exact.add(7, exact.div(4, exact.log2(3)))  # 2^3 - 1 = 7 by the exp gain
    assert dcg(ranking, gain="linear", gains="1=4").value == exact.add(3, exact.div(4, exact.log2(3)))


def test_negative_gains_lower_dcg_and_leave_the_ideal():
    ranking = Ranking.parse("1,2")  # grade 1 costs 2, grade 2 gains 3
    got = ndcg(ranking, gain="linear", gains="1=-2,2=3")
    assert close(got.value, (-2 + 3 / L3) / 3)  # the ideal holds only the positive gain
    assert ndcg(Ranking.parse("1,0"), gain="linear", gains="1=-1").value == 0  # no positive gain: IDCG = 0, reported 0


@pytest.mark.parametrize("bad, message", [
    ("1", "not grade=gain"), ("x=2", "not a grade"), ("1=abc", "not a number"), ("1=2,1=3", "given twice"),
    ("0=1", "grade 0"), ("-1=2", "not a grade"),
])
def test_bad_gain_tables_are_refused(bad, message):
    with pytest.raises(IrlabError, match=message):
        parse_gains(bad)


def test_gain_table_equals_trec_eval_10(trec_eval_binary, tmp_path):
    """Random topics with random gain tables (zero and negative gains too): the exact nDCG equals what the real
    trec_eval 10.0 prints for -m ndcg.1=a,2=b,3=c (to its 4 printed decimals)."""
    import trec_eval_oracle

    rng = random.Random(20261123)
    for trial in range(12):
        gains = {level: rng.choice([-2, 0, 1, 2, 3, 5, 9, Fraction(7, 2)]) for level in (1, 2, 3)}
        qrels, run, expected = [], [], {}
        for topic in range(1, 9):
            docs = [f"D{n:03d}" for n in rng.sample(range(200), 25)]
            grades = {d: rng.choice([0, 0, 1, 1, 2, 3]) for d in docs[:18]}  # 7 documents unjudged
            retrieved = docs[4:]  # the first 4 judged documents are not retrieved
            rng.shuffle(retrieved)
            qrels += [f"{topic} 0 {d} {g}" for d, g in grades.items()]
            run += [f"{topic} Q0 {d} {rank} {100 - rank} sys" for rank, d in enumerate(retrieved, 1)]
            ranking = Ranking.from_grades([grades.get(d, 0) for d in retrieved],
                                          unretrieved=[g for d, g in grades.items() if d not in retrieved])
            expected[str(topic)] = ndcg(ranking, gain="linear", gains=gains).value
        (tmp_path / "qrels").write_text("\n".join(qrels) + "\n")
        (tmp_path / "run").write_text("\n".join(run) + "\n")
        table = ",".join(f"{level}={float(gain)!r}" for level, gain in gains.items())
        done = trec_eval_oracle.run(trec_eval_binary, ["-q", f"-mndcg.{table}", tmp_path / "qrels", tmp_path / "run"])
        assert done.returncode == 0, done.stderr
        printed = {}
        for line in done.stdout.decode().splitlines():
            name, topic, value = line.split()
            if topic != "all":
                printed[topic] = value
        assert printed.keys() == expected.keys(), (trial, gains)
        for topic, value in expected.items():
            assert f"{exact.to_float(value):.4f}" == printed[topic], (trial, gains, topic)


# log base and the 1/rank discount ---------------------------------------------------------------

def test_log_base_scales_dcg_but_not_ndcg_by_hand():
    ranking = Ranking.parse("3,2,0,1")
    base2 = exact.to_float(dcg(ranking, gain="linear").value)
    base10 = dcg(ranking, gain="linear", log_base=10)
    assert close(base10.value, base2 * math.log2(10))  # 1/log10(x) = log2(10)/log2(x)
    assert close(ndcg(ranking, log_base=10).value, exact.to_float(ndcg(ranking).value))
    assert "log10(2)" in base10.render("text")
    assert r"\log_{10}" in base10.render("latex")


def test_log_base_of_jarvelin_kekalainen_leaves_ranks_below_b_undiscounted():
    # b = 3: ranks 1 and 2 undiscounted, then 1/log3(i): log3(3) = 1, log3(4)
    got = dcg(Ranking.parse("1,1,1,1"), gain="linear", discount="log2-rank", log_base=3)
    assert close(got.value, 1 + 1 + 1 + math.log(3) / math.log(4))
    assert exact.log(9, 3) == 2 and exact.log(27, 3) == 3


def test_reciprocal_rank_discount_by_hand():
    got = ndcg(Ranking.parse("3,2,0,1"), gain="linear", discount="reciprocal-rank")
    assert got.value == Fraction(3 + Fraction(2, 2) + Fraction(1, 4), 3 + Fraction(2, 2) + Fraction(1, 3))


def test_log_base_matches_scikit_learn_dcg_score():
    sklearn = pytest.importorskip("sklearn.metrics")
    rng = random.Random(7)
    for _ in range(40):
        n = rng.randint(2, 9)
        grades = [rng.randint(0, 3) for _ in range(n)]
        scores = [[float(n - i) for i in range(n)]]  # distinct scores: rank order as given
        base = rng.choice([2, 3, 10, 16])
        k = rng.choice([None, 1, 3, n])
        expected = sklearn.dcg_score([grades], scores, k=k, log_base=base)
        got = dcg(Ranking.from_grades(grades), k=k, gain="linear", log_base=base).value
        assert close(got, expected), (grades, base, k)


@pytest.mark.parametrize("bad", ["1", "e", "2.5", "-3", "0", "abc"])
def test_bad_log_bases_are_refused(bad):
    with pytest.raises(IrlabError, match="log base"):
        dcg(Ranking.parse("1,0"), log_base=bad)


# set_F's weight -----------------------------------------------------------------------------------

def test_set_f_weight_by_hand():
    ranking = Ranking.parse("RRRN", relevant=5)  # P = 3/4, Rec = 3/5
    p, r = Fraction(3, 4), Fraction(3, 5)
    assert f_measure(ranking, beta=2).value == 5 * p * r / (4 * p + r)  # F_2 (IIR): 5/8
    assert f_measure(ranking, beta=2, f_weight="beta-squared").value == 3 * p * r / (2 * p + r)  # trec_eval set_F.2: 9/14
    assert f_measure(ranking, beta=1, f_weight="beta-squared").value == f_measure(ranking).value


def test_set_f_weight_matches_trec_eval_9_and_ir_measures_and_scikit_learn():
    ir_measures = pytest.importorskip("ir_measures")
    sklearn = pytest.importorskip("sklearn.metrics")
    rng = random.Random(3)
    for _ in range(25):
        relevant = set(rng.sample(range(30), rng.randint(1, 12)))
        retrieved = rng.sample(range(30), rng.randint(1, 15))
        if not relevant & set(retrieved):
            continue
        beta = rng.choice([Fraction(1, 2), 2, 3, Fraction(1, 4)])
        ranking = Ranking.from_grades([int(d in relevant) for d in retrieved],
                                      relevant=len(relevant))
        qrels = [ir_measures.Qrel("q", f"d{d}", int(d in relevant)) for d in range(30)]
        run = [ir_measures.ScoredDoc("q", f"d{d}", float(30 - i)) for i, d in enumerate(retrieved)]
        library = ir_measures.calc_aggregate([ir_measures.SetF(beta=float(beta))], qrels, run)
        assert close(f_measure(ranking, beta=beta, f_weight="beta-squared").value, list(library.values())[0])
        truth = [int(d in relevant) for d in range(30)]
        predicted = [int(d in retrieved) for d in range(30)]
        assert close(f_measure(ranking, beta=beta).value, sklearn.fbeta_score(truth, predicted, beta=float(beta)))


def test_cli_options(cli):
    done = cli("explain", "ndcg", "3,2,0,1", "--gains", "1=1,2=5", "--gain", "linear", "--log-base", "10")
    assert done.returncode == 0 and "gain table: grade 1 → 1, grade 2 → 5" in done.stdout and "log10(2)" in done.stdout
    done = cli("explain", "f", "RRRN", "--relevant", "5", "--beta", "2", "--f-weight", "beta-squared")
    assert done.returncode == 0 and "F(x=2) = 9/14" in done.stdout
    done = cli("explain", "ap", "RRN", "--gains", "1=2")
    assert done.returncode == 2 and "--gains does not apply to ap" in done.stderr


def test_exercise_sets_take_a_gain_table_and_a_log_base(tmp_path, cli):
    path = tmp_path / "gains.toml"
    path.write_text('title = "Gains"\n[[exercise]]\nid = "1"\nstatement = "Grades 3,2,0,1."\n[exercise.parameters]\nranking = [3, 2, 0, 1]\n'
                    '[[exercise.question]]\nid = "a"\nsolver = "ndcg"\ngain = "linear"\ngains = { 1 = 1, 2 = 5 }\n'
                    'log_base = 10\n')
    done = cli("solve", str(path))
    assert done.returncode == 0 and "5 / log10(2) + 3 / log10(3) + 1 / log10(4)" in done.stdout
    path.write_text(path.read_text().replace("gains = { 1 = 1, 2 = 5 }", 'gains = "1=x"'))
    done = cli("solve", str(path))
    assert done.returncode == 2 and "question a, key 'gains'" in done.stderr and "not a number" in done.stderr
    path.write_text(path.read_text().replace('gains = "1=x"', 'gains = "1=2"').replace("log_base = 10", "log_base = 1"))
    done = cli("solve", str(path))
    assert done.returncode == 2 and "key 'log_base'" in done.stderr
