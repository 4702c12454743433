"""Figures written to files: the one place every figure of the package is saved."""

from __future__ import annotations

from typing import Any

from .atomic import atomic_output
from .paths import check_output_path

__all__ = ["save_figure"]


def save_figure(fig: Any, path: Any, *, dpi: int = 120, tight: bool = True) -> Any:
    """Write the matplotlib figure ``fig`` to ``path`` when one is given; return ``path``.

    The format comes from the suffix, which must be one matplotlib writes (checked
    before drawing); ``tight`` trims the white margin. The file is written whole or not
    at all (:func:`~scorestd.io.atomic.atomic_output`).

    Examples
    --------
    >>> import pathlib, tempfile
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import matplotlib.pyplot as plt
    >>> fig, ax = plt.subplots()
    >>> path = save_figure(fig, pathlib.Path(tempfile.mkdtemp()) / "f.png")
    >>> path.suffix, path.stat().st_size > 0
    ('.png', True)
    >>> save_figure(fig, None) is None
    True
    >>> plt.close(fig)
    """
    if path is not None:
        out = check_output_path(path, "figure")
        with atomic_output(out) as tmp:
            fig.savefig(tmp, format=out.suffix.lower().lstrip("."), dpi=dpi,
                        **({"bbox_inches": "tight"} if tight else {}))
    return path
