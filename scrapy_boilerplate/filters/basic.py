"""Filters that set every block's class by a plain rule."""

from __future__ import annotations

from dataclasses import dataclass

from ..document import TextDocument

__all__ = ["MarkEverythingContent", "MinWordsFilter"]


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
