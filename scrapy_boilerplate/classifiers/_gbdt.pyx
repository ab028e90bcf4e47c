# cython: language_level=3, boundscheck=False, wraparound=False, initializedcheck=False
"""Compiled twin of :func:`scrapy_boilerplate.classifiers.gbdt.predict_margins_pure`.

Same walk (left when ``x <= threshold``), same additions in the same order (``base_margin``,
then each tree's leaf value in tree order, in C doubles), so the same floats:
``tests/test_classifiers_gbdt.py`` checks that bit for bit. Bounds are not checked while
walking, so the node arrays are checked first: a model changed after its construction can
raise :class:`ValueError` here, never read outside its arrays.
"""

from array import array


cdef Py_ssize_t _bad_node(
    const int[:] split_feature, const int[:] left, const int[:] right, Py_ssize_t n_features
) noexcept nogil:
    """The first internal node whose feature or children are out of range, else -1."""
    cdef Py_ssize_t node, n_nodes = split_feature.shape[0]
    for node in range(n_nodes):
        if split_feature[node] < 0:
            continue
        if (
            split_feature[node] >= n_features
            or left[node] <= node or left[node] >= n_nodes
            or right[node] <= node or right[node] >= n_nodes
        ):
            return node
    return -1


cdef extern from "math.h":
    double exp(double x) nogil


def predict_proba(model, rows, n_rows):
    """``gbdt.predict_proba``: ``1 / (1 + exp(-margin))`` of each margin, in C doubles and the
    C library's ``exp`` (the one ``math.exp`` calls; below about -709 it gives 0.0 where
    ``math.exp`` overflows and the reference returns 0.0)."""
    out = _margins(model, rows, n_rows)
    cdef double[:] values = out
    cdef Py_ssize_t row
    for row in range(values.shape[0]):
        values[row] = 1.0 / (1.0 + exp(-values[row]))
    return out.tolist()


def predict_margins(model, rows, n_rows):
    """The margin of each of the ``n_rows`` rows of ``rows`` (row-major doubles)."""
    return _margins(model, rows, n_rows).tolist()


cdef object _margins(model, rows, n_rows):
    """:func:`predict_margins` as an ``array('d')``."""
    cdef const int[::1] roots = model.tree_roots
    cdef const int[::1] split_feature = model.split_feature
    cdef const double[::1] threshold = model.threshold
    cdef const int[::1] left = model.left
    cdef const int[::1] right = model.right
    cdef const double[::1] x = rows
    cdef double base_margin = model.base_margin
    cdef Py_ssize_t n_features = len(model.feature_names)
    cdef Py_ssize_t n_nodes = split_feature.shape[0]
    if n_rows < 0 or x.shape[0] != n_rows * n_features:
        raise ValueError(f"{x.shape[0]} values are not {n_rows} rows of {n_features} features")
    if threshold.shape[0] != n_nodes or left.shape[0] != n_nodes or right.shape[0] != n_nodes:
        raise ValueError("the node arrays have different lengths")
    cdef Py_ssize_t bad = _bad_node(split_feature, left, right, n_features)
    if bad >= 0:
        raise ValueError(f"node {bad} has a feature or children out of range")
    cdef Py_ssize_t tree
    for tree in range(roots.shape[0]):
        if roots[tree] < 0 or roots[tree] >= n_nodes:
            raise ValueError(f"tree {tree} has a root out of range")

    out = array("d", [0.0]) * n_rows
    cdef double[:] margins = out
    cdef Py_ssize_t n = n_rows, row, start
    cdef int node, feature
    cdef double margin
    with nogil:
        for row in range(n):
            start = row * n_features
            margin = base_margin
            for tree in range(roots.shape[0]):
                node = roots[tree]
                feature = split_feature[node]
                while feature >= 0:
                    if x[start + feature] <= threshold[node]:
                        node = left[node]
                    else:
                        node = right[node]
                    feature = split_feature[node]
                margin += threshold[node]
            margins[row] = margin
    return out
