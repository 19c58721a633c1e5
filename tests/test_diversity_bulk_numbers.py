"""irlab eval --diversity reads a chunk's ranks, judgments and scores in bulk (numpy): the same numbers as the
token-by-token reading (ndeval's naturalNumber, float()), or None so that the token-by-token reading decides."""

from __future__ import annotations

import math

from hypothesis import given, settings
from hypothesis import strategies as st

from irlab.trec import diversity

numbers = st.one_of(st.integers(0, 10**15), st.integers(-999, 999).map(str), st.floats(allow_nan=True).map(repr),
                    st.from_regex(r"[+-]?[0-9]{0,9}\.?[0-9]{0,8}", fullmatch=True),
                    st.sampled_from(["0", "007", "-0", "+3", "1e5", ".5", "5.", "inf", "nan", "1_000"]))


def _bulk(tokens, field, integer):
    lines = diversity.DiversityLines("run", 6, "run", (0, 2))
    buf = b"".join(b"1 Q0 d%d %s %s r\n" % (i, (t if field == 3 else b"1"), (t if field == 4 else b"1"))
                   for i, t in enumerate(tokens))
    read = lines.bulk(buf)
    assert read is not None
    return lines.numbers(field, integer), read[0][field::6]


@settings(max_examples=300, deadline=None)
@given(st.lists(numbers.map(lambda x: str(x).encode()).filter(lambda t: t and not t.isspace() and b" " not in t),
                min_size=1, max_size=30))
def test_bulk_numbers_equal_the_token_by_token_reading(tokens):
    ranks, written = _bulk(tokens, 3, True)
    if ranks is not None:
        assert ranks == diversity.natural_numbers(written)
    scores, written = _bulk(tokens, 4, False)
    if scores is not None:
        expected = diversity.finite_scores(written)
        assert expected is not None and all(math.copysign(1, a) == math.copysign(1, b) and a == b
                                            for a, b in zip(scores, expected)) and len(scores) == len(expected)
