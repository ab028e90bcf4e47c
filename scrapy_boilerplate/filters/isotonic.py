"""Regularized tree isotonic regression (Chakrabarti, Kumar, Punera 2007, §4): the smoothing of
per-node templateness scores over a tree.

Given a tree (``parent[i] < i``, node 0 the root), scores ``x``, weights ``w > 0`` and segment
penalties ``gamma >= 0``, find ``y`` minimising::

    cost(y) = Σ_i w_i·|x_i − y_i| + Σ_{segment roots i} gamma_i

subject to ``y[parent[i]] <= y[i]`` (a parent is at most as template as its children). The
root is always a segment root; every other node is one when ``y_i > y[parent[i]]``.

Values are restricted to a sorted ``grid``. Exact mode uses the distinct scores as the grid
(the paper's Lemma 3: an optimal y takes only scores as values); the quantised grid of ``K``
levels (midpoints of ``K`` equal bins of [0, 1]) is within ``Σw/(2K)`` of the exact optimum.

Dynamic program, O(n·K) time and memory, no recursion (nodes are taken in index order)::

    g_i(v) = w_i·|x_i − v| + Σ_{c ∈ child(i)} f_c(v)        (subtree cost with y_i = v)
    G_i(t) = min_{v >= t} g_i(v)                           (suffix minimum)
    f_i(t) = min(g_i(t), gamma_i + G_i(t))                 (continue the parent's segment | new)
    cost   = gamma_0 + min_v g_0(v)

Back-tracking from the root: ``y_0`` is the smallest argmin of ``g_0`` (the paper's pseudo-code
never lets the root take the smallest score; this does); a child continues its parent's
segment when ``g_i(y_p) <= gamma_i + G_i(y_p)`` (ties: fewer segments), else takes the
smallest argmin of ``g_i`` over ``v >= y_p``. Smallest argmins keep ties on the low
(content) side.

:func:`smooth_levels_pure` is the reference; the compiled twin (``_isotonic``, built with
Cython) does the same float operations in the same order and gives identical output. It runs
when built, unless :data:`~scrapy_boilerplate.page.segmentation.PURE_PYTHON_ENV` is set.
"""

from __future__ import annotations

import itertools
import math
import operator
from array import array
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from ..page.segmentation import compiled_twin

__all__ = [
    "Smoothing",
    "smooth_tree",
    "smooth_levels",
    "smooth_levels_pure",
    "exact_grid",
    "level_grid",
    "ACCELERATED",
]


@dataclass(frozen=True)
class Smoothing:
    """The optimum: smoothed value per node, its cost and the segment roots (ascending)."""

    values: list[float]
    cost: float
    segment_roots: list[int]


def exact_grid(scores: Sequence[float]) -> array[float]:
    """The distinct scores, ascending (exact mode, Lemma 3)."""
    return array("d", sorted(set(scores)))


def level_grid(levels: int) -> array[float]:
    """The midpoints of ``levels`` equal bins of [0, 1], ascending."""
    if levels < 1:
        raise ValueError(f"levels must be at least 1, not {levels}")
    return array("d", [(k + 0.5) / levels for k in range(levels)])


def smooth_levels_pure(
    parent: Sequence[int],
    x: Sequence[float],
    w: Sequence[float],
    gamma: Sequence[float],
    grid: Sequence[float],
) -> tuple[list[int], float]:
    """Grid index of each node's optimal value, and the optimal cost (module docstring).

    Inputs are taken as valid (:func:`smooth_tree` checks them).
    """
    n, levels = len(x), len(grid)
    if n == 0:
        return [], 0.0
    g = [[w[i] * abs(x[i] - v) for v in grid] for i in range(n)]
    for i in range(n - 1, 0, -1):
        row, target, penalty = g[i], g[parent[i]], gamma[i]
        best = math.inf
        for k in range(levels - 1, -1, -1):
            value = row[k]
            if value < best:
                best = value
            jump = penalty + best
            target[k] += value if value <= jump else jump
    root_row = g[0]
    chosen = [0] * n
    chosen[0] = _argmin_from(root_row, 0)
    cost = gamma[0] + root_row[chosen[0]]
    for i in range(1, n):
        row, start = g[i], chosen[parent[i]]
        best_k = _argmin_from(row, start)
        chosen[i] = start if row[start] <= gamma[i] + row[best_k] else best_k
    return chosen, cost


def _argmin_from(row: list[float], start: int) -> int:
    """The smallest index k >= start with the least ``row[k]``."""
    best_k, best = start, row[start]
    for k in range(start + 1, len(row)):
        if row[k] < best:
            best_k, best = k, row[k]
    return best_k


_isotonic = compiled_twin(f"{__package__}._isotonic")
#: True when smoothing runs the compiled twin of :func:`smooth_levels_pure`.
ACCELERATED: Final = _isotonic is not None


def smooth_levels(
    parent: array[int], x: array[float], w: array[float], gamma: array[float], grid: array[float]
) -> tuple[list[int], float]:
    """:func:`smooth_levels_pure`, by the compiled twin when :data:`ACCELERATED`."""
    if _isotonic is not None:
        result: tuple[list[int], float] = _isotonic.smooth_levels(parent, x, w, gamma, grid)
        return result
    return smooth_levels_pure(parent, x, w, gamma, grid)


def smooth_tree(
    parent: Sequence[int],
    x: Sequence[float],
    w: Sequence[float],
    gamma: Sequence[float],
    levels: int = 0,
) -> Smoothing:
    """Smooth ``x`` over the tree ``parent`` (``parent[0] == -1``, ``0 <= parent[i] < i``).

    ``levels = 0`` is exact mode (grid = distinct scores); otherwise the grid has ``levels``
    levels and ``x`` should lie in [0, 1]. Raises :class:`ValueError` for a malformed tree,
    lengths that differ, non-finite scores, weights that are not positive or negative penalties.
    """
    n = len(x)
    if not (len(parent) == len(w) == len(gamma) == n):
        raise ValueError("parent, x, w and gamma must have the same length")
    _check_tree(parent)
    xs, ws, gs = array("d", x), array("d", w), array("d", gamma)
    if n and not _finite(xs):
        raise ValueError("scores must be finite")
    if n and not (_finite(ws) and min(ws) > 0):
        raise ValueError("weights must be positive and finite")
    if n and not (_finite(gs) and min(gs) >= 0):
        raise ValueError("penalties must be non-negative and finite")
    grid = exact_grid(xs) if levels == 0 else level_grid(levels)
    chosen, cost = smooth_levels(array("i", parent), xs, ws, gs, grid)
    values = list(map(grid.__getitem__, chosen))
    return Smoothing(values, cost, _segment_roots(parent, chosen))


def _segment_roots(parent: Sequence[int], chosen: Sequence[int]) -> list[int]:
    """The root and every node whose level is above its parent's (ascending)."""
    if not chosen:
        return []
    above = map(operator.gt, chosen[1:], map(chosen.__getitem__, parent[1:]))
    return [0, *itertools.compress(range(1, len(chosen)), above)]


def _finite(values: array[float]) -> bool:
    """Whether every value is finite (no NaN, no infinity): a finite sum says so at once (an
    infinity or a NaN makes the sum one), an overflowing sum is checked value by value."""
    return math.isfinite(sum(values)) or all(map(math.isfinite, values))


def _check_tree(parent: Sequence[int]) -> None:
    if not parent:
        return
    if parent[0] != -1:
        raise ValueError("node 0 is the root: parent[0] must be -1")
    if all(map(operator.lt, parent[1:], range(1, len(parent)))) and min(parent[1:], default=0) >= 0:
        return  # the usual case, checked without a Python loop
    for i in range(1, len(parent)):
        if not 0 <= parent[i] < i:
            raise ValueError(f"parent[{i}] = {parent[i]}: a parent must come before its child")
