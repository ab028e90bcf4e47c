"""The spider middleware: fills the article fields of the items that belong to their response."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

from itemadapter import is_item
from scrapy import Spider
from scrapy.crawler import Crawler
from scrapy.exceptions import NotConfigured
from scrapy.http import Response

from .articles import article_for, callback_done, origin_of
from .items import enrich, takes_an_article_field
from .ownership import item_url, names_the_page
from .runtime import Runtime
from .settings import SettingError

__all__ = ["BoilerplateSpiderMiddleware"]


class BoilerplateSpiderMiddleware:
    """Sets ``BOILERPLATE_TEXT_FIELD``/``BOILERPLATE_TITLE_FIELD`` on the items a callback yields,
    extracting the response's article when the first such item arrives.

    ``BOILERPLATE_ITEM_POLICY`` (or the request's ``boilerplate_item_policy`` meta key) decides
    which items are filled: ``"url"`` (default) those whose URL field names the page (see
    :mod:`~scrapy_boilerplate.integration.ownership`), ``"all"`` every item, ``"none"`` none.
    Items that are not filled are counted under ``boilerplate/items/skipped/...``. Requests pass
    through untouched; an item class without the field is passed on and counted
    (``boilerplate/items/field_missing``), warned about once; one without any of the article
    fields is passed on without extracting the page for it
    (``boilerplate/items/skipped/no_article_field``), warned about once.
    """

    def __init__(self, crawler: Crawler) -> None:
        self.runtime = Runtime.of(crawler)
        config = self.runtime.config
        if not config.enabled or not config.fields_for(dict).names():
            raise NotConfigured
        self._takes_a_field_by_class: dict[type, bool] = {}

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> BoilerplateSpiderMiddleware:
        return cls(crawler)

    async def process_spider_output(
        self, response: Response, result: AsyncIterator[Any], spider: Spider | None = None
    ) -> AsyncIterator[Any]:
        policy = self._policy(response)
        try:
            async for output in result:
                if (
                    is_item(output)
                    and self._takes_a_field(output, response)
                    and self._belongs(output, response, policy)
                ):
                    article = await article_for(response)
                    if article is not None:
                        output = enrich(self.runtime, output, article, origin_of(response))
                yield output
        finally:
            callback_done(response)

    def _policy(self, response: Response) -> str:
        try:
            return self.runtime.config.item_policy_for(response.meta)
        except AttributeError:  # a response without a request
            return self.runtime.config.item_policy
        except SettingError as exc:
            self.runtime.inc("items/errors/bad_meta")
            self.runtime.warn_once(("bad_meta", str(exc)), "On %s: %s", response.url, exc)
            return self.runtime.config.item_policy

    def _takes_a_field(self, item: Any, response: Response) -> bool:
        """Whether the item's class can hold one of the article fields: else it is passed on
        without extracting the page for it (``items/skipped/no_article_field``), warned once."""
        item_class = type(item)
        takes = self._takes_a_field_by_class.get(item_class)
        if takes is None:
            fields = self.runtime.config.fields_for(item_class).names()
            takes = self._takes_a_field_by_class[item_class] = takes_an_article_field(
                item_class, fields
            )
        if not takes:
            self.runtime.inc("items/skipped/no_article_field")
            self.runtime.warn_once(
                ("no_article_field", item_class.__qualname__),
                "Item class %s has none of the article fields (%s): its pages are not extracted"
                " for it; declare one of them, or change BOILERPLATE_TEXT_FIELD and the other"
                " field settings",
                item_class.__qualname__,
                ", ".join(sorted(self.runtime.config.fields_for(item_class).names())),
            )
        return takes

    def _belongs(self, item: Any, response: Response, policy: str) -> bool:
        if policy == "all":
            return True
        if policy == "none":
            self.runtime.inc("items/skipped/policy_none")
            return False
        url = item_url(item, self.runtime.config.url_field)
        if url is None:
            self.runtime.inc("items/skipped/no_url")
            self.runtime.warn_once(
                ("no_url", type(item).__qualname__),
                "A %s item from %s has no %r field: with BOILERPLATE_ITEM_POLICY='url' only "
                "items whose URL field names the page get the article; set the field, or "
                "BOILERPLATE_ITEM_POLICY='all' (or meta['boilerplate_item_policy'])",
                type(item).__qualname__,
                response.url,
                self.runtime.config.url_field,
            )
            return False
        if not names_the_page(url, response):
            self.runtime.inc("items/skipped/other_url")
            return False
        return True
