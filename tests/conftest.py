"""Shared fixtures: the bundled data and small synthetic cubes."""

from __future__ import annotations

import os

import matplotlib
import numpy as np
import pytest
from hypothesis import HealthCheck, settings

import scorestd

matplotlib.use("Agg")

settings.register_profile(
    "ci", max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile("dev", max_examples=100, deadline=None)
settings.load_profile("ci" if os.environ.get("CI") else "dev")


@pytest.fixture(scope="session")
def robust2004():
    """The bundled robust2004 cube (99 topics × 110 systems × ap, ndcg)."""
    return scorestd.datasets.load("robust2004")


@pytest.fixture(scope="session")
def adhoc8_ap():
    """The bundled TREC-8 ad hoc AP cube (50 topics × 129 systems)."""
    return scorestd.datasets.load("adhoc8_ap")


@pytest.fixture
def small_cube():
    """A reproducible 12-topic × 6-system × 2-measure cube of scores in (0, 1)."""
    rng = np.random.default_rng(20190721)
    values = rng.beta(2.0, 5.0, size=(12, 6, 2))
    return scorestd.cube(values, measures=["ap", "ndcg"], attrs={"collection": "synthetic"})
