"""Validation of ``Literal`` string options, with errors listing the valid choices."""

from __future__ import annotations

from typing import Any, get_args

__all__ = ["check_option"]


def check_option(value: Any, options: Any, name: str) -> str:
    """Return ``value`` if it is one of ``options``: a ``Literal`` type or a sequence.

    Examples
    --------
    >>> from typing import Literal
    >>> check_option("b", Literal["a", "b"], "kind")
    'b'
    >>> check_option("c", Literal["a", "b"], "kind")
    Traceback (most recent call last):
    ...
    ValueError: kind must be one of 'a', 'b'; got 'c'
    >>> check_option("x", ("x", "y"), "kind")
    'x'
    """
    choices = get_args(options) or tuple(options)
    if value not in choices:
        raise ValueError(f"{name} must be one of {', '.join(map(repr, choices))}; got {value!r}")
    return value
