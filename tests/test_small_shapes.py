"""The smaller shapes of issue 24: NTCIREVAL's ERR and nERR (a named convention of the stopping probability),
Q-measure at a cut-off, linear gains for large grades, fall-out over several queries."""

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from irlab import Ranking
from irlab.errors import IrlabError
from irlab.metrics.err import expected_reciprocal_rank, normalized_err

ntcireval = pytest.importorskip("pyNTCIREVAL.metrics")


# 1. ERR's stopping probability: Chapelle et al.'s (2^g - 1) / 2^gmax or NTCIREVAL's gain(g) / (gain(gmax) + 1) -----

def _levels(grades, unretrieved, gmax):
    """pyNTCIREVAL's xrelnum: judged documents per level L0 … Lgmax."""
    judged = list(grades) + list(unretrieved)
    return [sum(1 for g in judged if g == level) for level in range(gmax + 1)]


def _ntcireval_err(grades, unretrieved, gmax, gains, k=None):
    metric = ntcireval.ERR(_levels(grades, unretrieved, gmax), list(gains))
    metric.cutoff = k  # ERR's constructor takes no cut-off; compute() reads the attribute, as nERR's does
    return metric.compute([(f"d{i}", g) for i, g in enumerate(grades)])


def _ntcireval_nerr(grades, unretrieved, gmax, gains, k=None):
    metric = ntcireval.nERR(_levels(grades, unretrieved, gmax), list(gains), k)
    return metric.compute([(f"d{i}", g) for i, g in enumerate(grades)])


def _ascending_gains(draw, gmax):
    """A positive gain per level 1 … gmax in ascending order (NTCIREVAL's -g rule), or None for gain = grade."""
    if draw(st.booleans()):
        return None
    steps = draw(st.lists(st.integers(0, 9), min_size=gmax, max_size=gmax))
    gains, running = [], 0
    for step in steps:
        running += step if running else step + 1
        gains.append(running)
    return gains


@st.composite
def err_cases(draw):
    grades = draw(st.lists(st.integers(0, 4), min_size=1, max_size=15))
    unretrieved = draw(st.lists(st.integers(0, 4), max_size=6))
    observed = max(grades + unretrieved)
    if observed == 0:
        grades = grades[:-1] + [draw(st.integers(1, 4))]
        observed = max(grades + unretrieved)
    gmax = observed + draw(st.sampled_from([0, 0, 0, 1, 2]))
    k = draw(st.one_of(st.none(), st.integers(1, 20)))
    return grades, unretrieved, gmax, _ascending_gains(draw, gmax), k


@given(err_cases())
@settings(max_examples=250, deadline=None)
def test_ntcireval_err_and_nerr_equal_pyntcireval(case):
    grades, unretrieved, gmax, gains, k = case
    ranking = Ranking.from_grades(grades, unretrieved=unretrieved)
    table = None if gains is None else ",".join(f"{level}={gain}" for level, gain in enumerate(gains, 1))
    level_gains = gains or list(range(1, gmax + 1))  # NTCIREVAL's default gain values 1, 2, 3 …
    options = {"k": k, "max_grade": gmax, "err_probability": "ntcireval", "gains": table}
    ours = float(expected_reciprocal_rank(ranking, **options).value)
    assert ours == pytest.approx(_ntcireval_err(grades, unretrieved, gmax, level_gains, k), abs=1e-12)
    ours = float(normalized_err(ranking, **options).value)
    assert ours == pytest.approx(_ntcireval_nerr(grades, unretrieved, gmax, level_gains, k), abs=1e-12)


def test_ntcireval_err_by_hand():
    # grades 3,2,0,1, gmax 3, gain = grade: Pr = 3/4, 2/4, 0, 1/4
    # ERR = 3/4 + (1/4)(1/2)/2 + 0 + (1/4)(1/2)(1)(1/4)/4 = 3/4 + 1/16 + 1/128 = 105/128
    result = expected_reciprocal_rank(Ranking.parse("3,2,0,1"), err_probability="ntcireval")
    assert result.value == Fraction(105, 128)
    # Chapelle's rule on the same ranking: Pr = 7/8, 3/8, 0, 1/8: 7/8 + (1/8)(3/8)/2 + (1/8)(5/8)(7/8)... tested in
    # test_metrics; here only that the two rules differ
    assert expected_reciprocal_rank(Ranking.parse("3,2,0,1")).value != result.value
    # grades 1,2 with gain table 1=1, 2=5: Pr = 1/6, 5/6; ERR = 1/6 + (5/6)(5/6)/2 = 1/6 + 25/72 = 37/72
    # ideal 2,1: 5/6 + (1/6)(1/6)/2 = 5/6 + 1/72 = 61/72; nERR = 37/61
    ranking = Ranking.parse("1,2")
    assert expected_reciprocal_rank(ranking, err_probability="ntcireval", gains="1=1,2=5").value == Fraction(37, 72)
    assert normalized_err(ranking, err_probability="ntcireval", gains="1=1,2=5").value == Fraction(37, 61)


@given(st.lists(st.integers(0, 5), min_size=1, max_size=12), st.integers(0, 2))
@settings(max_examples=60, deadline=None)
def test_ntcireval_with_gains_two_to_the_g_minus_one_is_chapelle(grades, above):
    # gain(g) = 2^g - 1 makes NTCIREVAL's gain(g) / (gain(gmax) + 1) = (2^g - 1) / 2^gmax: the same ERR, exactly
    gmax = max(grades) + above
    table = ",".join(f"{g}={2**g - 1}" for g in range(1, gmax + 1)) or None
    ranking = Ranking.from_grades(grades)
    assert expected_reciprocal_rank(ranking, max_grade=gmax, err_probability="ntcireval", gains=table).value == \
        expected_reciprocal_rank(ranking, max_grade=gmax).value


def test_default_explanation_is_unchanged_and_the_choice_is_named(cli):
    default = cli("explain", "err", "3,2,0,1")
    assert default.returncode == 0 and "err_probability" not in default.stdout
    assert "Pr(j) = (2^g_j - 1) / 2^gmax" in default.stdout
    chosen = cli("explain", "err", "3,2,0,1", "--err-probability", "ntcireval")
    assert chosen.returncode == 0, chosen.stderr
    assert "Convention: err_probability = ntcireval" in chosen.stdout
    assert "Pr(j) = gain(g_j) / (gain(gmax) + 1)" in chosen.stdout
    assert "rank | grade | gain |" in chosen.stdout
    assert chosen.stdout.rstrip().endswith("Result: ERR = 105/128 ≈ 0.8203")
    explicit = cli("explain", "err", "3,2,0,1", "--err-probability", "exponential")
    assert "Convention: err_probability = exponential" in explicit.stdout


def test_err_probability_errors():
    ranking = Ranking.parse("3,2,0,1")
    with pytest.raises(IrlabError, match="--err-probability ntcireval"):
        expected_reciprocal_rank(ranking, gains="1=1,2=3,3=7")  # a gain table means nothing to Chapelle's rule
    with pytest.raises(IrlabError, match="ascending order"):
        normalized_err(ranking, err_probability="ntcireval", gains="1=5,2=3,3=7")
    with pytest.raises(IrlabError, match="positive gain"):
        expected_reciprocal_rank(ranking, err_probability="ntcireval", gains="1=0")
    with pytest.raises(IrlabError, match="unknown err_probability 'linear'; choose one of exponential, ntcireval"):
        expected_reciprocal_rank(ranking, err_probability="linear")


def test_err_probability_in_an_exercise_set(tmp_path):
    from irlab.exercise_set import solve

    path = tmp_path / "err.toml"
    path.write_text('title = "ERR"\n[[exercise]]\nid = "1"\nstatement = "ERR"\n[exercise.parameters]\n'
                    'ranking = [3, 2, 0, 1]\n[[exercise.question]]\nid = "a"\nsolver = "err"\n'
                    'err_probability = "ntcireval"\n', encoding="utf-8")
    assert "ERR = 105/128" in solve(path).render("text")


# 2. Q-measure in exercise sets: β = 0 allowed for q-measure (AP), still refused for F ------------------------------

def _one_question_set(tmp_path, question: str):
    path = tmp_path / "set.toml"
    path.write_text('title = "Q"\n[[exercise]]\nid = "1"\nstatement = "Q"\n[exercise.parameters]\n'
                    'ranking = [3, 0, 1, 2]\nunretrieved = [3]\n[[exercise.question]]\nid = "a"\n' + question,
                    encoding="utf-8")
    return path


def test_q_measure_with_beta_zero_solves_to_ap(tmp_path):
    from irlab.exercise_set import solve

    # β = 0: BR(r) = P@r; relevant ranks 1, 3, 4 of R = 4: (1/1 + 2/3 + 3/4) / 4 = 29/48, AP of the same ranking
    q = solve(_one_question_set(tmp_path, 'solver = "q-measure"\nbeta = 0\n')).render("text")
    assert "Answer: Q = 29/48" in q
    ap = solve(_one_question_set(tmp_path, 'solver = "ap"\n')).render("text")
    assert "Answer: AP = 29/48" in ap
    cut = solve(_one_question_set(tmp_path, 'solver = "q-measure"\nk = 3\n')).render("text")
    assert "Q@3 =" in cut


def test_f_with_beta_zero_is_still_refused(tmp_path):
    from irlab.errors import IrlabError
    from irlab.exercise_set import solve

    with pytest.raises(IrlabError, match=r"beta.*must lie in \(0, 1000\], got 0"):
        solve(_one_question_set(tmp_path, 'solver = "f"\nbeta = 0\n'))
    with pytest.raises(IrlabError, match=r"beta.*must lie in \[0, 1000\], got -1"):
        solve(_one_question_set(tmp_path, 'solver = "q-measure"\nbeta = -1\n'))


# 3. Linear gains take any grade up to MAX_LINEAR_GRADE; exponential gains stay bounded by MAX_GRADE -----------------

def test_grade_69_with_linear_gain_equals_scikit_learn():
    # scikit-learn's test_ndcg_invariant: y_true = arange(70).reshape(7, 10), grades up to 69, scores near the grades
    np = pytest.importorskip("numpy")
    metrics = pytest.importorskip("sklearn.metrics")
    from irlab.metrics.dcg import dcg, ndcg

    y_true = np.arange(70).reshape(7, 10)
    y_score = y_true + np.random.RandomState(0).uniform(-0.2, 0.2, size=(7, 10))
    for labels, scores in zip(y_true, y_score):
        order = np.argsort(-scores, kind="stable")
        ranking = Ranking.from_grades([int(g) for g in labels[order]])
        theirs = metrics.dcg_score([labels], [scores])
        assert dcg(ranking, gain="linear").decimal == pytest.approx(theirs, rel=1e-12)
        assert ndcg(ranking, gain="linear").decimal == pytest.approx(metrics.ndcg_score([labels], [scores]), rel=1e-12)
    # by hand: 69,3,0,12: DCG = 69/log2(2) + 3/log2(3) + 0 + 12/log2(5)
    value = dcg(Ranking.parse("69,3,0,12"), gain="linear").decimal
    assert value == pytest.approx(69 + 3 / np.log2(3) + 12 / np.log2(5), rel=1e-12)


def test_exponential_gain_keeps_its_bound(cli):
    from irlab.metrics.dcg import dcg

    with pytest.raises(IrlabError, match=r"a grade \(ranking, item 1\) is at most 20 with exponential gain"):
        dcg(Ranking.parse("69,3"))
    assert dcg(Ranking.parse("69,3"), gains="69=5").value > 0  # a gain table gives grade 69 its gain: no 2^69
    out = cli("explain", "ndcg", "69,3,0,12")
    assert out.returncode == 2 and "--gain linear or a gain table takes grades up to 1,000,000" in out.stderr
    out = cli("explain", "ndcg", "69,3,0,12", "--gain", "linear")
    assert out.returncode == 0 and "Result: nDCG" in out.stdout
    out = cli("explain", "ndcg", "1000001")
    assert out.returncode == 2 and "is at most 1,000,000" in out.stderr


def test_ntcireval_err_takes_large_grades_exponential_does_not():
    # grades 30, 0, 10 with gain = grade: Pr = 30/31, 0, 10/31; ERR = 30/31 + (1/31)(10/31)/3 = 30/31 + 10/2883
    ranking = Ranking.parse("30,0,10")
    assert expected_reciprocal_rank(ranking, err_probability="ntcireval").value == Fraction(30, 31) + Fraction(10, 2883)
    with pytest.raises(IrlabError, match="max grade gmax is at most 20 with ERR's exponential"):
        expected_reciprocal_rank(ranking)


# 4. Fall-out over several queries, a collection size per query ------------------------------------------------------

def test_fallout_with_a_collection_per_query(cli):
    # q1 RNNR, top 3, N = 50, R = 2: fp = 2, nonrel = 48 -> 1/24; q2 NRN, top 3, N = 40, R = 1: fp = 2, nonrel = 39
    # -> 2/39; macro mean (1/24 + 2/39) / 2 = (13/312 + 16/312) / 2 = 29/624
    out = cli("explain", "fallout", "RNNR", "NRN", "--collection", "50,40", "--k", "3")
    assert out.returncode == 0, out.stderr
    assert "Result: fallout = 1/24" in out.stdout and "Result: fallout = 2/39" in out.stdout
    assert out.stdout.rstrip().endswith("Result: mean fallout = 29/624 ≈ 0.0465")
    assert "macro average" in out.stdout and "no micro average" in out.stdout
    # one value is still every query's N: 1/24 and 2/49, mean 97/2352
    same = cli("explain", "fallout", "RNNR", "NRN", "--collection", "50", "--k", "3")
    assert same.stdout.rstrip().endswith("Result: mean fallout = 97/2352 ≈ 0.0412")
    bad = cli("explain", "fallout", "RNNR", "NRN", "--collection", "50,40,30")
    assert bad.returncode == 2 and "--collection gives 3 values for 2 rankings" in bad.stderr
    one = cli("explain", "fallout", "RNNR", "--collection", "50", "--k", "3")
    assert "macro" not in one.stdout  # one query: no mean, no note


def test_fallout_collection_list_in_an_exercise_set(tmp_path):
    from irlab.exercise_set import solve

    path = tmp_path / "fallout.toml"
    body = ('title = "F"\n[[exercise]]\nid = "1"\nstatement = "F"\n[exercise.parameters]\nrankings = ["RNNR", "NRN"]\n'
            'collection = {collection}\n[[exercise.question]]\nid = "a"\nsolver = "fallout"\nk = 3\n')
    path.write_text(body.format(collection="[50, 40]"), encoding="utf-8")
    assert "mean fallout = 29/624" in solve(path).render("text")
    path.write_text(body.format(collection="[50, 40, 30]"), encoding="utf-8")
    with pytest.raises(IrlabError, match="gives 3 values for 2 rankings"):
        solve(path)
    path.write_text(body.replace('rankings = ["RNNR", "NRN"]', 'ranking = "RNNR"').format(collection="[50, 40]"),
                    encoding="utf-8")
    with pytest.raises(IrlabError, match="a list of them goes with rankings"):
        solve(path)
