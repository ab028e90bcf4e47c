# cython: language_level=3, boundscheck=False, wraparound=False, initializedcheck=False
"""Compiled twin of the canonical subtree hashes (:mod:`~scrapy_boilerplate.site.hashing`).

The pure-Python walk is the reference; :func:`hash_body` gives the same elements, hashes, sizes,
character counts, parents and signed flags (``tests/test_site_hashing_twin.py`` checks that on
hand-made trees and on every page of the shared datasets) and :func:`fingerprint` the same
bytes as ``encode_hashes(fingerprint_hashes(...))``. The walk reads libxml2 nodes through lxml's
public C API, normalises ASCII text and hrefs in C (other text goes through the reference's
:func:`~.hashing.normalise_text` and :func:`~.hashing.href_path`) and digests each element's
canonical bytes with a C BLAKE2b (64-bit digest, no key: what ``hashlib.blake2b(digest_size=8)``
gives). Element proxies are made only when :func:`hash_body` returns them.
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
from libc.stdint cimport uint64_t
from libc.string cimport memcpy, memset, strcmp, strlen
from cpython.bytes cimport PyBytes_AS_STRING, PyBytes_FromStringAndSize, PyBytes_GET_SIZE
from cpython.mem cimport PyMem_Free, PyMem_Malloc, PyMem_Realloc
from cpython.unicode cimport PyUnicode_DecodeUTF8

from ..page._libxml cimport text_node_or_skip

cetree.import_lxml__etree()

import sys

from .hashing import _SIGNAL_TAGS, _SKIPPED_TAGS, _TAG_OVERHEAD, href_path, normalise_text

# The skipped tags as C strings (``_SKIPPED_NAMES`` keeps the bytes alive).
_SKIPPED_NAMES = tuple(sorted(tag.encode() for tag in _SKIPPED_TAGS))
cdef Py_ssize_t _SKIPPED_COUNT = len(_SKIPPED_NAMES)
cdef const char** _SKIPPED = <const char**>PyMem_Malloc(_SKIPPED_COUNT * sizeof(const char*))
cdef bint[256] _SKIPPED_FIRST  # first bytes of the skipped tags
memset(_SKIPPED_FIRST, 0, sizeof(_SKIPPED_FIRST))
for _k, _name in enumerate(_SKIPPED_NAMES):
    _SKIPPED[_k] = PyBytes_AS_STRING(_name)
    _SKIPPED_FIRST[_name[0]] = True
assert _SIGNAL_TAGS == {"a", "img"} and _TAG_OVERHEAD == 5

# What normalise_text does to each non-ASCII character of the Basic Multilingual Plane:
# _FOLD[c] is 0 (kept as it is), _SPACE (whitespace) or an index into the _FOLDED tables
# (its case folding, digits as "0", in UTF-8 and in code points). _MAX_GROWTH: bytes a folded
# character takes at most per byte of the character (a space before it comes from a
# whitespace byte of the text).
cdef enum:
    _SPACE = 1
cdef unsigned short* _FOLD = <unsigned short*>PyMem_Malloc(0x10000 * sizeof(unsigned short))
cdef const unsigned char** _FOLDED_DATA
cdef Py_ssize_t* _FOLDED_SIZES
cdef Py_ssize_t* _FOLDED_POINTS
cdef Py_ssize_t _MAX_GROWTH = 1


cdef tuple _fold_tables():
    """Fill ``_FOLD`` and the folded texts (kept alive by the tuple returned)."""
    global _FOLDED_DATA, _FOLDED_SIZES, _FOLDED_POINTS, _MAX_GROWTH
    cdef Py_ssize_t point, k
    cdef str character
    cdef bytes folded
    cdef list texts = [b"", b" "]
    memset(_FOLD, 0, 0x10000 * sizeof(unsigned short))
    for point in range(0x80, 0x10000):
        if 0xD800 <= point <= 0xDFFF:
            continue
        character = chr(point)
        if character.isspace():
            _FOLD[point] = _SPACE
        elif character.casefold() != character:  # else normalise_text(character) == character
            folded = normalise_text(character).encode()
            _FOLD[point] = len(texts)
            texts.append(folded)
            _MAX_GROWTH = max(_MAX_GROWTH, -(-len(folded) // len(character.encode())))
    _FOLDED_DATA = <const unsigned char**>PyMem_Malloc(len(texts) * sizeof(const unsigned char*))
    _FOLDED_SIZES = <Py_ssize_t*>PyMem_Malloc(len(texts) * sizeof(Py_ssize_t))
    _FOLDED_POINTS = <Py_ssize_t*>PyMem_Malloc(len(texts) * sizeof(Py_ssize_t))
    for k in range(len(texts)):
        folded = texts[k]
        _FOLDED_DATA[k] = <const unsigned char*>PyBytes_AS_STRING(folded)
        _FOLDED_SIZES[k] = len(folded)
        _FOLDED_POINTS[k] = len(folded.decode())
    return tuple(texts)


_FOLDED_TEXTS = _fold_tables()

# -- BLAKE2b, 8-byte digest, no key (RFC 7693) ----------------------------------------------

cdef uint64_t[8] _IV
_IV[:] = [
    0x6A09E667F3BCC908, 0xBB67AE8584CAA73B, 0x3C6EF372FE94F82B, 0xA54FF53A5F1D36F1,
    0x510E527FADE682D1, 0x9B05688C2B3E6C1F, 0x1F83D9ABFB41BD6B, 0x5BE0CD19137E2179,
]
cdef inline uint64_t _rotr(uint64_t x, int n) noexcept nogil:
    return (x >> n) | (x << (64 - n))


cdef inline void _mix(
    uint64_t* a, uint64_t* b, uint64_t* c, uint64_t* d, uint64_t x, uint64_t y
) noexcept nogil:
    a[0] = a[0] + b[0] + x
    d[0] = _rotr(d[0] ^ a[0], 32)
    c[0] = c[0] + d[0]
    b[0] = _rotr(b[0] ^ c[0], 24)
    a[0] = a[0] + b[0] + y
    d[0] = _rotr(d[0] ^ a[0], 16)
    c[0] = c[0] + d[0]
    b[0] = _rotr(b[0] ^ c[0], 63)


cdef bint _LITTLE_ENDIAN = sys.byteorder == "little"


cdef void _compress(uint64_t* h, const unsigned char* block, uint64_t counter, bint last) noexcept nogil:
    # the state in sixteen locals (registers), not an array: most of the hashing time is here
    cdef uint64_t v0, v1, v2, v3, v4, v5, v6, v7, v8, v9, v10, v11, v12, v13, v14, v15
    cdef uint64_t[16] m
    cdef int i, j
    if _LITTLE_ENDIAN:
        memcpy(m, block, 128)
    else:
        for i in range(16):
            m[i] = 0
            for j in range(8):
                m[i] |= (<uint64_t>block[8 * i + j]) << (8 * j)
    v0, v1, v2, v3, v4, v5, v6, v7 = h[0], h[1], h[2], h[3], h[4], h[5], h[6], h[7]
    v8, v9, v10, v11 = _IV[0], _IV[1], _IV[2], _IV[3]
    v12, v13, v14, v15 = _IV[4] ^ counter, _IV[5], _IV[6], _IV[7]
    if last:
        v14 = ~v14
    # twelve rounds written out (the message schedule of RFC 7693's SIGMA, as constants)
    _mix(&v0, &v4, &v8, &v12, m[0], m[1])
    _mix(&v1, &v5, &v9, &v13, m[2], m[3])
    _mix(&v2, &v6, &v10, &v14, m[4], m[5])
    _mix(&v3, &v7, &v11, &v15, m[6], m[7])
    _mix(&v0, &v5, &v10, &v15, m[8], m[9])
    _mix(&v1, &v6, &v11, &v12, m[10], m[11])
    _mix(&v2, &v7, &v8, &v13, m[12], m[13])
    _mix(&v3, &v4, &v9, &v14, m[14], m[15])
    _mix(&v0, &v4, &v8, &v12, m[14], m[10])
    _mix(&v1, &v5, &v9, &v13, m[4], m[8])
    _mix(&v2, &v6, &v10, &v14, m[9], m[15])
    _mix(&v3, &v7, &v11, &v15, m[13], m[6])
    _mix(&v0, &v5, &v10, &v15, m[1], m[12])
    _mix(&v1, &v6, &v11, &v12, m[0], m[2])
    _mix(&v2, &v7, &v8, &v13, m[11], m[7])
    _mix(&v3, &v4, &v9, &v14, m[5], m[3])
    _mix(&v0, &v4, &v8, &v12, m[11], m[8])
    _mix(&v1, &v5, &v9, &v13, m[12], m[0])
    _mix(&v2, &v6, &v10, &v14, m[5], m[2])
    _mix(&v3, &v7, &v11, &v15, m[15], m[13])
    _mix(&v0, &v5, &v10, &v15, m[10], m[14])
    _mix(&v1, &v6, &v11, &v12, m[3], m[6])
    _mix(&v2, &v7, &v8, &v13, m[7], m[1])
    _mix(&v3, &v4, &v9, &v14, m[9], m[4])
    _mix(&v0, &v4, &v8, &v12, m[7], m[9])
    _mix(&v1, &v5, &v9, &v13, m[3], m[1])
    _mix(&v2, &v6, &v10, &v14, m[13], m[12])
    _mix(&v3, &v7, &v11, &v15, m[11], m[14])
    _mix(&v0, &v5, &v10, &v15, m[2], m[6])
    _mix(&v1, &v6, &v11, &v12, m[5], m[10])
    _mix(&v2, &v7, &v8, &v13, m[4], m[0])
    _mix(&v3, &v4, &v9, &v14, m[15], m[8])
    _mix(&v0, &v4, &v8, &v12, m[9], m[0])
    _mix(&v1, &v5, &v9, &v13, m[5], m[7])
    _mix(&v2, &v6, &v10, &v14, m[2], m[4])
    _mix(&v3, &v7, &v11, &v15, m[10], m[15])
    _mix(&v0, &v5, &v10, &v15, m[14], m[1])
    _mix(&v1, &v6, &v11, &v12, m[11], m[12])
    _mix(&v2, &v7, &v8, &v13, m[6], m[8])
    _mix(&v3, &v4, &v9, &v14, m[3], m[13])
    _mix(&v0, &v4, &v8, &v12, m[2], m[12])
    _mix(&v1, &v5, &v9, &v13, m[6], m[10])
    _mix(&v2, &v6, &v10, &v14, m[0], m[11])
    _mix(&v3, &v7, &v11, &v15, m[8], m[3])
    _mix(&v0, &v5, &v10, &v15, m[4], m[13])
    _mix(&v1, &v6, &v11, &v12, m[7], m[5])
    _mix(&v2, &v7, &v8, &v13, m[15], m[14])
    _mix(&v3, &v4, &v9, &v14, m[1], m[9])
    _mix(&v0, &v4, &v8, &v12, m[12], m[5])
    _mix(&v1, &v5, &v9, &v13, m[1], m[15])
    _mix(&v2, &v6, &v10, &v14, m[14], m[13])
    _mix(&v3, &v7, &v11, &v15, m[4], m[10])
    _mix(&v0, &v5, &v10, &v15, m[0], m[7])
    _mix(&v1, &v6, &v11, &v12, m[6], m[3])
    _mix(&v2, &v7, &v8, &v13, m[9], m[2])
    _mix(&v3, &v4, &v9, &v14, m[8], m[11])
    _mix(&v0, &v4, &v8, &v12, m[13], m[11])
    _mix(&v1, &v5, &v9, &v13, m[7], m[14])
    _mix(&v2, &v6, &v10, &v14, m[12], m[1])
    _mix(&v3, &v7, &v11, &v15, m[3], m[9])
    _mix(&v0, &v5, &v10, &v15, m[5], m[0])
    _mix(&v1, &v6, &v11, &v12, m[15], m[4])
    _mix(&v2, &v7, &v8, &v13, m[8], m[6])
    _mix(&v3, &v4, &v9, &v14, m[2], m[10])
    _mix(&v0, &v4, &v8, &v12, m[6], m[15])
    _mix(&v1, &v5, &v9, &v13, m[14], m[9])
    _mix(&v2, &v6, &v10, &v14, m[11], m[3])
    _mix(&v3, &v7, &v11, &v15, m[0], m[8])
    _mix(&v0, &v5, &v10, &v15, m[12], m[2])
    _mix(&v1, &v6, &v11, &v12, m[13], m[7])
    _mix(&v2, &v7, &v8, &v13, m[1], m[4])
    _mix(&v3, &v4, &v9, &v14, m[10], m[5])
    _mix(&v0, &v4, &v8, &v12, m[10], m[2])
    _mix(&v1, &v5, &v9, &v13, m[8], m[4])
    _mix(&v2, &v6, &v10, &v14, m[7], m[6])
    _mix(&v3, &v7, &v11, &v15, m[1], m[5])
    _mix(&v0, &v5, &v10, &v15, m[15], m[11])
    _mix(&v1, &v6, &v11, &v12, m[9], m[14])
    _mix(&v2, &v7, &v8, &v13, m[3], m[12])
    _mix(&v3, &v4, &v9, &v14, m[13], m[0])
    _mix(&v0, &v4, &v8, &v12, m[0], m[1])
    _mix(&v1, &v5, &v9, &v13, m[2], m[3])
    _mix(&v2, &v6, &v10, &v14, m[4], m[5])
    _mix(&v3, &v7, &v11, &v15, m[6], m[7])
    _mix(&v0, &v5, &v10, &v15, m[8], m[9])
    _mix(&v1, &v6, &v11, &v12, m[10], m[11])
    _mix(&v2, &v7, &v8, &v13, m[12], m[13])
    _mix(&v3, &v4, &v9, &v14, m[14], m[15])
    _mix(&v0, &v4, &v8, &v12, m[14], m[10])
    _mix(&v1, &v5, &v9, &v13, m[4], m[8])
    _mix(&v2, &v6, &v10, &v14, m[9], m[15])
    _mix(&v3, &v7, &v11, &v15, m[13], m[6])
    _mix(&v0, &v5, &v10, &v15, m[1], m[12])
    _mix(&v1, &v6, &v11, &v12, m[0], m[2])
    _mix(&v2, &v7, &v8, &v13, m[11], m[7])
    _mix(&v3, &v4, &v9, &v14, m[5], m[3])
    h[0] ^= v0 ^ v8
    h[1] ^= v1 ^ v9
    h[2] ^= v2 ^ v10
    h[3] ^= v3 ^ v11
    h[4] ^= v4 ^ v12
    h[5] ^= v5 ^ v13
    h[6] ^= v6 ^ v14
    h[7] ^= v7 ^ v15


cdef uint64_t _blake2b_64(const unsigned char* data, Py_ssize_t size) noexcept nogil:
    """The first 8 bytes of BLAKE2b-64(data), read little-endian (byte 0 lowest)."""
    cdef uint64_t[8] h
    cdef unsigned char[128] block
    cdef Py_ssize_t done = 0
    cdef int i
    for i in range(8):
        h[i] = _IV[i]
    h[0] ^= 0x01010000 ^ 8  # digest length 8, no key, fanout and depth 1
    while size - done > 128:
        _compress(h, data + done, done + 128, False)
        done += 128
    memset(block, 0, 128)
    memcpy(block, data + done, size - done)
    _compress(h, block, size, True)
    return h[0]


def blake2b_64(bytes data):
    """``int(hashlib.blake2b(data, digest_size=8).hexdigest(), 16)`` (for the tests)."""
    return _hash_value(_blake2b_64(<const unsigned char*>PyBytes_AS_STRING(data), len(data)))


cdef inline uint64_t _hash_value(uint64_t digest) noexcept nogil:
    """The digest's bytes read big-endian: ``int(hexdigest, 16)``."""
    cdef uint64_t value = 0
    cdef int i
    for i in range(8):
        value = (value << 8) | ((digest >> (8 * i)) & 0xFF)
    return value


# -- a growing byte buffer ------------------------------------------------------------------

cdef struct Buffer:
    unsigned char* data
    Py_ssize_t size
    Py_ssize_t capacity


cdef int _reserve(Buffer* buffer, Py_ssize_t extra) except -1:
    cdef Py_ssize_t capacity
    cdef unsigned char* data
    if buffer.size + extra <= buffer.capacity:
        return 0
    capacity = max(2 * buffer.capacity, buffer.size + extra, 4096)
    data = <unsigned char*>PyMem_Realloc(buffer.data, capacity)
    if data is NULL:
        raise MemoryError()
    buffer.data, buffer.capacity = data, capacity
    return 0


cdef int _put(Buffer* buffer, const unsigned char* data, Py_ssize_t size) except -1:
    _reserve(buffer, size)
    memcpy(buffer.data + buffer.size, data, size)
    buffer.size += size
    return 0


cdef int _put_byte(Buffer* buffer, unsigned char byte) except -1:
    _reserve(buffer, 1)
    buffer.data[buffer.size] = byte
    buffer.size += 1
    return 0


cdef int _put_str(Buffer* buffer, str text) except -1:
    cdef bytes encoded = text.encode("utf-8", "surrogatepass")
    return _put(buffer, <const unsigned char*>PyBytes_AS_STRING(encoded), len(encoded))


cdef int _put_hex(Buffer* buffer, uint64_t digest) except -1:
    """The digest's bytes (little-endian) as lower-case hex: ``hexdigest()``."""
    cdef const char* digits = b"0123456789abcdef"
    cdef int i
    cdef unsigned char byte
    _reserve(buffer, 16)
    for i in range(8):
        byte = (digest >> (8 * i)) & 0xFF
        buffer.data[buffer.size + 2 * i] = digits[byte >> 4]
        buffer.data[buffer.size + 2 * i + 1] = digits[byte & 0xF]
    buffer.size += 16
    return 0


# -- text: lxml's .text / .tail, normalised --------------------------------------------------

cdef inline bint _is_space(unsigned char byte) noexcept nogil:
    """ASCII whitespace of ``str.split()`` and of ``re``'s ``\\s``."""
    return byte == 32 or 9 <= byte <= 13 or 28 <= byte <= 31


cdef inline unsigned char _folded(unsigned char byte) noexcept nogil:
    """Case folded, digits as ``0`` (ASCII)."""
    if 65 <= byte <= 90:
        return byte + 32
    if 49 <= byte <= 57:
        return 48
    return byte


cdef inline Py_ssize_t _code_points(const unsigned char* text) noexcept nogil:
    """UTF-8 code points of a NUL-terminated string."""
    cdef Py_ssize_t count = 0, k = 0
    while text[k] != 0:
        if text[k] & 0xC0 != 0x80:
            count += 1
        k += 1
    return count


cdef inline bint _is_ascii(const unsigned char* text) noexcept nogil:
    cdef Py_ssize_t k = 0
    while text[k] != 0:
        if text[k] >= 0x80:
            return False
        k += 1
    return True


cdef struct TextSpan:
    Py_ssize_t raw  # code points of the text as lxml gives it (0: none)
    Py_ssize_t normalised  # code points of the normalised text


cdef TextSpan _put_text(Buffer* buffer, xmlNode* node, unsigned char marker) except *:
    """lxml's ``_collectText`` from ``node`` (consecutive text nodes), normalised as
    :func:`~.hashing.normalise_text`, written as ``"\\x00" + text`` (``marker`` 0: an
    element's own text, always written) or ``"\\x00" + marker + text`` (a tail: written only
    when the normalised text is not empty)."""
    cdef TextSpan span
    cdef xmlNode* first = text_node_or_skip(node)
    cdef xmlNode* current
    cdef Py_ssize_t start = buffer.size
    span.raw = 0
    _put_marker(buffer, marker)
    span.normalised = _put_normalised(buffer, first, &span.raw)
    if span.normalised < 0:  # a character the tables do not cover
        buffer.size = start
        span.raw = 0
        current = first
        while current is not NULL:
            if current.content is not NULL:
                span.raw += _code_points(current.content)
            current = text_node_or_skip(current.next)
        return _put_python_text(buffer, first, marker, span.raw)
    if span.normalised == 0 and marker != 0:
        buffer.size = start
    return span


cdef Py_ssize_t _put_normalised(Buffer* buffer, xmlNode* current, Py_ssize_t* raw) except -2:
    """The text of ``current`` and the text nodes after it, whitespace runs as one space (none
    at the ends), case folded, digits as ``0``; its code points (those of the text as it is
    added to ``raw``), or -1 for a character outside the Basic Multilingual Plane or bytes that
    are not UTF-8 (nothing is undone then)."""
    cdef Py_ssize_t written = 0, k, width, size, seen = 0
    cdef bint pending = False
    cdef const unsigned char* text
    cdef unsigned char* out
    cdef long point
    cdef unsigned short fold
    while current is not NULL:
        text = current.content
        if text is NULL:
            current = text_node_or_skip(current.next)
            continue
        size = strlen(<const char*>text)
        _reserve(buffer, _MAX_GROWTH * size + 1)  # a pending space, then the folded text
        out = buffer.data + buffer.size
        k = 0
        while k < size:
            seen += 1
            if text[k] < 0x80:
                width = 1
                fold = 0
                if _is_space(text[k]):
                    pending = written > 0
                    k += 1
                    continue
            else:
                point = _decoded(text + k, &width)
                if point < 0:
                    return -1
                fold = _FOLD[point]
                if fold == _SPACE:
                    pending = written > 0
                    k += width
                    continue
            if pending:
                out[0] = 32
                out += 1
                written += 1
                pending = False
            if width == 1:
                out[0] = _folded(text[k])
                out += 1
                written += 1
            elif fold == 0:
                memcpy(out, text + k, width)
                out += width
                written += 1
            else:
                memcpy(out, _FOLDED_DATA[fold], _FOLDED_SIZES[fold])
                out += _FOLDED_SIZES[fold]
                written += _FOLDED_POINTS[fold]
            k += width
        buffer.size = out - buffer.data
        current = text_node_or_skip(current.next)
    raw[0] += seen
    return written


cdef inline long _decoded(const unsigned char* text, Py_ssize_t* width) noexcept nogil:
    """The code point of the 2- or 3-byte UTF-8 sequence at ``text`` (its length in
    ``width``), or -1 (4 bytes, or not UTF-8)."""
    cdef long point
    if 0xC2 <= text[0] <= 0xDF:
        if text[1] & 0xC0 != 0x80:
            return -1
        width[0] = 2
        return ((text[0] & 0x1F) << 6) | (text[1] & 0x3F)
    if 0xE0 <= text[0] <= 0xEF:
        if text[1] & 0xC0 != 0x80 or text[2] & 0xC0 != 0x80:
            return -1
        point = ((text[0] & 0x0F) << 12) | ((text[1] & 0x3F) << 6) | (text[2] & 0x3F)
        if point < 0x800 or 0xD800 <= point <= 0xDFFF:
            return -1
        width[0] = 3
        return point
    return -1


cdef int _put_marker(Buffer* buffer, unsigned char marker) except -1:
    _put_byte(buffer, 0)
    if marker != 0:
        _put_byte(buffer, marker)
    return 0


cdef TextSpan _put_python_text(
    Buffer* buffer, xmlNode* first, unsigned char marker, Py_ssize_t raw
) except *:
    """:func:`_put_text` of a text that is not all ASCII, by the reference's function."""
    cdef TextSpan span
    cdef list pieces = []
    cdef xmlNode* current = first
    while current is not NULL:
        if current.content is not NULL:
            pieces.append(_text(current.content))
        current = text_node_or_skip(current.next)
    normalised = normalise_text("".join(pieces))
    span.raw = raw
    span.normalised = len(normalised)
    if span.normalised or marker == 0:
        _put_marker(buffer, marker)
        _put_str(buffer, normalised)
    return span


cdef inline str _text(const unsigned char* text):
    return PyUnicode_DecodeUTF8(<const char*>text, strlen(<const char*>text), NULL)


cdef int _put_href(Buffer* buffer, const unsigned char* href) except -1:
    """``"\\x00\\x01" + href_path(href)``."""
    cdef Py_ssize_t start = 0, end, k, stop
    _put(buffer, b"\x00\x01", 2)
    if not _is_ascii(href):
        return _put_str(buffer, href_path(_text(href)))
    while _is_space(href[start]):
        start += 1
    k = start
    if _is_letter(href[k]):  # scheme ":"
        k += 1
        while _is_letter(href[k]) or 48 <= href[k] <= 57 or href[k] in (43, 45, 46):
            k += 1
        if href[k] == 58:
            start = k + 1
    if href[start] == 47 and href[start + 1] == 47:  # "//" authority
        start += 2
        while href[start] != 0 and href[start] not in (35, 47, 63):
            start += 1
    end = start
    while href[end] != 0 and href[end] not in (35, 63):
        end += 1
    while start < end and _is_space(href[start]):
        start += 1
    while end > start and _is_space(href[end - 1]):
        end -= 1
    _reserve(buffer, end - start)
    for k in range(start, end):
        stop = href[k]
        buffer.data[buffer.size] = 48 if 49 <= stop <= 57 else stop
        buffer.size += 1
    return 0


cdef inline bint _is_letter(unsigned char byte) noexcept nogil:
    return 65 <= byte <= 90 or 97 <= byte <= 122


# -- the walk --------------------------------------------------------------------------------

cdef inline bint _is_child(xmlNode* node) noexcept nogil:
    """Whether lxml iterates ``node`` as a child (``_isElement``)."""
    return (
        node.type == XML_ELEMENT_NODE
        or node.type == XML_COMMENT_NODE
        or node.type == XML_ENTITY_REF_NODE
        or node.type == XML_PI_NODE
    )


cdef inline bint _plain(xmlNode* node) noexcept nogil:
    """Whether the element's tag has no namespace (lxml's ``.tag`` is its name)."""
    return node.ns is NULL or node.ns.href is NULL


cdef inline bint _is_skipped(xmlNode* node) noexcept nogil:
    cdef Py_ssize_t k
    if not _plain(node) or not _SKIPPED_FIRST[node.name[0]]:
        return False
    for k in range(_SKIPPED_COUNT):
        if strcmp(<const char*>node.name, _SKIPPED[k]) == 0:
            return True
    return False


cdef inline bint _named(xmlNode* node, const char* name) noexcept nogil:
    return _plain(node) and strcmp(<const char*>node.name, name) == 0


cdef inline xmlNode* _next_child(xmlNode* node) noexcept nogil:
    while node is not NULL and not _is_child(node):
        node = node.next
    return node


cdef struct Frame:
    xmlNode* node
    xmlNode* cursor  # the next child to look at
    Py_ssize_t index
    Py_ssize_t start  # where its canonical bytes begin in the buffer
    Py_ssize_t size
    Py_ssize_t chars
    bint is_signed


cdef struct Walk:
    void* document  # the _Document of the body (borrowed: the body holds it)
    Buffer buffer
    Frame* frames
    Py_ssize_t depth
    Py_ssize_t frame_capacity
    xmlNode** nodes
    uint64_t* hashes
    Py_ssize_t* sizes
    Py_ssize_t* chars
    Py_ssize_t* parents
    unsigned char* is_signed
    Py_ssize_t count
    Py_ssize_t capacity


cdef void _free(Walk* walk) noexcept:
    PyMem_Free(walk.buffer.data)
    PyMem_Free(walk.frames)
    PyMem_Free(walk.nodes)
    PyMem_Free(walk.hashes)
    PyMem_Free(walk.sizes)
    PyMem_Free(walk.chars)
    PyMem_Free(walk.parents)
    PyMem_Free(walk.is_signed)


cdef int _grow(Walk* walk) except -1:
    """Room for one more element and one more frame."""
    cdef Py_ssize_t capacity
    if walk.count == walk.capacity:
        capacity = max(2 * walk.capacity, 256)
        walk.nodes = <xmlNode**>_resized(walk.nodes, capacity * sizeof(xmlNode*))
        walk.hashes = <uint64_t*>_resized(walk.hashes, capacity * sizeof(uint64_t))
        walk.sizes = <Py_ssize_t*>_resized(walk.sizes, capacity * sizeof(Py_ssize_t))
        walk.chars = <Py_ssize_t*>_resized(walk.chars, capacity * sizeof(Py_ssize_t))
        walk.parents = <Py_ssize_t*>_resized(walk.parents, capacity * sizeof(Py_ssize_t))
        walk.is_signed = <unsigned char*>_resized(walk.is_signed, capacity)
        walk.capacity = capacity
    if walk.depth == walk.frame_capacity:
        capacity = max(2 * walk.frame_capacity, 64)
        walk.frames = <Frame*>_resized(walk.frames, capacity * sizeof(Frame))
        walk.frame_capacity = capacity
    return 0


cdef void* _resized(void* data, size_t size) except NULL:
    cdef void* resized = PyMem_Realloc(data, size)
    if resized is NULL:
        raise MemoryError()
    return resized


cdef int _put_href_of(Walk* walk, xmlNode* node) except -1:
    """The ``href`` of an ``<a>`` (lxml's ``.get("href")``), if it has one, by
    :func:`_put_href`: read from its one text node, else through an element proxy."""
    cdef xmlAttr* attribute = node.properties
    cdef xmlNode* value
    while attribute is not NULL:
        if attribute.ns is NULL and strcmp(<const char*>attribute.name, b"href") == 0:
            break
        attribute = attribute.next
    if attribute is NULL:
        return 0
    value = attribute.children
    if value is NULL:
        return _put_href(&walk.buffer, <const unsigned char*>b"")
    if value.next is NULL and value.type == XML_TEXT_NODE and value.content is not NULL:
        return _put_href(&walk.buffer, value.content)
    href = cetree.elementFactory(<cetree._Document>walk.document, node).get("href")
    _put(&walk.buffer, b"\x00\x01", 2)
    return _put_str(&walk.buffer, href_path(href))


cdef int _enter(Walk* walk, xmlNode* node, Py_ssize_t parent) except -1:
    """Start an element: its tag, text and href in the buffer, a frame on the stack."""
    cdef Frame* frame
    cdef Buffer* buffer = &walk.buffer
    cdef Py_ssize_t tag_chars
    cdef TextSpan text
    _grow(walk)
    frame = &walk.frames[walk.depth]
    walk.depth += 1
    frame.node = node
    frame.index = walk.count
    walk.nodes[walk.count] = node
    walk.parents[walk.count] = parent
    walk.count += 1
    frame.start = buffer.size
    if _plain(node):
        _put(buffer, node.name, strlen(<const char*>node.name))
        tag_chars = _code_points(node.name)
    else:  # lxml's "{namespace}name"
        _put_byte(buffer, 123)
        _put(buffer, node.ns.href, strlen(<const char*>node.ns.href))
        _put_byte(buffer, 125)
        _put(buffer, node.name, strlen(<const char*>node.name))
        tag_chars = _code_points(node.ns.href) + _code_points(node.name) + 2
    text = _put_text(buffer, node.children, 0)
    frame.size = 2 * tag_chars + 5 + text.raw
    frame.chars = text.normalised
    frame.is_signed = text.normalised > 0 or _named(node, b"a") or _named(node, b"img")
    if _named(node, b"a"):
        _put_href_of(walk, node)
    frame.cursor = _next_child(node.children)
    return 0


cdef int _put_tail(Walk* walk, Frame* frame, xmlNode* child) except -1:
    """The tail of ``child`` into its parent's frame."""
    cdef TextSpan tail = _put_text(&walk.buffer, child.next, 2)
    frame.size += tail.raw
    frame.chars += tail.normalised
    frame.is_signed = frame.is_signed or tail.normalised > 0
    return 0


cdef int _leave(Walk* walk) except -1:
    """Finish the top element: its digest, and its share of its parent."""
    cdef Frame* frame = &walk.frames[walk.depth - 1]
    cdef Frame* parent
    cdef Buffer* buffer = &walk.buffer
    cdef uint64_t digest = _blake2b_64(buffer.data + frame.start, buffer.size - frame.start)
    cdef Py_ssize_t index = frame.index
    walk.hashes[index] = _hash_value(digest)
    walk.sizes[index] = frame.size
    walk.chars[index] = frame.chars
    walk.is_signed[index] = frame.is_signed
    buffer.size = frame.start
    walk.depth -= 1
    if walk.depth == 0:
        return 0
    parent = &walk.frames[walk.depth - 1]
    _put_byte(buffer, 0)
    _put_hex(buffer, digest)
    parent.size += walk.sizes[index]
    parent.chars += walk.chars[index]
    parent.is_signed = parent.is_signed or walk.is_signed[index]
    _put_tail(walk, parent, walk.nodes[index])
    return 0


cdef int _walk(Walk* walk, xmlNode* body) except -1:
    cdef Frame* frame
    cdef xmlNode* child
    _enter(walk, body, -1)
    while walk.depth:
        frame = &walk.frames[walk.depth - 1]
        child = frame.cursor
        if child is NULL:
            _leave(walk)
            continue
        frame.cursor = _next_child(child.next)
        if child.type == XML_ELEMENT_NODE and not _is_skipped(child):
            _enter(walk, child, frame.index)
        else:
            _put_tail(walk, frame, child)
    return 0


cdef int _walked(Walk* walk, object body) except -1:
    cdef cetree._Element element = <cetree._Element?>body
    walk.document = <void*>element._doc
    _walk(walk, element._c_node)
    return 0


def hash_body(body):
    """``(elements, hashes, sizes, chars, parents, signed)`` of the elements under ``body``
    (itself first), as the reference's ``TreeHashes`` holds them."""
    cdef Walk walk
    cdef Py_ssize_t k
    cdef cetree._Element element = <cetree._Element?>body
    memset(&walk, 0, sizeof(Walk))
    try:
        _walked(&walk, body)
        elements = [cetree.elementFactory(element._doc, walk.nodes[k]) for k in range(walk.count)]
        hashes = [walk.hashes[k] for k in range(walk.count)]
        sizes = [walk.sizes[k] for k in range(walk.count)]
        chars = [walk.chars[k] for k in range(walk.count)]
        parents = [walk.parents[k] for k in range(walk.count)]
        signed = [bool(walk.is_signed[k]) for k in range(walk.count)]
    finally:
        _free(&walk)
    return elements, hashes, sizes, chars, parents, signed


def fingerprint(body, Py_ssize_t limit):
    """The distinct hashes of the signed elements under ``body`` in document order, at most
    ``limit``, 8 bytes each little-endian: ``encode_hashes(fingerprint_hashes(...))``."""
    cdef Walk walk
    memset(&walk, 0, sizeof(Walk))
    try:
        _walked(&walk, body)
        return _distinct_signed(&walk, limit)
    finally:
        _free(&walk)


cdef bytes _distinct_signed(Walk* walk, Py_ssize_t limit):
    cdef Py_ssize_t slots = 16, k, slot, kept = 0
    cdef uint64_t digest
    cdef uint64_t* table
    cdef unsigned char* used
    cdef bytearray out = bytearray(8 * min(walk.count, limit))
    cdef unsigned char* data = out
    cdef int i
    while slots < 2 * walk.count:
        slots *= 2
    table = <uint64_t*>PyMem_Malloc(slots * sizeof(uint64_t))
    used = <unsigned char*>PyMem_Malloc(slots)
    if table is NULL or used is NULL:
        PyMem_Free(table)
        PyMem_Free(used)
        raise MemoryError()
    memset(used, 0, slots)
    try:
        for k in range(walk.count):
            if kept == limit:
                break
            if not walk.is_signed[k]:
                continue
            digest = walk.hashes[k]
            slot = (digest ^ (digest >> 29)) & (slots - 1)
            while used[slot] and table[slot] != digest:
                slot = (slot + 1) & (slots - 1)
            if used[slot]:
                continue
            used[slot] = 1
            table[slot] = digest
            for i in range(8):
                data[8 * kept + i] = (digest >> (8 * i)) & 0xFF
            kept += 1
    finally:
        PyMem_Free(table)
        PyMem_Free(used)
    return bytes(out[: 8 * kept])


def fingerprint_of(list hashes, list signed, Py_ssize_t limit):
    """``encode_hashes(fingerprint_hashes(tree))`` from a tree's ``hashes`` and ``signed``."""
    cdef Walk walk
    cdef Py_ssize_t k, count = len(hashes)
    if len(signed) != count:
        raise ValueError("hashes and signed differ in length")
    memset(&walk, 0, sizeof(Walk))
    try:
        walk.hashes = <uint64_t*>_resized(NULL, max(count, 1) * sizeof(uint64_t))
        walk.is_signed = <unsigned char*>_resized(NULL, max(count, 1))
        for k in range(count):
            walk.hashes[k] = hashes[k]
            walk.is_signed[k] = bool(signed[k])
        walk.count = count
        return _distinct_signed(&walk, limit)
    finally:
        _free(&walk)


def mark_inside(
    list hashes, list sizes, list chars, list parents, list signed, templates, double cover,
    text_cover,
):
    """``(by_hash, by_cover, inside)`` of ``sitelevel.mark_templates`` for a tree's lists."""
    cdef Walk walk
    cdef Py_ssize_t count = len(hashes), k
    cdef unsigned char* flags = NULL  # bit 1: by hash, 2: by cover, 4: inside
    if not len(sizes) == len(chars) == len(parents) == len(signed) == count:
        raise ValueError("the tree's lists differ in length")
    memset(&walk, 0, sizeof(Walk))
    try:
        walk.hashes = <uint64_t*>_resized(NULL, max(count, 1) * sizeof(uint64_t))
        walk.sizes = <Py_ssize_t*>_resized(NULL, max(count, 1) * sizeof(Py_ssize_t))
        walk.chars = <Py_ssize_t*>_resized(NULL, max(count, 1) * sizeof(Py_ssize_t))
        walk.parents = <Py_ssize_t*>_resized(NULL, max(count, 1) * sizeof(Py_ssize_t))
        walk.is_signed = <unsigned char*>_resized(NULL, max(count, 1))
        for k in range(count):
            walk.hashes[k] = hashes[k]
            walk.sizes[k] = sizes[k]
            walk.chars[k] = chars[k]
            walk.parents[k] = parents[k]
            walk.is_signed[k] = bool(signed[k])
        walk.count = count
        flags = _template_flags(&walk, templates, cover, text_cover)
        by_hash = [bool(flags[k] & 1) for k in range(count)]
        by_cover = [bool(flags[k] & 2) for k in range(count)]
        inside = [bool(flags[k] & 4) for k in range(count)]
    finally:
        PyMem_Free(flags)
        _free(&walk)
    return by_hash, by_cover, inside


cdef unsigned char* _template_flags(
    Walk* walk, templates, double cover, text_cover
) except NULL:
    """Per element of ``walk``: bit 1 template by hash, 2 by cover, 4 inside a template (the
    rules of ``sitelevel``). The caller frees the flags."""
    cdef Py_ssize_t count = walk.count, index, parent, size
    cdef bint use_text = text_cover is not None
    cdef double text_share = float(text_cover) if use_text else 0.0
    cdef Py_ssize_t* html_inside = NULL
    cdef Py_ssize_t* text_inside = NULL
    cdef unsigned char* flags = <unsigned char*>_resized(NULL, max(count, 1))
    memset(flags, 0, max(count, 1))
    try:
        html_inside = <Py_ssize_t*>_resized(NULL, max(count, 1) * sizeof(Py_ssize_t))
        text_inside = <Py_ssize_t*>_resized(NULL, max(count, 1) * sizeof(Py_ssize_t))
        memset(html_inside, 0, max(count, 1) * sizeof(Py_ssize_t))
        memset(text_inside, 0, max(count, 1) * sizeof(Py_ssize_t))
        for index in range(count - 1, -1, -1):  # children (higher positions) first
            if walk.is_signed[index] and walk.hashes[index] in templates:
                flags[index] = 1
                html_inside[index] = walk.sizes[index]
                text_inside[index] = walk.chars[index]
            parent = walk.parents[index]
            if parent >= 0:
                html_inside[parent] += html_inside[index]
                text_inside[parent] += text_inside[index]
        for index in range(count):  # parents first
            size = walk.sizes[index]
            if not flags[index] & 1 and size and html_inside[index] > cover * size:
                if not use_text or text_inside[index] > text_share * walk.chars[index]:
                    flags[index] |= 2
            parent = walk.parents[index]
            if flags[index] & 3 or (parent >= 0 and flags[parent] & 4):
                flags[index] |= 4
    except BaseException:
        PyMem_Free(flags)
        raise
    finally:
        PyMem_Free(html_inside)
        PyMem_Free(text_inside)
    return flags


def groups_inside(
    body, list groups, templates, double cover, text_cover, Py_ssize_t limit
):
    """``(inside, fingerprint)`` for the elements under ``body``: per group of elements of
    ``groups``, whether it is not empty and every element lies inside a template (the rules
    of ``sitelevel.groups_inside_templates``), and :func:`fingerprint` of ``body`` with
    ``limit``. No element proxy is made."""
    cdef Walk walk
    cdef unsigned char* flags = NULL
    cdef NodeIndex index
    cdef Py_ssize_t position
    cdef bint inside
    cdef list marks = []
    memset(&walk, 0, sizeof(Walk))
    memset(&index, 0, sizeof(NodeIndex))
    try:
        _walked(&walk, body)
        flags = _template_flags(&walk, templates, cover, text_cover)
        _index_nodes(&index, &walk)
        for elements in groups:
            inside = len(elements) > 0
            for element in elements:
                position = _position_of(&index, (<cetree._Element?>element)._c_node)
                if position < 0 or not flags[position] & 4:
                    inside = False
                    break
            marks.append(inside)
        return marks, _distinct_signed(&walk, limit)
    finally:
        PyMem_Free(flags)
        PyMem_Free(index.nodes)
        PyMem_Free(index.positions)
        _free(&walk)


cdef struct NodeIndex:
    xmlNode** nodes  # open addressing, NULL = free slot
    Py_ssize_t* positions
    Py_ssize_t mask


cdef inline Py_ssize_t _slot_of(NodeIndex* index, xmlNode* node) noexcept nogil:
    cdef size_t key = <size_t>node
    return <Py_ssize_t>((key >> 4) ^ (key >> 17)) & index.mask


cdef int _index_nodes(NodeIndex* index, Walk* walk) except -1:
    """A table node -> its position in ``walk``."""
    cdef Py_ssize_t slots = 16, k, slot
    while slots < 2 * walk.count:
        slots *= 2
    index.nodes = <xmlNode**>_resized(NULL, slots * sizeof(xmlNode*))
    index.positions = <Py_ssize_t*>_resized(NULL, slots * sizeof(Py_ssize_t))
    memset(index.nodes, 0, slots * sizeof(xmlNode*))
    index.mask = slots - 1
    for k in range(walk.count):
        slot = _slot_of(index, walk.nodes[k])
        while index.nodes[slot] is not NULL:
            slot = (slot + 1) & index.mask
        index.nodes[slot] = walk.nodes[k]
        index.positions[slot] = k
    return 0


cdef Py_ssize_t _position_of(NodeIndex* index, xmlNode* node) noexcept nogil:
    """The position of ``node`` in the indexed walk, -1 when it is not there."""
    cdef Py_ssize_t slot = _slot_of(index, node)
    while index.nodes[slot] is not NULL:
        if index.nodes[slot] == node:
            return index.positions[slot]
        slot = (slot + 1) & index.mask
    return -1
