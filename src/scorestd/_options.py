"""The package's vocabulary of options and the one family of argument validators.

Every option that takes one of a few strings has exactly one ``Literal`` type here, used
by the functions, the accessor, the CLI and the docs alike; every argument check raises
:class:`~scorestd.errors.OptionError` (a ``ValueError``) with one message style:
``"<name> must be <what>; got <value>"``. Spellings that an earlier release accepted are
still read for one release, with a ``DeprecationWarning`` (:func:`check_option` with
``deprecated=``).
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Mapping
from typing import Any, Literal, get_args

from .errors import OptionError

__all__ = [
    "Alternative",
    "Correction",
    "Degenerate",
    "HardnessDegenerate",
    "MarginCriterion",
    "NanPolicy",
    "PairedTest",
    "PowerTest",
    "SimulationCopula",
    "check_count",
    "check_option",
    "check_positive",
    "check_probability",
]

#: Direction of a one-sided test: ``"greater"`` means the first system scores higher.
Alternative = Literal["two-sided", "greater", "less"]
#: Multiple-comparison correction of p-values over a family of tests.
Correction = Literal["bonferroni", "holm", "bh"]
#: Paired tests of two systems over the same topics.
PairedTest = Literal["paired_t", "wilcoxon", "sign", "permutation", "bootstrap", "tukey_hsd",
                     "randomised_tukey_hsd"]
#: Tests a power or topic-set-size computation is designed for.
PowerTest = Literal["paired_t", "unpaired_t", "anova"]
#: What standardization does with a topic whose reference scores are all equal.
Degenerate = Literal["unstandardized", "nan", "raise"]
#: What topic hardness (Equation 2) does with a topic whose scores are all equal.
HardnessDegenerate = Literal["nan", "zero"]
#: How the margin of a simulated system is selected among the families that fit.
MarginCriterion = Literal["aic", "bic", "loglik"]
#: Dependence between simulated systems: a Gaussian copula, or a vine (``scorestd[vine]``).
SimulationCopula = Literal["gaussian", "vine"]
#: Missing scores: leave the topic out of the pairs it touches, or raise naming it.
NanPolicy = Literal["omit", "raise"]

#: Spellings of earlier releases, read with a ``DeprecationWarning``: old → new.
RENAMED_TESTS: Mapping[str, str] = {"t": "paired_t", "randomised_tukey": "randomised_tukey_hsd"}
RENAMED_ALTERNATIVES: Mapping[str, str] = {"larger": "greater"}


def check_option(value: Any, options: Any, name: str, *,
                 deprecated: Mapping[str, str] | None = None) -> str:
    """Return ``value`` if it is one of ``options`` (a ``Literal`` type or a sequence).

    A spelling in ``deprecated`` (old → new) is accepted with a ``DeprecationWarning``
    and returned as its new name.

    Raises
    ------
    OptionError
        Listing the valid choices.

    Examples
    --------
    >>> check_option("b", Literal["a", "b"], "kind")
    'b'
    >>> check_option("c", Literal["a", "b"], "kind")
    Traceback (most recent call last):
    ...
    scorestd.errors.OptionError: kind must be one of 'a', 'b'; got 'c'
    >>> import warnings
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore")
    ...     check_option("t", PairedTest, "test", deprecated=RENAMED_TESTS)
    'paired_t'
    """
    choices = get_args(options) or tuple(options)
    if deprecated and isinstance(value, str) and value in deprecated and value not in choices:
        new = deprecated[value]
        warnings.warn(f"{name}={value!r} is deprecated and will be removed in the next "
                      f"release; use {name}={new!r}", DeprecationWarning, stacklevel=3)
        value = new
    if value not in choices:
        raise OptionError(f"{name} must be one of {', '.join(map(repr, choices))}; got {value!r}")
    return value


def check_probability(name: str, value: Any) -> float:
    """A probability strictly inside (0, 1), such as α, β, a power or a confidence level.

    Examples
    --------
    >>> check_probability("alpha", 0.05)
    0.05
    >>> check_probability("alpha", 1)
    Traceback (most recent call last):
    ...
    scorestd.errors.OptionError: alpha must be strictly between 0 and 1; got 1
    """
    number = _as_float(name, value)
    if not 0.0 < number < 1.0:
        raise OptionError(f"{name} must be strictly between 0 and 1; got {value!r}")
    return number


def check_positive(name: str, value: Any) -> float:
    """A finite number > 0, such as a minimum detectable difference or a variance.

    Examples
    --------
    >>> check_positive("min_diff", 0.1)
    0.1
    >>> check_positive("min_diff", float("inf"))
    Traceback (most recent call last):
    ...
    scorestd.errors.OptionError: min_diff must be a finite number > 0; got inf
    """
    number = _as_float(name, value)
    if not (number > 0.0 and math.isfinite(number)):
        raise OptionError(f"{name} must be a finite number > 0; got {value!r}")
    return number


def check_count(name: str, value: Any, minimum: int = 1) -> int:
    """A whole number ≥ ``minimum``, such as a number of trials, topics or systems.

    ``True``/``False`` and fractional numbers are refused.

    Examples
    --------
    >>> check_count("trials", 100)
    100
    >>> check_count("n_topics", 1, 2)
    Traceback (most recent call last):
    ...
    scorestd.errors.OptionError: n_topics must be an integer ≥ 2; got 1
    """
    if isinstance(value, bool):
        raise OptionError(f"{name} must be an integer ≥ {minimum}; got {value!r}")
    try:
        number = int(value)
    except (TypeError, ValueError, OverflowError):
        raise OptionError(f"{name} must be an integer ≥ {minimum}; got {value!r}") from None
    if number != value or number < minimum:
        raise OptionError(f"{name} must be an integer ≥ {minimum}; got {value!r}")
    return number


def _as_float(name: str, value: Any) -> float:
    if isinstance(value, bool):
        raise OptionError(f"{name} must be a number; got {value!r}")
    try:
        return float(value)
    except (TypeError, ValueError):
        raise OptionError(f"{name} must be a number; got {value!r}") from None
