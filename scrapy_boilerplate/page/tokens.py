"""Tokenisation and word statistics of text blocks (boilerpipe rules, reference §2–§3.1).

A *token* is a run of non-space characters, broken where a word character touches an
"other" character; glue characters (``" ' . , ! @ - : ; $ ? ( ) /``) never break. A token is a
*word* when it holds a letter or digit. Link markers are private-use characters that the
segmenter puts, space-separated, around anchor text; the same characters in a page's own text
are replaced by U+FFFD first (:func:`unmark`), so they never collide.

Scripts written without spaces between words (Chinese, Japanese, Korean, Thai) would make a
whole sentence one token. A run of their letters (:data:`PAIRED_SCRIPT_LETTERS`, each with the
non-spacing marks that follow it, :data:`PAIRED_SCRIPT_MARKS`) is therefore cut into tokens of
two letters: such text counts one word per two letters, close to the words per character of
English, so the classifiers' word thresholds apply unchanged.

Citations "reference §N" and "Q<n>" point to ``docs/reference-quirks.md``.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from typing import Final, NamedTuple

__all__ = [
    "LINK_START",
    "LINK_END",
    "WRAP_COLUMNS",
    "WordStats",
    "tokenize",
    "is_word",
    "word_stats",
    "block_word_stats",
    "block_stats",
    "space_tokens",
    "strip_markers",
    "unmark",
    "shows_nothing",
    "drop_format_characters",
    "PAIRED_SCRIPT_LETTERS",
    "PAIRED_SCRIPT_MARKS",
]

#: Marker put before anchor text in the token buffer (never a real token).
LINK_START: Final = "\ue00a"
#: Marker put after anchor text in the token buffer.
LINK_END: Final = "\ue00b"
#: Line width, in characters, of the word wrap behind text density.
WRAP_COLUMNS: Final = 80
#: Code point ranges (inclusive) of the letters of scripts written without spaces: Thai, Hangul
#: (jamo and syllables), kana (with the prolonged sound and iteration marks), CJK ideographs.
PAIRED_SCRIPT_LETTERS: Final = (
    (0x0E01, 0x0E30),
    (0x0E32, 0x0E33),
    (0x0E40, 0x0E46),
    (0x1100, 0x11FF),
    (0x3005, 0x3007),
    (0x3041, 0x3096),
    (0x309D, 0x309F),
    (0x30A1, 0x30FA),
    (0x30FC, 0x30FF),
    (0x3131, 0x318E),
    (0x31F0, 0x31FF),
    (0x3400, 0x4DBF),
    (0x4E00, 0x9FFF),
    (0xAC00, 0xD7A3),
    (0xF900, 0xFAFF),
    (0xFF66, 0xFF9D),
    (0x20000, 0x2FA1F),
)
#: Non-spacing marks that stay with the letter before them in those scripts (Thai vowel and
#: tone marks, kana voicing marks).
PAIRED_SCRIPT_MARKS: Final = (
    (0x0E31, 0x0E31),
    (0x0E34, 0x0E3A),
    (0x0E47, 0x0E4E),
    (0x3099, 0x309A),
)

_GLUE = r"\"'.,!@\-:;$?()/"
_HAS_ALNUM = re.compile(r"[^\W_]")
# A run of "other" characters (neither word, space, glue nor link marker).
_OTHER_RUN = re.compile(rf"[^\w\s{_GLUE}{LINK_START}{LINK_END}]+")
_MARKERS = re.compile(f"[{LINK_START}{LINK_END}] ?")
# The text between a link-start and the next link-end marker (markers strictly alternate).
_LINKED_SPAN = re.compile(f"{LINK_START}([^{LINK_END}]*){LINK_END}")
# A word token of space-separated tokens: a whole token holding a letter or digit. Only the
# ASCII space separates (NBSP and friends are not whitespace in the reference). The lookbehind
# anchors every match at a token start, which keeps the search linear in the text's length.
_TOKEN_CHAR = rf"[^ \n{LINK_START}{LINK_END}]"
_WORD = re.compile(rf"(?<!{_TOKEN_CHAR}){_TOKEN_CHAR}*[^\W_]{_TOKEN_CHAR}*")
_PAGE_MARKERS = str.maketrans({LINK_START: "\ufffd", LINK_END: "\ufffd"})


def _char_class(ranges: tuple[tuple[int, int], ...]) -> str:
    return "".join(f"{chr(low)}-{chr(high)}" for low, high in ranges)


# Two letters (each with its marks) of a paired script followed by a third: cut after the two.
_PAIRED_RUN = re.compile(
    f"((?:[{_char_class(PAIRED_SCRIPT_LETTERS)}][{_char_class(PAIRED_SCRIPT_MARKS)}]*){{2}})"
    f"(?=[{_char_class(PAIRED_SCRIPT_LETTERS)}])"
)


def _is_word_char(char: str) -> bool:
    return char.isalnum() or char == "_"


def _pad_other_run(match: re.Match[str]) -> str:
    """Put a space between a run of "other" characters and a word character touching it.

    Non-spacing marks (Mn) right after a word character belong to the word (Python's ``\\w``
    leaves them out, which would split Devanagari or vocalised Arabic words).
    """
    text = match.string
    start, end = match.span()
    run = match.group()
    if start and _is_word_char(text[start - 1]):
        marks = 0
        while marks < len(run) and unicodedata.category(run[marks]) == "Mn":
            marks += 1
        if marks == len(run):
            return run
        head, run = run[:marks], " " + run[marks:]
    else:
        head = ""
    tail = " " if end < len(text) and _is_word_char(text[end]) else ""
    return head + run + tail


def space_tokens(text: str) -> str:
    """Space-separate tokens: break wherever a word character touches an "other" character,
    and after every second letter of a run of a paired script (see the module docstring)."""
    if _OTHER_RUN.search(text) is not None:
        text = _OTHER_RUN.sub(_pad_other_run, text)
    if text.isascii():
        return text
    return _PAIRED_RUN.sub(r"\1 ", text)


def tokenize(text: str) -> list[str]:
    """Split ``text`` into tokens: at whitespace and at every word/other character boundary."""
    return space_tokens(text).split()


def is_word(token: str) -> bool:
    """Return True if ``token`` holds at least one letter or digit."""
    return _HAS_ALNUM.search(token) is not None


def unmark(text: str) -> str:
    """``text`` with the link-marker characters replaced by U+FFFD (for a page's own text)."""
    if LINK_START in text or LINK_END in text:
        return text.translate(_PAGE_MARKERS)
    return text


def strip_markers(text: str) -> str:
    """Remove link markers (and the space after each) from a token buffer."""
    if LINK_START in text or LINK_END in text:
        return _MARKERS.sub("", text)
    return text


def shows_nothing(text: str) -> bool:
    """Whether ``text`` is format characters (Unicode category Cf: zero-width spaces and
    joiners, direction marks, soft hyphens, the byte order mark), at least one, and whitespace
    only: a reader sees nothing of it."""
    if text[:1].isalnum():  # the common case, told without a look-up per character
        return False
    seen_format = False
    for char in text:
        if unicodedata.category(char) == "Cf":
            seen_format = True
        elif not char.isspace():
            return False
    return seen_format


def drop_format_characters(text: str) -> str:
    """``text`` without its format characters (Unicode category Cf)."""
    return "".join(char for char in text if unicodedata.category(char) != "Cf")


class WordStats(NamedTuple):
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


# One greedy 80-column line of single-space-joined words: a word longer than the line stands
# alone, otherwise as many words as fit.
_WRAPPED_LINE = re.compile(rf"\S{{{WRAP_COLUMNS + 1},}}|\S.{{0,{WRAP_COLUMNS - 1}}}(?= |$)")


def _wrap(words: list[str], word_chars: int) -> tuple[int, int]:
    """Return (wrapped words, wrapped lines) of ``words`` laid out on 80-column lines.

    Greedy layout, one space between words; the incomplete last line is dropped. As in the
    reference, a first word longer than the line counts one extra wrapped line (Q8).
    """
    count = len(words)
    if word_chars + count - 1 <= WRAP_COLUMNS:
        return count, 1
    lines = _WRAPPED_LINE.findall(" ".join(words))
    wraps = len(lines) - 1 + (len(words[0]) > WRAP_COLUMNS)
    words_on_last_line = lines[-1].count(" ") + 1
    if wraps == 0 or count == words_on_last_line:
        return count, 1  # density normalisation when no complete line is left
    return count - words_on_last_line, wraps


def block_stats(spaced: str, in_link: bool) -> WordStats:
    """Statistics of one block whose tokens are already space-separated."""
    words = _WORD.findall(spaced)
    last_start = spaced.rfind(LINK_START)
    last_end = spaced.rfind(LINK_END)
    if last_start == last_end:  # no marker: -1 == -1
        linked = len(words) if in_link else 0
    else:
        marked = LINK_START + spaced if in_link else spaced
        in_link = last_start > last_end
        if in_link:
            marked += LINK_END
        linked = len(_WORD.findall(" ".join(_LINKED_SPAN.findall(marked))))
    if not words:
        return WordStats(0, 0, 0, 1, 0, in_link)
    word_chars = sum(map(len, words))
    wrapped_words, wrapped_lines = _wrap(words, word_chars)
    return WordStats(len(words), linked, wrapped_words, wrapped_lines, word_chars, in_link)


def block_word_stats(buffers: Sequence[str], in_link: bool = False) -> list[WordStats]:
    """Word statistics of consecutive marked token buffers (one per block, no newlines inside).

    The buffers are tokenised together (a few regex passes over the whole page instead of
    several per block); the link state carries from one buffer to the next.
    """
    if not buffers:
        return []
    joined = space_tokens("\n".join(buffers))
    stats = []
    for spaced in joined.split("\n"):
        block = block_stats(spaced, in_link)
        in_link = block.in_link_after
        stats.append(block)
    return stats


def word_stats(token_text: str, in_link: bool = False) -> WordStats:
    """Count words, linked words and the 80-column wrap of one marked token buffer.

    ``in_link`` is the link state at the start of the buffer (it carries across blocks when an
    ``<a>`` holds block elements); the state at the end is returned as ``in_link_after``.
    Token length is counted in code points (the reference counts UTF-16 units).
    """
    return block_word_stats([token_text], in_link)[0]
