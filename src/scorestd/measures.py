"""What the usual effectiveness measures can score: bounds and, where discrete, the support.

A score outside its measure's range is a sign of a wrong input (a column of topic ids
read as a run, a measure mislabelled, a corrupted file), never of a good run. The registry
knows the measures by the names that ``trec_eval`` (``map``, ``ndcg_cut_20``, ``P_10``,
``recip_rank`` …), ``ir_measures`` (``AP``, ``nDCG@20``, ``P@10``, ``RR``, ``ERR@20``,
``R@100`` …), ``ranx`` (``map``, ``ndcg@20``, ``precision@10``, ``mrr`` …) and the bundled
data (``ap``, ``ndcg``, ``p10``, ``rr``, ``ndcg20``, ``err20``) give them; an unknown name is
accepted as unbounded. Users add their own with :func:`register_measure`.

Only raw scores are checked: a cube whose ``attrs`` carry ``standardization`` (set by
:func:`scorestd.standardize`) holds standardized values, whatever its measure labels say.
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np

from ._options import _as_float, check_option
from .errors import OptionError, ScoreDataError

__all__ = ["TOLERANCE", "Measure", "check_target_in_range", "find_measure", "measure_info",
           "out_of_range", "out_of_range_by_measure", "register_measure", "same_measure"]

#: How far a score may sit from its support: half a unit of trec_eval's 4th decimal.
TOLERANCE = 5.0001e-5

#: Scores checked at once (larger arrays are checked in blocks of rows).
_BLOCK = 1 << 20

#: Kinds of support: any value in [lower, upper], multiples of ``1/k`` (P@k), ``0`` or
#: ``1/r`` for a rank ``r`` (reciprocal rank), whole numbers (counts).
Support = Literal["interval", "multiples", "reciprocal", "integers"]


@dataclass(frozen=True)
class Measure:
    """What a measure can score.

    Attributes
    ----------
    name : str
        The name as given (``"P_10"``, ``"nDCG@20"``).
    family : str
        The measure it is (``"precision"``, ``"ndcg"``).
    cutoff : float or None
        The rank cut-off (or recall level) the name carries, if any.
    lower, upper : float
        The range of a per-topic score.
    support : {"interval", "multiples", "reciprocal", "integers"}
        Every value of ``[lower, upper]``; multiples of ``1/cutoff`` (precision at k);
        ``0`` or ``1/r`` (reciprocal rank); whole numbers (counts).

    Examples
    --------
    >>> m = measure_info("P_10")
    >>> m.family, m.lower, m.upper, m.describe()
    ('precision', 0.0, 1.0, 'multiples of 1/10 in [0, 1]')
    """

    name: str
    family: str
    cutoff: float | None
    lower: float
    upper: float
    support: Support = "interval"

    def describe(self) -> str:
        """The range in words, e.g. ``"[0, 1]"`` or ``"0 or 1/r in [0, 1]"``."""
        span = f"[{_number(self.lower)}, {_number(self.upper)}]"
        if self.support == "multiples":
            return f"multiples of 1/{_number(self.cutoff)} in {span}"
        if self.support == "reciprocal":
            return f"0 or 1/rank in {span}"
        if self.support == "integers":
            return f"whole numbers in {span}"
        return span


# Families: (lower, upper, support). A "multiples" family without a cut-off in its name
# (plain "P") is an interval.
_FAMILIES: dict[str, tuple[float, float, Support]] = {
    "ap": (0.0, 1.0, "interval"),
    "ndcg": (0.0, 1.0, "interval"),
    "err": (0.0, 1.0, "interval"),
    "precision": (0.0, 1.0, "multiples"),
    "recall": (0.0, 1.0, "interval"),
    "rprec": (0.0, 1.0, "interval"),
    "bpref": (0.0, 1.0, "interval"),
    "infap": (0.0, 1.0, "interval"),
    "iprec": (0.0, 1.0, "interval"),
    "f": (0.0, 1.0, "interval"),
    "judged": (0.0, 1.0, "interval"),
    "rbp": (0.0, 1.0, "interval"),
    "rr": (0.0, 1.0, "reciprocal"),
    "success": (0.0, 1.0, "integers"),
    "count": (0.0, math.inf, "integers"),
    "hits": (0.0, math.inf, "integers"),
    "dcg": (0.0, math.inf, "interval"),
}

# Lower-cased base names (cut-off and parameters removed) of trec_eval, ir_measures, ranx
# and the bundled data → family.
_ALIASES: dict[str, str] = {
    **dict.fromkeys(("map", "ap", "map_cut", "set_map", "setap", "gm_map"), "ap"),
    **dict.fromkeys(("ndcg", "ndcg_cut", "ndcg_burges", "ndcg_rel", "rndcg", "alpha_ndcg",
                     "alpha-ndcg", "nndcg", "intent_ndcg"), "ndcg"),
    **dict.fromkeys(("err", "nerr", "err_ia", "err-ia"), "err"),
    **dict.fromkeys(("p", "precision", "set_p", "setp"), "precision"),
    **dict.fromkeys(("recall", "r", "set_recall", "setr"), "recall"),
    **dict.fromkeys(("rprec", "r-precision", "r_precision", "rprecision"), "rprec"),
    **dict.fromkeys(("bpref",), "bpref"),
    **dict.fromkeys(("infap", "xinfap"), "infap"),
    **dict.fromkeys(("iprec_at_recall", "iprec"), "iprec"),
    **dict.fromkeys(("set_f", "setf", "f1", "f"), "f"),
    **dict.fromkeys(("judged",), "judged"),
    **dict.fromkeys(("rbp",), "rbp"),
    **dict.fromkeys(("recip_rank", "rr", "mrr"), "rr"),
    **dict.fromkeys(("success", "hit_rate", "hitrate"), "success"),
    **dict.fromkeys(("num_ret", "num_rel", "num_rel_ret", "num_q", "numret", "numrel",
                     "numrelret", "num_nonrel_judged_ret"), "count"),
    **dict.fromkeys(("hits",), "hits"),
    **dict.fromkeys(("dcg", "dcg_burges"), "dcg"),
}

# Base names that are spellings of one measure (not only of one family) → the canonical
# one; a base name of ``_ALIASES`` not listed here is its own.
_SYNONYMS: dict[str, str] = {
    **dict.fromkeys(("map", "ap", "map_cut"), "ap"),
    **dict.fromkeys(("ndcg", "ndcg_cut"), "ndcg"),
    **dict.fromkeys(("p", "precision"), "p"),
    **dict.fromkeys(("recall", "r"), "recall"),
    **dict.fromkeys(("rprec", "r-precision", "r_precision", "rprecision"), "rprec"),
    **dict.fromkeys(("recip_rank", "rr", "mrr"), "rr"),
    **dict.fromkeys(("iprec_at_recall", "iprec"), "iprec"),
    **dict.fromkeys(("alpha_ndcg", "alpha-ndcg"), "alpha_ndcg"),
    **dict.fromkeys(("err_ia", "err-ia"), "err_ia"),
    **dict.fromkeys(("set_map", "setap"), "set_map"),
    **dict.fromkeys(("set_p", "setp"), "set_p"),
    **dict.fromkeys(("set_recall", "setr"), "set_recall"),
    **dict.fromkeys(("set_f", "setf"), "set_f"),
    **dict.fromkeys(("success", "hit_rate", "hitrate"), "success"),
    **dict.fromkeys(("num_ret", "numret"), "num_ret"),
    **dict.fromkeys(("num_rel", "numrel"), "num_rel"),
    **dict.fromkeys(("num_rel_ret", "numrelret"), "num_rel_ret"),
}

#: Measures registered by name with :func:`register_measure` (exact names, checked first).
_REGISTERED: dict[str, Measure] = {}

_PARAMETERS = re.compile(r"\([^)]*\)")
_CUTOFF = re.compile(r"^(?P<base>.*?)(?:@|_cut_|_at_|_|\.)?(?P<k>\d+(?:\.\d+)?)$")


def measure_info(name: str) -> Measure | None:
    """What a measure of this name can score, or ``None`` for an unknown name.

    Names are read as ``trec_eval`` (``P_10``, ``ndcg_cut_20``, ``recip_rank``,
    ``iprec_at_recall_0.10``), ``ir_measures`` (``P@10``, ``nDCG(judged_only=True)@20``,
    ``RR@10``), ``ranx`` (``precision@10``, ``ndcg_burges@20``, ``mrr``) and the bundled
    data (``p10``, ``ndcg20``) write them, case-insensitively; measures registered with
    :func:`register_measure` come first.

    Parameters
    ----------
    name : str
        A measure label.

    Returns
    -------
    Measure or None

    Examples
    --------
    >>> measure_info("nDCG@20").describe()
    '[0, 1]'
    >>> measure_info("recip_rank").describe()
    '0 or 1/rank in [0, 1]'
    >>> measure_info("p10").cutoff
    10.0
    >>> measure_info("my_utility") is None
    True
    """
    text = str(name)
    if text in _REGISTERED:
        return _REGISTERED[text]
    return _known_measure(text)


@functools.lru_cache(maxsize=4096)
def _parse(text: str) -> tuple[str, float | None] | None:
    """The lower-cased base name (a key of ``_ALIASES``) and cut-off of a built-in
    measure's label, or ``None`` for an unknown label."""
    base = _PARAMETERS.sub("", text).strip().lower()
    if base in _ALIASES:
        return base, None
    match = _CUTOFF.match(base)
    if match is None or match.group("base").rstrip("_@.") not in _ALIASES:
        return None
    return match.group("base").rstrip("_@."), float(match.group("k"))


def _identity(label: str) -> tuple[str, float | None, str] | None:
    """What a built-in measure's label names, whatever the toolkit's spelling: its
    canonical base name, cut-off and parameters (``None`` for an unknown or registered
    label, which only its own spelling names).

    ``map``, ``AP`` and ``ap`` are one measure; ``ndcg_cut_20``, ``nDCG@20`` and
    ``ndcg20`` another. Variants that only share a range (Burges' nDCG, set-based P,
    α-nDCG, a parameter such as ``judged_only=True``) are measures of their own.
    """
    text = str(label)
    if text in _REGISTERED:
        return None
    parsed = _parse(text)
    if parsed is None:
        return None
    base, cutoff = parsed
    parameters = "".join(_PARAMETERS.findall(text)).replace(" ", "").lower()
    return _SYNONYMS.get(base, base), cutoff, parameters


@functools.lru_cache(maxsize=4096)
def _known_measure(text: str) -> Measure | None:
    """The built-in entry for a label (labels recur: the parse is kept)."""
    parsed = _parse(text)
    if parsed is None:
        return None
    base, cutoff = parsed
    family = _ALIASES[base]
    lower, upper, support = _FAMILIES[family]
    if family == "hits" and cutoff is not None:
        upper = cutoff
    if support == "multiples" and (cutoff is None or cutoff < 1 or cutoff != int(cutoff)):
        support = "interval"
    return Measure(text, family, cutoff, lower, upper, support)


def check_target_in_range(name: str, value: float, measures: Sequence[str], *,
                          what: str = "a difference between two systems' mean scores",
                          spans: float = 1.0) -> float:
    """A design target (a difference, a range, an interval's width) no larger than the
    measure's scores allow: at most ``spans`` × (upper − lower) of every known measure.

    Unknown measures and open ranges are not checked.

    Raises
    ------
    OptionError
        Naming the option, the measure and its range.

    Examples
    --------
    >>> check_target_in_range("min_diff", 0.1, ["ap", "P@10"])
    0.1
    >>> check_target_in_range("min_diff", 1.5, ["ap"])
    Traceback (most recent call last):
    ...
    scorestd.errors.OptionError: min_diff=1.5 is out of reach for measure 'ap', whose scores are in [0, 1]: a difference between two systems' mean scores is at most 1
    """
    for label in measures:
        info = measure_info(str(label))
        if info is None:
            continue
        limit = spans * (info.upper - info.lower)
        if math.isfinite(limit) and value > limit * (1 + 1e-12):
            raise OptionError(f"{name}={value!r} is out of reach for measure {str(label)!r}, "
                              f"whose scores are in {info.describe()}: {what} is at most "
                              f"{_number(limit)}")
    return value


def same_measure(a: str, b: str) -> bool:
    """Whether two measure labels may name the same measure.

    Equal labels, toolkit spellings of one measure (``map`` and ``AP``, ``P_10`` and
    ``P@10``, ``ndcg_cut_20`` and ``ndcg20``), or a label and the default ``"score"`` of
    an unlabelled array are the same; two different known measures (``ap`` and
    ``ndcg``, ``nDCG@20`` and Burges' ``ndcg_burges@20``), or two different unknown
    labels, are not.

    Examples
    --------
    >>> same_measure("map", "AP"), same_measure("P_10", "precision@10")
    (True, True)
    >>> same_measure("ap", "ndcg"), same_measure("P@10", "P@20"), same_measure("score", "ap")
    (False, False, True)
    """
    from .dims import DEFAULT_MEASURE

    if a == b or DEFAULT_MEASURE in (a, b):
        return True
    first = _identity(a)
    return first is not None and first == _identity(b)


def find_measure(name: str | None, labels: Sequence[Hashable], *,
                 what: str = "the scores", required: bool = True) -> str | None:
    """The label among ``labels`` that a user means by ``name``, under any of its usual
    spellings: ``trec_eval``'s (``map``, ``P_10``, ``ndcg_cut_20``, ``recip_rank``),
    ``ir_measures``' (``AP``, ``P@10``, ``nDCG@20``, ``RR``, ``ERR@20``), ``ranx``'s
    (``precision@10``, ``mrr``) and the bundled data's (``ap``, ``p10``, ``ndcg20``,
    ``rr``, ``err20``), in any case.

    A label spelled as ``name`` (regardless of case) is taken first; else a label that
    is another spelling of the same measure (:func:`same_measure`). Every choice of a
    measure by name (``measure=`` of the API, ``-m``/``--measure`` of the command line)
    goes through here.

    Parameters
    ----------
    name : str or None
        The measure asked for; ``None`` picks the only one.
    labels : sequence
        The measure labels there are (a cube's ``measure`` coordinate).
    what : str
        What holds the measures, for the messages (``"the scores"``, ``"dataset
        'adhoc8'"``).
    required : bool
        Whether an unknown ``name`` is an error (else ``None`` is returned).

    Returns
    -------
    str or None
        The label as the data spell it.

    Raises
    ------
    ScoreDataError
        For ``None`` and several measures, an unknown name (listing the measures there
        are), or a name that two labels answer equally well, naming both: two labels
        differing only by case (``AP`` and ``ap``), or, for a name spelled by neither,
        two spellings of the same measure (``ndcg_cut_20`` and ``nDCG@20`` asked for as
        ``ndcg20``).
        Rename one, e.g. ``cube.assign_coords(measure=[...])``.

    Examples
    --------
    >>> find_measure("ap", ["AP", "nDCG@20"]), find_measure("NDCG@20", ["AP", "nDCG@20"])
    ('AP', 'nDCG@20')
    >>> find_measure("ERR@20", ["err20", "ndcg20"]), find_measure("P_10", ["ap", "p10"])
    ('err20', 'p10')
    >>> find_measure(None, ["P_10"])
    'P_10'
    >>> find_measure("ap", ["AP", "ap"])
    Traceback (most recent call last):
    ...
    scorestd.errors.ScoreDataError: measure 'ap' matches 'AP' and 'ap' of the scores, which differ only by case: rename one (measures are chosen by name regardless of case)
    >>> find_measure("ndcg20", ["ndcg_cut_20", "nDCG@10", "nDCG@20"])
    Traceback (most recent call last):
    ...
    scorestd.errors.ScoreDataError: measure 'ndcg20' may be 'ndcg_cut_20' or 'nDCG@20' of the scores, two spellings of the same measure: ask for one as it is spelled, or rename one
    """
    known = [str(label) for label in labels]
    if name is None:
        if len(known) != 1:
            raise ScoreDataError(f"several measures in {what}, {known}: pick one with "
                                 "measure= (-m on the command line)")
        return known[0]
    wanted = str(name).casefold()
    matches = [label for label in known if label.casefold() == wanted]
    if len(matches) > 1:
        raise ScoreDataError(
            f"measure {str(name)!r} matches {' and '.join(map(repr, matches))} of {what}, "
            "which differ only by case: rename one (measures are chosen by name regardless "
            "of case)")
    if not matches:
        identity = _identity(str(name))
        matches = [] if identity is None else [
            label for label in known if _identity(label) == identity]
    if len(matches) > 1:
        raise ScoreDataError(
            f"measure {str(name)!r} may be {' or '.join(map(repr, matches))} of {what}, "
            "two spellings of the same measure: ask for one as it is spelled, or rename one")
    if not matches and not required:
        return None
    if not matches:
        raise ScoreDataError(f"unknown measure {str(name)!r}; the measures of {what}: {known}")
    return matches[0]


def register_measure(
    name: str,
    lower: float = 0.0,
    upper: float = 1.0,
    *,
    support: Support = "interval",
    cutoff: float | None = None,
) -> Measure:
    """Declare the range of a measure (your own, or a known one scored differently).

    Parameters
    ----------
    name : str
        The exact measure label of your cubes.
    lower, upper : float
        The range of a per-topic score (``-inf``/``inf`` for an open end).
    support : {"interval", "multiples", "reciprocal", "integers"}
        See :class:`Measure`; ``"multiples"`` needs ``cutoff``.
    cutoff : float, optional
        The k of a ``"multiples"`` support (values are multiples of 1/k).

    Returns
    -------
    Measure
        The entry, which :func:`measure_info` now returns for ``name``.

    Examples
    --------
    >>> register_measure("gain_utility", -1.0, 1.0).describe()
    '[-1, 1]'
    """
    check_option(support, Support, "support")
    lower, upper = _as_float("lower", lower), _as_float("upper", upper)
    if math.isnan(lower) or math.isnan(upper):
        raise OptionError(f"lower and upper must be numbers (±inf for an open end); got "
                          f"{lower} and {upper}")
    if not lower < upper:
        raise OptionError(f"lower must be < upper; got {lower} and {upper}")
    if support == "multiples" and not cutoff:
        raise OptionError("support='multiples' needs cutoff=k (values are multiples of 1/k)")
    entry = Measure(str(name), str(name), cutoff, float(lower), float(upper), support)
    _REGISTERED[str(name)] = entry
    return entry


def out_of_range(values: np.ndarray, measure: Measure) -> np.ndarray:
    """Boolean mask of the scores ``measure`` cannot give (``NaN`` is never flagged).

    Scores within :data:`TOLERANCE` of the range or the support pass: files round to 4
    decimals.

    Examples
    --------
    >>> out_of_range(np.array([0.3, 0.35, 1.5, np.nan]), measure_info("P@10")).tolist()
    [False, True, True, False]
    """
    x = np.asarray(values, dtype=np.float64)
    if x.ndim > 1 and x.size > _BLOCK:  # in blocks of rows: temporaries stay small
        rows = max(1, _BLOCK // max(1, x[0].size))
        out = np.empty(x.shape, dtype=bool)
        for start in range(0, x.shape[0], rows):
            out[start:start + rows] = out_of_range(x[start:start + rows], measure)
        return out
    with np.errstate(invalid="ignore", divide="ignore"):
        bad = _outside(x, measure.lower, measure.upper)
        if measure.support == "multiples":
            steps = x * measure.cutoff
            bad |= np.abs(steps - np.round(steps)) / measure.cutoff > TOLERANCE
        elif measure.support == "integers":
            bad |= np.abs(x - np.round(x)) > TOLERANCE
        elif measure.support == "reciprocal":
            rank = np.maximum(np.round(1.0 / np.where(x > 0, x, 1.0)), 1.0)
            bad |= (x > TOLERANCE) & (np.abs(x - 1.0 / rank) > TOLERANCE)
    return bad & ~np.isnan(x)


def out_of_range_by_measure(values: np.ndarray, measures: Sequence[Measure | None]
                            ) -> np.ndarray:
    """:func:`out_of_range` of ``values`` ``(..., M)`` against one measure per last-axis
    entry (``None``: unbounded, never flagged).

    Measures that only bound their scores are checked in one pass over ``values``.

    Examples
    --------
    >>> x = np.array([[0.5, 1.5], [1.2, 0.35]])
    >>> out_of_range_by_measure(x, [measure_info("ap"), measure_info("P@10")]).tolist()
    [[False, True], [True, True]]
    """
    x = np.asarray(values, dtype=np.float64)
    bad = np.zeros(x.shape, dtype=bool)
    if x.size == 0:
        return bad
    known = [m for m in measures if m is not None]
    if all(m.support == "interval" for m in known):
        # the cube's smallest and largest score (NaN skipped) within every measure's
        # bounds clear the whole cube in one pass
        low, high = np.fmin.reduce(x, axis=None), np.fmax.reduce(x, axis=None)
        if not known or not _outside(np.array([low, high]), max(m.lower for m in known),
                                     min(m.upper for m in known)).any():
            return bad
    for k, m in enumerate(measures):
        if m is not None:
            bad[..., k] = out_of_range(x[..., k], m)
    return bad


def _outside(x: np.ndarray, lower, upper) -> np.ndarray:
    """Below ``lower`` or above ``upper`` by more than :data:`TOLERANCE`."""
    return (x < lower - TOLERANCE) | (x > upper + TOLERANCE)


def _number(value: float | None) -> str:
    if value is None:
        return "?"
    if math.isinf(value):
        return "inf" if value > 0 else "-inf"
    return f"{value:g}"
