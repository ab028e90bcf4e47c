"""Victor's block features (Marek 2007, §4), quantised to small integers (§3.4).

Every feature is a non-negative integer from a short list of values, because the CRF reads it
as a category. Two quantisers (the thesis's "largest less-or-equal" value lists and
``feature-Y-scale`` levels; the thesis does not publish the lists, these are our choices):

* ``q(v, L)``: the largest element of the increasing list ``L`` that is ≤ ``v`` (0 if none);
* ``rel(a, b)``: ``min(S, ⌊a·(S+1)/b⌋)`` with ``S`` = :data:`SCALE` = 10 levels (0 if
  ``b`` = 0), for shares.

Features (:data:`FEATURE_NAMES`; the thesis's 46 in :data:`THESIS_FEATURES`, ours in
:data:`EXTRA_FEATURES`):

* **Markup** (§4.1). ``container.X`` = 1 when an ancestor is ``<X>`` (``p a u img li`` from the
  thesis; ``td blockquote pre`` ours), ``container.class-C`` when an ancestor is in the tag
  class C (:data:`CONTAINER_CLASSES`). ``split.{p,br,hr}`` = q(tags of that name in the
  block's ``distance``, [1, 2, 3]) (``<p>`` and ``</p>`` count two, a ``<br>`` one);
  ``split.class-{inline,block}`` = q(inline / other tags in ``distance``, [1, 2, 4, 8]).
  ``glued`` (ours) = 1 when the block continues the previous one without whitespace.
* **Content** (§4.2). ``char.{alpha,num,punct,white,other}-rel`` = rel(characters of the class,
  characters); punct = ``, : ; . ? !``. Tokens are whitespace-separated; a token's *core* is
  the token without leading and trailing non-alphanumeric characters; a token without a core
  (pure punctuation) is not counted. Classes: ``mix`` (letters and digits), ``alpha``
  (letters, inner ``' ’ - .``), ``num`` (digits, inner ``. , : / -``), ``other`` (the rest,
  e.g. URLs). ``token.X-abs`` = q(count, [1, 2, 3, 5, 8, 13, 20, 40, 80]); ``token.X-rel`` =
  rel(count, counted tokens). ``sentence.count`` = q(tokens ending in ``. ! ?`` plus optional
  closing quotes/brackets, [1, 2, 3, 5, 10]); ``sentence.avg-length`` = q(counted tokens /
  max(1, sentences), [1, 3, 5, 8, 12, 16, 20, 30]); ``sentence-begin`` = the first core starts
  with an upper-case letter or a digit; ``sentence-end`` = the text ends in ``. ! ?`` plus
  optional closing quotes/brackets. ``duplicate-count`` = q(blocks with the same key, [1, 2,
  3, 5, 10]), key = the block's letters, case-folded (no letters: 0); ``first-duplicate`` =
  1 on the first block of a key shared by ≥ 2 blocks. ``regexp.{url,date,time}`` = 1-based
  index of the first matching pattern of :data:`URL_PATTERNS` / :data:`DATE_PATTERNS` /
  :data:`TIME_PATTERNS` (0: none). ``bullet`` = 10·marker + delimiter for a list marker at the
  start (:func:`bullet_code`), 0 without. ``div-group.word-ratio`` / ``td-group.word-ratio`` =
  rel(words of the block's group, words of the page), words counted outside ``<a>`` only; a
  block outside any ``<div>`` / ``<td>`` has 0.
* **Document** (§4.3). ``position`` = rel(block index, blocks); ``document.word-count`` =
  q(counted tokens, [100, 300, 1000, 3000]); ``document.sentence-count`` = q(sentences, [10,
  30, 100, 300]); ``document.block-count`` = q(blocks, [30, 100, 300, 1000]);
  ``document.max-{div,td}-group`` = the largest group ratio (0-10).
"""

from __future__ import annotations

import bisect
import re
from collections import Counter
from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Final

from ..page.victor import INLINE_SPLIT_TAGS, VictorBlock

__all__ = [
    "SCALE",
    "quantise",
    "scaled",
    "CONTAINER_TAGS",
    "CONTAINER_CLASSES",
    "MARKUP_FEATURES",
    "CONTENT_FEATURES",
    "DOCUMENT_FEATURES",
    "FEATURE_NAMES",
    "THESIS_FEATURES",
    "EXTRA_FEATURES",
    "URL_PATTERNS",
    "DATE_PATTERNS",
    "TIME_PATTERNS",
    "bullet_code",
    "token_class",
    "victor_features",
]

#: Levels of a share (``feature-Y-scale``): shares map to 0..SCALE.
SCALE: Final = 10

# Value lists ("largest less-or-equal"; ours, the thesis publishes none).
SPLIT_VALUES: Final = (1, 2, 3)
SPLIT_CLASS_VALUES: Final = (1, 2, 4, 8)
TOKEN_ABS_VALUES: Final = (1, 2, 3, 5, 8, 13, 20, 40, 80)
SENTENCE_COUNT_VALUES: Final = (1, 2, 3, 5, 10)
SENTENCE_LENGTH_VALUES: Final = (1, 3, 5, 8, 12, 16, 20, 30)
DUPLICATE_VALUES: Final = (1, 2, 3, 5, 10)
DOCUMENT_WORD_VALUES: Final = (100, 300, 1000, 3000)
DOCUMENT_SENTENCE_VALUES: Final = (10, 30, 100, 300)
DOCUMENT_BLOCK_VALUES: Final = (30, 100, 300, 1000)

#: ``container.X`` tags: the thesis's (p a u img li) and ours (td blockquote pre).
CONTAINER_TAGS: Final = ("p", "a", "u", "img", "li", "td", "blockquote", "pre")
#: ``container.class-C``: the tags of each class.
CONTAINER_CLASSES: Final[dict[str, frozenset[str]]] = {
    "header": frozenset({"h1", "h2", "h3", "h4", "h5", "h6"}),
    "bold": frozenset({"b", "strong"}),
    "italic": frozenset({"i", "em"}),
    "list": frozenset({"ul", "ol", "li", "dl", "dt", "dd"}),
    "form": frozenset({"form", "input", "select", "button", "label", "fieldset", "textarea"}),
}

MARKUP_FEATURES: Final = (
    *(f"container.{tag}" for tag in CONTAINER_TAGS),
    *(f"container.class-{name}" for name in CONTAINER_CLASSES),
    "split.p",
    "split.br",
    "split.hr",
    "split.class-inline",
    "split.class-block",
    "glued",
)
_TOKEN_CLASSES: Final = ("alpha", "num", "mix", "other")
CONTENT_FEATURES: Final = (
    *(f"char.{name}-rel" for name in ("alpha", "num", "punct", "white", "other")),
    *(f"token.{name}-rel" for name in _TOKEN_CLASSES),
    *(f"token.{name}-abs" for name in _TOKEN_CLASSES),
    "sentence.count",
    "sentence.avg-length",
    "sentence-begin",
    "sentence-end",
    "duplicate-count",
    "first-duplicate",
    "regexp.url",
    "regexp.date",
    "regexp.time",
    "bullet",
    "div-group.word-ratio",
    "td-group.word-ratio",
)
DOCUMENT_FEATURES: Final = (
    "position",
    "document.word-count",
    "document.sentence-count",
    "document.block-count",
    "document.max-div-group",
    "document.max-td-group",
)
#: Every feature, in the order of :func:`victor_features`'s rows.
FEATURE_NAMES: Final = (*MARKUP_FEATURES, *CONTENT_FEATURES, *DOCUMENT_FEATURES)
#: Features that are ours, not the thesis's.
EXTRA_FEATURES: Final = frozenset(
    {"container.td", "container.blockquote", "container.pre", "glued"}
)
#: The thesis's 46 features (§4, with ``container.li`` from its text).
THESIS_FEATURES: Final = tuple(name for name in FEATURE_NAMES if name not in EXTRA_FEATURES)


def _patterns(*patterns: str) -> tuple[re.Pattern[str], ...]:
    return tuple(re.compile(pattern, re.IGNORECASE) for pattern in patterns)


_MONTH = (
    r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?"
    r"|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?"
)
#: ``regexp.url``: a URL with a scheme, ``www.``, an e-mail address, a bare domain.
URL_PATTERNS: Final = _patterns(
    r"\b(?:https?|ftp)://",
    r"\bwww\.",
    r"\b[\w.+-]+@[\w-]+(?:\.[\w-]+)+\b",
    r"\b[\w-]+\.(?:com|org|net|edu|gov|info|biz|co\.uk|de|uk)\b",
)
#: ``regexp.date``: ISO, d.m.y or m/d/y, "Month d, yyyy", "d Month yyyy", "Month yyyy",
#: weekday names.
DATE_PATTERNS: Final = _patterns(
    r"\b\d{4}-\d{1,2}-\d{1,2}\b",
    r"\b\d{1,2}[./-]\d{1,2}[./-]\d{2,4}\b",
    rf"\b{_MONTH} \d{{1,2}}(?:st|nd|rd|th)?,? \d{{4}}\b",
    rf"\b\d{{1,2}}(?:st|nd|rd|th)?\.? {_MONTH},? \d{{4}}\b",
    rf"\b{_MONTH},? \d{{4}}\b",
    r"\b(?:mon|tues|wednes|thurs|fri|satur|sun)day\b",
)
#: ``regexp.time``: h:mm with am/pm, h:mm(:ss), h am/pm.
TIME_PATTERNS: Final = _patterns(
    r"\b\d{1,2}:\d{2}(?::\d{2})?\s*(?:[ap]\.?m\b\.?)",
    r"\b\d{1,2}:\d{2}(?::\d{2})?\b",
    r"\b\d{1,2}\s*[ap]\.?m\b\.?",
)

_PUNCT: Final = frozenset(",:;.?!")
_SENTENCE_END = re.compile(r"[.!?][\"'”’»)\]]*$")
_EDGE = re.compile(r"^[\W_]+|[\W_]+$")
_ALPHA_INNER = frozenset("'’-.")
_NUM_INNER = frozenset(".,:/-")
_LETTERS = re.compile(r"[^\W\d_]+")
# A list marker: a number, a letter, or a bullet symbol, then its delimiter.
_BULLET = re.compile(r"^(?:(\d{1,3})|([a-z])|([A-Z])|([•·*\-–—►»▪◦‣○●■□➤+>]))([.):]|\s|$)")
_BULLET_DELIMITERS: Final = {".": 1, ")": 2, ":": 3}


def quantise(value: float, values: Sequence[int]) -> int:
    """The largest element of the increasing ``values`` that is ≤ ``value`` (0 if none)."""
    index = bisect.bisect_right(values, value)
    return values[index - 1] if index else 0


def scaled(part: float, whole: float, scale: int = SCALE) -> int:
    """A share as a level: ``min(scale, ⌊part·(scale+1)/whole⌋)``, 0 when ``whole`` is 0."""
    if whole <= 0:
        return 0
    return min(scale, int(part * (scale + 1) / whole))


@lru_cache(maxsize=65536)
def token_class(token: str) -> str | None:
    """The class of a whitespace token (module docstring), None for pure punctuation."""
    core = _EDGE.sub("", token)
    if not core:
        return None
    has_alpha = any(char.isalpha() for char in core)
    has_digit = any(char.isdigit() for char in core)
    if has_alpha and has_digit:
        return "mix"
    if has_alpha:
        ok = all(char.isalpha() or char in _ALPHA_INNER for char in core)
        return "alpha" if ok else "other"
    if has_digit:
        ok = all(char.isdigit() or char in _NUM_INNER for char in core)
        return "num" if ok else "other"
    return "other"  # letters of no script: marks, symbols joined by underscores


def bullet_code(text: str) -> int:
    """``bullet``: 10·marker + delimiter for a list marker starting ``text``, else 0.

    Markers: 1 number (1-3 digits), 2 lower-case letter, 3 upper-case letter, 4 bullet symbol.
    Delimiters: 1 ``.``, 2 ``)``, 3 ``:``, 0 whitespace or the end. A letter needs a ``.``,
    ``)`` or ``:`` (so the words "a" and "I" are no markers); a symbol needs whitespace or the
    end.
    """
    match = _BULLET.match(text)
    if match is None:
        return 0
    delimiter = _BULLET_DELIMITERS.get(match.group(5), 0)
    marker = next(index for index in range(1, 5) if match.group(index) is not None)
    if marker in (2, 3) and delimiter == 0:
        return 0
    if marker == 4 and delimiter != 0:
        return 0
    return 10 * marker + delimiter


def _first_match(patterns: Sequence[re.Pattern[str]], text: str) -> int:
    for index, pattern in enumerate(patterns, 1):
        if pattern.search(text):
            return index
    return 0


# Literals some patterns cannot match without (so the search is skipped when they are absent;
# the value is the same). The domain endings are checked on ASCII text only: elsewhere,
# case-insensitive matching accepts characters whose lower case is not ASCII.
_DOMAIN_ENDINGS: Final = (".com", ".org", ".net", ".edu", ".gov", ".info", ".biz", ".de", ".uk")


def _url_value(text: str, lowered: str, ascii_text: bool) -> int:
    """``regexp.url``, searching only the patterns whose literal occurs in the text."""
    if "://" in text and URL_PATTERNS[0].search(text):
        return 1
    if "www." in lowered and URL_PATTERNS[1].search(text):
        return 2
    if "@" in text and URL_PATTERNS[2].search(text):
        return 3
    if "." in text and (not ascii_text or any(end in lowered for end in _DOMAIN_ENDINGS)):
        return 4 if URL_PATTERNS[3].search(text) else 0
    return 0


_MONTH_PREFIXES: Final = (
    "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"
)  # fmt: skip


def _date_value(text: str, lowered: str, ascii_text: bool) -> int:
    """``regexp.date`` of a text with a digit or "day" (ASCII text: the ISO and numeric patterns
    need ``-`` / ``.`` ``/`` ``-``, the month patterns a month name, the last one "day")."""
    if not ascii_text:
        return _first_match(DATE_PATTERNS, text)
    month = any(prefix in lowered for prefix in _MONTH_PREFIXES)
    needs = ("-" in text, "-" in text or "." in text or "/" in text, month, month, month)
    for index, possible in enumerate(needs):
        if possible and DATE_PATTERNS[index].search(text):
            return index + 1
    return 6 if "day" in lowered and DATE_PATTERNS[5].search(text) else 0


def _levels(counts: Sequence[int], whole: int) -> list[int]:
    """:func:`scaled` of integer ``counts`` (integer division: the same levels, faster)."""
    if whole <= 0:
        return [0] * len(counts)
    return [min(SCALE, (SCALE + 1) * count // whole) for count in counts]


def _time_value(text: str, lowered: str) -> int:
    """``regexp.time`` of a text with a digit (the first two patterns need ``:``, the third
    an ``m``)."""
    if ":" in text:
        for index in (0, 1):
            if TIME_PATTERNS[index].search(text):
                return index + 1
    return 3 if "m" in lowered and TIME_PATTERNS[2].search(text) else 0


def _ascii_complement(predicate: Callable[[str], bool]) -> bytes:
    """The ASCII bytes whose character does not satisfy ``predicate`` (to delete them)."""
    return bytes(code for code in range(128) if not predicate(chr(code)))


# ASCII text is counted by deleting the other bytes (the same classes as the str methods).
_NOT_ALPHA: Final = _ascii_complement(str.isalpha)
_NOT_DIGIT: Final = _ascii_complement(str.isdigit)
_NOT_SPACE: Final = _ascii_complement(str.isspace)
_NOT_PUNCT: Final = _ascii_complement(_PUNCT.__contains__)


def _token_info(token: str) -> tuple[str | None, bool, bool]:
    """A token's class, whether it ends a sentence, whether it starts upper-case or a digit."""
    kind = token_class(token)
    if kind is None:
        return None, False, False
    core = _EDGE.sub("", token)
    begins = core[0].isupper() or core[0].isdigit()
    return kind, _SENTENCE_END.search(token) is not None, begins


@lru_cache(maxsize=65536)
def _token_code(token: str) -> int:
    """:func:`_token_info` as one int: 4·class index + 2·ends a sentence + starts upper-case or
    a digit; -1 for a token that is not counted (so a page's tokens are counted in C)."""
    kind, ends, begins = _token_info(token)
    if kind is None:
        return -1
    return 4 * _TOKEN_CLASSES.index(kind) + 2 * ends + begins


class _TextValues:
    """The features of a block that depend on its text alone, and its counts.

    ``head`` holds ``char.*-rel`` ... ``sentence-end`` (in :data:`CONTENT_FEATURES` order),
    ``tail`` ``regexp.*`` and ``bullet``; ``key`` is the duplicate key, ``words`` the counted
    tokens, ``sentences`` the tokens that end a sentence.
    """

    __slots__ = ("head", "key", "sentences", "tail", "words")

    def __init__(self, text: str) -> None:
        tokens = text.split()
        codes = Counter(map(_token_code, tokens))
        class_counts = [0, 0, 0, 0]
        sentences = 0
        for code, count in codes.items():
            if code >= 0:
                class_counts[code >> 2] += count
                sentences += count if code & 2 else 0
        begins = next((code & 1 for code in map(_token_code, tokens) if code >= 0), 0)
        words = sum(class_counts)
        length = len(text)
        ascii_text = text.isascii()
        if ascii_text:
            data = text.encode("ascii")
            letters = data.translate(None, _NOT_ALPHA)
            alpha = len(letters)
            num = len(data.translate(None, _NOT_DIGIT))
            white = len(data.translate(None, _NOT_SPACE))
            punct = len(data.translate(None, _NOT_PUNCT))
            self.key = letters.decode("ascii").lower()
        else:
            alpha = sum(map(str.isalpha, text))
            num = sum(map(str.isdigit, text))
            white = sum(map(str.isspace, text))
            punct = sum(map(_PUNCT.__contains__, text))
            self.key = "".join(_LETTERS.findall(text)).casefold()
        other = length - alpha - num - punct - white
        alpha_tokens, num_tokens, mix_tokens, other_tokens = class_counts
        self.head = (
            *_levels((alpha, num, punct, white, other), length),
            *_levels(class_counts, words),
            quantise(alpha_tokens, TOKEN_ABS_VALUES),
            quantise(num_tokens, TOKEN_ABS_VALUES),
            quantise(mix_tokens, TOKEN_ABS_VALUES),
            quantise(other_tokens, TOKEN_ABS_VALUES),
            quantise(sentences, SENTENCE_COUNT_VALUES),
            quantise(words / max(1, sentences), SENTENCE_LENGTH_VALUES),
            int(bool(begins)),
            int(_SENTENCE_END.search(text) is not None),
        )
        lowered = text.lower()
        self.tail = (
            _url_value(text, lowered, ascii_text),
            _date_value(text, lowered, ascii_text) if num or "day" in lowered else 0,
            _time_value(text, lowered) if num else 0,
            bullet_code(text),
        )
        self.words = words
        self.sentences = sentences


#: Texts up to this length have their :class:`_TextValues` cached (menus, buttons, bylines
#: repeat within and across the pages of a site; long paragraphs rarely do). The caches of
#: this module hold at most 8,192 texts, 16,384 (ancestors, distance) pairs and 65,536 tokens
#: (twice: classes and codes): a few MB.
CACHED_TEXT_LENGTH: Final = 200


@lru_cache(maxsize=8192)
def _cached_text_values(text: str) -> _TextValues:
    return _TextValues(text)


def _text_values(text: str) -> _TextValues:
    return _cached_text_values(text) if len(text) <= CACHED_TEXT_LENGTH else _TextValues(text)


@lru_cache(maxsize=16384)
def _markup_values(containers: tuple[str, ...], distance: tuple[str, ...]) -> tuple[int, ...]:
    """``container.*``, ``container.class-*`` and ``split.*`` of a block."""
    present = set(containers)
    return (
        *(int(tag in present) for tag in CONTAINER_TAGS),
        *(int(not present.isdisjoint(tags)) for tags in CONTAINER_CLASSES.values()),
        *_split_levels(distance),
    )


def _group_levels(groups: Sequence[int], words: Sequence[int], total: int) -> list[int]:
    """Per block, the level of its group's share of ``total`` words (group 0: no group)."""
    sums: Counter[int] = Counter()
    for group, count in zip(groups, words, strict=True):
        sums[group] += count
    return [scaled(sums[group], total) if group else 0 for group in groups]


def victor_features(blocks: Sequence[VictorBlock]) -> list[list[int]]:
    """One row per block: the values of :data:`FEATURE_NAMES`, in that order."""
    values = [_text_values(block.text) for block in blocks]
    key_counts = Counter(value.key for value in values)
    seen: set[str] = set()
    free_words = [
        0 if "a" in b.containers else v.words for b, v in zip(blocks, values, strict=True)
    ]
    total_free = sum(free_words)
    div_levels = _group_levels([b.div_group for b in blocks], free_words, total_free)
    td_levels = _group_levels([b.td_group for b in blocks], free_words, total_free)
    count = len(blocks)
    document = (
        quantise(sum(v.words for v in values), DOCUMENT_WORD_VALUES),
        quantise(sum(v.sentences for v in values), DOCUMENT_SENTENCE_VALUES),
        quantise(count, DOCUMENT_BLOCK_VALUES),
        max(div_levels, default=0),
        max(td_levels, default=0),
    )
    rows = []
    for index, (block, value) in enumerate(zip(blocks, values, strict=True)):
        key = value.key
        duplicates = key_counts[key] if key else 0
        first = duplicates >= 2 and key not in seen
        if first:
            seen.add(key)
        rows.append(
            [
                *_markup_values(block.containers, block.distance),
                int(block.glued),
                *value.head,
                quantise(duplicates, DUPLICATE_VALUES),
                int(first),
                *value.tail,
                div_levels[index],
                td_levels[index],
                scaled(index, count),
                *document,
            ]
        )
    return rows


def _split_levels(distance: Sequence[str]) -> list[int]:
    """``split.p``, ``split.br``, ``split.hr``, ``split.class-inline``, ``split.class-block``."""
    names = Counter(tag.lstrip("/") for tag in distance)
    inline = sum(count for name, count in names.items() if name in INLINE_SPLIT_TAGS)
    block = sum(names.values()) - inline
    return [
        quantise(names["p"], SPLIT_VALUES),
        quantise(names["br"], SPLIT_VALUES),
        quantise(names["hr"], SPLIT_VALUES),
        quantise(inline, SPLIT_CLASS_VALUES),
        quantise(block, SPLIT_CLASS_VALUES),
    ]
