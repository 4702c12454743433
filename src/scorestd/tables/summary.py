"""Tables of experiment summaries, design grids and any labelled result."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
import xarray as xr

from .._options import UNRECORDED_PAIR_FAMILIES
from ..errors import ScoreDataError
from ..io.table import Table
from ..kernels.significance import RESAMPLING_TESTS

__all__ = ["dependence", "frame_table", "pairs_table", "summary_table", "topic_set_size_table"]


def summary_table(result: Any, *, digits: int = 3, **summary_options: Any) -> Table:
    """The ``summary()`` of an experiment (error rates, within/between-collection,
    split-half …) as a table, captioned after the experiment's design.

    ``summary_options`` go to ``result.summary`` (e.g. ``alpha=`` of the error rates);
    the notes are the summary's ``attrs["columns"]`` (what each column means, with the
    parameters that define it).

    Examples
    --------
    >>> import scorestd
    >>> ap = scorestd.datasets.load("adhoc8_ap").isel(system=slice(0, 8))
    >>> res = scorestd.within_collection(ap, schemes=["raw", "N"], trials=10, seed=1)
    >>> t = summary_table(res)
    >>> t.caption
    'within-collection: adhoc8 ap; 10 trials, seed 1.'
    >>> t.notes["power@0.05"]
    'fraction of system pairs with a significant two-sided paired t-test at α = 0.05'
    >>> rates = scorestd.error_rates(["adhoc8"], measures=["ap"], n_topics=[25], deltas=[0.05],
    ...                              tests=["paired_t"], trials=128, trials_type2=64, B=100,
    ...                              copula="gaussian", seed=1)
    >>> summary_table(rates).caption
    'error rates (Urbano, Lima & Hanjalic 2019): adhoc8 ap; 128 Type I trials, 64 Type II trials per δ, Gaussian copula, seed 1.'
    """
    frame = result.summary(**summary_options)
    data = getattr(result, "data", xr.Dataset())
    attrs = data.attrs
    caption = ""
    if "experiment" in attrs:
        caption = f"{attrs['experiment']}: {attrs.get('data', '')} {attrs.get('measure', '')}".strip()
        design = [_trials(attrs, data) if "trials" in attrs else "",
                  _resamples(attrs, data), dependence(attrs),
                  f"seed {attrs['seed']}" if "seed" in attrs else ""]
        caption += "; " + ", ".join(d for d in design if d) + "." if any(design) else "."
    return frame_table(frame, caption=caption, digits=digits)


def _resamples(attrs: dict, data: xr.Dataset) -> str:
    """"B = …" when the study ran a resampling test (or does not say which tests ran): a
    study of the t, Wilcoxon and sign tests only resampled nothing."""
    if "B" not in attrs:
        return ""
    if "test" in data.coords and not set(map(str, data["test"].values)) & set(RESAMPLING_TESTS):
        return ""
    return f"B = {attrs['B']}"


def dependence(attrs: dict) -> str:
    """How a simulation study made the dependence of two runs, from its attrs ("" when it
    does not say): the pair copulas' selection, or the Gaussian copula.

    Examples
    --------
    >>> dependence({"copula": "vine", "pair_families": "bicopselect"})
    'pair copulas selected as BiCopSelect'
    >>> dependence({"copula": "vine"})  # written before the selection was recorded
    "pair copulas selected among pyvinecopulib's families"
    """
    copula = attrs.get("copula")
    if copula == "gaussian":
        return "Gaussian copula"
    if copula != "vine":
        return ""
    if attrs.get("pair_families", UNRECORDED_PAIR_FAMILIES) == "bicopselect":
        return "pair copulas selected as BiCopSelect"
    return "pair copulas selected among pyvinecopulib's families"


def _trials(attrs: dict, data: Any) -> str:
    """The trials of a design; an error-rate study's Type II ones beside the Type I."""
    if "trials_type2" in attrs and "power" in getattr(data, "data_vars", {}):
        return f"{attrs['trials']} Type I trials, {attrs['trials_type2']} Type II trials per δ"
    return f"{attrs['trials']} trials"


def topic_set_size_table(sizes: xr.DataArray, *, digits: int = 3) -> Table:
    """Topics needed (:func:`scorestd.topic_set_size`) with one column per minimum
    detectable difference, the design (test, α, β, method) in the caption.

    Examples
    --------
    >>> import scorestd
    >>> n = scorestd.topic_set_size(variance=0.03, min_diff=[0.05, 0.1], alpha=0.05, beta=0.2)
    >>> print(topic_set_size_table(n).to_markdown())  # doctest: +NORMALIZE_WHITESPACE
    Topics needed: paired_t design (sakai method), α = 0.05, β = 0.2; columns: minimum detectable difference.
    <BLANKLINE>
    | test     |   minD=0.05 |   minD=0.1 |
    |:---------|------------:|-----------:|
    | paired_t |          97 |         26 |
    <BLANKLINE>
    minD=x: topics needed to detect a difference of x
    """
    if not isinstance(sizes, xr.DataArray) or "min_diff" not in sizes.dims:
        raise ScoreDataError("a topic set size table needs the DataArray of "
                             "scorestd.topic_set_size over 'min_diff'")
    rows = [d for d in sizes.dims if d != "min_diff" and sizes.sizes[d] > 1]
    flat = sizes.squeeze([d for d in sizes.dims if d != "min_diff" and d not in rows])
    # rows: every other dim of more than one value (scheme × measure …), in their order
    frame = (flat.drop_vars([c for c in flat.coords if c not in flat.dims])
             .to_series().unstack("min_diff") if rows else flat.to_pandas().to_frame().T)
    if not rows:
        frame.index = pd.Index([str(sizes.attrs.get("test", ""))], name="test")
    frame.columns = [f"minD={d:g}" for d in frame.columns]
    a = sizes.attrs
    design = [f"{a.get('test', '')} design ({a.get('method', '')} method)"]
    design += [f"{sym} = {a[key]:g}" for sym, key in (("α", "alpha"), ("β", "beta"))
               if isinstance(a.get(key), (int, float))]
    if a.get("test") == "anova" and "n_systems" in a:
        design.append(f"m = {a['n_systems']} systems")
    # a dim of one value (the measure, the scheme) is not a row: the caption names it
    single = [f"{d} {sizes[d].values.item()}" for d in sizes.dims
              if d != "min_diff" and d not in rows and d in sizes.coords
              and d not in ("alpha", "beta", "n_systems")]
    of = f" ({', '.join(single)})" if single else ""
    caption = (f"Topics needed{of}: {', '.join(design)}; columns: minimum detectable "
               "difference.")
    what = {"paired_t": "a difference", "anova": "a range of system means",
            "ci": "a confidence interval of width"}.get(str(a.get("test")), "a difference")
    notes = {"minD=x": f"topics needed to detect {what} of x" if a.get("test") != "ci"
             else "topics needed for a confidence interval no wider than x"}
    return Table(frame, caption=caption, notes=notes, digits=digits)


def frame_table(frame: pd.DataFrame | xr.DataArray | pd.Series, *, caption: str = "",
                digits: int = 3) -> Table:
    """Any DataFrame, Series or labelled array as a table; its ``attrs["columns"]`` become
    the notes, its ``attrs["description"]`` the caption.

    An array's last dim gives the columns and its other dims the rows (extra dims such as
    ``trial`` lead). Columns of whole numbers (ranks, counts) print without decimals.

    Examples
    --------
    >>> import scorestd
    >>> ap = scorestd.datasets.load("adhoc8_ap").isel(system=slice(0, 3))
    >>> print(frame_table(scorestd.aggregate(ap, "gm")).to_csv())
    system,ap
    run1,0.0
    run2,0.2294...
    run3,0.1607...
    >>> print(frame_table(scorestd.rank_systems(ap)))
    Rank by arithmetic mean, over topics (NaN for a system with a missing score); 1 = best, ties: min.
    <BLANKLINE>
    | system   |   ap |
    |:---------|-----:|
    | run1     |    3 |
    | run2     |    1 |
    | run3     |    2 |
    """
    notes: dict[str, str] = {}
    formats: dict[str, str] = {}
    if isinstance(frame, xr.DataArray):
        name = str(frame.name) if frame.name is not None else "value"
        description = str(frame.attrs.get("description", ""))
        values = np.asarray(frame.values)
        whole = (values.dtype.kind in "iuf" and bool(np.isfinite(values).any())
                 and bool((values[np.isfinite(values)] % 1 == 0).all()))
        if frame.ndim == 0:
            frame = pd.DataFrame({name: [frame.item()]})
        elif frame.ndim == 1:
            frame = frame.to_series().to_frame(name)
        else:  # the last dim across, the others down
            across = frame.dims[-1]
            frame = frame.to_series().unstack(across)
            frame = frame.reindex(columns=pd.Index(frame.columns, name=None))
        if whole:  # ranks, counts: no decimals
            formats = {str(column): "{:.0f}" for column in frame.columns}
        if description and not caption:
            caption = description[:1].upper() + description[1:] + (
                "" if description.endswith(".") else ".")
    elif isinstance(frame, pd.Series):
        frame = frame.to_frame(frame.name if frame.name is not None else "value")
    notes.update({str(k): str(v) for k, v in frame.attrs.get("columns", {}).items()})
    # a standard error far below the last decimal (Monte Carlo errors of large studies)
    # would print as 0: such a column gets significant digits, not decimals
    for column in frame.columns:
        if str(column) == "se" or str(column).endswith((" se", "_se")):
            values = pd.to_numeric(frame[column], errors="coerce").abs()
            if ((values > 0) & (values < 10.0 ** (1 - digits))).any():
                formats[str(column)] = "{:#.2g}"
    return Table(frame, caption=caption or str(frame.attrs.get("caption", "")), notes=notes,
                 digits=digits, formats=formats)


def pairs_table(result: xr.Dataset, *, digits: int = 3) -> Table:
    """One row per system pair (and measure) of a comparison, one column per statistic:
    the table :func:`scorestd.compare` or :func:`scorestd.bayes_compare` holds, as is.

    The caption says how the pairs were compared (test, correction, or the Bayesian model
    and its interval); the notes are the variables' descriptions.

    Examples
    --------
    >>> import scorestd
    >>> ap = scorestd.datasets.load("adhoc8_ap").isel(system=slice(0, 3))
    >>> t = pairs_table(scorestd.bayes_compare(ap))
    >>> list(t.values.index.names), list(t.values.columns)[:4]
    (['measure', 'system', 'system2'], ['mean', 'sd', 'ci_low', 'ci_high'])
    """
    if not isinstance(result, xr.Dataset) or "pair" not in result.dims:
        raise ScoreDataError("a pairs table needs a comparison: a Dataset over 'pair'")
    frame = result.to_dataframe().reset_index()
    keys = [k for k in (*[d for d in result.dims if d != "pair"], "system", "system2")
            if k in frame.columns]
    variables = [str(v) for v in result.data_vars if result[v].dims and "pair" in result[v].dims]
    frame = frame.set_index(keys)[variables]
    notes = {v: str(result[v].attrs["description"]) for v in variables
             if "description" in result[v].attrs}
    a = result.attrs
    if "test" in a:
        caption = (f"{a['test']} test ({a.get('alternative', 'two-sided')}), correction "
                   f"{a.get('correction', 'None')}; each pair tests system minus system2.")
    else:
        caption = "; ".join(f"{k}: {v}" for k, v in a.items() if k in ("model", "ci_prob",
                                                                        "ci_kind", "rope"))
        caption = (caption + "; each pair is system minus system2.").lstrip("; ")
    # probabilities may be tiny: significant digits, not decimals
    small = [v for v in variables if v.startswith(("p_", "prob_"))]
    return Table(frame, caption=caption, notes=notes, digits=digits,
                 formats=dict.fromkeys(small, "{:.3g}"))
