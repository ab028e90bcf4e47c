# cython: language_level=3, boundscheck=False, wraparound=False, initializedcheck=False, cdivision=True
"""Compiled twin of the learned classifier's feature matrix.

:func:`~scrapy_boilerplate.classifiers.features.feature_matrix_pure` is the reference: the rows
of ``features.feature_rows``, one after the other in one array of doubles. This function takes
what the reference computes before its rows (the rule chain's decisions and the page's
declared word sets) and writes the same doubles: the text, rule, window and page groups and
the metadata overlaps; the structure values are left to ``structure.structure_into``. Words of the metadata overlaps are the ``\\w+`` runs of
the lower-cased text, found by the character class of Python's ``re`` (``Py_UNICODE_ISALNUM``
or ``_``); digits are ``Py_UNICODE_ISDECIMAL`` code points (``re``'s ``\\d``); divisions are
of integers converted to doubles, as Python's ``int / int``
(``tests/test_classifiers_features_twin.py`` checks equality on hand-made, random and every
shared dataset page).
"""

from array import array

from cpython cimport array
from cpython.object cimport PyObject
from libc.stdint cimport uint64_t
from libc.stdlib cimport calloc, free, malloc

cdef extern from "Python.h":
    bint Py_UNICODE_ISALNUM(Py_UCS4 ch)
    bint Py_UNICODE_ISDECIMAL(Py_UCS4 ch)
    bint Py_UNICODE_ISUPPER(Py_UCS4 ch)

# -- constants of the Python modules, loaded on first use (they import this module) ---------

cdef bint _loaded = False
cdef Py_ssize_t _N_TEXT = 0, _N_RULES = 0, _N_WINDOW = 0, _N_PAGE = 0, _N_METADATA = 0
cdef Py_ssize_t _RULE_WINDOW = 0
cdef list _OFFSETS = None
cdef str _PUNCTUATION_END = ""
cdef str _H1 = "", _HEADING = "", _LI = "", _END_OF_TEXT = ""
cdef double _NO_TITLE_OFFSET = 0.0, _MIN_TITLE_MATCH = 0.0
cdef object _covers_headline = None


cdef _load():
    global _loaded, _N_TEXT, _N_RULES, _N_WINDOW, _N_PAGE, _N_METADATA, _RULE_WINDOW
    global _OFFSETS, _PUNCTUATION_END, _H1, _HEADING, _LI, _END_OF_TEXT
    global _NO_TITLE_OFFSET, _MIN_TITLE_MATCH, _covers_headline
    from ..features import metadata
    from ..model import labels
    from . import features

    _N_TEXT, _N_RULES = len(features._TEXT), len(features._RULES)
    _N_WINDOW, _N_PAGE = len(features._WINDOW), len(features._PAGE)
    _N_METADATA = len(metadata.METADATA_FEATURES)
    _RULE_WINDOW = features.RULE_WINDOW
    _OFFSETS = list(features.WINDOW_OFFSETS)
    _PUNCTUATION_END = "".join(features._PUNCTUATION_END)
    assert all(len(ending) == 1 for ending in features._PUNCTUATION_END)
    assert (_N_TEXT, _N_RULES, _N_WINDOW, _N_PAGE, _N_METADATA) == (20, 6, 4, 4, 5)
    _H1, _HEADING, _LI = labels.H1, labels.HEADING, labels.LI
    _END_OF_TEXT = labels.INDICATES_END_OF_TEXT
    _NO_TITLE_OFFSET = metadata.NO_TITLE_OFFSET
    _MIN_TITLE_MATCH = metadata.MIN_TITLE_MATCH
    _covers_headline = metadata.covers_headline
    _loaded = True


cdef inline bint _is_word(Py_UCS4 c) noexcept:
    if c < 128:
        return (c >= 97 and c <= 122) or (c >= 65 and c <= 90) or (c >= 48 and c <= 57) or c == 95
    return Py_UNICODE_ISALNUM(c)


cdef struct _Overlap:
    Py_ssize_t words, body, description, headline


cdef list _words(str lowered):
    """``re.findall(r"\\w+", lowered)``."""
    cdef list found = []
    cdef Py_ssize_t i = 0, start = -1, n = len(lowered)
    cdef Py_UCS4 c
    for i in range(n):
        c = lowered[i]
        if _is_word(c):
            if start < 0:
                start = i
        elif start >= 0:
            found.append(lowered[start:i])
            start = -1
    if start >= 0:
        found.append(lowered[start:n])
    return found


cdef struct _WordTable:
    # open addressing over the distinct words of the page's declared texts; slot k holds a
    # borrowed reference to a word of one of the (live) frozensets, or NULL
    PyObject** words
    uint64_t* hashes
    int* groups  # bits: 1 = article body, 2 = description, 4 = headline
    size_t mask


cdef inline uint64_t _mix(uint64_t h, Py_UCS4 c) noexcept:
    return (h ^ <uint64_t>c) * <uint64_t>0x100000001B3ULL


cdef int _table_init(_WordTable* table, sets) except -1:
    """Fill ``table`` (its arrays NULL) with the words of ``sets`` (frozensets or None, one
    group bit each, in order); the caller frees it with :func:`_table_free`, also on error."""
    cdef size_t capacity = 16, slot
    cdef Py_ssize_t total = 0, k
    cdef uint64_t h
    cdef int bit
    cdef str word
    for words in sets:
        if words is not None:
            total += len(words)
    while capacity < <size_t>(2 * total + 2):
        capacity <<= 1
    table.words = <PyObject**>calloc(capacity, sizeof(PyObject*))
    table.hashes = <uint64_t*>malloc(capacity * sizeof(uint64_t))
    table.groups = <int*>malloc(capacity * sizeof(int))
    if table.words is NULL or table.hashes is NULL or table.groups is NULL:
        raise MemoryError()
    table.mask = capacity - 1
    for bit, words in enumerate(sets):
        if words is None:
            continue
        for word in words:
            h = 0xCBF29CE484222325ULL
            for k in range(len(word)):
                h = _mix(h, word[k])
            slot = h & table.mask
            while table.words[slot] is not NULL and not (
                table.hashes[slot] == h and <str>table.words[slot] == word
            ):
                slot = (slot + 1) & table.mask
            if table.words[slot] is NULL:
                table.words[slot] = <PyObject*>word
                table.hashes[slot] = h
                table.groups[slot] = 0
            table.groups[slot] |= 1 << bit
    return 0


cdef void _table_free(_WordTable* table) noexcept:
    free(table.words)
    free(table.hashes)
    free(table.groups)


cdef int _groups_of(const _WordTable* table, str text, Py_ssize_t start, Py_ssize_t end):
    """The groups holding the word ``text[start:end]`` (0 when none does)."""
    cdef uint64_t h = 0xCBF29CE484222325ULL
    cdef Py_ssize_t k
    cdef size_t slot
    cdef str word
    for k in range(start, end):
        h = _mix(h, text[k])
    slot = h & table.mask
    while table.words[slot] is not NULL:
        if table.hashes[slot] == h:
            word = <str>table.words[slot]
            if len(word) == end - start:
                for k in range(end - start):
                    if word[k] != text[start + k]:
                        break
                else:
                    return table.groups[slot]
        slot = (slot + 1) & table.mask
    return 0


cdef void _count_overlap(const _WordTable* table, str lowered, _Overlap* out):
    """The words of ``lowered`` (as :func:`_words` finds them) and how many are in each
    group of ``table``."""
    cdef Py_ssize_t i, start = -1, n = len(lowered), words = 0, body = 0, description = 0
    cdef Py_ssize_t headline = 0
    cdef int groups
    for i in range(n + 1):
        if i < n and _is_word(lowered[i]):
            if start < 0:
                start = i
        elif start >= 0:
            words += 1
            groups = _groups_of(table, lowered, start, i)
            if groups:
                body += groups & 1
                description += (groups >> 1) & 1
                headline += (groups >> 2) & 1
            start = -1
    out.words, out.body, out.description, out.headline = words, body, description, headline


cdef inline double _share(Py_ssize_t hits, Py_ssize_t words, bint present) noexcept:
    if not present:
        return -1.0
    if not words:
        return 0.0
    return <double>hits / <double>words


def feature_matrix(list blocks, list decisions, Py_ssize_t n_structure, texts):
    """The values of ``features.feature_matrix_pure`` for ``blocks`` (non-empty), given the
    rule chain's five decision lists and the page's ``PageTexts``, except the ``n_structure``
    structure values of each row, left for the caller to write."""
    cdef Py_ssize_t n = len(blocks), width, i, j, k, other
    cdef Py_ssize_t page_words = 0, page_linked = 0, selected = 0, total, kept, low, high
    cdef Py_ssize_t words, linked, chars, digits, bars, commas, stops, title_index = -1
    cdef Py_ssize_t headline_size = 0
    cdef Py_ssize_t* word_counts = NULL
    cdef char* article = NULL
    cdef double* neighbour = NULL
    cdef _Overlap* overlaps = NULL
    cdef _WordTable table
    cdef str lowered
    cdef double* out
    cdef double* row
    cdef Py_UCS4 c
    cdef str text
    cdef array.array matrix
    if not _loaded:
        _load()
    if n == 0 or len(decisions) != 5 or n_structure < 0:
        raise ValueError("feature_matrix needs blocks and five decision lists")
    width = _N_TEXT + _N_RULES + len(_OFFSETS) * _N_WINDOW + _N_PAGE + n_structure + _N_METADATA
    body, description, headline = texts.article_body, texts.description, texts.headline
    if headline:
        headline_size = len(headline)
    matrix = array("d")
    array.resize(matrix, n * width)
    out = matrix.data.as_doubles
    table.words, table.hashes, table.groups = NULL, NULL, NULL
    try:
        _table_init(&table, (body, description, headline))
        word_counts = <Py_ssize_t*>malloc(n * sizeof(Py_ssize_t))
        article = <char*>malloc(n)
        neighbour = <double*>malloc(n * 4 * sizeof(double))
        overlaps = <_Overlap*>malloc(n * sizeof(_Overlap))
        if word_counts is NULL or article is NULL or neighbour is NULL or overlaps is NULL:
            raise MemoryError()
        final = decisions[4]
        for i in range(n):
            block = blocks[i]
            words, linked = block.num_words, block.num_linked_words
            word_counts[i] = words
            article[i] = 1 if final[i] else 0
            page_words += words
            page_linked += linked
            if article[i]:
                selected += words
            neighbour[4 * i] = <double>words
            neighbour[4 * i + 1] = <double>linked / <double>words if words else 0.0
            lines = block.num_wrapped_lines
            neighbour[4 * i + 2] = (
                <double>block.num_wrapped_words / <double>lines if lines else 0.0
            )
            neighbour[4 * i + 3] = 1.0 if article[i] else 0.0
            lowered = block.text.lower()
            _count_overlap(&table, lowered, &overlaps[i])
            if (
                title_index < 0
                and headline_size
                and overlaps[i].words
                and overlaps[i].words <= 3 * headline_size + 5
                and _share(overlaps[i].headline, overlaps[i].words, True) >= _MIN_TITLE_MATCH
                and _covers_headline(_words(lowered), headline)
            ):
                title_index = i
        for i in range(n):
            block = blocks[i]
            text = block.text
            words = word_counts[i]
            chars = len(text)
            digits = bars = commas = stops = 0
            for c in text:
                if c == 124:
                    bars += 1
                elif c == 44:
                    commas += 1
                elif c == 46:
                    stops += 1
                elif c < 128:  # ASCII: the decimal digits are 0-9 (no table lookup)
                    digits += 48 <= c <= 57
                elif Py_UNICODE_ISDECIMAL(c):
                    digits += 1
            labels = block.labels
            row = out + i * width
            row[0] = <double>words
            row[1] = <double>block.num_linked_words
            row[2] = neighbour[4 * i + 1]
            row[3] = neighbour[4 * i + 2]
            row[4] = <double>chars
            row[5] = <double>block.num_word_chars / <double>words if words else 0.0
            row[6] = <double>block.tag_level
            row[7] = <double>i
            row[8] = <double>i / <double>n
            row[9] = <double>(n - 1 - i)
            row[10] = 1.0 if chars and text[chars - 1] in _PUNCTUATION_END else 0.0
            row[11] = 1.0 if chars and Py_UNICODE_ISUPPER(text[0]) else 0.0
            row[12] = <double>digits / <double>chars if chars else 0.0
            row[13] = <double>bars
            row[14] = <double>commas / <double>words if words else 0.0
            row[15] = <double>stops / <double>words if words else 0.0
            row[16] = 1.0 if _H1 in labels else 0.0
            row[17] = 1.0 if _HEADING in labels else 0.0
            row[18] = 1.0 if _LI in labels else 0.0
            row[19] = 1.0 if _END_OF_TEXT in labels else 0.0
            row += _N_TEXT
            for k in range(5):
                row[k] = 1.0 if decisions[k][i] else 0.0
            low, high = max(0, i - _RULE_WINDOW), min(n, i + _RULE_WINDOW + 1)
            total = kept = 0
            for j in range(low, high):
                total += word_counts[j]
                if article[j]:
                    kept += word_counts[j]
            row[5] = <double>kept / <double>total if total else 0.0
            row += _N_RULES
            for offset in _OFFSETS:
                other = i + <Py_ssize_t>offset
                for k in range(4):
                    row[k] = neighbour[4 * other + k] if 0 <= other < n else 0.0
                row += _N_WINDOW
            row[0] = <double>page_words
            row[1] = <double>n
            row[2] = <double>page_linked / <double>page_words if page_words else 0.0
            row[3] = <double>selected / <double>page_words if page_words else 0.0
            row += _N_PAGE
            row += n_structure
            row[0] = _share(overlaps[i].body, overlaps[i].words, body is not None)
            row[1] = _share(overlaps[i].description, overlaps[i].words, description is not None)
            row[2] = _share(overlaps[i].headline, overlaps[i].words, headline is not None)
            if title_index < 0:
                row[3], row[4] = _NO_TITLE_OFFSET, 0.0
            else:
                row[3] = max(-_NO_TITLE_OFFSET, min(_NO_TITLE_OFFSET, <double>(i - title_index)))
                row[4] = 1.0 if i > title_index else 0.0
    finally:
        _table_free(&table)
        free(word_counts)
        free(article)
        free(neighbour)
        free(overlaps)
    return matrix
