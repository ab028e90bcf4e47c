# cython: language_level=3, boundscheck=False, wraparound=False
"""Compiled twins of :func:`~scrapy_boilerplate.filters.tree.group_keys_pure` (the grouping
key of each block element: the ``depth``-th ancestor of its paragraph) and of
:func:`~scrapy_boilerplate.filters.tree.climb_pure`, walking libxml2's parent pointers; a Python
proxy is made only for a grouping key itself."""

from lxml.includes cimport etreepublic as cetree
from lxml.includes.tree cimport XML_ELEMENT_NODE, xmlNode
from libc.string cimport strcmp
from cpython.mem cimport PyMem_Free, PyMem_Malloc

cetree.import_lxml__etree()

from .tree import PARAGRAPH_TAGS

# The paragraph tags as C strings (checked against PARAGRAPH_TAGS at import).
cdef const char* _PARAGRAPHS[15]
_PARAGRAPHS[:] = [
    b"div", b"table", b"ul", b"ol", b"p", b"section", b"article", b"header", b"body",
    b"h1", b"h2", b"h3", b"h4", b"h5", b"h6",
]
assert {_PARAGRAPHS[k].decode() for k in range(15)} == set(PARAGRAPH_TAGS)


cdef inline xmlNode* _parent(xmlNode* node) noexcept:
    """lxml's ``getparent()`` of an element, as a node (NULL at the root)."""
    node = node.parent
    if node is NULL or node.type != XML_ELEMENT_NODE:
        return NULL
    return node


cdef inline bint _is_paragraph(xmlNode* node) noexcept:
    """Whether the element's ``.tag`` is in ``PARAGRAPH_TAGS`` (a namespaced tag never is)."""
    cdef int k
    if node.ns is not NULL and node.ns.href is not NULL:
        return False
    for k in range(15):
        if strcmp(<const char*>node.name, _PARAGRAPHS[k]) == 0:
            return True
    return False


def group_keys(list elements, int depth):
    """``tree.group_keys_pure(elements, depth)``."""
    cdef list keys = []
    cdef xmlNode* node
    cdef xmlNode* parent
    cdef int step
    cdef cetree._Element element
    for item in elements:
        if item is None:
            keys.append(None)
            continue
        element = <cetree._Element?>item
        node = element._c_node
        if node.type != XML_ELEMENT_NODE:  # the reference decides (never met in practice)
            from .tree import group_keys_pure
            keys.append(group_keys_pure([item], depth)[0])
            continue
        # paragraph_of: the closest ancestor-or-self with a paragraph tag, else the root
        while not _is_paragraph(node):
            parent = _parent(node)
            if parent is NULL:
                break
            node = parent
        for step in range(depth):
            parent = _parent(node)
            if parent is NULL:
                break
            node = parent
        keys.append(cetree.elementFactory(element._doc, node))
    return keys


cdef Py_ssize_t _depth(xmlNode* node) noexcept:
    """How many ``getparent()`` steps from the element up to its root element."""
    cdef Py_ssize_t depth = 0
    node = _parent(node)
    while node is not NULL:
        depth += 1
        node = _parent(node)
    return depth


cdef Py_ssize_t _steps_to_path(
    xmlNode* node, xmlNode** path, Py_ssize_t length
) noexcept:
    """``tree.climb``'s position of a key: the index in ``path`` (``start`` and its ancestors,
    the root last) of the key's nearest ancestor-or-self on it, else ``length``. The element
    at the key's depth on the path is compared, then both climb together."""
    cdef Py_ssize_t depth = _depth(node), top = length - 1
    while depth > top:
        node = _parent(node)
        depth -= 1
    while node is not NULL:
        if node is path[top - depth]:
            return top - depth
        node = _parent(node)
        depth -= 1
    return length


def climb(start, list keyed, needed):
    """``tree.climb_pure(start, keyed, needed)``: the same steps and positions, the masses
    summed in the same order in C doubles (the reference's ints and floats give the same sums
    below 2**53)."""
    cdef cetree._Element element = <cetree._Element?>start
    cdef xmlNode* node = element._c_node
    if node.type != XML_ELEMENT_NODE:
        from .tree import climb_pure
        return climb_pure(start, keyed, needed)
    cdef Py_ssize_t length = _depth(node) + 1, index, steps, n = len(keyed)
    cdef xmlNode** path = <xmlNode**> PyMem_Malloc(length * sizeof(xmlNode*))
    cdef double* sums = <double*> PyMem_Malloc(length * sizeof(double))
    cdef Py_ssize_t* at = <Py_ssize_t*> PyMem_Malloc(max(n, 1) * sizeof(Py_ssize_t))
    cdef dict position = {}
    cdef double target = needed
    cdef cetree._Element key
    try:
        if path is NULL or sums is NULL or at is NULL:
            raise MemoryError()
        for index in range(length):
            path[index] = node
            sums[index] = 0.0
            node = _parent(node)
        for index in range(n):
            item = keyed[index][0]
            found = position.get(item)
            if found is None:
                key = <cetree._Element?>item
                if key._c_node.type != XML_ELEMENT_NODE:
                    from .tree import climb_pure
                    return climb_pure(start, keyed, needed)
                found = _steps_to_path(key._c_node, path, length)
                position[item] = found
            at[index] = found
        for index in range(n):
            mass = <double>keyed[index][1]
            for steps in range(at[index], length):
                sums[steps] += mass
        for steps in range(length):
            if sums[steps] >= target:
                return steps, position
        return length - 1, position
    finally:
        PyMem_Free(path)
        PyMem_Free(sums)
        PyMem_Free(at)
