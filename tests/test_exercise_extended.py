"""Exercise sets with systems, counts, a judges' table, many judges and micro/macro averages (by-hand values)."""

from fractions import Fraction
from pathlib import Path

import pytest

from irlab.errors import InputFileError
from irlab.exercise_set import Where, load, solve, solve_question

SET = Path(__file__).resolve().parents[1] / "exercises" / "chapter8-systems.toml"


def answers(exercise_id, question_id, path=SET):
    exercise_set = load(path)
    exercise = exercise_set.exercise(exercise_id)
    question = next(q for q in exercise.questions if q.id == question_id)
    solution = solve_question(dict(exercise.parameters), question, Where(path, exercise.id, question.id))
    return [a.value for a in solution.answers]


def test_iir_8_8_map_of_each_system_and_the_difference():
    # system 1 RNRNNNNNRR: (1 + 2/3 + 3/9 + 4/10) / 4 = 3/5; system 2 NRNNRRRNNN: (1/2 + 2/5 + 3/6 + 4/7) / 4 = 69/140
    assert answers("8.8", "a") == [Fraction(3, 5), Fraction(69, 140), Fraction(3, 5) - Fraction(69, 140)]
    assert answers("8.8", "c") == [Fraction(1, 2), Fraction(1, 4)]  # R-precision: RNRN, NRNN
    assert answers("8.8", "c2")[-1] == Fraction(1, 4)


def test_counts_exercise():
    p, r = Fraction(20, 60), Fraction(20, 80)
    f1 = 2 * p * r / (p + r)
    assert [answers("counts", q)[0] for q in "abcdef"] == [p, r, f1, 1 - f1, Fraction(900, 1000), Fraction(40, 920)]


def test_kappa_from_the_judges_table_iir_8_2():
    assert answers("8.2", "a") == [Fraction(277, 357)]


def test_three_judges():
    # per document n_1 = 3, 2, 0, 1, 3 of 3 judges: P_i = 1, 1/3, 1, 1/3, 1; p_1 = 9/15
    p_avg = (1 + Fraction(1, 3) + 1 + Fraction(1, 3) + 1) / 5
    p_e = Fraction(9, 15) ** 2 + Fraction(6, 15) ** 2
    assert answers("judges", "a") == [(p_avg - p_e) / (1 - p_e)]
    assert answers("judges", "b") == [Fraction(271, 630)]


def test_micro_and_macro_averages():
    # q1: P = 1/2, R = 1/2, F = 1/2; q2: P = 1/4, R = 1, F = 2/5; pooled tp 3, fp 5, fn 2
    p_macro, r_macro = Fraction(3, 8), Fraction(3, 4)
    assert answers("averages", "a") == [Fraction(3, 8), Fraction(3, 5), Fraction(6, 13), p_macro, r_macro,
                                        2 * p_macro * r_macro / (p_macro + r_macro), Fraction(9, 20)]


def test_croft_significance_questions():
    stats = pytest.importorskip("scipy.stats")
    a = [0.25, 0.43, 0.39, 0.75, 0.43, 0.15, 0.20, 0.52, 0.49, 0.50]
    b = [0.35, 0.84, 0.15, 0.75, 0.68, 0.85, 0.80, 0.50, 0.58, 0.75]
    (p_t,) = answers("8.6", "a")
    assert float(p_t) == pytest.approx(stats.ttest_rel(b, a, alternative="greater").pvalue, rel=1e-9)
    assert answers("8.6", "c") == [Fraction(1 + 9 + 36, 512)]  # 7 wins, 2 losses: P(X >= 7), X ~ Bin(9, 1/2)
    assert answers("8.6", "d")[0] == Fraction(3, 128)


def test_systems_of_rankings_feed_a_test_with_exact_per_query_ap(tmp_path):
    path = tmp_path / "set.toml"
    path.write_text('''title = "t"
[[exercise]]
id = "1"
statement = "Two systems, three queries."
[exercise.parameters]
systems = { A = ["RNR", "RRN", "NRR"], B = ["NRN", "RNN", "NNR"] }
relevant = [2, 2, 2]
[[exercise.question]]
id = "a"
solver = "sign-test"
metric = "ap"
alternative = "greater"
''')
    # AP of A: (1 + 2/3)/2 = 5/6, 1, (1/2 + 2/3)/2 = 7/12; of B: 1/4, 1/2, 1/6 -> A wins all 3: p = 1/8
    assert answers("1", "a", path) == [Fraction(1, 8)]


def test_bad_systems_and_counts_name_the_key(tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text('''title = "t"
[[exercise]]
id = "1"
statement = "s"
[exercise.parameters]
counts = { tp = 1, fp = 2 }
[[exercise.question]]
id = "a"
solver = "precision"
[[exercise.question]]
id = "b"
solver = "ap"
''')
    with pytest.raises(InputFileError, match="exercise 1, question a, key 'counts'.*missing fn"):
        answers("1", "a", path)
    with pytest.raises(InputFileError, match="question b.*ap needs a ranking"):
        answers("1", "b", path)


def test_the_whole_set_solves_and_renders():
    text = solve(SET).render("text")
    assert "277/357" in text and "B is better than A" in text
