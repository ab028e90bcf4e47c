# cython: language_level=3, boundscheck=False, wraparound=False, initializedcheck=False, cdivision=True
"""Compiled twin of :func:`scrapy_boilerplate.filters.isotonic.smooth_levels_pure`.

The same dynamic program with the same float operations in the same order (C doubles), so the
same chosen levels and the same cost: ``tests/test_filters_isotonic.py`` checks that. The
inputs are checked for length here (indices are not checked while looping);
:func:`~scrapy_boilerplate.filters.isotonic.smooth_tree` checks the tree.
"""

from libc.math cimport fabs, INFINITY
from libc.stdlib cimport free, malloc


cdef Py_ssize_t _argmin_from(const double* row, Py_ssize_t start, Py_ssize_t levels) noexcept nogil:
    """The smallest index k >= start with the least ``row[k]``."""
    cdef Py_ssize_t k, best_k = start
    cdef double best = row[start]
    for k in range(start + 1, levels):
        if row[k] < best:
            best_k = k
            best = row[k]
    return best_k


def smooth_levels(parent, x, w, gamma, grid):
    """Grid index of each node's optimal value, and the optimal cost."""
    cdef const int[:] par = parent
    cdef const double[:] xs = x
    cdef const double[:] ws = w
    cdef const double[:] gs = gamma
    cdef const double[:] vs = grid
    cdef Py_ssize_t n = xs.shape[0], levels = vs.shape[0]
    cdef Py_ssize_t i, k, p, start, best_k
    cdef double best, value, jump, penalty, cost, wi, xi
    cdef double* g
    cdef double* row
    cdef double* target
    cdef int* levels_of
    if par.shape[0] != n or ws.shape[0] != n or gs.shape[0] != n:
        raise ValueError("parent, x, w and gamma must have the same length")
    if n == 0:
        return [], 0.0
    if levels == 0:
        raise ValueError("the grid is empty")
    for i in range(1, n):
        if par[i] < 0 or par[i] >= i:
            raise ValueError(f"parent[{i}] = {par[i]}: a parent must come before its child")
    g = <double*> malloc(n * levels * sizeof(double))
    if g == NULL:
        raise MemoryError()
    try:
        with nogil:
            for i in range(n):
                row = g + i * levels
                wi = ws[i]
                xi = xs[i]
                for k in range(levels):
                    row[k] = wi * fabs(xi - vs[k])
            for i in range(n - 1, 0, -1):
                row = g + i * levels
                target = g + par[i] * levels
                penalty = gs[i]
                best = INFINITY
                for k in range(levels - 1, -1, -1):
                    value = row[k]
                    if value < best:
                        best = value
                    jump = penalty + best
                    target[k] += value if value <= jump else jump
        chosen = [0] * n
        best_k = _argmin_from(g, 0, levels)
        chosen[0] = best_k
        cost = gs[0] + g[best_k]
        levels_of = <int*> malloc(n * sizeof(int))
        if levels_of == NULL:
            raise MemoryError()
        try:
            levels_of[0] = <int> best_k
            with nogil:
                for i in range(1, n):
                    row = g + i * levels
                    start = levels_of[par[i]]
                    best_k = _argmin_from(row, start, levels)
                    levels_of[i] = <int> (start if row[start] <= gs[i] + row[best_k] else best_k)
            for i in range(1, n):
                chosen[i] = levels_of[i]
        finally:
            free(levels_of)
    finally:
        free(g)
    return chosen, cost
