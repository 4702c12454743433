"""Reference posteriors of the crossed random-effects model from PyMC (NUTS).

Produces ``bayes_pymc_crossed.csv`` beside this script, read by
``tests/bayes/test_crossed.py``. Run (PyMC is not a dependency of scorestd; it needs
only pymc, numpy and pandas):

    python tests/results/bayes_pymc_crossed.py

The data: the first 25 topics × 8 systems (run1…run8) of the bundled TREC-8 ad hoc AP
matrix. Two specifications, each with the default priors of ``scorestd.bayes_crossed``
(every variance IG(1, 0.1·v), v the variance of the observed scores; μ flat):

``normal``
    normal homoscedastic residuals, complete data;
``student_t``
    Student-t residuals (ν = 4) and the 10 cells of ``MISSING`` removed (the sampler's
    general step: missing cells and the λ weights of the scale mixture).

(With one residual variance per system on top, these 25 topics give a bimodal posterior:
heavy tails or per-system variances can take the place of the topic effects. Both PyMC
and scorestd's sampler then leave chains in different modes — R-hat ≈ 1.5 — so that
specification makes no reference; ``tests/bayes/test_gibbs.py`` checks per-system
variances on larger simulated data.)

Written per parameter: posterior mean, sd and bulk ESS (for the Monte Carlo error) of
the system-effect differences α_s − α_run1, and of the sds.
"""

from pathlib import Path

import numpy as np
import pandas as pd

HERE = Path(__file__).parent
DATA = HERE.parents[1] / "src" / "scorestd" / "datasets" / "data" / "adhoc8_ap.csv"
TOPICS, SYSTEMS = 25, 8
MISSING = [(0, 1), (3, 2), (5, 5), (7, 0), (10, 7), (12, 3), (15, 4), (18, 6), (20, 1),
           (24, 2)]
NU = 4.0


def scores(missing: bool) -> np.ndarray:
    y = pd.read_csv(DATA).to_numpy(dtype=float)[:TOPICS, :SYSTEMS].copy()
    if missing:
        for t, s in MISSING:
            y[t, s] = np.nan
    return y


def fit(spec: str) -> pd.DataFrame:
    import arviz as az
    import pymc as pm  # imported here: the test suite imports this module without PyMC

    y = scores(spec == "student_t")
    t_idx, s_idx = np.nonzero(~np.isnan(y))
    obs = y[t_idx, s_idx]
    scale = 0.1 * float(np.nanvar(y))
    with pm.Model():
        mu = pm.Flat("mu")
        v_sys = pm.InverseGamma("var_system", alpha=1.0, beta=scale)
        v_top = pm.InverseGamma("var_topic", alpha=1.0, beta=scale)
        alpha = pm.Deterministic("alpha", pm.math.sqrt(v_sys)
                                 * pm.Normal("z_alpha", 0, 1, shape=SYSTEMS))
        beta = pm.Deterministic("beta", pm.math.sqrt(v_top)
                                * pm.Normal("z_beta", 0, 1, shape=TOPICS))
        loc = mu + alpha[s_idx] + beta[t_idx]
        if spec == "normal":
            v_res = pm.InverseGamma("var_residual", alpha=1.0, beta=scale)
            pm.Normal("y", loc, pm.math.sqrt(v_res), observed=obs)
        else:
            v_res = pm.InverseGamma("var_residual", alpha=1.0, beta=scale)
            pm.StudentT("y", nu=NU, mu=loc, sigma=pm.math.sqrt(v_res), observed=obs)
        idata = pm.sample(draws=4000, tune=2000, chains=4, cores=1, random_seed=20260101,
                          target_accept=0.95, progressbar=False)
    post = idata.posterior
    rows = []
    a = post["alpha"].values
    for s in range(1, SYSTEMS):
        d = a[..., s] - a[..., 0]
        rows.append((f"diff_run{s + 1}", d))
    rows.append(("sigma_system", np.sqrt(post["var_system"].values)))
    rows.append(("sigma_topic", np.sqrt(post["var_topic"].values)))
    rows.append(("sigma", np.sqrt(post["var_residual"].values)))
    out = []
    for name, draws in rows:
        ess = float(az.ess(np.asarray(draws), method="bulk"))
        out.append({"spec": spec, "parameter": name, "mean": float(draws.mean()),
                    "sd": float(draws.std(ddof=1)), "ess_bulk": ess})
    return pd.DataFrame(out)


if __name__ == "__main__":
    table = pd.concat([fit("normal"), fit("student_t")], ignore_index=True)
    table.to_csv(HERE / "bayes_pymc_crossed.csv", index=False, float_format="%.6g")
    print(table)
