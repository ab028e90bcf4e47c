"""Site templates learnt during a real crawl: hashes come back from the worker process, the
main process learns, later pages are extracted with the site's templates, the state persists."""

from __future__ import annotations

from collections.abc import Generator, Iterator
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from typing import Any

import pytest
import pytest_twisted
from integration_support import base_settings, crawl, serve
from site_pages import PROMO, page

from scrapy_boilerplate.integration.sitetemplates import STORE_FILE_NAME
from scrapy_boilerplate.site.store import SQLiteStore

Crawl = Generator[Any, Any, None]
PAGES = 10


class _NewsSite(BaseHTTPRequestHandler):
    """``/story/<n>.html`` -> :func:`site_pages.page` n."""

    def do_GET(self) -> None:
        name = self.path.rsplit("/", 1)[-1].removesuffix(".html")
        if not name.isdigit():
            self.send_error(404)
            return
        body = page(int(name)).encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture(scope="module")
def news_site() -> Iterator[str]:
    yield from serve(_NewsSite)


def settings(**overrides: Any) -> dict[str, Any]:
    return base_settings(
        # the rule chain keeps the repeated promo by itself: the templates are what drop it
        BOILERPLATE_EXTRACTOR="article-rules",
        BOILERPLATE_SITE_TEMPLATES=True,
        BOILERPLATE_PROCESSES=1,
        CONCURRENT_REQUESTS=1,  # pages come back in order: page k learns from pages < k
        **overrides,
    )


def texts_by_page(result: Any, base: str) -> list[str]:
    articles = result.spider.articles
    return [articles[f"{base}story/{n}.html"].text for n in range(PAGES) if n < len(articles)]


@pytest_twisted.inlineCallbacks
def test_templates_are_learnt_and_applied_during_the_crawl(news_site: str, tmp_path: Path) -> Crawl:
    urls = [f"{news_site}story/{n}.html" for n in range(PAGES)]
    result = yield crawl(settings(JOBDIR=str(tmp_path / "job")), urls=urls)
    texts = texts_by_page(result, news_site)
    assert all("Headline" in text and "Report" in text for text in texts)
    assert all(PROMO in text for text in texts[:4])  # nothing known yet
    assert not any(PROMO in text for text in texts[5:])  # learnt from the pages before
    stats = result.boilerplate_stats()
    assert stats["boilerplate/site/pages_learnt"] == PAGES
    assert stats["boilerplate/site/sites"] == 1
    assert stats["boilerplate/site/pages_with_templates"] >= PAGES - 5
    assert stats["boilerplate/site/fingerprint_bytes"] > 0
    assert stats["boilerplate/workers/processes"] == 1
    assert stats["boilerplate/responses/processed"] == PAGES
    store = SQLiteStore(tmp_path / "job" / STORE_FILE_NAME)
    state = store.load("127.0.0.1")
    store.close()
    assert state is not None and state.pages == PAGES and state.templates

    # a second crawl starts warm: its first page already goes without the promo
    again = yield crawl(settings(JOBDIR=str(tmp_path / "job")), urls=urls[:1])
    assert PROMO not in again.spider.articles[urls[0]].text
    assert again.boilerplate_stats()["boilerplate/site/loaded"] == 1


@pytest_twisted.inlineCallbacks
def test_off_by_default(news_site: str) -> Crawl:
    urls = [f"{news_site}story/{n}.html" for n in range(PAGES)]
    result = yield crawl(
        base_settings(
            BOILERPLATE_EXTRACTOR="article-rules", CONCURRENT_REQUESTS=1, BOILERPLATE_PROCESSES=0
        ),
        urls=urls,
    )
    assert all(PROMO in text for text in texts_by_page(result, news_site))
    assert not any(key.startswith("boilerplate/site/") for key in result.boilerplate_stats())


@pytest_twisted.inlineCallbacks
def test_a_store_that_cannot_open_stops_learning_not_the_crawl(
    news_site: str, tmp_path: Path
) -> Crawl:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    urls = [f"{news_site}story/{n}.html" for n in range(3)]
    result = yield crawl(
        base_settings(
            BOILERPLATE_EXTRACTOR="article-rules",
            BOILERPLATE_SITE_TEMPLATES=True,
            BOILERPLATE_SITE_STORE=str(blocker / "sites.sqlite3"),
            BOILERPLATE_PROCESSES=0,
        ),
        urls=urls,
    )
    assert all(PROMO in text for text in texts_by_page(result, news_site)[:3])
    stats = result.boilerplate_stats()
    assert stats["boilerplate/site/errors"] == 1
    assert stats["boilerplate/responses/processed"] == 3
