"""Rank and linear correlation of score vectors, batched over leading axes.

Every kernel is ``f(x, y, axis=-1)``: ``x`` and ``y`` are arrays of the same
shape ``(..., S)`` (S items, e.g. systems' mean scores) and the result has
shape ``(...)``. Kendall and AP correlations are O(S²) array expressions (one
S × S comparison matrix per batch element, processed in chunks of the batch so
memory stays bounded); no Python loop over batch elements or pairs.

NaN: a batch element with a NaN in ``x`` or ``y`` gives NaN. A coefficient
that is undefined (e.g. a constant vector for τ_b or Pearson) is NaN.

AP correlation convention: **higher scores rank first** (scores of systems),
``x`` is the *estimated* ranking and ``y`` the *reference* ("true") ranking.
The top-weighting of τ_AP follows the positions in ``x``. This is the R
package ircor's ``tauAP(y, x)`` (ircor names the true scores first).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

import numpy as np
from scipy import stats

from .workspace import workspace

__all__ = [
    "AGREEMENT_CELLS",
    "RankAgreement",
    "kendall_tau",
    "kendall_tau_a",
    "kendall_tau_b",
    "pearson",
    "rank_agreement",
    "spearman",
    "tau_ap",
    "tau_ap_a",
    "tau_ap_b",
]

# Max number of S × S cells materialised at once (float64: 8 bytes each).
_CHUNK_CELLS = 2**22
#: Cells of the boolean comparison matrices of one chunk of :func:`rank_agreement`: small
#: enough for their few passes to run in cache (callers size their memory by it).
AGREEMENT_CELLS = 2**18


def _prepare(x, y, axis):
    x = np.moveaxis(np.asarray(x, dtype=float), axis, -1)
    y = np.moveaxis(np.asarray(y, dtype=float), axis, -1)
    if x.shape != y.shape:
        raise ValueError(f"x and y must have the same shape, got {x.shape} and {y.shape}")
    if x.shape[-1] < 2:
        raise ValueError(f"need at least 2 items to correlate, got {x.shape[-1]}")
    return x, y


def _batched_coefficient(fn: Callable, x, y, axis) -> np.ndarray:
    """Apply ``fn`` (2-D (B, S) batch → (B,)) over the flattened batch in chunks.

    For the O(S²) coefficients: checks ``x`` and ``y`` (:func:`_prepare`), gives NaN
    to batch elements with a NaN and bounds the S × S cells held at once.
    """
    x, y = _prepare(x, y, axis)
    batch_shape = x.shape[:-1]
    s = x.shape[-1]
    xf = x.reshape(-1, s)
    yf = y.reshape(-1, s)
    out = np.full(xf.shape[0], np.nan)
    ok = ~(np.isnan(xf).any(axis=1) | np.isnan(yf).any(axis=1))
    idx = np.flatnonzero(ok)
    step = max(1, _CHUNK_CELLS // (s * s))
    for start in range(0, idx.size, step):
        sel = idx[start : start + step]
        out[sel] = fn(xf[sel], yf[sel])
    return out.reshape(batch_shape)


def _signs(v: np.ndarray) -> np.ndarray:
    """``sign(v[..., i] - v[..., j])`` as an (B, S, S) int8 array."""
    return np.sign(v[:, :, None] - v[:, None, :]).astype(np.int8)


def _kendall_counts(x, y):
    sx = _signs(x)
    sy = _signs(y)
    s = x.shape[-1]
    # Full matrices count every pair twice; the diagonal is zero in both.
    c_minus_d = np.einsum("bij,bij->b", sx, sy, dtype=np.int64) / 2
    n0 = s * (s - 1) / 2
    ties_x = (np.count_nonzero(sx == 0, axis=(1, 2)) - s) / 2
    ties_y = (np.count_nonzero(sy == 0, axis=(1, 2)) - s) / 2
    return c_minus_d, n0, ties_x, ties_y


def kendall_tau_a(x, y, axis=-1):
    """Kendall's τ_a: (concordant − discordant) / (S(S−1)/2); ties count as neither.

    Parameters
    ----------
    x, y : array_like
        Arrays of the same shape ``(..., S)``.
    axis : int
        Axis holding the S items.

    Returns
    -------
    numpy.ndarray
        Shape ``(...)``; NaN where ``x`` or ``y`` has a NaN.

    Examples
    --------
    >>> float(kendall_tau_a([1, 2, 3, 4], [1, 3, 2, 4]))
    0.666...
    """
    def fn(a, b):
        cd, n0, _, _ = _kendall_counts(a, b)
        return cd / n0

    return _batched_coefficient(fn, x, y, axis)


def kendall_tau_b(x, y, axis=-1):
    """Kendall's τ_b: :func:`scipy.stats.kendalltau`'s number (``variant="b"``), bit for bit.

    τ_b = (C − D) / sqrt((n0 − n1)(n0 − n2)) with n0 = S(S−1)/2 and n1, n2 the
    numbers of tied pairs in ``x`` and ``y``.

    Parameters
    ----------
    x, y : array_like
        Arrays of the same shape ``(..., S)``.
    axis : int
        Axis holding the S items.

    Returns
    -------
    numpy.ndarray
        Shape ``(...)``; NaN where ``x`` or ``y`` has a NaN or is constant.

    Examples
    --------
    >>> float(kendall_tau_b([1, 2, 2, 4], [1, 3, 2, 4]))
    0.912...
    >>> kendall_tau_b([[1, 2, 3], [1, 2, 3]], [[1, 2, 3], [3, 2, 1]]).tolist()
    [1.0, -1.0]
    """
    return rank_agreement(*_prepare(x, y, axis)).tau_b


def kendall_tau(x, y, axis=-1):
    """Kendall's τ; the same as :func:`kendall_tau_b` (and τ_a when there are no ties).

    Examples
    --------
    >>> float(kendall_tau([0.3, 0.2, 0.1], [0.9, 0.5, 0.7]))
    0.333...
    """
    return kendall_tau_b(x, y, axis=axis)


def _above_matrix(v: np.ndarray) -> np.ndarray:
    """``above[b, i, j]``: item j scores strictly higher than item i (ranks above it)."""
    return v[:, None, :] > v[:, :, None]


def _tau_ap_no_ties(x, y):
    # Yilmaz et al.: item i at position p_i (1-based, by x); C(i) counts items above
    # it in x that are above it in y too; τ_AP = 2/(S−1) Σ_{p_i ≥ 2} C(i)/(p_i − 1) − 1.
    s = x.shape[-1]
    above_x = _above_matrix(x)
    above_y = _above_matrix(y)
    pos = 1 + above_x.sum(axis=2)  # 1-based position of each item in x
    conc = np.count_nonzero(above_x & above_y, axis=2)
    with np.errstate(divide="ignore", invalid="ignore"):
        term = np.where(pos > 1, conc / (pos - 1), 0.0)
    return 2.0 / (s - 1) * term.sum(axis=1) - 1.0


def _has_ties(v: np.ndarray) -> np.ndarray:
    v = np.sort(v, axis=-1)
    return (np.diff(v, axis=-1) == 0).any(axis=-1)


def tau_ap(x, y, axis=-1):
    """AP correlation τ_AP of Yilmaz, Aslam & Robertson (SIGIR 2008), without ties.

    ``x`` is the estimated ranking (its positions give the top weighting) and ``y``
    the reference ranking; higher scores rank first. Not symmetric.

    Parameters
    ----------
    x, y : array_like
        Arrays of the same shape ``(..., S)``: estimated and reference scores.
    axis : int
        Axis holding the S items.

    Returns
    -------
    numpy.ndarray
        Shape ``(...)``. NaN where ``x`` or ``y`` has a NaN **or a tie** (τ_AP is
        not defined with ties; use :func:`tau_ap_a` or :func:`tau_ap_b`).

    Examples
    --------
    >>> float(tau_ap([0.9, 0.8, 0.7, 0.6], [0.9, 0.8, 0.6, 0.7]))
    0.777...
    >>> float(tau_ap([0.9, 0.8, 0.7, 0.6], [0.8, 0.9, 0.7, 0.6]))
    0.333...
    """
    def fn(a, b):
        out = _tau_ap_no_ties(a, b)
        out[_has_ties(a) | _has_ties(b)] = np.nan
        return out

    return _batched_coefficient(fn, x, y, axis)


def _harmonic(n: int) -> np.ndarray:
    """H[m] = 1 + 1/2 + … + 1/m for m = 0..n (H[0] = 0)."""
    return np.concatenate([[0.0], np.cumsum(1.0 / np.arange(1, n + 1))])


def _tau_ap_a_kernel(x, y):
    # Urbano & Marrero (ICTIR 2017), accuracy scenario: ties allowed in the
    # estimate x, averaged over all orderings of each tie group. For item i with
    # tie group starting at position p (1-based) and of size t:
    #   term I  = c_above · (1/t) Σ_{k=1..t} 1/(p + k − 2)   (p ≥ 2)
    #   term II = (1/(2t)) Σ_{k=1..t−1} k/(p + k − 1)
    # with c_above = items strictly above i's group in x that are above i in y;
    # τ_AP,a = 2/(S − 1) Σ_i (term I + term II) − 1.
    s = x.shape[-1]
    h = _harmonic(2 * s)
    above_x = _above_matrix(x)
    p = 1 + above_x.sum(axis=2)
    t = np.count_nonzero(x[:, None, :] == x[:, :, None], axis=2)
    c_above = np.count_nonzero(above_x & _above_matrix(y), axis=2)
    hi = h[p + t - 2]
    s_above = np.where(p > 1, (hi - h[np.maximum(p - 2, 0)]) / t, 0.0)
    # Σ_{k=1}^{t-1} k/(p+k-1) = (t − 1) − (p − 1)(H[p+t−2] − H[p−1])
    within = ((t - 1) - (p - 1) * (hi - h[p - 1])) / (2 * t)
    return 2.0 / (s - 1) * (c_above * s_above + within).sum(axis=1) - 1.0


def tau_ap_a(x, y, axis=-1):
    """Tie-aware AP correlation τ_AP,a of Urbano & Marrero (ICTIR 2017), accuracy scenario.

    The estimate ``x`` may contain ties (the expected τ_AP over all orderings of
    its tie groups, computed in closed form); the reference ``y`` must not.
    Equal to :func:`tau_ap` without ties; ircor's ``tauAP_a(y, x)``.

    Parameters
    ----------
    x, y : array_like
        Arrays of the same shape ``(..., S)``: estimated and reference scores.
    axis : int
        Axis holding the S items.

    Returns
    -------
    numpy.ndarray
        Shape ``(...)``; NaN where ``x`` or ``y`` has a NaN or ``y`` has ties.

    Examples
    --------
    >>> float(tau_ap_a([0.9, 0.8, 0.8, 0.6], [0.9, 0.8, 0.7, 0.6]))
    0.833...
    """
    def fn(a, b):
        out = _tau_ap_a_kernel(a, b)
        out[_has_ties(b)] = np.nan
        return out

    return _batched_coefficient(fn, x, y, axis)


def tau_ap_b(x, y, axis=-1):
    """Tie-aware AP correlation τ_AP,b of Urbano & Marrero (ICTIR 2017), agreement scenario.

    Both rankings may contain ties; the coefficient is the mean of the two
    directions, so it is symmetric: ``tau_ap_b(x, y) == tau_ap_b(y, x)``. As in
    ircor's ``tauAP_b``.

    Parameters
    ----------
    x, y : array_like
        Arrays of the same shape ``(..., S)``.
    axis : int
        Axis holding the S items.

    Returns
    -------
    numpy.ndarray
        Shape ``(...)``; NaN where ``x`` or ``y`` has a NaN or is constant.

    Examples
    --------
    >>> float(tau_ap_b([0.9, 0.8, 0.8, 0.6], [0.9, 0.7, 0.8, 0.6]))
    0.833...
    """
    return rank_agreement(*_prepare(x, y, axis)).tau_ap_b


class RankAgreement(NamedTuple):
    """Kendall's τ_b and the AP correlation τ_AP,b of two rankings (:func:`rank_agreement`)."""

    tau_b: np.ndarray
    tau_ap_b: np.ndarray


def rank_agreement(x, y, axis=-1) -> RankAgreement:
    """Kendall's τ_b and τ_AP,b together, from one set of comparison matrices.

    Both coefficients count, for each item, the items above it in ``x``, in ``y`` and in
    both: one pair of S × S comparison matrices per batch element serves both, which
    costs about what one of :func:`kendall_tau_b` or :func:`tau_ap_b` did alone. When
    ``y`` is the same for several ``x`` (a reference ranking against several scoring
    schemes: ``y`` has size 1 along the trailing batch axes of ``x``), its matrices are
    built once and shared. Equal to :func:`kendall_tau_b` and :func:`tau_ap_b`, bit for
    bit.

    Parameters
    ----------
    x, y : array_like
        ``(..., S)`` arrays; ``y`` broadcasts against ``x``.
    axis : int
        Axis holding the S items.

    Returns
    -------
    RankAgreement
        ``tau_b`` and ``tau_ap_b``, each of the broadcast batch shape; NaN where ``x`` or
        ``y`` has a NaN or is constant.

    Examples
    --------
    >>> r = rank_agreement([[0.9, 0.8, 0.8, 0.6], [0.1, 0.2, 0.3, 0.4]], [0.9, 0.7, 0.8, 0.6])
    >>> r.tau_b.round(3).tolist(), r.tau_ap_b.round(3).tolist()
    ([0.913, -0.667], [0.833, -0.667])
    """
    x = np.moveaxis(np.asarray(x, dtype=float), axis, -1)
    y = np.moveaxis(np.asarray(y, dtype=float), axis, -1)
    shape = np.broadcast_shapes(x.shape, y.shape)
    s = shape[-1]
    if s < 2:
        raise ValueError(f"need at least 2 items to correlate, got {s}")
    x = np.broadcast_to(x, shape)
    # y as (groups, 1, S) against x as (groups, repeats, S) when y repeats along the
    # trailing batch axes; otherwise one y row per x row
    y_shape = (1,) * (len(shape) - y.ndim) + y.shape
    lead = len(shape) - 1
    while lead > 0 and y_shape[lead - 1] == 1:
        lead -= 1
    groups = int(np.prod(shape[:lead], dtype=np.int64))
    xg = x.reshape(groups, int(np.prod(shape[lead:-1], dtype=np.int64)), s)
    yg = np.broadcast_to(y.reshape(y_shape), shape[:lead] + y_shape[lead:]).reshape(groups, s)
    tau_b = np.full(xg.shape[:2], np.nan)
    tau_ap_b = np.full(xg.shape[:2], np.nan)
    bad_x = np.isnan(xg).any(axis=-1)
    bad_y = np.isnan(yg).any(axis=-1)
    repeats = xg.shape[1]
    step = max(1, AGREEMENT_CELLS // (s * s * repeats))
    ws = workspace()
    for g0 in range(0, groups, step):
        g1 = min(groups, g0 + step)
        _agreement_chunk(xg[g0:g1], yg[g0:g1], tau_b[g0:g1], tau_ap_b[g0:g1], ws)
    nan = bad_x | bad_y[:, None]
    tau_b[nan] = np.nan
    tau_ap_b[nan] = np.nan
    return RankAgreement(tau_b.reshape(shape[:-1]), tau_ap_b.reshape(shape[:-1]))


def _row_counts(m: np.ndarray) -> np.ndarray:
    """Number of True in each row (last axis) of a boolean array."""
    return m.view(np.uint8).sum(axis=-1, dtype=np.int32)


def _agreement_chunk(x, y, tau_b, tau_ap_b, ws) -> None:
    """τ_b and τ_AP,b of x (G, R, S) against y (G, S), written into (G, R) outputs.

    With ``above_v[i, j] = v_j > v_i``: concordant pairs are the cells of
    ``above_x & above_y``, discordant ones those of ``above_x & below_y`` (``below_y[i,
    j] = y_i > y_j``); a pair tied in x is in neither of ``above_x`` and its transpose.
    """
    g, r, s = x.shape
    above_y = ws.array("agree_above_y", (g, 1, s, s), bool)
    np.greater(y[:, None, None, :], y[:, None, :, None], out=above_y)
    below_y = ws.array("agree_below_y", (g, 1, s, s), bool)
    np.greater(y[:, None, :, None], y[:, None, None, :], out=below_y)
    above_x = ws.array("agree_above_x", (g, r, s, s), bool)
    np.greater(x[:, :, None, :], x[:, :, :, None], out=above_x)
    both = ws.array("agree_both", (g, r, s, s), bool)
    p_x = 1 + _row_counts(above_x)  # (g, r, s): 1-based position (tie group start) in x
    p_y = 1 + _row_counts(above_y)  # (g, 1, s)
    np.logical_and(above_x, above_y, out=both)
    c_above = _row_counts(both)  # items above in both, per item
    np.logical_and(above_x, below_y, out=both)
    discordant = _row_counts(both).sum(axis=-1, dtype=np.int64)
    concordant = c_above.sum(axis=-1, dtype=np.int64)
    n0 = s * (s - 1) / 2
    # untied pairs appear once in the above matrix; the rest are ties
    ties_x = n0 - (p_x - 1).sum(axis=-1, dtype=np.int64)
    ties_y = n0 - (p_y - 1).sum(axis=-1, dtype=np.int64)
    cd = (concordant - discordant).astype(np.float64)
    with np.errstate(invalid="ignore", divide="ignore"):
        # scipy.stats.kendalltau's operations in its order and its clip: its number, bit
        # for bit (the counts are exact integers in float64)
        tau_b[...] = np.clip(cd / np.sqrt(n0 - ties_x) / np.sqrt(n0 - ties_y), -1.0, 1.0)
    c_above = c_above.reshape(g * r, s)
    p_x = p_x.reshape(g * r, s)
    p_y = np.broadcast_to(p_y, (g, r, s)).reshape(g * r, s)
    tau_ap_b[...] = ((_tau_ap_b_direction(c_above, p_y) + _tau_ap_b_direction(c_above, p_x))
                     / 2).reshape(g, r)


def _tau_ap_b_direction(c_above: np.ndarray, p: np.ndarray) -> np.ndarray:
    # One direction of τ_AP,b: positions p (tie group start, 1-based) by one ranking; item
    # i with p ≥ 2 scores c_above/(p − 1), c_above = items strictly above i in both
    # rankings; average over the items not in the top group.
    not_top = p > 1
    with np.errstate(divide="ignore", invalid="ignore"):
        total = np.where(not_top, c_above / (p - 1), 0.0).sum(axis=1)
        return 2.0 * total / not_top.sum(axis=1) - 1.0


def pearson(x, y, axis=-1):
    """Pearson's linear correlation coefficient.

    Parameters
    ----------
    x, y : array_like
        Arrays of the same shape ``(..., S)``.
    axis : int
        Axis holding the S items.

    Returns
    -------
    numpy.ndarray
        Shape ``(...)``; NaN where ``x`` or ``y`` has a NaN or is constant.

    Examples
    --------
    >>> float(pearson([1.0, 2.0, 3.0], [2.0, 4.0, 7.0]))
    0.993...
    """
    x, y = _prepare(x, y, axis)
    xc = x - x.mean(axis=-1, keepdims=True)
    yc = y - y.mean(axis=-1, keepdims=True)
    num = (xc * yc).sum(axis=-1)
    den = np.sqrt((xc * xc).sum(axis=-1) * (yc * yc).sum(axis=-1))
    with np.errstate(invalid="ignore", divide="ignore"):
        r = num / den
    return np.clip(r, -1.0, 1.0)


def spearman(x, y, axis=-1):
    """Spearman's ρ: Pearson's correlation of the (average) ranks.

    Examples
    --------
    >>> float(spearman([0.1, 0.5, 0.3], [1.0, 3.0, 2.0]))
    1.0
    """
    x, y = _prepare(x, y, axis)
    rx = stats.rankdata(x, axis=-1, nan_policy="propagate")
    ry = stats.rankdata(y, axis=-1, nan_policy="propagate")
    return pearson(rx, ry)
