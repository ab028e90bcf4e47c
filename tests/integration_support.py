"""Test support for the Scrapy integration: a local site and a crawl helper.

The site serves ``tests/fixtures/site`` on 127.0.0.1 (a free port) with these extra routes:
``/gzip/<file>`` (gzip'd, ``Content-Encoding: gzip``), ``/empty.html`` (empty ``text/html``),
``/oversized.html`` (an article padded to ``OVERSIZED_BYTES``), ``/redirect/<path>`` (a 301 to
``/<path>``, so ``/redirect/redirect/a.html`` redirects twice); a missing file is a 404.
``.pdf`` is served as ``application/pdf``, ``.txt`` as ``text/plain``; ``.html`` as
``text/html`` without charset. :func:`make_project` writes a Scrapy project for subprocess runs.
"""

from __future__ import annotations

import gzip
import subprocess
import sys
import textwrap
import threading
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
import scrapy
from scrapy import signals
from scrapy.crawler import Crawler, CrawlerRunner
from twisted.internet import defer

SITE = Path(__file__).parent / "fixtures" / "site"
OVERSIZED_BYTES = 300_000
_TYPES = {".html": "text/html", ".pdf": "application/pdf", ".txt": "text/plain"}


class _SiteHandler(BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        path = self.path.split("?", 1)[0].lstrip("/")
        extra: dict[str, str] = {}
        if path.startswith("redirect/"):
            self.send_response(301)
            self.send_header("Location", "/" + path.removeprefix("redirect/"))
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        if path == "empty.html":
            body, content_type = b"", "text/html"
        elif path == "oversized.html":
            article = (SITE / "article.html").read_bytes()
            padding = b"<!-- padding -->" * (OVERSIZED_BYTES // 16)
            body, content_type = article.replace(b"</body>", padding + b"</body>"), "text/html"
        else:
            compressed = path.startswith("gzip/")
            file = SITE / path.removeprefix("gzip/")
            if not file.is_file() or SITE not in file.resolve().parents:
                self.send_error(404)
                return
            body, content_type = (
                file.read_bytes(),
                _TYPES.get(file.suffix, "application/octet-stream"),
            )
            if compressed:
                body, extra = gzip.compress(body), {"Content-Encoding": "gzip"}
        self.send_response(200)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        for name, value in extra.items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: Any) -> None:
        pass


def serve(handler: type[BaseHTTPRequestHandler]) -> Iterator[str]:
    """Serve ``handler`` on a free local port; yields the base URL (with trailing slash)."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="module")
def site() -> Iterator[str]:
    """Base URL (with trailing slash) of the local fixture site."""
    yield from serve(_SiteHandler)


class SiteSpider(scrapy.Spider):
    """Requests ``urls`` (each optionally with meta) and yields one item per response.

    With ``follow`` set it also follows the links of ``listing.html``.
    """

    name = "site"

    def __init__(
        self,
        urls: list[str],
        make_item: Callable[[str], Any] = lambda url: {"url": url},
        metas: dict[str, dict[str, Any]] | None = None,
        follow: bool = False,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        self.urls = urls
        self.make_item = make_item
        self.metas = metas or {}
        self.follow = follow
        self.seen_meta: dict[str, dict[str, Any]] = {}
        self.articles: dict[str, Any] = {}

    async def start(self) -> Any:
        for url in self.urls:
            yield scrapy.Request(url, meta=dict(self.metas.get(url, {})), dont_filter=True)

    async def parse(self, response: scrapy.http.Response) -> Any:
        from scrapy_boilerplate import article_for

        self.seen_meta[response.url] = dict(response.meta)
        self.articles[response.url] = await article_for(response)
        yield self.make_item(response.url)
        if self.follow and isinstance(response, scrapy.http.TextResponse):
            for request in response.follow_all(css="ul.stories a"):
                yield request


def make_project(root: Path, spiders: str, settings: str = "") -> Path:
    """A Scrapy project ``proj`` in ``root`` with the add-on enabled: ``spiders`` is the source of
    ``proj/spiders/__init__.py``, ``settings`` more lines of ``settings.py``. Returns ``root``
    (run ``scrapy`` commands there).
    """
    package = root / "proj"
    (package / "spiders").mkdir(parents=True)
    (root / "scrapy.cfg").write_text("[settings]\ndefault = proj.settings\n", encoding="utf-8")
    (package / "__init__.py").write_text("", encoding="utf-8")
    base = (
        'SPIDER_MODULES = ["proj.spiders"]\n'
        'ADDONS = {"scrapy_boilerplate.Addon": 300}\n'
        "ROBOTSTXT_OBEY = False\nTELNETCONSOLE_ENABLED = False\n"
    )
    (package / "settings.py").write_text(base + textwrap.dedent(settings), encoding="utf-8")
    (package / "spiders" / "__init__.py").write_text(textwrap.dedent(spiders), encoding="utf-8")
    return root


def run_scrapy(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """``scrapy ARGS...`` run in ``cwd`` (a project folder, say), its output captured."""
    return subprocess.run(
        [sys.executable, "-m", "scrapy", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def installed_reactor_path() -> str:
    """The import path of the running reactor (Scrapy checks TWISTED_REACTOR against it)."""
    from twisted.internet import reactor

    return f"{type(reactor).__module__}.{type(reactor).__name__}"


def base_settings(**overrides: Any) -> dict[str, Any]:
    settings: dict[str, Any] = {
        "TWISTED_REACTOR": installed_reactor_path(),
        "TELNETCONSOLE_ENABLED": False,
        "REMOTE_CONTROL_ENABLED": False,
        "ROBOTSTXT_OBEY": False,
        "LOG_LEVEL": "WARNING",
        "ADDONS": {"scrapy_boilerplate.Addon": 300},
        # site templates are on by default: keep each test crawl's site states to itself
        # (the default store is a file in .scrapy, and every test site is 127.0.0.1)
        "BOILERPLATE_SITE_STORE": "memory",
    }
    settings.update(overrides)
    return settings


class CrawlResult:
    """What one crawl produced: scraped and dropped items, stats and the spider."""

    def __init__(self, crawler: Crawler) -> None:
        self.crawler = crawler
        self.items: list[Any] = []
        self.dropped: list[Any] = []
        crawler.signals.connect(self._scraped, signal=signals.item_scraped)
        crawler.signals.connect(self._dropped, signal=signals.item_dropped)

    def _scraped(self, item: Any) -> None:
        self.items.append(item)

    def _dropped(self, item: Any) -> None:
        self.dropped.append(item)

    @property
    def stats(self) -> dict[str, Any]:
        assert self.crawler.stats is not None
        return self.crawler.stats.get_stats()

    def boilerplate_stats(self) -> dict[str, Any]:
        return {key: value for key, value in self.stats.items() if key.startswith("boilerplate/")}

    @property
    def spider(self) -> SiteSpider:
        assert isinstance(self.crawler.spider, SiteSpider)
        return self.crawler.spider


@defer.inlineCallbacks
def crawl(
    settings: dict[str, Any], *, spider_class: type[SiteSpider] = SiteSpider, **spider_kwargs: Any
) -> Any:
    """Crawl with :class:`SiteSpider` (or ``spider_class``) on the running reactor; results in a
    :class:`CrawlResult`."""
    runner = CrawlerRunner(settings)
    crawler = runner.create_crawler(spider_class)
    result = CrawlResult(crawler)
    yield runner.crawl(crawler, **spider_kwargs)
    return result
