# cython: language_level=3, boundscheck=False, wraparound=False, initializedcheck=False, cdivision=True
"""Compiled twin of :func:`scrapy_boilerplate.classifiers.template.template_scores_pure`.

The same float operations in the same order (C doubles): the bucket by the comparisons of
``bisect.bisect_right``, the margin as ``intercept + sum(map(operator.mul, row, coefs))`` with
the summation of the running interpreter's ``sum`` (plain left-to-right before Python 3.12,
Neumaier's compensated summation since), and the same sigmoid. ``tests/test_classifiers_template.py``
checks that on random rows and on the shared datasets' pages. The rows come as lists of
``float`` (:func:`template_scores`; other rows give ``None``, and the caller then runs the
reference) or one after the other in a flat array of doubles (:func:`matrix_scores`).
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


cdef inline double _sum_of_products(const double* row, const double* coefs, Py_ssize_t n) noexcept:
    """``sum(map(operator.mul, row, coefs))`` as the running interpreter computes it (``n`` at
    least 1)."""
    cdef double total = 0.0 + row[0] * coefs[0]
    cdef double compensation = 0.0, x, t
    cdef Py_ssize_t k
    if not SB_COMPENSATED_SUM:
        for k in range(1, n):
            total += row[k] * coefs[k]
        return total
    for k in range(1, n):
        x = row[k] * coefs[k]
        t = total + x
        if fabs(total) >= fabs(x):
            compensation += (total - t) + x
        else:
            compensation += (x - t) + total
        total = t
    if compensation != 0.0 and isfinite(compensation):
        total += compensation
    return total


cdef class _Model:
    """The model's coefficients (bucket after bucket) and area cuts as C doubles."""

    cdef Py_ssize_t buckets, width, n_cuts
    cdef double* coefs
    cdef double* cuts
    cdef double* intercepts

    def __cinit__(self):
        self.coefs = self.cuts = self.intercepts = NULL

    def __dealloc__(self):
        free(self.coefs)

    cdef bint load(self, tuple cuts, tuple intercepts, tuple coefs) except -1:
        """False when the shapes do not fit (one more bucket than cuts, equal rows)."""
        cdef Py_ssize_t b, k
        self.buckets = len(intercepts)
        self.n_cuts = len(cuts)
        if self.buckets == 0 or len(coefs) != self.buckets or self.n_cuts != self.buckets - 1:
            return False
        self.width = len(coefs[0])
        if self.width == 0:
            return False
        self.coefs = <double*>malloc(
            (self.buckets * self.width + self.n_cuts + self.buckets) * sizeof(double)
        )
        if self.coefs is NULL:
            raise MemoryError()
        self.cuts = self.coefs + self.buckets * self.width
        self.intercepts = self.cuts + self.n_cuts
        for b in range(self.buckets):
            if len(coefs[b]) != self.width:
                return False
            for k in range(self.width):
                self.coefs[b * self.width + k] = coefs[b][k]
            self.intercepts[b] = intercepts[b]
        for b in range(self.n_cuts):
            self.cuts[b] = cuts[b]
        return True

    cdef inline double score(self, const double* row, Py_ssize_t log_area) noexcept:
        cdef double x = row[log_area], margin
        cdef Py_ssize_t b = 0
        while b < self.n_cuts and not (x < self.cuts[b]):
            b += 1
        margin = self.intercepts[b] + _sum_of_products(row, self.coefs + b * self.width, self.width)
        return 0.0 if margin < -700.0 else 1.0 / (1.0 + exp(-margin))


def template_scores(rows, Py_ssize_t log_area, tuple cuts, tuple intercepts, tuple coefs):
    """P(template) of each full row, or ``None`` when a row is not a list of floats of the
    coefficients' length (at least ``log_area + 1``)."""
    cdef _Model model = _Model()
    cdef double* row
    cdef Py_ssize_t k
    cdef list scores = []
    if not model.load(cuts, intercepts, coefs) or model.width <= log_area:
        return None
    for row_object in rows:
        if type(row_object) is not list or PyList_GET_SIZE(row_object) != model.width:
            return None
        for value in <list>row_object:
            if not PyFloat_CheckExact(value):
                return None
    row = <double*>malloc(model.width * sizeof(double))
    if row is NULL:
        raise MemoryError()
    try:
        for row_object in rows:
            for k in range(model.width):
                row[k] = PyFloat_AS_DOUBLE(<object>PyList_GET_ITEM(row_object, k))
            scores.append(model.score(row, log_area))
    finally:
        free(row)
    return scores


def matrix_scores(
    const double[::1] matrix, Py_ssize_t log_area, tuple cuts, tuple intercepts, tuple coefs
):
    """P(template) of each row of ``matrix`` (full rows one after the other), or ``None``
    when its length is not a multiple of the coefficients' length (at least ``log_area + 1``)."""
    cdef _Model model = _Model()
    cdef Py_ssize_t j, n
    if not model.load(cuts, intercepts, coefs) or model.width <= log_area:
        return None
    if matrix.shape[0] % model.width:
        return None
    n = matrix.shape[0] // model.width
    if n == 0:
        return []
    return [model.score(&matrix[j * model.width], log_area) for j in range(n)]
