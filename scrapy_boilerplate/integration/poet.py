"""scrapy-poet page objects: :class:`BoilerplateArticlePage` returns a zyte-common-items Article.

Needs the ``poet`` extra (scrapy-poet, web-poet, zyte-common-items) and both add-ons::

    ADDONS = {"scrapy_poet.Addon": 300, "scrapy_boilerplate.Addon": 310}

    async def parse(self, response, page: BoilerplateArticlePage):
        yield await page.to_item()

The page object reads the add-on's extraction of the response through the page input
:class:`BoilerplateArticle`, provided by :class:`BoilerplateArticleProvider` (registered by the
add-on in ``SCRAPY_POET_PROVIDERS`` when the crawl enables scrapy-poet). The extraction runs in the
crawl's workers, once per response, with the crawl's settings, domain overrides and meta keys.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any

import attrs
from scrapy.http import Response
from scrapy_poet.page_input_providers import PageObjectInputProvider
from web_poet import field
from zyte_common_items import ArticlePage, Author, Image

from ..model.result import ExtractionResult
from .articles import article_for

__all__ = ["BoilerplateArticle", "BoilerplateArticlePage", "BoilerplateArticleProvider"]


@attrs.define
class BoilerplateArticle:
    """Page input: the add-on's extraction result of the response (None: not extracted)."""

    result: ExtractionResult | None


class BoilerplateArticleProvider(PageObjectInputProvider):
    """Provides :class:`BoilerplateArticle` from the crawl's extraction of the response."""

    provided_classes: set[Callable[..., Any]] = {BoilerplateArticle}  # noqa: RUF012 (as the base)

    async def __call__(
        self, to_provide: set[Callable[..., Any]], response: Response
    ) -> Sequence[BoilerplateArticle]:
        return [BoilerplateArticle(await article_for(response))]


@attrs.define
class BoilerplateArticlePage(ArticlePage):
    """An ``Article`` with the add-on's text, title and metadata.

    ``headline`` is the title, ``articleBody`` the article text (empty when the page has no
    article; None when it was not extracted), ``articleBodyHtml`` the clean HTML (when the
    crawl renders it: ``BOILERPLATE_ARTICLE_HTML_FIELD`` or the ``include_html`` option), the
    dates are normalised ISO 8601 with a time as zyte-common-items asks, with the zone when the
    page gives one and without one when it does not (a bare date becomes midnight, no zone;
    ``datePublishedRaw`` keeps the page's value as written), ``authors`` are
    ``Author(name=...)``, ``mainImage`` an ``Image``.
    """

    article: BoilerplateArticle

    @property
    def _result(self) -> ExtractionResult | None:
        return self.article.result

    @field
    def headline(self) -> str | None:
        return self._result.title if self._result is not None else None

    @field
    def articleBody(self) -> str | None:  # noqa: N802 (zyte-common-items field name)
        return self._result.text if self._result is not None else None

    @field
    def articleBodyHtml(self) -> str | None:  # noqa: N802
        return self._result.html if self._result is not None else None

    @field
    def datePublished(self) -> str | None:  # noqa: N802
        return _zyte_date(self._metadata("published"))

    @field
    def datePublishedRaw(self) -> str | None:  # noqa: N802
        return self._metadata("published_raw")

    @field
    def dateModified(self) -> str | None:  # noqa: N802
        return _zyte_date(self._metadata("modified"))

    @field
    def dateModifiedRaw(self) -> str | None:  # noqa: N802
        return self._metadata("modified_raw")

    @field
    def authors(self) -> list[Author] | None:
        metadata = self._result.metadata if self._result is not None else None
        if metadata is None or not metadata.authors:
            return None
        return [Author(name=name) for name in metadata.authors]

    @field
    def inLanguage(self) -> str | None:  # noqa: N802
        return self._metadata("language")

    @field
    def canonicalUrl(self) -> str | None:  # noqa: N802
        return self._metadata("canonical_url")

    @field
    def description(self) -> str | None:
        return self._metadata("description")

    @field
    def mainImage(self) -> Image | None:  # noqa: N802
        image = self._metadata("image")
        return Image(url=image) if image else None

    def _metadata(self, name: str) -> str | None:
        metadata = self._result.metadata if self._result is not None else None
        value = getattr(metadata, name) if metadata is not None else None
        return value if isinstance(value, str) else None


def _zyte_date(value: str | None) -> str | None:
    """``value`` (ISO 8601) as ``YYYY-MM-DDThh:mm:ss`` followed by its zone (``Z`` for UTC,
    else the offset) when it has one: a zone-less value gets none; None if unreadable."""
    if not value:
        return None
    try:
        parsed = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return None
    text = parsed.isoformat(timespec="seconds")
    return text[: -len("+00:00")] + "Z" if text.endswith("+00:00") else text
