"""R-vine copulas in numpy: the inverse Rosenblatt transform of many points at once.

A d-dimensional R-vine is ``d(d − 1)/2`` pair copulas on nested trees; drawing from it
maps ``d`` independent uniforms through the inverse h-functions of the pair copulas,
variable after variable, from the last tree to the first (Dißmann, Brechmann, Czado &
Kurowicka 2013; Czado 2019, *Analyzing Dependent Data with Vine Copulas*, §6.3).
The structure is read as ``vinecopulib`` stores it: the variables in natural order
(column ``j`` holds variable ``order[j]``) and a triangular structure array whose entry
``(tree, j)`` names, by its natural-order label, the partner of column ``j`` in that tree.

Every step of the recursion is one pair copula applied to all points at once, so the
cost of Python per step is shared by every point (trials × topics). The pair copulas
are those of :mod:`.pair_copulas`; an edge of a family that module does not have is
computed by a caller-supplied function (``fallback``), counted in ``VinePlan.fallback``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from .pair_copulas import NUMPY_FAMILIES, rotated_hinv2, rotated_hinv2_hfunc1

__all__ = ["VineEdge", "VinePlan", "inverse_rosenblatt", "vine_plan"]


@dataclass(frozen=True)
class VineEdge:
    """One pair copula of the vine: tree, column (its edge index), family, rotation,
    parameters, Kendall's τ."""

    tree: int
    column: int
    family: str
    rotation: int
    params: tuple[float, ...]
    tau: float


@dataclass(frozen=True)
class VinePlan:
    """The steps of the inverse Rosenblatt transform of one vine, worked out once.

    Attributes
    ----------
    order : numpy.ndarray
        ``(d,)`` the variable (1-based) in each natural-order column.
    trunc : int
        Trees with pair copulas (independence beyond).
    steps : tuple
        ``(edge, first, second, out, hfunc_out)`` per edge in the order of the recursion:
        the keys of the working arrays it reads and writes (``hfunc_out`` is ``None``
        when no later step needs the edge's h-function).
    frees : tuple
        Per step, the keys whose last reader it is.
    peak : int
        Working arrays (of one value a point) held at once at most, besides the input
        and the output.
    fallback : int
        Edges whose family :mod:`.pair_copulas` does not have.
    """

    order: np.ndarray
    trunc: int
    steps: tuple
    frees: tuple
    peak: int
    fallback: int

    @property
    def dim(self) -> int:
        """Number of variables."""
        return len(self.order)

    def bytes_per_point(self) -> int:
        """Bytes of working memory :func:`inverse_rosenblatt` needs a point (row): input,
        output, the working arrays at their peak and the temporaries of one step."""
        return 8 * (2 * self.dim + self.peak + _STEP_TEMPORARIES)


#: Arrays of one value a point that one pair copula's inverse h-function holds at once.
_STEP_TEMPORARIES = 24


def vine_plan(order: Sequence[int], struct: Sequence[Sequence[int]],
              edges: Sequence[Sequence[VineEdge]]) -> VinePlan:
    """The plan of :func:`inverse_rosenblatt` for one vine.

    Parameters
    ----------
    order : sequence of int
        ``(d,)`` variables (1-based) in natural order (``pyvinecopulib``'s
        ``structure.order``).
    struct : sequence of sequences of int
        ``struct[tree][j]``: the natural-order label (1-based) of column ``j``'s partner
        in ``tree`` (``structure.struct_array(tree, j, True)``), for the trees kept
        (the truncation level).
    edges : sequence of sequences of VineEdge
        ``edges[tree][j]``, the pair copula of that edge.

    Examples
    --------
    >>> e = VineEdge(0, 0, "gaussian", 0, (0.5,), 1 / 3)
    >>> plan = vine_plan([2, 1], [[2]], [[e]])
    >>> plan.dim, len(plan.steps), plan.fallback
    (2, 1, 0)
    """
    order = np.asarray(order, dtype=np.int64)
    d, trunc = len(order), len(struct)
    # the smallest label among column j's partners in trees 0..t
    low = [[min(struct[t2][j] for t2 in range(t + 1)) for j in range(d - 1 - t)]
           for t in range(trunc)]
    # keys: ("v", tree, col), the inverse h-function values (vinecopulib's hinv2(tree, col));
    # ("h", tree, col), h-function values a later step conditions on
    needs_h = {(t, low[t][j] - 1) for t in range(trunc) for j in range(d - 1 - t)
               if low[t][j] != struct[t][j]}
    steps = []
    for var in range(d - 2, -1, -1):
        for tree in range(min(trunc - 1, d - var - 2), -1, -1):
            m = low[tree][var]
            second = ("v", tree, m - 1) if m == struct[tree][var] else ("h", tree, m - 1)
            hout = ("h", tree + 1, var) if (tree + 1, var) in needs_h else None
            steps.append((edges[tree][var], ("v", tree + 1, var), second, ("v", tree, var),
                          hout))
    last: dict[tuple, int] = {}
    for i, (_, first, second, _, _) in enumerate(steps):
        last[first] = last[second] = i
    frees = [[] for _ in steps]
    for key, i in last.items():
        frees[i].append(key)
    return VinePlan(order=order, trunc=trunc, steps=tuple(steps),
                    frees=tuple(tuple(f) for f in frees), peak=_peak(d, trunc, steps, frees),
                    fallback=sum(e.family not in NUMPY_FAMILIES for row in edges for e in row))


def _peak(d: int, trunc: int, steps: list, frees: list) -> int:
    """Most working arrays alive at once in :func:`inverse_rosenblatt` (an independence
    edge passes an array on without a new one; tree-0 values live in the output)."""
    array_of = {("v", min(trunc, d - j - 1), j): ("u", j) for j in range(d)
                if min(trunc, d - j - 1) > 0}
    users: dict[tuple, int] = {}
    for a in array_of.values():
        users[a] = users.get(a, 0) + 1
    live = peak = len(users)
    for (edge, first, second, out, hout), gone in zip(steps, frees, strict=True):
        news = [(out, first if edge.family == "indep" else out)]
        if hout is not None:
            news.append((hout, second if edge.family == "indep" else hout))
        for key, src in news:
            if key[:2] == ("v", 0):
                continue
            a = array_of.get(src, src)
            array_of[key] = a
            live += a not in users
            users[a] = users.get(a, 0) + 1
        peak = max(peak, live)
        for key in gone:
            a = array_of.pop(key, None)
            if a is not None:
                users[a] -= 1
                if not users[a]:
                    del users[a]
                    live -= 1
    return peak


def inverse_rosenblatt(plan: VinePlan, u: np.ndarray,
                       fallback: Callable[[VineEdge, str, np.ndarray, np.ndarray],
                                          np.ndarray] | None = None) -> np.ndarray:
    """Map independent uniforms ``(n, d)`` to draws of the vine ``(n, d)``.

    Row ``i`` of the result depends on row ``i`` of ``u`` only (the same whatever the
    other rows), so draws split into pieces equal one draw of them all.

    Parameters
    ----------
    plan : VinePlan
        From :func:`vine_plan`.
    u : numpy.ndarray
        ``(n, d)`` independent uniforms in (0, 1), column ``k`` for variable ``k + 1``.
    fallback : callable, optional
        ``fallback(edge, "hinv2" | "hfunc1", first, second)`` for the edges whose family
        :mod:`.pair_copulas` does not have (required when ``plan.fallback``): the
        edge's copula evaluated at the points ``(first, second)``.

    Examples
    --------
    >>> e = VineEdge(0, 0, "clayton", 0, (2.0,), 0.5)
    >>> plan = vine_plan([2, 1], [[2]], [[e]])
    >>> x = inverse_rosenblatt(plan, np.random.default_rng(0).random((20000, 2)))
    >>> from scipy.stats import kendalltau
    >>> round(float(kendalltau(x[:, 0], x[:, 1]).statistic), 1)
    0.5
    """
    u = np.asarray(u, dtype=np.float64)
    d = plan.dim
    if u.ndim != 2 or u.shape[1] != d:
        raise ValueError(f"u must have shape (n, {d}); got {u.shape}")
    if plan.fallback and fallback is None:
        raise ValueError(f"{plan.fallback} edge(s) need the fallback function")
    out = np.empty((d, u.shape[0]))  # tree-0 values, a row per natural-order column
    values: dict[tuple, np.ndarray] = {}
    for j in range(d):
        top = min(plan.trunc, d - j - 1)
        if top == 0:
            out[j] = u[:, plan.order[j] - 1]
            values[("v", 0, j)] = out[j]
        else:
            values[("v", top, j)] = np.ascontiguousarray(u[:, plan.order[j] - 1])
    for (edge, first, second, key, hkey), gone in zip(plan.steps, plan.frees, strict=True):
        a, b = values[first], values[second]
        h = None
        if edge.family == "indep":  # hinv2 passes the first on, hfunc1 the second
            v, h = a, b
        elif edge.family in NUMPY_FAMILIES and hkey is not None:
            v, h = rotated_hinv2_hfunc1(edge.family, edge.rotation, edge.params, b, a,
                                        tau=edge.tau)
        elif edge.family in NUMPY_FAMILIES:
            v = rotated_hinv2(edge.family, edge.rotation, edge.params, b, a, tau=edge.tau)
        else:
            v = np.asarray(fallback(edge, "hinv2", a, b), dtype=np.float64)
            if hkey is not None:
                h = np.asarray(fallback(edge, "hfunc1", v, b), dtype=np.float64)
        if key[1] == 0:
            out[key[2]] = v
            v = out[key[2]]
        values[key] = v
        if hkey is not None:
            values[hkey] = h
        for k in gone:
            del values[k]
    # back from natural order to the variables' order
    return out[np.argsort(plan.order)].T.copy()
