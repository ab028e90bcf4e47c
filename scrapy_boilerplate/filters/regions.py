"""Filters for the conventions of the learned ``article``'s text: the headline goes to the title
only (:class:`DropHeadlineFilter`); image captions and reader comments stay out unless asked
for (:class:`KeepCaptionsFilter`, :class:`KeepCommentsFilter`).

Rules: a block is in a caption when its container or one of its :data:`CAPTION_LEVELS` nearest
ancestors is a ``<figcaption>``/``<figure>`` or has a ``class``/``id`` matching
:data:`CAPTION_PATTERN`; it is in a comment when one of its :data:`COMMENT_LEVELS` nearest
ancestors-or-self has a ``class``/``id`` matching :data:`COMMENT_PATTERN`. Captions are kept
only between the first and the last content block (the article's span); comments anywhere, when
their link density is below :data:`MAX_COMMENT_LINK_DENSITY`.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from ..model.document import Element, TextBlock, TextDocument

__all__ = [
    "DropHeadlineFilter",
    "KeepCaptionsFilter",
    "KeepCommentsFilter",
    "CAPTION_PATTERN",
    "COMMENT_PATTERN",
    "CAPTION_LEVELS",
    "COMMENT_LEVELS",
    "MAX_COMMENT_LINK_DENSITY",
]

CAPTION_PATTERN: Final = re.compile(r"caption|credit", re.I)
COMMENT_PATTERN: Final = re.compile(r"comment|disqus|reply|replies", re.I)
CAPTION_LEVELS: Final = 3
COMMENT_LEVELS: Final = 8
MAX_COMMENT_LINK_DENSITY: Final = 0.5
_CAPTION_TAGS: Final = frozenset({"figcaption", "figure"})


def _names(element: Element) -> str:
    return f"{element.get('class') or ''} {element.get('id') or ''}"


def _within(
    block: TextBlock, levels: int, pattern: re.Pattern[str], tags: frozenset[str] = frozenset()
) -> bool:
    """Whether the block's container or one of its ``levels`` nearest ancestors matches."""
    node = block.element
    for _ in range(levels + 1):
        if node is None:
            return False
        if node.tag in tags or pattern.search(_names(node)):
            return True
        node = node.getparent()
    return False


@dataclass(frozen=True)
class KeepCaptionsFilter:
    """Caption blocks inside the article's span become content."""

    def __call__(self, doc: TextDocument) -> bool:
        positions = [i for i, block in enumerate(doc.blocks) if block.is_content]
        if not positions:
            return False
        changed = False
        for block in doc.blocks[positions[0] : positions[-1] + 1]:
            if not block.is_content and _within(
                block, CAPTION_LEVELS, CAPTION_PATTERN, _CAPTION_TAGS
            ):
                block.is_content = changed = True
        return changed


@dataclass(frozen=True)
class KeepCommentsFilter:
    """Blocks inside comment threads with mostly unlinked words become content."""

    def __call__(self, doc: TextDocument) -> bool:
        changed = False
        for block in doc.blocks:
            if (
                not block.is_content
                and block.num_words
                and block.link_density < MAX_COMMENT_LINK_DENSITY
                and _within(block, COMMENT_LEVELS, COMMENT_PATTERN)
            ):
                block.is_content = changed = True
        return changed


def _first_word(text: str) -> str:
    """The case-folded first whitespace-separated word of ``text`` ("" without words)."""
    words = text.split(None, 1)
    return words[0].casefold() if words else ""


@dataclass(frozen=True)
class DropHeadlineFilter:
    """Content blocks whose text is the headline (``headline(doc)``, compared with whitespace
    collapsed and case ignored) stop being content: the headline belongs in the title."""

    headline: Callable[[TextDocument], str | None]

    def __call__(self, doc: TextDocument) -> bool:
        headline = self.headline(doc)
        if not headline:
            return False
        wanted = " ".join(headline.split()).casefold()
        first_word = wanted.split(" ", 1)[0]
        changed = False
        for block in doc.blocks:
            # The first word decides most blocks without normalising all their text.
            if not block.is_content or _first_word(block.text) != first_word:
                continue
            if " ".join(block.text.split()).casefold() == wanted:
                block.is_content = False
                changed = True
        return changed
