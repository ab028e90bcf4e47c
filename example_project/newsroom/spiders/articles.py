"""What every newsroom spider does with an article page, and how it cleans article URLs."""

from __future__ import annotations

from datetime import datetime, timezone
from urllib.parse import urlsplit

from scrapy.http import Response
from w3lib.url import url_query_cleaner

from scrapy_boilerplate import article_of

from ..items import ArticleItem

__all__ = ["TRACKING_PARAMETERS", "clean_url", "article_item", "split_arg"]

#: Query parameters that only track where a reader came from; dropped from article URLs.
TRACKING_PARAMETERS = (
    "utm_source",
    "utm_medium",
    "utm_campaign",
    "utm_term",
    "utm_content",
    "ref",
    "fbclid",
    "gclid",
    "mc_cid",
    "mc_eid",
)


def clean_url(url: str) -> str:
    """``url`` without tracking parameters (and without its fragment)."""
    return url_query_cleaner(
        url, TRACKING_PARAMETERS, remove=True, unique=False, keep_fragments=False
    )


def split_arg(value: str | list[str] | tuple[str, ...] | None) -> list[str]:
    """A spider argument given as a comma-separated string (``-a x=a,b``) or a list."""
    if value is None:
        return []
    if isinstance(value, str):
        return [part.strip() for part in value.split(",") if part.strip()]
    return list(value)


def hosts_of(urls: list[str]) -> list[str]:
    """The distinct host names of ``urls``, sorted (the default ``allowed_domains``)."""
    return sorted({urlsplit(url).hostname or "" for url in urls})


def article_item(response: Response) -> ArticleItem:
    """The item of an article page; the add-on fills ``article_text`` and ``article_title``."""
    canonical = response.css('link[rel="canonical"]::attr(href)').get()
    published = (
        response.css('meta[property="article:published_time"]::attr(content)').get()
        or response.css("time::attr(datetime)").get()
    )
    article = article_of(response)
    return ArticleItem(
        url=clean_url(response.url),
        canonical_url=response.urljoin(canonical) if canonical else None,
        published=published,
        fetched_at=datetime.now(timezone.utc).isoformat(),
        extractor=article.extractor if article is not None else None,
        extractor_options=dict(article.options) if article is not None else {},
    )
