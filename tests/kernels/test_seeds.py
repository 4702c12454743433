"""One reading of seed=: integers, SeedSequences (never advanced), Generators; and the record."""

from __future__ import annotations

import numpy as np
import pytest
import xarray as xr
from hypothesis import given
from hypothesis import strategies as st

import scorestd
from scorestd.errors import OptionError
from scorestd.kernels.seeds import root_sequence, seed_record


@given(st.integers(0, 2**128 - 1), st.lists(st.integers(0, 2**32 - 1), max_size=3),
       st.integers(0, 5))
def test_property_a_seed_sequence_is_copied_and_recorded_reproducibly(entropy, key, spawned):
    parent = np.random.SeedSequence(entropy, spawn_key=tuple(key))
    parent.spawn(spawned)
    root = root_sequence(parent)
    children = [c.generate_state(2).tolist() for c in root.spawn(3)]
    # the caller's object did not move, and passing it again gives the same children
    assert parent.n_children_spawned == spawned
    assert [c.generate_state(2).tolist() for c in root_sequence(parent).spawn(3)] == children
    # what is recorded reproduces them (plain-integer records are fed back as integers)
    record = seed_record(root_sequence(parent))
    if isinstance(record, int) or record.isdigit():
        again = root_sequence(int(record))
    else:  # a SeedSequence(...) text: rebuild it from its own fields
        again = eval(record, {"SeedSequence": np.random.SeedSequence})
    assert [c.generate_state(2).tolist() for c in again.spawn(3)] == children


def test_integers_generators_and_bad_seeds():
    assert root_sequence(2019).entropy == 2019 and seed_record(root_sequence(2019)) == 2019
    rng = np.random.default_rng(3)
    first, second = root_sequence(rng), root_sequence(rng)
    assert first.entropy != second.entropy  # a generator advances, as generators do
    assert root_sequence(np.random.default_rng(3)).entropy == first.entropy
    assert root_sequence(np.random.PCG64(3)).entropy == first.entropy
    assert isinstance(seed_record(first), str)  # 128 bits do not fit a netCDF integer
    assert isinstance(root_sequence(None), np.random.SeedSequence)
    with pytest.raises(ValueError, match="seed= is required: because"):
        root_sequence(None, required=True, why="because")
    for bad in (-1, 1.5, "7", True):
        with pytest.raises(OptionError, match="seed must be"):
            root_sequence(bad)


@pytest.fixture(scope="module")
def ap():
    return scorestd.datasets.load("adhoc8_ap").isel(system=slice(0, 12))


EXPERIMENTS = {
    "within_collection": lambda c, s: scorestd.within_collection(
        c, trials=3, n_topics=10, seed=s, schemes=["raw"]),
    "between_collection": lambda c, s: scorestd.between_collection(
        c, trials=3, n_topics=10, seed=s, schemes=["raw"]),
    "split_half": lambda c, s: scorestd.split_half(c, trials=3, seed=s, schemes=["raw"]),
    "swap_rate": lambda c, s: scorestd.swap_rate(c, sizes=[5, 10], trials=3, seed=s),
    "discriminative_power": lambda c, s: scorestd.discriminative_power(
        c, test="permutation", B=50, seed=s, schemes=["raw"]),
}


@pytest.mark.parametrize("name", list(EXPERIMENTS))
def test_experiments_take_any_seed_and_write_what_reproduces_them(name, ap, tmp_path):
    run = EXPERIMENTS[name]
    child = np.random.SeedSequence(11).spawn(2)[1]
    first = run(ap, child)
    assert child.n_children_spawned == 0
    xr.testing.assert_identical(run(ap, child).data, first.data)  # same object, same answer
    # the record reproduces the run, and the result can be written to netCDF
    again = run(ap, eval(first.data.attrs["seed"], {"SeedSequence": np.random.SeedSequence}))
    xr.testing.assert_identical(again.data, first.data)
    first.data.to_netcdf(tmp_path / "result.nc")
    from_rng = run(ap, np.random.default_rng(5))
    xr.testing.assert_identical(run(ap, int(from_rng.data.attrs["seed"])).data, from_rng.data)
    from_rng.data.to_netcdf(tmp_path / "from_rng.nc")
    assert run(ap, 4).data.attrs["seed"] == 4
