"""Where site states persist between crawls: a small interface, SQLite and Redis behind it.

A store maps a site key to the blob of its :class:`~.state.SiteState`. Loads happen when a
site is first met; saves when the learner flushes (every few pages of a site, and when the
crawl closes). Only hashes and counts are stored, never page text.

Several crawler processes may share a Redis store: each loads a site's state when it first
meets the site and saves what it learnt; the last save of a site wins (counts another process
saved in between are overwritten, not added).
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any, Protocol

from .state import SiteState

__all__ = ["SiteStore", "MemoryStore", "SQLiteStore", "RedisStore", "open_store"]


class SiteStore(Protocol):
    """Site key -> site state."""

    def load(self, site: str) -> SiteState | None:
        """The saved state of ``site`` (None if none, or unreadable)."""

    def save(self, states: dict[str, SiteState]) -> None:
        """Save these sites' states (replacing what was saved for them)."""

    def close(self) -> None:
        """Release the connection."""


class MemoryStore:
    """Keeps the blobs in a dict: nothing outlives the process."""

    def __init__(self) -> None:
        self.blobs: dict[str, bytes] = {}

    def load(self, site: str) -> SiteState | None:
        blob = self.blobs.get(site)
        return _state(blob)

    def save(self, states: dict[str, SiteState]) -> None:
        self.blobs.update((site, state.to_bytes()) for site, state in states.items())

    def close(self) -> None:
        pass


class SQLiteStore:
    """One SQLite file, table ``site_state(site TEXT PRIMARY KEY, state BLOB)``.

    The file is in write-ahead-log mode with ``synchronous = NORMAL``: a save is a write, not
    a wait for the disk (a crawl saves from its event loop). A crash of the process loses
    nothing saved; a power cut may lose the last saves (learnt again on the next pages).
    """

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(str(self.path))
        self._db.execute("PRAGMA journal_mode = WAL")  # stays as it was where WAL cannot be
        self._db.execute("PRAGMA synchronous = NORMAL")
        self._db.execute(
            "CREATE TABLE IF NOT EXISTS site_state (site TEXT PRIMARY KEY, state BLOB NOT NULL)"
        )
        self._db.commit()

    def load(self, site: str) -> SiteState | None:
        row = self._db.execute("SELECT state FROM site_state WHERE site = ?", (site,)).fetchone()
        return _state(row[0] if row else None)

    def save(self, states: dict[str, SiteState]) -> None:
        if not states:
            return
        with self._db:
            self._db.executemany(
                "INSERT OR REPLACE INTO site_state (site, state) VALUES (?, ?)",
                [(site, state.to_bytes()) for site, state in states.items()],
            )

    def close(self) -> None:
        self._db.close()


class RedisStore:
    """One Redis string per site, key ``<prefix>:<site>`` (needs the ``redis`` package)."""

    def __init__(self, url: str, prefix: str = "boilerplate:site") -> None:
        import redis  # the distributed extra installs it

        self.prefix = prefix
        self._redis: Any = redis.Redis.from_url(url)

    def load(self, site: str) -> SiteState | None:
        return _state(self._redis.get(f"{self.prefix}:{site}"))

    def save(self, states: dict[str, SiteState]) -> None:
        if states:
            self._redis.mset(
                {f"{self.prefix}:{s}": state.to_bytes() for s, state in states.items()}
            )

    def close(self) -> None:
        self._redis.close()


def _state(blob: bytes | None) -> SiteState | None:
    if not blob:
        return None
    try:
        return SiteState.from_bytes(bytes(blob))
    except ValueError:  # written by another version, or damaged: start afresh
        return None


def open_store(location: str) -> SiteStore:
    """``memory``, a ``redis://``/``rediss://``/``unix://`` URL, or a SQLite file path."""
    if location == "memory":
        return MemoryStore()
    if location.startswith(("redis://", "rediss://", "unix://")):
        return RedisStore(location)
    return SQLiteStore(location)
