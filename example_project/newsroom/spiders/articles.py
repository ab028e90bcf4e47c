"""What every newsroom spider does with an article page, and how it cleans article URLs."""

from __future__ import annotations

from datetime import datetime, timezone
from email.utils import parsedate_to_datetime
from urllib.parse import urlsplit

from scrapy.http import Response
from w3lib.url import url_query_cleaner

from scrapy_boilerplate import article_for

from ..items import ArticleItem

__all__ = [
    "TRACKING_PARAMETERS",
    "clean_url",
    "article_item",
    "split_arg",
    "feed_date",
    "sitemap_date",
]

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


async def article_item(
    response: Response,
    *,
    listed_published: str | None = None,
    listed_modified: str | None = None,
) -> ArticleItem:
    """The item of an article page; the add-on fills the article and its metadata fields.

    The article is extracted in the crawl's workers (``await article_for``). A date the sitemap
    or feed gave for the page (``listed_published``, ``listed_modified``, ISO 8601) fills
    ``article_published``/``article_modified`` only when the page itself has none: the page's
    own metadata wins.
    """
    article = await article_for(response)
    metadata = article.metadata if article is not None else None
    item = ArticleItem(
        url=clean_url(response.url),
        fetched_at=datetime.now(timezone.utc).isoformat(),
        extractor=article.extractor if article is not None else None,
        extractor_options=dict(article.options) if article is not None else {},
    )
    if listed_published and (metadata is None or not metadata.published):
        item["article_published"] = listed_published
    if listed_modified and (metadata is None or not metadata.modified):
        item["article_modified"] = listed_modified
    return item


def feed_date(value: str | None) -> str | None:
    """An RSS ``pubDate`` (RFC 822) as ISO 8601; the value as found if it is not such a date."""
    value = (value or "").strip()
    if not value:
        return None
    try:
        return parsedate_to_datetime(value).isoformat()
    except (TypeError, ValueError):
        return value


def sitemap_date(value: str | None) -> str | None:
    """A sitemap ``lastmod`` (W3C datetime) as ISO 8601; the value as found if it is not one."""
    value = (value or "").strip()
    if not value:
        return None
    try:
        parsed = datetime.fromisoformat(value[:-1] + "+00:00" if value.endswith("Z") else value)
    except ValueError:
        return value
    return parsed.date().isoformat() if len(value) == 10 else parsed.isoformat()
