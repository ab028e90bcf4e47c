"""The document model: a page as an ordered list of atomic text blocks.

Filters read and change :class:`TextDocument` in place; a block keeps a reference to the DOM
element its text came from, so tree-based filters can work on ancestors.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from lxml import etree

__all__ = [
    "Element",
    "TextBlock",
    "TextDocument",
    "EMPTY_BLOCK",
    "BlockRow",
    "merged_score",
    "blocks_to_rows",
    "blocks_from_rows",
]

#: An lxml element of a parsed page.
Element = etree._Element


@dataclass(eq=False, slots=True)
class TextBlock:
    """A run of text not interrupted by a block-level tag (``<a>`` and inline tags don't split).

    Units: word counts are word tokens (see :mod:`scrapy_boilerplate.page.tokens`); ``tag_level`` is
    the element depth where the block's first text appeared (``<html>`` = 1, ``<body>`` = 2).
    """

    text: str
    num_words: int
    num_linked_words: int = 0
    num_wrapped_words: int = 0
    num_wrapped_lines: int = 1
    num_word_chars: int = 0
    tag_level: int = 0
    offset_start: int = 0
    offset_end: int = 0
    labels: set[str] = field(default_factory=set)
    elements: list[Element] = field(default_factory=list)
    is_content: bool = False
    #: A model's probability that the block is content (None when no model scored it).
    score: float | None = None

    @property
    def text_density(self) -> float:
        """Words per wrapped 80-column line, the incomplete last line excluded."""
        return self.num_wrapped_words / self.num_wrapped_lines if self.num_wrapped_lines else 0.0

    @property
    def link_density(self) -> float:
        """Share of words inside ``<a>`` (0 for a block without words)."""
        return self.num_linked_words / self.num_words if self.num_words else 0.0

    @property
    def element(self) -> Element | None:
        """The innermost block-level element holding the block's first text."""
        return self.elements[0] if self.elements else None

    def merge_next(self, other: TextBlock) -> None:
        """Append ``other`` to this block (texts joined by a newline, counts summed).

        The merged ``score`` is the word-weighted mean of the known scores (a plain mean when
        neither block has words), or None when neither block has one.
        """
        self.score = merged_score(self, other)
        self.text = f"{self.text}\n{other.text}"
        self.num_words += other.num_words
        self.num_linked_words += other.num_linked_words
        self.num_wrapped_words += other.num_wrapped_words
        self.num_wrapped_lines += other.num_wrapped_lines
        self.num_word_chars += other.num_word_chars
        if self.num_wrapped_words == 0:
            self.num_wrapped_words, self.num_wrapped_lines = self.num_words, 1
        self.offset_start = min(self.offset_start, other.offset_start)
        self.offset_end = max(self.offset_end, other.offset_end)
        self.is_content = self.is_content or other.is_content
        self.labels |= other.labels
        self.tag_level = min(self.tag_level, other.tag_level)
        self.elements.extend(other.elements)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-serialisable view (the DOM reference is left out)."""
        return {
            "text": self.text,
            "is_content": self.is_content,
            "score": None if self.score is None else round(self.score, 6),
            "labels": sorted(self.labels),
            "num_words": self.num_words,
            "num_linked_words": self.num_linked_words,
            "link_density": round(self.link_density, 6),
            "text_density": round(self.text_density, 6),
            "tag_level": self.tag_level,
            "offset_start": self.offset_start,
            "offset_end": self.offset_end,
        }


def merged_score(first: TextBlock, second: TextBlock) -> float | None:
    """The score of ``first`` and ``second`` merged: word-weighted mean of the known scores."""
    scored = [block for block in (first, second) if block.score is not None]
    if not scored:
        return None
    words = sum(block.num_words for block in scored)
    if not words:
        return sum(block.score or 0.0 for block in scored) / len(scored)
    return sum((block.score or 0.0) * block.num_words for block in scored) / words


#: A block as a plain tuple: every field but ``elements``, in field order.
BlockRow = tuple[str, int, int, int, int, int, int, int, int, set[str], bool, float | None]


def blocks_to_rows(blocks: list[TextBlock]) -> list[BlockRow]:
    """The blocks as plain tuples without their DOM references (quick to pickle)."""
    return [
        (
            b.text,
            b.num_words,
            b.num_linked_words,
            b.num_wrapped_words,
            b.num_wrapped_lines,
            b.num_word_chars,
            b.tag_level,
            b.offset_start,
            b.offset_end,
            b.labels,
            b.is_content,
            b.score,
        )
        for b in blocks
    ]


def blocks_from_rows(rows: list[BlockRow]) -> list[TextBlock]:
    """Blocks back from :func:`blocks_to_rows` (with no DOM references)."""
    return [TextBlock(*row[:10], [], row[10], row[11]) for row in rows]


#: The neighbour used at document edges by the neighbour classifiers (nw 0, ld 0, td 0).
EMPTY_BLOCK = TextBlock(text="", num_words=0, num_wrapped_lines=0)


@dataclass(eq=False, slots=True)
class TextDocument:
    """A segmented page: its blocks in document order, the ``<title>`` text and the parsed tree."""

    blocks: list[TextBlock]
    title: str | None = None
    root: Element | None = None
    url: str | None = None
    #: The kind of page (``article``, ``listing``, ``forum`` ...) and the classifier's
    #: confidence in it (0-1), when a page-type classifier ran; else None.
    page_type: str | None = None
    page_type_confidence: float | None = None
    #: Values derived from ``title`` and ``root`` by pure functions, kept by those functions
    #: with the inputs they were computed from (e.g. the headline, asked by several filters).
    memo: dict[str, Any] = field(default_factory=dict)

    @property
    def content_blocks(self) -> list[TextBlock]:
        """The blocks currently marked as content, in order."""
        return [block for block in self.blocks if block.is_content]

    @property
    def content_text(self) -> str:
        """Content block texts, each followed by a newline (the reference's output format)."""
        return "".join(block.text + "\n" for block in self.blocks if block.is_content)
