"""libxml2 node helpers shared by the compiled twins that walk lxml trees (``page/_speedups``,
``features/_nodes``): lxml's view of attributes and of ``.text`` / ``.tail``."""

from libc.string cimport strcmp
from lxml.includes.tree cimport (
    XML_CDATA_SECTION_NODE,
    XML_TEXT_NODE,
    XML_XINCLUDE_END,
    XML_XINCLUDE_START,
    xmlAttr,
    xmlNode,
)


cdef inline bint has_attribute(xmlNode* node, const char* name) noexcept nogil:
    """Whether ``node`` has the namespace-less attribute ``name`` (lxml's ``.get(name)``)."""
    cdef xmlAttr* attribute = node.properties
    while attribute is not NULL:
        if attribute.ns is NULL and strcmp(<const char*>attribute.name, name) == 0:
            return True
        attribute = attribute.next
    return False


cdef inline bint may_hide(xmlNode* node) noexcept nogil:
    """Whether ``node`` has one of ``tags.HIDING_ATTRIBUTES`` (then ``tags.is_hidden`` decides)."""
    return node.properties is not NULL and (
        has_attribute(node, b"hidden") or has_attribute(node, b"aria-hidden")
        or has_attribute(node, b"style")
    )


cdef inline xmlNode* text_node_or_skip(xmlNode* node) noexcept nogil:
    """The first text node of lxml's ``_collectText`` from ``node`` (XInclude marks passed
    over), or NULL."""
    while node is not NULL:
        if node.type == XML_TEXT_NODE or node.type == XML_CDATA_SECTION_NODE:
            return node
        if node.type == XML_XINCLUDE_START or node.type == XML_XINCLUDE_END:
            node = node.next
        else:
            return NULL
    return NULL
