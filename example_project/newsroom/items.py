"""The article item: what the spiders yield and the storage pipeline stores.

The spiders set the page facts (``url``, ``fetched_at``, ``extractor``, ``extractor_options``,
and a date the sitemap or feed gave when the page itself has none); the scrapy-boilerplate
add-on fills the article and its metadata: ``article_text``, ``article_title`` and the
``article_*`` metadata fields (the add-on's default field names, ``BOILERPLATE_FIELD_NAMES``),
and ``article_page_type`` (``BOILERPLATE_PAGE_TYPE_FIELD``).
The add-on fills the item because its ``url`` names the page (``BOILERPLATE_ITEM_POLICY``
``"url"``) and keeps every value the spider set.
"""

from __future__ import annotations

import scrapy

__all__ = ["ArticleItem"]


class ArticleItem(scrapy.Item):
    url = scrapy.Field()  # the fetched URL, tracking parameters removed
    fetched_at = scrapy.Field()  # ISO 8601 UTC
    article_title = scrapy.Field()  # filled by scrapy-boilerplate
    article_text = scrapy.Field()  # filled by scrapy-boilerplate
    # Metadata, filled by scrapy-boilerplate (absent when the page lacks it):
    article_published = scrapy.Field()  # ISO 8601 when it reads as a date, else as found
    article_modified = scrapy.Field()  # as article_published
    article_authors = scrapy.Field()  # list of names
    article_language = scrapy.Field()  # BCP 47 tag, e.g. en-GB
    article_canonical_url = scrapy.Field()  # absolute URL
    article_description = scrapy.Field()
    article_image = scrapy.Field()  # absolute URL of the main image
    # The page type the extractor gave (absent when the extractor does not classify pages):
    article_page_type = scrapy.Field()  # article, listing, forum, product, collection, ...
    extractor = scrapy.Field()
    extractor_options = scrapy.Field()
