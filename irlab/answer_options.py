"""The answer-checking options of a question: what each key must be, how it is read, and the tolerance it makes.

A question (or an exercise set's ``[grading]`` table) may say how its answers are checked: ``tolerance``,
``abs_tolerance``, ``decimals``, ``form``, ``accept_rounded``, ``min_decimals``, ``near_tolerance``,
``rounding_credit`` and ``mistake_credit`` (:data:`OPTION_KEYS`, with what each must be). :meth:`Tolerance.of`
reads them into a :class:`Tolerance` and :func:`option_number` reads one number; both raise
:class:`AnswerOptionError` naming the key. What the options mean when an answer is compared is in
:mod:`irlab.homework.answers`, which uses them; the exercise-set schema (:mod:`irlab.schema`) checks them when a
set is loaded. This module sits below both and imports neither.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property

from . import exact
from .errors import ParameterError

DEFAULT_RTOL = Fraction(1, 100)
DEFAULT_ATOL = Fraction(1, 10**8)
DEFAULT_MIN_DECIMALS = 2
DEFAULT_NEAR_RTOL = Fraction(5, 100)
FORMS = ("any", "fraction", "decimal")  # "decimal" (like "any"): a decimal within the tolerance is right
# the question (and [grading]) keys read here, with what each must be
OPTION_KEYS = {
    "tolerance": "a relative tolerance: a number >= 0 such as 0.01, 1/100 or 1%",
    "abs_tolerance": "an absolute tolerance: a number >= 0 such as 0.005",
    "decimals": "a whole number of decimal places >= 0",
    "form": f"one of {', '.join(FORMS)}",
    "accept_rounded": "true or false",
    "min_decimals": "a whole number of decimal places >= 0",
    "near_tolerance": "a relative tolerance for near misses: a number >= 0 such as 0.05",
    "rounding_credit": "a share of the part's credit between 0 and 1, such as 0.5 or 1/2",
    "mistake_credit": "a share of the part's credit between 0 and 1, such as 0.5 or 1/2",
}


class AnswerOptionError(ParameterError):
    """A grading option of a question (tolerance, decimals, form, …) has an impossible value; names the key."""

    def __init__(self, key: str, value, expected: str):
        self.key, self.value = key, value
        self.problem = f"must be {expected}, got {value!r}"
        super().__init__(f"key '{key}' {self.problem}")


def option_number(options: dict, key: str, default, low=0, high=None) -> Fraction:
    """The option ``key`` of ``options`` (``default`` when absent) as an exact number in [low, high] (no upper
    bound when ``high`` is None); raises :class:`AnswerOptionError` naming the key.

    >>> option_number({"mistake_credit": "1/2"}, "mistake_credit", 0, 0, 1)
    Fraction(1, 2)
    >>> option_number({"mistake_credit": 2}, "mistake_credit", 0, 0, 1)
    Traceback (most recent call last):
    ...
    irlab.answer_options.AnswerOptionError: key 'mistake_credit' must be a share of the part's credit between 0 and 1, such as 0.5 or 1/2, got 2
    """
    value = options.get(key, default)
    if isinstance(value, bool) or not isinstance(value, (int, float, str, Fraction)):
        raise AnswerOptionError(key, value, OPTION_KEYS[key])
    try:
        number = exact.rational(Fraction(repr(value))) if isinstance(value, float) else exact.parse_number(str(value))
    except (ValueError, ZeroDivisionError):
        raise AnswerOptionError(key, value, OPTION_KEYS[key]) from None
    if number < low or (high is not None and number > high):
        raise AnswerOptionError(key, value, OPTION_KEYS[key])
    return Fraction(number)


def _whole(options: dict, key: str, default) -> int | None:
    value = options.get(key, default)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise AnswerOptionError(key, value, OPTION_KEYS[key])
    return value


def _flag(options: dict, key: str, default: bool) -> bool:
    value = options.get(key, default)
    if not isinstance(value, bool):
        raise AnswerOptionError(key, value, OPTION_KEYS[key])
    return value


@dataclass(frozen=True)
class Tolerance:
    """How close an answer must be (see :mod:`irlab.homework.answers`); built from a question's options by :meth:`of`."""

    rtol: Fraction = DEFAULT_RTOL
    decimals: int | None = None
    form: str = "any"
    atol: Fraction = DEFAULT_ATOL
    accept_rounded: bool = True
    min_decimals: int = DEFAULT_MIN_DECIMALS
    near_rtol: Fraction = DEFAULT_NEAR_RTOL
    rounding_credit: Fraction = Fraction(0)

    @classmethod
    def of(cls, options: dict) -> "Tolerance":
        """From a question's options (``tolerance``, ``abs_tolerance``, ``decimals``, ``form``, ``accept_rounded``,
        ``min_decimals``, ``near_tolerance``, ``rounding_credit``); raises :class:`AnswerOptionError` naming the key.

        >>> Tolerance.of({"tolerance": "1%", "min_decimals": 3}).min_decimals
        3
        >>> Tolerance.of({"tolerance": "abc"})
        Traceback (most recent call last):
        ...
        irlab.answer_options.AnswerOptionError: key 'tolerance' must be a relative tolerance: a number >= 0 such as 0.01, 1/100 or 1%, got 'abc'
        """
        form = options.get("form", "any")
        if form not in FORMS:
            raise AnswerOptionError("form", form, OPTION_KEYS["form"])
        return cls(rtol=option_number(options, "tolerance", DEFAULT_RTOL), decimals=_whole(options, "decimals", None),
                   form=form, atol=option_number(options, "abs_tolerance", DEFAULT_ATOL),
                   accept_rounded=_flag(options, "accept_rounded", True),
                   min_decimals=_whole(options, "min_decimals", DEFAULT_MIN_DECIMALS),
                   near_rtol=option_number(options, "near_tolerance", DEFAULT_NEAR_RTOL),
                   rounding_credit=option_number(options, "rounding_credit", 0, 0, 1))

    from_options = of

    @cached_property
    def float_bounds(self) -> tuple[float, float]:
        """(relative, absolute) bound as doubles, for the float-first checks of irlab.homework.answers: (rtol,
        atol), or (0, half a unit of the required decimals); worked out once a tolerance, not once an answer."""
        if self.decimals is not None:
            return 0.0, float(Fraction(1, 2 * 10**self.decimals))
        return float(self.rtol), float(self.atol)

    @property
    def rounded_decimals(self) -> int:
        """The fewest decimals an answer must show to be graded as a rounding of the value: ``decimals`` when the
        question sets it, else ``min_decimals``; fewer is "rounded too coarsely". The grader (near_miss) and every
        text that tells a student or instructor how many decimals to write read it here."""
        return self.decimals if self.decimals is not None else self.min_decimals

    def describe(self) -> str:
        return self._description

    @cached_property  # worded in every wrong answer's feedback: once a tolerance
    def _description(self) -> str:
        if self.form == "fraction":
            return "the exact value is required"
        if self.decimals is not None:
            return f"correct to {self.decimals} decimal places"
        text = f"within a relative tolerance of {exact.decimal_text(self.rtol, 6)}"
        if self.atol > DEFAULT_ATOL:
            text += f" or an absolute tolerance of {exact.decimal_text(self.atol, 8)}"
        if self.accept_rounded:
            text += f", or correctly rounded to at least {self.min_decimals} decimals"
        return text
