"""The pipelines: the page-type filter, then storage (every article item goes to the database,
or to the spool).

Page-type filter: ``NEWSROOM_KEEP_PAGE_TYPES`` lists the page types to keep (see
:class:`PageTypeFilterPipeline`); None or empty (the default) keeps every item.

Storage settings (all optional):

* ``DATABASE_URL``: ``sqlite:///data/articles.sqlite3`` (default; relative to the project
  directory) or ``postgresql://user:password@host:5432/dbname``. The environment variable
  ``DATABASE_URL`` sets it too (see ``settings.py``).
* ``STORAGE_SPOOL_PATH``: the JSON-lines spool (default ``data/spool.jsonl``).
* ``STORAGE_RETRY_TIMES`` (3), ``STORAGE_RETRY_BACKOFF`` (0.5 s, doubled per retry),
  ``STORAGE_REOPEN_AFTER`` (10 s without trying a database declared down),
  ``STORAGE_SQLITE_TIMEOUT`` (5 s waiting on a locked SQLite file).

Writes run in one worker thread, so the crawl never waits on the database. Stats:
``newsroom/storage/{inserted,updated,unchanged,stale,spooled,retries,write_errors,skipped}``.
The item always goes on (to feed exports), stored or spooled.
"""

from __future__ import annotations

import logging
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from itemadapter import ItemAdapter
from scrapy import Spider
from scrapy.crawler import Crawler
from scrapy.exceptions import DropItem, NotConfigured
from scrapy.utils.defer import maybe_deferred_to_future
from twisted.internet import threads
from twisted.python.threadpool import ThreadPool

from scrapy_boilerplate.classifiers.page_type import PAGE_TYPES

from .storage import SPOOLED, ArticleRecord, ResilientWriter, Spool, open_store

__all__ = [
    "ArticleStoragePipeline",
    "PAGE_TYPE_FIELD",
    "PROJECT_DIR",
    "PageTypeFilterPipeline",
    "record_from_item",
]

logger = logging.getLogger(__name__)

#: The project directory (holding scrapy.cfg): relative paths in the settings start here.
PROJECT_DIR = Path(__file__).resolve().parent.parent
STATS_PREFIX = "newsroom/storage"
#: The item field the add-on fills with the page type (``BOILERPLATE_PAGE_TYPE_FIELD = True``).
PAGE_TYPE_FIELD = "article_page_type"
PAGE_TYPE_STATS_PREFIX = "newsroom/page_type"


def record_from_item(item: Any) -> ArticleRecord | None:
    """The record of an article item; None if it has no URL or no article text.

    Metadata comes from the add-on's ``article_*`` fields; a value of the wrong type (not a
    string, authors not a list of strings) is stored as missing.
    """
    adapter = ItemAdapter(item)
    url, text = adapter.get("url"), adapter.get("article_text")
    if not isinstance(url, str) or not url or not isinstance(text, str) or not text.strip():
        return None
    return ArticleRecord(
        url=url,
        title=_text(adapter.get("article_title")),
        text=text,
        canonical_url=_text(adapter.get("article_canonical_url")),
        extractor=_text(adapter.get("extractor")),
        extractor_options=dict(adapter.get("extractor_options") or {}),
        fetched_at=_fetched_at(adapter.get("fetched_at")),
        published=_text(adapter.get("article_published")),
        modified=_text(adapter.get("article_modified")),
        authors=_names(adapter.get("article_authors")),
        language=_text(adapter.get("article_language")),
        description=_text(adapter.get("article_description")),
        image=_text(adapter.get("article_image")),
        page_type=_text(adapter.get(PAGE_TYPE_FIELD)),
    )


def _text(value: Any) -> str | None:
    """A non-empty string, else None."""
    return value if isinstance(value, str) and value.strip() else None


def _names(value: Any) -> tuple[str, ...]:
    """The non-empty strings of a list or tuple (anything else: none)."""
    if not isinstance(value, (list, tuple)):
        return ()
    return tuple(name for name in value if isinstance(name, str) and name.strip())


def _fetched_at(value: Any) -> datetime:
    """``fetched_at`` as an aware datetime (UTC if it has no offset); now if missing or bad."""
    try:
        fetched = datetime.fromisoformat(value) if isinstance(value, str) else None
    except ValueError:
        fetched = None
    if fetched is None:
        return datetime.now(timezone.utc)
    return fetched if fetched.tzinfo else fetched.replace(tzinfo=timezone.utc)


class PageTypeFilterPipeline:
    """Drop the items whose page type is not one of ``NEWSROOM_KEEP_PAGE_TYPES``.

    The setting lists page types (``["article"]``; ``-s NEWSROOM_KEEP_PAGE_TYPES=article,forum``
    on the command line); None or empty disables the filter. An unknown page type is a
    ``ValueError`` when the crawl starts. An item without a page type (an extractor that does
    not classify pages, or ``BOILERPLATE_PAGE_TYPE_FIELD`` off) is always kept. Each drop is
    logged (Scrapy's "Dropped:" line, at INFO) and counted in ``newsroom/page_type/dropped`` and
    ``newsroom/page_type/dropped/<page type>``.
    """

    def __init__(self, crawler: Crawler, keep: frozenset[str]) -> None:
        self.crawler = crawler
        self.keep = keep

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> PageTypeFilterPipeline:
        names = crawler.settings.getlist("NEWSROOM_KEEP_PAGE_TYPES")
        keep = frozenset(name.strip() for name in names if name.strip())
        if not keep:
            raise NotConfigured("NEWSROOM_KEEP_PAGE_TYPES is empty: every page type is kept")
        unknown = sorted(keep.difference(PAGE_TYPES))
        if unknown:
            raise ValueError(
                f"NEWSROOM_KEEP_PAGE_TYPES: unknown page type(s) {', '.join(unknown)}; "
                f"the page types are {', '.join(PAGE_TYPES)}"
            )
        if not crawler.settings.get("BOILERPLATE_PAGE_TYPE_FIELD"):
            logger.warning(
                "NEWSROOM_KEEP_PAGE_TYPES is set but BOILERPLATE_PAGE_TYPE_FIELD is off: "
                "items carry no page type and none is dropped"
            )
        return cls(crawler, keep)

    def process_item(self, item: Any, spider: Spider | None = None) -> Any:
        page_type = _text(ItemAdapter(item).get(PAGE_TYPE_FIELD))
        if page_type is None or page_type in self.keep:
            return item
        stats = self.crawler.stats
        if stats is not None:
            stats.inc_value(f"{PAGE_TYPE_STATS_PREFIX}/dropped")
            stats.inc_value(f"{PAGE_TYPE_STATS_PREFIX}/dropped/{page_type}")
        raise DropItem(
            f"page type {page_type!r} is not in NEWSROOM_KEEP_PAGE_TYPES "
            f"({', '.join(sorted(self.keep))})",
            log_level="INFO",
        )


class ArticleStoragePipeline:
    """Upsert article items into SQLite or PostgreSQL; retry, then spool, when writes fail."""

    def __init__(self, crawler: Crawler) -> None:
        settings = crawler.settings
        self.crawler = crawler
        store = open_store(
            settings.get("DATABASE_URL") or "sqlite:///data/articles.sqlite3",
            base_dir=PROJECT_DIR,
            sqlite_timeout=settings.getfloat("STORAGE_SQLITE_TIMEOUT", 5.0),
        )
        spool = Spool(PROJECT_DIR / settings.get("STORAGE_SPOOL_PATH", "data/spool.jsonl"))
        self.writer = ResilientWriter(
            store,
            spool,
            retry_times=settings.getint("STORAGE_RETRY_TIMES", 3),
            backoff=settings.getfloat("STORAGE_RETRY_BACKOFF", 0.5),
            reopen_after=settings.getfloat("STORAGE_REOPEN_AFTER", 10.0),
            on_event=self._inc,
        )
        self._pool = ThreadPool(minthreads=1, maxthreads=1, name="newsroom-storage")

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> ArticleStoragePipeline:
        return cls(crawler)

    def _inc(self, name: str) -> None:
        if self.crawler.stats is not None:
            self.crawler.stats.inc_value(f"{STATS_PREFIX}/{name}")

    def open_spider(self, spider: Spider | None = None) -> None:
        self._pool.start()
        logger.info(
            "Storing articles in %s (spool: %s)",
            self.writer.store.description,
            self.writer.spool.path,
        )

    async def process_item(self, item: Any, spider: Spider | None = None) -> Any:
        record = record_from_item(item)
        if record is None:
            self._inc("skipped")
            logger.debug("Not stored (no URL or no article text): %r", ItemAdapter(item).get("url"))
            return item
        from twisted.internet import reactor

        try:
            outcome = await maybe_deferred_to_future(
                threads.deferToThreadPool(reactor, self._pool, self.writer.write, record)  # type: ignore[arg-type]
            )
        except (
            Exception
        ) as exc:  # the spool itself failed (disk full...): say so loudly, keep the item going
            self._inc("lost")
            logger.error("Could not store or spool %s: %r", record.url, exc)
            return item
        self._inc(outcome)
        return item

    def close_spider(self, spider: Spider | None = None) -> None:
        self._pool.stop()
        self.writer.store.close()
        stats = self.crawler.stats
        spooled = stats.get_value(f"{STATS_PREFIX}/{SPOOLED}", 0) if stats is not None else 0
        if spooled:
            logger.error(
                "%d article(s) were spooled to %s because %s was unavailable; "
                "run `scrapy replay_spool` once the database is back.",
                spooled,
                self.writer.spool.path,
                self.writer.store.description,
            )
