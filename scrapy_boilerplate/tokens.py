"""Tokenisation and word statistics of text blocks (boilerpipe rules, spec §2–§3.1).

A *token* is a run of non-space characters, broken where a word character touches an
"other" character; glue characters (``" ' . , ! @ - : ; $ ? ( ) /``) never break. A token is a
*word* when it holds a letter or digit. Link markers are private-use characters that the
segmenter puts, space-separated, around anchor text.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import Final

__all__ = [
    "LINK_START",
    "LINK_END",
    "WRAP_COLUMNS",
    "WordStats",
    "tokenize",
    "is_word",
    "word_stats",
    "strip_markers",
]

#: Marker put before anchor text in the token buffer (never a real token).
LINK_START: Final = "\ue00a"
#: Marker put after anchor text in the token buffer.
LINK_END: Final = "\ue00b"
#: Line width, in characters, of the word wrap behind text density.
WRAP_COLUMNS: Final = 80

_GLUE = r"\"'.,!@\-:;$?()/"
_WORD_OTHER_BOUNDARY = re.compile(rf"(?<=\w)(?=[^\w\s{_GLUE}])|(?<=[^\w\s{_GLUE}])(?=\w)")
_HAS_ALNUM = re.compile(r"[^\W_]")
# Any character that can touch a word character and split it from a token ("other" class).
_OTHER_CHAR = re.compile(rf"[^\w\s{_GLUE}{LINK_START}{LINK_END}]")
_MARKERS = re.compile(f"[{LINK_START}{LINK_END}] ?")
_MARKER_SPLIT = re.compile(f"([{LINK_START}{LINK_END}])")
# A whitespace-delimited token without any letter or digit.
_NON_WORD_TOKEN = re.compile(r"(?<!\S)(?:[^\w\s]|_)+(?!\S)")


def _non_spacing_mark_class() -> str:
    """A regex character class of the non-spacing marks (Mn) of the BMP, as ranges.

    Astral marks are left out: they are rare, and they make the class ~200 times slower.
    """
    marks = [code for code in range(0x300, 0x10000) if unicodedata.category(chr(code)) == "Mn"]
    ranges: list[list[int]] = []
    for code in marks:
        if ranges and ranges[-1][1] == code - 1:
            ranges[-1][1] = code
        else:
            ranges.append([code, code])
    return "[" + "".join(f"{chr(a)}-{chr(b)}" for a, b in ranges) + "]"


_MARK = _non_spacing_mark_class()
_ANY_MARK = re.compile(_MARK)
# Non-spacing marks after a word character belong to the word (Python's \w excludes them).
_MARKS_AFTER_WORD = re.compile(rf"(?<=\w){_MARK}+")


def _space_tokens(text: str) -> str:
    """Space-separate tokens; a non-spacing mark after a word character is part of the word."""
    if _ANY_MARK.search(text) is None:
        return _WORD_OTHER_BOUNDARY.sub(" ", text)
    classed = _MARKS_AFTER_WORD.sub(lambda match: "a" * len(match.group()), text)
    cuts = [match.start() for match in _WORD_OTHER_BOUNDARY.finditer(classed)]
    return " ".join(text[a:b] for a, b in zip([0, *cuts], [*cuts, len(text)], strict=True))


def tokenize(text: str) -> list[str]:
    """Split ``text`` into tokens: at whitespace and at every word/other character boundary."""
    return _space_tokens(text).split()


def is_word(token: str) -> bool:
    """Return True if ``token`` holds at least one letter or digit."""
    return _HAS_ALNUM.search(token) is not None


def strip_markers(text: str) -> str:
    """Remove link markers (and the space after each) from a token buffer."""
    if LINK_START in text or LINK_END in text:
        return _MARKERS.sub("", text)
    return text


@dataclass(frozen=True, slots=True)
class WordStats:
    """Counts of one block's tokens, as used by the classifiers.

    ``wrapped_words`` / ``wrapped_lines`` give text density: words per 80-column line, with
    the incomplete last line dropped (a one-line block has density = its word count).
    """

    words: int
    linked_words: int
    wrapped_words: int
    wrapped_lines: int
    word_chars: int
    in_link_after: bool


def _wrap(words: list[str], word_chars: int) -> tuple[int, int]:
    """Return (wrapped words, wrapped lines) of ``words`` laid out on 80-column lines."""
    count = len(words)
    if word_chars + count - 1 <= WRAP_COLUMNS:
        return count, 1
    line_len = -1
    wraps = words_on_line = 0
    for size in map(len, words):
        words_on_line += 1
        line_len += size + 1
        if line_len > WRAP_COLUMNS:
            wraps += 1
            line_len = size
            words_on_line = 1
    if wraps == 0 or count == words_on_line:
        return count, 1  # density normalisation when no complete line is left
    return count - words_on_line, wraps


def _words(spaced: str) -> list[str]:
    """Word tokens of text whose tokens are already space-separated."""
    tokens = spaced.split()
    if _NON_WORD_TOKEN.search(spaced) is None:
        return tokens
    return [token for token in tokens if _HAS_ALNUM.search(token) is not None]


def word_stats(token_text: str, in_link: bool = False) -> WordStats:
    """Count words, linked words and the 80-column wrap of a marked token buffer.

    ``in_link`` is the link state at the start of the buffer (it carries across blocks when an
    ``<a>`` holds block elements); the state at the end is returned as ``in_link_after``.
    Token length is counted in code points (the reference counts UTF-16 units).
    """
    spaced = token_text
    if _OTHER_CHAR.search(spaced) is not None:
        spaced = _space_tokens(spaced)
    if LINK_START not in spaced and LINK_END not in spaced:
        words = _words(spaced)
        linked = len(words) if in_link else 0
    else:
        words = []
        linked = 0
        for piece in _MARKER_SPLIT.split(spaced):
            if piece == LINK_START:
                in_link = True
            elif piece == LINK_END:
                in_link = False
            else:
                found = _words(piece)
                words.extend(found)
                if in_link:
                    linked += len(found)
    if not words:
        return WordStats(0, 0, 0, 1, 0, in_link)
    word_chars = sum(map(len, words))
    wrapped_words, wrapped_lines = _wrap(words, word_chars)
    return WordStats(len(words), linked, wrapped_words, wrapped_lines, word_chars, in_link)
