"""A table for a paper: values, emphasis and notes, rendered as LaTeX, Markdown or CSV.

:class:`Table` holds what every rendering shares (the numbers, which cells are bold,
the superscript markers, the intervals, the caption and the notes that say what each
column means); the builders of :mod:`scorestd.tables` make one from a result. LaTeX is
rendered by pandas' ``Styler`` (Jinja2) with booktabs rules, Markdown by ``tabulate``
(both declared dependencies), CSV by pandas; files are written whole or not at all
(:func:`~scorestd.io.atomic.atomic_output`).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

import numpy as np
import pandas as pd

from ..errors import OptionError
from .atomic import atomic_output

__all__ = ["TABLE_SUFFIXES", "Table", "labels_rows", "table_format"]

TableFormat = Literal["latex", "markdown", "csv"]

#: File suffixes :meth:`Table.write` understands, and the format each one means.
TABLE_SUFFIXES: dict[str, TableFormat] = {".tex": "latex", ".md": "markdown",
                                          ".markdown": "markdown", ".csv": "csv"}

_LATEX_SPECIAL = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#",
                  "_": r"\_", "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}",
                  "^": r"\textasciicircum{}",
                  # symbols the package's captions use, in math mode (pdfLaTeX has no Unicode)
                  "α": r"$\alpha$", "β": r"$\beta$", "δ": r"$\delta$", "ε": r"$\varepsilon$",
                  "μ": r"$\mu$", "σ": r"$\sigma$", "τ": r"$\tau$", "ρ": r"$\rho$",
                  "−": r"$-$", "×": r"$\times$", "±": r"$\pm$", "≤": r"$\le$", "≥": r"$\ge$",
                  "–": "--", "…": r"\ldots{}"}


def table_format(path: str | os.PathLike) -> TableFormat:
    """The table format a file's suffix asks for (``.tex``, ``.md``, ``.csv``).

    Examples
    --------
    >>> table_format("results/table2.tex")
    'latex'
    >>> table_format("table.docx")
    Traceback (most recent call last):
    ...
    scorestd.errors.OptionError: table.docx: cannot write a table as '.docx'; use .tex (LaTeX), .md or .markdown (Markdown) or .csv
    """
    suffix = Path(path).suffix.lower()
    if suffix not in TABLE_SUFFIXES:
        raise OptionError(f"{path}: cannot write a table as {suffix or 'a file without a suffix'!r}; "
                          "use .tex (LaTeX), .md or .markdown (Markdown) or .csv")
    return TABLE_SUFFIXES[suffix]


def labels_rows(index: pd.Index) -> bool:
    """Whether a frame's row index says something: not pandas' unnamed integer positions
    (``0, 1, 2 …`` of a frame whose rows are labelled by its columns), which no table
    prints.

    Examples
    --------
    >>> labels_rows(pd.RangeIndex(3)), labels_rows(pd.Index([2, 5]))
    (False, False)
    >>> labels_rows(pd.Index(["bm25", "ql"])), labels_rows(pd.Index([25, 50], name="n_topics"))
    (True, True)
    """
    unnamed = all(name is None for name in index.names)
    return not (unnamed and index.nlevels == 1 and pd.api.types.is_integer_dtype(index))


@dataclass(frozen=True)
class Table:
    """A result as a paper prints it.

    Attributes
    ----------
    values : pandas.DataFrame
        The numbers, one row per row of the table (the index labels the rows); the
        CSV holds exactly these (with the interval bounds and markers as extra columns).
    caption : str
        What the table shows and how it was computed (test, correction, α …).
    notes : dict of str to str
        What each column or marker means; printed under the table.
    digits : int
        Decimals of the printed numbers (the CSV keeps every digit).
    bold : pandas.DataFrame of bool, optional
        Cells printed in bold (e.g. the best system of each measure).
    marks : pandas.DataFrame of str, optional
        Superscript markers of each cell (e.g. the systems it is significantly better than).
    low, high : pandas.DataFrame, optional
        Interval bounds printed as ``value [low, high]``.
    formats : dict of str to str, optional
        A format of its own for some columns, e.g. ``{"p_value": "{:.3g}"}`` (small
        p-values need significant digits, not decimals).

    Examples
    --------
    >>> import pandas as pd
    >>> values = pd.DataFrame({"AP": [0.31, 0.25]},
    ...                       index=pd.Index(["bm25", "ql"], name="system"))
    >>> t = Table(values, caption="Mean AP.", notes={"AP": "mean over 50 topics"},
    ...           bold=values == values.max())
    >>> print(t.to_markdown())
    Mean AP.
    <BLANKLINE>
    | system   |        AP |
    |:---------|----------:|
    | bm25     | **0.310** |
    | ql       |     0.250 |
    <BLANKLINE>
    AP: mean over 50 topics
    """

    values: pd.DataFrame
    caption: str = ""
    notes: dict[str, str] = field(default_factory=dict)
    digits: int = 3
    bold: pd.DataFrame | None = None
    marks: pd.DataFrame | None = None
    low: pd.DataFrame | None = None
    high: pd.DataFrame | None = None
    formats: dict[str, str] = field(default_factory=dict)

    # --- rendering ---------------------------------------------------------------------

    def to_latex(self, *, label: str | None = None) -> str:
        r"""The table as a LaTeX ``table`` float with booktabs rules (``\usepackage{booktabs}``).

        Row and column labels are escaped; the notes follow the tabular in a footnote size.
        """
        cells = self._cells(_latex_markup)
        # the row labels as escaped text, then the cells (escaped as they were made)
        labels = self._row_labels(cells).map(lambda v: _escape_latex(str(v)))
        n_rows = labels.shape[1]
        frame = pd.concat([labels, cells.reset_index(drop=True)], axis=1)
        frame.columns = [_escape_latex(c) for c in _flat_columns(frame.columns)]
        styler = frame.style.hide(axis="index")
        text = styler.to_latex(hrules=True, caption=_escape_latex(self.caption) or None,
                               label=label, position_float="centering",
                               column_format="l" * n_rows + "r" * (frame.shape[1] - n_rows))
        if not text.lstrip().startswith(r"\begin{table}"):  # no caption, label or float
            text = "\\begin{table}\n\\centering\n" + text + "\\end{table}\n"
        if self.notes:
            notes = "\\\\\n".join(f"{_escape_latex(k)}: {_escape_latex(v)}"
                                  for k, v in self.notes.items())
            text = text.replace("\\end{table}",
                                "\\par\\smallskip\n{\\footnotesize\n" + notes + "\n}\n\\end{table}")
        return text

    def to_markdown(self) -> str:
        """The table in GitHub Markdown (bold as ``**…**``, markers as ``<sup>…</sup>``),
        the caption above, the notes below."""
        cells = self._cells(_markdown_markup)
        labels = self._row_labels(cells).astype(str)
        frame = pd.concat([labels, cells.reset_index(drop=True)], axis=1)
        frame.columns = _flat_columns(frame.columns)
        align = ("left",) * labels.shape[1] + ("right",) * cells.shape[1]
        # the cells are text already: tabulate must not read them back as numbers
        text = frame.to_markdown(index=False, disable_numparse=True, colalign=align)
        parts = [self.caption, text, "\n".join(f"{k}: {v}" for k, v in self.notes.items())]
        return "\n\n".join(p for p in parts if p)

    def to_csv(self) -> str:
        """The numbers with every digit, one column per value; interval bounds as
        ``COLUMN_low``/``COLUMN_high``, markers as ``COLUMN_marks`` (caption and notes are
        not part of a CSV)."""
        frame = self.values.copy()
        frame.columns = _flat_columns(frame.columns)
        extra = {}
        for suffix, part in (("low", self.low), ("high", self.high), ("marks", self.marks)):
            if part is not None:
                for column, flat in zip(self.values.columns, frame.columns, strict=True):
                    extra[f"{flat}_{suffix}"] = part[column].to_numpy()
        if extra:
            frame = frame.assign(**extra)
            order = [c for flat in _flat_columns(self.values.columns)
                     for c in (flat, f"{flat}_low", f"{flat}_high", f"{flat}_marks")
                     if c in frame.columns]
            frame = frame[order]
        labels = self._row_labels(frame)
        if labels.shape[1] < frame.index.nlevels:  # integer positions are no labels
            frame = frame.set_axis(pd.MultiIndex.from_frame(labels) if labels.shape[1] > 1
                                   else pd.Index(labels.iloc[:, 0]) if labels.shape[1]
                                   else pd.RangeIndex(len(frame)))
        return frame.to_csv(lineterminator="\n", index=labels.shape[1] > 0)

    def render(self, format: TableFormat) -> str:
        """The table as ``"latex"``, ``"markdown"`` or ``"csv"`` text."""
        if format == "latex":
            return self.to_latex()
        if format == "markdown":
            return self.to_markdown() + "\n"
        if format == "csv":
            return self.to_csv()
        raise OptionError(f"table format must be one of 'latex', 'markdown', 'csv'; got {format!r}")

    def write(self, path: str | os.PathLike) -> Path:
        """Write the table to ``path`` in the format its suffix names (``.tex``, ``.md``,
        ``.csv``), whole or not at all; returns the path."""
        text = self.render(table_format(path))
        with atomic_output(path) as tmp:
            tmp.write_text(text, encoding="utf-8")
        return Path(path)

    def __str__(self) -> str:
        return self.to_markdown()

    # --- cells -------------------------------------------------------------------------

    @staticmethod
    def _row_labels(cells: pd.DataFrame) -> pd.DataFrame:
        """The row labels as columns, each level that :func:`labels_rows` (none for
        pandas' integer positions, e.g. within the blocks of stacked slices)."""
        index = cells.index
        labels = index.to_frame(index=False)
        labels.columns = ["" if name is None else name for name in index.names]
        keep = [i for i in range(index.nlevels) if labels_rows(index.get_level_values(i))]
        return labels.iloc[:, keep]

    def _cells(self, markup) -> pd.DataFrame:
        """Each cell's text: the number (and interval), in bold or with its markers."""
        default = f"{{:.{self.digits}f}}"
        out = pd.DataFrame(index=self.values.index, columns=self.values.columns, dtype=object)
        for c in range(self.values.shape[1]):
            fmt = self.formats.get(str(self.values.columns[c]), default)
            for r in range(len(self.values)):
                out.iat[r, c] = markup(
                    _number(self.values.iat[r, c], fmt),
                    bold=self.bold is not None and bool(self.bold.iat[r, c]),
                    mark=str(self.marks.iat[r, c]) if self.marks is not None else "",
                    interval=None if self.low is None else (
                        _number(self.low.iat[r, c], fmt), _number(self.high.iat[r, c], fmt)),
                )
        return out


def _number(value, fmt: str) -> str:
    if isinstance(value, str):
        return value
    if value is None or (isinstance(value, float) and np.isnan(value)) or pd.isna(value):
        return "–"
    if isinstance(value, (int, np.integer)):
        return str(int(value))
    return fmt.format(float(value))


def _latex_markup(text: str, *, bold: bool, mark: str, interval) -> str:
    text = _escape_latex(text)
    if bold:
        text = rf"\textbf{{{text}}}"
    if mark:
        text += rf"\textsuperscript{{{_escape_latex(mark)}}}"
    if interval is not None and text != "–":
        text += rf" [{interval[0]}, {interval[1]}]"
    return text


def _markdown_markup(text: str, *, bold: bool, mark: str, interval) -> str:
    if bold:
        text = f"**{text}**"
    if mark:
        text += f"<sup>{mark}</sup>"
    if interval is not None and text != "–":
        text += f" [{interval[0]}, {interval[1]}]"
    return text


def _escape_latex(text: str) -> str:
    return "".join(_LATEX_SPECIAL.get(ch, ch) for ch in str(text))


def _flat_columns(columns: pd.Index) -> list[str]:
    """Column labels as strings; a MultiIndex's levels joined by a space."""
    if columns.nlevels == 1:
        return [str(c) for c in columns]
    return [" ".join(str(part) for part in c if str(part)) for c in columns]
