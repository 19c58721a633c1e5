"""Options as typed (an integer, one value per ranking), read with irlab's limits: the readers shared by the command
line and by the library functions that take the command's options as text (:mod:`irlab.explanation`)."""

from __future__ import annotations

import re

from .errors import LimitError, ParameterError


def integer(text, what, minimum=None):
    """An integer option as typed: ASCII digits only ('３' and '1_0' are refused), at most 15 of them."""
    if text is None:
        return None
    cleaned = str(text).strip()
    if not re.fullmatch(r"[+-]?[0-9]+", cleaned, re.ASCII):
        shown = repr(cleaned) if len(cleaned) <= 40 else f"{cleaned[:40]!r}…"
        raise ParameterError(f"{what} must be an integer written with the digits 0-9, got {shown}")
    if len(cleaned.lstrip("+-")) > 15:
        raise LimitError(f"{what} has {len(cleaned.lstrip('+-'))} digits; irlab's limit is 15 (no exercise needs more)")
    value = int(cleaned)
    if minimum is not None and value < minimum:
        raise ParameterError(f"{what} must be an integer >= {minimum}, got {value}")
    return value


def per_query(text, count, option, separator, parse):
    """One value per ranking: ``text`` split at ``separator`` into ``count`` parsed items."""
    if text is None:
        return [None] * count
    parts = text.split(separator)
    if len(parts) != count:
        raise ParameterError(f"{option} gives {len(parts)} values for {count} rankings; give one per ranking, "
                             f"separated by {separator!r}")
    return [parse(part) for part in parts]
