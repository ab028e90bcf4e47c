"""Score decoding: thresholds and gap filling."""

from __future__ import annotations

from block_factory import make_block

from scrapy_boilerplate.filters.scores import (
    ScoreGapFilter,
    ScoreGroupFilter,
    ScoreThresholdFilter,
)
from scrapy_boilerplate.model import labels as L
from scrapy_boilerplate.model.document import TextDocument
from scrapy_boilerplate.page.parsing import parse_html
from scrapy_boilerplate.page.segmentation import segment


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


STORY = (
    "<div><div><p>" + "story words here " * 40 + "</p><p>" + "more story text " * 30 + "</p>"
    "</div></div>"
)
SHARE_BAR = "<div><div><p>share this story on social media now</p></div></div>"


def scored_page(html: str, scores: list[float]) -> TextDocument:
    """The segmented page with the given block scores, every block with a score >= 0.5 content."""
    doc = segment(parse_html(html))
    assert len(doc.blocks) == len(scores)
    for block, score in zip(doc.blocks, scores, strict=True):
        block.score = score
    ScoreThresholdFilter(0.5)(doc)
    return doc


def test_group_drops_content_far_from_the_score_mass() -> None:
    doc = scored_page(STORY + SHARE_BAR, [0.9, 0.9, 0.6])
    assert ScoreGroupFilter(depth=1, min_share=0.7, keep_score=0.8)(doc) is True
    assert decisions(doc) == [True, True, False]
    assert L.OUTSIDE_MAIN_GROUP in doc.blocks[2].labels


def test_group_keeps_far_blocks_whose_score_reaches_keep_score() -> None:
    doc = scored_page(STORY + SHARE_BAR, [0.9, 0.9, 0.85])
    assert ScoreGroupFilter(depth=1, min_share=0.7, keep_score=0.8)(doc) is False
    assert decisions(doc) == [True, True, True]


def test_group_widens_until_it_holds_min_share_of_the_mass() -> None:
    # two sibling sections of equal mass: no single group holds 70%, the common parent does
    section = "<section><div><p>" + "forum post words " * 30 + "</p></div></section>"
    doc = scored_page("<main>" + section + section + "</main>", [0.7, 0.7])
    assert ScoreGroupFilter(depth=1, min_share=0.7, keep_score=0.8)(doc) is False
    assert decisions(doc) == [True, True]
    doc = scored_page("<main>" + section + section + "</main>", [0.7, 0.7])
    assert ScoreGroupFilter(depth=1, min_share=0.5, keep_score=0.8)(doc) is True
    assert decisions(doc) == [True, False]


def test_group_leaves_blocks_without_element_alone() -> None:
    doc = doc_with([0.9, 0.6])
    ScoreThresholdFilter(0.5)(doc)
    assert ScoreGroupFilter()(doc) is False
    assert decisions(doc) == [True, True]
