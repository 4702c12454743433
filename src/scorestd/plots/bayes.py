"""Figures of the Bayesian analyses: system effects, pairwise probabilities, differences, ranks.

Each function only delegates to the drawing code of :mod:`scorestd.bayes` (which the
results' own ``plot()`` uses too) and returns the matplotlib ``Axes``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import xarray as xr

from ..bayes import _figures
from ..bayes._checks import check_rope
from ..bayes.crossed import CrossedPosterior
from ..errors import ScorestdError

__all__ = ["plot_pair_probabilities", "plot_posterior_differences", "plot_posterior_ranks",
           "plot_predictive_checks", "plot_system_differences", "plot_system_effects"]


def _fit(fit: Any) -> CrossedPosterior:
    if not isinstance(fit, CrossedPosterior):
        raise ScorestdError(f"expected the result of scorestd.bayes_crossed, got "
                            f"{type(fit).__name__}")
    return fit


def plot_system_effects(fit: CrossedPosterior, *, ci_prob: float = 0.95,
                        ci_kind: str = "hdi", top: int | None = None, ax: Any = None,
                        path: Any = None) -> Any:
    """Forest plot of the system effects of :func:`scorestd.bayes_crossed`, best on top.

    Parameters
    ----------
    fit : CrossedPosterior
        The fitted model.
    ci_prob : float
        Probability of the intervals drawn.
    ci_kind : {"hdi", "eti"}
        Highest-density or equal-tailed intervals.
    top : int, optional
        Draw only the ``top`` systems with the largest effects.
    ax : matplotlib.axes.Axes, optional
        Axes to draw on; a new figure otherwise.
    path : str or path, optional
        Save the figure there.

    Returns
    -------
    matplotlib.axes.Axes

    Examples
    --------
    >>> import scorestd
    >>> ap = scorestd.datasets.load("adhoc8_ap").isel(system=slice(0, 6))
    >>> fit = scorestd.bayes_crossed(ap, chains=2, draws=400, warmup=100, seed=1)
    >>> len(plot_system_effects(fit).get_yticklabels())
    6
    """
    return _figures.system_effects_figure(_fit(fit), ci_prob=ci_prob, ci_kind=ci_kind,
                                          top=top, ax=ax, path=path)


def plot_pair_probabilities(pairs: Any, *, order: Sequence[str] | None = None,
                            ax: Any = None, path: Any = None) -> Any:
    """Heat map of P(system A > system B) for every pair.

    Parameters
    ----------
    pairs : xarray.Dataset or CrossedPosterior
        ``CrossedPosterior.pairs()`` or :func:`scorestd.bayes_compare` (one measure), or a
        fitted crossed model (its ``pairs()``).
    order : sequence of str, optional
        Order of the systems; default: by their mean probability of beating the others.
    ax : matplotlib.axes.Axes, optional
        Axes to draw on.
    path : str or path, optional
        Save the figure there.

    Returns
    -------
    matplotlib.axes.Axes

    Examples
    --------
    >>> import scorestd
    >>> ap = scorestd.datasets.load("adhoc8_ap").isel(system=slice(0, 5))
    >>> ax = plot_pair_probabilities(scorestd.bayes_compare(ap))
    >>> ax.images[0].get_array().shape
    (5, 5)
    """
    if isinstance(pairs, CrossedPosterior):
        pairs = pairs.pairs()
    if not isinstance(pairs, xr.Dataset) or "prob_greater" not in pairs:
        raise ScorestdError("pairs must be a Dataset with prob_greater over pair (from "
                            "bayes_compare or CrossedPosterior.pairs) or a CrossedPosterior")
    return _figures.pair_probability_figure(pairs, order=order, ax=ax, path=path)


def plot_posterior_differences(fit: CrossedPosterior,
                               pairs: Sequence[tuple[str, str]] | None = None, *,
                               rope: float | tuple[float, float] | None = None,
                               closed_form: xr.Dataset | None = None, ax: Any = None,
                               path: Any = None) -> Any:
    """Posterior densities of differences of system effects, α_A − α_B.

    Parameters
    ----------
    fit : CrossedPosterior
        The fitted model.
    pairs : sequence of (str, str), optional
        The pairs (A, B); default: the best system against the next four.
    rope : float or (float, float), optional
        Region of practical equivalence to shade.
    closed_form : xarray.Dataset, optional
        :func:`scorestd.bayes_compare` of the same scores: its Student-t posterior of
        each pair is drawn dashed, for comparison.
    ax : matplotlib.axes.Axes, optional
        Axes to draw on.
    path : str or path, optional
        Save the figure there.

    Returns
    -------
    matplotlib.axes.Axes

    Examples
    --------
    >>> import scorestd
    >>> ap = scorestd.datasets.load("adhoc8_ap").isel(system=slice(0, 6))
    >>> fit = scorestd.bayes_crossed(ap, chains=2, draws=400, warmup=100, seed=1)
    >>> ax = plot_posterior_differences(fit, [("run1", "run2")], rope=0.01,
    ...                                 closed_form=scorestd.bayes_compare(ap))
    >>> len(ax.lines) >= 2
    True
    """
    return _figures.differences_figure(_fit(fit), pairs, rope=check_rope(rope),
                                       closed_form=closed_form, ax=ax, path=path)


def plot_posterior_ranks(fit: CrossedPosterior, *, top: int | None = None, ax: Any = None,
                         path: Any = None) -> Any:
    """Heat map of the posterior distribution of each system's rank (1 = best).

    Parameters
    ----------
    fit : CrossedPosterior
        The fitted model.
    top : int, optional
        Only the ``top`` systems by mean rank, and the ranks they take (probability
        above 0.001).
    ax : matplotlib.axes.Axes, optional
        Axes to draw on.
    path : str or path, optional
        Save the figure there.

    Returns
    -------
    matplotlib.axes.Axes

    Examples
    --------
    >>> import scorestd
    >>> ap = scorestd.datasets.load("adhoc8_ap").isel(system=slice(0, 6))
    >>> fit = scorestd.bayes_crossed(ap, chains=2, draws=400, warmup=100, seed=1)
    >>> plot_posterior_ranks(fit).images[0].get_array().shape
    (6, 6)
    """
    return _figures.ranks_figure(_fit(fit), top=top, ax=ax, path=path)


def plot_system_differences(fit: CrossedPosterior, *, reference: str | None = None,
                            ci_prob: float = 0.95, ci_kind: str = "hdi",
                            top: int | None = None, ax: Any = None, path: Any = None) -> Any:
    """Forest plot of each system's expected score minus a reference system's.

    The intervals are those of the differences (unlike the effects of
    :func:`plot_system_effects`, whose overlap says nothing about a pair), with
    P(system > reference) on the right and the pairs decided at 0.975 in red.

    Parameters
    ----------
    fit : CrossedPosterior
        The fitted model (any likelihood: its ``system_score`` draws).
    reference : str, optional
        The reference system; default: the one with the highest expected score.
    ci_prob, ci_kind
        Probability and kind (``"hdi"``, ``"eti"``) of the intervals.
    top : int, optional
        Only the ``top`` systems closest to the reference.
    ax, path
        Axes to draw on; file to save to.

    Returns
    -------
    matplotlib.axes.Axes

    Examples
    --------
    >>> import scorestd
    >>> ap = scorestd.datasets.load("adhoc8_ap").isel(system=slice(0, 6))
    >>> fit = scorestd.bayes_crossed(ap, chains=2, draws=400, warmup=100, seed=1)
    >>> ax = plot_system_differences(fit, reference="run1")
    >>> len(ax.get_yticklabels()), ax.get_title()
    (5, 'Differences from run1 (ap)')
    """
    return _figures.system_differences_figure(_fit(fit), reference=reference, ci_prob=ci_prob,
                                              ci_kind=ci_kind, top=top, ax=ax, path=path)


def plot_predictive_checks(checks: Any, *, axes: Any = None, path: Any = None) -> Any:
    """Posterior predictive checks, observed against replicated, in four panels.

    The distribution of the scores (with the shares of zeros and of scores below 0 or
    above 1), the per-system means and sds and the per-topic means, each against its
    95% posterior predictive interval.

    Parameters
    ----------
    checks : PredictiveChecks or CrossedPosterior
        ``fit.predictive_checks()``, or a fit (its checks are computed).
    axes : array of 4 matplotlib Axes, optional
    path : str or path, optional

    Returns
    -------
    numpy.ndarray of matplotlib.axes.Axes

    Examples
    --------
    >>> import scorestd
    >>> ap = scorestd.datasets.load("adhoc8_ap").isel(system=slice(0, 6))
    >>> fit = scorestd.bayes_crossed(ap, chains=2, draws=300, warmup=100, seed=1)
    >>> axes = plot_predictive_checks(fit)
    >>> axes[0].get_title()
    'Distribution of scores'
    """
    from ..bayes.comparison import PredictiveChecks

    if isinstance(checks, CrossedPosterior):
        checks = checks.predictive_checks()
    if not isinstance(checks, PredictiveChecks):
        raise ScorestdError(f"expected fit.predictive_checks() or a fit of "
                            f"scorestd.bayes_crossed, got {type(checks).__name__}")
    return _figures.predictive_checks_figure(checks, axes=axes, path=path)
