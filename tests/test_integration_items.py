"""Which items get the article, and when pages are extracted (real crawls of the local site)."""

from __future__ import annotations

import logging
import runpy
import time
from collections.abc import Callable, Generator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import integration_support
import pytest
import pytest_twisted
import scrapy
from integration_support import SITE, CrawlResult, base_settings
from scrapy.crawler import CrawlerRunner
from twisted.internet import defer

from scrapy_boilerplate import (
    ExtractionContext,
    article_for,
    article_of,
    extract,
    get_extractor,
    register_extractor,
)
from scrapy_boilerplate.classifiers import NUM_WORDS_RULES
from scrapy_boilerplate.filters import Filter
from scrapy_boilerplate.integration import runtime
from scrapy_boilerplate.integration.demand import MIN_SEEN
from scrapy_boilerplate.integration.items import (
    fill_item,
    options_digest,
    takes_an_article_field,
)
from scrapy_boilerplate.model.document import TextDocument

site = integration_support.site
Crawl = Generator[Any, Any, None]
EXTRACTOR = "numwords"
SLOW_MARKER = "TAKE-YOUR-TIME-HERE"


def _sleep_on_marker(doc: TextDocument) -> bool:
    if any(SLOW_MARKER in block.text for block in doc.blocks):
        time.sleep(8)
    return False


def _slow_chain(options: Mapping[str, Any], context: ExtractionContext) -> Sequence[Filter]:
    return [NUM_WORDS_RULES, _sleep_on_marker]


register_extractor("test-slow", _slow_chain, description="sleeps on a marker", replace=True)


def text_of(name: str) -> str:
    page = (SITE / name).read_bytes()
    return extract(page, extractor=EXTRACTOR, content_type="text/html").text


class ScriptSpider(scrapy.Spider):
    """Starts with ``first(spider)``'s requests; callbacks are plain functions of the test."""

    name = "script"

    def __init__(self, first: Callable[[str], list[scrapy.Request]], base: str, **kwargs: Any):
        super().__init__(**kwargs)
        self.first = first
        self.base = base

    async def start(self) -> Any:
        for request in self.first(self.base):
            yield request


@defer.inlineCallbacks
def run(first: Callable[[str], list[scrapy.Request]], base: str, **overrides: Any) -> Any:
    settings = base_settings(**{"BOILERPLATE_EXTRACTOR": EXTRACTOR, **overrides})
    runner = CrawlerRunner(settings)
    crawler = runner.create_crawler(ScriptSpider)
    result = CrawlResult(crawler)
    yield runner.crawl(crawler, first=first, base=base)
    return result


def by_kind(result: CrawlResult) -> dict[str, dict[str, Any]]:
    return {item["kind"]: item for item in result.items}


# -- listing pages: teasers are not the listing's article; nothing asks, nothing is extracted ---


def listing_with_teasers(response: scrapy.http.Response) -> Any:
    for href in response.css("ul.stories a::attr(href)").getall():
        yield {"kind": f"teaser {href}", "url": response.urljoin(href)}


@pytest_twisted.inlineCallbacks
def test_teasers_on_a_listing_are_not_filled_and_the_listing_is_not_extracted(
    site: str,
) -> Crawl:
    result = yield run(
        lambda base: [scrapy.Request(base + "listing.html", listing_with_teasers)], site
    )
    assert len(result.items) == 3
    assert all("article_text" not in item for item in result.items)
    stats = result.boilerplate_stats()
    assert stats["boilerplate/items/skipped/other_url"] == 3
    assert "boilerplate/responses/processed" not in stats  # on demand: nobody asked


def listing_and_own_item(response: scrapy.http.Response) -> Any:
    yield from listing_with_teasers(response)
    yield {"kind": "own", "url": response.url}


@pytest_twisted.inlineCallbacks
def test_the_listings_own_item_gets_the_listings_text(site: str) -> Crawl:
    result = yield run(
        lambda base: [scrapy.Request(base + "listing.html", listing_and_own_item)], site
    )
    items = by_kind(result)
    assert items["own"]["article_text"] == text_of("listing.html")
    assert sum("article_text" in item for item in result.items) == 1
    assert result.stats["boilerplate/responses/processed"] == 1


@pytest_twisted.inlineCallbacks
def test_always_mode_extracts_every_html_response(site: str) -> Crawl:
    result = yield run(
        lambda base: [scrapy.Request(base + "listing.html", listing_with_teasers)],
        site,
        BOILERPLATE_EXTRACT="always",
    )
    assert result.stats["boilerplate/responses/processed"] == 1
    assert all("article_text" not in item for item in result.items)


# -- "auto": callbacks that usually ask are extracted at download time ------------------------


def listing_page(response: scrapy.http.Response, n: int) -> Any:
    """Links to article ``n`` (the listing asks for nothing)."""
    yield response.follow(f"article.html?n={n}", article_page, cb_kwargs={"n": n})


def article_page(response: scrapy.http.Response, n: int) -> Any:
    """Yields its item, then the next listing: one page at a time, listings and articles in
    turn, so each callback's demand is known before its next response arrives."""
    yield {"kind": f"article {n}", "url": response.url}
    if n + 1 < 8:
        yield response.follow(f"listing.html?page={n + 1}", listing_page, cb_kwargs={"n": n + 1})


def news_crawl(base: str) -> list[scrapy.Request]:
    """Eight listing pages and eight article pages, in turn."""
    return [scrapy.Request(f"{base}listing.html?page=0", listing_page, cb_kwargs={"n": 0})]


@pytest_twisted.inlineCallbacks
def test_auto_extracts_article_callbacks_early_and_never_listings(site: str) -> Crawl:
    result = yield run(news_crawl, site)
    assert len(result.items) == 8
    assert all(item["article_text"] == text_of("article.html") for item in result.items)
    stats = result.boilerplate_stats()
    assert stats["boilerplate/responses/processed"] == 8  # the articles only
    # the first MIN_SEEN articles teach it; every later one is extracted as it is downloaded
    assert stats["boilerplate/responses/extracted_early"] == 8 - MIN_SEEN
    assert "boilerplate/responses/extracted_early/unused" not in stats


def asks_every(response: scrapy.http.Response, n: int, every: int) -> Any:
    """Article ``n`` of a chain of nine; yields its item on every ``every``-th page only."""
    if n % every == 0:
        yield {"kind": f"article {n}", "url": response.url}
    if n + 1 < 9:
        kwargs = {"n": n + 1, "every": every}
        yield response.follow(f"article.html?n={n + 1}", asks_every, cb_kwargs=kwargs)


def chain_asking_every(every: int) -> Callable[[str], list[scrapy.Request]]:
    return lambda base: [
        scrapy.Request(f"{base}article.html?n=0", asks_every, cb_kwargs={"n": 0, "every": every})
    ]


@pytest_twisted.inlineCallbacks
def test_auto_keeps_a_callback_that_rarely_asks_on_demand(site: str) -> Crawl:
    result = yield run(chain_asking_every(4), site)  # pages 0, 4, 8 ask: never half
    assert len(result.items) == 3 and all("article_text" in item for item in result.items)
    stats = result.boilerplate_stats()
    assert stats["boilerplate/responses/processed"] == 3
    assert "boilerplate/responses/extracted_early" not in stats


@pytest_twisted.inlineCallbacks
def test_auto_counts_early_extractions_nobody_asked_for(site: str) -> Crawl:
    result = yield run(chain_asking_every(2), site)  # pages 0, 2, 4, 6, 8 ask: half or more
    assert len(result.items) == 5 and all("article_text" in item for item in result.items)
    stats = result.boilerplate_stats()
    # from page 3 on every page is extracted early; 3, 5 and 7 do not ask
    assert stats["boilerplate/responses/extracted_early"] == 6
    assert stats["boilerplate/responses/extracted_early/unused"] == 3
    assert stats["boilerplate/responses/processed"] == 5 + 3


@pytest_twisted.inlineCallbacks
def test_on_demand_mode_never_extracts_early(site: str) -> Crawl:
    result = yield run(news_crawl, site, BOILERPLATE_EXTRACT="on-demand")
    assert len(result.items) == 8 and all("article_text" in item for item in result.items)
    stats = result.boilerplate_stats()
    assert stats["boilerplate/responses/processed"] == 8
    assert "boilerplate/responses/extracted_early" not in stats


# -- items carried to the next page ------------------------------------------------------------


def carry_to_article(response: scrapy.http.Response) -> Any:
    listing_item = {"kind": "carried", "url": response.url}
    yield response.follow("article.html", yield_both, cb_kwargs={"carried": listing_item})


def yield_both(response: scrapy.http.Response, carried: dict[str, Any]) -> Any:
    yield carried
    yield {"kind": "article", "url": response.url}


@pytest_twisted.inlineCallbacks
def test_an_item_carried_from_another_page_is_not_filled_with_this_pages_text(
    site: str,
) -> Crawl:
    result = yield run(lambda base: [scrapy.Request(base + "listing.html", carry_to_article)], site)
    items = by_kind(result)
    assert "article_text" not in items["carried"]
    assert items["article"]["article_text"] == text_of("article.html")


def teaser_item_completed_on_its_page(response: scrapy.http.Response) -> Any:
    teaser = {"kind": "teaser", "url": response.urljoin("article.html")}
    yield response.follow("article.html", yield_carried, cb_kwargs={"carried": teaser})


def yield_carried(response: scrapy.http.Response, carried: dict[str, Any]) -> Any:
    yield carried


@pytest_twisted.inlineCallbacks
def test_an_item_started_on_a_listing_is_filled_on_its_own_page(site: str) -> Crawl:
    result = yield run(
        lambda base: [scrapy.Request(base + "listing.html", teaser_item_completed_on_its_page)],
        site,
    )
    assert by_kind(result)["teaser"]["article_text"] == text_of("article.html")


# -- error pages, redirects, canonical URLs ----------------------------------------------------


def never_called(response: scrapy.http.Response) -> Any:
    raise AssertionError("the 404 must reach the errback")


def error_item(failure: Any) -> Any:
    yield {"kind": "error", "url": failure.request.url}


@pytest_twisted.inlineCallbacks
def test_an_errback_item_on_a_404_gets_no_fields(site: str) -> Crawl:
    result = yield run(
        lambda base: [scrapy.Request(base + "missing.html", never_called, errback=error_item)],
        site,
    )
    [item] = result.items
    assert item == {"kind": "error", "url": site + "missing.html"}
    assert result.stats["boilerplate/responses/skipped/http_error"] == 1


@pytest_twisted.inlineCallbacks
def test_an_error_status_handled_by_the_callback_is_not_extracted(site: str) -> Crawl:
    def item_of_404(response: scrapy.http.Response) -> Any:
        yield {"kind": "404", "url": response.url, "status": response.status}

    result = yield run(
        lambda base: [
            scrapy.Request(base + "missing.html", item_of_404, meta={"handle_httpstatus_all": True})
        ],
        site,
    )
    [item] = result.items
    assert item["status"] == 404 and "article_text" not in item


def item_of_requested_url(response: scrapy.http.Response) -> Any:
    yield {"kind": "redirected", "url": response.meta["redirect_urls"][0]}


@pytest_twisted.inlineCallbacks
def test_an_item_naming_the_url_before_a_redirect_is_filled(site: str) -> Crawl:
    result = yield run(
        lambda base: [scrapy.Request(base + "redirect/article.html", item_of_requested_url)], site
    )
    assert by_kind(result)["redirected"]["article_text"] == text_of("article.html")


def item_of_canonical_url(response: scrapy.http.Response) -> Any:
    yield {"kind": "canonical", "url": response.urljoin("/news/ferry-timetable#top")}
    yield {"kind": "other", "url": response.urljoin("/news/other-story")}


@pytest_twisted.inlineCallbacks
def test_an_item_naming_the_canonical_url_is_filled(site: str) -> Crawl:
    result = yield run(
        lambda base: [scrapy.Request(base + "canonical.html", item_of_canonical_url)], site
    )
    items = by_kind(result)
    assert items["canonical"]["article_text"] == text_of("canonical.html")
    assert "article_text" not in items["other"]


# -- items without a URL; the policy setting and meta key --------------------------------------


def url_less_item(response: scrapy.http.Response) -> Any:
    yield {"kind": "no-url", "title": "x"}


@pytest_twisted.inlineCallbacks
def test_items_without_a_url_are_not_filled_and_warned_about_once(
    site: str, caplog: pytest.LogCaptureFixture
) -> Crawl:
    with caplog.at_level(logging.WARNING, logger="scrapy_boilerplate"):
        result = yield run(
            lambda base: [
                scrapy.Request(base + "article.html", url_less_item),
                scrapy.Request(base + "canonical.html", url_less_item),
            ],
            site,
        )
    assert all("article_text" not in item for item in result.items)
    assert result.stats["boilerplate/items/skipped/no_url"] == 2
    warnings = [r.getMessage() for r in caplog.records if r.name == "scrapy_boilerplate"]
    assert len(warnings) == 1 and "BOILERPLATE_ITEM_POLICY" in warnings[0]


@pytest_twisted.inlineCallbacks
def test_policy_all_fills_every_item(site: str) -> Crawl:
    result = yield run(
        lambda base: [scrapy.Request(base + "article.html", url_less_item)],
        site,
        BOILERPLATE_ITEM_POLICY="all",
    )
    assert result.items[0]["article_text"] == text_of("article.html")


@pytest_twisted.inlineCallbacks
def test_meta_opts_a_request_in_or_out(site: str) -> Crawl:
    def own_item(response: scrapy.http.Response) -> Any:
        yield {"kind": response.meta["kind"], "url": response.url}

    result = yield run(
        lambda base: [
            scrapy.Request(
                base + "article.html",
                url_less_item,
                meta={"boilerplate_item_policy": "all"},
                dont_filter=True,
            ),
            scrapy.Request(
                base + "article.html",
                own_item,
                meta={"boilerplate_item_policy": "none", "kind": "opted-out"},
                dont_filter=True,
            ),
            scrapy.Request(
                base + "canonical.html",
                own_item,
                meta={"boilerplate_item_policy": "everything", "kind": "bad-meta"},
            ),
        ],
        site,
    )
    items = by_kind(result)
    assert items["no-url"]["article_text"] == text_of("article.html")
    assert "article_text" not in items["opted-out"]
    assert items["bad-meta"]["article_text"] == text_of("canonical.html")  # the setting applies
    assert result.stats["boilerplate/items/errors/bad_meta"] == 1


@pytest.mark.parametrize("value", ["some", 3])
def test_a_bad_policy_setting_fails_at_start_up(site: str, value: Any) -> None:
    from scrapy.settings import Settings

    from scrapy_boilerplate.integration import SettingError
    from scrapy_boilerplate.integration.settings import BoilerplateConfig

    with pytest.raises(SettingError, match="BOILERPLATE_ITEM_POLICY must be one of url, all, none"):
        BoilerplateConfig.from_settings(Settings({"BOILERPLATE_ITEM_POLICY": value}))


# -- frozen items --------------------------------------------------------------------------------


@dataclass(frozen=True)
class FrozenArticle:
    url: str
    article_text: str | None = None
    article_title: str | None = None


@dataclass(frozen=True)
class FrozenBare:
    url: str


@pytest_twisted.inlineCallbacks
def test_a_frozen_dataclass_item_is_filled_by_a_copy(
    site: str, caplog: pytest.LogCaptureFixture
) -> Crawl:
    def frozen_items(response: scrapy.http.Response) -> Any:
        yield FrozenArticle(url=response.url)
        yield FrozenBare(url=response.url)

    with caplog.at_level(logging.WARNING, logger="scrapy_boilerplate"):
        result = yield run(lambda base: [scrapy.Request(base + "article.html", frozen_items)], site)
    article, bare = result.items
    assert isinstance(article, FrozenArticle) and article.article_text == text_of("article.html")
    assert isinstance(bare, FrozenBare)
    warnings = [r.getMessage() for r in caplog.records if r.name == "scrapy_boilerplate"]
    assert len(warnings) == 1 and "FrozenBare has none of the article fields" in warnings[0]


# -- synchronous and asynchronous access in callbacks -------------------------------------------


@pytest_twisted.inlineCallbacks
def test_article_of_and_article_for_share_one_extraction(site: str) -> Crawl:
    seen: dict[str, Any] = {}

    async def both(response: scrapy.http.Response) -> Any:
        seen["for"] = await article_for(response)
        seen["of"] = article_of(response)
        yield {"kind": "a", "url": response.url}

    result = yield run(
        lambda base: [scrapy.Request(base + "article.html", both)], site, BOILERPLATE_PROCESSES=1
    )
    assert seen["for"] is seen["of"] and seen["of"].text == text_of("article.html")
    assert result.stats["boilerplate/responses/processed"] == 1
    assert seen["for"].blocks and not seen["for"].blocks[0].elements  # came from a worker


@pytest_twisted.inlineCallbacks
def test_article_of_in_a_sync_callback_extracts_on_the_spot(site: str) -> Crawl:
    seen: dict[str, Any] = {}

    def sync(response: scrapy.http.Response) -> Any:
        seen["of"] = article_of(response)
        yield {"kind": "a", "url": response.url}

    result = yield run(
        lambda base: [scrapy.Request(base + "article.html", sync)], site, BOILERPLATE_PROCESSES=1
    )
    assert result.items[0]["article_text"] == seen["of"].text == text_of("article.html")
    assert seen["of"].blocks[0].elements  # extracted here: the DOM references are kept
    assert result.stats["boilerplate/responses/processed"] == 1


# -- time limit ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "pool",
    [{"BOILERPLATE_PROCESSES": 1}, {"BOILERPLATE_PROCESSES": 0}],
    ids=["processes", "threads"],
)
@pytest_twisted.inlineCallbacks
def test_a_page_over_the_time_limit_passes_on_without_fields(
    site: str, pool: dict[str, int], caplog: pytest.LogCaptureFixture
) -> Crawl:
    def own_item(response: scrapy.http.Response) -> Any:
        yield {"kind": response.url.rsplit("/", 1)[1], "url": response.url}

    started = time.monotonic()
    with caplog.at_level(logging.WARNING, logger="scrapy_boilerplate"):
        result = yield run(
            lambda base: [
                scrapy.Request(base + name, own_item)
                for name in ("slow.html", "article.html", "canonical.html")
            ],
            site,
            BOILERPLATE_EXTRACTOR="test-slow",
            BOILERPLATE_TIMEOUT=0.5,
            CONCURRENT_REQUESTS=1,
            **pool,
        )
    assert time.monotonic() - started < 6  # the 8 s page did not hold the crawl
    items = by_kind(result)
    assert set(items) == {"slow.html", "article.html", "canonical.html"}
    assert "article_text" not in items["slow.html"]
    assert items["article.html"]["article_text"]
    assert result.stats["boilerplate/responses/timed_out"] == 1
    assert result.stats["boilerplate/responses/errors/ExtractionTimeoutError"] == 1
    warnings = [r.getMessage() for r in caplog.records if r.name == "scrapy_boilerplate"]
    assert len(warnings) == 1 and site + "slow.html" in warnings[0]


@pytest_twisted.inlineCallbacks
def test_the_start_is_logged_with_extractor_and_workers(
    site: str, caplog: pytest.LogCaptureFixture
) -> Crawl:
    with caplog.at_level(logging.INFO, logger="scrapy_boilerplate"):
        yield run(lambda base: [], site, BOILERPLATE_PROCESSES=1, LOG_LEVEL="INFO")
    [line, sites] = [r.getMessage() for r in caplog.records if r.name == "scrapy_boilerplate"]
    assert sites.startswith("scrapy-boilerplate: site templates on") and "memory" in sites
    assert line.startswith("scrapy-boilerplate: extractor 'numwords', 1 worker process(es)")
    assert "time limit 5 s per page" in line and "extraction on demand" in line
    assert line.endswith(runtime.metadata_sources(get_extractor(EXTRACTOR, metadata=True)))
    assert "metadata from JSON-LD" in line  # a crawl reads the metadata


def test_fill_item_puts_each_format_in_its_field() -> None:
    page = (SITE / "structured.html").read_bytes()
    result = extract(page, include_markdown=True, include_html=True)
    item: dict[str, Any] = {}
    report = fill_item(
        item,
        result,
        text_field="body",
        title_field=None,
        overwrite=False,
        text_format="html",
        markdown_field="body_md",
    )
    assert item == {"body": result.html, "body_md": result.markdown}
    assert report.written == ["body", "body_md"]
    plain = extract(page)  # nothing rendered: the fields are left alone
    item = {}
    fill_item(item, plain, text_field="body", title_field=None, overwrite=False,
              text_format="markdown", html_field="body_html")  # fmt: skip
    assert item == {}


class _NoArticleItem(scrapy.Item):
    url = scrapy.Field()


@dataclass
class _PublishedOnly:
    url: str
    article_published: str | None = None


@pytest.mark.parametrize(
    ("item_class", "takes"),
    [(dict, True), (_NoArticleItem, False), (_PublishedOnly, True)],
)
def test_an_item_class_takes_an_article_field_when_it_declares_one(
    item_class: type, takes: bool
) -> None:
    fields = frozenset({"article_text", "article_title", "article_published"})
    assert takes_an_article_field(item_class, fields) is takes


# -- the documented styles: the add-on fills the items, or the callback builds them -------------

REPO = SITE.parents[2]


def documented_spider(doc: str, heading: str, folder: Path) -> type[scrapy.Spider]:
    """The spider class of the first Python block defining a class under ``heading`` in ``doc``
    (run from a file in ``folder``: Scrapy reads its callbacks' source)."""
    module = folder / "documented_spider.py"
    module.write_text(spider_block(doc, heading), encoding="utf-8")
    namespace = runpy.run_path(str(module))
    [spider] = [v for v in namespace.values() if isinstance(v, type) and v is not scrapy.Spider]
    return spider  # type: ignore[no-any-return]


def spider_block(doc: str, heading: str) -> str:
    section = (REPO / doc).read_text(encoding="utf-8").split(heading, 1)[1]
    blocks = [block.split("```", 1)[0] for block in section.split("```python\n")[1:]]
    return next(block for block in blocks if "\nclass " in f"\n{block}")


@defer.inlineCallbacks
def crawl_documented(spider: type[scrapy.Spider], url: str, callback: str) -> Any:
    class OnePage(spider):  # type: ignore[valid-type,misc]
        async def start(self) -> Any:
            yield scrapy.Request(url, callback=getattr(self, callback))

    runner = CrawlerRunner(base_settings(BOILERPLATE_EXTRACTOR=EXTRACTOR))
    crawler = runner.create_crawler(OnePage)
    result = CrawlResult(crawler)
    yield runner.crawl(crawler)
    return result


@pytest_twisted.inlineCallbacks
def test_the_readme_example_lets_the_add_on_fill_the_items(site: str, tmp_path: Path) -> Crawl:
    spider = documented_spider("README.md", "## Use it in a Scrapy project", tmp_path)
    result = yield crawl_documented(spider, site + "article.html", "parse_article")
    [item] = result.items
    assert item["article_text"] == text_of("article.html")
    assert "article_for" not in spider_block("README.md", "## Use it in a Scrapy project")


@pytest_twisted.inlineCallbacks
def test_the_documented_callback_that_builds_its_items_gets_no_article_fields(
    site: str, tmp_path: Path
) -> Crawl:
    spider = documented_spider("docs/scrapy.md", "## Reading the article in a callback", tmp_path)
    result = yield crawl_documented(spider, site + "article.html", "parse")
    [item] = result.items
    assert set(item) == {"url", "body", "title", "paragraphs"}  # the text once, in "body"
    assert item["body"] == text_of("article.html")


def test_the_options_digest_depends_on_the_values_not_their_order() -> None:
    assert options_digest({"a": 1, "b": True}) == options_digest({"b": True, "a": 1})
    assert options_digest({"a": 1}) != options_digest({"a": 2})
    assert len(options_digest({})) == 16
