"""Issue 28, item 2: every solver and metric is bounded by what it costs, not only by the size of its input.

Each hostile case of the issue (a set whose statement repeats a 20,000-letter ranking 50,000 times, INSQ at a target
of 99,999 or a depth of 20,000, RBP at p = 0.99999999999999 over 20,000 ranks, ERR over 20,000 grades of 0-20, the
sign test over 20,000 topics, user models over 20,000 ranks) is refused with the bound of irlab/limits.py named, in
Python and as `irlab: error:` from the command line; a normal case just inside keeps its exact value (computed here by
hand). No timing here: benchmarks and the report measure the time.
"""

import random
import subprocess
import sys
from fractions import Fraction as F

import pytest

from irlab import Ranking, exact, limits
from irlab.errors import InputFileError, LimitError
from irlab.exercise_set import solve

RANDOM = random.Random(28)
RN_20000 = "".join(RANDOM.choice("RN") for _ in range(20_000))


def cli(*args):
    """irlab's exit code and stderr for ``args``."""
    done = subprocess.run([sys.executable, "-m", "irlab", *args], capture_output=True, text=True, timeout=120)
    return done.returncode, done.stderr


def refused_on_cli(*args):
    code, err = cli(*args)
    assert code == 2, err
    assert err.startswith("irlab: error: ") and "Traceback" not in err
    return err


# ---------------------------------------------------------------------------------------------------------------
# a statement's placeholders: size x repeats


def _set_with_statement(tmp_path, statement, ranking):
    path = tmp_path / "set.toml"
    path.write_text(f'id = "s"\ntitle = "s"\nsource = "s"\n\n[[exercise]]\nid = "1"\nstatement = "{statement}"\n\n'
                    f'[exercise.parameters]\nranking = "{ranking}"\n\n[[exercise.question]]\nid = "a"\ntext = "P?"\n'
                    'solver = "precision"\n')
    return path


def test_a_placeholder_repeated_past_max_filled_text_is_refused_naming_the_bound_and_the_placeholder(tmp_path):
    assert limits.MAX_FILLED_TEXT == 1 << 20
    path = _set_with_statement(tmp_path, "{ranking}" * 50_000, RN_20000)
    assert 460_000 < path.stat().st_size < 480_000  # the 470 KB set
    with pytest.raises(InputFileError) as caught:
        solve(path)
    message = str(caught.value)
    assert "exercise 1, key 'statement'" in message and "MAX_FILLED_TEXT" in message
    assert "1,000,450,000 characters" in message  # 450,000 written + 50,000 x (20,000 - 9) more
    assert "{ranking}, 20,000 characters, is used 50,000 times" in message
    err = refused_on_cli("solve", str(path))
    assert "MAX_FILLED_TEXT" in err


def test_a_statement_just_under_max_filled_text_is_solved(tmp_path):
    # 52 x (20,000 + 1) = 1,040,052 characters filled, under 1,048,576
    path = _set_with_statement(tmp_path, "{ranking} " * 52, RN_20000)
    text = solve(path).render("text")
    assert " ".join([RN_20000] * 52) in text  # the statement, filled whole
    hits = RN_20000.count("R")
    assert f"Answer: P = {F(hits, 20_000)}" in text  # precision of the whole list, solved as usual


# ---------------------------------------------------------------------------------------------------------------
# user models and RBP: digits of exact values, ranks x digits, logarithms


def limit_error(function, *args, **options):
    with pytest.raises(LimitError) as caught:
        function(*args, **options)
    return str(caught.value)


def test_insq_at_a_target_of_99999_is_refused_naming_max_exact_digits():
    from irlab.metrics.cwl import insq

    assert limits.MAX_EXACT_DIGITS == 4000  # under Python's 4,300-digit limit on writing an integer
    message = limit_error(insq, Ranking.parse("RNRN"), target=99999)
    assert message.startswith("INSQ over n = 1,000 ranks needs exact numbers of about 4,0")
    assert "MAX_EXACT_DIGITS" in message and "--max-depth" in message and "a smaller target T" in message
    err = refused_on_cli("explain", "insq", "RNRN", "--target", "99999")
    assert "MAX_EXACT_DIGITS" in err and "Exceeds the limit" not in err


def test_insq_over_20000_ranks_is_refused_naming_max_exact_work():
    from irlab.metrics.cwl import insq

    assert limits.MAX_EXACT_WORK == 4_000_000
    message = limit_error(insq, Ranking.parse("RNRN"), max_depth=20_000)
    assert message.startswith("INSQ over n = 20,000 ranks needs exact values of about ")
    assert "MAX_EXACT_WORK is 4,000,000" in message and "--max-depth" in message
    assert "MAX_EXACT_WORK" in refused_on_cli("explain", "insq", "RNRN", "--max-depth", "20000")


def test_insq_over_a_trec_topic_of_1000_ranks_stays_exact():
    from irlab.metrics.cwl import insq

    # T = 1: C(i) = ((i + 1) / (i + 2))², so Π_{j<i} C(j) = (2 / (i + 1))² and ED = 4 Σ_{m=2..1001} 1/m²;
    # only rank 1 has gain: INSQ = W(1) = 1 / ED
    ed = 4 * sum(F(1, m * m) for m in range(2, 1002))
    assert insq(Ranking.parse("R" + "N" * 999)).value == 1 / ed
    assert insq(Ranking.parse("RN"), target=1, max_depth=2).value == F(9, 13)  # ED = 1 + 4/9


def test_rbp_at_a_persistence_of_14_digits_over_20000_ranks_is_refused_saying_how_many_ranks_fit():
    from irlab.metrics.rbp import rank_biased_precision

    message = limit_error(rank_biased_precision, Ranking.parse(RN_20000), persistence="0.99999999999999")
    assert message.startswith("RBP at p = 0.99999999999999 over 20,000 ranks")
    assert "about 280,001 digits" in message and "MAX_EXACT_DIGITS" in message
    assert "read at most 285 ranks, or give p fewer digits" in message  # 285 x 14 = 3,990 digits
    err = refused_on_cli("explain", "rbp", RN_20000, "--persistence", "0.99999999999999")
    assert "MAX_EXACT_DIGITS" in err


def test_rbp_as_a_user_model_over_20000_ranks_is_refused_and_1999_ranks_are_not():
    from irlab.metrics.cwl import user_model

    message = limit_error(user_model, Ranking.parse("RNRN"), "rbp", max_depth=20_000)
    assert message.startswith("RBP as a user model at p = 0.9 over 20,000 ranks")
    assert "MAX_EXACT_DIGITS" in message and message.endswith("at p = 0.9, read at most 1,999 ranks")
    message = limit_error(user_model, Ranking.parse("RNRN"), "rbp", max_depth=2000)
    assert "MAX_EXACT_WORK" in message  # 2,000 ranks of 2,001 digits
    err = refused_on_cli("explain", "rbp", "RNRN", "--user-model", "--max-depth", "20000")
    assert "MAX_EXACT_DIGITS" in err
    # at 1,999 ranks: ERG = RBP / (1 - p^n), RBP = (1 - p)(1 + p^2) for RNRN
    p = F(9, 10)
    assert user_model(Ranking.parse("RNRN"), "rbp", max_depth=1999).value == (1 - p) * (1 + p**2) / (1 - p**1999)


def test_rbp_of_a_trec_topic_of_1000_ranks_stays_exact():
    from irlab.metrics.rbp import rank_biased_precision

    ranking = RN_20000[:1000]
    for p in (F(9, 10), F(99, 100)):
        expected = (1 - p) * sum(p ** i for i, letter in enumerate(ranking) if letter == "R")
        assert rank_biased_precision(Ranking.parse(ranking), persistence=p).value == expected


def test_sdcg_over_20000_ranks_is_refused_naming_max_log_terms():
    from irlab.metrics.cwl import sdcg

    assert limits.MAX_LOG_TERMS == 1000
    message = limit_error(sdcg, Ranking.parse("3,2,1"), k=20_000, max_depth=20_000)
    assert message.startswith("SDCG@20000 over n = 20,000 ranks sums 1/log2(i+1) over 20,000 ranks")
    assert "MAX_LOG_TERMS" in message and "--k" in message
    err = refused_on_cli("explain", "sdcg", "3,2,1", "--k", "20000", "--max-depth", "20000")
    assert "MAX_LOG_TERMS" in err


# ---------------------------------------------------------------------------------------------------------------
# ERR: Disp_j grows by each rank with a gain


def test_err_over_20000_grades_of_0_to_20_is_refused_saying_which_cut_off_fits():
    from irlab.metrics.err import expected_reciprocal_rank, normalized_err

    grades = [RANDOM.randint(0, 20) for _ in range(20_000)]
    message = limit_error(expected_reciprocal_rank, Ranking.parse(",".join(map(str, grades))))
    assert message.startswith("ERR over 20,000 ranks (") and "MAX_EXACT_DIGITS" in message
    # each rank with a grade above 0 multiplies Disp by a fraction over 2^20 (6.02 digits): 664 of them fit in 4,000
    gained = [i for i, grade in enumerate(grades, 1) if grade]
    fits = gained[664] - 1  # the 665th rank with a gain would need int(665 x 6.0206) + 1 = 4,004 digits
    assert int(664 * 20 * 0.30103) + 1 <= 4000 < int(665 * 20 * 0.30103) + 1
    assert message.endswith(f"cut the ranking with --k {fits:,} or less")
    assert "MAX_EXACT_DIGITS" in limit_error(normalized_err, Ranking.parse(",".join(map(str, grades))))
    assert expected_reciprocal_rank(Ranking.parse(",".join(map(str, grades))), k=fits).value > 0
    err = refused_on_cli("explain", "err", ",".join(map(str, grades)))
    assert "MAX_EXACT_DIGITS" in err


def test_err_of_a_trec_topic_of_1000_ranks_is_the_textbook_sum_and_its_table_the_textbook_products():
    from irlab.metrics.err import expected_reciprocal_rank

    grades = [RANDOM.choice([0, 0, 0, 1, 2, 3, 4]) for _ in range(1000)]
    expected, stay, stays = F(0), F(1), []  # Chapelle et al. 2009, with Fractions
    for rank, grade in enumerate(grades, 1):
        pr = F(2**grade - 1, 2**4)
        stays.append(stay)
        expected += stay * pr / rank
        stay *= 1 - pr
    result = expected_reciprocal_rank(Ranking.parse(",".join(map(str, grades))))
    assert result.value == expected
    assert [row[3] for row in result.tables[0].rows] == stays  # Disp(1, j-1), grade 0 rows included


# ---------------------------------------------------------------------------------------------------------------
# paired significance tests: topics, and samples x topics


def _scores(count):
    return ",".join(f"0.{RANDOM.randint(0, 99):02d}" for _ in range(count))


@pytest.mark.parametrize("test", ["sign_test", "wilcoxon_test", "permutation_test", "t_test", "bootstrap_interval"])
def test_every_paired_test_over_20000_topics_is_refused_naming_max_topics(test):
    from irlab.metrics import significance

    assert limits.MAX_TOPICS == 10_000
    a, b = _scores(20_000), _scores(20_000)
    message = limit_error(getattr(significance, test), a, b)
    assert message == ("a paired test takes at most 10,000 topics (irlab's limit MAX_TOPICS; TREC's largest judged "
                       "query sets have 10,000), got 20,000: test a sample of the topics, or split them")
    assert "MAX_TOPICS" in limit_error(significance.sign_test, dict(enumerate(a.split(","))),
                                       dict(enumerate(b.split(","))))


def test_the_sign_test_over_10000_topics_is_the_exact_binomial_tail():
    from math import comb

    from irlab.metrics.significance import sign_test

    a = [1] * 4_900 + [0] * 5_100  # A wins 4,900 topics and loses 5,100
    b = [0] * 4_900 + [1] * 5_100
    tail = sum(comb(10_000, i) for i in range(4_901))  # P(X <= 4,900), X ~ Binomial(10,000, 1/2)
    assert sign_test(a, b).value == min(1, 2 * F(tail, 2**10_000))
    assert sign_test(a, b, "greater").value == F(sum(comb(10_000, i) for i in range(4_900, 10_001)), 2**10_000)
    err = refused_on_cli("explain", "sign-test", "--a", _scores(20_000), "--b", _scores(20_000))
    assert "MAX_TOPICS" in err


def test_samples_times_topics_past_max_sampled_work_are_refused_before_drawing():
    from irlab.metrics.significance import bootstrap_interval, permutation_test

    assert limits.MAX_SAMPLED_WORK == 10**8
    a, b = _scores(100), _scores(100)
    message = limit_error(permutation_test, a, b, samples=10**12)
    assert message.startswith("the permutation test: 1,000,000,000,000 samples over 100 topics")
    assert "MAX_SAMPLED_WORK" in message and message.endswith("ask for at most 1,000,000 samples")
    assert "MAX_SAMPLED_WORK" in limit_error(bootstrap_interval, a, b, samples=10**7)


def test_sampled_tests_over_many_topics_draw_in_small_blocks_and_give_the_same_seeded_values(monkeypatch):
    from irlab.metrics import significance

    a, b = _scores(3000), _scores(3000)
    assert significance._block_rows(3000) == 699  # 699 x 3,000 numbers a block (16 MB), not 4,096 x 3,000 (98 MB)

    def drawn():
        interval = significance.bootstrap_interval(a, b, samples=5000, seed=3)
        return (significance.permutation_test(a, b, samples=5000, seed=3).value,
                [step.value for step in interval.steps if step.symbol.startswith("CI")])

    in_blocks = drawn()
    monkeypatch.setattr(significance, "_block_rows", lambda n: 4096)  # the former blocks of 4,096 samples
    assert drawn() == in_blocks


# ---------------------------------------------------------------------------------------------------------------
# diversity: (1-α)^c and sums of logarithms


def test_diversity_at_an_alpha_of_15_digits_or_a_huge_cut_off_is_refused_naming_max_exact_digits():
    from irlab.metrics.diversity import IntentRanking, alpha_dcg, alpha_ndcg, err_ia

    same = IntentRanking.parse(" ".join(["1"] * 2000))
    message = limit_error(alpha_ndcg, same, alpha="0.123456789012345")
    assert message.startswith("(1-α)^(i-1) at α = 0.123456789012345 over k = 2,000 ranks needs exact numbers of about ")
    assert "MAX_EXACT_DIGITS" in message and "give α fewer digits" in message
    assert "MAX_EXACT_DIGITS" in limit_error(err_ia, same, alpha="0.123456789012345")
    assert "over k = 1,000,000 ranks" in limit_error(alpha_dcg, IntentRanking.parse("1 2"), k=10**6)
    assert "MAX_EXACT_DIGITS" in refused_on_cli("explain", "alpha-dcg", "1 2", "--k", "1000000")


def test_alpha_dcg_over_more_ranks_than_max_log_running_is_refused_and_err_ia_is_not():
    from irlab.metrics.diversity import IntentRanking, alpha_dcg, alpha_ndcg, err_ia

    assert limits.MAX_LOG_RUNNING == 100
    ranking = IntentRanking.parse(" ".join(RANDOM.choice(["1", "2", "1+2", "3", "-"]) for _ in range(1000)))
    message = limit_error(alpha_ndcg, ranking)
    assert message.startswith("α-DCG's cumulative Σ g_i / log2(i+1) over 1,000 ranks holds 1,000 logarithms")
    assert "MAX_LOG_RUNNING" in message and "--k 20" in message and "irlab eval --diversity" in message
    assert "MAX_LOG_TERMS" in limit_error(alpha_dcg, IntentRanking.parse("1 2"), k=1001)  # the "ideal ideal" sum
    # ERR-IA divides by ranks, not logarithms: 1,000 ranks stay exact; α = 1/2, one subtopic seen at every rank:
    # g_i = (1/2)^(i-1), so Σ g_i / i over the run and the "ideal ideal" list (S = 1) are the same sum
    assert err_ia(IntentRanking.parse(" ".join(["1"] * 1000))).value == 1
    # at a cut-off of 20 (ndeval's deepest), α-nDCG of the 1,000-rank ranking is computed
    assert 0 < exact.to_float(alpha_ndcg(ranking, k=20).value) <= 1


# ---------------------------------------------------------------------------------------------------------------
# GMAP: a product over as many queries as MAX_QUERIES


def test_gmap_over_1000_queries_is_explained_and_its_decimal_is_the_geometric_mean():
    import math

    from irlab.metrics.average_precision import average_precision
    from irlab.metrics.gmap import gmap

    assert limits.MAX_QUERIES == 1000
    rankings = [Ranking.parse("".join(RANDOM.choice("RN") for _ in range(10))) for _ in range(1000)]
    result = gmap(rankings)  # a chain of 999 products ran past Python's recursion limit
    floored = [max(F(average_precision(r).value), F(1, 100_000)) for r in rankings]
    assert exact.to_float(result.value) == pytest.approx(math.exp(sum(math.log(v) for v in floored) / 1000), rel=1e-12)
    assert "GMAP" in result.render("text")


def test_gmap_whose_product_passes_max_exact_digits_is_refused_before_multiplying():
    from irlab.metrics.gmap import gmap

    rankings = [Ranking.parse("".join(RANDOM.choice("RN") for _ in range(1000))) for _ in range(50)]
    message = limit_error(gmap, rankings)
    assert message.startswith("the product of 50 average precisions needs exact numbers of about ")
    assert "MAX_EXACT_DIGITS" in message and "irlab eval" in message
    # two queries: GMAP = √(AP1 · AP2) exactly; RN: AP = 1, NR: AP = 1/2 (R = 1)
    assert gmap([Ranking.parse("RN", relevant=1), Ranking.parse("NR", relevant=1)]).value ** 2 == F(1, 2)
