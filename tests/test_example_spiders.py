"""The article item of the newsroom spiders: the add-on's metadata first, listing dates as
fallbacks only; its page type, and the setting that skips the page types a crawl does not want."""

from __future__ import annotations

import asyncio

import pytest
from example_support import EXAMPLE_PROJECT  # noqa: F401 - puts example_project on sys.path

# isort: split

from newsroom import settings as project_settings
from newsroom.items import ArticleItem
from newsroom.pipelines import PageTypeFilterPipeline
from newsroom.spiders import articles
from newsroom.spiders.articles import article_item, feed_date, sitemap_date
from scrapy.exceptions import DropItem, NotConfigured
from scrapy.http import HtmlResponse, Response
from scrapy.utils.test import get_crawler

from scrapy_boilerplate.integration.items import fill_item
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


def test_the_add_on_fills_the_page_type_of_the_article_item() -> None:
    assert project_settings.BOILERPLATE_PAGE_TYPE_FIELD is True
    result = ExtractionResult("T", "Text.", [], "article", {}, page_type="listing")
    report = fill_item(
        ArticleItem(url=URL),
        result,
        text_field="article_text",
        title_field="article_title",
        overwrite=False,
        page_type_field="article_page_type",
    )
    assert report.missing == [] and report.item["article_page_type"] == "listing"


def page_type_filter(keep: str | list[str] | None) -> PageTypeFilterPipeline:
    crawler = get_crawler(
        settings_dict={"NEWSROOM_KEEP_PAGE_TYPES": keep, "BOILERPLATE_PAGE_TYPE_FIELD": True}
    )
    return PageTypeFilterPipeline.from_crawler(crawler)


def test_keep_page_types_drops_the_others_logged_and_counted() -> None:
    pipeline = page_type_filter("article,forum")  # as -s gives it
    listing = ArticleItem(url=URL, article_text="Text.", article_page_type="listing")
    with pytest.raises(DropItem, match="'listing' is not in NEWSROOM_KEEP_PAGE_TYPES") as dropped:
        pipeline.process_item(listing)
    assert dropped.value.log_level == "INFO"
    stats = pipeline.crawler.stats
    assert stats is not None
    assert stats.get_value("newsroom/page_type/dropped") == 1
    assert stats.get_value("newsroom/page_type/dropped/listing") == 1


def test_keep_page_types_keeps_the_listed_and_the_untyped() -> None:
    pipeline = page_type_filter(["article"])
    article = ArticleItem(url=URL, article_page_type="article")
    untyped = ArticleItem(url=URL, article_text="Text.", extractor="article-rules")
    assert pipeline.process_item(article) is article
    assert pipeline.process_item(untyped) is untyped
    assert pipeline.crawler.stats is not None
    assert pipeline.crawler.stats.get_value("newsroom/page_type/dropped") is None


def test_keep_page_types_off_by_default_and_checked() -> None:
    assert project_settings.NEWSROOM_KEEP_PAGE_TYPES is None  # the demo keeps every page
    for keep in (None, [], ""):
        with pytest.raises(NotConfigured):
            page_type_filter(keep)
    with pytest.raises(ValueError, match="unknown page type.*articles"):
        page_type_filter(["articles"])


def test_keep_page_types_warns_when_items_carry_no_page_type(
    caplog: pytest.LogCaptureFixture,
) -> None:
    crawler = get_crawler(settings_dict={"NEWSROOM_KEEP_PAGE_TYPES": ["article"]})
    with caplog.at_level("WARNING"):
        PageTypeFilterPipeline.from_crawler(crawler)
    assert "BOILERPLATE_PAGE_TYPE_FIELD is off" in caplog.text
