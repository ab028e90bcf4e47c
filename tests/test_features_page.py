"""Page-level features: one row per page from its blocks, its declarations and its URL."""

from __future__ import annotations

import pytest

from scrapy_boilerplate.features.page import PAGE_FEATURE_NAMES, page_features
from scrapy_boilerplate.page.parsing import parse_html
from scrapy_boilerplate.page.segmentation import segment

ARTICLE = """<html><head><title>Storm closes the harbour</title>
<meta property="og:type" content="article">
<meta property="article:published_time" content="2025-03-02T08:00:00Z">
<script type="application/ld+json">{"@context": "https://schema.org",
 "@type": ["NewsArticle"], "headline": "Storm closes the harbour"}</script></head>
<body><nav><a href="/">Home</a> <a href="/news">News</a></nav>
<h1>Storm closes the harbour</h1>
<p>{words}</p><p>{words}</p></body></html>""".replace(
    "{words}", "The storm kept ships in port. " * 12
)

LISTING = """<html><head><title>Sport</title>
<script type="application/ld+json">{"@type": "https://schema.org/CollectionPage"}</script>
</head><body><ul>{items}</ul></body></html>""".replace(
    "{items}",
    "".join(f'<li><a href="/s/{i}">Match report number {i} here</a></li>' for i in range(30)),
)


def _row(html: str, url: str) -> dict[str, float]:
    values = page_features(segment(parse_html(html), url=url))
    assert len(values) == len(PAGE_FEATURE_NAMES)
    return dict(zip(PAGE_FEATURE_NAMES, values, strict=True))


def test_an_article_reads_as_long_unlinked_text_with_article_declarations() -> None:
    row = _row(ARTICLE, "https://news.example/2025/03/02/storm-closes-the-harbour")
    assert row["long_text_share"] > 0.8
    assert row["link_density"] < 0.1
    assert row["json_ld_article"] == 1.0 and row["json_ld_collection"] == 0.0
    assert row["og_article"] == 1.0 and row["published_meta"] == 1.0
    assert row["h1_count"] == 1.0 and row["heading_share"] > 0
    assert row["url_date"] == 1.0 and row["url_slug_words"] == 4.0


def test_a_listing_reads_as_linked_list_items_under_a_listing_url() -> None:
    row = _row(LISTING, "https://news.example/category/sport/")
    assert row["link_density"] == pytest.approx(1.0)
    assert row["linked_block_share"] == 1.0 and row["li_word_share"] == 1.0
    assert row["long_text_share"] == 0.0
    assert row["json_ld_collection"] == 1.0 and row["json_ld_article"] == 0.0
    assert row["url_listing"] == 1.0 and row["url_date"] == 0.0 and row["url_depth"] == 2.0


def test_a_page_without_url_blocks_or_declarations_gives_zeros_not_errors() -> None:
    row = _row("<html><body></body></html>", "")
    assert row["log_words"] == 0.0 and row["url_depth"] == 0.0 and row["og_website"] == 0.0
