"""Token-level precision, recall and F1 of extracted article text against the true text."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

__all__ = ["TokenScore", "tokens", "token_f1"]

_WORD = re.compile(r"\w+", re.UNICODE)


def tokens(text: str) -> list[str]:
    """Lower-cased word tokens (runs of letters, digits and underscores)."""
    return _WORD.findall(text.lower())


@dataclass(frozen=True)
class TokenScore:
    """Bag-of-tokens overlap of a prediction with the truth (each in [0, 1])."""

    precision: float
    recall: float
    f1: float


def token_f1(predicted: str, truth: str) -> TokenScore:
    """Score ``predicted`` against ``truth`` as multisets of tokens.

    Two empty texts score 1.0; an empty prediction of a non-empty truth (or the reverse)
    scores 0.0.
    """
    got, want = Counter(tokens(predicted)), Counter(tokens(truth))
    if not got and not want:
        return TokenScore(1.0, 1.0, 1.0)
    overlap = sum((got & want).values())
    if not overlap:
        return TokenScore(0.0, 0.0, 0.0)
    precision = overlap / sum(got.values())
    recall = overlap / sum(want.values())
    return TokenScore(precision, recall, 2 * precision * recall / (precision + recall))
