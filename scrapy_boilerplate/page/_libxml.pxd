"""libxml2 node helpers shared by the compiled twins that walk lxml trees (``page/_speedups``,
``features/_nodes``): lxml's view of attributes and of ``.text`` / ``.tail``."""

from cpython.unicode cimport PyUnicode_DecodeUTF8
from libc.string cimport strcmp, strlen
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


cdef inline bint _holds_ascii_word(const unsigned char* text, const char* word) noexcept nogil:
    """Whether the ASCII ``text`` holds the lower-case ``word``, ASCII case ignored."""
    cdef Py_ssize_t start = 0, k
    while text[start] != 0:
        k = 0
        while word[k] != 0 and (text[start + k] | 0x20) == word[k]:
            k += 1
        if word[k] == 0:
            return True
        start += 1
    return False


cdef inline bint _style_may_hide(xmlAttr* attribute) noexcept nogil:
    """False when the ``style`` value cannot match ``tags._HIDING_STYLE``: it is one text,
    all ASCII, without ``none`` and ``hidden`` in any case (a value with other characters, which
    case-insensitive matching may fold onto ASCII letters, may hide)."""
    cdef xmlNode* child = attribute.children
    cdef const unsigned char* text
    cdef Py_ssize_t k = 0
    if child is NULL:
        return False  # "": no match
    if child.next is not NULL or child.type != XML_TEXT_NODE or child.content is NULL:
        return True
    text = child.content
    while text[k] != 0:
        if text[k] >= 0x80:
            return True
        k += 1
    return _holds_ascii_word(text, b"none") or _holds_ascii_word(text, b"hidden")


cdef inline bint may_hide(xmlNode* node) noexcept nogil:
    """Whether ``node`` may be hidden (then ``tags.is_hidden`` decides): it has a ``hidden`` or
    ``aria-hidden`` attribute, or a ``style`` that may hide (:func:`_style_may_hide`)."""
    cdef xmlAttr* attribute = node.properties
    cdef const char* name
    while attribute is not NULL:
        if attribute.ns is NULL:
            name = <const char*>attribute.name
            if strcmp(name, b"hidden") == 0 or strcmp(name, b"aria-hidden") == 0:
                return True
            if strcmp(name, b"style") == 0 and _style_may_hide(attribute):
                return True
        attribute = attribute.next
    return False


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


cdef inline object collected_text(xmlNode* first):
    """lxml's ``_collectText`` from ``first`` (``.text`` of a parent's first child, ``.tail``
    of a node's next sibling): the joined run of text nodes, or None without one."""
    cdef xmlNode* node = text_node_or_skip(first)
    cdef bytes joined
    if node is NULL:
        return None
    if text_node_or_skip(node.next) is NULL:
        if node.content is NULL:
            return ""
        return PyUnicode_DecodeUTF8(
            <const char*>node.content, strlen(<const char*>node.content), NULL
        )
    joined = b""
    while node is not NULL:
        if node.content is not NULL:
            joined += <bytes>(<const char*>node.content)
        node = text_node_or_skip(node.next)
    return joined.decode("utf-8")
