"""Convention.choice finds a key written as this module writes it in a table (Convention._by_key) before searching:
the same choice, or the same refusal word for word, as the search alone (reference below) for every convention."""

import dataclasses

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from irlab import conventions
from irlab.conventions import Choice, Convention
from irlab.errors import InputTypeError, IrlabError, ParameterError

EVERY = tuple({c.name: c for c in (*conventions.ALL, *conventions.RUN_EVALUATION, *conventions.COMPARED_ONLY,
                                   *conventions.RANKING_FROM_SCORES, conventions.DIVERSITY_NORMALISATION)}.values())


def searched(convention: Convention, key):
    """The choice as found before the table: every key normalised, then the first choice naming it."""
    if key is not None and not isinstance(key, str):
        keys = ", ".join(repr(c.key) for c in convention.choices)
        raise InputTypeError(f"{convention.name} is one of {keys}, got {type(key).__name__} {key!r:.40}")
    key = convention.default if key is None else key.strip().lower().replace("_", "-")
    for choice in convention.choices:
        if choice.key == key or key in choice.aliases:
            return choice
    keys = ", ".join(c.key for c in convention.choices)
    raise ParameterError(f"unknown {convention.name} {key!r}; choose one of {keys}")


def outcome(find):
    try:
        return find()
    except IrlabError as error:
        return type(error).__name__, str(error)


class Text(str):
    """A str subclass: read through the search, as before."""


def writings(convention):
    names = [name for choice in convention.choices for name in (choice.key, *choice.aliases)]
    return st.one_of(st.sampled_from(names), st.sampled_from(names).map(str.upper),
                     st.sampled_from(names).map(lambda n: f" {n.replace('-', '_')}\t"), st.sampled_from(names).map(Text),
                     st.text(alphabet="abcdeiklmnoprstvx-_ 2", max_size=12), st.none(),
                     st.sampled_from([1, 2.0, b"exp", ["exp"], True]))


@settings(max_examples=300, deadline=None)
@given(data=st.data(), convention=st.sampled_from(EVERY))
def test_a_choice_is_what_the_search_finds(data, convention):
    key = data.draw(writings(convention))
    assert outcome(lambda: convention.choice(key)) == outcome(lambda: searched(convention, key))


# conventions whose names the table must not take as written: upper case, '_', spaces; a key that is another's alias
ODD = Convention("odd", "?", (Choice("Upper", "", "", ""), Choice("a_b", "", "", ""), Choice(" pad", "", "", ""),
                              Choice("one", "", "", "", aliases=("two",)), Choice("two", "", "", ""),
                              Choice("three", "", "", "", aliases=("one",))), "Upper")


@pytest.mark.parametrize("key", [None, "Upper", "upper", "a_b", "a-b", " pad", "pad", "one", "two", "three", "One"])
def test_names_not_written_as_read_are_searched_as_before(key):
    assert outcome(lambda: ODD.choice(key)) == outcome(lambda: searched(ODD, key))


def test_the_table_is_not_a_field():
    # compared, hashed and listed as before: the table is no field of a Convention
    assert [f.name for f in dataclasses.fields(Convention)] == ["name", "question", "choices", "default"]
    conventions.GAIN.choice("exp")
    assert conventions.GAIN == Convention(*(getattr(conventions.GAIN, f.name) for f in dataclasses.fields(Convention)))
