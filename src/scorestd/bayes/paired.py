"""Closed-form Bayesian comparison of every pair of systems (labelled).

The numbers come from :func:`scorestd.kernels.paired_posterior.paired_posterior_all_pairs`
(one moment matrix per measure, no loop over pairs); this module labels them with the
``pair`` dim of :func:`scorestd.compare`.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import xarray as xr

from .._options import CIKind, NanPolicy, check_option
from ..dims import SYSTEM
from ..kernels.paired_posterior import paired_posterior_all_pairs
from ..mapping import maps_extra_dims
from ..score_cube import match_input_dims, validate
from ..stats._pairs import apply_pairwise, check_pairwise_cube, pair_coords, system_pairs
from ._checks import check_interval, check_rope, check_scores

__all__ = ["bayes_compare"]

_FIELDS = ("mean", "sd", "ci_low", "ci_high", "prob_greater", "prob_less", "prob_below_rope",
           "prob_in_rope", "prob_above_rope", "loc", "scale", "df", "n")
_DESCRIPTIONS = {
    "mean": "posterior mean of delta, the mean difference system minus system2",
    "sd": "posterior sd of delta",
    "ci_low": "lower bound of the credible interval of delta",
    "ci_high": "upper bound of the credible interval of delta",
    "prob_greater": "P(delta > 0 | scores)",
    "prob_less": "P(delta < 0 | scores)",
    "prob_below_rope": "P(delta < rope low | scores)",
    "prob_in_rope": "P(rope low <= delta <= rope high | scores)",
    "prob_above_rope": "P(delta > rope high | scores)",
    "loc": "location of the Student-t posterior of delta",
    "scale": "scale of the Student-t posterior of delta",
    "df": "degrees of freedom of the Student-t posterior of delta",
    "n": "topics used (present for both systems)",
}


@maps_extra_dims()
def bayes_compare(
    scores: Any,
    *,
    baseline: str | None = None,
    ci_prob: float = 0.95,
    ci_kind: CIKind = "eti",
    rope: float | tuple[float, float] | None = None,
    nan_policy: NanPolicy = "omit",
) -> xr.Dataset:
    r"""Posterior of the mean difference of every pair of systems, in closed form.

    For each pair the per-topic differences are modelled as :math:`d_t \sim N(\delta,
    \sigma^2)` with the reference prior :math:`p(\delta, \sigma^2) \propto 1/\sigma^2`, so
    :math:`\delta \mid d \sim t_{n-1}(\bar d, s/\sqrt n)`. Then P(δ ≤ 0) is exactly the
    one-sided (``alternative="greater"``) paired t p-value of :func:`scorestd.compare`,
    and the equal-tailed interval is the t confidence interval: the Bayesian reading of
    the paired t-test, with probabilities of the statements a researcher wants to make
    (P(δ > 0), the probability that δ is within ±r). For a posterior that models topics and systems jointly
    (shrinkage, a pooled residual variance) see :func:`scorestd.bayes_crossed`.

    Parameters
    ----------
    scores : xarray.DataArray
        A cube or 2-D ``(topic, system)`` array.
    baseline : str, optional
        Compare every other system against this one instead of all pairs.
    ci_prob : float
        Probability of the credible interval (default 0.95), in (0, 1).
    ci_kind : {"eti", "hdi"}
        Equal-tailed or highest-density interval. The Student-t posterior is symmetric
        and unimodal, so both give the same interval here; the kind is recorded.
    rope : float or (float, float), optional
        Region of practical equivalence of δ: a half-width r > 0 for [−r, r], or
        ``(low, high)``. Gives the three-way split ``prob_below_rope``,
        ``prob_in_rope``, ``prob_above_rope``.
    nan_policy : {"omit", "raise"}
        A missing score drops that topic for the pairs of its system (``n`` says how
        many topics each pair used), or raises ``ScoreDataError`` naming it.

    Returns
    -------
    xarray.Dataset
        Over ``pair`` (coordinates ``system`` and ``system2``: δ is system minus
        system2) and ``measure`` for a cube: ``mean``, ``sd``, ``ci_low``, ``ci_high``,
        ``prob_greater`` = P(δ > 0), ``prob_less`` = P(δ < 0), the ROPE split (with
        ``rope``), the posterior's
        ``loc``, ``scale`` and ``df``, and ``n``. ``attrs`` record ``ci_prob``,
        ``ci_kind``, ``rope`` and the prior. A pair whose differences are all equal has a
        point-mass posterior (``scale`` 0): identical systems get P(δ > 0) = P(δ < 0) = 0
        (and P(δ ≤ 0) = 1, the p-value the t-test gives them). Fewer
        than 2 shared topics give ``NaN``.

    Raises
    ------
    ScoreDataError
        Fewer than 2 topics or systems, a system or topic without any score, a
        baseline that is not a system, or a missing score under ``nan_policy="raise"``.
    OptionError
        ``ci_prob`` outside (0, 1), an unknown ``ci_kind``, or an invalid ``rope``.

    Examples
    --------
    >>> import scorestd
    >>> ap = scorestd.datasets.load("adhoc8_ap").isel(system=slice(0, 4))
    >>> post = scorestd.bayes_compare(ap, rope=0.01)
    >>> str(post.pair.values[0]), post.sizes["pair"]
    ('run1 vs run2', 6)
    >>> freq = scorestd.compare(ap, alternative="greater")
    >>> bool(np.allclose(1 - post.prob_greater, freq.p_value, rtol=0, atol=1e-12))
    True
    """
    prob = check_interval(ci_prob, ci_kind)
    check_option(nan_policy, NanPolicy, "nan_policy")
    bounds = check_rope(rope)
    cube = validate(scores)
    check_pairwise_cube(cube, nan_policy=nan_policy)
    check_scores(cube, "bayes_compare")
    systems = cube[SYSTEM].values
    i, j = system_pairs(systems, baseline)

    def kernel(x):
        post = paired_posterior_all_pairs(x, prob=prob, rope=bounds, pairs=(i, j),
                                          nan_policy=nan_policy)
        return (post.mean, post.sd, post.ci_low, post.ci_high, post.prob_greater,
                post.prob_less, post.prob_below, post.prob_rope, post.prob_above, post.loc, post.scale,
                post.df, post.n)

    res = apply_pairwise(cube, kernel, _FIELDS, len(i), pair_coords(systems, i, j))
    if bounds is None:
        res = res.drop_vars(["prob_below_rope", "prob_in_rope", "prob_above_rope"])
    res["n"] = res["n"].astype(np.int64)
    for name in res.data_vars:
        res[name].attrs["description"] = _DESCRIPTIONS[name]
    res.attrs = {"model": "paired normal differences, reference prior p(delta, sigma^2) "
                          "~ 1/sigma^2", "ci_prob": prob, "ci_kind": ci_kind,
                 "rope": "none" if bounds is None else list(bounds),
                 "baseline": str(baseline), "nan_policy": nan_policy}
    return match_input_dims(res, scores)
