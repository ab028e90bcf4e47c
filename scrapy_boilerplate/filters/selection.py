"""Selection filters: keep the main block, expand around it, drop the rest (reference §5.9-§5.16).

These run after a classifier has marked candidate blocks as content and decide which of them
form the article (the largest block, its title, same-level neighbours, whole clauses).

Citations "reference §N" and "Q<n>" point to ``docs/reference-quirks.md``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

from ..model import labels as lbl
from ..model.document import TextBlock, TextDocument

__all__ = [
    "BoilerplateBlockFilter",
    "KeepLargestBlockFilter",
    "ExpandTitleToContentFilter",
    "LargeBlockSameTagLevelToContentFilter",
    "MinClauseWordsFilter",
    "SurroundingToContentFilter",
    "LargestContentFilter",
]

#: Words a same-level block needs to join the largest block (ArticleExtractor 1.3).
ARTICLE_EXPAND_MIN_WORDS: Final = 150
#: Words a non-content block at the main block's tag level needs to become content.
LARGE_BLOCK_MIN_WORDS: Final = 100
#: Words (whitespace runs + 1) a clause needs in :class:`MinClauseWordsFilter`.
MIN_CLAUSE_WORDS: Final = 5
#: A block between two content blocks needs more words than this (and no links) to join them.
SURROUNDED_MIN_WORDS_EXCLUSIVE: Final = 6

# A letter or ASCII digit, then clause punctuation, then whitespace or the end of the text.
_CLAUSE_DELIMITER: Final = re.compile(r"(?<=[^\W\d_]|[0-9])[,.:;!?]+(?:[ \n\r]+|\Z)")
_CLAUSE_SPACE: Final = re.compile(r"[ \n\r]+")


@dataclass(frozen=True)
class BoilerplateBlockFilter:
    """Delete every non-content block from the document.

    With ``keep_title`` non-content blocks labelled TITLE are kept, so later filters can expand
    the content up to the title. Later filters see only the surviving blocks; the deleted ones
    still count in offset distances.
    """

    keep_title: bool = False

    def __call__(self, doc: TextDocument) -> bool:
        kept = [
            block
            for block in doc.blocks
            if block.is_content or (self.keep_title and lbl.TITLE in block.labels)
        ]
        changed = len(kept) != len(doc.blocks)
        doc.blocks[:] = kept
        return changed


def _largest_content_index(blocks: list[TextBlock]) -> int | None:
    """Index of the first content block with the most words, or None without content."""
    best: int | None = None
    for index, block in enumerate(blocks):
        if block.is_content and (best is None or block.num_words > blocks[best].num_words):
            best = index
    return best


@dataclass(frozen=True)
class KeepLargestBlockFilter:
    """Keep only the content block with the most words (the earliest on ties).

    It becomes content with VERY_LIKELY_CONTENT; every other block becomes non-content with
    MIGHT_BE_CONTENT. With ``expand``, blocks at the same tag level with at least ``min_words``
    words also become content, walking outwards in both directions from the largest block and
    stopping at the first block with a lower tag level. Does nothing with fewer than 2 blocks
    (Q16, kept for parity).
    """

    expand: bool = False
    min_words: int = 0

    def __call__(self, doc: TextDocument) -> bool:
        blocks = doc.blocks
        if len(blocks) < 2:
            return False
        largest = _largest_content_index(blocks)
        for index, block in enumerate(blocks):
            if index == largest:
                block.is_content = True
                block.labels.add(lbl.VERY_LIKELY_CONTENT)
            else:
                block.is_content = False
                block.labels.add(lbl.MIGHT_BE_CONTENT)
        if self.expand and largest is not None:
            level = blocks[largest].tag_level
            for side in (blocks[largest - 1 :: -1] if largest else [], blocks[largest:]):
                for block in side:
                    if block.tag_level < level:
                        break
                    if block.tag_level == level and block.num_words >= self.min_words:
                        block.is_content = True
        return True


@dataclass(frozen=True)
class ExpandTitleToContentFilter:
    """Make the title block and the candidate blocks between it and the content content.

    ``c`` is the index of the first content block and ``t`` that of the last TITLE block at or
    before it. If ``t < c``, every block in ``[t, c)`` labelled MIGHT_BE_CONTENT (by
    :class:`KeepLargestBlockFilter`) becomes content.
    """

    def __call__(self, doc: TextDocument) -> bool:
        title = first_content = -1
        for index, block in enumerate(doc.blocks):
            if lbl.TITLE in block.labels:
                title = index
            if block.is_content:
                first_content = index
                break
        if title == -1 or first_content <= title:
            return False
        changed = False
        for block in doc.blocks[title:first_content]:
            if lbl.MIGHT_BE_CONTENT in block.labels:
                changed |= not block.is_content
                block.is_content = True
        return changed


@dataclass(frozen=True)
class LargeBlockSameTagLevelToContentFilter:
    """Large blocks at the main block's tag level become content.

    ``L`` is the tag level of the first content block labelled VERY_LIKELY_CONTENT; without one
    nothing happens. Every non-content block with at least ``min_words`` (100) words and tag
    level ``L`` becomes content.
    """

    min_words: int = LARGE_BLOCK_MIN_WORDS

    def __call__(self, doc: TextDocument) -> bool:
        main = next(
            (b for b in doc.blocks if b.is_content and lbl.VERY_LIKELY_CONTENT in b.labels), None
        )
        if main is None:
            return False
        changed = False
        for block in doc.blocks:
            if (
                not block.is_content
                and block.num_words >= self.min_words
                and block.tag_level == main.tag_level
            ):
                block.is_content = True
                changed = True
        return changed


def has_clause(text: str, min_words: int, accept_without_delimiter: bool) -> bool:
    """True if ``text`` has a delimited clause of at least ``min_words`` words."""
    start = 0
    for match in _CLAUSE_DELIMITER.finditer(text):
        if len(_CLAUSE_SPACE.findall(text, start, match.start())) + 1 >= min_words:
            return True
        start = match.end()
    return accept_without_delimiter and len(_CLAUSE_SPACE.findall(text, start)) + 1 >= min_words


@dataclass(frozen=True)
class MinClauseWordsFilter:
    """Content blocks without a clause of at least ``min_words`` (5) words become non-content.

    A clause ends at a letter or ASCII digit followed by ``, . : ; ! ?`` and then whitespace
    or the end of the text; its words are its whitespace runs + 1. Text after the last
    delimiter counts only with ``accept_without_delimiter``.
    """

    min_words: int = MIN_CLAUSE_WORDS
    accept_without_delimiter: bool = False

    def __call__(self, doc: TextDocument) -> bool:
        changed = False
        for block in doc.blocks:
            if block.is_content and not has_clause(
                block.text, self.min_words, self.accept_without_delimiter
            ):
                block.is_content = False
                changed = True
        return changed


@dataclass(frozen=True)
class SurroundingToContentFilter:
    """A link-free non-content block between two content blocks becomes content.

    The block needs link density 0 and more than ``min_words_exclusive`` (6) words. Every
    triple of neighbours is checked (the reference checks every other one, Q19). Not used by
    the reference extractors.
    """

    min_words_exclusive: int = SURROUNDED_MIN_WORDS_EXCLUSIVE

    def __call__(self, doc: TextDocument) -> bool:
        blocks = doc.blocks
        changed = False
        for prev, block, nxt in zip(blocks, blocks[1:], blocks[2:], strict=False):
            if (
                not block.is_content
                and prev.is_content
                and nxt.is_content
                and block.num_linked_words == 0
                and block.num_words > self.min_words_exclusive
            ):
                block.is_content = True
                changed = True
        return changed


@dataclass(frozen=True)
class LargestContentFilter:
    """The paper's Largest Content Filter (§4.3): keep only the largest run of content.

    Runs of adjacent content blocks count as one block (the paper's blocks are atomic; a
    paragraph-per-block article is one run). The run with the most words stays content (the
    earliest on ties); all other blocks become non-content. Unlike the reference
    LargestContentExtractor it merges nothing, so no preceding boilerplate block is absorbed
    (Q1).
    """

    def __call__(self, doc: TextDocument) -> bool:
        runs: list[tuple[int, int, int]] = []  # (words, start, end)
        start = None
        for index, block in enumerate([*doc.blocks, None]):
            if block is not None and block.is_content:
                if start is None:
                    start = index
            elif start is not None:
                runs.append((sum(b.num_words for b in doc.blocks[start:index]), start, index))
                start = None
        if len(runs) < 2:
            return False
        best = max(runs, key=lambda run: (run[0], -run[1]))
        changed = False
        for _words, run_start, run_end in runs:
            if run_start != best[1]:
                for block in doc.blocks[run_start:run_end]:
                    block.is_content = False
                    changed = True
        return changed
