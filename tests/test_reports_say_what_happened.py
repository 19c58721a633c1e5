"""Reports that say what happened (issue 29, item 4): R from the qrels when explaining a TREC topic, gradebook
columns right from every input layout, "answered" counting answers, Canvas's SIS column holding only SIS ids, and
the too-close warning agreeing with the grader on the decimals an answer must show."""

from collections import defaultdict
from fractions import Fraction
from pathlib import Path

import pytest

from irlab.topic_ranking import topic_ranking

ROOT = Path(__file__).resolve().parents[1]
COMPARE = ROOT / "exercises" / "compare"


# explanations of a TREC topic take R from the qrels ---------------------------------------------------------------

def _relevant_per_topic(qrels: Path) -> dict:
    """R per topic, counted from the qrels text itself (grade >= 1), not through irlab's readers."""
    counts = defaultdict(int)
    for line in qrels.read_text().splitlines():
        topic, _, _, grade = line.split()
        counts[topic] += int(grade) >= 1
    return counts


def test_topic_401_of_the_compare_runs_has_r_from_the_qrels(cli):
    # every one of topic 401's 11 relevant documents is retrieved: R was reported "not given" and assumed
    assert _relevant_per_topic(COMPARE / "qrels.txt")["401"] == 11
    out = cli("explain", "ap", "--qrels", str(COMPARE / "qrels.txt"), "--run", str(COMPARE / "baseline.txt"),
              "--topic", "401")
    assert out.returncode == 0, out.stderr
    assert "R was not given" not in out.stdout
    assert "R = 11 relevant in total" in out.stdout
    assert "R = 11 (11 retrieved + 0 judged relevant but not retrieved)" in out.stdout
    # relevant at ranks 1 2 3 5 6 7 8 10 16 19 20 (by hand from the run and the qrels): AP = S / 11
    s = (1 + 1 + 1 + Fraction(4, 5) + Fraction(5, 6) + Fraction(6, 7) + Fraction(7, 8) + Fraction(8, 10)
         + Fraction(9, 16) + Fraction(10, 19) + Fraction(11, 20))
    assert f"AP = {s / 11}" in out.stdout


@pytest.mark.parametrize("run", ["baseline.txt", "expansion.txt", "weak.txt"])
def test_every_topic_takes_r_from_the_qrels(run):
    relevant = _relevant_per_topic(COMPARE / "qrels.txt")
    for topic, r in relevant.items():
        ranking, notes = topic_ranking(str(COMPARE / "qrels.txt"), str(COMPARE / run), topic)
        assert not ranking.relevant_is_assumed and ranking.assumption() is None
        assert ranking.total_relevant == r, topic
        assert not any("R was not given" in note.text for note in notes)
