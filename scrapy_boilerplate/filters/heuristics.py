"""Labelling heuristics of the reference boilerpipe (reference §5.4-§5.7, §5.13, §5.18).

These filters attach labels (end-of-text markers, the title block, article metadata) or flip
``is_content`` near the edges of the main text; they never merge or delete blocks.

Citations "reference §N" and "Q<n>" point to ``docs/reference-quirks.md``.
"""

from __future__ import annotations

import bisect
import itertools
import re
from dataclasses import dataclass
from typing import Final, Literal

from ..model import labels as lbl
from ..model.document import TextBlock, TextDocument
from .selection import LargestContentFilter

__all__ = [
    "TerminatingBlocksFinder",
    "DocumentTitleMatchClassifier",
    "title_candidates",
    "IgnoreBlocksAfterContentFilter",
    "TrailingHeadlineToBoilerplateFilter",
    "ListAtEndFilter",
    "ArticleMetadataFilter",
    "MainContentFilter",
    "java_trim",
    "java_split",
    "full_text_words",
]

#: Reference versions whose rules differ; "1.3" is the newest and the default.
Version = Literal["1.2", "1.3"]

#: Only blocks with fewer words than this are tested for end-of-text indicators.
MAX_TERMINATING_BLOCK_WORDS: Final = 15
#: Only texts at least this long (characters, trimmed) are tested against the indicator strings.
MIN_TERMINATING_TEXT_CHARS: Final = 8
_END_PREFIXES: Final = ("comments", "© reuters", "please rate this", "post a comment")
_END_AFTER_NUMBER: Final = re.compile(r"[0-9]+ (?:comments|users responded in)")
_END_SUBSTRINGS: Final = (
    "what you think...",
    "add your comment",
    "add comment",
    "reader views",
    "have your say",
    "reader comments",
    "rätta artikeln",
)
_END_EQUALS: Final = "thanks for your comments - this feedback is now closed"
_END_SUBSTRING: Final = re.compile("|".join(map(re.escape, _END_SUBSTRINGS)))
#: Words one of which every indicator holds ("comment" stands for the prefixes and substrings
#: holding it, the numbered "comments", the exact sentence and the 1.3 "Comment"): a block
#: whose lower-cased text holds none is not tested.
_INDICATOR_WORDS: Final = (
    "comment", "© reuters", "please rate this", "users responded in",
    *(word for word in _END_SUBSTRINGS if "comment" not in word),
)  # fmt: skip

#: Text density (words per line) from which a block's words count as full-text words.
MIN_FULL_TEXT_DENSITY: Final = 9
#: Full-text content words needed before an end-of-text block cuts the rest (Q17).
MIN_WORDS_BEFORE_END: Final = 60
#: Blocks with at most this many words are tested by :class:`ArticleMetadataFilter`.
MAX_METADATA_WORDS: Final = 10

_JAVA_TRIM_CHARS: Final = "".join(map(chr, range(0x21)))
_MONTHS = (
    "Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec|January|February|March|April|May|June|"
    "July|August|September|October|November|December"
)
_METADATA_PATTERNS: Final = (
    re.compile(rf"^[0-9 ,./]*\b(?:{_MONTHS})?\b[0-9 ,:apm./]*(?:[CPSDMGET]{{2,3}})?$"),
    re.compile(r"^[Bb]y "),
)

# Title candidates (§5.5): separator sets S1..S6 for the "longest part" candidates.
_LONGEST_PART_SEPARATORS_13: Final = tuple(
    re.compile(f" *[{chars}] *")
    for chars in (r"|»\-", r"|»:", r"|»:()", r"|»:()\-", r"|»,:()\-", "|»,:()\\-\u00a0")
)
_LONGEST_PART_SEPARATORS_12: Final = _LONGEST_PART_SEPARATORS_13[1:5]
_SPACED_PIPE: Final = re.compile(r" +\| +")
_SPACED_HYPHEN: Final = re.compile(r" +- +")
_TRAILING_HYPHEN_PART: Final = re.compile(r" - [^\-]+$")
_LEADING_HYPHEN_PART: Final = re.compile(r"^[^\-]+ - ")
_SPACE_RUN: Final = re.compile(" +")
_TITLE_PUNCTUATION: Final = re.compile(r"[?!.\-:]+")
#: Minimum words of a ``" | "``/``" - "`` title part to become a candidate on its own.
MIN_TITLE_PART_WORDS: Final = 4


def java_trim(text: str) -> str:
    """Strip characters <= U+0020 from both ends (Java ``String.trim``; NBSP is kept)."""
    return text.strip(_JAVA_TRIM_CHARS)


def java_split(pattern: re.Pattern[str], text: str) -> list[str]:
    """Split like Java ``String.split``: no match gives ``[text]``, trailing empty pieces go."""
    pieces = pattern.split(text)
    if len(pieces) == 1:
        return pieces
    while pieces and not pieces[-1]:
        pieces.pop()
    return pieces


def full_text_words(block: TextBlock) -> int:
    """The block's words if its text density is at least 9 (running text), else 0."""
    return block.num_words if block.text_density >= MIN_FULL_TEXT_DENSITY else 0


def _indicates_end_of_text(block: TextBlock, version: Version) -> bool:
    text = java_trim(block.text)
    if len(text) >= MIN_TERMINATING_TEXT_CHARS:
        lowered = text.lower()
        if lowered.startswith(_END_PREFIXES) or lowered == _END_EQUALS:
            return True
        if _END_AFTER_NUMBER.match(lowered) is not None:
            return True
        return _END_SUBSTRING.search(lowered) is not None
    return version == "1.3" and block.link_density == 1.0 and text == "Comment"


@dataclass(frozen=True)
class TerminatingBlocksFinder:
    """Label blocks that mark the end of the article text (comments, ratings) INDICATES_END_OF_TEXT.

    Only blocks with fewer than 15 words are tested. A trimmed text of at least 8 characters is
    lower-cased and matched against fixed indicators: prefixes (``comments``, ``© reuters``,
    ``please rate this``, ``post a comment``), digits followed by `` comments`` or `` users
    responded in``, substrings (``add comment``, ``have your say``, ``reader comments``, …) and one
    exact sentence. Shorter texts are labelled only in 1.3, and only for a fully linked
    ``Comment``. The 1.3 ``Comment`` rule reports its change (the reference does not, Q14).
    """

    version: Version = "1.3"

    def __call__(self, doc: TextDocument) -> bool:
        changed = False
        short = [block for block in doc.blocks if block.num_words < MAX_TERMINATING_BLOCK_WORDS]
        for block in _holding_indicator_words(short):
            if _indicates_end_of_text(block, self.version):
                changed |= lbl.INDICATES_END_OF_TEXT not in block.labels
                block.labels.add(lbl.INDICATES_END_OF_TEXT)
        return changed


def _holding_indicator_words(blocks: list[TextBlock]) -> list[TextBlock]:
    """The blocks whose lower-cased text holds one of :data:`_INDICATOR_WORDS` (every block
    that :func:`_indicates_end_of_text` accepts does), in order, found in their joined texts
    (all blocks if lower-casing changed the joined text's length)."""
    joined = "\n".join([block.text for block in blocks])  # no indicator word holds "\n"
    lowered = joined.lower()
    found = []
    for word in _INDICATOR_WORDS:
        at = lowered.find(word)
        while at >= 0:
            found.append(at)
            at = lowered.find(word, at + len(word))
    if not found:
        return []
    if len(lowered) != len(joined):  # "İ" lower-cased is two characters: no position map
        return blocks
    starts = list(itertools.accumulate([len(block.text) + 1 for block in blocks], initial=0))
    indices = sorted({bisect.bisect_right(starts, at) - 1 for at in found})
    return [blocks[index] for index in indices]


def _count_title_words(part: str) -> int:
    return len(java_split(_SPACE_RUN, part))


def _longest_part(title: str, separators: re.Pattern[str], count_words: bool) -> str | None:
    """The reference's "longest part": more words OR more characters than the best so far (Q11)."""
    parts = java_split(separators, title)
    if len(parts) == 1:
        return None
    best, best_words = "", 0
    for part in parts:
        if ".com" in part:
            continue
        words = _count_title_words(part) if count_words else 1
        if words > best_words or len(part) > len(best):
            best, best_words = part, words
    return java_trim(best) or None


def _parts_with_min_words(title: str, separator: re.Pattern[str]) -> list[str]:
    parts = java_split(separator, title)
    if len(parts) == 1:
        return []
    return [
        part
        for part in parts
        if ".com" not in part and _count_title_words(part) >= MIN_TITLE_PART_WORDS
    ]


def _normalise_title_text(text: str) -> str:
    return java_trim(text.replace("\u00a0", " ").replace("'", "")).lower()


def title_candidates(title: str | None, version: Version = "1.3") -> frozenset[str]:
    """The strings a block must equal to be the title block (reference §5.5); empty if no title."""
    if title is None:
        return frozenset()
    legacy = version == "1.2"
    title = java_trim(title) if legacy else _normalise_title_text(title)
    if not title:
        return frozenset()
    separator_sets = _LONGEST_PART_SEPARATORS_12 if legacy else _LONGEST_PART_SEPARATORS_13
    found = {title}
    for separators in separator_sets:
        part = _longest_part(title, separators, count_words=not legacy)
        if part is not None:
            found.add(part)
    if not legacy:
        found.update(_parts_with_min_words(title, _SPACED_PIPE))
        found.update(_parts_with_min_words(title, _SPACED_HYPHEN))
        found.add(_TRAILING_HYPHEN_PART.sub("", title, count=1))
        found.add(_LEADING_HYPHEN_PART.sub("", title, count=1))
    return frozenset(found)


@dataclass(frozen=True)
class DocumentTitleMatchClassifier:
    """Label the block that repeats the page's ``<title>`` (or a part of it) TITLE.

    Candidates come from the document title (reference §5.5): the whole normalised title (NBSP as
    space, ``'`` removed, trimmed, lower-cased), its longest part for six separator sets, its
    `` | ``/`` - `` parts of at least 4 words and the title without a leading or trailing
    `` - `` part. The first block whose normalised text is a candidate, either as is or with
    ``? ! . - :`` deleted, gets TITLE. In the 1.2 variant the title is only trimmed, there are
    fewer candidates, matching is exact and every matching block is labelled. ``title``
    overrides the document's title.
    """

    version: Version = "1.3"
    title: str | None = None

    def __call__(self, doc: TextDocument) -> bool:
        title = self.title if self.title is not None else doc.title
        candidates = title_candidates(title, self.version)
        if not candidates:
            return False
        if self.version == "1.2":
            changed = False
            for block in doc.blocks:
                if java_trim(block.text) in candidates:
                    changed |= lbl.TITLE not in block.labels
                    block.labels.add(lbl.TITLE)
            return changed
        for block in doc.blocks:
            text = _normalise_title_text(block.text)
            if text in candidates or java_trim(_TITLE_PUNCTUATION.sub("", text)) in candidates:
                changed = lbl.TITLE not in block.labels
                block.labels.add(lbl.TITLE)
                return changed
        return False


@dataclass(frozen=True)
class IgnoreBlocksAfterContentFilter:
    """Once enough article text was seen, the first end-of-text block and all after it go.

    Blocks are visited in order, summing the full-text words (``nw`` if text density >= 9,
    else 0) of content blocks, the current one included. At the first block labelled
    INDICATES_END_OF_TEXT with a sum of at least ``min_words`` (60), that block and every later
    block become non-content; labels are left alone.
    """

    min_words: int = MIN_WORDS_BEFORE_END

    def __call__(self, doc: TextDocument) -> bool:
        words = 0
        ended = False
        changed = False
        for block in doc.blocks:
            if block.is_content:
                words += full_text_words(block)
            if not ended and lbl.INDICATES_END_OF_TEXT in block.labels and words >= self.min_words:
                ended = True
            if ended:
                changed |= block.is_content
                block.is_content = False
        return changed


@dataclass(frozen=True)
class TrailingHeadlineToBoilerplateFilter:
    """Headings (H1-H3) at the end of the content are not content.

    Going backwards from the last block and skipping non-content blocks, content blocks labelled
    HEADING become non-content; the first content block without HEADING stops the walk.
    """

    def __call__(self, doc: TextDocument) -> bool:
        changed = False
        for block in reversed(doc.blocks):
            if not block.is_content:
                continue
            if lbl.HEADING not in block.labels:
                break
            block.is_content = False
            changed = True
        return changed


@dataclass(frozen=True)
class ListAtEndFilter:
    """A run of deeper, link-free list items right after the main block becomes content.

    After a content block labelled VERY_LIKELY_CONTENT (tag level ``L``), each following block
    with a tag level above ``L``, labels MIGHT_BE_CONTENT and LI, and link density 0 becomes
    content; any other block ends the run.
    """

    def __call__(self, doc: TextDocument) -> bool:
        level = float("inf")
        changed = False
        for block in doc.blocks:
            if block.is_content and lbl.VERY_LIKELY_CONTENT in block.labels:
                level = block.tag_level
            elif (
                block.tag_level > level
                and lbl.MIGHT_BE_CONTENT in block.labels
                and lbl.LI in block.labels
                and block.num_linked_words == 0
            ):
                changed |= not block.is_content
                block.is_content = True
            else:
                level = float("inf")
        return changed


@dataclass(frozen=True)
class ArticleMetadataFilter:
    """Short date/time lines and bylines become content, labelled ARTICLE_METADATA.

    A block with at most 10 words qualifies if its whole text has a date/time shape (digits and
    ``, . /``, an optional English month name, digits and ``, : a p m . /``, an optional 2-3
    letter time zone of ``CPSDMGET``; e.g. ``March 3, 2009``, ``12:30 pm EST``) or starts with
    ``By `` or ``by ``. Not used by the reference extractors.
    """

    max_words: int = MAX_METADATA_WORDS

    def __call__(self, doc: TextDocument) -> bool:
        changed = False
        for block in doc.blocks:
            if block.num_words > self.max_words:
                continue
            if any(pattern.search(block.text) for pattern in _METADATA_PATTERNS):
                changed |= not block.is_content or lbl.ARTICLE_METADATA not in block.labels
                block.is_content = True
                block.labels.add(lbl.ARTICLE_METADATA)
        return changed


@dataclass(frozen=True)
class MainContentFilter:
    """The paper's Main Content Filter (§4.3): Largest Content Filter between title and comments.

    Blocks before the first block labelled TITLE and from the first block labelled
    INDICATES_END_OF_TEXT after it onward become non-content; then the largest run of adjacent
    content blocks is kept (:class:`~.selection.LargestContentFilter`). Run
    :class:`DocumentTitleMatchClassifier` and :class:`TerminatingBlocksFinder` first; without
    those labels this is the Largest Content Filter. Unlike the reference ArticleExtractor it
    needs no minimum of words before the comments marker and merges nothing.
    """

    def __call__(self, doc: TextDocument) -> bool:
        blocks = doc.blocks
        start = next((i for i, block in enumerate(blocks) if lbl.TITLE in block.labels), 0)
        end = next(
            (i for i in range(start, len(blocks)) if lbl.INDICATES_END_OF_TEXT in blocks[i].labels),
            len(blocks),
        )
        changed = False
        for index, block in enumerate(blocks):
            if block.is_content and not start <= index < end:
                block.is_content = False
                changed = True
        return LargestContentFilter()(doc) or changed
