"""Filters for the conventions of the learned ``article``'s text: the headline goes to the title
only (:class:`DropHeadlineFilter`); reader comments are found (:class:`CommentRegionFilter`)
and leave the text, image captions stay out, both unless asked for
(:class:`KeepCaptionsFilter`, :class:`KeepCommentsFilter`).

Rules: a block is in a caption when its container or one of its :data:`CAPTION_LEVELS` nearest
ancestors is a ``<figcaption>``/``<figure>`` or has a ``class``/``id`` matching
:data:`CAPTION_PATTERN`. It is in a comment when its container is inside an element below
``<body>`` with a comment name (:func:`is_comment_name`). Captions are
kept only between the first and the last content block (the article's span); comments anywhere,
when their link density is below :data:`MAX_COMMENT_LINK_DENSITY`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final

from ..model import labels as L
from ..model.document import Element, TextBlock, TextDocument
from ..page.declarations import (
    COMMENT_STATE_WORDS,
    COMMENT_WORDS,
    declarations,
    document_declarations,
    is_comment_name,
)

__all__ = [
    "CommentRegionFilter",
    "is_comment_text",
    "is_comment_name",
    "comment_elements",
    "comments_of",
    "DropHeadlineFilter",
    "LeadFilter",
    "lead_candidates",
    "MAX_LEAD_BLOCKS",
    "MAX_LEAD_WORDS",
    "MIN_LEAD_SCORE",
    "KeepCaptionsFilter",
    "KeepCommentsFilter",
    "CAPTION_PATTERN",
    "COMMENT_WORDS",
    "COMMENT_STATE_WORDS",
    "CAPTION_LEVELS",
    "MAX_COMMENT_LINK_DENSITY",
]

CAPTION_PATTERN: Final = re.compile(r"caption|credit", re.I)
CAPTION_LEVELS: Final = 3
MAX_COMMENT_LINK_DENSITY: Final = 0.5
#: Most blocks and words of a lead that :class:`LeadFilter` puts back, and the least score of
#: each (chosen on the cross-validation's out-of-fold scores, see ``docs/extractors.md``).
MAX_LEAD_BLOCKS: Final = 2
MAX_LEAD_WORDS: Final = 80
MIN_LEAD_SCORE: Final = 0.5
_CAPTION_TAGS: Final = frozenset({"figcaption", "figure"})
_PAGE_TAGS: Final = frozenset({"body", "html"})


def _names(element: Element) -> str:
    return f"{element.get('class') or ''} {element.get('id') or ''}"


def comment_elements(doc: TextDocument) -> list[Element]:
    """The elements of the document's tree with a comment name (:func:`is_comment_name`),
    ``<body>`` and ``<html>`` excepted, in document order. The tree is ``doc.root``, else the
    one of the first block's element; its candidates come from the page's declarations (found
    by the segmentation walk)."""
    found = document_declarations(doc)
    if found is None:
        first = next((block.element for block in doc.blocks if block.element is not None), None)
        if first is None:
            return []
        found = declarations(first.getroottree().getroot())
    return [
        node
        for node in found.comment_named
        if node.tag not in _PAGE_TAGS and is_comment_name(_names(node))
    ]


def comments_of(blocks: Sequence[TextBlock], comments: Sequence[Element]) -> list[Element | None]:
    """Per block, the innermost of ``comments`` (in document order) holding its container (None:
    not in a comment)."""
    positions: dict[Element, list[int]] = {}
    for index, block in enumerate(blocks):
        if block.element is not None:
            positions.setdefault(block.element, []).append(index)
    owners: list[Element | None] = [None] * len(blocks)
    for comment in comments:  # a comment inside another comes later and wins
        for node in comment.iter():
            for index in positions.get(node, ()):
                owners[index] = comment
    return owners


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
class CommentRegionFilter:
    """Take the blocks inside reader comments (:func:`comments_of`) out of the content and
    label them: a comment thread never counts for the article's region, however long.

    Labels: ``COMMENT`` on each; ``COMMENT_TEXT`` on those with words, link density below
    :data:`MAX_COMMENT_LINK_DENSITY`, not headings; ``COMMENT_START`` on the first text block of
    each comment. A comment is the innermost comment-named element that holds no other one; text
    blocks directly in a thread element (one that holds other comment elements) are comments
    each.
    """

    def __call__(self, doc: TextDocument) -> bool:
        comments = comment_elements(doc)
        if not comments:  # most pages
            return False
        found = list(zip(doc.blocks, comments_of(doc.blocks, comments), strict=True))
        elements = {id(node): node for _, node in found if node is not None}
        threads = {
            id(ancestor)
            for node in elements.values()
            for ancestor in node.iterancestors()
            if id(ancestor) in elements
        }
        changed = False
        previous: Element | None = None
        for block, node in found:
            if node is None:
                previous = None
                continue
            block.labels.add(L.COMMENT)
            changed |= block.is_content
            block.is_content = False
            if is_comment_text(block):
                block.labels.add(L.COMMENT_TEXT)
                if id(node) in threads or node is not previous:
                    block.labels.add(L.COMMENT_START)
                previous = node
        return changed


def is_comment_text(block: TextBlock) -> bool:
    """A comment block with words, mostly unlinked, that is not a heading ("4 comments")."""
    return (
        block.num_words > 0
        and block.link_density < MAX_COMMENT_LINK_DENSITY
        and L.HEADING not in block.labels
    )


@dataclass(frozen=True)
class KeepCommentsFilter:
    """Comment text blocks (label ``COMMENT_TEXT``) become content: on every page, or, with
    ``page_types``, only on pages of those types (``doc.page_type``; a forum's replies are its
    content, a product or service page's comments are not)."""

    page_types: frozenset[str] | None = None

    def __call__(self, doc: TextDocument) -> bool:
        if self.page_types is not None and doc.page_type not in self.page_types:
            return False
        changed = False
        for block in doc.blocks:
            if not block.is_content and L.COMMENT_TEXT in block.labels:
                block.is_content = changed = True
        return changed


def _first_word(text: str) -> str:
    """The case-folded first whitespace-separated word of ``text`` ("" without words)."""
    words = text.split(None, 1)
    return words[0].casefold() if words else ""


def _headline_test(headline: str | None) -> Callable[[TextBlock], bool] | None:
    """A test of whether a block's text is ``headline``, whitespace collapsed and case folded
    (None without a headline); the first word decides most blocks without normalising them."""
    if not headline:
        return None
    wanted = " ".join(headline.split()).casefold()
    first_word = wanted.split(" ", 1)[0]

    def is_headline(block: TextBlock) -> bool:
        text = block.text
        return _first_word(text) == first_word and " ".join(text.split()).casefold() == wanted

    return is_headline


def lead_candidates(doc: TextDocument, headline: str | None) -> list[TextBlock]:
    """The blocks of ``doc`` that may be a story's lead: among the :data:`MAX_LEAD_BLOCKS`
    blocks right after each block whose text is ``headline`` (compared as
    :class:`DropHeadlineFilter` does), those scored at least :data:`MIN_LEAD_SCORE`, when they
    hold at most :data:`MAX_LEAD_WORDS` words together (none without a headline or scores)."""
    is_headline = _headline_test(headline)
    if is_headline is None:
        return []
    blocks = doc.blocks
    found: list[TextBlock] = []
    for index, block in enumerate(blocks):
        if not is_headline(block):
            continue
        after = blocks[index + 1 : index + 1 + MAX_LEAD_BLOCKS]
        lead = [b for b in after if (b.score or 0.0) >= MIN_LEAD_SCORE]
        if sum(b.num_words for b in lead) <= MAX_LEAD_WORDS:
            found += lead
    return found


@dataclass(frozen=True)
class LeadFilter:
    """The lead (standfirst) of a story back in the text: between the headline block and the
    first other content block, the blocks the main-region rule dropped (label
    ``OUTSIDE_MAIN_GROUP``) with a score of at least :data:`MIN_LEAD_SCORE` become content
    again, when there are at most :data:`MAX_LEAD_BLOCKS` of them with at most
    :data:`MAX_LEAD_WORDS` words (a summary above the body, often in its own container).
    Nothing changes without a headline block before the body."""

    headline: Callable[[TextDocument], str | None]

    def __call__(self, doc: TextDocument) -> bool:
        is_headline = _headline_test(self.headline(doc))
        if is_headline is None:
            return False
        blocks = doc.blocks
        found = None  # the index of the last headline block before the body
        for index, block in enumerate(blocks):
            if is_headline(block):
                found = index
            elif block.is_content:
                break
        else:
            return False
        if found is None:
            return False
        lead = [
            block
            for block in blocks[found + 1 : index]
            if L.OUTSIDE_MAIN_GROUP in block.labels and (block.score or 0.0) >= MIN_LEAD_SCORE
        ]
        if not lead or len(lead) > MAX_LEAD_BLOCKS:
            return False
        if sum(block.num_words for block in lead) > MAX_LEAD_WORDS:
            return False
        for block in lead:
            block.is_content = True
            block.labels.discard(L.OUTSIDE_MAIN_GROUP)
        return True


@dataclass(frozen=True)
class DropHeadlineFilter:
    """Content blocks whose text is the headline (``headline(doc)``, compared with whitespace
    collapsed and case ignored) stop being content: the headline belongs in the title."""

    headline: Callable[[TextDocument], str | None]

    def __call__(self, doc: TextDocument) -> bool:
        is_headline = _headline_test(self.headline(doc))
        if is_headline is None:
            return False
        changed = False
        for block in doc.blocks:
            if block.is_content and is_headline(block):
                block.is_content = False
                changed = True
        return changed
