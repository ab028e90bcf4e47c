"""Metadata features: JSON-LD articleBody, description and headline overlaps, title position."""

from __future__ import annotations

from scrapy_boilerplate.features.metadata import (
    METADATA_FEATURES,
    NO_TITLE_OFFSET,
    metadata_features,
    overlap,
    page_texts,
    word_set,
)
from scrapy_boilerplate.page.declarations import declarations
from scrapy_boilerplate.page.parsing import parse_html
from scrapy_boilerplate.page.segmentation import segment

PAGE = b"""<html><head>
<meta property="og:description" content="Rivers rose across the valley">
<script type="application/ld+json">{"@graph": [{"@type": "NewsArticle",
 "articleBody": "Rivers rose across the valley overnight. Schools closed."}]}</script>
</head><body><p>Menu</p><h1>Floods in the valley</h1>
<p>Rivers rose across the valley overnight.</p><p>Subscribe now</p></body></html>"""


def features() -> dict[str, dict[str, float]]:
    doc = segment(parse_html(PAGE))
    rows = metadata_features(doc.blocks, page_texts(declarations(doc.root), "Floods in the valley"))
    return {
        b.text: dict(zip(METADATA_FEATURES, r, strict=True))
        for b, r in zip(doc.blocks, rows, strict=True)
    }


def test_overlap_rules() -> None:
    assert overlap(["a", "b"], None) == -1.0
    assert overlap([], word_set("a")) == 0.0
    assert overlap(["a", "b"], word_set("A c")) == 0.5


def test_json_ld_body_and_description_overlap() -> None:
    rows = features()
    body = rows["Rivers rose across the valley overnight."]
    assert body["jsonld_body_overlap"] == 1.0
    assert body["description_overlap"] == 5 / 6
    assert rows["Subscribe now"]["jsonld_body_overlap"] == 0.0


def test_title_block_offsets() -> None:
    rows = features()
    assert rows["Floods in the valley"]["title_block_offset"] == 0.0
    assert rows["Menu"]["title_block_offset"] == -1.0
    assert rows["Subscribe now"]["title_block_offset"] == 2.0
    assert rows["Subscribe now"]["after_title"] == 1.0
    assert rows["Menu"]["after_title"] == 0.0


def test_absent_texts_are_marked() -> None:
    doc = segment(parse_html(b"<html><body><p>Plain page text.</p></body></html>"))
    (row,) = metadata_features(doc.blocks, page_texts(declarations(doc.root), None))
    assert row[:2] == [-1.0, -1.0]
    assert row[METADATA_FEATURES.index("title_block_offset")] == NO_TITLE_OFFSET


def test_broken_json_ld_is_skipped() -> None:
    root = parse_html(
        b'<html><head><script type="application/ld+json">{"articleBody": </script></head>'
        b"<body><p>x</p></body></html>"
    )
    assert page_texts(declarations(root), None).article_body is None


def test_a_document_without_a_tree_has_only_its_headline() -> None:
    texts = page_texts(None, "Floods")
    assert (texts.article_body, texts.description, texts.headline) == (None, None, {"floods"})
