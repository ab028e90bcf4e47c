"""Block fusion: merge neighbouring blocks, or split merged ones (reference §5.8, §5.14, §5.15).

Merging appends the later block to the earlier one (:meth:`TextBlock.merge_next`: texts joined
by a newline, counts summed, offsets spanning both) and deletes the later one from the list.

Citations "reference §N" and "Q<n>" point to ``docs/reference-quirks.md``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

from ..model import labels as lbl
from ..model.document import TextBlock, TextDocument

__all__ = [
    "BlockProximityFusion",
    "SimpleBlockFusionProcessor",
    "SplitParagraphBlocksFilter",
    "ContentFusion",
    "same_text_density",
]

#: Link density below which :class:`ContentFusion` merges a block into the content before it.
MAX_CONTENT_FUSION_LINK_DENSITY: Final = 0.56
_PARAGRAPH_BREAKS: Final = re.compile(r"[\n\r]+")


def _density_fraction(block: TextBlock) -> tuple[int, int]:
    if block.num_wrapped_lines <= 0:
        return 0, 1
    return block.num_wrapped_words, block.num_wrapped_lines


def same_text_density(a: TextBlock, b: TextBlock) -> bool:
    """True if the two blocks' text densities are equal as exact fractions (words / lines)."""
    words_a, lines_a = _density_fraction(a)
    words_b, lines_b = _density_fraction(b)
    return words_a * lines_b == words_b * lines_a


@dataclass(frozen=True)
class BlockProximityFusion:
    """Merge each content block into the block before it if at most ``max_distance`` blocks apart.

    The distance is the number of blocks, by emission offsets, between the earlier block's
    end and the later block's start (0 for direct neighbours; blocks deleted earlier count).
    Non-content blocks are never merged but become the next merge target. With
    ``content_only`` the walk starts at the first content block and only content blocks are
    merge targets; with ``same_level`` both blocks must have the same tag level. With
    ``(1, False, False)`` on a full block list every content run absorbs the one block before
    it, whatever its class (Q1, kept for parity).
    """

    max_distance: int = 1
    content_only: bool = False
    same_level: bool = False

    def __call__(self, doc: TextDocument) -> bool:
        blocks = doc.blocks
        if len(blocks) < 2:
            return False
        if self.content_only:
            first = next((i for i, block in enumerate(blocks) if block.is_content), None)
            if first is None:
                return False
            start = first + 1
        else:
            start = 1
        prev = blocks[start - 1]
        kept = blocks[:start]
        for block in blocks[start:]:
            if not block.is_content:
                kept.append(block)
                prev = block
                continue
            gap = block.offset_start - prev.offset_end - 1
            if (
                gap <= self.max_distance
                and (not self.content_only or prev.is_content)
                and (not self.same_level or prev.tag_level == block.tag_level)
            ):
                prev.merge_next(block)
            else:
                kept.append(block)
                prev = block
        changed = len(kept) != len(blocks)
        blocks[:] = kept
        return changed


@dataclass(frozen=True)
class SimpleBlockFusionProcessor:
    """Merge runs of neighbouring blocks whose text densities are exactly equal.

    Each block is compared with the block that absorbed its predecessors (its density is
    recomputed after every merge); equality is tested on exact fractions. Runs of one-line
    blocks with the same word count collapse, and so do runs of zero-word blocks.
    """

    def __call__(self, doc: TextDocument) -> bool:
        blocks = doc.blocks
        if not blocks:
            return False
        kept = [blocks[0]]
        for block in blocks[1:]:
            if same_text_density(kept[-1], block):
                kept[-1].merge_next(block)
            else:
                kept.append(block)
        changed = len(kept) != len(blocks)
        blocks[:] = kept
        return changed


@dataclass(frozen=True)
class SplitParagraphBlocksFilter:
    """Split every block whose text holds newlines into one block per line.

    Each piece keeps the block's class and labels, and the DOM element of its atomic block when
    the pieces and elements line up one to one. All its statistics are zero (word counts,
    densities, tag level, offsets; Q13, kept for parity), so run no statistics-based filter
    after this one.
    """

    def __call__(self, doc: TextDocument) -> bool:
        result: list[TextBlock] = []
        changed = False
        for block in doc.blocks:
            pieces = _PARAGRAPH_BREAKS.split(block.text)
            while len(pieces) > 1 and not pieces[-1]:
                pieces.pop()
            if len(pieces) < 2:
                result.append(block)
                continue
            changed = True
            aligned = len(pieces) == len(block.elements)
            for index, piece in enumerate(pieces):
                elements = [block.elements[index]] if aligned else list(block.elements)
                result.append(
                    TextBlock(
                        text=piece,
                        num_words=0,
                        labels=set(block.labels),
                        elements=elements,
                        is_content=block.is_content,
                    )
                )
        doc.blocks[:] = result
        return changed


@dataclass(frozen=True)
class ContentFusion:
    """Merge into a content block every following block with link density < 0.56.

    Blocks labelled STRICTLY_NOT_CONTENT are never merged. Passes repeat until nothing changes;
    unlike the reference (Q19), each pass starts again from the first block and the filter
    reports whether it merged anything. Not used by the reference extractors.
    """

    max_link_density: float = MAX_CONTENT_FUSION_LINK_DENSITY

    def __call__(self, doc: TextDocument) -> bool:
        blocks = doc.blocks
        changed = False
        merged = True
        while merged and len(blocks) >= 2:
            merged = False
            kept = [blocks[0]]
            for block in blocks[1:]:
                prev = kept[-1]
                if (
                    prev.is_content
                    and block.link_density < self.max_link_density
                    and lbl.STRICTLY_NOT_CONTENT not in block.labels
                ):
                    prev.merge_next(block)
                    merged = True
                else:
                    kept.append(block)
            blocks[:] = kept
            changed |= merged
        return changed
