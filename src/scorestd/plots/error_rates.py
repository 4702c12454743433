"""Figures of the error-rate study: Type I error rate, power and Type III error rate.

The function only delegates to the drawing code of :mod:`scorestd.experiments` (which
``ErrorRates.plot`` uses too) and returns the matplotlib ``Figure``.
"""

from __future__ import annotations

from typing import Any

import xarray as xr

from .._options import ErrorRateFigure
from ..errors import ScorestdError
from ..experiments._error_rate_figures import error_rate_figure
from ..experiments.significance_errors import ErrorRates
from ..mapping import PerSlice

__all__ = ["plot_error_rates"]


def plot_error_rates(rates: ErrorRates | xr.Dataset, *, kind: ErrorRateFigure = "auto",
                     tails: int = 2, alpha: float = 0.05, delta: float = 0.05,
                     path: Any = None, **kwargs: Any) -> Any:
    """The figures of :func:`scorestd.error_rates`, one panel per measure (column) and
    topic set size (row).

    Parameters
    ----------
    rates : ErrorRates or xarray.Dataset
        The study's result, or its ``data`` (e.g. read back from the netCDF file that
        ``scorestd experiment error-rates --save`` writes).
    kind : {"auto", "type1_power", "type1", "power", "power_alpha", "type3"}
        What the panels show:

        - ``"type1"``: Type I error rate against α (log–log; grey diagonal: the nominal
          rate α);
        - ``"power"``: power against the true difference δ at ``alpha``;
        - ``"power_alpha"``: power against α at ``delta``;
        - ``"type3"``: Type III error rate (two-tailed rejections with the wrong sign)
          against δ at ``alpha``;
        - ``"type1_power"``: the Type I panels, and the power panels below them, each
          block headed by what it shows, one legend below both;
        - ``"auto"`` (default): what the study computed, ``"type1_power"`` when it ran
          Type II trials, else ``"type1"``.
    tails : {1, 2}
        One- or two-tailed tests (Type III is two-tailed).
    alpha : float
        The level of the power and Type III panels: one the study computed.
    delta : float
        The effect of ``kind="power_alpha"``: one the study computed.
    path : str or path-like, optional
        Also save the figure there (format from the suffix).
    **kwargs
        Passed to :func:`matplotlib.pyplot.subplots` (one kind) or
        :func:`matplotlib.pyplot.figure` (``figsize``, ``dpi`` …; ``sharex`` and the
        other keywords of ``subplots`` go to each block's panels).

    Returns
    -------
    matplotlib.figure.Figure

    Raises
    ------
    OptionError
        A ``kind`` other than those above, or one that needs Type II trials for a study
        that ran none; ``alpha`` or ``delta`` that the study did not compute (no nearest
        level is used); ``tails`` other than 1 or 2.
    ScorestdError
        ``rates`` is neither an ``ErrorRates`` nor a Dataset of error rates (a
        ``PerSlice`` of studies: plot one of them).

    Notes
    -----
    A Type I error rate of 0 (no rejection in any trial), which a log axis cannot show,
    is left out of its line and marked by a triangle on the axes' floor, one beside the
    other for the tests that have one at the same α, as the legend says. Power and Type
    III lines have a marker at each δ of the study.

    Examples
    --------
    >>> import scorestd
    >>> res = scorestd.error_rates(["adhoc8"], measures=["ap"], n_topics=[25],
    ...                            deltas=[0.02, 0.05], tests=["paired_t", "sign"],
    ...                            trials=128, trials_type2=128, B=200, seed=1,
    ...                            copula="gaussian")
    >>> fig = plot_error_rates(res)  # Type I against α, power against δ below it
    >>> [ax.get_ylabel() for ax in fig.axes]
    ['Type I error rate', 'power']
    >>> [t.get_text() for t in fig.legends[0].get_texts()]  # one legend, below both
    ['paired_t', 'sign', 'Type I rate 0 (no rejection in 128 trials)']
    >>> [ax.get_ylabel() for ax in plot_error_rates(res, kind="type3").axes]
    ['Type III error rate']
    """
    if isinstance(rates, PerSlice):
        raise ScorestdError(f"one study per slice of {', '.join(map(str, rates.dims))}: "
                            "plot the study of one slice (rates.sel(...))")
    if isinstance(rates, ErrorRates):
        rates = rates.data
    if not isinstance(rates, xr.Dataset) or "type1" not in rates:
        raise ScorestdError(f"expected the result of scorestd.error_rates (or its data), got "
                            f"{type(rates).__name__}")
    return error_rate_figure(rates, kind=kind, tails=tails, alpha=alpha, delta=delta,
                             path=path, **kwargs)
