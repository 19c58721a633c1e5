import pytest

from irlab import Ranking, RankingError


def test_rn_strings_tolerate_case_spaces_and_bars():
    assert Ranking.parse("r n | N r").grades == (1, 0, 0, 1)
    assert Ranking.parse("RNNRR").relevance == (True, False, False, True, True)


def test_graded_and_binary_lists():
    assert Ranking.parse("3,2,0,1").grades == (3, 2, 0, 1)
    assert Ranking.parse("1 0 1").binary
    assert Ranking.from_binary([True, False]).grades == (1, 0)


def test_threshold_binarises_grades():
    r = Ranking.parse("3,1,2,0", threshold=2)
    assert r.relevance == (True, False, True, False)
    assert r.relevant_retrieved == 2


def test_total_relevant_from_unretrieved_grades():
    r = Ranking.parse("2,0,1", unretrieved=[3, 0, 1])
    assert r.total_relevant == 4
    assert not r.relevant_is_assumed


@pytest.mark.parametrize(
    "text, message",
    [
        ("RNXR", "unexpected character 'X' at position 3"),
        ("3,-1,2", "negative grade -1 at position 2"),
        ("3,a,2", "item 2 'a' is not an integer grade"),
    ],
)
def test_bad_rankings_are_named(text, message):
    with pytest.raises(RankingError, match=message):
        Ranking.parse(text)


@pytest.mark.parametrize("text", ["", "  |  ", "-"])
def test_an_empty_ranking_is_read_and_refused_by_the_metrics_by_default(text):
    from irlab import average_precision

    assert Ranking.parse(text).is_empty and Ranking.parse(text).retrieved == 0
    with pytest.raises(RankingError, match="the ranking is empty: the system returned no document"):
        average_precision(text)


def test_relevant_smaller_than_retrieved_relevant():
    with pytest.raises(RankingError, match="R = 2 relevant documents is smaller than the 3"):
        Ranking.parse("RNNRR", relevant=2)


def test_relevant_disagreeing_with_unretrieved_grades():
    with pytest.raises(RankingError, match="disagrees"):
        Ranking.parse("RN", relevant=3, unretrieved=[1])


def test_collection_smaller_than_list():
    with pytest.raises(RankingError, match="smaller than the 5 documents retrieved"):
        Ranking.parse("RNNRR", collection=4)
    with pytest.raises(RankingError, match="cannot hold"):
        Ranking.parse("RNNRR", relevant=5, collection=6)


def test_negative_unretrieved_grade():
    with pytest.raises(RankingError, match="negative grade"):
        Ranking.parse("1,0", unretrieved=[-1])
