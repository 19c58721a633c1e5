"""A ranking read with what is known is built on the reading of its text alone (ranking.read_known), its grades not
checked again (Ranking._check_known), and an exercise's rankings are remembered for their parameters' values
(exercise_inputs.exercise_rankings): each gives the ranking, or the refusal word for word, that a fresh reading
gives. The reference is a Ranking whose checks are those before the shortcut, in their order (Reference below)."""

import dataclasses
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from irlab import exercise_inputs, ranking as module
from irlab.errors import IrlabError
from irlab.exercise_set import Where
from irlab.limits import MAX_COLLECTION, MAX_GRADE, MAX_RANKS, MAX_RELEVANT, check_at_most
from irlab.ranking import Ranking, read_known, remembered


class Reference(Ranking):
    """A Ranking checked as every Ranking was before the shortcut: every check in __post_init__, in this order."""

    def __post_init__(self):
        object.__setattr__(self, "grades", module._sequence(self.grades, "the grades of a Ranking"))
        object.__setattr__(self, "unretrieved", module._sequence(self.unretrieved, "unretrieved (grades of judged documents not retrieved)"))
        check_at_most(len(self.grades), MAX_RANKS, "the length of a ranking")
        check_at_most(len(self.unretrieved), MAX_RANKS, "the number of judged documents not retrieved")
        for position, grade in enumerate(self.grades, 1):
            module._check_grade(grade, f"rank {position}")
        for position, grade in enumerate(self.unretrieved, 1):
            module._check_grade(grade, f"unretrieved document {position}")
        module._check_count(self.threshold, "relevance threshold", 1, MAX_GRADE)
        if self.relevant is not None:
            module._check_count(self.relevant, "number of relevant documents R", 0, MAX_RELEVANT)
            known = self.relevant_retrieved + self.relevant_unretrieved
            if self.relevant < self.relevant_retrieved:
                raise module.RankingError(
                    f"R = {self.relevant} relevant documents is smaller than the {self.relevant_retrieved} "
                    "relevant documents already retrieved")
            if self.unretrieved and self.relevant != known:
                raise module.RankingError(
                    f"R = {self.relevant} disagrees with the judgments: {self.relevant_retrieved} relevant retrieved "
                    f"+ {self.relevant_unretrieved} relevant unretrieved = {known}")
        if self.sampled_out and not set(self.sampled_out) <= set(self.unjudged):
            raise module.RankingError("every sampled-out rank (in the pool, not judged) must also be an unjudged rank")
        if self.scores is not None:
            object.__setattr__(self, "scores", module.read_scores(self.scores, len(self.grades)))
        if self.ids is not None and len(self.ids) != len(self.grades):
            raise module.RankingError(f"{len(self.ids)} document ids for {len(self.grades)} ranks")
        if self.collection is not None:
            module._check_count(self.collection, "collection size N", 1, MAX_COLLECTION)
            if self.collection < self.retrieved:
                raise module.RankingError(
                    f"collection size N = {self.collection} is smaller than the {self.retrieved} documents retrieved")
            needed = self.retrieved + self.total_relevant - self.relevant_retrieved
            if self.collection < needed:
                raise module.RankingError(
                    f"collection size N = {self.collection} cannot hold the {self.retrieved} retrieved documents "
                    f"and the {self.total_relevant - self.relevant_retrieved} relevant documents not retrieved")


def outcome(read):
    """Every field of the ranking ``read()`` returns with its type (compare=False ones too), and what it works out
    from them (relevance, hits at every rank, its description), or the refusal."""
    try:
        ranking = read()
    except (IrlabError, TypeError) as error:
        return type(error).__name__, str(error)
    return [(field.name, repr(getattr(ranking, field.name)), type(getattr(ranking, field.name)).__name__,
             tuple(type(item).__name__ for item in getattr(ranking, field.name) or ())
             if isinstance(getattr(ranking, field.name), tuple) else ())
            for field in dataclasses.fields(Ranking)] + [
        ranking.relevance, [ranking.hits(k) for k in range(ranking.retrieved + 2)], ranking.describe()]


def afresh(written, known):
    """The reading before the shortcut: the text parsed, or the list taken, with what is known, checked in full."""
    if isinstance(written, list):
        return Reference.from_grades(written, **known)
    return Reference._parse(str(written), **known)


texts = st.text(alphabet="RNUSrnus0123 ,|;-x\t", max_size=12)
grade_lists = st.lists(st.one_of(st.integers(0, 3), st.sampled_from([True, -1, 10**7, 1.0, "1"])), max_size=8)
grade_values = st.one_of(st.integers(-1, 4), st.sampled_from([True, 1.0, None, "2"]))
known_values = {
    "relevant": st.one_of(st.integers(-1, 12), st.sampled_from([None, True, 2.0, Fraction(3), "3"])),
    "unretrieved": st.one_of(st.lists(grade_values, max_size=4).map(tuple), st.lists(grade_values, max_size=4),
                             st.sampled_from([(), None, 5, "21", ((1, 2),)])),
    "collection": st.one_of(st.integers(0, 30), st.sampled_from([None, True, 20.0, MAX_COLLECTION + 1])),
    "threshold": st.one_of(st.integers(0, 4), st.sampled_from([None, True, 2.0, MAX_GRADE + 1])),
    "scores": st.one_of(st.lists(st.sampled_from([3, 2, 2, 1, 0.5, 0.25, "x", float("inf")]), max_size=8),
                        st.sampled_from(["3,2,2,1", "0.9 0.8 0.8", "1;2", "", None])),
}
knowns = st.fixed_dictionaries({}, optional=known_values)


@settings(max_examples=800, deadline=None)
@given(written=st.one_of(texts, grade_lists), known=knowns, text_first=st.booleans(), twice=st.booleans())
def test_a_ranking_built_on_its_texts_reading_is_the_reading_afresh(written, known, text_first, twice):
    module._REMEMBERED.clear()
    if text_first:  # the text's own reading already remembered (the drawing reads it first) and worked on, or read here
        outcome(lambda: remembered(written, {}))
    expected = outcome(lambda: afresh(written, known))
    assert outcome(lambda: read_known(written, dict(known))) == expected
    assert outcome(lambda: remembered(written, dict(known))) == expected
    if twice:  # served from the cache the second time
        assert outcome(lambda: remembered(written, dict(known))) == expected


sequences = st.one_of(grade_lists, st.sampled_from([5, "RN", None, [1] * (MAX_RANKS + 1)]))


@settings(max_examples=800, deadline=None)
@given(grades=sequences, unretrieved=sequences, known=knowns.map(lambda k: {n: v for n, v in k.items() if n != "unretrieved"}),
       marks=st.sampled_from([{}, {"unjudged": (1,), "sampled_out": (1,)}, {"unjudged": (1,), "sampled_out": (2,)},
                              {"ids": ("a", "b")}, {"nonrelevant_unretrieved": 3}]))
def test_a_ranking_refuses_what_it_refused_in_the_order_it_did(grades, unretrieved, known, marks):
    # the grades' checks now run first only when they fail; a list of unretrieved grades that is not one, or too long,
    # is still named before a grade at fault, as before
    kwargs = {**known, **marks, "unretrieved": unretrieved}
    assert outcome(lambda: Ranking(grades, **kwargs)) == outcome(lambda: Reference(grades, **kwargs))


def test_the_reference_tells_a_changed_order_apart():
    # the property above fails if the grades were checked before the unretrieved list: the two refusals differ
    assert outcome(lambda: Reference(["x"], unretrieved=5)) != outcome(lambda: Reference(["x"], unretrieved=()))


rankings_texts = st.one_of(st.text(alphabet="RNU", min_size=1, max_size=6), st.lists(st.integers(0, 3), max_size=5))
parameter_values = {
    "relevant": st.one_of(st.integers(0, 8), st.lists(st.integers(0, 8), max_size=3), st.sampled_from([None, True])),
    "unretrieved": st.one_of(st.lists(st.integers(0, 3), max_size=3),
                             st.lists(st.lists(st.integers(0, 3), max_size=2), max_size=3), st.sampled_from([None, 5])),
    "scores": st.one_of(st.lists(st.lists(st.sampled_from([3, 2, 1]), max_size=4), max_size=3),
                        st.sampled_from([None, "3,2,1", [3, 2]])),
    "collection": st.one_of(st.integers(1, 20), st.lists(st.integers(1, 20), max_size=3), st.sampled_from([None])),
    "threshold": st.one_of(st.integers(1, 3), st.sampled_from([None, 2.0])),
    "other": st.integers(0, 3),  # a parameter the rankings are not read from
}
exercise_params = st.one_of(
    st.fixed_dictionaries({"ranking": rankings_texts}, optional=parameter_values),
    st.fixed_dictionaries({"rankings": st.lists(rankings_texts, min_size=1, max_size=3)}, optional=parameter_values),
    st.fixed_dictionaries({}, optional=parameter_values))


def rankings_outcome(read):
    try:
        rankings = read()
    except (IrlabError, TypeError) as error:
        return type(error).__name__, str(error)
    return [outcome(lambda: ranking) for ranking in rankings]


@settings(max_examples=400, deadline=None)
@given(params=exercise_params, other=exercise_params)
def test_an_exercises_rankings_remembered_are_read_afresh(params, other):
    module._REMEMBERED.clear()
    exercise_inputs._READ.clear()
    expected = rankings_outcome(lambda: exercise_inputs._read_rankings(params, Where("set.toml", "1", "a")))
    rankings_outcome(lambda: exercise_inputs.exercise_rankings(other, Where("set.toml", "2")))
    for _ in range(2):  # the first reading, then the remembered one; refusals name the place of each call
        assert rankings_outcome(lambda: exercise_inputs.exercise_rankings(params, Where("set.toml", "1", "a"))) == expected
    assert rankings_outcome(lambda: exercise_inputs.exercise_rankings(dict(other), Where("set.toml", "2"))) == \
        rankings_outcome(lambda: exercise_inputs._read_rankings(other, Where("set.toml", "2")))


def test_a_parameter_changed_after_reading_gives_the_changed_rankings():
    params = {"rankings": ["RNR", "NRR"], "relevant": [2, 3], "unretrieved": [[], [1]]}
    first = exercise_inputs.exercise_rankings(params, Where("s"))
    params["relevant"][0] = 4
    params["unretrieved"][1].append(1)
    params["relevant"][1] = 4
    again = exercise_inputs.exercise_rankings(params, Where("s"))
    assert [r.total_relevant for r in first] == [2, 3] and [r.total_relevant for r in again] == [4, 4]
    assert again[1].unretrieved == (1, 1)
    again.append("mine")  # the caller's own list
    assert len(exercise_inputs.exercise_rankings(params, Where("s"))) == 2


def test_a_refusal_is_not_remembered_and_names_each_place():
    params = {"rankings": ["RNR", "NRR"], "relevant": [2]}
    for place in ("1", "2"):
        try:
            exercise_inputs.exercise_rankings(params, Where("s.toml", place))
        except IrlabError as error:
            assert f"exercise {place}, key 'parameters.relevant': gives 1 values for 2 rankings" in str(error)
        else:
            raise AssertionError("a list of one R for two rankings was read")


def test_threshold_none_is_not_read_as_no_threshold():
    # the key names the parameters given: threshold = None is refused even after the same ranking was read without one
    exercise_inputs.exercise_rankings({"ranking": "RNR"}, Where("s"))
    try:
        exercise_inputs.exercise_rankings({"ranking": "RNR", "threshold": None}, Where("s"))
    except IrlabError as error:
        assert "relevance threshold must be an integer >= 1" in str(error)
    else:
        raise AssertionError("threshold = None was read as no threshold")
