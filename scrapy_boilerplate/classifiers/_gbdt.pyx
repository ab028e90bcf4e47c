# cython: language_level=3, boundscheck=False, wraparound=False, initializedcheck=False
"""Compiled twin of :func:`scrapy_boilerplate.classifiers.gbdt.predict_margins_pure`.

Same decisions (left when ``x <= threshold``) and the same additions in the same order
(``base_margin``, then each tree's leaf value in tree order, in C doubles), so the same floats:
``tests/test_classifiers_gbdt.py`` checks that bit for bit.

A :class:`Walk` is a copy of a model laid out for speed: nodes renumbered so that each node's
children are neighbours (a step is ``node = first_child + (not x <= threshold)``, no branch),
and each leaf a step onto itself (threshold NaN, so the comparison is always false). Rows are
walked :data:`BATCH` at a time through each tree, their walks interleaved, until all of them
stand on leaves; a single row (a page's row of the page-type model) is walked alone. The
copy is checked while it is made (:class:`ValueError` for a feature, child or root out of
range, or a node reached twice), so walks never read outside it.
"""

from array import array

from libc.stdlib cimport free, malloc

cdef extern from "math.h":
    double exp(double x) nogil
    double NAN


cdef struct Step:
    double threshold  # NaN at a leaf
    int feature       # 0 at a leaf
    int first_child   # the node itself minus 1 at a leaf


cdef enum:
    BATCH = 8  # rows walked together through each tree


cdef class Walk:
    """A model's trees, renumbered into one array of :c:type:`Step` per node (see the module)."""

    cdef Step* steps
    cdef double* leaf_value
    cdef unsigned char* internal
    cdef int* roots
    cdef Py_ssize_t n_trees
    cdef Py_ssize_t n_features
    cdef double base_margin

    def __cinit__(self, model):
        cdef const int[::1] roots = model.tree_roots
        cdef const int[::1] split_feature = model.split_feature
        cdef const double[::1] threshold = model.threshold
        cdef const int[::1] left = model.left
        cdef const int[::1] right = model.right
        cdef Py_ssize_t n_nodes = split_feature.shape[0]
        if threshold.shape[0] != n_nodes or left.shape[0] != n_nodes or right.shape[0] != n_nodes:
            raise ValueError("the node arrays have different lengths")
        self.n_trees = roots.shape[0]
        self.n_features = len(model.feature_names)
        self.base_margin = model.base_margin
        self.steps = <Step*> malloc(max(n_nodes, 1) * sizeof(Step))
        self.leaf_value = <double*> malloc(max(n_nodes, 1) * sizeof(double))
        self.roots = <int*> malloc(max(self.n_trees, 1) * sizeof(int))
        self.internal = <unsigned char*> malloc(max(n_nodes, 1))
        cdef int* pending = <int*> malloc(2 * max(n_nodes, 1) * sizeof(int))
        if not (self.steps and self.leaf_value and self.roots and self.internal and pending):
            free(pending)
            raise MemoryError()
        try:
            self._renumber(roots, split_feature, threshold, left, right, pending)
        finally:
            free(pending)

    cdef _renumber(
        self, const int[::1] roots, const int[::1] split_feature, const double[::1] threshold,
        const int[::1] left, const int[::1] right, int* pending,
    ):
        """Copy every tree breadth-first, giving each node's two children consecutive numbers."""
        cdef Py_ssize_t n_nodes = split_feature.shape[0], tree, head, tail
        cdef int used = 0, old, new, feature
        for tree in range(self.n_trees):
            old = roots[tree]
            if old < 0 or old >= n_nodes:
                raise ValueError(f"tree {tree} has a root out of range")
            if used >= n_nodes:
                raise ValueError(f"node {old} is reached twice: not a forest")
            self.roots[tree] = used
            pending[0], pending[1] = old, used
            used += 1
            tail = 2
            while tail:
                tail -= 2
                old, new = pending[tail], pending[tail + 1]
                feature = split_feature[old]
                if feature < 0:
                    self.steps[new].threshold = NAN
                    self.steps[new].feature = 0
                    self.steps[new].first_child = new - 1
                    self.leaf_value[new] = threshold[old]
                    self.internal[new] = 0
                    continue
                if (
                    feature >= self.n_features
                    or left[old] <= old or left[old] >= n_nodes
                    or right[old] <= old or right[old] >= n_nodes
                ):
                    raise ValueError(f"node {old} has a feature or children out of range")
                if used + 2 > n_nodes:
                    raise ValueError(f"a node below node {old} is reached twice: not a forest")
                self.internal[new] = 1
                self.steps[new].threshold = threshold[old]
                self.steps[new].feature = feature
                self.steps[new].first_child = used
                pending[tail], pending[tail + 1] = right[old], used + 1
                pending[tail + 2], pending[tail + 3] = left[old], used
                tail += 4
                used += 2

    def __dealloc__(self):
        free(self.steps)
        free(self.leaf_value)
        free(self.roots)
        free(self.internal)

    def margins(self, rows, n_rows):
        """The margin of each of the ``n_rows`` rows of ``rows`` (row-major doubles)."""
        return self._margins(rows, n_rows).tolist()

    def probabilities(self, rows, n_rows):
        """``1 / (1 + exp(-margin))`` of each margin, in C doubles and the C library's ``exp``
        (the one ``math.exp`` calls; below about -709 it gives 0.0 where ``math.exp``
        overflows and the reference returns 0.0)."""
        out = self._margins(rows, n_rows)
        cdef double[:] values = out
        cdef Py_ssize_t row
        for row in range(values.shape[0]):
            values[row] = 1.0 / (1.0 + exp(-values[row]))
        return out.tolist()

    cdef object _margins(self, rows, n_rows):
        cdef const double[::1] x = rows
        if n_rows < 0 or x.shape[0] != n_rows * self.n_features:
            raise ValueError(
                f"{x.shape[0]} values are not {n_rows} rows of {self.n_features} features"
            )
        out = array("d", [self.base_margin]) * n_rows
        cdef double[::1] margins = out
        cdef Py_ssize_t row = 0, size, count = n_rows
        with nogil:
            if count == 1:  # one row (a page's row): no batch of repeated rows to walk
                self._walk_one(&x[0], &margins[0])
            else:
                while row < count:
                    size = min(BATCH, count - row)
                    self._walk_batch(&x[row * self.n_features], size, &margins[row])
                    row += size
        return out

    cdef void _walk_one(self, const double* x, double* margin) noexcept nogil:
        """Add each tree's leaf value to the margin of one row, tree by tree."""
        cdef const Step* steps = self.steps
        cdef const unsigned char* internal = self.internal
        cdef const Step* step
        cdef Py_ssize_t tree
        cdef int node
        for tree in range(self.n_trees):
            node = self.roots[tree]
            while internal[node]:
                step = &steps[node]
                node = step.first_child + (not (x[step.feature] <= step.threshold))
            margin[0] += self.leaf_value[node]

    cdef void _walk_batch(self, const double* x, Py_ssize_t size, double* margins) noexcept nogil:
        """Add each tree's leaf value to the margins of ``size`` (1 to BATCH) consecutive rows;
        a batch is always walked whole (the missing rows repeat the first one): loops of a
        constant length keep the nodes in registers."""
        cdef int node[BATCH]
        cdef const double* row[BATCH]
        cdef const Step* step
        cdef Py_ssize_t tree, i
        cdef int root
        cdef bint walking
        cdef const Step* steps = self.steps
        cdef const int* roots = self.roots
        cdef const double* leaf_value = self.leaf_value
        cdef const unsigned char* internal = self.internal
        for i in range(BATCH):
            row[i] = x + (i if i < size else 0) * self.n_features
        for tree in range(self.n_trees):
            root = roots[tree]
            for i in range(BATCH):
                node[i] = root
            walking = internal[root]
            while walking:
                for i in range(BATCH):
                    step = &steps[node[i]]
                    node[i] = step.first_child + (not (row[i][step.feature] <= step.threshold))
                walking = False
                for i in range(BATCH):
                    walking = walking | internal[node[i]]
            for i in range(size):
                margins[i] += leaf_value[node[i]]


def predict_margins(model, rows, n_rows):
    """``gbdt.predict_margins_pure`` through a new :class:`Walk` of ``model``."""
    return Walk(model).margins(rows, n_rows)


def predict_proba(model, rows, n_rows):
    """``gbdt.predict_proba_pure`` through a new :class:`Walk` of ``model``."""
    return Walk(model).probabilities(rows, n_rows)
