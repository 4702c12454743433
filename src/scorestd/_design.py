"""Argument checks and the error shared by the power and topic-set-size modules."""

from __future__ import annotations

import math
from typing import Any

from .errors import ScorestdError


class DesignError(ScorestdError, ValueError):
    """An argument of a power or topic set size computation is out of range."""


class UnreachableTargetError(ScorestdError, ValueError):
    """A solver cannot reach the requested power (or width) within its bounds."""


def check_probability(name: str, value: Any) -> float:
    """A probability strictly inside (0, 1), such as α, β or a target power."""
    number = _as_float(name, value)
    if not 0.0 < number < 1.0:
        raise DesignError(f"{name} must be strictly between 0 and 1; got {value!r}")
    return number


def check_positive(name: str, value: Any) -> float:
    """A finite number > 0, such as a minimum detectable difference or a variance."""
    number = _as_float(name, value)
    if not (number > 0.0 and math.isfinite(number)):
        raise DesignError(f"{name} must be a finite number > 0; got {value!r}")
    return number


def check_count(name: str, value: Any, minimum: int) -> int:
    """An integer ≥ ``minimum``, such as a number of topics or systems."""
    try:
        number = int(value)
    except (TypeError, ValueError):
        raise DesignError(f"{name} must be an integer; got {value!r}") from None
    if number != value or number < minimum:
        raise DesignError(f"{name} must be an integer ≥ {minimum}; got {value!r}")
    return number


def _as_float(name: str, value: Any) -> float:
    try:
        return float(value)
    except (TypeError, ValueError):
        raise DesignError(f"{name} must be a number; got {value!r}") from None
