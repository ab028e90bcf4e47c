"""``news_crawl``: follow links within the allowed domains; URL rules pick the article pages.

    scrapy crawl news_crawl -a start_urls=https://www.example-news.com/ \\
        [-a allowed_domains=example-news.com] [-a article_patterns='/news/\\d+ /story/']

Only pages whose URL matches an article pattern are parsed into items; every other page of
the site (home, sections, pagination, author pages) is only followed for links.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any, ClassVar

from scrapy.http import Response
from scrapy.linkextractors import LinkExtractor
from scrapy.spiders import CrawlSpider, Rule

from ..items import ArticleItem
from .articles import article_item, clean_url, hosts_of, split_arg

__all__ = ["NewsCrawlSpider", "ARTICLE_PATTERNS", "DENY_PATTERNS", "crawl_rules"]

#: Regexes (searched in the absolute URL) of article pages on common news sites.
ARTICLE_PATTERNS: tuple[str, ...] = (
    r"/\d{4}/\d{2}/\d{2}/[^/?#]+",  # /politics/2024/05/17/council-votes.html
    r"/articles?/[^/?#]+",  # /articles/council-votes-48213/
    r"/story(?:\.php)?\?(?:.*&)?id=\d+",  # /story.php?id=48213
    r"/news/\d{4,}",  # /news/48213
)
#: Regexes of pages never followed: print and AMP copies, accounts, search, feeds, media.
DENY_PATTERNS: tuple[str, ...] = (
    r"[?&]print=",
    r"/print/?$",
    r"/amp/?$",
    r"/(?:login|signin|register|account|search)\b",
    r"/(?:feed|rss)(?:/|\.php|\.xml|$)",
)


class NewsCrawlSpider(CrawlSpider):
    name = "news_crawl"
    custom_settings: ClassVar = {
        # Follow at most this deep from the start pages: news sites are shallow, calendars are not.
        "DEPTH_LIMIT": 6,
    }

    def __init__(
        self,
        start_urls: str | list[str] | None = None,
        allowed_domains: str | list[str] | None = None,
        article_patterns: str | list[str] | None = None,
        deny_patterns: str | list[str] | None = None,
        *args: Any,
        **kwargs: Any,
    ) -> None:
        self.start_urls = split_arg(start_urls)
        if not self.start_urls:
            raise ValueError(
                "news_crawl needs start pages: scrapy crawl news_crawl -a start_urls=https://site/"
            )
        self.allowed_domains = split_arg(allowed_domains) or hosts_of(self.start_urls)
        self.rules = crawl_rules(article_patterns, deny_patterns)
        super().__init__(*args, **kwargs)

    async def parse_article(self, response: Response) -> AsyncIterator[ArticleItem]:
        yield await article_item(response)


def crawl_rules(
    article_patterns: str | list[str] | None = None, deny_patterns: str | list[str] | None = None
) -> tuple[Rule, ...]:
    """The crawl rules: article pages go to ``parse_article`` and are followed; every other
    page is only followed; nothing matching a deny pattern is either (defaults:
    :data:`ARTICLE_PATTERNS`, :data:`DENY_PATTERNS`)."""
    allow = _patterns(article_patterns) or ARTICLE_PATTERNS
    deny = _patterns(deny_patterns) or DENY_PATTERNS
    return (
        Rule(
            LinkExtractor(allow=allow, deny=deny, process_value=clean_url),
            callback="parse_article",
            follow=True,
        ),
        Rule(LinkExtractor(deny=deny, process_value=clean_url), follow=True),
    )


def _patterns(value: str | list[str] | None) -> tuple[str, ...]:
    """Patterns given as a list or as one whitespace-separated string (regexes may hold commas)."""
    if isinstance(value, str):
        return tuple(value.split())
    return tuple(value or ())
