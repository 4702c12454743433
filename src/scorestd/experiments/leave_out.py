"""Leave-one-out test of standardization (Sakai 2016; Zobel's pool-bias style).

A standardized score depends on the reference ("standardization") systems. To see how
fair standardization is to a *new* system, each run (or each group of runs, e.g. all
runs of one team) is removed from the reference, standardized against the remaining
runs, and its standardized mean over topics and its rank among the other runs are
compared with those it gets when every run is in the reference.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd
import xarray as xr

from .._options import Degenerate, check_option
from ..dims import MEASURE, SYSTEM, TOPIC
from ..errors import ScoreDataError
from ..kernels.correlation import kendall_tau_b
from ..mapping import maps_extra_dims
from ..models._base import Model
from ..models.schemes import check_schemes, scheme_model
from ..score_cube import validate
from ._scheme_tables import by_measure_and_scheme, finish_panels, measure_panels
from .result import Experiment, data_label

__all__ = ["LeaveOneOut", "leave_one_out"]


class LeaveOneOut(Experiment):
    """Result of :func:`leave_one_out`.

    ``data`` holds, over scheme × measure × system: ``mean_all`` (standardized mean
    with every run in the reference), ``mean_loo`` (with the run's group left out),
    ``change`` (``mean_loo − mean_all``), ``rank_all``, ``rank_loo`` (1 = best; the
    left-out run ranked among the other runs' ``mean_all``) and ``rank_change``; the
    ``group`` of each run is a coordinate.
    """

    def summary(self) -> pd.DataFrame:
        """Per (measure, scheme): max and mean absolute change, rank changes and τ.

        ``tau`` is Kendall's τ_b between the runs' ``mean_all`` and ``mean_loo``.

        Examples
        --------
        >>> import scorestd
        >>> ap = scorestd.datasets.load("adhoc8_ap").isel(system=slice(0, 15))
        >>> leave_one_out(ap, schemes=["N"]).summary().columns.tolist()
        ['max_abs_change', 'mean_abs_change', 'runs_rank_changed', 'max_abs_rank_change', 'tau']
        """
        d = self.data
        stats = xr.Dataset({
            "max_abs_change": np.abs(d["change"]).max(SYSTEM),
            "mean_abs_change": np.abs(d["change"]).mean(SYSTEM),
            "runs_rank_changed": (d["rank_change"] != 0).sum(SYSTEM),
            "max_abs_rank_change": np.abs(d["rank_change"]).max(SYSTEM),
            "tau": xr.apply_ufunc(kendall_tau_b, d["mean_all"], d["mean_loo"],
                                  input_core_dims=[[SYSTEM], [SYSTEM]]),
        })
        frame = stats.to_dataframe()[list(stats.data_vars)]
        return by_measure_and_scheme(frame)

    def plot(self, path: Any = None):
        """Standardized mean with all runs against leave-one-out, a panel per measure.

        Returns
        -------
        matplotlib.figure.Figure
        """
        fig, panels = measure_panels(self.data[MEASURE].values, 4, 3.8)
        for ax, m in panels:
            for scheme in self.data["scheme"].values:
                sel = self.data.sel(scheme=scheme, measure=m)
                ax.scatter(sel["mean_all"], sel["mean_loo"], s=10, label=str(scheme))
            lo = float(min(self.data["mean_all"].min(), self.data["mean_loo"].min()))
            hi = float(max(self.data["mean_all"].max(), self.data["mean_loo"].max()))
            ax.plot([lo, hi], [lo, hi], color="grey", linewidth=1)
            ax.set_xlabel("standardized mean, all runs in the reference")
            ax.set_ylabel("standardized mean, left out")
            ax.set_title(str(m))
            ax.legend(fontsize="small")
        return finish_panels(fig, path)


@maps_extra_dims()
def leave_one_out(
    scores: Any,
    *,
    schemes: Sequence[str] = ("N", "U", "E"),
    scheme_options: Mapping[str, Mapping[str, Any]] | None = None,
    groups: Mapping[str, Any] | pd.Series | None = None,
    degenerate: Degenerate = "unstandardized",
) -> LeaveOneOut:
    """Leave each run (or group of runs) out of the reference and re-standardize it.

    Parameters
    ----------
    scores : xarray.DataArray
        A cube or 2-D ``(topic, system)`` array. Means are over the topics where a run
        has a score (``NaN`` skipped); ``NaN`` reference scores are skipped when fitting.
    schemes : sequence of str
        Standardization schemes (``"z"``, ``"N"``, ``"U"``, ``"E"`` or model names;
        ``"raw"`` gives no change by construction).
    scheme_options : mapping, optional
        Options of a scheme's model, e.g. ``{"U": {"A": 0.2, "B": 0.5}}`` (see
        :func:`scorestd.models.schemes.check_schemes`).
    groups : mapping or pandas.Series, optional
        Run → group (e.g. team; :func:`scorestd.io.read_groups` reads one from a CSV
        file). All runs of a group are left out together. Default: each run is its own
        group.
    degenerate : {"unstandardized", "nan", "raise"}
        Topics whose reference runs all score the same, as in :func:`scorestd.standardize`
        (each left-out group's reference is checked too, with a warning naming the topics).

    Returns
    -------
    LeaveOneOut
        ``data`` per run and ``summary()`` per measure and scheme.

    Raises
    ------
    ScoreDataError
        If ``groups`` misses runs of ``scores`` or names runs that are not in it, or a
        group leaves fewer than two runs in the reference.

    Examples
    --------
    >>> import scorestd
    >>> ap = scorestd.datasets.load("adhoc8_ap").isel(system=slice(0, 15))
    >>> loo = leave_one_out(ap, schemes=["U"])
    >>> round(float(loo.summary().loc[("ap", "U"), "max_abs_change"]), 4)
    0.0541
    """
    check_option(degenerate, Degenerate, "degenerate")
    c = validate(scores)
    schemes = check_schemes(schemes, scheme_options)
    runs = c[SYSTEM].values.tolist()
    group_of = _groups(runs, groups)
    members: dict[Any, list[str]] = {}
    for run in runs:
        members.setdefault(group_of[run], []).append(run)
    for g, left_out in members.items():
        if len(runs) - len(left_out) < 2:
            raise ScoreDataError(f"leaving out group {g!r} ({len(left_out)} runs) leaves fewer "
                                 f"than two runs in the reference")
    mean_all, mean_loo = [], []
    positions = {run: k for k, run in enumerate(runs)}
    left_out = [np.array([positions[r] for r in group]) for group in members.values()]
    for scheme in schemes:
        model = scheme_model(scheme, scheme_options)
        if model is None:
            full = loo = c
        else:
            full = model.standardize(c, degenerate=degenerate)
            loo = full.copy(data=_left_out_cdfs(c, model, left_out, degenerate))
        mean_all.append(full.mean(TOPIC, skipna=True))
        mean_loo.append(loo.mean(TOPIC, skipna=True))
    scheme_dim = pd.Index(list(schemes), name="scheme")
    all_ = xr.concat(mean_all, dim=scheme_dim).transpose("scheme", MEASURE, SYSTEM)
    left = xr.concat(mean_loo, dim=scheme_dim).transpose("scheme", MEASURE, SYSTEM)
    rank_all = _rank_among(all_.values, all_.values)
    rank_loo = _rank_among(left.values, all_.values)
    dims = ("scheme", MEASURE, SYSTEM)
    ds = xr.Dataset(
        {
            "mean_all": all_.drop_vars([v for v in all_.coords if v not in dims]),
            "mean_loo": left.drop_vars([v for v in left.coords if v not in dims]),
            "rank_all": (dims, rank_all),
            "rank_loo": (dims, rank_loo),
        },
        attrs={"experiment": "leave-one-out",
               "data": data_label(c),
               "n_groups": len(members), "n_systems": len(runs)},
    )
    ds["change"] = ds["mean_loo"] - ds["mean_all"]
    ds["rank_change"] = ds["rank_loo"] - ds["rank_all"]
    ds = ds.assign_coords(group=(SYSTEM, [str(group_of[r]) for r in runs]))
    return LeaveOneOut(ds)


def _left_out_cdfs(c: xr.DataArray, model: Model, left_out: list[np.ndarray],
                   degenerate: str) -> np.ndarray:
    """``(T, S, M)``: each group's scores through the model fitted on all other runs.

    Works on the numpy arrays once (:meth:`~scorestd.models.Model.transform`): no labelled
    cube per group (as many as there are runs) is built, validated and fitted.
    """
    values = np.ascontiguousarray(np.asarray(c.values).transpose(0, 2, 1))  # (T, M, S)
    out = np.empty(values.shape)
    for group in left_out:
        rest = np.setdiff1d(np.arange(values.shape[-1]), group)
        out[..., group] = model.transform(values[..., rest], values[..., group],
                                          degenerate=degenerate, labels=c)
    return out.transpose(0, 2, 1)


def _groups(runs: list[str], groups: Mapping[str, Any] | pd.Series | None) -> dict[str, Any]:
    if groups is None:
        return {r: r for r in runs}
    mapping = {str(k): v for k, v in dict(groups).items()}
    missing = [r for r in runs if r not in mapping]
    if missing:
        raise ScoreDataError(f"the group mapping misses {len(missing)} run(s): "
                             f"{', '.join(map(repr, missing[:5]))}{' …' if len(missing) > 5 else ''}")
    unknown = [k for k in mapping if k not in set(runs)]
    if unknown:
        raise ScoreDataError(f"the group mapping names run(s) not in the scores: "
                             f"{', '.join(map(repr, unknown[:5]))}{' …' if len(unknown) > 5 else ''}")
    return mapping


def _rank_among(values: np.ndarray, reference: np.ndarray) -> np.ndarray:
    """1 + the number of *other* runs whose reference mean is higher (1 = best)."""
    higher = reference[..., None, :] > values[..., :, None]  # (..., run, other)
    n = values.shape[-1]
    higher = higher & ~np.eye(n, dtype=bool)
    return 1 + higher.sum(axis=-1)
