"""The fast numpy path (batch evaluation) and the exact path (explain one topic) agree on random TREC files."""

from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from irlab import (average_precision, eleven_point_average, interpolated_precision, ndcg, precision, r_precision,
                   recall, reciprocal_rank)
from irlab.exact import to_float
from irlab.topic_ranking import topic_ranking
from irlab.trec.evaluate import evaluate

DOCS = [f"d{i:02d}" for i in range(12)]


@st.composite
def trec_files(draw):
    """A qrels with grades -1..3 and a run with tied scores, for topics q1 and q2."""
    qrels, run = [], []
    for topic in ("q1", "q2"):
        judged = draw(st.lists(st.sampled_from(DOCS), min_size=1, max_size=8, unique=True))
        grades = draw(st.lists(st.integers(-1, 3), min_size=len(judged), max_size=len(judged)))
        if all(g < 1 for g in grades):
            grades[0] = draw(st.integers(1, 3))  # at least one relevant document
        qrels += [f"{topic} 0 {d} {g}" for d, g in zip(judged, grades)]
        retrieved = draw(st.lists(st.sampled_from(DOCS), min_size=1, max_size=10, unique=True))
        scores = draw(st.lists(st.integers(0, 3), min_size=len(retrieved), max_size=len(retrieved)))  # many ties
        run += [f"{topic} Q0 {d} {i} {s} test" for i, (d, s) in enumerate(zip(retrieved, scores), 1)]
    return "\n".join(qrels) + "\n", "\n".join(run) + "\n"


MEASURES = ["map", "P.3", "recall.5", "recip_rank", "Rprec", "ndcg", "ndcg_cut.3", "map_cut.4", "11pt_avg",
            "iprec_at_recall.0.30"]


@settings(max_examples=40, deadline=None)
@given(trec_files())
def test_batch_and_exact_paths_agree(tmp_path_factory, files):
    folder = tmp_path_factory.mktemp("trec")
    (folder / "qrels").write_text(files[0])
    (folder / "run").write_text(files[1])
    batch = evaluate(folder / "qrels", folder / "run", MEASURES)
    for topic in ("q1", "q2"):
        ranking, _ = topic_ranking(folder / "qrels", folder / "run", topic)
        fast = batch[topic]
        exact = {
            "map": average_precision(ranking),
            "P_3": precision(ranking, k=3),
            "recall_5": recall(ranking, k=5),
            "recip_rank": reciprocal_rank(ranking),
            "Rprec": r_precision(ranking),
            "ndcg": ndcg(ranking, gain="linear"),
            "ndcg_cut_3": ndcg(ranking, k=3, gain="linear"),
            "map_cut_4": average_precision(ranking, k=4),
            "11pt_avg": eleven_point_average(ranking, interpolation="trec-eval"),
            "iprec_at_recall_0.30": interpolated_precision(ranking, Fraction(3, 10), interpolation="trec-eval"),
        }
        for name, result in exact.items():
            assert abs(fast[name] - to_float(result.value)) < 1e-9, (topic, name, fast[name], result.value)


def test_results_on_a_topic_state_how_the_ranking_was_built(tmp_path):
    (tmp_path / "qrels").write_text("q1 0 a 1\nq1 0 b -1\nq1 0 z 2\n")
    (tmp_path / "run").write_text("q1 Q0 a 1 2.0 t\nq1 Q0 b 2 1.0 t\nq1 Q0 c 3 1.0 t\n")
    ranking, notes = topic_ranking(tmp_path / "qrels", tmp_path / "run", "q1")
    assert ranking.ids == ("a", "c", "b")  # the tie at 1.0 is broken by docno descending
    assert ranking.grades == (1, 0, 0) and ranking.unretrieved == (2,)
    result = average_precision(ranking)
    assert result.value == Fraction(1, 2)  # P@1 = 1 over R = 2
    texts = [note.text for note in result.notes]
    assert texts[:2] == [note.text for note in notes]
    assert "unjudged (1) or judged with a negative grade (1)" in texts[1]
