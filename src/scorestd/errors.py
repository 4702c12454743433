"""Exceptions and warnings raised by scorestd.

Every error about input data says *where* the problem is: the file and line, or the
topic, system or measure label at fault.
"""

from __future__ import annotations

import os
import sys
import warnings

_PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__)) + os.sep


class ScorestdError(Exception):
    """Base class of the errors scorestd raises on purpose."""


class ScoreDataError(ScorestdError, ValueError):
    """Scores or labels that cannot be used, with the place they came from.

    Parameters
    ----------
    message : str
        What is wrong.
    path : str or os.PathLike, optional
        The file at fault.
    line : int, optional
        The 1-based line number in ``path``.

    Examples
    --------
    >>> str(ScoreDataError("expected 3 fields, found 2", path="run.txt", line=7))
    'run.txt, line 7: expected 3 fields, found 2'
    """

    def __init__(
        self, message: str, *, path: str | os.PathLike | None = None, line: int | None = None
    ) -> None:
        self.path = None if path is None else os.fspath(path)
        self.line = line
        self.message = message
        where = ""
        if self.path is not None:
            where = self.path if line is None else f"{self.path}, line {line}"
        elif line is not None:
            where = f"line {line}"
        super().__init__(f"{where}: {message}" if where else message)


class OptionError(ScorestdError, ValueError):
    """An argument outside its allowed values: an unknown option, a probability ≥ 1, a
    negative count. Every check of :mod:`scorestd._options` raises it.

    Examples
    --------
    >>> import scorestd
    >>> scorestd.power_function("paired_t", variance=-1)
    Traceback (most recent call last):
    ...
    scorestd.errors.OptionError: variance must be a finite number > 0; got -1
    """


class UnreachableTargetError(ScorestdError, ValueError):
    """A solver cannot reach the requested power (or width) within its bounds."""


class ScorestdWarning(UserWarning):
    """Warnings about the data or a policy decision (e.g. a degenerate topic).

    The test suite turns these into errors, so each one a function may emit is
    documented and tested.
    """


def warn(message: str, category: type[Warning] = ScorestdWarning) -> None:
    """Warn at the caller's line: the first frame outside the scorestd package.

    A fixed ``stacklevel`` points inside scorestd whenever the warning is reached
    through another public function (``standardize`` calling ``fit``, say).

    Examples
    --------
    >>> import warnings
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     warn("topic t17: all systems score the same")
    >>> caught[0].filename.endswith("errors.py")
    False
    """
    level, frame = 2, sys._getframe(1)  # level 1 would be this function
    while frame is not None and frame.f_code.co_filename.startswith(_PACKAGE_DIR):
        level, frame = level + 1, frame.f_back
    warnings.warn(message, category, stacklevel=level)


def __getattr__(name: str):
    # Names of earlier releases, for one release.
    if name == "DesignError":
        warnings.warn("scorestd.errors.DesignError is now OptionError (the error of every "
                      "argument check); DesignError will be removed in the next release",
                      DeprecationWarning, stacklevel=2)
        return OptionError
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
