"""The model protocol: a :class:`Model` fits one distribution per topic and measure.

``Model.fit(cube, dim="system")`` returns a :class:`FittedModel` whose ``params`` is an
``xr.Dataset`` over topic × measure. Every fitted model has ``cdf``; families that have
them add ``icdf``, ``logpdf`` and ``sample``; ``n_params`` counts free parameters per
topic (``None`` for nonparametric families).

A family implements ``_fit`` (numpy arrays in, parameter arrays out) and the numpy
functions ``_cdf`` / ``_icdf`` / ``_logpdf`` of the values and the parameters; the
labelling, alignment, NaN handling and the degenerate-topic policy live here once.
"""

from __future__ import annotations

import types
import warnings
from collections.abc import Callable, Mapping
from typing import Any, ClassVar, NamedTuple

import numpy as np
import xarray as xr

from .._options import Degenerate, check_option
from ..dims import CUBE_DIMS, MEASURE, SYSTEM, TOPIC
from ..errors import ScoreDataError, ScorestdError, warn
from ..score_cube import cell_label, first_cell, match_input_dims, validate

__all__ = [
    "FittedModel",
    "Model",
]

#: Core dim of per-topic parameter vectors (e.g. the order statistics of the reference).
SAMPLE = "order"



class _classorinstancemethod:
    """A method that, called on the class, runs on a default instance.

    So ``Normal.fit(cube)`` and ``Uniform(A=0.2).fit(cube)`` both work.
    """

    def __init__(self, func: Callable[..., Any]) -> None:
        self.__func__ = func
        self.__doc__ = func.__doc__
        self.__wrapped__ = func

    def __get__(self, obj: Any, cls: type) -> Callable[..., Any]:
        return types.MethodType(self.__func__, obj if obj is not None else cls())


class Model:
    """Base class of the per-topic score-distribution models.

    Subclasses set ``name`` and ``reference`` and implement ``_fit`` and ``_cdf``
    (and where the family has them ``_icdf`` and ``_logpdf``). Keyword arguments of
    the constructor are the model's options (e.g. Sakai's ``A`` and ``B``).
    """

    #: Registry name.
    name: ClassVar[str] = ""
    #: Where the model comes from.
    reference: ClassVar[str] = ""
    #: Whether the model needs scores in [0, 1].
    bounded: ClassVar[bool] = False
    #: Whether ``cdf`` is a distribution function (``False`` for the z-score).
    is_cdf: ClassVar[bool] = True
    #: Free parameters per topic, ``None`` for nonparametric models.
    n_params: ClassVar[int | None] = None
    #: What :meth:`_unstandardized_cdf` gives a degenerate topic, in words: the warning
    #: naming such topics says it (a model that overrides one overrides the other).
    _unstandardized_wording: ClassVar[str] = "left unstandardized: the raw score, clipped to [0, 1]"

    def __init__(self, **options: Any) -> None:
        unknown = set(options) - set(self.defaults())
        if unknown:
            raise TypeError(
                f"model {self.name!r} has no option(s) {sorted(unknown)}; "
                f"its options are {sorted(self.defaults())}"
            )
        self.options = {**self.defaults(), **options}

    @classmethod
    def defaults(cls) -> dict[str, Any]:
        """The model's options and their default values."""
        return {}

    def __repr__(self) -> str:
        args = ", ".join(f"{k}={v!r}" for k, v in self.options.items())
        return f"{type(self).__name__}({args})"

    @_classorinstancemethod
    def fit(
        self, cube: Any, dim: str = SYSTEM, *, degenerate: Degenerate = "unstandardized"
    ) -> FittedModel:
        """Fit one distribution per topic and measure across the systems of ``cube``.

        Parameters
        ----------
        cube : xarray.DataArray
            Reference scores: a cube or a 2-D ``(topic, system)`` array. ``NaN``
            scores are skipped.
        dim : {"system"}
            The dim the distribution is fitted across.
        degenerate : {"unstandardized", "nan", "raise"}
            What to do with a topic whose reference scores are all equal (or that has
            one reference score): see :func:`scorestd.standardize`.

        Returns
        -------
        FittedModel

        Raises
        ------
        ScoreDataError
            If a topic has no reference score for a measure, or a bounded model gets
            a score outside [0, 1] (the error names topic, system and measure).
        """
        check_option(dim, (SYSTEM,), "dim")
        check_option(degenerate, Degenerate, "degenerate")
        return self._fit_validated(validate(cube, what="reference scores"), degenerate,
                                   source=cube)

    def _fit_validated(self, ref: xr.DataArray, degenerate: str, *, source: Any) -> FittedModel:
        # (T, M, R), systems last and contiguous: the families reduce along it many times.
        values = np.ascontiguousarray(np.asarray(ref.values).transpose(0, 2, 1))
        rows = _RowSummary.of(values)
        deg = self._check_reference(values, rows, degenerate, ref)
        params = self._fit(values, deg)
        return FittedModel(self, self._params_dataset(ref, params, rows, deg, degenerate),
                           source=source)

    def standardize(self, scores: Any, reference: Any = None, *,
                    degenerate: Degenerate = "unstandardized") -> xr.DataArray:
        """Fit on ``reference`` (default: ``scores`` itself) and return the cdf at ``scores``.

        The labelled fit-and-apply of every standardization: :func:`scorestd.standardize`,
        the schemes of the experiments, the CLI and the plots call it. With no
        ``reference`` the model is fitted and applied in one pass where the family has
        one (E-std: one sort), without keeping the fitted parameters.

        Parameters
        ----------
        scores : xarray.DataArray
            A cube or 2-D ``(topic, system)`` array; never modified.
        reference : xarray.DataArray, optional
            The standardization systems, covering every topic and measure of ``scores``.
        degenerate : {"unstandardized", "nan", "raise"}
            See :func:`scorestd.standardize`.

        Returns
        -------
        xarray.DataArray
            Standardized scores with the dims and coordinates of ``scores``.

        Examples
        --------
        >>> import scorestd
        >>> from scorestd.models import Normal
        >>> ref = scorestd.cube([[0.1, 0.3, 0.5]])
        >>> Normal().standardize(ref).values[..., 0].round(4).tolist()
        [[0.1587, 0.5, 0.8413]]
        """
        check_option(degenerate, Degenerate, "degenerate")
        cube = validate(scores, copy=False)  # read only: never written to
        if reference is None and cube.chunks is None:
            return match_input_dims(self._standardize_self(cube, degenerate), scores)
        if reference is None:  # dask: fitted now, applied lazily chunk by chunk
            fitted = self._fit_validated(cube, degenerate, source=cube)
            return match_input_dims(fitted.cdf(cube), scores)
        return match_input_dims(self.fit(reference, degenerate=degenerate).cdf(cube), scores)

    def transform(self, reference: np.ndarray, scores: np.ndarray | None = None, *,
                  degenerate: Degenerate = "unstandardized",
                  labels: xr.DataArray | None = None) -> np.ndarray:
        """The numpy route of :meth:`standardize`: systems on the last axis, any leading axes.

        Fits one distribution per row of ``reference`` ``(..., R)`` and returns its cdf at
        the same row of ``scores`` ``(..., S)`` (default: ``reference`` itself). ``NaN``
        reference scores are skipped, ``NaN`` scores stay ``NaN``; a row whose reference
        scores are all equal follows ``degenerate``. Used where references change from
        trial to trial (experiments) or from group to group
        (:func:`scorestd.leave_one_out`).

        Parameters
        ----------
        reference, scores : numpy.ndarray
            Arrays with the same leading shape; neither is modified.
        degenerate : {"unstandardized", "nan", "raise"}
            See :func:`scorestd.standardize`.
        labels : xarray.DataArray, optional
            A cube whose topics and measures are the leading axes ``(topic, measure)``
            of ``reference``, to name them in errors and in the warning about degenerate
            rows. Without it, errors name rows by index and degenerate rows are not
            warned about (the trials of an experiment would repeat the warning).

        Raises
        ------
        ScoreDataError
            A row without a reference score, a bounded model's score outside [0, 1], or
            a degenerate row under ``degenerate="raise"``.

        Examples
        --------
        >>> import numpy as np
        >>> from scorestd.models import Uniform
        >>> Uniform(A=0.5).transform(np.array([[0.1, 0.3, 0.5]])).round(4).tolist()
        [[0.0, 0.5, 1.0]]
        """
        check_option(degenerate, Degenerate, "degenerate")
        ref = np.ascontiguousarray(reference, dtype=np.float64)
        x = ref if scores is None else np.asarray(scores, dtype=np.float64)
        if x.shape[:-1] != ref.shape[:-1]:
            raise ValueError(f"reference and scores need the same leading shape, got "
                             f"{ref.shape} and {x.shape}")
        if self.bounded and x is not ref:
            _check_unit_rows(x, self.name, labels, what="scores")
        rows = _RowSummary.of(ref)
        deg = self._check_reference(ref, rows, degenerate, labels,
                                    warn_degenerate=labels is not None)
        y, has_missing = self._fit_cdf(ref, x, deg)
        return self._apply_degenerate(y, x, deg, degenerate, has_missing)

    def _fit_cdf(self, ref: np.ndarray, x: np.ndarray, deg: np.ndarray
                 ) -> tuple[np.ndarray, bool]:
        """The cdf fitted on the rows of ``ref`` at ``x`` (``NaN`` kept), before the
        degenerate policy; and whether ``x`` has a ``NaN``."""
        params = self._fit(ref, deg)
        with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
            y = self._cdf(x, **{k: params[k] if params[k].ndim == ref.ndim
                                else params[k][..., np.newaxis] for k in self.param_names()})
        missing = np.isnan(x)
        has_missing = bool(missing.any())
        if has_missing:
            y = np.where(missing, np.nan, y)
        return y, has_missing

    def _standardize_self(self, cube: xr.DataArray, degenerate: str) -> xr.DataArray:
        """The cdf fitted on ``cube`` applied to ``cube`` itself, as one pass where the
        family has one (:meth:`_fit_cdf_self`); the fitted parameters are not kept."""
        view = np.asarray(cube.values).transpose(0, 2, 1)  # (T, M, R), not copied
        # (A bounded family checks its scores are in [0, 1] before it fits: no shortcut.)
        fused = None if self.bounded else self._fit_cdf_self(view)
        if fused is None:
            values = np.ascontiguousarray(view)
            rows = _RowSummary.of(values)
            deg = self._check_reference(values, rows, degenerate, cube)
            y, _ = self._fit_cdf(values, values, deg)
        else:
            y, rows = fused
            deg = self._check_reference(view, rows, degenerate, cube)
        y = self._apply_degenerate(y, view, deg, degenerate, rows.has_missing)
        out = cube.copy(deep=False, data=y.transpose(0, 2, 1))  # the cube's coordinates
        out.attrs = dict(cube.attrs)
        return out

    def _apply_degenerate(self, y: np.ndarray, x: np.ndarray, deg: np.ndarray,
                          degenerate: str, has_missing: bool,
                          fallback: Callable[[np.ndarray], np.ndarray] | None = None
                          ) -> np.ndarray:
        """``y`` with the degenerate rows ``deg`` (``x.shape[:-1]``) set by the policy.

        The one place the policy is applied: the numpy route and every fitted model's
        cdf (:meth:`FittedModel.cdf`) call it. ``fallback`` is what an ``"unstandardized"``
        row gets (default: :meth:`_unstandardized_cdf`).
        """
        if not deg.any():
            return y
        if not y.flags.writeable or np.may_share_memory(y, x):  # never write the input
            y = y.copy()
        with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
            keep = fallback or self._unstandardized_cdf
            y[deg] = keep(x[deg]) if degenerate == "unstandardized" else np.nan
            if has_missing:
                y[deg] = np.where(np.isnan(x[deg]), np.nan, y[deg])
        return y

    def _fit_cdf_self(self, values: np.ndarray) -> tuple[np.ndarray, _RowSummary] | None:
        """Fit on ``values`` ``(T, M, R)`` (a strided view) and return the cdf at the same
        values with the summary of the rows, in one pass; ``None`` if the family has no
        such shortcut (the default)."""
        return None

    def _check_reference(self, values: np.ndarray, rows: _RowSummary, degenerate: str,
                         labels: xr.DataArray | None, *, warn_degenerate: bool = True
                         ) -> np.ndarray:
        """Raise for an empty row or (bounded models) a score outside [0, 1]; apply the
        degenerate-row policy (warn or raise). Returns the degenerate mask.

        ``labels`` (a cube of the same topics and measures) names the rows of a
        ``(T, M, R)`` array; without it they are named by index.
        """
        if rows.has_missing:
            _check_not_empty(rows.n == 0, labels)
        if self.bounded:
            _check_unit_rows(values, self.name, labels, what="reference scores")
        deg = rows.low == rows.high
        if deg.any() and (warn_degenerate or degenerate == "raise"):
            _handle_degenerate(deg, labels, self, degenerate)
        return deg

    def _params_dataset(self, ref: xr.DataArray, params: dict[str, np.ndarray],
                        rows: _RowSummary, deg: np.ndarray, degenerate: str) -> xr.Dataset:
        coords = {TOPIC: ref[TOPIC].values, MEASURE: ref[MEASURE].values}
        data_vars = {
            key: ((TOPIC, MEASURE) if value.ndim == 2 else (TOPIC, MEASURE, SAMPLE), value)
            for key, value in params.items()
        }
        data_vars["n"] = ((TOPIC, MEASURE), rows.n)
        data_vars["degenerate"] = ((TOPIC, MEASURE), deg)
        attrs = {"model": self.name, "degenerate_policy": degenerate,
                 **{k: v for k, v in self.options.items() if v is not None}}
        return xr.Dataset(data_vars, coords=coords, attrs=attrs)

    def from_params(self, params: xr.Dataset, *, degenerate: Degenerate = "unstandardized"
                    ) -> FittedModel:
        """A fitted model from a parameter Dataset (e.g. read back with
        :func:`scorestd.read_factors`).

        Examples
        --------
        >>> import xarray as xr
        >>> from scorestd.models import get_model
        >>> p = xr.Dataset({"mean": (("topic", "measure"), [[0.2]]),
        ...                 "sd": (("topic", "measure"), [[0.1]])},
        ...                coords={"topic": ["q1"], "measure": ["ap"]})
        >>> get_model("normal")().from_params(p).params["sd"].item()
        0.1
        """
        check_option(degenerate, Degenerate, "degenerate")
        missing = [name for name in self.param_names() if name not in params]
        if missing:
            raise ScoreDataError(
                f"model {self.name!r} needs parameters {self.param_names()}, missing {missing}")
        ds = params[list(self.param_names())].transpose(TOPIC, MEASURE, ...)
        ds = ds.assign_coords({TOPIC: ds[TOPIC].astype(str), MEASURE: ds[MEASURE].astype(str)})
        if "degenerate" not in params:
            ds["degenerate"] = self._degenerate_params(ds).fillna(False).astype(bool)
        else:
            ds["degenerate"] = params["degenerate"].astype(bool)
        ds.attrs = {**params.attrs, "model": self.name, "degenerate_policy": degenerate,
                    **{k: v for k, v in self.options.items() if v is not None}}
        return FittedModel(self, ds)

    @classmethod
    def param_names(cls) -> tuple[str, ...]:
        """Names of the parameter variables :meth:`from_params` needs."""
        raise ScorestdError(f"model {cls.name!r} cannot be built from parameters")

    def _degenerate_params(self, params: xr.Dataset) -> xr.DataArray:
        shape = (params.sizes[TOPIC], params.sizes[MEASURE])
        return xr.DataArray(np.zeros(shape, dtype=bool), dims=(TOPIC, MEASURE),
                            coords={TOPIC: params[TOPIC], MEASURE: params[MEASURE]})

    # -- what a family implements (numpy; parameters broadcast against x) -------------
    def _fit(self, values: np.ndarray, degenerate: np.ndarray) -> dict[str, np.ndarray]:
        raise NotImplementedError

    def _cdf(self, x: np.ndarray, **params: np.ndarray) -> np.ndarray:
        raise NotImplementedError

    _icdf: Callable[..., np.ndarray] | None = None
    _logpdf: Callable[..., np.ndarray] | None = None

    def _unstandardized_cdf(self, x: np.ndarray) -> np.ndarray:
        """The cdf a degenerate topic keeps under ``degenerate="unstandardized"``
        (:attr:`_unstandardized_wording` describes it).

        Models without location and scale leave the raw score (the standard uniform
        cdf); location-scale models override this with μ=0, σ=1.
        """
        return np.clip(x, 0.0, 1.0)

    def _unstandardized_icdf(self, p: np.ndarray) -> np.ndarray:
        return np.asarray(p, dtype=np.float64)


class FittedModel:
    """A model fitted per topic and measure: ``params`` plus its cdf and friends.

    Parameters
    ----------
    model : Model
        The model (with its options).
    params : xarray.Dataset
        Parameters over ``topic`` × ``measure`` (a vector parameter such as the
        reference sample has an ``order`` dim too), ``n`` (reference scores used) and
        ``degenerate`` (the topics the policy in ``attrs["degenerate_policy"]`` applies to).
    """

    def __init__(self, model: Model, params: xr.Dataset, *, source: Any = None) -> None:
        self.model = model
        self.params = params
        # The object fitted on: its cdf may take a faster route (one sort for E-std).
        self._source = source

    def __repr__(self) -> str:
        extra = "".join(f"{size} {dim} × " for dim, size in self.params.sizes.items()
                        if dim not in (TOPIC, MEASURE, SAMPLE))
        return (f"<Fitted {self.model!r}: {extra}{self.params.sizes[TOPIC]} topics × "
                f"{self.params.sizes[MEASURE]} measures>")

    @property
    def name(self) -> str:
        """Registry name of the model."""
        return self.model.name

    @property
    def n_params(self) -> int | None:
        """Free parameters per topic, ``None`` for nonparametric models."""
        return self.model.n_params

    def cdf(self, x: Any) -> xr.DataArray:
        """The fitted cdf of each topic and measure applied to the scores ``x``.

        ``x`` is a cube or 2-D array whose topics and measures the model was fitted
        on (its systems may be new); it is never modified. ``NaN`` stays ``NaN``.
        Degenerate topics follow the policy the model was fitted with. Extra dims of
        ``x`` (the ``trial`` of simulated collections …) are kept, first: each slice gets
        the same fitted cdf.
        """
        func = self.model._cdf
        if x is self._source and type(self.model)._fit_cdf_self is not Model._fit_cdf_self:
            # The scores fitted on: the family's one-pass route (one sort for E-std).
            func = lambda values, **params: self.model._fit_cdf_self(values)[0]  # noqa: E731
        out = self._apply(func, validate(x, copy=False, what="scores", extra_dims=True), x,
                          bounded_input=self.model.bounded, what="scores")
        out.attrs["standardization"] = self.name  # not raw scores: no range check downstream
        return out

    def icdf(self, p: Any) -> xr.DataArray:
        """The inverse cdf (quantile function) applied to probabilities ``p`` in [0, 1]
        (for the z-score, which is no cdf: the raw score of each z-score ``p``)."""
        if self.model._icdf is None:
            raise ScorestdError(f"model {self.name!r} has no icdf")
        pc = validate(p, what="probabilities", check_range=False)
        if self.model.is_cdf:  # the z-score's "probabilities" are z-scores
            check_unit_interval(pc, self.name, what="probabilities")
        out = self._apply(self.model._icdf, pc, p, fallback=self.model._unstandardized_icdf,
                          what="probabilities")
        out.attrs["generated_by"] = self.name  # model quantiles, not measured scores
        return out

    def logpdf(self, x: Any) -> xr.DataArray:
        """Log density of the scores ``x`` (``NaN`` on degenerate topics)."""
        if self.model._logpdf is None:
            raise ScorestdError(f"model {self.name!r} has no density (logpdf)")
        return self._apply(self.model._logpdf, validate(x, copy=False, what="scores"), x,
                           fallback=lambda v: np.full_like(v, np.nan),
                           bounded_input=self.model.bounded, what="scores")

    def sample(self, n: int, *, rng: np.random.Generator | int | None = None) -> xr.DataArray:
        """Draw ``n`` new systems per topic and measure, as a cube with systems ``sim1``…

        Uses ``icdf`` of uniform draws, so the same ``rng`` seed gives the same cube.

        Examples
        --------
        >>> import scorestd
        >>> fitted = scorestd.models.get_model("normal").fit(scorestd.datasets.load("adhoc8_ap"))
        >>> fitted.sample(3, rng=1).sizes["system"]
        3
        """
        if self.model._icdf is None:
            raise ScorestdError(f"model {self.name!r} cannot sample (it has no icdf)")
        generator = np.random.default_rng(rng)
        shape = (self.params.sizes[TOPIC], int(n), self.params.sizes[MEASURE])
        u = xr.DataArray(
            generator.random(shape), dims=CUBE_DIMS,
            coords={TOPIC: self.params[TOPIC].values,
                    SYSTEM: [f"sim{i + 1}" for i in range(int(n))],
                    MEASURE: self.params[MEASURE].values})
        return self.icdf(u)

    def _apply(self, func: Callable[..., np.ndarray], xc: xr.DataArray, original: Any, *,
               fallback: Callable[[np.ndarray], np.ndarray] | None = None,
               bounded_input: bool = False, what: str) -> xr.DataArray:
        self._check_coverage(xc)
        if bounded_input:
            check_unit_interval(xc, self.name, what=what)
        params = self.params
        if not all(np.array_equal(params[d].values, xc[d].values) for d in (TOPIC, MEASURE)):
            params = params.sel({TOPIC: xc[TOPIC].values, MEASURE: xc[MEASURE].values})
        names = list(self.model.param_names())
        policy = self.params.attrs.get("degenerate_policy", "unstandardized")

        def kernel(values: np.ndarray, degenerate: np.ndarray, *arrays: np.ndarray) -> np.ndarray:
            kwargs = {
                name: arr if SAMPLE in params[name].dims else arr[..., np.newaxis]
                for name, arr in zip(names, arrays, strict=True)
            }
            with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
                y = func(values, **kwargs)
            missing = np.isnan(values)
            has_missing = bool(missing.any())
            if has_missing:
                y = np.where(missing, np.nan, y)
            return self.model._apply_degenerate(y, values, degenerate, policy, has_missing,
                                                fallback)

        core = [[SAMPLE] if SAMPLE in params[n].dims else [] for n in names]
        out = xr.apply_ufunc(
            kernel, xc, params["degenerate"], *(params[n] for n in names),
            input_core_dims=[[SYSTEM], [], *core], output_core_dims=[[SYSTEM]],
            dask="parallelized", output_dtypes=[np.float64],
        ).transpose(..., *CUBE_DIMS)  # extra dims (trial …) first
        out.attrs = {**xc.attrs, "model": self.name}
        out.name = xc.name
        return match_input_dims(out, original)

    def _check_coverage(self, xc: xr.DataArray) -> None:
        for dim in (MEASURE, TOPIC):
            known = set(self.params[dim].values.tolist())
            missing = [label for label in xc[dim].values.tolist() if label not in known]
            if missing:
                raise ScoreDataError(
                    f"the reference of model {self.name!r} has no {dim} {missing[0]!r}"
                    + (f" (nor {len(missing) - 1} more: {missing[1:6]})" if len(missing) > 1
                       else "")
                )


def check_unit_interval(cube: xr.DataArray, model: str, *, what: str = "scores") -> None:
    """Raise a ScoreDataError naming the first score outside [0, 1] (bounded models).

    Examples
    --------
    >>> import scorestd
    >>> check_unit_interval(scorestd.cube([[0.5, 1.2]], topics=["q7"]), "beta")
    Traceback (most recent call last):
    ...
    scorestd.errors.ScoreDataError: model 'beta' needs scores in [0, 1]; scores has 1.2 at topic 'q7', system 's2', measure 'score'
    """
    rows = np.swapaxes(np.asarray(cube.transpose(..., *CUBE_DIMS).values), -1, -2)
    _check_unit_rows(rows, model, cube, what=what)  # (…, T, M, S)


def _row_label(index: tuple[int, ...], labels: xr.DataArray | None) -> str:
    """``"topic 'a', measure 'b'"`` for row ``(t, m)`` of a labelled ``(T, M, R)`` array;
    ``"row (i, j, …)"`` without labels."""
    if labels is None:
        return f"row {tuple(index)}"
    t, m = index
    return (f"topic {str(labels[TOPIC].values[t])!r}, "
            f"measure {str(labels[MEASURE].values[m])!r}")


def _check_not_empty(empty: np.ndarray, labels: xr.DataArray | None) -> None:
    if empty.any():
        raise ScoreDataError(f"the reference has no system with a score for "
                             f"{_row_label(first_cell(empty), labels)}")


def _check_unit_rows(values: np.ndarray, model: str, labels: xr.DataArray | None, *,
                     what: str) -> None:
    """Raise naming the first score outside [0, 1] of ``(..., S)`` values: topic, system
    and measure when ``values`` is ``labels`` as ``(T, M, S)``, else its row."""
    with np.errstate(invalid="ignore"):
        bad = (values < 0) | (values > 1)
    if not bad.any():
        return
    index = first_cell(bad)
    if labels is not None and values.shape == (labels.sizes[TOPIC], labels.sizes[MEASURE],
                                               labels.sizes[SYSTEM]):
        t, m, s = index
        where = cell_label(labels.transpose(*CUBE_DIMS), t, s, m)
    else:
        where = f"{_row_label(index[:-1], labels)}, position {index[-1]}"
    raise ScoreDataError(f"model {model!r} needs scores in [0, 1]; {what} has "
                         f"{values[index]:g} at {where}")


class _RowSummary(NamedTuple):
    """Per topic and measure ``(T, M)``: scores used, smallest and largest (NaN-skipping)."""

    n: np.ndarray
    low: np.ndarray
    high: np.ndarray
    has_missing: bool

    @classmethod
    def of(cls, values: np.ndarray) -> _RowSummary:
        """Summary of contiguous ``(T, M, R)`` values (reductions along the last axis)."""
        missing = np.isnan(values)
        if not missing.any():  # plain reductions, no NaN-aware ones
            n = np.full(values.shape[:-1], values.shape[-1], dtype=np.int64)
            return cls(n, values.min(axis=-1), values.max(axis=-1), False)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)  # all-NaN rows: reported later
            return cls(values.shape[-1] - missing.sum(axis=-1), np.nanmin(values, axis=-1),
                       np.nanmax(values, axis=-1), True)


def _handle_degenerate(deg: np.ndarray, labels: xr.DataArray | None, model: Model,
                       policy: str) -> None:
    """Warn about (or, under ``"raise"``, refuse) the degenerate rows, named per measure;
    the warning says what the policy gives them (under ``"unstandardized"``, what the
    model keeps: :attr:`Model._unstandardized_wording`)."""
    if labels is None:
        where = f"rows {[tuple(int(i) for i in k) for k in np.argwhere(deg)[:10]]}"
    else:
        topics: Mapping[str, list[str]] = {
            m: labels[TOPIC].values[deg[:, j]].tolist()
            for j, m in enumerate(labels[MEASURE].values.tolist())
        }
        where = "; ".join(f"measure {m!r}: topics {ts}" for m, ts in topics.items() if ts)
    if policy == "raise":
        raise ScoreDataError(
            f"model {model.name!r}: all reference systems score the same on {where} "
            f"(choose degenerate='unstandardized' or 'nan' to go on)")
    what = model._unstandardized_wording if policy == "unstandardized" else "set to NaN"
    warn(f"model {model.name!r}: all reference systems score the same on {where}; "
         f"these topics are {what}")
