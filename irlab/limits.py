"""Bounds on what irlab accepts, defined once: magnitudes no exercise needs are refused with the limit named.

Exact arithmetic has no overflow, so without bounds a typo (a grade of 10^20, a recall level of 1e-1000000000)
would make irlab compute for minutes or fill memory instead of answering. Every bound below is far above what a
textbook exercise or one TREC topic needs (a TREC run keeps 1,000 documents per topic).
"""

from __future__ import annotations

from .errors import LimitError

MAX_RANKS = 20_000  # documents in one ranking (retrieved, or judged but not retrieved)
MAX_RELEVANT = 20_000  # R, the relevant documents of one query
MAX_GRADE = 20  # a relevance grade; exponential gain 2^g - 1 and ERR's 2^gmax grow with it
MAX_COLLECTION = 10**12  # N, the documents in the collection
MAX_CUTOFF = 10**12  # k, a cut-off rank
MAX_DIGITS = 15  # digits of the numerator or denominator of a number parameter (0.25, 1/3, 1e-6)
MAX_NUMBER_TEXT = 40  # characters of a number as written
MAX_BETA = 1000  # the F-measure's weight of recall
MAX_QUERIES = 1000  # rankings averaged in one explanation or exercise
MAX_TEXT = 100_000  # characters of one ranking or column as written


def check_at_most(value: int, limit: int, what: str) -> int:
    """``value`` when it is at most ``limit``, else a LimitError naming both."""
    if value > limit:
        raise LimitError(f"{what} is at most {limit:,} (irlab's limit; no exercise needs more), got {_short(value)}")
    return value


def check_digits(value, what: str):
    """A rational parameter whose numerator and denominator have at most MAX_DIGITS digits."""
    from fractions import Fraction

    fraction = Fraction(value)
    bound = 10**MAX_DIGITS
    if abs(fraction.numerator) >= bound or fraction.denominator >= bound:
        raise LimitError(f"{what} has more than {MAX_DIGITS} digits in its numerator or denominator (irlab's limit; "
                         "no exercise needs that precision)")
    return value


def _short(value: int) -> str:
    """An integer for a message: its digits, or how many there are when it is long."""
    digits = len(str(value)) if abs(value).bit_length() < 200 else None
    return f"{value:,}" if digits is not None else f"a number of about {int(abs(value).bit_length() * 0.30103) + 1} digits"
