"""Decoding of block scores: from a model's per-block probabilities to content decisions.

A learned classifier sets each block's ``score`` (probability of content, 0-1); these filters
turn scores into ``is_content``.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import pairwise

from ..model.document import TextDocument

__all__ = ["ScoreThresholdFilter", "ScoreGapFilter"]


@dataclass(frozen=True)
class ScoreThresholdFilter:
    """A block is content iff its score is at least ``threshold`` (blocks without a score are
    not content)."""

    threshold: float = 0.5

    def __call__(self, doc: TextDocument) -> bool:
        changed = False
        for block in doc.blocks:
            is_content = block.score is not None and block.score >= self.threshold
            changed |= is_content != block.is_content
            block.is_content = is_content
        return changed


@dataclass(frozen=True)
class ScoreGapFilter:
    """Blocks between two content blocks join the content when their score is at least
    ``min_score`` and the run of non-content blocks they sit in is at most ``max_gap`` blocks
    long (a lead, a subheading or a linked sentence inside the article)."""

    min_score: float = 0.2
    max_gap: int = 3

    def __call__(self, doc: TextDocument) -> bool:
        positions = [i for i, block in enumerate(doc.blocks) if block.is_content]
        changed = False
        for start, end in pairwise(positions):
            if end - start - 1 > self.max_gap:
                continue
            for block in doc.blocks[start + 1 : end]:
                if block.score is not None and block.score >= self.min_score:
                    block.is_content = True
                    changed = True
        return changed
