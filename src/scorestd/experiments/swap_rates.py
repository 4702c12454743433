"""Swap rates (Voorhees & Buckley 2002; Sakai 2006, 2016).

Each trial permutes the topics and takes two disjoint sets of ``n`` topics: the first
``n`` and the next ``n`` of the permutation, for every ``n`` of ``sizes`` (so one trial
gives nested sets for all sizes). For every system pair, ``d_A`` and ``d_B`` are the
differences of the two systems' mean scores on the two sets; the pair is binned by
``|d_A|`` (bins of ``bin_width``) and counts as a *swap* when the two sets order the
systems in opposite ways (``d_A · d_B < 0``; a tie on either set is no swap). The swap
rate of a bin is swaps / pairs observed in it, and ``min_diff`` is the smallest
difference from which on every observed bin has a swap rate below ``threshold`` (5%):
the difference needed for a result on ``n`` topics to hold on another ``n`` topics.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd
import xarray as xr

from .._options import check_count, check_positive, check_probability
from ..errors import ScoreDataError, ScorestdError
from ..kernels.seeds import seed_record
from ..kernels.swap_rate import swap_counts
from ..mapping import maps_extra_dims
from ..models.schemes import check_schemes, standardized_stack
from .engine import draw_trials, experiment_root, run_batches
from .result import (
    Experiment,
    design_attrs,
    finish_figure,
    single_measure,
)

__all__ = ["SwapRate", "swap_rate"]


class SwapRate(Experiment):
    """Result of :func:`swap_rate`.

    ``data`` holds ``pairs`` and ``swaps`` (scheme × n × bin counts summed over the
    trials), ``swap_rate`` (their ratio; NaN for an empty bin), ``min_diff``
    (scheme × n) and the bin edges ``bin_low``/``bin_high``.
    """

    def summary(self) -> pd.DataFrame:
        """``min_diff`` per topic set size (rows) and scheme (columns).

        Examples
        --------
        >>> import scorestd
        >>> ap = scorestd.datasets.load("adhoc8_ap").isel(system=slice(0, 20))
        >>> swap_rate(ap, sizes=[10, 25], trials=20, seed=1).summary().index.tolist()
        [10, 25]
        """
        frame = self.data["min_diff"].to_pandas().T
        frame.columns.name = "scheme"
        return frame

    def plot(self, path: Any = None):
        """Swap rate against the difference bin, one panel per scheme, a line per n.

        Returns
        -------
        matplotlib.figure.Figure
        """
        import matplotlib.pyplot as plt

        schemes = self.data["scheme"].values
        fig, axes = plt.subplots(1, len(schemes), figsize=(4.2 * len(schemes), 3.4),
                                 squeeze=False, sharey=True)
        for ax, scheme in zip(axes[0], schemes, strict=True):
            for n in self.data["n"].values:
                rate = self.data["swap_rate"].sel(scheme=scheme, n=n)
                ax.plot(self.data["bin_low"].values, rate.values, label=f"n={n}")
            ax.axhline(self.data.attrs["threshold"], color="grey", linestyle=":", linewidth=1)
            ax.set_title(f"{scheme}")
            ax.set_xlabel("difference of means on set A (bin)")
            ax.set_ylabel("swap rate")
            ax.legend(fontsize="small")
        return finish_figure(fig, self.data, path)


def _compute(data: dict[str, Any], perms: np.ndarray) -> dict[str, np.ndarray]:
    return swap_counts(data["x"], perms, data["sizes"], data["bin_width"], data["n_bins"])


@maps_extra_dims()
def swap_rate(
    scores: Any,
    *,
    measure: str | None = None,
    schemes: Sequence[str] = ("raw",),
    scheme_options: Mapping[str, Mapping[str, Any]] | None = None,
    sizes: Sequence[int] | None = None,
    trials: int = 1000,
    seed: int = 0,
    bin_width: float = 0.01,
    threshold: float = 0.05,
    batch_size: int | None = None,
    memory: int | str | None = None,
    progress: bool | None = None,
    client: Any = None,
) -> SwapRate:
    """Swap rates of system pairs between disjoint topic sets of size n.

    Parameters
    ----------
    scores : xarray.DataArray
        A cube (or 2-D array) without missing scores.
    measure : str, optional
        The measure, when the cube has several.
    schemes : sequence of str
        Scoring schemes (``"raw"``, ``"z"``, ``"N"``, ``"U"``, ``"E"``…), each
        standardized against all systems on every topic before the topics are split.
    scheme_options : mapping, optional
        Options of a scheme's model, e.g. ``{"U": {"A": 0.2, "B": 0.5}}`` for U-std with
        another slope and intercept (see :func:`scorestd.models.schemes.check_schemes`).
    sizes : sequence of int, optional
        Topic set sizes n, each at most half the topics (default: 5, 10, … up to half).
    trials : int
        Number of topic permutations.
    seed : int
        Root seed; trial k's permutation depends only on ``(seed, k)``
        (:func:`scorestd.experiments.engine.draw_trials`).
    bin_width : float
        Width of the difference bins (on the scheme's scale).
    threshold : float
        The swap rate a difference must stay under (5% in the literature).
    batch_size, memory, progress, client
        See :func:`scorestd.experiments.engine.run_batches`.

    Returns
    -------
    SwapRate
        ``data`` with ``pairs``, ``swaps``, ``swap_rate``, ``min_diff``.

    Raises
    ------
    ScoreDataError
        Missing scores, fewer than two systems, or fewer than 2 topics.
    ScorestdError
        A size larger than half the topics or smaller than 1.

    Examples
    --------
    >>> import scorestd
    >>> ap = scorestd.datasets.load("adhoc8_ap").isel(system=slice(0, 30))
    >>> res = swap_rate(ap, sizes=[10, 25], trials=50, seed=3)
    >>> res.summary()["raw"].round(2).tolist()
    [0.17, 0.07]
    """
    cube = single_measure(scores, measure)
    n_topics, n_systems = cube.sizes["topic"], cube.sizes["system"]
    if n_systems < 2 or n_topics < 2:
        raise ScoreDataError(f"swap rates need at least two systems and two topics, got "
                             f"{n_systems} systems and {n_topics} topics")
    schemes = check_schemes(schemes, scheme_options)
    trials = check_count("trials", trials)
    bin_width = check_positive("bin_width", bin_width)
    threshold = check_probability("threshold", threshold)
    half = n_topics // 2
    sizes_arr = np.array(sorted(set(sizes)) if sizes is not None
                         else list(range(5, half + 1, 5)) or [half], dtype=np.int64)
    if sizes_arr.size == 0 or sizes_arr.min() < 1 or sizes_arr.max() > half:
        raise ScorestdError(f"sizes must be between 1 and half the topics ({half}); got "
                            f"{sizes_arr.tolist()}")
    x = standardized_stack(cube, schemes, scheme_options)
    spread = float(np.nanmax(x) - np.nanmin(x))
    n_bins = max(1, int(np.ceil(spread / bin_width))) + 1
    root = experiment_root(seed)
    perms = draw_trials(root, trials, functools.partial(_permutation, n_topics), lazy=True)
    data = {"x": x, "sizes": sizes_arr, "bin_width": float(bin_width), "n_bins": n_bins}
    # per trial: the permuted scores and their cumulative sums, and a few arrays over
    # the system pairs of every scheme
    n_pairs = n_systems * (n_systems - 1) // 2
    trial_bytes = 8 * x.shape[0] * (2 * n_topics * n_systems + 6 * n_pairs)
    out = run_batches(_compute, perms, data=data, batch_size=batch_size,
                      trial_bytes=trial_bytes, memory=memory, progress=progress,
                      client=client, desc="swap rate")
    pairs, swaps = out["pairs"].sum(axis=0), out["swaps"].sum(axis=0)
    with np.errstate(invalid="ignore", divide="ignore"):
        rate = np.where(pairs > 0, swaps / np.maximum(pairs, 1), np.nan)
    low = np.arange(n_bins) * bin_width
    dims = ("scheme", "n", "bin")
    ds = xr.Dataset(
        {
            "pairs": (dims, pairs),
            "swaps": (dims, swaps),
            "swap_rate": (dims, rate),
            "min_diff": (("scheme", "n"), _min_diff(rate, low, threshold)),
        },
        coords={"scheme": list(schemes), "n": sizes_arr, "bin": np.arange(n_bins),
                "bin_low": ("bin", low), "bin_high": ("bin", low + bin_width)},
        attrs=design_attrs(cube, "swap rate", n_topics=int(n_topics), trials=trials, seed=seed_record(root),
                           bin_width=float(bin_width), threshold=float(threshold)),
    )
    return SwapRate(ds)


def _min_diff(rate: np.ndarray, low: np.ndarray, threshold: float) -> np.ndarray:
    """Lower edge of the first bin from which every observed bin is below threshold."""
    bad = np.nan_to_num(rate, nan=0.0) >= threshold  # empty bins do not count against
    last_bad = np.where(bad.any(axis=-1), bad.shape[-1] - 1 - np.argmax(bad[..., ::-1], axis=-1),
                        -1)
    first_ok = last_bad + 1
    # whether some bin at or after each bin was observed at all
    observed_after = np.flip(np.cumsum(np.flip(~np.isnan(rate), -1), -1), -1) > 0
    start = np.minimum(first_ok, len(low) - 1)
    any_after = np.take_along_axis(observed_after, start[..., None], -1)[..., 0]
    return np.where(any_after & (first_ok < len(low)), low[start], np.nan)


def _permutation(n_topics: int, rng: np.random.Generator) -> np.ndarray:
    """One trial: an order of the topics."""
    return rng.permutation(n_topics)
