"""BLAS threads of the kernels: set once per call, restored after (scorestd.kernels.blas)."""

from __future__ import annotations

import numpy as np
import pytest

import scorestd
from scorestd.errors import OptionError
from scorestd.kernels import blas
from scorestd.kernels.paired import paired_t_all_pairs


def _threads() -> list[int]:
    return [getter() for _, getter in blas._controls()]


@pytest.fixture
def controls():
    if not blas._controls():
        pytest.skip("no OpenBLAS loaded in this process: nothing to set")
    before = _threads()
    for setter, _ in blas._controls():
        setter(2)  # a multi-threaded BLAS before the calls
    yield
    for (setter, _), count in zip(blas._controls(), before, strict=True):
        setter(count)


def test_a_kernel_runs_single_threaded_and_restores_the_count(controls, monkeypatch):
    seen = []

    @blas.limited_blas
    def kernel(x):
        seen.append(_threads())
        inner(x)  # a limited kernel inside another: the setting stays
        return x.T @ x

    @blas.limited_blas
    def inner(x):
        seen.append(_threads())

    kernel(np.ones((3, 2)))
    assert seen == [[1] * len(seen[0])] * 2
    assert _threads() == [2] * len(seen[0])


def test_the_user_chooses_the_threads(controls, monkeypatch):
    seen = []
    record = blas.limited_blas(lambda: seen.append(_threads()))
    with scorestd.blas_threads(2):
        record()
        with blas.single_threaded_blas():  # the engine's batches stay single-threaded
            record()
    monkeypatch.setenv(blas.BLAS_THREADS_ENV, "2")
    record()
    assert [s[0] for s in seen] == [2, 1, 2]
    assert blas.blas_thread_limit() == 2
    monkeypatch.setenv(blas.BLAS_THREADS_ENV, "not a number")
    assert blas.blas_thread_limit() == 1


def test_results_do_not_depend_on_the_threads():
    x = np.random.default_rng(0).random((40, 30))
    one = paired_t_all_pairs(x)
    with scorestd.blas_threads(2):
        two = paired_t_all_pairs(x)
    for a, b in zip(one, two, strict=True):
        np.testing.assert_allclose(a, b, rtol=1e-12)


def test_bad_thread_counts():
    with pytest.raises(OptionError, match="n must be an integer"), scorestd.blas_threads(0):
        pass
