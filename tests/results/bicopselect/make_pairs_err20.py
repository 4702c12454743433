"""Pseudo-observations of 1,000 ERR@20 pairs of the error-rate study, for R's BiCopSelect.

Usage: ``python make_pairs_err20.py > pairs_err20.csv`` (then ``select_err20.R``). Pairs ``(c, i, j)`` drawn with a
fixed generator from every pair of kept runs (``prepare_collection``) of web2010–2013 ERR@20,
``c`` the collection's index in the study's ERR@20 pool; pseudo-observations with ties broken
at random exactly as the study breaks them (seed ``(c, i, j)``). Columns as ``pairs.csv``,
plus ``ours``: the family code our ``bicopselect`` selects.
"""
import sys

import numpy as np

import scorestd
from scorestd.experiments.error_rate_pool import prepare_collection
from scorestd.simulation import bicopselect as bs
from scorestd.simulation.copula import pseudo_observations_random_ties

keys, data = [], {}
for c, name in enumerate(["web2010", "web2011", "web2012", "web2013"]):
    data[c] = np.asarray(prepare_collection(scorestd.datasets.load(name), "err20").values)
    s = data[c].shape[1]
    keys += [(c, i, j) for i in range(s) for j in range(i + 1, s)]
rng = np.random.default_rng(2019)
chosen = [keys[k] for k in sorted(rng.choice(len(keys), 1000, replace=False))]
sys.stdout.write("pair,collection,measure,i,j,u1,u2,ours\n")
for pair, (c, i, j) in enumerate(chosen):
    u = pseudo_observations_random_ties(data[c][:, [i, j]], np.random.default_rng((c, i, j)))
    ours = bs.bicopselect(u).code
    for a, b in u:
        sys.stdout.write(f"{pair},{c},err20,{i},{j},{float(a)!r},{float(b)!r},{ours}\n")
