"""irlab check-eval on evaluators written by an independent reviewer (tests/data/heldout_evaluators/, no irlab in
them): ir_eval.py, a TTDS evaluator, and trec_eval_q.py, a trec_eval -q look-alike, each with variants in bugs/ and
trecbugs/ that override one method (or two or three: a combination) with a classic bug, or with a bug the catalogue
does not know. Each variant runs once on the generated collection; its findings must name exactly the catalogue bugs
it has, and a variant with an unknown bug must get "no known cause" (or "impossible", "no number") with no bug named:
a bug that lands on the student's number by coincidence on a cell or two is not named."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from irlab.assignment import Checker, read_assignment
from irlab.assignment.report import render

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "exercises" / "assignments"
COLLECTION = EXAMPLES / "collection"
HELDOUT = ROOT / "tests" / "data" / "heldout_evaluators"
UNEXPLAINED = {"no-known-cause", "impossible", "no-number"}

# variant -> the finding names, most cells first (bugs/ for ttds-ir-eval.toml, trecbugs/ for trec-eval-q.toml)
TTDS = {
    "ap_over_relevant_retrieved": ["ap-over-relevant-retrieved or r-from-run"],
    "combo_ap_rel_retrieved_round2": ["rounded-to-fewer-decimals", "ap-over-relevant-retrieved"],
    "combo_burges_ndcg": ["exponential-gain + discount-log2-rank-plus-1"],
    "combo_ties_ideal_from_run": ["ties-docno-ascending", "ideal-from-run"],
    "discount_log2_i_plus_1": ["discount-log2-rank-plus-1"],
    "exponential_gain": ["exponential-gain"],
    "format_2_decimals": ["rounded-to-fewer-decimals"],
    "ideal_from_run": ["ideal-from-run"],
    "ideal_not_cut": ["ideal-not-cut-at-k"],
    "mean_excludes_missing_row_kept": ["missing-topic-dropped"],
    "mean_over_answered": ["missing-topic-dropped"],
    "recall_over_k": ["recall-over-k"],
    "round_2_decimals": ["rounded-to-fewer-decimals"],
    "rprec_r_from_run": ["r-from-run"],
    "ties_by_docno": ["ties-docno-ascending"],
    "truncate_3_decimals": ["truncated"],
    # bugs the catalogue does not know, or no bug at all
    "columns_reordered": [],
    "ap_over_retrieved": ["no-known-cause"],
    "binary_gain": ["no-known-cause"],
    "cutoff_plus_one": ["no-known-cause", "impossible"],  # P@10 = hits in the top 11 / 10: 1.100 is impossible
    "forgot_system4": ["no-number"],
    "integer_division": ["no-known-cause"],
    "mean_is_median": ["no-known-cause"],
    "missing_row_mean_right": ["no-number"],  # a row missing, its mean right: not missing-topic-dropped
    "rank_column_as_score": ["no-known-cause"],
    "swapped_columns": ["no-known-cause"],
    "threshold_grade2": ["no-known-cause"],
}
TREC = {
    "ap_over_relevant_retrieved": ["ap-over-relevant-retrieved or r-from-run"],
    "combo_three": ["ties-in-file-order", "discount-log2-rank", "ap-over-relevant-retrieved or r-from-run"],
    "ties_file_order": ["ties-in-file-order"],
    "ttds_discount": ["discount-log2-rank"],
    "ties_docno_numeric": ["no-known-cause"],  # int(docno) descending, not trec_eval's strcmp
}


def _run(program: Path, out: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(HELDOUT)}
    subprocess.run([sys.executable, str(program), str(COLLECTION), str(out)], check=True, env=env)


@pytest.fixture(scope="module")
def outcomes(tmp_path_factory):
    """Every evaluator's output checked once: (layout, name) -> Outcome."""
    out = tmp_path_factory.mktemp("heldout")
    ttds = Checker(read_assignment(EXAMPLES / "ttds-ir-eval.toml"))
    trec = Checker(read_assignment(EXAMPLES / "trec-eval-q.toml"))
    made = {}
    for layout, checker, folder, names, suffix in (("ttds", ttds, "bugs", TTDS, ".csv"),
                                                   ("trec", trec, "trecbugs", TREC, "")):
        correct = HELDOUT / ("ir_eval.py" if layout == "ttds" else "trec_eval_q.py")
        for name, program in [("correct", correct), *((n, HELDOUT / folder / f"{n}.py") for n in names)]:
            path = out / f"{layout}-{name}{suffix}"
            _run(program, path)
            made[layout, name] = checker.check(path)
    return made


def test_every_variant_is_in_the_expectations():
    assert {p.stem for p in (HELDOUT / "bugs").glob("*.py")} == set(TTDS)
    assert {p.stem for p in (HELDOUT / "trecbugs").glob("*.py")} == set(TREC)


@pytest.mark.parametrize("layout", ["ttds", "trec"])
def test_the_correct_evaluators_score_full_marks(outcomes, layout):
    outcome = outcomes[layout, "correct"]
    assert outcome.findings == [] and outcome.score == outcome.assignment.max_score


@pytest.mark.parametrize("layout,name", [("ttds", n) for n in TTDS] + [("trec", n) for n in TREC])
def test_each_variant_gets_exactly_its_findings(outcomes, layout, name):
    outcome = outcomes[layout, name]
    expected = (TTDS if layout == "ttds" else TREC)[name]
    assert [f.name for f in outcome.findings] == expected
    if not set(expected) - UNEXPLAINED:  # an unknown bug: no bug named anywhere, not even as an alternative
        assert all(not v.explanations for v in outcome.verdicts)


def test_rounding_to_two_decimals_is_named_on_every_cell_it_changes(outcomes):
    outcome = outcomes["ttds", "round_2_decimals"]
    wrong = [v for v in outcome.verdicts if not v.right]
    assert wrong and all(v.given.value * 100 == int(v.given.value * 100) for v in wrong)  # every one 2 decimals
    assert len(outcome.findings[0].verdicts) == len(wrong)
    assert "rounded to 2 decimals instead of 3" in render(outcome, "s")


def test_a_bug_with_another_is_listed_once_with_both_kinds_of_cells(outcomes):
    """trec combo_three: ties in file order alone (P_10, Rprec) and with the TTDS discount (nDCG) and with AP over the
    relevant retrieved (map): three findings, each bug once, no line printed twice, the tie order stated."""
    outcome = outcomes["trec", "combo_three"]
    text = render(outcome, "s")
    ties = outcome.findings[0]
    assert {v.cell.measure.column for v in ties.verdicts} == {"P_10", "Rprec", "map", "ndcg_cut_10", "ndcg_cut_20"}
    assert "Together with discount-log2-rank (finding 2)" in text
    assert "the assignment orders equal scores by docno descending (trec_eval's order)." in text
    lines = [line for line in text.splitlines() if line.strip().startswith("ties-in-file-order: your evaluator")]
    assert len(lines) == 1


def test_an_impossible_value_is_called_impossible(outcomes):
    text = render(outcomes["ttds", "cutoff_plus_one"], "s")
    assert "you wrote 1.100, which no P@10 can be: it lies between 0 and 1" in text


def test_a_reference_states_the_assignment_s_own_setting(outcomes):
    """The tie-order and cut-off bugs say what the assignment does, not an empty "the assignment's tie order"."""
    from irlab.assignment.catalogue import BUGS, reference_text

    assignment = outcomes["ttds", "correct"].assignment
    late = next(b for b in BUGS if b.name == "cutoff-one-late")
    ties = next(b for b in BUGS if b.name == "ties-docno-descending")
    assert reference_text(late, assignment.measures[:2]) == \
        "the assignment cuts at the declared rank k: P@10 counts the top 10, R@50 counts the top 50"
    assert reference_text(ties, assignment.measures) == "the assignment orders equal scores in the run file's order"


def test_a_rounding_bug_shows_the_number_as_printed(outcomes):
    text = render(outcomes["ttds", "combo_ap_rel_retrieved_round2"], "s")
    assert "system 1, topic 1, R@50: you wrote 0.880, and that way it is 0.88 (7/8 = 0.875 printed that way)" in text
    assert "Together with ap-over-relevant-retrieved (finding 2)" in text
