"""The significance table as IR papers print it: systems × measures, markers for the tests."""

from __future__ import annotations

import string
from typing import Any

import numpy as np
import pandas as pd
import xarray as xr

from .._options import check_probability
from ..dims import MEASURE, SYSTEM, TOPIC
from ..errors import ScoreDataError
from ..io.table import Table
from ..kernels.significance import FAMILY_TESTS
from ..score_cube import first_cell, validate
from ..stats.aggregation import aggregate

__all__ = ["significance_table", "system_letters"]


def system_letters(n: int) -> list[str]:
    """Markers of ``n`` systems: a … z, then aa, ab … (as spreadsheets name columns).

    Examples
    --------
    >>> system_letters(3), system_letters(28)[-3:]
    (['a', 'b', 'c'], ['z', 'aa', 'ab'])
    """
    letters = string.ascii_lowercase
    out = []
    for k in range(n):
        name, k = "", k + 1
        while k:
            k, r = divmod(k - 1, 26)
            name = letters[r] + name
        out.append(name)
    return out


def significance_table(result: xr.Dataset, scores: Any, *, alpha: float = 0.05,
                       digits: int = 3) -> Table:
    """Mean of every system on every measure, with markers for the significant differences.

    Rows are the systems compared in ``result`` (in the order of ``scores``), columns
    the measures; the best mean of each measure is bold. Against a baseline, a ``+``
    (``−``) marks a system significantly above (below) it; for all pairs, each system
    gets a letter and its cell lists the letters of the systems it is significantly
    above. Significance is ``p_adjusted`` (``p_value`` when no correction was applied)
    below ``alpha``, and the direction the sign of ``mean_diff``. The caption names the
    test, the alternative, the correction and the size of the family.

    Parameters
    ----------
    result : xarray.Dataset
        What :func:`scorestd.compare` returned (with a ``measure`` dim).
    scores : xarray.DataArray
        The cube the tests ran on, for the means (missing scores are left out of a
        system's mean, as the tests leave them out of its pairs).
    alpha : float
        Significance level of the markers.
    digits : int
        Decimals of the printed means.

    Examples
    --------
    >>> import scorestd
    >>> ap = scorestd.datasets.load("adhoc8_ap").isel(system=slice(0, 3))
    >>> res = scorestd.compare(ap, correction="holm")
    >>> t = significance_table(res, ap)
    >>> t.values.index.tolist(), t.marks["ap"].tolist()
    (['(a) run1', '(b) run2', '(c) run3'], ['', 'ac', 'a'])
    """
    check_probability("alpha", alpha)
    if not isinstance(result, xr.Dataset) or "pair" not in result.dims or "p_value" not in result:
        raise ScoreDataError("a significance table needs the result of scorestd.compare "
                             "(a Dataset over 'pair' with 'p_value')")
    result = result if MEASURE in result.dims else result.expand_dims(MEASURE)
    extra = sorted(set(result.dims) - {MEASURE, "pair"})
    if extra:
        raise ScoreDataError(f"the comparison has the extra dims {extra}: select one slice "
                             f"(e.g. result.isel({extra[0]}=0)) for a table")
    cube = validate(scores)
    pairs = result.transpose(MEASURE, "pair")
    first, second = pairs[SYSTEM].values.astype(str), pairs["system2"].values.astype(str)
    compared = set(first) | set(second)
    systems = [s for s in cube[SYSTEM].values.astype(str) if s in compared]
    measures = [str(m) for m in pairs[MEASURE].values]
    missing = sorted(compared - set(systems)) + sorted(set(measures) - set(cube[MEASURE].values.astype(str)))
    if missing:
        raise ScoreDataError(f"scores lack what the comparison tested: {missing[:10]}")
    _check_scores_of(pairs, cube, first, second, measures)
    means = aggregate(cube.sel({SYSTEM: systems, MEASURE: measures}), "am", skipna=True)
    values = means.transpose(SYSTEM, MEASURE).to_pandas()
    values.columns = measures
    p_name = "p_adjusted" if "p_adjusted" in pairs else "p_value"
    significant = (pairs[p_name] < alpha).values  # NaN p: not significant
    diff = pairs["mean_diff"].values
    baseline = result.attrs.get("baseline")
    baseline = None if baseline in (None, "None") else str(baseline)
    marks = pd.DataFrame("", index=values.index, columns=measures, dtype=object)
    if baseline is not None:
        for m, measure in enumerate(measures):
            for k in np.flatnonzero(significant[m]):
                marks.loc[first[k], measure] = "+" if diff[m, k] > 0 else "−"
        labels = list(systems)
        markers = (f"+ (−): significantly higher (lower) than the baseline {baseline}")
    else:
        letter = dict(zip(systems, system_letters(len(systems)), strict=True))
        for m, measure in enumerate(measures):
            above: dict[str, list[str]] = {s: [] for s in systems}
            for k in np.flatnonzero(significant[m]):
                winner, loser = (first[k], second[k]) if diff[m, k] > 0 else (second[k], first[k])
                above[winner].append(letter[loser])
            for s in systems:
                marks.loc[s, measure] = "".join(sorted(above[s], key=lambda x: (len(x), x)))
        labels = [f"({letter[s]}) {s}" for s in systems]
        markers = "letters: the systems a system is significantly better than"
    values.index = marks.index = pd.Index(labels, name=SYSTEM)
    best = values.max(axis=0)
    bold = values.eq(best, axis=1) & values.notna()
    where = f" ({cube.attrs['slice']})" if cube.attrs.get("slice") else ""  # --select
    # standardized scores are not the measure's own: say so, or a reader takes them as raw
    model = cube.attrs.get("standardization")
    scale = f" standardized by {model}" if model else ""
    caption = (f"Mean {', '.join(measures)}{scale} over {cube.sizes[TOPIC]} topics{where}; the "
               f"best in bold; {markers} ({_procedure(result, pairs.sizes['pair'])}, "
               f"α = {alpha:g}).")
    notes = {m: f"mean {m}{scale} over the topics the system has a score for" for m in measures}
    return Table(values, caption=caption, notes=notes, digits=digits, bold=bold, marks=marks)


def _check_scores_of(pairs: xr.Dataset, cube: xr.DataArray, first: np.ndarray,
                     second: np.ndarray, measures: list[str]) -> None:
    """Refuse scores other than those the comparison ran on (another collection with the
    same labels, a subset of the topics, edited scores): each pair's topics used and mean
    difference, recomputed from ``scores``, must be the result's."""
    if "mean_diff" not in pairs or "n" not in pairs or cube.chunks is not None:
        return
    x = cube.sel({MEASURE: measures}).transpose(TOPIC, SYSTEM, MEASURE)
    col = {s: k for k, s in enumerate(x[SYSTEM].values.astype(str))}
    i, j = [col[s] for s in first], [col[s] for s in second]
    d = np.asarray(x.values)[:, i, :] - np.asarray(x.values)[:, j, :]  # (T, P, M)
    n = np.sum(~np.isnan(d), axis=0).T  # (M, P)
    with np.errstate(invalid="ignore"):
        mean = np.nanmean(np.where(n.T[None] > 0, d, 0.0), axis=0).T
    differ = (n != pairs["n"].values) | ~np.isclose(mean, pairs["mean_diff"].values,
                                                    rtol=1e-9, atol=1e-12, equal_nan=True)
    if differ.any():
        m, k = first_cell(differ)
        raise ScoreDataError(
            f"the scores are not those the comparison ran on: pair {first[k]} vs "
            f"{second[k]} ({measures[m]}) has {int(pairs['n'].values[m, k])} topics and mean "
            f"difference {float(pairs['mean_diff'].values[m, k]):.6g} in the result, "
            f"{int(n[m, k])} topics and {float(mean[m, k]):.6g} in the scores (another "
            "collection, other topics or edited scores?)")


def _procedure(result: xr.Dataset, n_pairs: int) -> str:
    """The test, alternative and correction, as a caption says them."""
    test = str(result.attrs.get("test", "paired"))
    alternative = str(result.attrs.get("alternative", "two-sided"))
    correction = str(result.attrs.get("correction", "None"))
    if test in FAMILY_TESTS:
        adjusted = f"family-wise by the test over {n_pairs} pairs"
    elif correction in ("None", "none", ""):
        adjusted = "no correction for multiple comparisons"
    else:
        adjusted = f"{correction} correction over {n_pairs} pairs per measure"
    return f"{test.replace('_', ' ')} test, {alternative}, {adjusted}"
