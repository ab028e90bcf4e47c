"""The downloader middleware: marks each HTML response whose article may be asked for.

It decides whether and with which extractor a response is extracted; the extraction itself
runs when something asks for the article (:mod:`~scrapy_boilerplate.integration.articles`), or
at once with ``BOILERPLATE_EXTRACT = "always"`` and, with ``"auto"``, for the callbacks that
usually ask (:mod:`~scrapy_boilerplate.integration.demand`).

Enable it below ``HttpCompressionMiddleware`` (590) so it sees decompressed bodies; the add-on
uses 545, which also puts it after retries and redirects.
"""

from __future__ import annotations

from scrapy import Request, Spider
from scrapy.crawler import Crawler
from scrapy.exceptions import NotConfigured
from scrapy.http import HtmlResponse, Response, TextResponse, XmlResponse
from scrapy.http.request import NO_CALLBACK

from ..page.responses import looks_like_html
from .articles import expect, extract_early, is_expected, response_content_type, skipped
from .demand import callback_key
from .runtime import Runtime
from .settings import META_DONT_EXTRACT, SettingError

__all__ = [
    "BoilerplateDownloaderMiddleware",
    "is_html_response",
    "looks_like_html",
    "response_content_type",
]


#: The skip reasons that need no detail of the response, in words.
_SKIP_DESCRIPTIONS = {
    "dont_extract": f"meta[{META_DONT_EXTRACT!r}] is set",
    "already_extracted": "the same response came through twice",
    "disabled_domain": "BOILERPLATE_DOMAIN_OVERRIDES disables extraction for this URL",
}


def is_html_response(response: Response, *, sniff_text: bool) -> bool:
    """An :class:`HtmlResponse`, or (with ``sniff_text``) a text response, not XML, whose body
    :func:`looks_like_html`: the responses a crawl extracts.
    """
    if isinstance(response, HtmlResponse):
        return True
    if isinstance(response, XmlResponse) or not isinstance(response, TextResponse):
        return False
    return sniff_text and looks_like_html(response.body)


class BoilerplateDownloaderMiddleware:
    """Marks HTML responses for extraction by the configured extractor; see
    :func:`~scrapy_boilerplate.integration.articles.article_for`.

    Skipped (and counted under ``boilerplate/responses/skipped/...``): non-HTML responses,
    HTTP error responses (status 400 and above), bodies over ``BOILERPLATE_MAX_BODY_SIZE``,
    requests with ``meta["dont_extract_boilerplate"]`` and domains whose override has
    ``enabled: False``. The downloads of Scrapy components (``robots.txt``, media pipelines:
    requests with ``callback=NO_CALLBACK``) are no pages: neither extracted nor counted.
    """

    def __init__(self, crawler: Crawler) -> None:
        self.runtime = Runtime.of(crawler)
        if not self.runtime.config.enabled:
            raise NotConfigured

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> BoilerplateDownloaderMiddleware:
        return cls(crawler)

    async def process_response(
        self, request: Request, response: Response, spider: Spider | None = None
    ) -> Response:
        if request.callback is NO_CALLBACK:
            return response  # a component's own download (robots.txt, media): not a page
        reason = self._skip_reason(request, response)
        if reason is not None:
            self.runtime.inc(f"responses/skipped/{reason}")
            skipped(response, self._describe(reason, response))
            if reason == "too_large":
                self.runtime.warn_once(
                    ("too_large",),
                    "Not extracting from %s: body of %d bytes exceeds BOILERPLATE_MAX_BODY_SIZE",
                    response.url,
                    len(response.body),
                )
            return response
        try:
            choice = self.runtime.config.choice_for_request(response.url, request.meta)
        except SettingError as exc:
            self.runtime.inc("responses/errors")
            self.runtime.inc("responses/errors/bad_meta")
            skipped(response, str(exc))
            self.runtime.warn_once(
                ("bad_meta", str(exc)), "Not extracting from %s: %s", response.url, exc
            )
            return response
        if choice.extractor is None:
            self.runtime.inc("responses/skipped/disabled_domain")
            skipped(response, self._describe("disabled_domain", response))
            return response
        mode = self.runtime.config.extract_mode
        key = callback_key(request) if mode == "auto" else None
        expect(response, self.runtime, choice.extractor, key, (choice.override, choice.by_meta))
        if mode == "always" or (key is not None and self.runtime.demand.extract_early(key)):
            if key is not None:
                self.runtime.inc("responses/extracted_early")
            await extract_early(response)
        return response

    def _skip_reason(self, request: Request, response: Response) -> str | None:
        if request.meta.get(META_DONT_EXTRACT):
            return "dont_extract"
        if is_expected(response):
            return "already_extracted"
        if not self._is_html(response):
            return "non_html"
        if response.status >= 400:
            return "http_error"
        limit = self.runtime.config.max_body_size
        if limit and len(response.body) > limit:
            return "too_large"
        return None

    def _describe(self, reason: str, response: Response) -> str:
        """The skip ``reason`` of ``response`` in words, as ``scrapy boilerplate`` says it."""
        if reason == "non_html":
            content_type = response.headers.get(b"Content-Type") or b"no Content-Type"
            return f"not HTML ({content_type.decode('latin-1')})"
        if reason == "http_error":
            return f"HTTP status {response.status}"
        if reason == "too_large":
            limit = self.runtime.config.max_body_size
            return f"a body of {len(response.body)} bytes, over BOILERPLATE_MAX_BODY_SIZE={limit}"
        return _SKIP_DESCRIPTIONS[reason]

    def _is_html(self, response: Response) -> bool:
        return is_html_response(response, sniff_text=self.runtime.config.sniff_text)
