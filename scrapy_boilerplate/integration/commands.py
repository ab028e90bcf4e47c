"""``scrapy boilerplate URL_OR_FILE``: show what the extractor keeps on one page.

Registered through the ``scrapy.commands`` entry point. A URL is fetched as a crawl would fetch
it: with the project's settings (user agent, proxies, cookies, ``DOWNLOAD_MAXSIZE``...) and its
downloader middlewares, so redirects are followed and retries made; a file is read as is.
Without ``--extractor`` the page's extractor comes from ``BOILERPLATE_EXTRACTOR``/
``BOILERPLATE_OPTIONS`` and the URL overrides, as in a crawl; ``--spider NAME`` uses that
spider's settings (``custom_settings``/``update_settings``) and fetches with that spider.

Exit status 2, with a one-line ``error:`` message on stderr, for a bad ``BOILERPLATE_*`` setting
or ``--extractor``; exit status 1, with such a message, when the page cannot be extracted
as a crawl would: a download failure (DNS, refused connection, timeout, over
``DOWNLOAD_MAXSIZE``, ignored request), an HTTP status of 400 or more (or a redirect the project
does not follow: ``REDIRECT_ENABLED``, ``REDIRECT_MAX_TIMES``), a response that is not
HTML (the crawl's rule, including ``BOILERPLATE_SNIFF_TEXT``), a body over
``BOILERPLATE_MAX_BODY_SIZE``, or an extraction error.
"""

from __future__ import annotations

import json
import logging
import sys
from argparse import ArgumentParser, Namespace
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from scrapy import Request, Spider
from scrapy.commands import ScrapyCommand
from scrapy.exceptions import UsageError
from scrapy.http import Response
from scrapy.settings import BaseSettings
from scrapy.spidermiddlewares.httperror import HttpError
from scrapy.utils.conf import arglist_to_dict
from twisted.python.failure import Failure
from w3lib.url import is_url

from ..errors import BoilerplateError
from ..extractors import Extractor
from ..model.result import ExtractionResult
from ..output.documents import FORMAT_OPTIONS, OUTPUT_FORMATS, html_document, markdown_document
from ..output.highlight import highlight_html
from ..output.stdout import run_printing
from .downloadermiddleware import is_html_response, looks_like_html, response_content_type
from .runtime import KNOWN_SETTINGS
from .settings import (
    META_DONT_EXTRACT,
    META_EXTRACTOR,
    BoilerplateConfig,
    SettingError,
    unknown_settings,
)

__all__ = ["BoilerplateCommand"]

#: HTTP error statuses reach the callback (and are reported) instead of being dropped; 3xx are
#: left to the redirect middleware.
_ERROR_STATUSES = list(range(400, 600))


class _PageError(Exception):
    """The page cannot be shown; the message is printed as ``error: <message>``, exit status 1."""


@dataclass
class _Fetched:
    """What the fetch crawl produced: the final response or the download failure."""

    response: Response | None = None
    failure: Failure | None = None
    redirects: list[tuple[str, int | str]] = field(default_factory=list)


class _FetchSpider(Spider):
    name = "boilerplate-fetch"


def _fetch_spider(base: type[Spider], url: str, fetched: _Fetched) -> type[Spider]:
    """A subclass of ``base`` whose only request is ``url``, kept in ``fetched``."""

    def keep(response: Response) -> None:
        fetched.response = response
        meta = response.meta
        fetched.redirects = list(
            zip(meta.get("redirect_urls", []), meta.get("redirect_reasons", []), strict=False)
        )

    def fail(failure: Failure) -> None:
        if isinstance(failure.value, HttpError):  # a status the project does not let through,
            keep(failure.value.response)  # e.g. a 301 with REDIRECT_ENABLED=False
        else:
            fetched.failure = failure

    async def start(spider: Spider) -> AsyncIterator[Any]:
        meta = {META_DONT_EXTRACT: True, "handle_httpstatus_list": _ERROR_STATUSES}
        yield Request(url, callback=keep, errback=fail, meta=meta, dont_filter=True)

    return type(base.__name__, (base,), {"start": start, "__module__": base.__module__})


class BoilerplateCommand(ScrapyCommand):
    requires_project = False
    default_settings = {"LOG_LEVEL": "WARNING"}  # noqa: RUF012 - Scrapy's convention

    def syntax(self) -> str:
        return "[options] <url|file>"

    def short_desc(self) -> str:
        return "Extract the article text and title of a page (URL or local file)"

    def add_options(self, parser: ArgumentParser) -> None:
        super().add_options(parser)
        parser.add_argument("--extractor", help="extractor name (default: BOILERPLATE_EXTRACTOR)")
        parser.add_argument(
            "--spider", help="use this spider's settings, and fetch the URL with this spider"
        )
        parser.add_argument(
            "-a",
            dest="spargs",
            action="append",
            default=[],
            metavar="NAME=VALUE",
            help="set a spider argument (with --spider; may be repeated)",
        )
        parser.add_argument(
            "--format",
            choices=OUTPUT_FORMATS,
            help="text (default), markdown (under a # title heading), html (a clean page) or"
            " json (every block and its labels)",
        )
        parser.add_argument("--json", action="store_true", help="the same as --format json")
        parser.add_argument(
            "--highlight", metavar="OUT.html", help="write the page with content blocks marked"
        )

    def process_options(self, args: list[str], opts: Namespace) -> None:
        super().process_options(args, opts)
        if opts.json and opts.format not in (None, "json"):
            raise UsageError(f"--json contradicts --format {opts.format}", print_help=False)
        opts.format = "json" if opts.json else (opts.format or "text")
        try:
            opts.spargs = arglist_to_dict(opts.spargs)
        except ValueError:
            raise UsageError("Invalid -a value, use -a NAME=VALUE", print_help=False) from None

    def run(self, args: list[str], opts: Namespace) -> None:
        if len(args) != 1:
            raise UsageError("give exactly one URL or file")
        spidercls = self._spider_class(opts.spider)
        self.exitcode = run_printing(lambda: self._status(args[0], spidercls, opts))

    def _status(self, target: str, spidercls: type[Spider], opts: Namespace) -> int:
        """Show the page; after printing ``error: ...``, 2 for a bad setting or ``--extractor``,
        1 when the page cannot be shown."""
        try:
            self._show(target, self._config(spidercls), spidercls, opts)
        except SettingError as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 2
        except _PageError as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 1
        return 0

    def _show(
        self, target: str, config: BoilerplateConfig, spidercls: type[Spider], opts: Namespace
    ) -> None:
        fetched: _Fetched | None = None
        if Path(target).is_file():
            body, url, content_type = (
                _read_html_file(Path(target)),
                Path(target).resolve().as_uri(),
                None,
            )
        elif is_url(target):
            fetched = self._fetch(target, spidercls, opts.spargs)
            response = _check_response(target, fetched, config)
            body, url, content_type = response.body, response.url, response_content_type(response)
        else:
            raise UsageError(f"{target!r} is neither an existing file nor an absolute URL")
        extractor = self._extractor(config, opts.extractor, url)
        extractor = extractor.with_options(**FORMAT_OPTIONS[opts.format])
        try:
            result = extractor.extract(body, url, content_type=content_type)
        except BoilerplateError as exc:
            raise _PageError(str(exc)) from None
        if opts.highlight:
            marked = highlight_html(result, body, None if url.startswith("file:") else url)
            Path(opts.highlight).write_text(marked, encoding="utf-8")
        _print(result, fetched, opts.format)

    def _spider_class(self, name: str | None) -> type[Spider]:
        if name is None:
            return _FetchSpider
        assert self.crawler_process is not None
        try:
            return self.crawler_process.spider_loader.load(name)
        except KeyError:
            raise UsageError(f"--spider: no spider named {name!r} in this project") from None

    def _config(self, spidercls: type[Spider]) -> BoilerplateConfig:
        """The ``BOILERPLATE_*`` settings with the spider's own applied (as its crawler would)."""
        assert self.settings is not None
        settings: BaseSettings = self.settings.copy()
        spidercls.update_settings(settings)
        config = BoilerplateConfig.from_settings(settings)
        for message in unknown_settings(settings, KNOWN_SETTINGS):
            print(f"warning: {message}", file=sys.stderr)
        return config

    def _extractor(self, config: BoilerplateConfig, name: str | None, url: str) -> Extractor:
        """``--extractor`` (with ``BOILERPLATE_OPTIONS`` if it is the configured one), else the
        extractor a crawl would use for ``url`` (a URL disabled for crawls is still extracted,
        with a note).
        """
        meta = {} if name is None else {META_EXTRACTOR: name}
        choice = config.choice_for_request(url, meta, source="--extractor")
        if choice.extractor is None:
            print(
                "note: BOILERPLATE_DOMAIN_OVERRIDES disables extraction for this URL in crawls",
                file=sys.stderr,
            )
        extractor = choice.extractor or config.default.extractor
        assert extractor is not None
        return extractor

    def _fetch(self, url: str, spidercls: type[Spider], spargs: dict[str, str]) -> _Fetched:
        assert self.crawler_process is not None
        # A robots.txt that cannot be downloaded is logged with a traceback; the page's own
        # download then fails the same way and says so in one line.
        logging.getLogger("scrapy.downloadermiddlewares.robotstxt").setLevel(logging.CRITICAL)
        fetched = _Fetched()
        self.crawler_process.crawl(_fetch_spider(spidercls, url, fetched), **spargs)
        self.crawler_process.start()
        return fetched


#: File name suffixes of HTML pages (other files must start like one, see ``looks_like_html``).
_HTML_SUFFIXES = (".html", ".htm", ".xhtml", ".shtml")


def _read_html_file(path: Path) -> bytes:
    """The bytes of the HTML file ``path``; :class:`_PageError` for a file that is neither
    named nor shaped like an HTML page (a ``.py`` file, say)."""
    body = path.read_bytes()
    if path.suffix.lower() not in _HTML_SUFFIXES and not looks_like_html(body):
        raise _PageError(
            f"{path} is not HTML (no .html name, and no <html>, <head> or <body> in its first KiB)"
        )
    return body


def _check_response(url: str, fetched: _Fetched, config: BoilerplateConfig) -> Response:
    """The response, if a crawl would extract it; else :class:`_PageError` saying why not."""
    if fetched.failure is not None:
        failure = fetched.failure
        assert failure.type is not None
        raise _PageError(
            f"could not download {url}: {failure.type.__name__}: {failure.getErrorMessage()}"
        )
    response = fetched.response
    if response is None:
        raise _PageError(f"could not download {url} (see the log above)")
    if response.status >= 300:
        not_followed = " (a redirect not followed)" if response.status < 400 else ""
        raise _PageError(
            f"HTTP status {response.status}{not_followed} from {response.url}{_chain(fetched)}"
        )
    if not is_html_response(response, sniff_text=config.sniff_text):
        content_type = response.headers.get(b"Content-Type") or b"no Content-Type"
        raise _PageError(
            f"{response.url} is not HTML ({content_type.decode('latin-1')}): a crawl does not"
            " extract it"
        )
    limit = config.max_body_size
    if limit and len(response.body) > limit:
        raise _PageError(
            f"the body of {response.url} has {len(response.body)} bytes, over"
            f" BOILERPLATE_MAX_BODY_SIZE={limit}: a crawl does not extract it"
        )
    return response


def _chain(fetched: _Fetched) -> str:
    """`` (redirected from A (301) -> B (302))``, or nothing without redirects (a meta refresh
    shows as ``(meta refresh)``).
    """
    if not fetched.redirects:
        return ""
    return " (redirected from " + " -> ".join(f"{u} ({s})" for u, s in fetched.redirects) + ")"


def _print(result: ExtractionResult, fetched: _Fetched | None, output: str) -> None:
    response = None if fetched is None else fetched.response
    if output == "markdown":
        print(markdown_document(result))
        return
    if output == "html":
        print(html_document(result))
        return
    if output == "json":
        data = result.to_dict()
        if fetched is not None and response is not None:
            data["response"] = {
                "url": response.url,
                "status": response.status,
                "redirects": [{"url": u, "status": s} for u, s in fetched.redirects],
            }
        print(json.dumps(data, ensure_ascii=False, indent=2))
        return
    print(f"Title: {result.title or ''}")
    print(f"Extractor: {result.extractor}  URL: {result.url}")
    if fetched is not None and response is not None:
        print(f"Status: {response.status}{_chain(fetched)}")
    print()
    print(result.text)
