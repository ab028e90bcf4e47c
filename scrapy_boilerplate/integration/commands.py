"""``scrapy boilerplate URL_OR_FILE``: show what the extractor keeps on one page.

Registered through the ``scrapy.commands`` entry point. A URL is fetched with the project's
settings (user agent, proxies, cookies...); a file is read as is. Without ``--extractor`` the
page's extractor comes from ``BOILERPLATE_EXTRACTOR``/``BOILERPLATE_OPTIONS`` and the domain
overrides, as in a crawl.
"""

from __future__ import annotations

import json
import sys
from argparse import ArgumentParser, Namespace
from pathlib import Path
from typing import Any

import scrapy
from scrapy.commands import ScrapyCommand
from scrapy.exceptions import UsageError
from scrapy.http import Response
from w3lib.url import is_url

from ..errors import BoilerplateError
from ..extractors import Extractor
from ..output.highlight import highlight_html
from .settings import META_DONT_EXTRACT, META_EXTRACTOR, BoilerplateConfig, SettingError

__all__ = ["BoilerplateCommand"]


class _FetchSpider(scrapy.Spider):
    name = "boilerplate-fetch"

    def __init__(self, url: str, sink: list[Response], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.url = url
        self.sink = sink

    async def start(self) -> Any:
        meta = {META_DONT_EXTRACT: True, "handle_httpstatus_all": True}
        yield scrapy.Request(self.url, callback=self.keep, meta=meta, dont_filter=True)

    def keep(self, response: Response) -> None:
        self.sink.append(response)


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
            "--json", action="store_true", help="print JSON with every block and its labels"
        )
        parser.add_argument(
            "--highlight", metavar="OUT.html", help="write the page with content blocks marked"
        )

    def run(self, args: list[str], opts: Namespace) -> None:
        if len(args) != 1:
            raise UsageError("give exactly one URL or file")
        target = args[0]
        assert self.settings is not None
        try:
            config = BoilerplateConfig.from_settings(self.settings)
        except SettingError as exc:
            raise UsageError(str(exc)) from None
        if Path(target).is_file():
            body, url, content_type = (
                Path(target).read_bytes(),
                Path(target).resolve().as_uri(),
                None,
            )
        elif is_url(target):
            body, url, content_type = self._fetch(target)
        else:
            raise UsageError(f"{target!r} is neither an existing file nor an absolute URL")
        extractor = self._extractor(config, opts.extractor, url)
        try:
            result = extractor.extract(body, url, content_type=content_type)
        except BoilerplateError as exc:
            print(f"error: {exc}", file=sys.stderr)
            self.exitcode = 1
            return
        if opts.highlight:
            marked = highlight_html(result, body, None if url.startswith("file:") else url)
            Path(opts.highlight).write_text(marked, encoding="utf-8")
        if opts.json:
            print(json.dumps(result.to_dict(), ensure_ascii=False, indent=2))
        else:
            print(f"Title: {result.title or ''}")
            print(f"Extractor: {result.extractor}  URL: {url}")
            print()
            print(result.text)

    def _extractor(self, config: BoilerplateConfig, name: str | None, url: str) -> Extractor:
        """``--extractor`` (with ``BOILERPLATE_OPTIONS`` if it is the configured one), else the
        extractor a crawl would use for ``url`` (a domain disabled for crawls is still extracted).
        """
        try:
            choice = config.choice_for_request(url, {} if name is None else {META_EXTRACTOR: name})
        except SettingError as exc:
            raise UsageError(f"--extractor: {exc}") from None
        extractor = choice.extractor or config.default.extractor
        assert extractor is not None
        return extractor

    def _fetch(self, url: str) -> tuple[bytes, str, str | None]:
        assert self.crawler_process is not None
        responses: list[Response] = []
        self.crawler_process.crawl(_FetchSpider, url=url, sink=responses)
        self.crawler_process.start()
        if not responses:
            raise UsageError(f"could not download {url} (see the log above)")
        response = responses[0]
        content_type = response.headers.get(b"Content-Type")
        return response.body, response.url, content_type.decode("latin-1") if content_type else None
