r"""Bayesian bootstrap of per-topic standardization (Rubin 1981).

The reference scores :math:`r_1, \dots, r_R` of a topic are a sample from an unknown
population of systems. The Bayesian bootstrap puts a Dirichlet(1, …, 1) posterior on the
weights :math:`w` of the observed values; each draw of :math:`w` gives a draw of any
functional of that population:

- E-std: the weighted ecdf :math:`F_w(x) = \sum_i w_i 1\{r_i \le x\}` (mid-rank ties:
  equal values count one half). Since :math:`E[w_i] = 1/R`, its posterior mean is the
  ecdf: E-std itself.
- N-std and z-std: the weighted mean :math:`\mu_w = \sum_i w_i r_i` and variance
  :math:`\sigma_w^2 = \tfrac{R+1}{R-1}\sum_i w_i (r_i - \mu_w)^2`; the factor makes the
  posterior mean of :math:`\sigma_w^2` the ``n − 1`` sample variance N-std uses.

Arrays: reference ``(N, R)`` and scores ``(N, S)`` (one row per topic and measure), weights
``(D, N, R)`` (``D`` draws); results ``(D, N, S)``. ``NaN`` reference scores get weight 0.
"""

from __future__ import annotations

import numpy as np

from .standardize import Ties, ecdf_counts

__all__ = ["bootstrap_ecdf", "bootstrap_location_scale", "dirichlet_weights"]


def dirichlet_weights(rng: np.random.Generator, draws: int, present: np.ndarray) -> np.ndarray:
    """``draws`` Dirichlet(1, …, 1) weight vectors over the ``present`` reference scores.

    Drawn as normalised standard exponentials, ``(draws, R)`` from one call, so drawing
    them in several calls of fewer draws gives the same numbers.

    Examples
    --------
    >>> w = dirichlet_weights(np.random.default_rng(0), 3, np.array([True, True, False]))
    >>> w.shape, w[:, 2].tolist(), np.allclose(w.sum(axis=1), 1)
    ((3, 3), [0.0, 0.0, 0.0], True)
    """
    e = rng.standard_exponential((draws, present.size))
    e[:, ~present] = 0.0
    return e / e.sum(axis=1, keepdims=True)


def bootstrap_ecdf(x: np.ndarray, ref: np.ndarray, weights: np.ndarray, *,
                   ties: Ties = "right") -> np.ndarray:
    """Weighted ecdfs of ``ref`` at ``x``: ``(N, S)``, ``(N, R)``, ``(D, N, R)`` → ``(D, N, S)``.

    Examples
    --------
    >>> ref = np.array([[0.1, 0.2, 0.3]])
    >>> w = np.array([[[0.5, 0.25, 0.25]], [[0.0, 0.0, 1.0]]])
    >>> bootstrap_ecdf(np.array([[0.2, 0.05]]), ref, w).tolist()
    [[[0.75, 0.0]], [[0.0, 0.0]]]
    """
    x = np.asarray(x, dtype=float)
    ref = np.asarray(ref, dtype=float)
    order = np.argsort(ref, axis=-1)  # NaN last, with weight 0
    sorted_w = np.take_along_axis(weights, order[None], axis=-1)
    cum = np.concatenate([np.zeros((*sorted_w.shape[:-1], 1)), np.cumsum(sorted_w, -1)], -1)
    filled = np.where(np.isnan(x), 0.0, x)
    at_most, _ = ecdf_counts(filled, ref, ties="right")
    k_le = np.broadcast_to(at_most.astype(np.intp)[None], weights.shape[:1] + x.shape)
    out = np.take_along_axis(cum, k_le, axis=-1)
    if ties == "mid":
        mid, _ = ecdf_counts(filled, ref, ties="mid")
        k_lt = np.broadcast_to(np.rint(2.0 * mid - at_most).astype(np.intp)[None], k_le.shape)
        out = 0.5 * (out + np.take_along_axis(cum, k_lt, axis=-1))
    np.clip(out, 0.0, 1.0, out=out)  # cumulative sums can pass 1 by rounding
    return np.where(np.isnan(x)[None], np.nan, out)


def bootstrap_location_scale(ref: np.ndarray, weights: np.ndarray
                             ) -> tuple[np.ndarray, np.ndarray]:
    """Weighted mean and sd of each row: ``(N, R)``, ``(D, N, R)`` → two ``(D, N, 1)``.

    Examples
    --------
    >>> ref = np.array([[0.0, 1.0, 2.0]])
    >>> mean, sd = bootstrap_location_scale(ref, np.full((1, 1, 3), 1 / 3))
    >>> float(mean[0, 0, 0]), round(float(sd[0, 0, 0]), 4)
    (1.0, 1.1547)
    """
    ref = np.asarray(ref, dtype=float)
    present = ~np.isnan(ref)
    r = np.where(present, ref, 0.0)
    n = present.sum(axis=-1)[None, :, None].astype(float)
    mean = np.einsum("dnr,nr->dn", weights, r)[..., None]
    dev = r[None] - mean
    var = np.einsum("dnr,dnr->dn", weights, dev * dev)[..., None]
    with np.errstate(invalid="ignore", divide="ignore"):
        var = var * (n + 1.0) / (n - 1.0)
    return mean, np.sqrt(var)
