# cython: language_level=3, boundscheck=False, wraparound=False
"""Compiled twin of :func:`~scrapy_boilerplate.filters.tree.group_keys_pure`: the grouping key
of each block element (the ``depth``-th ancestor of its paragraph), found by walking libxml2's
parent pointers; a Python proxy is made only for the key itself."""

from lxml.includes cimport etreepublic as cetree
from lxml.includes.tree cimport XML_ELEMENT_NODE, xmlNode
from libc.string cimport strcmp

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
