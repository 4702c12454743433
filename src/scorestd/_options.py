"""The package's vocabulary of options and the one family of argument validators.

Every option that takes one of a few strings has exactly one ``Literal`` type here, used
by the functions, the accessor, the CLI and the docs alike; every argument check raises
:class:`~scorestd.errors.OptionError` (a ``ValueError``) with one message style:
``"<name> must be <what>; got <value>"``. Spellings that an earlier release accepted are
still read for one release, with a ``DeprecationWarning`` (:func:`check_option` with
``deprecated=``).
"""

from __future__ import annotations

import math
import numbers
import os
import re
import warnings
from collections.abc import Mapping
from typing import Any, Literal, get_args

from .errors import OptionError

__all__ = [
    "UNRECORDED_PAIR_FAMILIES",
    "AggregationMethod",
    "Alternative",
    "BandwidthRule",
    "BetaKernelBandwidth",
    "BootstrapOutput",
    "CIKind",
    "Correction",
    "CorrelationMethod",
    "DecimalMark",
    "Degenerate",
    "Delimiter",
    "DesignMethod",
    "DesignTest",
    "DiscreteKernelCriterion",
    "ErrorDistribution",
    "ErrorRateFigure",
    "FitDistance",
    "Format",
    "HardnessDegenerate",
    "HardnessMethod",
    "MarginCriterion",
    "MissingPrior",
    "MissingRun",
    "NanPolicy",
    "PairFamilies",
    "PairedTest",
    "PowerTest",
    "SimulatedMeans",
    "SimulationCopula",
    "SplitExtra",
    "SplitKind",
    "TawnBounds",
    "TieRule",
    "Ties",
    "TopicSet",
    "VarianceKind",
    "WilcoxonMethod",
    "check_count",
    "check_fits_memory",
    "check_flag",
    "check_level_in",
    "check_number",
    "check_option",
    "check_positive",
    "check_probability",
    "check_seed",
    "check_sequence",
    "check_tails",
    "check_trunc_level",
    "memory_budget",
]

#: Direction of a one-sided test: ``"greater"`` means the first system scores higher.
Alternative = Literal["two-sided", "greater", "less"]
#: Multiple-comparison correction of p-values over a family of tests.
Correction = Literal["bonferroni", "holm", "bh"]
#: Paired tests of two systems over the same topics.
PairedTest = Literal["paired_t", "wilcoxon", "sign", "permutation", "bootstrap", "tukey_hsd",
                     "randomised_tukey_hsd"]
#: Tests a power or topic-set-size computation is designed for.
PowerTest = Literal["paired_t", "unpaired_t", "anova"]
#: What standardization does with a topic whose reference scores are all equal.
Degenerate = Literal["unstandardized", "nan", "raise"]
#: What topic hardness (Equation 2) does with a topic whose scores are all equal.
HardnessDegenerate = Literal["nan", "zero"]
#: How the margin of a simulated system is selected among the families that fit.
MarginCriterion = Literal["aic", "bic", "loglik"]
#: Dependence between simulated systems: a vine of pair copulas (the paper's), or a Gaussian copula.
SimulationCopula = Literal["vine", "gaussian"]
#: Family set of the pair copulas of an error-rate study: ``pyvinecopulib``'s parametric
#: families and selection, or R VineCopula's ``BiCopSelect`` defaults (the paper's).
PairFamilies = Literal["vinecopulib", "bicopselect"]
#: Where BiCopSelect's Tawn types are fitted: VineCopula's box around the empirical τ, or
#: the whole parameter space of ``pyvinecopulib``'s Tawn.
TawnBounds = Literal["vinecopula", "full"]
#: The family set of pair copulas fitted before the set was recorded (results folders,
#: pool files and results written then hold pyvinecopulib's).
UNRECORDED_PAIR_FAMILIES: PairFamilies = "vinecopulib"
#: The figure of an error-rate study: ``"auto"`` (Type I against α, and power against δ
#: below it when the study ran Type II trials), both (``"type1_power"``), or one of them.
ErrorRateFigure = Literal["auto", "type1_power", "type1", "power", "power_alpha", "type3"]
#: Missing scores: leave the topic out of the pairs it touches, or raise naming it.
NanPolicy = Literal["omit", "raise"]
#: How the Wilcoxon test finds its p-value.
WilcoxonMethod = Literal["auto", "exact", "asymptotic"]
#: Rank correlation (or linear correlation) between two rankings of systems.
CorrelationMethod = Literal["kendall", "tau_a", "tau_b", "tau_ap", "tau_ap_a", "tau_ap_b",
                            "pearson", "spearman"]
#: Aggregation of a system's per-topic scores (Ravana & Moffat 2009).
AggregationMethod = Literal["am", "gm", "egm", "gm_trec_eval", "hm", "ehm", "md"]
#: A harmonic mean of scores with a zero: raise, or NaN with a warning.
ZeroPolicy = Literal["raise", "nan"]
#: Ranks of systems with equal aggregates.
TieRule = Literal["min", "average", "max", "dense", "ordinal"]
#: The empirical cdf at a tied score: right-continuous, or mid-rank.
Ties = Literal["right", "mid"]
#: Topic hardness (Ravana & Moffat 2009, Equations 1 and 2).
HardnessMethod = Literal["zmax", "mean", "max"]
#: Deterministic topic splits by hardness.
SplitKind = Literal["hard_easy", "middle_rest"]
#: Which side of a split takes the extra topic when the topics do not split evenly.
SplitExtra = Literal["easy", "hard"]
#: Smoothing of a system without prior scores: raise, or keep its scores as they are.
MissingPrior = Literal["raise", "unsmoothed"]
#: Variance estimates for design (Sakai 2016).
VarianceKind = Literal["residual", "paired_difference", "within_system"]
#: Tests (and the confidence interval) a topic set size is designed for.
DesignTest = Literal["paired_t", "anova", "ci"]
#: Sakai's approximations, or the exact noncentral distributions.
DesignMethod = Literal["sakai", "exact"]
#: Distance between a fitted cdf and the empirical one (Kolmogorov–Smirnov, Cramér–von Mises).
FitDistance = Literal["ks", "cvm"]
#: Bandwidth rules of the Gaussian kernel densities (``plugin``: Wand & Jones's direct
#: plug-in, R's ``KernSmooth::dpik`` and ``ks::hpi``).
BandwidthRule = Literal["silverman", "scott", "plugin"]
#: Smoothing rules of the beta kernel margin (``bde``: ``b = n^(-2/5)``, R's ``bde``
#: default, as simIReff; the Gaussian rules give ``b = h² / mean x(1 − x)``).
BetaKernelBandwidth = Literal["bde", "silverman", "scott", "plugin"]
#: Where the least-squares cross-validation of the ordered discrete kernel margin sums
#: the squared estimate: over all the integers (R np's ``cv.ls``) or the support only.
DiscreteKernelCriterion = Literal["whole_line", "support"]
#: File formats of score cubes (``parquet``: a long table, with pyarrow installed).
Format = Literal["netcdf", "matrix", "long", "trec_eval", "parquet"]
#: Runs (or files) that cover different topics: keep the topics all cover, every topic
#: (``NaN`` where a run lacks it), or raise.
TopicSet = Literal["intersection", "union", "strict"]
#: The score of a qrels topic a run retrieved nothing for (``trec_eval -c``: zero).
MissingRun = Literal["zero", "nan"]
#: Field separators of CSV files (``None`` everywhere means: sniff from the file).
Delimiter = Literal[",", ";", "\t"]
#: Decimal marks of CSV files.
DecimalMark = Literal[".", ","]
#: The distribution models the package registers itself, in registry order (the command
#: line lists them without importing the models; a test checks them against the registry).
BUILTIN_MODELS: tuple[str, ...] = ("normal", "uniform", "empirical", "z", "beta", "kde",
                                   "truncnorm", "beta1", "nkde", "bkde")
#: Kind of credible interval: equal-tailed or highest density.
CIKind = Literal["eti", "hdi"]
#: Distribution of the residuals of a Bayesian model of the scores.
ErrorDistribution = Literal["normal", "student_t"]
#: What a Bayesian bootstrap returns: per-cell summaries or the draws themselves.
BootstrapOutput = Literal["summary", "draws"]

#: Spellings of earlier releases, read with a ``DeprecationWarning``: old → new.
RENAMED_TESTS: Mapping[str, str] = {"t": "paired_t", "randomised_tukey": "randomised_tukey_hsd"}
RENAMED_ALTERNATIVES: Mapping[str, str] = {"larger": "greater"}


def check_option(value: Any, options: Any, name: str, *,
                 deprecated: Mapping[str, str] | None = None) -> str:
    """Return ``value`` if it is one of ``options`` (a ``Literal`` type or a sequence).

    A spelling in ``deprecated`` (old → new) is accepted with a ``DeprecationWarning``
    and returned as its new name.

    Raises
    ------
    OptionError
        Listing the valid choices.

    Examples
    --------
    >>> check_option("b", Literal["a", "b"], "kind")
    'b'
    >>> check_option("c", Literal["a", "b"], "kind")
    Traceback (most recent call last):
    ...
    scorestd.errors.OptionError: kind must be one of 'a', 'b'; got 'c'
    >>> import warnings
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore")
    ...     check_option("t", PairedTest, "test", deprecated=RENAMED_TESTS)
    'paired_t'
    """
    choices = get_args(options) or tuple(options)
    if deprecated and isinstance(value, str) and value in deprecated and value not in choices:
        new = deprecated[value]
        warnings.warn(f"{name}={value!r} is deprecated and will be removed in the next "
                      f"release; use {name}={new!r}", DeprecationWarning, stacklevel=3)
        value = new
    if value not in choices:
        raise OptionError(f"{name} must be one of {', '.join(map(repr, choices))}; got {value!r}")
    return value


def check_probability(name: str, value: Any) -> float:
    """A probability strictly inside (0, 1), such as α, β, a power or a confidence level.

    Examples
    --------
    >>> check_probability("alpha", 0.05)
    0.05
    >>> check_probability("alpha", 1)
    Traceback (most recent call last):
    ...
    scorestd.errors.OptionError: alpha must be strictly between 0 and 1; got 1
    """
    number = _as_float(name, value)
    if not 0.0 < number < 1.0:
        raise OptionError(f"{name} must be strictly between 0 and 1; got {value!r}")
    return number


def check_positive(name: str, value: Any) -> float:
    """A finite number > 0, such as a minimum detectable difference or a variance.

    Examples
    --------
    >>> check_positive("min_diff", 0.1)
    0.1
    >>> check_positive("min_diff", float("inf"))
    Traceback (most recent call last):
    ...
    scorestd.errors.OptionError: min_diff must be a finite number > 0; got inf
    """
    number = _as_float(name, value)
    if not (number > 0.0 and math.isfinite(number)):
        raise OptionError(f"{name} must be a finite number > 0; got {value!r}")
    return number


def check_count(name: str, value: Any, minimum: int = 1) -> int:
    """A whole number ≥ ``minimum``, such as a number of trials, topics or systems.

    ``True``/``False`` and fractional numbers are refused.

    Examples
    --------
    >>> check_count("trials", 100)
    100
    >>> check_count("n_topics", 1, 2)
    Traceback (most recent call last):
    ...
    scorestd.errors.OptionError: n_topics must be an integer ≥ 2; got 1
    """
    if isinstance(value, bool):
        raise OptionError(f"{name} must be an integer ≥ {minimum}; got {value!r}")
    try:
        number = int(value)
    except (TypeError, ValueError, OverflowError):
        raise OptionError(f"{name} must be an integer ≥ {minimum}; got {value!r}") from None
    if number != value or number < minimum:
        raise OptionError(f"{name} must be an integer ≥ {minimum}; got {value!r}")
    return number


def check_tails(value: Any) -> int:
    """The tails of a test, 1 or 2 (a truth value is not a number of tails).

    Examples
    --------
    >>> check_tails(2)
    2
    >>> check_tails(True)
    Traceback (most recent call last):
    ...
    scorestd.errors.OptionError: tails must be an integer ≥ 1; got True
    >>> check_tails(3)
    Traceback (most recent call last):
    ...
    scorestd.errors.OptionError: tails must be one of 1, 2; got 3
    """
    return check_option(check_count("tails", value), (1, 2), "tails")


def check_seed(name: str, value: Any, *, required: bool = False) -> Any:
    """A seed: a non-negative integer, a ``numpy.random.SeedSequence``, ``Generator`` or
    ``BitGenerator`` (or ``None`` unless ``required``), returned as it is.

    Examples
    --------
    >>> check_seed("seed", 7)
    7
    >>> check_seed("seed", "abc")
    Traceback (most recent call last):
    ...
    scorestd.errors.OptionError: seed must be a non-negative integer or a numpy.random.SeedSequence or Generator; got 'abc'
    """
    if value is None and not required:
        return value
    if type(value).__module__.startswith("numpy.random"):
        return value
    if isinstance(value, numbers.Integral) and not isinstance(value, bool) and value >= 0:
        return value
    raise OptionError(f"{name} must be a non-negative integer or a numpy.random.SeedSequence "
                      f"or Generator; got {value!r}")


def _as_float(name: str, value: Any) -> float:
    if getattr(value, "ndim", None) == 0 and hasattr(value, "item"):
        value = value.item()  # a 0-d numpy or xarray array holds one number
    # a number, not its text ("0.05") nor a truth value: both are slips, never intended
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise OptionError(f"{name} must be a number; got {value!r}")
    return float(value)


def check_flag(name: str, value: Any) -> bool:
    """A boolean: ``True`` or ``False`` (numpy's ``bool_`` too), never a truthy stand-in.

    ``"no"``, ``2`` or ``0.5`` are refused: read by truthiness each would silently mean
    ``True``.

    Examples
    --------
    >>> check_flag("skipna", True)
    True
    >>> check_flag("skipna", "no")
    Traceback (most recent call last):
    ...
    scorestd.errors.OptionError: skipna must be True or False; got 'no'
    """
    if isinstance(value, bool) or (type(value).__module__ == "numpy"
                                   and type(value).__name__ in ("bool", "bool_")):
        return bool(value)
    raise OptionError(f"{name} must be True or False; got {value!r}")


def check_number(name: str, value: Any) -> float:
    """A finite real number (not a string, not a boolean), such as a bound or a shift.

    Examples
    --------
    >>> check_number("lower", -1)
    -1.0
    >>> check_number("lower", "0")
    Traceback (most recent call last):
    ...
    scorestd.errors.OptionError: lower must be a number; got '0'
    """
    number = _as_float(name, value)
    if not math.isfinite(number):
        raise OptionError(f"{name} must be a finite number; got {value!r}")
    return number


def check_sequence(name: str, value: Any, check: Any, *, allow_scalar: bool = True) -> list:
    """A non-empty sequence whose items each pass ``check(item_name, item)``.

    A single value is read as a sequence of one when ``allow_scalar`` (``deltas=0.05``
    means ``[0.05]``), else refused with a message saying a sequence is wanted; a string
    is one value, never a sequence of characters.

    Examples
    --------
    >>> check_sequence("deltas", 0.05, check_positive)
    [0.05]
    >>> check_sequence("n_topics", [25, 50], check_count)
    [25, 50]
    >>> check_sequence("n_topics", [25, -1], check_count)
    Traceback (most recent call last):
    ...
    scorestd.errors.OptionError: n_topics[1] must be an integer ≥ 1; got -1
    >>> check_sequence("deltas", [], check_positive)
    Traceback (most recent call last):
    ...
    scorestd.errors.OptionError: deltas must hold at least one value; got []
    """
    scalar = isinstance(value, str | bytes) or not hasattr(value, "__iter__")
    if scalar:
        if not allow_scalar:
            raise OptionError(f"{name} must be a sequence (e.g. [{value!r}]); got {value!r}")
        value = [value]
    items = list(value)
    if not items:
        raise OptionError(f"{name} must hold at least one value; got {value!r}")
    return [check(f"{name}[{i}]" if not scalar else name, item) for i, item in enumerate(items)]


def check_level_in(name: str, value: Any, available: Any) -> float:
    """A level (α, a probability) that a result holds, never the nearest one it has.

    Examples
    --------
    >>> check_level_in("alpha", 0.05, [0.01, 0.05, 0.1])
    0.05
    >>> check_level_in("alpha", 0.04, [0.01, 0.05, 0.1])
    Traceback (most recent call last):
    ...
    scorestd.errors.OptionError: alpha must be one of the levels computed, 0.01, 0.05, 0.1; got 0.04
    """
    number = _as_float(name, value)
    levels = [float(v) for v in available]
    for level in levels:
        if math.isclose(number, level, rel_tol=1e-9, abs_tol=1e-15):
            return level
    raise OptionError(f"{name} must be one of the levels computed, "
                      f"{', '.join(f'{v:g}' for v in levels)}; got {value!r}")


def check_fits_memory(nbytes: int, memory: int | str | None, what: str, *,
                      instead: str | None = None) -> int:
    """Refuse, before allocating it, an array of ``nbytes`` over the memory budget.

    The message names the budget and where it came from (``memory=`` or
    ``$SCORESTD_MEMORY``), the size asked for, and what to do instead (``instead``, or
    "ask for less").

    Examples
    --------
    >>> check_fits_memory(10**6, "64MB", "the draws")
    1000000
    >>> check_fits_memory(8 * 10**9, "64MB", "the draws (100000 × 10000 float64)")
    Traceback (most recent call last):
    ...
    scorestd.errors.OptionError: the draws (100000 × 10000 float64) need 8.0 GB, over the memory budget of 64.0 MB (memory='64MB'); ask for less or raise memory=
    """
    budget = memory_budget(memory)
    if nbytes > budget:
        source = f"memory={memory!r}" if memory is not None else f"${MEMORY_ENV} or the default"
        raise OptionError(f"{what} need {_size(nbytes)}, over the memory budget of "
                          f"{_size(budget)} ({source}); {instead or 'ask for less'} or "
                          "raise memory=")
    return int(nbytes)


def _size(nbytes: float) -> str:
    for unit, scale in (("GB", 1e9), ("MB", 1e6), ("kB", 1e3)):
        if nbytes >= scale:
            return f"{nbytes / scale:.1f} {unit}"
    return f"{int(nbytes)} bytes"


#: Memory budget of a batch of work when the caller and the environment do not say.
DEFAULT_MEMORY = 256 * 2**20
#: Environment variable with the default memory budget (``"512MB"``, ``"2GiB"``, bytes).
MEMORY_ENV = "SCORESTD_MEMORY"
_UNITS = {"": 1, "b": 1, "k": 10**3, "kb": 10**3, "m": 10**6, "mb": 10**6, "g": 10**9,
          "gb": 10**9, "kib": 2**10, "mib": 2**20, "gib": 2**30}


def memory_budget(memory: int | str | None = None) -> int:
    """The memory budget in bytes: ``memory``, else ``$SCORESTD_MEMORY``, else 256 MiB.

    Parameters
    ----------
    memory : int or str, optional
        Bytes, or a size with a unit: ``"512MB"``, ``"1.5 GiB"``, ``"8000k"`` (k, M, G are
        powers of 10; KiB, MiB, GiB powers of 2).

    Raises
    ------
    OptionError
        If the size cannot be read or is below 1 MiB.

    Examples
    --------
    >>> memory_budget("512MiB")
    536870912
    >>> memory_budget(10**9)
    1000000000
    """
    source = "memory"
    if memory is None:
        memory, source = os.environ.get(MEMORY_ENV), MEMORY_ENV
        if memory is None or not str(memory).strip():
            return DEFAULT_MEMORY
    if isinstance(memory, bool):
        raise OptionError(f"{source} must be a size in bytes (e.g. '512MB'); got {memory!r}")
    if isinstance(memory, numbers.Integral):
        nbytes = int(memory)
    else:
        match = re.fullmatch(r"\s*([0-9]*\.?[0-9]+)\s*([a-zA-Z]*)\s*", str(memory))
        unit = match.group(2).lower() if match else None
        if unit not in _UNITS:
            raise OptionError(f"{source} must be a size in bytes (e.g. '512MB'); "
                              f"got {memory!r}")
        nbytes = int(float(match.group(1)) * _UNITS[unit])
    if nbytes < 2**20:
        raise OptionError(f"{source} must be at least 1 MiB; got {memory!r}")
    return nbytes


# -- simulation and error-rate studies ----------------------------------------------------

def check_trunc_level(name: str, value: Any) -> int | None:
    """A vine truncation level: ``None`` (no truncation) or an integer ≥ 1.

    Examples
    --------
    >>> check_trunc_level("trunc_lvl", -1)
    Traceback (most recent call last):
    ...
    scorestd.errors.OptionError: trunc_lvl must be an integer ≥ 1; got -1
    """
    return None if value is None else check_count(name, value, 1)


#: The true means of simulated systems: the observed means (mean transform), or the
#: fitted margins' own.
SimulatedMeans = Literal["observed", "fitted"]


# -- Likelihoods of the crossed Bayesian model ----------------------------------------

#: Likelihood of the scores in :func:`scorestd.bayes_crossed`.
Likelihood = Literal["normal", "censored", "hurdle"]

#: Which scores a comparison of likelihoods uses: all, or those strictly inside (0, 1).
ComparisonCells = Literal["all", "continuous"]


def check_likelihood(likelihood: Any, errors: str, heteroscedastic: bool) -> str:
    """The likelihood of :func:`scorestd.bayes_crossed`, with the options it allows.

    Student-t errors and per-system variances are options of the normal likelihood only.

    Examples
    --------
    >>> check_likelihood("hurdle", "normal", False)
    'hurdle'
    """
    check_option(likelihood, Likelihood, "likelihood")
    if likelihood != "normal":
        if errors != "normal":
            raise OptionError(f"errors={errors!r} is an option of likelihood='normal' only; "
                              f"the {likelihood} likelihood has normal errors (on the "
                              f"{'logit' if likelihood == 'hurdle' else 'score'} scale)")
        if heteroscedastic:
            raise OptionError(f"heteroscedastic=True is an option of likelihood='normal' "
                              f"only, not of likelihood={likelihood!r}")
    return str(likelihood)
