"""One reading of ``seed=``: the root ``SeedSequence`` of a computation, and its record.

Every function that draws random numbers through ``SeedSequence.spawn`` starts from
:func:`root_sequence`, so all of them accept the same seeds and give the same answer for
the same seed:

- a non-negative integer: ``SeedSequence(seed)``;
- a ``numpy.random.SeedSequence``: a copy of it (same entropy, spawn key, pool size and
  children spawned so far), so the caller's object is never advanced and passing it
  again gives the same answer;
- a ``numpy.random.Generator`` or ``BitGenerator``: a ``SeedSequence`` of 128 bits drawn
  from it (the generator advances, as generators do; the drawn entropy is recorded);
- ``None``: fresh entropy from the operating system where the caller allows it.

:func:`seed_record` is what results store in ``attrs["seed"]`` to reproduce the run: the
integer entropy (its digits when it does not fit 64 bits), or a ``SeedSequence(...)``
text when there is a spawn key or children.
"""

from __future__ import annotations

import numbers
from typing import Any

import numpy as np

from .._options import check_seed
from ..errors import OptionError

__all__ = ["child_sequence", "root_sequence", "seed_record"]


def root_sequence(seed: Any, *, required: bool = False,
                  why: str = "results must be reproducible") -> np.random.SeedSequence:
    """The root ``SeedSequence`` of ``seed`` (a fresh object the caller may spawn from).

    Parameters
    ----------
    seed : int, numpy.random.SeedSequence, Generator, BitGenerator or None
        See the module's description.
    required : bool
        Refuse ``None`` (with ``why`` in the message) instead of drawing fresh entropy.

    Raises
    ------
    OptionError
        For anything else (a negative integer, a float, a string, a bool).
    ValueError
        For ``None`` when ``required``.

    Examples
    --------
    >>> import numpy as np
    >>> parent = np.random.SeedSequence(7)
    >>> root = root_sequence(parent)
    >>> _ = root.spawn(3)
    >>> parent.n_children_spawned, root_sequence(parent).entropy
    (0, 7)
    >>> root_sequence(np.random.default_rng(1)).entropy == root_sequence(
    ...     np.random.default_rng(1)).entropy
    True
    """
    check_seed("seed", seed, required=False)
    if seed is None:
        if required:
            raise ValueError(f"seed= is required: {why}")
        return np.random.SeedSequence()
    if isinstance(seed, np.random.SeedSequence):
        return np.random.SeedSequence(seed.entropy, spawn_key=seed.spawn_key,
                                      pool_size=seed.pool_size,
                                      n_children_spawned=seed.n_children_spawned)
    if isinstance(seed, np.random.BitGenerator):
        seed = np.random.Generator(seed)
    if isinstance(seed, np.random.Generator):
        high, low = seed.integers(0, 2**64, size=2, dtype=np.uint64).tolist()
        return np.random.SeedSequence((high << 64) | low)
    if isinstance(seed, numbers.Integral):
        return np.random.SeedSequence(int(seed))
    raise OptionError(f"seed: a {type(seed).__name__} cannot be read; pass an integer, a "
                      f"numpy.random.SeedSequence or a Generator")


def child_sequence(root: np.random.SeedSequence, *key: int) -> np.random.SeedSequence:
    """The descendant of ``root`` at ``key``: ``child_sequence(root, k)`` is what
    ``root.spawn`` gives as child ``k``, made without spawning the others.

    Examples
    --------
    >>> root = np.random.SeedSequence(7)
    >>> bool((child_sequence(root, 2).generate_state(2)
    ...       == np.random.SeedSequence(7).spawn(3)[2].generate_state(2)).all())
    True
    """
    return np.random.SeedSequence(root.entropy, spawn_key=(*root.spawn_key, *map(int, key)),
                                  pool_size=root.pool_size)


def seed_record(root: np.random.SeedSequence) -> int | str:
    """What ``attrs["seed"]`` records of ``root``: enough to run the same again.

    Examples
    --------
    >>> seed_record(root_sequence(2019))
    2019
    >>> seed_record(np.random.SeedSequence(5).spawn(2)[1])
    'SeedSequence(entropy=5, spawn_key=(1,))'
    """
    plain = not root.spawn_key and not root.n_children_spawned
    if plain and isinstance(root.entropy, int):
        # netCDF attributes hold 64-bit integers: larger entropy is kept as its digits
        return int(root.entropy) if root.entropy < 2**63 else str(root.entropy)
    text = f"SeedSequence(entropy={root.entropy}"
    if root.spawn_key:
        text += f", spawn_key={tuple(root.spawn_key)}"
    if root.n_children_spawned:
        text += f", n_children_spawned={root.n_children_spawned}"
    return text + ")"
