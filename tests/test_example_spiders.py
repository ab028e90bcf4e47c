"""The article item of the newsroom spiders: the add-on's metadata first, listing dates as
fallbacks only."""

from __future__ import annotations

import asyncio

import pytest
from example_support import EXAMPLE_PROJECT  # noqa: F401 - puts example_project on sys.path

# isort: split

from newsroom.items import ArticleItem
from newsroom.spiders import articles
from newsroom.spiders.articles import article_item, feed_date, sitemap_date
from scrapy.http import HtmlResponse, Response

from scrapy_boilerplate.model.metadata import ArticleMetadata
from scrapy_boilerplate.model.result import ExtractionResult

URL = "http://www.news.test/2024/05/30/council?utm_source=rss"


def item_with(
    monkeypatch: pytest.MonkeyPatch, metadata: ArticleMetadata | None, **listed: str | None
) -> ArticleItem:
    async def fake_article_for(response: Response) -> ExtractionResult:
        return ExtractionResult("T", "Text.", [], "article", {"x": 1}, metadata=metadata)

    monkeypatch.setattr(articles, "article_for", fake_article_for)
    response = HtmlResponse(URL, body=b"<html></html>")
    return asyncio.run(article_item(response, **listed))


def test_page_metadata_wins_over_listing_dates(monkeypatch: pytest.MonkeyPatch) -> None:
    page = ArticleMetadata(published="2024-05-30T18:00:00+00:00", modified="2024-06-01")
    item = item_with(monkeypatch, page, listed_published="2024-01-01", listed_modified="2024-01-02")
    assert "article_published" not in item and "article_modified" not in item  # the add-on's
    assert item["url"] == "http://www.news.test/2024/05/30/council"
    assert (item["extractor"], item["extractor_options"]) == ("article", {"x": 1})


def test_listing_dates_fill_what_the_page_lacks(monkeypatch: pytest.MonkeyPatch) -> None:
    item = item_with(
        monkeypatch,
        ArticleMetadata(published="2024-05-30"),
        listed_published="2024-01-01",
        listed_modified="2024-06-02T00:00:00+00:00",
    )
    assert "article_published" not in item
    assert item["article_modified"] == "2024-06-02T00:00:00+00:00"
    assert item_with(monkeypatch, None, listed_published="2024-01-01")["article_published"] == (
        "2024-01-01"
    )


def test_listing_dates_become_iso_8601() -> None:
    assert feed_date("Thu, 30 May 2024 18:00:00 +0000") == "2024-05-30T18:00:00+00:00"
    assert feed_date("last Tuesday") == "last Tuesday"
    assert feed_date("  ") is None
    assert sitemap_date("2024-05-30T18:00:00Z") == "2024-05-30T18:00:00+00:00"
    assert sitemap_date("2024-05-30") == "2024-05-30"
    assert sitemap_date("May 2024") == "May 2024"
    assert sitemap_date(None) is None
