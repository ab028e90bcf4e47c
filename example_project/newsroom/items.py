"""The article item: what the spiders yield and the storage pipeline stores.

The spiders set the page facts; the scrapy-boilerplate add-on fills ``article_text`` and
``article_title``; ``extractor`` and ``extractor_options`` record which extractor produced them.
"""

from __future__ import annotations

import scrapy

__all__ = ["ArticleItem"]


class ArticleItem(scrapy.Item):
    url = scrapy.Field()  # the fetched URL, tracking parameters removed
    canonical_url = scrapy.Field()  # <link rel="canonical">, if the page has one
    published = scrapy.Field()  # the page's own publication date, as it gives it (may be None)
    fetched_at = scrapy.Field()  # ISO 8601 UTC
    article_title = scrapy.Field()  # filled by scrapy-boilerplate
    article_text = scrapy.Field()  # filled by scrapy-boilerplate
    extractor = scrapy.Field()
    extractor_options = scrapy.Field()
