"""Real crawls (CrawlerRunner on the test reactor, no network) of the local fixture site."""

from __future__ import annotations

import base64
import importlib.metadata
import logging
import os
import pickle
from collections.abc import Generator, Iterator, Mapping, Sequence
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlencode

import attr
import integration_support
import pytest
import pytest_twisted
import scrapy
from integration_support import SITE, CrawlResult, SiteSpider, base_settings, crawl, serve

from scrapy_boilerplate import ExtractionContext, ExtractionResult, extract, register_extractor
from scrapy_boilerplate.classifiers import NUM_WORDS_RULES
from scrapy_boilerplate.filters import Filter
from scrapy_boilerplate.integration import SettingError, downloadermiddleware
from scrapy_boilerplate.integration.items import options_digest
from scrapy_boilerplate.model.document import TextDocument

site = integration_support.site  # the local fixture site (a pytest fixture)
#: What a ``pytest_twisted.inlineCallbacks`` test function returns.
Crawl = Generator[Any, Any, None]

#: The extractor the crawls use; the product default ("article") is exercised separately.
EXTRACTOR = "numwords"
EXPLODE_MARKER = "EXPLODE-ON-THIS-PAGE"


def _explode_on_marker(doc: TextDocument) -> bool:
    if any(EXPLODE_MARKER in block.text for block in doc.blocks):
        raise RuntimeError("injected failure")
    return False


def _exploding_chain(options: Mapping[str, Any], context: ExtractionContext) -> Sequence[Filter]:
    return [NUM_WORDS_RULES, _explode_on_marker]


register_extractor("test-explode", _exploding_chain, description="raises on a marker", replace=True)


def settings(**overrides: Any) -> dict[str, Any]:
    return base_settings(**{"BOILERPLATE_EXTRACTOR": EXTRACTOR, **overrides})


def expected(name: str, extractor: str = EXTRACTOR) -> ExtractionResult:
    """What the bare API extracts from a fixture page served as text/html (with the metadata,
    as in a crawl)."""
    page = (SITE / name).read_bytes()
    return extract(page, extractor=extractor, content_type="text/html", metadata=True)


class ArticleItem(scrapy.Item):
    url = scrapy.Field()
    article_text = scrapy.Field()
    article_title = scrapy.Field()


class BareItem(scrapy.Item):
    url = scrapy.Field()


@dataclass
class ArticleDataclass:
    url: str
    article_text: str | None = None
    article_title: str | None = None


@attr.s(auto_attribs=True)
class ArticleAttrs:
    url: str
    article_text: str | None = None
    article_title: str | None = None


@pytest_twisted.inlineCallbacks
def test_every_fixture_page_yields_its_item(site: str) -> Crawl:
    pages = {
        "article.html": "processed",
        "listing.html": "processed",
        "document.pdf": "skipped/non_html",
        "gzip/article.html": "processed",
        "legacy-cp1251.html": "processed",
        "empty.html": "skipped/invalid_input",
        "broken.html": "processed",
        "explode.html": "errors",
        "oversized.html": "skipped/too_large",
    }
    urls = [site + page for page in pages]
    result = yield crawl(
        settings(BOILERPLATE_MAX_BODY_SIZE=100_000),
        urls=urls,
        metas={site + "explode.html": {"boilerplate_extractor": "test-explode"}},
    )
    assert sorted(item["url"] for item in result.items) == sorted(urls)
    assert result.dropped == []
    stats = result.boilerplate_stats()
    for outcome in set(pages.values()):
        count = sum(1 for value in pages.values() if value == outcome)
        assert stats[f"boilerplate/responses/{outcome}"] == count, outcome
    assert stats["boilerplate/items/enriched"] == 5
    assert stats["boilerplate/extraction_time_ms"] > 0
    by_url = {item["url"]: item for item in result.items}
    for page in ("document.pdf", "empty.html", "explode.html", "oversized.html"):
        assert "article_text" not in by_url[site + page], page


@pytest_twisted.inlineCallbacks
def test_article_fields_match_the_api(site: str) -> Crawl:
    result = yield crawl(settings(), urls=[site + "article.html"])
    [item] = result.items
    api = expected("article.html")
    assert item["article_text"] == api.text
    assert item["article_title"] == api.title == "River otters return to the Elbe after forty years"
    assert "river otters are breeding on the river again" in item["article_text"]
    assert result.stats["boilerplate/responses/processed"] == 1


@pytest_twisted.inlineCallbacks
def test_gzip_response_is_extracted_after_decompression(site: str) -> Crawl:
    result = yield crawl(settings(), urls=[site + "gzip/article.html"])
    [item] = result.items
    assert item["article_text"] == expected("article.html").text
    assert result.stats["httpcompression/response_count"] == 1


@pytest_twisted.inlineCallbacks
def test_charset_declared_only_in_meta_is_decoded(site: str) -> Crawl:
    result = yield crawl(settings(), urls=[site + "legacy-cp1251.html"])
    [item] = result.items
    assert item["article_title"] == "Письмо от газеты-партнёра"
    assert "на реке снова появились выдры" in item["article_text"]


@pytest_twisted.inlineCallbacks
def test_broken_markup_page_is_extracted(site: str) -> Crawl:
    result = yield crawl(settings(), urls=[site + "broken.html"])
    [item] = result.items
    assert item["article_text"] == expected("broken.html").text
    assert "two-kilometre cycle path" in item["article_text"]


@pytest_twisted.inlineCallbacks
def test_extractor_failure_is_isolated_logged_and_counted(
    site: str, caplog: pytest.LogCaptureFixture
) -> Crawl:
    explode = {"boilerplate_extractor": "test-explode"}
    urls = [site + "explode.html", site + "explode.html?again", site + "article.html"]
    with caplog.at_level(logging.DEBUG, logger="scrapy_boilerplate"):
        result = yield crawl(settings(), urls=urls, metas={urls[0]: explode, urls[1]: explode})
    assert len(result.items) == 3
    stats = result.stats
    assert stats["boilerplate/responses/errors"] == 2
    assert stats["boilerplate/responses/errors/ExtractionError"] == 2
    assert stats["boilerplate/responses/processed"] == 1
    failures = [
        r for r in caplog.records if r.name == "scrapy_boilerplate" and "failed" in r.getMessage()
    ]
    assert [r.levelno for r in failures] == [logging.WARNING, logging.DEBUG]
    assert all("explode.html" in r.getMessage() for r in failures)
    assert result.spider.articles[urls[0]] is None
    assert result.spider.articles[urls[2]] is not None


@pytest_twisted.inlineCallbacks
def test_listing_follow_ups_keep_plain_meta(site: str) -> Crawl:
    result = yield crawl(settings(), urls=[site + "listing.html"], follow=True)
    urls = {item["url"] for item in result.items}
    assert urls == {
        site + p for p in ("listing.html", "article.html", "broken.html", "legacy-cp1251.html")
    }
    assert result.stats["boilerplate/responses/processed"] == 4
    for meta in result.spider.seen_meta.values():
        pickle.dumps(meta)
        assert not any(isinstance(value, ExtractionResult) for value in meta.values())
        assert not any(key.startswith("boilerplate") for key in meta)
    assert all(isinstance(a, ExtractionResult) for a in result.spider.articles.values())


@pytest_twisted.inlineCallbacks
def test_skips_by_meta_size_and_type(site: str) -> Crawl:
    urls = [site + "article.html", site + "oversized.html", site + "document.pdf"]
    result = yield crawl(
        settings(BOILERPLATE_MAX_BODY_SIZE=100_000),
        urls=urls,
        metas={urls[0]: {"dont_extract_boilerplate": True}},
    )
    assert len(result.items) == 3
    assert all("article_text" not in item for item in result.items)
    stats = result.boilerplate_stats()
    assert stats["boilerplate/responses/skipped/dont_extract"] == 1
    assert stats["boilerplate/responses/skipped/too_large"] == 1
    assert stats["boilerplate/responses/skipped/non_html"] == 1
    assert "boilerplate/responses/processed" not in stats


@pytest_twisted.inlineCallbacks
def test_text_responses_are_sniffed_only_when_enabled(site: str) -> Crawl:
    url = site + "plain-html.txt"
    off = yield crawl(settings(), urls=[url])
    on = yield crawl(settings(BOILERPLATE_SNIFF_TEXT=True), urls=[url])
    assert "article_text" not in off.items[0]
    assert off.stats["boilerplate/responses/skipped/non_html"] == 1
    assert on.items[0]["article_title"] == "HTML served as text/plain"
    assert on.stats["boilerplate/responses/processed"] == 1


@pytest.mark.parametrize("item_class", [ArticleItem, ArticleDataclass, ArticleAttrs])
@pytest_twisted.inlineCallbacks
def test_item_types(site: str, item_class: type) -> Crawl:
    result = yield crawl(
        settings(), urls=[site + "article.html"], make_item=lambda url: item_class(url=url)
    )
    [item] = result.items
    assert isinstance(item, item_class)
    from itemadapter import ItemAdapter

    adapter = ItemAdapter(item)
    assert adapter["article_text"] == expected("article.html").text
    assert adapter["article_title"] == expected("article.html").title


class TitleOnlyItem(scrapy.Item):
    url = scrapy.Field()
    article_title = scrapy.Field()


class ItemSpider(SiteSpider):
    """Yields its items without asking for the article itself."""

    async def parse(self, response: scrapy.http.Response) -> Any:
        yield self.make_item(response.url)


@pytest_twisted.inlineCallbacks
def test_item_class_without_article_fields_is_passed_on_unextracted_with_one_warning(
    site: str, caplog: pytest.LogCaptureFixture
) -> Crawl:
    urls = [site + "article.html", site + "broken.html"]
    with caplog.at_level(logging.WARNING, logger="scrapy_boilerplate"):
        result = yield crawl(
            settings(), urls=urls, make_item=lambda url: BareItem(url=url), spider_class=ItemSpider
        )
    assert sorted(item["url"] for item in result.items) == sorted(urls)
    stats = result.boilerplate_stats()
    assert stats["boilerplate/items/skipped/no_article_field"] == 2
    assert "boilerplate/responses/processed" not in stats  # nothing extracted for nothing
    warnings = [r.getMessage() for r in caplog.records if "none of the article" in r.getMessage()]
    assert len(warnings) == 1 and "BareItem" in warnings[0]


@pytest_twisted.inlineCallbacks
def test_item_class_missing_some_fields_passes_with_one_warning_per_field(
    site: str, caplog: pytest.LogCaptureFixture
) -> Crawl:
    urls = [site + "article.html", site + "broken.html"]
    with caplog.at_level(logging.WARNING, logger="scrapy_boilerplate"):
        result = yield crawl(
            settings(),
            urls=urls,
            make_item=lambda url: TitleOnlyItem(url=url),
            spider_class=ItemSpider,
        )
    assert all(item["article_title"] for item in result.items)
    assert result.stats["boilerplate/items/field_missing"] == 2
    warnings = [r for r in caplog.records if "has no field" in r.getMessage()]
    assert len(warnings) == 1  # once per distinct missing field, not per page
    assert warnings[0].args[1] == "article_text"  # type: ignore[index]


@pytest_twisted.inlineCallbacks
def test_a_mistyped_setting_is_warned_about_once(
    site: str, caplog: pytest.LogCaptureFixture
) -> Crawl:
    urls = [site + "article.html", site + "broken.html"]
    with caplog.at_level(logging.WARNING, logger="scrapy_boilerplate"):
        result = yield crawl(settings(BOILERPLATE_EXTRACTER="keep-everything"), urls=urls)
    assert result.stats["boilerplate/responses/processed"] == 2
    warnings = [r.getMessage() for r in caplog.records if "BOILERPLATE_EXTRACTER" in r.getMessage()]
    assert warnings == [
        "Unknown setting BOILERPLATE_EXTRACTER is ignored (did you mean BOILERPLATE_EXTRACTOR?)"
    ]


@pytest_twisted.inlineCallbacks
def test_a_missing_robots_txt_is_not_counted_as_a_skipped_page(site: str) -> Crawl:
    result = yield crawl(settings(ROBOTSTXT_OBEY=True), urls=[site + "article.html"])
    assert result.stats["robotstxt/response_status_count/404"] == 1
    stats = result.boilerplate_stats()
    assert not [key for key in stats if key.startswith("boilerplate/responses/skipped")]
    assert stats["boilerplate/responses/processed"] == 1


@pytest_twisted.inlineCallbacks
def test_the_provenance_field_says_what_made_each_article(site: str) -> Crawl:
    overrides = {"127.0.0.1/broken.html": {"extractor": "keep-everything"}}
    urls = [site + "article.html", site + "broken.html"]
    result = yield crawl(
        settings(BOILERPLATE_PROVENANCE_FIELD=True, BOILERPLATE_DOMAIN_OVERRIDES=overrides),
        urls=urls,
    )
    made = {item["url"]: item["article_provenance"] for item in result.items}
    article = result.spider.articles[site + "article.html"]
    assert made[site + "article.html"] == {
        "extractor": EXTRACTOR,
        "options_digest": options_digest(article.options),
        "version": importlib.metadata.version("scrapy-boilerplate"),
        "override": None,
        "by_meta": False,
    }
    broken = made[site + "broken.html"]
    assert (broken["extractor"], broken["override"]) == ("keep-everything", "127.0.0.1/broken.html")


@pytest_twisted.inlineCallbacks
def test_no_provenance_field_unless_asked(site: str) -> Crawl:
    result = yield crawl(settings(), urls=[site + "article.html"])
    [item] = result.items
    assert "article_provenance" not in item and item["article_text"]


class PickyItem(dict):  # type: ignore[type-arg]
    def __setitem__(self, key: str, value: Any) -> None:
        if key == "article_text":
            raise ValueError("no article text here")
        super().__setitem__(key, value)


@pytest_twisted.inlineCallbacks
def test_item_rejecting_the_values_is_passed_on(site: str) -> Crawl:
    urls = [site + "article.html", site + "broken.html"]
    result = yield crawl(settings(), urls=urls, make_item=lambda url: PickyItem(url=url))
    assert sorted(item["url"] for item in result.items) == sorted(urls)
    assert result.stats["boilerplate/items/errors"] == 2
    assert all("article_text" not in item for item in result.items)


@pytest_twisted.inlineCallbacks
def test_existing_values_are_kept_unless_overwrite(site: str) -> Crawl:
    def make(url: str) -> dict[str, Any]:
        return {"url": url, "article_title": "Set by the spider", "article_text": ""}

    kept = yield crawl(settings(), urls=[site + "article.html"], make_item=make)
    replaced = yield crawl(
        settings(BOILERPLATE_OVERWRITE=True), urls=[site + "article.html"], make_item=make
    )
    assert kept.items[0]["article_title"] == "Set by the spider"
    assert kept.items[0]["article_text"] == expected("article.html").text  # empty counts as unset
    assert kept.stats["boilerplate/items/kept_existing"] == 1
    assert replaced.items[0]["article_title"] == expected("article.html").title


@pytest_twisted.inlineCallbacks
def test_zyte_field_names_with_one_setting(site: str) -> Crawl:
    result = yield crawl(settings(BOILERPLATE_FIELD_NAMES="zyte"), urls=[site + "article.html"])
    [item] = result.items
    assert item["articleBody"] == expected("article.html").text
    assert item["headline"] == expected("article.html").title
    assert "article_text" not in item


@pytest_twisted.inlineCallbacks
def test_metadata_fields_with_default_names_from_worker_processes(site: str) -> Crawl:
    result = yield crawl(settings(BOILERPLATE_PROCESSES=1), urls=[site + "article-metadata.html"])
    [item] = result.items
    assert expected("article-metadata.html").metadata is not None
    assert {key: value for key, value in item.items() if key.startswith("article_")} == {
        "article_text": expected("article-metadata.html").text,
        "article_title": "Beavers build a dam on the Mulde",
        "article_published": "2025-04-02T07:30:00+02:00",
        "article_modified": "2025-04-03T12:00:00+00:00",
        "article_authors": ["Anna Weber", "Ben Ode"],
        "article_language": "en-GB",
        "article_canonical_url": site + "news/beavers-mulde",
        "article_description": "The first beaver dam on the Mulde in a century.",
        "article_image": site + "img/beaver-dam.jpg",
    }


@pytest_twisted.inlineCallbacks
def test_metadata_fields_with_zyte_names_and_shapes(site: str) -> Crawl:
    result = yield crawl(
        settings(BOILERPLATE_FIELD_NAMES="zyte"), urls=[site + "article-metadata.html"]
    )
    [item] = result.items
    assert item["datePublished"] == "2025-04-02T07:30:00+02:00"
    assert item["dateModified"] == "2025-04-03T12:00:00+00:00"
    assert item["authors"] == [{"name": "Anna Weber"}, {"name": "Ben Ode"}]
    assert item["inLanguage"] == "en-GB"
    assert item["canonicalUrl"] == site + "news/beavers-mulde"
    assert item["description"] == "The first beaver dam on the Mulde in a century."
    assert item["mainImage"] == {"url": site + "img/beaver-dam.jpg"}


@pytest_twisted.inlineCallbacks
def test_metadata_fields_switched_off_and_missing_values_not_written(site: str) -> Crawl:
    off = yield crawl(
        settings(BOILERPLATE_METADATA_FIELDS=False), urls=[site + "article-metadata.html"]
    )
    assert set(off.items[0]) == {"url", "article_text", "article_title"}
    # only <html lang> and the visible byline "By Anna Weber, 3 March 2025"
    plain = yield crawl(settings(), urls=[site + "article.html"])
    assert set(plain.items[0]) == {
        "url",
        "article_text",
        "article_title",
        "article_language",
        "article_authors",
        "article_published",
    }
    assert plain.items[0]["article_authors"] == ["Anna Weber"]


@pytest_twisted.inlineCallbacks
def test_item_class_without_metadata_fields_is_counted_quietly(
    site: str, caplog: pytest.LogCaptureFixture
) -> Crawl:
    urls = [site + "article-metadata.html", site + "article.html"]
    with caplog.at_level(logging.WARNING, logger="scrapy_boilerplate"):
        result = yield crawl(settings(), urls=urls, make_item=lambda url: ArticleItem(url=url))
    assert all(item["article_text"] for item in result.items)
    assert result.stats["boilerplate/items/metadata_field_missing"] == 2
    assert "boilerplate/items/field_missing" not in result.stats
    assert not [r for r in caplog.records if "has no field" in r.getMessage()]


@dataclass
class MetadataDataclass:
    url: str
    article_text: str | None = None
    article_published: str | None = None
    article_authors: list[str] | None = None


@pytest_twisted.inlineCallbacks
def test_declared_metadata_fields_are_filled_and_kept_unless_overwrite(site: str) -> Crawl:
    def make(url: str) -> MetadataDataclass:
        return MetadataDataclass(url=url, article_published="set by the spider")

    urls = [site + "article-metadata.html"]
    kept = yield crawl(settings(BOILERPLATE_TITLE_FIELD=""), urls=urls, make_item=make)
    replaced = yield crawl(
        settings(BOILERPLATE_TITLE_FIELD="", BOILERPLATE_OVERWRITE=True), urls=urls, make_item=make
    )
    assert kept.items[0].article_published == "set by the spider"
    assert kept.items[0].article_authors == ["Anna Weber", "Ben Ode"]
    assert replaced.items[0].article_published == "2025-04-02T07:30:00+02:00"
    assert kept.stats["boilerplate/items/metadata_field_missing"] == 1  # e.g. article_image


@dataclass(frozen=True)
class FrozenMetadataItem:
    url: str
    article_text: str | None = None
    article_published: str | None = None


@pytest_twisted.inlineCallbacks
def test_frozen_dataclass_gets_its_declared_metadata_fields(site: str) -> Crawl:
    result = yield crawl(
        settings(BOILERPLATE_TITLE_FIELD=""),
        urls=[site + "article-metadata.html"],
        make_item=lambda url: FrozenMetadataItem(url=url),
    )
    [item] = result.items
    assert item.article_published == "2025-04-02T07:30:00+02:00"
    assert item.article_text == expected("article-metadata.html").text
    assert result.stats["boilerplate/items/metadata_field_missing"] == 1
    assert "boilerplate/items/errors" not in result.stats


class ZyteSpider(SiteSpider):
    custom_settings = {  # noqa: RUF012 - Scrapy's own convention
        "BOILERPLATE_FIELD_NAMES": "zyte",
        "BOILERPLATE_TITLE_FIELD": "",
    }


@pytest_twisted.inlineCallbacks
def test_per_spider_custom_settings(site: str) -> Crawl:
    from scrapy.crawler import CrawlerRunner

    runner = CrawlerRunner(settings())
    crawler = runner.create_crawler(ZyteSpider)
    result = CrawlResult(crawler)
    yield runner.crawl(crawler, urls=[site + "article.html"])
    # <html lang="en"> and the visible byline
    assert set(result.items[0]) == {"url", "articleBody", "inLanguage", "authors", "datePublished"}


@pytest_twisted.inlineCallbacks
def test_domain_overrides_and_request_meta(site: str) -> Crawl:
    urls = [site + "listing.html", site + "listing.html?meta"]
    result = yield crawl(
        settings(BOILERPLATE_DOMAIN_OVERRIDES={"127.0.0.1": {"extractor": "keep-everything"}}),
        urls=urls,
        metas={urls[1]: {"boilerplate_extractor": EXTRACTOR}},
    )
    by_url = {item["url"]: item for item in result.items}
    assert by_url[urls[0]]["article_text"] == expected("listing.html", "keep-everything").text
    assert by_url[urls[1]]["article_text"] == expected("listing.html").text
    assert by_url[urls[0]]["article_text"] != by_url[urls[1]]["article_text"]

    disabled = yield crawl(
        settings(BOILERPLATE_DOMAIN_OVERRIDES={"127.0.0.1": {"enabled": False}}),
        urls=[site + "article.html"],
    )
    assert "article_text" not in disabled.items[0]
    assert disabled.stats["boilerplate/responses/skipped/disabled_domain"] == 1


@pytest_twisted.inlineCallbacks
def test_bad_request_meta_is_counted_not_raised(site: str) -> Crawl:
    url = site + "article.html"
    result = yield crawl(settings(), urls=[url], metas={url: {"boilerplate_extractor": "no-such"}})
    assert len(result.items) == 1
    assert result.stats["boilerplate/responses/errors/bad_meta"] == 1


@pytest.mark.parametrize(
    ("overrides", "named"),
    [
        ({"BOILERPLATE_EXTRACTOR": "no-such-extractor"}, "BOILERPLATE_EXTRACTOR"),
        ({"BOILERPLATE_OPTIONS": {"no_such_option": 1}}, "BOILERPLATE_OPTIONS"),
        ({"BOILERPLATE_DOMAIN_OVERRIDES": {"example.com": "nope"}}, "BOILERPLATE_DOMAIN_OVERRIDES"),
        ({"BOILERPLATE_MAX_BODY_SIZE": "big"}, "BOILERPLATE_MAX_BODY_SIZE"),
    ],
)
@pytest_twisted.inlineCallbacks
def test_bad_settings_fail_at_start_up(site: str, overrides: dict[str, Any], named: str) -> Crawl:
    with pytest.raises(SettingError, match=named):
        yield crawl(settings(**overrides), urls=[site + "article.html"])


@pytest.mark.parametrize(
    "pool", [{"BOILERPLATE_THREADS": 2}, {"BOILERPLATE_PROCESSES": 1}], ids=["threads", "processes"]
)
@pytest_twisted.inlineCallbacks
def test_worker_pools_give_the_same_items(site: str, pool: dict[str, int]) -> Crawl:
    urls = [site + p for p in ("article.html", "broken.html", "legacy-cp1251.html", "explode.html")]
    metas = {urls[3]: {"boilerplate_extractor": "test-explode"}}
    inline = yield crawl(settings(BOILERPLATE_THREADS=0), urls=urls, metas=metas)
    pooled = yield crawl(settings(**pool), urls=urls, metas=metas)

    def by_url(items: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
        return {item["url"]: item for item in items}

    assert by_url(pooled.items) == by_url(inline.items)
    assert pooled.stats["boilerplate/responses/processed"] == 3
    assert pooled.stats["boilerplate/responses/errors"] == 1
    article = pooled.spider.articles[urls[0]]
    assert article.text == inline.spider.articles[urls[0]].text


@pytest_twisted.inlineCallbacks
def test_disabled_setting_turns_everything_off(site: str) -> Crawl:
    result = yield crawl(settings(BOILERPLATE_ENABLED=False), urls=[site + "article.html"])
    assert result.items == [{"url": site + "article.html"}]
    assert result.boilerplate_stats() == {}


@pytest_twisted.inlineCallbacks
def test_manual_enabling_without_the_addon(site: str) -> Crawl:
    manual = settings(
        ADDONS={},
        DOWNLOADER_MIDDLEWARES={
            "scrapy_boilerplate.integration.BoilerplateDownloaderMiddleware": 545
        },
        SPIDER_MIDDLEWARES={"scrapy_boilerplate.integration.BoilerplateSpiderMiddleware": 950},
    )
    result = yield crawl(manual, urls=[site + "gzip/article.html"])
    assert result.items[0]["article_text"] == expected("article.html").text


@pytest_twisted.inlineCallbacks
def test_markdown_and_clean_html_fields_come_from_the_worker_processes(site: str) -> Crawl:
    result = yield crawl(
        settings(
            BOILERPLATE_EXTRACTOR="article",
            BOILERPLATE_PROCESSES=1,
            BOILERPLATE_MARKDOWN_FIELD=True,
            BOILERPLATE_ARTICLE_HTML_FIELD="clean_html",
        ),
        urls=[site + "structured.html"],
    )
    [item] = result.items
    api = expected_with("structured.html", include_markdown=True, include_html=True)
    assert item["article_text"] == api.text
    assert item["article_markdown"] == api.markdown
    assert item["clean_html"] == api.html
    assert "## The main changes\n\n- Line 4 runs every ten minutes" in item["article_markdown"]
    assert "\n  - from the station to the hospital" in item["article_markdown"]
    assert "| 7 | 20 minutes | 23:00 |" in item["article_markdown"]
    assert "<tr><td>4</td><td>10 minutes</td><td>23:40</td></tr>" in item["clean_html"]
    assert "News" not in item["article_markdown"]


@pytest_twisted.inlineCallbacks
def test_reader_comments_go_to_their_own_field_when_asked(site: str) -> Crawl:
    urls = [site + "commented.html", site + "article.html"]
    result = yield crawl(
        settings(BOILERPLATE_EXTRACTOR="article", BOILERPLATE_COMMENTS_FIELD=True), urls=urls
    )
    by_url = {item["url"]: item for item in result.items}
    commented = by_url[site + "commented.html"]
    api = expected_with("commented.html")
    assert commented["article_comments"] == api.comments and api.comments
    assert commented["article_text"] == api.text
    assert "Four years is optimistic." not in commented["article_text"]
    assert "article_comments" not in by_url[site + "article.html"]  # a page without comments
    plain = yield crawl(settings(BOILERPLATE_EXTRACTOR="article"), urls=urls[:1])
    assert "article_comments" not in plain.items[0]  # off unless asked


@pytest_twisted.inlineCallbacks
def test_the_page_type_goes_to_its_field_when_asked(site: str) -> Crawl:
    urls = [site + "listing.html", site + "article.html"]
    asked = settings(BOILERPLATE_EXTRACTOR="article", BOILERPLATE_PAGE_TYPE_FIELD=True)
    result = yield crawl(asked, urls=urls)
    by_url = {item["url"]: item for item in result.items}
    for url in urls:
        page = (SITE / url.rsplit("/", 1)[1]).read_bytes()
        expected_type = extract(page, url, content_type="text/html").page_type
        assert expected_type is not None
        assert by_url[url]["article_page_type"] == expected_type
    plain = yield crawl(settings(BOILERPLATE_EXTRACTOR="article"), urls=urls[1:])
    assert "article_page_type" not in plain.items[0]  # off unless asked
    rules = yield crawl(settings(BOILERPLATE_PAGE_TYPE_FIELD=True), urls=urls[1:])
    assert "article_page_type" not in rules.items[0]  # the rule chains give no page type


@pytest_twisted.inlineCallbacks
def test_text_format_puts_markdown_in_the_text_field(site: str) -> Crawl:
    result = yield crawl(
        settings(BOILERPLATE_EXTRACTOR="article", BOILERPLATE_TEXT_FORMAT="markdown"),
        urls=[site + "structured.html", site + "article.html"],
    )
    by_url = {item["url"]: item for item in result.items}
    markdown = by_url[site + "structured.html"]["article_text"]
    assert markdown == expected_with("structured.html", include_markdown=True).markdown
    assert "\n| Line | Every | Last bus |\n|---|---|---|\n" in markdown
    assert "article_markdown" not in by_url[site + "article.html"]


def expected_with(name: str, **options: Any) -> ExtractionResult:
    """What ``article`` with ``options`` extracts from a fixture page served as text/html."""
    page = (SITE / name).read_bytes()
    return extract(page, extractor="article", content_type="text/html", **options)


@pytest_twisted.inlineCallbacks
def test_pipeline_extracts_from_html_field_and_drops_short_articles(site: str) -> Crawl:
    def html_item(url: str) -> dict[str, Any]:
        name = url.rsplit("/", 1)[1]
        return {"url": url, "html": (SITE / name).read_text(encoding="utf-8")}

    result = yield crawl(
        settings(
            ADDONS={},
            ITEM_PIPELINES={"scrapy_boilerplate.integration.BoilerplatePipeline": 100},
            BOILERPLATE_HTML_FIELD="html",
            BOILERPLATE_MIN_TEXT_LENGTH=200,
        ),
        urls=[site + "article.html", site + "listing.html"],
        make_item=html_item,
    )
    [kept] = result.items
    assert kept["article_text"] == expected("article.html").text
    assert [item["url"] for item in result.dropped] == [site + "listing.html"]
    assert len(expected("listing.html").text) < 200
    stats = result.stats
    assert stats["boilerplate/pipeline/processed"] == 2
    assert stats["boilerplate/items/dropped/too_short"] == 1
    assert "boilerplate/responses/processed" not in stats


@pytest_twisted.inlineCallbacks
def test_min_text_length_keeps_items_that_were_not_extracted(site: str) -> Crawl:
    urls = [site + "document.pdf", site + "listing.html"]
    result = yield crawl(settings(BOILERPLATE_MIN_TEXT_LENGTH=200), urls=urls)
    assert [item["url"] for item in result.items] == [urls[0]]
    assert [item["url"] for item in result.dropped] == [urls[1]]


@pytest_twisted.inlineCallbacks
def test_product_default_extractor(site: str) -> Crawl:
    from scrapy_boilerplate import available_extractors

    if "article" not in available_extractors():
        pytest.skip("the 'article' extractor is not registered yet")
    result = yield crawl(base_settings(), urls=[site + "article.html"])
    [item] = result.items
    assert item["article_text"] == expected("article.html", "article").text
    assert "river otters are breeding on the river again" in item["article_text"]


DIE_MARKER = "KILL-THE-WORKER-HERE"
MAIN_PID = os.getpid()


def _die_in_worker_on_marker(doc: TextDocument) -> bool:
    if os.getpid() != MAIN_PID and any(DIE_MARKER in block.text for block in doc.blocks):
        os._exit(3)  # a worker process dying mid-page (an OOM kill, a crash in C code)
    return False


register_extractor(
    "test-die",
    lambda options, context: [NUM_WORDS_RULES, _die_in_worker_on_marker],
    description="kills its worker process on a marker",
    replace=True,
)


@pytest_twisted.inlineCallbacks
def test_worker_processes_start_when_the_spider_opens(site: str) -> Crawl:
    result = yield crawl(settings(BOILERPLATE_PROCESSES=2), urls=[])
    assert result.items == []
    assert result.boilerplate_stats() == {"boilerplate/workers/processes": 2}


@pytest_twisted.inlineCallbacks
def test_workers_that_cannot_start_are_replaced_by_threads(
    site: str, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> Crawl:
    def no_processes(*args: Any, **kwargs: Any) -> None:
        raise OSError("no semaphores here")

    monkeypatch.setattr("scrapy_boilerplate.integration.runtime.ProcessWorkers.start", no_processes)
    urls = [site + "article.html", site + "listing.html"]
    with caplog.at_level(logging.WARNING, logger="scrapy_boilerplate"):
        result = yield crawl(settings(BOILERPLATE_PROCESSES=1), urls=urls)
    assert {item["url"]: item["article_text"] for item in result.items} == {
        url: expected(url.rsplit("/", 1)[1]).text for url in urls
    }
    assert "boilerplate/workers/processes" not in result.stats
    warnings = [r.getMessage() for r in caplog.records if r.name == "scrapy_boilerplate"]
    assert len(warnings) == 1 and "cannot start extraction worker processes" in warnings[0]


@pytest_twisted.inlineCallbacks
def test_a_page_that_kills_its_worker_costs_that_page_only(
    site: str, caplog: pytest.LogCaptureFixture
) -> Crawl:
    urls = [site + "kill-worker.html", site + "article.html", site + "listing.html"]
    with caplog.at_level(logging.WARNING, logger="scrapy_boilerplate"):
        result = yield crawl(
            settings(
                BOILERPLATE_PROCESSES=1, BOILERPLATE_EXTRACTOR="test-die", CONCURRENT_REQUESTS=1
            ),
            urls=urls,
        )
    assert result.items[0]["url"] == urls[0]  # the others came after it
    texts = {item["url"]: item.get("article_text") for item in result.items}
    assert set(texts) == set(urls)  # no item lost
    assert texts[urls[0]] is None
    assert texts[urls[1]] == expected("article.html", "test-die").text
    stats = result.stats
    assert stats["boilerplate/responses/errors/WorkerDiedError"] == 1
    assert stats["boilerplate/responses/retried"] == 1  # run once more, then given up
    assert stats["boilerplate/workers/died"] == 2
    assert stats["boilerplate/workers/restarted"] == 2
    assert stats["boilerplate/responses/processed"] == 2  # still in a worker process
    warnings = [r.getMessage() for r in caplog.records if r.name == "scrapy_boilerplate"]
    assert len(warnings) == 2 and all("worker process died" in w for w in warnings)
    assert all(urls[0] in w for w in warnings)


@pytest_twisted.inlineCallbacks
def test_workers_that_keep_dying_hand_their_queue_to_threads(
    site: str, caplog: pytest.LogCaptureFixture
) -> Crawl:
    urls = [f"{site}kill-worker.html?n={n}" for n in range(12)]
    with caplog.at_level(logging.WARNING, logger="scrapy_boilerplate"):
        result = yield crawl(
            settings(BOILERPLATE_PROCESSES=1, BOILERPLATE_EXTRACTOR="test-die"), urls=urls
        )
    texts = {item["url"]: item.get("article_text") for item in result.items}
    assert set(texts) == set(urls)  # no item lost
    stats = result.stats
    # each page the processes gave up on killed two workers; 10 deaths in a row break the pool
    given_up = stats["boilerplate/responses/errors/WorkerDiedError"]
    assert given_up == 5 and stats["boilerplate/workers/died"] == 10
    assert sum(text is None for text in texts.values()) == given_up
    assert stats["boilerplate/responses/processed"] == len(urls) - given_up  # in the thread
    warnings = [r.getMessage() for r in caplog.records if r.name == "scrapy_boilerplate"]
    assert any("keep dying" in w for w in warnings)


# -- charsets: the article is decoded as Scrapy decoded the response ---------------------------

CHARSETS = Path(__file__).parent / "fixtures" / "charsets"
LITHUANIAN = "Po ilgų diskusijų miesto taryba vakar patvirtino naują ateinančių metų biudžetą."


class _CharsetHandler(BaseHTTPRequestHandler):
    """Serves ``tests/fixtures/charsets/<file>`` as ``?type=`` says (default ``text/html``)."""

    def do_GET(self) -> None:
        path, _, query = self.path.partition("?")
        file = CHARSETS / path.lstrip("/")
        if not file.is_file() or CHARSETS not in file.resolve().parents:
            self.send_error(404)
            return
        body = file.read_bytes()
        self.send_response(200)
        self.send_header("Content-Type", parse_qs(query).get("type", ["text/html"])[0])
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture(scope="module")
def charset_site() -> Iterator[str]:
    """Base URL (with trailing slash) of a local site serving the charset fixtures."""
    yield from serve(_CharsetHandler)


def _article_text(result: CrawlResult) -> str:
    [item] = result.items
    assert result.stats["boilerplate/responses/processed"] == 1
    return " ".join(str(item["article_text"]).split())


@pytest.mark.parametrize(
    ("body", "headers", "encoding", "charset"),
    [
        ("<p>Grüße</p>".encode(), {}, None, "utf-8"),
        (b"<p>Gr\xfc\xdfe</p>", {"Content-Type": "text/html; charset=latin-1"}, None, "cp1252"),
        (b"<p>Gr\xfc\xdfe</p>", {"Content-Type": "text/html"}, "iso-8859-15", "iso-8859-15"),
    ],
)
def test_the_extractor_decodes_by_scrapys_encoding(
    body: bytes, headers: dict[str, str], encoding: str | None, charset: str
) -> None:
    response = scrapy.http.HtmlResponse(
        "http://example.com/", body=body, headers=headers, encoding=encoding
    )
    assert downloadermiddleware.response_content_type(response) == f"text/html; charset={charset}"


@pytest_twisted.inlineCallbacks
def test_a_charset_only_in_the_http_header_decodes_the_page(charset_site: str) -> Crawl:
    query = urlencode({"type": "text/html; charset=windows-1257"})
    result = yield crawl(settings(), urls=[f"{charset_site}lt-cp1257-undeclared.html?{query}"])
    assert LITHUANIAN in _article_text(result)


@pytest_twisted.inlineCallbacks
def test_an_encoding_only_scrapy_knows_decodes_the_page() -> Crawl:
    # A data: URI gives the response its encoding, with no header and no <meta>: the page's
    # own bytes are misread by detection (cp1257 Lithuanian reads as cp1250), Scrapy's is right.
    body = (CHARSETS / "lt-cp1257-undeclared.html").read_bytes()
    url = "data:text/html;charset=windows-1257;base64," + base64.b64encode(body).decode()
    result = yield crawl(settings(), urls=[url])
    assert LITHUANIAN in _article_text(result)


@pytest_twisted.inlineCallbacks
def test_a_charset_only_scrapy_detects_decodes_the_page(charset_site: str) -> Crawl:
    result = yield crawl(settings(), urls=[charset_site + "ru-cp1251-undeclared.html"])
    text = _article_text(result)
    assert "Депутаты городского совета после долгих обсуждений утвердили бюджет" in text
