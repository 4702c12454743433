"""Random streams that depend on the trial, never on how trials are chunked.

Trials are grouped in fixed blocks of :data:`BLOCK` trials; block ``k`` draws from its
own generator, seeded by ``SeedSequence(seed, spawn_key=(k, stream))`` (the ``k``-th
child of ``SeedSequence(seed).spawn``, without spawning the others). A chunk of trials
is computed from the whole blocks that cover it, drawn in full and sliced, so trial
``t`` gets the same numbers whatever the chunk size, the number of trials or the
number of dask workers.
"""

from __future__ import annotations

import numpy as np

from ..kernels import seeds

__all__ = ["BLOCK", "block_generator", "blocks", "root_sequence"]

#: Trials per random block.
BLOCK = 64


def root_sequence(seed: int | np.random.SeedSequence | None) -> np.random.SeedSequence:
    """The root ``SeedSequence`` of ``seed``; ``seed=None`` is refused (reproducibility)."""
    return seeds.root_sequence(seed, required=True, why="simulations must be reproducible")


def block_generator(root: np.random.SeedSequence, block: int, stream: int = 0
                    ) -> np.random.Generator:
    """The generator of block ``block`` (and independent ``stream``) under ``root``.

    Examples
    --------
    >>> root = root_sequence(3)
    >>> a = block_generator(root, 5).random(2)
    >>> bool((a == block_generator(root_sequence(3), 5).random(2)).all())
    True
    """
    return np.random.default_rng(seeds.child_sequence(root, block, stream))


def blocks(start: int, stop: int, block: int = BLOCK) -> list[tuple[int, slice]]:
    """The blocks covering trials ``[start, stop)``: ``(block index, slice of it kept)``.

    Examples
    --------
    >>> blocks(60, 130)
    [(0, slice(60, 64, None)), (1, slice(0, 64, None)), (2, slice(0, 2, None))]
    """
    out = []
    for k in range(start // block, (stop - 1) // block + 1):
        lo, hi = max(start, k * block) - k * block, min(stop, (k + 1) * block) - k * block
        out.append((k, slice(lo, hi)))
    return out
