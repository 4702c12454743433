"""Significance tests between systems: all pairs or each system against a baseline.

Results are ``xarray.Dataset`` objects with a ``pair`` dim (coordinates
``system`` and ``system2``: each pair tests system minus system2) and, for a
cube, a ``measure`` dim. The numbers come from the all-pairs kernels in
:mod:`scorestd.kernels.significance`; nothing loops over pairs.
"""

from __future__ import annotations

from typing import get_args

import numpy as np
import xarray as xr

from .._options import (
    RENAMED_TESTS,
    Alternative,
    Correction,
    NanPolicy,
    PairedTest,
    check_count,
    check_flag,
    check_number,
    check_option,
    check_probability,
    check_seed,
)
from ..dims import MEASURE, SYSTEM, TOPIC
from ..errors import OptionError, ScoreDataError, warn
from ..kernels import significance as ks
from ..mapping import check_shared_extra_dims, maps_extra_dims
from ..score_cube import match_input_dims, validate
from ._pairs import (
    DESCRIBE_FIELDS,
    PAIR,
    SYSTEM2,
    apply_pairwise,
    check_pairwise_cube,
    pair_coords,
    system_pairs,
)

__all__ = ["TESTS", "compare", "compare_unpaired", "fraction_significant"]

#: Names accepted by ``compare(test=...)``.
TESTS: tuple[str, ...] = get_args(PairedTest)


@maps_extra_dims(vectorized=True)
def compare(
    scores,
    test: PairedTest = "paired_t",
    *,
    baseline: str | None = None,
    alternative: Alternative = "two-sided",
    correction: Correction | None = None,
    conf_level: float = 0.95,
    min_diff: float = 0.01,
    B: int = 10_000,
    seed=None,
    nan_policy: NanPolicy = "omit",
) -> xr.Dataset:
    """Paired significance tests of every pair of systems, or of each against a baseline.

    Parameters
    ----------
    scores : xarray.DataArray
        A cube or 2-D ``(topic, system)`` array (per-topic scores).
    test : {"paired_t", "wilcoxon", "sign", "permutation", "bootstrap", "tukey_hsd", "randomised_tukey_hsd"}
        Paired t-test (``"t"``, the name of earlier releases, is read as ``"paired_t"``
        with a ``DeprecationWarning``), Wilcoxon signed-rank test, sign test, sign-flip permutation
        test or bootstrap test of the mean difference; or Tukey's HSD from the
        two-way ANOVA without replication, or its randomised version (both
        already adjusted for all S(S − 1)/2 pairs, and needing complete data).
    baseline : str, optional
        Compare every other system against this one (pairs "system vs baseline")
        instead of all pairs.
    alternative : {"two-sided", "greater", "less"}
        "greater": ``system`` scores higher than ``system2``. The Tukey tests are
        two-sided only.
    correction : {"bonferroni", "holm", "bh"}, optional
        Adjust the p-values over the family of all pairs reported (per measure)
        into a ``p_adjusted`` variable. None by default: the raw ``p_value`` only
        (the command line ``scorestd compare`` adjusts with Holm unless told
        ``--correction none``, as it reports counts of significant pairs).
    conf_level : float
        Level of the two-sided, t-based confidence interval of the mean difference
        (the same whatever the test and ``alternative``).
    min_diff : float
        Sign test only: absolute differences below this are ties (default 0.01).
    B : int
        Resamples of the permutation, bootstrap and randomised Tukey tests.
    seed : int, numpy.random.Generator or None
        Seed of those resamples; the same seed gives the same answer.
    nan_policy : {"omit", "raise"}
        A missing score drops that topic for the pairs of its system (``n`` says
        how many topics each pair used, and a warning says when ``n`` differs
        across the pairs of a measure), or raises ``ScoreDataError`` naming it.
        The Tukey tests always raise on missing scores.

    Returns
    -------
    xarray.Dataset
        Over ``pair`` (and ``measure`` for a cube): ``statistic``, ``p_value``
        (``p_adjusted`` with a correction), ``mean_diff``, ``ci_low``, ``ci_high``,
        ``effect_size`` (Cohen's d of the paired differences: mean / sd),
        ``glass_delta`` (mean difference / sd of ``system2``) and ``n``. When all
        differences of a pair are 0 the p-value is 1 (the t statistic is NaN).

    Raises
    ------
    ScoreDataError
        Fewer than 2 topics or systems, a baseline that is not a system, or a
        missing score under ``nan_policy="raise"``.

    Warns
    -----
    ScorestdWarning
        When missing scores give the pairs of a measure different numbers of topics
        ``n`` (numpy-backed input).

    Examples
    --------
    >>> import scorestd
    >>> ap = scorestd.datasets.load("adhoc8_ap").isel(system=slice(0, 4))
    >>> res = scorestd.compare(ap, "paired_t", correction="holm")
    >>> res.sizes["pair"], str(res.pair.values[0])
    (6, 'run1 vs run2')
    >>> bool((res.p_adjusted >= res.p_value).all())
    True
    """
    test = check_option(test, PairedTest, "test", deprecated=RENAMED_TESTS)
    check_option(alternative, Alternative, "alternative")
    if correction is not None:
        check_option(correction, Correction, "correction")
        if test in ks.FAMILY_TESTS:
            raise ValueError(f"{test!r} p-values are already adjusted; use correction=None")
    if test in ks.FAMILY_TESTS and alternative != "two-sided":
        raise ValueError(f"{test!r} is two-sided only")
    check_probability("conf_level", conf_level)
    check_count("B", B)
    if check_number("min_diff", min_diff) < 0:
        raise OptionError(f"min_diff must be a finite number ≥ 0; got {min_diff!r}")
    check_seed("seed", seed)
    cube = validate(scores, extra_dims=True)
    check_pairwise_cube(cube, nan_policy="raise" if test in ks.FAMILY_TESTS else nan_policy)
    systems = cube[SYSTEM].values
    i, j = system_pairs(systems, baseline)

    def kernel(x):
        moments = ks.paired_moments(x, pairs=(i, j), nan_policy="omit")  # once for both
        stat, p = ks.paired_test(x, test, pairs=(i, j), alternative=alternative,
                                 min_diff=min_diff, B=B, seed=seed, nan_policy=nan_policy,
                                 moments=moments)
        extra = () if correction is None else (ks.adjust_pvalues(p, correction),)
        described = ks.describe_pairs(x, (i, j), conf_level=conf_level, moments=moments)
        return (stat, p, *extra, *described)

    fields = ["statistic", "p_value", *(["p_adjusted"] if correction else []),
              *DESCRIBE_FIELDS]
    res = apply_pairwise(cube, kernel, fields, len(i), pair_coords(systems, i, j),
                         integers=("n",))
    res.attrs = {"test": test, "alternative": alternative, "correction": str(correction),
                 "baseline": str(baseline), "conf_level": conf_level, "nan_policy": nan_policy}
    if test == "sign":
        res.attrs["min_diff"] = min_diff
    if test in ks.RESAMPLING_TESTS:
        res.attrs.update(B=B, seed=str(seed))
    _describe_variables(res, test)
    _warn_unequal_n(res, cube.sizes[TOPIC])
    return match_input_dims(res, scores)


def _warn_unequal_n(res: xr.Dataset, n_topics: int) -> None:
    """Say when missing scores left the pairs of a measure with different topics."""
    n = res["n"]
    if type(n.data).__module__.startswith("dask"):
        return  # counting would compute the whole result
    per_measure = n.transpose(MEASURE, ...).values.reshape(n.sizes[MEASURE], -1)
    for label, counts in zip(res[MEASURE].values, per_measure, strict=True):
        low, high = int(counts.min()), int(counts.max())
        if low != high:
            pair = str(res["pair"].values[int(np.argmin(counts))])
            warn(f"measure {str(label)!r}: missing scores leave the pairs different topics "
                 f"(n from {low} to {high} of {n_topics}; fewest: {pair}); their p-values "
                 "are not comparable, and a pair with fewer than 2 topics has none. Compare "
                 "on the topics every system has (e.g. read with topics='intersection'), or "
                 "pass nan_policy='raise'")


def _describe_variables(res: xr.Dataset, test: str) -> None:
    what = {
        "statistic": f"{test} test statistic",
        "p_value": "p-value" + (" (family-wise adjusted)" if test in ks.FAMILY_TESTS else ""),
        "p_adjusted": "p-value adjusted over the pairs",
        "mean_diff": "mean of system minus system2 over the topics used",
        "ci_low": "lower bound of the t-based confidence interval of mean_diff",
        "ci_high": "upper bound of the t-based confidence interval of mean_diff",
        "effect_size": "Cohen's d of the paired differences (mean / sd)",
        "glass_delta": "Glass's delta: mean_diff / sd of system2",
        "n": "topics used (present for both systems)",
    }
    for name, text in what.items():
        if name in res:
            res[name].attrs["description"] = text


@maps_extra_dims("scores1", "scores2", vectorized=True)
def compare_unpaired(
    scores1,
    scores2,
    *,
    equal_var: bool = False,
    baseline: str | None = None,
    alternative: Alternative = "two-sided",
    conf_level: float = 0.95,
) -> xr.Dataset:
    """Unpaired t-tests of every system on one topic set against every system on another.

    Welch's test by default, Student's with ``equal_var=True`` (as
    ``scipy.stats.ttest_ind``). Missing scores are left out of each system's
    mean and variance.

    Parameters
    ----------
    scores1, scores2 : xarray.DataArray
        Cubes (or 2-D arrays) with the same systems and measures, on different
        topics (e.g. two collections, or two halves of one).
    equal_var : bool
        Pool the two variances.
    baseline : str, optional
        Only compare against this system on ``scores2`` (``system2`` has one label).
    alternative : {"two-sided", "greater", "less"}
        "greater": ``system`` on ``scores1`` scores higher than ``system2`` on ``scores2``.
    conf_level : float
        Level of the confidence interval of the difference of means.

    Returns
    -------
    xarray.Dataset
        Over ``system`` × ``system2`` (× ``measure``): ``statistic``, ``p_value``,
        ``df``, ``mean_diff``, ``ci_low``, ``ci_high``, ``effect_size`` (Cohen's d
        with the pooled sd), ``glass_delta`` (mean_diff / sd of system2 on
        ``scores2``), ``n1`` and ``n2``.

    Examples
    --------
    >>> import scorestd
    >>> ap = scorestd.datasets.load("adhoc8_ap").isel(system=slice(0, 3))
    >>> res = scorestd.compare_unpaired(ap.isel(topic=slice(0, 25)), ap.isel(topic=slice(25, 50)))
    >>> res.p_value.dims
    ('measure', 'system', 'system2')
    """
    check_option(alternative, Alternative, "alternative")
    check_probability("conf_level", conf_level)
    equal_var = check_flag("equal_var", equal_var)
    c1 = validate(scores1, what="scores1", extra_dims=True)
    c2 = validate(scores2, what="scores2", extra_dims=True)
    check_shared_extra_dims({"scores1": c1, "scores2": c2}, "compare_unpaired")
    for dim in (SYSTEM, MEASURE):
        missing = sorted(set(map(str, c1[dim].values)) ^ set(map(str, c2[dim].values)))
        if missing:
            raise ScoreDataError(f"scores1 and scores2 differ in {dim}s: {missing[:10]}")
    c2 = c2.sel({SYSTEM: c1[SYSTEM], MEASURE: c1[MEASURE]})
    for name, c in (("scores1", c1), ("scores2", c2)):
        if c.sizes[TOPIC] < 2:
            raise ScoreDataError(f"{name}: need at least 2 topics, got {c.sizes[TOPIC]}")
    systems = c1[SYSTEM].values
    cols = np.arange(len(systems))
    if baseline is not None:
        cols = system_pairs(systems, baseline)[1][:1]

    def kernel(x1, x2):
        batch = np.broadcast_shapes(x1.shape[:-2], x2.shape[:-2])  # a cube without extra dims
        x1, x2 = (np.broadcast_to(x, batch + x.shape[-2:]) for x in (x1, x2))
        t, p, df = ks.unpaired_t_all_pairs(x1, x2, equal_var, alternative=alternative,
                                           return_df=True)
        described = ks.describe_unpaired(x1, x2, equal_var, conf_level=conf_level)
        return np.stack([np.asarray(o, dtype=float)[..., cols] for o in (t, p, df, *described)],
                        axis=-3)

    fields = ("statistic", "p_value", "df", "mean_diff", "ci_low", "ci_high", "effect_size",
              "glass_delta", "n1", "n2")
    a = c1.rename({SYSTEM: "_s"})
    b = c2.rename({SYSTEM: "_s", TOPIC: "_topic2"})
    out = xr.apply_ufunc(
        kernel, a, b,
        input_core_dims=[[TOPIC, "_s"], ["_topic2", "_s"]],
        output_core_dims=[["field", SYSTEM, SYSTEM2]],
        dask="parallelized", output_dtypes=[float],
        dask_gufunc_kwargs={"output_sizes": {"field": len(fields), SYSTEM: len(systems),
                                             SYSTEM2: len(cols)}, "allow_rechunk": True},
    )
    res = xr.Dataset({name: out.isel(field=k, drop=True) for k, name in enumerate(fields)})
    res = res.assign_coords({SYSTEM: systems, SYSTEM2: systems[cols]})
    res["n1"] = res["n1"].astype(np.int64)
    res["n2"] = res["n2"].astype(np.int64)
    res.attrs = {"test": "student" if equal_var else "welch", "alternative": alternative,
                 "conf_level": conf_level, "baseline": str(baseline)}
    return match_input_dims(res, scores1)


def fraction_significant(p_values: xr.DataArray, alphas, *, dim=PAIR) -> xr.DataArray:
    """Fraction of p-values below each significance level α, over ``dim``.

    NaN p-values are left out (the denominator counts the non-NaN ones); where all
    are NaN the fraction is NaN.

    Parameters
    ----------
    p_values : xarray.DataArray
        p-values, e.g. ``compare(...).p_value``.
    alphas : sequence of float
        Significance levels; they become the ``alpha`` dim of the result.
    dim : str or sequence of str
        Dims counted over (default ``"pair"``).

    Returns
    -------
    xarray.DataArray
        The other dims of ``p_values`` plus ``alpha``.

    Examples
    --------
    >>> import scorestd
    >>> ap = scorestd.datasets.load("adhoc8_ap").isel(system=slice(0, 6))
    >>> frac = fraction_significant(scorestd.compare(ap).p_value, [0.01, 0.05])
    >>> frac.dims, bool(frac.sel(alpha=0.01) <= frac.sel(alpha=0.05))
    (('measure', 'alpha'), True)
    """
    dims = [dim] if isinstance(dim, str) else list(dim)
    alphas = np.asarray(alphas, dtype=float)
    for d in dims:
        if d not in p_values.dims:
            raise ValueError(f"p_values has no dim {d!r} (dims: {p_values.dims})")
    axes = tuple(range(-len(dims), 0))
    return xr.apply_ufunc(
        lambda p: ks.fraction_significant(p, alphas, axis=axes),
        p_values,
        input_core_dims=[dims],
        output_core_dims=[["alpha"]],
        dask="parallelized",
        output_dtypes=[float],
        dask_gufunc_kwargs={"output_sizes": {"alpha": alphas.size}, "allow_rechunk": True},
    ).assign_coords(alpha=alphas)
