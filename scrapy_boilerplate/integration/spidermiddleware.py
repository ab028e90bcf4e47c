"""The spider middleware: fills the article fields of items yielded from extracted responses."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterable, Iterator
from typing import Any

from itemadapter import is_item
from scrapy import Spider
from scrapy.crawler import Crawler
from scrapy.exceptions import NotConfigured
from scrapy.http import Response

from .downloadermiddleware import article_of
from .items import enrich
from .runtime import Runtime

__all__ = ["BoilerplateSpiderMiddleware"]


class BoilerplateSpiderMiddleware:
    """Sets ``BOILERPLATE_TEXT_FIELD``/``BOILERPLATE_TITLE_FIELD`` on every item a callback
    yields from a response that has an article (see
    :func:`~scrapy_boilerplate.integration.downloadermiddleware.article_of`).

    Requests and items from other responses pass through untouched; an item class without the
    field is passed on and counted (``boilerplate/items/field_missing``), warned about once.
    """

    def __init__(self, crawler: Crawler) -> None:
        self.runtime = Runtime.of(crawler)
        config = self.runtime.config
        if not config.enabled or (config.text_field is None and config.title_field is None):
            raise NotConfigured

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> BoilerplateSpiderMiddleware:
        return cls(crawler)

    def process_spider_output(
        self, response: Response, result: Iterable[Any], spider: Spider | None = None
    ) -> Iterator[Any]:
        article = article_of(response)
        for output in result:
            if article is not None and is_item(output):
                enrich(self.runtime, output, article)
            yield output

    async def process_spider_output_async(
        self, response: Response, result: AsyncIterator[Any], spider: Spider | None = None
    ) -> AsyncIterator[Any]:
        article = article_of(response)
        async for output in result:
            if article is not None and is_item(output):
                enrich(self.runtime, output, article)
            yield output
