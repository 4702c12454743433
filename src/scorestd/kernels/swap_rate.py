"""Swap counts of system pairs between two disjoint topic sets (numpy only).

Used by :func:`scorestd.experiments.swap_rates.swap_rate`; one call handles a batch of trials (topic
permutations) for every scheme and topic set size.
"""

from __future__ import annotations

import numpy as np

from .paired import pair_indices

__all__ = ["swap_counts"]


def swap_counts(x: np.ndarray, perms: np.ndarray, sizes: np.ndarray, bin_width: float,
                n_bins: int) -> dict[str, np.ndarray]:
    """Pairs and swaps per (scheme, size, bin) for a batch of topic permutations.

    Parameters
    ----------
    x : numpy.ndarray
        Complete scores ``(K, T, S)`` (K schemes).
    perms : numpy.ndarray
        ``(b, T)`` topic permutations, one per trial.
    sizes : numpy.ndarray
        Topic set sizes n (each ≤ T / 2).
    bin_width : float
        Width of the bins of ``|d_A|``; the last bin takes everything beyond.
    n_bins : int
        Number of bins.

    Returns
    -------
    dict
        ``pairs`` and ``swaps``, each ``(1, K, len(sizes), n_bins)`` integer counts
        summed over the batch (a leading axis of one so that batches concatenate).

    Examples
    --------
    >>> x = np.array([[[0.1, 0.2], [0.3, 0.1], [0.2, 0.4], [0.5, 0.4]]])
    >>> out = swap_counts(x, np.array([[0, 1, 2, 3]]), np.array([1, 2]), 0.1, 3)
    >>> out["pairs"][0, 0].tolist(), out["swaps"][0, 0].tolist()
    ([[0, 1, 0], [1, 0, 0]], [[0, 1, 0], [1, 0, 0]])
    """
    k_schemes = x.shape[0]
    i, j = pair_indices(x.shape[-1])
    permuted = x[:, perms]  # (K, b, T, S)
    cum = np.cumsum(permuted, axis=2)
    pairs = np.zeros((k_schemes, len(sizes), n_bins), dtype=np.int64)
    swaps = np.zeros_like(pairs)
    offsets = (np.arange(k_schemes) * n_bins)[:, None, None]
    for s, n in enumerate(sizes):  # a handful of sizes; everything else is vectorised
        mean_a = cum[:, :, n - 1] / n
        mean_b = (cum[:, :, 2 * n - 1] - cum[:, :, n - 1]) / n
        d_a = mean_a[..., i] - mean_a[..., j]  # (K, b, P)
        d_b = mean_b[..., i] - mean_b[..., j]
        bins = np.minimum(np.floor(np.abs(d_a) / bin_width + 1e-9), n_bins - 1).astype(np.int64)
        flat = (bins + offsets).ravel()
        size = k_schemes * n_bins
        pairs[:, s] = np.bincount(flat, minlength=size).reshape(k_schemes, n_bins)
        swapped = (d_a * d_b < 0).ravel()
        swaps[:, s] = np.bincount(flat[swapped], minlength=size).reshape(k_schemes, n_bins)
    return {"pairs": pairs[None], "swaps": swaps[None]}
