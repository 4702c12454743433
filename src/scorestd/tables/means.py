"""Mean score of every system with its t confidence interval."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from .._options import check_probability
from ..dims import MEASURE, SYSTEM, TOPIC
from ..io.table import Table
from ..kernels.posterior import t_interval
from ..score_cube import validate

__all__ = ["means_table"]


def means_table(scores: Any, *, conf_level: float = 0.95, digits: int = 3) -> Table:
    """Mean of every system on every measure with its t confidence interval.

    Missing scores are left out: a system's mean and interval use the topics it has a
    score for (the notes say so). The interval is ``mean ± t_{n−1} · sd / √n``; the best
    mean of each measure is bold.

    Examples
    --------
    >>> import scorestd
    >>> ap = scorestd.datasets.load("adhoc8_ap").isel(system=slice(0, 2))
    >>> print(means_table(ap).to_markdown())
    Mean over 50 topics with its 95% t confidence interval; the best in bold.
    <BLANKLINE>
    | system   |                       ap |
    |:---------|-------------------------:|
    | run1     |     0.004 [0.002, 0.006] |
    | run2     | **0.335** [0.276, 0.393] |
    <BLANKLINE>
    ap: mean ap [95% CI] over the topics the system has a score for
    """
    check_probability("conf_level", conf_level)
    cube = validate(scores).transpose(TOPIC, SYSTEM, MEASURE)
    x = cube.values
    with np.errstate(invalid="ignore", divide="ignore"):
        n = np.sum(~np.isnan(x), axis=0)
        mean = np.nanmean(x, axis=0) if x.size else np.full(x.shape[1:], np.nan)
        sd = np.sqrt(np.nansum((x - mean) ** 2, axis=0) / (n - 1))
        low, high = t_interval(mean, sd / np.sqrt(n), n - 1, conf_level)
    index = pd.Index(cube[SYSTEM].values.astype(str), name=SYSTEM)
    columns = [str(m) for m in cube[MEASURE].values]

    def frame(a):
        return pd.DataFrame(np.where(n >= 2, a, np.nan) if a is not mean else a,
                            index=index, columns=columns)

    values = frame(mean)
    bold = values.eq(values.max(axis=0), axis=1) & values.notna()
    level = f"{conf_level:.0%}" if round(conf_level * 100, 6) % 1 == 0 else f"{conf_level:g}"
    where = f" ({cube.attrs['slice']})" if cube.attrs.get("slice") else ""  # --select
    caption = (f"Mean over {cube.sizes[TOPIC]} topics{where} with its {level} t confidence "
               "interval; the best in bold.")
    notes = {m: f"mean {m} [{level} CI] over the topics the system has a score for"
             for m in columns}
    return Table(values, caption=caption, notes=notes, digits=digits, bold=bold,
                 low=frame(low), high=frame(high))
