# cython: language_level=3, boundscheck=False, wraparound=False
"""Compiled twin of :func:`~scrapy_boilerplate.filters.conventions.word_masks_pure`: which
groups of words each lower-cased text holds, found in one scan of the text (the words are
indexed by their first character) instead of one substring search per word."""

from cpython.mem cimport PyMem_Free, PyMem_Malloc
from cpython.unicode cimport PyUnicode_KIND, PyUnicode_READ

cdef extern from "Python.h":
    void* PyUnicode_DATA(object text)

#: Most groups (one bit each of a C mask).
MAX_GROUPS = 64


cdef class WordMasks:
    """``WordMasks(groups)(texts)`` is ``word_masks_pure(texts, groups)``: for each text, the
    mask whose bit ``g`` is set when ``text.lower()`` holds one of the words of ``groups[g]``.
    More than :data:`MAX_GROUPS` groups, or an empty word, raise ``ValueError``."""

    cdef Py_UCS4* _chars  # the words' characters, one after the other
    cdef Py_ssize_t* _start  # per word: where its characters start in _chars
    cdef Py_ssize_t* _length
    cdef unsigned long long* _bit
    cdef Py_ssize_t* _next  # per word: the next word with the same first ASCII character, or -1
    cdef Py_ssize_t _ascii_head[128]  # per ASCII character: its first word, or -1
    cdef Py_ssize_t _other_head  # the words whose first character is not ASCII (chained too)
    cdef Py_ssize_t _count

    def __cinit__(self, groups):
        cdef Py_ssize_t total = 0, word_index, k, at = 0
        cdef Py_UCS4 first
        words = [(word, bit) for bit, group in enumerate(groups) for word in group]
        if len(groups) > MAX_GROUPS:
            raise ValueError(f"more than {MAX_GROUPS} groups of words")
        if any(not isinstance(word, str) or not word for word, _ in words):
            raise ValueError("a word that is not a non-empty str")
        self._count = len(words)
        for word, _ in words:
            total += len(word)
        self._chars = <Py_UCS4*>PyMem_Malloc((total + 1) * sizeof(Py_UCS4))
        self._start = <Py_ssize_t*>PyMem_Malloc((self._count + 1) * sizeof(Py_ssize_t))
        self._length = <Py_ssize_t*>PyMem_Malloc((self._count + 1) * sizeof(Py_ssize_t))
        self._next = <Py_ssize_t*>PyMem_Malloc((self._count + 1) * sizeof(Py_ssize_t))
        self._bit = <unsigned long long*>PyMem_Malloc(
            (self._count + 1) * sizeof(unsigned long long)
        )
        if (
            self._chars is NULL or self._start is NULL or self._length is NULL
            or self._next is NULL or self._bit is NULL
        ):
            raise MemoryError()
        for k in range(128):
            self._ascii_head[k] = -1
        self._other_head = -1
        for word_index in range(self._count - 1, -1, -1):  # chained in the groups' order
            word, bit = words[word_index]
            self._start[word_index] = at
            self._length[word_index] = len(word)
            self._bit[word_index] = (<unsigned long long>1) << <int>bit
            for k in range(len(word)):
                self._chars[at + k] = word[k]
            at += len(word)
            first = word[0]
            if first < 128:
                self._next[word_index] = self._ascii_head[first]
                self._ascii_head[first] = word_index
            else:
                self._next[word_index] = self._other_head
                self._other_head = word_index

    def __dealloc__(self):
        PyMem_Free(self._chars)
        PyMem_Free(self._start)
        PyMem_Free(self._length)
        PyMem_Free(self._next)
        PyMem_Free(self._bit)

    cdef unsigned long long _mask(self, str lower):
        cdef int kind = PyUnicode_KIND(lower)
        cdef void* data = PyUnicode_DATA(lower)
        cdef Py_ssize_t n = len(lower), at, word, k, length
        cdef unsigned long long mask = 0
        cdef Py_UCS4 c
        cdef Py_UCS4* chars
        for at in range(n):
            c = PyUnicode_READ(kind, data, at)
            word = self._ascii_head[c] if c < 128 else self._other_head
            while word != -1:
                length = self._length[word]
                if not (mask & self._bit[word]) and length <= n - at:
                    chars = self._chars + self._start[word]
                    if chars[0] == c:
                        k = 1
                        while k < length and chars[k] == PyUnicode_READ(kind, data, at + k):
                            k += 1
                        if k == length:
                            mask |= self._bit[word]
                word = self._next[word]
        return mask

    def __call__(self, list texts):
        """The masks of ``texts`` (``str`` each, else ``TypeError``), in order."""
        cdef Py_ssize_t index, n = len(texts)
        masks = [0] * n
        for index in range(n):
            text = texts[index]
            if type(text) is not str:
                raise TypeError("a text that is not a str")
            masks[index] = self._mask((<str>text).lower())
        return masks
