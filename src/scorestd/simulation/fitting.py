"""Fit a margin to every system and keep the best family by AIC, BIC or likelihood."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np
import pandas as pd
import xarray as xr
from scipy import special

from .._options import MarginCriterion, check_option
from .._progress import progress_bar
from ..dims import MEASURE, SYSTEM, TOPIC
from ..errors import OptionError, ScoreDataError, warn
from ..mapping import maps_extra_dims
from ..measures import find_measure
from ..models import _grid
from ..models.discrete_margins import BetaBinomialMargin, OrderedKernelMargin, support_of
from ..models.margins import MarginFamily, expand, get_margin, nearest_index
from ..score_cube import validate
from .transform import apply_transform, solve_mean_transform

__all__ = ["CONTINUOUS_FAMILIES", "Margins", "fit_margins", "one_measure"]

#: The continuous candidates of simIReff.
CONTINUOUS_FAMILIES: tuple[str, ...] = ("truncnorm", "beta1", "nkde", "bkde")
#: Bandwidth multipliers of the ordered kernel candidates (simIReff tries 1, 2, 5, 10).
KERNEL_MULTIPLIERS: tuple[int, ...] = (1, 2, 5, 10)


def discrete_families(support: np.ndarray) -> list[MarginFamily]:
    """The discrete candidates of simIReff on ``support``: beta-binomial and the
    ordered kernel with bandwidth multipliers 1, 2, 5 and 10."""
    return [BetaBinomialMargin(support=support),
            *(OrderedKernelMargin(support=support, multiplier=m) for m in KERNEL_MULTIPLIERS)]


def one_measure(scores: Any, measure: str | None, *, what: str = "scores") -> xr.DataArray:
    """The validated ``(topic, system)`` scores of one measure, complete.

    Raises ``ScoreDataError`` for several measures without ``measure=``, an unknown
    measure (under any usual spelling, :func:`scorestd.measures.find_measure`), or a
    missing score (naming topic and system).
    """
    cube = validate(scores, what=what)
    measure = find_measure(measure, cube[MEASURE].values, what=f"the {what}")
    one = cube.sel({MEASURE: measure}).transpose(TOPIC, SYSTEM)
    if hasattr(one.data, "compute"):
        one = one.compute()
    missing = np.isnan(one.values)
    if missing.any():
        t, s = np.argwhere(missing)[0]
        raise ScoreDataError(
            f"{int(missing.sum())} missing scores for measure {measure!r} (first: topic "
            f"{str(one[TOPIC].values[t])!r}, system {str(one[SYSTEM].values[s])!r}); "
            "fitting margins needs complete scores")
    return one


@dataclass(frozen=True, eq=False)
class Margins:
    """One fitted margin per system: the selected family, its table, mean and variance.

    Attributes
    ----------
    systems : numpy.ndarray
        System labels ``(S,)``.
    measure : str
        The measure the scores are of.
    families : tuple of MarginFamily
        The candidate families.
    choice : numpy.ndarray
        ``(S,)`` index into ``families`` of each system's selected family.
    params : tuple of dict
        Per family, its parameters for every system (``NaN`` rows where it failed).
    stats : xarray.Dataset
        ``loglik``, ``df``, ``aic``, ``bic`` and ``ok`` over ``family`` × ``system``.
    table : numpy.ndarray
        ``(S, K)`` cdf of each margin on the grid (continuous) or on ``support``.
    support : numpy.ndarray or None
        The support of discrete margins.
    a, b : numpy.ndarray
        ``(S,)`` shapes of the mean transform (1 where none).
    mean, var : numpy.ndarray
        ``(S,)`` expectation and variance of each margin.
    scores : numpy.ndarray
        The ``(T, S)`` scores fitted on.
    criterion : str
        The selection criterion.
    """

    systems: np.ndarray
    measure: str
    families: tuple[MarginFamily, ...]
    choice: np.ndarray
    params: tuple[dict[str, np.ndarray], ...]
    stats: xr.Dataset
    table: np.ndarray
    support: np.ndarray | None
    a: np.ndarray
    b: np.ndarray
    mean: np.ndarray
    var: np.ndarray
    scores: np.ndarray = field(repr=False)
    criterion: str = "aic"

    def __repr__(self) -> str:
        counts = pd.Series(self.family).value_counts().to_dict()
        return (f"<Margins of {len(self.systems)} systems, measure {self.measure!r}: "
                f"{counts}>")

    @property
    def family(self) -> np.ndarray:
        """Label of each system's selected family ``(S,)``."""
        labels = np.array([f.label for f in self.families])
        return labels[self.choice]

    @property
    def discrete(self) -> bool:
        """Whether the margins are discrete."""
        return self.support is not None

    def summary(self) -> pd.DataFrame:
        """One row per system: family, mean, variance, log-likelihood, df, AIC, BIC.

        Examples
        --------
        >>> import scorestd
        >>> m = scorestd.fit_margins(scorestd.datasets.load("adhoc8"), measure="ap")
        >>> list(m.summary().columns)
        ['family', 'mean', 'var', 'observed_mean', 'loglik', 'df', 'aic', 'bic', 'a', 'b']
        """
        pick = self.stats.isel(family=xr.DataArray(self.choice, dims=SYSTEM),
                               system=xr.DataArray(np.arange(len(self.systems)), dims=SYSTEM))
        return pd.DataFrame({
            "family": self.family, "mean": self.mean, "var": self.var,
            "observed_mean": self.scores.mean(axis=0),
            "loglik": pick["loglik"].values, "df": pick["df"].values,
            "aic": pick["aic"].values, "bic": pick["bic"].values, "a": self.a, "b": self.b,
        }, index=pd.Index(self.systems, name=SYSTEM))

    # -- distribution functions (numpy, systems on the last axis) --------------------
    def _by_family(self, x: np.ndarray, func: str) -> np.ndarray:
        x = np.asarray(x, dtype=np.float64)
        if x.shape[-1] != len(self.systems):
            raise ValueError(f"the last axis must run over the {len(self.systems)} systems; "
                             f"got shape {x.shape}")
        rows = np.moveaxis(x, -1, 0).reshape(len(self.systems), -1)
        out = np.empty(rows.shape)
        for f, fam in enumerate(self.families):
            sel = self.choice == f
            if not sel.any():
                continue
            p = expand({k: v[sel] for k, v in self.params[f].items()}, 2)
            with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
                out[sel] = getattr(fam, func)(rows[sel], **p)
        return np.moveaxis(out.reshape(len(self.systems), *x.shape[:-1]), 0, -1)

    def cdf(self, x: Any) -> np.ndarray:
        """The cdf ``G_s(x)`` of each system at ``x`` ``(…, S)`` (after any mean transform).

        Examples
        --------
        >>> import scorestd
        >>> m = scorestd.fit_margins(scorestd.datasets.load("adhoc8"), measure="ap")
        >>> m.cdf(np.ones((1, len(m.systems)))).min()
        np.float64(1.0)
        """
        f = self._by_family(x, "_cdf")
        return special.betainc(self.a, self.b, np.clip(f, 0.0, 1.0))

    def logpdf(self, x: Any) -> np.ndarray:
        """Log density (log probability mass if discrete) of each system at ``x`` ``(…, S)``."""
        x = np.asarray(x, dtype=np.float64)
        log_f = self._by_family(x, "_logpdf")
        transformed = (self.a != 1) | (self.b != 1)
        if not transformed.any():
            return log_f
        if self.discrete:  # the mass of the matched support point, from the table
            idx, on = nearest_index(self.support, x)
            pmf = np.diff(self.table, axis=-1, prepend=0.0)
            mass = pmf[np.arange(len(self.systems)), idx]
            with np.errstate(divide="ignore"):
                return np.where(on, np.log(mass), -np.inf)
        f = np.clip(self._by_family(x, "_cdf"), 0.0, 1.0)
        with np.errstate(divide="ignore", invalid="ignore"):
            log_g = (special.xlogy(self.a - 1, f) + special.xlog1py(self.b - 1, -f)
                     - special.betaln(self.a, self.b))
        return np.where(transformed, log_f + log_g, log_f)

    def pdf(self, x: Any) -> np.ndarray:
        """Density (probability mass if discrete) of each system at ``x`` ``(…, S)``."""
        return np.exp(self.logpdf(x))

    def icdf(self, u: Any) -> np.ndarray:
        """Quantiles of each system at probabilities ``u`` ``(…, S)``, from the tables.

        Exact on a discrete support; linear between the grid points of the tabulated
        cdf for continuous margins (its round trip is within about 1e-6).
        """
        u = np.asarray(u, dtype=np.float64)
        outside = (u < 0) | (u > 1)
        if outside.any():
            raise OptionError(f"u must be probabilities in [0, 1]; got {float(u[outside][0])!r}")
        return _grid.table_inverse(self.table, u, support=self.support)

    def sample(self, n: int, *, rng: Any = None) -> np.ndarray:
        """``n`` independent draws of every system ``(n, S)`` (no dependence between them)."""
        generator = np.random.default_rng(rng)
        return self.icdf(generator.random((int(n), len(self.systems))))

    def loglik(self) -> np.ndarray:
        """Log-likelihood of each system's scores under its margin ``(S,)``."""
        return self.logpdf(self.scores).sum(axis=0)

    def transform(self, target: Mapping[str, float] | Sequence[float] | np.ndarray
                  ) -> Margins:
        """The margins with the expectations ``target`` imposed by the mean transform.

        Parameters
        ----------
        target : mapping of system to mean, or array ``(S,)``
            Target expectations in (0, 1); with an array, ``NaN`` keeps a system as is.
        Each target applies to the fitted margin of its system; systems without a
        target keep their margin, transformed or not (so transforms chain).

        Raises
        ------
        OptionError
            A target outside (0, 1), an unknown system, or a target the transform
            cannot reach (beyond the margin's support), naming the system.

        Examples
        --------
        >>> import scorestd
        >>> m = scorestd.fit_margins(scorestd.datasets.load("adhoc8"), measure="ap")
        >>> s = str(m.systems[10])
        >>> t = m.transform({s: 0.3})
        >>> round(float(t.mean[10]), 8)
        0.3
        """
        goal = np.full(len(self.systems), np.nan)
        if isinstance(target, Mapping):
            index = {str(s): i for i, s in enumerate(self.systems)}
            for system, value in target.items():
                if str(system) not in index:
                    raise OptionError(f"target names an unknown system {system!r}; the "
                                      f"systems are {list(index)[:10]}"
                                      f"{' …' if len(index) > 10 else ''}")
                goal[index[str(system)]] = float(value)
        else:
            goal = np.asarray(target, dtype=np.float64)
            if goal.shape != (len(self.systems),):
                raise OptionError(f"target needs one value per system ({len(self.systems)}); "
                                  f"got shape {goal.shape}")
        todo = ~np.isnan(goal)
        bad = todo & ~((goal > 0) & (goal < 1))
        if bad.any():
            s = int(np.flatnonzero(bad)[0])
            raise OptionError(f"target mean must be strictly between 0 and 1; got "
                              f"{float(goal[s])!r} for system {str(self.systems[s])!r}")
        base = self._untransformed_table()
        a, b, ok = solve_mean_transform(base[todo], goal[todo], self.support)
        if not ok.all():
            s = int(np.flatnonzero(todo)[np.flatnonzero(~ok)[0]])
            raise OptionError(f"target mean {float(goal[s])!r} cannot be reached from system "
                              f"{str(self.systems[s])!r} (mean {self.mean[s]:g}) by the "
                              "mean transform")
        new_a, new_b = self.a.copy(), self.b.copy()
        new_a[todo], new_b[todo] = a, b
        table = self.table.copy()  # the other systems keep their (transformed) margins
        table[todo] = apply_transform(base[todo], a, b)
        mean, var = _grid.table_moments(table, self.support)
        return replace(self, a=new_a, b=new_b, table=table, mean=mean, var=var)

    def _untransformed_table(self) -> np.ndarray:
        if np.all(self.a == 1) and np.all(self.b == 1):
            return self.table
        return _tabulate(self.families, self.choice, self.params, len(self.systems))


def _tabulate(families, choice, params, n_systems) -> np.ndarray:
    parts = {}
    for f, fam in enumerate(families):
        sel = choice == f
        if sel.any():
            parts[f] = (sel, fam._tabulate(**{k: v[sel] for k, v in params[f].items()}))
    width = next(iter(parts.values()))[1].shape[-1]
    table = np.empty((n_systems, width))
    for sel, tab in parts.values():
        table[sel] = tab
    return table


@maps_extra_dims()
def fit_margins(
    scores: Any,
    *,
    measure: str | None = None,
    families: Sequence[str | MarginFamily] | None = None,
    criterion: MarginCriterion = "aic",
    support: Any = "auto",
) -> Margins:
    """Fit a score distribution (margin) to every system across topics and select one.

    Every candidate family is fitted by maximum likelihood to the scores of each
    system; the selected family minimises AIC ``−2 ℓ + 2 df`` (or BIC
    ``−2 ℓ + df log n``, or maximises ℓ), with ``df`` the effective degrees of freedom
    (the smoother's trace for the kernel densities), as simIReff (Urbano & Nagler
    2018) does.

    Parameters
    ----------
    scores : xarray.DataArray
        A cube or ``(topic, system)`` array with complete scores in [0, 1].
    measure : str, optional
        The measure to fit (required when the cube has several).
    families : sequence of str or MarginFamily, optional
        Candidates (names from :func:`scorestd.simulation.margin_names` or instances).
        Default: truncated normal, beta (shapes ≥ 1), truncated Gaussian kernel and
        beta kernel densities for continuous scores; beta-binomial and the ordered
        discrete kernel (bandwidth × 1, 2, 5, 10) on a discrete support.
    criterion : {"aic", "bic", "loglik"}
        Selection criterion.
    support : "auto", None or array_like
        The discrete support: ``"auto"`` reads it from the measure name (P@k, RR;
        :func:`scorestd.simulation.support_of`), ``None`` means continuous.

    Returns
    -------
    Margins

    Raises
    ------
    ScoreDataError
        A missing score, a score outside [0, 1], a score off the discrete support
        (naming it), or a system no family can fit (naming it).

    Warns
    -----
    ScorestdWarning
        For each family that cannot be fitted to some systems (e.g. beta on a constant
        run), naming them: the family is skipped for those systems.

    Examples
    --------
    >>> import scorestd
    >>> p10 = scorestd.datasets.load("adhoc8").isel(system=slice(0, 20))
    >>> m = scorestd.fit_margins(p10, measure="p10")
    >>> m.discrete, str(sorted(set(m.family))[0])
    (True, 'betabinom')
    """
    check_option(criterion, MarginCriterion, "criterion")
    one = one_measure(scores, measure)
    measure = str(one[MEASURE].values) if MEASURE in one.coords else "score"
    x = np.asarray(one.values, dtype=np.float64)  # (T, S)
    systems = np.asarray(one[SYSTEM].values).astype(str)
    out = (x < 0) | (x > 1)
    if out.any():
        t, s = np.argwhere(out)[0]
        raise ScoreDataError(f"margins need scores in [0, 1]; system {systems[s]!r} has "
                             f"{x[t, s]:g} at topic {str(one[TOPIC].values[t])!r}")
    if isinstance(support, str):
        check_option(support, ("auto",), "support")
        support = support_of(measure)
    support = None if support is None else np.asarray(support, dtype=np.float64)
    if families is None:
        fams = (list(map(get_margin, CONTINUOUS_FAMILIES)) if support is None
                else discrete_families(support))
    else:
        fams = [get_margin(f, **({"support": support} if _needs_support(f) else {}))
                for f in families]
    for fam in fams:
        if fam.discrete != (support is not None):
            raise ScoreDataError(
                f"margin family {fam.label!r} is {'discrete' if fam.discrete else 'continuous'}"
                f" but measure {measure!r} is {'discrete' if support is not None else 'continuous'}"
                " (set support=)")
    rows = np.ascontiguousarray(x.T)  # (S, T): a system per row
    n = rows.shape[-1]
    degenerate = rows.min(axis=-1) == rows.max(axis=-1)
    stats = {k: np.full((len(fams), len(systems)), np.nan) for k in ("loglik", "df")}
    ok = np.zeros((len(fams), len(systems)), dtype=bool)
    params = []
    with progress_bar(len(fams), "fit margins", unit="family") as job:
        fitted = []
        for fam in fams:  # every system at once, family by family
            with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
                p = fam._fit(rows, degenerate)
                good = fam._fit_ok(p)
                safe = {k: np.where(_rows_mask(good, v), v, _fallback(v))
                        for k, v in p.items()}
                fitted.append((p, good, fam.loglik(rows, safe), fam._eff_df(rows, **safe)))
            job.advance()
    for f, (fam, (p, good, ll, df)) in enumerate(zip(fams, fitted, strict=True)):
        good &= np.isfinite(ll) & np.isfinite(df)
        stats["loglik"][f], stats["df"][f], ok[f] = np.where(good, ll, np.nan), \
            np.where(good, df, np.nan), good
        params.append(p)
        skip = fam._inapplicable(p)
        failed = ~good if skip is None else ~good & ~skip
        if failed.any():
            names = systems[failed].tolist()
            warn(f"margin family {fam.label!r} could not be fitted to {len(names)} system(s) "
                 f"of measure {measure!r}: {names[:10]}{' …' if len(names) > 10 else ''}; "
                 "it is skipped for them")
    none = ~ok.any(axis=0)
    if none.any():
        raise ScoreDataError(f"no margin family could be fitted to system(s) "
                             f"{systems[none].tolist()[:10]} of measure {measure!r}")
    aic = -2 * stats["loglik"] + 2 * stats["df"]
    bic = -2 * stats["loglik"] + np.log(n) * stats["df"]
    score = {"aic": aic, "bic": bic, "loglik": -stats["loglik"]}[criterion]
    choice = np.nanargmin(np.where(ok, score, np.inf), axis=0)
    table = _tabulate(fams, choice, params, len(systems))
    mean, var = _grid.table_moments(table, support)
    ds = xr.Dataset(
        {"loglik": (("family", SYSTEM), stats["loglik"]), "df": (("family", SYSTEM), stats["df"]),
         "aic": (("family", SYSTEM), aic), "bic": (("family", SYSTEM), bic),
         "ok": (("family", SYSTEM), ok)},
        coords={"family": [fam.label for fam in fams], SYSTEM: systems},
        attrs={"measure": measure, "criterion": criterion, "n_topics": n})
    ones = np.ones(len(systems))
    return Margins(systems=systems, measure=measure, families=tuple(fams), choice=choice,
                   params=tuple(params), stats=ds, table=table, support=support, a=ones,
                   b=ones.copy(), mean=mean, var=var, scores=x, criterion=criterion)


def _needs_support(family: Any) -> bool:
    fam = get_margin(family, **({"support": [0.0, 1.0]} if _is_discrete_name(family) else {}))
    return fam.discrete and not isinstance(family, MarginFamily)


def _is_discrete_name(family: Any) -> bool:
    from ..models.margins import _MARGINS

    cls = _MARGINS.get(family) if isinstance(family, str) else family
    return isinstance(cls, type) and getattr(cls, "discrete", False)


def _rows_mask(good: np.ndarray, value: np.ndarray) -> np.ndarray:
    return good.reshape(good.shape + (1,) * (value.ndim - good.ndim))


def _fallback(value: np.ndarray) -> Any:
    """A harmless stand-in for the parameters of rows that failed (evaluated, discarded)."""
    return np.nan if value.dtype.kind == "f" else value
