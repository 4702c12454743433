"""Topic hardness and the paper's deterministic topic splits (Ravana & Moffat 2009).

:func:`topic_hardness` rates each topic from its scores across systems;
:func:`topic_split` cuts the topics, sorted by that rating, into Hard/Easy halves or
into the Middle half and the Rest (hardest and easiest quarters).
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np
import xarray as xr

from .._options import (
    HardnessDegenerate,
    HardnessMethod,
    SplitExtra,
    SplitKind,
    check_count,
    check_flag,
    check_option,
)
from ..dims import MEASURE, SYSTEM, TOPIC
from ..errors import ScoreDataError, warn
from ..kernels.hardness import hardest_first, split_sizes, topic_hardness_kernel
from ..mapping import maps_extra_dims
from ..measures import find_measure
from ..score_cube import match_input_dims, validate

__all__ = ["HardEasySplit", "MiddleRestSplit", "topic_hardness", "topic_split"]



class HardEasySplit(NamedTuple):
    """The Hard/Easy split: the hardest half of the topics and the rest."""

    hard: np.ndarray
    easy: np.ndarray


class MiddleRestSplit(NamedTuple):
    """The Middle/Rest split: the middle half of the topics, and the hardest and
    easiest quarters together."""

    middle: np.ndarray
    rest: np.ndarray


@maps_extra_dims(vectorized=True)
def topic_hardness(
    scores: Any,
    method: HardnessMethod = "zmax",
    *,
    skipna: bool = False,
    ddof: int = 1,
    degenerate: HardnessDegenerate = "nan",
) -> xr.DataArray:
    """Difficulty of each topic from its scores across systems; higher is harder.

    Parameters
    ----------
    scores : xarray.DataArray or pandas.DataFrame
        A score cube or 2-D ``(topic, system)`` array.
    method : {"zmax", "mean", "max"}, default "zmax"
        ``"zmax"``: D_t = (max_t − mean_t) / sd_t, Equation 2 of Ravana & Moffat
        (2009), the rating their Hard/Easy and Middle/Rest splits use: the hardest
        topic is the one on which some system's score is the most surprisingly good.
        ``"mean"``: D_t = 1 − mean_t (their Equation 1, after Mizzaro 2008).
        ``"max"``: D_t = 1 − max_t.
    skipna : bool, default False
        Missing scores: the package default ``False`` makes the hardness of a topic
        with a missing score ``NaN``; ``True`` rates it from the present scores.
    ddof : int, default 1
        Delta degrees of freedom of sd_t (1: the sample sd).
    degenerate : {"nan", "zero"}, default "nan"
        For ``"zmax"``, a topic whose scores are all equal has sd 0 and Equation 2 is
        0/0: ``"nan"`` leaves it ``NaN`` and warns (:class:`ScorestdWarning`, naming
        the topics); ``"zero"`` rates it 0 (no surprising score: the easiest possible).

    Returns
    -------
    xarray.DataArray
        Hardness over ``topic`` (and ``measure``), named ``"hardness"``, with attrs
        ``hardness_method``.

    Examples
    --------
    >>> import scorestd
    >>> h = topic_hardness(scorestd.datasets.load("adhoc8_ap"))
    >>> h.dims
    ('topic', 'measure')
    >>> str(h.idxmax("topic").item())  # the hardest TREC-8 topic by Equation 2
    't32'
    """
    cube = validate(scores, extra_dims=True)
    method = check_option(method, HardnessMethod, "method")
    degenerate = check_option(degenerate, HardnessDegenerate, "degenerate")
    skipna, ddof = check_flag("skipna", skipna), check_count("ddof", ddof, 0)
    result = xr.apply_ufunc(
        topic_hardness_kernel,
        cube,
        input_core_dims=[[SYSTEM]],
        kwargs={"method": method, "axis": -1, "skipna": skipna, "ddof": ddof},
        dask="parallelized",
        output_dtypes=[np.float64],
        dask_gufunc_kwargs={"allow_rechunk": True},
    )
    if method == "zmax":
        flat = cube.max(SYSTEM, skipna=skipna) == cube.min(SYSTEM, skipna=skipna)
        if bool(flat.any()):
            if degenerate == "zero":
                result = result.where(~flat, 0.0)
            else:
                others = [d for d in flat.dims if d != TOPIC]  # measures, extra dims
                topics = sorted({str(t) for t in cube[TOPIC].values[flat.any(others).values]})
                slices = "" if len(others) < 2 else " (in some slice of the extra dims)"
                warn(
                    f"topic hardness (Equation 2) is undefined (sd = 0) for topics "
                    f"{', '.join(topics)}{slices}: NaN (use degenerate='zero' to rate them 0)")
    result = result.rename("hardness").assign_attrs(hardness_method=method)
    return match_input_dims(result, scores)


@maps_extra_dims()
def topic_split(
    scores: Any,
    kind: SplitKind = "hard_easy",
    *,
    method: HardnessMethod = "zmax",
    measure: str | None = None,
    extra: SplitExtra = "easy",
    skipna: bool = False,
    ddof: int = 1,
    degenerate: HardnessDegenerate = "nan",
) -> HardEasySplit | MiddleRestSplit:
    """Split the topics by hardness, as in section 5.4 of Ravana & Moffat (2009).

    The topics are sorted from hardest to easiest by :func:`topic_hardness` (equal
    hardness: by topic label, so the split does not depend on the order of the
    cube) and cut by :func:`scorestd.kernels.hardness.split_sizes`:

    - ``"hard_easy"``: the ⌊T/2⌋ hardest topics against the ⌈T/2⌉ easiest.
    - ``"middle_rest"``: the ⌈T/2⌉ middle topics against the rest, which are the
      ⌊⌊T/2⌋/2⌋ hardest and the ⌈⌊T/2⌋/2⌉ easiest (for the paper's T = 50: the middle
      25 against the 12 hardest and 13 easiest).

    ``extra="hard"`` gives the odd topic of each cut to the hard side instead
    (Middle/Rest for T = 50: the 13 hardest and 12 easiest).

    Parameters
    ----------
    scores : xarray.DataArray or pandas.DataFrame
        A score cube or 2-D ``(topic, system)`` array.
    kind : {"hard_easy", "middle_rest"}, default "hard_easy"
        Which split.
    method, skipna, ddof, degenerate
        The hardness rating, as in :func:`topic_hardness` (Equation 2 by default).
    measure : str, optional
        The measure whose hardness is used; required if the cube has several.
    extra : {"easy", "hard"}, default "easy"
        Which side takes the odd topic when a group cannot be halved evenly.

    Returns
    -------
    HardEasySplit or MiddleRestSplit
        A named pair of arrays of topic labels (each in the cube's topic order):
        ``(hard, easy)`` or ``(middle, rest)``.

    Raises
    ------
    ScoreDataError
        If a topic's hardness is ``NaN`` (missing scores or a degenerate topic): the
        message names the topics.

    Examples
    --------
    >>> import scorestd
    >>> ap = scorestd.datasets.load("adhoc8_ap")
    >>> hard, easy = topic_split(ap, "hard_easy")
    >>> len(hard), len(easy), "t32" in hard
    (25, 25, True)
    >>> middle, rest = topic_split(ap, "middle_rest")
    >>> len(middle), len(rest)
    (25, 25)
    """
    kind = check_option(kind, SplitKind, "kind")
    hardness = topic_hardness(scores, method, skipna=skipna, ddof=ddof, degenerate=degenerate)
    if MEASURE in hardness.dims:
        measure = find_measure(measure, hardness[MEASURE].values, what="the cube")
        hardness = hardness.sel({MEASURE: measure})
    labels = hardness[TOPIC].values.astype(str)
    values = hardness.values
    if np.isnan(values).any():
        raise ScoreDataError(
            f"topic hardness is NaN for topics {', '.join(labels[np.isnan(values)])} "
            "(missing scores: skipna=True; equal scores: degenerate='zero'; or drop them)"
        )
    by_label = np.argsort(labels, kind="stable")
    order = by_label[hardest_first(values[by_label])]
    n_hard, n_middle, _ = split_sizes(len(labels), kind, extra)
    cut = np.zeros(len(labels), dtype=bool)
    if kind == "hard_easy":
        cut[order[:n_hard]] = True
        return HardEasySplit(hard=labels[cut], easy=labels[~cut])
    cut[order[n_hard:n_hard + n_middle]] = True
    return MiddleRestSplit(middle=labels[cut], rest=labels[~cut])
