"""Reference draws of the normal crossed model, recorded with the sampler as it was before
the bounded likelihoods were added (commit fb7648a):

    git archive fb7648a src | tar -x -C /tmp/old
    PYTHONPATH=/tmp/old/src python tests/results/bayes/normal_draws.py > tests/results/bayes/normal_draws.json

The same seed must give the same draws today.
"""

import json

import scorestd

ap = scorestd.datasets.load("adhoc8_ap").isel(system=slice(0, 6), topic=slice(0, 25))
out = {}
for name, options in {"normal": {}, "student_t": {"errors": "student_t"},
                      "heteroscedastic": {"heteroscedastic": True}}.items():
    fit = scorestd.bayes_crossed(ap, chains=2, draws=50, warmup=20, seed=11,
                                 progress=False, **options)
    post = fit.posterior
    out[name] = {"mu": post["mu"].values[:, -5:].tolist(),
                 "system_effect": post["system_effect"].values[1, -3:].tolist(),
                 "sigma": post["sigma"].values[0, -3:].tolist(),
                 "prob_best": fit.prob_best().values.tolist()}
print(json.dumps(out, indent=1))
