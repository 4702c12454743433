"""Result tables for papers: :func:`table` turns a result into a :class:`~scorestd.io.table.Table`
(LaTeX with booktabs, Markdown, CSV).

One builder per kind of result: the significance table (:func:`significance_table`),
means with intervals (:func:`means_table`), topic set sizes (:func:`topic_set_size_table`),
experiment summaries such as error rates (:func:`summary_table`) and any frame or labelled
array (:func:`frame_table`); :func:`table` picks the builder.
"""

from __future__ import annotations

import inspect
from typing import Any

import pandas as pd
import xarray as xr

from .._options import check_count, check_probability
from ..dims import MEASURE, SYSTEM, TOPIC
from ..errors import ScoreDataError
from ..io.table import Table
from ..mapping import PerSlice, maps_extra_dims
from ..score_cube import extra_dims_of
from .means import means_table
from .significance import significance_table, system_letters
from .slices import pick_slice, stack_slices, stack_tables
from .summary import frame_table, pairs_table, summary_table, topic_set_size_table

__all__ = ["Table", "frame_table", "means_table", "pairs_table", "significance_table",
           "stack_slices", "stack_tables", "summary_table", "system_letters", "table", "topic_set_size_table"]


@maps_extra_dims(vectorized=True)  # one block of rows per slice
def table(result: Any, *, scores: Any = None, alpha: float = 0.05, conf_level: float = 0.95,
          digits: int = 3, **summary_options: Any) -> Table:
    r"""A result as the table a paper prints, ready for ``.to_latex()``, ``.to_markdown()``,
    ``.to_csv()`` or ``.write(path)`` (format by suffix).

    Parameters
    ----------
    result
        What to tabulate:

        - the Dataset of :func:`scorestd.compare` (with ``scores=``): the significance
          table (systems × measures, the best bold, markers for the significant
          differences, test and correction in the caption; :func:`significance_table`);
          with extra dims (``trial`` …), one block of rows per slice (:func:`stack_slices`);
        - the Dataset of :func:`scorestd.bayes_compare`: one row per pair
          (:func:`pairs_table`);
        - a score cube: each system's mean with its t interval (:func:`means_table`), one
          block of rows per slice of its extra dims;
        - the array of :func:`scorestd.topic_set_size` (:func:`topic_set_size_table`);
        - an experiment result (error rates, within/between-collection …): its
          ``summary()`` (:func:`summary_table`);
        - any DataFrame, Series or labelled array up to 2-D (:func:`frame_table`);
        - a :class:`~scorestd.PerSlice` (an experiment, a fit … on every slice of a cube
          with extra dims): the table of each result, one block of rows per slice
          (:func:`stack_tables`).
    scores : xarray.DataArray, optional
        The cube a comparison ran on (its means fill the significance table).
    alpha : float
        Significance level of the markers of a significance table, and of an experiment
        summary that takes one (the error rates).
    conf_level : float
        Level of the intervals of a means table.
    digits : int
        Decimals printed (CSV keeps every digit).
    **summary_options
        Passed to an experiment's ``summary()`` (e.g. ``alpha=0.01`` of the error rates).

    Returns
    -------
    Table

    Examples
    --------
    >>> import scorestd
    >>> ap = scorestd.datasets.load("adhoc8_ap").isel(system=slice(0, 3))
    >>> res = scorestd.compare(ap, correction="holm")
    >>> print(scorestd.table(res, scores=ap).to_latex())
    \begin{table}
    \centering
    \caption{Mean ap over 50 topics; the best in bold; letters: the systems a system is significantly better than (paired t test, two-sided, holm correction over 3 pairs per measure, $\alpha$ = 0.05).}
    \begin{tabular}{lr}
    \toprule
    system & ap \\
    \midrule
    (a) run1 & 0.004 \\
    (b) run2 & \textbf{0.335}\textsuperscript{ac} \\
    (c) run3 & 0.256\textsuperscript{a} \\
    \bottomrule
    \end{tabular}
    \par\smallskip
    {\footnotesize
    ap: mean ap over the topics the system has a score for
    }
    \end{table}
    <BLANKLINE>
    """
    check_probability("alpha", alpha)
    check_probability("conf_level", conf_level)
    check_count("digits", digits, 0)
    if isinstance(result, PerSlice):  # one block of rows per slice
        return stack_tables([table(one, scores=_slice_of(scores, result.where(key)),
                                   alpha=alpha, conf_level=conf_level, digits=digits,
                                   **summary_options) for key, one in result.items()],
                            list(result), result.dims)
    if isinstance(result, xr.Dataset) and "pair" in result.dims:
        extra = [d for d in result.dims if d not in (MEASURE, "pair")]
        if extra and "p_value" in result and scores is not None:
            return stack_slices(lambda r, s: significance_table(r, s, alpha=alpha,
                                                                digits=digits),
                                [result, scores], extra)
        if "p_value" not in result:  # a Bayesian comparison: its pairs as they are
            if extra:
                return stack_slices(lambda r: pairs_table(r, digits=digits), [result], extra)
            return pairs_table(result, digits=digits)
        if scores is None:
            raise ScoreDataError("the significance table needs the scores the comparison ran "
                                 "on, for the means: scorestd.table(result, scores=cube); "
                                 "scorestd.tables.pairs_table(result) lists the pairs")
        return significance_table(result, scores, alpha=alpha, digits=digits)
    if isinstance(result, xr.DataArray) and {TOPIC, SYSTEM} <= set(result.dims):
        extra = extra_dims_of(result)
        if extra:
            return stack_slices(lambda c: means_table(c, conf_level=conf_level, digits=digits),
                                [result], extra)
        return means_table(result, conf_level=conf_level, digits=digits)
    if isinstance(result, xr.DataArray) and result.name == "n_topics" and "min_diff" in result.dims:
        return topic_set_size_table(result, digits=digits)
    if hasattr(result, "summary") and callable(result.summary):
        if "alpha" in inspect.signature(result.summary).parameters:  # e.g. the error rates
            summary_options.setdefault("alpha", alpha)
        return summary_table(result, digits=digits, **summary_options)
    if isinstance(result, (pd.DataFrame, pd.Series, xr.DataArray)):
        return frame_table(result, digits=digits)
    raise ScoreDataError(f"cannot make a table of a {type(result).__name__}: give a "
                         "comparison, a cube, topic set sizes, an experiment result or a frame")


def _slice_of(scores: Any, where: dict) -> Any:
    """The slice ``where`` of the scores given beside a :class:`~scorestd.PerSlice` (the
    scores whole when they lack its extra dims)."""
    if not isinstance(scores, xr.DataArray) or not set(where) <= set(scores.dims):
        return scores
    return pick_slice(scores, where)
