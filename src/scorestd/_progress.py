"""One progress bar per job.

A long job (fitting, simulating, a resampling study, diagnostics) opens one bar with
:func:`progress_bar` and advances it in its own units. A job made of several parts gives
each part a share of its bar with :meth:`Progress.part`; any job that starts inside a part
(another function's :func:`progress_bar`) then moves that share instead of opening a bar of
its own, so a study of many pieces shows one bar with one ETA over the whole of it.

The bar is shown only when standard error is a terminal, unless the caller says otherwise;
:func:`quiet` turns every bar off (the command line's ``--quiet``).
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterator
from contextvars import ContextVar
from typing import Any

__all__ = ["Progress", "progress_bar", "quiet"]

# the share of the enclosing bar a nested job reports to: (bar, units of that bar)
_PART: ContextVar[tuple[Progress, float] | None] = ContextVar("scorestd_progress_part",
                                                               default=None)
_QUIET: ContextVar[bool] = ContextVar("scorestd_progress_quiet", default=False)

#: Layout of a bar: its label, percentage, done/total in the job's unit, elapsed and ETA.
BAR_FORMAT = "{desc}: {percentage:3.0f}%|{bar}| {n:.0f}/{total:.0f} {unit} [{elapsed}<{remaining}]"
#: Layout of a bar over parts of unlike units (``unit=None``): the percentage only.
SHARE_FORMAT = "{desc}: {percentage:3.0f}%|{bar}| [{elapsed}<{remaining}]"


class Progress:
    """A job's bar, or a share of an enclosing job's bar.

    ``advance(n)`` moves it by ``n`` of its ``total`` units; :meth:`part` gives a share of
    it to the jobs that run inside. A bar that is not shown still passes its silence on: a
    job inside a hidden bar shows nothing either.
    """

    def __init__(self, total: float, *, parent: tuple[Progress, float] | None = None,
                 bar: Any = None) -> None:
        self.total = max(float(total), 0.0)
        self.done = 0.0
        self._parent = parent
        self._bar = bar

    @property
    def shown(self) -> bool:
        """Whether this job's progress reaches a bar on the screen."""
        if self._parent is not None:
            return self._parent[0].shown
        return self._bar is not None

    def advance(self, n: float = 1) -> None:
        """Record ``n`` more units of work done (never beyond ``total``)."""
        n = min(float(n), self.total - self.done)
        if n <= 0:
            return
        self.done += n
        if self._parent is not None:
            parent, units = self._parent
            parent.advance(n * units / self.total)
        elif self._bar is not None:
            self._bar.update(n)

    @contextlib.contextmanager
    def part(self, units: float) -> Iterator[None]:
        """Give ``units`` of this bar to whatever job runs inside the block.

        On leaving the block the share counts as done, whether or not the inner job
        reported it (e.g. a job too short to open a bar).
        """
        start = self.done
        token = _PART.set((self, float(units)))
        try:
            yield
        finally:
            _PART.reset(token)
        self.advance(start + units - self.done)

    def close(self) -> None:
        if self._bar is not None:
            self._bar.close()
            self._bar = None


@contextlib.contextmanager
def progress_bar(total: float, desc: str, *, show: bool | None = None,
                 unit: str | None = "it") -> Iterator[Progress]:
    """One bar over a job of ``total`` units, or a share of the enclosing job's bar.

    Parameters
    ----------
    total : float
        Size of the job in its own units (trials, batches, iterations …).
    desc : str
        Label of the bar.
    show : bool, optional
        Show the bar; by default only when standard error is a terminal. Inside another
        job (:meth:`Progress.part`) the enclosing bar decides, and ``show`` is ignored;
        after :func:`quiet` nothing is shown.
    unit : str or None
        Name of one unit, shown after the count; ``None`` shows the percentage only (a
        job of parts in unlike units).

    Examples
    --------
    >>> with progress_bar(4, "outer", show=False) as outer:
    ...     with outer.part(3):
    ...         with progress_bar(10, "inner") as inner:   # 10 inner units = 3 outer ones
    ...             inner.advance(5)
    ...             print(outer.done)
    1.5
    >>> outer.done
    3.0
    """
    enclosing = _PART.get()
    if enclosing is not None:
        job = Progress(total, parent=enclosing)
    else:
        visible = (sys.stderr is not None and sys.stderr.isatty()) if show is None else show
        bar = None
        if visible and total > 0 and not _QUIET.get():
            from tqdm.auto import tqdm

            bar = tqdm(total=float(total), desc=desc, unit=unit or "",
                       bar_format=BAR_FORMAT if unit else SHARE_FORMAT, file=sys.stderr,
                       dynamic_ncols=True)
        job = Progress(total, bar=bar)
    # a job inside this one that is not given a part adds nothing and shows no bar
    token = _PART.set((job, 0.0))
    try:
        yield job
    finally:
        _PART.reset(token)
        job.close()


@contextlib.contextmanager
def quiet(enabled: bool = True) -> Iterator[None]:
    """Show no progress bar inside the block (``enabled=False`` changes nothing)."""
    token = _QUIET.set(_QUIET.get() or bool(enabled))
    try:
        yield
    finally:
        _QUIET.reset(token)
