"""``@boilerplate``: the spider contract that gives ``scrapy check`` the article fields.

``scrapy check`` calls each callback inside wrappers that run the contracts' hooks and then drop
the output, so the items never pass the spider middlewares and
:class:`~scrapy_boilerplate.integration.BoilerplateSpiderMiddleware` never fills them. This
contract fills them in its post-hook, which runs before the hooks of the contracts listed after
it, so write ``@boilerplate`` above ``@scrapes``::

    def parse(self, response):
        \"\"\"
        @url https://example.com/news/otters.html
        @boilerplate
        @returns items 1 1
        @scrapes url article_text article_title
        \"\"\"
        yield {"url": response.url}

The add-on registers it in ``SPIDER_CONTRACTS`` (when it is enabled in the project settings:
``scrapy check`` reads contracts before any spider's ``custom_settings``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from itemadapter import is_item
from scrapy import Spider
from scrapy.contracts import Contract
from scrapy.http import Response

from ..model.result import ExtractionResult
from .articles import NO_ORIGIN, article_of, origin_of, why_no_article
from .items import enrich
from .runtime import Runtime

__all__ = ["BoilerplateContract"]


class BoilerplateContract(Contract):
    """``@boilerplate``: the page must have an article (pre-hook, fails otherwise), and the items
    the callback returns get its fields (post-hook), by the crawl's rules and settings.
    """

    name = "boilerplate"

    def __init__(self, method: Callable[..., Any], *args: Any) -> None:
        super().__init__(method, *args)
        self.spider: Spider = method.__self__  # type: ignore[attr-defined]  # a bound callback
        self.article: ExtractionResult | None = None
        self.origin = NO_ORIGIN

    def pre_process(self, response: Response) -> None:
        self.article = article_of(response)
        self.origin = origin_of(response)
        if self.article is None:
            raise AssertionError(
                f"no article extracted from {response.url}: {why_no_article(response)}"
            )

    def post_process(self, output: list[Any]) -> None:
        article, self.article = self.article, None
        if article is None:
            return
        runtime = Runtime.of(self.spider.crawler)
        for item in output:
            if is_item(item):
                enrich(runtime, item, article, self.origin)
