# cython: language_level=3, boundscheck=False, wraparound=False, initializedcheck=False, cdivision=True
"""Compiled twin of :func:`scrapy_boilerplate.classifiers.template.template_scores_pure`.

The same float operations in the same order (C doubles): the bucket by the comparisons of
``bisect.bisect_right``, the margin as ``intercept + sum(map(operator.mul, row, coefs))`` with
the summation of the running interpreter's ``sum`` (plain left-to-right before Python 3.12,
Neumaier's compensated summation since), and the same sigmoid. ``tests/test_classifiers_template.py``
checks that on random rows and on the shared datasets' pages. Rows that are not lists of
``float`` give ``None`` (the caller then runs the reference).
"""

from cpython.float cimport PyFloat_AS_DOUBLE, PyFloat_CheckExact
from cpython.list cimport PyList_GET_ITEM, PyList_GET_SIZE
from libc.math cimport exp, fabs, isfinite
from libc.stdlib cimport free, malloc

cdef extern from *:
    """
    #if PY_VERSION_HEX >= 0x030C0000
    #define SB_COMPENSATED_SUM 1
    #else
    #define SB_COMPENSATED_SUM 0
    #endif
    """
    const bint SB_COMPENSATED_SUM


cdef inline double _sum_of_products(list row, const double* coefs, Py_ssize_t n) noexcept:
    """``sum(map(operator.mul, row, coefs))`` as the running interpreter computes it (``row``
    holds ``n`` floats, ``n`` at least 1)."""
    cdef double total = 0.0 + PyFloat_AS_DOUBLE(<object>PyList_GET_ITEM(row, 0)) * coefs[0]
    cdef double compensation = 0.0, x, t
    cdef Py_ssize_t k
    if not SB_COMPENSATED_SUM:
        for k in range(1, n):
            total += PyFloat_AS_DOUBLE(<object>PyList_GET_ITEM(row, k)) * coefs[k]
        return total
    for k in range(1, n):
        x = PyFloat_AS_DOUBLE(<object>PyList_GET_ITEM(row, k)) * coefs[k]
        t = total + x
        if fabs(total) >= fabs(x):
            compensation += (total - t) + x
        else:
            compensation += (x - t) + total
        total = t
    if compensation != 0.0 and isfinite(compensation):
        total += compensation
    return total


def template_scores(rows, Py_ssize_t log_area, tuple cuts, tuple intercepts, tuple coefs):
    """P(template) of each full row, or ``None`` when a row is not a list of floats of the
    coefficients' length (at least ``log_area + 1``)."""
    cdef Py_ssize_t buckets = len(intercepts), width, b, k, n_cuts = len(cuts)
    cdef double* table
    cdef double* bucket_cuts
    cdef double margin, x
    cdef list row, scores = []
    if buckets == 0 or len(coefs) != buckets or n_cuts != buckets - 1:
        return None
    width = len(coefs[0])
    if width <= log_area:
        return None
    for row_object in rows:
        if type(row_object) is not list or PyList_GET_SIZE(row_object) != width:
            return None
        for value in <list>row_object:
            if not PyFloat_CheckExact(value):
                return None
    table = <double*>malloc((buckets * width + n_cuts + 1) * sizeof(double))
    if table is NULL:
        raise MemoryError()
    bucket_cuts = table + buckets * width
    try:
        for b in range(buckets):
            if len(coefs[b]) != width:
                return None
            for k in range(width):
                table[b * width + k] = coefs[b][k]
        for b in range(n_cuts):
            bucket_cuts[b] = cuts[b]
        for row_object in rows:
            row = <list>row_object
            x = PyFloat_AS_DOUBLE(<object>PyList_GET_ITEM(row, log_area))
            b = 0
            while b < n_cuts and not (x < bucket_cuts[b]):
                b += 1
            margin = <double>intercepts[b] + _sum_of_products(row, table + b * width, width)
            scores.append(0.0 if margin < -700.0 else 1.0 / (1.0 + exp(-margin)))
    finally:
        free(table)
    return scores
