"""``news_crawl_redis``: ``news_crawl`` with its start URLs and frontier in Redis (scrapy-redis).

    SCRAPY_SETTINGS_MODULE=newsroom.settings_distributed \\
        scrapy crawl news_crawl_redis -a allowed_domains=example-news.com,other-news.org
    redis-cli LPUSH news_crawl_redis:start_urls '{"url": "https://www.example-news.com/"}'

Any number of such processes share one crawl. The spider is ``news_crawl`` (same rules, same
article callback) with scrapy-redis's :class:`~scrapy_redis.spiders.RedisMixin`: start URLs
are read from the Redis list ``news_crawl_redis:start_urls`` (JSON ``{"url": ...}`` or a bare
URL). Two adaptations, both small:

* Scrapy 2.13+ starts a spider with ``async start()``, which never calls the
  ``start_requests()`` scrapy-redis 0.9 overrides: :meth:`NewsCrawlRedisSpider.start` reads
  the first batch of seeds itself (later seeds are read when the process is idle, as
  scrapy-redis does).
* A seed becomes a plain GET that goes through the shared dupe filter (scrapy-redis makes it a
  ``dont_filter`` form request): seeding a URL twice, or from every process, fetches it once,
  and the home page is not fetched again when an article links back to it.

Closing: the process closes when the shared frontier is drained (see
:mod:`newsroom.distributed.scheduler`) and it has been idle for ``MAX_IDLE_TIME_BEFORE_CLOSE``
seconds (scrapy-redis's setting; ``0`` keeps it waiting for new seeds for ever). scrapy-redis
0.9 measures that idle time from when the spider class was imported; here it counts from the
last response this process received.

Start URLs are read in batches, and queued (through the dupe filter) right after: a process
killed in between loses that batch of seeds; push them again (the dupe filter makes a second
push harmless). Every other request is covered by the scheduler's leases.

This module is loaded only with the distributed settings (``SPIDER_MODULES``), so the project
works without scrapy-redis installed.
"""

from __future__ import annotations

import json
import time
from collections.abc import AsyncIterator
from typing import Any

from scrapy import Request, signals
from scrapy.crawler import Crawler
from scrapy.spiders import CrawlSpider
from scrapy_redis.spiders import RedisMixin

from ..spiders.articles import split_arg
from ..spiders.news_crawl import NewsCrawlSpider, crawl_rules

__all__ = ["NewsCrawlRedisSpider", "seed_data"]


def seed_data(url: str) -> str:
    """What to push to ``news_crawl_redis:start_urls`` to seed ``url``."""
    return json.dumps({"url": url})


class NewsCrawlRedisSpider(RedisMixin, NewsCrawlSpider):  # type: ignore[misc]
    name = "news_crawl_redis"

    def __init__(
        self,
        allowed_domains: str | list[str] | None = None,
        article_patterns: str | list[str] | None = None,
        deny_patterns: str | list[str] | None = None,
        *args: Any,
        **kwargs: Any,
    ) -> None:
        self.start_urls: list[str] = []
        self.allowed_domains = split_arg(allowed_domains)
        if not self.allowed_domains:
            raise ValueError(
                "news_crawl_redis needs the domains to stay on (its start URLs come from "
                "Redis): scrapy crawl news_crawl_redis -a allowed_domains=site.com,other.org"
            )
        self.rules = crawl_rules(article_patterns, deny_patterns)
        CrawlSpider.__init__(self, *args, **kwargs)

    @classmethod
    def from_crawler(cls, crawler: Crawler, *args: Any, **kwargs: Any) -> NewsCrawlRedisSpider:
        spider: NewsCrawlRedisSpider = super().from_crawler(crawler, *args, **kwargs)
        spider.setup_redis(crawler)
        spider.spider_idle_start_time = int(time.time())
        crawler.signals.connect(spider._busy, signal=signals.response_received)
        return spider

    async def start(self) -> AsyncIterator[Request]:
        """The first batch of seeded start URLs (up to ``CONCURRENT_REQUESTS``)."""
        for request in self.next_requests():
            yield request

    def make_request_from_data(self, data: bytes | str) -> Request | list[Request]:
        """A seed as a plain GET through the dupe filter; nothing for a seed without a URL."""
        text = (data.decode(self.redis_encoding) if isinstance(data, bytes) else data).strip()
        url = json.loads(text).get("url") if text.startswith("{") else text
        if not url:
            self.logger.warning("Seed without a URL ignored: %r", text)
            return []
        return Request(url)

    def _busy(self) -> None:
        """Restart the idle clock (see the module docstring)."""
        self.spider_idle_start_time = int(time.time())
