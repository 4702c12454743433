"""The bundled TREC score matrices (CC BY-SA 4.0; see ``ATTRIBUTION.md``).

>>> from scorestd import datasets
>>> datasets.load("robust2004").sizes["measure"]
2
"""

from __future__ import annotations

import builtins
import csv
import functools
import pathlib
from importlib import resources

import numpy as np
import pandas as pd
import xarray as xr

from ..dims import MEASURE, SYSTEM, TOPIC
from ..errors import ScoreDataError
from ..measures import find_measure
from ..score_cube import cube

__all__ = ["EXAMPLES", "attribution", "example_path", "is_dataset", "list", "load", "names"]

_DATA = "scorestd.datasets.data"

#: Example files: name → what it is (see :func:`example_path`).
EXAMPLES = {
    "trec_eval": "a folder of trec_eval -q outputs, one per run (4 runs, topics 401-420)",
    "runs": "a folder of TREC run files (topic Q0 docid rank score tag)",
    "qrels": "the TREC qrels of those runs (topic 0 docid relevance)",
}

#: Full references of the source keys used in ``MANIFEST.csv``.
SOURCES = {
    "urbano2019-standardization": (
        "Urbano, Lima & Hanjalic (2019). A New Perspective on Score Standardization. SIGIR."
    ),
    "urbano2019-statistical": (
        "Urbano, Lima & Hanjalic (2019). Statistical Significance Testing in Information "
        "Retrieval: An Empirical Analysis of Type I, Type II and Type III Errors. SIGIR."
    ),
}
LICENSE = "CC-BY-SA-4.0"


@functools.cache
def _manifest() -> tuple[dict[str, str], ...]:
    with resources.files(_DATA).joinpath("MANIFEST.csv").open(encoding="utf-8") as fh:
        return tuple(csv.DictReader(fh))


def names() -> builtins.list[str]:
    """Names that :func:`load` accepts: collections, then ``collection_measure`` files.

    Examples
    --------
    >>> names()[:2]
    ['adhoc5', 'adhoc6']
    """
    rows = _manifest()
    collections = builtins.list(dict.fromkeys(r["collection"] for r in rows))
    return collections + [r["file"] for r in rows]


def is_dataset(name: str) -> bool:
    """Whether ``name`` is a bundled collection or matrix.

    Examples
    --------
    >>> is_dataset("adhoc8_ap"), is_dataset("adhoc9")
    (True, False)
    """
    return name in names()


def list() -> pd.DataFrame:
    """Table of the bundled collections: collection, measures, topics, systems, source.

    Examples
    --------
    >>> table = list()
    >>> table.loc[table.collection == "robust2004", ["measures", "topics", "systems"]].values.tolist()
    [['ap, ndcg', 99, 110]]
    """
    rows = []
    for collection in dict.fromkeys(r["collection"] for r in _manifest()):
        files = [r for r in _manifest() if r["collection"] == collection]
        rows.append({
            "collection": collection,
            "measures": ", ".join(r["measure"] for r in files),
            "topics": int(files[0]["topics"]),
            "systems": int(files[0]["systems"]),
            "source": SOURCES[files[0]["source"]],
        })
    return pd.DataFrame(rows)


def load(name: str, *, measure: str | None = None) -> xr.DataArray:
    """Load a bundled collection (all its measures) or one matrix as a score cube.

    Topics are labelled ``t01``, ``t02``, … in the published row order (the source
    does not carry TREC topic ids), systems by their anonymised run ids
    (``run1``, …). Both are labels: select with ``.sel(system="run7")``.

    Parameters
    ----------
    name : str
        A collection (``"robust2004"``) or a matrix (``"robust2004_ap"``); see
        :func:`names`.
    measure : str, optional
        Keep only this measure.

    Returns
    -------
    xarray.DataArray
        The cube, with ``collection``, ``source`` and ``license`` in ``attrs``.

    Examples
    --------
    >>> c = load("adhoc8_ap")
    >>> dict(c.sizes)
    {'topic': 50, 'system': 129, 'measure': 1}
    """
    rows = [r for r in _manifest() if name in (r["collection"], r["file"])]
    if not rows:
        raise ScoreDataError(f"unknown dataset {name!r}; choose one of {names()}")
    if measure is not None:  # any usual spelling
        measure = find_measure(measure, [r["measure"] for r in rows], what=f"dataset {name!r}")
        rows = [r for r in rows if r["measure"] == measure]
    return _load_files(tuple(r["file"] for r in rows)).copy(deep=True)


def example_path(name: str) -> pathlib.Path:
    """The path of an example file or folder shipped with the package.

    A small synthetic collection in the formats researchers have, for trying the readers
    and the README's tour: ``"trec_eval"`` (a folder of ``trec_eval -q`` outputs),
    ``"runs"`` (a folder of TREC run files) and ``"qrels"`` (their judgements); see
    :data:`EXAMPLES`.

    Examples
    --------
    >>> example_path("trec_eval").name
    'trec_eval'
    >>> sorted(p.name for p in example_path("runs").iterdir())
    ['bm25.txt', 'qld.txt', 'rm3.txt', 'tfidf.txt']
    """
    if name not in EXAMPLES:
        raise ScoreDataError(f"unknown example {name!r}; choose one of {builtins.list(EXAMPLES)}")
    root = pathlib.Path(__file__).parent / "examples"
    return root / ("qrels.txt" if name == "qrels" else name)


def attribution() -> str:
    """The attribution text that travels with the bundled data.

    Examples
    --------
    >>> "CC" in attribution() or "Creative Commons" in attribution()
    True
    """
    return resources.files(_DATA).joinpath("ATTRIBUTION.md").read_text(encoding="utf-8")


@functools.cache
def _load_files(files: tuple[str, ...]) -> xr.DataArray:
    rows = {r["file"]: r for r in _manifest()}
    cubes = [_read_bundled(file, rows[file]["measure"]) for file in files]
    first = cubes[0]
    for other, file in zip(cubes[1:], files[1:], strict=True):
        if other.sizes[TOPIC] != first.sizes[TOPIC] or not (
            other[SYSTEM].values == first[SYSTEM].values
        ).all():
            raise ScoreDataError(f"bundled matrix {file} does not match {files[0]} in shape")
    merged = xr.concat(cubes, dim=MEASURE) if len(cubes) > 1 else first
    source = rows[files[0]]["source"]
    merged.attrs = {
        "collection": rows[files[0]]["collection"],
        "source": SOURCES[source],
        "license": LICENSE,
        "dataset": files[0] if len(files) == 1 else rows[files[0]]["collection"],
    }
    return merged.transpose(TOPIC, SYSTEM, MEASURE)


def _read_bundled(file: str, measure: str) -> xr.DataArray:
    """One bundled matrix: a header of run names, then one row of numbers per topic.

    The files are fixed and complete (their SHA-256 digests are tested), so a plain numeric
    read suffices; topics are labelled ``t01``… in row order as the source has no ids. The
    general reader with its checks is :func:`scorestd.read_matrix_csv` (``io`` reads through
    this package, not the other way round).
    """
    text = resources.files(_DATA).joinpath(f"{file}.csv").read_text(encoding="utf-8")
    header, *lines = [line for line in text.splitlines() if line.strip()]
    values = np.array([[float(cell) for cell in line.split(",")] for line in lines])
    width = len(str(len(lines)))
    return cube(values, topics=[f"t{i + 1:0{width}d}" for i in range(len(lines))],
                systems=[s.strip() for s in header.split(",")], measures=[measure])
