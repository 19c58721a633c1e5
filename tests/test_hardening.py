"""Issue 13: whatever is typed, irlab ends with a result or one `irlab: error:` line (exit 2; 130 on Ctrl-C), and
the Python API raises an IrlabError that is also the fitting builtin (ValueError or TypeError)."""

import math
import subprocess
import sys
import time
from fractions import Fraction

import pytest

import irlab
from irlab import exact
from irlab.errors import InputTypeError, IrlabError, LimitError, ParameterError


def one_error(out, *fragments):
    """Exit 2, nothing on stdout, exactly one `irlab: error:` line holding every fragment, no traceback."""
    assert out.returncode == 2, (out.returncode, out.stderr)
    assert out.stdout == ""
    lines = out.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("irlab: error: "), out.stderr
    assert "Traceback" not in out.stderr
    for fragment in fragments:
        assert fragment in lines[0], (fragment, lines[0])
    return lines[0]


# item 1: tracebacks ------------------------------------------------------------------------------------------

def test_item1_exact_values_too_long_to_print_are_written_by_their_digits():
    denominator = math.lcm(*range(1, 12000))  # AP over 12,000 ranks has a denominator of this size
    limit = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(0)
    try:
        digits = str(denominator)
    finally:
        sys.set_int_max_str_digits(limit)
    assert len(digits) > 4300  # beyond what str() converts by default
    text = exact.exact_text(Fraction(1, denominator))
    assert text == f"1/{digits[:6]}…{digits[-5:]} ({len(digits):,} digits)"
    assert exact.exact_text(10**59) == str(10**59)  # 60 digits are still written out
    assert exact.exact_text(-(10**60)) == "-100000…00000 (61 digits)"
    assert r"\ldots{}" in exact.exact_latex(Fraction(1, denominator))


@pytest.mark.parametrize("argv, fragments", [
    (["explain", "ndcg", "20000,0"], ["a grade (ranking, item 1) is at most 20", "got 20,000"]),
    (["explain", "nerr", "3,2,1", "--max-grade", "100000"], ["max grade gmax is at most 20"]),
    (["explain", "prec-at-recall", "RNR", "--recall-level", "1e-5000"], ["recall level must be a finite number", "'1e-5000'"]),
    (["explain", "f", "RNR", "--beta", "1e5000"], ["beta must be a finite number"]),
    (["explain", "f", "RNR", "--beta", "1e-20"], ["beta has more than 15 digits"]),
])
def test_item1_huge_exact_values_are_refused_with_a_message(cli, argv, fragments):
    one_error(cli(*argv), *fragments)


def test_item1_arguments_that_are_not_utf8_are_refused_by_position(cli):
    one_error(cli("sheet", "exercises/chapter8-seed.toml", "--student", "s", "--seed", "\udcff"),
              "argument 6 (b'\\xff') is not valid UTF-8 text")


def test_item1_ctrl_c_exits_130_without_traceback(cli, monkeypatch):
    import irlab.cli

    def interrupted(argv):
        raise KeyboardInterrupt

    monkeypatch.setattr(irlab.cli, "_run", interrupted)
    out = cli("metrics")
    assert out.returncode == 130 and out.stderr == "" and out.stdout == ""


def test_item1_closed_stdout_and_closed_pipe_give_no_traceback():
    closed = subprocess.run([sys.executable, "-m", "irlab", "explain", "ap", "RNNRR"], stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True, pass_fds=(), close_fds=True,
                            preexec_fn=lambda: __import__("os").close(1))
    assert closed.returncode == 2
    assert closed.stderr == "irlab: error: standard output is closed: nowhere to write the result\n"
    piped = subprocess.run(f"{sys.executable} -m irlab metrics | head -c 10", shell=True, capture_output=True, text=True)
    assert piped.stdout and "Traceback" not in piped.stderr and "BrokenPipe" not in piped.stderr


# item 2: hangs and unbounded memory -----------------------------------------------------------------------

@pytest.mark.parametrize("argv, limit", [
    (["explain", "ndcg", "99999999999999999999,0"], "is at most 1,000,000 (irlab's limit"),
    (["explain", "err", "3,2,1", "--max-grade", "1e20"], "max grade must be an integer written with the digits 0-9"),
    (["explain", "err", "3,2,1", "--max-grade", "100000000000000000000"], "max grade has 21 digits; irlab's limit is 15"),
    (["explain", "iprec", "RNR", "--recall-level", "1e-1000000000"], "recall level must be a finite number"),
    (["explain", "f", "RNR", "--beta", "1e999999999"], "beta must be a finite number"),
    (["explain", "ap", "R" * 20001], "the length of a ranking is at most 20,000"),
    (["explain", "recall", "RNR", "--relevant", "1000000000"], "number of relevant documents R is at most 20,000"),
])
def test_item2_magnitudes_no_exercise_needs_are_refused_quickly_naming_the_limit(cli, argv, limit):
    started = time.perf_counter()
    one_error(cli(*argv), limit)
    assert time.perf_counter() - started < 5  # generous: the point is "not minutes"


# item 4: accepted when it should not be -------------------------------------------------------------------

@pytest.mark.parametrize("k", ["３", "1_0", "+", "1e1", "٣"])
def test_item4_integers_are_ascii_digits_only(cli, k):
    one_error(cli("explain", "precision", "RNRNR", "--k", k), "cut-off k must be an integer written with the digits 0-9")


def test_item4_grades_and_numbers_are_ascii_only():
    with pytest.raises(IrlabError):
        irlab.Ranking.parse("１,0")
    with pytest.raises(ValueError):
        exact.parse_number("1_0")
    assert exact.parse_number(" 1 / 4 ") == Fraction(1, 4) and exact.parse_number("25%") == Fraction(1, 4)


# item 6: the Python API ----------------------------------------------------------------------------------

def test_item6_a_ranking_may_be_given_as_text():
    assert irlab.precision("RNR").value == Fraction(2, 3)
    assert irlab.ndcg([3, 0, 1], k=2).value == irlab.ndcg(irlab.Ranking.from_grades([3, 0, 1]), k=2).value


@pytest.mark.parametrize("call, builtin, fragment", [
    (lambda: irlab.Ranking(None), TypeError, "the grades of a Ranking must be a list of integer grades, got NoneType"),
    (lambda: irlab.Ranking.parse("RN", unretrieved=5), TypeError, "unretrieved (grades of judged documents not retrieved)"),
    (lambda: irlab.ndcg(irlab.Ranking.parse("RNR"), discount=3), TypeError, "discount is one of"),
    (lambda: irlab.f_measure(irlab.Ranking.parse("RNR"), beta=math.inf), ValueError, "beta must be a finite number"),
    (lambda: irlab.cohen_kappa(5, 6), TypeError, "must be a list of 0/1 judgments"),
    (lambda: irlab.kendall_tau_distance(None, None), TypeError, "first ranking must be text such as 'd1,d2,d3'"),
    (lambda: irlab.mean_over_queries([1, 2]), TypeError, "item 1 is int"),
    (lambda: irlab.get_metric(None), TypeError, "a metric name is text"),
    (lambda: irlab.precision(3.5), TypeError, "a metric takes a Ranking"),
    (lambda: irlab.precision("RNR", k=2.5), ValueError, "cut-off k must be a positive integer"),
    (lambda: irlab.precision("RNR", k=10**13), ValueError, "cut-off k is at most"),
    (lambda: irlab.expected_reciprocal_rank("3,2", max_grade=10**20), ValueError, "max grade gmax is at most 20"),
    (lambda: irlab.interpolated_precision("RNR", recall_level=[1]), TypeError, "recall level must be a number"),
])
def test_item6_api_errors_are_irlab_errors_and_the_fitting_builtin(call, builtin, fragment):
    with pytest.raises(IrlabError) as caught:
        call()
    assert isinstance(caught.value, builtin)
    assert fragment in str(caught.value)
    if builtin is TypeError:
        assert isinstance(caught.value, InputTypeError)


def test_item6_limit_errors_are_parameter_errors():
    assert issubclass(LimitError, ParameterError) and issubclass(InputTypeError, TypeError)


# item 7: CLI ergonomics ----------------------------------------------------------------------------------

def test_item7_options_may_come_before_the_ranking(cli):
    before = cli("explain", "ap", "--relevant", "5", "RNNRR")
    after = cli("explain", "ap", "RNNRR", "--relevant", "5")
    assert before.returncode == 0 and before.stdout == after.stdout
    assert "Result: AP = 21/50 = 0.42" in before.stdout


def test_item7_pdf_must_name_a_pdf_so_its_latex_source_is_not_overwritten(cli, tmp_path):
    one_error(cli("explain", "ap", "RNNRR", "--pdf", str(tmp_path / "out.tex")), "--pdf", "must end in .pdf")
    assert not (tmp_path / "out.tex").exists()


def test_item7_a_file_that_cannot_be_written_is_named_as_the_user_gave_it(cli, tmp_path):
    blocker = tmp_path / "not-a-directory"
    blocker.write_text("x")
    target = blocker / "page.html"
    line = one_error(cli("explain", "ap", "RNNRR", "--html", str(target)), f"{target}: cannot write")
    assert ".page.html." not in line  # not the hidden temporary file


def test_item7_html_writes_the_page_and_says_so_in_one_line(cli, tmp_path):
    # issue 23: with --pdf/--html the files are the output; stdout no longer repeats the whole explanation
    out = cli("explain", "ap", "RNNRR", "--html", str(tmp_path / "ap.html"))
    assert out.returncode == 0 and out.stdout == "" and out.stderr == f"irlab: wrote {tmp_path / 'ap.html'}\n"
    assert 'alttext="AP = 7/10 = 0.7"' in (tmp_path / "ap.html").read_text()  # the result, in the page


def test_item7_sheet_and_key_are_written_both_or_neither(cli, tmp_path):
    (tmp_path / "sheet-key.html").mkdir()  # the key cannot be written
    out = cli("sheet", "exercises/chapter8-book.toml", "--student", "s1", "--html", str(tmp_path / "sheet.html"))
    one_error(out, "sheet-key.html")
    assert not (tmp_path / "sheet.html").exists()


def test_item7_spearman_does_not_suggest_k_which_it_refuses(cli):
    line = one_error(cli("explain", "spearman", "--a", "d1,d2,d3", "--b", "d1,d2,d4"), "must order the same documents")
    assert "--k" not in line
    assert "--k" in one_error(cli("explain", "kendall", "--a", "d1,d2,d3", "--b", "d1,d2,d4"))


def test_item7_a_huge_number_is_echoed_as_typed(cli):
    line = one_error(cli("explain", "iprec", "RNR", "--recall-level", "1e400"), "recall level must lie in [0, 1], got '1e400'")
    assert len(line) < 120


# item 3: cliffs on legitimate sizes (timed by benchmarks/bench_cliffs.py; here: the values stay exact) ---------

def test_item3_err_over_many_ranks_is_exactly_the_textbook_sum():
    import random

    rng = random.Random(13)
    grades = [rng.randint(0, 3) for _ in range(400)]
    expected, stay = Fraction(0), Fraction(1)  # Chapelle et al. 2009, computed independently with Fractions
    for rank, grade in enumerate(grades, 1):
        pr = Fraction(2**grade - 1, 2**3)
        expected += stay * pr / rank
        stay *= 1 - pr
    assert irlab.expected_reciprocal_rank(grades).value == expected


def test_item3_exact_sums_and_dyadic_fractions():
    import random

    rng = random.Random(3)
    values = [Fraction(rng.randint(-50, 50), rng.randint(1, 400) << rng.randint(0, 60)) for _ in range(300)] + [3, 0]
    assert exact.total(values) == sum(values, Fraction(0))
    assert exact.dyadic(12, 4, 3) == Fraction(12, 48) and exact.dyadic(0, 9) == 0 and exact.dyadic(8, 3) == 1


def test_item3_map_bounds_with_many_missing_documents_stay_exact():
    from irlab.solvers import map_bounds

    ranking = irlab.Ranking.parse("RRNNNRNNNN", relevant=300, collection=1000)
    highest, lowest, _ = (a.value for a in map_bounds(ranking).answers)
    top = Fraction(1) + Fraction(2, 2) + Fraction(3, 6)
    missing = 297
    assert lowest == (top + sum(Fraction(3 + j, 1000 - missing + j) for j in range(1, missing + 1))) / 300
    assert highest == (top + sum(Fraction(3 + j, 10 + j) for j in range(1, missing + 1))) / 300
    low = map_bounds(ranking).answers[1].result.render("text")
    assert "AP_min(N) = (5/2 + Σ_{j=1..297} (3 + j) / (N - 297 + j)) / 300" in low


def test_item3_long_explanations_elide_their_middle_saying_so(cli):
    out = cli("explain", "ap", "RN" * 100)
    assert out.returncode == 0
    assert "(the first and last 25 of 200 rows; 150 rows in between not shown)" in out.stdout
    assert "… (80 more terms) …" in out.stdout
    expected = sum(Fraction(i, 2 * i - 1) for i in range(1, 101)) / 100
    assert f"Result: AP = {exact.exact_text(expected)} ≈ {exact.decimal_text(expected, strip=False)}" in out.stdout
