"""Score decoding: thresholds and gap filling."""

from __future__ import annotations

from block_factory import make_block

from scrapy_boilerplate.filters.scores import ScoreGapFilter, ScoreThresholdFilter
from scrapy_boilerplate.model.document import TextDocument


def doc_with(scores: list[float | None]) -> TextDocument:
    blocks = [make_block(f"block {i}") for i in range(len(scores))]
    for block, score in zip(blocks, scores, strict=True):
        block.score = score
    return TextDocument(blocks=blocks)


def decisions(doc: TextDocument) -> list[bool]:
    return [block.is_content for block in doc.blocks]


def test_threshold_keeps_scores_at_or_above_it() -> None:
    doc = doc_with([0.2, 0.5, 0.9, None])
    assert ScoreThresholdFilter(0.5)(doc) is True
    assert decisions(doc) == [False, True, True, False]
    assert ScoreThresholdFilter(0.5)(doc) is False


def test_gaps_between_content_fill_with_moderate_scores() -> None:
    doc = doc_with([0.9, 0.3, 0.1, 0.9, 0.3])
    ScoreThresholdFilter(0.5)(doc)
    assert ScoreGapFilter(0.25, max_gap=3)(doc) is True
    assert decisions(doc) == [True, True, False, True, False]  # the edge block stays out


def test_long_gaps_are_not_bridged() -> None:
    doc = doc_with([0.9, 0.3, 0.3, 0.3, 0.3, 0.9])
    ScoreThresholdFilter(0.5)(doc)
    assert ScoreGapFilter(0.2, max_gap=3)(doc) is False
    assert decisions(doc) == [True, False, False, False, False, True]
