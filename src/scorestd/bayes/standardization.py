"""Bayesian-bootstrap uncertainty of standardized scores: :func:`bayes_standardize`.

A standardized score depends on the finite pool of reference systems it was computed
against. Dirichlet weights over the reference scores of each topic (the Bayesian
bootstrap, :mod:`scorestd.kernels.bayesian_bootstrap`) give the posterior of the topic's
score distribution, hence of every standardized score: how much it would move with
another pool of reference systems from the same population.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import xarray as xr

from .._options import (
    BootstrapOutput,
    CIKind,
    Degenerate,
    check_count,
    check_fits_memory,
    check_option,
    memory_budget,
)
from ..dims import CUBE_DIMS, MEASURE, SYSTEM, TOPIC
from ..errors import ScoreDataError, ScorestdError
from ..kernels import posterior as kp
from ..kernels.bayesian_bootstrap import (
    bootstrap_ecdf,
    bootstrap_location_scale,
    dirichlet_weights,
)
from ..kernels.seeds import root_sequence, seed_record
from ..kernels.standardize import normal_cdf
from ..mapping import maps_extra_dims
from ..models._base import Model
from ..models.registry import instantiate
from ..models.schemes import model_name
from ..score_cube import match_input_dims, validate
from ._checks import check_interval

__all__ = ["BOOTSTRAP_MODELS", "bayes_standardize"]

#: Models the Bayesian bootstrap supports (registered names).
BOOTSTRAP_MODELS = ("empirical", "normal", "z")

#: Bytes of draws held at once.
BLOCK_BYTES = 1 << 26


@maps_extra_dims("scores", "reference")
def bayes_standardize(
    scores: Any,
    model: str | Model = "empirical",
    *,
    reference: Any = None,
    draws: int = 1000,
    seed: int | np.random.SeedSequence | None = None,
    output: BootstrapOutput = "summary",
    ci_prob: float = 0.95,
    ci_kind: CIKind = "eti",
    degenerate: Degenerate = "unstandardized",
    memory: int | str | None = None,
) -> xr.Dataset:
    r"""Posterior of standardized scores under the Bayesian bootstrap of the reference systems.

    For each topic and measure, Dirichlet(1, …, 1) weights over the ``R`` reference
    scores give draws of the topic's score distribution: for E-std the weighted ecdf
    :math:`\sum_i w_i 1\{r_i \le x\}` (its posterior mean is the ecdf, E-std itself), for
    N-std and z-std the weighted mean and sd (the sd scaled so that its square has
    posterior mean the ``n − 1`` variance N-std uses). Each draw standardizes every
    score, so the spread of the draws says how much a standardized score depends on
    which reference systems happened to be available.

    Parameters
    ----------
    scores : xarray.DataArray
        Scores to standardize: a cube or 2-D ``(topic, system)`` array.
    model : {"empirical", "normal", "z"} or Model
        E-std (also ``"E"``; an ``Empirical(ties="mid")`` instance gives mid-rank ties),
        N-std (``"N"``) or z-std.
    reference : xarray.DataArray, optional
        The reference (standardization) systems; default ``scores`` itself. It must
        cover every topic and measure of ``scores``.
    draws : int
        Posterior draws per topic.
    seed : int or numpy.random.SeedSequence, optional
        Topic ``k`` (in topic × measure order) draws its weights from
        ``SeedSequence(seed).spawn(T·M)[k]``: the same seed gives the same draws however
        the work is split. ``None``: fresh entropy, recorded in ``attrs["seed"]``.
    output : {"summary", "draws"}
        Per-cell posterior summaries, or the draws themselves (``draw`` dim; draws ×
        topics × systems × measures numbers).
    ci_prob : float
        Probability of the credible interval (summary).
    ci_kind : {"eti", "hdi"}
        Equal-tailed or highest-density interval (summary).
    degenerate : {"unstandardized", "nan", "raise"}
        A topic whose reference scores are all equal, as :func:`scorestd.standardize`
        (every reweighting of such a pool is the same, so its draws equal ``estimate``).
    memory : int or str, optional
        Memory budget in bytes (``"2GB"``; default :func:`scorestd._options.memory_budget`):
        with ``output="draws"`` the draws (twice 8 bytes × draws × topics × systems ×
        measures while the result is built) must fit, checked before any work; with
        either output the draws of one topic and measure (drawn a block of topics at a
        time) must fit.

    Returns
    -------
    xarray.Dataset
        Over topic × system × measure: ``estimate`` (the standardized scores of the
        model, :func:`scorestd.standardize`) and either ``mean``, ``sd``, ``ci_low``,
        ``ci_high`` (``output="summary"``) or ``draws`` (with a leading ``draw`` dim).
        ``NaN`` scores stay ``NaN``. ``attrs`` record the model, draws, seed, interval.

    Raises
    ------
    ScoreDataError
        A topic or measure of ``scores`` missing from the reference, or a topic with no
        reference score.
    ScorestdError
        A model the Bayesian bootstrap does not support.
    OptionError
        ``output="draws"`` whose draws do not fit in ``memory``.

    Examples
    --------
    >>> import scorestd
    >>> ap = scorestd.datasets.load("adhoc8_ap").isel(topic=slice(0, 5))
    >>> post = scorestd.bayes_standardize(ap, draws=2000, seed=1)
    >>> err = abs(post["mean"] - post["estimate"]).max().item()  # E-std: MC error only
    >>> err < 0.01, bool((post.ci_low <= post.estimate).all())
    (True, True)
    """
    draws = check_count("draws", draws)
    check_option(output, BootstrapOutput, "output")
    check_option(degenerate, Degenerate, "degenerate")
    prob = check_interval(ci_prob, ci_kind)
    instance = _bootstrap_model(model)
    cube = validate(scores)
    if output == "draws":
        _check_draws_fit(draws, cube, memory)
    ref = cube if reference is None else _covering(validate(reference, what="reference"),
                                                  cube)
    estimate = instance.standardize(cube, None if reference is None else ref,
                                    degenerate=degenerate)
    x = np.asarray(cube.values).transpose(0, 2, 1).reshape(-1, cube.sizes[SYSTEM])
    r = np.asarray(ref.values).transpose(0, 2, 1).reshape(-1, ref.sizes[SYSTEM])
    point = np.asarray(estimate.values).transpose(0, 2, 1).reshape(x.shape)
    present = ~np.isnan(r)
    if not present.any(axis=1).all():
        k = int(np.argmin(present.any(axis=1)))
        raise ScoreDataError(
            f"the reference has no system with a score for topic "
            f"{str(cube[TOPIC].values[k // cube.sizes[MEASURE]])!r}, measure "
            f"{str(cube[MEASURE].values[k % cube.sizes[MEASURE]])!r}")
    with np.errstate(invalid="ignore"):
        deg = np.nanmin(r, axis=1) == np.nanmax(r, axis=1)
    root = root_sequence(seed)
    record = str(seed_record(root))  # before spawning advances the root
    rngs = [np.random.default_rng(s) for s in root.spawn(x.shape[0])]
    per_row = 8 * draws * (r.shape[1] + 2 * x.shape[1])
    check_fits_memory(per_row, memory, f"the {draws} draws of one topic and measure "
                      f"({r.shape[1]} reference systems, {x.shape[1]} systems)",
                      instead="ask for fewer draws")
    rows = max(1, BLOCK_BYTES // per_row)
    keep_draws = output == "draws"
    stats = {k: np.full(x.shape, np.nan) for k in ("mean", "sd", "ci_low", "ci_high")}
    all_draws = np.full((draws, *x.shape), np.nan) if keep_draws else None
    for start in range(0, x.shape[0], rows):
        sl = slice(start, min(start + rows, x.shape[0]))
        w = np.stack([dirichlet_weights(rngs[k], draws, present[k])
                      for k in range(sl.start, sl.stop)], axis=1)  # (D, n, R)
        y = _draws(instance, x[sl], r[sl], w)
        y = np.where(deg[sl][None, :, None], point[sl][None], y)
        if keep_draws:
            all_draws[:, sl] = y
        else:
            stats["mean"][sl] = y.mean(axis=0)
            stats["sd"][sl] = y.std(axis=0, ddof=1) if draws > 1 else np.nan
            stats["ci_low"][sl], stats["ci_high"][sl] = kp.interval(y, prob, ci_kind, axis=0)
    shape = (cube.sizes[TOPIC], cube.sizes[MEASURE], cube.sizes[SYSTEM])

    def cube_of(values: np.ndarray, lead: tuple[str, ...] = ()) -> xr.DataArray:
        v = values.reshape(values.shape[:len(lead)] + shape)
        v = np.moveaxis(v, -1, -2)  # (…, topic, system, measure)
        return xr.DataArray(v, dims=(*lead, *CUBE_DIMS), coords=cube.coords)

    where_nan = np.isnan(x)
    data = {"estimate": estimate.transpose(*CUBE_DIMS)}
    if keep_draws:
        data["draws"] = cube_of(np.where(where_nan[None], np.nan, all_draws), ("draw",))
    else:
        for name, values in stats.items():
            data[name] = cube_of(np.where(where_nan, np.nan, values))
    res = xr.Dataset(data)
    res.attrs = {"model": instance.name, "method": "Bayesian bootstrap of the reference "
                 "systems (Dirichlet(1, ..., 1) weights per topic)", "draws": draws,
                 "seed": record, "degenerate_policy": degenerate,
                 **({} if keep_draws else {"ci_prob": prob, "ci_kind": ci_kind})}
    return match_input_dims(res, scores)


def _check_draws_fit(draws: int, cube: xr.DataArray, memory: Any) -> None:
    """Refuse ``output="draws"`` whose array (held twice while the result is built) would
    not fit in the memory budget, saying how big it is and what to do instead."""
    per_draw = 2 * 8 * cube.sizes[TOPIC] * cube.sizes[SYSTEM] * cube.sizes[MEASURE]
    fit = max(1, memory_budget(memory) // per_draw)
    check_fits_memory(
        per_draw * draws, memory,
        f"bayes_standardize(output='draws', draws={draws}) for {cube.sizes[TOPIC]} topics × "
        f"{cube.sizes[SYSTEM]} systems × {cube.sizes[MEASURE]} measures",
        instead=f"use draws <= {fit}, output='summary' (no draws kept)")


def _bootstrap_model(model: Any) -> Model:
    name = model_name(model) if isinstance(model, str) else getattr(model, "name", None)
    if name not in BOOTSTRAP_MODELS:
        raise ScorestdError(f"the Bayesian bootstrap supports the models "
                            f"{list(BOOTSTRAP_MODELS)} (E-std, N-std, z-std); got {model!r}")
    return instantiate(name if isinstance(model, str) else model)


def _covering(ref: xr.DataArray, cube: xr.DataArray) -> xr.DataArray:
    for dim in (TOPIC, MEASURE):
        known = set(ref[dim].values.tolist())
        missing = [v for v in cube[dim].values.tolist() if v not in known]
        if missing:
            raise ScoreDataError(f"the reference has no {dim} {missing[0]!r}"
                                 + (f" (nor {len(missing) - 1} more)" if len(missing) > 1
                                    else ""))
    return ref.sel({TOPIC: cube[TOPIC].values, MEASURE: cube[MEASURE].values})


def _draws(model: Model, x: np.ndarray, r: np.ndarray, w: np.ndarray) -> np.ndarray:
    if model.name == "empirical":
        return bootstrap_ecdf(x, r, w, ties=model.options["ties"])
    mean, sd = bootstrap_location_scale(r, w)
    with np.errstate(invalid="ignore", divide="ignore"):
        if model.name == "normal":
            return normal_cdf(x[None], mean, sd)
        return (x[None] - mean) / sd
