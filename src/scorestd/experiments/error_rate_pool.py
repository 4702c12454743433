"""The fitted pool of an error-rate study: margins and pair copulas, fitted once, kept.

An error-rate study (:func:`scorestd.error_rates`) draws its trials from the margins of
every kept run of every collection and, with ``copula="vine"`` (the paper's method),
from a bivariate copula per pair of runs. Fitting those copulas is the slow part (about
25–35 ms a pair by maximum likelihood, thousands of pairs per measure); the same fits
serve every topic set size, effect, trial count and seed. :class:`ErrorRatePool` holds
them per measure, fits the pairs a study draws the first time they are drawn, and is
saved to (and read from) one ``.npz`` file, written atomically.
"""

from __future__ import annotations

import json
import os
import warnings
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import xarray as xr

from .._options import (
    UNRECORDED_PAIR_FAMILIES,
    PairFamilies,
    SimulationCopula,
    check_fits_memory,
    check_option,
    memory_budget,
)
from ..dims import MEASURE, SYSTEM, TOPIC
from ..errors import OptionError, ScoreDataError, ScorestdWarning, warn
from ..io.atomic import atomic_output
from ..io.netcdf import content_digest
from ..kernels import pair_copulas
from ..measures import find_measure
from ..simulation.copula import GaussianCopula, fit_pair_copula
from ..simulation.fitting import fit_margins, one_measure

__all__ = ["ErrorRatePool", "margin_cache_bytes", "prepare_collection"]

#: Pair copulas fitted per task on a cluster (each fit takes about 25–35 ms).
PAIRS_PER_TASK = 256
#: Bytes of one pair's copula as a client gathers it: a row of six float64 in an array
#: object of its own (``sys.getsizeof(np.zeros(6))``).
GATHERED_BYTES_PER_PAIR = 160
#: Columns of a fitted pair copula: family code, rotation, three parameters, Kendall τ.
_ROW = 6


def prepare_collection(scores: Any, measure: str | None = None, *,
                       bottom: float = 0.1, tol: float = 1e-5) -> xr.DataArray:
    """The runs the paper keeps: duplicates (equal to ``tol`` on every topic) and the
    bottom ``bottom`` fraction by mean score removed.

    Examples
    --------
    >>> import scorestd
    >>> kept = prepare_collection(scorestd.datasets.load("adhoc8"), "ap")
    >>> kept.sizes["system"] < scorestd.datasets.load("adhoc8").sizes["system"]
    True
    """
    one = one_measure(scores, measure)
    x = np.asarray(one.values, dtype=np.float64)
    keep = np.ones(x.shape[1], dtype=bool)
    for j in range(1, x.shape[1]):  # a later run equal to an earlier one is dropped
        same = np.all(np.abs(x[:, :j] - x[:, j:j + 1]) <= tol, axis=0)
        if same.any():
            keep[j] = False
    one = one.isel({SYSTEM: keep})
    means = one.mean(TOPIC).values
    return one.isel({SYSTEM: means >= np.quantile(means, bottom)})


@dataclass
class MeasurePool:
    """The margins of one measure across collections, as arrays, and its pair copulas."""

    measure: str
    collections: list[str]
    offsets: np.ndarray  # first margin of each collection
    sizes: np.ndarray  # runs per collection
    tables: np.ndarray  # (M, K)
    support: np.ndarray | None
    means: np.ndarray  # (M,)
    observed_means: np.ndarray  # (M,)
    corr: list[np.ndarray]  # per collection
    scores: list[np.ndarray]  # per collection, the kept runs' scores (T, S)
    failures: int
    families: dict[str, int]
    fitted: dict[tuple[int, int, int], np.ndarray] = field(default_factory=dict)
    fallbacks: int = 0
    pair_families: str = "bicopselect"

    def pair_copulas(self, keys: np.ndarray, client: Any = None,
                     memory: int | str | None = None) -> np.ndarray:
        """Rows ``(P, 6)`` (family code, rotation, parameters, τ) of the copula of each
        ``(collection, i, j)`` (``i < j``), fitted the first time it is asked for.

        The fits are independent and deterministic (ties broken at random with a
        generator seeded by the pair): with a ``client`` the new ones are shared out
        among the cluster's workers (the same copulas, sooner). What the client gathers
        back is checked against the memory budget ``memory`` (as
        :func:`scorestd.simulate`'s) before anything is submitted.
        """
        new = [key for key in dict.fromkeys(map(tuple, keys.tolist())) if key not in self.fitted]
        if client is not None and len(new) > PAIRS_PER_TASK:
            check_fits_memory(len(new) * GATHERED_BYTES_PER_PAIR, memory,
                              f"the copulas of {len(new)} pairs gathered from the cluster",
                              instead="fit fewer pairs at once")
            [scores] = client.scatter([self.scores], broadcast=True)
            parts = [new[a:a + PAIRS_PER_TASK] for a in range(0, len(new), PAIRS_PER_TASK)]
            futures = client.map(_fit_pairs, parts, scores=scores,
                                 families=self.pair_families, pure=False)
            results = client.gather(futures)
        else:
            parts = [new]
            threads = min(4, os.cpu_count() or 1)  # the families of one pair, in parallel
            results = [_fit_pairs(new, self.scores, threads, self.pair_families)]
        for part, (rows, fallbacks) in zip(parts, results, strict=True):
            self.fitted.update(zip(part, rows, strict=True))
            self.fallbacks += fallbacks
        if not len(keys):
            return np.empty((0, _ROW))
        return np.array([self.fitted[key] for key in map(tuple, keys.tolist())])


def _fit_pairs(keys: Sequence[tuple[int, int, int]], scores: Sequence[np.ndarray],
               threads: int = 1, families: str = "bicopselect"
               ) -> tuple[list[np.ndarray], int]:
    """The copula rows of each ``(collection, i, j)`` of ``keys`` and the fallbacks used."""
    rows, fallbacks = [], 0
    for c, i, j in keys:
        row, fell_back = fit_pair_copula(scores[c][:, [i, j]], seed=(c, i, j),
                                         threads=threads, families=families)
        rows.append(row)
        fallbacks += fell_back
    return rows, fallbacks


def _measure_pool(cubes: Mapping[str, Any], measure: str, cache_bytes: int) -> MeasurePool:
    tables, means, observed, corr, names, sizes, scores = [], [], [], [], [], [], []
    failures, families, support = 0, {}, None
    for name, cube in cubes.items():
        if find_measure(measure, cube[MEASURE].values, what=f"collection {name!r}",
                        required=False) is None:
            continue
        kept = prepare_collection(cube, measure)
        if kept.sizes[SYSTEM] < 2:
            warn(f"collection {name!r} keeps {kept.sizes[SYSTEM]} run of measure {measure!r} "
                 "after removing duplicates and the bottom 10%: it is left out of the study "
                 "(a trial needs two runs of one collection)")
            continue
        margins = _fitted_margins(kept, cache_bytes)
        failures += margins.failures
        for fam, count in pd.Series(margins.family).value_counts().items():
            families[fam] = families.get(fam, 0) + int(count)
        x = np.asarray(kept.values, dtype=np.float64)
        tables.append(margins.table)
        means.append(margins.mean)
        observed.append(x.mean(axis=0))
        corr.append(GaussianCopula.fit(x).corr)
        scores.append(x)
        names.append(name)
        sizes.append(len(margins.mean))
        support = margins.support
    if not names:
        raise ScoreDataError(f"no collection has two or more usable runs of measure {measure!r}")
    sizes = np.array(sizes)
    return MeasurePool(measure, names, np.concatenate([[0], np.cumsum(sizes)[:-1]]), sizes,
                       np.vstack(tables), support, np.concatenate(means),
                       np.concatenate(observed), corr, scores, failures, families)


@dataclass(frozen=True, eq=False)
class _FittedMargins:
    """What a pool keeps of one collection's fitted margins (read-only arrays)."""

    table: np.ndarray  # (S, K)
    mean: np.ndarray  # (S,)
    support: np.ndarray | None
    family: np.ndarray  # (S,) labels
    failures: int  # warnings of the fit

    @property
    def nbytes(self) -> int:
        return sum(a.nbytes for a in (self.table, self.mean, self.support, self.family)
                   if a is not None)


#: Margins fitted in this process, by the fit and the digest of the scores it was given
#: (labels, values, attrs), most recently used last: a second pool over the same
#: collections (another family set, a pool read from a file) reuses them instead of
#: refitting (seconds a collection). At most :data:`MARGIN_CACHE_SHARE` of the memory
#: budget of the pool that last used it are kept (:func:`margin_cache_bytes`).
_MARGIN_CACHE: OrderedDict[tuple[Any, str], _FittedMargins] = OrderedDict()
#: Share of the memory budget (``memory=``) that the fitted margins kept for later pools
#: may take, the least recently used going first: half, 128 MiB of the default 256 MiB
#: (the margins of the default study's collections and five measures take about 26 MiB:
#: 33 kB a continuous margin, 10 kB an RR one).
MARGIN_CACHE_SHARE = 0.5


def margin_cache_bytes(memory: int | str | None = None) -> int:
    """Bytes of fitted margins kept between pools under the memory budget ``memory``
    (:func:`scorestd._options.memory_budget`): :data:`MARGIN_CACHE_SHARE` of it.

    Examples
    --------
    >>> margin_cache_bytes("64MiB") == 32 * 2**20, margin_cache_bytes() == 128 * 2**20
    (True, True)
    """
    return int(MARGIN_CACHE_SHARE * memory_budget(memory))


def _fitted_margins(kept: xr.DataArray, cache_bytes: int) -> _FittedMargins:
    """The margins of the kept runs ``(topic, system)`` of one measure, fitted once per
    process for the same scores (the fit is deterministic; its warnings are counted,
    not shown); the margins kept for later are then trimmed to ``cache_bytes``."""
    # the fit is part of the key: margins fitted another way (fit_margins replaced, as a
    # study of other margin families does) are not reused
    key = (fit_margins,
           content_digest(kept.expand_dims(MEASURE).transpose(TOPIC, SYSTEM, MEASURE)))
    if key in _MARGIN_CACHE:
        _MARGIN_CACHE.move_to_end(key)
        fitted = _MARGIN_CACHE[key]
        _trim_margin_cache(cache_bytes)  # a smaller budget than the pool before's
        return fitted
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", ScorestdWarning)
        margins = fit_margins(kept)
    failures = sum(issubclass(w.category, ScorestdWarning) for w in caught)
    # the fit's own table and means (no copy: the fit is dropped; the support may be
    # shared with other fits, it is copied), read-only as every pool that reuses them
    # shares them
    support = None if margins.support is None else np.array(margins.support)
    arrays = [np.asarray(margins.table), np.asarray(margins.mean), support, margins.family]
    for a in arrays:
        if a is not None:
            a.flags.writeable = False
    fitted = _FittedMargins(*arrays, failures)
    _MARGIN_CACHE[key] = fitted
    _trim_margin_cache(cache_bytes)
    return fitted


def _trim_margin_cache(nbytes: int) -> None:
    """Drop the least recently used margins until those kept take at most ``nbytes``
    (margins larger than that on their own are not kept: the pool holds them)."""
    total = sum(m.nbytes for m in _MARGIN_CACHE.values())
    while total > nbytes and _MARGIN_CACHE:
        total -= _MARGIN_CACHE.popitem(last=False)[1].nbytes


class ErrorRatePool:
    """Fitted margins and pair copulas of an error-rate study, per measure.

    Built by :func:`scorestd.error_rates` (``pool=``) or directly; a pool serves
    studies at any topic set size, effect, trial count or seed on the same collections,
    and grows as they draw pairs not fitted yet. Margins are fitted once per process for
    the same scores: another pool over the same collections (another family set, a pool
    read with :meth:`load`) reuses them, from the margins kept in the process: at most
    half the memory budget of the pool that last fitted or reused margins
    (``error_rate_pool.MARGIN_CACHE_SHARE``; 128 MiB of the default 256 MiB), the least
    recently used dropped first. Keeping them or not changes no result, only whether a
    later pool refits them.

    Parameters
    ----------
    collections : mapping of name to cube
        The collections.
    pair_families : {"bicopselect", "vinecopulib"}
        Family set and selection of the pair copulas
        (:func:`~scorestd.simulation.copula.fit_pair_copula`): R VineCopula's
        ``BiCopSelect`` defaults, the paper's (default), or ``pyvinecopulib``'s.
    memory : int or str, optional
        Memory budget in bytes or as ``"512MB"`` (default ``$SCORESTD_MEMORY``, else
        256 MiB): when ``pool[measure]`` is asked for, the fitted margins kept in the
        process for later pools are trimmed to half of it (:meth:`measure_pool` takes
        another budget; :func:`scorestd.error_rates` gives its own).

    Examples
    --------
    >>> import scorestd, tempfile, pathlib
    >>> pool = ErrorRatePool({"adhoc8": scorestd.datasets.load("adhoc8")})
    >>> pool["ap"].sizes.tolist()
    [114]
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "pool.npz"
    >>> pool.save(path)
    >>> ErrorRatePool.load(path, {"adhoc8": scorestd.datasets.load("adhoc8")})["ap"].sizes.tolist()
    [114]
    """

    def __init__(self, collections: Mapping[str, Any], *,
                 pair_families: PairFamilies = "bicopselect",
                 memory: int | str | None = None) -> None:
        self.cubes = dict(collections)
        self.pair_families = check_option(pair_families, PairFamilies, "pair_families")
        memory_budget(memory)  # a bad budget is refused here, not at the first measure
        self.memory = memory
        self._measures: dict[str, MeasurePool] = {}
        # pair copulas read from a file (keys, rows, fallbacks), by measure: the margins
        # of a measure are fitted when a study first asks for it
        self._saved: dict[str, tuple[np.ndarray, np.ndarray, int]] = {}

    @property
    def collections(self) -> list[str]:
        """Names of the collections."""
        return list(self.cubes)

    def __getitem__(self, measure: str) -> MeasurePool:
        return self.measure_pool(measure)

    def measure_pool(self, measure: str, *, memory: int | str | None = None) -> MeasurePool:
        """The margins and pair copulas of ``measure`` (``pool[measure]``), its margins
        fitted (or taken from those kept in the process) the first time it is asked for;
        the margins kept for later pools are then trimmed to half the memory budget
        ``memory`` (default: the pool's ``memory``).

        Examples
        --------
        >>> import scorestd
        >>> pool = ErrorRatePool({"adhoc8": scorestd.datasets.load("adhoc8")})
        >>> pool.measure_pool("ap", memory="64MiB") is pool["ap"]
        True
        """
        cache_bytes = margin_cache_bytes(self.memory if memory is None else memory)
        if measure not in self._measures:
            pool = _measure_pool(self.cubes, measure, cache_bytes)
            pool.pair_families = self.pair_families
            if measure in self._saved:
                keys, rows, pool.fallbacks = self._saved.pop(measure)
                pool.fitted.update(zip(map(tuple, keys.tolist()), rows, strict=True))
            self._measures[measure] = pool
        else:  # the margins kept in the process within this budget too
            _trim_margin_cache(cache_bytes)
        return self._measures[measure]

    def __repr__(self) -> str:
        fitted = {m: len(p.fitted) for m, p in self._measures.items()}
        fitted.update({m: len(keys) for m, (keys, _, _) in self._saved.items()})
        return (f"<ErrorRatePool of {self.collections}: pair copulas ({self.pair_families}) "
                f"fitted {fitted}>")

    def save(self, path: str | os.PathLike) -> None:
        """Write the fitted pair copulas to ``path`` (``.npz``), atomically.

        The margins are not stored (they are refitted in seconds, deterministically, and
        a pool read in the process that fitted them reuses them); the copulas are, with
        the collections' names and each one's scores checksum so that :meth:`load`
        refuses a file fitted to other data.
        """
        path = Path(path)
        if path.suffix != ".npz":
            raise OptionError(f"pool must be a .npz file; got {str(path)!r}")
        meta = {"collections": self.collections, "checksums": _checksums(self.cubes)}
        meta["pair_families"] = self.pair_families  # older files: UNRECORDED_PAIR_FAMILIES
        arrays = {"meta": np.array(json.dumps(meta))}
        for measure, (keys, rows, fallbacks) in self._saved.items():  # read, not used
            arrays[f"{measure}.keys"], arrays[f"{measure}.rows"] = keys, rows
            arrays[f"{measure}.fallbacks"] = np.array(fallbacks)
        for measure, pool in self._measures.items():
            keys = np.array(list(pool.fitted), dtype=np.int64).reshape(-1, 3)
            rows = np.array(list(pool.fitted.values())).reshape(-1, _ROW)
            arrays[f"{measure}.keys"], arrays[f"{measure}.rows"] = keys, rows
            arrays[f"{measure}.fallbacks"] = np.array(pool.fallbacks)
        with atomic_output(path) as tmp, open(tmp, "wb") as fh:
            np.savez_compressed(fh, **arrays)

    @classmethod
    def load(cls, path: str | os.PathLike, collections: Mapping[str, Any], *,
             memory: int | str | None = None) -> ErrorRatePool:
        """The pool saved at ``path`` for ``collections`` (refused if it was fitted to
        other collections or other scores, naming them), with the family set it was
        fitted with, and the memory budget ``memory``."""
        with np.load(Path(path), allow_pickle=False) as data:
            meta = json.loads(str(data["meta"]))
            pool = cls(collections, pair_families=meta.get("pair_families",
                                                             UNRECORDED_PAIR_FAMILIES),
                       memory=memory)
            if meta["collections"] != pool.collections:
                raise OptionError(f"pool file {str(path)!r} was fitted to collections "
                                  f"{meta['collections']}, not {pool.collections}")
            now = _checksums(pool.cubes)
            for name, saved in zip(meta["collections"], meta["checksums"], strict=True):
                if now[pool.collections.index(name)] != saved:
                    raise OptionError(f"pool file {str(path)!r} was fitted to other scores of "
                                      f"collection {name!r}")
            for key in data.files:
                if key.endswith(".keys"):
                    measure = key[:-len(".keys")]
                    pool._saved[measure] = (data[key], data[f"{measure}.rows"],
                                            int(data[f"{measure}.fallbacks"]))
        return pool


def _checksums(cubes: Mapping[str, Any]) -> list[str]:
    return [content_digest(cube) for cube in cubes.values()]


def resolve_pool(pool: Any, cubes: Mapping[str, Any], copula: SimulationCopula,
                 pair_families: PairFamilies = "bicopselect",
                 memory: int | str | None = None) -> tuple[ErrorRatePool, Path | None]:
    """The pool of a study: the one given, the file given (read if it exists), or new
    (refused if fitted with another family set than ``pair_families``, naming both); one
    made or read here has the study's memory budget ``memory``."""
    check_option(copula, SimulationCopula, "copula")
    check_option(pair_families, PairFamilies, "pair_families")
    if pool is None:
        return ErrorRatePool(cubes, pair_families=pair_families, memory=memory), None
    path = None
    if isinstance(pool, (str, os.PathLike)):
        path = Path(pool)
        if path.suffix != ".npz":
            raise OptionError(f"pool must be an ErrorRatePool or a .npz file; got {str(path)!r}")
        pool = (ErrorRatePool.load(path, cubes, memory=memory) if path.exists()
                else ErrorRatePool(cubes, pair_families=pair_families, memory=memory))
    elif not isinstance(pool, ErrorRatePool):
        raise OptionError(f"pool must be an ErrorRatePool or a .npz path; got "
                          f"{type(pool).__name__}")
    if pool.collections != list(cubes):
        raise OptionError(f"pool was fitted to collections {pool.collections}, not "
                          f"{list(cubes)}")
    if pool.pair_families != pair_families:
        where = f" (file {str(path)!r})" if path is not None else ""
        raise OptionError(f"pool{where} holds pair copulas of family set "
                          f"{pool.pair_families!r}, not pair_families={pair_families!r}")
    return pool, path


def family_names(codes: np.ndarray) -> list[str]:
    """Family names of codes (for summaries)."""
    return [pair_copulas.FAMILIES[int(c)] for c in codes]
