"""Block fusion filters (reference §5.8, §5.14, §5.15, §5.19).

Citations "reference §N" and "Q<n>" point to ``docs/reference-quirks.md``.
"""

from __future__ import annotations

from block_factory import content_flags, make_block, make_doc, texts, words

from scrapy_boilerplate.filters.fusion import (
    BlockProximityFusion,
    ContentFusion,
    SimpleBlockFusionProcessor,
    SplitParagraphBlocksFilter,
    same_text_density,
)
from scrapy_boilerplate.model.labels import LI, STRICTLY_NOT_CONTENT, TITLE
from scrapy_boilerplate.page.parsing import parse_html
from scrapy_boilerplate.page.segmentation import segment

# --- BlockProximityFusion --------------------------------------------------------------------


def test_proximity_fusion_1ff_absorbs_the_block_before_each_content_run_q1() -> None:
    doc = make_doc(
        make_block("nav"),
        make_block("headline"),
        make_block("para one", content=True),
        make_block("para two", content=True),
        make_block("ad"),
        make_block("link list"),
        make_block("para three", content=True),
    )
    assert BlockProximityFusion(1, False, False)(doc) is True
    assert texts(doc) == ["nav", "headline\npara one\npara two", "ad", "link list\npara three"]
    assert content_flags(doc) == [False, True, False, True]
    assert (doc.blocks[1].offset_start, doc.blocks[1].offset_end) == (1, 3)


def test_proximity_fusion_content_only_same_level_after_deletion() -> None:
    # Offsets 0, 2, 3, 6, 7: one deleted block between 0 and 2, two between 3 and 6.
    doc = make_doc(
        make_block("a", content=True, offset=0, tl=5),
        make_block("b", content=True, offset=2, tl=5),
        make_block("c", content=True, offset=3, tl=6),
        make_block("d", content=True, offset=6, tl=6),
        make_block("e", content=True, offset=7, tl=6),
    )
    assert BlockProximityFusion(1, content_only=True, same_level=True)(doc) is True
    assert texts(doc) == ["a\nb", "c", "d\ne"]


def test_proximity_fusion_content_only_is_interrupted_by_a_non_content_block() -> None:
    doc = make_doc(
        make_block("title", labels={TITLE}),
        make_block("a", content=True),
        make_block("kept title", labels={TITLE}),
        make_block("b", content=True),
    )
    assert BlockProximityFusion(1, content_only=True, same_level=False)(doc) is False
    assert len(doc.blocks) == 4


def test_proximity_fusion_larger_distance_and_level_ignored() -> None:
    doc = make_doc(
        make_block("a", content=True, offset=0, tl=3),
        make_block("b", content=True, offset=3, tl=9),
    )
    assert BlockProximityFusion(1, True, False)(doc) is False
    assert BlockProximityFusion(2, True, False)(doc) is True
    assert texts(doc) == ["a\nb"]
    assert doc.blocks[0].tag_level == 3


def test_proximity_fusion_does_nothing_without_content_or_blocks() -> None:
    doc = make_doc(make_block("a"), make_block("b"))
    assert BlockProximityFusion(1, False, False)(doc) is False
    assert BlockProximityFusion(1, True, True)(doc) is False
    assert BlockProximityFusion(1, False, False)(make_doc(make_block("x", content=True))) is False


# --- SimpleBlockFusionProcessor --------------------------------------------------------------


def test_simple_fusion_merges_equal_densities_exactly() -> None:
    doc = make_doc(
        make_block("one two three"),
        make_block("four five six"),
        make_block("seven eight"),
        make_block("|"),
        make_block("\u00a0"),
        make_block("nine ten"),
    )
    assert SimpleBlockFusionProcessor()(doc) is True
    assert texts(doc) == ["one two three\nfour five six", "seven eight", "|\n\u00a0", "nine ten"]
    assert doc.blocks[0].text_density == 3


def test_simple_fusion_starts_a_new_run_at_each_change() -> None:
    doc = make_doc(
        make_block(td=5.5),
        make_block(td=5.5),
        make_block(td=5),
        make_block(td=5),
        make_block(td=5.5),
    )
    SimpleBlockFusionProcessor()(doc)
    assert [b.text_density for b in doc.blocks] == [5.5, 5, 5.5]
    assert [b.num_wrapped_lines for b in doc.blocks] == [4, 2, 2]


def test_same_text_density_uses_fractions() -> None:
    assert same_text_density(make_block(td=2.5), make_block(td=2.5))
    wrapped = make_block(words(100))  # 96 words on 6 full lines
    assert (wrapped.num_wrapped_words, wrapped.num_wrapped_lines) == (96, 6)
    assert same_text_density(wrapped, make_block(td=16))
    assert not same_text_density(make_block(td=2.5), make_block(td=2))


# --- SplitParagraphBlocksFilter --------------------------------------------------------------


def test_split_paragraphs_zeroes_statistics_q13() -> None:
    root = parse_html("<body><p>First line here.</p><p>Second line.</p><div>alone</div></body>")
    doc = segment(root)
    first, second, alone = doc.blocks
    first.merge_next(second)
    first.is_content = True
    first.labels.add(LI)
    doc.blocks[:] = [first, alone]
    assert SplitParagraphBlocksFilter()(doc) is True
    assert texts(doc) == ["First line here.", "Second line.", "alone"]
    assert [b.num_words for b in doc.blocks] == [0, 0, 1]
    assert [b.is_content for b in doc.blocks] == [True, True, False]
    assert all(LI in b.labels for b in doc.blocks[:2])
    assert [b.element.text for b in doc.blocks] == ["First line here.", "Second line.", "alone"]
    assert doc.blocks[2] is alone
    assert SplitParagraphBlocksFilter()(doc) is False


# --- ContentFusion ---------------------------------------------------------------------------


def test_content_fusion_merges_low_link_density_followers() -> None:
    doc = make_doc(
        make_block("intro", content=True),
        make_block("a b", nw=2, nwa=1),  # ld 0.5 < 0.56
        make_block("c d e", nw=3, nwa=2),  # ld 0.67
        make_block("f", labels={STRICTLY_NOT_CONTENT}),
        make_block("g", content=True),
        make_block("h"),
    )
    assert ContentFusion()(doc) is True
    assert texts(doc) == ["intro\na b", "c d e", "f", "g\nh"]
    assert ContentFusion()(doc) is False
