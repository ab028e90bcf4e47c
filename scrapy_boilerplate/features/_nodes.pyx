# cython: language_level=3, boundscheck=False, wraparound=False, initializedcheck=False, cdivision=True
"""Compiled twins of the node table walk, of the node feature rows (as lists or one flat
array of doubles), of the element bits, of the blocks' structure features and of the block and
thread columns of the page-type features (``features.page``: ``page_block_features_pure`` and
``page_thread_features_pure`` are their reference, ``tests/test_features_page_twin.py``).

The pure-Python :func:`~scrapy_boilerplate.features.nodes.node_table_pure`,
:func:`~scrapy_boilerplate.features.node_features.node_feature_rows_pure`,
:func:`~scrapy_boilerplate.features.structure.element_bits_pure` and
:func:`~scrapy_boilerplate.features.structure.structure_features_pure` are the reference;
these functions give the same values (``tests/test_features_nodes_twin.py`` and
``tests/test_features_structure.py`` check that on hand-made, API-built, random and fixture
pages and, when present, on every page of the shared datasets). The walk reads libxml2 nodes through lxml's public C API: lengths are counted on the
UTF-8 bytes, each text is decoded once and scanned with the character classes of ``str.split``
and of the word patterns (``Py_UNICODE_ISSPACE``, ``Py_UNICODE_ISALNUM``). Hidden elements are
decided by ``tags.is_hidden`` and links by ``nodes._is_internal`` (cached, and skipped when the
page's host is not in the link); the class/id keyword groups that are sets of literal words
are found by one scan of the names (the others by their pattern), and element bits are cached
by tag and attribute values. A tree with nodes the walk does not take (comments, processing
instructions, entities, namespaced elements or attributes) gives ``None``: the caller then
runs the reference.
"""

import array
import re

from cpython cimport array
from cpython.float cimport PyFloat_AS_DOUBLE
from cpython.list cimport PyList_New, PyList_SET_ITEM
from cpython.tuple cimport PyTuple_GET_ITEM
from cpython.ref cimport Py_INCREF
from cpython.unicode cimport PyUnicode_DecodeASCII, PyUnicode_DecodeUTF8
from libc.math cimport fabs, log, log1p, signbit
from libc.stdint cimport uint64_t
from libc.stdlib cimport calloc, free, malloc, realloc
from libc.string cimport memcpy, strcmp, strlen
from cpython.bytes cimport PyBytes_FromStringAndSize
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

from ..page._libxml cimport has_attribute as _has_attribute
from ..page._libxml cimport may_hide as _may_hide
from ..page._libxml cimport text_node_or_skip as _text_node_or_skip
from ..page._libxml cimport collected_text as _collected_text

cetree.import_lxml__etree()

# -- tables of the Python modules, loaded on first use (they import this module) -------------

cdef list _SKIPPED = []  # bytes names, kept alive for _SKIPPED_C
cdef list _INPUTS = []
cdef list _MASKED = []
cdef const char* _SKIPPED_C[32]
cdef const char* _INPUTS_C[8]
cdef const char* _MASKED_C[8]
cdef Py_ssize_t _N_SKIPPED = 0, _N_INPUTS = 0, _N_MASKED = 0
cdef object _is_hidden = None
cdef object _is_internal = None
cdef object _element_bits = None
cdef dict _LANDMARK_BITS = None
cdef list _ATTRIBUTE_RULES = None  # (index in MASK_ATTRIBUTES, pattern, bit)
cdef Py_ssize_t _CLASS = 0, _ID = 0, _KEYWORD_SHIFT = 0
cdef list _LITERALS = None  # ASCII pair c0 * 128 + c1 -> tuple of (literal, bit) or None
#: (pattern, required literal or None, bit) of the alternatives that are not literal sets
cdef list _KEYWORD_SEARCHES = None
cdef dict _keyword_cache = {}  # lower-cased class/id names -> keyword bits
cdef object _row_tail = None
cdef dict _tail_cache = None
cdef dict _mask_cache = {}  # _raw_mask_key or (tag, values of MASK_ATTRIBUTES) -> bits
cdef dict _bare_masks = {}  # tag -> element_bits of an element without those attributes
cdef dict _CONTAINER_INDEX = None  # structure's one-hot tags
cdef dict _PARENT_INDEX = None
cdef Py_ssize_t _N_CONTAINERS = 0, _N_PARENTS = 0, _N_BITS = 0, _LEVELS = 0
cdef double _FAR = 0.0
cdef dict _internal_cache = {}  # (href, host) -> _is_internal
cdef Py_ssize_t _CACHE_LIMIT = 100_000
cdef dict _TAG_INDEX = None
cdef Py_ssize_t _OTHER_TAG = 0
cdef Py_ssize_t _N_TAG_VALUES = 0, _N_ELEMENT_BITS = 0  # the parts of a row's tail
cdef bint _loaded = False
cdef array.array _DOUBLES = array.array("d")


cdef Py_ssize_t _fill(list keep, const char** names, object values, Py_ssize_t limit) except -1:
    cdef Py_ssize_t n = 0
    cdef bytes name
    for value in values:
        if n == limit:
            raise ValueError("too many names for the compiled twin")
        name = value.encode("utf-8")
        keep.append(name)
        names[n] = <const char*>name
        n += 1
    return n


cdef _load():
    global _N_SKIPPED, _N_INPUTS, _N_MASKED, _is_hidden, _is_internal
    global _element_bits, _row_tail, _tail_cache, _TAG_INDEX, _OTHER_TAG, _loaded
    global _LANDMARK_BITS, _ATTRIBUTE_RULES, _CLASS, _ID, _KEYWORD_SHIFT, _LITERALS
    global _KEYWORD_SEARCHES, _CONTAINER_INDEX, _PARENT_INDEX, _N_CONTAINERS, _N_PARENTS
    global _N_BITS, _LEVELS, _FAR, _N_TAG_VALUES, _N_ELEMENT_BITS
    from ..page.tags import is_hidden
    from . import node_features, nodes, structure

    _N_SKIPPED = _fill(_SKIPPED, _SKIPPED_C, sorted(nodes._SKIPPED_TAGS), 32)
    _N_INPUTS = _fill(_INPUTS, _INPUTS_C, sorted(nodes._INPUT_TAGS), 8)
    _N_MASKED = _fill(_MASKED, _MASKED_C, structure.MASK_ATTRIBUTES, 8)
    _is_hidden = is_hidden
    _is_internal = nodes._is_internal
    _element_bits = structure.element_bits_pure
    masked = list(structure.MASK_ATTRIBUTES)
    _LANDMARK_BITS = dict(structure._LANDMARK_BITS)
    _ATTRIBUTE_RULES = [
        (masked.index(attribute), pattern, 1 << (structure._ATTRIBUTE_SHIFT + bit))
        for bit, (attribute, pattern) in enumerate(structure._ATTRIBUTE_PATTERNS)
    ]
    _CLASS, _ID = masked.index("class"), masked.index("id")
    _KEYWORD_SHIFT = structure._KEYWORD_SHIFT
    _LITERALS = [None] * (128 * 128)
    _KEYWORD_SEARCHES = []
    for bit, pattern in enumerate(structure._KEYWORD_PATTERNS):
        literals, searched = _split_pattern(pattern)
        for literal in literals:
            pair = ord(literal[0]) * 128 + ord(literal[1])
            _LITERALS[pair] = (_LITERALS[pair] or ()) + ((literal, 1 << bit),)
        _KEYWORD_SEARCHES += [(branch, required, 1 << bit) for branch, required in searched]
    _row_tail = node_features._row_tail
    _tail_cache = node_features._tail_cache
    _TAG_INDEX = dict(node_features._TAG_INDEX)
    _OTHER_TAG = len(node_features.TAG_GROUPS)
    _N_TAG_VALUES = len(node_features.TAG_GROUPS) + 1
    _N_ELEMENT_BITS = len(node_features._BIT_NAMES)
    _CONTAINER_INDEX = dict(structure._CONTAINER_INDEX)
    _PARENT_INDEX = dict(structure._PARENT_INDEX)
    _N_CONTAINERS, _N_PARENTS = len(structure.CONTAINER_TAGS), len(structure.PARENT_TAGS)
    _N_BITS, _LEVELS, _FAR = structure._NUM_BITS, structure.AGGREGATE_LEVELS, structure.FAR
    _loaded = True


cdef inline bint _among(const char* name, const char** names, Py_ssize_t n) noexcept nogil:
    cdef Py_ssize_t k
    for k in range(n):
        if names[k][0] == name[0] and strcmp(names[k], name) == 0:
            return True
    return False


cdef int _plain_attribute(xmlNode* node, const char* name, const char** content) noexcept:
    """Find the namespace-less attribute ``name``: 0 when absent, 1 when its value is plain
    text (``content`` set to it, NULL for ""), -1 when it is not (lxml must be asked)."""
    cdef xmlAttr* attribute = node.properties
    cdef xmlNode* child
    while attribute is not NULL:
        if attribute.ns is NULL and strcmp(<const char*>attribute.name, name) == 0:
            child = attribute.children
            content[0] = NULL
            if child is NULL:
                return 1
            if child.next is not NULL or child.type != XML_TEXT_NODE or child.content is NULL:
                return -1
            content[0] = <const char*>child.content
            return 1
        attribute = attribute.next
    return 0


cdef object _attribute_value(xmlNode* node, const char* name):
    """lxml's ``node.get(name)`` for a namespace-less ``name``: ``None`` when absent, ``False``
    for a value that is not plain text (then the caller asks lxml)."""
    cdef const char* content
    cdef int found = _plain_attribute(node, name, &content)
    if found == 0:
        return None
    if found < 0:
        return False
    if content is NULL:
        return ""
    return PyUnicode_DecodeUTF8(content, strlen(content), NULL)


def _sre_parser():
    """The regular expressions' parser module (``re._parser``, ``sre_parse`` before 3.11)."""
    try:
        from re import _parser as parser
    except ImportError:  # Python 3.10
        import sre_parse as parser
    return parser


def _literal_set(pattern):
    """The strings a pattern of literal alternatives (``a|b(?:c|d)-?e``) matches, every one
    of at least two ASCII characters; ``None`` for any other pattern (then it is searched)."""
    parser = _sre_parser()
    if pattern.flags & ~parser.SRE_FLAG_UNICODE:
        return None

    def expand(items):
        strings = [""]
        for op, value in items:
            if op is parser.LITERAL:
                options = [chr(value)]
            elif op is parser.BRANCH:
                options = []
                for branch in value[1]:
                    expanded = expand(branch)
                    if expanded is None:
                        return None
                    options += expanded
            elif op is parser.SUBPATTERN and value[0] is None and not value[1] and not value[2]:
                options = expand(value[3])
            elif op in (parser.MAX_REPEAT, parser.MIN_REPEAT) and value[:2] == (0, 1):
                options = expand(value[2])
                if options is not None:
                    options = ["", *options]
            else:
                return None
            if options is None:
                return None
            strings = [head + tail for head in strings for tail in options]
        return strings

    literals = expand(list(parser.parse(pattern.pattern)))
    if literals is None or any(len(s) < 2 or not s.isascii() for s in literals):
        return None
    return sorted(set(literals))


def _top_level_branches(str source):
    """The alternatives of ``source``'s top-level ``|`` (inside no group and no class)."""
    cdef Py_ssize_t k = 0, n = len(source), depth = 0, start = 0
    branches = []
    while k < n:
        c = source[k]
        if c == "\\":
            k += 2
            continue
        if c == "[":  # to the class's "]" (a "]" first in the class is one of its characters)
            k += 1
            if k < n and source[k] == "^":
                k += 1
            if k < n and source[k] == "]":
                k += 1
            while k < n and source[k] != "]":
                k += 2 if source[k] == "\\" else 1
        elif c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
        elif c == "|" and depth == 0:
            branches.append(source[start:k])
            start = k + 1
        k += 1
    branches.append(source[start:])
    return branches


def _required_literal(pattern):
    """The longest run of ASCII literals that every match of ``pattern`` holds (its own
    top-level sequence of literals), or None: a search can skip a value without it."""
    parser = _sre_parser()
    if pattern.flags & ~parser.SRE_FLAG_UNICODE:
        return None
    best = run = ""
    for op, value in parser.parse(pattern.pattern):
        if op is parser.LITERAL and value < 128:
            run += chr(value)
            best = max(best, run, key=len)
        else:
            run = ""
    return best or None


def _split_pattern(pattern):
    """``(literals, searched)`` of a keyword pattern: the literals of its top-level alternatives
    that are literal sets (:func:`_literal_set`), and per other alternative ``(its pattern, its
    :func:`_required_literal`)``; the pattern matches where one of them does."""
    literals, searched = [], []
    for branch in _top_level_branches(pattern.pattern):
        try:
            compiled = re.compile(branch, pattern.flags)
        except re.error:  # not an alternative after all: the whole pattern is searched
            return [], [(pattern, None)]
        found = _literal_set(compiled)
        if found is None:
            searched.append((compiled, _required_literal(compiled)))
        else:
            literals += found
    return sorted(set(literals)), searched


def keyword_mask(str value):
    """``structure.keyword_mask(value)``: literal groups found by one scan of ``value``,
    the others by their pattern."""
    if not _loaded:
        _load()
    return _keyword_bits(value)


cdef object _keyword_bits(str value):
    cdef Py_ssize_t i, k, n = len(value), size
    cdef Py_UCS4 first, second
    cdef object found = 0
    cdef str literal
    cdef bint same
    for i in range(n - 1):
        first = value[i]
        second = value[i + 1]
        if first >= 128 or second >= 128:
            continue
        candidates = _LITERALS[<Py_ssize_t>first * 128 + <Py_ssize_t>second]
        if candidates is None:
            continue
        for literal, bit in <tuple>candidates:
            if found & bit:
                continue
            size = len(literal)
            if i + size > n:
                continue
            same = True
            for k in range(2, size):
                if value[i + k] != literal[k]:
                    same = False
                    break
            if same:
                found |= bit
    for pattern, required, bit in _KEYWORD_SEARCHES:
        if found & bit or (required is not None and required not in value):
            continue
        if pattern.search(value):
            found |= bit
    return found


cdef inline bint _has_masked_attribute(xmlNode* node) noexcept nogil:
    """Whether ``node`` has an attribute ``structure.element_bits`` reads."""
    cdef xmlAttr* attribute = node.properties
    while attribute is not NULL:
        if attribute.ns is NULL and _among(<const char*>attribute.name, _MASKED_C, _N_MASKED):
            return True
        attribute = attribute.next
    return False


cdef object _mask_of(str tag, tuple values):
    """``structure._element_mask`` of an element with this tag and these values of
    ``MASK_ATTRIBUTES`` (``None`` for an absent attribute)."""
    mask = _LANDMARK_BITS.get(tag, 0)
    for index, pattern, bit in _ATTRIBUTE_RULES:
        value = values[index]
        if value and pattern.search(value.lower()):
            mask |= bit
    names = " ".join([value for value in (values[_CLASS], values[_ID]) if value])
    if names:
        names = names.lower()
        keywords = _keyword_cache.get(names)
        if keywords is None:
            if len(_keyword_cache) >= _CACHE_LIMIT:
                _keyword_cache.clear()
            keywords = _keyword_cache[names] = _keyword_bits(names)
        mask |= keywords << _KEYWORD_SHIFT
    return mask


cdef object _raw_mask_key(xmlNode* node):
    """The cache key of a namespace-less element's bits as one bytes object: its name, then
    per attribute of ``MASK_ATTRIBUTES`` ``\\x01`` when absent or ``\\x02`` + its UTF-8 value
    + NUL; None when a value is not plain text or the key would be long (the caller then reads
    the values)."""
    cdef char buffer[512]
    cdef Py_ssize_t length = strlen(<const char*>node.name), k, size
    cdef const char* content
    cdef int found
    if length + 1 > 512:
        return None
    memcpy(buffer, node.name, length + 1)
    length += 1
    for k in range(_N_MASKED):
        found = _plain_attribute(node, _MASKED_C[k], &content)
        if found < 0:
            return None
        if found == 0:
            if length + 1 > 512:
                return None
            buffer[length] = 1
            length += 1
            continue
        size = 0 if content is NULL else strlen(content)
        if length + size + 2 > 512:
            return None
        buffer[length] = 2
        if size:
            memcpy(buffer + length + 1, content, size)
        buffer[length + 1 + size] = 0
        length += size + 2
    return PyBytes_FromStringAndSize(buffer, length)


cdef object _element_mask(xmlNode* node, object element, object tag, object doc=None):
    """``structure.element_bits(element)``, cached by the tag and the values of the
    attributes it reads (it depends on nothing else; for a namespace-less element by their
    raw bytes, :func:`_raw_mask_key`); ``element`` may be None when ``doc``, its document, is
    given (its proxy is made only if the reference must run)."""
    cdef Py_ssize_t k
    cdef list key = [tag]
    raw = _raw_mask_key(node) if node.ns is NULL else None
    if raw is not None:
        mask = _mask_cache.get(raw)
        if mask is not None:
            return mask
    for k in range(_N_MASKED):
        value = _attribute_value(node, _MASKED_C[k])
        if value is False:
            if element is None:
                element = cetree.elementFactory(<cetree._Document>doc, node)
            return _element_bits(element)
        key.append(value)
    frozen = tuple(key)
    if raw is None:
        raw = frozen
        mask = _mask_cache.get(raw)
        if mask is not None:
            return mask
    if len(_mask_cache) >= _CACHE_LIMIT:
        _mask_cache.clear()
    mask = _mask_cache[raw] = _mask_of(tag, frozen[1:])
    return mask


def element_bits(cetree._Element element not None):
    """``structure.element_bits_pure(element)``, cached by the tag and the values of the
    attributes it reads (elements only: comments and the like go to the reference)."""
    cdef xmlNode* node = element._c_node
    if not _loaded:
        _load()
    if node.type != XML_ELEMENT_NODE:
        return _element_bits(element)
    return _bits_of(node, element, element.tag)


cdef object _bits_of(xmlNode* node, object element, object tag, object doc=None):
    """:func:`element_bits` of an element node whose ``tag`` is known (``element`` may be
    None when ``doc`` is given: see :func:`_element_mask`)."""
    if not _has_masked_attribute(node):
        mask = _bare_masks.get(tag)
        if mask is None:
            if len(_bare_masks) >= _CACHE_LIMIT:
                _bare_masks.clear()
            mask = _bare_masks[tag] = _mask_of(tag, (None,) * _N_MASKED)
        return mask
    return _element_mask(node, element, tag, doc)


cdef inline bint _is_alnum(Py_UCS4 c) noexcept:
    """``str.isalnum`` of one character, without the Unicode tables for ASCII."""
    if c < 128:
        return (48 <= c <= 57) or (65 <= c <= 90) or (97 <= c <= 122)
    return c.isalnum()


cdef class _Vocabulary:
    """The title's words, with the cheap tests that rule most runs out before a lookup:
    their lengths (code points) and, for ASCII, their first characters."""

    cdef object words
    cdef Py_ssize_t shortest, longest
    cdef uint64_t first[2]  # bit c of first[c >> 6] for an ASCII first character c
    cdef bint non_ascii_first

    def __cinit__(self, words):
        cdef Py_ssize_t c
        self.words = words
        self.shortest = min([len(word) for word in words] or [0])
        self.longest = max([len(word) for word in words] or [-1])
        self.first[0] = self.first[1] = 0
        self.non_ascii_first = False
        for word in words:  # non-empty strings (``nodes._title_vocabulary``)
            c = <Py_ssize_t>(<Py_UCS4>(<str>word)[0])
            if c < 128:
                self.first[c >> 6] |= (<uint64_t>1) << (c & 63)
            else:
                self.non_ascii_first = True

    cdef bint holds_ascii(self, const unsigned char* run, Py_ssize_t length) except -1:
        """Whether the ASCII ``run`` (letters and digits), lower-cased, is one of the words
        (``may_hold`` is asked first)."""
        cdef char buffer[64]
        cdef Py_ssize_t k
        cdef str word
        if length > 64:
            word = PyUnicode_DecodeASCII(<const char*>run, length, NULL).lower()
        else:
            for k in range(length):
                buffer[k] = run[k] | 0x20 if 65 <= run[k] <= 90 else run[k]
            word = PyUnicode_DecodeASCII(buffer, length, NULL)
        return word in self.words

    cdef inline bint may_hold(self, Py_ssize_t first, Py_ssize_t length) noexcept:
        if length < self.shortest or length > self.longest:
            return False
        if first < 128:
            return (self.first[first >> 6] >> (first & 63)) & 1
        return self.non_ascii_first

    cdef Py_ssize_t count(self, str text) except -1:
        """``nodes._title_word_count(text, words)``: runs of letters and digits of the
        lower-cased text found in the words. An ASCII text is not lowered as a whole (runs
        and their case are the same): only the runs that may be words are."""
        cdef bint ascii = text.isascii()
        cdef str scanned = text if ascii else text.lower()
        cdef Py_ssize_t i, start = -1, n = len(scanned), count = 0
        cdef Py_UCS4 c
        cdef Py_ssize_t first = 0
        for i in range(n + 1):
            c = scanned[i] if i < n else u" "
            if _is_alnum(c):
                if start < 0:
                    start = i
                    first = <Py_ssize_t>c
                    if ascii and 65 <= first <= 90:
                        first += 32
            elif start >= 0:
                if self.may_hold(first, i - start):
                    if ascii:
                        count += scanned[start:i].lower() in self.words
                    else:
                        count += scanned[start:i] in self.words
                start = -1
        return count


def title_word_count(str text, vocabulary):
    """``nodes._title_word_count(text, vocabulary)`` (for the tests)."""
    return _Vocabulary(vocabulary).count(text)


def is_internal(str href, str host):
    """``nodes._is_internal(href, host)`` (for the tests)."""
    if not _loaded:
        _load()
    return _internal(href, host)


cdef bint _internal(str href, str host) except -1:
    """``nodes._is_internal(href, host)``, cached; without parsing ``href`` when ``host`` is
    not in it.

    The host ``urlsplit`` finds is a lower-cased piece of the stripped ``href`` once tabs and
    line breaks are taken out (``www.`` removed: still a piece), unless a ``%`` keeps a zone's
    case; an ASCII ``href`` without brackets never makes it raise. So when the page's host is
    not in that text, an absolute link is external and a relative one internal, as the
    reference says. Otherwise :func:`_http_internal` decides the plain ``http(s)://`` and
    ``//`` links, and the reference the rest.
    """
    cdef int decided
    key = (href, host)
    internal = _internal_cache.get(key)
    if internal is not None:
        return internal
    if len(_internal_cache) >= _CACHE_LIMIT:
        _internal_cache.clear()
    stripped = href.strip()
    if (
        host
        and stripped.isascii()
        and "[" not in stripped
        and "]" not in stripped
        and "%" not in stripped
        and host not in stripped.replace("\t", "").replace("\r", "").replace("\n", "").lower()
    ):
        internal = not (stripped.startswith("//") or ":" in stripped.split("/", 1)[0])
    else:
        decided = _http_internal(stripped, host)
        internal = bool(_is_internal(href, host)) if decided < 0 else bool(decided)
    _internal_cache[key] = internal
    return internal


cdef int _http_internal(str href, str host) except -2:
    """``nodes._is_internal`` of a stripped ``href`` that is ``//host...`` or an ``http(s)://``
    URL of printable ASCII without ``[]%@\\``: its host is then what ``urlsplit`` finds (the
    text up to ``/?#``, before any ``:``, lower-cased). -1 for any other ``href``."""
    cdef Py_ssize_t n = len(href), k, start, end
    cdef Py_UCS4 c
    cdef str lowered, hostname
    if not host:
        return -1
    for k in range(n):
        c = href[k]
        if c < 0x21 or c > 0x7E or c == u"[" or c == u"]" or c == u"%" or c == u"@" or c == u"\\":
            return -1
    lowered = href.lower()
    if lowered.startswith("//"):
        start = 2
    elif lowered.startswith("http://"):
        start = 7
    elif lowered.startswith("https://"):
        start = 8
    else:
        return -1
    end = start
    while end < n and not (lowered[end] == u"/" or lowered[end] == u"?" or lowered[end] == u"#"):
        end += 1
    hostname = lowered[start:end].partition(":")[0]
    if not hostname:
        return -1
    return hostname.removeprefix("www.") == host


# -- lxml's view of text: .text / .tail, measured in characters ------------------------------

cdef inline Py_ssize_t _characters(const unsigned char* text) noexcept nogil:
    """Code points of a NUL-terminated UTF-8 string (``len`` of its ``str``): its bytes that
    are not continuation bytes (a loop of known length, which the compiler vectorises)."""
    cdef Py_ssize_t n = 0, k, length
    if text is NULL:
        return 0
    length = strlen(<const char*>text)
    for k in range(length):
        n += (text[k] & 0xC0) != 0x80
    return n


cdef Py_ssize_t _text_length(xmlNode* first) noexcept nogil:
    """``len`` of lxml's ``_collectText`` from ``first`` (0 for ``None``)."""
    cdef Py_ssize_t n = 0
    cdef xmlNode* node = _text_node_or_skip(first)
    while node is not NULL:
        n += _characters(node.content)
        node = _text_node_or_skip(node.next)
    return n


cdef str _collect_text(xmlNode* first):
    """lxml's ``_collectText`` from ``first``, ``""`` standing for ``None``."""
    text = _collected_text(first)
    return "" if text is None else text


cdef Py_ssize_t _attribute_bytes(xmlNode* node) noexcept nogil:
    """``nodes._attribute_bytes`` of the element's attributes; -1 for one the walk does not
    take (namespaced, or a value that is not plain text)."""
    cdef Py_ssize_t size = 0
    cdef xmlAttr* attribute = node.properties
    cdef xmlNode* child
    while attribute is not NULL:
        if attribute.ns is not NULL:
            return -1
        size += _characters(attribute.name) + 4
        child = attribute.children
        while child is not NULL:
            if child.type != XML_TEXT_NODE:
                return -1
            size += _characters(child.content)
            child = child.next
        attribute = attribute.next
    return size


cdef inline int _kind(xmlNode* node) noexcept nogil:
    """1 for a plain element, 0 for a node the walk passes over (text), -1 for a node it does
    not take (``etree.iterwalk`` would visit it: comments, PIs, entities; namespaced tags)."""
    if node.type == XML_ELEMENT_NODE:
        return 1 if node.ns is NULL or node.ns.href is NULL else -1
    if node.type == XML_COMMENT_NODE or node.type == XML_PI_NODE or node.type == XML_ENTITY_REF_NODE:
        return -1
    return 0


# -- the node table walk -----------------------------------------------------------------------

cdef enum:
    C_PARENT = 0
    C_DEPTH = 1
    C_WORDS = 2
    C_ANCHOR_CHARS = 3
    C_ANCHOR_WORDS = 4
    C_LINKS = 5
    C_INTERNAL_LINKS = 6
    C_IMAGES = 7
    C_INPUTS = 8
    C_TITLE_WORDS = 9
    C_HTML_BYTES = 10
    C_FIRST_CHAR = 11
    C_LAST_CHAR = 12
    N_COLUMNS = 13


cdef class _Table:
    """Growable integer columns, one row of :data:`N_COLUMNS` values per node."""

    cdef Py_ssize_t* values
    cdef Py_ssize_t size, capacity

    def __cinit__(self):
        self.capacity = 256
        self.values = <Py_ssize_t*>malloc(self.capacity * N_COLUMNS * sizeof(Py_ssize_t))
        if self.values is NULL:
            raise MemoryError()

    def __dealloc__(self):
        free(self.values)

    cdef Py_ssize_t* add(self) except NULL:
        cdef Py_ssize_t* grown
        cdef Py_ssize_t k
        if self.size == self.capacity:
            grown = <Py_ssize_t*>realloc(
                self.values, 2 * self.capacity * N_COLUMNS * sizeof(Py_ssize_t)
            )
            if grown is NULL:
                raise MemoryError()
            self.values = grown
            self.capacity *= 2
        self.size += 1
        for k in range(N_COLUMNS):
            self.values[(self.size - 1) * N_COLUMNS + k] = 0
        return self.values + (self.size - 1) * N_COLUMNS

    cdef inline Py_ssize_t* row(self, Py_ssize_t i) noexcept nogil:
        return self.values + i * N_COLUMNS

    cdef list column(self, int k):
        cdef Py_ssize_t i
        return [self.values[i * N_COLUMNS + k] for i in range(self.size)]

    cdef list chars(self):
        """``last_char - first_char`` of every row."""
        cdef Py_ssize_t i
        return [
            self.values[i * N_COLUMNS + C_LAST_CHAR] - self.values[i * N_COLUMNS + C_FIRST_CHAR]
            for i in range(self.size)
        ]


cdef class _Walk:
    """The state of ``node_table_pure``'s loop: position, open nodes, anchors."""

    cdef _Table table
    cdef list elements
    cdef str host
    cdef _Vocabulary vocabulary
    cdef bint keep_hidden
    cdef Py_ssize_t position, in_anchor
    cdef Py_ssize_t* stack  # open node numbers, innermost last
    cdef char* anchors  # per open node: 1 for an <a href>
    cdef Py_ssize_t depth, capacity  # open nodes; room of ``stack`` and ``anchors``

    def __cinit__(self, str host, vocabulary, bint keep_hidden):
        self.table = _Table()
        self.elements = []
        self.host = host
        self.vocabulary = _Vocabulary(vocabulary) if vocabulary else None
        self.keep_hidden = keep_hidden
        self.capacity = 64
        self.stack = <Py_ssize_t*>malloc(self.capacity * sizeof(Py_ssize_t))
        self.anchors = <char*>malloc(self.capacity)
        if self.stack is NULL or self.anchors is NULL:
            raise MemoryError()

    def __dealloc__(self):
        free(self.stack)
        free(self.anchors)

    cdef int push(self, Py_ssize_t node, bint is_anchor) except -1:
        cdef Py_ssize_t* stack
        cdef char* anchors
        if self.depth == self.capacity:
            stack = <Py_ssize_t*>realloc(self.stack, 2 * self.capacity * sizeof(Py_ssize_t))
            if stack is NULL:
                raise MemoryError()
            self.stack = stack
            anchors = <char*>realloc(self.anchors, 2 * self.capacity)
            if anchors is NULL:
                raise MemoryError()
            self.anchors = anchors
            self.capacity *= 2
        self.stack[self.depth] = node
        self.anchors[self.depth] = is_anchor
        self.depth += 1
        return 0

    cdef int text(self, xmlNode* first) except -1:
        """Count the text (or tail) starting at ``first`` for the innermost open node."""
        cdef str text
        cdef Py_ssize_t length = 0, chars = 0, words = 0, title_words = 0
        cdef Py_UCS4 c
        cdef bint in_run = False, run_has_word = False
        cdef xmlNode* node = _text_node_or_skip(first)
        if self.depth == 0 or node is NULL:
            return 0
        if (
            _text_node_or_skip(node.next) is NULL
            and node.content is not NULL
            and self.ascii_counts(node.content, &length, &chars, &words, &title_words)
        ):
            return self.add_text(length, chars, words, title_words)
        text = _collect_text(first)
        if not text:
            return 0
        for c in text:
            length += 1
            if c.isspace():
                if run_has_word:
                    words += 1
                in_run = run_has_word = False
            else:
                chars += 1
                in_run = True
                if not run_has_word and _is_alnum(c):
                    run_has_word = True
        if run_has_word:
            words += 1
        if words and self.vocabulary is not None:
            title_words = self.vocabulary.count(text)
        return self.add_text(length, chars, words, title_words)

    cdef bint ascii_counts(
        self,
        const unsigned char* text,
        Py_ssize_t* length,
        Py_ssize_t* chars,
        Py_ssize_t* words,
        Py_ssize_t* title_words,
    ) except -1:
        """The counts of :meth:`text` for an all-ASCII ``text``, found on its bytes; False
        (counts left as they are) at its first other byte. Spaces are ``str.isspace``'s
        ASCII ones (9-13, 28-32), words are runs between them holding a letter or digit,
        title words lower-cased runs of letters and digits in the vocabulary."""
        cdef Py_ssize_t k = 0, n_chars = 0, n_words = 0, n_title = 0, start = -1
        cdef unsigned char c, first = 0
        cdef bint run_has_word = False, alnum
        cdef _Vocabulary vocabulary = self.vocabulary
        while True:
            c = text[k]
            if c >= 0x80:
                return False
            alnum = (48 <= c <= 57) or (65 <= c <= 90) or (97 <= c <= 122)
            if alnum:
                if start < 0:
                    start = k
                    first = c | 0x20 if 65 <= c <= 90 else c
                run_has_word = True
            else:
                if start >= 0:
                    if vocabulary is not None and vocabulary.may_hold(first, k - start):
                        n_title += vocabulary.holds_ascii(text + start, k - start)
                    start = -1
                if c == 0:
                    break
                if (9 <= c <= 13) or (28 <= c <= 32):
                    n_words += run_has_word
                    run_has_word = False
                    k += 1
                    continue
            n_chars += 1
            k += 1
        length[0] = k
        chars[0] = n_chars
        words[0] = n_words + run_has_word
        title_words[0] = n_title
        return True

    cdef int add_text(
        self, Py_ssize_t length, Py_ssize_t chars, Py_ssize_t words, Py_ssize_t title_words
    ) except -1:
        """Add a text's counts to the innermost open node and move the position on."""
        cdef Py_ssize_t* row = self.table.row(self.stack[self.depth - 1])
        row[C_HTML_BYTES] += length
        if chars == 0:
            return 0
        self.position += chars
        if words == 0:
            return 0
        row[C_WORDS] += words
        if self.in_anchor:
            row[C_ANCHOR_CHARS] += chars
            row[C_ANCHOR_WORDS] += words
        row[C_TITLE_WORDS] += title_words
        return 0

    cdef int start(self, cetree._Document doc, xmlNode* node) except -2:
        """Open ``node``: 1 when it is a node, 0 when it is skipped, -1 when not taken."""
        cdef Py_ssize_t attributes = _attribute_bytes(node), tag = _characters(node.name)
        cdef Py_ssize_t number
        cdef Py_ssize_t* row
        cdef bint is_anchor
        cdef object href
        if attributes < 0:
            return -1
        if _among(<const char*>node.name, _SKIPPED_C, _N_SKIPPED) or (
            not self.keep_hidden and _may_hide(node)
            and _is_hidden(cetree.elementFactory(doc, node))
        ):
            if self.depth:
                row = self.table.row(self.stack[self.depth - 1])
                row[C_HTML_BYTES] += _text_length(node.children) + 2 * tag + 5 + attributes
            return 0
        number = self.table.size
        row = self.table.add()
        self.elements.append(cetree.elementFactory(doc, node))
        row[C_PARENT] = self.stack[self.depth - 1] if self.depth else -1
        row[C_DEPTH] = self.depth
        is_anchor = False
        if strcmp(<const char*>node.name, b"a") == 0 and _has_attribute(node, b"href"):
            is_anchor = True
            row[C_LINKS] = 1
            href = _attribute_value(node, b"href")
            if href is False:
                href = self.elements[len(self.elements) - 1].get("href")
            row[C_INTERNAL_LINKS] = _internal(href, self.host)
        self.in_anchor += is_anchor
        row[C_IMAGES] = strcmp(<const char*>node.name, b"img") == 0
        row[C_INPUTS] = _among(<const char*>node.name, _INPUTS_C, _N_INPUTS)
        row[C_HTML_BYTES] = 2 * tag + 5 + attributes
        row[C_FIRST_CHAR] = self.position
        row[C_LAST_CHAR] = self.position
        self.push(number, is_anchor)
        return 1

    cdef int end(self) except -1:
        """Close the innermost open node and add its counts to its parent's."""
        cdef Py_ssize_t* row
        cdef Py_ssize_t* up
        cdef int k
        self.depth -= 1
        row = self.table.row(self.stack[self.depth])
        self.in_anchor -= self.anchors[self.depth]
        row[C_LAST_CHAR] = self.position
        if self.depth:
            up = self.table.row(self.stack[self.depth - 1])
            for k in range(C_WORDS, C_HTML_BYTES + 1):
                up[k] += row[k]
        return 0

    cdef tuple columns(self):
        cdef _Table t = self.table
        return (
            self.elements, t.column(C_PARENT), t.column(C_DEPTH), t.column(C_WORDS),
            t.column(C_ANCHOR_CHARS), t.column(C_ANCHOR_WORDS), t.column(C_LINKS),
            t.column(C_INTERNAL_LINKS), t.column(C_IMAGES), t.column(C_INPUTS),
            t.column(C_TITLE_WORDS), t.column(C_HTML_BYTES), t.column(C_FIRST_CHAR),
            t.column(C_LAST_CHAR), t.chars(),
        )


cdef inline xmlNode* _next_taken(xmlNode* node, bint* refused) noexcept nogil:
    """``node`` or its first following sibling that is a plain element; sets ``refused`` at
    a node the walk does not take."""
    cdef int kind
    while node is not NULL:
        kind = _kind(node)
        if kind == 1:
            return node
        if kind < 0:
            refused[0] = True
            return NULL
        node = node.next
    return NULL


def node_columns(cetree._Element body not None, str host, vocabulary, bint keep_hidden):
    """The columns of ``nodes.node_table`` in ``nodes._TWIN_COLUMNS`` order, or ``None``
    when the tree holds a node the walk does not take."""
    cdef cetree._Document doc = body._doc
    cdef xmlNode* root = body._c_node
    cdef xmlNode* node = root
    cdef xmlNode* child
    cdef bint refused = False
    cdef int opened
    cdef _Walk walk
    if not _loaded:
        _load()
    if _kind(root) != 1:
        return None
    walk = _Walk(host, vocabulary, keep_hidden)
    while True:
        opened = walk.start(doc, node)
        if opened < 0:
            return None
        if opened:
            walk.text(node.children)
            child = _next_taken(node.children, &refused)
            if refused:
                return None
            if child is not NULL:
                node = child
                continue
        while True:  # close ``node`` (it has no children left), then move on
            if opened:
                walk.end()
            if node == root:
                return walk.columns()
            walk.text(node.next)
            child = _next_taken(node.next, &refused)
            if refused:
                return None
            if child is not NULL:
                node = child
                break
            node = node.parent
            opened = 1  # a parent is always an open node: skipped ones are not entered


# -- the feature rows --------------------------------------------------------------------------

cdef inline double _min(double a, double b) noexcept nogil:
    """Python's ``min(a, b)``: ``a`` unless ``b`` is smaller."""
    return b if b < a else a


cdef inline Py_ssize_t _at_least_one(Py_ssize_t n) noexcept nogil:
    return n if n > 1 else 1


def feature_rows(table, tree, area):
    """The rows of ``node_features.node_feature_rows`` (``tree.nodes`` not empty)."""
    return _feature_values(table, tree, area, NULL, 0)


def feature_matrix(table, tree, area, Py_ssize_t width):
    """The rows of :func:`feature_rows` one after the other in one ``array('d')`` (no float
    objects); ``None`` unless ``width`` is the rows' length."""
    cdef Py_ssize_t n = len(tree.nodes)
    cdef array.array matrix
    if not _loaded:
        _load()
    if width != 22 + _N_TAG_VALUES + 2 * _N_ELEMENT_BITS or _N_ELEMENT_BITS > 64:
        return None
    matrix = array.clone(_DOUBLES, n * width, zero=False)
    _feature_values(table, tree, area, matrix.data.as_doubles, width)
    return matrix


cdef list _feature_values(table, tree, area, double* matrix, Py_ssize_t matrix_width):
    """The feature rows as lists, or written into ``matrix`` (rows of ``matrix_width``
    doubles) when it is not NULL (then the returned list is empty)."""
    cdef list nodes = tree.nodes, parents = tree.parent, weights = tree.weight
    cdef list elements = table.elements, chars_of = table.chars, words_of = table.words
    cdef list links_of = table.links, depth_of = table.depth, first_of = table.first_char
    cdef list last_of = table.last_char, anchor_chars_of = table.anchor_chars
    cdef list anchor_words_of = table.anchor_words, internal_of = table.internal_links
    cdef list html_bytes_of = table.html_bytes, title_words_of = table.title_words
    cdef list images_of = table.images, inputs_of = table.inputs
    cdef list areas = list(area)
    cdef Py_ssize_t n = len(nodes), j, i, up, k, width
    cdef Py_ssize_t chars, words, links, parent_chars, depth, max_depth = 1
    cdef Py_ssize_t page_chars = _at_least_one(chars_of[0])
    cdef Py_ssize_t title_vocabulary = _at_least_one(table.title_vocabulary)
    cdef double page_area, log_page_words, start, end, node_area, ratio
    cdef double values[21]
    cdef double* out
    cdef Py_ssize_t hot
    cdef object zero = 0.0, one = 1.0, page_words_value
    cdef uint64_t own
    cdef uint64_t* inherited
    cdef Py_ssize_t* visible_children
    cdef cetree._Element element
    cdef list rows = [], row
    cdef tuple tail, entry
    cdef object tag, tag_index
    cdef dict by_name = {}  # address of a plain element's name -> (tag, tag index, bare mask)
    cdef xmlNode* node
    cdef tuple no_values
    if not _loaded:
        _load()
    no_values = (None,) * _N_MASKED
    page_area = areas[0]
    if not page_area > 1.0:
        page_area = 1.0
    log_page_words = log1p(<double>words_of[0])
    page_words_value = log_page_words
    for j in range(n):
        depth = depth_of[nodes[j]]
        if depth > max_depth:
            max_depth = depth
    inherited = <uint64_t*>malloc(n * sizeof(uint64_t))
    visible_children = <Py_ssize_t*>malloc(n * sizeof(Py_ssize_t))
    if inherited is NULL or visible_children is NULL:
        free(inherited)
        free(visible_children)
        raise MemoryError()
    try:
        for j in range(n):
            visible_children[j] = 0
        for j in range(1, n):
            visible_children[<Py_ssize_t>parents[j]] += 1
        for j in range(n):
            i = nodes[j]
            element = elements[i]
            node = element._c_node
            if node.ns is NULL:  # the tag is the name: its facts once per name
                entry = by_name.get(<size_t>node.name)
                if entry is None:
                    tag = element.tag
                    entry = by_name[<size_t>node.name] = (
                        tag, _TAG_INDEX.get(tag, _OTHER_TAG), _mask_of(tag, no_values)
                    )
                tag, tag_index, bare = entry
                if _has_masked_attribute(node):
                    own = _element_mask(node, element, tag)
                else:
                    own = bare
            else:
                tag = element.tag
                tag_index = _TAG_INDEX.get(tag, _OTHER_TAG)
                own = _element_mask(node, element, tag)
            up = parents[j]
            inherited[j] = own | (inherited[up] if up >= 0 else 0)
            chars = chars_of[i]
            words = words_of[i]
            links = links_of[i]
            depth = depth_of[i]
            node_area = areas[i]
            parent_chars = chars_of[<Py_ssize_t>nodes[up]] if up >= 0 else chars
            start = <double>(<Py_ssize_t>first_of[i]) / <double>page_chars
            end = <double>(<Py_ssize_t>last_of[i]) / <double>page_chars
            values[0] = _min(start, 1.0 - end)
            values[1] = fabs((start + end) / 2 - 0.5)
            values[2] = <double>links / <double>_at_least_one(words)
            values[3] = <double>(<Py_ssize_t>anchor_chars_of[i]) / <double>_at_least_one(chars)
            values[4] = <double>(<Py_ssize_t>anchor_words_of[i]) / <double>_at_least_one(links)
            values[5] = <double>(<Py_ssize_t>internal_of[i]) / <double>links if links else 0.0
            values[6] = 1.0 if links else 0.0
            values[7] = <double>chars / <double>_at_least_one(html_bytes_of[i])
            ratio = <double>(<Py_ssize_t>title_words_of[i]) / <double>title_vocabulary
            values[8] = _min(1.0, ratio)
            values[9] = log1p(node_area)
            values[10] = node_area / page_area
            values[11] = <double>depth / <double>max_depth
            values[12] = log1p(<double>depth)
            values[13] = log1p(<double>words)
            values[14] = <double>chars / <double>_at_least_one(words)
            values[15] = <double>chars / <double>_at_least_one(parent_chars)
            values[16] = <double>(<Py_ssize_t>title_words_of[i]) / <double>_at_least_one(words)
            values[17] = log1p(<double>visible_children[j])
            values[18] = log(<double>weights[j])
            values[19] = log1p(<double>(<Py_ssize_t>images_of[i]))
            values[20] = log1p(<double>(<Py_ssize_t>inputs_of[i]))
            if matrix is not NULL:  # the tail of ``node_features._row_tail``, bit by bit
                out = matrix + j * matrix_width
                for k in range(21):
                    out[k] = values[k]
                out[21] = log_page_words
                out += 22
                hot = tag_index
                for k in range(_N_TAG_VALUES):
                    out[k] = 1.0 if k == hot else 0.0
                out += _N_TAG_VALUES
                for k in range(_N_ELEMENT_BITS):
                    out[k] = <double>((own >> k) & 1)
                    out[_N_ELEMENT_BITS + k] = <double>((inherited[j] >> k) & 1)
                continue
            tail = _tail_cache.get((tag_index, own, inherited[j]))
            if tail is None:
                tail = _row_tail(tag_index, own, inherited[j])
            width = 22 + len(tail)
            row = PyList_New(width)
            for k in range(21):  # the frequent 0.0 and 1.0 as shared objects
                if values[k] == 0.0 and not signbit(values[k]):
                    value = zero
                elif values[k] == 1.0:
                    value = one
                else:
                    value = values[k]
                Py_INCREF(value)
                PyList_SET_ITEM(row, k, value)
            Py_INCREF(page_words_value)  # one float object for the page's every row
            PyList_SET_ITEM(row, 21, page_words_value)
            for k in range(22, width):
                value = tail[k - 22]
                Py_INCREF(value)
                PyList_SET_ITEM(row, k, value)
            rows.append(row)
    finally:
        free(inherited)
        free(visible_children)
    return rows


# -- the structure features of blocks -----------------------------------------------------------

cdef struct _PointerMap:
    # open addressing, linear probing; keys are node addresses (0 = free slot)
    size_t* keys
    Py_ssize_t* values
    size_t mask
    Py_ssize_t used


cdef int _map_init(_PointerMap* table, Py_ssize_t expected) except -1:
    cdef size_t capacity = 64
    while capacity < <size_t>(2 * expected + 2):
        capacity <<= 1
    table.keys = <size_t*>calloc(capacity, sizeof(size_t))
    table.values = <Py_ssize_t*>malloc(capacity * sizeof(Py_ssize_t))
    if table.keys is NULL or table.values is NULL:
        _map_free(table)
        raise MemoryError()
    table.mask = capacity - 1
    table.used = 0
    return 0


cdef void _map_free(_PointerMap* table) noexcept:
    free(table.keys)
    free(table.values)
    table.keys = NULL
    table.values = NULL


cdef inline size_t _map_slot(const _PointerMap* table, size_t key) noexcept:
    cdef size_t slot = ((key >> 4) * <size_t>0x9E3779B97F4A7C15ULL) & table.mask
    while table.keys[slot] != 0 and table.keys[slot] != key:
        slot = (slot + 1) & table.mask
    return slot


cdef inline Py_ssize_t _map_get(const _PointerMap* table, size_t key) noexcept:
    """The value of ``key`` (a non-null address), or -1."""
    cdef size_t slot = _map_slot(table, key)
    return table.values[slot] if table.keys[slot] == key else -1


cdef int _map_put(_PointerMap* table, size_t key, Py_ssize_t value) except -1:
    """Set ``key`` (a non-null address, not in the table) to ``value``; grows the table."""
    cdef _PointerMap grown
    cdef size_t k
    if 2 * (table.used + 1) > <Py_ssize_t>table.mask:
        _map_init(&grown, 2 * (table.used + 1))
        for k in range(table.mask + 1):
            if table.keys[k] != 0:
                _map_put(&grown, table.keys[k], table.values[k])
        _map_free(table)
        table[0] = grown
    k = _map_slot(table, key)
    table.keys[k] = key
    table.values[k] = value
    table.used += 1
    return 0


cdef class _Ancestry:
    """The elements of a page met on the blocks' ancestor chains: their tags, and the
    distance from each to its nearest ancestor-or-self with each element bit, by libxml2
    node (a page's nodes stay put while its tree lives)."""

    cdef cetree._Document doc
    cdef list tags  # the tags met, by their index in ``tag_of``
    cdef _PointerMap tag_of  # node address -> index in ``tags``
    cdef _PointerMap by_name  # name address of a namespace-less element -> index in ``tags``
    cdef _PointerMap slots  # node address -> row of ``distance``
    cdef double* distance  # per visited element, ``_N_BITS`` distances (capped at ``_FAR``)
    cdef Py_ssize_t size, capacity
    cdef xmlNode** path  # scratch of ``nearest``: the elements not known yet, nearest first
    cdef Py_ssize_t path_capacity
    cdef list containers  # per tag index: its one-hot index among the container tags
    cdef list parents  # per tag index: its one-hot index among the parent tags

    def __cinit__(self, cetree._Document doc):
        self.doc = doc
        self.tags = []
        self.containers = []
        self.parents = []
        self.size = self.capacity = 0
        self.distance = NULL
        self.path = NULL
        self.path_capacity = 0
        _map_init(&self.tag_of, 256)
        _map_init(&self.by_name, 64)
        _map_init(&self.slots, 256)

    def __dealloc__(self):
        free(self.distance)
        free(self.path)
        _map_free(&self.tag_of)
        _map_free(&self.by_name)
        _map_free(&self.slots)

    cdef object tag(self, xmlNode* node):
        """``structure._tag`` of the element at ``node``."""
        return self.tags[self.tag_index(node)]

    cdef Py_ssize_t tag_index(self, xmlNode* node) except -1:
        """The index of the element's tag in ``tags`` (and ``containers``, ``parents``)."""
        cdef Py_ssize_t found = _map_get(&self.tag_of, <size_t>node)
        if found >= 0:
            return found
        if node.ns is NULL:
            found = _map_get(&self.by_name, <size_t>node.name)
        if found < 0:
            found = len(self.tags)
            tag = cetree.elementFactory(self.doc, node).tag
            self.tags.append(tag)
            self.containers.append(_CONTAINER_INDEX.get(tag, _N_CONTAINERS))
            self.parents.append(_PARENT_INDEX.get(tag, _N_PARENTS))
            if node.ns is NULL:
                _map_put(&self.by_name, <size_t>node.name, found)
        _map_put(&self.tag_of, <size_t>node, found)
        return found

    cdef const double* nearest(self, xmlNode* node) except NULL:
        """``structure._Tree.nearest`` of the element at ``node``: 0 for its own bits, else
        its parent's distance + 1, capped at ``_FAR`` (what walking up the tree finds)."""
        cdef xmlNode* up = node
        cdef Py_ssize_t k, slot, parent_slot = -1, found, step, length = 0
        cdef uint64_t bits
        cdef double* row
        cdef xmlNode** grown
        while up is not NULL:  # the elements up to the first one already known
            found = _map_get(&self.slots, <size_t>up)
            if found >= 0:
                parent_slot = found
                break
            if length == self.path_capacity:
                self.path_capacity = 2 * self.path_capacity if self.path_capacity else 64
                grown = <xmlNode**>realloc(self.path, self.path_capacity * sizeof(xmlNode*))
                if grown is NULL:
                    raise MemoryError()
                self.path = grown
            self.path[length] = up
            length += 1
            up = _parent_element(up)
        for step in range(length - 1, -1, -1):  # the topmost first: its parent is known
            up = self.path[step]
            bits = <uint64_t>_bits_of(up, None, self.tag(up), self.doc)
            slot = self.add()
            row = self.distance + slot * _N_BITS
            for k in range(_N_BITS):
                if bits >> k & 1:
                    row[k] = 0.0
                elif parent_slot < 0:
                    row[k] = _FAR
                else:
                    row[k] = _min(self.distance[parent_slot * _N_BITS + k] + 1.0, _FAR)
            _map_put(&self.slots, <size_t>up, slot)
            parent_slot = slot
        return self.distance + parent_slot * _N_BITS

    cdef Py_ssize_t add(self) except -1:
        cdef double* grown
        if self.size == self.capacity:
            self.capacity = 2 * self.capacity if self.capacity else 256
            grown = <double*>realloc(self.distance, self.capacity * _N_BITS * sizeof(double))
            if grown is NULL:
                raise MemoryError()
            self.distance = grown
        self.size += 1
        return self.size - 1


cdef inline xmlNode* _parent_element(xmlNode* node) noexcept nogil:
    """lxml's ``getparent()`` of an element's node: its parent when that is an element."""
    node = node.parent
    if node is NULL or node.type != XML_ELEMENT_NODE:
        return NULL
    return node


cdef tuple _SMALL_FLOATS = tuple([float(k) for k in range(128)])


cdef list _float_row(const double* values, Py_ssize_t width):
    """``values`` as a list of floats; the whole numbers 0.0 to 127.0 (distances, one-hot
    values) as shared objects."""
    cdef list row = PyList_New(width)
    cdef Py_ssize_t k, whole
    cdef double v
    for k in range(width):
        v = values[k]
        whole = <Py_ssize_t>v if 0.0 <= v < 128.0 else -1
        if whole >= 0 and <double>whole == v and not signbit(v):
            value = <object>PyTuple_GET_ITEM(_SMALL_FLOATS, whole)
        else:
            value = v
        Py_INCREF(value)
        PyList_SET_ITEM(row, k, value)
    return row


def structure_rows(list blocks, selected):
    """The rows of ``structure.structure_features_pure(blocks, selected)``, or ``None`` when a
    block's element is not an element node or there are more than 64 bits."""
    cdef Py_ssize_t n = len(blocks), b, width
    cdef double* values = NULL
    if not _loaded:
        _load()
    width = _N_CONTAINERS + _N_PARENTS + 2 + _N_BITS + 4 * _LEVELS
    try:
        values = <double*>malloc((n * width + 1) * sizeof(double))
        if values is NULL:
            raise MemoryError()
        if not _structure_fill(blocks, selected, values, width):
            return None
        return [_float_row(values + b * width, width) for b in range(n)]
    finally:
        free(values)


def structure_into(list blocks, selected, array.array out, Py_ssize_t start, Py_ssize_t stride):
    """Write the rows of ``structure.structure_features_pure(blocks, selected)`` into the
    doubles ``out``, block ``b``'s at ``start + b * stride``; False (``out`` untouched) when a
    block's element is not an element node or there are more than 64 bits."""
    cdef Py_ssize_t n = len(blocks), width
    if not _loaded:
        _load()
    width = _N_CONTAINERS + _N_PARENTS + 2 + _N_BITS + 4 * _LEVELS
    if start < 0 or stride < width or (n and start + (n - 1) * stride + width > len(out)):
        raise ValueError("the rows do not fit in the array")
    return _structure_fill(blocks, selected, out.data.as_doubles + start, stride)


cdef bint _structure_fill(list blocks, selected, double* out, Py_ssize_t stride) except -1:
    """The structure rows of ``blocks``, block ``b``'s at ``out + b * stride``; False (``out``
    untouched) when a block's element is not an element node or there are more than 64 bits."""
    cdef Py_ssize_t n = len(blocks), levels, width, start, b, k, level, size = 0, node_index
    cdef Py_ssize_t page_words = 0, page_blocks, node_words, chain_size, words, linked
    cdef Py_ssize_t* chain_of = NULL  # per block: ``levels`` node indices (-1 past the chain)
    cdef Py_ssize_t* totals = NULL  # per node: words, linked words, blocks, selected words
    cdef xmlNode** node_at = NULL
    cdef xmlNode* node
    cdef double* values
    cdef bint keep
    cdef const double* distances
    cdef _PointerMap index
    cdef _Ancestry ancestry = None
    cdef cetree._Element element
    levels = _LEVELS
    if _N_BITS > 64 or len(selected) != n:
        return False
    start = _N_CONTAINERS + _N_PARENTS + 2
    width = start + _N_BITS + 4 * levels
    _map_init(&index, n * 2)
    try:
        chain_of = <Py_ssize_t*>malloc((n * levels + 1) * sizeof(Py_ssize_t))
        totals = <Py_ssize_t*>malloc((4 * n * levels + 1) * sizeof(Py_ssize_t))
        node_at = <xmlNode**>malloc((n * levels + 1) * sizeof(xmlNode*))
        if chain_of is NULL or totals is NULL or node_at is NULL:
            raise MemoryError()
        for b in range(n):  # the chains and the subtree totals
            block = blocks[b]
            words = block.num_words
            linked = block.num_linked_words
            page_words += words
            for k in range(levels):
                chain_of[b * levels + k] = -1
            elements = block.elements
            if not elements:
                continue
            element = <cetree._Element?>elements[0]
            node = element._c_node
            if node.type != XML_ELEMENT_NODE:
                return False
            if ancestry is None:
                ancestry = _Ancestry(element._doc)
            keep = selected[b]
            k = 0
            while node is not NULL and k < levels:
                node_index = _map_get(&index, <size_t>node)
                if node_index < 0:
                    node_index = size
                    _map_put(&index, <size_t>node, size)
                    node_at[size] = node
                    totals[4 * size] = totals[4 * size + 1] = 0
                    totals[4 * size + 2] = totals[4 * size + 3] = 0
                    size += 1
                chain_of[b * levels + k] = node_index
                totals[4 * node_index] += words
                totals[4 * node_index + 1] += linked
                totals[4 * node_index + 2] += 1
                if keep:
                    totals[4 * node_index + 3] += words
                node = _parent_element(node)
                k += 1
        page_words = page_words if page_words > 1 else 1
        page_blocks = n if n > 1 else 1
        for b in range(n):
            values = out + b * stride
            for k in range(width):
                values[k] = 0.0
            if chain_of[b * levels] < 0:
                for k in range(_N_BITS):
                    values[start + k] = _FAR
                continue
            chain_size = 0
            while chain_size < levels and chain_of[b * levels + chain_size] >= 0:
                chain_size += 1
            node = node_at[chain_of[b * levels]]
            values[<Py_ssize_t>ancestry.containers[ancestry.tag_index(node)]] = 1.0
            if chain_size > 1:
                k = ancestry.tag_index(node_at[chain_of[b * levels + 1]])
                values[_N_CONTAINERS + 1 + <Py_ssize_t>ancestry.parents[k]] = 1.0
            distances = ancestry.nearest(node)
            for k in range(_N_BITS):
                values[start + k] = distances[k]
            for level in range(levels):
                node_index = chain_of[b * levels + (level if level < chain_size else chain_size - 1)]
                node_words = totals[4 * node_index]
                k = start + _N_BITS + 4 * level
                values[k] = <double>node_words / <double>page_words
                if node_words:
                    values[k + 1] = <double>totals[4 * node_index + 1] / <double>node_words
                    values[k + 2] = <double>totals[4 * node_index + 3] / <double>node_words
                values[k + 3] = <double>totals[4 * node_index + 2] / <double>page_blocks
    finally:
        _map_free(&index)
        free(chain_of)
        free(totals)
        free(node_at)
    return True


def fold_hidden(list parent, list area, double min_area):
    """``nodes.fold_hidden_pure`` of a table's ``parent`` column and its ``area`` list, as the
    ``(nodes, parent, weight, owner)`` lists of its ``VisibleTree``; None (the reference
    decides) when a parent does not come before its child."""
    cdef Py_ssize_t n = len(parent), i, up, visible = 0
    cdef Py_ssize_t* owner_of = NULL
    cdef Py_ssize_t* node_of = NULL
    cdef double* weight_of = NULL
    cdef list nodes = [], tree_parent = [], weight = [], owner = []
    if len(area) != n:
        return None
    try:
        owner_of = <Py_ssize_t*>malloc((n + 1) * sizeof(Py_ssize_t))
        node_of = <Py_ssize_t*>malloc((n + 1) * sizeof(Py_ssize_t))
        weight_of = <double*>malloc((n + 1) * sizeof(double))
        if owner_of is NULL or node_of is NULL or weight_of is NULL:
            raise MemoryError()
        for i in range(n):
            up = parent[i]
            if up >= i:
                return None
            if up < 0 or <double>area[i] >= min_area:
                owner_of[i] = visible
                node_of[visible] = i
                weight_of[visible] = 1.0
                tree_parent.append(owner_of[up] if up >= 0 else -1)
                nodes.append(i)
                visible += 1
            else:
                owner_of[i] = owner_of[up]
                if node_of[owner_of[up]] == up:  # a hidden child of a visible node
                    weight_of[owner_of[up]] += 1.0
            owner.append(owner_of[i])
        for i in range(visible):
            weight.append(weight_of[i])
        return nodes, tree_parent, weight, owner
    finally:
        free(owner_of)
        free(node_of)
        free(weight_of)


# -- areas and block owners ---------------------------------------------------------------------

def areas(list chars, list images, list inputs, double image_area, double input_area):
    """``nodes.areas_pure`` of the table's columns: ``chars + image_area·images +
    input_area·inputs`` per node, in that order of operations; ``None`` when the columns
    differ in length."""
    cdef Py_ssize_t n = len(chars), i
    if len(images) != n or len(inputs) != n:
        return None
    return [
        <double>(<Py_ssize_t>chars[i]) + image_area * <double>(<Py_ssize_t>images[i])
        + input_area * <double>(<Py_ssize_t>inputs[i])
        for i in range(n)
    ]


def block_owners(list elements, list owner, list blocks):
    """``nodes.block_owners_pure``: per block, ``owner`` of the nearest ancestor-or-self of
    its element among ``elements`` (0 without one), found by libxml2 node address."""
    cdef _PointerMap index
    cdef Py_ssize_t i, found
    cdef size_t slot
    cdef cetree._Element element
    cdef xmlNode* node
    cdef list owners = []
    _map_init(&index, len(elements))
    try:
        for i in range(len(elements)):
            element = <cetree._Element?>elements[i]
            slot = _map_slot(&index, <size_t>element._c_node)
            if index.keys[slot] == <size_t>element._c_node:  # the last of duplicates, as a dict
                index.values[slot] = i
            else:
                _map_put(&index, <size_t>element._c_node, i)
        for block in blocks:
            first = block.element
            found = -1
            if first is not None:
                element = <cetree._Element?>first
                node = element._c_node
                while node is not NULL:
                    found = _map_get(&index, <size_t>node)
                    if found >= 0:
                        break
                    node = node.parent
            owners.append(owner[found] if found >= 0 else 0)
    finally:
        _map_free(&index)
    return owners


# -- the block part of a page's feature row (features.page) ---------------------------------

cdef Py_ssize_t _LONG_BLOCK_WORDS = 0
cdef double _LINKED_BLOCK = 0.0, _LONG_BLOCK_LINKS = 0.0
cdef str _LI = "", _HEADING = ""
cdef bint _page_loaded = False


cdef _page_load():
    global _LONG_BLOCK_WORDS, _LINKED_BLOCK, _LONG_BLOCK_LINKS, _LI, _HEADING, _page_loaded
    from ..model import labels
    from . import page

    _LONG_BLOCK_WORDS, _LINKED_BLOCK = page.LONG_BLOCK_WORDS, page.LINKED_BLOCK
    _LONG_BLOCK_LINKS = page.LONG_BLOCK_LINKS
    _LI, _HEADING = labels.LI, labels.HEADING
    _page_loaded = True


cdef bint _is_cell(elements) except -1:
    """Whether the first of a block's ``elements`` has the tag ``td`` or ``th`` (read from its
    libxml2 node when it is a namespace-less element, else from its ``tag``)."""
    cdef xmlNode* node
    if not elements:
        return False
    first = elements[0]
    if isinstance(first, cetree._Element):
        node = (<cetree._Element>first)._c_node
        if node is not NULL and node.type == XML_ELEMENT_NODE and node.ns is NULL:
            return strcmp(<const char*>node.name, b"td") == 0 or strcmp(
                <const char*>node.name, b"th"
            ) == 0
    return first.tag in ("td", "th")


def page_block_features(list blocks):
    """``page.page_block_features_pure(blocks)``: the same floats (counts summed as integers,
    divided as doubles as Python's ``int / int``, ``log1p`` of the C library as ``math``'s)."""
    cdef Py_ssize_t n = len(blocks), index, words, linked, total = 0, linked_total = 0
    cdef Py_ssize_t long_words = 0, li_words = 0, cell_words = 0, heading_words = 0
    cdef Py_ssize_t linked_blocks = 0, long_blocks = 0, largest = 0, first_long = n
    cdef double density, denominator, count
    if not _page_loaded:
        _page_load()
    for index in range(n):
        block = blocks[index]
        words = block.num_words
        linked = block.num_linked_words
        total += words
        linked_total += linked
        if words > largest:
            largest = words
        density = <double>linked / <double>words if words else 0.0
        if words >= _LONG_BLOCK_WORDS and density < _LONG_BLOCK_LINKS:
            long_words += words
            long_blocks += 1
            if index < first_long:
                first_long = index
        if density >= _LINKED_BLOCK:
            linked_blocks += 1
        labels = block.labels
        if _LI in labels:
            li_words += words
        if _HEADING in labels:
            heading_words += words
        if _is_cell(block.elements):
            cell_words += words
    denominator = <double>(total if total else 1)
    count = <double>(n if n else 1)
    return [
        log1p(<double>total),
        log1p(<double>n),
        <double>linked_total / denominator,
        <double>long_words / denominator,
        <double>largest / denominator,
        <double>linked_blocks / count,
        denominator / count,
        log1p(<double>long_blocks),
        <double>li_words / denominator,
        <double>cell_words / denominator,
        <double>heading_words / denominator,
        <double>first_long / count,
    ]


# -- the thread part of a page's feature row (features.page) --------------------------------

cdef extern from "Python.h":
    bint PyUnicode_IS_ASCII(object text)
    void* PyUnicode_DATA(object text)

cdef object _CONTROL_BLOCK_WORDS = None
cdef Py_ssize_t _CONTROL_BLOCK_CHARS = 0
cdef frozenset _CONTROL_WORDS = None  # POST_CONTROL_WORDS of ASCII, or None: no short cut
cdef object _post_control_match = None
cdef bint _thread_loaded = False


cdef inline bint _ascii_word(unsigned char c) noexcept nogil:
    """Whether the ASCII character ``c`` is a word character of ``re`` (``\\w``)."""
    return (
        (c >= b'a' and c <= b'z') or (c >= b'A' and c <= b'Z') or (c >= b'0' and c <= b'9')
        or c == b'_'
    )


cdef _thread_load():
    global _CONTROL_BLOCK_WORDS, _CONTROL_BLOCK_CHARS, _CONTROL_WORDS, _post_control_match
    global _thread_loaded
    from . import page

    _CONTROL_BLOCK_WORDS, _CONTROL_BLOCK_CHARS = page.CONTROL_BLOCK_WORDS, page.CONTROL_BLOCK_CHARS
    _post_control_match = page.POST_CONTROL.match
    words = [word for word in page.POST_CONTROL_WORDS if word.isascii()]
    if all(
        word and word == word.lower() and _ascii_word(ord(word[0])) and _ascii_word(ord(word[len(word) - 1]))
        for word in words
    ):
        _CONTROL_WORDS = frozenset(words)
    else:  # the short cut's rule does not hold: every text is matched by the pattern
        _CONTROL_WORDS = None
    _thread_loaded = True


cdef bint _is_post_control(str text) except -1:
    """Whether ``POST_CONTROL`` matches ``text``. An ASCII text without a digit, ``.`` or ``,``
    (which every counter form needs) is one exactly when, stripped of non-word characters and
    lower-cased, it is one of ``POST_CONTROL_WORDS``; any other text is matched by the pattern."""
    cdef Py_ssize_t n, start, end, index
    cdef const unsigned char* data
    cdef unsigned char c
    if _CONTROL_WORDS is not None and PyUnicode_IS_ASCII(text):
        data = <const unsigned char*>PyUnicode_DATA(text)
        n = len(text)
        for index in range(n):
            c = data[index]
            if (c >= b'0' and c <= b'9') or c == b'.' or c == b',':
                break
        else:
            start, end = 0, n
            while start < end and not _ascii_word(data[start]):
                start += 1
            while end > start and not _ascii_word(data[end - 1]):
                end -= 1
            core = text[start:end]
            return core.lower() in _CONTROL_WORDS
    return _post_control_match(text) is not None


def page_thread_features(list blocks):
    """``page.page_thread_features_pure(blocks)``: the same two floats (a block whose text is
    not a ``str`` raises ``TypeError``: the caller then runs the reference)."""
    cdef Py_ssize_t n = len(blocks), index, controls = 0
    if not _thread_loaded:
        _thread_load()
    for index in range(n):
        block = blocks[index]
        if block.num_words <= _CONTROL_BLOCK_WORDS:
            text = block.text
            if type(text) is not str:
                raise TypeError("a block's text is not a str")
            text = (<str>text).strip()
            if len(text) <= _CONTROL_BLOCK_CHARS and _is_post_control(text):
                controls += 1
    return [log1p(<double>controls), <double>controls / <double>(n if n else 1)]
