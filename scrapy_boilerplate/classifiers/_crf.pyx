# cython: language_level=3, boundscheck=False, wraparound=False, initializedcheck=False
"""Compiled twin of :func:`scrapy_boilerplate.classifiers.crf_tagging.tag_pure`.

Same attribute ids in the same order, the same state-score additions in C doubles, the same
Viterbi (the first of equal maxima wins), so the same labels: the tests check it on the
fixtures and on every shared dataset page. Indices into the tables are checked before the
unchecked loops run: a bad row or table raises :class:`ValueError`, never reads outside them.
"""

from array import array
from itertools import chain

from libc.float cimport DBL_MAX


def _check(bint ok, str what):
    if not ok:
        raise ValueError(f"crf tagging: {what}")


def tag(rows, tables):
    """The label id of each block, from its feature ``rows`` (lists of ints, one width)."""
    cdef Py_ssize_t n = len(rows)
    if n == 0:
        return []
    weights = tables.weights
    cdef Py_ssize_t n_labels = len(weights.labels)
    cdef Py_ssize_t width = len(rows[0])
    flat_array = array("i", chain.from_iterable(rows))
    _check(len(flat_array) == n * width, "rows of different widths")
    cdef const int[:] flat = flat_array
    cdef const int[:] offsets = array("i", tables.offsets)
    cdef const int[:] edges = tables.edges
    cdef const int[:] template_starts = tables.template_starts
    cdef const int[:] template_features = tables.template_features
    cdef const int[:] value_starts = tables.value_starts
    cdef const int[:] value_counts = tables.value_counts
    cdef const int[:] value_ids = tables.value_ids
    cdef const int[:] state_starts = weights.state_starts
    cdef const int[:] state_labels = weights.state_labels
    cdef const double[:] state_weights = weights.state_weights
    cdef const double[:] transitions = weights.transitions
    cdef Py_ssize_t n_offsets = offsets.shape[0]
    cdef Py_ssize_t n_templates = template_features.shape[0]
    cdef Py_ssize_t n_attributes = state_starts.shape[0] - 1
    cdef Py_ssize_t i, k, t, p, other, a, f, j, best_previous
    cdef int value, attribute
    cdef double best, score

    _check(edges.shape[0] == n_offsets and template_starts.shape[0] == n_offsets + 1, "offsets")
    _check(template_starts[0] == 0 and template_starts[n_offsets] == n_templates, "templates")
    for k in range(n_offsets):
        _check(template_starts[k] <= template_starts[k + 1], "template starts")
        _check(-1 <= edges[k] < n_attributes, "edge attribute")
    for t in range(n_templates):
        _check(0 <= template_features[t] < width, "template feature")
        _check(value_starts[t] >= 0 and value_counts[t] >= 0, "value table")
        _check(value_starts[t] + value_counts[t] <= value_ids.shape[0], "value table")
    for i in range(value_ids.shape[0]):
        _check(-1 <= value_ids[i] < n_attributes, "value attribute")
    _check(-1 <= tables.bias < n_attributes, "bias attribute")
    _check(transitions.shape[0] == n_labels * n_labels, "transitions")
    _check(state_starts[0] == 0 and state_starts[n_attributes] == state_labels.shape[0], "state")
    _check(state_weights.shape[0] == state_labels.shape[0], "state weights")
    for a in range(n_attributes):
        _check(state_starts[a] <= state_starts[a + 1], "state starts")
    for f in range(state_labels.shape[0]):
        _check(0 <= state_labels[f] < n_labels, "state label")

    # The conjunctions' attribute ids, per block (a few dictionary look-ups per block).
    conjunctions = []
    for parts, ids in zip(tables.conjunctions, tables.conjunction_ids):
        found = []
        for p in range(n):
            key = tuple(
                rows[p + off][index] if 0 <= p + off < n else -1 for off, index in parts
            )
            attribute = ids.get(key, -1)
            _check(-1 <= attribute < n_attributes, "conjunction attribute")
            found.append(attribute)
        conjunctions.append(array("i", found))
    cdef Py_ssize_t n_conjunctions = len(conjunctions)
    cdef const int[:] conjunction

    score_array = array("d", bytes(8 * n * n_labels))
    cdef double[:] scores = score_array
    cdef int bias = tables.bias
    for p in range(n):
        if bias >= 0:
            _add(scores, p * n_labels, bias, state_starts, state_labels, state_weights)
        for k in range(n_offsets):
            other = p + offsets[k]
            if other < 0 or other >= n:
                if edges[k] >= 0:
                    _add(scores, p * n_labels, edges[k], state_starts, state_labels, state_weights)
                continue
            for t in range(template_starts[k], template_starts[k + 1]):
                value = flat[other * width + template_features[t]]
                if 0 < value < value_counts[t]:
                    attribute = value_ids[value_starts[t] + value]
                    if attribute >= 0:
                        _add(scores, p * n_labels, attribute, state_starts, state_labels,
                             state_weights)
        for i in range(n_conjunctions):
            conjunction = conjunctions[i]
            if conjunction[p] >= 0:
                _add(scores, p * n_labels, conjunction[p], state_starts, state_labels,
                     state_weights)

    # Viterbi (crf1dc_viterbi).
    cdef double[:] current = array("d", bytes(8 * n_labels))
    for j in range(n_labels):
        current[j] = scores[j]
    cdef double[:] previous = array("d", bytes(8 * n_labels))
    back_array = array("i", bytes(4 * n * n_labels))
    cdef int[:] back = back_array
    for p in range(1, n):
        previous[:] = current
        for j in range(n_labels):
            best = -DBL_MAX
            best_previous = -1
            for i in range(n_labels):
                score = previous[i] + transitions[i * n_labels + j]
                if best < score:
                    best = score
                    best_previous = i
            back[p * n_labels + j] = best_previous if best_previous >= 0 else 0
            current[j] = best + scores[p * n_labels + j]
    path = [0] * n
    cdef Py_ssize_t last = 0
    best = -DBL_MAX
    for j in range(n_labels):
        if best < current[j]:
            best = current[j]
            last = j
    path[n - 1] = last
    for p in range(n - 1, 0, -1):
        last = back[p * n_labels + last]
        path[p - 1] = last
    return path


cdef inline void _add(
    double[:] scores,
    Py_ssize_t start,
    Py_ssize_t attribute,
    const int[:] state_starts,
    const int[:] state_labels,
    const double[:] state_weights,
) noexcept nogil:
    """Add the state weights of ``attribute`` to the scores at ``start`` (in model order)."""
    cdef Py_ssize_t f
    for f in range(state_starts[attribute], state_starts[attribute + 1]):
        scores[start + state_labels[f]] += state_weights[f]
