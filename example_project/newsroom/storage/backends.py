"""Article stores: SQLite (embedded default) and PostgreSQL (psycopg 3), one schema for both.

Tables: ``articles`` (one row per URL, the current version) and ``article_versions`` (every
distinct content a URL has had, version 1 first). ``upsert`` is idempotent: the same content
again only moves ``last_fetched``; new content bumps ``version`` and adds a history row; a
record older than the stored row with other content (a late spool replay) only goes to history.
Driver errors surface as :class:`StoreError` and drop the connection, so the next call reconnects.
"""

from __future__ import annotations

import contextlib
import sqlite3
from abc import ABC, abstractmethod
from datetime import datetime, timezone
from enum import Enum
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

from .records import ArticleRecord

__all__ = ["Outcome", "StoreError", "ArticleStore", "SQLiteStore", "PostgresStore", "open_store"]

_COLUMNS = (
    "url",
    "canonical_url",
    "domain",
    "title",
    "article_text",
    "extractor",
    "extractor_options",
    "content_hash",
    "version",
    "first_seen",
    "last_fetched",
    "last_changed",
)

#: The one schema of both databases; ``{id}``, ``{ref}``, ``{json}`` and ``{time}`` are the
#: dialect's types (see :data:`SQLITE_SCHEMA` and :data:`POSTGRES_SCHEMA`).
SCHEMA_TEMPLATE = """
CREATE TABLE IF NOT EXISTS articles (
    id {id},
    url TEXT NOT NULL UNIQUE,
    canonical_url TEXT,
    domain TEXT NOT NULL,
    title TEXT,
    article_text TEXT NOT NULL,
    extractor TEXT,
    extractor_options {json} NOT NULL DEFAULT '{{}}',
    content_hash TEXT NOT NULL,
    version INTEGER NOT NULL DEFAULT 1,
    first_seen {time} NOT NULL,
    last_fetched {time} NOT NULL,
    last_changed {time} NOT NULL
);
CREATE INDEX IF NOT EXISTS articles_domain ON articles (domain);
CREATE TABLE IF NOT EXISTS article_versions (
    article_id {ref} NOT NULL REFERENCES articles (id) ON DELETE CASCADE,
    version INTEGER NOT NULL,
    title TEXT,
    article_text TEXT NOT NULL,
    content_hash TEXT NOT NULL,
    extractor TEXT,
    extractor_options {json} NOT NULL DEFAULT '{{}}',
    fetched_at {time} NOT NULL,
    PRIMARY KEY (article_id, version)
);
"""
#: SQLite: JSON as TEXT, timestamps as ISO 8601 UTC TEXT (microseconds, so they sort).
SQLITE_SCHEMA = SCHEMA_TEMPLATE.format(
    id="INTEGER PRIMARY KEY AUTOINCREMENT", ref="INTEGER", json="TEXT", time="TEXT"
)
POSTGRES_SCHEMA = SCHEMA_TEMPLATE.format(
    id="BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY",
    ref="BIGINT",
    json="JSONB",
    time="TIMESTAMPTZ",
)


class Outcome(str, Enum):
    """What an upsert did."""

    INSERTED = "inserted"
    UPDATED = "updated"
    UNCHANGED = "unchanged"
    STALE = "stale"  # older than the stored row: kept in history only


class StoreError(Exception):
    """The database is unreachable or refused a write."""


class ArticleStore(ABC):
    """A database of articles reached through a DB-API connection opened on first use."""

    #: Parameter placeholder of the driver.
    mark = "?"

    def __init__(self) -> None:
        self._conn: Any = None

    @property
    @abstractmethod
    def description(self) -> str:
        """Where the data goes, for log lines (no password)."""

    @abstractmethod
    def _connect(self) -> Any:
        """Open a connection and create the schema if needed."""

    @abstractmethod
    def _driver_errors(self) -> tuple[type[BaseException], ...]:
        """The driver's exception classes that mean "this write failed"."""

    @abstractmethod
    def _begin(self, conn: Any) -> None:
        """Start a write transaction."""

    def _lock_clause(self) -> str:
        return ""

    def _timestamp(self, value: datetime) -> Any:
        return value

    def _insert_returning_id(self, conn: Any, sql: str, params: tuple[Any, ...]) -> int | None:
        row = conn.execute(sql + " RETURNING id", params).fetchone()
        return None if row is None else int(row[0])

    def upsert(self, record: ArticleRecord) -> Outcome:
        """Store ``record``; raise :class:`StoreError` (and drop the connection) if that fails."""
        try:
            if self._conn is None:
                self._conn = self._connect()
            return self._upsert(self._conn, record)
        except self._driver_errors() as exc:
            self.close()
            raise StoreError(f"{type(exc).__name__}: {exc}".strip()) from exc

    def _upsert(self, conn: Any, record: ArticleRecord) -> Outcome:
        m = self.mark
        now = self._timestamp(record.fetched_at)
        digest = record.content_hash
        self._begin(conn)
        try:
            row = conn.execute(
                "SELECT id, content_hash, version, last_fetched FROM articles "
                f"WHERE url = {m}{self._lock_clause()}",
                (record.url,),
            ).fetchone()
            if row is None:
                values = (
                    record.url,
                    record.canonical_url,
                    record.domain,
                    record.title,
                    record.text,
                    record.extractor,
                    record.options_json,
                    digest,
                    1,
                    now,
                    now,
                    now,
                )
                article_id = self._insert_returning_id(
                    conn,
                    f"INSERT INTO articles ({', '.join(_COLUMNS)}) "
                    f"VALUES ({', '.join([m] * len(_COLUMNS))})",
                    values,
                )
                self._add_version(conn, article_id, 1, record, digest, now)
                outcome = Outcome.INSERTED
            else:
                article_id, stored_hash, version, last_fetched = row
                outcome = self._update(
                    conn,
                    record,
                    digest,
                    now,
                    int(article_id),
                    stored_hash,
                    int(version),
                    last_fetched,
                )
            conn.execute("COMMIT")
            return outcome
        except BaseException:
            with contextlib.suppress(
                Exception
            ):  # the connection may be gone: report the first error
                conn.execute("ROLLBACK")
            raise

    def _update(
        self,
        conn: Any,
        record: ArticleRecord,
        digest: str,
        now: Any,
        article_id: int,
        stored_hash: str,
        version: int,
        last_fetched: Any,
    ) -> Outcome:
        m = self.mark
        if stored_hash == digest:
            conn.execute(
                f"UPDATE articles SET last_fetched = {m} WHERE id = {m} AND last_fetched < {m}",
                (now, article_id, now),
            )
            return Outcome.UNCHANGED
        if self._as_datetime(last_fetched) > record.fetched_at:
            known = conn.execute(
                f"SELECT 1 FROM article_versions WHERE article_id = {m} AND content_hash = {m}",
                (article_id, digest),
            ).fetchone()
            if known is None:
                self._add_version(
                    conn, article_id, self._next_version(conn, article_id), record, digest, now
                )
            return Outcome.STALE
        new_version = self._next_version(conn, article_id)
        conn.execute(
            f"UPDATE articles SET canonical_url = {m}, title = {m}, article_text = {m}, "
            f"extractor = {m}, extractor_options = {m}, content_hash = {m}, version = {m}, "
            f"last_fetched = {m}, "
            f"last_changed = {m} WHERE id = {m}",
            (
                record.canonical_url,
                record.title,
                record.text,
                record.extractor,
                record.options_json,
                digest,
                new_version,
                now,
                now,
                article_id,
            ),
        )
        self._add_version(conn, article_id, new_version, record, digest, now)
        return Outcome.UPDATED

    def _next_version(self, conn: Any, article_id: int) -> int:
        row = conn.execute(
            "SELECT COALESCE(MAX(version), 0) + 1 FROM article_versions "
            f"WHERE article_id = {self.mark}",
            (article_id,),
        ).fetchone()
        return int(row[0])

    def _add_version(
        self,
        conn: Any,
        article_id: int | None,
        version: int,
        record: ArticleRecord,
        digest: str,
        now: Any,
    ) -> None:
        m = self.mark
        conn.execute(
            "INSERT INTO article_versions (article_id, version, title, article_text, content_hash, "
            f"extractor, extractor_options, fetched_at) VALUES ({', '.join([m] * 8)})",
            (
                article_id,
                version,
                record.title,
                record.text,
                digest,
                record.extractor,
                record.options_json,
                now,
            ),
        )

    @staticmethod
    def _as_datetime(value: Any) -> datetime:
        if isinstance(value, datetime):
            return value if value.tzinfo else value.replace(tzinfo=timezone.utc)
        parsed = datetime.fromisoformat(str(value))
        return parsed if parsed.tzinfo else parsed.replace(tzinfo=timezone.utc)

    def count(self) -> int:
        """Number of stored articles (raises :class:`StoreError` if unreachable)."""
        try:
            if self._conn is None:
                self._conn = self._connect()
            return int(self._conn.execute("SELECT COUNT(*) FROM articles").fetchone()[0])
        except self._driver_errors() as exc:
            self.close()
            raise StoreError(f"{type(exc).__name__}: {exc}") from exc

    def close(self) -> None:
        conn, self._conn = self._conn, None
        if conn is not None:
            with contextlib.suppress(Exception):  # a broken connection may fail to close
                conn.close()


class SQLiteStore(ArticleStore):
    """Articles in a SQLite file (created with its directory).

    ``timeout``: seconds to wait for a lock held by another connection.
    """

    mark = "?"

    def __init__(self, path: str | Path, timeout: float = 5.0) -> None:
        super().__init__()
        self.path = Path(path)
        self.timeout = timeout

    @property
    def description(self) -> str:
        return f"SQLite {self.path}"

    def _connect(self) -> sqlite3.Connection:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        conn = sqlite3.connect(
            self.path, timeout=self.timeout, isolation_level=None, check_same_thread=False
        )
        conn.execute("PRAGMA foreign_keys = ON")
        conn.executescript(SQLITE_SCHEMA)
        return conn

    def _driver_errors(self) -> tuple[type[BaseException], ...]:
        return (sqlite3.Error,)

    def _begin(self, conn: Any) -> None:
        conn.execute("BEGIN IMMEDIATE")  # take the write lock now: no upgrade deadlock later

    def _timestamp(self, value: datetime) -> str:
        return value.astimezone(timezone.utc).isoformat(timespec="microseconds")


class PostgresStore(ArticleStore):
    """Articles in PostgreSQL through psycopg 3 (``pip install "psycopg[binary]"``)."""

    mark = "%s"

    def __init__(self, url: str, connect_timeout: int = 5) -> None:
        super().__init__()
        self.url = url
        self.connect_timeout = connect_timeout

    @property
    def description(self) -> str:
        parts = urlsplit(self.url)
        host = parts.hostname or "localhost"
        return f"PostgreSQL {host}:{parts.port or 5432}{parts.path}"

    def _connect(self) -> Any:
        import psycopg

        conn = psycopg.connect(self.url, autocommit=True, connect_timeout=self.connect_timeout)
        conn.execute("SELECT pg_advisory_lock(72173)")  # one schema creator at a time
        try:
            conn.execute(POSTGRES_SCHEMA)
        finally:
            conn.execute("SELECT pg_advisory_unlock(72173)")
        return conn

    def _driver_errors(self) -> tuple[type[BaseException], ...]:
        import psycopg

        return (psycopg.Error,)

    def _begin(self, conn: Any) -> None:
        conn.execute("BEGIN")

    def _lock_clause(self) -> str:
        return " FOR UPDATE"


def open_store(
    database_url: str, *, base_dir: str | Path = ".", sqlite_timeout: float = 5.0
) -> ArticleStore:
    """The store for ``database_url``.

    ``sqlite:///relative/path`` is resolved against ``base_dir``, ``sqlite:////abs/path`` is
    absolute; ``postgresql://`` and ``postgres://`` URLs go to :class:`PostgresStore`.
    ``ValueError`` for another scheme.
    """
    scheme = database_url.split(":", 1)[0].lower()
    if scheme == "sqlite":
        path = (
            unquote(database_url[len("sqlite:///") :])
            if database_url.startswith("sqlite:///")
            else ""
        )
        if not path:
            raise ValueError(
                f"bad SQLite URL {database_url!r}: use sqlite:///relative.db or sqlite:////abs.db"
            )
        return SQLiteStore(Path(base_dir) / path, timeout=sqlite_timeout)
    if scheme in ("postgresql", "postgres"):
        return PostgresStore(database_url)
    raise ValueError(
        f"unsupported DATABASE_URL scheme {scheme!r} (use sqlite:/// or postgresql://)"
    )
