"""scrapy-poet: BoilerplateArticlePage in a real crawl with scrapy-poet's add-on."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Generator
from typing import Any

import integration_support
import pytest
import pytest_twisted
import scrapy
from integration_support import SITE, CrawlResult, base_settings
from scrapy.crawler import CrawlerRunner
from twisted.internet import defer

from scrapy_boilerplate import extract

pytest.importorskip("scrapy_poet")
pytest.importorskip("zyte_common_items")

from zyte_common_items import Article, Author, Image

from scrapy_boilerplate.integration.poet import BoilerplateArticlePage, _zyte_date

site = integration_support.site
Crawl = Generator[Any, Any, None]


class PageObjectSpider(scrapy.Spider):
    name = "poet"

    def __init__(self, urls: list[str], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.urls = urls

    async def start(self) -> Any:
        for url in self.urls:
            yield scrapy.Request(url)

    async def parse(self, response: scrapy.http.Response, page: BoilerplateArticlePage) -> Any:
        yield await page.to_item()


def poet_settings(**overrides: Any) -> dict[str, Any]:
    settings = base_settings(BOILERPLATE_EXTRACTOR="article", **overrides)
    settings["ADDONS"] = {"scrapy_poet.Addon": 300, "scrapy_boilerplate.Addon": 310}
    return settings


@defer.inlineCallbacks
def run(
    urls: list[str], spider_class: type[scrapy.Spider] = PageObjectSpider, **overrides: Any
) -> Any:
    runner = CrawlerRunner(poet_settings(**overrides))
    crawler = runner.create_crawler(spider_class)
    result = CrawlResult(crawler)
    yield runner.crawl(crawler, urls=urls)
    return result


@pytest.mark.parametrize("processes", [0, 1], ids=["threads", "processes"])
@pytest_twisted.inlineCallbacks
def test_the_page_object_returns_an_article_with_text_title_and_metadata(
    site: str, processes: int
) -> Crawl:
    url = site + "article-metadata.html"
    result = yield run([url], BOILERPLATE_PROCESSES=processes, BOILERPLATE_FIELD_NAMES="zyte")
    [item] = result.items
    assert isinstance(item, Article)
    page = (SITE / "article-metadata.html").read_bytes()
    expected = extract(page, url, extractor="article", metadata=True)
    assert item.url == url
    assert item.articleBody == expected.text and item.articleBody
    assert item.headline == expected.title
    metadata = expected.metadata
    assert metadata is not None and metadata.authors
    assert item.authors == [Author(name=name) for name in metadata.authors]
    assert item.datePublishedRaw == metadata.published_raw
    assert item.datePublished == _zyte_date(metadata.published)
    assert item.inLanguage == metadata.language
    assert item.canonicalUrl == metadata.canonical_url
    assert item.mainImage == (Image(url=metadata.image) if metadata.image else None)
    assert result.stats["boilerplate/responses/processed"] == 1  # one extraction, shared


@pytest_twisted.inlineCallbacks
def test_the_article_has_clean_html_when_the_crawl_renders_it(site: str) -> Crawl:
    url = site + "structured.html"
    result = yield run([url], BOILERPLATE_FIELD_NAMES="zyte", BOILERPLATE_ARTICLE_HTML_FIELD=True)
    [item] = result.items
    page = (SITE / "structured.html").read_bytes()
    expected = extract(page, url, extractor="article", include_html=True)
    assert item.articleBodyHtml == expected.html
    assert "<ul>\n<li>Line 4 runs every ten minutes" in item.articleBodyHtml
    result = yield run([url], BOILERPLATE_FIELD_NAMES="zyte")
    assert result.items[0].articleBodyHtml is None  # not rendered unless asked for


@pytest_twisted.inlineCallbacks
def test_a_page_the_crawl_does_not_extract_gives_an_article_without_body(site: str) -> Crawl:
    result = yield run([site + "plain-html.txt"])
    [item] = result.items
    assert isinstance(item, Article) and item.articleBody is None and item.headline is None


class ArticleItemSpider(PageObjectSpider):
    """Yields zyte-common-items ``Article`` items of its own, for the add-on to fill."""

    async def parse(self, response: scrapy.http.Response) -> Any:  # type: ignore[override]
        yield Article(url=response.url)


@pytest_twisted.inlineCallbacks
def test_zyte_common_items_classes_are_recognised_without_the_field_names_setting(
    site: str, caplog: pytest.LogCaptureFixture
) -> Crawl:
    url = site + "article-metadata.html"
    with caplog.at_level(logging.WARNING, logger="scrapy_boilerplate"):
        from_page = yield run([url])
        from_spider = yield run([url], spider_class=ArticleItemSpider)
    assert not [r for r in caplog.records if r.name == "scrapy_boilerplate"]
    expected = extract((SITE / "article-metadata.html").read_bytes(), url, metadata=True)
    for result in (from_page, from_spider):
        [item] = result.items
        assert item.articleBody == expected.text and item.headline == expected.title
    [item] = from_spider.items
    assert expected.metadata is not None and expected.metadata.authors
    assert item.authors == [Author(name=name) for name in expected.metadata.authors]


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("2024-03-05", "2024-03-05T00:00:00"),
        ("2024-03-05T10:00:00+01:00", "2024-03-05T10:00:00+01:00"),
        ("2024-03-05T10:00:00Z", "2024-03-05T10:00:00Z"),
        ("2024-03-05T10:00:00.123", "2024-03-05T10:00:00"),
        ("2024-03-05T10:00:00+00:00", "2024-03-05T10:00:00Z"),
        ("March 5, 2024", None),
        (None, None),
    ],
)
def test_dates_take_the_zyte_common_items_format(value: str | None, expected: str | None) -> None:
    assert _zyte_date(value) == expected


WRITTEN_DATE = (
    '<html><head><meta name="publish-date" content="01:38:07 PM IST Nov 20, 2019">'
    "</head><body><p>Text.</p></body></html>"
)


def test_the_page_object_dates_are_normalised_and_the_raw_value_is_the_page_s() -> None:
    from web_poet import HttpResponse

    from scrapy_boilerplate.integration.poet import BoilerplateArticle

    url = "https://news.example/otters"
    result = extract(WRITTEN_DATE, url, metadata=True)
    response = HttpResponse(url, body=WRITTEN_DATE.encode())
    page = BoilerplateArticlePage(response=response, article=BoilerplateArticle(result))
    item = asyncio.run(page.to_item())
    assert item.datePublished == "2019-11-20T13:38:07"  # the page's zone is ambiguous: none
    assert item.datePublishedRaw == "01:38:07 PM IST Nov 20, 2019"


PROVIDER = "scrapy_boilerplate.integration.poet.BoilerplateArticleProvider"


def _providers(**settings: Any) -> list[str]:
    from scrapy.settings import Settings

    from scrapy_boilerplate.integration.addon import Addon

    crawl_settings = Settings(settings)
    Addon().update_settings(crawl_settings)
    return [
        f"{provider.__module__}.{provider.__qualname__}"
        for provider in crawl_settings.getdict("SCRAPY_POET_PROVIDERS")
    ]


@pytest.mark.parametrize(
    "settings",
    [
        {"ADDONS": {"scrapy_poet.Addon": 300}},
        {"ADDONS": {"scrapy_poet.Addon": 320}},  # listed after this add-on
        {"DOWNLOADER_MIDDLEWARES": {"scrapy_poet.InjectionMiddleware": 543}},
        {"DOWNLOADER_MIDDLEWARES": {"scrapy_poet.downloadermiddlewares.InjectionMiddleware": 1}},
    ],
)
def test_the_provider_is_registered_when_the_crawl_uses_scrapy_poet(
    settings: dict[str, Any],
) -> None:
    assert _providers(**settings) == [PROVIDER]


@pytest.mark.parametrize(
    "settings",
    [{}, {"DOWNLOADER_MIDDLEWARES": {"scrapy_poet.InjectionMiddleware": None}}],
    ids=["not-listed", "disabled"],
)
def test_a_crawl_without_scrapy_poet_gets_no_provider(settings: dict[str, Any]) -> None:
    assert _providers(**settings) == []


def test_a_crawl_without_scrapy_poet_or_url_patterns_does_not_import_them() -> None:
    import subprocess
    import sys

    code = (
        "import sys\n"
        "from scrapy.settings import Settings\n"
        "from scrapy_boilerplate.integration.addon import Addon\n"
        "from scrapy_boilerplate.integration.settings import BoilerplateConfig\n"
        "settings = Settings()\n"
        "Addon().update_settings(settings)\n"
        "BoilerplateConfig.from_settings(settings)\n"
        "print(sorted({m.split('.')[0] for m in sys.modules}"
        " & {'scrapy_poet', 'web_poet', 'zyte_common_items', 'url_matcher', 'tldextract'}))\n"
    )
    output = subprocess.run(
        [sys.executable, "-c", code], check=True, capture_output=True, text=True
    ).stdout
    assert output.strip() == "[]"
