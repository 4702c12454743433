"""Pair copulas selected as R VineCopula's BiCopSelect selects them (the paper's call).

References: ``tests/results/bicopselect`` (``make_pairs.py`` → ``pairs.csv``, 60 pairs of
runs of adhoc8 AP and web2010 nDCG@20; ``bicopselect.R`` → ``r_bicopselect.csv``, R's
VineCopula 2.6.1 on them: the selected family and both Tawn types' fits).
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import pyvinecopulib as pv
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import optimize, stats

from scorestd.errors import OptionError
from scorestd.experiments.error_rate_pool import ErrorRatePool, resolve_pool
from scorestd.experiments.significance_errors import error_rates
from scorestd.kernels.pair_copulas import family_code
from scorestd.simulation import bicopselect as bs
from scorestd.simulation.copula import fit_pair_copula

RESULTS = Path(__file__).parents[1] / "results" / "bicopselect"


@pytest.fixture(scope="module")
def pairs():
    d = pd.read_csv(RESULTS / "pairs.csv")
    return {p: g[["u1", "u2"]].to_numpy() for p, g in d.groupby("pair")}


@pytest.fixture(scope="module")
def r_fits():
    return pd.read_csv(RESULTS / "r_bicopselect.csv")


def _r_tawn(code, par, par2):
    """pyvinecopulib's copula of a VineCopula Tawn code and parameters."""
    _, rotation, tawn_type = bs.vinecopula_family(int(code))
    return bs._tawn(pv, tawn_type, rotation, abs(par), par2)


def test_tawn_types_have_r_vinecopulas_density(pairs, r_fits):
    # R's log-likelihood at R's parameters (sum of BiCopPDF's logs) is pyvinecopulib's
    # Tawn with ψ₂ = 1 (type 1) or ψ₁ = 1 (type 2), rotated as pyvinecopulib rotates
    tawns = r_fits[r_fits.what == "tawn"]
    assert {104, 114, 204, 214} <= set(tawns.family)
    for row in tawns.itertuples():
        cop = _r_tawn(row.family, row.par, row.par2)
        assert cop.loglik(np.asfortranarray(pairs[row.pair])) == pytest.approx(row.loglik,
                                                                              abs=1e-8)


def test_tawn_fits_equal_r_vinecopulas(pairs, r_fits):
    # same box (ψ within [τ̂ − 0.1, τ̂ + 0.2]), same start: the same maximum
    for row in r_fits[r_fits.what == "tawn"].itertuples():
        _, rotation, tawn_type = bs.vinecopula_family(row.family)
        fit = bs.fit_tawn_type(pairs[row.pair], tawn_type, rotation)
        psi1, psi2, theta = fit.parameters.ravel()
        assert (psi1, psi2)[2 - tawn_type] == 1.0
        assert fit.loglik(np.asfortranarray(pairs[row.pair])) == pytest.approx(row.loglik,
                                                                              abs=1e-4)
        np.testing.assert_allclose([theta, (psi1, psi2)[tawn_type - 1]],
                                   [abs(row.par), row.par2], atol=2e-3)


def test_selection_equals_r_bicopselect(pairs, r_fits):
    selected = r_fits[r_fits.what == "select"].set_index("pair")
    ours = {p: bs.bicopselect(u) for p, u in pairs.items()}
    same = [ours[p].code == selected.loc[p, "family"] for p in pairs]
    assert sum(same) == len(pairs)  # 60 of 60
    for p in pairs:  # the Joe copula's bounds differ a little (AIC −7.25 against −7.65)
        assert ours[p].aic == pytest.approx(selected.loc[p, "aic"], abs=0.5)
    # both families occur: the selection is not trivially one family
    assert len({c.code for c in ours.values()}) >= 8


def test_fit_tawn_type_recovers_known_parameters():
    for tawn_type, rotation, psi, theta in [(1, 0, 0.6, 3.0), (2, 180, 0.5, 5.0),
                                            (1, 90, 0.7, 2.5), (2, 270, 0.4, 4.0)]:
        true = bs._tawn(pv, tawn_type, rotation, theta, psi)
        u = true.sample(4000, seeds=[tawn_type, rotation, 7])
        fit = bs.fit_tawn_type(u, tawn_type, rotation, bounds="full")
        psi1, psi2, th = fit.parameters.ravel()
        assert (psi1, psi2)[2 - tawn_type] == 1.0
        # within about 3 standard errors (n = 4000)
        assert abs((psi1, psi2)[tawn_type - 1] - psi) < 0.08
        assert abs(th - theta) < 0.25 * theta
    # VineCopula's box holds the truth here (τ = 0.53, ψ = 0.6): the same fit
    true = bs._tawn(pv, 1, 0, 4.0, 0.6)
    u = true.sample(4000, seeds=[1, 2, 3])
    boxed, full = bs.fit_tawn_type(u, 1, 0), bs.fit_tawn_type(u, 1, 0, bounds="full")
    np.testing.assert_allclose(boxed.parameters, full.parameters, atol=1e-3)
    with pytest.raises(OptionError, match="bounds must be one of 'vinecopula', 'full'; "
                                          "got 'wide'"):
        bs.fit_tawn_type(u, 1, 0, bounds="wide")


def test_bad_tawn_bounds_is_refused_not_a_tawn_left_out():
    # each candidate's fit is tried and a ValueError leaves that family out: a bad
    # tawn_bounds must be refused before, not drop the Tawn types that fit these data
    u = bs._tawn(pv, 1, 0, 4.0, 0.6).sample(500, seeds=[1, 2, 3])
    codes = [c.code for c in bs.bicopselect_candidates(u, tawn_bounds="full")]
    assert 104 in codes and 204 in codes
    for call in (bs.bicopselect_candidates, bs.fitted_candidates, bs.bicopselect):
        with pytest.raises(OptionError, match="tawn_bounds must be one of 'vinecopula', "
                                              "'full'; got 'box'"):
            call(u, tawn_bounds="box")


def test_loglik_and_aic_choice_on_a_plain_loop(pairs):
    # each candidate's log-likelihood is the sum of the logs of pyvinecopulib's pdf at
    # its parameters, point by point; the least AIC wins (the first of equal ones)
    for p in (0, 7, 30, 41, 58):
        u = np.asfortranarray(pairs[p])
        cands = bs.bicopselect_candidates(u)
        assert [c.code for c in cands] == [c for c in bs.preselected_families(u)
                                           if c in {c.code for c in cands}]
        best_code, best_aic = None, np.inf
        for c in cands:
            loglik = 0.0
            for point in u:
                loglik += np.log(c.copula.pdf(point[None, :])[0]) if c.code else 0.0
            assert loglik == pytest.approx(c.loglik, rel=1e-10, abs=1e-10)
            aic = -2 * loglik + 2 * c.npars
            if aic < best_aic:
                best_code, best_aic = c.code, aic
        assert bs.bicopselect(u).code == best_code


def test_preselection_follows_the_tails():
    rng = np.random.default_rng(3)
    z = rng.multivariate_normal([0, 0], [[1, 0.6], [0.6, 1]], 400)
    u = np.column_stack([np.argsort(np.argsort(c)) + 1 for c in z.T]) / 401
    assert bs.preselected_families(u) == [0, *bs._POSITIVE]  # symmetric tails
    upper = bs._tawn(pv, 1, 0, 6.0, 0.9).sample(400, seeds=[5])  # upper tail dependence
    fams = bs.preselected_families(upper)
    assert 104 in fams and 114 not in fams and 0 in fams and 2 in fams
    assert bs.preselected_families(1 - upper) == bs.preselected_families(
        1 - upper, tau=stats.kendalltau(upper[:, 0], upper[:, 1]).statistic)
    assert 114 in bs.preselected_families(1 - upper)
    neg = np.column_stack([u[:, 0], 1 - u[:, 1]])
    assert all(c in bs._NEGATIVE or c == 0 for c in bs.preselected_families(neg))


def _transposed(code):
    """VineCopula's code of the copula of ``(V, U)``."""
    if code > 100:
        swapped = {1: 2, 2: 1}[code // 100] * 100
        return swapped + {0: 0, 1: 10, 2: 30, 3: 20}[(code % 100) // 10] + 4
    if code in (0, 1, 2, 5):
        return code
    tens = (code - 1) // 10
    return code + {0: 0, 1: 0, 2: 10, 3: -10}[tens]


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), rho=st.floats(-0.9, 0.9), skew=st.floats(0, 1))
def test_preselection_of_the_swapped_pair_is_the_transposed_set(seed, rho, skew):
    rng = np.random.default_rng(seed)
    z = rng.multivariate_normal([0, 0], [[1, rho], [rho, 1]], 60)
    z[:, 1] += skew * np.maximum(z[:, 0], 0) ** 2  # heavier in one tail
    u = np.column_stack([np.argsort(np.argsort(c)) + 1 for c in z.T]) / 61
    forward = bs.preselected_families(u)
    assert 0 in forward
    assert sorted(bs.preselected_families(u[:, ::-1])) == sorted(map(_transposed, forward))


@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), rotation=st.sampled_from([0, 90, 180, 270]))
def test_a_tawn_type_fitted_to_the_swapped_pair_is_the_other_type(seed, rotation):
    u = bs._tawn(pv, 1, rotation, 3.0, 0.5).sample(300, seeds=[seed % 1000, 1])
    fit = bs.fit_tawn_type(u, 1, rotation)
    other = bs.fit_tawn_type(np.ascontiguousarray(u[:, ::-1]), 2,
                             {0: 0, 180: 180, 90: 270, 270: 90}[rotation])
    assert fit.loglik(u) == pytest.approx(other.loglik(np.asfortranarray(u[:, ::-1])),
                                          rel=1e-9)
    np.testing.assert_allclose(fit.parameters.ravel(), other.parameters.ravel()[[1, 0, 2]],
                               atol=1e-6)


def test_fit_pair_copula_with_bicopselect_families(pairs):
    import scorestd

    x = np.asarray(scorestd.datasets.load("adhoc8").sel(measure="ap").values)[:, [3, 9]]
    row, fell_back = fit_pair_copula(x, seed=(0, 3, 9), families="bicopselect")
    assert not fell_back and row.shape == (6,)
    if row[0] == family_code("tawn"):
        assert 1.0 in row[2:4]  # a Tawn type: one ψ is 1
    with pytest.raises(OptionError, match="pair_families must be one of"):
        fit_pair_copula(x, seed=1, families="R")


def test_pool_keeps_its_family_set(tmp_path):
    import scorestd

    cube = scorestd.datasets.load("adhoc8").isel(system=slice(0, 12))
    pool = ErrorRatePool({"a8": cube})  # the default family set: BiCopSelect's
    assert pool.pair_families == "bicopselect"
    rows = pool["ap"].pair_copulas(np.array([[0, 0, 1], [0, 2, 5]]))
    for (_, i, j), row in zip([(0, 0, 1), (0, 2, 5)], rows, strict=True):
        x = pool["ap"].scores[0][:, [i, j]]
        np.testing.assert_array_equal(
            row, fit_pair_copula(x, seed=(0, i, j), families="bicopselect")[0])
    path = tmp_path / "pool.npz"
    pool.save(path)
    again = ErrorRatePool.load(path, {"a8": cube})
    assert again.pair_families == "bicopselect"
    assert again["ap"].pair_families == "bicopselect"
    with pytest.raises(OptionError, match="family set 'bicopselect', not "
                                          "pair_families='vinecopulib'"):
        resolve_pool(path, {"a8": cube}, "vine", "vinecopulib")
    assert resolve_pool(path, {"a8": cube}, "vine")[0].pair_families == "bicopselect"
    with pytest.raises(OptionError, match="pair_families must be one of"):
        ErrorRatePool({"a8": cube}, pair_families="vinecopula")
    # a file written before the family set was recorded holds vinecopulib's fits
    ErrorRatePool({"a8": cube}, pair_families="vinecopulib").save(tmp_path / "v.npz")
    with np.load(tmp_path / "v.npz") as data:
        arrays = dict(data)
    meta = json.loads(str(arrays["meta"]))
    assert meta.pop("pair_families") == "vinecopulib"
    arrays["meta"] = np.array(json.dumps(meta))
    np.savez_compressed(tmp_path / "old.npz", **arrays)
    assert ErrorRatePool.load(tmp_path / "old.npz", {"a8": cube}).pair_families == \
        "vinecopulib"


def test_error_rates_with_bicopselect_families():
    import scorestd

    cube = scorestd.datasets.load("adhoc8").isel(system=slice(0, 16))
    kw = dict(measures=["ap"], n_topics=[25], deltas=None, tests=["paired_t", "sign"],
              trials=128, seed=2)
    res = error_rates({"a8": cube}, **kw)  # the default family set
    assert res.pool.pair_families == "bicopselect"
    rows = np.array(list(res.pool["ap"].fitted.values()))
    tawn = rows[rows[:, 0] == family_code("tawn")]
    assert np.all((tawn[:, 2] == 1.0) | (tawn[:, 3] == 1.0))
    assert 0.0 <= res.data["type1"].sel(test="paired_t", tails=2, alpha=0.05).item() < 0.15
    with pytest.raises(OptionError, match="pair_families must be one of"):
        error_rates({"a8": cube}, pair_families="all", **kw)
    with pytest.raises(OptionError, match="not pair_families='vinecopulib'"):
        error_rates({"a8": cube}, pool=res.pool, pair_families="vinecopulib", **kw)


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(0, 70), levels=st.integers(1, 200),
       nan=st.booleans())
def test_empirical_tau_is_scipys_number_bit_for_bit(seed, n, levels, nan):
    # the preselection's thresholds and the Tawn boxes compare this τ: scipy's number, as
    # the kernel's τ_b gives it, with ties, NaN and fewer than two rows (NaN)
    rng = np.random.default_rng(seed)
    u = rng.integers(0, levels, (n, 2)) / levels + rng.random((n, 2)) * (levels > 100)
    if nan and n:
        u[rng.integers(n), rng.integers(2)] = np.nan
    expected = float(stats.kendalltau(u[:, 0], u[:, 1]).statistic)
    assert np.array_equal(bs._empirical_tau(u), expected, equal_nan=True)


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(0, 60),
       quadrant=st.sampled_from([(1, 1), (-1, -1), (1, -1), (-1, 1)]))
def test_quadrant_correlation_is_numpys_corrcoef_bit_for_bit(seed, n, quadrant):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((n, 2)) + rng.standard_normal((n, 1))
    keep = (quadrant[0] * x[:, 0] > 0) & (quadrant[1] * x[:, 1] > 0)
    q = x[keep]
    if len(q) < 2:
        expected = np.nan
    else:
        expected = float(np.corrcoef(q[:, 0], q[:, 1])[0, 1])
    assert np.array_equal(bs._quadrant_corr(x, *quadrant), expected, equal_nan=True)


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), tawn_type=st.sampled_from([1, 2]),
       rotation=st.sampled_from([0, 90, 180, 270]))
def test_tawn_fit_takes_scipys_own_finite_difference_path(seed, tawn_type, rotation):
    # the reference: L-BFGS-B left to compute its gradient itself, a new copula at
    # every point; the fit must give the same parameters, bit for bit
    u = bs._tawn(pv, tawn_type, rotation, 2.5, 0.6).sample(50, seeds=[seed % 1000, 2])
    u = np.asfortranarray(u)
    tau = float(stats.kendalltau(u[:, 0], u[:, 1]).statistic)
    a = abs(tau)
    box = [(1.001, 20.0), (max(a - 0.1, 1e-4), min(a + 0.2, 0.99))]
    start = np.clip([1 + 6 * a, min(a + 0.1, 0.999)], [b[0] for b in box],
                    [b[1] for b in box])

    def negative_loglik(p):
        ll = bs._tawn(pv, tawn_type, rotation, p[0], p[1]).loglik(u)
        return -ll if np.isfinite(ll) else 1e250

    reference = optimize.minimize(negative_loglik, start, method="L-BFGS-B", bounds=box).x
    fit = bs.fit_tawn_type(u, tawn_type, rotation, tau=tau)
    expected = bs._tawn(pv, tawn_type, rotation, *reference).parameters
    np.testing.assert_array_equal(fit.parameters, expected)
