"""The bundled TREC matrices."""

from __future__ import annotations

import csv
from importlib import resources
from pathlib import Path

import numpy as np
import pytest

import scorestd
from scorestd import datasets
from scorestd.errors import ScoreDataError

SHARED = Path(__file__).resolve().parents[3] / "shared" / "data"


def _independent_csv_mean(path) -> tuple[float, int, int]:
    """Mean of every cell of a CSV matrix, computed without scorestd."""
    with open(path, newline="") as fh:
        rows = list(csv.reader(fh))
    cells = [float(v) for row in rows[1:] for v in row]
    return sum(cells) / len(cells), len(rows) - 1, len(rows[0])


def test_adhoc8_ap_shape_and_mean_match_the_csv(adhoc8_ap):
    with resources.as_file(resources.files("scorestd.datasets.data") / "adhoc8_ap.csv") as p:
        mean, n_topics, n_systems = _independent_csv_mean(p)
    assert (n_topics, n_systems) == (50, 129)  # the MANIFEST's shape
    assert dict(adhoc8_ap.sizes) == {"topic": 50, "system": 129, "measure": 1}
    assert float(adhoc8_ap.mean()) == pytest.approx(mean, rel=1e-12)


@pytest.mark.skipif(not SHARED.exists(), reason="the shared data folder is beside the project only in a checkout")
def test_bundled_files_are_unchanged_copies():
    bundled = resources.files("scorestd.datasets.data")
    for src in sorted((SHARED / "trec").glob("*.csv")):
        assert bundled.joinpath(src.name).read_bytes() == src.read_bytes(), src.name
    assert bundled.joinpath("LICENSE-DATA").read_bytes() == (SHARED / "LICENSE-DATA").read_bytes()


# SHA-256 over (name, bytes) of the 24 TREC CSVs and LICENSE-DATA in name order, computed
# from ../shared/data (the source the files were copied from), so that CI, where that
# folder is absent and the test above is skipped, still checks the bundled copies.
SHARED_DIGEST = "7f7ecdb23602d13e9771932f97c76c2cbfff959cbd595242eb8bad3f15612ce9"


def test_bundled_files_match_the_digest_of_the_shared_source():
    import hashlib

    bundled = resources.files("scorestd.datasets.data")
    csvs = sorted(p.name for p in bundled.iterdir()
                  if p.name.endswith(".csv") and p.name != "MANIFEST.csv")
    names = [*csvs, "LICENSE-DATA"]
    assert len(names) == 25
    digest = hashlib.sha256()
    for name in names:
        digest.update(name.encode())
        digest.update(bundled.joinpath(name).read_bytes())
    assert digest.hexdigest() == SHARED_DIGEST


def test_list_has_one_row_per_collection_with_its_measures():
    table = datasets.list()
    assert list(table.columns) == ["collection", "measures", "topics", "systems", "source"]
    assert len(table) == 10
    row = table.set_index("collection").loc["terabyte2006"]
    assert (row.measures, row.topics, row.systems) == ("ap, ndcg", 149, 61)


def test_load_collection_has_all_measures_and_label_coordinates(robust2004):
    assert robust2004.measure.values.tolist() == ["ap", "ndcg"]
    assert robust2004.sizes["topic"] == 99 and robust2004.sizes["system"] == 110
    # labels, not positions: run7 is the seventh column of the CSV, t03 the third row
    with resources.as_file(resources.files("scorestd.datasets.data") / "robust2004_ndcg.csv") as p:
        rows = list(csv.reader(open(p, newline="")))
    assert robust2004.sel(system="run7", topic="t03", measure="ndcg").item() == float(rows[3][6])
    assert robust2004.attrs["license"] == "CC-BY-SA-4.0"


def test_every_manifest_entry_loads_with_its_shape():
    for row in datasets._manifest():
        c = datasets.load(row["file"])
        assert c.sizes["topic"] == int(row["topics"]), row["file"]
        assert c.sizes["system"] == int(row["systems"]), row["file"]
        assert not np.isnan(c.values).any()


def test_load_returns_independent_copies():
    a = datasets.load("adhoc5_p10")
    a[0, 0, 0] = -1.0
    assert datasets.load("adhoc5_p10")[0, 0, 0].item() != -1.0


def test_measure_selection_and_unknown_names():
    assert datasets.load("robust2004", measure="ndcg").measure.values.tolist() == ["ndcg"]
    with pytest.raises(ScoreDataError, match="unknown dataset 'robust2005'"):
        datasets.load("robust2005")
    with pytest.raises(ScoreDataError, match=r"unknown measure 'p10'; the measures of dataset 'robust2004': \['ap', 'ndcg'\]"):
        datasets.load("robust2004", measure="p10")


def test_attribution_names_the_papers_and_licence():
    text = datasets.attribution()
    assert "Urbano" in text and "ShareAlike" in text
    assert scorestd.load("adhoc8").measure.values.tolist() == ["ap", "p10", "rr"]
