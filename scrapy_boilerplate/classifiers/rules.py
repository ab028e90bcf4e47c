"""Block classifiers: rules that set ``is_content`` from shallow text features (paper §4).

Each classifier is a filter (``TextDocument -> bool``, True if it changed something). The
neighbour rules see the previous and next block, or an empty block at the document edges.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final

from ..model.document import EMPTY_BLOCK, TextBlock, TextDocument
from ..page.segmentation import compiled_twin

__all__ = [
    "NeighbourRule",
    "NeighbourClassifier",
    "density_rule",
    "num_words_rule",
    "canola_rule",
    "text_density_1r_rule",
    "cleaneval_rule",
    "DENSITY_RULES",
    "NUM_WORDS_RULES",
    "CANOLA_RULES",
    "TEXT_DENSITY_1R",
    "CLEANEVAL_RULE",
    "MinWordsClassifier",
    "neighbour_decisions",
    "neighbour_decisions_pure",
    "ACCELERATED",
]

#: A rule deciding one block from (previous, current, next).
NeighbourRule = Callable[[TextBlock, TextBlock, TextBlock], bool]

#: Link density at or below which a block may be content (both published trees).
MAX_LINK_DENSITY = 0.333333
#: Previous block's link density above which the "after a link list" branch applies.
MAX_PREV_LINK_DENSITY = 0.555556


def density_rule(prev: TextBlock, curr: TextBlock, nxt: TextBlock) -> bool:
    """Algorithm 1 of the paper (densitometric tree, text density in words per line)."""
    if curr.link_density > MAX_LINK_DENSITY:
        return False
    if prev.link_density <= MAX_PREV_LINK_DENSITY:
        if curr.text_density <= 9:
            return nxt.text_density > 10 or prev.text_density > 4
        return nxt.text_density != 0
    return nxt.text_density > 11


def num_words_rule(prev: TextBlock, curr: TextBlock, nxt: TextBlock) -> bool:
    """Algorithm 2 of the paper (number-of-words tree)."""
    if curr.link_density > MAX_LINK_DENSITY:
        return False
    if prev.link_density <= MAX_PREV_LINK_DENSITY:
        if curr.num_words <= 16:
            return nxt.num_words > 15 or prev.num_words > 4
        return True
    return curr.num_words > 40 or nxt.num_words > 17


def canola_rule(prev: TextBlock, curr: TextBlock, nxt: TextBlock) -> bool:
    """The reference's Canola classifier (trained on the krdwrd Canola corpus, not in the paper)."""
    return (
        (curr.link_density > 0 and nxt.num_words > 11)
        or curr.num_words > 19
        or (
            nxt.num_words > 6
            and nxt.link_density == 0
            and prev.link_density == 0
            and (curr.num_words > 6 or prev.num_words > 7 or nxt.num_words > 19)
        )
    )


def text_density_1r_rule(prev: TextBlock, curr: TextBlock, nxt: TextBlock) -> bool:
    """The paper's 1R rule: content if text density > 10.5 (words per line)."""
    return curr.text_density > 10.5


def cleaneval_rule(prev: TextBlock, curr: TextBlock, nxt: TextBlock) -> bool:
    """The paper's CleanEval-trained rule: text density >= 7 and link density <= 0.35."""
    return curr.text_density >= 7 and curr.link_density <= 0.35


@dataclass(frozen=True)
class NeighbourClassifier:
    """Apply a :data:`NeighbourRule` to every block (all blocks are decided from the input)."""

    rule: NeighbourRule

    def __call__(self, doc: TextDocument) -> bool:
        blocks = doc.blocks
        if not blocks:
            return False
        decisions = neighbour_decisions(blocks, self.rule)
        changed = False
        for block, is_content in zip(blocks, decisions, strict=True):
            changed |= block.is_content != is_content
            block.is_content = is_content
        return changed


def neighbour_decisions(blocks: Sequence[TextBlock], rule: NeighbourRule) -> list[bool]:
    """Per block, ``rule(previous, block, next)`` (an empty block past the edges); by the
    compiled twin in ``_rules`` for :func:`density_rule` and :func:`num_words_rule` when it is
    built (:func:`neighbour_decisions_pure` the reference)."""
    number = _COMPILED_RULES.get(rule)
    if _rules is not None and number is not None:
        try:
            decisions: list[bool] = _rules.neighbour_decisions(list(blocks), number)
            return decisions
        except (OverflowError, TypeError):  # counts a C integer does not hold: the reference
            pass
    return neighbour_decisions_pure(blocks, rule)


def neighbour_decisions_pure(blocks: Sequence[TextBlock], rule: NeighbourRule) -> list[bool]:
    """:func:`neighbour_decisions` in pure Python (the reference of the compiled twin)."""
    decisions = []
    prev = EMPTY_BLOCK
    for index, curr in enumerate(blocks):
        nxt = blocks[index + 1] if index + 1 < len(blocks) else EMPTY_BLOCK
        decisions.append(rule(prev, curr, nxt))
        prev = curr
    return decisions


_rules = compiled_twin(f"{__package__}._rules")
#: The rules with a compiled twin, by their number there.
_COMPILED_RULES: Final[dict[NeighbourRule, int]] = {density_rule: 0, num_words_rule: 1}
#: True when the paper's two trees run their compiled twin.
ACCELERATED: Final = _rules is not None

#: Algorithm 1 as a filter.
DENSITY_RULES = NeighbourClassifier(density_rule)
#: Algorithm 2 as a filter.
NUM_WORDS_RULES = NeighbourClassifier(num_words_rule)
#: The Canola rule as a filter.
CANOLA_RULES = NeighbourClassifier(canola_rule)
#: The 1R text-density rule as a filter.
TEXT_DENSITY_1R = NeighbourClassifier(text_density_1r_rule)
#: The CleanEval rule as a filter.
CLEANEVAL_RULE = NeighbourClassifier(cleaneval_rule)


@dataclass(frozen=True)
class MinWordsClassifier:
    """Mark every block with at least ``min_words`` words as content, all others not."""

    min_words: int = 10

    def __call__(self, doc: TextDocument) -> bool:
        changed = False
        for block in doc.blocks:
            is_content = block.num_words >= self.min_words
            changed |= block.is_content != is_content
            block.is_content = is_content
        return changed
