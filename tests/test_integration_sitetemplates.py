"""Site templates learnt during a real crawl: hashes come back from the worker process, the
main process learns, later pages are extracted with the site's templates, the state persists."""

from __future__ import annotations

import logging
from collections.abc import Generator, Iterator
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from typing import Any

import pytest
import pytest_twisted
from integration_support import base_settings, crawl, serve
from scrapy.utils.test import get_crawler
from site_pages import PROMO, RELATED, page, related_page

from scrapy_boilerplate.integration.sitetemplates import STORE_FILE_NAME, store_location
from scrapy_boilerplate.site.store import SQLiteStore

Crawl = Generator[Any, Any, None]
PAGES = 10


class _NewsSite(BaseHTTPRequestHandler):
    """``/story/<n>.html`` -> :func:`site_pages.page` n; ``/related/<n>.html`` ->
    :func:`site_pages.related_page` n."""

    def do_GET(self) -> None:
        name = self.path.rsplit("/", 1)[-1].removesuffix(".html")
        if not name.isdigit():
            self.send_error(404)
            return
        make = related_page if self.path.startswith("/related/") else page
        body = make(int(name)).encode()
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
    job = {"JOBDIR": str(tmp_path / "job"), "BOILERPLATE_SITE_STORE": ""}  # the default store
    result = yield crawl(settings(**job), urls=urls)
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
    again = yield crawl(settings(**job), urls=urls[:1])
    assert PROMO not in again.spider.articles[urls[0]].text
    assert again.boilerplate_stats()["boilerplate/site/loaded"] == 1


def default_settings(**overrides: Any) -> dict[str, Any]:
    """The add-on's defaults (its default store included), pages in order."""
    settings = base_settings(CONCURRENT_REQUESTS=1, **overrides)
    del settings["BOILERPLATE_SITE_STORE"]
    return settings


@pytest_twisted.inlineCallbacks
def test_on_by_default_with_the_learned_chain_and_kept_across_a_restart(
    news_site: str, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> Crawl:
    urls = [f"{news_site}related/{n}.html" for n in range(PAGES)]
    job = tmp_path / "job"
    with caplog.at_level(logging.INFO, logger="scrapy_boilerplate"):
        result = yield crawl(default_settings(JOBDIR=str(job)), urls=urls)
    started = [r.getMessage() for r in caplog.records if "site templates on" in r.getMessage()]
    assert len(started) == 1 and str(job / STORE_FILE_NAME) in started[0]
    articles = result.spider.articles
    texts = [articles[url].text for url in urls]
    assert all(articles[url].extractor == "article" for url in urls)
    assert all("Report" in text for text in texts)
    assert all(RELATED in text for text in texts[:4])  # the learned chain keeps it alone
    assert not any(RELATED in text for text in texts[5:])  # the site's template drops it
    stats = result.boilerplate_stats()
    assert stats["boilerplate/site/sites_learnt"] == 1
    assert stats["boilerplate/site/pages_with_templates"] >= PAGES - 5
    assert stats["boilerplate/site/blocks_dropped"] >= PAGES - 5
    store = SQLiteStore(job / STORE_FILE_NAME)
    state = store.load("127.0.0.1")
    store.close()
    assert state is not None and state.pages == PAGES and state.templates

    # restarted on the same JOBDIR: the first page already goes without the related line
    again = yield crawl(default_settings(JOBDIR=str(job)), urls=urls[:1])
    assert RELATED not in again.spider.articles[urls[0]].text
    stats = again.boilerplate_stats()
    assert stats["boilerplate/site/loaded"] == 1 and stats["boilerplate/site/blocks_dropped"] >= 1


@pytest_twisted.inlineCallbacks
def test_a_setting_turns_it_off(news_site: str) -> Crawl:
    urls = [f"{news_site}related/{n}.html" for n in range(PAGES)]
    result = yield crawl(
        default_settings(BOILERPLATE_SITE_TEMPLATES=False, BOILERPLATE_PROCESSES=0), urls=urls
    )
    assert all(RELATED in result.spider.articles[url].text for url in urls)
    assert not any(key.startswith("boilerplate/site/") for key in result.boilerplate_stats())


@pytest_twisted.inlineCallbacks
def test_pages_of_an_extractor_without_the_option_are_not_hashed(news_site: str) -> Crawl:
    urls = [f"{news_site}related/{n}.html" for n in range(6)]
    result = yield crawl(
        base_settings(BOILERPLATE_EXTRACTOR="numwords", BOILERPLATE_PROCESSES=0), urls=urls
    )
    stats = result.boilerplate_stats()
    assert stats["boilerplate/responses/processed"] == 6
    assert not any(key.startswith("boilerplate/site/") for key in stats)
    assert all(article.site_fingerprint is None for article in result.spider.articles.values())


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


def test_the_default_store_is_a_file_in_dot_scrapy_without_jobdir(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # no project here: .scrapy in the current folder
    location = Path(store_location(get_crawler(settings_dict={})))
    assert location.name == STORE_FILE_NAME and location.parent.name == ".scrapy"
    assert location.parent.is_dir() and not location.exists()
    store = SQLiteStore(location)  # opens: the path is not taken by a folder
    store.close()
    jobdir = get_crawler(settings_dict={"JOBDIR": str(tmp_path / "job")})
    assert store_location(jobdir) == str(tmp_path / "job" / STORE_FILE_NAME)
