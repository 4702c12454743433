"""Pseudo-observations of pairs of runs, for R's ``BiCopSelect`` (``bicopselect.R``).

Usage: ``python make_pairs.py > pairs.csv``. 60 pairs of kept runs (``prepare_collection``:
duplicates and the bottom 10% removed, as the paper) drawn with a fixed generator: 30
from adhoc8 AP (50 topics), 30 from web2010 nDCG@20 (50 topics), their pseudo-observations
with ties broken at random exactly as ``error_rates`` breaks them
(``pseudo_observations_random_ties`` seeded by the pair's key ``(collection, i, j)``;
collection 0 here). Columns: ``pair, collection, measure, i, j, u1, u2`` (one row a topic).
"""
import sys

import numpy as np

import scorestd
from scorestd.experiments.error_rate_pool import prepare_collection
from scorestd.simulation.copula import pseudo_observations_random_ties

rng = np.random.default_rng(19)
rows, pair = [], 0
for collection, measure in [("adhoc8", "ap"), ("web2010", "ndcg20")]:
    x = np.asarray(prepare_collection(scorestd.datasets.load(collection), measure).values)
    for _ in range(30):
        i, j = sorted(rng.choice(x.shape[1], 2, replace=False).tolist())
        u = pseudo_observations_random_ties(x[:, [i, j]], np.random.default_rng((0, i, j)))
        rows += [(pair, collection, measure, i, j, a, b) for a, b in u]
        pair += 1
sys.stdout.write("pair,collection,measure,i,j,u1,u2\n")
for r in rows:
    sys.stdout.write(",".join(map(str, r[:5])) + f",{float(r[5])!r},{float(r[6])!r}\n")
