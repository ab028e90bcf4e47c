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
from libc.stdlib cimport free, malloc

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


cdef void _count_overlap(
    list words, object body, object description, object headline, _Overlap* out
):
    cdef Py_ssize_t body_hits = 0, description_hits = 0, headline_hits = 0
    for word in words:
        if body is not None and word in body:
            body_hits += 1
        if description is not None and word in description:
            description_hits += 1
        if headline is not None and word in headline:
            headline_hits += 1
    out.words = len(words)
    out.body, out.description, out.headline = body_hits, description_hits, headline_hits


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
    cdef Py_ssize_t n = len(blocks), width, i, j, k, other, index
    cdef Py_ssize_t page_words = 0, page_linked = 0, selected = 0, total, kept, low, high
    cdef Py_ssize_t words, linked, chars, digits, bars, commas, stops, title_index = -1
    cdef Py_ssize_t headline_size = 0
    cdef Py_ssize_t* word_counts = NULL
    cdef char* article = NULL
    cdef double* neighbour = NULL
    cdef _Overlap* overlaps = NULL
    cdef double* out
    cdef double* row
    cdef Py_UCS4 c
    cdef str text
    cdef list rows_words
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
    try:
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
            block_words = _words(block.text.lower())
            _count_overlap(block_words, body, description, headline, &overlaps[i])
            if (
                title_index < 0
                and headline_size
                and block_words
                and len(block_words) <= 3 * headline_size + 5
                and _share(overlaps[i].headline, overlaps[i].words, True) >= _MIN_TITLE_MATCH
                and _covers_headline(block_words, headline)
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
        free(word_counts)
        free(article)
        free(neighbour)
        free(overlaps)
    return matrix
