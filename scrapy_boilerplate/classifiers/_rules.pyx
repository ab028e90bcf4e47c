# cython: language_level=3, boundscheck=False, wraparound=False, initializedcheck=False, cdivision=True
"""Compiled twin of :class:`scrapy_boilerplate.classifiers.rules.NeighbourClassifier` for the
paper's two trees, :func:`~scrapy_boilerplate.classifiers.rules.density_rule` (Algorithm 1)
and :func:`~scrapy_boilerplate.classifiers.rules.num_words_rule` (Algorithm 2).

Same decisions: densities are the blocks' integer counts divided as doubles (as Python's
``int / int``), compared with the same constants; the page's edges see an empty block (no
words, no lines). ``tests/test_classifiers_rules_twin.py`` checks equality on random blocks
and on every shared dataset page.
"""

from libc.stdlib cimport free, malloc

#: Rule numbers of :func:`neighbour_decisions`.
DENSITY = 0
NUM_WORDS = 1

cdef double _MAX_LINK_DENSITY = 0.0, _MAX_PREV_LINK_DENSITY = 0.0
cdef bint _loaded = False


cdef _load():
    global _loaded, _MAX_LINK_DENSITY, _MAX_PREV_LINK_DENSITY
    from . import rules

    _MAX_LINK_DENSITY = rules.MAX_LINK_DENSITY
    _MAX_PREV_LINK_DENSITY = rules.MAX_PREV_LINK_DENSITY
    _loaded = True


cdef struct _Shallow:
    double link_density, text_density
    Py_ssize_t words


cdef bint _density(const _Shallow* prev, const _Shallow* curr, const _Shallow* nxt) noexcept:
    if curr.link_density > _MAX_LINK_DENSITY:
        return False
    if prev.link_density <= _MAX_PREV_LINK_DENSITY:
        if curr.text_density <= 9:
            return nxt.text_density > 10 or prev.text_density > 4
        return nxt.text_density != 0
    return nxt.text_density > 11


cdef bint _num_words(const _Shallow* prev, const _Shallow* curr, const _Shallow* nxt) noexcept:
    if curr.link_density > _MAX_LINK_DENSITY:
        return False
    if prev.link_density <= _MAX_PREV_LINK_DENSITY:
        if curr.words <= 16:
            return nxt.words > 15 or prev.words > 4
        return True
    return curr.words > 40 or nxt.words > 17


def neighbour_decisions(list blocks, int rule):
    """Per block of ``blocks``, the decision of rule :data:`DENSITY` or :data:`NUM_WORDS`
    from the previous, the block and the next (as ``NeighbourClassifier`` decides)."""
    cdef Py_ssize_t n = len(blocks), i
    cdef _Shallow* shallow
    cdef _Shallow empty
    cdef const _Shallow* prev
    cdef const _Shallow* nxt
    cdef list decisions
    if rule != DENSITY and rule != NUM_WORDS:
        raise ValueError(f"unknown rule {rule}")
    if not _loaded:
        _load()
    empty.link_density = empty.text_density = 0.0
    empty.words = 0
    shallow = <_Shallow*>malloc((n + 1) * sizeof(_Shallow))
    if shallow is NULL:
        raise MemoryError()
    try:
        for i in range(n):
            block = blocks[i]
            words = block.num_words
            lines = block.num_wrapped_lines
            shallow[i].words = words
            shallow[i].link_density = (
                <double>(<Py_ssize_t>block.num_linked_words) / <double>(<Py_ssize_t>words)
                if words else 0.0
            )
            shallow[i].text_density = (
                <double>(<Py_ssize_t>block.num_wrapped_words) / <double>(<Py_ssize_t>lines)
                if lines else 0.0
            )
        decisions = [False] * n
        for i in range(n):
            prev = &shallow[i - 1] if i > 0 else &empty
            nxt = &shallow[i + 1] if i + 1 < n else &empty
            if rule == DENSITY:
                decisions[i] = _density(prev, &shallow[i], nxt)
            else:
                decisions[i] = _num_words(prev, &shallow[i], nxt)
    finally:
        free(shallow)
    return decisions
