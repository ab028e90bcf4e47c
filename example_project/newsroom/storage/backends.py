"""Article stores: SQLite (embedded default) and PostgreSQL (psycopg 3), one schema for both.

Tables: ``articles`` (one row per URL, the current version) and ``article_versions`` (every
distinct content a URL has had, version 1 first). ``upsert`` is idempotent: the same content
again only moves ``last_fetched``; new content bumps ``version`` and adds a history row; a
record older than the stored row with other content (a late spool replay) only goes to history.
Driver errors surface as :class:`StoreError` and drop the connection, so the next call reconnects.

Metadata (published, modified, authors, language, canonical URL, description, image) and the
page type are not content: they take no part in "changed" detection (the content hash covers
title and text only), so they never make a version. Every write that is not stale merges them
into the row: a value the record has replaces the stored one, a value it lacks (None, no
authors) keeps the stored one. History rows hold content only.

Databases created before a column existed get it when a store opens them
(:data:`ADDED_COLUMNS`, ``ALTER TABLE ... ADD COLUMN``): nothing is dropped or rewritten.
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
from abc import ABC, abstractmethod
from dataclasses import dataclass
from datetime import datetime, timezone
from enum import Enum
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

from .records import ArticleRecord

__all__ = [
    "ADDED_COLUMNS",
    "Outcome",
    "StoreError",
    "StoredArticle",
    "ArticleStore",
    "SQLiteStore",
    "PostgresStore",
    "open_store",
]

#: Columns of ``articles`` added after the first schema, with their type (``{json}`` is the
#: dialect's JSON type). Both new and migrated databases have them last, in this order.
ADDED_COLUMNS: tuple[tuple[str, str], ...] = (
    ("published", "TEXT"),
    ("modified", "TEXT"),
    ("authors", "{json} NOT NULL DEFAULT '[]'"),
    ("language", "TEXT"),
    ("description", "TEXT"),
    ("image", "TEXT"),
    ("page_type", "TEXT"),
)
#: Metadata columns merged on every write that is not stale (see the module docstring).
_MERGED = ("canonical_url", *(name for name, _ in ADDED_COLUMNS))

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
    *(name for name, _ in ADDED_COLUMNS),
)

#: The one schema of both databases; ``{id}``, ``{ref}``, ``{json}`` and ``{time}`` are the
#: dialect's types, ``{added}`` the :data:`ADDED_COLUMNS` (see :data:`SQLITE_SCHEMA` and
#: :data:`POSTGRES_SCHEMA`).
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
    last_changed {time} NOT NULL,
    {added}
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


def _schema(**types: str) -> str:
    """:data:`SCHEMA_TEMPLATE` with the dialect's ``id``, ``ref``, ``json`` and ``time`` types."""
    added = ",\n    ".join(f"{name} {kind.format(**types)}" for name, kind in ADDED_COLUMNS)
    return SCHEMA_TEMPLATE.format(added=added, **types)


#: SQLite: JSON as TEXT, timestamps as ISO 8601 UTC TEXT (microseconds, so they sort).
#: ``published`` and ``modified`` are TEXT in both databases: the page's ISO 8601 value (a date
#: alone, or a date and time with its offset), or the value as found when it is not a date.
SQLITE_SCHEMA = _schema(
    id="INTEGER PRIMARY KEY AUTOINCREMENT", ref="INTEGER", json="TEXT", time="TEXT"
)
POSTGRES_SCHEMA = _schema(
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


@dataclass(frozen=True)
class StoredArticle:
    """A row of ``articles`` as read back (timestamps timezone-aware UTC)."""

    url: str
    title: str | None
    text: str
    version: int
    first_seen: datetime
    last_fetched: datetime
    last_changed: datetime
    canonical_url: str | None
    published: str | None
    modified: str | None
    authors: tuple[str, ...]
    language: str | None
    description: str | None
    image: str | None
    page_type: str | None


class ArticleStore(ABC):
    """A database of articles reached through a DB-API connection opened on first use."""

    #: Parameter placeholder of the driver.
    mark = "?"
    #: The dialect's JSON column type (for :data:`ADDED_COLUMNS`).
    json_type = "TEXT"

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

    @abstractmethod
    def _columns(self, conn: Any) -> set[str]:
        """The column names of ``articles``."""

    def _add_missing_columns(self, conn: Any) -> list[str]:
        """Add the :data:`ADDED_COLUMNS` an older database lacks; return their names.

        Checks without a lock first (the common case: nothing to do), then again inside a write
        transaction, so two stores opening one old database add each column once.
        """
        if all(name in self._columns(conn) for name, _ in ADDED_COLUMNS):
            return []
        self._begin(conn)
        try:
            present = self._columns(conn)
            missing = [(name, kind) for name, kind in ADDED_COLUMNS if name not in present]
            for name, kind in missing:
                conn.execute(
                    f"ALTER TABLE articles ADD COLUMN {name} {kind.format(json=self.json_type)}"
                )
            conn.execute("COMMIT")
        except BaseException:
            with contextlib.suppress(Exception):
                conn.execute("ROLLBACK")
            raise
        return [name for name, _ in missing]

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
                    record.published,
                    record.modified,
                    record.authors_json,
                    record.language,
                    record.description,
                    record.image,
                    record.page_type,
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
                f"UPDATE articles SET last_fetched = {m}, {self._merge_clause()} "
                f"WHERE id = {m} AND last_fetched < {m}",
                (now, *self._merge_values(record), article_id, now),
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
            f"UPDATE articles SET title = {m}, article_text = {m}, "
            f"extractor = {m}, extractor_options = {m}, content_hash = {m}, version = {m}, "
            f"last_fetched = {m}, last_changed = {m}, {self._merge_clause()} WHERE id = {m}",
            (
                record.title,
                record.text,
                record.extractor,
                record.options_json,
                digest,
                new_version,
                now,
                now,
                *self._merge_values(record),
                article_id,
            ),
        )
        self._add_version(conn, article_id, new_version, record, digest, now)
        return Outcome.UPDATED

    def _merge_clause(self) -> str:
        """``SET`` assignments of the metadata: the record's value, or the stored one if None."""
        return ", ".join(f"{name} = COALESCE({self.mark}, {name})" for name in _MERGED)

    @staticmethod
    def _merge_values(record: ArticleRecord) -> tuple[Any, ...]:
        values = {
            "canonical_url": record.canonical_url,
            "published": record.published,
            "modified": record.modified,
            "authors": record.authors_json if record.authors else None,
            "language": record.language,
            "description": record.description,
            "image": record.image,
            "page_type": record.page_type,
        }
        return tuple(values[name] for name in _MERGED)

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
        return int(self._read("SELECT COUNT(*) FROM articles")[0][0])

    def articles(self) -> list[StoredArticle]:
        """Every stored article, by URL (raises :class:`StoreError` if unreachable)."""
        rows = self._read(
            "SELECT url, title, article_text, version, first_seen, last_fetched, last_changed, "
            "canonical_url, published, modified, authors, language, description, image, page_type "
            "FROM articles ORDER BY url"
        )
        return [self._stored_article(tuple(row)) for row in rows]

    def _stored_article(self, row: tuple[Any, ...]) -> StoredArticle:
        authors = json.loads(row[10]) if isinstance(row[10], str) else row[10]
        return StoredArticle(
            url=row[0],
            title=row[1],
            text=row[2],
            version=int(row[3]),
            first_seen=self._as_datetime(row[4]),
            last_fetched=self._as_datetime(row[5]),
            last_changed=self._as_datetime(row[6]),
            canonical_url=row[7],
            published=row[8],
            modified=row[9],
            authors=tuple(authors or ()),
            language=row[11],
            description=row[12],
            image=row[13],
            page_type=row[14],
        )

    def _read(self, sql: str) -> list[Any]:
        """The rows of a query; :class:`StoreError` (and the connection dropped) if it fails."""
        try:
            if self._conn is None:
                self._conn = self._connect()
            return list(self._conn.execute(sql).fetchall())
        except self._driver_errors() as exc:
            self.close()
            raise StoreError(f"{type(exc).__name__}: {exc}".strip()) from exc

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
        try:
            conn.execute("PRAGMA foreign_keys = ON")
            conn.executescript(SQLITE_SCHEMA)
            self._add_missing_columns(conn)
        except BaseException:
            conn.close()
            raise
        return conn

    def _driver_errors(self) -> tuple[type[BaseException], ...]:
        return (sqlite3.Error,)

    def _begin(self, conn: Any) -> None:
        conn.execute("BEGIN IMMEDIATE")  # take the write lock now: no upgrade deadlock later

    def _columns(self, conn: Any) -> set[str]:
        return {row[1] for row in conn.execute("PRAGMA table_info(articles)")}

    def _timestamp(self, value: datetime) -> str:
        return value.astimezone(timezone.utc).isoformat(timespec="microseconds")


class PostgresStore(ArticleStore):
    """Articles in PostgreSQL through psycopg 3 (``pip install "psycopg[binary]"``)."""

    mark = "%s"
    json_type = "JSONB"

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
        try:
            conn.execute("SELECT pg_advisory_lock(72173)")  # one schema creator at a time
            try:
                conn.execute(POSTGRES_SCHEMA)
                self._add_missing_columns(conn)
            finally:
                conn.execute("SELECT pg_advisory_unlock(72173)")
        except BaseException:
            conn.close()
            raise
        return conn

    def _driver_errors(self) -> tuple[type[BaseException], ...]:
        import psycopg

        return (psycopg.Error,)

    def _begin(self, conn: Any) -> None:
        conn.execute("BEGIN")

    def _lock_clause(self) -> str:
        return " FOR UPDATE"

    def _columns(self, conn: Any) -> set[str]:
        rows = conn.execute(
            "SELECT column_name FROM information_schema.columns "
            "WHERE table_name = 'articles' AND table_schema = current_schema()"
        ).fetchall()
        return {row[0] for row in rows}


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
