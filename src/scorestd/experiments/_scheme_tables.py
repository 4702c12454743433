"""Tables and figures shared by the per-measure, per-scheme studies
(discriminative power, leave-one-out)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

import pandas as pd

from ..dims import MEASURE
from ..io.figures import save_figure

__all__ = ["by_measure_and_scheme", "finish_panels", "measure_panels"]


def by_measure_and_scheme(frame: pd.DataFrame) -> pd.DataFrame:
    """Rows indexed (measure, scheme), measures in their original order.

    Examples
    --------
    >>> index = pd.MultiIndex.from_tuples([("raw", "ndcg"), ("raw", "ap")],
    ...                                   names=["scheme", "measure"])
    >>> by_measure_and_scheme(pd.DataFrame({"v": [1, 2]}, index=index)).index.tolist()
    [('ap', 'raw'), ('ndcg', 'raw')]
    """
    return frame.reorder_levels([MEASURE, "scheme"]).sort_index(level=0, sort_remaining=False)


def measure_panels(measures: Sequence, width: float, height: float) -> tuple[object, Iterator]:
    """A figure with a row of panels ``width × height`` and the (axes, measure) pairs.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> fig, panels = measure_panels(["ap", "ndcg"], 4, 3)
    >>> [m for _, m in panels], fig.get_size_inches().tolist()
    (['ap', 'ndcg'], [8.0, 3.0])
    >>> import matplotlib.pyplot as plt; plt.close(fig)
    """
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, len(measures), figsize=(width * len(measures), height),
                             squeeze=False)
    return fig, zip(axes[0], measures, strict=True)


def finish_panels(fig, path: Any = None):
    """Lay out the panels of :func:`measure_panels`, save to ``path`` (if given), return ``fig``.

    Examples
    --------
    >>> fig, _ = measure_panels(["ap"], 4, 3)
    >>> finish_panels(fig) is fig
    True
    >>> import matplotlib.pyplot as plt; plt.close(fig)
    """
    fig.tight_layout()
    save_figure(fig, path)
    return fig
