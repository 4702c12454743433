"""Standardization factors as files: per-topic means and sds in Webber et al.'s layout.

Webber, Moffat & Zobel published their factors as two CSV matrices per collection,
one of means and one of standard deviations, "with topics as rows, and metrics as
columns. The first row lists the metric names, and the first column lists the topic
ids." Factors computed once can so be shared and applied to new runs with
``standardize(new_runs, "normal", reference=read_factors(...))`` (or ``"uniform"``,
``"z"``: every location-scale model uses the same two numbers).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import xarray as xr

from .._options import Degenerate
from ..dims import MEASURE, TOPIC
from ..errors import ScoreDataError
from ..io.atomic import atomic_output
from ..io.paths import check_output_path
from ..mapping import fold_topics, maps_extra_dims, unfold_topic_dataset
from ..score_cube import extra_dims_of, validate
from ._base import FittedModel
from .normal import Normal

__all__ = ["read_factors", "standardization_factors", "write_factors"]


@maps_extra_dims(vectorized=True)
def standardization_factors(
    scores: Any, *, degenerate: Degenerate = "unstandardized"
) -> xr.Dataset:
    """Per-topic mean and ``n − 1`` sd of each measure: Webber et al.'s factors.

    Parameters
    ----------
    scores : xarray.DataArray
        Scores of the standardization systems (``NaN`` skipped); extra dims (``trial``
        …) are kept, each slice's topics fitted on their own.
    degenerate : {"unstandardized", "nan", "raise"}
        A topic whose systems all score the same gets μ=0, σ=1 (the published
        reference code's convention), ``NaN``, or an error; see
        :func:`scorestd.standardize`.

    Returns
    -------
    xarray.Dataset
        ``mean`` and ``sd`` over topic × measure, plus ``n`` and ``degenerate``.

    Examples
    --------
    >>> import scorestd
    >>> ap = scorestd.datasets.load("adhoc8_ap")
    >>> f = standardization_factors(ap)
    >>> float(f["mean"].sel(topic="t01", measure="ap")) == float(ap.sel(topic="t01").mean())
    True
    """
    if isinstance(scores, xr.DataArray) and extra_dims_of(scores):
        cube = validate(scores, copy=False, extra_dims=True)
        # every topic of every slice is fitted on its own: one fit over the folded rows
        folded = Normal().fit(fold_topics(cube), degenerate=degenerate).params
        return unfold_topic_dataset(folded, cube)
    return Normal().fit(scores, degenerate=degenerate).params


def write_factors(
    factors: Any, means_path: str | os.PathLike, sds_path: str | os.PathLike
) -> tuple[Path, Path]:
    """Write factors as two CSV matrices (topics × measures): means and sds.

    Parameters
    ----------
    factors : xarray.Dataset, FittedModel or xarray.DataArray
        A Dataset with ``mean`` and ``sd`` (e.g. from :func:`standardization_factors`
        or a fitted location-scale model's ``params``), a fitted model, or scores
        (the factors are then computed from them).
    means_path, sds_path : path
        The two files to write.

    Returns
    -------
    tuple of pathlib.Path

    Examples
    --------
    >>> import scorestd, tempfile, pathlib
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> _ = write_factors(scorestd.datasets.load("robust2004"), d / "m.csv", d / "s.csv")
    >>> (d / "m.csv").read_text().splitlines()[0]
    'topic,ap,ndcg'
    """
    paths = (check_output_path(means_path, "csv"),
             check_output_path(sds_path, "csv", inputs=[means_path]))
    ds = _as_factors(factors)
    for var, path in zip(("mean", "sd"), paths, strict=True):
        frame = ds[var].transpose(TOPIC, MEASURE).to_pandas()
        frame.index.name, frame.columns.name = TOPIC, None
        with atomic_output(path) as tmp:
            frame.to_csv(tmp, float_format="%.17g")
    return paths


def read_factors(means_path: str | os.PathLike, sds_path: str | os.PathLike) -> xr.Dataset:
    """Read factors written by :func:`write_factors` or published by Webber et al.

    Parameters
    ----------
    means_path, sds_path : path
        CSV matrices with topic ids in the first column and measure names in the
        first row (the first cell's text is ignored).

    Returns
    -------
    xarray.Dataset
        ``mean`` and ``sd`` over topic × measure; pass it as ``reference=`` to
        :func:`scorestd.standardize` with a location-scale model.

    Raises
    ------
    ScoreDataError
        If a file is not such a matrix, a value is not a number, an sd is negative,
        or the two files do not list the same topics and measures (the message
        names the file, line and topic / measure).

    Examples
    --------
    >>> import scorestd, tempfile, pathlib
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> ap = scorestd.datasets.load("adhoc8_ap")
    >>> _ = write_factors(ap, d / "m.csv", d / "s.csv")
    >>> y = scorestd.standardize(ap, "normal", reference=read_factors(d / "m.csv", d / "s.csv"))
    >>> bool((y == scorestd.standardize(ap, "normal")).all())
    True
    """
    mean = _read_matrix(Path(means_path))
    sd = _read_matrix(Path(sds_path))
    for dim, a, b in ((TOPIC, mean.index, sd.index), (MEASURE, mean.columns, sd.columns)):
        if list(a) != list(b):
            only = sorted(set(a) ^ set(b)) or ["(same labels, different order)"]
            raise ScoreDataError(
                f"the means file {os.fspath(means_path)!r} and the sds file "
                f"{os.fspath(sds_path)!r} list different {dim}s: {only[:5]}")
    negative = np.argwhere(sd.to_numpy() < 0)
    if negative.size:
        t, m = negative[0]
        raise ScoreDataError(
            f"negative standard deviation {sd.iat[t, m]:g} for topic {sd.index[t]!r}, "
            f"measure {sd.columns[m]!r}", path=sds_path, line=int(t) + 2)
    coords = {TOPIC: np.array(mean.index, dtype=str), MEASURE: np.array(mean.columns, dtype=str)}
    dims = (TOPIC, MEASURE)
    return xr.Dataset({"mean": (dims, mean.to_numpy()), "sd": (dims, sd.to_numpy())},
                      coords=coords, attrs={"source": f"{means_path}, {sds_path}"})


def _as_factors(factors: Any) -> xr.Dataset:
    if isinstance(factors, FittedModel):
        factors = factors.params
    if isinstance(factors, xr.Dataset):
        missing = [v for v in ("mean", "sd") if v not in factors]
        if missing:
            raise ScoreDataError(f"factors need variables 'mean' and 'sd', missing {missing}")
        return factors
    return standardization_factors(validate(factors, check_range=False))


def _read_matrix(path: Path) -> pd.DataFrame:
    try:
        frame = pd.read_csv(path, index_col=0, dtype=str, keep_default_na=False)
    except (pd.errors.ParserError, pd.errors.EmptyDataError, UnicodeDecodeError) as exc:
        raise ScoreDataError(f"not a CSV matrix of factors: {exc}", path=path) from None
    if frame.empty or frame.shape[1] == 0:
        raise ScoreDataError("no topics or no measures in the factors file", path=path)
    frame.index = frame.index.astype(str).str.strip()
    frame.columns = frame.columns.astype(str).str.strip()
    for labels, what in ((frame.index, "topic"), (frame.columns, "measure")):
        dup = labels[labels.duplicated()]
        if len(dup):
            raise ScoreDataError(f"duplicate {what} {dup[0]!r}", path=path)
    values = np.empty(frame.shape)
    for (i, j), text in np.ndenumerate(frame.to_numpy()):
        try:
            values[i, j] = float(text) if text.strip() not in ("", "NA", "nan", "NaN") else np.nan
        except ValueError:
            raise ScoreDataError(
                f"{text!r} is not a number (topic {frame.index[i]!r}, measure "
                f"{frame.columns[j]!r})", path=path, line=i + 2) from None
    return pd.DataFrame(values, index=frame.index, columns=frame.columns)
