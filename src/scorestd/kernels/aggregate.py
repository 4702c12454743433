"""Aggregation kernels: central tendencies of per-topic scores (Ravana & Moffat 2009).

Every kernel reduces ``x`` along ``axis`` (default ``-1``; an ``int`` or a tuple of
ints) and keeps every other axis, so a batch ``(trial, topic, system)`` reduces over
topics with ``axis=-2`` in one call.

Missing scores (``NaN``): with ``skipna=False`` (the package default) a ``NaN`` in a
slice makes that slice's aggregate ``NaN``; with ``skipna=True`` the ``NaN`` are left
out and a slice with no scores at all gives ``NaN``.

Zeros follow the paper: the geometric mean of a slice containing a zero is exactly 0;
the harmonic mean of such a slice is undefined, so :func:`hm` raises (or, with
``zeros="nan"``, returns ``NaN`` with a :class:`~scorestd.errors.ScorestdWarning`).
The geometric and harmonic families (:func:`gm`, :func:`egm`, :func:`gm_trec_eval`,
:func:`hm`, :func:`ehm`) reject negative scores: their logarithms and reciprocals are
meaningless there (standardize onto ``(0, 1)`` first, or use :func:`am`).
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from string import Template

import numpy as np

from .._options import AggregationMethod, ZeroPolicy, check_option
from ..errors import ScoreDataError, warn

__all__ = [
    "DEFAULT_EPS",
    "aggregate_kernel",
    "am",
    "egm",
    "ehm",
    "gm",
    "gm_trec_eval",
    "hm",
    "md",
]

Axis = int | tuple[int, ...]

#: Names of the aggregation methods, as accepted by ``method=``.

#: The ε each ε-adjusted method uses when none is given: 0.01 for the additive
#: variants (the value of the paper's Table 1) and trec_eval's threshold 1e-5.
DEFAULT_EPS: dict[str, float] = {"egm": 0.01, "ehm": 0.01, "gm_trec_eval": 1e-5}


_X_AXIS_SKIPNA = """x : array_like
        {what}; ``NaN`` is a missing score.
    axis : int or tuple of int, default -1
        The axis (topics) to reduce.
    skipna : bool, default False
        Leave ``NaN`` out (True) or let it propagate to the slice's result (False,
        the package default)."""

#: Parameter and return sections shared by the kernels' docstrings.
_DOC_PARTS = {
    "x_axis_skipna": _X_AXIS_SKIPNA.format(what="Scores"),
    "nonnegative_x_axis_skipna": _X_AXIS_SKIPNA.format(what="Non-negative scores"),
    "returns_raises_eps": """Returns
    -------
    numpy.ndarray

    Raises
    ------
    ScoreDataError
        If a score is negative. ``ValueError`` if ``eps`` is not a positive number.""",
}


def _shared_doc(func: Callable[..., np.ndarray]) -> Callable[..., np.ndarray]:
    func.__doc__ = Template(func.__doc__ or "").substitute(_DOC_PARTS)
    return func


@_shared_doc
def am(x: np.ndarray, axis: Axis = -1, skipna: bool = False) -> np.ndarray:
    """Arithmetic mean, AM = Σ x / t.

    Parameters
    ----------
    $x_axis_skipna

    Returns
    -------
    numpy.ndarray
        ``x`` reduced over ``axis``.

    Examples
    --------
    >>> round(float(am([0.1, 0.1, 0.3, 0.8, 0.1])), 3)  # Table 1, S1
    0.28
    >>> am([[0.2, np.nan], [0.4, 0.3]], axis=0, skipna=True).round(3).tolist()
    [0.3, 0.3]
    >>> am([[0.2, np.nan], [0.4, 0.3]], axis=0).tolist()  # skipna=False: NaN propagates
    [0.30000000000000004, nan]
    """
    return _mean(np.asarray(x, dtype=np.float64), axis, skipna)


@_shared_doc
def gm(x: np.ndarray, axis: Axis = -1, skipna: bool = False) -> np.ndarray:
    """Geometric mean, GM = (Π x)^(1/t); exactly 0 when a score is 0.

    Computed as ``exp(mean(log x))`` so that long products do not underflow.

    Parameters
    ----------
    $nonnegative_x_axis_skipna

    Returns
    -------
    numpy.ndarray

    Raises
    ------
    ScoreDataError
        If a score is negative (its position is named).

    Examples
    --------
    >>> round(float(gm([0.1, 0.1, 0.3, 0.8, 0.1])), 3)  # Table 1, S1
    0.189
    >>> float(gm([0.0, 0.4, 0.2, 0.4, 0.3]))  # a zero makes GM zero (Table 1, S2)
    0.0
    """
    x = _nonnegative(x, "gm")
    with np.errstate(divide="ignore"):
        logs = np.log(x)
    return np.exp(_mean(logs, axis, skipna))


@_shared_doc
def egm(x: np.ndarray, axis: Axis = -1, skipna: bool = False, eps: float = 0.01) -> np.ndarray:
    """ε-adjusted geometric mean (Robertson 2006), εGM = exp(mean(log(x + ε))) − ε.

    Evaluated as ``ε·expm1(mean(log1p(x/ε)))``, the same quantity without the
    cancellation of subtracting a large ε, so ``egm → am`` as ``ε → ∞`` holds
    numerically too.

    Parameters
    ----------
    $nonnegative_x_axis_skipna
    eps : float, default 0.01
        The additive ε > 0 (the paper's Table 1 uses 0.01).

    $returns_raises_eps

    Examples
    --------
    >>> round(float(egm([0.0, 0.4, 0.2, 0.4, 0.3])), 3)  # Table 1, S2
    0.151
    """
    eps = _positive_eps(eps, "egm")
    x = _nonnegative(x, "egm")
    return eps * np.expm1(_mean(np.log1p(x / eps), axis, skipna))


@_shared_doc
def gm_trec_eval(
    x: np.ndarray, axis: Axis = -1, skipna: bool = False, eps: float = 1e-5
) -> np.ndarray:
    """trec_eval's thresholded geometric mean, exp(mean(log(max(x, ε)))).

    Unlike :func:`egm` this does not tend to the arithmetic mean as ε grows (for
    ε above every score it is ε itself).

    Parameters
    ----------
    $nonnegative_x_axis_skipna
    eps : float, default 1e-5
        The threshold ε > 0 (trec_eval's value).

    $returns_raises_eps

    Examples
    --------
    >>> round(float(gm_trec_eval([0.0, 0.4, 0.2, 0.4, 0.3])), 3)  # the paper's text
    0.039
    >>> round(float(gm_trec_eval([0.0, 0.4, 0.2, 0.4, 0.3], eps=0.01)), 3)
    0.157
    """
    eps = _positive_eps(eps, "gm_trec_eval")
    x = _nonnegative(x, "gm_trec_eval")
    return np.exp(_mean(np.log(np.maximum(x, eps)), axis, skipna))  # NaN stays NaN


@_shared_doc
def hm(
    x: np.ndarray, axis: Axis = -1, skipna: bool = False, zeros: ZeroPolicy = "raise"
) -> np.ndarray:
    """Harmonic mean, HM = t / Σ (1/x); undefined when a score is 0.

    Parameters
    ----------
    $nonnegative_x_axis_skipna
    zeros : {"raise", "nan"}, default "raise"
        What to do with a slice that contains a zero score, for which the harmonic
        mean is undefined: raise :class:`~scorestd.errors.ScoreDataError`, or give
        that slice ``NaN`` and emit one :class:`~scorestd.errors.ScorestdWarning`.
        Either way a number is never returned for it. (With ``skipna=False`` a slice
        holding both a zero and a ``NaN`` also counts as having a zero.)

    Returns
    -------
    numpy.ndarray

    Raises
    ------
    ScoreDataError
        If a score is negative, or with ``zeros="raise"`` if a score is zero (its
        position is named).

    Examples
    --------
    >>> round(float(hm([0.1, 0.1, 0.3, 0.8, 0.1])), 3)  # Table 1, S1
    0.145
    >>> hm([0.0, 0.4, 0.2, 0.4, 0.3])
    Traceback (most recent call last):
    ...
    scorestd.errors.ScoreDataError: hm: the harmonic mean is undefined for scores containing a zero (first zero at index (0,)); use ehm, or zeros='nan'
    """
    x = _nonnegative(x, "hm")
    zeros = check_option(zeros, ZeroPolicy, "zeros")
    is_zero = x == 0
    if is_zero.any():
        if zeros == "raise":
            first = tuple(int(i) for i in np.argwhere(is_zero)[0])
            raise ScoreDataError(
                f"hm: the harmonic mean is undefined for scores containing a zero "
                f"(first zero at index {first}); use ehm, or zeros='nan'"
            )
    with np.errstate(divide="ignore"):
        result = 1.0 / _mean(1.0 / x, axis, skipna)
    if is_zero.any():
        undefined = np.any(is_zero, axis=axis)
        warn(
            f"hm: the harmonic mean is undefined for {int(np.sum(undefined))} slice(s) "
            "containing a zero score; they are NaN")
        result = np.where(undefined, np.nan, result)
    return result


@_shared_doc
def ehm(x: np.ndarray, axis: Axis = -1, skipna: bool = False, eps: float = 0.01) -> np.ndarray:
    """ε-adjusted harmonic mean, εHM = t / Σ 1/(x + ε) − ε.

    Evaluated as ``mean(x/(x+ε)) / mean(1/(x+ε))``, algebraically the same and free
    of the cancellation of subtracting a large ε, so ``ehm → am`` as ``ε → ∞``
    holds numerically too.

    Parameters
    ----------
    $nonnegative_x_axis_skipna
    eps : float, default 0.01
        The additive ε > 0.

    $returns_raises_eps

    Examples
    --------
    >>> round(float(ehm([0.0, 0.4, 0.2, 0.4, 0.3])), 3)  # Table 1, S2
    0.034
    """
    eps = _positive_eps(eps, "ehm")
    x = _nonnegative(x, "ehm")
    shifted = x + eps
    return _mean(x / shifted, axis, skipna) / _mean(1.0 / shifted, axis, skipna)


@_shared_doc
def md(x: np.ndarray, axis: Axis = -1, skipna: bool = False) -> np.ndarray:
    """Median, MD: the middle score, or the mean of the two middle scores.

    Parameters
    ----------
    $x_axis_skipna

    Returns
    -------
    numpy.ndarray

    Examples
    --------
    >>> float(md([0.0, 0.4, 0.2, 0.4, 0.3]))  # Table 1, S2
    0.3
    """
    x = np.asarray(x, dtype=np.float64)
    if not skipna:
        return np.median(x, axis=axis)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # all-NaN slice: NaN, documented
        return np.nanmedian(x, axis=axis)


_KERNELS: dict[str, Callable[..., np.ndarray]] = {
    "am": am,
    "gm": gm,
    "egm": egm,
    "gm_trec_eval": gm_trec_eval,
    "hm": hm,
    "ehm": ehm,
    "md": md,
}


def aggregate_kernel(
    x: np.ndarray,
    method: AggregationMethod,
    axis: Axis = -1,
    eps: float | None = None,
    skipna: bool = False,
    zeros: ZeroPolicy = "raise",
) -> np.ndarray:
    """Aggregate ``x`` along ``axis`` with the named method.

    Parameters
    ----------
    x : array_like
        Scores; ``NaN`` is a missing score.
    method : {"am", "gm", "egm", "gm_trec_eval", "hm", "ehm", "md"}
        The aggregation (see the kernel of the same name).
    axis : int or tuple of int, default -1
        The axis (topics) to reduce.
    eps : float, optional
        ε of ``egm``, ``ehm`` (default 0.01) and ``gm_trec_eval`` (default 1e-5);
        giving it for another method is an error.
    skipna : bool, default False
        Leave ``NaN`` out (True) or let it propagate (False, the package default).
    zeros : {"raise", "nan"}, default "raise"
        Policy of ``hm`` for a slice with a zero score (see :func:`hm`).

    Returns
    -------
    numpy.ndarray

    Examples
    --------
    >>> x = np.array([[0.1, 0.0], [0.5, 0.4], [0.3, 0.2]])  # 3 topics × 2 systems
    >>> aggregate_kernel(x, "egm", axis=0, eps=0.01).round(3).tolist()
    [0.249, 0.085]
    """
    method = check_option(method, AggregationMethod, "method")
    kwargs: dict[str, object] = {"axis": axis, "skipna": skipna}
    if method in DEFAULT_EPS:
        kwargs["eps"] = DEFAULT_EPS[method] if eps is None else eps
    elif eps is not None:
        raise ValueError(
            f"eps is used only by {', '.join(sorted(DEFAULT_EPS))}; method {method!r} takes none"
        )
    if method == "hm":
        kwargs["zeros"] = zeros
    return _KERNELS[method](x, **kwargs)


def _mean(values: np.ndarray, axis: Axis, skipna: bool) -> np.ndarray:
    """Mean along ``axis``; with ``skipna`` ignores NaN (an empty slice gives NaN)."""
    if not skipna:
        return np.mean(values, axis=axis)
    present = ~np.isnan(values)
    total = np.sum(np.where(present, values, 0.0), axis=axis)
    count = np.sum(present, axis=axis)
    with np.errstate(invalid="ignore", divide="ignore"):
        return total / count


def _nonnegative(x: np.ndarray, name: str) -> np.ndarray:
    x = np.asarray(x, dtype=np.float64)
    negative = x < 0
    if negative.any():
        first = tuple(int(i) for i in np.argwhere(negative)[0])
        raise ScoreDataError(
            f"{name} needs non-negative scores, got {x[first]} at index {first} "
            f"({int(negative.sum())} negative in all)"
        )
    return x


def _positive_eps(eps: float, name: str) -> float:
    value = float(eps)
    if not (np.isfinite(value) and value > 0):
        raise ValueError(f"{name}: eps must be a finite number > 0, got {eps!r}")
    return value


