# cython: language_level=3, boundscheck=False, wraparound=False, initializedcheck=False
"""Compiled twins of the two hot loops: the segmentation walk and the block word statistics.

The pure-Python code in :mod:`~scrapy_boilerplate.page.segmentation` and
:mod:`~scrapy_boilerplate.page.tokens` is the reference; these functions give the same results
(``tests/test_speedups.py`` checks that on hand-made trees and, when present, on every page of
the shared datasets) without the interpreter's per-element cost: the walk reads libxml2 nodes
through lxml's public C API and makes Python objects only for text and for block elements.
"""

from lxml.includes cimport etreepublic as cetree
from lxml.includes.tree cimport (
    XML_COMMENT_NODE,
    XML_ELEMENT_NODE,
    XML_ENTITY_REF_NODE,
    XML_PI_NODE,
    XML_TEXT_NODE,
    xmlAttr,
    xmlNode,
)
from libc.string cimport strcmp, strlen, strncmp, strstr
from cpython.mem cimport PyMem_Free, PyMem_Malloc
from cpython.unicode cimport PyUnicode_DecodeUTF8

cdef extern from "Python.h":
    ctypedef unsigned short Py_UCS2
    bint Py_UNICODE_ISSPACE(Py_UCS4 c)
    int PyUnicode_2BYTE_KIND
    int PyUnicode_4BYTE_KIND
    int PyUnicode_KIND(object text)
    object PyUnicode_FromKindAndData(int kind, const void* buffer, Py_ssize_t size)

from ._libxml cimport collected_text as _collected_text
from ._libxml cimport has_attribute as _has_attribute
from ._libxml cimport may_hide as _may_hide
from ._libxml cimport text_node_or_skip as _text_node_or_skip

cetree.import_lxml__etree()

import unicodedata

from .javacompat import JAVA_WHITESPACE
from ..model.labels import HIDDEN
from .tags import LABELS_BY_TAG, head_title, is_hidden
from .tokens import LINK_END, LINK_START, PAIRED_SCRIPT_LETTERS, PAIRED_SCRIPT_MARKS, WRAP_COLUMNS
from .tokens import WordStats, drop_format_characters, shows_nothing, unmark

# -- tag classes (the tables of tags.py, checked against them by the tests) -----------------

cdef enum:
    K_DEFAULT = 0
    K_IGNORABLE = 1
    K_ANCHOR = 2
    K_BODY = 3
    K_INLINE = 4
    K_INLINE_SPACED = 5
    K_LABELLED = 6
    K_EXTRA_IGNORABLE = 7  # ignorable unless strict_reference

cdef inline bint _is(const char* name, const char* other) noexcept nogil:
    return strcmp(name, other) == 0


cdef int _name_class(const char* name) noexcept nogil:
    """The class of a plain (namespace-less) tag name, strictness not applied."""
    cdef char first = name[0]
    if first == b"a":
        if name[1] == 0:
            return K_ANCHOR
        if _is(name, b"abbr") or _is(name, b"acronym"):
            return K_INLINE_SPACED
        return K_IGNORABLE if _is(name, b"applet") else K_DEFAULT
    if first == b"b":
        if name[1] == 0:
            return K_INLINE
        return K_BODY if _is(name, b"body") else K_DEFAULT
    if first == b"h":
        if (name[1] == b"1" or name[1] == b"2" or name[1] == b"3") and name[2] == 0:
            return K_LABELLED
        return K_DEFAULT
    if first == b"l":
        if _is(name, b"li"):
            return K_LABELLED
        return K_IGNORABLE if _is(name, b"link") else K_DEFAULT
    if first == b"s":
        if _is(name, b"span") or _is(name, b"strong") or _is(name, b"sup") \
                or _is(name, b"sub") or _is(name, b"strike"):
            return K_INLINE
        if _is(name, b"script") or _is(name, b"style"):
            return K_IGNORABLE
        return K_EXTRA_IGNORABLE if _is(name, b"svg") else K_DEFAULT
    if first == b"i":
        if name[1] == 0:
            return K_INLINE
        return K_EXTRA_IGNORABLE if _is(name, b"iframe") else K_DEFAULT
    if first == b"u":
        return K_INLINE if name[1] == 0 else K_DEFAULT
    if first == b"e":
        if _is(name, b"em"):
            return K_INLINE
        return K_IGNORABLE if _is(name, b"embed") else K_DEFAULT
    if first == b"c":
        return K_INLINE if _is(name, b"code") else K_DEFAULT
    if first == b"f":
        return K_INLINE if _is(name, b"font") else K_DEFAULT
    if first == b"v":
        return K_INLINE if _is(name, b"var") else K_DEFAULT
    if first == b"t":
        if _is(name, b"tt"):
            return K_INLINE
        if _is(name, b"template") or _is(name, b"textarea"):
            return K_EXTRA_IGNORABLE
        return K_DEFAULT
    if first == b"o":
        return K_IGNORABLE if _is(name, b"option") or _is(name, b"object") else K_DEFAULT
    if first == b"n":
        if _is(name, b"noscript"):
            return K_IGNORABLE
        if _is(name, b"noembed") or _is(name, b"noframes"):
            return K_EXTRA_IGNORABLE
        return K_DEFAULT
    if first == b"m":
        return K_EXTRA_IGNORABLE if _is(name, b"math") else K_DEFAULT
    return K_DEFAULT


cdef inline bint _plain_element(xmlNode* node) noexcept nogil:
    """An element whose ``.tag`` is its bare name (no namespace URI)."""
    return node.type == XML_ELEMENT_NODE and (node.ns is NULL or node.ns.href is NULL)


cdef inline int _tag_class(const char* name, bint strict) noexcept nogil:
    """The walk's class of a plain tag name, with strictness applied."""
    cdef int kind = _name_class(name)
    if kind == K_EXTRA_IGNORABLE:
        return K_DEFAULT if strict else K_IGNORABLE
    return kind


cdef inline int _node_class(xmlNode* node, bint strict) noexcept nogil:
    cdef int kind
    if not _plain_element(node):
        return K_DEFAULT  # entities and namespaced tags match no table
    kind = _tag_class(<const char*>node.name, strict)
    if kind == K_ANCHOR and not strict and not _has_attribute(node, b"href"):
        return K_INLINE  # only <a href> is a link
    return kind


def tag_class(str name, bint strict):
    """The walk's class number of a tag name (for the consistency tests)."""
    return _tag_class(name.encode("utf-8"), strict)


cdef inline bint _is_named(xmlNode* node, const char* name) noexcept nogil:
    return _plain_element(node) and _is(<const char*>node.name, name)


# -- lxml's view of text: .text / .tail ------------------------------------------------------

cdef inline int _java_space(const unsigned char* text, Py_ssize_t at, Py_ssize_t length) noexcept nogil:
    """Bytes taken by a space (" " or Java whitespace, see segmentation) at ``text[at]``, or 0."""
    cdef unsigned char c = text[at]
    if c == 0x20 or 0x09 <= c <= 0x0D or 0x1C <= c <= 0x1F:
        return 1
    if at + 3 > length:
        return 0
    if c == 0xE1:  # U+1680
        return 3 if text[at + 1] == 0x9A and text[at + 2] == 0x80 else 0
    if c == 0xE2:
        if text[at + 1] == 0x80:  # U+2000-2006, U+2008-200A, U+2028, U+2029
            c = text[at + 2]
            return 3 if (0x80 <= c <= 0x86 or 0x88 <= c <= 0x8A or c == 0xA8 or c == 0xA9) else 0
        return 3 if text[at + 1] == 0x81 and text[at + 2] == 0x9F else 0  # U+205F
    if c == 0xE3:  # U+3000
        return 3 if text[at + 1] == 0x80 and text[at + 2] == 0x80 else 0
    return 0


cdef inline int _java_space_before(
    const unsigned char* text, Py_ssize_t end, Py_ssize_t length
) noexcept nogil:
    """Bytes taken by a space ending just before ``text[end]``, or 0."""
    if end >= 1 and text[end - 1] < 0x80:
        return _java_space(text, end - 1, length)
    if end >= 3 and _java_space(text, end - 3, length) == 3:
        return 3
    return 0


cdef object _normalised(const unsigned char* text, Py_ssize_t start, Py_ssize_t end):
    """``text[start:end]`` decoded, every Java whitespace character made a plain space."""
    cdef Py_ssize_t i = start, size, n = 0
    cdef bytearray out = None
    while i < end:
        size = _java_space(text, i, end)
        if size == 3 or (size == 1 and text[i] != 0x20):
            break
        i += 1
    else:
        return PyUnicode_DecodeUTF8(<const char*>text + start, end - start, NULL)
    out = bytearray(end - start)
    i = start
    while i < end:
        size = _java_space(text, i, end)
        if size:
            out[n] = 0x20
            i += size
        else:
            out[n] = text[i]
            i += 1
        n += 1
    return PyUnicode_DecodeUTF8(<const char*>(<char*>out), n, NULL)


cdef inline bint _has_text(xmlNode* first) noexcept nogil:
    """Whether lxml's ``_collectText`` from ``first`` is non-empty."""
    cdef xmlNode* node = _text_node_or_skip(first)
    while node is not NULL:
        if node.content is not NULL and node.content[0] != 0:
            return True
        node = _text_node_or_skip(node.next)
    return False


cdef inline str _unmarked(str text):
    """``tokens.unmark``, called only when a marker character is there."""
    if LINK_START in text or LINK_END in text:
        return unmark(text)
    return text


cdef str _strip_markers(str text):
    """``tokens.strip_markers``: each link marker goes, with the one space after it. The kept
    characters are copied at the text's own width (2 bytes each for text of the BMP, which
    holds the markers), so a gigantic block costs no more memory than the regex did."""
    cdef Py_ssize_t n = len(text), i = 0, j = 0
    cdef Py_UCS4 c
    cdef bint wide = PyUnicode_KIND(text) == PyUnicode_4BYTE_KIND
    cdef void* kept = PyMem_Malloc((n + 1) * (4 if wide else 2))
    if kept == NULL:
        raise MemoryError()
    try:
        while i < n:
            c = text[i]
            i += 1
            if c == _START or c == _END:
                if i < n and text[i] == u" ":
                    i += 1
                continue
            if wide:
                (<Py_UCS4*>kept)[j] = c
            else:
                (<Py_UCS2*>kept)[j] = <Py_UCS2>c
            j += 1
        return PyUnicode_FromKindAndData(
            PyUnicode_4BYTE_KIND if wide else PyUnicode_2BYTE_KIND, kept, j
        )
    finally:
        PyMem_Free(kept)


def strip_markers(str text):
    """``tokens.strip_markers`` (the compiled twin the walk uses)."""
    return _strip_markers(text)


cdef class _Text:
    """One text chunk as the walk sees it (``_Segmenter.run``'s ``chunk`` after normalising)."""

    cdef str stripped  # without leading and trailing spaces; "" if only spaces
    cdef bint leading_space
    cdef bint trailing_space

    cdef bint read(self, xmlNode* first) except -1:
        """Read lxml's ``_collectText`` from ``first``; False if there is no text at all."""
        cdef xmlNode* node = _text_node_or_skip(first)
        cdef bytes joined
        cdef const unsigned char* text
        cdef Py_ssize_t length, start, end, size
        if node is NULL:
            return False
        if _text_node_or_skip(node.next) is NULL:
            text = node.content if node.content is not NULL else <const unsigned char*>b""
            length = strlen(<const char*>text)
        else:
            joined = b""
            while node is not NULL:
                if node.content is not NULL:
                    joined += <bytes>(<const char*>node.content)
                node = _text_node_or_skip(node.next)
            text = <const unsigned char*>(<char*>joined)
            length = len(joined)
        if length == 0:
            return False
        start = 0
        size = _java_space(text, start, length)
        while size:
            start += size
            size = _java_space(text, start, length) if start < length else 0
        end = length
        if start < end:
            size = _java_space_before(text, end, length)
            while size:
                end -= size
                size = _java_space_before(text, end, length) if end > start else 0
        self.leading_space = start > 0
        self.trailing_space = end < length
        self.stripped = _unmarked(_normalised(text, start, end)) if start < end else ""
        return True

    cdef bint read_str(self, str chunk) except -1:
        """The same for text lxml gives as a string (an entity reference's ``.text``)."""
        if not chunk:
            return False
        chunk = _JAVA_WHITESPACE_SUB(" ", chunk)
        self.stripped = _unmarked(chunk.strip(" "))
        self.leading_space = chunk[0] == " "
        self.trailing_space = chunk[len(chunk) - 1] == " "
        return True


cdef inline bint _walked(xmlNode* node) noexcept nogil:
    """The nodes ``etree.iterwalk`` visits: elements and entity references.

    Comments and processing instructions are passed over together with their tail text (the
    parser removes them, so this matters only for trees built by other means).
    """
    return node.type == XML_ELEMENT_NODE or node.type == XML_ENTITY_REF_NODE


cdef inline xmlNode* _first_child(xmlNode* node) noexcept nogil:
    cdef xmlNode* child = node.children
    while child is not NULL and not _walked(child):
        child = child.next
    return child


cdef inline xmlNode* _next_sibling(xmlNode* node) noexcept nogil:
    cdef xmlNode* sibling = node.next
    while sibling is not NULL and not _walked(sibling):
        sibling = sibling.next
    return sibling


cdef inline bint _not_block_level(xmlNode* node) noexcept nogil:
    cdef int kind
    if not _plain_element(node):
        return False
    kind = _name_class(<const char*>node.name)
    return kind == K_INLINE or kind == K_INLINE_SPACED or kind == K_ANCHOR


# -- the walk ----------------------------------------------------------------------------------

cdef object _LABELS_BY_TAG = None
cdef object _JAVA_WHITESPACE_SUB = None
cdef object _HEAD_TITLE = None


cdef _load_tables():
    global _LABELS_BY_TAG, _JAVA_WHITESPACE_SUB, _HEAD_TITLE
    _LABELS_BY_TAG = {name.encode("ascii"): labels for name, labels in LABELS_BY_TAG.items()}
    _JAVA_WHITESPACE_SUB = JAVA_WHITESPACE.sub
    _HEAD_TITLE = head_title


cdef class _Walker:
    """State machine of ``segmentation._Segmenter``, driven by a walk over libxml2 nodes."""

    cdef bint strict
    cdef cetree._Document doc
    cdef list parts
    cdef list label_stack
    cdef list pending
    cdef object title
    cdef int block_tag_level
    cdef object block_element
    cdef object block_labels
    cdef bint last_was_ws
    cdef bint flush_pending
    cdef bint last_start_is_title
    cdef bint has_markers  # whether ``parts`` holds a link marker
    cdef int in_body, in_anchor, in_ignorable, tag_level, in_hidden
    cdef list hidden_open  # addresses of the hidden elements around the walk's position
    cdef _Text chunk
    # ``declared_elements`` found on the way (a skipped subtree is searched when skipped);
    # ``declarable`` turns False where the reference must decide
    cdef list headings, metas, scripts, named, dialogs
    cdef bint declarable

    def __cinit__(self, cetree._Element root, bint strict):
        self.strict = strict
        self.doc = root._doc
        self.parts = []
        self.label_stack = []
        self.pending = []
        self.title = None
        self.block_tag_level = -1
        self.block_element = None
        self.block_labels = set()
        self.hidden_open = []
        self.chunk = _Text()
        self.headings, self.metas, self.scripts, self.named, self.dialogs = [], [], [], [], []
        self.declarable = True

    cdef run(self, xmlNode* root):
        cdef xmlNode* node = root
        cdef xmlNode* child
        cdef int kind
        cdef bint skip
        while True:
            kind = _node_class(node, self.strict)
            if (not self.strict and kind != K_IGNORABLE and node.type == XML_ELEMENT_NODE
                    and _may_hide(node) and is_hidden(cetree.elementFactory(self.doc, node))):
                self.hidden_open.append(<size_t>node)
                self.in_hidden += 1
                self.flush_pending = True  # hidden text never shares a block with visible text
            if self.declarable:
                self.declarable = _declare(
                    self.headings, self.metas, self.scripts, self.named, self.dialogs, self.doc,
                    node
                )
            skip = self.start(node, kind)
            if skip and self.declarable and node.type == XML_ELEMENT_NODE:
                self.declarable = _declare_below(
                    self.headings, self.metas, self.scripts, self.named, self.dialogs, self.doc,
                    node
                )
            child = NULL if skip or node.type != XML_ELEMENT_NODE else _first_child(node)
            if child is not NULL:
                node = child
                continue
            while True:
                if self.hidden_open and self.hidden_open[len(self.hidden_open) - 1] == <size_t>node:  # no wraparound
                    self.hidden_open.pop()
                    self.in_hidden -= 1
                    self.flush_pending = True
                self.end(node, _node_class(node, self.strict))
                if node == root:
                    if self.parts:
                        self.flush()
                    return
                child = _next_sibling(node)
                if child is not NULL:
                    node = child
                    break
                node = node.parent

    cdef bint start(self, xmlNode* node, int kind) except -1:
        cdef bint skip = False, found
        if kind == K_IGNORABLE:
            skip = True
        elif not self.strict and _is_named(node, b"head"):
            self.title = _HEAD_TITLE(cetree.elementFactory(self.doc, node))
            skip = True
        if kind == K_INLINE:
            pass
        elif kind == K_DEFAULT:
            self.tag_level += 1
            self.flush_pending = True
        elif kind == K_ANCHOR:
            self.tag_level += 1
            self.in_anchor += 1
            if not self.in_ignorable:
                if not self.last_was_ws:
                    self.parts.append(" ")
                if self.in_anchor == 1:
                    self.parts.append(LINK_START + " ")
                    self.has_markers = True
                self.last_was_ws = True
        elif kind == K_IGNORABLE:
            self.tag_level += 1
            self.in_ignorable += 1
            self.flush_pending = True
        elif kind == K_LABELLED:
            self.tag_level += 1
            self.label_stack.append(_LABELS_BY_TAG[<bytes>(<const char*>node.name)])
            self.flush_pending = True
        elif kind == K_BODY:
            self.tag_level += 1
            if self.parts:
                self.flush()
            self.in_body += 1
        elif not self.last_was_ws:  # K_INLINE_SPACED
            self.parts.append(" ")
            self.last_was_ws = True
        self.last_start_is_title = _is_named(node, b"title")
        if node.type != XML_ELEMENT_NODE:  # an entity reference: lxml's own .text ("&name;")
            if self.chunk.read_str(cetree.elementFactory(self.doc, node).text):
                self.text(node, False)
        elif self.in_ignorable:
            if _has_text(node.children):
                self.ignored_text()
        elif self.chunk.read(node.children):
            self.text(node, False)
        return skip

    cdef int end(self, xmlNode* node, int kind) except -1:
        if kind != K_INLINE:
            if kind == K_DEFAULT or kind == K_LABELLED:
                self.flush_pending = True
            elif kind == K_ANCHOR:
                self.in_anchor = max(0, self.in_anchor - 1)
                if self.in_anchor == 0 and not self.in_ignorable:
                    if not self.last_was_ws:
                        self.parts.append(" ")
                    self.parts.append(LINK_END + " ")
                    self.has_markers = True
                    self.last_was_ws = True
            elif kind == K_IGNORABLE:
                self.in_ignorable -= 1
                self.flush_pending = True
            elif kind == K_BODY:
                if self.parts:
                    self.flush()
                self.in_body -= 1
            elif not self.last_was_ws:  # K_INLINE_SPACED
                self.parts.append(" ")
                self.last_was_ws = True
            if kind != K_INLINE_SPACED:
                self.tag_level -= 1
            if self.flush_pending and self.parts:
                self.flush()
            if kind == K_LABELLED:
                self.label_stack.pop()
        if self.in_ignorable:
            if _has_text(node.next):
                self.ignored_text()
        elif self.chunk.read(node.next):
            self.text(node, True)
        return 0

    cdef int ignored_text(self) except -1:
        """The text event for text inside an ignorable element: only a pending flush."""
        if self.flush_pending:
            if self.parts:
                self.flush()
            self.flush_pending = False
        return 0

    cdef int text(self, xmlNode* node, bint is_tail) except -1:
        """The text event of ``_Segmenter.run`` for the non-empty ``self.chunk``."""
        cdef str stripped = self.chunk.stripped
        cdef xmlNode* container
        if self.flush_pending:
            if self.parts:
                self.flush()
            self.flush_pending = False
        if self.in_ignorable:
            return 0
        if not stripped:
            if not self.last_was_ws:
                self.parts.append(" ")
                self.last_was_ws = True
            return 0
        if self.chunk.leading_space and not self.last_was_ws:
            self.parts.append(" ")
        if self.block_element is None:
            if self.block_tag_level == -1:
                self.block_tag_level = self.tag_level
            container = node.parent if is_tail else node
            while container is not NULL and cetree._isElement(container) \
                    and _not_block_level(container):
                container = container.parent
            if container is NULL or not cetree._isElement(container):
                container = node
            self.block_element = cetree.elementFactory(self.doc, container)
            if not self.strict:
                self.block_labels = set().union(*self.label_stack)
                if self.in_hidden:
                    self.block_labels.add(HIDDEN)
        self.parts.append(stripped)
        if self.chunk.trailing_space:
            self.parts.append(" ")
            self.last_was_ws = True
        else:
            self.last_was_ws = False
        return 0

    cdef int flush(self) except -1:
        """``_Segmenter._flush``: emit the buffered text as a block, or take the title."""
        cdef list parts = self.parts
        if not self.in_body:
            if self.last_start_is_title:
                title = _strip_markers("".join(parts)).strip()
                if title:
                    self.title = title
            parts.clear()
            self.has_markers = False
            self.block_element = None
            if not self.strict:
                self.block_tag_level = -1
            return 0
        if self.block_element is None:
            if len(parts) == 1 and parts[0] == " ":
                parts.clear()
            return 0
        buffer = "".join(parts)
        if len(buffer) == 1 and self.last_was_ws:
            parts.clear()
            self.has_markers = False
            return 0
        text = (_strip_markers(buffer) if self.has_markers else buffer).strip(" ")
        if not text:
            return 0
        if not self.strict and shows_nothing(text):
            return self.drop_invisible(buffer)
        labels = set().union(*self.label_stack) if self.strict else self.block_labels
        self.pending.append((buffer, text, self.block_tag_level, labels, self.block_element))
        parts.clear()
        self.has_markers = False
        self.block_tag_level = -1
        self.block_element = None
        self.block_labels = set()
        return 0


    cdef int drop_invisible(self, str buffer) except -1:
        """``_Segmenter._drop_invisible``: buffered text that shows nothing makes no block."""
        if self.has_markers:
            self.parts[:] = [drop_format_characters(buffer)]
            return 0
        self.parts.clear()
        self.block_tag_level = -1
        self.block_element = None
        self.block_labels = set()
        return 0


def walk(cetree._Element root not None, bint strict_reference):
    """Segment the tree under ``root``: ``(title, pending)`` as ``_Segmenter`` leaves them, and
    the :func:`declared_elements` of ``root``, found on the way."""
    if _LABELS_BY_TAG is None:
        _load_tables()
    walker = _Walker(root, strict_reference)
    walker.run(root._c_node)
    declared = None
    if walker.declarable and root._c_node.type == XML_ELEMENT_NODE:
        declared = walker.headings, walker.metas, walker.scripts, walker.named, walker.dialogs
    return walker.title, walker.pending, declared


# -- declared elements ---------------------------------------------------------------------------

cdef const char** _COMMENT_STEMS = [
    b"comment", b"disqus", b"repl", b"kommentar", b"comentario", b"komentarz", b"reacties",
    b"talkback", NULL,
]
#: Per byte: whether a stem of ``_COMMENT_STEMS`` starts with it (lower-case ASCII letters only).
cdef bint _STARTS_COMMENT_STEM[256]
_STARTS_COMMENT_STEM[:] = [False] * 256
cdef Py_ssize_t _stem = 0
while _COMMENT_STEMS[_stem] is not NULL:
    _STARTS_COMMENT_STEM[<unsigned char>_COMMENT_STEMS[_stem][0]] = True
    _stem += 1


cdef int _comment_named(xmlNode* node) noexcept:
    """1 when the ``class`` or ``id`` of ``node`` holds a stem of ``_COMMENT_STEMS`` (ASCII case
    ignored), 0 when neither does, -1 (the reference decides) for a value that is not one text."""
    cdef xmlAttr* attribute = node.properties
    cdef xmlNode* child
    cdef const char* name
    cdef int k
    while attribute is not NULL:
        if attribute.ns is NULL:
            name = <const char*>attribute.name
            if strcmp(name, b"class") == 0 or strcmp(name, b"id") == 0:
                child = attribute.children
                if child is not NULL:
                    if (child.next is not NULL or child.type != XML_TEXT_NODE
                            or child.content is NULL):
                        return -1
                    if _holds_comment_stem(child.content):
                        return 1
        attribute = attribute.next
    return 0


cdef bint _holds_comment_stem(const unsigned char* text) noexcept nogil:
    """Whether the ASCII ``text`` holds a stem of ``_COMMENT_STEMS``, ASCII case ignored: one
    scan, each position compared only with the stems that start with its letter (class lists
    run to hundreds of bytes, and every element with a ``class`` or ``id`` is read)."""
    cdef Py_ssize_t start = 0, k, s
    cdef unsigned char first
    cdef const char* stem
    while text[start] != 0:
        first = text[start] | 0x20
        if _STARTS_COMMENT_STEM[first]:
            s = 0
            while _COMMENT_STEMS[s] is not NULL:
                stem = _COMMENT_STEMS[s]
                if <unsigned char>stem[0] == first:
                    k = 1
                    while stem[k] != 0 and (text[start + k] | 0x20) == <unsigned char>stem[k]:
                        k += 1
                    if stem[k] == 0:
                        return True
                s += 1
        start += 1
    return False


cdef inline bint _has_dialog_attribute(xmlNode* node) noexcept nogil:
    """Whether ``node`` has a ``role`` or an ``aria-modal`` attribute (without namespace)."""
    cdef xmlAttr* attribute = node.properties
    cdef const char* name
    while attribute is not NULL:
        if attribute.ns is NULL:
            name = <const char*>attribute.name
            if strcmp(name, b"role") == 0 or strcmp(name, b"aria-modal") == 0:
                return True
        attribute = attribute.next
    return False


cdef bint _declare(
    list headings, list metas, list scripts, list named, list dialogs, cetree._Document doc,
    xmlNode* node
) except -1:
    """Append ``node`` to its list if it is an ``<h1>``, ``<meta>`` or ``<script>``, to
    ``named`` if its ``class`` or ``id`` may name a comment and to ``dialogs`` if it has a
    ``role`` or ``aria-modal`` attribute; False (the reference decides) for a namespaced
    element, an entity reference or an attribute value that is not one text."""
    cdef const char* name
    cdef int comment
    if node.type == XML_ENTITY_REF_NODE:
        return False
    if node.type != XML_ELEMENT_NODE:
        return True
    if node.ns is not NULL:
        return False
    name = <const char*>node.name
    if name[0] == c"h" and strcmp(name, b"h1") == 0:
        headings.append(cetree.elementFactory(doc, node))
    elif name[0] == c"m" and strcmp(name, b"meta") == 0:
        metas.append(cetree.elementFactory(doc, node))
    elif name[0] == c"s" and strcmp(name, b"script") == 0:
        scripts.append(cetree.elementFactory(doc, node))
    if node.properties is not NULL:
        comment = _comment_named(node)
        if comment < 0:
            return False
        if comment:
            named.append(cetree.elementFactory(doc, node))
        if _has_dialog_attribute(node):
            dialogs.append(cetree.elementFactory(doc, node))
    return True


cdef bint _declare_below(
    list headings, list metas, list scripts, list named, list dialogs, cetree._Document doc,
    xmlNode* top
) except -1:
    """:func:`_declare` for every node below ``top``, in document order."""
    cdef xmlNode* node = top.children
    while node is not NULL:
        if not _declare(headings, metas, scripts, named, dialogs, doc, node):
            return False
        if node.type == XML_ELEMENT_NODE and node.children is not NULL:
            node = node.children
            continue
        while node.next is NULL:
            node = node.parent
            if node is top:
                return True
        node = node.next
    return True


def declared_elements(cetree._Element root not None):
    """``(h1, meta, script, named, dialogs)``: the elements ``root.iter("h1", "meta",
    "script")`` yields, by tag, the elements whose ``class`` or ``id`` may name a comment
    (``declarations.may_name_comment``) and those with a ``role`` or ``aria-modal`` attribute,
    each list in document order; None (the reference
    decides) for a tree holding a namespaced element, an entity reference or a class or id
    that is not one text, where lxml's matching has more rules."""
    cdef list headings = [], metas = [], scripts = [], named = [], dialogs = []
    cdef xmlNode* top = root._c_node
    if top.type != XML_ELEMENT_NODE:
        return None
    if not _declare(headings, metas, scripts, named, dialogs, root._doc, top):
        return None
    if not _declare_below(headings, metas, scripts, named, dialogs, root._doc, top):
        return None
    return headings, metas, scripts, named, dialogs


# -- metadata elements ---------------------------------------------------------------------------

cdef enum:
    M_META = 1
    M_LINK = 2
    M_SCRIPT = 3
    M_BASE = 4
    M_TIME = 5
    M_H1 = 6


cdef int _metadata_tag(const char* name) noexcept nogil:
    """The ``M_`` number of ``meta``, ``link``, ``script``, ``base``, ``time`` and ``h1``, else
    0."""
    if name[0] == c"m":
        return M_META if strcmp(name, b"meta") == 0 else 0
    if name[0] == c"l":
        return M_LINK if strcmp(name, b"link") == 0 else 0
    if name[0] == c"s":
        return M_SCRIPT if strcmp(name, b"script") == 0 else 0
    if name[0] == c"b":
        return M_BASE if strcmp(name, b"base") == 0 else 0
    if name[0] == c"t":
        return M_TIME if strcmp(name, b"time") == 0 else 0
    if name[0] == c"h":
        return M_H1 if strcmp(name, b"h1") == 0 else 0
    return 0


cdef int _item_type(list types, xmlNode* node) except -2:
    """Append the value of ``node``'s namespace-less ``itemtype`` attribute to ``types``; 0
    (the reference decides) for a value that is not one text, else 1."""
    cdef xmlAttr* attribute = node.properties
    cdef xmlNode* child
    while attribute is not NULL:
        if attribute.ns is NULL and strcmp(<const char*>attribute.name, b"itemtype") == 0:
            child = attribute.children
            if child is NULL:
                types.append("")
            elif (child.next is not NULL or child.type != XML_TEXT_NODE
                    or child.content is NULL):
                return 0
            else:
                types.append(PyUnicode_DecodeUTF8(
                    <const char*>child.content, strlen(<const char*>child.content), NULL
                ))
        attribute = attribute.next
    return 1


def metadata_elements(cetree._Element root not None, Py_ssize_t limit):
    """``(elements, item_types)``: the first ``limit`` elements ``root.iter("meta", "link",
    "base", "script", "time", "h1")`` yields and the ``itemtype`` values of the tree under
    ``root`` (``root`` included), each in document order (``tags.metadata_elements_pure``);
    None (the reference decides) for a tree holding a namespaced element, an entity reference
    or an ``itemtype`` that is not one text."""
    cdef list elements = [], types = []
    cdef xmlNode* top = root._c_node
    cdef xmlNode* node = top
    if top.type != XML_ELEMENT_NODE:
        return None
    while True:
        if node.type == XML_ENTITY_REF_NODE:
            return None
        if node.type == XML_ELEMENT_NODE:
            if node.ns is not NULL:
                return None
            if (len(elements) < limit and _metadata_tag(<const char*>node.name)):
                elements.append(cetree.elementFactory(root._doc, node))
            if node.properties is not NULL and not _item_type(types, node):
                return None
            if node.children is not NULL:
                node = node.children
                continue
        if node is top:
            break
        while node.next is NULL:
            node = node.parent
            if node is top:
                return elements, types
        node = node.next
    return elements, types


# -- metadata values ------------------------------------------------------------------------------

cdef inline xmlNode* _next_node(xmlNode* node, xmlNode* top) noexcept nogil:
    """The node after ``node`` in document order (an element's children first) in the tree of
    ``top``; NULL after its last."""
    if node.type == XML_ELEMENT_NODE and node.children is not NULL:
        return node.children
    while node is not top and node.next is NULL:
        node = node.parent
    return NULL if node is top else node.next


cdef int _attribute(xmlNode* node, const char* name, const unsigned char** value) noexcept nogil:
    """1 with ``value`` set when ``node`` has the namespace-less attribute ``name`` (``""`` for
    an empty one, as lxml's ``.get``), 0 without it, -1 (the reference decides) for a value that
    is not one text."""
    cdef xmlAttr* attribute = node.properties
    cdef xmlNode* child
    while attribute is not NULL:
        if attribute.ns is NULL and strcmp(<const char*>attribute.name, name) == 0:
            child = attribute.children
            if child is NULL:
                value[0] = <const unsigned char*>b""
                return 1
            if child.next is not NULL or child.type != XML_TEXT_NODE or child.content is NULL:
                return -1
            value[0] = child.content
            return 1
        attribute = attribute.next
    return 0


cdef inline str _decoded(const unsigned char* text):
    return PyUnicode_DecodeUTF8(<const char*>text, strlen(<const char*>text), NULL)


cdef str _normal_key(const unsigned char* text):
    """``text`` decoded, stripped and lower-cased (no method call for the usual key: ASCII
    without spaces, controls or capitals)."""
    cdef Py_ssize_t k = 0
    while text[k] != 0:
        if text[k] <= 32 or text[k] >= 127 or c"A" <= text[k] <= c"Z":
            return _decoded(text).strip().lower()
        k += 1
    return _decoded(text)


cdef inline bint _meta_key(const char* name) noexcept nogil:
    """Whether an attribute ``name`` is a key ``<meta>`` values are filed under
    (``tags._KEYS``)."""
    return (_is(name, b"name") or _is(name, b"property") or _is(name, b"http-equiv")
            or _is(name, b"itemprop"))


cdef class _TagValues:
    """What ``tags.page_tags`` files, gathered before it is handed to a ``PageTags``."""

    cdef dict meta
    cdef list canonical, jsonld, times, types
    cdef object base_href, headline
    cdef Py_ssize_t max_times

    def __cinit__(self, Py_ssize_t max_times):
        self.meta = {}
        self.canonical, self.jsonld, self.times, self.types = [], [], [], []
        self.base_href = self.headline = None
        self.max_times = max_times

    cdef int file_meta(self, xmlNode* node, str value) except -1:
        """File ``value`` under each key of ``node`` (``PageTags._file_meta``); 0 (the
        reference decides) for a key that is not one text, else 1."""
        cdef xmlAttr* attribute = node.properties
        cdef xmlNode* child
        cdef str key
        cdef list values
        while attribute is not NULL:
            if attribute.ns is NULL and _meta_key(<const char*>attribute.name):
                child = attribute.children
                if child is not NULL:  # an empty key files nothing
                    if (child.next is not NULL or child.type != XML_TEXT_NODE
                            or child.content is NULL):
                        return 0
                    if child.content[0] != 0:
                        key = _normal_key(child.content)
                        values = self.meta.get(key)
                        if values is None:
                            self.meta[key] = [value]
                        else:
                            values.append(value)
            attribute = attribute.next
        return 1

    cdef int file(self, cetree._Document doc, xmlNode* node, int tag) except -1:
        """File the metadata element ``node`` (``tag``: its ``M_`` number) by the rules of
        ``tags.page_tags``; 0 (the reference decides) for a value that is not one text."""
        cdef const unsigned char* value
        cdef const unsigned char* other
        cdef int found, more
        cdef str text
        if tag == M_META:
            found = _attribute(node, b"content", &value)
            if found == 1:
                return self.file_meta(node, _decoded(value))
            return found == 0
        if tag == M_SCRIPT:
            found = _attribute(node, b"type", &value)
            if found == 1 and value[0] != 0 and (
                _decoded(value).strip().lower().startswith("application/ld+json")
            ):
                self.jsonld.append(cetree.elementFactory(doc, node))
            return found >= 0
        if tag == M_LINK:
            found = _attribute(node, b"rel", &value)
            more = _attribute(node, b"href", &other)
            if found < 0 or more < 0:
                return 0
            if found == 1 and more == 1 and "canonical" in _decoded(value).lower().split():
                self.canonical.append(_decoded(other))
            return 1
        if tag == M_TIME:
            found = _attribute(node, b"datetime", &value)
            more = _attribute(node, b"itemprop", &other)
            if found < 0 or more < 0:
                return 0
            if found == 1:
                text = _decoded(value)
                if more == 1 and other[0] != 0 and not self.file_meta(node, text):
                    return 0
                if len(self.times) < self.max_times:
                    self.times.append(text)
            return 1
        if tag == M_H1:
            if self.headline is None:
                self.headline = cetree.elementFactory(doc, node)
            return 1
        if self.base_href is None:  # M_BASE
            found = _attribute(node, b"href", &value)
            if found == 1:
                self.base_href = _decoded(value)
            return found >= 0
        return 1


cdef int _class_word(xmlNode* node, const char* word) noexcept nogil:
    """1 when the namespace-less ``class`` of the element ``node`` holds ``word`` as one of its
    words (split on white space, as ``str.split``), 0 when not or without a ``class``, -1 (the
    reference decides) for a value that is not one text or holds a byte ``str.split`` may read
    as white space and ASCII does not (non-ASCII, or 0x1c to 0x1f)."""
    cdef const unsigned char* value
    cdef int found = _attribute(node, b"class", &value)
    cdef Py_ssize_t start = 0, end, k = 0
    cdef size_t length = strlen(word)
    cdef unsigned char c
    if found <= 0:
        return found
    while value[k] != 0:
        c = value[k]
        if c >= 0x80 or 0x1c <= c <= 0x1f:
            return -1
        k += 1
    k = 0
    while True:
        c = value[k]
        if c == 0 or c == 32 or 9 <= c <= 13:
            end = k
            if <size_t>(end - start) == length and strncmp(
                <const char*>value + start, word, length
            ) == 0:
                return 1
            if c == 0:
                return 0
            start = k + 1
        k += 1


cdef int _forum_poster(xmlNode* node) noexcept nogil:
    """1 when the element ``node`` holds a forum post's author as ``tags._is_forum_poster``
    reads it (``<h3 class="PostUser-name">``, ``<div class="poster"><h4>``, ``<div
    class="postleft"><dl><dt>``), 0 when not, -1 (the reference decides) as
    :func:`_class_word`."""
    cdef const char* name = <const char*>node.name
    cdef xmlNode* parent = node.parent
    if name[0] == c"h" and _is(name, b"h3"):
        return _class_word(node, b"PostUser-name")
    if name[0] == c"h" and _is(name, b"h4"):
        if parent is NULL or parent.type != XML_ELEMENT_NODE:
            return 0
        return _class_word(parent, b"poster")
    if name[0] == c"d" and _is(name, b"dt"):
        if parent is NULL or parent.type != XML_ELEMENT_NODE or not _is(
            <const char*>parent.name, b"dl"
        ):
            return 0
        parent = parent.parent
        if parent is NULL or parent.type != XML_ELEMENT_NODE:
            return 0
        return _class_word(parent, b"postleft")
    return 0


def file_metadata_elements(
    cetree._Element root not None, object tags, Py_ssize_t limit, Py_ssize_t max_times
):
    """File the first ``limit`` metadata elements, the ``itemtype`` values and the first forum
    post's author element (``tags.forum_poster_pure``; or the first element whose ``class``
    the reference is left to read, see ``_class_word``) of the tree under ``root`` (``root``
    included) into ``tags`` (a ``PageTags``) as ``tags.page_tags`` does from
    ``metadata_elements`` (at most ``max_times`` times), and return how many elements were
    read; None, ``tags`` untouched (the reference decides), for a tree holding a namespaced
    element, an entity reference or a value that is not one text."""
    cdef _TagValues found = _TagValues(max_times)
    cdef Py_ssize_t read = 0
    cdef xmlNode* top = root._c_node
    cdef xmlNode* node = top
    cdef xmlNode* poster = NULL
    cdef int tag
    if top.type != XML_ELEMENT_NODE:
        return None
    while node is not NULL:
        if node.type == XML_ENTITY_REF_NODE:
            return None
        if node.type == XML_ELEMENT_NODE:
            if node.ns is not NULL:
                return None
            tag = _metadata_tag(<const char*>node.name) if read < limit else 0
            if tag:
                read += 1
                if not found.file(root._doc, node, tag):
                    return None
            if node.properties is not NULL and not _item_type(found.types, node):
                return None
            if poster is NULL and _forum_poster(node) != 0:  # -1: the reference checks it
                poster = node
        node = _next_node(node, top)
    tags.forum_poster = None if poster is NULL else cetree.elementFactory(root._doc, poster)
    tags.meta, tags.canonical, tags.base_href = found.meta, found.canonical, found.base_href
    tags.jsonld, tags.times, tags.headline = found.jsonld, found.times, found.headline
    tags.item_types = found.types
    return read


# -- the article region's named elements ----------------------------------------------------------

cdef int _attribute_holds(
    xmlNode* node, const char* name, const char** words, bint whole
) noexcept nogil:
    """1 when the namespace-less attribute ``name`` of ``node`` holds one of ``words`` (is one
    of them with ``whole``; case matters), 0 when it does not or is absent, -1 (the reference
    decides) for a value that is not one text."""
    cdef const unsigned char* value
    cdef int found = _attribute(node, name, &value)
    cdef Py_ssize_t k = 0
    if found <= 0:
        return found
    while words[k] is not NULL:
        if whole and strcmp(<const char*>value, words[k]) == 0:
            return 1
        if not whole and strstr(<const char*>value, words[k]) is not NULL:
            return 1
        k += 1
    return 0


cdef const char** _AUTHOR = [b"author", NULL]
cdef const char** _BYLINE_CLASS = [b"author", b"byline", b"username", NULL]
cdef const char** _DATE_CLASS = [b"date", b"time", b"publish", b"posted", NULL]
cdef const char** _DATE_ID = [b"date", NULL]

cdef enum:
    N_AUTHOR = 0  # <a rel="author">, itemprop="author"
    N_BYLINE = 1  # a class naming an author or a byline
    N_DATE = 2  # a class naming a date, an id holding "date"; no <script>


cdef int _named(xmlNode* node, int kind) noexcept nogil:
    """1 when the element ``node`` is of ``kind`` (an ``N_`` number), 0 when not, -1 (the
    reference decides) for a value that is not one text."""
    cdef int found
    if kind == N_AUTHOR:
        found = _attribute_holds(node, b"itemprop", _AUTHOR, True)
        if found == 0 and _is(<const char*>node.name, b"a"):
            found = _attribute_holds(node, b"rel", _AUTHOR, True)
        return found
    if kind == N_BYLINE:
        return _attribute_holds(node, b"class", _BYLINE_CLASS, False)
    if _is(<const char*>node.name, b"script"):
        return 0
    found = _attribute_holds(node, b"class", _DATE_CLASS, False)
    if found == 0:
        found = _attribute_holds(node, b"id", _DATE_ID, False)
    return found


cdef list _named_elements(cetree._Element element, int kind, Py_ssize_t limit):
    """The first ``limit`` (all when negative) elements below ``element`` of ``kind`` (an
    ``N_`` number), in document order; None (the reference decides) for a subtree holding a
    namespaced element, an entity reference or a value that is not one text."""
    cdef list found = []
    cdef xmlNode* top = element._c_node
    cdef xmlNode* node
    cdef int named
    if top.type != XML_ELEMENT_NODE:
        return None
    node = _next_node(top, top)
    while node is not NULL and len(found) != limit:
        if node.type == XML_ENTITY_REF_NODE:
            return None
        if node.type == XML_ELEMENT_NODE:
            if node.ns is not NULL:
                return None
            named = _named(node, kind)
            if named < 0:
                return None
            if named:
                found.append(cetree.elementFactory(element._doc, node))
        node = _next_node(node, top)
    return found


def author_elements(cetree._Element element not None):
    """The ``rel="author"`` links and ``itemprop="author"`` elements below ``element``, in
    document order (``fallbacks._author_elements``); None (the reference decides) for a subtree
    holding a namespaced element, an entity reference or a value that is not one text."""
    return _named_elements(element, N_AUTHOR, -1)


def byline_class_elements(cetree._Element element not None):
    """The elements below ``element`` whose ``class`` holds ``author``, ``byline`` or
    ``username``, in document order (what ``fallbacks._classed_bylines`` chooses from); None as for :func:`author_elements`."""
    return _named_elements(element, N_BYLINE, -1)


def date_named_elements(cetree._Element element not None, Py_ssize_t limit):
    """The first ``limit`` elements below ``element`` (``<script>`` aside) whose ``class`` holds
    ``date``, ``time``, ``publish`` or ``posted`` or whose ``id`` holds ``date``, in document
    order (``fallbacks._dated_elements``); None as for :func:`author_elements`."""
    return _named_elements(element, N_DATE, limit)


#: The first word of each byline label of ``fallbacks._TEXT_LABEL`` (``aut``: ``author``,
#: ``autor``, ``autorin``, ``auteur``).
cdef const char** _LABEL_WORDS = [
    b"written", b"posted", b"published", b"article", b"story", b"words", b"text", b"by", b"von",
    b"par", b"por", b"door", b"aut", NULL,
]


cdef bint _may_start_with_label(xmlNode* first) noexcept nogil:
    """False when the text from the text node ``first`` cannot match ``fallbacks._TEXT_LABEL``:
    after ASCII spaces (those of ``\\s``) it starts with none of ``_LABEL_WORDS`` (ASCII case
    ignored) and without a non-ASCII character there (which may fold onto an ASCII letter)."""
    cdef const unsigned char* text = first.content
    cdef Py_ssize_t k, w = 0
    if text is NULL or _text_node_or_skip(first.next) is not NULL:
        return True  # the text goes on in the next node
    while text[0] == 32 or 9 <= text[0] <= 13 or 28 <= text[0] <= 31:
        text += 1
    if text[0] == 0:
        return False  # spaces only: no label
    while _LABEL_WORDS[w] is not NULL:
        k = 0
        while _LABEL_WORDS[w][k] != 0 and text[k] < 0x80 and (text[k] | 0x20) == _LABEL_WORDS[w][k]:
            k += 1
        if _LABEL_WORDS[w][k] == 0 or text[k] >= 0x80:
            return True
        w += 1
    return False


def label_candidates(cetree._Element element not None, Py_ssize_t limit):
    """The elements among the first ``limit`` nodes ``element.iter()`` gives whose ``.text``
    may start with a byline label (:func:`_may_start_with_label`; the caller matches), in document
    order; None (the reference decides) for a subtree holding an entity reference or a
    namespaced element."""
    cdef list found = []
    cdef xmlNode* top = element._c_node
    cdef xmlNode* node = top
    cdef xmlNode* text
    cdef Py_ssize_t read = 0
    if top.type != XML_ELEMENT_NODE:
        return None
    while node is not NULL and read < limit:
        if node.type == XML_ENTITY_REF_NODE:
            return None
        if node.type == XML_ELEMENT_NODE:
            if node.ns is not NULL:
                return None
            read += 1
            text = _text_node_or_skip(node.children)
            if text is not NULL and _may_start_with_label(text):
                found.append(cetree.elementFactory(element._doc, node))
        elif node.type == XML_COMMENT_NODE or node.type == XML_PI_NODE:
            read += 1  # iter() gives them too
        node = _next_node(node, top)
    return found


# -- leading texts --------------------------------------------------------------------------------

cdef Py_ssize_t _stripped_length(str text):
    """``len(text.strip())``, without making the stripped text."""
    cdef Py_ssize_t start = 0, end = len(text)
    while start < end and Py_UNICODE_ISSPACE(text[start]):
        start += 1
    while end > start and Py_UNICODE_ISSPACE(text[end - 1]):
        end -= 1
    return end - start


cdef int _take_text(
    list texts, object text, Py_ssize_t* read, Py_ssize_t limit, Py_ssize_t shortest,
    Py_ssize_t longest,
) except -1:
    """Append ``text`` (unless None) while the texts' total length stays within ``limit``, when
    its length once stripped is from ``shortest`` to ``longest`` (no bound when negative); 0
    when the total goes beyond ``limit`` (reading ends), else 1."""
    cdef Py_ssize_t length
    if text is None:
        return 1
    read[0] += len(<str>text)
    if read[0] > limit:
        return 0
    if shortest > 0 or longest >= 0:
        length = _stripped_length(<str>text)
        if length < shortest or 0 <= longest < length:
            return 1
    texts.append(text)
    return 1


def leading_texts(
    cetree._Element element not None, Py_ssize_t limit, Py_ssize_t shortest=0,
    Py_ssize_t longest=-1,
):
    """The texts ``element.itertext()`` gives, as long as their total length is at most
    ``limit``, whose length once stripped is from ``shortest`` to ``longest`` (no bound when
    negative; ``fallbacks.leading_texts_pure``); None (the reference decides) for a subtree
    holding an entity reference."""
    cdef list texts = []
    cdef Py_ssize_t read = 0
    cdef xmlNode* top = element._c_node
    cdef xmlNode* node
    if top.type != XML_ELEMENT_NODE:
        return None
    if not _take_text(texts, _collected_text(top.children), &read, limit, shortest, longest):
        return texts
    node = top.children
    while node is not NULL and node is not top:
        if node.type == XML_ENTITY_REF_NODE:
            return None
        if node.type == XML_ELEMENT_NODE:  # its start: its text, then its children
            if not _take_text(texts, _collected_text(node.children), &read, limit, shortest, longest):
                return texts
            if node.children is not NULL:
                node = node.children
                continue
        if node.type == XML_ELEMENT_NODE or node.type == XML_COMMENT_NODE or (
            node.type == XML_PI_NODE
        ):  # its end: its tail
            if not _take_text(texts, _collected_text(node.next), &read, limit, shortest, longest):
                return texts
        while node.next is NULL:
            node = node.parent
            if node is top or node is NULL:
                return texts
            # the end of an element whose children were walked: its tail
            if not _take_text(texts, _collected_text(node.next), &read, limit, shortest, longest):
                return texts
        node = node.next
    return texts


# -- word statistics ---------------------------------------------------------------------------

cdef enum:
    C_OTHER = 0
    C_WORD = 1  # \w: alphanumeric or "_"
    C_SPACE = 2  # \s, except the separators below
    C_GLUE = 3
    C_SEPARATOR = 4  # " " and "\n": token separators in a spaced buffer
    C_MARK_START = 5
    C_MARK_END = 6

cdef unsigned char _ASCII_CLASS[128]
cdef unsigned char _ASCII_ALNUM[128]


cdef _init_ascii():
    cdef int c
    for c in range(128):
        ch = chr(c)
        _ASCII_ALNUM[c] = ch.isalnum()
        if ch in " \n":
            _ASCII_CLASS[c] = C_SEPARATOR
        elif ch.isalnum() or ch == "_":
            _ASCII_CLASS[c] = C_WORD
        elif ch.isspace():
            _ASCII_CLASS[c] = C_SPACE
        elif ch in "\"'.,!@-:;$?()/":
            _ASCII_CLASS[c] = C_GLUE
        else:
            _ASCII_CLASS[c] = C_OTHER


_init_ascii()

cdef Py_UCS4 _START = 0xE00A
cdef Py_UCS4 _END = 0xE00B
assert LINK_START == "\ue00a" and LINK_END == "\ue00b"


cdef inline int _char_class(Py_UCS4 c) noexcept:
    if c < 128:
        return _ASCII_CLASS[c]
    if c == _START:
        return C_MARK_START
    if c == _END:
        return C_MARK_END
    if Py_UNICODE_ISALNUM(c):
        return C_WORD
    if Py_UNICODE_ISSPACE(c):
        return C_SPACE
    return C_OTHER


# The paired-script tables of tokens.py, copied once into C arrays.
cdef Py_UCS4 _LETTER_LOW[32]
cdef Py_UCS4 _LETTER_HIGH[32]
cdef Py_UCS4 _MARK_LOW[8]
cdef Py_UCS4 _MARK_HIGH[8]
cdef int _LETTER_RANGES = 0, _MARK_RANGES = 0


cdef _init_paired():
    global _LETTER_RANGES, _MARK_RANGES
    assert len(PAIRED_SCRIPT_LETTERS) <= 32 and len(PAIRED_SCRIPT_MARKS) <= 8
    for low, high in PAIRED_SCRIPT_LETTERS:
        _LETTER_LOW[_LETTER_RANGES], _LETTER_HIGH[_LETTER_RANGES] = low, high
        _LETTER_RANGES += 1
    for low, high in PAIRED_SCRIPT_MARKS:
        _MARK_LOW[_MARK_RANGES], _MARK_HIGH[_MARK_RANGES] = low, high
        _MARK_RANGES += 1


_init_paired()


cdef inline bint _in_ranges(Py_UCS4 c, Py_UCS4* low, Py_UCS4* high, int count) noexcept:
    cdef int k
    for k in range(count):
        if low[k] <= c <= high[k]:
            return True
    return False


cdef inline bint _is_alnum(Py_UCS4 c) noexcept:
    if c < 128:
        return _ASCII_ALNUM[c]
    return Py_UNICODE_ISALNUM(c)


cdef extern from "Python.h":
    bint Py_UNICODE_ISALNUM(Py_UCS4 ch)
    bint Py_UNICODE_ISSPACE(Py_UCS4 ch)


cdef Py_ssize_t _marks_at(str text, Py_ssize_t start, Py_ssize_t end):
    """Number of non-spacing marks (Mn) at the start of ``text[start:end]``."""
    cdef Py_ssize_t i = start
    while i < end and unicodedata.category(text[i]) == "Mn":
        i += 1
    return i - start


cdef struct _Counts:
    Py_ssize_t words, linked, wrapped_words, wrapped_lines, word_chars
    bint in_link_after


cdef bint _stats(str text, bint in_link, _Counts* out, Py_ssize_t* spans) except -1:
    """``tokens.block_stats`` of one marked buffer into ``out``.

    Without ``spans`` (NULL), False (``out`` untouched) when a word holds a non-separator space
    (NBSP and the like): the 80-column wrap of such words is not plain arithmetic. With
    ``spans`` (room for two offsets per character of ``text``), each word's start and end are
    recorded there and the wrap is laid out by :func:`_wrap_spaced`, as the reference does."""
    cdef Py_ssize_t n = len(text), i = 0, end, marks, run_start = 0
    cdef Py_ssize_t break_1 = -1, break_2 = -1
    cdef Py_UCS4 c
    cdef int kind, previous = C_SEPARATOR
    cdef Py_ssize_t run_length = 0, words = 0, linked = 0, word_chars = 0, first_length = 0
    cdef bint run_alnum = False, run_space = False
    cdef Py_ssize_t lines = 0, line_length = 0, line_words = 0
    cdef Py_ssize_t wrapped_words, wrapped_lines
    cdef Py_ssize_t streak = 0  # paired-script letters in a row (their marks do not count)
    cdef bint pair_break
    while i <= n:
        pair_break = False
        if i < n:
            c = text[i]
            kind = _char_class(c)
            if c < 0x0E01:
                streak = 0
            elif _in_ranges(c, _LETTER_LOW, _LETTER_HIGH, _LETTER_RANGES):
                pair_break = streak > 0 and streak % 2 == 0  # tokens.space_tokens' cut
                streak += 1
            elif not _in_ranges(c, _MARK_LOW, _MARK_HIGH, _MARK_RANGES):
                streak = 0
            if kind == C_OTHER and previous != C_OTHER:
                # a run of "other" characters: where space_tokens puts its spaces
                end = i + 1
                while end < n and _char_class(text[end]) == C_OTHER:
                    end += 1
                break_1 = break_2 = -1
                if previous == C_WORD:
                    marks = _marks_at(text, i, end)
                    if marks < end - i:
                        break_1 = i + marks
                        if end < n and _char_class(text[end]) == C_WORD:
                            break_2 = end
                elif end < n and _char_class(text[end]) == C_WORD:
                    break_2 = end
            previous = kind
        else:
            kind = C_SEPARATOR
        if (kind == C_SEPARATOR or kind == C_MARK_START or kind == C_MARK_END
                or i == break_1 or i == break_2 or pair_break):
            if run_alnum:  # the token ending here is a word
                if spans != NULL:
                    spans[2 * words] = run_start
                    spans[2 * words + 1] = i
                elif run_space:
                    return False
                words += 1
                word_chars += run_length
                if in_link:
                    linked += 1
                if lines == 0:
                    first_length = run_length
                    lines, line_length, line_words = 1, run_length, 1
                elif line_length + 1 + run_length <= WRAP_COLUMNS:
                    line_length += 1 + run_length
                    line_words += 1
                else:
                    lines += 1
                    line_length, line_words = run_length, 1
            run_length = 0
            run_alnum = run_space = False
            if kind == C_MARK_START:
                in_link = True
            elif kind == C_MARK_END:
                in_link = False
        if kind != C_SEPARATOR and kind != C_MARK_START and kind != C_MARK_END:
            if run_length == 0:
                run_start = i
            run_length += 1
            if not run_alnum and _is_alnum(c):
                run_alnum = True
            if kind == C_SPACE:
                run_space = True
        i += 1
    out.words, out.linked, out.word_chars, out.in_link_after = words, linked, word_chars, in_link
    out.wrapped_words, out.wrapped_lines = words, 1
    if words == 0:
        out.wrapped_words = 0
        return True
    if word_chars + words - 1 <= WRAP_COLUMNS:
        return True
    if spans != NULL:
        _wrap_spaced(text, spans, words, first_length, out)
        return True
    wrapped_lines = lines - 1 + (first_length > WRAP_COLUMNS)
    if wrapped_lines == 0 or words == line_words:
        return True
    out.wrapped_words, out.wrapped_lines = words - line_words, wrapped_lines
    return True


cdef enum:
    W_TEXT = 0  # \S
    W_SPACE = 1  # \s other than the ASCII space
    W_BREAK = 2  # the ASCII space that joins two words


cdef int _wrap_spaced(str text, Py_ssize_t* spans, Py_ssize_t count, Py_ssize_t first_length,
                      _Counts* out) except -1:
    """``tokens._wrap`` of the ``count`` words at ``spans`` of ``text``, for words that may hold
    spaces: the words joined by single spaces and cut into lines as
    ``_WRAPPED_LINE.findall`` cuts them (``\\S{81,}|\\S.{0,79}(?= |$)``, left to right)."""
    cdef Py_ssize_t length = count - 1, w, k, p, q, run, last_start = 0, last_end = 0
    cdef Py_ssize_t lines = 0, on_last_line, wraps
    for w in range(count):
        length += spans[2 * w + 1] - spans[2 * w]
    cdef unsigned char* kinds = <unsigned char*>PyMem_Malloc(length + 1)
    if kinds == NULL:
        raise MemoryError()
    try:
        p = 0
        for w in range(count):
            if w:
                kinds[p] = W_BREAK
                p += 1
            for k in range(spans[2 * w], spans[2 * w + 1]):
                kinds[p] = W_SPACE if Py_UNICODE_ISSPACE(text[k]) else W_TEXT
                p += 1
        p = 0
        while p < length:
            if kinds[p] != W_TEXT:  # neither alternative can start here
                p += 1
                continue
            run = 1
            while p + run < length and kinds[p + run] == W_TEXT:
                run += 1
            if run > WRAP_COLUMNS:  # \S{81,}, greedy
                q = p + run
            else:  # \S.{0,79} backing off to the last place followed by " " or the end
                q = min(p + WRAP_COLUMNS, length)
                while q > p and q < length and kinds[q] != W_BREAK:
                    q -= 1
                if q == p:  # no match here
                    p += 1
                    continue
            lines += 1
            last_start, last_end = p, q
            p = q
        on_last_line = 1
        for k in range(last_start, last_end):
            on_last_line += kinds[k] == W_BREAK
    finally:
        PyMem_Free(kinds)
    wraps = lines - 1 + (first_length > WRAP_COLUMNS)
    if wraps == 0 or count == on_last_line:
        out.wrapped_words, out.wrapped_lines = count, 1
    else:
        out.wrapped_words, out.wrapped_lines = count - on_last_line, wraps
    return 0


cdef int _counts_of(str buffer, bint in_link, _Counts* out) except -1:
    """``_stats``; for a buffer whose words hold spaces, again with their spans recorded."""
    cdef Py_ssize_t* spans
    if _stats(buffer, in_link, out, NULL):
        return 0
    spans = <Py_ssize_t*>PyMem_Malloc((2 * len(buffer) + 2) * sizeof(Py_ssize_t))
    if spans == NULL:
        raise MemoryError()
    try:
        _stats(buffer, in_link, out, spans)
    finally:
        PyMem_Free(spans)
    return 0


def block_word_stats(buffers, bint in_link=False):
    """``tokens.block_word_stats``: word statistics of consecutive marked token buffers."""
    cdef list stats = []
    cdef _Counts counts
    cdef str buffer
    for buffer in buffers:
        _counts_of(buffer, in_link, &counts)
        stats.append(WordStats(counts.words, counts.linked, counts.wrapped_words,
                               counts.wrapped_lines, counts.word_chars, counts.in_link_after))
        in_link = counts.in_link_after
    return stats


def build_blocks(list pending, block_class):
    """``segmentation._build_blocks``: the walk's queued buffers as ``block_class`` objects."""
    cdef list blocks = []
    cdef _Counts counts
    cdef bint in_link = False
    cdef Py_ssize_t offset = 0
    for buffer, text, tag_level, labels, element in pending:
        _counts_of(buffer, in_link, &counts)
        in_link = counts.in_link_after
        blocks.append(block_class(
            text, counts.words, counts.linked, counts.wrapped_words, counts.wrapped_lines,
            counts.word_chars, tag_level, offset, offset, labels,
            [element] if element is not None else [],
        ))
        offset += 1
    return blocks


# -- <noscript> spans in page bytes -----------------------------------------------------------------

cdef extern from "string.h":
    const void* memchr(const void* s, int c, size_t n) nogil

cdef const char* _NOSCRIPT = b"noscript"
#: The longest run of attribute text ``noscript._SOURCES["noscript_open"]`` allows.
cdef Py_ssize_t _NOSCRIPT_ATTRIBUTES = 4096


cdef inline bint _is_noscript_at(const unsigned char* data, Py_ssize_t at, Py_ssize_t size) noexcept nogil:
    """Whether ``data[at:at + 8]`` is ``noscript``, ASCII case ignored."""
    cdef Py_ssize_t k
    if at + 8 > size:
        return False
    for k in range(8):
        if (data[at + k] | 0x20) != <unsigned char>_NOSCRIPT[k]:
            return False
    return True


cdef inline bint _is_ascii_word_byte(unsigned char c) noexcept nogil:
    """``\\w`` of a bytes pattern: an ASCII letter, digit or underscore."""
    return (97 <= (c | 0x20) <= 122) or 48 <= c <= 57 or c == 95


cdef Py_ssize_t _noscript_open_end(
    const unsigned char* data, Py_ssize_t at, Py_ssize_t size
) noexcept nogil:
    """Where ``<noscript\\b[^<>]{0,4096}>`` (any ASCII case) matching at the ``<`` at ``at``
    ends, or -1 when it does not match there."""
    cdef Py_ssize_t k, last
    if not _is_noscript_at(data, at + 1, size):
        return -1
    k = at + 9
    if k < size and _is_ascii_word_byte(data[k]):
        return -1
    last = k + _NOSCRIPT_ATTRIBUTES
    while k < size and k <= last:
        if data[k] == 62:  # ">"
            return k + 1
        if data[k] == 60:  # "<"
            return -1
        k += 1
    return -1


cdef Py_ssize_t _noscript_close_end(
    const unsigned char* data, Py_ssize_t at, Py_ssize_t size
) noexcept nogil:
    """Where ``</noscript\\s*>`` (any ASCII case) matching at the ``<`` at ``at`` ends, or -1."""
    cdef Py_ssize_t k
    if at + 1 >= size or data[at + 1] != 47 or not _is_noscript_at(data, at + 2, size):  # "/"
        return -1
    k = at + 10
    while k < size and (data[k] == 32 or 9 <= data[k] <= 13):
        k += 1
    if k < size and data[k] == 62:
        return k + 1
    return -1


cdef Py_ssize_t _next_match(
    const unsigned char* data, Py_ssize_t at, Py_ssize_t size, bint closing, Py_ssize_t* end
) noexcept nogil:
    """The start of the first ``<noscript>`` start tag (``closing``: end tag) at or after
    ``at``, its end in ``end``; -1 when there is none."""
    cdef const unsigned char* found
    while at < size:
        found = <const unsigned char*>memchr(data + at, 60, size - at)
        if found is NULL:
            return -1
        at = found - data
        end[0] = _noscript_close_end(data, at, size) if closing else _noscript_open_end(data, at, size)
        if end[0] >= 0:
            return at
        at += 1
    return -1


def noscript_spans(const unsigned char[:] html):
    """``noscript._spans(html, ...)`` of page bytes with the ``<noscript>`` start and end tag
    patterns: ``(start, content_start, content_end, end)`` of each element, ``end`` None for
    a start tag without an end tag (found by ``memchr`` from ``<`` to ``<``, no regex)."""
    cdef const unsigned char* data = &html[0] if html.shape[0] else NULL
    cdef Py_ssize_t size = html.shape[0], position = 0, start, content_start, stop, end = 0
    cdef list spans = []
    while True:
        start = _next_match(data, position, size, False, &end)
        if start < 0:
            return spans
        content_start = end
        stop = _next_match(data, content_start, size, True, &end)
        if stop < 0:
            spans.append((start, content_start, size, None))
            return spans
        spans.append((start, content_start, stop, end))
        position = end
