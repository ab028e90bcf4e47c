"""Which callbacks ``BOILERPLATE_EXTRACT = "auto"`` extracts at download time."""

from __future__ import annotations

import functools

import scrapy
from scrapy.spiders import CrawlSpider

from scrapy_boilerplate.integration.demand import DemandTracker, callback_key


def test_nothing_is_early_before_enough_responses_were_seen() -> None:
    tracker = DemandTracker(window=20, min_seen=3)
    tracker.record("parse_article", True)
    tracker.record("parse_article", True)
    assert not tracker.extract_early("parse_article")
    tracker.record("parse_article", True)
    assert tracker.extract_early("parse_article")
    assert not tracker.extract_early("never_seen")


def test_callbacks_are_judged_on_their_own_latest_responses() -> None:
    tracker = DemandTracker(window=4, min_seen=3, early_share=0.5)
    for _ in range(5):
        tracker.record("parse_listing", False)
        tracker.record("parse_article", True)
    assert tracker.extract_early("parse_article")
    assert not tracker.extract_early("parse_listing")
    tracker.record("parse_article", False)
    tracker.record("parse_article", False)
    assert tracker.extract_early("parse_article")  # 2 of the last 4 asked: half
    tracker.record("parse_article", False)
    assert not tracker.extract_early("parse_article")  # 1 of the last 4


class NewsSpider(scrapy.Spider):
    name = "news"

    def parse_article(self, response: scrapy.http.Response) -> None:
        pass


def test_the_key_is_the_callbacks_qualified_name() -> None:
    spider = NewsSpider()
    assert callback_key(scrapy.Request("http://a/", callback=spider.parse_article)) == (
        "NewsSpider.parse_article"
    )
    assert callback_key(scrapy.Request("http://a/")) == "parse"


def test_partials_and_callable_objects_are_named_by_what_they_call() -> None:
    spider = NewsSpider()
    partial = functools.partial(spider.parse_article, section="world")
    assert callback_key(scrapy.Request("http://a/", callback=partial)) == (
        "NewsSpider.parse_article"
    )

    class Parser:
        def __call__(self, response: scrapy.http.Response) -> None:
            pass

    assert callback_key(scrapy.Request("http://a/", callback=Parser())) == (
        "test_partials_and_callable_objects_are_named_by_what_they_call.<locals>.Parser"
    )


def test_only_the_least_recently_seen_keys_are_forgotten() -> None:
    tracker = DemandTracker(min_seen=1, max_keys=2)
    tracker.record("a", True)
    tracker.record("b", True)
    tracker.record("a", True)
    tracker.record("c", True)  # forgets b, seen longest ago
    assert tracker.extract_early("a") and tracker.extract_early("c")
    assert not tracker.extract_early("b")


def test_crawlspider_requests_are_told_apart_by_their_rule() -> None:
    spider = CrawlSpider(name="crawl")
    request = scrapy.Request("http://a/", callback=spider._callback, meta={"rule": 2})
    assert callback_key(request) == "CrawlSpider._callback#rule2"
    other = scrapy.Request("http://a/", callback=spider._callback, meta={"rule": "x"})
    assert callback_key(other) == "CrawlSpider._callback"  # not a CrawlSpider rule index
