"""Decoding of block scores: from a model's per-block probabilities to content decisions.

A learned classifier sets each block's ``score`` (probability of content, 0-1); these filters
turn scores into ``is_content``; :class:`ScoreGroupFilter` then keeps the page region that holds
most of the content score (the tree rule of :mod:`.tree`, weighted by the scores).
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import pairwise

from ..model import labels as L
from ..model.document import Element, TextDocument
from .tree import climb, group_keys

__all__ = ["ScoreThresholdFilter", "ScoreGapFilter", "ScoreGroupFilter"]


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


@dataclass(frozen=True)
class ScoreGroupFilter:
    """Drop content blocks outside the page region that holds most of the content score.

    Rule: a content block's mass is its score times its words. Content blocks are grouped by the
    ``depth``-th ancestor of their paragraph (:func:`~.tree.paragraph_of`; 0 = the paragraph,
    1 = its parent); the group with the most mass wins and is widened to its parent,
    grandparent ... until its subtree holds at least ``min_share`` (0-1) of the content mass.
    Content blocks outside that subtree lose ``is_content`` (label ``OUTSIDE_MAIN_GROUP``)
    unless their score reaches ``keep_score``. Blocks without an element are left alone, and
    so is a page without content mass (no scores, or no words).
    """

    depth: int = 1
    min_share: float = 0.7
    keep_score: float = 0.8

    def __call__(self, doc: TextDocument) -> bool:
        content = [b for b in doc.blocks if b.is_content and b.element is not None]
        keys = group_keys([block.element for block in content], self.depth)
        selected = [
            (block, key) for block, key in zip(content, keys, strict=True) if key is not None
        ]
        keyed = [(key, (block.score or 0.0) * block.num_words) for block, key in selected]
        group_mass: dict[Element, float] = {}
        for key, mass in keyed:
            group_mass[key] = group_mass.get(key, 0.0) + mass
        if len(group_mass) < 2:
            return False
        total = sum(group_mass.values())
        if not total:  # no score mass (blocks without scores or words): no region to find
            return False
        needed = self.min_share * total
        winner = max(group_mass, key=group_mass.__getitem__)
        reached, position = climb(winner, keyed, needed)
        changed = False
        for block, key in selected:
            if (block.score or 0.0) >= self.keep_score or position[key] <= reached:
                continue
            block.is_content = False
            block.labels.add(L.OUTSIDE_MAIN_GROUP)
            changed = True
        return changed
