"""The storage pipeline: every article item goes to the database, or to the spool.

Settings (all optional):

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
from scrapy.utils.defer import maybe_deferred_to_future
from twisted.internet import threads
from twisted.python.threadpool import ThreadPool

from .storage import SPOOLED, ArticleRecord, ResilientWriter, Spool, open_store

__all__ = ["ArticleStoragePipeline", "PROJECT_DIR", "record_from_item"]

logger = logging.getLogger(__name__)

#: The project directory (holding scrapy.cfg): relative paths in the settings start here.
PROJECT_DIR = Path(__file__).resolve().parent.parent
STATS_PREFIX = "newsroom/storage"


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
