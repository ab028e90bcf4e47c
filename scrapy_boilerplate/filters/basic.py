"""Filters that set every block's class by a plain rule."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..model import labels as L
from ..model.document import TextDocument
from . import Filter

__all__ = ["MarkEverythingContent", "MinWordsFilter", "FillContentGapsFilter", "ChosenChain"]


@dataclass(frozen=True)
class MarkEverythingContent:
    """Every block becomes content."""

    def __call__(self, doc: TextDocument) -> bool:
        changed = False
        for block in doc.blocks:
            changed |= not block.is_content
            block.is_content = True
        return changed


@dataclass(frozen=True)
class MinWordsFilter:
    """Content blocks with fewer than ``min_words`` words become non-content."""

    min_words: int

    def __call__(self, doc: TextDocument) -> bool:
        changed = False
        for block in doc.blocks:
            if block.is_content and block.num_words < self.min_words:
                block.is_content = False
                changed = True
        return changed


@dataclass(frozen=True)
class FillContentGapsFilter:
    """Link-free blocks between the first and the last content block become content.

    Restores headings, short paragraphs and list items inside the article that the word-count
    rules rejected. Blocks with any linked word, without words, or labelled
    ``OUTSIDE_MAIN_GROUP`` / ``STRICTLY_NOT_CONTENT`` stay boilerplate.
    """

    def __call__(self, doc: TextDocument) -> bool:
        positions = [i for i, block in enumerate(doc.blocks) if block.is_content]
        if not positions:
            return False
        changed = False
        for block in doc.blocks[positions[0] : positions[-1] + 1]:
            if (
                not block.is_content
                and block.num_words > 0
                and block.num_linked_words == 0
                and L.OUTSIDE_MAIN_GROUP not in block.labels
                and L.STRICTLY_NOT_CONTENT not in block.labels
            ):
                block.is_content = True
                changed = True
        return changed


@dataclass(frozen=True)
class ChosenChain:
    """Run the filters that ``choose(doc)`` picks for this document (e.g. by its page type),
    in order; True if one of them changed it."""

    choose: Callable[[TextDocument], Sequence[Filter]]

    def __call__(self, doc: TextDocument) -> bool:
        changed = False
        for step in self.choose(doc):
            changed |= bool(step(doc))
        return changed
