"""Discriminative power (Sakai 2006): how many system pairs a measure tells apart.

For every measure and scoring scheme, a significance test is run on every pair of
systems of a collection; the achieved significance level (ASL) curve is the sorted
p-values of all pairs, and the discriminative power at α is the fraction of pairs with
p < α. A measure (or scheme) with more pairs significant at the same α is more
discriminative.

Tests: any paired test of :func:`scorestd.compare` — ``"paired_t"`` (unadjusted two-sided
paired t-tests, topics missing for either system of a pair left out, the default),
``"randomised_tukey_hsd"`` (Sakai's randomised Tukey HSD, p-values adjusted for the family
of all pairs; needs complete scores), ``"wilcoxon"``, ``"sign"``, ``"permutation"``,
``"bootstrap"``, ``"tukey_hsd"``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd
import xarray as xr

from .._options import RENAMED_TESTS, PairedTest, check_count, check_option
from .._progress import progress_bar
from ..dims import MEASURE, SYSTEM
from ..errors import ScoreDataError, ScorestdError
from ..kernels.decisions import fraction_significant
from ..kernels.paired import describe_pairs, pair_indices
from ..kernels.seeds import root_sequence, seed_record
from ..kernels.significance import FAMILY_TESTS, RESAMPLING_TESTS, paired_test
from ..mapping import maps_extra_dims
from ..models.schemes import check_schemes, standardized_stack
from ..score_cube import validate
from ..stats._pairs import PAIR, pair_coords
from ._scheme_tables import by_measure_and_scheme, finish_panels, measure_panels
from .result import Experiment, data_label

__all__ = ["DiscriminativePower", "discriminative_power"]

#: The α levels reported by default.
DEFAULT_ALPHAS = (0.01, 0.05, 0.10)


class DiscriminativePower(Experiment):
    """Result of :func:`discriminative_power`.

    ``data`` holds ``p`` (scheme × measure × pair, pairs in ``numpy.triu_indices``
    order labelled as in :func:`scorestd.compare`: ``"a vs b"`` with coordinates ``system``
    and ``system2``), ``mean_diff`` (mean of ``system`` − ``system2`` over their shared
    topics),
    ``asl`` (the p-values sorted ascending over ``rank`` = 1…P) and ``fraction``
    (scheme × measure × alpha: the share of pairs with p < α, NaN p-values excluded).
    """

    def summary(self) -> pd.DataFrame:
        """Fraction of significant pairs: rows (measure, scheme), one column per α.

        Examples
        --------
        >>> import scorestd
        >>> dp = discriminative_power(scorestd.datasets.load("adhoc8_ap").isel(system=slice(20)))
        >>> dp.summary().columns.tolist()
        ['alpha=0.01', 'alpha=0.05', 'alpha=0.1']
        """
        frame = self.data["fraction"].to_dataframe()["fraction"].unstack("alpha")
        frame.columns = [f"alpha={a:g}" for a in frame.columns]
        frame = by_measure_and_scheme(frame)
        attrs = self.data.attrs
        adjusted = ("p adjusted for the family of all pairs by the test"
                    if attrs["test"] in FAMILY_TESTS else "no correction")
        frame.attrs["columns"] = {
            "alpha=α": f"fraction of the {self.data.sizes['pair']} system pairs whose "
                       f"{attrs['test']} test (two-sided, {adjusted}) gives p < α"}
        return frame

    def plot(self, path: Any = None, *, alpha: float | None = 0.05):
        """ASL curves: p-value against pair rank, one line per scheme, a panel per measure.

        Returns
        -------
        matplotlib.figure.Figure
        """
        fig, panels = measure_panels(self.data[MEASURE].values, 4.5, 3.5)
        for ax, m in panels:
            for scheme in self.data["scheme"].values:
                curve = self.data["asl"].sel(scheme=scheme, measure=m)
                ax.plot(curve["rank"].values, curve.values, label=str(scheme))
            if alpha is not None:
                ax.axhline(alpha, color="grey", linestyle=":", linewidth=1)
            ax.set_title(f"{m} ({self.data.attrs['test']})")
            ax.set_xlabel("system pair, sorted by p-value")
            ax.set_ylabel("achieved significance level")
            ax.legend(fontsize="small")
        return finish_panels(fig, path)


@maps_extra_dims()
def discriminative_power(
    scores: Any,
    *,
    test: PairedTest = "paired_t",
    schemes: Sequence[str] = ("raw",),
    scheme_options: Mapping[str, Mapping[str, Any]] | None = None,
    alphas: Sequence[float] = DEFAULT_ALPHAS,
    B: int = 1000,
    seed: int | None = None,
) -> DiscriminativePower:
    """Discriminative power of every measure and scheme of a collection.

    Parameters
    ----------
    scores : xarray.DataArray
        A cube or 2-D ``(topic, system)`` array (at least two systems).
    test : {"paired_t", "randomised_tukey_hsd", "wilcoxon", "sign", "permutation", "bootstrap", "tukey_hsd"}
        The two-sided paired test of every pair, as in :func:`scorestd.compare`
        (unadjusted, but the Tukey tests adjust for all pairs and need complete scores).
        ``"randomised_tukey"``, the name of earlier releases, is read as
        ``"randomised_tukey_hsd"`` with a ``DeprecationWarning``.
    schemes : sequence of str
        Scoring schemes (``"raw"``, ``"z"``, ``"N"``, ``"U"``, ``"E"`` or a model
        name); each measure is standardized against all systems of ``scores``.
    scheme_options : mapping, optional
        Options of a scheme's model, e.g. ``{"U": {"A": 0.2, "B": 0.5}}`` for U-std with
        another slope and intercept (see :func:`scorestd.models.schemes.check_schemes`).
    alphas : sequence of float
        Significance levels of ``fraction``.
    B : int
        Resamples of the resampling tests (permutation, bootstrap, randomised Tukey HSD).
    seed : int, numpy.random.SeedSequence or Generator, optional
        Seed of the resampling tests; measure k uses child k of its root
        ``SeedSequence`` (:func:`scorestd.kernels.seeds.root_sequence`; a ``SeedSequence``
        is copied, never advanced). Required for them; ``attrs["seed"]`` records it.

    Returns
    -------
    DiscriminativePower
        ``data`` with ``p``, ``asl`` and ``fraction``; ``summary()``, ``plot()``.

    Raises
    ------
    ScoreDataError
        Fewer than two systems, or missing scores with a Tukey test.

    Examples
    --------
    >>> import scorestd
    >>> ap = scorestd.datasets.load("adhoc8_ap").isel(system=slice(0, 30))
    >>> dp = discriminative_power(ap, schemes=["raw", "E"])
    >>> dp.data["fraction"].sel(alpha=0.05).round(3).values.tolist()
    [[0.738], [0.729]]
    """
    test = check_option(test, PairedTest, "test", deprecated=RENAMED_TESTS)
    B = check_count("B", B)
    schemes = check_schemes(schemes, scheme_options)
    c = validate(scores)
    if c.sizes[SYSTEM] < 2:
        raise ScoreDataError(f"discriminative power needs at least two systems, got "
                             f"{c.sizes[SYSTEM]}")
    alphas = np.asarray(alphas, dtype=np.float64)
    if alphas.ndim != 1 or not ((alphas > 0) & (alphas < 1)).all():
        raise ScorestdError(f"alphas must be a list of levels in (0, 1); got {alphas.tolist()}")
    if test in RESAMPLING_TESTS and seed is None:
        raise ScorestdError(f"the {test} test needs seed= (reproducible results)")
    root = None if seed is None else root_sequence(seed)
    record = None if root is None else seed_record(root)  # before spawning advances it
    children = None if root is None else root.spawn(c.sizes[MEASURE])
    p_all, diff_all = [], []
    # one bar over the measures for the resampling tests (the others take a moment)
    with progress_bar(c.sizes[MEASURE], "discriminative power", unit=None,
                      show=None if test in RESAMPLING_TESTS else False) as job:
        for k, m in enumerate(c[MEASURE].values):
            stack = standardized_stack(c.sel({MEASURE: [m]}), schemes)  # (scheme, T, S)
            if test in FAMILY_TESTS and np.isnan(stack).any():
                raise ScoreDataError(f"measure {m!r}: the {test} test needs complete "
                                     f"scores; drop topics with missing scores")
            with job.part(1):
                _, p = paired_test(stack, test, B=B,
                                   seed=None if children is None else children[k])
            p_all.append(p)
            diff_all.append(describe_pairs(stack)[0])
    return DiscriminativePower(_dataset(c, schemes, alphas, np.stack(p_all, axis=1),
                                        np.stack(diff_all, axis=1), test, B, record))


def _dataset(c: xr.DataArray, schemes: tuple[str, ...], alphas: np.ndarray, p: np.ndarray,
             diff: np.ndarray, test: str, B: int, seed: int | str | None) -> xr.Dataset:
    systems = c[SYSTEM].values
    i, j = pair_indices(len(systems))
    dims = ("scheme", MEASURE, PAIR)
    coords = {"scheme": list(schemes), MEASURE: c[MEASURE].values,
              **pair_coords(systems, i, j)}
    asl = np.sort(np.where(np.isnan(p), np.inf, p), axis=-1)
    asl = np.where(np.isinf(asl), np.nan, asl)  # NaN p-values sort last
    attrs = {"experiment": "discriminative power", "test": test,
             "data": data_label(c),
             "n_topics": int(c.sizes["topic"]), "n_systems": len(systems)}
    if test in RESAMPLING_TESTS:
        attrs.update(B=int(B), seed=seed)
    return xr.Dataset(
        {
            "p": (dims, p),
            "mean_diff": (dims, diff),
            "asl": (("scheme", MEASURE, "rank"), asl),
            "fraction": (("scheme", MEASURE, "alpha"), fraction_significant(p, alphas)),
        },
        coords={**coords, "rank": np.arange(1, p.shape[-1] + 1), "alpha": alphas},
        attrs=attrs,
    )
