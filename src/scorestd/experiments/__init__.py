"""Resampling experiments: the studies of the source papers, vectorised over trials.

Every experiment draws the index sets of all its trials up front
(:func:`~scorestd.experiments.engine.draw_trials`), computes its statistics for batches of
trials with the numpy kernels (:func:`~scorestd.experiments.engine.run_batches`, optionally
on a ``dask.distributed`` cluster) and returns an :class:`Experiment` whose ``data`` is an
:class:`xarray.Dataset` with ``summary()`` (the paper's table) and ``plot()`` (its figure).

- :func:`within_collection`, :func:`between_collection`: Urbano, Lima & Hanjalic (2019).
- :func:`split_half`: Ravana & Moffat (2009).
- :func:`smoothing`: Ravana, Park & Moffat (2009).
"""

from . import engine
from .between import BetweenCollection, between_collection
from .result import ALPHAS, Experiment
from .smoothing import Smoothing, smoothing
from .split_half import SplitHalf, split_half
from .within import WithinCollection, within_collection

__all__ = [
    "ALPHAS",
    "BetweenCollection",
    "Experiment",
    "Smoothing",
    "SplitHalf",
    "WithinCollection",
    "between_collection",
    "engine",
    "smoothing",
    "split_half",
    "within_collection",
]
