"""Error rates of a study beside published ones, with their Monte Carlo errors.

A published error rate is itself a Monte Carlo estimate (Urbano, Lima & Hanjalic 2019:
1,667,000 Type I trials per measure and topic set size, 167,000 Type II trials per δ),
so a study that reproduces it agrees within the Monte Carlo error of both. Each row of
:func:`compare_error_rates` puts one published rate beside the study's, each with its
binomial standard error, and their difference in units of its standard error (``z``).
"""

from __future__ import annotations

import os
from typing import Any

import numpy as np
import pandas as pd

from ..errors import ScoreDataError
from ..measures import find_measure

__all__ = ["PUBLISHED_TRIALS", "agreement_counts", "compare_error_rates"]

#: Trials behind each published rate of Urbano, Lima & Hanjalic (2019) (R/common.R of
#: their code: 1,667 batches of 1,000 Type I trials; 167 batches per δ of Type II trials,
#: which give both the power and the Type III error rate).
PUBLISHED_TRIALS = {"type1": 1_667_000, "power": 167_000, "type3": 167_000}
_KEYS = ("kind", "measure", "n_topics", "delta", "test", "tails", "alpha")
_REQUIRED = ("kind", "measure", "n_topics", "delta", "alpha", "test", "tails", "rate")


def compare_error_rates(result: Any, published: pd.DataFrame | str | os.PathLike,
                        trials: dict[str, int] | None = None) -> pd.DataFrame:
    """Every published error rate beside the study's, with standard errors and ``z``.

    Parameters
    ----------
    result : ErrorRates
        A study of :func:`scorestd.error_rates`.
    published : DataFrame or path of a CSV file
        One published rate a row, columns ``kind`` (``type1``, ``power`` or ``type3``),
        ``measure``, ``n_topics``, ``delta`` (empty or NaN for Type I), ``alpha``,
        ``test``, ``tails`` (Type III: 2) and ``rate``; an optional ``trials`` column
        gives the trials behind each rate (else ``trials``).
    trials : dict, optional
        Trials behind a published rate of each kind (default :data:`PUBLISHED_TRIALS`,
        those of Urbano et al. 2019).

    Returns
    -------
    pandas.DataFrame
        One row per published rate, in its order: the keys (``kind``, ``measure``,
        ``n_topics``, ``delta``, ``test``, ``tails``, ``alpha``), ``published``,
        ``published_se`` = ``sqrt(p (1 − p) / N)`` over its ``published_trials`` ``N``,
        the study's ``rate``, ``se`` and ``trials`` (those with a decision: the sign
        test leaves out trials with only ties), ``difference`` = rate − published and
        ``z`` = difference / ``sqrt(p̄ (1 − p̄) (1/n + 1/N))`` with ``p̄`` the rate of
        both studies' trials together (the two-proportion z-test: it equals
        difference / ``sqrt(se² + published_se²)`` when the rates agree and stays
        finite when one of them is 0; 0 when both are 0 or both 1). A published cell
        the study did not compute (another measure, topic set size, δ, α or test) has
        NaN for the study's columns. Measures are matched under any usual spelling
        (``ap`` of the paper finds a study's ``AP``).

    Raises
    ------
    ScoreDataError
        A published table without one of the columns, naming it, or with a kind other
        than ``type1``, ``power`` and ``type3``, naming the row.

    Examples
    --------
    >>> import pandas as pd, scorestd
    >>> res = scorestd.error_rates(["adhoc8"], measures=["ap"], n_topics=[25], deltas=None,
    ...                            tests=["paired_t"], trials=640, copula="gaussian", seed=1)
    >>> published = pd.DataFrame({"kind": ["type1"], "measure": ["ap"], "n_topics": [25],
    ...                           "delta": [None], "alpha": [0.05], "test": ["paired_t"],
    ...                           "tails": [2], "rate": [0.0491]})
    >>> table = scorestd.compare_error_rates(res, published)
    >>> table[["published", "rate", "trials"]].round(4).to_dict("records")
    [{'published': 0.0491, 'rate': 0.0422, 'trials': 640.0}]
    >>> bool(abs(table["z"].iloc[0]) < 2)
    True
    """
    table = _published_table(published)
    counts = {**PUBLISHED_TRIALS, **(trials or {})}
    if "trials" in table:
        n_pub = table["trials"].astype(float).to_numpy()
    else:
        n_pub = table["kind"].map(counts).astype(float).to_numpy()
    p = table["rate"].to_numpy(float)
    rate, n = _study_rates(result.data, table)
    pooled = (rate * n + p * n_pub) / (n + n_pub)
    scale = np.sqrt(pooled * (1 - pooled) * (1 / n + 1 / n_pub))
    diff = rate - p
    with np.errstate(invalid="ignore", divide="ignore"):
        z = np.where(scale > 0, diff / scale, np.where(np.isfinite(diff), 0.0, np.nan))
    out = table[list(_KEYS)].copy()
    out["published"] = p
    out["published_se"] = np.sqrt(p * (1 - p) / n_pub)
    out["published_trials"] = n_pub
    out["rate"] = rate
    with np.errstate(invalid="ignore", divide="ignore"):
        out["se"] = np.sqrt(rate * (1 - rate) / n)
    out["trials"] = n
    out["difference"] = diff
    out["z"] = z
    out.attrs["columns"] = {
        "published": "published rate", "published_se": "its binomial standard error",
        "rate": "this study's rate", "se": "its binomial standard error",
        "difference": "rate − published",
        "z": "difference / standard error of the difference (pooled rate)"}
    return out


def agreement_counts(table: pd.DataFrame, by: tuple[str, ...] = ("kind", "test")
                     ) -> pd.DataFrame:
    """How many rates of a :func:`compare_error_rates` table differ beyond 2 and 3 SE.

    Rows: groups of ``by``; columns ``cells`` (rates compared; NaN rows left out),
    ``beyond_2se``, ``beyond_3se``, ``expected_beyond_2se`` (4.55% of the cells: what
    Monte Carlo error alone gives), ``max_abs_z`` and ``mean_z`` (the average signed
    departure; near 0 when the two studies agree).

    Examples
    --------
    >>> import pandas as pd
    >>> t = pd.DataFrame({"kind": ["type1"] * 3, "test": ["sign"] * 3, "z": [0.5, -2.5, 4.0]})
    >>> agreement_counts(t)[["cells", "beyond_2se", "beyond_3se"]].to_dict("records")
    [{'cells': 3, 'beyond_2se': 2, 'beyond_3se': 1}]
    """
    keep = table[np.isfinite(table["z"])]
    abs_z = keep["z"].abs()
    grouped = keep.assign(abs_z=abs_z, over2=abs_z > 2, over3=abs_z > 3).groupby(list(by))
    out = pd.DataFrame({"cells": grouped.size(), "beyond_2se": grouped["over2"].sum(),
                        "beyond_3se": grouped["over3"].sum()})
    out["expected_beyond_2se"] = (0.0455 * out["cells"]).round(1)
    out["max_abs_z"] = grouped["abs_z"].max()
    out["mean_z"] = grouped["z"].mean()
    return out


def _published_table(published: pd.DataFrame | str | os.PathLike) -> pd.DataFrame:
    source = "the published table"
    if not isinstance(published, pd.DataFrame):
        source = os.fspath(published)
        published = pd.read_csv(source)
    missing = [c for c in _REQUIRED if c not in published]
    if missing:
        raise ScoreDataError(f"{source} has no column {missing[0]!r} (columns needed: "
                             f"{', '.join(_REQUIRED)})")
    table = published.reset_index(drop=True).copy()
    bad = ~table["kind"].isin(list(PUBLISHED_TRIALS))
    if bad.any():
        row = int(np.flatnonzero(bad)[0])
        raise ScoreDataError(f"{source}, row {row + 1}: kind {table['kind'][row]!r} is not "
                             f"one of {list(PUBLISHED_TRIALS)}")
    table["delta"] = pd.to_numeric(table["delta"], errors="coerce")
    for column in ("n_topics", "tails"):
        table[column] = table[column].astype(int)
    bad = ~table["tails"].isin([1, 2])
    if bad.any():
        row = int(np.flatnonzero(bad)[0])
        raise ScoreDataError(f"{source}, row {row + 1}: tails {table['tails'][row]} is not 1 "
                             "or 2")
    for column in ("alpha", "rate"):
        table[column] = table[column].astype(float)
    return table


def _index(values: np.ndarray, wanted: np.ndarray) -> np.ndarray:
    """Position of each wanted value among ``values`` (to 1e-9), -1 where absent."""
    values = np.asarray(values)
    if values.dtype.kind == "f":
        hit = np.isclose(np.asarray(wanted, float)[:, None], values[None, :], rtol=0,
                         atol=1e-9)
    else:
        hit = np.asarray(wanted).astype(values.dtype)[:, None] == values[None, :]
    return np.where(hit.any(axis=1), hit.argmax(axis=1), -1)


def _study_rates(data, table: pd.DataFrame) -> tuple[np.ndarray, np.ndarray]:
    """The study's rate and trials behind it for each row of ``table`` (NaN if absent)."""
    rate = np.full(len(table), np.nan)
    n = np.full(len(table), np.nan)
    pos = {dim: _index(data[dim].values, table[dim].to_numpy())
           for dim in ("n_topics", "test", "tails", "alpha")}
    # a published measure under any usual spelling (the paper's "ap", a study's "AP")
    labels = [str(m) for m in data["measure"].values]
    names = table["measure"].astype(str).tolist()
    found = {name: find_measure(name, labels, what="the study", required=False)
             for name in dict.fromkeys(names)}
    pos["measure"] = np.array([-1 if found[name] is None else labels.index(found[name])
                               for name in names], dtype=np.intp)
    if "delta" in data.coords:
        pos["delta"] = _index(data["delta"].values, table["delta"].fillna(-1).to_numpy())
    for kind, trials_name in (("type1", "type1_trials"), ("power", "type2_trials"),
                              ("type3", "type2_trials")):
        if kind not in data:
            continue
        rows = (table["kind"] == kind).to_numpy()
        dims = data[kind].dims
        idx = [pos[d] for d in dims]
        ok = rows & np.all([i >= 0 for i in idx], axis=0)
        if kind == "type3":  # two-tailed only
            ok &= table["tails"].to_numpy() == 2
        at = tuple(i[ok] for i in idx)
        rate[ok] = data[kind].values[at]
        tdims = data[trials_name].dims
        n[ok] = data[trials_name].values[tuple(pos[d][ok] for d in tdims)]
    return rate, n
