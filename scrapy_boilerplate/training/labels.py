"""Block labels from gold text: which blocks of a segmented page hold gold main content.

Rule: tokens are ``\\w+`` runs, lower-cased. A block with at least :data:`SHINGLE_SIZE` tokens
is content when at least :data:`MIN_GOLD_SHARE` of its token shingles (word n-grams) occur in
the gold text. A shorter block is content when its token sequence is a whole gold line, or
when it has no linked word and its token sequence occurs in the gold text as a contiguous run
(so a one-word navigation link is not content just because the word occurs in the article). A
block without tokens is not content.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Final

from ..model.document import TextBlock

__all__ = ["SHINGLE_SIZE", "MIN_GOLD_SHARE", "gold_labels", "gold_shares"]

#: Words per shingle.
SHINGLE_SIZE: Final = 3
#: Share of a block's shingles that must be gold for the block to be content.
MIN_GOLD_SHARE: Final = 0.5
_WORD: Final = re.compile(r"\w+")


def _tokens(text: str) -> list[str]:
    return _WORD.findall(text.lower())


def gold_shares(blocks: Sequence[TextBlock], gold_text: str) -> list[float]:
    """Per block, the share (0-1) of its shingles found in ``gold_text`` (short blocks: 1 or 0
    by the module's rule)."""
    gold = _tokens(gold_text)
    gold_shingles = {tuple(gold[i : i + SHINGLE_SIZE]) for i in range(len(gold) - SHINGLE_SIZE + 1)}
    gold_run = " " + " ".join(gold) + " "
    gold_lines = {" ".join(_tokens(line)) for line in gold_text.splitlines()}
    shares = []
    for block in blocks:
        tokens = _tokens(block.text)
        if not tokens:
            shares.append(0.0)
        elif len(tokens) < SHINGLE_SIZE:
            run = " ".join(tokens)
            unlinked_match = not block.num_linked_words and f" {run} " in gold_run
            shares.append(1.0 if run in gold_lines or unlinked_match else 0.0)
        else:
            count = len(tokens) - SHINGLE_SIZE + 1
            found = sum(
                1 for i in range(count) if tuple(tokens[i : i + SHINGLE_SIZE]) in gold_shingles
            )
            shares.append(found / count)
    return shares


def gold_labels(blocks: Sequence[TextBlock], gold_text: str) -> list[int]:
    """Per block, 1 if it is gold main content by the module's rule, else 0."""
    return [int(share >= MIN_GOLD_SHARE) for share in gold_shares(blocks, gold_text)]
