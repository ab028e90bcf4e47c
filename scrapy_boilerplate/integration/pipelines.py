"""The item pipeline: extracts from raw HTML kept in an item field, and drops too-short articles."""

from __future__ import annotations

from typing import Any

from itemadapter import ItemAdapter
from scrapy import Spider
from scrapy.crawler import Crawler
from scrapy.exceptions import DropItem, NotConfigured

from .items import enrich, takes_an_article_field
from .runtime import Runtime

__all__ = ["BoilerplatePipeline"]


class BoilerplatePipeline:
    """Two optional steps, each off unless configured (with neither, the pipeline disables itself):

    * ``BOILERPLATE_HTML_FIELD``: items holding HTML (str, or bytes, bytearray or memoryview,
      decoded by BOM, ``<meta>`` then detection) in that field get the article fields from it;
      the page URL (for per-domain settings) is read from ``BOILERPLATE_URL_FIELD``. Counted
      under ``boilerplate/pipeline/...``; an item class without any article field is not
      extracted for (``pipeline/skipped/no_article_field``).
    * ``BOILERPLATE_MIN_TEXT_LENGTH``: items whose text field holds a string shorter than this many
      characters are dropped (``DropItem``, ``boilerplate/items/dropped/too_short``). Items
      without the field (page skipped or extraction failed) are kept.
    """

    def __init__(self, crawler: Crawler) -> None:
        self.runtime = Runtime.of(crawler)
        config = self.runtime.config
        if not config.enabled or (config.html_field is None and not config.min_text_length):
            raise NotConfigured

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> BoilerplatePipeline:
        return cls(crawler)

    async def process_item(self, item: Any, spider: Spider | None = None) -> Any:
        config = self.runtime.config
        adapter = ItemAdapter(item)
        if config.html_field is not None:
            item = await self._extract_from_field(item, adapter, config.html_field)
            adapter = ItemAdapter(item)
        text_field = config.fields_for(type(item)).text
        if config.min_text_length and text_field is not None:
            text = adapter.get(text_field)
            if isinstance(text, str) and len(text) < config.min_text_length:
                self.runtime.inc("items/dropped/too_short")
                raise DropItem(
                    f"article text of {len(text)} characters is shorter than"
                    f" BOILERPLATE_MIN_TEXT_LENGTH={config.min_text_length}"
                )
        return item

    async def _extract_from_field(self, item: Any, adapter: ItemAdapter, html_field: str) -> Any:
        """The item filled from its HTML field (a copy for a frozen dataclass)."""
        fields = self.runtime.config.fields_for(type(item)).names()
        if not takes_an_article_field(type(item), fields):
            self.runtime.inc("pipeline/skipped/no_article_field")
            return item
        html = adapter.get(html_field)
        if not isinstance(html, (str, bytes, bytearray, memoryview)) or not html:
            self.runtime.inc("pipeline/skipped/no_html")
            return item
        if isinstance(html, (bytearray, memoryview)):
            # plain bytes pickle to a worker process (a memoryview cannot)
            html = html.tobytes() if isinstance(html, memoryview) else bytes(html)
        url_field = self.runtime.config.url_field
        url = adapter.get(url_field) if url_field else None
        url = url if isinstance(url, str) and url else None
        choice = self.runtime.config.choice_for_url(url)
        if choice.extractor is None:
            self.runtime.inc("pipeline/skipped/disabled_domain")
            return item
        result = await self.runtime.extract(choice.extractor, html, url, None, "pipeline")
        origin = (choice.override, False)
        return item if result is None else enrich(self.runtime, item, result, origin)
